"""Memory and time of ``studbook.load()`` on a store: resident bytes per hand.

    .venv/bin/python benchmarks/bench_load.py STORE [--frames hands,players] [--runs 1]

Each run is a fresh interpreter (so one run's memory does not count in the
next). It reports the resident memory (RSS) when the interpreter started, after
importing studbook and pandas, after ``load()``, and the peak, then the
frames' own size (``DataFrame.memory_usage(deep=True)``), all per hand. The
issue's aim is at most 2 KB a hand above the interpreter's start for all six
frames (``resident after load - resident at start`` over the hands; the
imports' fixed 100-odd MB are shown apart, as they weigh nothing at a million
hands).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import json, resource, sys, time

def rss():
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * resource.getpagesize()

start = rss()
import pandas  # noqa: F401
import studbook.frames as frames_module
imported = rss()
store, tables = sys.argv[1], json.loads(sys.argv[2])
began = time.perf_counter()
frames = frames_module.load(store, frames=tables)
seconds = time.perf_counter() - began
after = rss()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
import sqlite3
import pandas as pd
seen = set()

def size(frame):  # bytes, a categorical's categories counted once across the tables
    total = 0
    for column in frame.columns:
        series = frame[column]
        if isinstance(series.dtype, pd.CategoricalDtype):
            total += series.cat.codes.nbytes
            if id(series.dtype) not in seen:
                seen.add(id(series.dtype))
                total += series.cat.categories.memory_usage(deep=True)
        else:
            total += series.memory_usage(index=False, deep=True)
    return total

names = tables or list(frames_module.TABLES)
sizes = {name: int(size(getattr(frames, name))) for name in names}
rows = {name: len(getattr(frames, name)) for name in names}
hands = sqlite3.connect(store).execute("SELECT count(*) FROM hands").fetchone()[0]
print(json.dumps(dict(start=start, imported=imported, after=after, peak=peak, seconds=seconds,
                      sizes=sizes, rows=rows, hands=hands)))
"""


def run_once(store: Path, tables: list[str] | None) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(store), json.dumps(tables)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def report(result: dict) -> str:
    hands = max(result["hands"], 1)
    per = lambda n: f"{n / hands:8.0f} B/hand"  # noqa: E731
    mib = lambda n: f"{n / 2**20:8.1f} MiB"  # noqa: E731
    lines = [
        f"{result['hands']} hands; load() {result['seconds']:.2f} s "
        f"({result['hands'] / max(result['seconds'], 1e-9):,.0f} hands/s)",
        f"  resident at start          {mib(result['start'])}",
        f"  after imports              {mib(result['imported'])}",
        f"  after load                 {mib(result['after'])}   "
        f"above start {per(result['after'] - result['start'])}, "
        f"above imports {per(result['after'] - result['imported'])}",
        f"  peak                       {mib(result['peak'])}   "
        f"above imports {per(result['peak'] - result['imported'])}",
        f"  frames (memory_usage deep) {mib(sum(result['sizes'].values()))}   "
        f"{per(sum(result['sizes'].values()))}",
    ]
    for name, size in result["sizes"].items():
        lines.append(f"    {name:<12} {result['rows'][name]:>10} rows {per(size)}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--frames", help="comma-separated tables (default: all six)")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    tables = args.frames.split(",") if args.frames else None
    for _ in range(args.runs):
        print(report(run_once(args.store, tables)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
