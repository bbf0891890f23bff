"""The Python API a notebook user meets: load's errors, ignored files, the frames'
categoricals and money, displays, the way from a row to its hand, discoverability."""

from __future__ import annotations

import re
import shutil
import warnings
from pathlib import Path

import pandas as pd
import pytest

import studbook
from studbook.cli import main
from studbook.frames import MONEY_COLUMNS, MONEY_SCALE, SCHEMA, TABLES, NoHandHistories, load
from studbook.rows import RAZZ_CLASSES, STUD_CLASSES
from samples import CORPUS

ROOT = Path(__file__).resolve().parents[1]
HISTORIES = ROOT / "histories"
PLANTED = HISTORIES / "planted-violations.txt"
RULE_BOOK = ROOT / "docs" / "rules.md"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")


@pytest.fixture(scope="module")
def frames() -> studbook.Frames:
    return load(HISTORIES)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of the planted-violations file and a README beside it; the log is then removed."""
    folder = tmp_path_factory.mktemp("store")
    shutil.copy(PLANTED, folder / PLANTED.name)
    (folder / "README.md").write_text("# my hands\n")
    db = folder / "hands.db"
    assert main(["import", str(folder), "--db", str(db), "-q"]) == 0
    (folder / PLANTED.name).unlink()  # the hands are read from the store's kept text from now on
    return db


# 1. fail loudly

def test_a_path_that_does_not_exist_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as raised:
        load(tmp_path / "nonexistent")
    assert str(tmp_path / "nonexistent") in str(raised.value)
    with pytest.raises(FileNotFoundError):
        load([PLANTED, tmp_path / "gone.txt"])


def test_a_path_without_hand_histories_raises_a_clear_value_error(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# notes\n")
    (tmp_path / "INDEX.tsv").write_text("a\tb\n")
    with pytest.raises(NoHandHistories, match=r"no hand history found \(2 files ignored: INDEX.tsv: "):
        load(tmp_path)
    assert issubclass(NoHandHistories, ValueError)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(NoHandHistories, match="no files to read"):
        load(empty)


# 2. files that are not hand histories: ignored, never rejected hands

def test_files_that_are_not_hand_histories_are_ignored_not_rejected(tmp_path: Path) -> None:
    shutil.copy(PLANTED, tmp_path / PLANTED.name)
    (tmp_path / "README.md").write_text("# my hands\n")
    loaded = load(tmp_path)
    assert list(loaded.ignored["file"]) == [str(tmp_path / "README.md")]
    assert list(loaded.ignored["reason"]) == ["no known site's format"]
    assert loaded.rejects.empty and len(loaded.hands) > 0


@needs_corpus
def test_the_corpus_side_files_are_ignored_in_the_frames() -> None:
    loaded = load(CORPUS, frames=["hands", "rejects"])
    names = {Path(f).name for f in loaded.ignored["file"]}
    assert {"README.md", "INDEX.tsv"} <= names
    side = {str(p) for p in CORPUS.rglob("*") if p.suffix in {".md", ".tsv", ".hp", ".hands", ".gt", ".json"}}
    assert side and side <= set(loaded.ignored["file"])
    assert not set(loaded.rejects["file"].astype(str)) & set(loaded.ignored["file"])
    assert (loaded.rejects["status"] == "rejected").sum() == 0


def test_import_says_ignored_as_check_does(store: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    shutil.copy(PLANTED, tmp_path / PLANTED.name)
    (tmp_path / "README.md").write_text("# my hands\n")
    assert main(["import", str(tmp_path), "--db", str(tmp_path / "again.db")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"ignored files +1 ", out) and re.search(r"rejected +0\n", out), out
    assert f"not a hand history: {tmp_path / 'README.md'} (no known site's format)" in out
    assert load(store).rejects.empty


# 4. categoricals

def test_categoricals_hold_only_their_tables_values(frames: studbook.Frames) -> None:
    for name, table in frames.tables():
        for column in table.columns:
            if isinstance(table[column].dtype, pd.CategoricalDtype):
                counts = table[column].value_counts()
                assert (counts > 0).all(), f"{name}.{column} lists values it does not hold"
    assert len(frames.violations["player"].value_counts()) == frames.violations["player"].nunique()


def test_groupby_on_the_frames_gives_no_future_warning(frames: studbook.Frames) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        frames.hands.groupby(["site", "variant"], observed=True).size()
        frames.violations.groupby("rule", observed=True).agg(hands=("hand_id", "nunique"))


def test_ordered_categoricals_where_order_means_something(frames: studbook.Frames) -> None:
    classes = frames.players["start_class"].dtype
    assert classes.ordered
    order = [*STUD_CLASSES, *RAZZ_CLASSES]
    assert list(classes.categories) == [c for c in order if c in set(classes.categories)]
    assert list(classes.categories).index("9-low") < list(classes.categories).index("J-low")
    door = frames.players["door"].dtype
    assert door.ordered
    ranks = "23456789TJQKA"
    keys = [(ranks.index(card[0]), "cdhs".index(card[1])) for card in door.categories]
    assert keys == sorted(keys)


def test_hand_ids_sort_as_numbers() -> None:
    from studbook.lean import category_dtype
    from studbook.rows import NATURAL

    assert list(category_dtype(["10", "9", "100", "T-7", "A1"], NATURAL).categories) == ["9", "10", "100", "A1", "T-7"]
    mixed = load(HISTORIES).hands["hand_id"]
    assert list(mixed.sort_values().astype(str)) == sorted(mixed.astype(str), key=int)


# 5. money

@pytest.mark.parametrize("source", ["histories", "store"])
def test_money_columns_are_integer_minor_units_and_say_so(source: str, frames: studbook.Frames,
                                                          store: Path) -> None:
    loaded = frames if source == "histories" else load(store)
    assert MONEY_SCALE == 100
    for name, table in loaded.tables():
        money = MONEY_COLUMNS[name]
        assert set(money) == {c.name for c in SCHEMA[name] if c.unit == "minor"}
        assert table.attrs.get("units", {}) == dict.fromkeys(money, "minor"), name
        for column in money:
            assert pd.api.types.is_integer_dtype(table[column].dtype), f"{name}.{column}"
    hand = loaded.hands.iloc[0]
    assert hand["big_bet"] == 2 * hand["small_bet"] and hand["big_bet"] % 1 == 0


# 6. displays, and from a row to its hand

def test_short_reprs(frames: studbook.Frames) -> None:
    view = frames.hand(frames.hands.iloc[0])
    hand = view.hand
    assert len(repr(hand)) < 160 and repr(hand).startswith(f"<Hand {hand.site} #{hand.hand_id} ")
    text = repr(frames)
    assert "\n" not in text and len(text) < 300 and f"hands={len(frames.hands):,}" in text
    assert "minor units" in text
    assert repr(view.replay).startswith("<Replay of ")


def test_html_displays_are_the_replayer_inline(frames: studbook.Frames) -> None:
    from studbook.view.html import page

    view = frames.hand(frames.violations.iloc[0])
    shown = view.hand._repr_html_()
    assert shown.startswith("<iframe srcdoc=") and 'sandbox="allow-scripts"' in shown
    import html

    inner = html.unescape(shown.split('srcdoc="', 1)[1].split('" title=', 1)[0])
    assert inner == page([view.replay], title=f"{view.site} hand {view.hand_id}")
    assert view._repr_html_() == view.replay._repr_html_() == shown
    summary = frames._repr_html_()
    assert "<table>" in summary and f"{len(frames.actions):,}" in summary


def test_a_violation_row_leads_to_its_hand_text_and_replay_from_the_store(store: Path) -> None:
    loaded = load(store)
    assert not Path(loaded.hands["file"].iloc[0]).exists()  # the log is gone: the store's text it is
    row = loaded.violations.iloc[0]
    view = loaded.hand(row)
    assert (view.site, view.hand_id) == (row["site"], row["hand_id"])
    expected = PLANTED.read_text(encoding="utf-8").splitlines()[int(row["line"]) - 1]
    assert view.line(int(row["line"])) == expected
    assert [v.rule for v in view.check.violations].count(row["rule"]) >= 1
    assert view.replay.hand.hand_id == row["hand_id"]
    assert loaded.hand(row["site"], row["hand_id"]).text == view.text
    with pytest.raises(KeyError):
        loaded.hand("pokerstars", "0")


# 7. discoverability

def test_the_lazy_names_are_in_dir() -> None:
    names = dir(studbook)
    for name in ("load", "Frames", "check_hand", "check_paths", "replay", "describe_rule", "rule_table",
                 "to_dask", "NoHandHistories"):
        assert name in names and getattr(studbook, name) is not None


def test_every_rule_id_has_its_description() -> None:
    from studbook.engine.rules import RULE_IDS

    table = studbook.rule_table()
    assert set(table.index) == set(RULE_IDS)
    assert studbook.describe_rule("bet.cap").startswith("A betting round allows at most four bets")
    with pytest.raises(KeyError, match="no rule 'bet.nope'"):
        studbook.describe_rule("bet.nope")


def test_the_descriptions_are_the_rule_books() -> None:
    """describe_rule and rule_table say what docs/rules.md says, rule by rule, with its
    sections and sources (the shared RULES.md is compared by id only: test_rule_ids.py)."""
    text = RULE_BOOK.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_.]+)` \| (.*) \| ([^|]*) \|$", text, re.M)
    table = studbook.rule_table()
    assert len(rows) >= 20 and list(table.index) == [rule for rule, _, _ in rows]
    assert {rule: text.strip() for rule, text, _ in rows} == dict(table["text"])
    assert {rule: source.strip() for rule, _, source in rows} == dict(table["source"])
    assert table.loc["bet.cap", "section"] == "Bet sizes (fixed limit)"
    assert set(table["section"]) <= set(re.findall(r"^## (.+)$", text, re.M))


# 8. Dask on the store

@pytest.mark.parametrize("kind", ["store", "parquet"])
def test_to_dask_on_a_store_or_an_export_equals_the_pandas_frames(kind: str, tmp_path: Path) -> None:
    dask = pytest.importorskip("dask")
    pytest.importorskip("dask.dataframe")
    if kind == "parquet":
        pytest.importorskip("pyarrow")
    folder = tmp_path / "logs"
    folder.mkdir()
    for name in sorted(p.name for p in HISTORIES.iterdir())[:4]:
        shutil.copy(HISTORIES / name, folder / name)
    db = tmp_path / "four.db"
    assert main(["import", str(folder), "--db", str(db), "-q"]) == 0
    source = db
    if kind == "parquet":
        source = tmp_path / "export"
        assert main(["export", "--db", str(db), "--format", "parquet", "-o", str(source)]) == 0
    lazy = studbook.to_dask(source, hands_per_partition=97)
    expected = load(db)
    assert lazy["hands"].npartitions > 2
    computed = dask.compute(*lazy.values(), scheduler="synchronous")
    for table, got in zip(lazy, computed):
        want = getattr(expected, table)
        want.attrs.clear()
        pd.testing.assert_frame_equal(got, want)  # values, index order, dtypes, categories in order
    by_variant = lazy["hands"].groupby("variant", observed=True)["pot_bb"].mean().compute(scheduler="synchronous")
    pd.testing.assert_series_equal(by_variant.sort_index(),
                                   expected.hands.groupby("variant", observed=True)["pot_bb"].mean())
    assert set(lazy) == set(TABLES)
