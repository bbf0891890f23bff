"""``studbook export``: original text back byte for byte, frames as Parquet and
CSV equal to ``studbook.load``'s, PHH and JSON lines, from logs and from a store."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pandas as pd
import pytest

from studbook.cli import main
from studbook.events import Hand
from studbook.frames import TABLES, load
from studbook.parse import parse_paths, read_file
from studbook.read import decode, read_bytes
from studbook.store import SCHEMA_VERSION, Store

XML_SITES = ("ipoker", "merge")


@pytest.fixture(scope="module")
def corpus_store(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("store") / "corpus.db"
    assert main(["import", str(corpus), "--db", str(db), "-q"]) == 0
    return db


ROOT = Path(__file__).resolve().parents[1]
# Shipped logs of three variants (stud, stud8, razz; Hero in each) and a second site's hand-made ones
SHIPPED_LOGS = [*(str(next((ROOT / "histories").glob(f"*{t}*"))) for t in ("T3761643380", "T3778019413", "T3711401991")),
                str(ROOT / "tests" / "handmade" / "betonline")]


@pytest.fixture(scope="module")
def shipped_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("store") / "shipped.db"
    assert main(["import", *SHIPPED_LOGS, "--db", str(db), "-q"]) == 0
    return db


def source_of(hand: Hand, text: str) -> str:
    """The hand as its file holds it, found without the reader's splitter: a text
    site's lines first to last; an XML site's element that starts on the hand's line."""
    if hand.site not in XML_SITES:
        return "\n".join(text.split("\n")[hand.line - 1 : hand.end_line]) + "\n"
    start = sum(len(line) + 1 for line in text.split("\n")[: hand.line - 1])
    begin = text.index("<game", start)
    return text[begin : text.index("</game>", begin) + len("</game>")]


def test_original_text_is_byte_identical_for_every_corpus_hand(corpus: Path, corpus_store: Path) -> None:
    with Store(corpus_store, create=False) as store:
        kept = {(o.site, o.hand_id): o for o in store.originals()}
        stored = store.counts()["hands"]
    assert len(kept) == stored  # every stored hand kept its text
    sites = set()
    compared = 0
    for result in parse_paths([corpus]):
        if not result.hands:
            continue
        text = decode(read_bytes(result.file)).text
        for hand in result.hands:
            original = kept.get((hand.site, hand.hand_id))
            if original is None or (original.file, original.line) != (hand.file, hand.line):
                continue  # a duplicate hand id: the first copy is the stored one
            assert original.text == source_of(hand, text), (hand.file, hand.line)
            if hand.site in XML_SITES:
                element = ET.fromstring(original.text)
                assert element.tag == "game" and hand.hand_id.split("-")[0] in original.text
            sites.add(hand.site)
            compared += 1
    assert compared == len(kept)  # every stored hand compared with its file
    assert sites >= {"pokerstars", "fulltilt", "ipoker", "merge"}, sites


def test_export_original_of_one_hand_from_store_and_from_logs(shipped_store: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(SHIPPED_LOGS[1])
    hand = read_file(path).hands[0]
    expected = source_of(hand, decode(read_bytes(path)).text)
    assert main(["export", "--db", str(shipped_store), "--format", "original", "--hand", hand.hand_id]) == 0
    assert capsys.readouterr().out == expected
    assert main(["export", str(path), "--format", "original", "--hand", hand.hand_id]) == 0
    assert capsys.readouterr().out == expected


def test_export_original_split_writes_one_file_per_hand(shipped_store: Path, tmp_path: Path) -> None:
    folder = tmp_path / "hands"
    assert main(["export", "--db", str(shipped_store), "--format", "original", "--split", "-o", str(folder),
                 "--variant", "razz"]) == 0
    files = sorted(folder.iterdir())
    frames = load(shipped_store)
    assert len(files) == int((frames.hands["variant"] == "razz").sum()) > 0
    assert {f.suffix for f in files} <= {".txt", ".xml"}


@pytest.mark.parametrize("source", ["logs", "store"])
def test_parquet_loads_back_equal_to_studbook_load(shipped_store: Path, tmp_path: Path, source: str) -> None:
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    paths = SHIPPED_LOGS  # two sites
    args = paths if source == "logs" else ["--db", str(shipped_store)]
    out = tmp_path / "frames"
    assert main(["export", *args, "--format", "parquet", "-o", str(out)]) == 0
    frames = load(paths) if source == "logs" else load(shipped_store)
    for table in TABLES:
        back = pd.read_parquet(out / f"{table}.parquet")
        loaded = getattr(frames, table)
        if loaded.empty:  # Parquet keeps no categories for a column without values: compare the dtypes' kinds
            assert list(back.columns) == list(loaded.columns) and back.empty
            assert [str(d) for d in back.dtypes] == [str(d) for d in loaded.dtypes], table
        else:  # the same for a category column without values (no mixed game in the shipped logs)
            valueless = [c for c in loaded.columns
                         if isinstance(loaded[c].dtype, pd.CategoricalDtype) and loaded[c].isna().all()]
            assert all(str(back[c].dtype) == "category" and back[c].isna().all() for c in valueless), table
            pd.testing.assert_frame_equal(back.drop(columns=valueless), loaded.drop(columns=valueless),
                                          check_dtype=True)
        meta = json.loads(pq.read_schema(out / f"{table}.parquet").metadata[b"studbook"])
        assert meta["schema_version"] == SCHEMA_VERSION and meta["table"] == table


def test_csv_and_filters(shipped_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "csv"
    assert main(["export", "--db", str(shipped_store), "--format", "csv", "-o", str(out),
                 "--player", "Hero", "--variant", "stud8"]) == 0
    hands = pd.read_csv(out / "hands.csv")
    frames = load(shipped_store)
    players = frames.players
    expected = set(players[(players["player"] == "Hero") & (players["variant"] == "stud8")]["hand_id"])
    assert set(hands["hand_id"].astype(str)) == expected and expected
    assert set(pd.read_csv(out / "players.csv")["hand_id"].astype(str)) == expected
    schema = json.loads((out / "schema.json").read_text(encoding="utf-8"))
    assert schema["schema_version"] == SCHEMA_VERSION and set(schema["tables"]) == set(TABLES)


def test_export_phh_from_store_reads_back_with_the_same_nets(shipped_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.phhs"
    code = main(["export", "--db", str(shipped_store), "--format", "phh", "-o", str(out), "--variant", "stud"])
    frames = load(shipped_store)
    stud = frames.hands[frames.hands["variant"] == "stud"]
    back = load([out])
    assert code in (0, 1)  # 1: a few hands could not be written (no-limit stud, iPoker stakes)
    assert len(back.hands) >= 0.95 * len(stud)
    assert set(back.hands["site"]) == {"phh"}
    net = frames.players.set_index(["hand_id", "player"])["net"]
    again = back.players.set_index(["hand_id", "player"])["net"]
    clean = set(stud[stud["violations"] == 0]["hand_id"])
    again = again[again.index.get_level_values(0).isin(clean)]
    # two loads: their categorical index levels hold different categories, so compare values
    assert len(again) and (again.to_numpy() == net.loc[again.index].to_numpy()).all()


def test_export_phh_split_and_jsonl(tmp_path: Path) -> None:
    path = Path(SHIPPED_LOGS[0])
    hands = read_file(path).hands
    folder = tmp_path / "phh"
    assert main(["export", str(path), "--format", "phh", "--split", "-o", str(folder)]) == 0
    written = sorted(folder.glob("*.phh"))
    assert len(written) == len(hands)
    assert all(re.fullmatch(r"pokerstars-\d+\.phh", f.name) for f in written)
    out = tmp_path / "hands.jsonl"
    assert main(["export", str(path), "--format", "jsonl", "-o", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["hand_id"] for r in records] == [h.hand_id for h in hands]
    first = records[0]
    assert len(first["events"]) == len(hands[0].events)
    assert {e["type"] for e in first["events"]} >= {"PostAnte", "Deal", "Action"}
    assert all(e["line"] >= hands[0].line for e in first["events"])


@pytest.mark.parametrize("argv, words", [
    (["export", "--format", "phh"], "either --db FILE or hand-history PATHs"),
    (["export", "x.txt", "--format", "parquet"], "needs -o DIR"),
    (["export", "x.txt", "--format", "jsonl", "--split", "-o", "d"], "--split goes with"),
    (["export", "x.txt", "--format", "phh", "--site", "nosuch"], "unknown site 'nosuch'"),
])
def test_usage_errors(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert words in capsys.readouterr().err
