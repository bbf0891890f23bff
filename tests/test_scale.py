"""studbook.scale: checking in local processes and with Dask gives the serial results."""

from __future__ import annotations

import functools
import json
import os
import re
import sqlite3
import sys
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

import studbook.jobs as jobs
import studbook.scale as scale
from studbook.cards import DECK
from studbook.check import FileCheck, FileStream, check_paths
from studbook.cli import main
from studbook.engine.result import HandCheck
from studbook.events import Deal
from studbook.lean import STRING
from studbook.parse import parse_paths

HISTORIES = Path(__file__).resolve().parents[1] / "histories"
PLANTED = HISTORIES / "planted-violations.txt"
TABLE = "Gaudeamus XI"


@pytest.fixture(scope="module")
def serial() -> list[FileCheck]:
    return list(check_paths([HISTORIES]))


def _assert_same(got: list[FileCheck], want: list[FileCheck]) -> None:
    assert [c.file for c in got] == [c.file for c in want]
    for g, w in zip(got, want):
        assert g.parsed == w.parsed
        assert g.results == w.results, g.file
        assert [(c.hand.hand_id, c.violations, c.net) for c in g.checks] == \
               [(c.hand.hand_id, c.violations, c.net) for c in w.checks]


@pytest.fixture
def split_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The planted file's hands of one table, two a file, one file a task; the first
    hand of a later file brings in for less than the table's earlier hands."""
    text = PLANTED.read_text(encoding="utf-8")
    hands = [h for h in re.split(r"\n\n+(?=PokerStars Hand #)", text.strip()) if f"Table '{TABLE}'" in h]
    assert len(hands) >= 8
    low = next(i for i in range(4, len(hands), 2) if "brings in for $0.50" in hands[i])
    hands[low] = hands[low].replace("brings in for $0.50", "brings in for $0.40", 1)
    folder = tmp_path / "archive"
    folder.mkdir()
    for i in range(0, len(hands), 2):
        (folder / f"{TABLE} {i // 2:02d}.txt").write_text("\n\n\n".join(hands[i:i + 2]) + "\n", encoding="utf-8")
    monkeypatch.setattr(scale, "_TASK_BYTES", (1, 1))
    return folder


def test_parallel_equals_serial_on_histories(serial: list[FileCheck]) -> None:
    got = list(scale.check_files([HISTORIES], jobs=2))
    _assert_same(got, serial)
    planted = next(c for c in got if c.file == str(PLANTED))
    # 40: the planted wrong total pot is one violation, at its line (issue 13)
    assert sum(len(c.violations) for c in planted.checks) == 40


def test_split_table_shares_the_bring_in_memory(split_table: Path) -> None:
    want = list(check_paths([split_table]))
    assert len(scale._tasks(scale.expand_paths([split_table]), 2)) == len(want) > 2
    reported = [v.message for c in want for h in c.checks for v in h.violations if v.rule == "bringin.amount"]
    first = want[0].checks[0].hand.hand_id
    assert reported == [f"bring-in should be 0.50 as in hand {first} at this table and stakes, not 0.40"]
    # files checked with no memory of each other would miss it: the memory matters here
    alone = [r for c in want for r in next(check_paths([c.file])).results]
    assert alone != [r for c in want for r in c.results]
    _assert_same(list(scale.check_files([split_table], jobs=2)), want)


def test_big_files_are_streamed_here_with_the_serial_results(monkeypatch: pytest.MonkeyPatch,
                                                            serial: list[FileCheck], split_table: Path) -> None:
    """Files of STREAMED_BYTES or more are checked in this process hand by hand
    (a FileStream), between the pooled tasks, against the one memory: the
    results equal the serial run's (on the histories, and on a table split
    over files whose bring-in memory matters)."""
    monkeypatch.setattr(scale, "STREAMED_BYTES", 800_000)  # two of the histories' files
    big = [c.file for c in serial if Path(c.file).stat().st_size >= 800_000]
    assert 0 < len(big) < len(serial)
    assert [c.file for c in _settled([HISTORIES], serial)] == big
    want = list(check_paths([split_table]))
    monkeypatch.setattr(scale, "STREAMED_BYTES", min(Path(c.file).stat().st_size for c in want[1::2]))
    assert _settled([split_table], want)


def _settled(paths: list[Path], want: list[FileCheck]) -> list[FileCheck]:
    """check_files(jobs=2) on ``paths``, asserted equal to ``want``; the files streamed.
    A streamed file's report keeps no hands (its results were handed on)."""
    got, streamed = [], []
    for checked, wanted in zip(scale.check_files(paths, jobs=2), want, strict=True):
        if isinstance(checked, FileStream):
            results = list(checked.results)
            assert replace(checked.parsed, results=[]) == replace(wanted.parsed, results=[])
            streamed.append(checked)
            checked = FileCheck(wanted.parsed, results)
        got.append(checked)
    _assert_same(got, want)
    return [FileCheck(c.parsed, []) for c in streamed]


def test_jobs_1_runs_in_process(monkeypatch: pytest.MonkeyPatch, serial: list[FileCheck]) -> None:
    assert serial[-1].file == str(PLANTED)
    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError("no pool for jobs=1")

    monkeypatch.setattr(scale, "_Workers", no_pool)
    _assert_same(list(scale.check_files([PLANTED], jobs=1)), serial[-1:])


def test_expand_paths_is_parse_paths_order(tmp_path: Path) -> None:
    for name in ("b.txt", "a/z.txt", "a/b/c.txt", "c/a.txt", ".hidden/x.txt", "a/.x.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    paths = [tmp_path, tmp_path / "b.txt"]
    assert scale.expand_paths(paths) == [r.file for r in parse_paths(paths)]


def test_resolve_jobs() -> None:
    assert scale.resolve_jobs(3) == 3
    assert scale.resolve_jobs(0) == scale.resolve_jobs(None) >= 1
    with pytest.raises(ValueError):
        scale.resolve_jobs(-1)


def test_compact_pickle_round_trip_keeps_cards_interned(serial: list[FileCheck]) -> None:
    back = scale._loads(scale._dumps(serial[-1]))
    assert back == serial[-1]
    deals = [e for r in back.checks for e in r.hand.events if isinstance(e, Deal)]
    assert deals and all(card is DECK[card.index] for d in deals for card in (*d.down, *d.up))


# ---------------------------------------------------------------------------
# The command line


def _same_output(args: list[str], capsys: pytest.CaptureFixture[str], jobs: str = "2") -> tuple[int, str, str]:
    """``args`` run with --jobs 1, then ``jobs``: the same exit status, stdout and stderr (returned)."""
    code = main([*args, "--jobs", "1"])
    one = capsys.readouterr()
    assert main([*args, "--jobs", jobs]) == code
    two = capsys.readouterr()
    assert two.out == one.out
    assert two.err == one.err
    return code, one.out, one.err


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
@pytest.mark.parametrize("options", [[], ["--notes", "--verbose"]])
def test_check_jobs_2_prints_what_jobs_1_prints(fmt: str, options: list[str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _same_output(["check", "--format", fmt, *options, str(HISTORIES)], capsys)
    assert code == 1
    if fmt == "jsonl":
        assert json.loads(out.splitlines()[-1])["summary"]["hands"] == 2294
    else:
        assert ", 12 hands with violations, 40 violations, " in out


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_check_jobs_2_prints_what_jobs_1_prints_on_the_corpus(fmt: str, corpus: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The real logs of every site: skipped hands (listed with --verbose), violations,
    side files ignored, in tasks of several files each."""
    assert len(scale._tasks(scale.expand_paths([corpus]), 2)) > 2
    _, out, err = _same_output(["check", "--format", fmt, "--notes", "--verbose", str(corpus)], capsys)
    if fmt == "text":
        assert ": skipped: " in out and "ignored" in out
    else:
        summary = json.loads(out.splitlines()[-1])["summary"]
        assert summary["skipped"] > 0 and summary["violations"] > 0 and "not a hand history" in err


def _noted(split_table: Path) -> str:
    """A timer line (a note) put in the first hand of the split table's second file."""
    second = sorted(split_table.iterdir())[1]
    text = second.read_text(encoding="utf-8")
    second.write_text(text.replace("*** 3rd STREET ***\n", "*** 3rd STREET ***\nHero has 15 seconds left to act\n", 1),
                      encoding="utf-8")
    return str(second)


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
@pytest.mark.parametrize("streamed", [False, True])
def test_check_jobs_on_split_table_repeats_and_bad_files(
        fmt: str, streamed: bool, split_table: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A table over files one task each (its bring-in memory crosses tasks), every file
    given twice (the second time its hands are repeats), a note, a rejected hand, a
    file that is no hand history (walked: ignored), an empty one named, one read as
    PokerStars that holds no hand (an error with a site); ``streamed``: some files
    checked in the calling process among the workers' tasks. As with one job."""
    noted = _noted(split_table)
    (split_table / "notes.txt").write_text("not a hand history\n", encoding="utf-8")
    cut = split_table / "zz cut.txt"
    cut.write_text(next(split_table.glob("* 01.txt")).read_text(encoding="utf-8").split("*** 3rd")[0], encoding="utf-8")
    empty = split_table.parent / "empty.txt"
    empty.write_text("", encoding="utf-8")
    if streamed:
        sizes = sorted(path.stat().st_size for path in split_table.glob(f"{TABLE} *.txt"))
        monkeypatch.setattr(scale, "STREAMED_BYTES", sizes[len(sizes) // 2])
    args = ["check", "--format", fmt, "--notes", str(split_table), str(empty), str(split_table)]
    code, out, err = _same_output(args, capsys)
    assert code == 1
    assert "bringin.amount" in out and "not a hand history" in (out if fmt == "text" else err)
    assert "duplicate" in out and "15 seconds left to act" in out and "rejected" in out
    assert f"{empty}:1: error: empty file" in (out if fmt == "text" else err)
    assert noted in out
    forced = _same_output(["check", "--format", fmt, "--site", "pokerstars", str(split_table)], capsys)
    assert "no pokerstars hand found" in (forced[1] if fmt == "text" else forced[2])


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_check_jobs_on_a_simulated_table_over_tasks(fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """One simulated razz table over four files, one task each: the first hand of each
    later task is checked again here against the table's bring-in (its worker knew
    none); the output is --jobs 1's."""
    from studbook.cli.check import Output, _show_checks
    from studbook.simulate import simulate_hands, write_hands

    hands = list(simulate_hands("razz", 40, 5, seed=3, table="Sim Table"))
    for i in range(4):
        (tmp_path / f"razz {i}.txt").write_text(write_hands(hands[i * 10:(i + 1) * 10]), encoding="utf-8")
    monkeypatch.setattr(scale, "_TASK_BYTES", (1, 1))
    code, out, _ = _same_output(["check", "--format", fmt, "--notes", str(tmp_path)], capsys)
    assert code == 0 and ("40 ok" in out if fmt == "text" else '"ok": 40' in out)
    prepared = list(scale.prepare_files([tmp_path], functools.partial(_show_checks, Output(fmt)), jobs=2))
    assert [sorted(p.rechecked) for p in prepared] == [[], [0], [0], [0]]


def test_check_jobs_workers_send_each_hands_output_not_its_check(split_table: Path) -> None:
    """The lean path: each worker sends each hand's output (and its header), and whole
    checks only for the hands the bring-in memory may judge otherwise; the hand whose
    bring-in only the true memory finds wrong is checked again here, and shown here."""
    import pickle

    from studbook.cli.check import Output, Shown, _show_checks, show

    output = Output("jsonl", notes=True)
    prepare = functools.partial(_show_checks, output)
    back = pickle.loads(pickle.dumps(prepare))  # it reaches the workers
    assert (back.func, back.args) == (_show_checks, (output,))
    prepared = list(scale.prepare_files([split_table], prepare, jobs=2))
    want = list(check_paths([split_table]))
    assert all(isinstance(p, scale.Prepared) for p in prepared) and len(prepared) == len(want) > 2
    for got, wanted in zip(prepared, want):
        assert [type(m) for m in got.made] == [Shown] * len(wanted.results)
        for i, result in enumerate(wanted.results):
            made = show(got.rechecked[i], wanted.file, wanted.site, output) if i in got.rechecked else got.made[i]
            assert made == show(result, wanted.file, wanted.site, output)
    rechecked = [(p, i, check) for p in prepared for i, check in p.rechecked.items()]
    assert rechecked  # the split table's first hand in each later task
    low = [(p, i) for p, i, check in rechecked if any(v.rule == "bringin.amount" for v in check.violations)]
    assert len(low) == 1
    p, i = low[0]
    assert "bringin.amount" not in p.made[i].text  # its worker's memory did not know the table


def _store_rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table of a store, rows in the order they were stored (``files``
    without the time of the import, each file's path made relative)."""
    conn = sqlite3.connect(db)
    try:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {table: conn.execute(
            "SELECT path, sha256, size, results FROM files ORDER BY rowid" if table == "files"
            else f"SELECT * FROM {table} ORDER BY rowid").fetchall() for table in tables}
    finally:
        conn.close()


def _import_both_ways(paths: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                      name: str = "") -> tuple[Path, str]:
    """``import`` of ``paths`` with --jobs 1 and --jobs 2 into new stores: the same
    report, every table the same row by row (the originals too); the --jobs 2 store."""
    one, two = tmp_path / f"one{name}.db", tmp_path / f"two{name}.db"
    args = ["import", "-q", *map(str, paths)]
    code = main([*args, "--jobs", "1", "--db", str(one)])
    report_one = capsys.readouterr().out
    assert main([*args, "--jobs", "2", "--db", str(two)]) == code
    report_two = capsys.readouterr().out
    assert report_two == report_one.replace(str(one), str(two))
    want, got = _store_rows(one), _store_rows(two)
    assert list(got) == list(want)
    for table in want:
        assert got[table] == want[table], table
    assert want["hands"] and len(want["originals"]) == len(want["hands"])
    return two, report_two


@pytest.mark.parametrize("where", ["histories", "corpus"])
def test_import_jobs_2_stores_what_jobs_1_stores(where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 request: pytest.FixtureRequest) -> None:
    """Each worker makes its files' rows and originals; the main process only inserts."""
    path = HISTORIES if where == "histories" else request.getfixturevalue("corpus")
    assert len(scale._tasks(scale.expand_paths([path]), 2)) > 1  # the workers' path, not one task here
    _import_both_ways([path], tmp_path, capsys)
    from studbook.store import read_frames

    one, two = read_frames(tmp_path / "one.db"), read_frames(tmp_path / "two.db")
    for (name, a), (_, b) in zip(one.tables(), two.tables()):
        assert a.equals(b), name


def test_import_jobs_rechecked_hands_get_their_rows_made_here(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Two hands of a table's later file (each file its own task) bring in for less
    than its first file's hands: their worker cannot know, so this process checks them
    again: the first from the events its worker sent (a table's first hand in its task),
    the second from its file read again (against the first, its worker found nothing
    wrong with it). Their rows are made here: the store is the one-job store."""
    source = next(HISTORIES.glob("HH20240302 Aaltje IV*"))
    hands = re.split(r"\n\n+(?=PokerStars Hand #)", source.read_text(encoding="utf-8").strip())
    later = [h.replace("brings in for $0.25", "brings in for $0.05") for h in hands[45:47]]
    assert later != hands[45:47] and "brings in for $0.25" in hands[0] + hands[1]
    folder = tmp_path / "archive"
    folder.mkdir()
    first, low = folder / "a.txt", folder / "b.txt"
    first.write_text("\n\n\n".join(hands[:2]) + "\n", encoding="utf-8")
    low.write_text("\n\n\n".join(later) + "\n", encoding="utf-8")
    monkeypatch.setattr(scale, "_TASK_BYTES", (1, 1))
    again, rechecked = [], []
    real_read, real_check = scale._hands_by_line, scale.check_hand
    monkeypatch.setattr(scale, "_hands_by_line", lambda file, site: again.append(file) or real_read(file, site))
    monkeypatch.setattr(scale, "check_hand", lambda hand, **kw: rechecked.append(hand.hand_id) or real_check(hand, **kw))
    two, _ = _import_both_ways([folder], tmp_path, capsys)
    assert again == [str(low)] and len(rechecked) == 2
    conn = sqlite3.connect(two)
    wrong = conn.execute("SELECT hand_id, file, message FROM violations WHERE rule = 'bringin.amount'").fetchall()
    conn.close()
    assert [(hand, file) for hand, file, _ in wrong] == [(hand, str(low)) for hand in rechecked]
    assert all("should be 0.25" in message for *_, message in wrong)


def test_import_jobs_a_file_changed_before_its_hand_is_read_again_is_not_imported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A hand to check again whose file no longer holds it when read again (the
    file changed during the import): the file is listed as not read, not marked
    imported, and the next import reads it; the other files are imported."""
    source = next(HISTORIES.glob("HH20240302 Aaltje IV*"))
    hands = re.split(r"\n\n+(?=PokerStars Hand #)", source.read_text(encoding="utf-8").strip())
    folder = tmp_path / "archive"
    folder.mkdir()
    (folder / "a.txt").write_text("\n\n\n".join(hands[:2]) + "\n", encoding="utf-8")
    low = folder / "b.txt"
    later = [h.replace("brings in for $0.25", "brings in for $0.05") for h in hands[45:47]]
    low.write_text("\n\n\n".join(later) + "\n", encoding="utf-8")
    monkeypatch.setattr(scale, "_TASK_BYTES", (1, 1))
    monkeypatch.setattr(scale, "_hands_by_line", lambda file, site: {})  # as if the file had changed
    db = tmp_path / "s.db"
    assert main(["import", str(folder), "--db", str(db), "--jobs", "2"]) == 2
    out, err = capsys.readouterr()
    assert f"cannot read {low}: the file changed while it was read (its hand at line" in err
    assert "unreadable files        1" in out and "new hands               2" in out
    assert _count(db, "SELECT count(*) FROM files") == 1
    monkeypatch.undo()
    assert main(["import", "-q", str(folder), "--db", str(db), "--jobs", "2"]) == 0
    assert "new hands               2" in capsys.readouterr().out


def test_import_jobs_interrupted_keeps_whole_files_and_ends_the_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C while the second file's rows are stored: the first file stays, whole
    and marked imported, the second left for the next import; the pool is ended."""
    from studbook.store import Store

    files = scale.expand_paths([HISTORIES])[:4]
    assert len(scale._tasks(files, 2)) > 1
    stored, pools = [], []
    real_add, real_pool = Store.add_prepared, scale._Workers

    def add(self: Store, *args: object, **kwargs: object) -> object:
        if stored:
            raise KeyboardInterrupt
        stored.append(real_add(self, *args, **kwargs))  # type: ignore[arg-type]
        return stored[-1]

    def pool(*args: object, **kwargs: object) -> object:
        pools.append(real_pool(*args, **kwargs))  # type: ignore[arg-type]
        return pools[-1]

    monkeypatch.setattr(Store, "add_prepared", add)
    monkeypatch.setattr(scale, "_Workers", pool)
    db = tmp_path / "s.db"
    assert main(["import", "-q", *map(str, files), "--db", str(db), "--jobs", "2"]) == 130
    err = capsys.readouterr().err
    assert f"interrupted: the store keeps the {stored[0].new} new hands of the files finished" in err
    assert len(pools) == 1 and all(not p.is_alive() for p in pools[0].processes)  # type: ignore[attr-defined]
    assert _count(db, "SELECT count(*) FROM files") == 1
    assert _count(db, "SELECT count(*) FROM hands") == stored[0].new > 0
    monkeypatch.undo()
    assert main(["import", "-q", *map(str, files), "--db", str(db), "--jobs", "2"]) == 0
    _, again = capsys.readouterr(), tmp_path / "again.db"
    assert main(["import", "-q", *map(str, files), "--db", str(again), "--jobs", "1"]) == 0
    assert _store_rows(db)["hands"] == _store_rows(again)["hands"]


def test_import_jobs_on_bad_files_repeats_and_stale_rejects(
        split_table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With --jobs 2 as with one: a file that is no hand history, an empty one, a hand
    cut short (rejected), a file given twice under two names (its hand ids repeated,
    the first kept); then the cut file completed and every file imported again
    (``--rescan``: the workers read them), the cut hand's rejection forgotten."""
    files = sorted(split_table.iterdir())
    (split_table / "notes.txt").write_text("not a hand history\n", encoding="utf-8")
    (split_table / "empty.txt").write_text("", encoding="utf-8")
    (split_table / "zz copy.txt").write_text(files[0].read_text(encoding="utf-8"), encoding="utf-8")
    whole = files[1].read_text(encoding="utf-8")
    files[1].write_text(whole[: whole.index("*** 3rd STREET ***")], encoding="utf-8")
    _, report = _import_both_ways([split_table], tmp_path, capsys)
    # the file that is no hand history and the empty one are ignored, as check ignores them
    assert "ignored files           2" in report and "rejected                1" in report
    assert "repeated in these files: 2" in report
    cut = "SELECT count(*) FROM rejects WHERE status = 'rejected' AND file = ?"
    assert _count(tmp_path / "two.db", cut, str(files[1])) == 1
    files[1].write_text(whole, encoding="utf-8")
    for db, jobs in ((tmp_path / "one.db", "1"), (tmp_path / "two.db", "2")):
        assert main(["import", "-q", "--rescan", "--jobs", jobs, str(split_table), "--db", str(db)]) == 0
    assert capsys.readouterr().out.count("new hands               2") == 2
    assert _store_rows(tmp_path / "two.db") == _store_rows(tmp_path / "one.db")
    assert _count(tmp_path / "two.db", cut, str(files[1])) == 0


def _count(db: Path, query: str, *params: object) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute(query, params).fetchone()[0])
    finally:
        conn.close()


def test_negative_jobs_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--jobs", "-1", str(PLANTED)]) == 2
    assert "--jobs" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# Dask


def test_missing_dask_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "dask.dataframe", None)
    for call in (lambda: scale.to_dask([HISTORIES]), lambda: next(scale.check_files_dask([HISTORIES]))):
        with pytest.raises(ImportError, match=re.escape("pip install 'studbook[dask]'")):
            call()


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its categoricals as strings: Dask's partitions have categories of their
    own, which it unites unsorted, where a whole frame's are sorted and shared by the tables."""
    return frame.astype({c: STRING for c in frame.columns if isinstance(frame[c].dtype, pd.CategoricalDtype)})


def test_dask_frames_equal_load(serial: list[FileCheck]) -> None:
    dask = pytest.importorskip("dask")
    pytest.importorskip("dask.dataframe")
    from studbook.frames import SCHEMA, frames_from_checks

    want = frames_from_checks(r for c in serial for r in c.results)  # == frames.load(HISTORIES)
    lazy = scale.to_dask([HISTORIES], files_per_partition=3)
    assert list(lazy) == list(SCHEMA) and lazy["hands"].npartitions == 4
    got = dict(zip(lazy, dask.compute(*lazy.values(), scheduler="sync")))
    for name, frame in want.tables():
        assert list(lazy[name].dtypes.astype(str)) == list(frame.dtypes.astype(str)), name
        keys = [c for c in ("site", "hand_id", "seq", "player", "pot", "half", "line", "file") if c in frame]
        a = _plain(got[name]).sort_values(keys, kind="stable").reset_index(drop=True)
        b = _plain(frame).sort_values(keys, kind="stable").reset_index(drop=True)
        assert a.dtypes.equals(b.dtypes), name
        assert a.equals(b), name
    assert len(got["violations"]) == 40  # the planted wrong total pot: one violation (issue 13)


def test_dask_frames_equal_load_on_split_table(split_table: Path) -> None:
    dask = pytest.importorskip("dask")
    pytest.importorskip("dask.dataframe")
    from studbook.frames import load

    want = load(split_table)
    lazy = scale.to_dask([split_table], files_per_partition=1)
    got = dict(zip(lazy, dask.compute(*lazy.values(), scheduler="processes", num_workers=2)))
    for name, frame in want.tables():
        assert _plain(got[name].reset_index(drop=True)).equals(_plain(frame)), name
    assert "bringin.amount" in set(got["violations"]["rule"])


def test_check_files_dask_equals_serial(serial: list[FileCheck]) -> None:
    pytest.importorskip("dask.dataframe")
    _assert_same(list(scale.check_files_dask([HISTORIES], files_per_partition=2, scheduler="sync")), serial)


@pytest.mark.parametrize("scheduler", ["threads", "processes"])
def test_check_files_dask_on_split_table(scheduler: str, split_table: Path) -> None:
    pytest.importorskip("dask.dataframe")
    want = list(check_paths([split_table]))
    got = list(scale.check_files_dask([split_table], files_per_partition=1, scheduler=scheduler))
    _assert_same(got, want)


def test_check_files_dask_on_a_distributed_client(split_table: Path) -> None:
    distributed = pytest.importorskip("distributed")
    want = list(check_paths([split_table]))
    with distributed.Client(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as client:
        got = list(scale.check_files_dask([split_table], client, files_per_partition=1))
    _assert_same(got, want)
    assert all(isinstance(r, HandCheck) for c in got for r in c.results)


@pytest.mark.parametrize(("asked", "true", "violations", "stands"), [
    (None, None, (), True),
    (None, ("0.50", "1"), (), False),
    (("0.50", "1"), None, (), False),
    (("0.50", "1"), ("0.50", "1"), ("v",), True),
    (("0.50", "2"), ("0.50", "1"), (), True),  # another hand's id is only in a violation's message
    (("0.50", "2"), ("0.50", "1"), ("v",), False),
    (("0.5", "1"), ("0.50", "1"), (), False),  # written differently: checked again, to be safe
    (("0.40", "1"), ("0.50", "1"), (), False),
])
def test_which_checks_stand(asked: tuple[str, str] | None, true: tuple[str, str] | None,
                            violations: tuple[str, ...], stands: bool) -> None:
    from decimal import Decimal

    def known(k: tuple[str, str] | None) -> tuple[Decimal, str] | None:
        return None if k is None else (Decimal(k[0]), k[1])

    assert scale._stands(known(asked), known(true), bool(violations)) is stands


def test_auto_jobs_only_for_large_inputs_and_free_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    files = [str(p) for p in HISTORIES.iterdir()]
    assert scale.auto_jobs(files) == 1  # histories/ is far below AUTO_BYTES
    monkeypatch.setattr(jobs, "AUTO_BYTES", 0)  # the policy's module (scale re-exports it)
    monkeypatch.setattr(jobs, "resolve_jobs", lambda jobs: 8)
    monkeypatch.setattr(jobs.os, "getloadavg", lambda: (2.5, 0.0, 0.0))
    assert scale.auto_jobs(files) == 5  # 8 cores, 2.5 busy
    monkeypatch.setattr(jobs.os, "getloadavg", lambda: (5.0, 0.0, 0.0))
    assert scale.auto_jobs(files) == scale.auto_jobs(files, scale.AUTO_PREPARED_FREE_CORES) == 3  # 3 free cores pay
    assert scale.auto_jobs(files, 4) == 1  # not when a caller asks for 4
    monkeypatch.setattr(jobs.os, "getloadavg", lambda: (6.5, 0.0, 0.0))
    assert scale.auto_jobs(files) == 1  # 1.5 free cores do not


def test_check_without_jobs_picks_them_and_prints_what_jobs_1_prints(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "--format", "jsonl", "--jobs", "1", str(HISTORIES)])
    one = capsys.readouterr()
    import studbook.cli.check as check_cli

    monkeypatch.setattr(check_cli, "auto_jobs", lambda files: 2)
    main(["check", "--format", "jsonl", str(HISTORIES)])
    auto = capsys.readouterr()
    assert auto.out == one.out and auto.out


def test_dask_partitions_checked_again_only_where_the_memory_matters(split_table: Path) -> None:
    """to_dask keeps a partition's own frames where every check stands given the partitions
    before it, and checks again only the files with a check that does not (the split
    table's later files)."""
    groups = scale._groups(scale.expand_paths([split_table]), 2)
    before, again = None, []
    for part in (scale._check_part(group, None) for group in groups):
        again.append(scale._rechecks(part, before))
        before = scale._merge(before, part.learned)
    assert not again[0] and any(again)
    alone = scale._check_part(scale.expand_paths([split_table]), None)  # one partition: nothing before it
    assert not scale._rechecks(alone, None) and scale._settle_frames(alone, None) is alone.frames


@pytest.mark.parametrize("files", [2, 3])
def test_dask_frames_equal_load_on_split_table_with_files_checked_again(split_table: Path, files: int) -> None:
    """Partitions of several files, some of them checked again: their new frames and the
    other files' rows make the frames load() gives, values, order and dtypes."""
    dask = pytest.importorskip("dask")
    pytest.importorskip("dask.dataframe")
    from studbook.frames import load

    want = load(split_table)
    lazy = scale.to_dask([split_table], files_per_partition=files)
    got = dict(zip(lazy, dask.compute(*lazy.values(), scheduler="sync")))
    for name, frame in want.tables():
        assert _plain(got[name].reset_index(drop=True)).equals(_plain(frame)), name
    assert "bringin.amount" in set(got["violations"]["rule"])


def test_dask_frames_equal_load_when_a_partition_mixes_kept_and_checked_files(split_table: Path) -> None:
    """A partition of a file checked again (the split table goes on) and a file kept as
    its task made it (another table's hands): the frames are load()'s."""
    dask = pytest.importorskip("dask")
    pytest.importorskip("dask.dataframe")
    from studbook.frames import load

    text = PLANTED.read_text(encoding="utf-8")
    other = [h for h in re.split(r"\n\n+(?=PokerStars Hand #)", text.strip()) if f"Table '{TABLE}'" not in h]
    (split_table / f"{TABLE} 02x.txt").write_text("\n\n\n".join(other[:3]) + "\n", encoding="utf-8")
    groups = scale._groups(scale.expand_paths([split_table]), 2)
    assert [Path(f).name for f in groups[1]] == [f"{TABLE} 02.txt", f"{TABLE} 02x.txt"]
    first = scale._check_part(groups[0], None)
    assert list(scale._rechecks(scale._check_part(groups[1], None), first.learned)) == [groups[1][0]]
    want = load(split_table)
    lazy = scale.to_dask([split_table], files_per_partition=2)
    got = dict(zip(lazy, dask.compute(*lazy.values(), scheduler="sync")))
    for name, frame in want.tables():
        assert _plain(got[name].reset_index(drop=True)).equals(_plain(frame)), name


def _sized(size: int) -> bytes:
    return bytes(size)


def _fails(message: str) -> None:
    raise ValueError(message)


def _dies() -> None:
    os._exit(3)


def test_workers_end_at_once_while_their_results_are_being_sent() -> None:
    """An interrupt ends the workers while they send results bigger than a pipe holds
    (multiprocessing.Pool could wait for ever on the half-sent message): terminate()
    returns at once and no worker is left."""
    import time

    pool = scale._Workers(2)
    for _ in range(4):
        pool.submit(_sized, (48 << 20,))
    # both are sending their first result, which nobody reads: the first bytes of a
    # 48 MB message are in each pipe (a second's sleep stood for this, too short under load)
    assert all(pipe.poll(120) for pipe in pool.pipes)
    started = time.monotonic()
    pool.terminate()
    assert time.monotonic() - started < 10
    assert not any(p.is_alive() for p in pool.processes)


def test_workers_results_errors_and_a_worker_that_dies() -> None:
    """Results come in the order of each worker's tasks; a task's exception is raised
    where its result is asked for, and a worker that dies is an error, not a wait."""
    pool = scale._Workers(2)
    try:
        first, second = pool.submit(_sized, (3,)), pool.submit(_fails, ("bad file",))
        assert first != second and pool.result(first) == bytes(3)
        with pytest.raises(ValueError, match="bad file"):
            pool.result(second)
        assert pool.result(pool.submit(_sized, (5,))) == bytes(5)  # the worker goes on
        dead = pool.submit(_dies, ())
        with pytest.raises(RuntimeError, match="ended while it worked"):
            pool.result(dead)
    finally:
        pool.terminate()
    assert not any(p.is_alive() for p in pool.processes)
