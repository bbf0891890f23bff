"""The SQLite store: round trip, keys, idempotent imports, interrupted imports."""

from __future__ import annotations

import itertools
import shutil
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from studbook import frames as frames_module
from studbook import store as store_module
from studbook.store import prepare as store_prepare
from studbook.engine.result import Violation
from studbook.events import Rejected, Skipped
from studbook.frames import frames_from_checks, load
from studbook.store import ImportSummary, Store, StoreError, import_results, is_store, read_frames
from test_frames import showdown_hand, steal_hand


def checks(ids: range) -> list:
    out = []
    for i in ids:
        b = showdown_hand(str(i)) if i % 2 else steal_hand(str(i))
        violations = (Violation("bet.size", 20, "expected 0.04"),) if i % 5 == 0 else ()
        out.append(b.check(violations=violations, rake="0.03" if i % 2 else "0"))
    return out


PROBLEMS = [
    Rejected(file="f.txt", line=12, hand_line=10, reason="bad amount", hand_id="x1"),
    Skipped(file="f.txt", line=40, hand_id="x2", game="Hold'em"),
]


def assert_frames_equal(left: frames_module.Frames, right: frames_module.Frames) -> None:
    for (name, a), (_, b) in zip(left.tables(), right.tables()):
        pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True),
                                      obj=name)


def test_round_trip_is_exact(tmp_path: Path) -> None:
    results = checks(range(10)) + PROBLEMS
    db = tmp_path / "s.db"
    summary = import_results(db, results)
    assert (summary.new, summary.duplicate, summary.rejected, summary.skipped) == (10, 0, 1, 1)
    assert summary.with_violations == 2 and summary.violations == 2  # hands 0 and 5
    assert_frames_equal(read_frames(db), frames_from_checks(results))


def test_load_detects_a_store(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    import_results(db, checks(range(3)))
    assert is_store(db)
    assert len(load(db)) == 3
    assert len(load(str(db))) == 3


def test_reimport_adds_nothing_and_new_files_add_only_new_hands(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    import_results(db, checks(range(5)) + PROBLEMS)
    again = import_results(db, checks(range(5)) + PROBLEMS)
    assert (again.new, again.duplicate) == (0, 5)
    more = import_results(db, checks(range(3, 8)))
    assert (more.new, more.duplicate) == (3, 2)
    with Store(db) as store:
        counts = store.counts()
    assert counts["hands"] == 8
    assert counts["rejects"] == 2  # the same rejected/skipped hands are listed once
    assert counts["players"] == sum(len(c.players) for c in checks(range(8)))


def test_duplicates_inside_one_import(tmp_path: Path) -> None:
    summary = import_results(tmp_path / "s.db", checks(range(3)) + checks(range(3)))
    assert (summary.new, summary.duplicate) == (3, 3)


def test_interrupted_import_keeps_whole_calls_only(tmp_path: Path) -> None:
    """One add() is one transaction (one file, for the importer), however many
    batches of rows it wrote before the interruption."""
    db = tmp_path / "s.db"
    import_results(db, checks(range(2)))

    def interrupted() -> Iterator:
        yield from checks(range(2, 7))
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        import_results(db, interrupted(), batch_size=2)  # two batches written, not committed
    with Store(db) as store:
        stored = store.frames()
    assert sorted(stored.hands["hand_id"]) == ["0", "1"]
    assert set(stored.players["hand_id"]) == set(stored.hands["hand_id"])
    assert set(stored.actions["hand_id"]) == set(stored.hands["hand_id"])
    resumed = import_results(db, checks(range(6)))
    assert (resumed.new, resumed.duplicate) == (4, 2)


def test_failure_inside_a_batch_rolls_the_batch_back(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    import_results(db, checks(range(2)))
    original = Store._insert

    def failing(self: Store, table: str, frame: pd.DataFrame) -> None:
        if table == "pots":  # after the hands, players and actions (these a statement a hand) went in
            raise sqlite3.OperationalError("disk I/O error")
        original(self, table, frame)

    monkeypatch.setattr(Store, "_insert", failing)
    with pytest.raises(sqlite3.OperationalError):
        import_results(db, checks(range(2, 4)))
    monkeypatch.undo()
    with Store(db) as store:
        assert store.counts()["hands"] == 2 and store.counts()["players"] == 7
    assert import_results(db, checks(range(4))).new == 2


def test_refuses_files_that_are_not_stores(tmp_path: Path) -> None:
    text = tmp_path / "hands.txt"
    text.write_text("PokerStars Game #1: ...\n")
    assert not is_store(text)
    with pytest.raises(StoreError):
        Store(text)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(StoreError, match="not a studbook store"):
        Store(other)
    with pytest.raises(StoreError, match="no such store"):
        read_frames(tmp_path / "missing.db")


def test_store_is_plain_sql(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    import_results(db, checks(range(4)))
    conn = sqlite3.connect(db)
    net = dict(conn.execute("SELECT player, sum(net) FROM players GROUP BY player"))
    # two steal hands (D +0.07, B -0.05, A and C -0.01) and two showdown hands (A +0.39 ...)
    assert net == {"A": 2 * -1 + 2 * 39, "B": 2 * -5 + 2 * -37, "C": 2 * -1 + 2 * -5,
                   "D": 2 * 7}
    assert conn.execute("SELECT value FROM meta WHERE key='money_scale'").fetchone() == (
        str(frames_module.MONEY_SCALE),)


# ---------------------------------------------------------------------------
# `studbook import`, on shipped histories (three of the smaller logs, one with planted violations)

SHIPPED = Path(__file__).resolve().parents[1] / "histories"


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    for pattern in ("*T3761643380*", "*T3711401991*", "planted-violations.txt"):
        shutil.copy(next(SHIPPED.glob(pattern)), folder)
    return folder


def test_import_cli_is_idempotent(logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studbook.cli import main

    db = tmp_path / "hands.db"
    assert main(["import", str(logs), "--db", str(db)]) == 0
    first = capsys.readouterr().out
    stored = len(read_frames(db).hands)
    assert stored > 0
    assert f"new hands        {stored:>8}" in first
    assert "skipped" in first and "rejected" in first and "with violations" in first
    files = len(list(p for p in logs.rglob("*") if p.is_file()))
    assert main(["import", str(logs), "--db", str(db), "-q"]) == 0
    second = capsys.readouterr().out  # unchanged files are not even read again
    assert f"unchanged files  {files:>8}" in second and "new hands               0" in second
    assert main(["import", str(logs), "--db", str(db), "-q", "--rescan"]) == 0
    third = capsys.readouterr().out  # read again: every hand is a duplicate
    assert "new hands               0" in third and f"duplicates       {stored:>8}" in third
    assert len(read_frames(db).hands) == stored


def test_import_cli_new_files_add_only_new_hands(logs: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from studbook.cli import main

    files = sorted(p for p in logs.glob("*.txt"))
    db = tmp_path / "hands.db"
    assert main(["import", str(files[0]), "--db", str(db), "-q"]) == 0
    before = len(read_frames(db).hands)
    assert main(["import", *map(str, files), "--db", str(db), "-q"]) == 0
    out = capsys.readouterr().out
    assert "unchanged files         1" in out
    assert len(read_frames(db).hands) > before


def test_import_cli_reads_a_file_that_grew(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    simulate = pytest.importorskip("studbook.simulate")
    from studbook.cli import main

    hands = list(simulate.simulate_hands("stud", 6, 4, seed=7))
    log = tmp_path / "today.txt"
    log.write_text(simulate.write_hands(hands[:4]))
    db = str(tmp_path / "s.db")
    assert main(["import", str(log), "--db", db, "-q"]) == 0
    log.write_text(simulate.write_hands(hands))  # the day's log grew by two hands
    capsys.readouterr()
    assert main(["import", str(log), "--db", db, "-q"]) == 0
    out = capsys.readouterr().out
    assert "new hands               2" in out and "duplicates              4" in out


def test_import_cli_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studbook.cli import main

    assert main(["import", str(tmp_path / "missing"), "--db", str(tmp_path / "x.db")]) == 2
    not_a_store = tmp_path / "notes.txt"
    not_a_store.write_text("hello\n")
    hands = tmp_path / "h.txt"
    hands.write_text("nothing\n")
    assert main(["import", str(hands), "--db", str(not_a_store)]) == 2
    assert "not an SQLite file" in capsys.readouterr().err


def test_import_cli_strict_exit_status(tmp_path: Path) -> None:
    from studbook.cli import main

    junk = tmp_path / "junk.txt"
    junk.write_text("this is not a hand history\n")
    assert main(["import", str(junk), "--db", str(tmp_path / "a.db"), "-q"]) == 0
    assert main(["import", str(junk), "--db", str(tmp_path / "b.db"), "-q", "--strict"]) == 1


def test_round_trip_keeps_missing_values(tmp_path: Path) -> None:
    import dataclasses

    b = steal_hand("missing")
    b.header = dataclasses.replace(
        b.header, started_utc=None, max_seats=None, mix="HORSE", currency=None,
        stakes=dataclasses.replace(b.header.stakes, ante=None, bring_in=None))
    check = b.check()
    db = tmp_path / "s.db"
    import_results(db, [check])
    stored = read_frames(db)
    assert_frames_equal(stored, frames_from_checks([check]))
    row = stored.hands.iloc[0]
    assert pd.isna(row.started_utc) and pd.isna(row.max_seats) and pd.isna(row.currency)
    # a header without ante and bring-in: the frames give the ones posted
    from studbook.events import Action, ActionKind, PostAnte
    from studbook.frames import to_minor

    assert {row.ante} == {to_minor(e.amount) for e in check.hand.events if isinstance(e, PostAnte)}
    assert [row.bring_in] == [to_minor(e.amount) for e in check.hand.events
                              if isinstance(e, Action) and e.kind is ActionKind.BRING_IN]


def test_an_import_binds_its_missing_values_as_null_without_asking_the_adapters(
        logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's sqlite3 looks each None it binds up in its adapters (some 50 a hand, each
    costing six ints' binding); the store binds a missing value as NaN, which SQLite stores
    as NULL: an import asks the adapters about no missing value, and stores them all as NULL,
    the frames read back equal to the checker's."""
    from studbook.check import check_paths

    asked: list[object] = []
    monkeypatch.setitem(sqlite3.adapters, (type(None), sqlite3.PrepareProtocol),
                        lambda value: asked.append(value))  # returns None: bound as NULL
    db = tmp_path / "hands.db"
    results = [r for file in check_paths([str(logs)]) for r in file.results]
    import_results(db, results)
    assert asked == []
    stored = read_frames(db)
    assert_frames_equal(stored, frames_from_checks(results))
    conn = sqlite3.connect(db)
    missing = {table: conn.execute(f"SELECT count(*) FROM {table} WHERE {column} IS NULL").fetchone()[0]
               for table, column in (("actions", "amount"), ("players", "start_class"), ("hands", "mix"))}
    assert missing == {"actions": int(stored.actions.amount.isna().sum()),
                       "players": int(stored.players.start_class.isna().sum()), "hands": len(stored.hands)}
    assert all(missing.values())
    assert conn.execute("SELECT count(*) FROM actions WHERE typeof(amount) = 'real'").fetchone() == (0,)


def test_an_import_binds_its_packed_texts_without_asking_the_adapters(
        logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's sqlite3 looks each ``bytes`` it binds up in its adapters (some 3.3 k instructions
    a hand), not a bytearray: the originals' packed texts go as bytearrays, stored as the same
    blobs, and read back as the texts the split gave."""
    from studbook.check import stream_sourced

    asked: list[object] = []
    monkeypatch.setitem(sqlite3.adapters, (bytes, sqlite3.PrepareProtocol),
                        lambda value: asked.append(value) or value)
    items = [item for file in sorted(logs.iterdir()) for item in stream_sourced(file).results]
    db = tmp_path / "hands.db"
    with Store(db) as store:
        store.add(items)
        kept = {(o.file, o.line): o.text for o in store.originals()}
    assert asked == []
    texts = {(check.hand.file, check.hand.line): source.text for check, source in items if source is not None}
    assert kept == texts and texts
    blobs = sqlite3.connect(db).execute("SELECT typeof(text), count(*) FROM originals GROUP BY 1").fetchall()
    assert blobs == [("blob", len(texts))]


def test_a_batchs_originals_go_in_statements_of_many_rows_and_a_stored_one_is_left(tmp_path: Path) -> None:
    """The originals rows go INSERT_ROWS to a statement, the rest one a row (i34m17; executemany
    stepped a statement a row): every hand's text stored once, in order, across the statements'
    bounds, with its context where it has one, and an original stored before is left as it was."""
    from studbook.originals import HandSource
    from studbook.store.prepare import INSERT_ROWS, pack

    results = checks(range(2 * INSERT_ROWS + 7))
    sources = [HandSource(f"the text of hand {i}", None if i % 3 else f"head {i}") for i in range(len(results))]
    db = tmp_path / "hands.db"
    with Store(db) as store:
        first = results[INSERT_ROWS].hand
        store.conn.execute("INSERT INTO originals VALUES (?, ?, ?, ?, ?, ?)",
                           (first.site, first.hand_id, "elsewhere", 1, pack("stored before"), None))
        store.conn.commit()
        store.add(list(zip(results, sources)))
        kept = [(o.hand_id, o.file, o.text, o.context) for o in store.originals()]
    expected = [(r.hand.hand_id, r.hand.file, s.text, s.context) for r, s in zip(results, sources)]
    expected[INSERT_ROWS] = (first.hand_id, "elsewhere", "stored before", None)
    assert sorted(kept) == sorted(expected) and len(kept) == len(results)
    order = sqlite3.connect(db).execute("SELECT hand_id FROM originals ORDER BY rowid").fetchall()
    assert [hand_id for (hand_id,) in order] == [first.hand_id] + [r.hand.hand_id for r in results if r.hand is not first]


# ---------------------------------------------------------------------------
# End to end on simulated hands: files -> import -> store -> frames -> stats


def test_simulated_hands_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    simulate = pytest.importorskip("studbook.simulate")
    from studbook.cli import main
    from studbook.frames import to_minor
    from studbook.stats import compute

    simulated = []
    for seed, variant in enumerate(("stud", "stud8", "razz")):
        hands = list(simulate.simulate(variant, 40, 6, seed=seed, hero="Hero"))
        simulated += hands
        (tmp_path / f"{variant}.txt").write_text(simulate.write_hands(h.hand for h in hands))
    db = tmp_path / "sim.db"
    assert main(["import", str(tmp_path), "--db", str(db), "-q"]) == 0
    assert "new hands             120" in capsys.readouterr().out
    frames = read_frames(db)
    assert len(frames.hands) == 120 and frames.rejects.empty
    # every player's net is the simulator's exact result
    net = frames.players.set_index(["hand_id", "player"])["net"]
    for hand in simulated:
        for player, amount in hand.net.items():
            assert net[(hand.hand.hand_id, player)] == to_minor(amount)
    # chips are conserved: all nets add up to minus the rake
    assert frames.players["net"].sum() == -frames.hands["rake"].sum()
    hero = frames.players[frames.players["player"] == "Hero"]
    assert len(hero) == 120 and hero["start_class"].notna().all()
    table = compute(frames)
    percent = [s for s in table.columns if s.startswith(("vpip", "steal", "went", "won_"))]
    values = table[percent].stack().dropna()  # NaN: no opportunity
    assert ((values >= 0) & (values <= 100)).all()
    assert table["hands"].sum() == len(frames.players)


def test_start_times_are_stored_as_utc_text(tmp_path: Path) -> None:
    import dataclasses
    from datetime import datetime, timedelta, timezone

    results = []
    paris = timezone(timedelta(hours=2))
    for hand_id, started in (("1-naive", datetime(2024, 5, 1, 13, 0)),
                             ("2-paris", datetime(2024, 5, 1, 15, 0, 0, 250000, tzinfo=paris))):  # fmt: skip
        b = steal_hand(hand_id)
        b.header = dataclasses.replace(b.header, started_utc=started)
        results.append(b.check())
    db = tmp_path / "s.db"
    import_results(db, results)
    stored = sqlite3.connect(db).execute("SELECT hand_id, started_utc, typeof(folded) FROM hands "
                                         "JOIN players USING (site, hand_id) GROUP BY hand_id").fetchall()  # fmt: skip
    # a time without a zone is never taken as UTC: unknown (NULL / NaT), as written in 'started'
    assert stored == [("1-naive", None, "integer"),
                      ("2-paris", "2024-05-01T13:00:00.250000+00:00", "integer")]  # fmt: skip
    assert_frames_equal(read_frames(db), frames_from_checks(results))


def test_rejects_name_their_site(tmp_path: Path) -> None:
    from studbook.cli import main

    hand = Path(__file__).parent.parent / "histories"
    text = next(hand.glob("HH20240302*")).read_text(encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace("*** 3rd STREET ***", "*** 3rd STRET ***", 1), encoding="utf-8")
    db = tmp_path / "s.db"
    assert main(["import", str(bad), "--db", str(db), "--quiet"]) == 0
    rows = sqlite3.connect(db).execute("SELECT status, site, text FROM rejects").fetchall()
    assert rows == [("rejected", "pokerstars", "*** 3rd STRET ***")]


def _table_rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(db)
    try:
        names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: conn.execute(f"SELECT * FROM {name} ORDER BY rowid").fetchall()
                for name in names if name != "files"}
    finally:
        conn.close()


def test_add_prepared_stores_what_add_stores(tmp_path: Path) -> None:
    """A --jobs worker's rows (store.prepare_rows) stored with add_prepared: the same
    tables and summary as add of the same results, with some hands stored already,
    a hand repeated in the file, problems, the originals beside the results, and
    one result replaced by a check made again (its rows made anew)."""
    from dataclasses import replace

    from studbook.check import stream_sourced
    from studbook.engine.result import HandCheck

    planted = Path(__file__).resolve().parents[1] / "histories" / "planted-violations.txt"
    sourced = list(stream_sourced(str(planted)).results)
    hands = [i for i, (r, _) in enumerate(sourced) if isinstance(r, HandCheck) and r.violations]
    again = hands[3]
    sourced = [*sourced, sourced[hands[1]], *((p, None) for p in PROBLEMS)]  # a repeat, a rejected, a skipped
    other = replace(sourced[again][0], violations=())
    results = [(other, source) if i == again else (r, source) for i, (r, source) in enumerate(sourced)]
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    summaries = []
    for db in (one, two):
        with Store(db) as store:
            store.add(sourced[:hands[2]])  # some hands stored already
            if db == one:
                summaries.append(store.add(results, record=(planted, "0" * 64)))
            else:
                prepared = store_module.prepare_rows(sourced)
                summaries.append(store.add_prepared(prepared, rechecked={again: other}, record=(planted, "0" * 64)))
            assert store.imported(planted, "0" * 64)
    assert summaries[0] == summaries[1]
    assert summaries[0].duplicate == hands[2] + 1 and summaries[0].rejected >= 1 and summaries[0].skipped == 1
    assert _table_rows(one) == _table_rows(two)
    assert len(_table_rows(two)["originals"]) == len(_table_rows(two)["hands"])


def test_originals_of_a_store_written_with_zlib_are_read(tmp_path: Path) -> None:
    """Stores written before the texts were packed with zstd hold zlib streams: the
    codec is told by each blob's first bytes, so such a store (here one whose blobs
    are rewritten with zlib, as main's code wrote them) gives the same texts, also
    mixed with zstd blobs in one store, and the CLI's export reads it."""
    import zlib

    from studbook.cli import main

    histories = Path(__file__).resolve().parents[1] / "histories"
    db = tmp_path / "mixed.db"
    assert main(["import", str(histories), "--db", str(db), "--jobs", "1", "-q"]) == 0
    with Store(db) as store:
        texts = [(o.site, o.hand_id, o.text, o.context) for o in store.originals()]
    conn = sqlite3.connect(db)
    blobs = conn.execute("SELECT text, context FROM originals ORDER BY rowid").fetchall()
    assert len(blobs) == len(texts) > 1000
    assert all(text[:4] == b"\x28\xb5\x2f\xfd" for text, _ in blobs)  # zstd frames
    head = "<session><gametype>7 Card Stud</gametype></session>"  # an XML site's file head, as kept
    texts[0] = (*texts[0][:3], head)
    texts[1] = (*texts[1][:3], head)
    conn.execute("UPDATE originals SET context = ? WHERE rowid = 2", (store_prepare.pack(head),))
    with conn:  # every other hand's blobs as main's code wrote them: zlib, level 1
        for rowid, (site, hand_id, text, context) in enumerate(texts, start=1):
            if rowid % 2:
                conn.execute("UPDATE originals SET text = ?, context = ? WHERE rowid = ?", (
                    zlib.compress(text.encode("utf-8"), 1),
                    None if context is None else zlib.compress(context.encode("utf-8"), 1), rowid))
    assert conn.execute("SELECT count(*) FROM originals WHERE substr(text, 1, 1) = x'78'").fetchone()[0] \
        == (len(texts) + 1) // 2
    conn.close()
    with Store(db, create=False) as store:
        assert [(o.site, o.hand_id, o.text, o.context) for o in store.originals()] == texts
    out = tmp_path / "out.txt"
    assert main(["export", "--db", str(db), "--format", "original", "-o", str(out), "--hand", texts[2][1]]) == 0
    assert texts[2][2] in out.read_text(encoding="utf-8")  # a zlib blob, as export writes it


def test_the_original_texts_are_packed_one_after_another_when_the_rows_are_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """RowsMaker makes each result's rows as it comes, but packs the texts when the rows are
    taken, in a row (packing each between two checks found zstd's tables out of the caches):
    the same packed rows, which unpack to each hand's text."""
    from studbook.check import stream_sourced
    from studbook.engine.result import HandCheck

    planted = Path(__file__).resolve().parents[1] / "histories" / "planted-violations.txt"
    sourced = list(stream_sourced(str(planted)).results)
    steps: list[str] = []
    real_pack, real_rows = store_prepare.pack, store_prepare.add_rows
    monkeypatch.setattr(store_prepare, "pack", lambda text: (steps.append("pack"), real_pack(text))[1])
    monkeypatch.setattr(store_prepare, "add_rows",
                        lambda result, tables, *null: (steps.append("rows"), real_rows(result, tables, *null)))
    maker = store_prepare.RowsMaker()
    for item in sourced:
        maker.add(item)
    assert steps == ["rows"] * len(sourced)
    made = maker.take()
    hands = [(r, source) for r, source in sourced if isinstance(r, HandCheck)]
    assert steps[len(sourced):] == ["pack"] * len(hands)
    originals = [row for row in made.originals if row is not None]
    assert [(row[0], row[1], row[3]) for row in originals] == [(r.hand.site, r.hand.hand_id, r.hand.line)
                                                              for r, _ in hands]
    assert [store_prepare.unpack(row[4]) for row in originals] == [source.text for _, source in hands]
    assert [row[4] for row in originals] == [real_pack(source.text) for _, source in hands]


def test_hands_stored_before_get_no_rows_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file read again (one that grew) into a store holding its first hands: the rows are
    made for the new hands only, and the store and summary are those of a first import."""
    from studbook.check import stream_sourced
    from studbook.engine.result import HandCheck

    planted = Path(__file__).resolve().parents[1] / "histories" / "planted-violations.txt"
    sourced = list(stream_sourced(str(planted)).results)
    assert sum(isinstance(r, HandCheck) and bool(r.violations) for r, _ in sourced[5:]) > 0
    whole, grown = tmp_path / "whole.db", tmp_path / "grown.db"
    with Store(whole) as store:
        first = store.add(sourced)
    made: list[object] = []
    real = store_prepare.add_rows
    monkeypatch.setattr(store_prepare, "add_rows", lambda result, tables, *null: (made.append(result), real(result, tables, *null)))
    with Store(grown) as store:
        store.add(sourced[:5])
        made.clear()
        again = store.add(sourced)
    assert len(made) == len(sourced) - 5
    assert again.duplicate == 5 and again.new == first.new - 5
    assert again.violations == sum(len(r.violations) for r, _ in sourced[5:] if isinstance(r, HandCheck))
    assert _table_rows(grown) == _table_rows(whole)


def test_each_multi_row_insert_takes_its_rows_values_flattened_by_extending_a_list(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows of a multi-row INSERT go to SQLite as one list of their values, row after
    row, made by ``flat_values`` (a list extended by each row: ``itertools.chain`` stepped
    through every value, a fifth of the time): each such statement's parameters are its
    rows' values in order, and the store reads back as the checker's frames."""
    from studbook.check import check_paths
    from studbook.store import db as store_db

    flattened: list[list[tuple[object, ...]]] = []
    by_hand: list[list[tuple[object, ...]]] = []
    real, real_hand = store_prepare.flat_values, store_prepare.hand_values
    monkeypatch.setattr(store_db, "flat_values", lambda rows: (flattened.append(list(rows)), real(rows))[1])
    monkeypatch.setattr(store_db, "hand_values", lambda rows: (by_hand.append(list(rows)), real_hand(rows))[1])
    histories = Path(__file__).resolve().parents[1] / "histories"
    results = [r for file in check_paths([str(histories / "planted-violations.txt")]) for r in file.results]
    db = tmp_path / "hands.db"
    import_results(db, results)
    assert flattened and all(len(rows) == store_prepare.INSERT_ROWS for rows in flattened)
    # the actions rows go a hand a statement (i34m10): each statement one hand's rows, all of them
    width = len(store_prepare.SCHEMA["actions"])
    assert not any(len(rows[0]) == width for rows in flattened)
    assert all(len({row[:2] for row in rows}) == 1 for rows in by_hand)
    assert sum(map(len, by_hand)) == len(frames_from_checks(results).actions)
    assert_frames_equal(read_frames(db), frames_from_checks(results))


@given(st.lists(st.tuples(st.integers(), st.text(max_size=3), st.none() | st.floats(allow_nan=True)), max_size=70))
def test_flat_values_are_the_rows_values_in_order(rows: list[tuple[object, ...]]) -> None:
    flat = store_prepare.flat_values(rows)
    assert isinstance(flat, list)
    assert len(flat) == 3 * len(rows)
    assert all(a is b for a, b in zip(flat, itertools.chain.from_iterable(rows)))


@given(st.datetimes(timezones=st.one_of(st.none(), st.just(timezone.utc), st.timezones())))
def test_a_start_time_is_written_as_its_utc_isoformat(when: datetime) -> None:
    # the store writes a start time from remembered pieces (store.prepare._utc_text), not
    # isoformat: the same text, microseconds and zones other than UTC and all; no zone, None
    try:
        expected = None if when.tzinfo is None else when.astimezone(timezone.utc).isoformat()
    except (OverflowError, ValueError):  # a time that has no UTC date (before year 1, after 9999)
        return
    assert store_prepare.iso_utc(when) == expected


@given(st.lists(st.integers(1, 30), min_size=1, max_size=12), st.integers(3, 16))
def test_a_hands_values_are_its_key_then_each_rows_others(lengths: list[int], width: int) -> None:
    # one hand's actions rows go in one statement, its site and hand_id bound once (i34m10):
    # the key, then every row's values after its own key, in order
    rows = [("site", "17", *(f"{r}.{c}" for c in range(width - 2))) for r in lengths]
    assert store_prepare.hand_values(rows) == ["site", "17", *(v for row in rows for v in row[2:])]


@pytest.mark.parametrize("limit", [None, 100])
def test_each_hands_actions_go_in_as_they_were_made(tmp_path: Path, limit: int | None) -> None:
    # a statement a hand, INSERT_ROWS rows at most, fewer where SQLite allows fewer parameters
    # (100: 8 rows of 12 values and the key): the table holds the rows in order, each hand's own key
    from studbook.rows import SCHEMA

    width = len(SCHEMA["actions"])
    counts = [18, 1, store_prepare.INSERT_ROWS, store_prepare.INSERT_ROWS + 1, 2 * store_prepare.INSERT_ROWS + 3, 9]
    rows = [("site", f"h{hand}", *(hand * 10_000 + seq * 100 + column for column in range(width - 2)))
            for hand, count in enumerate(counts) for seq in range(count)]
    ends = list(itertools.accumulate(counts))
    spans = list(zip([0, *ends[:-1]], ends))
    stored = []
    for name, by_hand in (("by_hand.db", True), ("by_rows.db", False)):  # the latter: 64 rows a statement
        with Store(tmp_path / name) as store:
            if limit is not None:
                store.conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, limit)
            with store._transaction():
                if by_hand:
                    store._insert_by_hand("actions", rows, spans)
                else:
                    store._insert("actions", rows)
            stored.append(store.conn.execute("SELECT * FROM actions ORDER BY rowid").fetchall())
    assert stored[0] == stored[1]
    assert [row[:3] for row in stored[0]] == [row[:3] for row in rows]  # each hand's key, its rows in order


@pytest.mark.parametrize("prepared", [False, True], ids=["add", "add_prepared"])
@pytest.mark.parametrize("before", [0, 3], ids=["new store", "old store"])
def test_two_files_of_one_import_holding_the_same_hands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        before: int, prepared: bool) -> None:
    """In a store that held no hand when the import began, a hand stored already is one of the
    import's own, looked up among them, not in the store (i34m11). Two files of one import hold
    hands 4 and 5 both; the first holds hand 3 twice, two batches apart, the second hand 6 twice.
    The store and the counts are those of an import that looks every hand up in the store."""
    files = [checks([2, 3, 4, 5, 3]), checks([4, 5, 6, 7, 6])]
    looked_up: list[int] = []
    real_stored = Store._stored
    monkeypatch.setattr(Store, "_stored", lambda self, keys: (looked_up.append(len(keys)), real_stored(self, keys))[1])

    def run(db: Path) -> ImportSummary:
        if before:
            import_results(db, checks(range(before)))  # an earlier import: hand 2 is stored
        summary = ImportSummary()
        with Store(db) as store:  # one import: one connection, a transaction a file
            for results in files:
                if prepared:
                    store.add_prepared(store_module.prepare_rows(results), summary=summary)
                else:
                    store.add(results, summary=summary, batch_size=2)
        return summary

    own = run(tmp_path / "own.db")
    assert bool(looked_up) == bool(before)  # a new store is never asked which hands it holds
    monkeypatch.setattr(Store, "_own_hands", lambda self: None)  # every hand looked up in the store
    looked_up.clear()
    assert run(tmp_path / "looked_up.db") == own and looked_up
    assert _table_rows(tmp_path / "own.db") == _table_rows(tmp_path / "looked_up.db")
    assert (own.new, own.duplicate) == (6 - (before == 3), 4 + (before == 3))


def test_a_hand_another_connection_stored_meanwhile_is_looked_up_in_the_store(tmp_path: Path) -> None:
    # both connections found the store empty; the other's commit changes SQLite's data_version,
    # so this one's next transaction looks its hands up in the store again (not an IntegrityError)
    db = tmp_path / "s.db"
    with Store(db) as mine, Store(db) as other:
        first = mine.add(checks(range(2)))
        assert (first.new, first.duplicate) == (2, 0)
        other.add(checks(range(1, 4)))
        summary = mine.add(checks(range(6)))
        assert (summary.new, summary.duplicate) == (2, 4)
        again = other.add(checks(range(5, 7)))
        assert (again.new, again.duplicate) == (1, 1)
    assert sorted(read_frames(db).hands["hand_id"]) == [str(i) for i in range(7)]
