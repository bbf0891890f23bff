"""Site rule profiles, each option proven on real PokerStars hands.

Where PokerStars' logs differ from a literal reading of RULES.md, the profile
says so; every option here is exercised by the real hand that justifies it.
"""

from __future__ import annotations

from dataclasses import replace

from studbook.check import check_hand
from studbook.engine.profiles import DEFAULT, POKERSTARS, RuleProfile, get_profile, profiles, register

from test_engine_build import corpus_text, rules
from test_rules import ANTE, GAME8, RAZZ, SALM, STUD, THREEBET, hands_of


def _hand(name: str, hand_id: str | None = None):
    hands = hands_of(corpus_text(name), name)
    return hands[hand_id] if hand_id else next(iter(hands.values()))


def test_registry() -> None:
    assert get_profile("pokerstars") is POKERSTARS
    assert get_profile("PokerStars") is POKERSTARS
    assert get_profile(None) is DEFAULT
    other = get_profile("somesite")
    assert other.name == "somesite" and replace(other, name="default") == DEFAULT
    register(RuleProfile(name="testsite", cap_bets=5))
    assert get_profile("testsite").cap_bets == 5
    assert "pokerstars" in profiles()


def test_pokerstars_deals_from_the_lowest_seat_and_breaks_board_ties_by_it() -> None:
    # 4th street, razz: Player0 (seat 1) Qd 3d and Hero (seat 2) 3h Qc tie; Player0 acts first.
    hand = _hand(GAME8, "99632365500")
    assert check_hand(hand, POKERSTARS).violations == ()
    # dealing from the seat after a (notional) button at seat 1 would make Hero first
    after_button = replace(POKERSTARS, deal_start="after_button")
    shifted = replace(hand, header=replace(hand.header, button=1))
    assert ("order.first", hand.line + 14) in rules(check_hand(shifted, after_button))


def test_pokerstars_logs_every_up_card_so_a_missing_one_is_a_fault() -> None:
    assert POKERSTARS.logs_every_up_card and not DEFAULT.logs_every_up_card
    text = corpus_text(STUD).replace("Dealt to Nikolay Zem [9s] [6h]\n", "", 1)
    hand = hands_of(text, STUD)["35874004239"]
    assert rules(check_hand(hand, POKERSTARS))[0][0] == "deal.pattern"
    assert "deal.pattern" not in [r for r, _ in rules(check_hand(hand, DEFAULT))]


def test_pokerstars_shows_cards_in_dealing_order() -> None:
    hand = _hand(STUD, "35874039554")  # Nikolay Zem shows [Ac 4d 7d Td 3d Tc 2h]: down down up x4 down
    assert check_hand(hand, POKERSTARS).violations == ()
    text = corpus_text(STUD).replace("Nikolay Zem: shows [Ac 4d 7d Td 3d Tc 2h]", "Nikolay Zem: shows [7d Td 3d Tc Ac 4d 2h]")
    swapped = hands_of(text, STUD)["35874039554"]
    assert rules(check_hand(swapped, POKERSTARS))[0][0] == "cards.consistent"
    assert check_hand(swapped, DEFAULT).violations == ()  # order-free comparison elsewhere


def test_pokerstars_showdown_order_when_nobody_bet_the_river_is_not_checked() -> None:
    """RULES: 'first in position if nobody bet'. PokerStars' real logs follow no one reading:
    35874039554 (2009): river checked, the first to act on the river shows first (not seat order);
    99632307247 (2013): river checked, Hero (the 6th-street bettor) shows before Player0, first to act;
    241636097024 (2023): no bet after 3rd, Player0 (seat 1) shows first, Player5 acted first."""
    assert POKERSTARS.show_order_no_bet == "unchecked"
    real = [_hand(STUD, "35874039554"), _hand(GAME8, "99632307247"), _hand(ANTE)]
    assert all(check_hand(h, POKERSTARS).violations == () for h in real)
    first_to_act = replace(POKERSTARS, show_order_no_bet="first_to_act")
    deal_order = replace(POKERSTARS, show_order_no_bet="deal_order")
    assert any(check_hand(h, first_to_act).violations for h in real)
    assert any(check_hand(h, deal_order).violations for h in real)


def test_pokerstars_keeps_the_cap_heads_up() -> None:
    # No real heads-up round exceeds four bets; the re-raised heads-up hand stays within the cap.
    assert not POKERSTARS.uncapped_heads_up
    assert check_hand(_hand(THREEBET), POKERSTARS).violations == ()


def test_pokerstars_completion_wordings() -> None:
    # "raises $280 to $400" over a $120 bring-in; "raises 35 to 50" over 15; the bring-in player "bets 30".
    assert check_hand(_hand(THREEBET), POKERSTARS).violations == ()
    assert check_hand(_hand(RAZZ), POKERSTARS).violations == ()
    assert check_hand(_hand(GAME8, "99632255544"), POKERSTARS).violations == ()


def test_pokerstars_bring_in_left_of_a_player_all_in_from_the_ante() -> None:
    # Hero (2s, lowest) is all-in from the ante; Player5 on Hero's left brings in; Player2 is
    # marked "sitting out" but posts, is dealt in and folds.
    assert check_hand(_hand(ANTE), POKERSTARS).violations == ()


def test_all_in_best_board_either_next_player_or_best_active() -> None:
    # Spacemasa (QQ showing, all-in) has the best board on 5th-7th; ranchim acts first,
    # which both readings give; the profile accepts either.
    assert POKERSTARS.first_skip_all_in == "either"
    for mode in ("either", "next_clockwise", "best_active"):
        assert check_hand(_hand(SALM), replace(POKERSTARS, first_skip_all_in=mode)).violations == ()


def test_pokerstars_lists_deals_in_dealing_order() -> None:
    # every real hand lists each street's deals from the lowest seat round the table
    assert POKERSTARS.deals_in_order and not DEFAULT.deals_in_order
    text = corpus_text(STUD).replace("Dealt to Nikolay Zem [9s]\nDealt to totof51 [Td]",
                                     "Dealt to totof51 [Td]\nDealt to Nikolay Zem [9s]", 1)
    hand = hands_of(text, STUD)["35874004239"]
    assert rules(check_hand(hand, POKERSTARS))[0][0] == "deal.order"
    assert check_hand(hand, DEFAULT).violations == ()
