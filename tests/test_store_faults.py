"""Fault injection for the store and the filesystem (issue 18).

Each test makes a fault happen for real where it can: ``kill -9`` of an
import, two imports at once, damaged store files, a full disk (a file-size
limit, ``RLIMIT_FSIZE``, in a subprocess; a small tmpfs when the tests run as
root and may mount one), files that vanish or cannot be read, names that are
not UTF-8. Permissions: root ignores them, so when the tests run as root the
commands that must meet a read-only store or an unreadable file run as the
user ``nobody`` (a subprocess with ``user=``); as any other user they run as
that user. Where no real fault can be made, one is injected by wrapping the
function that meets it, and the test says so.

``make test`` runs the fast part. ``make faults`` (``STUDBOOK_FAULTS=N``) adds
the slow part: more kill points on the repository's sample histories, and more
rounds of concurrent imports; N scales both.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import random
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from studbook import parse as parse_module
from studbook.cli import importer, main
from studbook.simulate import simulate_hands, write_hands
from studbook.store import DamagedStore, Store, StoreError, file_sha256, import_results, read_frames
from test_store import checks

FAULTS = int(os.environ.get("STUDBOOK_FAULTS") or 0)
slow = pytest.mark.skipif(not FAULTS, reason="slow fault injection: run 'make faults'")
pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parents[1]
HISTORIES = ROOT / "histories"
NOBODY = 65534
CHILD_TABLES = ("players", "actions", "pots", "violations")


# ---------------------------------------------------------------------------
# Helpers


def write_sim(path: Path, seed: int, hands: int = 100) -> Path:
    """Simulated PokerStars hands (hand ids differ between seeds)."""
    path.write_text(write_hands(simulate_hands(("stud", "stud8", "razz")[seed % 3], hands, 6,
                                               seed=seed, hero="Hero")), encoding="utf-8")
    return path


def with_a_rejected_hand(path: Path) -> Path:
    """``path`` with its first bring-in's amount made unreadable: one rejected hand."""
    text = path.read_text(encoding="utf-8")
    at = text.index("brings in for $")
    path.write_text(text[:at] + "brings in for $x" + text[at + len("brings in for $"):],
                    encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three files of simulated hands."""
    folder = tmp_path_factory.mktemp("sim")
    return [write_sim(folder / f"s{n}.txt", n + 100) for n in range(3)]


def cli(*args: str, user: int | None = None, fsize: int | None = None,
        cwd: Path | None = None) -> subprocess.Popen[str]:
    """``studbook ARGS`` in a subprocess, as ``user`` and with a file-size limit."""

    def limits() -> None:
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails: EFBIG
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    python = sys.executable if user is None else python_for(user)
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=os.pathsep.join(sys_paths()))
    if user is not None:
        env["HOME"] = env["MPLCONFIGDIR"] = tempfile.gettempdir()
    return subprocess.Popen(
        [python, "-m", "studbook", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env, cwd=cwd, user=user, preexec_fn=limits if fsize else None)


def sys_paths() -> list[str]:
    """Where this interpreter finds studbook and its dependencies."""
    return [str(ROOT / "src"), *(p for p in sys.path if p.endswith("site-packages"))]


@functools.cache
def python_for(user: int) -> str | None:
    """An interpreter ``user`` may run that imports studbook: this one, or the
    system's of the same version (a virtual environment's interpreter may live
    in root's private home)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys_paths()))
    for python in (sys.executable, shutil.which(version), f"/usr/bin/{version}"):
        if not python:
            continue
        try:
            done = subprocess.run([python, "-c", "import studbook.store"], user=user, env=env,
                                  cwd=tempfile.gettempdir(), capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0:
            return python
    return None


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=300)
    return process.returncode, out, err


def assert_one_line_error(err: str, *needles: str) -> None:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], err


def dump(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows, sorted; ``files`` without the import time."""
    conn = sqlite3.connect(db)
    try:
        tables = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        out = {}
        for table in tables:
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")
                       if row[1] != "imported_utc"]
            names = ", ".join(f'"{c}"' for c in columns)
            out[table] = sorted(conn.execute(f"SELECT {names} FROM {table}").fetchall(),
                                key=repr)
        return out
    finally:
        conn.close()


def assert_sound(db: Path) -> None:
    """integrity_check ok, no orphan rows, and whole files only: every stored
    hand's file has its ``files`` row and every ``files`` row all its hands."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        for table in CHILD_TABLES:
            orphans = conn.execute(
                f"SELECT count(*) FROM {table} AS t WHERE NOT EXISTS (SELECT 1 FROM hands AS h "
                "WHERE h.site = t.site AND h.hand_id = t.hand_id)").fetchone()[0]
            assert orphans == 0, f"{orphans} orphan rows in {table}"
        recorded = dict(conn.execute("SELECT path, results FROM files").fetchall())
        stored = dict(conn.execute(
            "SELECT file, count(*) FROM (SELECT file FROM hands UNION ALL SELECT file FROM rejects) "
            "GROUP BY file").fetchall())
        stored = {str(Path(file).resolve()): n for file, n in stored.items()}
        assert stored == {path: n for path, n in recorded.items() if n}, \
            "a file's hands are stored without its files row, or the reverse"
    finally:
        conn.close()


def clean_import(files: list[Path], db: Path) -> dict[str, list[tuple[Any, ...]]]:
    assert main(["import", *map(str, files), "--db", str(db), "-q"]) == 0
    return dump(db)


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder every user can reach (pytest's tmp_path is private to the user
    who runs the tests), for commands run as ``nobody``."""
    folder = Path(tempfile.mkdtemp(prefix="studbook-faults-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in [folder, *folder.rglob("*")]:
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


def other_user() -> int | None:
    """The user a permission test runs its commands as: ``nobody`` under root
    (who ignores file permissions), else the current user."""
    if os.geteuid() == 0:
        if python_for(NOBODY) is None:
            pytest.skip("running as root, and nobody cannot run a Python that imports studbook")
        return NOBODY
    return None


# ---------------------------------------------------------------------------
# One transaction per file


def test_a_file_is_stored_with_its_files_row_or_not_at_all(tmp_path: Path) -> None:
    """Interrupted after two batches of a file's rows: neither the rows nor the
    files row stay (main committed batches of 500 and recorded the file apart)."""
    db, source = tmp_path / "s.db", tmp_path / "f.txt"
    source.write_text("x")

    def interrupted() -> Iterator[Any]:
        yield from checks(range(6))
        raise KeyboardInterrupt

    with Store(db) as store, pytest.raises(KeyboardInterrupt):
        store.add(interrupted(), batch_size=2, record=(source, "0" * 64))
    with Store(db) as store:
        assert store.counts()["hands"] == 0
        assert not store.imported(source, "0" * 64)
        store.add(checks(range(6)), record=(source, "0" * 64))
        assert store.counts()["hands"] == 6 and store.imported(source, "0" * 64)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _assert_ended(pids: list[int], seconds: float = 30.0) -> None:
    """Each process exits (gone, or a zombie nobody reaped) within ``seconds``."""
    deadline = time.monotonic() + seconds
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in alive if _running(pid)]
        time.sleep(0.05)
    assert not alive, f"worker processes {alive} still running after their caller was killed"


def _running(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def kill_and_resume(files: list[Path], tmp_path: Path, delay: float, clean: dict, *jobs: str) -> None:
    db = tmp_path / f"killed-{delay:.3f}.db"
    process = cli("import", *map(str, files), "--db", str(db), "-q", *jobs)
    started = time.monotonic()
    seen: list[int] = []  # with --jobs: the workers, seen once they start (under load that is late)
    while jobs and not seen and process.poll() is None and time.monotonic() - started < 60:
        time.sleep(0.01)
        seen = _children(process.pid)
    time.sleep(max(0.0, delay - (time.monotonic() - started)))
    workers = _children(process.pid)
    running = process.poll() is None
    process.send_signal(signal.SIGKILL)
    process.wait()
    if jobs and running:
        assert seen, "import --jobs started no worker processes"
        _assert_ended(sorted(set(seen + workers)))  # the workers end with their caller (they used to wait for ever)
    if db.exists():
        assert_sound(db)  # whatever the kill left is whole files, and SQLite-sound
    assert main(["import", *map(str, files), "--db", str(db), "-q"]) == 0
    assert_sound(db)
    assert dump(db) == clean


def import_seconds(files: list[Path], db: Path, *jobs: str) -> float:
    start = time.perf_counter()
    code, _, err = finish(cli("import", *map(str, files), "--db", str(db), "-q", *jobs))
    assert code == 0, err
    return time.perf_counter() - start


@pytest.mark.parametrize("jobs", [(), ("--jobs", "2")])  # 2: killed with its workers' rows in flight
def test_kill_9_then_reimport_equals_a_clean_import(jobs: tuple[str, ...], sim: list[Path], tmp_path: Path) -> None:
    clean = clean_import(sim, tmp_path / "clean.db")
    seconds = import_seconds(sim, tmp_path / "timed.db", *jobs)
    delay = random.Random(18).uniform(0.3, 1.0) * seconds
    kill_and_resume(sim, tmp_path, delay, clean, *jobs)


def test_a_kill_as_the_store_appears_leaves_a_whole_store(sim: list[Path], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed the moment the store's file appears: the store is whole (schema
    and all), never an empty file without tables (the flaky kill -9 test: a
    random kill point in the few milliseconds between SQLite creating the
    file and the schema's commit left a store that assert_sound could not read)."""
    clean = clean_import(sim, tmp_path / "clean.db")
    for round_ in range(3):
        db = tmp_path / f"appearing{round_}.db"
        process = cli("import", *map(str, sim), "--db", str(db), "-q")
        while not db.exists() and process.poll() is None:
            time.sleep(0.0002)
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert_sound(db)
        left = list(tmp_path.glob(f".{db.name}.*"))  # killed between the link and the unlink
        assert all(path.name.endswith(".new") for path in left), left
        monkeypatch.setattr("studbook.store.schema.ABANDONED", -1.0)  # a leftover's age, for the next writer
        assert main(["import", *map(str, sim), "--db", str(db), "-q"]) == 0
        assert dump(db) == clean
        assert not list(tmp_path.glob(f".{db.name}.*"))


def test_a_new_store_is_synced_whole_before_it_is_linked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new store's file is made without SQLite's syncs of each step, and synced once
    (:func:`studbook.store.schema.create_store`): a crash must leave a whole store or
    none, so the sync comes after the last write (the log merged at the close) and
    before the file is linked in place."""
    from studbook.store import schema

    steps: list[tuple[str, str, bytes]] = []
    sync, link = schema._sync, os.link

    def syncing(path: Path) -> None:
        steps.append(("sync", Path(path).name, Path(path).read_bytes()))
        sync(path)

    def linking(source: Any, target: Any) -> None:
        steps.append(("link", Path(source).name, Path(source).read_bytes()))
        link(source, target)

    monkeypatch.setattr(schema, "_sync", syncing)
    monkeypatch.setattr(schema.os, "link", linking)
    db = tmp_path / "new.db"
    schema.create_store(db)
    assert [(step, name) for step, name, _ in steps] == [("sync", steps[0][1]), ("link", steps[0][1])]
    assert steps[0][1].startswith(".new.db.") and steps[0][1].endswith(".new")
    assert steps[0][2] == steps[1][2] == db.read_bytes()  # nothing written after the sync
    assert not list(tmp_path.glob(".new.db.*")) and not Path(f"{db}-wal").exists()
    with Store(db) as store:
        assert store.counts(["hands"])["hands"] == 0


@slow
def test_kill_9_at_many_points_then_reimport(tmp_path: Path) -> None:
    """The sample histories joined into files of over 500 hands (main stored
    those in batches of 500, so a kill left half of one), killed at random."""
    samples = sorted(HISTORIES.glob("*.txt"))
    files = []
    for number, part in enumerate((samples[:5], samples[5:-1], samples[-1:])):
        files.append(tmp_path / f"joined{number}.txt")
        files[-1].write_text("\n\n\n".join(p.read_text(encoding="utf-8").strip() for p in part)
                             + "\n", encoding="utf-8")
    clean = clean_import(files, tmp_path / "clean.db")
    seconds = import_seconds(files, tmp_path / "timed.db")
    rng = random.Random()
    for _ in range(6 * FAULTS):
        kill_and_resume(files, tmp_path, rng.uniform(0.2, 1.0) * seconds, clean)


# ---------------------------------------------------------------------------
# Imports at the same time


def test_a_store_sees_hands_another_connection_stored(tmp_path: Path) -> None:
    """Two stores open on one file: the second one's hands, stored after the
    first read its keys, are duplicates to the first, not a UNIQUE failure."""
    db = tmp_path / "s.db"
    import_results(db, checks(range(2)))
    with Store(db) as first, Store(db) as second:
        assert len(first.keys()) == 2
        second.add(checks(range(2, 6)))
        summary = first.add(checks(range(8)))
        assert (summary.new, summary.duplicate) == (2, 6)
    stored = read_frames(db)
    assert sorted(stored.hands["hand_id"], key=int) == [str(i) for i in range(8)]
    assert set(stored.players["hand_id"]) == set(stored.hands["hand_id"])


def _open_at_once(db: str, start: Any, answers: Any) -> None:
    start.wait()
    try:
        Store(db).close()
        answers.put("ok")
    except BaseException as error:  # noqa: BLE001 - the answer the test reports
        answers.put(f"{type(error).__name__}: {error}")


def test_writers_opening_a_new_store_at_once_wait_for_one_another(tmp_path: Path) -> None:
    """Four processes open one new store at the same moment, 25 times over.
    Switching a new store to WAL upgrades a read to a write; two at once are a
    deadlock that SQLite answers with an immediate 'database is locked'
    without calling the busy handler (an import then failed at once, about one
    round in four)."""
    context = multiprocessing.get_context("fork")
    for round_ in range(25):
        db = str(tmp_path / f"new{round_}.db")
        start, answers = context.Barrier(4), context.Queue()
        processes = [context.Process(target=_open_at_once, args=(db, start, answers))
                     for _ in range(4)]
        for process in processes:
            process.start()
        results = [answers.get(timeout=120) for _ in processes]
        for process in processes:
            process.join()
        assert results == ["ok"] * 4, f"round {round_}: {results}"
        with Store(db) as store:
            assert store.conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            assert store.counts()["hands"] == 0


def concurrent_imports(sets: list[list[Path]], db: Path, clean: dict) -> None:
    processes = [cli("import", *map(str, files), "--db", str(db), "-q") for files in sets]
    for process in processes:
        code, _, err = finish(process)
        assert code == 0 and "Traceback" not in err and "UNIQUE" not in err, err
    assert_sound(db)
    assert dump(db)["hands"] == clean["hands"]  # none lost, none doubled
    for table in CHILD_TABLES:
        assert dump(db)[table] == clean[table]


def test_two_imports_of_overlapping_files_at_once(sim: list[Path], tmp_path: Path) -> None:
    clean = clean_import(sim, tmp_path / "clean.db")
    a, b, c = sim
    concurrent_imports([[a, b, c], [c, b, a]], tmp_path / "both.db", clean)


@slow
def test_concurrent_imports_many_rounds(tmp_path: Path) -> None:
    files = sorted(HISTORIES.glob("*.txt"))
    clean = clean_import(files, tmp_path / "clean.db")
    rng = random.Random()
    for round_ in range(3 * FAULTS):
        sets = [rng.sample(files, k=len(files) * 2 // 3) for _ in range(3)]
        sets[-1] = [f for f in files if f not in set(sets[0]) | set(sets[1])] + sets[-1]
        concurrent_imports(sets, tmp_path / f"round{round_}.db", clean)


# ---------------------------------------------------------------------------
# Damaged stores


def damage(db: Path, how: str) -> None:
    data = db.read_bytes()
    if how == "header":  # the header after its magic: page size, counts, schema cookie
        db.write_bytes(data[:16] + b"\xff" * 84 + data[100:])
    elif how == "truncated":
        db.write_bytes(data[: len(data) // 3])
    elif how == "zero bytes":
        db.write_bytes(b"")
    elif how == "pages":  # garbage over a run of pages in the middle
        db.write_bytes(data[:4096 * 3] + b"\xab" * 4096 * 5 + data[4096 * 8:])


@pytest.fixture(scope="module")
def good_store(sim: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("good") / "good.db"
    assert main(["import", *map(str, sim), "--db", str(db), "-q"]) == 0
    return db


DAMAGES = ("header", "truncated", "zero bytes", "pages")
COMMANDS = {
    "stats": lambda db, out, src: ["stats", "--db", db],
    "plot": lambda db, out, src: ["plot", "results", "--db", db, "-o", out],
    "import": lambda db, out, src: ["import", src, "--db", db, "-q", "--rescan"],
}


@pytest.mark.parametrize("how", DAMAGES)
@pytest.mark.parametrize("command", tuple(COMMANDS))
def test_a_damaged_store_is_one_line_with_a_hint(how: str, command: str, good_store: Path,
                                                 sim: list[Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "damaged.db"
    shutil.copy(good_store, db)
    damage(db, how)
    args = COMMANDS[command](str(db), str(tmp_path / "x.png"), str(sim[0]))
    if command == "import" and how == "zero bytes":
        assert main(args) == 0  # SQLite's empty database: a new store
        assert_sound(db)
        return
    code = main(args)
    err = capsys.readouterr().err
    assert code in (1, 2)
    assert_one_line_error(err, f"studbook {command}: error: {db}")
    if how == "zero bytes":
        assert "an empty file, not a studbook store" in err
    elif how == "header":
        assert "the store is damaged (file is not a database; PRAGMA integrity_check" in err
    elif command == "import" and "quick_check" in err:  # checked before anything is written (issue 28)
        assert "the store is damaged (PRAGMA quick_check: " in err and "nothing was written" in err
    else:
        assert "the store is damaged (database disk image is malformed" in err
    if how != "zero bytes":
        assert "keep a copy of it, then import the hand histories again into a new store" in err


@pytest.mark.parametrize("how", DAMAGES)
def test_load_of_a_damaged_store_raises_store_error(how: str, good_store: Path,
                                                    tmp_path: Path) -> None:
    from studbook import load

    db = tmp_path / "damaged.db"
    shutil.copy(good_store, db)
    damage(db, how)
    with pytest.raises(StoreError, match=str(db)) as raised:
        read_frames(db)
    if how != "zero bytes":
        assert isinstance(raised.value, DamagedStore)
        with pytest.raises(DamagedStore):
            load(db)


# ---------------------------------------------------------------------------
# Read-only stores


def test_reading_opens_read_only_and_writes_nothing(good_store: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """As root no permission stops a write, so this checks what is asked of
    SQLite: a mode=ro connection, no journal_mode pragma, no write statement,
    and the store's bytes unchanged."""
    db = tmp_path / "s.db"
    shutil.copy(good_store, db)
    before = db.read_bytes()
    statements: list[str] = []
    uris: list[str] = []
    connect = sqlite3.connect

    def tracing(database: Any, *args: Any, **kw: Any) -> sqlite3.Connection:
        uris.append(str(database))
        conn = connect(database, *args, **kw)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr("studbook.store.db.sqlite3.connect", tracing)
    with Store(db, create=False) as store:
        frames = store.frames()
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.conn.execute("DELETE FROM hands")
    assert len(frames.hands) == 300
    assert uris and all(uri.endswith("?mode=ro") for uri in uris)
    assert not [s for s in statements if not s.lstrip().upper().startswith("SELECT")
                and s != "DELETE FROM hands"], statements
    assert db.read_bytes() == before


def read_only_store(folder: Path, source: Path, *, pending_log: bool = False) -> Path:
    """A store made read-only, in a read-only folder; ``pending_log``: with a
    write-ahead log not yet merged into it, as a killed import leaves one."""
    store_dir = folder / "ro"
    store_dir.mkdir()
    db = store_dir / "s.db"
    assert main(["import", str(source), "--db", str(db), "-q"]) == 0
    if pending_log:
        writer = sqlite3.connect(db)
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("INSERT INTO meta VALUES ('note', 'in the log only')")
        writer.commit()
        shutil.copy(db, folder / "copy.db")
        shutil.copy(f"{db}-wal", folder / "copy.db-wal")
        writer.close()
        shutil.copy(folder / "copy.db", db)
        shutil.copy(folder / "copy.db-wal", f"{db}-wal")
    db.chmod(0o444)
    store_dir.chmod(0o555)
    return db


def test_a_read_only_store_in_a_read_only_folder_reads(shared_dir: Path, sim: list[Path]) -> None:
    user = other_user()
    source = Path(shutil.copy(sim[0], shared_dir / "s0.txt"))
    db = read_only_store(shared_dir, source)
    assert not os.access(db.parent, os.W_OK) or user is not None
    code, out, err = finish(cli("stats", "--db", str(db), "--player", "Hero", user=user))
    assert code == 0, err
    assert "Hero" in out and "Traceback" not in err
    code, out, err = finish(cli("import", str(source), "--db", str(db), "--rescan", user=user))
    assert code == 2
    assert_one_line_error(err, f"{db}: cannot write to the store",
                          "importing needs write access to the store and its folder")


def test_a_read_only_folder_with_a_pending_log_says_so(shared_dir: Path, sim: list[Path]) -> None:
    user = other_user()
    db = read_only_store(shared_dir, Path(shutil.copy(sim[0], shared_dir / "s0.txt")),
                         pending_log=True)
    code, out, err = finish(cli("stats", "--db", str(db), user=user))
    assert code == 2
    assert_one_line_error(err, f"{db}: cannot read the store: its folder is read-only and it "
                               "has a write-ahead log (s.db-wal)")


def a_store_of(user: int | None, folder: Path, source: Path) -> Path:
    """A store made by ``user`` (so theirs, as its ``-wal`` and ``-shm`` files are) in
    ``folder``, writable by them."""
    folder.mkdir()
    folder.chmod(0o777)
    db = folder / "s.db"
    code, _, err = finish(cli("import", str(source), "--db", str(db), "-q", user=user))
    assert code == 0, err
    return db


def test_a_read_only_store_in_a_writable_folder_is_a_usage_error(shared_dir: Path, sim: list[Path]) -> None:
    """Issue 28, item 13: exit 1 where the README promises 2 (the store may not be
    written); SQLite opened it read-only and the first write failed."""
    user = other_user()
    source = Path(shutil.copy(sim[0], shared_dir / "s0.txt"))
    db = a_store_of(user, shared_dir / "rw", source)
    db.chmod(0o444)
    code, out, err = finish(cli("import", str(source), "--db", str(db), "--rescan", user=user))
    assert code == 2
    assert_one_line_error(err, f"{db}: cannot write to the store (attempt to write a readonly database)")


def test_a_store_read_while_read_only_takes_an_import_once_writable_again(shared_dir: Path,
                                                                          sim: list[Path]) -> None:  # fmt: skip
    """Issue 28, item 13: reading a store made read-only (chmod 444) left its -wal and
    -shm read-only too (SQLite makes them with the store's mode); once the store was
    writable again, import failed until the user deleted the -shm file."""
    user = other_user()
    source = Path(shutil.copy(sim[0], shared_dir / "s0.txt"))
    db = a_store_of(user, shared_dir / "rw", source)
    db.chmod(0o444)
    code, out, err = finish(cli("stats", "--db", str(db), user=user))
    assert code == 0, err
    shm = Path(f"{db}-shm")
    assert shm.exists() and shm.stat().st_mode & 0o777 == 0o444  # what the reader leaves
    db.chmod(0o644)
    more = Path(shutil.copy(sim[1], shared_dir / "s1.txt"))
    code, out, err = finish(cli("import", str(more), "--db", str(db), user=user))
    assert (code, err) == (0, "")
    assert "the store holds 200 hands" in out
    assert [p.name for p in db.parent.iterdir() if p.stat().st_mode & 0o200 == 0] == []


def test_check_of_a_folder_with_an_unreadable_file_exits_2_and_checks_the_others(
        shared_dir: Path, sim: list[Path]) -> None:  # fmt: skip
    """Issue 28, item 13: exit 1 where the README promises 2 for an unreadable path."""
    user = other_user()
    folder = shared_dir / "in"
    folder.mkdir()
    files = [Path(shutil.copy(f, folder / f.name)) for f in sim]
    files[1].chmod(0)
    code, out, err = finish(cli("check", str(folder), user=user))
    assert code == 2, out[-500:] + err
    assert f"{files[1]}:1: error: cannot read: Permission denied" in out
    assert "summary: 3 files, 200 hands, 200 ok" in out and "1 file error" in out
    assert "Traceback" not in err


# ---------------------------------------------------------------------------
# A full disk


@pytest.mark.parametrize("jobs", ["1", "2"])  # 2: each file a task, its rows made by a worker
def test_a_file_size_limit_rolls_back_the_file_and_says_so(jobs: str, tmp_path: Path) -> None:
    """RLIMIT_FSIZE set so the first file fits and the second does not (the
    limit is measured, so a bigger schema moves it along)."""
    first, second = write_sim(tmp_path / "a.txt", 1, 150), write_sim(tmp_path / "b.txt", 2, 300)
    clean = clean_import([first], tmp_path / "first.db")
    limit = (tmp_path / "first.db").stat().st_size + 64 * 1024
    db = tmp_path / "s.db"
    code, out, err = finish(cli("import", str(first), str(second), "--db", str(db), "--jobs", jobs, fsize=limit))
    assert code == 1
    assert_one_line_error(err, f"while writing {second}", "the store holds every file before it")
    assert "cannot rollback" not in err
    assert_sound(db)
    assert dump(db) == clean  # the first file, whole; nothing of the second
    assert main(["import", str(first), str(second), "--db", str(db), "-q"]) == 0
    assert dump(db) == clean_import([first, second], tmp_path / "both.db")


def test_a_full_disk_rolls_back_the_file_and_says_so(tmp_path: Path) -> None:
    """A real full disk: a small tmpfs (root only, where mounting is allowed)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    first, second = write_sim(tmp_path / "a.txt", 1, 150), write_sim(tmp_path / "b.txt", 2, 300)
    probe = tmp_path / "probe.db"
    assert main(["import", str(first), "--db", str(probe), "-q"]) == 0
    mount = tmp_path / "disk"
    mount.mkdir()
    size = (probe.stat().st_size * 5 // 4) // 4096 * 4096
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        db = mount / "s.db"
        code, out, err = finish(cli("import", str(first), str(second), "--db", str(db)))
        assert code == 1
        assert_one_line_error(err, f"disk full while writing {second}; "
                                   "the store holds every file before it")
        assert_sound(db)
        assert dump(db) == clean_import([first], tmp_path / "first.db")
    finally:
        subprocess.run(["umount", str(mount)], check=True)


# ---------------------------------------------------------------------------
# Files that vanish or cannot be read


def store_paths(db: Path) -> set[str]:
    conn = sqlite3.connect(db)
    try:
        return {row[0] for row in conn.execute("SELECT path FROM files")}
    finally:
        conn.close()


def test_a_file_unreadable_for_a_moment_is_imported_by_the_next_run(
        sim: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Readable when hashed, not when read (a PermissionError injected into the
    read, once): listed, not marked imported, imported by the next run."""
    db, flaky = tmp_path / "s.db", sim[1]
    failed: list[str] = []

    def open_once(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path) == str(flaky) and not failed:
            failed.append(str(path))
            raise PermissionError(13, "Permission denied", str(path))
        return open(path, *args, **kwargs)

    monkeypatch.setattr(parse_module, "open", open_once, raising=False)  # the streamed read opens the file
    assert main(["import", *map(str, sim), "--db", str(db)]) == 2
    out, err = capsys.readouterr()
    assert failed == [str(flaky)]
    assert f"studbook import: cannot read {flaky}: Permission denied" in err
    assert "unreadable files        1" in out and f"  {flaky}: Permission denied" in out
    assert str(flaky.resolve()) not in store_paths(db)
    assert main(["import", *map(str, sim), "--db", str(db), "-q"]) == 0
    assert "new hands             100" in capsys.readouterr().out
    assert dump(db) == clean_import(sim, tmp_path / "clean.db")


def test_a_file_that_vanishes_after_the_walk_is_listed(
        sim: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Deleted between the directory walk and its hashing (the walk is wrapped
    to delete it right after): listed, the other files imported."""
    folder = tmp_path / "in"
    folder.mkdir()
    files = [Path(shutil.copy(f, folder / f.name)) for f in sim]
    walk = importer.expand_inputs

    def walk_then_delete(paths: Any) -> Any:
        found = walk(paths)
        files[0].unlink()
        return found

    monkeypatch.setattr(importer, "expand_inputs", walk_then_delete)
    db = tmp_path / "s.db"
    assert main(["import", str(folder), "--db", str(db)]) == 2
    out, err = capsys.readouterr()
    assert_one_line_error(err, f"cannot read {files[0]}: No such file or directory")
    assert "new hands             200" in out
    assert store_paths(db) == {str(f.resolve()) for f in files[1:]}


@pytest.mark.parametrize("jobs", ["1", "2"])  # 2: a worker finds it gone
def test_a_file_that_vanishes_after_hashing_is_not_marked_imported(
        jobs: str, sim: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    files = [Path(shutil.copy(f, folder / f.name)) for f in sim]

    def hash_then_delete(path: Any) -> str:
        digest = file_sha256(path)
        if Path(path) == files[2]:
            files[2].unlink()
        return digest

    monkeypatch.setattr(importer, "file_sha256", hash_then_delete)
    db = tmp_path / "s.db"
    assert main(["import", str(folder), "--db", str(db), "--jobs", jobs]) == 2
    assert_one_line_error(capsys.readouterr().err,
                          f"cannot read {files[2]}: No such file or directory")
    assert store_paths(db) == {str(f.resolve()) for f in files[:2]}
    assert_sound(db)


def test_an_unreadable_file_is_listed_and_the_others_imported(shared_dir: Path,
                                                              sim: list[Path]) -> None:
    user = other_user()
    folder = shared_dir / "in"
    folder.mkdir()
    files = [Path(shutil.copy(f, folder / f.name)) for f in sim]
    files[1].chmod(0)
    shared_dir.chmod(0o777)
    db = shared_dir / "s.db"
    code, out, err = finish(cli("import", str(folder), "--db", str(db), user=user))
    assert code == 2
    assert_one_line_error(err, f"cannot read {files[1]}: Permission denied")
    assert "new hands             200" in out
    assert store_paths(db) == {str(files[0].resolve()), str(files[2].resolve())}


# ---------------------------------------------------------------------------
# Odd file names


def test_odd_file_names_are_stored_and_printed_escaped(tmp_path: Path, sim: list[Path],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "odd"
    folder.mkdir()
    raw = os.fsencode(folder) + b"/caf\xff \xe9.txt"  # not UTF-8: Python sees '\udcff'
    shutil.copy(sim[0], raw)
    with_a_rejected_hand(Path(os.fsdecode(raw)))
    shutil.copy(sim[1], folder / "-Böse Sieben € 1.txt")
    shutil.copy(sim[2], folder / "line\tbreak.txt")
    db = tmp_path / "s.db"
    assert main(["import", str(folder), "--db", str(db)]) == 0
    out, err = capsys.readouterr()
    printable = f"{folder}/caf\\xff \\xe9.txt"
    assert f"  {printable}:" in out  # the rejected hand's line names the file escaped
    assert "Traceback" not in err
    paths = store_paths(db)
    assert printable in paths and str(folder / "-Böse Sieben € 1.txt") in paths
    frames = read_frames(db)
    assert set(frames.hands["file"]) == {printable, str(folder / "-Böse Sieben € 1.txt"),
                                         str(folder / "line\tbreak.txt")}
    assert set(frames.rejects["file"]) == {printable}
    assert main(["import", str(folder), "--db", str(db)]) == 0  # unchanged: found by name
    assert "unchanged files         3" in capsys.readouterr().out


# ---------------------------------------------------------------------------
# The command line's safety net


def test_an_unexpected_os_error_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The faults each command expects are handled there; anything else from the
    operating system or SQLite is one line naming the path, exit 2."""
    from studbook.cli import stats

    def reading(fault: Any) -> None:  # the whole frames, or a store a chunk at a time
        monkeypatch.setattr(stats, "load_source", fault)
        monkeypatch.setattr(stats, "_from_store", fault)

    def failing(*args: Any) -> Any:
        raise OSError(5, "Input/output error", "some/hands.db")

    reading(failing)
    assert main(["stats", "--db", "x.db"]) == 2
    assert_one_line_error(capsys.readouterr().err,
                          "studbook stats: error: some/hands.db: Input/output error")

    def locked(*args: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    reading(locked)
    assert main(["stats", "--db", "x.db"]) == 2
    assert_one_line_error(capsys.readouterr().err, "studbook stats: error: x.db: database is locked")

    def damaged(*args: Any) -> Any:
        raise DamagedStore("x.db: the store is damaged (...)")

    reading(damaged)
    assert main(["stats", "--db", "x.db"]) == 2
    assert_one_line_error(capsys.readouterr().err,
                          "studbook stats: error: x.db: the store is damaged (...)")

    def bug(*args: Any) -> Any:
        raise ZeroDivisionError("a bug is not a fault")

    reading(bug)
    with pytest.raises(ZeroDivisionError):  # bugs are not hidden
        main(["stats", "--db", "x.db"])
