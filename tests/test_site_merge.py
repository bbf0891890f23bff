"""Merge network XML game records: the real corpus, field by field."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal as D
from pathlib import Path

import pytest

from studbook.cards import parse_cards
from studbook.events import (
    Action, ActionKind, Collect, Deal, Half, Hand, NoShow, PostAnte, PotSummary, Show, ShowdownStart, Skipped,
    Rejected, Structure, UncalledReturned, Variant,
)
from studbook.parse import parse_text, read_file
from studbook.read import decode
from studbook.sites import register
from studbook.sites.merge import FORMAT
from samples import CORPUS

CORPUS = CORPUS / "Merge"
pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")
register(FORMAT)

STUD = "7-Stud-USD-0.50-1.00-201102.Sample.txt"
STUD8 = "7-StudHL-USD-0.25-0.50-201307.no.null.xml"
V2 = "HORSE-8max-USD-0.25-0.50-201409.new.format.txt"
FREEROLL = "HORSE-Tournament-Freeroll.201107.xml"
NL = "NL7-StudHL-0.01-0.02-0.10-201204.xml"
RAZZ = "Razz-USD-0.50-1.00-201111.allIn.txt"


def read(name: str):  # type: ignore[no-untyped-def]
    return read_file(CORPUS / name)


def hand_of(name: str, hand_id: str):  # type: ignore[no-untyped-def]
    return next(h for h in read(name).hands if h.hand_id == hand_id)


@pytest.mark.parametrize(("name", "parsed", "skipped"),
                         [(STUD, 1, 0), (STUD8, 1, 0), (V2, 3, 0), (FREEROLL, 14, 14), (NL, 1, 0), (RAZZ, 1, 0)])
def test_counts_match_index(name: str, parsed: int, skipped: int) -> None:
    result = read(name)
    assert result.site == "merge"
    assert result.counts() == {"parsed": parsed, "skipped": skipped, "rejected": 0}


def test_horse_freeroll_games_by_multigametype() -> None:
    result = read(FREEROLL)
    variants = [h.variant for h in result.hands]
    assert (variants.count(Variant.STUD), variants.count(Variant.STUD8), variants.count(Variant.RAZZ)) == (4, 6, 4)
    assert sorted({s.game for s in result.skipped}) == ["Holdem", "Omaha H/L8"]
    assert all(isinstance(s, Skipped) and s.hand_id for s in result.skipped)
    assert all(h.header.mix == "HORSE" and h.header.tournament.id == "36447024" for h in result.hands)  # type: ignore[union-attr]


def test_stud_cash_hand_against_fpdb() -> None:
    hand = hand_of(STUD, "31423297-107")
    header = hand.header
    # FPDB .gt: small bet 50, big bet 100 cents, USD, fixed limit
    assert (header.stakes.small_bet, header.stakes.big_bet, header.stakes.ante, header.stakes.bring_in) == (
        D("0.50"), D("1"), D("0.05"), D("0.10"))
    assert (header.variant, header.structure, header.currency, header.table) == (
        Variant.STUD, Structure.FIXED, "USD", "Hudson (31423297)")
    # FPDB .hp: seatNo 1-based (Merge writes 0-based), startCash
    seats = {s.player: (s.seat, s.stack) for s in hand.seats}
    assert seats["Hero"] == (4, D("11.51")) and seats["Player5"] == (6, D("18.80"))
    # starttime is Eastern: the events' epoch timestamps (1296868936796 = 01:22 UTC)
    # agree; FPDB's .hands stores 20:22 UTC, the local time taken for UTC.
    assert header.started_utc == datetime(2011, 2, 5, 1, 22, 44, tzinfo=timezone.utc)
    actions = [(e.player, e.kind, e.amount) for e in hand.events if isinstance(e, Action)]
    assert actions[0] == ("Player5", ActionKind.BRING_IN, D("0.10"))
    assert ("Player5", ActionKind.BET, D("0.50")) in actions
    hero = next(e for e in hand.events if isinstance(e, Deal) and e.player == "Hero")
    assert hero.down == parse_cards("4d 3d") and hero.up == parse_cards("Qh")
    shows = [(e.player, e.cards) for e in hand.events if isinstance(e, Show)]
    assert shows == [("Player5", parse_cards("4c 2c 4s 7c Kh Kd Th"))]
    # FPDB .hp: winnings 347, rake 18 (cents)
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, Collect)] == [("Player5", D("3.47"))]
    (summary,) = [e for e in hand.events if isinstance(e, PotSummary)]
    assert (summary.total, summary.rake) == (D("3.65"), D("0.18"))


def test_stud8_halves_and_raise_to() -> None:
    hand = hand_of(V2, "78854953-355")
    assert hand.variant is Variant.STUD8 and hand.header.mix == "HORSE"
    assert {s.player: s.stack for s in hand.seats}["Hero"] == D("10.00")  # version 2: no "$"
    halves = [(e.player, e.amount, e.half) for e in hand.events if isinstance(e, Collect)]
    assert halves == [("Player3", D("2.30"), Half.HIGH), ("Player3", D("2.29"), Half.LOW)]
    raise_ = next(e for e in hand_of(STUD8, "70969727-130").events
                  if isinstance(e, Action) and e.kind is ActionKind.RAISE)  # fmt: skip
    assert (raise_.amount, raise_.to) == (D("0.25"), D("0.50"))  # RAISE amount="0.50" is the street total


def test_version2_states_the_uncalled_bet() -> None:
    hand = hand_of(V2, "78854953-356")
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, UncalledReturned)] == [("Player0", D("0.25"))]
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, Collect)] == [("Player0", D("0.24"))]


def test_no_limit_stud_hi_lo() -> None:
    hand = hand_of(NL, "53828643-2")
    header = hand.header
    assert (header.structure, header.variant) == (Structure.NO, Variant.STUD8)
    assert (header.stakes.ante, header.stakes.bring_in, header.stakes.small_bet) == (D("0.01"), D("0.02"), D("0.10"))
    # a folded game's winner amount (3.12) includes the uncalled 0.65
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, UncalledReturned)] == [("Hero", D("0.65"))]
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, Collect)] == [("Hero", D("2.47"))]
    assert [e.player for e in hand.events if isinstance(e, NoShow)] == ["Hero"]
    assert not any(isinstance(e, ShowdownStart) for e in hand.events)


def test_razz_all_in_shows_at_the_end() -> None:
    hand = hand_of(RAZZ, "43618199-14")
    all_in = next(e for e in hand.events if isinstance(e, Action) and e.all_in)
    # ALL_IN amount="0.91" is chips put in: over Player1's 0.50 bet, a raise to 0.91
    assert (all_in.player, all_in.kind, all_in.amount, all_in.to) == ("Hero", ActionKind.RAISE, D("0.41"), D("0.91"))
    shows = [(e.player, e.cards) for e in hand.events if isinstance(e, Show)]
    assert shows[1] == ("Player1", parse_cards("2h 8d 6c 2c 3d Kd 9d"))  # the full seven, not the 4th-street four
    assert type(hand.events[-1]).__name__ in ("Collect", "PotSummary")


def test_tournament_balance_is_after_the_ante() -> None:
    # Player0 goes all-in for 385 on 7th: his balance 1010 was written after the 10 ante
    # (1010 - 25 - 200 - 200 - 200 = 385); hand 17's balances confirm it (FPDB adds the ante back too).
    hand = hand_of(FREEROLL, "36487050-16")
    assert {s.player: s.stack for s in hand.seats}["Player0"] == D(1020)
    collects = [(e.player, e.amount, e.pot) for e in hand.events if isinstance(e, Collect)]
    assert sorted(collects, key=lambda c: c[2]) == [("Player9", D(3550), 0), ("Player9", D(346), 1)]
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, UncalledReturned)] == [("Player9", D(27))]
    assert (hand.header.stakes.small_bet, hand.header.stakes.big_bet) == (D(100), D(200))


def test_hands_check_clean_with_the_site_profile() -> None:
    check = pytest.importorskip("studbook.check")
    profiles = pytest.importorskip("studbook.engine.profiles")
    # Merge writes the hero's <cards type="HOLE"> after everyone else's: deals_in_order=False
    profile = profiles.get_profile("merge")
    assert profile is profiles.MERGE and not profile.deals_in_order
    for name in (STUD, STUD8, V2, FREEROLL, NL, RAZZ):
        for hand in read(name).hands:
            result = check.check_hand(hand)
            assert not result.violations, (hand.hand_id, result.violations)
    strict = profiles.RuleProfile(name="merge", deals_in_order=True)
    ordered = check.check_hand(hand_of(STUD, "31423297-107"), strict)
    assert [v.rule for v in ordered.violations] == ["deal.order"]


def test_stakes_from_other_hands_do_not_depend_on_parse_order() -> None:
    # a file-wide fact (stakes by ante level) is read on demand: any order gives the same hands
    text = decode((CORPUS / FREEROLL).read_bytes()).text
    forward = [FORMAT.parse_hand(chunk, FREEROLL) for chunk in FORMAT.split(text)]
    backward = [FORMAT.parse_hand(chunk, FREEROLL) for chunk in reversed(list(FORMAT.split(text)))][::-1]
    assert forward == backward and sum(isinstance(hand, Hand) for hand in forward) == 14


def test_unreadable_description_stakes_reject_the_hand_with_the_reason() -> None:
    text = decode((CORPUS / STUD).read_bytes()).text.replace('stakes="Limit $0.50/$1"', 'stakes="Limit $0.5.0/$1"')
    (result,) = parse_text(text, file="garbled.xml")
    assert isinstance(result, Rejected) and result.hand_id == read(STUD).hands[0].hand_id
    assert "<description>" in result.reason and "$0.5.0/$1" in result.reason


def test_a_bad_value_is_reported_at_its_element() -> None:
    """A seat number that does not read rejects the hand at the line of its
    <player> element (before: at the hand's first line)."""
    text = decode((CORPUS / STUD).read_bytes()).text
    player = '<player seat="3" nickname="Hero"'
    assert text.count(player) == 1 and text.split("\n")[6].strip().startswith(player)
    (result,) = parse_text(text.replace(player, player.replace('"3"', '"three"')), file="garbled.xml")
    assert isinstance(result, Rejected) and result.line == 7
    assert result.hand_id == read(STUD).hands[0].hand_id
    assert result.reason == "bad value in <player>: invalid literal for int() with base 10: 'three'"
    assert result.text.startswith('<player seat="three" nickname="Hero"')


def test_only_the_action_that_takes_the_last_chips_is_all_in() -> None:
    """Merge shares iPoker's all-in rule (``Ledger(all_in_takes_chips=True)``): the first real
    cash hand with Player6's balance cut to the ante. The ante takes his last chips and is
    all-in; his 3rd-street call after it ($0.10 as written) comes from none and is not all-in."""
    text = decode((CORPUS / STUD).read_bytes()).text
    seat = '<player seat="6" nickname="Player6" balance="$18.64"'
    assert text.count(seat) >= 1
    hand = next(r for r in parse_text(text.replace(seat, seat.replace("$18.64", "$0.05"), 1), file="cut.xml")
                if isinstance(r, Hand))  # fmt: skip
    assert hand.hand_id == "31423297-107"
    ante = next(e for e in hand.events if isinstance(e, PostAnte) and e.player == "Player6")
    call = next(e for e in hand.events if isinstance(e, Action) and e.player == "Player6")
    assert (ante.amount, ante.all_in) == (D("0.05"), True)
    assert (call.kind, call.amount, call.all_in) == (ActionKind.CALL, D("0.10"), False)
