"""Bovada: real hands of the corpus, field by field (no FPDB expected files exist for them)."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal as D
from pathlib import Path

import pytest

from studbook.events import Action, ActionKind, Collect, Half, Hand, PotSummary, Street, StreetStart, Structure, Variant
from studbook.parse import read_file
from studbook.sites import register
from studbook.sites.bovada import FORMAT
from samples import CORPUS

CORPUS = CORPUS / "Bovada"
MTT = CORPUS / "7-Stud-USD-MTT - $10-$1 - 201206.txt"
RING = CORPUS / "7-StudHL-USD - RING - $5-$10, $1.25 Ante - 201404.txt"
CASH = CORPUS / "7-StudHL-USD-0.25-0.50-201209.txt"

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus ../shared/corpus/Bovada not present")


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register(FORMAT)


def _hands(path: Path) -> dict[str, Hand]:
    result = read_file(path)
    assert result.site == "bovada", result.summary()
    assert result.ok, result.details()
    return {h.hand_id: h for h in result.hands}


def _actions(hand: Hand) -> list[tuple[str, ActionKind, D | None, D | None, bool]]:
    return [(e.player, e.kind, e.amount, e.to, e.all_in) for e in hand.events if isinstance(e, Action)]


def test_counts_match_the_index() -> None:
    assert len(_hands(MTT)) == 40
    assert len(_hands(RING)) == 1
    assert len(_hands(CASH)) == 1
    assert read_file(MTT).encoding == "utf-8-sig"


def test_tournament_all_in_hand_with_side_pot() -> None:
    hand = _hands(MTT)["2633131343"]
    header = hand.header
    assert header.variant is Variant.STUD and header.structure is Structure.FIXED
    assert header.tournament is not None and header.tournament.id == "1378659" and header.tournament.level == "8"
    assert header.currency is None
    # "Level 8 (0/0)": the stakes come from the betting (completion 200, 4th-street bet 200)
    assert (header.stakes.small_bet, header.stakes.big_bet) == (D(200), D(400))
    assert [(s.seat, s.player, s.stack) for s in hand.seats][:2] == [(1, "Seat+1", D(1587)), (2, "Seat+2", D(485))]
    streets = [e.street for e in hand.events if isinstance(e, StreetStart)]
    assert streets == [Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH]
    acts = _actions(hand)
    assert acts[0] == ("Seat+8", ActionKind.BRING_IN, D(100), None, False)
    assert ("Seat+4", ActionKind.COMPLETE, D(200), D(200), False) in acts  # "Raises 200"
    assert acts[-6] == ("Seat+2", ActionKind.CALL, D(100), None, False)  # 3rd street's last
    assert acts[-5:] == [
        ("Seat+4", ActionKind.BET, D(200), None, False),
        ("Seat+5", ActionKind.RAISE, D(200), D(400), False),  # "Raises 400": the new total
        ("Seat+2", ActionKind.CALL, D(245), None, True),  # "All-in 245": chips put in, short call
        ("Seat+4", ActionKind.RAISE, D(200), D(600), False),
        ("Seat+5", ActionKind.CALL, D(200), None, True),
    ]
    collects = [(e.player, e.amount, e.pot) for e in hand.events if isinstance(e, Collect)]
    assert collects == [("Seat+4", D(710), 1), ("Seat+4", D(1755), 0)]
    total = next(e for e in hand.events if isinstance(e, PotSummary))
    assert (total.total, total.rake) == (D(2465), None)  # the format writes no rake field


def test_all_in_raise_is_the_new_total() -> None:
    hand = _hands(MTT)["2633133863"]
    acts = _actions(hand)
    # "Raises 900" then "All-in(raise) 1054" (his whole stack after the ante) and "Call 154"
    assert ("Seat+4", ActionKind.RAISE, D(154), D(1054), True) in acts
    assert ("Seat+7", ActionKind.CALL, D(154), None, False) in acts


def test_cash_hi_lo_normalises_raises_and_marks_halves() -> None:
    hand = _hands(RING)["2844383701"]
    assert hand.header.variant is Variant.STUD8 and hand.header.currency == "USD"
    assert (hand.header.stakes.small_bet, hand.header.stakes.big_bet) == (D(5), D(10))
    acts = _actions(hand)
    assert acts[0] == ("Seat+5", ActionKind.BRING_IN, D("2.50"), None, False)
    assert ("Seat+8", ActionKind.COMPLETE, D(5), D(5), False) in acts  # "Raises $5 to $5"
    assert ("Seat+5", ActionKind.RAISE, D(5), D(10), False) in acts  # "Raises $7.50 to $10"
    assert ("Seat+2", ActionKind.RAISE, D(5), D(10), False) in acts  # 4th: "Raises $10 to $10"
    halves = {(e.player, e.amount, e.half) for e in hand.events if isinstance(e, Collect)}
    assert halves == {("Seat+2", D("73.50"), Half.LOW), ("Seat+5", D("73.50"), Half.HIGH)}


def test_cash_bring_in_player_completing_without_bring_in() -> None:
    hand = _hands(CASH)["2633952287"]
    acts = _actions(hand)
    assert acts[0] == ("Seat+1", ActionKind.COMPLETE, D("0.25"), D("0.25"), False)  # "Bets $0.25" on 3rd
    total = next(e for e in hand.events if isinstance(e, PotSummary))
    assert (total.total, total.rake) == (D("4.85"), D("0.20"))


def test_check_results() -> None:
    check = pytest.importorskip("studbook.check")
    found: Counter[tuple[str, str]] = Counter()
    for path in (MTT, RING, CASH):
        for hand in _hands(path).values():
            for v in check.check_hand(hand).violations:
                found[(hand.hand_id, v.rule)] += 1
    # all-in run-outs show in seat order (2633131343, 2633132391): profile BOVADA
    # (show_order_all_in="deal_order", tests/test_engine_profiles.py)
    # 2844383701 writes "Total Pot($150)" with no rake field and $147 collected: the
    # rake is the $3 the pot holds beyond the collections (profile BOVADA's
    # unstated_rake_share), not a pot.total violation
    assert found == Counter()


def test_truncated_hand_is_rejected_with_a_reason() -> None:
    from studbook.events import Rejected
    from studbook.parse import parse_text

    lines = CASH.read_text(encoding="utf-8").splitlines()[:40]  # cut in the middle of 5th street
    (result,) = parse_text("\n".join(lines) + "\n", file="cut.txt")
    assert isinstance(result, Rejected)
    assert result.line == 40 and result.hand_id == "2633952287"
    assert result.reason.startswith("hand ends early, truncated?")


@pytest.mark.parametrize("header", ["Bovada Hand #2633952287 TBL#2027664 7CARD HiLo Fixed Limit - 2012-09-19 13:11:08\n", "Bodog UK Hand #C2633952287 TBL#2027664 7CARD HiLo Fixed Limit - 2012-09-19 13:11:08\n"])
def test_detects_a_hand_header_only_at_a_line_start(header: str) -> None:
    assert FORMAT.detect(header) and FORMAT.detect("text before\n" + header)
    assert not FORMAT.detect("x" + header)


# The table messages of Bovada's clients, older ("Sit out") and later ("Seat sit out"), with
# the seat named or not; a deposit ("Table deposit $1.70") is chips for the hands to come.
TABLE_MESSAGES = (
    "{seat} : Sit out", "{seat} : Seat sit out", "{seat} : Stand", "{seat} : Seat stand",
    "{seat} : Re-join", "{seat} : Seat re-join", "{seat} : Seat sit down", "{seat} : Table enter user",
    "{seat} : Table leave user", "{seat} : Table deposit $1.70", "Table deposit $25", "Seat sit down",
    "Table enter user", "Seat re-join",
)


@pytest.mark.parametrize("message", TABLE_MESSAGES)
def test_table_messages_anywhere_in_a_hand_read_the_same(message: str) -> None:
    """A table message after any line of a hand, from its header to its last summary
    line, leaves the hand's play as it was: the same actions, the same check; it reads
    as table talk."""
    from studbook.check import check_hand
    from studbook.events import Chatter
    from studbook.parse import parse_text

    text = CASH.read_text(encoding="utf-8-sig")
    first = text.split("\n\n")[0].strip("\n").splitlines()
    [hand] = [h for h in parse_text("\n".join(first) + "\n", file="b.txt") if isinstance(h, Hand)]
    expected = (_actions(hand), check_hand(hand).status, {p.player: p.net for p in check_hand(hand).players})
    written = message.format(seat="Seat+3")
    for at in range(1, len(first) + 1):
        edited = "\n".join(first[:at] + [written] + first[at:]) + "\n"
        [again] = parse_text(edited, file="b.txt")
        assert isinstance(again, Hand), (at, again)
        check = check_hand(again)
        assert (_actions(again), check.status, {p.player: p.net for p in check.players}) == expected, at
        assert [e.text for e in again.events if isinstance(e, Chatter) and e.line == at + 1] == [written]
