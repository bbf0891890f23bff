"""Stats over a store read a chunk of hands at a time equal the stats of the whole frames."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from studbook.store import read as store_read
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
    monkeypatch.setattr(store_read, "CHUNK_HANDS", 41 if "--opponents" in options else 7)
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
    monkeypatch.setattr(store_read, "CHUNK_HANDS", 50)
    out = _stats(capsys, "--db", str(histories_db), "--opponents").splitlines()
    assert out[0].startswith("hero: Hero (marked by the log as its own player in ")
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
    monkeypatch.setattr(store_read, "CHUNK_HANDS", 40)
    with Store(db, create=False) as store, pytest.raises(StoreError, match="not in the order of their hands"):
        list(store.hand_chunks(("hands", "players")))
    capsys.readouterr()
    assert main(["stats", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "not in the order of their hands" in err and "Traceback" not in err


# A hand in which nobody acts: the one player left against a tournament's chip leader
# goes all-in on the ante, and the cards are dealt out. Its players have no 3rd-street
# action row, so a chunk's actions know nothing of its hand id.
NO_ACTION_HAND = """\
PokerStars Hand #900000000001: Tournament #900000001, $0.98+$0.12 USD 7 Card Stud Limit - Level XI (1000/2000) - 2024/03/23 19:46:07 ET
Table '900000001 1' 8-max
Seat 3: Leader (8870 in chips)
Seat 7: Short (130 in chips)
Leader: posts the ante 200
Short: posts the ante 130 and is all-in
*** 3rd STREET ***
Dealt to Leader [Jc]
Dealt to Short [2h]
*** 4th STREET ***
Dealt to Leader [Jc] [4d]
Dealt to Short [2h] [2s]
*** 5th STREET ***
Dealt to Leader [Jc 4d] [2c]
Dealt to Short [2h 2s] [6c]
*** 6th STREET ***
Dealt to Leader [Jc 4d 2c] [3s]
Dealt to Short [2h 2s 6c] [4h]
*** RIVER ***
*** SHOW DOWN ***
Leader: shows [3h 5d Jc 4d 2c 3s 8h] (a pair of Threes)
Leader collected 70 from side pot
Short: shows [7d As 2h 2s 6c 4h Jh] (a pair of Deuces)
Leader collected 260 from main pot
Short finished the tournament in 2nd place
Leader wins the tournament and receives $5.88 - congratulations!
*** SUMMARY ***
Total pot 330 Main pot 260. Side pot 70. | Rake 0
Seat 3: Leader showed [3h 5d Jc 4d 2c 3s 8h] and won (330) with a pair of Threes
Seat 7: Short showed [7d As 2h 2s 6c 4h Jh] and lost with a pair of Deuces
"""


@pytest.mark.parametrize("chunk", [1, 3, 40])
def test_a_hand_nobody_acts_in_is_counted_in_any_chunk(tmp_path, capsys, monkeypatch, chunk) -> None:
    """The hand's players join no 3rd-street action row: stats over the store, in chunks
    that hold that hand alone or with others, equal the stats of the files (once,
    two players of such a hand made one key and stopped `stats --db` with a traceback)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "no-action.txt").write_text(NO_ACTION_HAND, encoding="utf-8")
    tournament = next(HISTORIES.glob("*T3761643380*.txt"))
    (folder / tournament.name).write_bytes(tournament.read_bytes())
    db = tmp_path / "s.db"
    assert main(["import", str(folder), "--db", str(db), "-q"]) == 0
    frames = load(db)
    assert not ((frames.actions["hand_id"] == "900000000001") & (frames.actions["street"] == 3)).any()
    assert (frames.players["hand_id"] == "900000000001").sum() == 2
    monkeypatch.setattr(store_read, "CHUNK_HANDS", chunk)
    for options in (["--format", "csv"], ["--format", "csv", "--opponents", "--hero", "Leader"]):
        chunked = _stats(capsys, "--db", str(db), *options)
        whole = _stats(capsys, str(folder), *options)
        pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(chunked)), pd.read_csv(io.StringIO(whole)),
                                      check_exact=False, rtol=1e-9)
        assert "Leader" in chunked or "--opponents" in options


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("123")), max_size=12),
       st.lists(st.tuples(st.sampled_from("abcd"), st.sampled_from("1234")), max_size=12, unique=True))
def test_positions_of_keys_as_a_lookup_gives_them(left_keys, right_keys) -> None:
    """The join's row finder on the frames' categorical keys answers as a dict of the
    right rows' keys does: a left row's right row, or -1; right keys that left's
    categories do not hold (the players of a hand with no left row) find nothing."""
    from studbook.stats import _positions

    left = pd.DataFrame(left_keys, columns=["hand_id", "player"], dtype="category")
    right = pd.DataFrame(right_keys, columns=["hand_id", "player"], dtype="string")
    where = {key: at for at, key in enumerate(right_keys)}
    assert _positions(left, right, ["hand_id", "player"]).tolist() == [where.get(key, -1) for key in left_keys]
