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

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
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
