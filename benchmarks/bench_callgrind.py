"""Instructions a hand (callgrind), this tree against another, side by side.

    .venv/bin/python benchmarks/bench_callgrind.py [--against OTHER/src] [--hands 600] [--phase check|frames]
    .venv/bin/python benchmarks/bench_callgrind.py --pinned [--corpus FILE] [--startup]

``--pinned`` measures this tree, the pinned baseline (:data:`PINNED`, the main
of 2026-12-01 morning that issue 34's speed targets are set against) and the
last ``main``, side by side: each is taken with ``git archive REV | tar -x``
into the temporary folder (so neither needs a checkout), and the ratios are
this tree over each. ``--corpus FILE`` measures real hands instead of
simulated ones: copies of FILE (a real log, chatter and all; each copy's hand
numbers made distinct, so no copy reads as a repeat of another), as many as
make ``--hands // 4`` and ``--hands`` checked hands; a hand is then one the
checker checked (a hand of another game is read and skipped, its cost
counted in the checked hands'). ``--startup`` measures instead the
instructions of a whole ``studbook check`` process over a file of one hand
(start-up, imports, grammar and tables, one hand), its caches warm and the
bytecode written, as a user's second run would be.

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

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "src"
PINNED = "0fda8f3"
"""The baseline of issue 34's speed targets: main of 2026-12-01 morning."""
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
    tree gets a cache folder of its own (``TMPDIR``), filled by a run over
    ``folder`` outside callgrind before the measured one: each set's own
    warm-up, so that a measured run works out nothing a warm cache keeps (a
    larger set meets more of what the memos keep between processes, the
    regexes of rarer lines and the board keys, and would otherwise work them
    out and write them inside the measured run; since 2026-12-05, i34l1)."""
    script = PHASES[phase].format(folder=str(folder))
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0", "TMPDIR": str(cache), **ONE_THREAD}
    cache.mkdir(exist_ok=True)
    subprocess.run([sys.executable, "-c", script], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", script],
        check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    match = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
    if match is None:
        raise SystemExit(f"{out}: no instruction total in callgrind's output")
    return int(match.group(1))


def extract(rev: str, into: Path) -> Path:
    """The source tree of ``rev`` (``git archive REV | tar -x -C into``): its ``src/``."""
    into.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def corpus_copies(source: Path, folder: Path, hands: int) -> int:
    """Copies of ``source`` in ``folder`` until they hold ``hands`` checked hands or more;
    each copy's hand numbers prefixed with its number (distinct hands). The checked hands."""
    from studbook.check import check_paths

    per_copy = sum(len(checked.checks) for checked in check_paths([source]))
    if per_copy == 0:
        raise SystemExit(f"{source}: no hand to check")
    text = source.read_text(encoding="utf-8-sig")
    copies = -(-hands // per_copy)
    for number in range(copies):
        renumbered = re.sub(r"(Hand #)(\d)", rf"\g<1>{number + 1}\2", text)
        (folder / f"copy-{number:03d}.txt").write_text(renumbered, encoding="utf-8")
    return copies * per_copy


def startup(src: Path, one_hand: Path, out: Path, cache: Path) -> int:
    """Instructions of a ``studbook check`` process over one hand, its caches warm.

    Bytecode is written (``PYTHONDONTWRITEBYTECODE`` dropped) and a first run
    fills the caches, as a user's first run would; the second is measured.
    The caches (Lark's grammars, :mod:`studbook.diskmemo`'s memos) go in a
    temporary folder of the tree's own, ``cache``: the memos in the machine's
    temporary folder hold what every earlier process with the same sources
    added (every site's regexes after a check of the corpus), and reading them
    cost main 0.16 G more on 2026-12-03 than a first run leaves."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(src), PYTHONHASHSEED="0", TMPDIR=str(cache), **ONE_THREAD)
    cache.mkdir()
    command = [sys.executable, "-m", "studbook", "check", str(one_hand)]
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
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
    parser.add_argument("--pinned", action="store_true", help=f"also the pinned baseline {PINNED} and main")
    parser.add_argument("--corpus", type=Path, help="copies of this real log instead of simulated hands")
    parser.add_argument("--startup", action="store_true", help="a one-hand check process instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="studbook-callgrind-") as name:
        tmp = Path(name)
        trees = [("this tree", HERE)] + ([("against", args.against.resolve())] if args.against else [])
        if args.pinned:
            trees += [(rev, extract(rev, tmp / f"tree-{rev}")) for rev in (PINNED, "main")]
        if args.startup:
            one = tmp / "one.txt"
            one.write_text(one_hand(), encoding="utf-8")
            costs = [startup(src, one, tmp / "startup.out", tmp / f"startup-cache-{i}") for i, (_, src) in enumerate(trees)]
            report("startup", "instructions, a one-hand check process", trees, costs, 1e9, "G")
            return
        sets = []
        for label, hands in (("small", args.hands // 4), ("large", args.hands)):
            folder = tmp / label
            folder.mkdir()
            made = corpus_copies(args.corpus, folder, hands) if args.corpus else generate(folder, hands)
            sets.append((folder, made))
        costs = [per_hand(src, args.phase, sets[0], sets[1], tmp) for _, src in trees]
        report(args.phase, "instructions a hand", trees, costs, 1e6, "M")


def one_hand() -> str:
    """The first hand of the project's first sample log."""
    first = sorted((ROOT / "histories").glob("HH*.txt"))[0]
    return first.read_text(encoding="utf-8-sig").split("\n\n\n")[0].strip() + "\n"


def report(what: str, unit: str, trees: list[tuple[str, Path]], costs: list[float], scale: float, prefix: str) -> None:
    for (label, src), cost in zip(trees, costs):
        print(f"{what:7} {label:10} {cost / scale:.3f} {prefix} {unit} ({src})")
    for (label, _), cost in zip(trees[1:], costs[1:]):
        print(f"{what:7} ratio      {costs[0] / cost:.4f} (this tree / {label})")


if __name__ == "__main__":
    main()
