"""Stats over a store read a chunk of hands at a time equal the stats of the whole frames."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from studbook import store as store_module
from studbook.cli import main
from studbook.frames import SCHEMA, load
from studbook.stats import combine_sums, compute, finish, sums
from studbook.store import Store, StoreError

ROOT = Path(__file__).resolve().parents[1]
HISTORIES = ROOT / "histories"


@pytest.fixture(scope="module")
def histories_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("chunks") / "h.db"
    assert main(["import", str(HISTORIES), "--db", str(db), "-q"]) == 0
    return db


def _stats(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(["stats", *args]) == 0
    return capsys.readouterr().out


OPTIONS = [
    ["--format", "csv"],
    ["--format", "csv", "--variant", "razz", "--min-hands", "20"],
    ["--format", "json", "--player", "Hero", "--since", "2024-03-05", "--starting-hands"],
    ["--min-hands", "300", "--sort", "bb_per_100"],
]


OPPONENTS = [  # --opponents: the hero found, or named, then their opponents' HUD rows
    ["--opponents", "--format", "csv", "--variant", "stud8", "--sort", "vpip"],
    ["--opponents", "--player", "smokey", "--since", "2024-03-05"],
    ["--opponents", "--format", "json", "--hero", "Böse Sieben", "--min-hands", "50"],
]


@pytest.mark.parametrize("options", OPTIONS + OPPONENTS, ids=lambda o: " ".join(o))
def test_store_in_small_chunks_equals_the_files_read_whole(histories_db, capsys, monkeypatch, options) -> None:
    # hundreds of chunks, cut anywhere (--opponents reads the store three times: fewer)
    monkeypatch.setattr(store_module, "CHUNK_HANDS", 41 if "--opponents" in options else 7)
    chunked = _stats(capsys, "--db", str(histories_db), *options)
    whole = _stats(capsys, str(HISTORIES), *options)
    assert chunked.count("\n") > 1
    if "csv" not in options and "json" not in options:
        assert chunked == whole  # the text table's rounded figures
        return
    # float sums (the *_bb columns) are added in another order: equal to 1e-9
    read = pd.read_json if "json" in options else pd.read_csv
    pd.testing.assert_frame_equal(read(io.StringIO(chunked)), read(io.StringIO(whole)),
                                  check_exact=False, rtol=1e-9)


def test_opponents_of_a_store_never_read_a_whole_table(histories_db, capsys, monkeypatch) -> None:
    # --opponents reads the store a chunk at a time, as the other stats do: bounded memory
    def whole(*args: object, **kw: object) -> None:
        raise AssertionError("a whole table read")

    monkeypatch.setattr(Store, "read_table", whole)
    monkeypatch.setattr(store_module, "CHUNK_HANDS", 50)
    out = _stats(capsys, "--db", str(histories_db), "--opponents").splitlines()
    assert out[0].startswith("hero: Hero (dealt down cards in ")
    assert len(out) > 3 and all("Hero " not in line for line in out[2:])  # the hero is no opponent of theirs


def test_chunks_hold_whole_hands_and_every_row(histories_db) -> None:
    frames = load(histories_db)
    with Store(histories_db, create=False) as store:
        chunks = list(store.hand_chunks(("hands", "players", "actions", "pots"), hands=50))
    assert len(chunks) == -(-len(frames.hands) // 50)
    for chunk in chunks:
        keys = set(zip(chunk["hands"]["site"], chunk["hands"]["hand_id"]))
        for table in ("players", "actions", "pots"):
            assert set(zip(chunk[table]["site"], chunk[table]["hand_id"])) <= keys
    for table in ("hands", "players", "actions", "pots"):
        got = pd.concat([c[table].astype(str) for c in chunks], ignore_index=True)
        pd.testing.assert_frame_equal(got, getattr(frames, table).astype(str).reset_index(drop=True))


def test_sums_of_parts_add_up_to_the_whole(histories_db) -> None:
    frames = load(histories_db)
    hands = frames.hands
    halves = [frames.of_hands(hands.iloc[::2]), frames.of_hands(hands.iloc[1::2])]
    for split_money in (True, False):
        whole = compute(frames, split_money=split_money, denominators=True)
        parts = finish(combine_sums(sums(f, split_money=split_money) for f in halves),
                       split_money=split_money, denominators=True)
        pd.testing.assert_frame_equal(parts, whole, check_exact=False, rtol=1e-12)


def test_rows_out_of_hand_order_are_refused(histories_db, tmp_path, capsys, monkeypatch) -> None:
    db = tmp_path / "moved.db"
    db.write_bytes(histories_db.read_bytes())
    names = ", ".join(f'"{c.name}"' for c in SCHEMA["players"])
    with sqlite3.connect(db) as conn:  # the first hand's first player row moved to the end
        row = conn.execute(f"SELECT {names} FROM players ORDER BY rowid LIMIT 1").fetchone()
        conn.execute("DELETE FROM players WHERE rowid = (SELECT min(rowid) FROM players)")
        conn.execute(f"INSERT INTO players ({names}) VALUES ({', '.join('?' * len(row))})", row)
    monkeypatch.setattr(store_module, "CHUNK_HANDS", 40)
    with Store(db, create=False) as store, pytest.raises(StoreError, match="not in the order of their hands"):
        list(store.hand_chunks(("hands", "players")))
    capsys.readouterr()
    assert main(["stats", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "not in the order of their hands" in err and "Traceback" not in err
