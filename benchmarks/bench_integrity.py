"""Does ``studbook integrity`` find planted cheats, and does it leave honest players alone?

    .venv/bin/python benchmarks/bench_integrity.py [--sizes 2000,20000] [--runs 3,1] [--strength 0.5]
        [--kinds soft_play,chip_dumping,card_sharing,honest]

Each run simulates a session of SIZE hands over max(6, SIZE / 1000) six-handed
tables (stud, stud8 and razz in turn), each table a different lineup from a
population of 24 honest players (half loose, half tight: ``studbook.strategies``)
and, for a cheat kind, three planted pairs of that kind at the given strength,
each pair seated together at every third table. The report's tests then rank
every pair; per cheat kind and size the table gives the planted pairs' worst
rank, the recall and false alarms at the report's flag (family-wise p < 0.05),
the recall at a 1% false-positive rate (the honest pairs' 99th percentile as
threshold), the ROC AUC (planted against honest pairs, by p-value) and
whether every planted pair ranked above every honest pair. The ``honest``
rows plant nothing: their figure is the share of runs with a pair flagged.
Runs are seeded (the same table each time) and slow: about 10 ms a hand.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

import pandas as pd

from studbook.check import check_hand
from studbook.frames import frames_from_checks
from studbook.integrity import analyse
from studbook.simulate import simulate
from studbook.strategies import CheatKind, Collusion, Strategies, assign_styles

VARIANTS = ("stud", "stud8", "razz")
HONEST = [f"honest{i:02d}" for i in range(24)]
PAIRS = 3


@dataclass(frozen=True)
class Outcome:
    kind: str
    hands: int
    run: int
    worst_rank: int
    recall_flag: float
    false_alarms: int
    recall_fpr1: float
    auc: float
    all_above: bool
    honest_pairs: int


def session(kind: str, size: int, seed: int, strength: float) -> tuple[pd.DataFrame, set[tuple[str, str]]]:
    """The pairs table of one simulated session, and the planted pairs."""
    rng = random.Random(seed)
    planted = [Collusion(f"cheat{i}a", f"cheat{i}b", CheatKind(kind), strength) for i in range(PAIRS)] \
        if kind != "honest" else []
    strategies = Strategies(assign_styles(HONEST + [n for c in planted for n in (c.first, c.second)], rng), planted)
    tables = max(6, size // 1000)
    per_table = size // tables
    results = []
    for t in range(tables):
        pair = planted[t % PAIRS] if planted else None
        seats = 6 - (2 if pair else 0)
        lineup = rng.sample(HONEST, seats) + ([pair.first, pair.second] if pair else [])
        for hand in simulate(VARIANTS[t % 3], per_table, 6, seed * 1000 + t, names=lineup, chooser=strategies,
                             table=f"Bench {t + 1}", hero=lineup[0]):
            results.append(check_hand(hand.hand))
    report = analyse(frames_from_checks(results))
    return report.pairs, {c.pair for c in planted}


def measure(kind: str, size: int, run: int, strength: float) -> Outcome:
    pairs, planted = session(kind, size, 1 + run + 100 * size, strength)
    is_planted = [(a, b) in planted for a, b in pairs[["a", "b"]].itertuples(index=False)]
    pairs = pairs.assign(planted=is_planted)
    honest = pairs[~pairs["planted"]]
    cheats = pairs[pairs["planted"]]
    false_alarms = int(honest["flagged"].sum())
    if cheats.empty:
        return Outcome(kind, size, run, 0, 0.0, false_alarms, 0.0, float("nan"), False, len(honest))
    threshold = honest["raw_p"].quantile(0.01)
    below = [(honest["raw_p"] > p).mean() + 0.5 * (honest["raw_p"] == p).mean() for p in cheats["raw_p"]]
    return Outcome(
        kind, size, run, worst_rank=int(cheats["rank"].max()), recall_flag=float(cheats["flagged"].mean()),
        false_alarms=false_alarms, recall_fpr1=float((cheats["raw_p"] < threshold).mean()),
        auc=float(sum(below) / len(below)), all_above=bool(cheats["raw_p"].max() < honest["raw_p"].min()),
        honest_pairs=len(honest),
    )


def table(outcomes: list[Outcome]) -> str:
    frame = pd.DataFrame([o.__dict__ for o in outcomes])
    lines = ["| cheat | hands | runs | worst planted rank | recall at flag | false alarms | recall at 1% FPR "
             "| ROC AUC | all planted above all honest | honest pairs |", "|---" * 10 + "|"]
    for (kind, hands), group in frame.groupby(["kind", "hands"], sort=False):
        if kind == "honest":
            share = (group["false_alarms"] > 0).mean()
            lines.append(f"| honest | {hands} | {len(group)} | - | - | runs with a flag: {share:.0%} "
                         f"({int(group['false_alarms'].sum())} pairs) | - | - | - | {int(group['honest_pairs'].mean())} |")
            continue
        lines.append(
            f"| {kind} | {hands} | {len(group)} | {int(group['worst_rank'].max())} | {group['recall_flag'].mean():.2f} "
            f"| {int(group['false_alarms'].sum())} | {group['recall_fpr1'].mean():.2f} | {group['auc'].mean():.3f} "
            f"| {int(group['all_above'].sum())}/{len(group)} | {int(group['honest_pairs'].mean())} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="2000,20000")
    parser.add_argument("--runs", default="3,1", help="runs per size, in the order of --sizes")
    parser.add_argument("--strength", type=float, default=0.5)
    parser.add_argument("--kinds", default="soft_play,chip_dumping,card_sharing,honest")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    runs = [int(r) for r in args.runs.split(",")]
    outcomes = []
    for size, count in zip(sizes, runs):
        for kind in args.kinds.split(","):
            for run in range(count):
                started = time.monotonic()
                outcome = measure(kind, size, run, args.strength)
                outcomes.append(outcome)
                print(f"{kind} {size} run {run}: {outcome} ({time.monotonic() - started:.0f} s)", file=sys.stderr)
    print(table(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
