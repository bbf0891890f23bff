"""One test per rule id of docs/rules.md that a log can show.

Each rule has an illegal hand flagged with that id at the right line (the first
violation of the hand) and a legal twin that is not flagged. Where possible the
illegal hand is a real PokerStars hand with one line changed, read from the
corpus at test time; the legal twin is then the real hand itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import pytest

from studbook.check import TableMemory, check_hand
from studbook.engine.state import StudState
from studbook.events import ActionKind, Hand, Variant
from studbook.parse import parse_text, read_file

from test_engine_build import CORPUS, HandBuilder, corpus_text, first, heads_up_stud, rules, third_street

D = Decimal

STUD = "7-Stud-USD-0.04-0.08-200911.txt"  # 11 cash stud hands, one table
SALM = "HH20110417 Salm IX - $0.04-$0.08 Ante $0.01 - USD Limit Stud.txt"  # side pot, open pair
RAZZ = "Razz-8max-USD-200-15-201009.bracket.in.alias.txt"  # capped 3rd street
GAME8 = "8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"  # heads-up stud, stud8, razz
ANTE = "7-StudHL-USD-0.98-0.12-202302.allin.ante.txt"  # bring-in player all-in from the ante
TRIPLE = "Triple-Stud-USD-2.00-0.20-MTT-201301.txt"  # all-in call for less, uncalled bet
COMMUNITY = "7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt"  # eight players, community card
HILO = "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt"  # split pot
THREEBET = "7-StudHL-USD-400-800-201701.3bet.fix.txt"  # heads-up re-raises


def hands_of(text: str, name: str) -> dict[str, Hand]:
    return {r.hand_id: r for r in parse_text(text, file=name) if isinstance(r, Hand)}


def line_of(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


@dataclass(frozen=True)
class Mutation:
    rule: str
    file: str
    hand_id: str | None
    old: str
    new: str
    at: str | None = None  # the text of the line the violation is on; default the first line of `new`

    def id(self) -> str:
        return self.rule


MUTATIONS = [
    Mutation("deal.ante", STUD, "35874004239", "Nikolay Zem: posts the ante $0.01", "Nikolay Zem: posts the ante $0.02"),
    Mutation("deal.pattern", STUD, "35874004239", "Dealt to Nikolay Zem [9s] [6h]", "Dealt to Nikolay Zem [9s] [6h 5h]"),
    Mutation("deal.pattern", STUD, "35874004239", "Dealt to Nikolay Zem [9s] [6h]\n", "",
             at="Hero: checks \nNikolay Zem: checks"),
    Mutation("deal.order", STUD, "35874004239", "Dealt to Nikolay Zem [9s]\nDealt to totof51 [Td]",
             "Dealt to totof51 [Td]\nDealt to Nikolay Zem [9s]", at="Dealt to Nikolay Zem [9s]\nDealt to trs2758"),
    Mutation("deal.order", STUD, "35874004239", "Dealt to Nikolay Zem [9s 6h] [7s]",
             "Dealt to Hero [3d Th As Qc] [Js]\nDealt to Nikolay Zem [9s 6h] [7s]"),
    Mutation("cards.unique", STUD, "35874004239", "Dealt to Nikolay Zem [9s]", "Dealt to Nikolay Zem [As]"),
    Mutation("cards.consistent", STUD, "35874039554", "Nikolay Zem: shows [Ac 4d 7d Td 3d Tc 2h]",
             "Nikolay Zem: shows [Ac 4d 7d Td 3h Tc 2h]"),
    Mutation("cards.count", STUD, "35874039554", "Nikolay Zem: shows [Ac 4d 7d Td 3d Tc 2h]",
             "Nikolay Zem: shows [Ac 4d 7d Td 3d Tc 2h 5s]"),
    Mutation("cards.count", COMMUNITY, None, "Player3: shows [7s Qs 6c 7h 3s Qh]",
             "Player3: shows [7s Qs 6c 7h 3s Qh 2h]"),
    Mutation("bringin.player", STUD, "35874004239", "MasterTrini1: brings in for $0.02\nHero: calls $0.02",
             "Hero: brings in for $0.02\nMasterTrini1: calls $0.02"),
    Mutation("bringin.player", RAZZ, None, "Dealt to Player5 [Kd]", "Dealt to Player5 [2d]",
             at="Player5: brings in for 15"),
    Mutation("bringin.allin", ANTE, None, "Player5: brings in for 60\nPlayer6: calls 60",
             "Player6: brings in for 60\nPlayer5: calls 60"),
    Mutation("bringin.amount", STUD, "35874004239", "MasterTrini1: brings in for $0.02",
             "MasterTrini1: brings in for $0.04"),
    Mutation("bringin.complete", RAZZ, None, "PC [Mittel]: raises 35 to 50", "PC [Mittel]: raises 45 to 60"),
    Mutation("bringin.complete", RAZZ, None, "Hero: raises 50 to 100", "Hero: completes it to 100"),
    Mutation("order.third", STUD, "35874004239", "Nikolay Zem: calls $0.02\ntotof51: calls $0.02",
             "totof51: calls $0.02\nNikolay Zem: calls $0.02"),
    Mutation("order.first", STUD, "35874004239",
             "Hero: checks \nNikolay Zem: checks \ntotof51: checks \ntrs2758: checks \nMasterTrini1: bets",
             "Nikolay Zem: checks \ntotof51: checks \ntrs2758: checks \nHero: checks \nMasterTrini1: bets"),
    Mutation("order.first", GAME8, "99632365500", "Player0: bets 30\nHero: folds \n",
             "Hero: bets 30\nPlayer0: folds \n"),  # tied boards: seat 1 (first dealt) acts first
    Mutation("order.turn", STUD, "35874004239", "Hero: checks \nNikolay Zem: checks \ntotof51: checks",
             "Hero: checks \ntotof51: checks \nNikolay Zem: checks", at="totof51: checks \nNikolay"),
    Mutation("order.turn", ANTE, None, "Player5: brings in for 60\nPlayer6: calls 60",
             "Player5: brings in for 60\nHero: calls 60\nPlayer6: calls 60", at="Hero: calls 60"),
    Mutation("order.streets", STUD, "35874004239", "trs2758: calls $0.02\n*** 4th", "*** 4th",
             at="*** 4th STREET ***\nDealt to Hero [3d Th As] [Qc]"),
    Mutation("bet.size", THREEBET, None, "Player0: raises $400 to $800", "Player0: raises $500 to $900"),
    Mutation("bet.size", STUD, "35874004239", "trs2758: bets $0.08\nMasterTrini1: calls $0.08\nNikolay Zem: calls $0.08",
             "trs2758: bets $0.04\nMasterTrini1: calls $0.04\nNikolay Zem: calls $0.04"),
    Mutation("bet.open_pair", STUD, "35874004239",
             "MasterTrini1: bets $0.04\nHero: folds \nNikolay Zem: calls $0.04\ntotof51: folds \ntrs2758: calls $0.04",
             "MasterTrini1: bets $0.08\nHero: folds \nNikolay Zem: calls $0.08\ntotof51: folds \ntrs2758: calls $0.08"),
    Mutation("bet.open_pair", GAME8, "99632234066", "Player0: bets 30\nHero: calls 30\n*** 5th STREET ***\nDealt to Player0 [Jc 5s]",
             "Player0: bets 60\nHero: calls 60\n*** 5th STREET ***\nDealt to Player0 [Jc 5s]"),  # razz
    Mutation("bet.cap", RAZZ, None, "Hero: raises 50 to 200\nBetting is capped\nPlayer2: calls 50\nPC [Mittel]: calls 50",
             "Hero: raises 50 to 200\nPlayer2: raises 50 to 250\nPC [Mittel]: calls 100\nHero: calls 50",
             at="Player2: raises 50 to 250"),
    Mutation("bet.cap", RAZZ, None, "Player2: raises 50 to 150\n", "Player2: raises 50 to 150\nBetting is capped\n",
             at="Betting is capped"),
    Mutation("bet.allin", TRIPLE, None, "Player5: calls 72 and is all-in", "Player5: calls 70"),
    Mutation("bet.check", STUD, "35874004239", "Hero: calls $0.02\nNikolay Zem: calls $0.02",
             "Hero: calls $0.02\nNikolay Zem: checks", at="Nikolay Zem: checks"),
    Mutation("chips.stack", SALM, None, "Seat 8: Spacemasa ($0.11 in chips)", "Seat 8: Spacemasa ($0.10 in chips)",
             at="Spacemasa: bets $0.08 and is all-in"),
    Mutation("pot.uncalled", STUD, "35874004239", "Uncalled bet ($0.08) returned to trs2758",
             "Uncalled bet ($0.06) returned to trs2758"),
    Mutation("pot.side", SALM, None, "Main pot $0.42. Side pot $0.61.", "Main pot $0.52. Side pot $0.51.",
             at="Total pot $1.08"),
    Mutation("pot.total", STUD, "35874004239", "trs2758 collected $0.64 from pot", "trs2758 collected $0.65 from pot"),
    Mutation("pot.total", STUD, "35874004239", "Total pot $0.67 | Rake $0.03", "Total pot $0.68 | Rake $0.04"),
    Mutation("showdown.order", GAME8, "99632255544",
             "Hero: shows [Ad 2h 3s 5s 6d 9s 7h] (Lo: 6,5,3,2,A)\nPlayer0: mucks hand ",
             "Player0: mucks hand \nHero: shows [Ad 2h 3s 5s 6d 9s 7h] (Lo: 6,5,3,2,A)"),
    Mutation("showdown.award", STUD, "35874039554", "Nikolay Zem collected $0.77 from pot",
             "MasterTrini1 collected $0.77 from pot"),
    Mutation("showdown.award", HILO, None, "gashpor collected $0.40 from pot\nHero collected $0.40 from pot",
             "gashpor collected $0.80 from pot"),
    Mutation("showdown.award", SALM, None, "ranchim collected $0.42 from main pot", "Spacemasa collected $0.42 from main pot"),
    Mutation("showdown.award", SALM, None, "ranchim collected $0.61 from side pot", "Tumim collected $0.61 from side pot"),
]


def _only(hands: dict[str, Hand], hand_id: str | None) -> Hand:
    if hand_id is None:
        assert len(hands) == 1
        return next(iter(hands.values()))
    return hands[hand_id]


@pytest.mark.parametrize("m", MUTATIONS, ids=[m.rule for m in MUTATIONS])
def test_one_changed_line_of_a_real_hand_is_flagged(m: Mutation) -> None:
    original = corpus_text(m.file)
    assert m.old in original
    legal = _only(hands_of(original, m.file), m.hand_id)
    assert check_hand(legal).violations == (), "the real hand (legal twin) must pass"
    start = original.index(f"#{m.hand_id}:") if m.hand_id else 0
    assert m.old in original[start:]
    text = original[:start] + original[start:].replace(m.old, m.new, 1)
    illegal = _only(hands_of(text, m.file), m.hand_id)
    check = check_hand(illegal)
    expected_line = line_of(text[start:], m.at if m.at is not None else m.new) + text[:start].count("\n")
    assert first(check) == (m.rule, expected_line), check.violations


def test_community_card_missing_is_flagged() -> None:
    original = corpus_text(COMMUNITY)
    text = original.replace("*** RIVER *** [6h]", "*** RIVER ***").replace("Board [6h]\n", "")
    check = check_hand(_only(hands_of(text, COMMUNITY), None))
    assert first(check) == ("cards.community", line_of(text, "*** RIVER ***\nHero: checks") + 1)
    assert check.violations[0].message == "deck has 4 cards for 8 players: a community card is due"
    assert check_hand(_only(hands_of(original, COMMUNITY), None)).violations == ()


def test_bring_in_differs_from_the_table_bring_in_across_hands() -> None:
    original = corpus_text(STUD)
    old = ("RoadDevil: brings in for $0.02\nMasterTrini1: calls $0.02\nHero: folds \nNikolay Zem: calls $0.02\n"
           "totof51: calls $0.02\ntrs2758: calls $0.02")
    new = ("RoadDevil: brings in for $0.01\nMasterTrini1: calls $0.01\nHero: folds \nNikolay Zem: calls $0.01\n"
           "totof51: calls $0.01\ntrs2758: calls $0.01")
    text = original.replace(old, new)
    memory = TableMemory()
    results = {h: check_hand(hand, memory=memory) for h, hand in hands_of(text, STUD).items()}
    flagged = {h: rules(c) for h, c in results.items() if c.violations}
    line = line_of(text, "RoadDevil: brings in for $0.01")
    assert flagged["35874039554"][0] == ("bringin.amount", line)
    assert results["35874039554"].violations[0].message == (
        "bring-in should be 0.02 as in hand 35874004239 at this table and stakes, not 0.01")
    memory = TableMemory()
    assert all(check_hand(hand, memory=memory).violations == () for hand in hands_of(original, STUD).values())


# ---------------------------------------------------------------------------- hand-built


def test_deal_players_needs_two_to_eight() -> None:
    h = HandBuilder(seats=((1, "A", "100"),))
    h.antes()
    line = h.street(3)
    h.deal("A", up="Kh")
    assert first(h.check()) == ("deal.players", line)
    nine = HandBuilder(seats=tuple((i, f"P{i}", "100") for i in range(1, 10)))
    nine.antes()
    line = nine.street(3)
    assert first(nine.check()) == ("deal.players", line)
    two = heads_up_stud()
    two.act("B", "bring_in", "1")
    two.act("A", "fold")
    two.uncalled("B", "1")
    two.collect("B", "1")
    assert two.check().violations == ()


def test_deal_ante_short_only_when_all_in() -> None:
    h = HandBuilder(seats=((1, "A", "100"), (2, "B", "0.3")))
    h.ante("A", "0.5")
    ok = h.ante("B", "0.3", all_in=True)
    h.street(3)
    h.deal("A", up="Kh")
    h.deal("B", up="3c")
    h.act("A", "bring_in", "1")  # B all-in from the ante: A, on B's left, opens
    h.uncalled("A", "1")
    h.collect("B", "0.6")
    h.collect("A", "0.2")
    check = h.check()
    assert not [v for v in check.violations if v.rule == "deal.ante"], (ok, check.violations)
    bad = HandBuilder(seats=((1, "A", "100"), (2, "B", "100")))
    bad.ante("A", "0.5")
    line = bad.ante("B", "0.3")
    assert first(bad.check()) == ("deal.ante", line)


def test_antes_do_not_count_toward_bets() -> None:
    h = heads_up_stud()
    h.act("B", "bring_in", "1")
    h.act("A", "call", "1")  # the ante already in does not reduce the call
    assert h.partial() == []


def test_stud_bring_in_ties_broken_by_suit() -> None:
    h = heads_up_stud(a_up="2d", b_up="2c")
    h.act("B", "bring_in", "1")
    h.act("A", "call", "1")
    assert h.partial() == []
    bad = heads_up_stud(a_up="2d", b_up="2c")
    line = bad.act("A", "bring_in", "1")
    assert first(bad.check()) == ("bringin.player", line)
    assert bad.check().violations[0].message == "bring-in should be B (2c, lowest up card), not A (2d)"


def test_razz_bring_in_is_the_highest_card_spades_first() -> None:
    h = HandBuilder(variant="razz", seats=((1, "A", "100"), (2, "B", "100")))
    h.antes()
    h.street(3)
    h.deal("A", up="Kh")
    h.deal("B", up="Ks")
    line = h.act("A", "bring_in", "1")
    assert first(h.check()) == ("bringin.player", line)
    assert h.check().violations[0].message == "bring-in should be B (Ks, highest up card), not A (Kh)"


def test_partial_bring_in_all_in_and_others_enter_for_the_full_amount() -> None:
    h = third_street({"A": "Kh", "B": "3c"}, {"B": "1.1"})
    h.act("B", "bring_in", "0.6", all_in=True)
    h.act("A", "call", "1")  # the normal bring-in, not the partial 0.6
    assert h.partial() == []
    bad = third_street({"A": "Kh", "B": "3c"}, {"B": "1.1"})
    bad.act("B", "bring_in", "0.6", all_in=True)
    line = bad.act("A", "call", "0.6")
    assert first(bad.check()) == ("bet.allin", line)


def test_bring_in_amount_from_header_and_the_small_bet() -> None:
    h = heads_up_stud()
    line = h.act("B", "bring_in", "1.5")
    assert first(h.check()) == ("bringin.amount", line)
    assert h.check().violations[0].message == "bring-in should be 1 at this table, not 1.50"


def test_completion_by_the_bring_in_player_and_by_others() -> None:
    for opener in ("B",):
        h = heads_up_stud()
        h.act(opener, "bet", "2")  # the bring-in player opens for the full small bet
        h.act("A", "raise", "2", to="4")
        h.act("B", "call", "2")
        assert h.partial() == []
    h = heads_up_stud()
    h.act("B", "bring_in", "1")
    line = h.act("A", "raise", "3", to="4")  # completion + raise in one action
    assert first(h.check()) == ("bringin.complete", line)


def test_order_streets_skipped_round_and_betting_when_no_one_can() -> None:
    h = heads_up_stud()
    h.act("B", "bring_in", "1")
    h.act("A", "call", "1")
    h.street(4)
    h.deal("A", up="Kd")
    h.deal("B", up="4c")
    line = h.street(5)  # no betting on 4th street
    assert first(h.check()) == ("order.streets", line)
    skip = heads_up_stud()
    skip.act("B", "bring_in", "1")
    skip.act("A", "call", "1")
    line = skip.street(5)
    assert first(skip.check()) == ("order.streets", line)
    assert skip.check().violations[0].message == "after 3rd street comes 4th, not 5th"
    allin = third_street({"A": "Kh", "B": "3c"}, {"B": "1.5"})
    allin.act("B", "bring_in", "1", all_in=True)
    allin.act("A", "call", "1")
    allin.street(4)
    allin.deal("A", up="Kd")
    allin.deal("B", up="4c")
    line = allin.act("A", "check")  # B is all-in: no betting on 4th
    assert first(allin.check()) == ("order.streets", line)


def test_short_all_in_raise_does_not_reopen_the_betting() -> None:
    def completed(c_stack: str) -> HandBuilder:
        h = third_street({"A": "Kh", "B": "3c", "C": "Qd"}, {"C": c_stack})
        h.act("B", "bring_in", "1")
        h.act("C", "call", "1")
        h.act("A", "raise", "1", to="2")  # completion
        h.act("B", "call", "1")
        return h

    h = completed("4")
    h.act("C", "raise", "1.5", to="3.5", all_in=True)  # 1.5 over 2: at least half a bet, so it reopens
    h.act("A", "raise", "2", to="5.5")
    h.act("B", "call", "3.5")
    assert h.partial() == []
    short = completed("3")
    short.act("C", "raise", "0.5", to="2.5", all_in=True)  # 0.5 over 2: less than half a bet (1)
    line = short.act("A", "raise", "2", to="4.5")  # A already acted at 2: may only call
    assert first(short.check()) == ("bet.allin", line)


def test_check_with_a_bet_to_call_and_bring_in_is_a_bet() -> None:
    h = heads_up_stud()
    h.act("B", "bring_in", "1")
    line = h.act("A", "check")
    assert first(h.check()) == ("bet.check", line)


def test_open_pair_double_bet_then_big_raises_only() -> None:
    def fourth() -> HandBuilder:
        h = heads_up_stud()
        h.act("B", "bring_in", "1")
        h.act("A", "call", "1")
        h.street(4)
        h.deal("A", up="Kd")
        h.deal("B", up="4c")
        return h

    ok = fourth()
    ok.act("A", "bet", "4")
    ok.act("B", "raise", "4", to="8")
    ok.act("A", "call", "4")
    assert ok.partial() == []
    small = fourth()
    small.act("A", "bet", "2")
    small.act("B", "raise", "2", to="4")  # small raises are fine before a big bet
    small.act("A", "raise", "4", to="8")  # a big raise, now every raise is big
    line = small.act("B", "raise", "2", to="10")
    small.act("A", "call", "2")
    assert first(small.check()) == ("bet.open_pair", line)


def test_community_card_when_the_deck_suffices_is_flagged() -> None:
    names = [f"P{i}" for i in range(1, 8)]
    h = HandBuilder(seats=tuple((i + 1, n, "100") for i, n in enumerate(names)))
    h.antes()
    h.street(3)
    deck = iter(("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad "
                 "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah").split())
    for n in names:
        h.deal(n, up=next(deck))
    h.act("P1", "bring_in", "1")
    for n in names[1:]:
        h.act(n, "call", "1")
    for street in (4, 5, 6):
        h.street(street)
        for n in names:
            h.deal(n, up=next(deck))
        for n in names:
            h.act(n, "check")
    h.street(7)
    line = h.community("As")
    check = h.check()
    assert ("cards.community", line) in rules(check)


def test_no_refund_for_a_call_beaten_by_open_cards() -> None:
    h = heads_up_stud(a_up="Ah", b_up="2c")
    h.act("B", "bring_in", "1")
    h.act("A", "call", "1")
    for street, a, b in ((4, "Ad", "3c"), (5, "As", "4d"), (6, "Kh", "7s")):
        h.street(street)
        h.deal("A", up=a)
        h.deal("B", up=b)
        h.act("A", "bet", "2" if street == 4 else "4")
        h.act("B", "call", "2" if street == 4 else "4")
    h.street(7)
    h.act("A", "bet", "4")
    h.act("B", "call", "4")  # beaten by three open aces: legal, and no refund
    h.showdown()
    h.show("A", "Kd Qc Ah Ad As Kh 9c")
    h.show("B", "5h 6h 2c 3c 4d 7s 9d")
    h.collect("A", "31")
    h.summary("31")
    check = h.check()
    assert check.violations == ()
    assert check.net == {"A": D("15.5"), "B": D("-15.5")}


def test_pot_limit_hands_check_order_and_chips_but_not_limit_sizes() -> None:
    from studbook.events import Structure

    def fourth() -> HandBuilder:
        h = heads_up_stud(structure=Structure.POT)
        h.act("B", "bring_in", "1")
        h.act("A", "raise", "4", to="5")  # a pot-sized raise, not a limit completion
        h.act("B", "call", "4")
        h.street(4)
        h.deal("A", up="Kd")
        h.deal("B", up="4c")
        return h

    h = fourth()
    h.act("A", "bet", "11")
    h.act("B", "fold")
    h.uncalled("A", "11")
    h.collect("A", "11")
    h.summary("11")
    assert h.check().violations == ()
    bad = fourth()
    line = bad.act("B", "bet", "11")  # A's open kings act first
    assert first(bad.check()) == ("order.first", line)


def test_short_all_in_bring_in_at_a_table_whose_bring_in_is_not_yet_known() -> None:
    h = third_street({"A": "Kh", "B": "3c", "C": "Qd"}, {"B": "1.1"}, bring_in=None)
    h.act("B", "bring_in", "0.6", all_in=True)
    h.act("C", "call", "1")  # the normal bring-in shows itself
    h.act("A", "call", "1")
    assert h.partial() == []


# ---------------------------------------------------------------------------
# Engine fixes found on other sites' real hands (issue 5)

def _real(path: str, hand_id: str) -> Hand:
    file = CORPUS / path
    if not file.is_file():
        pytest.skip(f"corpus file absent: {file}")
    return next(h for h in read_file(file).hands if h.hand_id == hand_id)


def _ante_all_in(returned: str | None) -> HandBuilder:
    """A antes 0.5; B antes 0.3 and is all-in; the unmatched 0.2 of A's ante may come back."""
    h = HandBuilder(seats=((1, "A", "100"), (2, "B", "0.3")))
    h.ante("A", "0.5")
    h.ante("B", "0.3", all_in=True)
    if returned is not None:
        h.uncalled("A", returned)
    h.street(3)
    h.deal("A", up="Kh")
    h.deal("B", up="3c")
    return h


def _run_out(h: HandBuilder) -> HandBuilder:
    for street, (a, b) in zip((4, 5, 6), (("Kd", "4c"), ("9s", "5c"), ("2d", "7h"))):
        h.street(street)
        h.deal("A", up=a)
        h.deal("B", up=b)
    h.street(7)
    h.showdown()
    h.show("A", "As Ah Kh Kd 9s 2d Qc")  # aces and kings
    h.show("B", "2s 8h 3c 4c 5c 7h Jd")  # jack high
    return h


def test_an_unmatched_ante_returned_exactly_is_legal() -> None:
    # pot.uncalled: "Uncalled bet of 1 returned to Hero" before 3rd street (Full Tilt 31349767778)
    hand = _real("FullTilt/Razz-USD-HUSNG-200-201211.all.in.ante.txt", "31349767778")
    assert check_hand(hand).violations == ()
    ok = _run_out(_ante_all_in("0.2"))
    ok.collect("A", "0.6")
    ok.summary("0.6")
    assert ok.check().violations == ()
    kept = _run_out(_ante_all_in(None))  # or the unmatched 0.2 stays A's own side pot
    kept.collect("A", "0.8")
    kept.summary("0.8")
    assert kept.check().violations == ()
    wrong = _ante_all_in("0.3")
    line = wrong.events[2].line
    assert first(_run_out(wrong).check()) == ("pot.uncalled", line)


def test_no_betting_when_everyone_else_is_all_in_from_the_ante() -> None:
    # order.streets: A is the only player who can bet, so 3rd street has no bring-in and no betting
    legal = _run_out(_ante_all_in("0.2"))
    assert not [r for r, _ in legal.partial() if r.startswith("order.")]
    h = _ante_all_in("0.2")
    line = h.act("A", "bring_in", "1")
    assert first(h.check()) == ("order.streets", line)


def test_open_pair_is_not_judged_on_boards_the_log_does_not_show() -> None:
    def fourth(show_b: bool) -> HandBuilder:
        h = heads_up_stud(a_up="Kh", b_up="3c")
        h.act("B", "bring_in", "1")
        h.act("A", "call", "1")
        h.street(4)
        h.deal("A", up="Qd")
        if show_b:
            h.deal("B", up="4c")
        return h

    unseen = fourth(show_b=False)  # B's 4th-street card is not in the log: it may pair B's door
    unseen.act("A", "bet", "4")
    unseen.act("B", "call", "4")
    assert [r for r, _ in unseen.partial()] == []
    seen = fourth(show_b=True)  # twin: both boards known, no pair
    line = seen.act("A", "bet", "4")
    assert first(seen.check()) == ("bet.open_pair", line)
    # real hands: Party MTT 11792805420 ("double bets" with an open pair of deuces shown only at
    # the end) and Everleaf 285999989
    assert check_hand(_real("PartyPoker/7-Stud-USD-MTT-6.00-201205.txt", "11792805420")).violations == ()
    assert check_hand(_real("Everleaf/7-Stud-USD-0.05-0.10.201107.txt", "285999989")).violations == ()


def test_cards_shown_by_a_player_whose_deals_the_log_never_printed_decide_the_pot() -> None:
    h = HandBuilder(seats=((1, "A", "100"), (2, "B", "100")))
    h.antes()
    h.street(3)
    h.act("B", "bring_in", "1")
    h.act("A", "call", "1")
    for street in (4, 5, 6, 7):
        h.street(street)
        h.act("B" if street == 4 else "A", "check")
        h.act("A" if street == 4 else "B", "check")
    h.showdown()
    h.show("A", "As Ah Kh Kd 9s 2d Qc")  # two pair
    h.show("B", "3s 3h 3c 4c 5c 7h 8d")  # trips
    line = h.collect("A", "3")
    h.summary("3")
    assert rules(h.check()) == [("showdown.award", line)]


def test_after_a_short_all_in_raise_a_raise_is_one_bet_over_the_last_full_bet() -> None:
    """legal_actions() and the checker agree (issue 13): after an all-in raise of less
    than half a bet, a player it reaches raises to the last full bet plus one bet
    (2 + 2 = 4), as offered, not to the all-in plus one bet (2.5 + 2 = 4.5)."""
    def short_all_in() -> HandBuilder:
        h = third_street({"A": "Kh", "B": "3c", "C": "Qd", "D": "Jc"}, {"D": "3"})
        h.act("B", "bring_in", "1")
        h.act("C", "raise", "1", to="2")  # the completion
        h.act("D", "raise", "0.5", to="2.5", all_in=True)  # short: 2 stays the last full bet
        h.act("A", "call", "2.5")
        return h

    state = StudState(Variant.STUD, short_all_in().stakes, short_all_in().seats)
    state.apply_all(short_all_in().events)
    options = state.legal_actions()
    assert options is not None and options.player == "B"
    assert [a.to for a in options.actions if a.kind is ActionKind.RAISE] == [D(4)]
    legal = short_all_in()
    legal.act("B", "raise", "1.5", to="4")
    assert legal.partial() == []
    illegal = short_all_in()
    line = illegal.act("B", "raise", "2", to="4.5")
    assert [(v.rule, v.line, v.message) for v in illegal.check().violations if v.line == line] == [
        ("bet.size", line, "B raises to 4.50; a raise here is to 4")]
