"""Instructions a hand (callgrind), this tree against another, side by side.

    .venv/bin/python benchmarks/bench_callgrind.py [--against OTHER/src] [--hands 600] [--phase check|frames]

Simulates two fixed sets of hands (``bench_check.generate``: stud, stud8 and
razz tables of 2 to 8 players, the same seeds every run) of ``--hands`` and
``--hands // 4`` hands, in a temporary folder, then runs one phase over each
under ``valgrind --tool=callgrind``: ``check`` (parse + check, as
``studbook check`` loops over files) or ``frames`` (parse + check + the
frames' rows). The difference of the two totals over the difference in hands
is the cost of a hand, start-up and imports aside. Instruction counts repeat
exactly, unlike timings on a shared machine, once nothing runs that depends
on timing: numpy (imported by the hand evaluator) starts OpenBLAS's thread
pool, whose idle threads spin for as long as the machine lets them, 13 to
18 M instructions a run that callgrind counts (thousands of instructions a
hand, a few tenths of a percent, between runs of the same tree, with the
machine's load). The runs set one BLAS thread, so there is no pool: two runs
of the same tree, in different temporary folders, then agree to 0.04% a hand
or better (2026-12-01: 2.783125 M and 2.783125 M; cbaa28c 2.704880 M and
2.703855 M, that difference in memcpy and malloc: where the heap puts large
blocks). With ``--against``, the same runs on another source tree (e.g.
``git archive main | tar -x -C /tmp/base``) and the ratio of the two. Run it
under the heavy lock: each callgrind run takes about a minute.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_check import generate  # noqa: E402

HERE = Path(__file__).resolve().parent.parent / "src"
# No BLAS thread pool: its idle threads spin for as long as the machine lets
# them, instructions callgrind counts that vary with the machine's load.
ONE_THREAD = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}

PHASES = {
    "check": (
        "from studbook.check import check_paths\n"
        "from studbook.gcpause import gc_between_files\n"
        "with gc_between_files() as next_file:\n"
        "    for checked in check_paths([{folder!r}]):\n"
        "        next_file()\n"
    ),
    "frames": (
        "from studbook.frames import check_results, rows_from_checks\n"
        "rows_from_checks(check_results([{folder!r}]))\n"
    ),
}


def instructions(src: Path, phase: str, folder: Path, out: Path, cache: Path) -> int:
    """Total instructions of one phase over ``folder`` with ``src`` on the path.

    Lark caches each compiled grammar in the temporary folder, keyed by the
    site grammar's text; it compiles it again (half a billion instructions)
    when the cache is missing or an imported grammar (common.lark) differs,
    and any process with the same site grammar rewrites that file. So each
    tree gets a cache folder of its own (``TMPDIR``), filled by a run outside
    callgrind before the measured ones."""
    script = PHASES[phase].format(folder=str(folder))
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0", "TMPDIR": str(cache), **ONE_THREAD}
    if not cache.exists():
        cache.mkdir()
        subprocess.run([sys.executable, "-c", script], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", script],
        check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    match = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
    if match is None:
        raise SystemExit(f"{out}: no instruction total in callgrind's output")
    return int(match.group(1))


def per_hand(src: Path, phase: str, small: tuple[Path, int], large: tuple[Path, int], tmp: Path) -> float:
    cache = tmp / f"cache-{len(list(tmp.glob('cache-*')))}"  # one a tree
    low = instructions(src, phase, small[0], tmp / "small.out", cache)
    high = instructions(src, phase, large[0], tmp / "large.out", cache)
    return (high - low) / (large[1] - small[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another tree's src/ to compare with")
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--phase", choices=sorted(PHASES), default="check")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="studbook-callgrind-") as name:
        tmp = Path(name)
        sets = []
        for label, hands in (("small", args.hands // 4), ("large", args.hands)):
            folder = tmp / label
            folder.mkdir()
            sets.append((folder, generate(folder, hands)))
        trees = [("this tree", HERE)] + ([("against", args.against.resolve())] if args.against else [])
        results = []
        for label, src in trees:
            cost = per_hand(src, args.phase, sets[0], sets[1], tmp)
            results.append(cost)
            print(f"{args.phase:7} {label:10} {cost / 1e6:.3f} M instructions a hand ({src})")
        if len(results) == 2:
            print(f"{args.phase:7} ratio      {results[0] / results[1]:.4f} (this tree / against)")


if __name__ == "__main__":
    main()
