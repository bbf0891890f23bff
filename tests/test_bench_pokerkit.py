"""Smoke test of benchmarks/bench_pokerkit.py: both engines play the same hands, and the report says so."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("pokerkit")

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def test_one_tiny_run_reports_both_rates_on_the_same_hands(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_pokerkit")
    sims = bench.hands_to_compare(6)
    assert len(sims) >= 30 and all(bench.exclusion(s) is None for s in sims)
    assert {s.hand.variant.value for s in sims} == {"stud", "stud8", "razz"}
    monkeypatch.setattr(sys, "argv", ["bench_pokerkit.py", "--hands", "6", "--runs", "1"])
    assert bench.main() == 0
    out = capsys.readouterr().out
    assert f"{len(sims)} simulated tournament hands" in out
    pokerkit = re.search(r"pokerkit replay +([\d,]+) hands/s", out)
    studbook = re.search(r"studbook parse \+ check +([\d,]+) hands/s = ([\d.]+) x pokerkit", out)
    assert pokerkit and studbook, out
    # each rate is printed to the unit and the ratio to one decimal, from the unrounded rates
    ours, theirs = (int(m.group(1).replace(",", "")) for m in (studbook, pokerkit))
    printed = float(studbook.group(2))
    assert (ours - 0.5) / (theirs + 0.5) - 0.05 <= printed <= (ours + 0.5) / (theirs - 0.5) + 0.05, out
    rounds = re.search(r"round by round: studbook / pokerkit = ([\d. ]+) \(median ([\d.]+) x\)", out)
    assert rounds, out
    assert len(rounds.group(1).split()) == 1 and rounds.group(1).strip() == rounds.group(2)  # one round: its ratio
