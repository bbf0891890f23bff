"""The readers' one betting ledger (``studbook.sites.ledger.Ledger``): what the line readers and
the XML readers share, and the sites' differences as its options, on hand-made betting and on a
real Bovada hand edited. (The property test that its two entries normalise alike is in
``test_betting.py``; the real corpus runs through it in every site's tests.)"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from studbook.events import ActionKind, Hand, Street
from studbook.parse import parse_text
from studbook import betting
from studbook.sites import lines, phh, xml_common
from studbook.sites.ledger import Ledger
from samples import CORPUS

D = Decimal
K = ActionKind
BOVADA = CORPUS / "Bovada" / "7-Stud-USD-MTT - $10-$1 - 201206.txt"


def _seated(**options: bool) -> Ledger:
    ledger = Ledger({"A": D(100), "B": D(2), "C": D(100)}, **options)
    for player in ("A", "B", "C"):
        ledger.post_ante(player, D(2) if player == "B" else D(1))
    ledger.start(Street.THIRD)
    return ledger


def test_there_is_one_ledger_for_every_reader_family() -> None:
    assert lines.Ledger is Ledger and phh.Ledger is Ledger
    assert not hasattr(xml_common, "Betting")
    # the PHH reader's betting is the ledger's: none of the arithmetic of its own
    assert not [name for name in betting.__all__ if hasattr(phh, name)]


def test_line_rule_an_action_of_a_player_left_with_nothing_is_all_in() -> None:
    ledger = _seated()
    assert ledger.stacks["B"] == 0
    ledger.act("A", K.BRING_IN, chips=D(1))
    done = ledger.act("B", K.CALL, chips=D(0))  # a log's "calls 0" after an all-in ante
    assert done == (K.CALL, D(0), None, True, D(0))


def test_xml_rule_only_the_action_that_takes_the_last_chips_is_all_in() -> None:
    ledger = _seated(all_in_takes_chips=True)
    ledger.act_as("A", "bring_in", D(1), "chips")
    assert ledger.act_as("B", "call", D(0), "chips")[3] is False  # already all-in on the ante
    assert ledger.act_as("C", "call", D(1), "chips")[3] is False
    assert ledger.act_as("A", "complete", D(4), "to") == (K.COMPLETE, D(4), D(4), False, D(3))
    assert ledger.act_as("C", "raise", D(99), "to") == (K.RAISE, D(95), D(99), True, D(98))


def test_the_ante_that_takes_the_last_chips_is_all_in_under_either_rule() -> None:
    for options in ({}, {"all_in_takes_chips": True}):
        ledger = Ledger({"B": D(2)}, **options)
        assert ledger.post_ante("B", D(2)) is True
    assert Ledger({"B": D(2)}, stacks_tell_all_in=False).post_ante("B", D(2)) is False


def test_logs_that_mark_all_ins_themselves_are_believed_alone() -> None:
    ledger = _seated(stacks_tell_all_in=False)
    ledger.act("A", K.BRING_IN, chips=D(1))
    assert ledger.act("C", K.RAISE, to=D(200))[3] is False  # more than the stack: the log did not say
    assert ledger.act("A", K.CALL, chips=D(99), all_in=True)[3] is True


def test_a_call_above_the_bet_does_not_move_it() -> None:
    """A log's call of more than the bet to match (a log's slip) leaves the bet as it was, in
    both entries: the next raise's increment is over the real bet, the caller is no aggressor."""
    for xml in (False, True):
        ledger = Ledger({"A": D(100), "B": D(100), "C": D(100)})
        ledger.start(Street.FOURTH)
        if xml:
            ledger.act_as("A", "bet", D(10), "chips")
            assert ledger.act_as("B", "call", D(20), "chips") == (K.CALL, D(20), None, False, D(20))
            done = ledger.act_as("C", "raise", D(30), "to")
        else:
            ledger.act("A", K.BET, chips=D(10))
            assert ledger.act("B", K.CALL, chips=D(20)) == (K.CALL, D(20), None, False, D(20))
            done = ledger.act("C", K.RAISE, to=D(30))
        assert done[:3] == (K.RAISE, D(20), D(30))
        assert ledger.aggressor == "C" and ledger.units == {Street.FOURTH: D(10)}


def test_a_call_without_a_figure_costs_what_is_owed_or_the_stack() -> None:
    ledger = _seated()
    ledger.act("A", K.BRING_IN, chips=D(1))
    ledger.act("C", K.COMPLETE, to=D(4))
    assert ledger.act("A", K.CALL)[1] == D(3)
    ledger.start(Street.FOURTH)
    ledger.act("C", K.BET, chips=D(96))
    assert ledger.act("A", K.CALL) == (K.CALL, D(95), None, True, D(95))  # all-in for less


def test_stakes_come_from_bets_not_all_in() -> None:
    """The completion (or 4th street's bet) is the small bet, the first bet from 5th street the
    big one; an all-in bet may be short and shows nothing, the next raise's increment does."""
    ledger = Ledger({"A": D(100), "B": D(3), "C": D(100)})
    ledger.start(Street.THIRD)
    ledger.act("A", K.BRING_IN, chips=D(1))
    ledger.act("B", K.COMPLETE, to=D(3), all_in=True)  # short of the 4 a completion is
    ledger.act("C", K.RAISE, to=D(7))
    assert ledger.stakes() == (D(4), None)
    assert ledger.shown_stakes() == (D(4), D(8))
    ledger.start(Street.FIFTH)
    ledger.act("A", K.BET, chips=D(8))
    assert ledger.stakes() == (D(4), D(8)) and ledger.aggressor == "A"


def test_the_stakes_figures_are_the_first_ante_and_bring_in_not_0() -> None:
    ledger = Ledger({"A": D(100), "B": D(100)})
    ledger.post_ante("A", D(0))  # a seat the site charged nothing
    ledger.post_ante("B", D(1))
    ledger.start(Street.THIRD)
    ledger.act_as("A", "bring_in", None, "chips")  # a bring-in written without its figure
    assert (ledger.ante, ledger.bring_in) == (D(1), D(0))
    ledger.act_as("B", "bring_in", D(2), "chips")
    assert ledger.bring_in == D(2)


def test_uncalled_bet_and_pots_count_antes_but_never_return_one() -> None:
    ledger = _seated()
    ledger.act("A", K.BRING_IN, chips=D(1))
    ledger.act("C", K.COMPLETE, to=D(4))
    ledger.act("A", K.FOLD)
    assert ledger.uncalled() == ("C", D(3))  # over A's ante + bring-in and B's all-in ante
    assert ledger.pots() == [(D(6), frozenset({"B", "C"}))]
    assert ledger.live() == ["B", "C"]


def test_bovada_double_bet_then_raise_leaves_the_small_bet_half_the_double() -> None:
    """A real tournament hand "Level 1 (0/0)" (no stakes written): no completion, a 4th-street
    "Double bets 20" raised to 40. The double bet is two small bets; the raise is not a small bet."""
    if not BOVADA.is_file():
        pytest.skip("corpus ../shared/corpus/Bovada not present")
    lines_ = BOVADA.read_text(encoding="utf-8-sig").splitlines()
    start = lines_.index(next(t for t in lines_ if t.startswith("Bovada Hand #2633116884")))
    hand = lines_[start : start + 34]  # the header, seats, antes, 3rd street and 4th's cards
    keep = [t for t in hand if not t.startswith(("Seat+2", "Seat+4", "Seat+5", "Seat+6"))]
    text = "\n".join(keep + [
        "Seat+8 : Double bets 20 ", "Seat+1 : Folds", "Seat+7 : Raises 40 ", "Seat+8 : Folds",
        "Seat+7 : Return uncalled portion of bet 20 ", "Seat+7 : Hand Result 65 ", "*** SUMMARY ***",
        "Total Pot(65)", "Seat 1:  Folded on the 4TH STREET", "Seat 7:  65 [Does not show]  ",
        "Seat 8:  Folded on the 4TH STREET",
    ]) + "\n"
    (hand_read,) = parse_text(text, file="edited.txt")
    assert isinstance(hand_read, Hand), hand_read
    stakes = hand_read.header.stakes
    assert (stakes.small_bet, stakes.big_bet) == (D(10), D(20))


def test_check_or_call_is_a_check_when_nothing_can_be_put_in() -> None:
    ledger = _seated()
    ledger.act("A", K.BRING_IN, chips=D(1))
    assert ledger.check_or_call("B") == (K.CHECK, None, None, False, D(0))  # all-in on the ante
    assert ledger.check_or_call("C") == (K.CALL, D(1), None, False, D(1))
    ledger.start(Street.FOURTH)
    assert ledger.check_or_call("A") == (K.CHECK, None, None, False, D(0))
    ledger.act("C", K.BET, chips=D(2))
    assert ledger.check_or_call("A") == (K.CALL, D(2), None, False, D(2))
    ledger.won("C", D(100))  # C covers A
    ledger.act("C", K.RAISE, to=D(150))
    assert ledger.check_or_call("A") == (K.CALL, D(96), None, True, D(96))  # all-in for less


def test_posts_as_due_take_all_of_a_shorter_stack() -> None:
    ledger = Ledger({"A": D(100), "B": D("1.5")}, posts_as_due=True)
    assert ledger.post_ante("B", D(1)) is False and ledger.antes["B"] == D(1)
    assert ledger.post_ante("A", D(1)) is False
    ledger.start(Street.THIRD)
    assert ledger.act("B", K.BRING_IN, chips=D(2)) == (K.BRING_IN, D("0.5"), None, True, D("0.5"))
    short = Ledger({"B": D("0.5")}, posts_as_due=True)
    assert short.post_ante("B", D(1)) is True and short.antes["B"] == D("0.5")
    assert Ledger({"B": D("0.5")}).post_ante("B", D(1)) is True and short.stacks["B"] == 0  # as written: -0.5


@pytest.mark.parametrize("small_bet, kind", [(None, K.RAISE), (D(4), K.COMPLETE)])
def test_with_the_small_bet_known_a_short_all_in_completion_does_not_open_3rd_street(
        small_bet: Decimal | None, kind: ActionKind) -> None:
    ledger = Ledger({"A": D(100), "B": D(3), "C": D(100)}, small_bet=small_bet)
    ledger.start(Street.THIRD)
    ledger.act("A", K.BRING_IN, chips=D(1))
    assert ledger.act("B", K.RAISE, to=D(3))[:4] == (K.COMPLETE, D(3), D(3), True)  # all-in for less
    assert ledger.act("C", K.RAISE, to=D(4))[0] is kind
    assert ledger.act("A", K.RAISE, to=D(8))[:3] == (K.RAISE, D(4), D(8))  # the full completion opened it
