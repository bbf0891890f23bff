"""The store's write path: what ``studbook import`` stores is what the frames hold.

The rows (:mod:`studbook.rows`) are built straight from the engine's records, and
the import command never imports pandas; these tests hold both to the frames'
own definitions on the real corpus (read in place) and the sample histories.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from studbook.check import check_paths
from studbook.cli import main
from studbook.engine.result import HandCheck
from studbook.frames import TABLES, load, to_minor
from studbook.rows import rows_from_checks
from samples import CORPUS

ROOT = Path(__file__).resolve().parents[1]
HISTORIES = ROOT / "histories"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")


@needs_corpus
def test_a_store_loads_the_frames_of_its_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # every site of the corpus and the histories: import, then load() the store, against
    # the frames made in memory from the same files (every table, every dtype)
    sources = [CORPUS, HISTORIES]
    db = tmp_path / "all.db"
    assert main(["import", *map(str, sources), "--db", str(db), "--jobs", "1", "-q"]) == 0
    capsys.readouterr()
    stored, memory = load(db), load(sources)
    assert len(stored.hands) > 2500 and len(stored.rejects) > 100
    for table in TABLES:
        left, right = getattr(stored, table), getattr(memory, table)
        if table == "rejects":  # keyed, not ordered: the store lists a file's rejections as it met them
            order = ["file", "hand_line", "line", "status"]
            left, right = (f.sort_values(order, kind="stable").reset_index(drop=True) for f in (left, right))
        pd.testing.assert_frame_equal(left, right, obj=table)


@needs_corpus
def test_actions_rows_are_the_engines_action_facts() -> None:
    # the rows take each action's facts field by field from the engine's records;
    # HandCheck.actions (ActionFacts objects) is the definition they must agree with
    checks = [r for f in check_paths([str(CORPUS), str(HISTORIES)]) for r in f.results if isinstance(r, HandCheck)]
    rows = rows_from_checks(checks)["actions"]
    facts = [(c.hand.site, c.hand.hand_id, n, f) for c in checks for n, f in enumerate(c.actions)]
    assert len(rows) == len(facts) > 40_000
    for row, (site, hand_id, number, fact) in zip(rows, facts):
        expected = (site, hand_id, number, fact.action.line, int(fact.street or 3), fact.action.player,
                    fact.kind.value, to_minor(fact.put_in), fact.action.all_in, to_minor(fact.to_call),
                    fact.to_call > 0, fact.bets_before, to_minor(fact.pot_before))
        assert row[:7] + row[9:] == expected


def test_import_does_not_import_pandas_tqdm_nor_the_pool(tmp_path: Path) -> None:
    # pandas is for reading: importing it cost the import command some 0.25 s a run; tqdm
    # (no bar is drawn when standard error is not a terminal) some 0.1 G instructions,
    # and the process pool is not used by an import in one process
    script = (
        "import sys\n"
        "from studbook.cli import main\n"
        f"code = main(['import', {str(HISTORIES)!r}, '--db', {str(tmp_path / 'h.db')!r}, '-q'])\n"
        "assert code == 0, code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'pyarrow', 'tqdm', 'multiprocessing')"
        " or m == 'studbook.scale'))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
    assert len(load(tmp_path / "h.db").hands) == len(load(HISTORIES).hands)


def test_import_without_a_bar_writes_its_messages_as_tqdm_does() -> None:
    # with no bar drawn, the import's messages (a file not read, a decoder's warning) go through
    # a stand-in, not tqdm: byte for byte what tqdm.write wrote
    import io

    from tqdm import tqdm

    from studbook.cli.importer import _progress

    quiet = _progress(3, shown=False)
    assert not isinstance(quiet, tqdm)
    for text in ("studbook import: cannot read /x/a b.txt: Permission denied", "", "two\nlines \u00e9"):
        wrote, expected = io.StringIO(), io.StringIO()
        quiet.write(text, file=wrote)
        tqdm.write(text, file=expected)
        assert wrote.getvalue() == expected.getvalue()
    quiet.update(1)
    quiet.set_postfix(new=1, duplicate=0, refresh=False)
    quiet.close()
    shown = _progress(3, shown=True)
    try:
        assert isinstance(shown, tqdm) and shown.total == 3
    finally:
        shown.close()


def test_starting_classes_by_ranks_and_suit_are_starting_class() -> None:
    # the rows class a start by its ranks and whether it is suited (studbook.rows._CLASSES);
    # every ordered start of three different cards, in every variant, against the definition
    from itertools import permutations

    from studbook.cards import DECK
    from studbook.events import Variant
    from studbook.rows import _CLASSES, starting_class

    for variant in Variant:
        classes = _CLASSES[variant.value]
        for a, b, c in permutations(DECK, 3):
            key = (a.rank, b.rank, c.rank, a.suit == b.suit == c.suit)
            assert classes[key] == starting_class((a, b, c), variant), (a, b, c, variant)


@needs_corpus
def test_players_rows_class_their_start_cards() -> None:
    # on the real corpus and the histories: start_class is starting_class of start_cards
    from studbook.cards import parse_cards
    from studbook.rows import SCHEMA, starting_class

    names = [c.name for c in SCHEMA["players"]]
    cards, klass, variant = names.index("start_cards"), names.index("start_class"), names.index("variant")
    checks = [r for f in check_paths([str(CORPUS), str(HISTORIES)]) for r in f.results if isinstance(r, HandCheck)]
    rows = rows_from_checks(checks)["players"]
    started = [row for row in rows if row[cards] is not None]
    assert len(started) > 5_000
    assert all(row[klass] is None for row in rows if row[cards] is None)
    for row in started:
        assert row[klass] == starting_class(parse_cards(row[cards]), row[variant])


def test_minor_units_by_the_amounts_text() -> None:
    # to_minor looks amounts up by str(amount): each written form of one amount gives the
    # same minor units, a new Decimal as much as one met before, and finer amounts still fail
    from decimal import Decimal

    for text, minor in (("4", 400), ("4.00", 400), ("4.0", 400), ("0.04", 4), ("1.5E+3", 150_000),
                        ("-2.50", -250), ("0", 0), ("-0", 0), ("123456789.12", 12_345_678_912)):
        assert to_minor(Decimal(text)) == minor, text
        assert to_minor(Decimal(text) + Decimal(0)) == minor, text
    for finer in ("0.001", "1.005", "NaN"):
        with pytest.raises(ValueError):
            to_minor(Decimal(finer))
