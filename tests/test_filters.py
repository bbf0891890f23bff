"""The filters every reading command takes (studbook.filters, cli/source.py).

Hand-worked figures on two real PokerStars files (read in place from the corpus):

CASH = PokerStars/7-Stud-USD-0.04-0.08-200911.txt: 11 hands at 'Atalante II', $0.04/$0.08
  USD, 2009/11/26 10:08:43 ET to 10:19:39 ET (EST, UTC-5: 15:08:43Z to 15:19:39Z). Hero
  sits in seat 1 in every hand, is dealt [3d Th As] in the first. Hero's stack at the start
  of each hand: 1.60, 1.57, 1.56, 2.15, 2.12, 2.09, 2.08, 2.07, 1.88, 1.87, 2.46; in the
  last hand Hero posts the ante 0.01, calls 0.02 and folds on 4th: -0.03. Net over the
  file: 2.46 - 1.60 - 0.03 = +0.83 USD = 10.375 big bets.
  Hands 1-5 start before 10:13:30 ET (15:13:30Z): 10:08:43, 10:09:44, 10:10:56, 10:12:11,
  10:13:01; their net: 2.09 - 1.60 = +0.49 USD.

TOURNAMENT = PokerStars/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt: one HORSE stud8
  hand of tournament 3540610518, level V (200/400): Hero posts the ante 40 all-in and
  collects 160 + 160: net +280 chips, 280 / 400 = 0.7 big bets.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pandas as pd
import pytest

from studbook.cli import main
from studbook.filters import (
    FilterError, Filters, find_hero, game_kind, parse_stakes, parse_when, select, suggest,
)
from studbook.frames import Frames, frames_from_checks, load
from studbook.stats import compute
from test_frames import HandBuilder, showdown_hand, steal_hand

CASH = "PokerStars/7-Stud-USD-0.04-0.08-200911.txt"
TOURNAMENT = "PokerStars/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt"
HISTORIES = Path(__file__).resolve().parents[1] / "histories"
DORADO = HISTORIES / "HH20240309 Dorado III - $10-$20 Ante $2 - USD Limit Stud.txt"


@pytest.fixture(scope="module")
def both(corpus: Path) -> Frames:
    return load([corpus / CASH, corpus / TOURNAMENT])


def _hero_row(frames: Frames, filters: Filters) -> pd.Series:
    table = compute(frames, filters=filters, stats=["hands", "net_won", "net_won_bb"])
    rows = table[table["player"] == "Hero"]
    assert len(rows) == 1, rows
    return rows.iloc[0]


def test_cash_and_tournament_are_told_apart(both: Frames) -> None:
    cash = _hero_row(both, Filters.of(kinds=["cash"]))
    assert (cash["hands"], cash["net_won"], cash["currency"]) == (11, 0.83, "USD")
    assert cash["net_won_bb"] == pytest.approx(10.375)
    tour = _hero_row(both, Filters.of(kinds=["tournament"]))
    assert (tour["hands"], tour["net_won"], tour["net_won_bb"]) == (1, 280.0, 0.7)
    assert select(both, Filters.of(kinds=["play-money"])).hands.empty
    assert list(game_kind(both.hands).value_counts().sort_index().items()) == [
        ("cash", 11), ("tournament", 1)]


def test_by_date_with_a_zone(both: Frames) -> None:
    # 10:13:30 ET is 15:13:30 UTC: hands 1-5 of the cash file, net +0.49
    for until in ("2009-11-26 10:13:30 America/New_York", "2009-11-26T15:13:30Z",
                  "2009-11-26 15:13:30"):
        row = _hero_row(both, Filters.of(until=until))
        assert (row["hands"], row["net_won"]) == (5, 0.49), until
    row = _hero_row(both, Filters.of(since="2009-11-26 10:13:30 America/New_York",
                                     until="2009-11-26"))
    assert (row["hands"], row["net_won"]) == (6, 0.34)  # 0.83 - 0.49
    assert select(both, Filters.of(since="2023-02-05")).hands["site"].tolist() == ["pokerstars"]
    assert len(select(both, Filters.of(until="2009-11-25"))) == 0


def test_by_stakes_site_currency_table_size(both: Frames) -> None:
    assert _hero_row(both, Filters.of(stakes=["0.04-0.08"]))["hands"] == 11
    assert _hero_row(both, Filters.of(stakes=["$0.04/$0.08"]))["hands"] == 11
    assert _hero_row(both, Filters.of(stakes=["200-400"]))["hands"] == 1
    assert len(select(both, Filters.of(stakes=["0.50-1"]))) == 0
    assert len(select(both, Filters.of(currencies=["usd"]))) == 11  # chips have no currency
    assert len(select(both, Filters.of(sites=["fulltilt"]))) == 0
    assert len(select(both, Filters.of(sites=["PokerStars"]))) == 12
    assert len(select(both, Filters.of(table_size="2-8"))) == 12
    assert len(select(both, Filters.of(table_size="6"))) == 0
    assert len(select(both, Filters.of(variants=["stud8"]))) == 1


def test_hero_is_the_player_dealt_down_cards() -> None:
    # Dorado III: Hero is seated in all 280 hands and the only one dealt down cards
    assert find_hero(load([DORADO])) == ("Hero", 280)


def test_filters_keep_every_table_consistent() -> None:
    early = steal_hand("1")
    late = HandBuilder("9", started=pd.Timestamp("2024-02-01T00:00Z").to_pydatetime())
    late.deal("A", "Kd").deal("B", "2c").deal("C", "9h").deal("D", "Qs")
    late.act("B", "bring_in", "0.02").act("C", "fold").act("D", "fold").act("A", "fold")
    late.returned("B", "0.00").collect("B", "0.04")
    frames = frames_from_checks([early.check(), late.check(), showdown_hand("2").check()])
    kept = select(frames, Filters.of(since="2024-01-15"))
    assert kept.hands["hand_id"].tolist() == ["9"]
    for name, table in kept.tables():
        if name != "rejects" and len(table):
            assert set(table["hand_id"]) == {"9"}, name


def test_values_that_do_not_read() -> None:
    assert parse_stakes("0.50-1") == (50, 100)
    assert parse_when("2024-03-02", end=True) == pd.Timestamp("2024-03-03T00:00Z")
    assert parse_when("2024-03-02 18:30 Europe/Berlin") == pd.Timestamp("2024-03-02T17:30Z")
    for bad in (dict(stakes=["cheap"]), dict(since="yesterday-ish"), dict(kinds=["ring"]),
                dict(table_size="8-2"), dict(since="2024-01-01 10:00 Mars/Olympus")):
        with pytest.raises(FilterError):
            Filters.of(**bad)  # type: ignore[arg-type]


def test_suggestions() -> None:
    assert suggest("hero", ["Hero", "Villain"]) == "Hero"
    assert suggest("Villian", ["Hero", "Villain"]) == "Villain"
    assert suggest("Nobody", ["Hero", "Villain"]) is None


# ---------------------------------------------------------------------------
# the CLI: the same filters on every command


def test_stats_cli_takes_the_filters(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(corpus / CASH), str(corpus / TOURNAMENT)]
    assert main(["stats", *paths, "--player", "Hero", "--cash", "--format", "csv",
                 "--stats", "hands,net_won"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("pokerstars,Hero,stud,") and out[1].endswith(",11,0.83")
    assert main(["stats", *paths, "--player", "Hero", "--tournament", "--format", "csv",
                 "--stats", "hands,net_won"]) == 0
    assert capsys.readouterr().out.splitlines()[1].endswith(",1,280")  # tournament chips, whole
    assert main(["stats", *paths, "--stakes", "cheap"]) == 2
    assert "--stakes 'cheap'" in capsys.readouterr().err


def test_min_hands_filters_whatever_stats_select(capsys: pytest.CaptureFixture[str]) -> None:
    # The seat lines of the shipped Dorado III file (280 hands): Hero sits in all 280,
    # AceToFive in 168, OldSchool Stud in 156, count de monet in 124, the others in fewer.
    # --min-hands applies without 'hands' in --stats.
    assert main(["stats", str(DORADO), "--min-hands", "150", "--stats", "vpip", "--format", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "site,player,variant,kind,currency,vpip,vpip_n"
    assert [r.split(",")[1] for r in rows[1:]] == ["AceToFive", "Hero", "OldSchool Stud"]


def test_unknown_player_is_one_rule_with_a_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(HISTORIES / "HH20240315 Fidelitas IX - $2-$4 Ante $0.40 - USD Limit Razz.txt")  # cash, Hero in all
    assert main(["stats", path, "--player", "hero"]) == 2
    assert "no hands for player hero (did you mean Hero?)" in capsys.readouterr().err
    assert main(["plot", "results", path, "--player", "hero", "-o",
                 str(tmp_path / "x.png")]) == 2
    assert "did you mean Hero?" in capsys.readouterr().err
    # a known player whose hands the filters leave out: no hands match, not an error
    assert main(["stats", path, "--player", "Hero", "--tournament"]) == 0
    assert "no hands match" in capsys.readouterr().out


def test_opponents_hud_and_sort(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The seat lines of the cash file: MasterTrini1, Nikolay Zem and trs2758 sit in all 11
    # hands with Hero, RoadDevil in 10, rv2020 in 7, danjr655 in 3, Trackr21 and totof51 in 2.
    path = str(corpus / CASH)
    assert main(["stats", path, "--opponents"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("hero: Hero")
    assert out[1].split() == ["site", "player", "variant", "VPIP", "%", "Compl/raise", "3rd", "%", "3-bet",
                              "3rd", "%", "Fold", "3rd", "vs", "compl/raise", "%", "Steal", "%", "BI", "fold",
                              "vs", "steal", "%", "Fold", "to", "4th", "bet", "%", "AFq", "4th-7th", "%", "WTSD",
                              "%", "Hands"]
    assert [line.split()[-1] for line in out[2:]] == ["11", "11", "11", "10", "7", "3", "2", "2"]
    assert main(["stats", path, "--opponents", "--format", "csv"]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("hero: Hero")
    rows = list(csv.DictReader(io.StringIO(captured.out)))
    assert {r["player"]: int(r["hands"]) for r in rows} == {
        "MasterTrini1": 11, "Nikolay Zem": 11, "trs2758": 11, "RoadDevil": 10, "rv2020": 7,
        "danjr655": 3, "Trackr21": 2, "totof51": 2}
    assert set(rows[0]) == {"site", "player", "variant", "vpip", "vpip_n", "complete_raise_3rd",
                            "complete_raise_3rd_n", "three_bet_3rd", "three_bet_3rd_n", "fold_to_3rd_aggression",
                            "fold_to_3rd_aggression_n", "steal_attempt", "steal_attempt_n",
                            "bring_in_fold_to_steal", "bring_in_fold_to_steal_n", "fold_to_4th_bet",
                            "fold_to_4th_bet_n", "afq_post", "afq_post_n", "went_to_showdown",
                            "went_to_showdown_n", "hands"}
    assert main(["stats", path, "--format", "csv", "--sort", "vpip", "--stats", "vpip"]) == 0
    vpip = [float(r["vpip"]) for r in csv.DictReader(io.StringIO(capsys.readouterr().out))]
    assert vpip == sorted(vpip, reverse=True) and len(vpip) == 9
    assert main(["stats", path, "--sort", "nope"]) == 2
    assert "--sort nope: not a column" in capsys.readouterr().err
