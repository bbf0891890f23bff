"""Parse and check throughput on simulated PokerStars logs.

    .venv/bin/python benchmarks/bench_check.py [--hands 20000] [--profile] [--engine-only]
    .venv/bin/python benchmarks/bench_check.py --versus-jobs 2 [--hands 18000] [--rounds 3] [--baseline OTHER/src]

Simulates ``--hands`` hands (``studbook.simulate``: stud, stud8 and razz,
cash and tournament tables, 2 to 8 players) written as PokerStars files in a
temporary folder (never in the repository), then times, each in a fresh
single process:

* parse only: ``studbook.parse.parse_paths`` over the folder;
* parse + check: ``studbook.check.check_paths`` (the engine on every hand).

Both loops run as the ``studbook`` commands do: the cyclic collector paused
for the run and collecting between files (``studbook.gcpause.gc_between_files``).
It prints hands/s (wall and CPU time, best CPU of ``--runs`` runs) and the
peak resident memory each phase added over an idle interpreter with studbook
imported. The target is parse + check >= 3,000 hands/s of CPU time (the
machine may be shared). ``--dir DIR`` keeps the simulated logs in DIR
(simulating them there first when DIR is empty or missing) so later runs
reuse them. ``--profile`` also runs parse + check under cProfile and prints
the functions where the time goes (cumulative and own time), by module.

``--versus-jobs N`` times the command instead: ``studbook check DIR --jobs 1``
and ``studbook check DIR --jobs N`` on the same simulated hands in alternating
rounds (``--rounds``), each a child process, with wall time and CPU time (user
+ sys of the command and of its worker processes: ``wait4`` counts the children
a child waited for, and the pool waits for its workers), each round's ratios
and their medians, jobs N / jobs 1. ``--baseline OTHER/src`` adds a third run
to each round, ``check --jobs N`` of another tree (``PYTHONPATH``, e.g. main's
checkout), with the ratios this tree / that one. Output goes to /dev/null.

``--engine-only`` parses the hands once into memory, then times only the
checker (``check_file_result``: engine, settlement and results) over them,
``--repeat`` times, and prints the best CPU time (``time.process_time``) and
wall time per hand in µs, so parser noise does not hide engine changes; with
``--profile`` it profiles that loop. The engine's budget is about 80 µs a hand.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import itertools
import pstats
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 3000.0
TABLES = [  # variant, players, tournament, stakes
    ("stud", 8, False, "0.5"), ("stud8", 6, False, "2"), ("razz", 7, False, "10"),
    ("stud", 5, True, "2"), ("stud8", 8, True, "2"), ("razz", 3, False, "1"),
    ("stud", 2, False, "5"), ("stud8", 4, False, "0.04"), ("razz", 8, True, "2"),
]


def generate(folder: Path, hands: int) -> int:
    from studbook.simulate import simulate_hands, write_hands

    per_file = 500
    made = 0
    for number in itertools.count():
        if made >= hands:
            break
        variant, players, tournament, stakes = TABLES[number % len(TABLES)]
        count = min(per_file, hands - made)
        batch = list(simulate_hands(variant, count, players, seed=number, tournament=tournament, stakes=stakes))
        (folder / f"sim-{number:03d}-{variant}.txt").write_text(write_hands(batch), encoding="utf-8")
        made += len(batch)
    return made


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kB


def phase(kind: str, folder: str) -> None:
    """Child process: run one phase, print 'hands seconds cpu_seconds peak_mb base_mb'."""
    from studbook.check import check_paths
    from studbook.gcpause import gc_between_files
    from studbook.parse import parse_paths

    base = _rss_mb()
    start, cpu = time.perf_counter(), time.process_time()
    hands = 0
    with gc_between_files() as next_file:  # as the studbook commands run
        if kind == "parse":
            for parsed in parse_paths([folder]):
                next_file()
                hands += len(parsed.hands)
        else:
            for checked in check_paths([folder]):
                next_file()
                hands += len(checked.checks)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(hands, elapsed, cpu, _rss_mb(), base)


def engine_only(folder: str, repeat: int, profile_it: bool, top: int = 30) -> None:
    """Parse once, then time checking the parsed hands alone (best of ``repeat``)."""
    from studbook.check import TableMemory, check_file_result
    from studbook.parse import parse_paths

    parsed = list(parse_paths([folder]))
    hands = sum(len(p.hands) for p in parsed)
    gc.collect()
    gc.freeze()  # the parsed hands stay alive: keep the collector from walking them every run
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        memory = TableMemory()
        wall, cpu = time.perf_counter(), time.process_time()
        for p in parsed:
            check_file_result(p, memory)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        best_cpu, best_wall = min(best_cpu, cpu), min(best_wall, wall)
        print(f"engine only    {hands} hands: {cpu / hands * 1e6:.1f} µs/hand CPU, "
              f"{wall / hands * 1e6:.1f} µs/hand wall")
    print(f"engine only    best of {repeat}: {best_cpu / hands * 1e6:.1f} µs/hand CPU "
          f"({hands / best_cpu:,.0f} hands/s), {best_wall / hands * 1e6:.1f} µs/hand wall")
    if profile_it:
        profiler = cProfile.Profile()
        memory = TableMemory()
        profiler.enable()
        for p in parsed:
            check_file_result(p, memory)
        profiler.disable()
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(top)
        stats.sort_stats("cumulative").print_stats(top)
        print(out.getvalue())


def profile(folder: str, top: int = 25) -> str:
    from studbook.check import check_paths

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in check_paths([folder]):
        pass
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def run_phase(kind: str, folder: Path) -> tuple[int, float, float, float]:
    done = subprocess.run([sys.executable, __file__, "--phase", kind, str(folder)],
                          check=True, capture_output=True, text=True)
    hands, seconds, cpu, peak, base = done.stdout.split()
    return int(hands), float(seconds), float(cpu), float(peak) - float(base)


def versus_jobs(folder: Path, jobs: int, rounds: int, baseline: str | None) -> None:
    """``check --jobs 1`` against ``check --jobs N`` (and a baseline tree's ``--jobs N``)
    on ``folder``, alternating; each round's times and ratios, then the medians."""
    import os
    from statistics import median

    from bench_store import _child_times  # wall and CPU of a child and its workers (wait4)

    studbook = str(Path(sys.executable).with_name("studbook"))
    other = None if baseline is None else {**os.environ, "PYTHONPATH": str(Path(baseline).resolve())}
    runs = {"one": [studbook, "check", str(folder), "--jobs", "1"],
            "jobs": [studbook, "check", str(folder), "--jobs", str(jobs)]}
    print(f"{rounds} rounds, each a child process: check --jobs 1, check --jobs {jobs}"
          f"{f', then the baseline check --jobs {jobs}' if other else ''}")
    ratios: dict[str, list[float]] = {name: [] for name in ("wall", "cpu", "base wall", "base cpu")}
    for number in range(rounds):
        times = {name: _child_times(command) for name, command in runs.items()}
        (one_wall, one_cpu), (wall, cpu) = times["one"], times["jobs"]
        ratios["wall"].append(wall / one_wall)
        ratios["cpu"].append(cpu / one_cpu)
        line = (f"round {number + 1}: --jobs 1 {one_wall:6.2f} s wall {one_cpu:6.2f} s CPU | --jobs {jobs} "
                f"{wall:6.2f} s wall {cpu:6.2f} s CPU | jobs {jobs}/jobs 1 wall {ratios['wall'][-1]:.3f} "
                f"CPU {ratios['cpu'][-1]:.3f}")
        if other is not None:
            base_wall, base_cpu = _child_times(runs["jobs"], env=other)
            ratios["base wall"].append(wall / base_wall)
            ratios["base cpu"].append(cpu / base_cpu)
            line += (f" | baseline --jobs {jobs} {base_wall:6.2f} s wall {base_cpu:6.2f} s CPU | this/baseline "
                     f"wall {ratios['base wall'][-1]:.3f} CPU {ratios['base cpu'][-1]:.3f}")
        print(line, flush=True)
    print(f"median jobs {jobs}/jobs 1: wall {median(ratios['wall']):.3f}, CPU {median(ratios['cpu']):.3f}")
    if other is not None:
        print(f"median this/baseline, --jobs {jobs}: wall {median(ratios['base wall']):.3f}, "
              f"CPU {median(ratios['base cpu']):.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--profile", action="store_true", help="profile parse + check with cProfile")
    parser.add_argument("--engine-only", action="store_true",
                        help="parse once, then time only the checker over the parsed hands")
    parser.add_argument("--repeat", type=int, default=5, help="runs of --engine-only (best is kept)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each phase (best CPU time is kept)")
    parser.add_argument("--dir", help="use the simulated logs in this folder instead of simulating")
    parser.add_argument("--versus-jobs", type=int, metavar="N",
                        help="time the command: check --jobs 1 against check --jobs N, alternating")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --versus-jobs")
    parser.add_argument("--baseline", metavar="SRC",
                        help="--versus-jobs: also time check --jobs N of the tree whose src folder this is")
    parser.add_argument("--phase", nargs=2, metavar=("KIND", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        phase(*args.phase)
        return 0
    with tempfile.TemporaryDirectory(prefix="studbook-bench-") as tmp:
        folder = Path(args.dir or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        if not any(folder.iterdir()):
            start = time.perf_counter()
            made = generate(folder, args.hands)
            size = sum(p.stat().st_size for p in folder.iterdir())
            print(f"simulated {made} hands ({size / 1e6:.1f} MB in {len(list(folder.iterdir()))} files) "
                  f"in {time.perf_counter() - start:.1f} s")
        if args.engine_only:
            engine_only(str(folder), args.repeat, args.profile)
            return 0
        if args.versus_jobs:
            versus_jobs(folder, args.versus_jobs, args.rounds, args.baseline)
            return 0
        rates = {}
        for kind, label in (("parse", "parse only"), ("check", "parse + check")):
            runs = [run_phase(kind, folder) for _ in range(args.runs)]
            hands, seconds, cpu, peak = min(runs, key=lambda r: r[2])  # best CPU time
            rates[kind] = hands / cpu
            print(f"{label:14s} {hands} hands in {seconds:.2f} s wall, {cpu:.2f} s CPU: "
                  f"{hands / seconds:,.0f} hands/s wall, {rates[kind]:,.0f} hands/s CPU "
                  f"(best of {args.runs}), peak memory +{peak:.0f} MB")
        # CPU time: the machine may be shared, and wall time then measures the neighbours
        verdict = "meets" if rates["check"] >= TARGET else "MISSES"
        print(f"parse + check {verdict} the target of {TARGET:,.0f} hands/s (CPU)")
        if args.profile or rates["check"] < TARGET:
            print(profile(str(folder)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
