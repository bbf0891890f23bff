"""Site rule profiles, each option proven on a real hand of its site.

Where a site's logs differ from a literal reading of docs/rules.md, its profile
says so; every option here is exercised by the real hand that justifies it
and, where cheap, by a twin showing the option does not hide a real fault.
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from decimal import Decimal

import pytest

from studbook.betting import after_rake
from studbook.check import check_hand
from studbook.engine.profiles import (
    BOVADA, DEFAULT, EVERLEAF, FULLTILT, IPOKER, KINGSCLUB, MERGE, PARTYPOKER, POKERSTARS, WINAMAX,
    WINNING, RuleProfile, get_profile, profiles, register,
)
from studbook.events import Collect, Deal, Hand, Muck, PotSummary, Show
from studbook.parse import read_file
from studbook.sites import site_names

from test_engine_build import CORPUS, corpus_text, rules
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


def test_a_site_asked_before_its_profile_was_registered_gets_the_profile_after() -> None:
    """``get_profile`` remembers its answers by the name asked (i34e25: no lower-cased copy a
    hand); ``register`` empties that memory, so a name asked before its profile was registered,
    in any case, gets the profile after, and an unknown name the default renamed, lower-cased.
    Catches a memory that outlives ``register``."""
    name = "lateregistered"
    assert get_profile("LateRegistered") == replace(DEFAULT, name=name)
    assert get_profile(name) == replace(DEFAULT, name=name)
    late = RuleProfile(name=name, cap_bets=7)
    register(late)
    try:
        assert get_profile(name) is late and get_profile("LateRegistered") is late
    finally:
        module = importlib.import_module("studbook.engine.profiles")  # (the package's `profiles` is a function)
        del module._REGISTRY[name]
        module._BY_SITE.clear()
    assert get_profile(name) == replace(DEFAULT, name=name)


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


def _stated_pots(hand: Hand, profile: RuleProfile) -> tuple[list[Decimal], list[Decimal]]:
    """(the pots the log states, the pots less the rake where ``profile`` places it)."""
    checked = check_hand(hand, profile)
    assert checked.violations == ()
    (summary,) = (e for e in hand.events if isinstance(e, PotSummary))
    assert summary.rake
    return list(summary.pots), after_rake([p.amount for p in checked.pots], summary.rake, Decimal("0.01"),
                                          profile.rake_from)


def test_pokerstars_takes_the_rake_from_each_pot_by_its_size() -> None:
    # 0.44 main and 0.64 side pot, rake 0.05: "Main pot $0.42. Side pot $0.61."
    stated, placed = _stated_pots(_hand(SALM, "60974484959"), POKERSTARS)
    assert stated == placed == [Decimal("0.42"), Decimal("0.61")]
    assert after_rake([Decimal("0.44"), Decimal("0.64")], Decimal("0.05"), Decimal("0.01"),
                      DEFAULT.rake_from) == [Decimal("0.39"), Decimal("0.64")]


def test_fulltilt_takes_the_rake_from_the_main_pot() -> None:
    # 85.10 main and 10 side pot, rake 3: the side pot's halves pay $5 and $5, the main pot's
    # $41.05 and $41.05 (Full Tilt states the pots before rake; its reader, after)
    assert FULLTILT.rake_from == DEFAULT.rake_from == "main_pot"
    stated, placed = _stated_pots(_site_hand("fulltilt", "29705138396"), FULLTILT)
    assert stated == placed == [Decimal("82.10"), Decimal(10)]


def test_pokerstars_lists_deals_in_dealing_order() -> None:
    # every real hand lists each street's deals from the lowest seat round the table
    assert POKERSTARS.deals_in_order and not DEFAULT.deals_in_order
    text = corpus_text(STUD).replace("Dealt to Nikolay Zem [9s]\nDealt to totof51 [Td]",
                                     "Dealt to totof51 [Td]\nDealt to Nikolay Zem [9s]", 1)
    hand = hands_of(text, STUD)["35874004239"]
    assert rules(check_hand(hand, POKERSTARS))[0][0] == "deal.order"
    assert check_hand(hand, DEFAULT).violations == ()


# ---------------------------------------------------------------------------
# The other sites: each option of each profile, proven on the site's real hand,
# and (where cheap) a twin showing the option does not hide a real fault.

SITE_FILES = {
    "fulltilt": "FullTilt/10Game-6max-USD-2.50-5.201104.Sample.txt",
    "winning": "WinningPoker/7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham GAMETYPE.txt",
    "merge": "Merge/7-Stud-USD-0.50-1.00-201102.Sample.txt",
    "winamax_stud": "Winamax/7-Stud-6max-EUR-25-50-201611._8games_.txt",
    "winamax_allin": "Winamax/7-Stud-6max-EUR-25-50-201611._8games_.negative.bet.txt",
    "winamax_razz": "Winamax/Razz-6max-EUR-25-50-201611._8games_.txt",
    "kingsclub": "KingsClub/Razz-USD-40-80-202101.txt",
    "everleaf": "Everleaf/7-Stud-USD-0.05-0.10.201107.txt",
    "party_uncalled": "PartyPoker/7-Stud-USD-1-2-201104.txt",
    "party_hilo": "PartyPoker/7-StudHL-USD-0.50-1.00-201008.txt",
    "bovada": "Bovada/7-Stud-USD-MTT - $10-$1 - 201206.txt",
    "ipoker": "iPoker/7-StudHi-USD-STT-5-201103.txt",
}


def _site_hands(key: str) -> dict[str, Hand]:
    path = CORPUS / SITE_FILES[key]
    if not path.is_file():
        pytest.skip(f"corpus file absent: {path}")
    return {h.hand_id: h for h in read_file(path).hands}


def _site_hand(key: str, hand_id: str | None = None) -> Hand:
    hands = _site_hands(key)
    return hands[hand_id] if hand_id else next(iter(hands.values()))


def _found(hand: Hand, profile: RuleProfile | None = None) -> list[tuple[str, int, str]]:
    return [(v.rule, v.line, v.message) for v in check_hand(hand, profile).violations]


def _swap(hand: Hand, kind: type, i: int = 0, j: int = 1) -> Hand:
    """``hand`` with its i-th and j-th events of type ``kind`` swapped (line numbers kept)."""
    at = [n for n, e in enumerate(hand.events) if isinstance(e, kind)]
    events = list(hand.events)
    a, b = events[at[i]], events[at[j]]
    events[at[i]], events[at[j]] = replace(b, line=a.line), replace(a, line=b.line)
    return replace(hand, events=tuple(events))


def _collect_as(hand: Hand, amount: str, player: str | None = None) -> Hand:
    """``hand`` with its first collection changed to ``amount`` (and to ``player``)."""
    events = list(hand.events)
    n = next(n for n, e in enumerate(events) if isinstance(e, Collect))
    old = events[n]
    events[n] = replace(old, amount=Decimal(amount), player=player or old.player)  # type: ignore[call-arg]
    return replace(hand, events=tuple(events))


def test_every_site_has_its_profile() -> None:
    for name in site_names():
        profile = get_profile(name)
        assert profile.name == name and profiles()[name] is profile
    assert get_profile("fulltilt") is FULLTILT and get_profile("ipoker") is IPOKER


def test_fulltilt_deals_from_an_unlogged_rotating_button() -> None:
    # 10-Game hand 29704127410: seats 1 2 4 5 6, 3rd street dealt 5 6 1 2 4, later streets likewise
    assert FULLTILT.deal_start == "first_dealt" and FULLTILT.deals_in_order
    hands = _site_hands("fulltilt")
    assert all(check_hand(h).violations == () for h in hands.values())
    hand = hands["29704127410"]
    from_lowest = replace(FULLTILT, deal_start="lowest_seat")
    assert _found(hand, from_lowest) == [
        ("deal.order", 60, "TreeVegas dealt out of clockwise order"),
        ("deal.order", 84, "grimyreaper1 dealt out of clockwise order"),
    ]
    # twin: two 4th-street deals swapped are out of order from any start
    swapped = _swap(hand, Deal, 5, 6)
    assert [r for r, _, _ in _found(swapped)] == ["deal.order"]


def test_winning_lists_the_heros_deal_first() -> None:
    # ACR hand 85198832: 3rd street dealt to seats 1, 7, 8, 4, 5 (the hero's line first)
    assert not WINNING.deals_in_order
    hand = _site_hand("winning", "85198832")
    assert _found(hand) == []
    assert _found(hand, replace(WINNING, deals_in_order=True)) == [
        ("deal.order", 18, "Player0 dealt out of clockwise order")]


def test_merge_writes_the_heros_cards_after_everyone_elses() -> None:
    assert not MERGE.deals_in_order
    hand = _site_hand("merge", "31423297-107")
    assert _found(hand) == []
    assert _found(hand, replace(MERGE, deals_in_order=True)) == [
        ("deal.order", 29, "Hero dealt out of clockwise order")]


def test_winamax_lists_later_deals_from_the_first_to_act() -> None:
    assert not WINAMAX.deals_in_order
    hand = _site_hand("winamax_stud")  # 5th street: Player0 (seat 4, KK showing) dealt before Hero (seat 1)
    assert _found(hand) == []
    assert _found(hand, replace(WINAMAX, deals_in_order=True)) == [
        ("deal.order", 21, "Hero dealt out of clockwise order")]


def test_winamax_first_bettor_of_the_final_round_shows_first() -> None:
    assert WINAMAX.show_order_bet == "first_bettor"
    # 9250793-470, 7th street: Player0 bets, Hero raises, Player0 calls; Player0 shows first
    hand = _site_hand("winamax_stud")
    assert _found(hand) == []
    last_aggressor = replace(WINAMAX, show_order_bet="last_aggressor")
    assert _found(hand, last_aggressor) == [
        ("showdown.order", 36, "Hero made the last bet or raise (7th street) and shows first, not Player0")]
    # 9250793-1578: Player1 completes, Player0 re-raises all-in for less; Player1 shows first
    assert _found(_site_hand("winamax_allin")) == []
    # twin: Hero showing first is flagged
    assert _found(_swap(hand, Show)) == [
        ("showdown.order", 36, "Player0 made the first bet (7th street) and shows first, not Hero")]


def test_winamax_keeps_the_uncalled_bet_in_the_pot() -> None:
    # 9250793-444: Player0 bets 50 on 6th, Hero folds; no return line; "collected 258",
    # "Total pot 258 | Rake 2": 260 put in, so both figures include the 50 that came back
    assert not WINAMAX.logs_uncalled and WINAMAX.uncalled_in_pot
    hand = _site_hand("winamax_razz")
    assert _found(hand) == []
    assert check_hand(hand).net == {"Hero": Decimal(-105), "Player0": Decimal(103)}
    assert _found(hand, replace(WINAMAX, logs_uncalled=True)) == [
        ("pot.uncalled", 29, "Player0's uncalled 50 was not returned")]
    assert _found(hand, replace(WINAMAX, uncalled_in_pot=False)) == [
        ("pot.total", 31, "total pot should be 210 (contributions less returned bets), the log says 260")]
    # twin: collecting more than the pot is still a fault
    assert [r for r, _, _ in _found(_collect_as(hand, "300"))] == ["pot.total"]


def test_kingsclub_returns_uncalled_bets_without_a_line() -> None:
    # Razz 39969356: Hero bets 40 on 4th, Player0 folds; "Hero wins pot (99)", "Rake 1",
    # and the summary's "+49" proves the 40 came back
    assert not KINGSCLUB.logs_uncalled and not KINGSCLUB.uncalled_in_pot
    hand = _site_hand("kingsclub")
    assert _found(hand) == []
    assert check_hand(hand).net == {"Player0": Decimal(-50), "Hero": Decimal(49)}
    assert _found(hand, replace(KINGSCLUB, logs_uncalled=True)) == [
        ("pot.total", 21, "total pot should be 140 (contributions less returned bets), the log says 100"),
        ("pot.uncalled", 22, "Hero's uncalled 40 was not returned"),
    ]
    # twin: the winner also taking the returned bet from the pot is a fault
    assert [r for r, _, _ in _found(_collect_as(hand, "139"))] == ["pot.total"]


def test_everleaf_returns_uncalled_bets_silently_and_never_states_the_rake() -> None:
    assert not EVERLEAF.logs_uncalled and not EVERLEAF.states_rake
    hands = _site_hands("everleaf")
    assert all(check_hand(h).violations == () for h in hands.values())
    # 285997460: Player4 bets 0.10 on 6th, Player2 folds, "Player4 wins $ 0.08 USD from main pot"
    folded_to = hands["285997460"]
    assert _found(folded_to, replace(EVERLEAF, logs_uncalled=True)) == [
        ("pot.uncalled", 30, "Player4's uncalled 0.10 was not returned")]
    # 285997675: 0.34 in the pot once the 0.10 came back, "wins $ 0.32": a 0.02 rake never stated
    raked = hands["285997675"]
    assert check_hand(raked).rake == Decimal("0.02")
    assert _found(raked, replace(EVERLEAF, states_rake=True)) == [
        ("showdown.award", 64, "the pot: expected Player2 0.34; the log has Player2 0.32")]
    # twin: collecting more than the pot is still a fault
    assert [r for r, _, _ in _found(_collect_as(raked, "0.44"))] == ["pot.total"]


def test_partypoker_wins_include_the_uncalled_bet_net_of_an_unstated_rake() -> None:
    assert not PARTYPOKER.logs_uncalled and PARTYPOKER.uncalled_in_pot and not PARTYPOKER.states_rake
    # 10399817763: 12.80 called, Player8's $1 river bet uncalled, "Player8 wins $13.20 USD":
    # the $1 back plus 12.80 less a $0.60 rake the log never states
    hand = _site_hand("party_uncalled")
    checked = check_hand(hand)
    assert checked.violations == () and checked.rake == Decimal("0.60")
    assert checked.net["Player8"] == Decimal("6.15")
    assert _found(hand, replace(PARTYPOKER, states_rake=True)) == [
        ("showdown.award", 54, "the pot: expected Player8 12.80; the log has Player8 12.20")]
    assert _found(hand, replace(PARTYPOKER, uncalled_in_pot=False)) == [
        ("pot.total", 54, "collected 13.20 is more than the pot 12.80")]
    # hi/lo 9581478205: 8.85 contributed, "wins $8.45" (rake 0.40); the cards come only from the showdown
    hilo = _site_hand("party_hilo")
    assert _found(hilo) == [] and check_hand(hilo).rake == Decimal("0.40")
    assert _found(hilo, replace(PARTYPOKER, states_rake=True)) == [
        ("showdown.award", 53, "the pot: expected PPPPPositive 8.85; the log has PPPPPositive 8.45")]
    # twin: the unstated rake does not hide the wrong winner (strandalleen mucked a pair)
    wrong = _found(_collect_as(hilo, "8.45", "strandalleen"))
    assert [r for r, _, _ in wrong] == ["showdown.award"]


def test_bovada_all_in_run_outs_show_in_seat_order() -> None:
    assert BOVADA.show_order_all_in == "deal_order"
    hands = _site_hands("bovada")
    # 2633131343: everyone all-in on 4th; Seat+4 raised last, Seat+2 Seat+4 Seat+5 show in seat order
    hand = hands["2633131343"]
    assert _found(hand) == []
    by_betting = replace(BOVADA, show_order_all_in="by_betting")
    assert _found(hand, by_betting) == [
        ("showdown.order", 1833, "Seat+4 made the last bet or raise (4th street) and shows first, not Seat+2")]
    assert _found(hands["2633132391"], by_betting) == [
        ("showdown.order", 2016, "Seat+8 made the last bet or raise (5th street) and shows first, not Seat+1")]
    # twin: out of seat order in a run-out is flagged
    assert _found(_swap(hand, Show)) == [
        ("showdown.order", 1833, "after an all-in run-out hands show in dealing order: Seat+2 first, not Seat+4")]


def test_bovada_first_to_act_shows_first_when_the_river_is_checked() -> None:
    assert BOVADA.show_order_no_bet == "first_to_act"
    hands = _site_hands("bovada")
    # 2633119264: 7th street Seat+3 checks, Seat+2 checks; Seat+3 shows first
    hand = hands["2633119264"]
    assert _found(hand) == []
    assert _found(hand, replace(BOVADA, show_order_no_bet="deal_order")) == [
        ("showdown.order", 399, "nobody bet the final round: Seat+2 shows first, not Seat+3")]
    assert _found(_swap(hand, Show)) == [
        ("showdown.order", 399, "nobody bet the final round: Seat+3, first to act, shows first, not Seat+2")]


def test_ipoker_xml_does_not_record_the_order_of_shows() -> None:
    # the XML lists shown cards per player with no sequence: every show of a hand is on one line
    assert not IPOKER.logs_show_order
    hands = _site_hands("ipoker")
    for hand in hands.values():
        lines = {e.line for e in hand.events if isinstance(e, (Show, Muck))}
        assert len(lines) <= 1, hand.hand_id
    # 4044860416: river checked; the order of the Show events is the parser's, not the site's,
    # so judging it would judge the parser
    hand = hands["4044860416"]
    judged = replace(IPOKER, logs_show_order=True, show_order_no_bet="first_to_act")
    assert _found(hand, judged) == [
        ("showdown.order", 232, "nobody bet the final round: Player5, first to act, shows first, not Player20")]
    assert _found(hand) == [] and _found(_swap(hand, Show)) == []
