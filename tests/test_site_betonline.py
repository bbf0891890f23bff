"""BetOnline (the Chico network's skins): hand-made histories, field by field.

No real BetOnline log is in the corpus; ``tests/handmade/betonline/`` holds hands
written from what other parsers' code reads (README, Sites). Each test reads a
hand-made hand, or one with one change, and checks the events and the engine's
verdict: clean hands clean, a planted fault flagged with its rule at its line.
"""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal as D

import pytest

from samples import HANDMADE
from studbook.check import check_hand
from studbook.events import (
    Action, ActionKind, Collect, Hand, Note, PostAnte, PotSummary, Rejected, Show, Skipped, UncalledReturned, Variant,
)
from studbook.parse import parse_text, read_file
from studbook.read import detect_format
from studbook.sites import all_sites, get_site

CASH = HANDMADE / "betonline" / "7-Stud-USD-0.50-1.00-cash.txt"
NO_CURRENCY = HANDMADE / "betonline" / "Razz-StudHL-no-currency.txt"
TOURNAMENT = HANDMADE / "betonline" / "7-Stud-tournament.txt"


def _hands(text: str) -> list[Hand | Rejected | Skipped]:
    return list(parse_text(text, file="edited.txt", site="betonline"))


def _hand_text(path: object, number: int) -> str:
    """The text of the file's ``number``-th hand (0-based): hands stand three blank lines apart."""
    return HANDMADE.joinpath(str(path)).read_text(encoding="utf-8").split("\n\n\n\n")[number].strip("\n") + "\n"


def _one(text: str) -> Hand:
    [hand] = _hands(text)
    assert isinstance(hand, Hand), hand
    return hand


def _verdict(hand: Hand) -> tuple[str, list[tuple[str, int]]]:
    check = check_hand(hand)
    return check.status, [(v.rule, v.line) for v in check.violations]


def _actions(hand: Hand) -> list[tuple[str, ActionKind, D | None, D | None, bool]]:
    return [(e.player, e.kind, e.amount, e.to, e.all_in) for e in hand.events if isinstance(e, Action)]


def test_every_hand_made_hand_reads_and_checks_clean() -> None:
    results = [r for path in sorted((HANDMADE / "betonline").glob("*.txt")) for r in read_file(path).results]
    hands = [r for r in results if isinstance(r, Hand)]
    assert len(hands) == 6 and all(h.site == "betonline" for h in hands)
    assert [_verdict(h) for h in hands] == [("ok", [])] * 6
    [skipped] = [r for r in results if isinstance(r, Skipped)]
    assert skipped.hand_id == "400000002" and skipped.game.startswith("Hold'em No Limit")


def test_the_skins_are_detected_and_no_other_site_is() -> None:
    text = CASH.read_text(encoding="utf-8")
    assert detect_format(text, all_sites()) is get_site("betonline")
    for skin in ("PayNoRake", "ActionPoker.com", "Gear Poker", "SportsBetting.ag Poker", "Tiger Gaming"):
        assert detect_format(text.replace("BetOnline Poker Game #", f"{skin} Game #"), all_sites()) is get_site("betonline")
    assert not get_site("betonline").detect("PokerStars Game #1: 7 Card Stud Limit ($0.04/$0.08 USD) - ...\n")
    assert not get_site("betonline").detect("Notes: BetOnline Poker Game #1 was fun\n")


def test_a_cash_hand_field_by_field() -> None:
    hand = _one(_hand_text(CASH.relative_to(HANDMADE), 0))
    header = hand.header
    assert (header.site, header.hand_id, header.variant, header.currency, header.tournament) == (
        "betonline", "100000001", Variant.STUD, "USD", None)
    assert (header.stakes.small_bet, header.stakes.big_bet, header.table, header.max_seats) == (D("0.50"), D(1), "Akron", 8)
    assert header.started_utc == datetime(2013, 9, 4, 0, 45, 51, tzinfo=timezone.utc)  # ET in September: UTC-4
    assert [(s.seat, s.player, s.stack) for s in hand.seats] == [
        (1, "Alice", D(10)), (3, "Bob", D("12.50")), (5, "Carol", D(8))]
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, PostAnte)] == [
        ("Alice", D("0.10")), ("Bob", D("0.10")), ("Carol", D("0.10"))]
    actions = _actions(hand)
    assert actions[:4] == [
        ("Carol", ActionKind.BRING_IN, D("0.25"), None, False),
        ("Alice", ActionKind.COMPLETE, D("0.50"), D("0.50"), False),  # "raises 0.50 to 0.50" over the bring-in
        ("Bob", ActionKind.CALL, D("0.50"), None, False),
        ("Carol", ActionKind.CALL, D("0.25"), None, False),
    ]
    assert ("Alice", ActionKind.RAISE, D(1), D(2), False) in actions  # "raises 2.00 to 2.00" over a 1.00 bet
    assert [e.player for e in hand.events if isinstance(e, Show)] == ["Alice", "Bob"]
    # no "collected" line in the stream: the summary's "won (10.30)" is the collection
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, Collect)] == [("Alice", D("10.30"))]
    [total] = [e for e in hand.events if isinstance(e, PotSummary)]
    assert (total.total, total.rake) == (D("10.80"), D("0.50"))


def test_an_uncontested_pot_with_the_uncalled_bet_returned() -> None:
    hand = _one(_hand_text(CASH.relative_to(HANDMADE), 1))
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, UncalledReturned)] == [("Dave", D("0.25"))]
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, Collect)] == [("Dave", D("0.80"))]
    assert _verdict(hand) == ("ok", [])


def test_an_all_in_with_a_side_pot_and_a_total_line_a_pot() -> None:
    hand = _one(_hand_text(CASH.relative_to(HANDMADE), 2))
    assert ("Gus", ActionKind.CALL, D("0.40"), None, True) in _actions(hand)
    # "Total pot 3.20 | Rake 0.50" then "Total pot 9.00 | Rake 0.50": one summary, the rake the hand's
    [total] = [e for e in hand.events if isinstance(e, PotSummary)]
    assert (total.total, total.rake) == (D("12.20"), D("0.50"))
    assert {e.player: e.amount for e in hand.events if isinstance(e, Collect)} == {"Gus": D("8.50"), "Ivan": D("3.20")}
    assert _verdict(hand) == ("ok", [])


def test_a_total_line_written_twice_is_one_pot() -> None:
    text = _hand_text(CASH.relative_to(HANDMADE), 0)
    twice = text.replace("Total pot 10.80 | Rake 0.50\n", "Total pot 10.80 | Rake 0.50\n" * 2)
    hand = _one(twice)
    assert [(e.total, e.rake) for e in hand.events if isinstance(e, PotSummary)] == [(D("10.80"), D("0.50"))]
    assert _verdict(hand) == ("ok", [])


def test_the_title_case_skin_without_currency_or_zone() -> None:
    hand = _one(_hand_text(NO_CURRENCY.relative_to(HANDMADE), 1))
    header = hand.header
    assert (header.variant, header.currency, header.table, header.button, header.max_seats) == (
        Variant.STUD8, None, "Elmira", 1, None)
    assert header.started == "2013-09-05 22:00:00" and header.started_utc is None  # no zone written
    assert [(s.player, s.stack) for s in hand.seats][0] == ("Lou", D(10))  # "(10.00 in Chips)"
    assert ("Lou", ActionKind.RAISE, D("0.50"), D(1), False) in _actions(hand)  # "Raises 1.00.": the chips put in
    shows = {e.player: [str(c) for c in e.cards] for e in hand.events if isinstance(e, Show)}
    assert shows["Lou"] == ["As", "2s", "3d", "4c", "5h", "8d", "Qc"]  # upper-case suits
    assert _verdict(hand) == ("ok", [])


def test_a_start_without_seconds() -> None:
    header = _one(_hand_text(NO_CURRENCY.relative_to(HANDMADE), 0)).header
    assert (header.variant, header.currency) == (Variant.RAZZ, None)
    assert header.started == "2013/09/04 21:10 ET"
    assert header.started_utc == datetime(2013, 9, 5, 1, 10, tzinfo=timezone.utc)


def test_a_tournament_hand() -> None:
    hand = _one(_hand_text(TOURNAMENT.relative_to(HANDMADE), 0))
    header = hand.header
    assert header.tournament is not None
    assert (header.tournament.id, header.tournament.buy_in, header.currency) == ("5550001", "$10+$1", None)
    assert (header.stakes.small_bet, header.stakes.big_bet, header.table) == (D(100), D(200), "5550001-1")
    assert header.started_utc == datetime(2013, 9, 6, 18, 0, tzinfo=timezone.utc)  # "GMT Standard Time": London, BST
    assert _verdict(hand) == ("ok", [])


def test_a_bet_of_the_wrong_size_is_flagged_at_its_line() -> None:
    text = _hand_text(CASH.relative_to(HANDMADE), 0)
    planted = (text.replace("Bob: bets 1.00\nAlice: calls 1.00\n*** 6th", "Bob: bets 0.50\nAlice: calls 0.50\n*** 6th")
               .replace("Total pot 10.80", "Total pot 9.80").replace("won (10.30)", "won (9.30)"))
    line = planted.split("\n").index("Bob: bets 0.50") + 1
    assert _verdict(_one(planted)) == ("violations", [("bet.size", line)])
    assert _verdict(_one(text)) == ("ok", [])


def test_a_zero_ante_seat_dealt_no_card_is_out_of_the_hand() -> None:
    text = _hand_text(CASH.relative_to(HANDMADE), 0)
    edited = (text.replace("Seat 5: Carol (8.00 in chips)\n", "Seat 5: Carol (8.00 in chips)\nSeat 7: Zed (5.00 in chips)\n")
              .replace("Carol: ante processed 0.10\n", "Carol: ante processed 0.10\nZed: ante processed 0.00\n"))
    hand = _one(edited)
    assert [s.sitting_out for s in hand.seats] == [False, False, False, True]
    assert "Zed" not in {e.player for e in hand.events if isinstance(e, PostAnte)}
    assert _verdict(hand) == ("ok", [])


@pytest.mark.parametrize("line", ['Bob said "gl all"', "Zed joins the table at seat #7", "Bob has left the table",
                                  "Joined table during game."])
def test_table_talk_is_a_note(line: str) -> None:
    text = _hand_text(CASH.relative_to(HANDMADE), 0)
    edited = text.replace("Bob: calls 0.50\n", f"Bob: calls 0.50\n{line}\n", 1)
    hand = _one(edited)
    assert [e.text for e in hand.events if isinstance(e, Note)] == [line]
    assert _verdict(hand) == _verdict(_one(text))


def test_an_action_of_someone_not_seated_is_not_read_as_anyone_s() -> None:
    text = _hand_text(CASH.relative_to(HANDMADE), 0)
    edited = text.replace("Bob: calls 0.50\n", "Bob: calls 0.50\nUnknown player: raises 0.50 to 1.00\n", 1)
    status, violations = _verdict(_one(edited))
    assert status == "violations" and violations[0] == ("order.turn", 16)


def test_a_stud_header_the_reader_does_not_know_is_rejected_not_skipped() -> None:
    text = _hand_text(CASH.relative_to(HANDMADE), 0).replace("20:45:51 ET", "20.45.51 ET")
    [result] = _hands(text)
    assert isinstance(result, Rejected) and result.line == 1


def test_a_player_leaving_instead_of_folding_is_not_read_as_a_fold() -> None:
    """Left as found: FPDB counts "X has left the table" a fold; here it is a note (no
    log shows the site writes no fold then), so the player is still to act."""
    text = _hand_text(CASH.relative_to(HANDMADE), 0).replace("Carol: folds\n", "Carol has left the table\n")
    status, violations = _verdict(_one(text))
    assert status == "violations" and {rule for rule, _ in violations} == {"order.streets", "order.turn"}
