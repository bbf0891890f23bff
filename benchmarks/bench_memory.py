"""Peak resident memory of ``studbook check`` and ``studbook import`` on big inputs.

    .venv/bin/python benchmarks/bench_memory.py [--hands 100000] [--files 20] [--files-hands N]
        [--cases broken,one,many] [--skip-check | --skip-import] [--work DIR]

Three inputs, made at run time in a temporary folder (or in ``--work DIR``,
emptied afterwards; never in the repository):

* one PokerStars file of ``--hands`` hands;
* ``--files`` such files (of ``--files-hands`` hands each; default ``--hands``);
* the broken iPoker case: a real iPoker session of the corpus
  (``../shared/corpus``) repeated 20 times (5.8 MB, 2,340 hands), one byte of
  each hand damaged.

The PokerStars hands are simulated (``studbook.simulate``, as in
``bench_check.py``: stud, stud hi/lo and razz, cash and tournament tables), a
base of ``--base`` hands copied with new hand ids up to the count, so every hand
id is unique. Each command runs in a fresh process (``studbook check --format
jsonl``, output discarded; ``studbook import -q`` into a new store) and its
peak resident set size is read from ``getrusage(RUSAGE_CHILDREN)`` of a
wrapper process that runs only it. Each run's row is printed as soon as it is
measured (a long run that is stopped still shows the rows it finished); the table
at the end gives hands, CPU seconds, hands per CPU second and peak MB, and whether
each run stayed under its bound (``--bound`` MB for check, ``--import-bound`` for
import; exit status 1 if not).
"""

from __future__ import annotations

import argparse
import itertools
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
IPOKER = "iPoker/7-StudHi-USD-STT-5-201103.txt"
STUDBOOK = [sys.executable, "-m", "studbook"]
_HAND_ID = re.compile(r"(?m)^(PokerStars Hand #)\d+")
# Runs one command and prints its peak RSS in kB (Linux ru_maxrss) and CPU seconds.
_WRAPPER = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime, code)
"""


def base_hands(folder: Path, count: int) -> str:
    """``count`` simulated hands as PokerStars text."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_check import generate  # the simulated tables of the speed benchmark

    generate(folder, count)
    text = "".join(path.read_text(encoding="utf-8").rstrip("\n") + "\n\n\n" for path in sorted(folder.iterdir()))
    for path in folder.iterdir():
        path.unlink()
    return text


def write_copies(path: Path, base: str, hands: int, numbers: itertools.count[int]) -> int:
    """Copies of ``base`` with fresh hand ids until ``hands`` hands are written."""
    per_copy = len(_HAND_ID.findall(base))
    written = 0
    with path.open("w", encoding="utf-8") as out:
        while written < hands:
            text = _HAND_ID.sub(lambda m: m.group(1) + str(next(numbers)), base)
            if hands - written < per_copy:  # the last copy, cut at a hand's start
                starts = [m.start() for m in _HAND_ID.finditer(text)]
                text = text[: starts[hands - written]]
            out.write(text)
            written += min(per_copy, hands - written)
    return written


def broken_ipoker(path: Path, copies: int = 20) -> int:
    """The corpus iPoker session repeated, one byte of each hand damaged (``<general>`` -> ``<gen<eral>``)."""
    text = (CORPUS / IPOKER).read_text() * copies
    broken, count = re.subn(r"(<game [^>]*>\s*)<general>", r"\1<gen<eral>", text)
    path.write_text(broken)
    return count


def measure(command: list[str]) -> tuple[float, float, int]:
    """(peak MB, CPU seconds, exit status) of ``command`` run on its own."""
    done = subprocess.run([sys.executable, "-c", _WRAPPER, *command], capture_output=True, text=True, check=True)
    peak, seconds, code = done.stdout.split()
    return int(peak) / 1024, float(seconds), int(code)


CASES = ("broken", "one", "many")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=100_000, help="hands in the one big file (default 100,000)")
    parser.add_argument("--files", type=int, default=20, help="files in the many-files case (default 20)")
    parser.add_argument("--files-hands", type=int, help="hands in each of those files (default --hands)")
    parser.add_argument("--base", type=int, default=2_000, help="simulated hands copied to make the files")
    parser.add_argument("--bound", type=float, default=300.0, help="the bound on check's peak RSS, MB (default 300)")
    parser.add_argument("--import-bound", type=float, default=400.0,
                        help="the bound on import's peak RSS, MB (default 400: pandas and SQLite's page cache on top)")
    parser.add_argument("--skip-import", action="store_true", help="measure check only")
    parser.add_argument("--skip-check", action="store_true", help="measure import only")
    parser.add_argument("--cases", default=",".join(CASES),
                        help="the inputs to measure, in this order (default broken,one,many)")
    parser.add_argument("--work", type=Path, help="make the inputs and stores here (emptied afterwards; "
                        "default a temporary folder)")
    args = parser.parse_args()
    cases = [case.strip() for case in args.cases.split(",") if case.strip()]
    unknown = sorted(set(cases) - set(CASES))
    if unknown:
        parser.error(f"unknown case {', '.join(unknown)} (choose from {', '.join(CASES)})")
    if args.work is not None:
        args.work.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="studbook-memory-", dir=args.work) as tmp:
        rows = run_cases(Path(tmp), cases, args)
    print(f"{'input':<28} {'command':<7} {'hands':>9} {'CPU s':>8} {'hands/s':>8} {'peak MB':>8}")
    over = False
    for name, label, hands, seconds, peak in rows:
        bound = args.import_bound if label == "import" else args.bound
        flag = "" if peak <= bound else f"  over the {bound:.0f} MB bound"
        over |= bool(flag)
        rate = hands / seconds if seconds else 0.0
        print(f"{name:<28} {label:<7} {hands:>9,} {seconds:>8.1f} {rate:>8.0f} {peak:>8.0f}{flag}")
    print(f"bounds: check {args.bound:.0f} MB, import {args.import_bound:.0f} MB; "
          f"{'some runs went over them' if over else 'every run stayed under them'}")
    return 1 if over else 0


def run_cases(folder: Path, cases: list[str], args: argparse.Namespace) -> list[tuple[str, str, int, float, float]]:
    """Make each input just before it is measured, measure check (and import), then delete it."""
    files_hands = args.files_hands or args.hands
    rows: list[tuple[str, str, int, float, float]] = []
    base = ""
    numbers = itertools.count(10**11)
    for case in cases:
        path = folder / case
        path.mkdir()
        if case == "broken":
            if not (CORPUS / IPOKER).is_file():
                print(f"corpus not found at {CORPUS}: the broken iPoker case is left out", file=sys.stderr)
                continue
            hands = broken_ipoker(path / "broken.xml")
            name = f"broken iPoker {(path / 'broken.xml').stat().st_size / 1e6:.1f} MB"
        else:
            if not base:
                (folder / "sim").mkdir()
                base = base_hands(folder / "sim", args.base)
            count, each = (1, args.hands) if case == "one" else (args.files, files_hands)
            for index in range(count):
                write_copies(path / f"part-{index:02d}.txt", base, each, numbers)
            hands = count * each
            name = f"1 file x {each:,} hands" if count == 1 else f"{count} files x {each:,} hands"
        commands = [] if args.skip_check else [("check", [*STUDBOOK, "check", "--format", "jsonl", str(path)])]
        if not args.skip_import:
            commands.append(("import", [*STUDBOOK, "import", "-q", str(path), "--db", str(folder / f"{case}.db")]))
        for label, command in commands:
            started = time.perf_counter()
            peak, seconds, code = measure(command)
            rows.append((name, label, hands, seconds, peak))
            print(f"  {name}: {label}: {peak:.0f} MB, {seconds:.1f} CPU s, {time.perf_counter() - started:.0f} s, "
                  f"exit {code}", file=sys.stderr, flush=True)
        shutil.rmtree(path)
        for store in folder.glob(f"{case}.db*"):
            store.unlink()
    return rows


if __name__ == "__main__":
    sys.exit(main())
