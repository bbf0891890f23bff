"""Calibrate the machine: pokerkit and studbook on the same hands, in one run.

    .venv/bin/python benchmarks/bench_pokerkit.py [--hands 120] [--runs 5]

The engine issue sets parse + check at 3,000 hands/s on a machine where
pokerkit (the test-only oracle, PyPI) replays about 250 stud hands/s, that is
12 times pokerkit. This VM's speed changes from day to day, so an absolute
figure alone does not say whether studbook met that bar; the ratio does.

Simulates tournament hands of stud, stud8 and razz at 2, 5 and 8 players
(``--hands`` per table), keeps those pokerkit plays by docs/rules.md (the same
exclusions as ``tests/test_pokerkit_oracle.py``, whose replay it uses), then
times ``--runs`` rounds, each on fresh hands (so no cache of either
engine has seen them) and each running one after the other:

* pokerkit replaying them (cards and actions known; no text to read);
* studbook parsing their PokerStars text and checking every hand.

Interleaving the two puts both under the same machine speed from one
moment to the next; the report gives each one's best rate and the per-round
ratios with their median (the first round pays studbook's start: compiling
its scanners).

Needs the test extras (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_pokerkit_oracle import exclusion, replay  # noqa: E402

from studbook.check import check_paths  # noqa: E402
from studbook.gcpause import gc_between_files  # noqa: E402
from studbook.simulate import SimulatedHand, simulate, write_hands  # noqa: E402

REFERENCE_POKERKIT = 250.0  # hands/s, the figure for pokerkit
TARGET = 3000.0  # hands/s of parse + check on that machine


def hands_to_compare(per_table: int, seed: int = 100) -> list[SimulatedHand]:
    sims: list[SimulatedHand] = []
    for offset, (variant, players) in enumerate((v, p) for v in ("stud", "stud8", "razz") for p in (2, 5, 8)):
        table = simulate(variant, per_table, players, seed=seed + offset, tournament=True, hands_per_level=40)
        sims += [s for s in table if exclusion(s) is None]
    return sims


def one_round(sims: list[SimulatedHand]) -> tuple[int, float, float]:
    """(hands, pokerkit CPU seconds, studbook CPU seconds) on the same hands."""
    with tempfile.TemporaryDirectory(prefix="studbook-pokerkit-") as tmp:
        (Path(tmp) / "hands.txt").write_text(write_hands([s.hand for s in sims]), encoding="utf-8")

        def pokerkit_replay() -> int:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # pokerkit warns when dealt a card it did not choose
                for sim in sims:
                    replay(sim)
            return len(sims)

        def studbook_check() -> int:  # as `studbook check` runs
            hands = 0
            with gc_between_files() as next_file:
                for file in check_paths([tmp]):
                    next_file()
                    hands += len(file.results)
            return hands

        theirs, their_cpu = cpu_time(pokerkit_replay)
        ours, our_cpu = cpu_time(studbook_check)
    assert theirs == ours == len(sims), (theirs, ours, len(sims))
    return len(sims), their_cpu, our_cpu


def cpu_time(run: Callable[[], int]) -> tuple[int, float]:
    """(hands, CPU seconds) of one run, after a full collection."""
    gc.collect()
    start = time.process_time()
    hands = run()
    return hands, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=120, help="hands simulated per table (9 tables)")
    parser.add_argument("--runs", type=int, default=5, help="interleaved rounds (best CPU time of each is kept)")
    args = parser.parse_args()
    rounds = [one_round(hands_to_compare(args.hands, seed=100 + 50 * number)) for number in range(args.runs)]
    pokerkit_rate = max(hands / theirs for hands, theirs, _ in rounds)
    studbook_rate = max(hands / ours for hands, _, ours in rounds)
    speed = pokerkit_rate / REFERENCE_POKERKIT
    ratios = sorted(theirs / ours for _, theirs, ours in rounds)
    print(f"{rounds[0][0]} simulated tournament hands (stud, stud8, razz; 2, 5, 8 players) in the first of "
          f"{args.runs} interleaved rounds, fresh hands each round; best rate of each engine")
    print(f"pokerkit replay          {pokerkit_rate:8,.0f} hands/s "
          f"(the issue's machine: {REFERENCE_POKERKIT:,.0f}; this one runs at {speed:.0%} of it)")  # fmt: skip
    print(f"studbook parse + check   {studbook_rate:8,.0f} hands/s = {studbook_rate / pokerkit_rate:.1f} x pokerkit "
          f"(target {TARGET / REFERENCE_POKERKIT:.0f} x; on the issue's machine about "
          f"{studbook_rate / speed:,.0f} hands/s against {TARGET:,.0f})")  # fmt: skip
    print(f"round by round: studbook / pokerkit = {' '.join(f'{r:.1f}' for r in ratios)} "
          f"(median {statistics.median(ratios):.1f} x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
