"""Peak resident memory of ``studbook check`` and ``studbook import`` on big inputs.

    .venv/bin/python benchmarks/bench_memory.py [--hands 100000] [--files 20] [--files-hands N]

Three inputs, made at run time in a temporary folder (never in the repository):

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
wrapper process that runs only it. The table gives hands, CPU seconds and peak MB,
and whether each run stayed under ``--bound`` MB (exit status 1 if not).
"""

from __future__ import annotations

import argparse
import itertools
import re
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=100_000, help="hands in the one big file (default 100,000)")
    parser.add_argument("--files", type=int, default=20, help="files in the many-files case (default 20)")
    parser.add_argument("--files-hands", type=int, help="hands in each of those files (default --hands)")
    parser.add_argument("--base", type=int, default=2_000, help="simulated hands copied to make the files")
    parser.add_argument("--bound", type=float, default=300.0, help="the bound on peak RSS, MB (default 300)")
    parser.add_argument("--skip-import", action="store_true", help="measure check only")
    args = parser.parse_args()
    files_hands = args.files_hands or args.hands
    rows: list[tuple[str, str, int, float, float]] = []
    with tempfile.TemporaryDirectory(prefix="studbook-memory-") as tmp:
        folder = Path(tmp)
        (folder / "sim").mkdir()
        base = base_hands(folder / "sim", args.base)
        numbers = itertools.count(10**11)
        one = folder / "one"
        one.mkdir()
        write_copies(one / "big.txt", base, args.hands, numbers)
        many = folder / "many"
        many.mkdir()
        for index in range(args.files):
            write_copies(many / f"part-{index:02d}.txt", base, files_hands, numbers)
        cases = [(f"1 file x {args.hands:,} hands", one, args.hands),
                 (f"{args.files} files x {files_hands:,} hands", many, args.files * files_hands)]  # fmt: skip
        if (CORPUS / IPOKER).is_file():
            broken = folder / "broken"
            broken.mkdir()
            count = broken_ipoker(broken / "broken.xml")
            size = (broken / "broken.xml").stat().st_size / 1e6
            cases.append((f"broken iPoker {size:.1f} MB", broken, count))
        else:
            print(f"corpus not found at {CORPUS}: the broken iPoker case is left out", file=sys.stderr)
        for name, path, hands in cases:
            commands = [("check", [*STUDBOOK, "check", "--format", "jsonl", str(path)])]
            if not args.skip_import:
                db = folder / f"store-{len(rows)}.db"
                commands.append(("import", [*STUDBOOK, "import", "-q", str(path), "--db", str(db)]))
            for label, command in commands:
                started = time.perf_counter()
                peak, seconds, _ = measure(command)
                rows.append((name, label, hands, seconds, peak))
                print(f"  {name}: {label}: {peak:.0f} MB in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    print(f"{'input':<28} {'command':<7} {'hands':>9} {'CPU s':>8} {'peak MB':>8}")
    over = False
    for name, label, hands, seconds, peak in rows:
        flag = "" if peak <= args.bound else f"  over the {args.bound:.0f} MB bound"
        over |= bool(flag)
        print(f"{name:<28} {label:<7} {hands:>9,} {seconds:>8.1f} {peak:>8.0f}{flag}")
    print(f"bound: {args.bound:.0f} MB; {'some runs went over it' if over else 'every run stayed under it'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
