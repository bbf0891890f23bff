"""iPoker XML session files: the real corpus, field by field."""

from __future__ import annotations

from decimal import Decimal as D
from pathlib import Path

import pytest

from studbook.cards import parse_cards
from studbook.events import (
    Action, ActionKind, Collect, Deal, Hand, PostAnte, PotSummary, Show, ShowdownStart, Skipped, Street,
    Rejected, UncalledReturned, Variant,
)
from studbook.parse import parse_text, read_file
from studbook.read import decode
from studbook.sites import register
from studbook.sites.ipoker import FORMAT
from samples import CORPUS

CORPUS = CORPUS / "iPoker"
pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")
register(FORMAT)

CASH = "7-StudL-USD-0.05-0.10-201009.txt"
SNG = "7-StudHi-USD-STT-5-201103.txt"
FIVE = "5-StudL-USD-0.05-0.10-201111.Sample.with.showdown.xml"


def read(name: str):  # type: ignore[no-untyped-def]
    return read_file(CORPUS / name)


def test_detect_by_content_not_name() -> None:
    head = (CORPUS / CASH).read_text()[:8192]
    assert FORMAT.detect(head)
    assert not FORMAT.detect("PokerStars Hand #1: 7 Card Stud")


@pytest.mark.parametrize(("name", "parsed", "skipped"), [(CASH, 2, 0), (SNG, 117, 0), (FIVE, 0, 1)])
def test_counts_match_index(name: str, parsed: int, skipped: int) -> None:
    result = read(name)
    assert result.site == "ipoker"
    assert result.counts() == {"parsed": parsed, "skipped": skipped, "rejected": 0}


def test_five_card_stud_is_skipped_with_the_game_named() -> None:
    (skipped,) = read(FIVE).results
    assert isinstance(skipped, Skipped)
    assert skipped.game == "5 Card Stud L $0.05/$0.10" and "5-card stud" in skipped.reason


def test_cash_hand_showdown() -> None:
    hand = read(CASH).hands[0]
    assert hand.hand_id == "2418629537" and hand.line == 18
    header = hand.header
    assert (header.variant, header.currency, header.table, header.button) == (Variant.STUD, "USD", "Labyrinth", 1)
    assert (header.stakes.small_bet, header.stakes.big_bet, header.stakes.ante, header.stakes.bring_in) == (
        D("0.05"), D("0.10"), D("0.01"), D("0.02"))
    assert hand.players() == ("WurmX", "Hero", "FENGLIUDUSHENG", "komanchi7", "Qekz406", "axi0matic", "Zsuzsanna")
    assert [s.player for s in hand.seats if s.sitting_out] == ["ad1028"]  # no ante, no cards
    assert {s.player: s.stack for s in hand.seats}["Hero"] == D("0.73")
    actions = [(e.player, e.kind, e.amount) for e in hand.events if isinstance(e, Action)][:7]
    # the <action no=...> order, not the document order (WurmX's fold is no 14)
    assert actions[0] == ("Hero", ActionKind.BRING_IN, D("0.02"))
    assert actions[-1] == ("WurmX", ActionKind.FOLD, None)
    hero = next(e for e in hand.events if isinstance(e, Deal) and e.player == "Hero")
    assert hero.down == parse_cards("8h 7d") and hero.up == parse_cards("2c")
    shows = [e for e in hand.events if isinstance(e, Show)]
    assert [s.player for s in shows] == ["Hero", "Qekz406", "Zsuzsanna"]  # nobody bet: seat order
    assert shows[1].cards == parse_cards("9h 6s 7c Ts Td 2d Qd")  # down cards revealed on 3rd street
    assert [(c.player, c.amount) for c in hand.events if isinstance(c, Collect)] == [("Hero", D("0.13"))]


def test_cash_hand_uncalled_bet_and_rake() -> None:
    hand = read(CASH).hands[1]
    events = hand.events
    assert any(isinstance(e, Action) and e.kind is ActionKind.BET and e.amount == D("0.05")
               and e.player == "komanchi7" for e in events)  # fmt: skip
    # win="$0.43" includes the uncalled $0.10: normalised into a return and a collection
    assert [(e.player, e.amount) for e in events if isinstance(e, UncalledReturned)] == [("komanchi7", D("0.10"))]
    assert [(e.player, e.amount) for e in events if isinstance(e, Collect)] == [("komanchi7", D("0.33"))]
    (summary,) = [e for e in events if isinstance(e, PotSummary)]
    assert (summary.total, summary.rake) == (D("0.34"), D("0.01"))
    assert not any(isinstance(e, ShowdownStart) for e in events)


def test_sng_first_hand() -> None:
    hand = read(SNG).hands[0]
    header = hand.header
    assert hand.hand_id == "4044858766"
    assert header.currency is None and header.tournament is not None
    assert (header.tournament.id, header.tournament.buy_in, header.table) == ("699476041", "$5+$0.50", "$5 Limit 7 Card Stud")
    # no stakes in a tournament header: the completion (60) and 5th street bet (120) show them
    assert (header.stakes.small_bet, header.stakes.big_bet, header.stakes.ante, header.stakes.bring_in) == (
        D(60), D(120), D(8), D(15))
    assert {s.player: s.stack for s in hand.seats}["Player2"] == D(1440)
    actions = [(e.player, e.kind, e.amount, e.to) for e in hand.events if isinstance(e, Action)]
    assert actions[0] == ("Player5", ActionKind.BRING_IN, D(15), None)
    assert actions[1] == ("Player2", ActionKind.COMPLETE, D(60), D(60))
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, UncalledReturned)] == [("Player2", D(120))]
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, Collect)] == [("Player2", D(543))]


def test_raise_to_is_normalised() -> None:
    hand = next(h for h in read(SNG).hands if h.hand_id == "4044860560")
    raise_ = next(e for e in hand.events if isinstance(e, Action) and e.kind is ActionKind.RAISE)
    # type 23 sum="120" is the street total; 60 to call: the raise adds 60
    assert (raise_.player, raise_.amount, raise_.to) == ("Player20", D(60), D(120))


def test_side_pots_split_a_total_win() -> None:
    hand = next(h for h in read(SNG).hands if h.hand_id == "4044980553")
    collects = [(e.player, e.amount, e.pot) for e in hand.events if isinstance(e, Collect)]
    assert sum(c[1] for c in collects) == D(4384) and {c[2] for c in collects} == {0, 1, 2}


def test_tournament_stakes_from_another_hand_of_the_level() -> None:
    # the bring-in goes all-in and all fold: this hand shows no bet size
    hand = next(h for h in read(SNG).hands if h.hand_id == "4044980507")
    assert hand.header.stakes.ante == D(40) and hand.header.stakes.small_bet > 0


def test_hands_check_clean() -> None:
    check = pytest.importorskip("studbook.check")
    for name in (CASH, SNG):
        for hand in read(name).hands:
            assert isinstance(hand, Hand)
            result = check.check_hand(hand)
            assert not result.violations, (hand.hand_id, result.violations)


def test_street_labels_and_lines() -> None:
    hand = read(CASH).hands[0]
    streets = [e.street for e in hand.events if hasattr(e, "street") and type(e).__name__ == "StreetStart"]
    assert streets == [Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH]
    river = next(e for e in hand.events if isinstance(e, Deal) and e.street is Street.SEVENTH)
    assert river.line == 44 and river.down == parse_cards("4c")


def test_stakes_from_other_hands_do_not_depend_on_parse_order() -> None:
    # levels are found on demand and reuse hands already built: any order gives the full pass's stakes
    text = decode((CORPUS / SNG).read_bytes()).text
    forward = [FORMAT.parse_hand(chunk, SNG) for chunk in FORMAT.split(text)]
    backward = [FORMAT.parse_hand(chunk, SNG) for chunk in reversed(list(FORMAT.split(text)))][::-1]
    assert forward == backward and all(isinstance(hand, Hand) for hand in forward)


def test_unreadable_header_stakes_reject_every_hand_with_the_reason() -> None:
    text = decode((CORPUS / CASH).read_bytes()).text.replace("L $0.05/$0.10<", "L $0.05/0$0.10<", 1)
    results = list(parse_text(text, file="garbled.xml"))
    assert len(results) == 2 and all(isinstance(result, Rejected) for result in results)
    assert all("<gametype>" in result.reason and "0$0.10" in result.reason for result in results)
    assert [result.hand_id for result in results] == ["2418629537", "2418630592"]


def test_a_bad_value_is_reported_at_its_element() -> None:
    """An amount that does not read rejects the hand at the line of the
    element that holds it (before: at the hand's first line), and the
    session's other hand still imports."""
    text = decode((CORPUS / CASH).read_bytes()).text
    action = '<action no="16" player="Hero" type="4" sum="$0"'
    assert text.count(action) == 1 and text.split("\n")[34].lstrip().startswith('<cards type="Fourth Street"')
    first, second = parse_text(text.replace(action, action.replace('"$0"', '"$zero"')), file="garbled.xml")
    assert isinstance(first, Rejected) and isinstance(second, Hand)
    assert (first.line, first.hand_id) == (35, "2418629537")
    assert first.reason == "bad value in <action>: not an amount: '$zero'"
    assert action.replace('"$0"', '"$zero"') in first.text


def test_only_the_action_that_takes_the_last_chips_is_all_in() -> None:
    """The XML readers' all-in rule (``Ledger(all_in_takes_chips=True)``): a real cash hand with
    Qekz406's stack cut to the ante. The ante takes his last chips and is all-in; his 3rd-street
    call after it (the log's own figure, $0.02) comes from no chips and is not all-in again."""
    text = decode((CORPUS / CASH).read_bytes()).text
    seat = '<player seat="6" name="Qekz406" chips="$2.20"'
    assert text.count(seat) == 1
    hand = next(r for r in parse_text(text.replace(seat, seat.replace("$2.20", "$0.01")), file="cut.xml")
                if isinstance(r, Hand) and r.hand_id == "2418629537")  # fmt: skip
    ante = next(e for e in hand.events if isinstance(e, PostAnte) and e.player == "Qekz406")
    call = next(e for e in hand.events if isinstance(e, Action) and e.player == "Qekz406")
    assert (ante.amount, ante.all_in) == (D("0.01"), True)
    assert (call.kind, call.amount, call.all_in) == (ActionKind.CALL, D("0.02"), False)
