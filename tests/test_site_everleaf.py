"""Everleaf: real hands of the corpus, field by field (no FPDB expected files exist for them)."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal as D
from pathlib import Path

import pytest

from studbook.events import Action, ActionKind, Collect, Hand, Muck, NoShow, Show, ShowdownStart
from studbook.parse import read_file
from studbook.sites import register
from studbook.sites.everleaf import FORMAT
from samples import CORPUS

CORPUS = CORPUS / "Everleaf"
FILE = CORPUS / "7-Stud-USD-0.05-0.10.201107.txt"

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus ../shared/corpus/Everleaf not present")


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register(FORMAT)


@pytest.fixture(scope="module")
def hands() -> dict[str, Hand]:
    result = read_file(FILE)
    assert result.site == "everleaf", result.summary()
    assert result.ok, result.details()
    return {h.hand_id: h for h in result.hands}


def _actions(hand: Hand) -> list[tuple[str, ActionKind, D | None, D | None]]:
    return [(e.player, e.kind, e.amount, e.to) for e in hand.events if isinstance(e, Action)]


def test_all_hands_parse(hands: dict[str, Hand]) -> None:
    assert len(hands) == 19  # CRLF with one bare LF: still 19 hands


def test_uncontested_hand(hands: dict[str, Hand]) -> None:
    hand = hands["285997460"]
    assert hand.header.currency == "USD" and hand.header.table == "Clarkdale 20"
    assert (hand.header.stakes.small_bet, hand.header.stakes.big_bet) == (D("0.05"), D("0.10"))
    assert [(s.seat, s.player, s.stack) for s in hand.seats][0] == (1, "Player1", D("0.54"))
    acts = _actions(hand)
    assert acts[:3] == [("Player2", ActionKind.BRING_IN, D("0.02"), None), ("Player3", ActionKind.FOLD, None, None),
                        ("Player4", ActionKind.CALL, D("0.02"), None)]  # fmt: skip
    assert acts[-2:] == [("Player4", ActionKind.BET, D("0.10"), None), ("Player2", ActionKind.FOLD, None, None)]
    assert isinstance(hand.events[-2], NoShow) and hand.events[-2].player == "Player4"
    assert (hand.events[-1].player, hand.events[-1].amount) == ("Player4", D("0.08"))  # type: ignore[attr-defined]


def test_completion_and_showdown(hands: dict[str, Hand]) -> None:
    hand = hands["285997675"]
    acts = _actions(hand)
    assert ("Player3", ActionKind.COMPLETE, D("0.05"), D("0.05")) in acts  # "completes to $0.05."
    assert ("Player2", ActionKind.CALL, D("0.03"), None) in acts
    shown = next(h for h in hands.values() if any(isinstance(e, Show) for e in h.events) and
                 any(isinstance(e, Muck) for e in h.events))  # fmt: skip
    events = shown.events
    first = next(i for i, e in enumerate(events) if isinstance(e, (Show, Muck)))
    assert isinstance(events[first - 1], ShowdownStart)
    raises = [a for a in _actions(shown) if a[1] is ActionKind.RAISE]
    assert raises == [("Player2", ActionKind.RAISE, D("0.10"), D("0.20"))]  # "raises [$ 0.20 USD]"
    assert [(e.player, e.amount) for e in events if isinstance(e, Collect)] == [("Player2", D("0.98"))]


def test_check_results(hands: dict[str, Hand]) -> None:
    check = pytest.importorskip("studbook.check")
    found = Counter(v.rule for h in hands.values() for v in check.check_hand(h).violations)
    # Everleaf never logs an uncalled bet, its "wins" excludes it and it never states the rake:
    # profile EVERLEAF (logs_uncalled=False, states_rake=False, tests/test_engine_profiles.py);
    # the engine does not judge bet.open_pair on up cards the log never shows
    assert found == Counter()


def test_detects_a_hand_header_only_at_a_line_start() -> None:
    header = "Everleaf Gaming Game #285997460\n"
    assert FORMAT.detect(header) and FORMAT.detect("text before\n" + header)
    assert not FORMAT.detect("x" + header)
