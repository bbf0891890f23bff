"""Winning Poker Network (ACR): both text formats, field-level checks of real hands."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from studbook.cards import parse_cards
from studbook.events import (
    Action, ActionKind, Collect, Deal, Hand, NoShow, PotSummary, Rejected, Show, Street, StreetStart,
    Variant,
)
from studbook.parse import parse_text, read_file
from studbook.sites import register
from studbook.sites.winning import FORMAT
from samples import CORPUS

SITE = CORPUS / "WinningPoker"
OLD = "7-Stud-8max-USD-1.00-2.00-201608.HH00000000 G0.txt"
NEW = "7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham GAMETYPE.txt"
D = Decimal


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register(FORMAT)


def hands_of(name: str) -> list[Hand]:
    path = SITE / name
    if not path.exists():
        pytest.skip(f"corpus file absent: {path}")
    result = read_file(path)  # detected from content
    assert result.site == "winning" and result.error is None
    assert result.counts()["rejected"] == 0
    return result.hands


def actions(hand: Hand) -> list[tuple[Street, str, ActionKind, Decimal | None, Decimal | None]]:
    out, street = [], None
    for e in hand.events:
        if isinstance(e, StreetStart):
            street = e.street
        elif isinstance(e, Action):
            out.append((street, e.player, e.kind, e.amount, e.to))
    return out


def test_counts_match_index() -> None:
    assert len(hands_of(OLD)) == 4
    assert len(hands_of(NEW)) == 1


def test_old_format_streets_one_off_and_raise_totals() -> None:
    hand = {h.hand_id: h for h in hands_of(OLD)}["693978063"]
    h = hand.header
    assert (h.variant, h.stakes.small_bet, h.stakes.big_bet, h.table) == (Variant.STUD, D(1), D(2), "(PRR) Leyak")
    assert [(s.seat, s.player, s.stack) for s in hand.seats] == [(1, "ChazDazzle", D("6.40")), (5, "Nee", D("53.45"))]
    # no label before the 3rd-street deal; "Third street" .. "Sixth street" are 4th .. 7th
    streets = [e.street for e in hand.events if isinstance(e, StreetStart)]
    assert streets == [Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH]
    deals = [(e.street, e.player, e.down, e.up) for e in hand.events if isinstance(e, Deal)]
    assert deals[0] == (Street.THIRD, "ChazDazzle", parse_cards("Qc Ts"), parse_cards("7d"))
    assert deals[1] == (Street.THIRD, "Nee", (), parse_cards("3c"))
    assert deals[-2] == (Street.SEVENTH, "ChazDazzle", parse_cards("7h"), ())
    acts = actions(hand)
    assert acts[0] == (Street.THIRD, "Nee", ActionKind.BRING_IN, D("0.40"), None)
    # "Player Nee raises (4)" facing a bet of 2: street total 4, a raise of 2
    assert (Street.FIFTH, "Nee", ActionKind.RAISE, D(2), D(4)) in acts
    (show,) = [e for e in hand.events if isinstance(e, Show)]
    assert show.player == "ChazDazzle" and len(show.cards) == 7
    assert [(c.player, c.amount) for c in hand.events if isinstance(c, Collect)] == [("ChazDazzle", D("8.95"))]
    (pot,) = [e for e in hand.events if isinstance(e, PotSummary)]
    # "Pot: 8.95. Rake 0.11. JP fee 0.04" is after rake; both bet 4.55
    assert (pot.total, pot.rake) == (D("9.10"), D("0.15"))


def test_old_format_raise_over_bring_in_is_a_completion() -> None:
    hand = {h.hand_id: h for h in hands_of(OLD)}["693977839"]
    acts = actions(hand)
    assert acts[:3] == [
        (Street.THIRD, "Nee", ActionKind.BRING_IN, D("0.40"), None),
        (Street.THIRD, "ChazDazzle", ActionKind.COMPLETE, D(1), D(1)),
        (Street.THIRD, "Nee", ActionKind.CALL, D("0.60"), None),
    ]


def test_new_format_hand() -> None:
    (hand,) = hands_of(NEW)
    h = hand.header
    assert (h.hand_id, h.variant, h.table, h.max_seats, h.currency) == ("85198832", Variant.STUD, "Gorham", 8, "USD")
    assert (h.stakes.small_bet, h.stakes.big_bet) == (D("0.04"), D("0.08"))
    assert h.started_utc is not None and h.started_utc.hour == 16
    assert hand.seats[0].player == "Hero" and hand.seats[0].stack == D("0.39")
    acts = actions(hand)
    assert acts[0] == (Street.THIRD, "Player1", ActionKind.BRING_IN, D("0.02"), None)
    # "Hero raises $0.04 to $0.04" over the bring-in: a completion to $0.04
    assert (Street.THIRD, "Hero", ActionKind.COMPLETE, D("0.04"), D("0.04")) in acts
    assert [e.player for e in hand.events if isinstance(e, NoShow)] == ["Player2"]
    assert [(c.player, c.amount) for c in hand.events if isinstance(c, Collect)] == [("Player2", D("0.36"))]
    (pot,) = [e for e in hand.events if isinstance(e, PotSummary)]
    assert (pot.total, pot.rake) == (D("0.37"), D("0.01"))  # "Total pot $0.36" is after rake


def test_truncated_old_hand_rejected() -> None:
    path = SITE / OLD
    if not path.exists():
        pytest.skip(f"corpus file absent: {path}")
    text = path.read_bytes().decode("utf-16")
    cut = "\n".join(text.splitlines()[:15]) + "\n"
    (result,) = list(parse_text(cut, site="winning"))
    assert isinstance(result, Rejected) and "truncated" in result.reason


def test_summary_line_of_an_unseated_player_rejects_that_hand_only() -> None:
    """A hand whose seat line is gone but whose summary names the player is
    rejected with the line and the hand id (the id is on the line after the
    old client's header); before, the summary handler stopped on it and the
    hand came back as "internal error: StopIteration()" without an id."""
    path = SITE / OLD
    if not path.exists():
        pytest.skip(f"corpus file absent: {path}")
    text = path.read_bytes().decode("utf-16").replace("\r\n", "\n")
    seat = "Seat 1: ChazDazzle (10).\n"
    assert text.count(seat) == 1
    results = list(parse_text(text.replace(seat, ""), site="winning"))
    first, *rest = results
    assert isinstance(first, Rejected)
    assert first.reason == "summary line for 'ChazDazzle', who has no seat line"
    assert first.hand_id == "693977667" and first.text.startswith("*Player ChazDazzle mucks")
    assert len(rest) == 3 and all(isinstance(r, Hand) for r in rest)


def test_rejected_hand_ids_in_both_formats() -> None:
    old = "Game started at: 2016/8/2 11:17:19\nGame ID: 693977667 1/2 (PRR) Leyak (Seven Cards Stud)\nnonsense\n"
    new = "Hand #85198832 - 7Stud(Fixed Limit) - $0.04/$0.08 - 2019/07/28 16:15:58 UTC\nnonsense\n"
    for text, hand_id in ((old, "693977667"), (new, "85198832")):
        (result,) = list(parse_text(text, site="winning"))
        assert isinstance(result, Rejected) and result.hand_id == hand_id


KNOWN: set[tuple[str, str]] = set()  # ACR lists the hero's deal first: profile WINNING, deals_in_order=False


def test_hands_check_clean() -> None:
    check = pytest.importorskip("studbook.check")
    unexpected = []
    for name in (OLD, NEW):
        for hand in hands_of(name):
            unexpected += [(hand.hand_id, v) for v in check.check_hand(hand).violations
                           if (v.rule, hand.hand_id) not in KNOWN]  # fmt: skip
    assert unexpected == []


@pytest.mark.parametrize("header", [
    "Game started at: 2016/8/2 11:17:19\nGame ID: 693977667 1/2 (PRR) Leyak (Seven Cards Stud)\n",
    "Hand #85198832 - 7Stud(Fixed Limit) - $0.04/$0.08 - 2019/07/28 16:15:58 UTC\n",
])  # fmt: skip
def test_detects_a_hand_header_only_at_a_line_start(header: str) -> None:
    assert FORMAT.detect(header) and FORMAT.detect("text before\n" + header)
    assert not FORMAT.detect("x" + header)


# A hand made for these tests in the later client's format, with what the corpus hand
# lacks: an all-in on 6th street, so a side pot reported on lines of its own after each
# "Main pot" line and after "*** SHOW DOWN ***", a showdown, and a "Total pot" line
# stated after the rake and the jackpot fee ("| JP Fee $0.02").
ALL_IN_HAND = """\
Hand #900000001 - 7Stud(Fixed Limit) - $0.10/$0.20 - 2023/10/22 02:49:52 UTC
Testville 8-max
Seat 1: Ann ($5.00)
Seat 2: Bob ($0.50)
Seat 3: Cyd ($5.00)
Ann posts ante $0.02
Bob posts ante $0.02
Cyd posts ante $0.02
*** 3rd STREET ***
Main pot $0.06 | Rake $0.00
Dealt to Ann [Ah Ks Kd]
Dealt to Bob [2c]
Dealt to Cyd [9h]
Bob brings in $0.05
Cyd raises $0.10 to $0.10
Ann calls $0.10
Bob calls $0.05
*** 4th STREET ***
Main pot $0.36 | Rake $0.00
Dealt to Ann [Ah Ks Kd] [5c]
Dealt to Bob [2c] [9c]
Dealt to Cyd [9h] [4d]
Ann bets $0.10
Bob calls $0.10
Cyd calls $0.10
*** 5th STREET ***
Main pot $0.66 | Rake $0.00
Dealt to Ann [Ah Ks Kd 5c] [6h]
Dealt to Bob [2c 9c] [Tc]
Dealt to Cyd [9h 4d] [4s]
Cyd bets $0.20
Ann calls $0.20
Bob calls $0.20
*** 6th STREET ***
Main pot $1.26 | Rake $0.00
Dealt to Ann [Ah Ks Kd 5c 6h] [7d]
Dealt to Bob [2c 9c Tc] [Jc]
Dealt to Cyd [9h 4d 4s] [Jd]
Cyd bets $0.20
Ann calls $0.20
Bob calls $0.08 and is all-in
*** 7th STREET ***
Main pot $1.50 | Rake $0.00
Side pot(1) $0.24 | Rake $0.00
Dealt to Ann [Ah Ks Kd 5c 6h 7d] [8s]
Cyd checks
Ann checks
*** SHOW DOWN ***
Main pot $1.40 | Rake $0.10
Side pot(1) $0.24 | Rake $0.00
Ann shows [Ah Ks Kd 5c 6h 7d 8s] (HI - a pair of Kings [Kd Ks Ah 8s 7d])
Bob shows [2d 2h 2c 9c Tc Jc 3s] (HI - three of a kind, Set of Deuces [2d 2h 2c Jc Tc])
Cyd shows [Qs Qh 9h 4d 4s Jd 3h] (HI - two pair, Queens and Fours [Qs Qh 4d 4s Jd])
Bob collected $1.40 from main pot
Cyd collected $0.24 from side pot-1
*** SUMMARY ***
Total pot $1.64 | Rake $0.08 | JP Fee $0.02
Seat 1: Ann showed [Ah Ks Kd 5c 6h 7d 8s] and lost with HI - a pair of Kings [Kd Ks Ah 8s 7d]
Seat 2: Bob showed [2d 2h 2c 9c Tc Jc 3s] and won $1.40 with HI - three of a kind, Set of Deuces [2d 2h 2c Jc Tc]
Seat 3: Cyd showed [Qs Qh 9h 4d 4s Jd 3h] and won $0.24 with HI - two pair, Queens and Fours [Qs Qh 4d 4s Jd]
"""


def _one_hand(text: str) -> Hand:
    (hand,) = parse_text(text, file="made.txt", site="winning")
    assert isinstance(hand, Hand), hand
    return hand


def test_side_pot_reports_and_the_jackpot_fee() -> None:
    """Side pots reported on lines of their own, after a street label and after the
    showdown label, carry no play (the engine works the pots out); the jackpot fee is
    taken from the pot as the rake is, so the hand checks clean with its nets."""
    from studbook.check import check_hand

    hand = _one_hand(ALL_IN_HAND)
    (pot,) = [e for e in hand.events if isinstance(e, PotSummary)]
    assert (pot.total, pot.rake) == (D("1.74"), D("0.10"))  # $1.64 after $0.08 rake and $0.02 fee
    check = check_hand(hand)
    assert (check.status, check.violations) == ("ok", ())
    assert {p.player: p.net for p in check.players} == {"Ann": D("-0.62"), "Bob": D("0.90"), "Cyd": D("-0.38")}
    assert [(c.player, c.amount) for c in hand.events if isinstance(c, Collect)] == [("Bob", D("1.40")), ("Cyd", D("0.24"))]


def test_a_fee_left_out_is_still_caught() -> None:
    """The money check stays the safety net: without its jackpot-fee part the same
    "Total pot" states a pot $0.02 short of what was put in, and the engine says so."""
    from studbook.check import check_hand

    edited = ALL_IN_HAND.replace("Total pot $1.64 | Rake $0.08 | JP Fee $0.02", "Total pot $1.64 | Rake $0.08")
    check = check_hand(_one_hand(edited))
    assert [v.rule for v in check.violations] == ["pot.total"]


@pytest.mark.parametrize("numbered", ["Side pot(1)", "Side pot(2)", "Side pot-1", "Side pot 1", "Side pot #1"])
def test_side_pot_reports_in_any_numbering_read_the_same(numbered: str) -> None:
    """A side-pot report, however the version numbers the pot, reads as one (it carries
    no play); added after every pot report of the corpus hand, which has no side pot,
    the hand reads the same, events and outcome."""
    from studbook.check import check_hand

    path = SITE / NEW
    if not path.exists():
        pytest.skip(f"corpus file absent: {path}")
    text = path.read_text(encoding="utf-8")
    edited, count = re_subn_pot_reports(text, f"{numbered} $0.00 | Rake $0.00")
    assert count == 5
    original, again = _one_hand(text), _one_hand(edited)
    strip = ("line",)
    assert [_without(e, strip) for e in again.events] == [_without(e, strip) for e in original.events]
    assert check_hand(again).status == check_hand(original).status == "ok"


def re_subn_pot_reports(text: str, report: str) -> tuple[str, int]:
    import re

    return re.subn(r"(?m)^(Main pot [^\n]*)$", lambda m: f"{m.group(1)}\n{report}", text)


def _without(event: object, names: tuple[str, ...]) -> tuple[object, ...]:
    import dataclasses

    return tuple(getattr(event, f.name) for f in dataclasses.fields(event) if f.name not in names)  # type: ignore[arg-type]
