"""Store benchmark: import N hands, then load() them back; time and peak memory.

    .venv/bin/python benchmarks/bench_store.py [--hands 10000] [--duckdb]
        [--source auto|histories|simulated|synthetic]
    .venv/bin/python benchmarks/bench_store.py --versus-check [--hands 9000] [--rounds 5]
        [--jobs N] [--baseline OTHER/src]
    .venv/bin/python benchmarks/bench_store.py --write-formats [--hands 9000] [--rounds 5]

``--versus-check`` times ``studbook check DIR --jobs 1`` and ``studbook import
DIR --db NEW --jobs 1 -q`` on the same simulated hands (stud, stud8, razz) in
alternating runs, each a child process: wall time and CPU time (user + sys of
the child, steadier than wall time on a shared machine), each round's ratio
and the median ratio import / check. The children write and use bytecode
(``PYTHONDONTWRITEBYTECODE`` dropped) after a first run of each command, as a
user's second run would. Issue 34's target is at most 1.25 (an earlier issue's, 1.10).
``--jobs N`` runs both commands with ``--jobs N`` instead; CPU is then the
child's and its worker processes' (``wait4`` counts the children a child
waited for, and the pool waits for its workers). ``--baseline OTHER/src``
adds a third run to each round, ``import`` of another tree (``PYTHONPATH``,
e.g. main's checkout), with the ratios import / baseline.

Hands come from ``histories/`` when it holds any, else from the simulator
(``studbook.simulate``, written as PokerStars files in a temporary folder),
so the import times the real pipeline: parse + check + store.
``--source synthetic`` builds HandChecks directly (no parser or engine) to time
frames and the store alone. ``--duckdb`` also times the same tables
written to and read from DuckDB, when the ``duckdb`` package is importable:
that is how the store's choice of SQLite was measured.
"""

from __future__ import annotations

import argparse
import itertools
import random
import resource
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Callable, Iterator, TypeVar

from studbook.cards import DECK
from studbook.check import check_hand
from studbook.engine.result import HandCheck, PlayerResult, PotAward
from studbook.events import (
    Action, ActionKind, Collect, Deal, Event, Hand, HandHeader, PostAnte, Seat, Stakes,
    Street, StreetStart, Structure, Variant,
)
from studbook.frames import TABLES, SCHEMA, Frames, frames_from_checks, load
from studbook.stats import compute
from studbook.store import import_results

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent


def synthetic_checks(count: int, seed: int = 4) -> Iterator[HandCheck]:
    """``count`` six-handed $0.04/$0.08 hands with random calls, folds and bets."""
    rng = random.Random(seed)
    players = [f"player{i}" for i in range(12)]
    start = datetime(2024, 1, 1, tzinfo=timezone.utc)
    for number in range(count):
        yield _synthetic_hand(rng, str(10_000_000 + number), rng.sample(players, 6),
                              start + timedelta(minutes=number))


def _synthetic_hand(rng: random.Random, hand_id: str, names: list[str],
                    started: datetime) -> HandCheck:
    cents = Decimal("0.01")
    header = HandHeader(
        site="synthetic", hand_id=hand_id, variant=rng.choice(list(Variant)),
        structure=Structure.FIXED, game="7 Card Stud Limit", currency="USD",
        stakes=Stakes(small_bet=4 * cents, big_bet=8 * cents, ante=cents, bring_in=2 * cents),
        table="Bench", max_seats=8, started_utc=started,
    )
    line = itertools.count(1)
    file = "synthetic.txt"
    seats = tuple(Seat(file=file, line=next(line), seat=i + 1, player=n, stack=Decimal(4))
                  for i, n in enumerate(names))
    events: list[Event] = [PostAnte(file=file, line=next(line), player=n, amount=cents)
                           for n in names]
    deck = list(DECK)
    rng.shuffle(deck)
    put = {n: cents for n in names}
    live = list(names)
    ups: dict[str, list] = {n: [] for n in names}
    downs: dict[str, list] = {n: [] for n in names}
    last = {n: Street.THIRD for n in names}
    for street in Street:
        if len(live) < 2:
            break
        events.append(StreetStart(file=file, line=next(line), street=street))
        for n in live:
            down = (deck.pop(), deck.pop()) if street == 3 else (deck.pop(),) if street == 7 else ()
            up = (deck.pop(),) if street < 7 else ()
            ups[n] += up
            downs[n] += down
            last[n] = street
            events.append(Deal(file=file, line=next(line), player=n, street=street,
                               up=up, down=down if n == names[0] else ()))
        unit = 4 * cents if street <= 4 else 8 * cents
        high = Decimal(0)
        street_in = {n: Decimal(0) for n in live}
        for i, n in enumerate(list(live)):
            amount: Decimal | None
            if street == 3 and i == 0:
                kind, amount = ActionKind.BRING_IN, 2 * cents
            else:
                roll = rng.random()
                if high == 0:
                    kind = ActionKind.BET if roll < 0.3 else ActionKind.CHECK
                elif roll < 0.35 and len(live) > 2:
                    kind = ActionKind.FOLD
                else:
                    kind = ActionKind.CALL
                amount = unit if kind is ActionKind.BET else (
                    high - street_in[n] if kind is ActionKind.CALL else None)
            if kind is ActionKind.FOLD:
                live.remove(n)
            elif amount:
                street_in[n] += amount
                put[n] += amount
                high = max(high, street_in[n])
            events.append(Action(file=file, line=next(line), player=n, kind=kind,
                                 amount=amount))
    total = sum(put.values(), Decimal(0))
    winner = rng.choice(live)
    events.append(Collect(file=file, line=next(line), player=winner, amount=total))
    showdown = len(live) > 1
    results = tuple(
        PlayerResult(player=n, seat=i + 1, stack=Decimal(4), contributed=put[n],
                     collected=total if n == winner else Decimal(0),
                     net=(total if n == winner else Decimal(0)) - put[n],
                     last_street=last[n], folded=n not in live, all_in=False,
                     showed=showdown and n in live,
                     won_at_showdown=showdown and n == winner,
                     up_cards=tuple(ups[n]),
                     down_cards=(tuple(downs[n]) if n == names[0] or (showdown and n in live)
                                 else ()))
        for i, n in enumerate(names))
    hand = Hand(file=file, line=1, end_line=next(line), header=header, seats=seats,
                events=tuple(events))
    return HandCheck(hand=hand, violations=(), players=results,
                     pots=(PotAward(pot=0, amount=total, eligible=tuple(live),
                                    high=((winner, total),)),),
                     rake=Decimal(0), went_to_showdown=showdown, action_log=check_hand(hand).action_log)


def measure(label: str, work: Callable[[], T]) -> T:
    """Run ``work``; print its wall time and the process's peak RSS so far.

    (tracemalloc would slow pandas-heavy code several times over, so memory
    is the peak resident size, which only grows.)
    """
    began = time.perf_counter()
    result = work()
    seconds = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"{label:<52} {seconds:8.2f} s   peak RSS {peak:8.1f} MiB", flush=True)
    return result


def duckdb_round_trip(frames: Frames, path: Path) -> None:
    import duckdb  # optional: only for the comparison

    def write() -> None:
        con = duckdb.connect(str(path))
        for table, frame in frames.tables():
            con.register("frame", frame)
            con.execute(f"CREATE TABLE {table} AS SELECT * FROM frame")
            con.unregister("frame")
        con.close()

    def read() -> dict:
        con = duckdb.connect(str(path), read_only=True)
        out = {table: con.execute(f"SELECT * FROM {table}").df() for table in TABLES}
        con.close()
        return out

    measure("duckdb: write frames", write)
    measure("duckdb: read tables (no dtype fix-up)", read)
    print(f"duckdb file: {path.stat().st_size / 2**20:.1f} MiB")


def write_simulated(folder: Path, count: int, per_file: int = 500) -> list[Path]:
    """``count`` simulated hands (stud, stud8, razz in turn) as PokerStars files."""
    from studbook.simulate import simulate_hands, write_hands

    files = []
    variants = ("stud", "stud8", "razz")
    for number, first in enumerate(range(0, count, per_file)):
        size = min(per_file, count - first)
        hands = simulate_hands(variants[number % 3], size, 6, seed=number, hero="Hero")
        path = folder / f"sim-{number:03d}.txt"
        path.write_text(write_hands(hands))
        files.append(path)
    return files


def import_files(db: Path, paths: list[Path], rescan: bool = False) -> object:
    """What ``studbook import`` does: parse + check each new or changed file, store
    its new hands (``rescan``: parse unchanged files too)."""
    from studbook.check import check_paths
    from studbook.gcpause import gc_between_files
    from studbook.store import ImportSummary, Store, file_sha256

    summary = ImportSummary()
    files = [p for path in paths for p in ([path] if path.is_file() else sorted(path.rglob("*")))
             if p.is_file()]
    with Store(db) as store:
        hashes = {str(p): file_sha256(p) for p in files}
        todo = [p for p in files if rescan or not store.imported(p, hashes[str(p)])]
        summary.unchanged_files = len(files) - len(todo)
        with gc_between_files() as next_file:  # as the command runs
            for file_check in check_paths([str(p) for p in todo]):
                next_file()
                store.add(file_check.results, summary=summary,
                          record=(file_check.file, hashes[file_check.file]))
    return summary


def _child_times(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU (user + sys) seconds of ``command`` run as a child process
    (its CPU with that of the children it waited for: a pool's workers)."""
    import os
    import subprocess

    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(command)}")
    return time.perf_counter() - began, usage.ru_utime + usage.ru_stime


def versus_check(hands: int, rounds: int, jobs: int = 1, baseline: str | None = None) -> int:
    """Import against check on the same hands, alternating; the median ratios.
    ``baseline``: a ``src`` folder whose ``import`` runs third in each round."""
    import os
    from statistics import median

    studbook = str(Path(sys.executable).with_name("studbook"))
    # the children use bytecode, as a user's second run does: without it (PYTHONDONTWRITEBYTECODE)
    # each run compiles the modules it imports, the import command more of them than check
    own = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    other = None if baseline is None else {**own, "PYTHONPATH": str(Path(baseline).resolve())}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "hands"
        folder.mkdir()
        write_simulated(folder, hands)
        print(f"{hands} simulated hands (stud, stud8, razz) in {len(list(folder.iterdir()))} files; "
              f"{rounds} rounds, check then import{' then the baseline import' if other else ''}, "
              f"each a child process, --jobs {jobs}")
        first = str(min(folder.iterdir()))  # a first run of each writes its bytecode and fills its memos
        for env in (own, other) if other is not None else (own,):
            _child_times([studbook, "check", first], env=env)
            _child_times([studbook, "import", first, "--db", str(Path(tmp) / "first.db"), "-q"], env=env)
            Path(tmp, "first.db").unlink()
        ratios: dict[str, list[float]] = {name: [] for name in ("wall", "cpu", "base wall", "base cpu")}
        for number in range(rounds):
            db = Path(tmp) / f"round{number}.db"
            check = _child_times([studbook, "check", str(folder), "--jobs", str(jobs)], env=own)
            store = _child_times([studbook, "import", str(folder), "--db", str(db), "--jobs", str(jobs), "-q"],
                                 env=own)
            ratios["wall"].append(store[0] / check[0])
            ratios["cpu"].append(store[1] / check[1])
            line = (f"round {number + 1}: check {check[0]:6.2f} s wall {check[1]:6.2f} s CPU | import "
                    f"{store[0]:6.2f} s wall {store[1]:6.2f} s CPU | import/check wall {ratios['wall'][-1]:.3f} "
                    f"CPU {ratios['cpu'][-1]:.3f}")
            if other is not None:
                base_db = Path(tmp) / f"base{number}.db"
                base = _child_times([studbook, "import", str(folder), "--db", str(base_db), "--jobs", str(jobs), "-q"],
                                    env=other)
                ratios["base wall"].append(store[0] / base[0])
                ratios["base cpu"].append(store[1] / base[1])
                line += (f" | baseline import {base[0]:6.2f} s wall {base[1]:6.2f} s CPU (check/baseline CPU "
                         f"{check[1] / base[1]:.3f}) | import/baseline wall {ratios['base wall'][-1]:.3f} "
                         f"CPU {ratios['base cpu'][-1]:.3f}")
            print(line, flush=True)
            for path in Path(tmp).glob(f"*{number}.db*"):
                path.unlink()
        print(f"median import/check: CPU {median(ratios['cpu']):.3f}, wall {median(ratios['wall']):.3f} "
              "(issue 34's target: <= 1.25)")
        if other is not None:
            print(f"median import/baseline import: CPU {median(ratios['base cpu']):.3f}, "
                  f"wall {median(ratios['base wall']):.3f}")
        if jobs == 1:
            breakdown(sorted(folder.iterdir()), Path(tmp) / "breakdown.db")
    return 0


def breakdown(files: list[Path], db: Path) -> None:
    """Where an import's CPU goes beyond check's, in this process: each step of
    ``Store.add`` timed on its own, per hand, on the import's own path (each
    file read once by :func:`studbook.check.stream_sourced`, each result's rows
    made as it comes, the file's original texts packed and its rows inserted a
    file at a time);
    ``import pandas`` is timed in a child process. The per-result steps are timed
    around each result, so each carries one clock read (some 0.3 µs)."""
    import subprocess

    from studbook.check import TableMemory, stream_sourced
    from studbook.gcpause import gc_between_files
    from studbook.rows import TABLES as ROW_TABLES
    from studbook.rows import add_rows
    from studbook.store import Store
    from studbook.store.prepare import NULL
    from studbook.store.prepare import pack as _pack

    spent = dict.fromkeys(("check", "rows", "insert", "pack", "originals insert"), 0.0)
    hands = 0
    clock = time.process_time

    memory = TableMemory()
    with Store(db) as store, gc_between_files() as next_file:
        for path in files:
            next_file()
            results = iter(stream_sourced(str(path), None, memory).results)
            tables: dict[str, list] = {table: [] for table in ROW_TABLES}
            lists = tuple(tables.values())
            texts = []
            while True:
                began = clock()
                item = next(results, None)
                checked = clock()
                spent["check"] += checked - began
                if item is None:
                    break
                result, source = item
                hands += 1
                add_rows(result, lists, NULL)
                made = clock()
                spent["rows"] += made - checked
                if source is not None and isinstance(result, HandCheck):
                    hand = result.hand
                    texts.append((hand.site, hand.hand_id, hand.file, hand.line, source.text, source.context))
            del item, result, source
            began = clock()  # the texts packed one after another, as RowsMaker.take packs them
            originals = [(*row[:4], _pack(row[4]), NULL if row[5] is None else _pack(row[5])) for row in texts]
            spent["pack"] += clock() - began
            began = clock()
            store.conn.execute("BEGIN")
            for table, table_rows in tables.items():
                store._insert(table, table_rows)
            inserted = clock()
            store.conn.executemany("INSERT OR IGNORE INTO originals VALUES (?, ?, ?, ?, ?, ?)", originals)
            stored = clock()
            store.conn.execute("COMMIT")
            spent["insert"] += inserted - began + clock() - stored
            spent["originals insert"] += stored - inserted
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    before = usage.ru_utime + usage.ru_stime
    subprocess.run([sys.executable, "-c", "import pandas"], check=True)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    bare = usage.ru_utime + usage.ru_stime - before
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    pandas_cpu = 2 * bare - (usage.ru_utime + usage.ru_stime - before)  # less an empty interpreter's
    print(f"in one process, per hand ({hands} hands): " + ", ".join(
        f"{step} {seconds / hands * 1e6:.0f} µs" for step, seconds in spent.items())
        + f"; import pandas {pandas_cpu:.2f} s CPU (the import command no longer pays it)")


def write_formats(hands: int, rounds: int) -> int:
    """The store's write step against Parquet's on the same rows: each file's rows
    (``rows_from_checks``, made once) written to a new SQLite store (``Store._insert``
    in one transaction a file, as ``import`` does) and, alternately, to one Parquet
    file a table and file (pyarrow, snappy). CPU per hand."""
    from statistics import median

    import pyarrow as pa
    import pyarrow.parquet as pq

    from studbook.check import stream_paths
    from studbook.rows import rows_from_checks
    from studbook.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "hands"
        folder.mkdir()
        write_simulated(folder, hands)
        per_file = [rows_from_checks(list(stream.results)) for stream in stream_paths([str(folder)])]
        names = {table: [c.name for c in columns] for table, columns in SCHEMA.items()}

        def to_sqlite(number: int) -> None:
            with Store(Path(tmp) / f"w{number}.db") as store:
                for rows in per_file:
                    store.conn.execute("BEGIN IMMEDIATE")
                    for table, table_rows in rows.items():
                        store._insert(table, table_rows)
                    store.conn.execute("COMMIT")

        def to_parquet(number: int) -> None:
            out = Path(tmp) / f"p{number}"
            for index, rows in enumerate(per_file):
                for table, table_rows in rows.items():
                    if not table_rows:
                        continue
                    columns = [pa.array(values, from_pandas=True) if table != "hands" or name != "started_utc"
                               else pa.array(values, type=pa.timestamp("us", tz="UTC"))
                               for name, values in zip(names[table], zip(*table_rows))]
                    (out / table).mkdir(parents=True, exist_ok=True)
                    pq.write_table(pa.table(columns, names=names[table]), out / table / f"{index:05d}.parquet",
                                   compression="snappy")

        spent: dict[str, list[float]] = {"sqlite": [], "parquet": []}
        for number in range(rounds):
            for name, work in (("sqlite", to_sqlite), ("parquet", to_parquet)):
                began = time.process_time()
                work(number)
                spent[name].append((time.process_time() - began) / hands * 1e6)
        for name, values in spent.items():
            print(f"{name:8} write {median(values):6.1f} µs a hand (CPU, median of {rounds}; "
                  + ", ".join(f"{v:.1f}" for v in values) + ")")
        print(f"parquet / sqlite: {median(spent['parquet']) / median(spent['sqlite']):.2f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=None, help="default 10000 (--versus-check: 9000)")
    parser.add_argument("--versus-check", action="store_true",
                        help="import against check on the same hands, in alternating runs")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="--versus-check: run check and import with --jobs N")
    parser.add_argument("--baseline", metavar="SRC",
                        help="--versus-check: also time import of the tree whose src folder this is")
    parser.add_argument("--write-formats", action="store_true",
                        help="the store's write step against Parquet files' on the same rows")
    parser.add_argument("--source", choices=("auto", "histories", "simulated", "synthetic"),
                        default="auto",
                        help="auto: histories/ when it holds files, else simulated")
    parser.add_argument("--duckdb", action="store_true")
    args = parser.parse_args()
    if args.versus_check:
        return versus_check(args.hands or 9000, args.rounds, args.jobs, args.baseline)
    if args.write_formats:
        return write_formats(args.hands or 9000, args.rounds)
    args.hands = args.hands or 10_000
    histories = ROOT / "histories"
    source = args.source
    if source == "auto":
        source = "histories" if histories.is_dir() and any(histories.iterdir()) else "simulated"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        if source == "synthetic":
            results = measure(f"synthetic: build {args.hands} hands",
                              lambda: list(synthetic_checks(args.hands)))
            frames = measure("frames_from_checks (in memory)",
                             lambda: frames_from_checks(results))
            measure("sqlite: import (frames + insert)", lambda: import_results(db, results))
            measure("sqlite: re-import (all duplicates)", lambda: import_results(db, results))
            paths: list[Path] = []
        else:
            if source == "histories":
                paths = [histories]
            else:
                folder = Path(tmp) / "hands"
                folder.mkdir()
                paths = measure(f"simulate {args.hands} hands to PokerStars files",
                                lambda: write_simulated(folder, args.hands))
            summary = measure("import: parse + check + store", lambda: import_files(db, paths))
            print(f"  {summary}".split(", problems")[0] + ")")
            measure("re-import, unchanged files (hash check only)",
                    lambda: import_files(db, paths))
            measure("re-import --rescan (parse + check, all duplicates)",
                    lambda: import_files(db, paths, rescan=True))
            frames = measure("load(files) -> Frames (parse + check)", lambda: load(paths))
        loaded = measure("load(store) -> Frames", lambda: load(db))
        print(f"  {len(loaded.hands)} hands, {len(loaded.players)} player rows, "
              f"{len(loaded.actions)} actions; sqlite file {db.stat().st_size / 2**20:.1f} MiB")
        table = measure("stats.compute (all players, all stats)", lambda: compute(loaded))
        print(f"  {len(table)} player/variant rows")
        if args.duckdb:
            try:
                duckdb_round_trip(frames, Path(tmp) / "bench.duckdb")
            except ImportError:
                print("duckdb not installed: comparison skipped", file=sys.stderr)
        assert list(loaded.players.columns) == [c.name for c in SCHEMA["players"]]
    return 0


if __name__ == "__main__":
    sys.exit(main())
