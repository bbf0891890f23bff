"""Parse speed and memory on a generated corpus (see generate.py).

    .venv/bin/python benchmarks/generate.py --hands 20000
    .venv/bin/python benchmarks/bench_parse.py out/bench-corpus [--repeat 3]

Reports, for the best of ``--repeat`` runs of ``studbook.parse_paths`` over
the directory (decoding, splitting, grammar, events): hands per second of
wall-clock and of CPU time (the machine may be shared), the peak resident
set of the process (``resource``), and the peak Python heap of one run while
traced (``tracemalloc``, which itself slows parsing, so it is timed apart).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc
from pathlib import Path

import studbook


def one_run(root: Path) -> tuple[int, int, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    hands = other = 0
    for report in studbook.parse_paths([root]):
        counts = report.counts()
        hands += counts["parsed"]
        other += counts["skipped"] + counts["rejected"] + (report.error is not None)
    return hands, other, time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, nargs="?", default=Path("out/bench-corpus"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if not args.root.is_dir():
        sys.exit(f"{args.root}: not a directory (run benchmarks/generate.py first)")
    list(studbook.parse_text("warm-up"))  # grammar compiled (and cached) outside the timing
    runs = [one_run(args.root) for _ in range(args.repeat)]
    hands, other, _, _ = runs[0]
    best_wall = min(r[2] for r in runs)
    best_cpu = min(r[3] for r in runs)
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    tracemalloc.start()
    one_run(args.root)
    _, peak_heap = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{hands} hands parsed ({other} other results) from {args.root}")
    print(f"best of {args.repeat}: {best_wall:.2f} s wall, {best_cpu:.2f} s CPU")
    print(f"speed: {hands / best_wall:,.0f} hands/s wall, {hands / best_cpu:,.0f} hands/s CPU (single process)")
    print(f"peak memory: {peak_rss:.0f} MB resident, {peak_heap / 2**20:.1f} MB Python heap (tracemalloc, one file's results alive at a time)")
    return 0 if other == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
