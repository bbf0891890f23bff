"""Stud statistics on small hands whose values are worked out by hand below.

The two shared hands (see test_frames.py):

steal_hand: doors A Kd, B 2c (brings in), C 9h, D Qs. 3rd: B brings in, C folds,
  D completes, A folds, B calls. 4th: B checks, D bets, B folds. D wins 0.12
  without showdown. Nets A -0.01, B -0.05, C -0.01, D +0.07.
  C and D are within the last three seats to act (C has D, A behind; D has A)
  and both doors beat the 2: C had a steal chance and folded, D stole; B
  defended by calling. A acted after the steal attempt: no chance.

showdown_hand (rake 0.03): doors A Ks, B Jd, C 3c (brings in). 3rd: C brings in,
  A completes (a steal chance: one player behind, K > 3; attempted), B calls
  (so C's next action is no steal defence), C calls. 4th: A bets, B raises, C
  folds, A calls. 5th-7th: A bets, B calls. A wins at showdown.
  Nets A +0.39, B -0.37, C -0.05. A's start: Kh 7c / Ks = split pair.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pandas as pd
import pytest

from studbook.frames import Frames, frames_from_checks, load
from studbook.stats import (
    BY_NAME, STATS, by_starting_hand, compute, facts, stat_definitions_markdown,
)
from test_frames import HandBuilder, showdown_hand, steal_hand
from samples import CORPUS


@pytest.fixture(scope="module")
def two_hands() -> pd.DataFrame:
    frames = frames_from_checks([steal_hand("1").check(), showdown_hand("2").check(rake="0.03")])
    return compute(frames).set_index("player")


def test_vpip(two_hands: pd.DataFrame) -> None:
    # A: folded on 3rd in hand 1, completed in hand 2 -> 1/2
    # B: bring-in then called the completion (voluntary) in hand 1, called in hand 2 -> 2/2
    # C: folded in hand 1; brought in then called the completion in hand 2 -> 1/2
    # D: completed -> 1/1
    assert two_hands["vpip"].to_dict() == {"A": 50.0, "B": 100.0, "C": 50.0, "D": 100.0}


def test_bring_in_who_only_posts_is_not_vpip() -> None:
    # A brings in and everyone folds: A acted on 3rd street but put in nothing voluntarily.
    b = HandBuilder("f", {"A": "1", "B": "1", "C": "1"})
    b.deal("A", "2c").deal("B", "9d").deal("C", "Th")
    b.act("A", "bring_in", "0.02").act("B", "fold").act("C", "fold")
    b.returned("A", "0.00").collect("A", "0.05")
    result = compute(frames_from_checks([b.check()])).set_index("player")
    assert result.loc["A", "vpip"] == 0.0 and result.loc["A", "hands"] == 1
    # and it is a won-without-showdown hand for A: 1 of 1 hands dealt
    assert result.loc["A", "won_without_showdown"] == 100.0
    # B (behind = 1) and C (behind = 0) had steal chances (9 and T beat the 2), took none
    assert result.loc["B", "steal_attempt"] == 0.0 and result.loc["C", "steal_attempt"] == 0.0
    # A faced no steal: no bring-in defence value
    assert math.isnan(result.loc["A", "bring_in_fold_to_steal"])


def test_complete_raise_3rd(two_hands: pd.DataFrame) -> None:
    # A completed in hand 2 only (1/2); B never; C never; D completed (1/1)
    assert two_hands["complete_raise_3rd"].to_dict() == {"A": 50.0, "B": 0.0, "C": 0.0,
                                                          "D": 100.0}


def test_steals(two_hands: pd.DataFrame) -> None:
    # A: chance only in hand 2, attempted -> 100; B: never had a chance (bring-in in
    # hand 1, acted after A's attempt in hand 2) -> NaN; C: one chance, folded -> 0;
    # D: one chance, attempted -> 100
    steal = two_hands["steal_attempt"]
    assert steal["A"] == 100.0 and math.isnan(steal["B"])
    assert steal["C"] == 0.0 and steal["D"] == 100.0


def test_bring_in_defence(two_hands: pd.DataFrame) -> None:
    # B faced D's steal in hand 1 and called: call 1/1. In hand 2 B called after A's
    # completion, so C's call was no defence against a pure steal: C has no spot.
    b = two_hands.loc["B"]
    assert (b.bring_in_fold_to_steal, b.bring_in_call_steal, b.bring_in_reraise_steal) == (
        0.0, 100.0, 0.0)
    assert math.isnan(two_hands.loc["C", "bring_in_call_steal"])


def test_steal_only_from_the_last_three_seats_and_bring_in_folds() -> None:
    # Six players, P1 brings in with the 2c. P2 (4 players behind) and P3 (3 behind) are
    # too early; P4 (2 behind) folds its chance; P5 (1 behind) completes: an attempt;
    # P6 folds; P1 folds to the steal.
    names = {f"P{i}": "1" for i in range(1, 7)}
    b = HandBuilder("six", names)
    for name, door in zip(names, ["2c", "Ks", "Qs", "Js", "Ts", "9s"]):
        b.deal(name, door)
    b.act("P1", "bring_in", "0.02")
    for name in ("P2", "P3", "P4"):
        b.act(name, "fold")
    b.act("P5", "complete", to="0.04").act("P6", "fold").act("P1", "fold")
    b.returned("P5", "0.02").collect("P5", "0.10")
    table = facts(frames_from_checks([b.check()])).set_index("player")
    assert table["steal_chance"].to_dict() == {"P1": 0, "P2": 0, "P3": 0, "P4": 1, "P5": 1,
                                               "P6": 0}
    assert table["steal"].sum() == 1 and table.loc["P5", "steal"] == 1
    assert (table.loc["P1", "bi_vs_steal"], table.loc["P1", "bi_fold"]) == (1, 1)


def test_door_must_outrank_the_bring_in() -> None:
    # Stud: B's door 2d ties the bring-in's 2c in rank: no chance. C's 3h outranks it.
    b = HandBuilder("tie", {"A": "1", "B": "1", "C": "1"})
    b.deal("A", "2c").deal("B", "2d").deal("C", "3h")
    b.act("A", "bring_in", "0.02").act("B", "fold").act("C", "complete", to="0.04")
    b.act("A", "fold").returned("C", "0.02").collect("C", "0.07")
    table = facts(frames_from_checks([b.check()])).set_index("player")
    assert (table.loc["B", "steal_chance"], table.loc["C", "steal_chance"]) == (0, 1)


def test_razz_steal_uses_low_ranks_and_reraise_defence() -> None:
    # Razz: the K brings in. B's 7 (behind = 1) beats it and folds; C's Q (behind = 0)
    # is lower than the K, so completing is a steal; A re-raises: a re-raise defence.
    b = HandBuilder("razz", {"A": "1", "B": "1", "C": "1"}, variant="razz")
    b.deal("A", "Kh").deal("B", "7c").deal("C", "Qd")
    b.act("A", "bring_in", "0.02").act("B", "fold").act("C", "complete", to="0.04")
    b.act("A", "raise", "0.04", to="0.08").act("C", "fold")
    b.returned("A", "0.04").collect("A", "0.11")
    result = compute(frames_from_checks([b.check()])).set_index("player")
    assert result.loc["B", "steal_attempt"] == 0.0 and result.loc["C", "steal_attempt"] == 100.0
    assert result.loc["A", "bring_in_reraise_steal"] == 100.0
    assert (result["variant"] == "razz").all()


def test_aggression_per_street(two_hands: pd.DataFrame) -> None:
    a, b = two_hands.loc["A"], two_hands.loc["B"]
    # A on 4th: bet, call -> AF 1/1 = 1.0, AFq 1/2 = 50 %; 5th: bet, no call -> AF undefined
    assert a.af_4th == 1.0 and a.afq_4th == 50.0
    assert math.isnan(a.af_5th) and a.afq_5th == 100.0
    # A over 4th-7th: 4 bets, 1 call -> AF 4.0; AFq 4 / 5 = 80 %
    assert a.af_post == 4.0 and a.afq_post == pytest.approx(80.0)
    # B: hand 1 checked then folded on 4th, hand 2 raised: AFq 4th 1/2; 5th-7th three calls
    assert b.afq_4th == 50.0 and b.af_5th == 0.0 and b.af_post == pytest.approx(1 / 3)


def test_showdown_stats(two_hands: pd.DataFrame) -> None:
    # A saw 4th in hand 2 only and won that showdown; B saw 4th twice, one showdown, lost
    assert (two_hands.loc["A", "went_to_showdown"], two_hands.loc["A", "won_at_showdown"]) == (
        100.0, 100.0)
    assert (two_hands.loc["B", "went_to_showdown"], two_hands.loc["B", "won_at_showdown"]) == (
        50.0, 0.0)
    # D won hand 1 uncontested on 4th: 1 of 1 hands; A none of 2
    assert two_hands.loc["D", "won_without_showdown"] == 100.0
    assert two_hands.loc["A", "won_without_showdown"] == 0.0


def test_money(two_hands: pd.DataFrame) -> None:
    # A: -0.01 + 0.39 = 0.38 exactly; in big bets (0.08): -1/8 + 39/8 = 4.75
    a = two_hands.loc["A"]
    assert a.net_won == 0.38 and a.currency == "USD"  # float64 whole units, summed in cents
    assert a.net_won_bb == pytest.approx(4.75)
    assert a.bb_per_100 == pytest.approx(4.75 / 2 * 100)
    assert a.showdown_won_bb == pytest.approx(39 / 8)
    assert a.non_showdown_won_bb == pytest.approx(-1 / 8)
    assert two_hands.loc["B", "net_won"] == -0.42
    assert two_hands["hands"].to_dict() == {"A": 2, "B": 2, "C": 2, "D": 1}


def test_mixed_currencies_have_no_money_total() -> None:
    chips = steal_hand("3")
    chips.header = chips.header.__class__(**{**{f: getattr(chips.header, f) for f in (
        "site", "hand_id", "variant", "structure", "game", "stakes", "table")},
        "currency": None})
    frames = frames_from_checks([steal_hand("1").check(), chips.check()])
    result = compute(frames, split_money=False).set_index("player")
    assert result.loc["D", "currency"] == "mixed" and math.isnan(result.loc["D", "net_won"])
    assert result.loc["D", "net_won_bb"] == pytest.approx(14 / 8)
    # split (the default): one row per money, each with its own net (D +0.07 in each hand);
    # a pokerstars cash game whose log names no currency is in an unknown currency (NA)
    split = compute(frames, player="D", stats=["hands", "net_won"])
    assert split[["kind", "currency", "hands", "net_won"]].astype(object).values.tolist() == [
        ["cash", "USD", 1, 0.07], ["cash", pd.NA, 1, 0.07]]


def test_filters_and_groups() -> None:
    frames = frames_from_checks([steal_hand("1").check(), showdown_hand("2").check()])
    only = compute(frames, player="A")
    assert only["player"].tolist() == ["A"]
    assert compute(frames, variant="razz").empty
    assert compute(frames, min_hands=2)["player"].tolist() == ["A", "B", "C"]


def test_by_starting_hand() -> None:
    # A's starts: hand 1 Ah 2d / Kd -> high cards (A, K); hand 2 Kh 7c / Ks -> split pair.
    frames = frames_from_checks([steal_hand("1").check(), showdown_hand("2").check(rake="0.03")])
    table = by_starting_hand(frames).set_index("start_class")
    assert table["player"].unique().tolist() == ["A"]  # only A's cards are known
    assert table.loc["split pair", "net_won_bb"] == pytest.approx(39 / 8)
    assert table.loc["high cards", "vpip"] == 0.0
    assert table["hands"].sum() == 2


def test_registry_is_complete_and_documented() -> None:
    names = [stat.name for stat in STATS]
    assert len(names) == len(set(names)) == len(BY_NAME)
    for stat in STATS:
        assert len(stat.doc) > 20, stat.name
    text = stat_definitions_markdown()
    assert all(f"`{name}`" in text for name in names)


def test_empty_frames() -> None:
    assert compute(frames_from_checks([])).empty


# ---------------------------------------------------------------------------
# `studbook stats`


@pytest.fixture()
def db(tmp_path):
    from studbook.store import import_results

    path = tmp_path / "s.db"
    import_results(path, [steal_hand("1").check(), showdown_hand("2").check(rake="0.03")])
    return path


def test_stats_cli_text(db, capsys) -> None:
    from studbook.cli import main

    assert main(["stats", "--db", str(db), "--player", "A"]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header.split()[:7] == ["site", "player", "variant", "kind", "currency", "Hands", "VPIP"]
    # each percentage with its sample size: A acted on 3rd in 2 hands, had 1 steal chance,
    # saw 4th in 2 hands (WTSD 1 of 2), reached 1 showdown and won it
    cells = row.split()
    assert cells[:8] == ["pokerstars", "A", "stud", "cash", "USD", "2", "50.0", "(2)"]
    assert "100.0 (1)" in row and "50.0 (2)" in row and "0.38 USD" in row
    assert main(["stats", "--db", str(db), "--player", "A", "--stats", "af_5th,afq_5th"]) == 0
    # no calls on 5th: no value, over 0 opportunities; A's one act on 5th was a bet (1 of 1)
    assert capsys.readouterr().out.splitlines()[1].split() == ["pokerstars", "A", "stud", "cash", "USD",
                                                                "-", "(0)", "100.0", "(1)"]


def test_stats_cli_csv_and_json(db, capsys) -> None:
    import csv
    import io
    import json

    from studbook.cli import main

    assert main(["stats", "--db", str(db), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["player"] for r in rows] == ["A", "B", "C", "D"]
    assert rows[0]["net_won"] == "0.38" and rows[1]["steal_attempt"] == ""
    assert rows[1]["steal_attempt_n"] == "0" and rows[0]["vpip_n"] == "2"
    assert main(["stats", "--db", str(db), "--format", "json", "--stats", "hands,vpip"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0] == {"site": "pokerstars", "player": "A", "variant": "stud", "kind": "cash",
                       "currency": "USD", "hands": 2, "vpip": 50.0, "vpip_n": 2}


def test_stats_cli_starting_hands_and_list(db, capsys) -> None:
    from studbook.cli import main

    assert main(["stats", "--db", str(db), "--starting-hands", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert "split pair" in out and "high cards" in out
    assert main(["stats", "--list"]) == 0
    assert "bring_in_fold_to_steal" in capsys.readouterr().out


def test_stats_cli_usage_errors(db, tmp_path, capsys) -> None:
    from studbook.cli import main

    assert main(["stats"]) == 2
    assert main(["stats", "--db", str(db), str(tmp_path)]) == 2
    assert main(["stats", "--db", str(tmp_path / "none.db")]) == 2
    assert main(["stats", "--db", str(db), "--stats", "nope"]) == 2
    assert "unknown statistic nope" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# FPDB's named steal scenarios (real Full Tilt hands, read in place). Worked out
# from each file's 3rd street: "behind" counts the players still to act before
# the bring-in; a chance needs behind <= 2 and a door above the bring-in's.

FULLTILT = CORPUS / "FullTilt"
STEAL_FILES = {
    # bring-in thebear666 (7s); goulartarm Qs (behind 2) and Hero Th (behind 1) fold
    # their chances; arjun1111 As (behind 0) completes; the bring-in calls.
    "Steal.from.Button.Failure": ({"goulartarm": 0, "Hero": 0, "arjun1111": 1},
                                  ("thebear666", "call")),
    # bring-in goulartarm (2c); bllodshot 9c (behind 2) folds, kwuiyhw Kc (behind 1)
    # completes, chasrigg folds, the bring-in folds.
    "Steal.from.CO.Success": ({"bllodshot": 0, "kwuiyhw": 1}, ("goulartarm", "fold")),
    # bring-in shasatipu (3c); three fold (behind 5, 4, 3: too early); Hero As (behind 2)
    # completes; arjun1111 calls, so the bring-in faces no pure steal.
    "Steal.from.HJ.Failure-3bet.by.button": ({"Hero": 1}, None),
    # bring-in kwuiyhw (4c); four fold early (behind 6..3); thebear666 Ac (behind 2)
    # completes; FILL A RACK folds, bllodshot calls: no pure steal for the bring-in.
    "Steal.from.HJ.Failure": ({"thebear666": 1}, None),
    # bring-in goulartarm (3s); four fold early; bllodshot Qc (behind 2) completes;
    # kwuiyhw and chasrigg fold; the bring-in folds.
    "Steal.from.HJ.Success": ({"bllodshot": 1}, ("goulartarm", "fold")),
}


@pytest.mark.parametrize("name", STEAL_FILES)
def test_fpdb_steal_scenarios(name: str) -> None:
    path = FULLTILT / f"7-Stud-USD-3-6-20106.{name}.txt"
    if not path.is_file():
        pytest.skip(f"corpus file not found: {path}")
    frames = load([path])
    if frames.hands.empty:
        pytest.skip(f"{path.name} is not parsed yet: {frames.rejects['reason'].tolist()}")
    table = facts(frames).set_index("player")
    chances, defence = STEAL_FILES[name]
    assert table[table["steal_chance"] > 0]["steal"].to_dict() == chances
    spots = table[table["bi_vs_steal"] > 0]
    if defence is None:
        assert spots.empty
    else:
        player, answer = defence
        assert spots.index.tolist() == [player]
        assert spots.loc[player, f"bi_{answer}"] == 1


# ---------------------------------------------------------------------------
# The stud stats players expect, worked by hand on real corpus hands (read in place)

CORPUS = FULLTILT.parent


def _corpus_facts(name: str, hand_id: str | None = None) -> tuple[pd.DataFrame, Frames]:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"corpus file not found: {path}")
    frames = load([path])
    if hand_id is not None:
        frames = frames.of_hands(frames.hands[frames.hands["hand_id"] == hand_id])
    assert len(frames.hands) == 1, frames.rejects["reason"].tolist()
    return compute(frames, denominators=True).set_index("player"), frames


NEW_STATS = ("fold_to_3rd_aggression", "three_bet_3rd", "bring_in_complete", "fold_to_4th_bet", "saw_4th",
             "saw_5th", "saw_6th", "saw_7th", "saw_showdown", "won_when_saw_4th")


def _worked(table: pd.DataFrame, player: str) -> dict[str, tuple[float, int]]:
    """A player's new stats as (value, opportunities); NaN values as -1 (no opportunity)."""
    row = table.loc[player]
    return {name: (-1.0 if math.isnan(row[name]) else float(row[name]), int(row[f"{name}_n"]))
            for name in NEW_STATS}


def test_new_stats_worked_on_a_pokerstars_3bet_hand() -> None:
    # PokerStars/7-StudHL-USD-400-800-201701.3bet.fix.txt, stud8 $400/$800, rake $2:
    # 3rd: Player0 (Ts) brings in $120 -> opened 3rd with a bring-in, not a completion.
    #      Hero raises to $400: the completion (faces the bring-in alone: no bet faced).
    #      Player0 raises to $800: faces the completion (1 bet faced), does not fold.
    #      Hero raises to $1200: faces completion + raise (2 bets): a 3-bet chance, taken.
    #      Player0 calls facing 3 bets: no 3-bet chance (that was a 4th bet to face).
    # 4th: Hero bets, Player0 faces one bet and calls (fold to 4th bet 0 of 1).
    # 5th: Hero bets, Player0 folds (both saw 5th); nobody sees 6th, 7th or a showdown.
    # Hero collects the whole pot ($3318 after the $2 rake): won when saw 4th 1/1. Both put
    # $1660 in the $3320 pot: each pays half the rake (weighted contributed).
    table, _ = _corpus_facts("PokerStars/7-StudHL-USD-400-800-201701.3bet.fix.txt")
    assert _worked(table, "Hero") == {
        "fold_to_3rd_aggression": (0.0, 1), "three_bet_3rd": (100.0, 1), "bring_in_complete": (-1, 0),
        "fold_to_4th_bet": (-1, 0), "saw_4th": (100.0, 1), "saw_5th": (100.0, 1), "saw_6th": (0.0, 1),
        "saw_7th": (0.0, 1), "saw_showdown": (0.0, 1), "won_when_saw_4th": (100.0, 1)}
    assert _worked(table, "Player0") == {
        "fold_to_3rd_aggression": (0.0, 1), "three_bet_3rd": (-1, 0), "bring_in_complete": (0.0, 1),
        "fold_to_4th_bet": (0.0, 1), "saw_4th": (100.0, 1), "saw_5th": (100.0, 1), "saw_6th": (0.0, 1),
        "saw_7th": (0.0, 1), "saw_showdown": (0.0, 1), "won_when_saw_4th": (0.0, 1)}
    # net: Hero puts in 60 + 1200 + 400 + 800 - 800 returned = 1660 and collects 3318
    assert (table.loc["Hero", "net_won"], table.loc["Hero", "rake_paid"]) == (1658.0, 1.0)
    assert (table.loc["Player0", "net_won"], table.loc["Player0", "rake_paid"]) == (-1660.0, 1.0)


def test_new_stats_worked_on_a_pokerstars_hand_where_the_bring_in_completes() -> None:
    # PokerStars/7-Stud-USD-0.04-0.08-200911.txt, hand 35874081088 (line 149), rake $0.05.
    # Doors: Hero 2s (lowest: must open), Nikolay Zem Ad, trs2758 6h, RoadDevil 4h, MasterTrini1 8h.
    # 3rd: Hero "bets $0.04": the bring-in completes (1 of 1). Nikolay Zem calls, trs2758 folds,
    #      RoadDevil calls: each faces the completion (trs2758 folds to it: 1 of 1).
    #      MasterTrini1 raises (faces the completion); Hero, Nikolay Zem, RoadDevil each face
    #      completion + raise (a 3-bet chance) and call: 0 of 1.
    # 4th: Nikolay Zem and RoadDevil check, MasterTrini1 bets, Hero calls, the two fold:
    #      fold to 4th bet Hero 0/1, Nikolay Zem 1/1, RoadDevil 1/1 (MasterTrini1 faced none).
    # 5th-7th: Hero and MasterTrini1 to a showdown; Hero wins $1.04 of the $1.09 pot.
    # Put in: Hero and MasterTrini1 0.01 + 0.08 + 0.04 + 0.16 + 0.08 + 0.08 = 0.45 each,
    # Nikolay Zem and RoadDevil 0.01 + 0.08 = 0.09, trs2758 the ante 0.01 (total 1.09): the
    # $0.05 rake shared in those proportions.
    table, _ = _corpus_facts("PokerStars/7-Stud-USD-0.04-0.08-200911.txt", "35874081088")
    assert _worked(table, "Hero") == {
        "fold_to_3rd_aggression": (0.0, 1), "three_bet_3rd": (0.0, 1), "bring_in_complete": (100.0, 1),
        "fold_to_4th_bet": (0.0, 1), "saw_4th": (100.0, 1), "saw_5th": (100.0, 1), "saw_6th": (100.0, 1),
        "saw_7th": (100.0, 1), "saw_showdown": (100.0, 1), "won_when_saw_4th": (100.0, 1)}
    assert _worked(table, "trs2758") == {
        "fold_to_3rd_aggression": (100.0, 1), "three_bet_3rd": (-1, 0), "bring_in_complete": (-1, 0),
        "fold_to_4th_bet": (-1, 0), "saw_4th": (0.0, 1), "saw_5th": (0.0, 1), "saw_6th": (0.0, 1),
        "saw_7th": (0.0, 1), "saw_showdown": (0.0, 1), "won_when_saw_4th": (-1, 0)}
    for name in ("Nikolay Zem", "RoadDevil"):
        assert _worked(table, name) == {
            "fold_to_3rd_aggression": (0.0, 1), "three_bet_3rd": (0.0, 1), "bring_in_complete": (-1, 0),
            "fold_to_4th_bet": (100.0, 1), "saw_4th": (100.0, 1), "saw_5th": (0.0, 1), "saw_6th": (0.0, 1),
            "saw_7th": (0.0, 1), "saw_showdown": (0.0, 1), "won_when_saw_4th": (0.0, 1)}, name
    master = _worked(table, "MasterTrini1")
    assert master["three_bet_3rd"] == (-1, 0) and master["fold_to_4th_bet"] == (-1, 0)
    assert master["saw_showdown"] == (100.0, 1) and master["won_when_saw_4th"] == (0.0, 1)
    assert table["rake_paid"].to_dict() == pytest.approx({
        "Hero": 0.05 * 45 / 109, "MasterTrini1": 0.05 * 45 / 109, "Nikolay Zem": 0.05 * 9 / 109,
        "RoadDevil": 0.05 * 9 / 109, "trs2758": 0.05 * 1 / 109})


def test_new_stats_worked_on_a_kingsclub_hand() -> None:
    # KingsClub/7-Stud-USD-44-88-202010.txt (one hand, 44/88, rake 5; the log names no currency).
    # 3rd: Player0 brings in 33.16 (opened with a bring-in: 0 of 1); Player1 folds to the
    #      bring-in alone (no bet faced); Player2 bets 44: the completion; Player3 raises
    #      (faces 1 bet); Player4 raises facing completion + raise: a 3-bet (1 of 1); Hero and
    #      Player0 fold facing 3 bets (fold to 3rd completion/raise 1 of 1, no 3-bet chance);
    #      Player2 and Player3 call.
    # 4th ("3RD STREET" in KingsClub's labels): Player3 bets, Player4 calls, Player2 folds (1/1).
    # 5th-7th: Player3 and Player4 to a showdown; Player3 wins 1294.60 after the rake of 5.
    # Put in (the summary's nets): Player3 1294.60 - 788.28 = 506.32, Player4 506.32, Player2
    # 154.32, Player0 66.32, Player1 and Hero the ante 33.16: 1299.60, the rake shared so.
    table, _ = _corpus_facts("KingsClub/7-Stud-USD-44-88-202010.txt")
    assert _worked(table, "Player4") == {
        "fold_to_3rd_aggression": (0.0, 1), "three_bet_3rd": (100.0, 1), "bring_in_complete": (-1, 0),
        "fold_to_4th_bet": (0.0, 1), "saw_4th": (100.0, 1), "saw_5th": (100.0, 1), "saw_6th": (100.0, 1),
        "saw_7th": (100.0, 1), "saw_showdown": (100.0, 1), "won_when_saw_4th": (0.0, 1)}
    assert _worked(table, "Player2")["fold_to_4th_bet"] == (100.0, 1)
    assert _worked(table, "Player0")["bring_in_complete"] == (0.0, 1)
    for name in ("Hero", "Player0"):
        assert _worked(table, name)["fold_to_3rd_aggression"] == (100.0, 1)
        assert _worked(table, name)["three_bet_3rd"] == (-1, 0)
    assert _worked(table, "Player1")["fold_to_3rd_aggression"] == (-1, 0)
    assert _worked(table, "Player3")["won_when_saw_4th"] == (100.0, 1)
    # money: the site's known currency (the log names none), the summary's net, the rake
    assert (table["currency"] == "USD").all() and (table["kind"] == "cash").all()
    assert table.loc["Player3", "net_won"] == 788.28
    assert table.loc["Player3", "rake_paid"] == pytest.approx(5 * 506.32 / 1299.60)
    assert table["rake_paid"].sum() == pytest.approx(5.0)


# ---------------------------------------------------------------------------
# Money with what it is in; players keyed by site; aliases; names checked


def test_money_says_its_currency_in_text_csv_and_json(tmp_path, capsys) -> None:
    import csv
    import io
    import json

    from studbook.cli import main

    logs = [CORPUS / "KingsClub/7-Stud-USD-44-88-202010.txt",
            Path(__file__).parent / "handmade/betonline/Razz-StudHL-no-currency.txt",
            Path(__file__).resolve().parents[1] / "histories/HH20240316 T3778019413 Limit Stud Hi-Lo $0.98 + $0.12.txt"]
    if not logs[0].is_file():
        pytest.skip(f"corpus file not found: {logs[0]}")
    assert main(["stats", *map(str, logs), "--stats", "hands,net_won"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:5] == ["site", "player", "variant", "kind", "currency"]
    rows = {tuple(line.split()[:2]): line for line in lines[1:]}
    # KingsClub writes no currency: its site's (USD), never "chips"
    assert rows[("kingsclub", "Player3")].split()[2:] == ["stud", "cash", "USD", "1", "788.28", "USD"]
    # a BetOnline log naming none: an unknown currency
    assert rows[("betonline", "Jo")].split()[-4:] == ["1", "1.10", "unknown", "currency"]
    # tournament chips whole where they are whole
    chips = [line for key, line in rows.items() if key[0] == "pokerstars" and "tournament" in line]
    assert chips and all(line.endswith("tournament chips") for line in chips)
    assert not any(".00 tournament chips" in line for line in chips)
    assert "chips" not in "".join(rows[k] for k in rows if k[0] != "pokerstars")
    assert main(["stats", *map(str, logs), "--stats", "hands,net_won", "--format", "csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    by_key = {(r["site"], r["player"]): r for r in table}
    assert by_key[("kingsclub", "Player3")]["currency"] == "USD"
    assert by_key[("betonline", "Jo")]["currency"] == ""  # no value: unknown
    tournament = [r for r in table if r["kind"] == "tournament"]
    assert tournament and all(r["currency"] == "" and "." not in r["net_won"] for r in tournament)
    assert main(["stats", *map(str, logs), "--stats", "hands,net_won", "--format", "json"]) == 0
    data = {(r["site"], r["player"]): r for r in json.loads(capsys.readouterr().out)}
    assert data[("kingsclub", "Player3")]["net_won"] == "788.28"
    assert data[("betonline", "Jo")]["currency"] is None


def test_money_columns_are_numeric_and_missing_currency_is_na() -> None:
    frames = load(Path(__file__).resolve().parents[1] / "histories")
    table = compute(frames, stats=["hands", "net_won", "rake_paid", "net_won_bb"])
    assert table["net_won"].dtype == "float64" and table["rake_paid"].dtype == "float64"
    assert {"net_won", "rake_paid"} <= set(table.corr(numeric_only=True).columns)
    tournament = table[table["kind"] == "tournament"]
    assert len(tournament) and tournament["currency"].isna().all()
    assert not (table["currency"] == "").any()
    # exact: each group's sum of the frames' minor units, in whole units
    hero = table[(table["player"] == "Hero") & (table["kind"] == "cash")]
    players = frames.players.merge(frames.hands[["site", "hand_id", "tournament"]], on=["site", "hand_id"])
    cash = players[(players["player"] == "Hero") & players["tournament"].isna()]
    expected = cash.groupby("variant", observed=True)["net"].sum() / 100
    assert hero.set_index("variant")["net_won"].to_dict() == expected.to_dict()


def test_players_are_keyed_by_site_and_aliases_merge_them() -> None:
    # "A" plays on two sites: one row per site, unless merged on purpose.
    # On pokerstars A folds 3rd in the steal hand (-0.01); on kingsclub A wins the
    # showdown hand (+0.39 net of the 0.03 rake): see test_frames.
    kings = showdown_hand("2")
    kings.header = dataclasses.replace(kings.header, site="kingsclub")
    frames = frames_from_checks([steal_hand("1").check(), kings.check(rake="0.03")])
    table = compute(frames, player="A", stats=["hands", "net_won"], by=("site", "player"))
    assert table[["site", "player", "hands", "net_won"]].values.tolist() == [
        ["kingsclub", "A", 1, 0.39], ["pokerstars", "A", 1, -0.01]]
    # the names of one person on two sites merged on purpose: one row, its sites joined
    merged = compute(frames, stats=["hands", "net_won"], by=("site", "player"),
                     aliases={("pokerstars", "A"): "me", ("kingsclub", "A"): "me"})
    me = merged[merged["player"] == "me"]
    assert me[["site", "hands", "net_won"]].values.tolist() == [["kingsclub+pokerstars", 2, 0.38]]
    assert "A" not in set(merged["player"])
    # names alone, across sites, on request
    pooled = compute(frames, player="A", stats=["hands"], by=("player",))
    assert pooled[["player", "hands"]].values.tolist() == [["A", 2]]


def test_aliases_on_the_command_line(tmp_path, capsys) -> None:
    from studbook.cli import main

    # "Hero" on two sites: the shipped razz cash log (Hero in all 160 hands) and the
    # hand-made BetOnline stud cash log with its Alice (seated in 1 of its 3 hands) renamed Hero
    root = Path(__file__).resolve().parents[1]
    betonline = tmp_path / "betonline.txt"
    made = (root / "tests/handmade/betonline/7-Stud-USD-0.50-1.00-cash.txt").read_text(encoding="utf-8")
    betonline.write_text(made.replace("Alice", "Hero"), encoding="utf-8")
    logs = [str(root / "histories/HH20240315 Fidelitas IX - $2-$4 Ante $0.40 - USD Limit Razz.txt"), str(betonline)]
    assert main(["stats", *logs, "--stats", "hands", "--format", "csv", "--player", "Hero"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "betonline,Hero,stud,cash,USD,1", "pokerstars,Hero,razz,cash,USD,160"]
    assert main(["stats", *logs, "--stats", "hands", "--format", "csv", "--player", "Hero",
                 "--alias", "pokerstars:Hero=me", "--alias", "betonline:Hero=me"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "betonline+pokerstars,me,razz,cash,USD,160", "betonline+pokerstars,me,stud,cash,USD,1"]
    assert main(["stats", *logs, "--alias", "pokerstar:Hero=me"]) == 2
    assert "unknown site pokerstar; did you mean pokerstars?" in capsys.readouterr().err
    assert main(["stats", *logs, "--alias", "Hero=me"]) == 2
    assert "write SITE:NAME=PERSON" in capsys.readouterr().err


@pytest.mark.parametrize(("option", "wrong", "meant"), [
    ("--stats", "wtsd", "went_to_showdown"), ("--stats", "vpp", "vpip"), ("--stats", "3bet_3rd", "three_bet_3rd"),
    ("--sort", "vpp", "vpip"), ("--sort", "WTSD", "went_to_showdown"), ("--sort", "playr", "player")])
def test_unknown_stat_or_sort_names_the_nearest(db, capsys, option, wrong, meant) -> None:
    from studbook.cli import main

    assert main(["stats", "--db", str(db), option, wrong]) == 2
    err = capsys.readouterr().err
    assert f"did you mean {meant}?" in err and "Traceback" not in err


def test_money_columns_name_their_unit_as_frames_do() -> None:
    # frames: integer minor units, attrs["units"] == {column: "minor"}; stats: floats of
    # whole units, named the same way, so that one look tells cents from dollars
    frames = load([Path(__file__).resolve().parents[1] / "histories"])
    assert frames.players.attrs["units"]["net"] == "minor"
    table = compute(frames, player="Hero")
    assert table.attrs["units"] == {"net_won": "whole", "rake_paid": "whole"}
    hero = frames.players[frames.players["player"] == "Hero"]
    cash = frames.hands[frames.hands["tournament"].isna() & ~frames.hands["play_money"].astype(bool)]
    minor = hero.merge(cash[["site", "hand_id"]], on=["site", "hand_id"])["net"].sum()
    cash_rows = table[table["kind"] == "cash"]
    assert cash_rows["net_won"].sum() == pytest.approx(minor / 100)  # whole units: dollars, not cents
    assert compute(frames, player="Hero", stats=["vpip"]).attrs["units"] == {}
    assert compute(frames, player="nobody").attrs["units"] == {"net_won": "whole", "rake_paid": "whole"}
