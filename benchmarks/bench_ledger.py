"""Parse time of the readers that keep a betting ledger, this tree against another, side by side.

    .venv/bin/python benchmarks/bench_ledger.py --against OTHER/src [--corpus ../shared/corpus]
        [--hands 4000] [--runs 3] [--rounds 5]

Every text site but PokerStars and PHH, and both XML sites, normalise each
action through ``studbook.sites.ledger.Ledger`` (one per hand); this times
what that costs where it is paid: parsing. The workload is the real corpus's
files of those sites (read and decoded once, never copied), each site's files
repeated to about the same number of hands (``--hands`` in all).

Each round runs one worker process per tree, alternately (this tree, then the
one whose ``src`` is ``--against``, e.g. a ``git archive`` of main), so a
machine shared with other jobs slows both alike; a worker parses the workload
``--runs`` times (``studbook.parse_text``, the cyclic GC paused per file as
``read_file`` does) and reports its best CPU time (``time.process_time``).
The table gives each tree's best round per reader family (line, XML) and in
all, hands/s, and this tree's figure as a ratio of the other's: best against
best, and the median of the rounds' ratios (each round's pair ran back to
back: the steadier figure on a busy machine).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
XML_SITES = frozenset({"ipoker", "merge"})
NO_LEDGER = frozenset({"pokerstars", "phh"})  # their readers never need one


def family(site: str) -> str:
    return "xml" if site in XML_SITES else "line"


def worker(corpus: Path, hands: int, runs: int) -> dict[str, tuple[int, float]]:
    """(hands, best CPU seconds) per family and in all, for the tree on ``sys.path``."""
    from bench_mixed import build_workload, load_corpus  # the corpus reading of the mixed bench

    from studbook.events import Hand
    from studbook.parse import parse_text

    sources = [s for s in load_corpus(corpus) if s.site not in NO_LEDGER]
    workload = build_workload(sources, hands, balanced=True)
    best: dict[str, tuple[int, float]] = {}
    clock = time.process_time
    for _ in range(runs):
        gc.collect()
        spent: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        for source in workload:
            start = clock()
            gc.disable()
            try:
                parsed = sum(isinstance(r, Hand) for r in parse_text(source.text, file=source.name))
            finally:
                gc.enable()
            seconds = clock() - start
            for key in (family(source.site), "all"):
                spent[key][0] += parsed
                spent[key][1] += seconds
        for key, (count, seconds) in spent.items():
            if key not in best or seconds < best[key][1]:
                best[key] = (int(count), seconds)
    return best


def run_worker(src: Path, args: argparse.Namespace) -> dict[str, tuple[int, float]]:
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", "--corpus", str(args.corpus),
               "--hands", str(args.hands), "--runs", str(args.runs)]  # fmt: skip
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    return {key: (int(h), float(s)) for key, (h, s) in json.loads(out).items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="the other tree's src/ directory")
    parser.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    parser.add_argument("--hands", type=int, default=4000, help="about this many hands in the workload")
    parser.add_argument("--runs", type=int, default=3, help="runs per worker (best CPU time is kept)")
    parser.add_argument("--rounds", type=int, default=5, help="workers per tree, alternating")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.corpus.resolve(), args.hands, args.runs)))
        return 0
    if args.against is None:
        parser.error("--against OTHER/src is needed (the tree to compare with)")
    args.corpus = args.corpus.resolve()
    trees = {"this": HERE.parent / "src", "other": args.against.resolve()}
    best: dict[str, dict[str, tuple[int, float]]] = {"this": {}, "other": {}}
    ratios: dict[str, list[float]] = defaultdict(list)  # this/other hands/s, per round
    for number in range(args.rounds):
        got = {name: run_worker(src, args) for name, src in trees.items()}
        for name, timings in got.items():
            for key, (count, seconds) in timings.items():
                if key not in best[name] or seconds < best[name][key][1]:
                    best[name][key] = (count, seconds)
        for key in got["this"]:
            ratios[key].append(got["other"][key][1] / got["this"][key][1])  # same hands: rate ratio
        print(f"round {number + 1}: this/other " + ", ".join(f"{key} {ratios[key][-1]:.3f}" for key in ratios),
              file=sys.stderr)
    print(f"{'readers':8s} {'hands':>6s} {'this h/s':>9s} {'other h/s':>9s} {'best/best':>9s} {'median of rounds':>16s}")
    for key in ("line", "xml", "all"):
        mine, theirs = best["this"][key], best["other"][key]
        ratio = (mine[0] / mine[1]) / (theirs[0] / theirs[1])
        print(f"{key:8s} {mine[0]:6d} {mine[0] / mine[1]:9,.0f} {theirs[0] / theirs[1]:9,.0f} {ratio:9.3f} "
              f"{statistics.median(ratios[key]):16.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
