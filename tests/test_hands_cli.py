"""``studbook hands``: hand search, on a real PokerStars file worked out by hand.

PokerStars/7-Stud-USD-0.04-0.08-200911.txt (11 hands, $0.04/$0.08 USD), Hero's deals and
results from the log (stack deltas, see test_filters.py):
  35874081088 (hand 3): dealt [5h 5c 2s] (buried pair), shows down, wins: +0.59 = +7.375 bb
  35874153086 (hand 5): dealt [As 8s 6h] (other), checks it down, loses: -0.03
  35874259784 (hand 8): dealt [7d 6h 9s] (three to a straight), raises on 5th, folds on 6th: -0.19 = -2.375 bb
  35874334277 (hand 10): dealt [7d Qs 8s] (other), shows down, wins: +0.59
  35874382643 (hand 11): dealt [8d 3d 8c] (split pair), folds on 4th: -0.03
  every other hand: -0.01 (the ante) or -0.03 (ante and bring-in or a call).
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path

import pytest

from studbook.cli import main
from studbook.frames import frames_from_checks, load
from studbook.search import find_hands
from test_filters import CASH, TOURNAMENT
from test_frames import showdown_hand, steal_hand
from studbook.engine.result import Violation


def _ids(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["hands", *args, "--format", "csv"]) == 0
    captured = capsys.readouterr()
    return [row["hand_id"] for row in csv.DictReader(io.StringIO(captured.out))]


def test_search_by_result_showdown_and_start(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(corpus / CASH)
    assert _ids(capsys, path, "--won") == ["35874081088", "35874334277"]
    assert _ids(capsys, path, "--showdown") == ["35874081088", "35874153086", "35874334277"]
    assert _ids(capsys, path, "--showdown", "--lost") == ["35874153086"]
    assert _ids(capsys, path, "--min-bb", "2") == ["35874081088", "35874259784", "35874334277"]
    assert _ids(capsys, path, "--starting-hand", "BURIED PAIR") == ["35874081088"]
    assert _ids(capsys, path, "--starting-hand", "split pair") == ["35874382643"]
    assert _ids(capsys, path, "--until", "2009-11-26 10:10:00 America/New_York") == [
        "35874004239", "35874039554"]
    assert len(_ids(capsys, path)) == 11
    assert main(["hands", path, "--starting-hand", "suited aces"]) == 2
    assert "unknown starting-hand class" in capsys.readouterr().err


def test_text_and_json(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(corpus / CASH)
    assert main(["hands", path, "--won"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("hero: Hero (marked by the log as its own player in 11 of 11 hands: its deal lines "
                      "show their down cards alone; --hero NAME to choose)")
    assert out[2].split() == ["2009-11-26", "15:10:56", "pokerstars", "35874081088", "stud", "$0.04/$0.08",
                              "USD", "(5h", "5c", "4d)", "2s", "As", "5d", "Ah", "0.59", "USD", "+7.38"]
    assert main(["hands", path, "--player", "Hero", "--lost", "--min-bb", "2", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # --player given: no hero line
    [row] = json.loads(captured.out)
    assert (row["hand_id"], row["net"], row["net_bb"], row["currency"]) == ("35874259784", "-0.19", -2.375, "USD")
    assert row["down_cards"] == "7d 6h" and row["start_class"] == "three to a straight"


def test_rule_search_and_violations_column() -> None:
    bad = steal_hand("1").check(violations=(Violation("bet.size", 20, "expected 0.04"),))
    frames = frames_from_checks([bad, showdown_hand("2").check()])
    found = find_hands(frames, "A", rule="bet")
    assert found["hand_id"].tolist() == ["1"]
    assert (found.loc[0, "violations"], found.loc[0, "rules"]) == (1, "bet.size")
    assert find_hands(frames, "A", rule="bet.siz").empty  # a prefix is a whole part of the id
    every = find_hands(frames, "A")
    assert every["hand_id"].tolist() == ["1", "2"] and every["net"].tolist() == [Decimal("-0.01"), Decimal("0.39")]


def test_text_columns_of_words_and_cards_align_left(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Cards, stakes and the violations list start under their header, and no line
    ends in padding; figures stay right-aligned (the net's last digit under the
    header's last letter)."""
    assert main(["hands", str(corpus / CASH)]) == 0
    header, *rows = capsys.readouterr().out.splitlines()[1:]
    at = header.index("cards")
    assert rows and all(row[at] == "(" for row in rows)  # the hero's down cards open each
    assert all(row == row.rstrip() for row in [header, *rows])
    net_end = header.index("net") + len("net")
    assert all(row[net_end - 1] in "0123456789D" for row in rows)


def test_rule_search_finds_what_check_found_whoever_played(capsys: pytest.CaptureFixture[str]) -> None:
    # histories/planted-violations.txt: hand 258878136627 breaks showdown.award (check finds it);
    # Nøkken, the hero named here, sat in another hand only
    planted = str(Path(__file__).resolve().parents[1] / "histories" / "planted-violations.txt")
    assert main(["hands", planted, "--hero", "Nøkken", "--rule", "showdown.award", "--format", "csv"]) == 0
    [row] = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert (row["hand_id"], row["variant"], row["player"], row["rules"]) == (
        "258878136627", "stud", "", "showdown.award")
    assert main(["hands", planted, "--hero", "Nøkken", "--rule", "showdown.award"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:6] == ["started", "(UTC)", "site", "hand", "variant", "player"]
    assert out[2].split()[2:5] == ["pokerstars", "258878136627", "stud"]
    # with --player the search stays that player's
    assert main(["hands", planted, "--player", "Nøkken", "--rule", "showdown.award"]) == 0
    assert capsys.readouterr().out.strip() == "no hands match"


def test_money_says_what_it_is_in(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # KingsClub writes no currency; its cash tables are USD (money.SITE_CURRENCY), never "chips".
    assert main(["hands", str(corpus / "KingsClub" / "7-Stud-USD-44-88-202010.txt")]) == 0
    assert "-33.16 USD -0.38" in capsys.readouterr().out
    assert main(["hands", str(corpus / TOURNAMENT)]) == 0  # tournament chips, whole
    out = capsys.readouterr().out
    assert "280 tournament chips" in out and "280.00" not in out
