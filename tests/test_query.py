"""Filters run in SQL on a store select exactly the hands the pandas filters select."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest

from studbook.check import check_paths
from studbook.cli import main
from studbook.filters import Filters, hand_mask, select
from studbook.frames import load
from studbook.query import hand_where, read_selected
from studbook.store import import_results
from test_frames import HandBuilder, showdown_hand, steal_hand

# Two shipped histories: RAZZ, 160 hands at 'Fidelitas IX', $2/$4 USD, 8-max, 2024/03/15
# 01:17:33 ET to 04:50:32 ET (EDT, UTC-4), its 80th hand at 03:01:08 ET (07:01:08Z); and
# STUD8, tournament 3778019413, 117 hands from level I (20/40) to X (800/1600), 8-max, 2024/03/16:
# Hero sits in the first 53 with 1500 chips and busts (-1500 chips).
HISTORIES = Path(__file__).resolve().parent.parent / "histories"
RAZZ = HISTORIES / "HH20240315 Fidelitas IX - $2-$4 Ante $0.40 - USD Limit Razz.txt"
STUD8_TOURNAMENT = HISTORIES / "HH20240316 T3778019413 Limit Stud Hi-Lo $0.98 + $0.12.txt"

FILTERS = [
    Filters.of(),
    Filters.of(kinds=["cash"]), Filters.of(kinds=["tournament"]), Filters.of(kinds=["play-money"]),
    Filters.of(kinds=["cash", "play-money"]),
    Filters.of(since="2024-03-15 03:01:08 America/New_York"), Filters.of(until="2024-03-15T07:01:08Z"),
    Filters.of(since="2024-03-15T07:01:08Z", until="2024-03-16"),
    Filters.of(stakes=["2-4"]), Filters.of(stakes=["200-400", "2-4"]),
    Filters.of(currencies=["USD"]), Filters.of(currencies=["EUR"]), Filters.of(sites=["pokerstars"]),
    Filters.of(sites=["fulltilt"]), Filters.of(table_size="2-6"), Filters.of(table_size="8"),
    Filters.of(variants=["stud8"]), Filters.of(variants=["stud", "razz"], kinds=["cash"], table_size="8"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("query") / "s.db"
    results = [r for f in check_paths([str(RAZZ), str(STUD8_TOURNAMENT)]) for r in f.results]
    play = steal_hand("p1")  # play money at a 6-seat table, in 2024
    play.header = dataclasses.replace(play.header, currency=None, play_money=True, max_seats=6)
    euro = showdown_hand("e1")  # euros, unknown start time
    euro.header = dataclasses.replace(euro.header, currency="EUR", started_utc=None)
    stamped = HandBuilder("x", started=datetime(2015, 6, 1, 12, 0, 0, 250000, tzinfo=timezone.utc))
    stamped.deal("A", "Kd").deal("B", "2c").deal("C", "9h").deal("D", "Qs")
    stamped.act("B", "bring_in", "0.02").act("C", "fold").act("D", "fold").act("A", "fold")
    stamped.returned("B", "0.00").collect("B", "0.04")
    import_results(db, [*results, play.check(), euro.check(), stamped.check()])
    return db


@pytest.mark.parametrize("filters", FILTERS, ids=lambda f: f.describe() or "none")
def test_sql_and_pandas_select_the_same_hands(store: Path, filters: Filters) -> None:
    everything = load(store)
    wanted = set(map(tuple, everything.hands.loc[hand_mask(everything.hands, filters),
                                                 ["site", "hand_id"]].values.tolist()))
    where, params = hand_where(filters)
    in_sql = set(sqlite3.connect(store).execute(f"SELECT site, hand_id FROM hands WHERE {where}",
                                                params).fetchall())
    assert in_sql == wanted
    selected = read_selected(store, filters)
    expected = select(everything, filters)
    for (name, got), (_, want) in zip(selected.tables(), expected.tables()):
        assert len(got) == len(want), name


def test_the_stats_command_reads_a_store_through_sql(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(store), "--player", "Hero", "--tournament", "--format", "csv",
                 "--stats", "hands,net_won"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "pokerstars,Hero,stud8,tournament,,53,-1500"]  # tournament chips, whole
    # a player filtered away is not unknown; a name not in the store is
    assert main(["stats", "--db", str(store), "--player", "Hero", "--play-money"]) == 0
    assert "no hands match" in capsys.readouterr().out
    assert main(["stats", "--db", str(store), "--player", "HERO"]) == 2
    assert "did you mean Hero?" in capsys.readouterr().err



@pytest.mark.parametrize("filters", [Filters.of(), Filters.of(variants=["stud8", "razz"])],
                         ids=lambda f: f.describe() or "none")
def test_a_selection_reads_each_table_when_first_used_and_keeps_its_hands(tmp_path: Path,
                                                                          filters: Filters) -> None:
    """Only ``hands`` is read at once; the other tables come when used, with the rows of
    exactly those hands, even when more hands are imported in between (a ``watch``)."""
    files = sorted(str(p) for p in HISTORIES.glob("*.txt"))
    first, later = files[:-2], files[-2:]
    db = tmp_path / "h.db"
    import_results(db, [r for f in check_paths(first) for r in f.results])
    selected = read_selected(db, filters)
    assert selected.loaded() == ("hands",)
    import_results(db, [r for f in check_paths(later) for r in f.results])  # imported meanwhile
    players = selected.players
    assert selected.loaded() == ("hands", "players")
    expected = select(load(first), filters)
    assert len(selected.hands) == len(expected.hands) > 0
    keys = set(zip(selected.hands["site"].astype(str), selected.hands["hand_id"].astype(str)))
    assert set(zip(players["site"].astype(str), players["hand_id"].astype(str))) == keys
    for (name, got), (_, want) in zip(selected.tables(), expected.tables()):
        assert len(got) == len(want), name
