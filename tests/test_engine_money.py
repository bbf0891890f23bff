"""Money: side pots, hi/lo splits, odd chips, uncalled bets, rake, net results, conservation."""

from __future__ import annotations

from decimal import Decimal

from studbook.engine.pots import Pot, build_pots, high_half, split, split_exact
from studbook.engine.state import StudState

from test_engine_build import HandBuilder, corpus_text, first
from test_rules import ANTE, HILO, SALM, STUD, hands_of

from studbook.check import check_hand

D = Decimal


def checkdown(h: HandBuilder, hands: dict[str, str], bring_in: str = "1") -> None:
    """Deal ``hands`` (7 cards each, dealing order: down down up up up up down),
    bring in, call, check every street down; the order comes from the engine."""
    shadow = lambda: _shadow(h)  # noqa: E731
    h.street(3)
    for name, text in hands.items():
        c = text.split()
        h.deal(name, down=" ".join(c[:2]), up=c[2])
    s = shadow()
    h.act(s.to_act, "bring_in", bring_in)  # type: ignore[arg-type]
    while (s := shadow()).to_act is not None:
        h.act(s.to_act, "call", str(s.to_call(s.to_act)))
    for street in (4, 5, 6, 7):
        h.street(street)
        for name, text in hands.items():
            c = text.split()
            if street == 7:
                h.deal(name, down=c[6])
            else:
                h.deal(name, up=c[street - 1])
        while (s := shadow()).to_act is not None:
            h.act(s.to_act, "check")
    h.showdown()


def _shadow(h: HandBuilder) -> StudState:
    s = StudState(h.header.variant, h.stakes, h.seats)
    s.apply_all(h.events)
    return s


# ----------------------------------------------------------------------------- pots


def test_build_pots_layers_folded_chips_and_merges() -> None:
    pots = build_pots([("A", D(10), True), ("B", D(50), True), ("C", D(30), False), ("D", D(50), True)])
    assert pots == [Pot(0, D(40), ("A", "B", "D")), Pot(1, D(100), ("B", "D"))]
    assert build_pots([("A", D(5), True), ("B", D(5), True)]) == [Pot(0, D(10), ("A", "B"))]
    two_all_ins = build_pots([("A", D(3), True), ("B", D(7), True), ("C", D(12), True), ("D", D(12), True)])
    assert [(p.amount, p.eligible) for p in two_all_ins] == [
        (D(12), ("A", "B", "C", "D")), (D(12), ("B", "C", "D")), (D(10), ("C", "D"))]


def test_splits_and_odd_chips() -> None:
    assert high_half(D("0.05"), D("0.01")) == D("0.03")  # the odd chip goes high
    assert split(D("0.05"), ["A", "B"], D("0.01")) == {"A": (D("0.02"), D("0.03")), "B": (D("0.02"), D("0.03"))}
    assert split_exact(D(7), ["A", "B", "C"], D(1)) == {"A": D(3), "B": D(2), "C": D(2)}


# ----------------------------------------------------------------------------- real hands


def test_side_pots_of_a_real_hand() -> None:
    hand = next(iter(hands_of(corpus_text(SALM), SALM).values()))
    check = check_hand(hand)
    assert check.violations == ()
    assert [(p.pot, p.amount, p.eligible, p.high) for p in check.pots] == [
        (0, D("0.44"), ("ranchim", "Tumim", "Spacemasa"), (("ranchim", D("0.42")),)),
        (1, D("0.64"), ("ranchim", "Tumim"), (("ranchim", D("0.61")),)),
    ]
    assert check.rake == D("0.05")
    assert check.net["ranchim"] == D("0.60") and check.net["Spacemasa"] == D("-0.11")
    assert check.net["Tumim"] == D("-0.43")
    assert sum(check.net.values(), D(0)) + check.rake == 0


def test_hi_lo_side_pot_with_a_player_all_in_from_the_ante() -> None:
    hand = next(iter(hands_of(corpus_text(ANTE), ANTE).values()))
    check = check_hand(hand)
    assert check.violations == ()
    main, side = check.pots
    assert (main.amount, side.amount) == (D(320), D(300))
    assert "Hero" in main.eligible and "Hero" not in side.eligible
    assert main.high == (("Hero", D(320)),)  # scoops: best high (a straight) and best low (5-4-3-2-A)
    assert dict(side.high) == {"Player0": D(150), "Player3": D(150)}  # high Player3, low Player0
    assert check.net == {"Player0": D(50), "Player1": D(-100), "Player2": D(-40), "Player3": D(50),
                         "Player4": D(-40), "Hero": D(280), "Player5": D(-100), "Player6": D(-100)}


def test_hi_lo_split_of_a_real_hand_and_a_wrong_split() -> None:
    original = corpus_text(HILO)
    check = check_hand(next(iter(hands_of(original, HILO).values())))
    assert check.violations == ()
    assert check.net["Hero"] == D("0.13") and check.net["gashpor"] == D("0.13")
    text = original.replace("gashpor collected $0.40 from pot\nHero collected $0.40 from pot",
                            "gashpor collected $0.41 from pot\nHero collected $0.39 from pot")
    bad = check_hand(next(iter(hands_of(text, HILO).values())))
    assert first(bad)[0] == "showdown.award"
    assert bad.violations[0].message == "the pot: expected gashpor 0.40, Hero 0.40; the log has gashpor 0.41, Hero 0.39"


def test_uncalled_bet_and_rake_of_a_real_hand() -> None:
    hands = hands_of(corpus_text(STUD), STUD)
    check = check_hand(hands["35874004239"])
    assert check.violations == ()
    result = {p.player: p for p in check.players}
    assert result["trs2758"].contributed == D("0.23")  # 0.31 put in, 0.08 returned
    assert result["trs2758"].collected == D("0.64") and result["trs2758"].net == D("0.41")
    assert check.rake == D("0.03")
    assert sum(check.net.values(), D(0)) + check.rake == 0


# ----------------------------------------------------------------------------- hand-built


def _stud8(stacks: tuple[str, str] = ("100", "100")) -> HandBuilder:
    h = HandBuilder(variant="stud8", seats=((1, "A", stacks[0]), (2, "B", stacks[1])), ante="0.5", bring_in="1")
    h.antes()
    return h


def test_stud8_no_qualifying_low_gives_the_whole_pot_to_the_high() -> None:
    hands = {"A": "Kh Kd Qs Qd 9c 9h 2s", "B": "Ah Jd 3c Tc 9s 4h 5d"}  # B's low 9-... does not qualify
    h = _stud8()
    checkdown(h, hands)
    h.show("A", "Kh Kd Qs Qd 9c 9h 2s")
    h.show("B", "Ah Jd 3c Tc 9s 4h 5d")
    h.collect("A", "3")
    h.summary("3")
    assert h.check().violations == ()
    bad = _stud8()
    checkdown(bad, hands)
    bad.show("A", "Kh Kd Qs Qd 9c 9h 2s")
    bad.show("B", "Ah Jd 3c Tc 9s 4h 5d")
    line = bad.collect("A", "1.5")
    bad.collect("B", "1.5")
    bad.summary("3")
    assert first(bad.check()) == ("showdown.award", line)


def test_stud8_odd_chip_goes_to_the_high_half() -> None:
    hands = {"A": "Kh Kd Qs Qd 9c 9h Js", "B": "Ah 2d 3c Tc 4s 5h Jd"}  # B: wheel low and a straight? no: A-2-3-4-5 is a straight
    hands["B"] = "Ah 2d 3c Tc 4s 6h Jd"  # B: 6-4-3-2-A low, ace high; A: two pair high
    h = HandBuilder(variant="stud8", seats=((1, "A", "100"), (2, "B", "100")), small="0.02", big="0.04",
                    ante="0.005", bring_in="0.01")
    h.antes("0.005")
    checkdown(h, hands, bring_in="0.01")
    h.show("A", hands["A"])
    h.show("B", hands["B"])
    h.collect("A", "0.015")  # pot 0.03 in half-cent chips: 0.015 / 0.015
    h.collect("B", "0.015")
    h.summary("0.03")
    assert h.check().violations == ()
    odd = HandBuilder(variant="stud8", seats=((1, "A", "100"), (2, "B", "100")), small="0.02", big="0.04",
                      ante="0.01", bring_in="0.01")
    odd.antes()
    checkdown(odd, hands, bring_in="0.01")
    odd.show("A", hands["A"])
    odd.show("B", hands["B"])
    odd.collect("A", "0.02")  # pot 0.04, rake 0.01: 0.03 to split, the odd cent high
    odd.collect("B", "0.01")
    odd.summary("0.04", "0.01")
    assert odd.check().violations == ()
    wrong = HandBuilder(variant="stud8", seats=((1, "A", "100"), (2, "B", "100")), small="0.02", big="0.04",
                        ante="0.01", bring_in="0.01")
    wrong.antes()
    checkdown(wrong, hands, bring_in="0.01")
    wrong.show("A", hands["A"])
    wrong.show("B", hands["B"])
    line = wrong.collect("A", "0.01")  # the odd cent given low
    wrong.collect("B", "0.02")
    wrong.summary("0.04", "0.01")
    assert first(wrong.check()) == ("showdown.award", line)


def test_tied_high_hands_split_with_the_odd_chip_to_either() -> None:
    hands = {"A": "Ah Kd Qs Jd 9c 2h 3s", "B": "Ac Ks Qh Jc 9d 2d 3c"}
    h = HandBuilder(seats=((1, "A", "100"), (2, "B", "100")), small="2", big="4", ante="0.5", bring_in="1")
    h.antes()
    checkdown(h, hands)
    h.show("A", hands["A"])
    h.show("B", hands["B"])
    h.collect("B", "1.5")
    h.collect("A", "1.5")
    h.summary("3")
    assert h.check().violations == ()
    assert h.check().net == {"A": D(0), "B": D(0)}


def test_net_results_sum_to_minus_rake() -> None:
    hands = {"A": "Ah Kd Qs Jd 9c 2h 3s", "B": "Ac Ks Qh Jc 8d 2d 3c", "C": "5h 6h 7c 8c Ts 4d 4c"}
    h = HandBuilder(seats=((1, "A", "100"), (2, "B", "100"), (3, "C", "100")))
    h.antes()
    checkdown(h, hands)
    h.show("A", hands["A"])
    h.muck("B")
    h.muck("C")
    h.collect("A", "4")
    h.summary("4.5", "0.5")
    check = h.check()
    assert check.violations == ()
    assert sum(check.net.values(), D(0)) + check.rake == 0
    assert check.net == {"A": D("2.5"), "B": D("-1.5"), "C": D("-1.5")}


def test_a_contested_end_is_a_showdown_with_or_without_the_marker() -> None:
    """Sites that write no showdown line (Full Tilt after an all-in, KingsClub)
    still end contested hands with two or more live players: a showdown."""
    from dataclasses import replace

    from studbook.events import ShowdownStart
    from studbook.simulate import simulate_hands

    hands = list(simulate_hands("stud", 60, 4, seed=11))
    marked = [h for h in hands if any(isinstance(e, ShowdownStart) for e in h.events)]
    uncontested = [h for h in hands if h not in marked]
    assert marked and uncontested
    for hand in marked:
        unmarked = replace(hand, events=tuple(e for e in hand.events if not isinstance(e, ShowdownStart)))
        result = check_hand(unmarked)
        assert result.went_to_showdown
        assert {p.player for p in result.players if p.won_at_showdown} == {
            p.player for p in check_hand(hand).players if p.won_at_showdown}
    assert not any(check_hand(hand).went_to_showdown for hand in uncontested)
