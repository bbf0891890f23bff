"""showdown.order after the first hand shown: the others follow clockwise from it
(docs/rules.md; the Romanian seed), or, on sites whose profile says so, pot by pot from
the last side pot (proven on a real PokerStars hand and a real Merge hand).

Legal and illegal twins per variant: the same hand with the shows in order and
with one hand shown out of turn, flagged once at that show.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from studbook.check import check_file_result, check_hand
from studbook.engine.profiles import DEFAULT, MERGE, POKERSTARS
from studbook.engine.settle import expected_collections
from studbook.events import Show
from studbook.parse import read_file

from test_engine_build import HandBuilder, corpus_text
from test_engine_money import _shadow, checkdown
from test_rules import hands_of, line_of

HANDS = {  # dealing order A, B, C; nobody bets the river, so any hand may show first
    "stud": {"A": "Ah Kd 2c 7s 9d Jc 4h", "B": "Qh Qd 3c 8s Td 5c 6h", "C": "2h 3d 4c 6s 8d Ts Kh"},
    "stud8": {"A": "Ah 2d 3c 7s 9d Jc Kh", "B": "Qh Qd Kc 8s Td 5c 6h", "C": "2h 4d 5s 6s 8d Ts Ks"},
    "razz": {"A": "Ah 2d 3c 7s 9d Jc Kh", "B": "Qh Qd Kc 8s Td 5c 6h", "C": "2h 4d 5s 6s 8d Ts Ks"},
}


def _hand(variant: str, shows: tuple[str, ...]) -> tuple[HandBuilder, dict[str, int]]:
    hands = HANDS[variant]
    h = HandBuilder(variant=variant, seats=((1, "A", "100"), (2, "B", "100"), (3, "C", "100")),
                    small="2", big="4", ante="0.5", bring_in="1")
    h.antes()
    checkdown(h, hands)
    lines = {name: h.show(name, hands[name]) for name in shows}
    for name, amount, pot in expected_collections(_shadow(h)):
        h.collect(name, str(amount), pot)
    return h, lines


@pytest.mark.parametrize("variant", sorted(HANDS))
@pytest.mark.parametrize("shows", [("A", "B", "C"), ("B", "C", "A"), ("C", "A", "B"), ("B", "C")])
def test_hands_shown_clockwise_from_the_first_are_legal(variant: str, shows: tuple[str, ...]) -> None:
    h, _ = _hand(variant, shows)
    assert h.check().violations == ()


@pytest.mark.parametrize("variant", sorted(HANDS))
@pytest.mark.parametrize("shows, wrong", [(("A", "C", "B"), "B"), (("B", "A", "C"), "C"), (("C", "B", "A"), "A")])
def test_a_hand_shown_out_of_turn_after_the_first_is_flagged_once(
    variant: str, shows: tuple[str, ...], wrong: str,
) -> None:
    h, lines = _hand(variant, shows)
    check = h.check()
    assert [(v.rule, v.line) for v in check.violations] == [("showdown.order", lines[wrong])]
    assert check.violations[0].message.startswith(f"hands show clockwise from {shows[0]}: {wrong} after ")


SIDE_POTS = "7-StudHL-USD-0.98-0.12-202302.allin.ante.txt"  # Hero all-in from the ante


def test_pokerstars_shows_side_pots_before_the_all_in_player() -> None:
    """Player0 shows first, Player3 (side pot) next, then Hero, all-in for the main pot
    only: clockwise from Player0, Hero would come before Player3."""
    text = corpus_text(SIDE_POTS)
    (hand,) = hands_of(text, SIDE_POTS).values()
    assert check_hand(hand).violations == ()
    clockwise = replace(DEFAULT, name="pokerstars", deals_in_order=POKERSTARS.deals_in_order,
                        logs_every_up_card=True, shows_in_deal_order=True)
    assert [(v.rule, v.line) for v in check_hand(hand, clockwise).violations] == [
        ("showdown.order", line_of(text, "Hero: shows"))]
    # the illegal twin: the all-in player shows second, before the side pot is shown down
    hero = "Hero: shows [3h Ah 2s 4d 7d 5h 6d] (HI: a straight, Three to Seven; LO: 5,4,3,2,A)\n"
    player0 = "Player0: shows [3d 8c 6c 7h As 8d Tc] (HI: a pair of Eights; LO: 8,7,6,3,A)\n"
    assert hero in text and player0 in text
    swapped = text.replace(hero, "").replace(player0, player0 + hero)
    (bad,) = hands_of(swapped, SIDE_POTS).values()
    got = check_hand(bad).violations
    assert [(v.rule, v.line) for v in got] == [("showdown.order", line_of(swapped, "Player1: mucks hand"))]
    assert got[0].message == "side pots show first, from the last: Player1 after Hero, who is all-in for less"


def test_merge_shows_side_pots_before_the_all_in_player(corpus: Path) -> None:
    """Merge HORSE hand: Player1 bet the river and shows first, then Player15 (side pot),
    then Player5 (seat 0, all-in): clockwise from seat 4, seat 0 comes before seat 1."""
    path = corpus / "Merge" / "HORSE-Tournament-Freeroll.201107.xml"
    checks = {c.hand.hand_id: c for c in check_file_result(read_file(path)).checks if hasattr(c, "hand")}
    shown = [c for c in checks.values() if any(isinstance(e, Show) and e.line == 987 for e in c.hand.events)]
    assert len(shown) == 1 and shown[0].violations == ()
    clockwise = replace(MERGE, shows_side_pots_first=False)
    got = check_hand(shown[0].hand, clockwise).violations
    assert [(v.rule, v.line, v.message) for v in got] == [
        ("showdown.order", 987, "hands show clockwise from Player1: Player5 after Player15")]
