"""The edit fuzzer (``scripts/fuzz_edits.py``) on a few inputs: real hands edited at
random through check and import, no traceback, every hand accounted for. The
long runs are the script's (``python scripts/fuzz_edits.py -n 1000000``)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "fuzz_edits.py"


def _driver():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("fuzz_edits", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_edits"] = module
    spec.loader.exec_module(module)
    return module


def test_edited_real_hands_go_through_check_and_import_accounted_for(tmp_path: Path, corpus: Path) -> None:
    driver = _driver()
    roots = [ROOT / "histories" / "HH20240323 T3761643380 Limit Stud $3.30 + $0.30.txt", ROOT / "tests" / "handmade",
             corpus / "Everleaf", corpus / "Winamax", corpus / "iPoker" / "7-StudL-USD-0.05-0.10-201009.txt"]
    seed = int(os.environ.get("STUDBOOK_FUZZ_SEED", "28"))
    tally = driver.fuzz(40, seed, None, tmp_path / "failures", progress=False, roots=roots)
    assert tally.inputs == 40 and tally.hands + tally.rejected > 40
    assert tally.failures == [], tally.failures[0]


def test_every_kind_of_edit_changes_the_input() -> None:
    import random

    driver = _driver()
    text = (ROOT / "histories" / "HH20240323 T3761643380 Limit Stud $3.30 + $0.30.txt").read_text(encoding="utf-8")
    hand = text.replace("\r\n", "\n").split("\n\n\n")[0] + "\n"
    rng = random.Random(1)
    edited = {driver.edit(hand, rng) for _ in range(50)}
    assert len(edited) > 40 and hand.encode() not in edited


def test_a_batch_whose_store_loses_a_hand_names_the_input_at_fault(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Inputs are imported a batch at a time; when the batch's store does not add up, each
    input is imported alone, and only the one whose hands went missing is kept as a failure."""
    import sqlite3

    driver = _driver()
    pool = driver.seeds(None, [ROOT / "histories" / "HH20240323 T3761643380 Limit Stud $3.30 + $0.30.txt"])
    probe = tmp_path / "probe.txt"
    with_results = [n for n in range(30) if driver.check_one(driver.input_for(pool, 5, n), probe, driver.Tally())[0]]
    victim = with_results[3]
    real = driver.cli_main

    def losing(argv: list[str]) -> int:
        code = real(argv)
        db = argv[argv.index("--db") + 1]
        with sqlite3.connect(db) as conn:  # the victim's hands and rejections vanish from the store
            for table in ("hands", "rejects"):
                conn.execute(f"DELETE FROM {table} WHERE file LIKE ?", (f"%input-{victim}.txt",))
        return code

    monkeypatch.setattr(driver, "cli_main", losing)
    (tmp_path / "work").mkdir()
    tally = driver.run_batch(pool, 5, range(with_results[0], victim + 3), tmp_path / "work", tmp_path / "keep")
    assert len(tally.failures) == 1 and "the store holds" in tally.failures[0]
    assert sorted(p.name for p in (tmp_path / "keep").iterdir()) == [f"input-5-{victim}.traceback", f"input-5-{victim}.txt"]


def test_a_run_with_a_journal_goes_on_where_the_last_one_ended(tmp_path: Path) -> None:
    """A long run is done in pieces: each finished batch is written to the journal, and a
    run of the same seed skips what the journal has, so the pieces add up to one run."""
    driver = _driver()
    roots = [ROOT / "histories" / "HH20240323 T3761643380 Limit Stud $3.30 + $0.30.txt"]
    journal = tmp_path / "journal.tsv"
    first = driver.fuzz(4, 3, None, tmp_path / "failures", progress=False, roots=roots, batch=2, journal=journal)
    second = driver.fuzz(10, 3, None, tmp_path / "failures", progress=False, roots=roots, batch=2, journal=journal)
    other_seed = driver.fuzz(2, 4, None, tmp_path / "failures", progress=False, roots=roots, batch=2, journal=journal)
    assert (first.inputs, second.inputs, other_seed.inputs) == (4, 6, 2)
    assert driver.journal_summary(journal, 3).startswith("10 inputs of seed 3 done in all runs (10 of them")
    assert driver.journal_summary(journal, 4).startswith("2 inputs of seed 4")
