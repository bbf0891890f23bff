"""Absolute Poker: the real Seven Card Hi/Lo hand field by field."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from studbook.cards import parse_cards
from studbook.events import Action, ActionKind, Collect, Deal, Hand, PotSummary, Rejected, Show, Street, Variant
from studbook.parse import parse_text, read_file
from studbook.sites import register
from studbook.sites.absolute import FORMAT
from samples import CORPUS

FILE = CORPUS / "Absolute" / "7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt"
D = Decimal


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register(FORMAT)


@pytest.fixture(scope="module")
def hand() -> Hand:
    if not FILE.exists():
        pytest.skip(f"corpus file absent: {FILE}")
    result = read_file(FILE)
    assert result.site == "absolute" and result.counts() == {"parsed": 1, "skipped": 0, "rejected": 0}
    return result.hands[0]


def test_header_and_seats(hand: Hand) -> None:
    h = hand.header
    assert (h.hand_id, h.variant, h.game, h.currency) == ("1300000000", Variant.STUD8, "Seven Card Hi/Lo", "USD")
    assert (h.stakes.small_bet, h.stakes.big_bet) == (D("0.02"), D("0.04"))
    assert h.started_utc is not None and h.started_utc.hour == 23  # 19:10 ET (EDT) on 2009-03-18
    assert [(s.seat, s.player, s.stack) for s in hand.seats][:2] == [(1, "PLAYER1", D("0.17")), (2, "PLAYER2", D("0.36"))]


def test_cumulative_pockets_become_new_cards(hand: Hand) -> None:
    deals = [e for e in hand.events if isinstance(e, Deal)]
    hero = [d for d in deals if d.player == "Hero"]
    assert len(hero) == 1  # folded on 3rd: the repeated pockets are not new cards
    assert (hero[0].down, hero[0].up) == (parse_cards("Tc 5c"), parse_cards("7s"))
    p1 = [d for d in deals if d.player == "PLAYER1"]
    assert [d.street for d in p1] == list(Street)
    assert p1[1].up == parse_cards("Td") and p1[1].before == ()  # hidden hole cards: nothing to repeat
    assert p1[-1].down == () and p1[-1].up == ()  # the river card, face down


def test_actions_showdown_and_pots(hand: Hand) -> None:
    acts = [(e.player, e.kind, e.amount) for e in hand.events if isinstance(e, Action)]
    assert acts[0] == ("PLAYER7", ActionKind.BRING_IN, D("0.01"))
    assert ("PLAYER3", ActionKind.BET, D("0.04")) in acts
    shows = [(s.player, s.description) for s in hand.events if isinstance(s, Show)]
    assert shows[0] == ("PLAYER7", "One pair, queens")
    assert len(shows) == 4
    assert [(c.player, c.amount, c.pot) for c in hand.events if isinstance(c, Collect)] == [
        ("PLAYER3", D("0.19"), 0), ("PLAYER6", D("0.20"), 0)]
    (pot,) = [e for e in hand.events if isinstance(e, PotSummary)]
    assert (pot.total, pot.rake) == (D("0.43"), D("0.04"))


def test_check_clean(hand: Hand) -> None:
    check = pytest.importorskip("studbook.check")
    assert check.check_hand(hand).violations == ()


def test_truncated_rejected() -> None:
    if not FILE.exists():
        pytest.skip(f"corpus file absent: {FILE}")
    cut = "\n".join(FILE.read_text().splitlines()[:40]) + "\n"
    (result,) = list(parse_text(cut, site="absolute"))
    assert isinstance(result, Rejected) and "truncated" in result.reason and result.hand_id == "1300000000"


def test_detects_a_hand_header_only_at_a_line_start() -> None:
    header = "Stage #1300000000: Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)\nSeat 1 - PLAYER1 ($0.17 in chips)\n"
    assert FORMAT.detect(header) and FORMAT.detect("text before\n" + header)
    assert not FORMAT.detect("x" + header)
