"""The scale run, by hand: N simulated hands end to end, each stage timed and measured.

    nice -n 19 .venv/bin/python benchmarks/scale_run.py --hands 1000000 --out out/scale

Stages, each in its own process (so its time and memory are its own):

1. ``generate``: N simulated hands, stud, stud8 and razz in turn by file
   (``--per-file`` hands a file), written by ``--jobs`` processes. Each file
   has its own seed and its own range of hand ids (:func:`first_hand_id`),
   so no two hands share an id in the store.
2. ``import``: ``studbook import DIR --db DB --jobs J -q``.
   The run stops unless the store then holds all N hands.
3. ``stats``: ``studbook stats --db DB --format csv`` (to ``stats.csv``).
4. ``load``: ``studbook.load(DB)``, all seven frames; the resident memory it
   adds above the interpreter's start, per hand; then pandas' answers as a user
   writes them: hands and net per player and variant (a groupby of the
   categoricals, ``observed=True``), and ``stats.compute`` over every player.
   Each of the three steps' own peak RSS is sampled (every 5 ms) and reported.
5. ``dask``: ``studbook.scale.to_dask`` of the same files on a
   ``dask.distributed`` LocalCluster of ``--workers`` single-threaded worker
   processes: per partition (the hands, players and actions frames of the
   same files), hands and net per player and variant and the stats' sums
   (:func:`studbook.stats.sums`), added up on the cluster. The run then
   compares them with pandas' (integers and exact money equal, float sums
   equal to 1e-9 relative: they are added in another order) and with the
   ``stats`` command's CSV, and says so.
6. ``plot``: ``studbook plot results --db DB --player Hero -o results.png``.

Per stage: wall time, CPU time (user + sys of the stage's process and the
processes it waited for), the peak resident memory of the stage's process tree
(sampled every 0.2 s, the processes' RSS added up; for a stage of several
processes, the largest peaks of single processes too) and per hand. The table is
printed as Markdown for the README; ``--keep`` keeps the hands and the store
(by default they are deleted at the end: a million hands is about 5 GB), and
``--reuse-hands`` runs the stages after ``generate`` again on kept hands.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("stud", "stud8", "razz")
HERO = "Hero"
ID_BASE = {"stud": 250_000_000_000, "stud8": 350_000_000_000, "razz": 450_000_000_000}
ID_SPAN = 10**7  # a file's hands use fewer ids than this (at most 40 a hand, one table a file)


def first_hand_id(variant: str, number: int) -> int:
    """The first hand id of file ``number``: every file its own range, every variant its own block."""
    return ID_BASE[variant] + number * ID_SPAN


# ---------------------------------------------------------------------------
# Measuring a stage


@dataclass
class Measured:
    stage: str
    wall: float
    cpu: float
    peak_mib: float
    detail: str = ""


def _tree_rss(pid: int, each: dict[int, int]) -> int:
    """The RSS of ``pid`` and its descendants added up; each one's peak so far to ``each``."""
    import psutil

    try:
        root = psutil.Process(pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for process in processes:
        try:
            rss = process.memory_info().rss
        except psutil.Error:
            continue
        total += rss
        each[process.pid] = max(each.get(process.pid, 0), rss)
    return total


def run_stage(stage: str, command: list[str], *, stdout: Path | None = None) -> Measured:
    """Run ``command``, sampling its process tree's memory; fail loudly if it fails."""
    print(f"[{time.strftime('%H:%M:%S')}] {stage}: {' '.join(command)}", flush=True)
    began = time.perf_counter()
    out = open(stdout, "w") if stdout else subprocess.DEVNULL
    try:
        process = subprocess.Popen(command, stdout=out if stdout else None)
        peak = 0
        each: dict[int, int] = {}  # every process's own peak
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, _tree_rss(process.pid, each))
                done.wait(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        done.set()
        sampler.join()
    finally:
        if stdout:
            out.close()  # type: ignore[union-attr]
    wall = time.perf_counter() - began
    if process.returncode != 0:
        sys.exit(f"scale run: stage {stage} failed (exit {process.returncode})")
    peak = max(peak, usage.ru_maxrss * 1024)
    peaks = sorted(each.values(), reverse=True)
    detail = (f"{len(peaks)} processes, the largest peaks " + ", ".join(f"{p / 2**20:.0f}" for p in peaks[:4])
              + " MiB") if len(peaks) > 1 else ""
    measured = Measured(stage, wall, usage.ru_utime + usage.ru_stime, peak / 2**20, detail)
    print(f"  {stage}: {wall:.1f} s wall, {measured.cpu:.1f} s CPU, peak {measured.peak_mib:.0f} MiB"
          + (f" ({detail})" if detail else ""), flush=True)
    return measured


# ---------------------------------------------------------------------------
# Stage 1: generate


def _write_file(job: tuple[Path, int, int]) -> int:
    from studbook.simulate import simulate_hands, write_hands

    folder, number, count = job
    variant = VARIANTS[number % 3]
    hands = simulate_hands(variant, count, 6, seed=number, hero=HERO,
                           first_hand_id=first_hand_id(variant, number))
    (folder / f"sim-{variant}-{number:05d}.txt").write_text(write_hands(hands), encoding="utf-8")
    return count


def generate(folder: Path, hands: int, per_file: int, jobs: int) -> None:
    from multiprocessing import Pool

    folder.mkdir(parents=True, exist_ok=True)
    work = [(folder, number, min(per_file, hands - first))
            for number, first in enumerate(range(0, hands, per_file))]
    with Pool(jobs) as pool:
        written = sum(pool.imap_unordered(_write_file, work))
    print(f"  wrote {written} hands in {len(work)} files to {folder}", flush=True)


# ---------------------------------------------------------------------------
# Stage 5: load (pandas' answers)


def _rss() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class _Peak:
    """The peak RSS of this process while the block runs (sampled every 5 ms)."""

    def __enter__(self) -> _Peak:
        self.peak = _rss()
        self._done = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()
        return self

    def _sample(self) -> None:
        while not self._done.is_set():
            self.peak = max(self.peak, _rss())
            self._done.wait(0.005)

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._sampler.join()
        self.peak = max(self.peak, _rss())


def pandas_answers(db: Path, answers: Path, memory: Path) -> None:
    start = _rss()  # the interpreter's start, before any import
    import studbook
    from studbook import stats

    imported = _rss()
    began = time.perf_counter()
    with _Peak() as loading:
        frames = studbook.load(db)
    seconds = time.perf_counter() - began
    loaded = _rss()
    hands = len(frames.hands)
    with _Peak() as counting:
        counts = _counts(frames.players)
    with _Peak() as computing:
        table = stats.compute(frames, denominators=True)
    memory.write_text(json.dumps({
        "hands": hands, "seconds": seconds, "start_mib": start / 2**20, "imports_mib": imported / 2**20,
        "loaded_mib": loaded / 2**20,
        "bytes_per_hand_from_start": (loaded - start) / hands,
        "bytes_per_hand_above_imports": (loaded - imported) / hands,
        "frames_bytes_per_hand": sum(f.memory_usage(deep=True).sum() for _, f in frames.tables()) / hands,
        "load_peak_mib": loading.peak / 2**20, "counts_peak_mib": counting.peak / 2**20,
        "stats_peak_mib": computing.peak / 2**20,
    }))
    print(f"  load: {hands} hands in {seconds:.1f} s, {(loaded - start) / hands:.0f} B/hand above the "
          f"interpreter's start ({(loaded - imported) / hands:.0f} above the imports); peaks: load() "
          f"{loading.peak / 2**20:.0f} MiB, counts {counting.peak / 2**20:.0f}, stats.compute "
          f"{computing.peak / 2**20:.0f} (resident after load() {loaded / 2**20:.0f})", flush=True)
    with open(answers, "wb") as handle:
        pickle.dump({"counts": counts, "stats": table, "hands": hands}, handle)


def _counts(players: Any) -> Any:
    """Hands and net (minor units) per player and variant, as a user writes it."""
    out = players.groupby(["player", "variant"], observed=True)["net"].agg(["count", "sum"])
    out.columns = ["hands", "net"]
    return out


# ---------------------------------------------------------------------------
# Stage 6: dask


def _partition_answers(hands: Any, players: Any, actions: Any) -> tuple[Any, Any, int]:
    """One partition's hands and net per player and variant, its stats sums, its hand count."""
    from studbook import stats
    from studbook.frames import Frames, typed_frame

    empty = {t: typed_frame(t, []) for t in ("pots", "violations", "rejects", "notes")}
    frames = Frames(hands=hands, players=players, actions=actions, **empty)
    return _counts(players), stats.sums(frames), len(hands)


def _add_up(parts: list[tuple[Any, Any, int]]) -> tuple[Any, Any, int]:
    import pandas as pd

    from studbook import stats

    counts = pd.concat([c for c, _, _ in parts]).groupby(level=[0, 1]).sum()
    return counts, stats.combine_sums(s for _, s, _ in parts), sum(n for _, _, n in parts)


def dask_answers(folder: Path, answers: Path, workers: int, files_per_partition: int) -> None:
    import dask
    from dask.distributed import Client, LocalCluster

    from studbook import stats
    from studbook.scale import to_dask

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        frames = to_dask([folder], files_per_partition=files_per_partition)
        parts = zip(*(frames[t].to_delayed() for t in ("hands", "players", "actions")))
        partial = [dask.delayed(_partition_answers)(h, p, a) for h, p, a in parts]
        counts, totals, hands = dask.delayed(_add_up)(partial).compute()  # on the cluster (the client)
    table = stats.finish(totals, denominators=True)
    with open(answers, "wb") as handle:
        pickle.dump({"counts": counts.sort_index(), "stats": table, "hands": int(hands)}, handle)
    print(f"  dask: {int(hands)} hands in {len(partial)} partitions on {workers} workers", flush=True)


# ---------------------------------------------------------------------------
# Comparing


def _same_stats(left: Any, right: Any) -> list[str]:
    """Where two stats tables differ (empty when they agree): rows, exact columns, floats to 1e-9."""
    import numpy as np

    from studbook.stats import MONEY_STATS

    keys = ["site", "player", "variant", "kind", "currency"]
    a = left.set_index(keys).sort_index()
    b = right.set_index(keys).sort_index()
    if list(a.index) != list(b.index):
        return [f"rows differ: {len(a)} vs {len(b)}"]
    problems = []
    for column in a.columns:
        x, y = a[column], b[column]
        if column in MONEY_STATS:  # float64 whole units; the command writes them to the cent
            equal = bool(np.allclose(x.astype(float), y.astype(float), rtol=0, atol=0.005, equal_nan=True))
        elif x.dtype.kind == "f" or y.dtype.kind == "f":
            equal = bool(np.allclose(x.astype(float), y.astype(float), rtol=1e-9, atol=1e-9, equal_nan=True))
        else:
            equal = bool((x == y).all())
        if not equal:
            problems.append(f"column {column} differs")
    return problems


def compare(pandas_file: Path, dask_file: Path, stats_csv: Path) -> tuple[bool, str]:
    import pandas as pd

    with open(pandas_file, "rb") as handle:
        mine = pickle.load(handle)
    with open(dask_file, "rb") as handle:
        theirs = pickle.load(handle)
    problems = []
    if mine["hands"] != theirs["hands"]:
        problems.append(f"hands: pandas {mine['hands']}, dask {theirs['hands']}")
    a, b = mine["counts"].sort_index(), theirs["counts"].sort_index()
    if not (list(a.index) == list(b.index) and (a.astype("int64") == b.astype("int64")).all().all()):
        problems.append("hands or net per player differ")
    problems += [f"dask stats: {p}" for p in _same_stats(mine["stats"], theirs["stats"])]
    command = pd.read_csv(stats_csv, keep_default_na=False, na_values=[""])
    table = mine["stats"].copy()
    table["currency"] = table["currency"].fillna("").astype(str)  # NA: no currency (chips, unknown)
    command["currency"] = command["currency"].fillna("").astype(str)
    problems += [f"stats command: {p}" for p in _same_stats(table, command)]
    players = len(a.index.get_level_values(0).unique())
    if problems:
        return False, "Dask DIFFERS from pandas: " + "; ".join(problems)
    return True, (f"Dask equals pandas: {mine['hands']} hands; hands and net of all {players} players "
                  f"in {len(a)} player/variant rows; all {len(mine['stats'].columns) - 5} stats columns "
                  f"of {len(mine['stats'])} rows (and the stats command's CSV equals them too)")


# ---------------------------------------------------------------------------


def _stored_hands(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(f"{db.absolute().as_uri()}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT count(*) FROM hands").fetchone()[0])


def table(rows: list[Measured], hands: int) -> str:
    lines = ["| stage | wall s | CPU s | peak RSS MiB | wall µs/hand | CPU µs/hand |",
             "|---|---:|---:|---:|---:|---:|"]
    for m in rows:
        lines.append(f"| {m.stage} | {m.wall:.1f} | {m.cpu:.1f} | {m.peak_mib:.0f} | "
                     f"{m.wall / hands * 1e6:.0f} | {m.cpu / hands * 1e6:.0f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="stage")
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--per-file", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--files-per-partition", type=int, default=4,
                        help="files a Dask partition reads (each worker holds one partition's frames while parsing)")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "scale")
    parser.add_argument("--keep", action="store_true", help="keep the hands and the store")
    parser.add_argument("--reuse-hands", action="store_true",
                        help="keep the hands OUT/hands of an earlier run (--keep) and run the other stages")
    for name in ("generate", "pandas", "dask"):
        sub.add_parser(name)
    args = parser.parse_args()
    out = args.out.resolve()
    hands_dir, db = out / "hands", out / "scale.db"
    if args.stage == "generate":
        generate(hands_dir, args.hands, args.per_file, args.jobs)
        return 0
    if args.stage == "pandas":
        pandas_answers(db, out / "pandas.pkl", out / "memory.json")
        return 0
    if args.stage == "dask":
        dask_answers(hands_dir, out / "dask.pkl", args.workers, args.files_per_partition)
        return 0
    if args.reuse_hands and hands_dir.is_dir():  # the stages after generate, again
        for path in out.iterdir():
            if path != hands_dir:
                path.unlink() if path.is_file() else shutil.rmtree(path)
    elif out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    python, studbook = sys.executable, str(Path(sys.executable).with_name("studbook"))
    me = [python, str(Path(__file__).resolve()), "--hands", str(args.hands), "--per-file", str(args.per_file),
          "--jobs", str(args.jobs), "--workers", str(args.workers), "--out", str(out),
          "--files-per-partition", str(args.files_per_partition)]
    began = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = [] if args.reuse_hands and hands_dir.is_dir() else [run_stage("generate", me + ["generate"])]
    rows.append(run_stage(f"import --jobs {args.jobs}", [studbook, "import", str(hands_dir), "--db", str(db),
                                                         "--jobs", str(args.jobs), "-q"]))
    stored = _stored_hands(db)
    if stored != args.hands:
        sys.exit(f"scale run: the store holds {stored} hands, not {args.hands}: see its rejects table")
    rows += [
        run_stage("stats", [studbook, "stats", "--db", str(db), "--format", "csv"], stdout=out / "stats.csv"),
        run_stage("load (7 frames) + pandas answers", me + ["pandas"]),
        run_stage(f"to_dask, LocalCluster {args.workers} workers", me + ["dask"]),
        run_stage("plot results", [studbook, "plot", "results", "--db", str(db), "--player", HERO,
                                   "-o", str(out / "results.png")]),
    ]
    agree, verdict = compare(out / "pandas.pkl", out / "dask.pkl", out / "stats.csv")
    memory = json.loads((out / "memory.json").read_text())
    sizes = {"hands": sum(f.stat().st_size for f in hands_dir.iterdir()), "store": db.stat().st_size}
    report = "\n".join([
        f"scale run of {args.hands} hands ({began}; {os.cpu_count()} cores, "
        f"{args.per_file} hands a file; {args.files_per_partition} files a Dask partition; nice {os.nice(0)})",
        table(rows, args.hands),
        f"logs {sizes['hands'] / 2**20:.0f} MiB, store {sizes['store'] / 2**20:.0f} MiB; "
        f"load(): {memory['seconds']:.1f} s, {memory['bytes_per_hand_from_start']:.0f} B/hand resident above "
        f"the interpreter's start ({memory['bytes_per_hand_above_imports']:.0f} above the imports; frames' "
        f"own memory_usage {memory['frames_bytes_per_hand']:.0f} B/hand)",
        f"load stage, each step's peak RSS: load() {memory['load_peak_mib']:.0f} MiB (resident after it "
        f"{memory['loaded_mib']:.0f}), hands and net per player {memory['counts_peak_mib']:.0f}, "
        f"stats.compute {memory['stats_peak_mib']:.0f}",
        *(f"{m.stage}: {m.detail}" for m in rows if m.detail),
        verdict,
    ])
    print(report)
    (out / "report.md").write_text(report + "\n")
    if not args.keep:
        shutil.rmtree(hands_dir)
        for path in out.glob("scale.db*"):
            path.unlink()
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
