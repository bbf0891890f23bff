"""Full Tilt Poker: detection, splitting, field-level parsing of real hands, rule checks.

The corpus lives outside the repository (``../shared/corpus``); tests that need
it skip with the reason when it is absent. FPDB's expected files beside some
logs are a second opinion: where they agree, the test says so; where they
disagree, the test says why ours is right.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from studbook.cards import parse_cards
from studbook.events import (
    Action, ActionKind, Collect, Deal, Half, Hand, PotSummary, Rejected, Show, Skipped, Street,
    Structure, UncalledReturned, Variant,
)
from studbook.parse import parse_text, read_file
from studbook.sites import register
from studbook.sites.base import HandText
from studbook.sites.fulltilt import FORMAT
from samples import CORPUS

SITE = CORPUS / "FullTilt"
D = Decimal


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register(FORMAT)


def corpus_file(name: str) -> Path:
    path = SITE / name
    if not path.exists():
        pytest.skip(f"corpus file absent: {path}")
    return path


def hands_of(name: str) -> list[Hand]:
    result = read_file(corpus_file(name), site="fulltilt")
    assert result.error is None
    return result.hands


def actions(hand: Hand, street: Street | None = None) -> list[tuple[str, ActionKind, Decimal | None, Decimal | None]]:
    out = []
    current = None
    for e in hand.events:
        if type(e).__name__ == "StreetStart":
            current = e.street  # type: ignore[attr-defined]
        if isinstance(e, Action) and (street is None or current is street):
            out.append((e.player, e.kind, e.amount, e.to))
    return out


# ---------------------------------------------------------------------------
# Counts per file (INDEX.tsv)

EXPECTED = {
    "10Game-6max-USD-2.50-5.201104.Sample.txt": (30, 54),
    "5-Stud-USD-MTT-100-201303.txt": (0, 1),
    "7-Stud-USD-3-6-20106.Steal.from.Button.Failure.txt": (1, 0),
    "7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt": (1, 0),
    "7-Stud-USD-3-6-20106.Steal.from.HJ.Failure-3bet.by.button.txt": (1, 0),
    "7-Stud-USD-3-6-20106.Steal.from.HJ.Failure.txt": (1, 0),
    "7-Stud-USD-3-6-20106.Steal.from.HJ.Success.txt": (1, 0),
    "7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt": (1, 0),
    "Razz-USD-0.10-0.20-201012.CCT.and.ET.timeformat.txt": (1, 0),
    "Razz-USD-0.10-0.20-201012.Player6.listed.but.doesnt.act.txt": (1, 0),
    "Razz-USD-HUSNG-2-201102.Villain.allin.on.bringing.txt": (1, 0),
    "Razz-USD-HUSNG-200-201211.all.in.ante.txt": (1, 0),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_counts_match_index(name: str) -> None:
    result = read_file(corpus_file(name))  # detected from content, not forced
    assert result.site == "fulltilt"
    parsed, skipped = EXPECTED[name]
    assert result.counts() == {"parsed": parsed, "skipped": skipped, "rejected": 0}


def test_ten_game_mix_skips_other_games_by_name() -> None:
    result = read_file(corpus_file("10Game-6max-USD-2.50-5.201104.Sample.txt"))
    assert result.encoding == "utf-16-le"
    games = Counter(s.game for s in result.skipped)
    assert games == Counter({
        "Limit 2-7 Triple Draw": 10, "Limit Badugi": 10, "Limit Hold'em": 10, "Limit Omaha H/L": 1,
        "No Limit 2-7 Single Draw": 10, "No Limit Hold'em": 3, "Pot Limit Omaha Hi": 10,
    })  # fmt: skip
    assert Counter(h.variant for h in result.hands) == {Variant.STUD: 10, Variant.STUD8: 10, Variant.RAZZ: 10}


def test_five_card_stud_is_skipped_with_reason() -> None:
    (skipped,) = read_file(corpus_file("5-Stud-USD-MTT-100-201303.txt")).skipped
    assert skipped.game == "Limit 5 Card Stud"
    assert "5-card stud" in skipped.reason
    assert skipped.hand_id == "32412111030"


def test_tournament_summaries_get_one_clear_message() -> None:
    for name in ("summaries/5-Stud-USD-MTT-100-201303.txt",
                 "summaries/Razz-USD-SnG-2man-201211.super.turbo.heads.up.txt"):  # fmt: skip
        result = read_file(corpus_file(name))
        assert result.results == []
        assert result.note == "a Full Tilt tournament summary, not a hand history"


# ---------------------------------------------------------------------------
# Field-level checks of real hands


def test_stud_hi_hand_raises_normalised() -> None:
    (hand,) = hands_of("7-Stud-USD-3-6-20106.Steal.from.HJ.Failure-3bet.by.button.txt")
    h = hand.header
    assert (h.site, h.hand_id, h.variant, h.structure) == ("fulltilt", "21536527525", Variant.STUD, Structure.FIXED)
    assert (h.stakes.small_bet, h.stakes.big_bet, h.stakes.ante) == (D(3), D(6), D("0.50"))
    assert h.currency == "USD" and not h.play_money and h.table == "Hagan"
    assert h.started == "12:22:17 ET - 2010/06/11"
    assert [(s.seat, s.player, s.stack, s.sitting_out) for s in hand.seats][:3] == [
        (1, "bllodshot", D(31), True), (2, "kwuiyhw", D(67), False), (3, "chasrigg", D("294.50"), False),
    ]  # fmt: skip
    assert "bllodshot" not in hand.players()
    third = actions(hand, Street.THIRD)
    assert third[0] == ("shasatipu", ActionKind.BRING_IN, D(1), None)
    assert ("Hero", ActionKind.COMPLETE, D(3), D(3)) in third
    # "thebear666 raises to $6": the increment over the $3 faced, and the total
    assert ("thebear666", ActionKind.RAISE, D(3), D(6)) in third
    assert ("shasatipu", ActionKind.CALL, D(5), None) in third
    fourth = actions(hand, Street.FOURTH)
    assert ("Hero", ActionKind.RAISE, D(3), D(6)) in fourth  # "Hero raises to $6" over a $3 bet
    hero = [e for e in hand.events if isinstance(e, Deal) and e.player == "Hero"]
    assert hero[0].down == parse_cards("Td Jd") and hero[0].up == parse_cards("As")
    assert hero[-1].street is Street.SEVENTH and hero[-1].down == parse_cards("2s")
    (show,) = [e for e in hand.events if isinstance(e, Show)]
    assert show.player == "Hero" and show.description == "three of a kind, Jacks"
    assert [(c.player, c.amount, c.pot) for c in hand.events if isinstance(c, Collect)] == [("Hero", D("72.50"), 0)]
    (total,) = [e for e in hand.events if isinstance(e, PotSummary)]
    assert (total.total, total.rake) == (D("75.50"), D(3))


def test_razz_cct_hand_agrees_with_fpdb() -> None:
    (hand,) = hands_of("Razz-USD-0.10-0.20-201012.CCT.and.ET.timeformat.txt")
    assert hand.variant is Variant.RAZZ
    # the ET time in brackets gives UTC: 04:10:10 ET (EST) = 09:10:10 UTC
    assert hand.header.started_utc is not None and hand.header.started_utc.hour == 9
    third = actions(hand, Street.THIRD)
    assert third[:3] == [
        ("Player5", ActionKind.BRING_IN, D("0.03"), None),
        ("Player7", ActionKind.CALL, D("0.03"), None),
        ("Player8", ActionKind.COMPLETE, D("0.10"), D("0.10")),
    ]
    # FPDB .hp: Player8 wins 112 cents, rake 5; Player7 loses 42, Player4 22.
    (collect,) = [e for e in hand.events if isinstance(e, Collect)]
    assert (collect.player, collect.amount) == ("Player8", D("1.12"))
    (uncalled,) = [e for e in hand.events if isinstance(e, UncalledReturned)]
    assert (uncalled.player, uncalled.amount) == ("Player8", D("0.20"))
    put = Counter[str]()
    for e in hand.events:
        if isinstance(e, Action) and e.kind is not ActionKind.RAISE and e.amount is not None:
            put[e.player] += e.amount  # type: ignore[assignment]
    assert put["Player7"] + D("0.02") == D("0.42") and put["Player4"] + D("0.02") == D("0.22")


def test_player_listed_but_not_dealt_is_sitting_out() -> None:
    # FPDB's .hp lists Player6 as a player with zero profit; the log shows
    # "Player6 is sitting out" before the deal, no ante and no cards, so he is
    # not dealt in: ours marks the seat sitting out.
    (hand,) = hands_of("Razz-USD-0.10-0.20-201012.Player6.listed.but.doesnt.act.txt")
    seat6 = next(s for s in hand.seats if s.seat == 6)
    assert seat6.player == "Player6" and seat6.sitting_out
    assert len(hand.players()) == 7
    (collect,) = [e for e in hand.events if isinstance(e, Collect)]
    assert (collect.player, collect.amount) == ("Player8", D("0.41"))  # FPDB: winnings 41


def test_sng_player_marked_sitting_out_who_antes_is_dealt_in() -> None:
    (hand,) = hands_of("Razz-USD-HUSNG-2-201102.Villain.allin.on.bringing.txt")
    h = hand.header
    assert h.tournament is not None and h.tournament.id == "220338000" and h.tournament.buy_in == "$2 + $0.10"
    assert h.currency is None and not h.play_money
    assert hand.players() == ("Villain", "Hero")
    assert actions(hand)[:2] == [("Villain", ActionKind.BRING_IN, D(9), None), ("Hero", ActionKind.CALL, D(9), None)]
    bring_in = next(e for e in hand.events if isinstance(e, Action))
    assert bring_in.all_in
    # FPDB .hp: Hero wins 4800 cents of chips (48), Villain loses his 24.
    assert [(c.player, c.amount) for c in hand.events if isinstance(c, Collect)] == [("Hero", D(48))]


def test_hi_lo_split_side_pots() -> None:
    hands = {h.hand_id: h for h in hands_of("10Game-6max-USD-2.50-5.201104.Sample.txt")}
    hand = hands["29705138396"]
    collects = [(c.player, c.amount, c.pot, c.half) for c in hand.events if isinstance(c, Collect)]
    assert collects == [
        ("Kilij", D(5), 1, Half.HIGH), ("allie3911", D(5), 1, Half.LOW),
        ("Kilij", D("41.05"), 0, Half.HIGH), ("1Incubator1", D("41.05"), 0, Half.LOW),
    ]  # fmt: skip
    # "raises to $10.90, and is all in" facing $10: a $0.90 all-in raise
    assert any(a == ("1Incubator1", ActionKind.RAISE, D("0.90"), D("10.90")) for a in actions(hand, Street.FIFTH))
    (total,) = [e for e in hand.events if isinstance(e, PotSummary)]
    # "Main pot $85.10. Side pot $10. | Rake $3": stated before rake; normalised after
    assert (total.total, total.rake, total.pots) == (D("95.10"), D(3), (D("82.10"), D(10)))


def test_all_in_on_the_ante() -> None:
    (hand,) = hands_of("Razz-USD-HUSNG-200-201211.all.in.ante.txt")
    assert [type(e).__name__ for e in hand.events[:3]] == ["PostAnte", "PostAnte", "UncalledReturned"]
    assert not any(isinstance(e, Action) for e in hand.events)


# ---------------------------------------------------------------------------
# Robustness


def test_truncated_hand_is_rejected_with_line() -> None:
    text = corpus_file("7-Stud-USD-3-6-20106.Steal.from.HJ.Success.txt").read_text()
    lines = text.splitlines()
    cut = "\n".join(lines[:30]) + "\n"
    (result,) = list(parse_text(cut, site="fulltilt"))
    assert isinstance(result, Rejected)
    assert "truncated" in result.reason and result.line == 30


def test_detect_and_utf16_crlf() -> None:
    raw = corpus_file("Razz-USD-0.10-0.20-201012.CCT.and.ET.timeformat.txt").read_bytes()
    assert raw[:2] == b"\xff\xfe"
    assert FORMAT.detect(raw[2:].decode("utf-16-le"))
    assert not FORMAT.detect("PokerStars Game #1: 7 Card Stud Limit ($0.04/$0.08 USD)")


def test_unknown_line_is_rejected_not_raised() -> None:
    text = "Full Tilt Poker Game #1: Table T - $1/$2 Ante $0.10 - Limit Stud Hi - 12:00:00 ET - 2010/01/01\n" \
           "Seat 1: a ($10)\nSeat 2: b ($10)\nsomething odd happens here\n"
    result = FORMAT.parse_hand(HandText(1, text), "x")
    assert isinstance(result, Rejected) and result.line == 4 and result.hand_id == "1"


def test_skipped_other_game_names_game() -> None:
    text = "Full Tilt Poker Game #2: Table T - $1/$2 - Limit Hold'em - 12:00:00 ET - 2010/01/01\nanything\n"
    result = FORMAT.parse_hand(HandText(1, text), "x")
    assert isinstance(result, Skipped) and result.game == "Limit Hold'em"


# ---------------------------------------------------------------------------
# Rule checks on every real hand

# Full Tilt deals from a rotating, unlogged button: profile FULLTILT (deal_start="first_dealt",
# tests/test_engine_profiles.py); the all-in-on-the-ante hand 31349767778 returns the
# unmatched ante and has no betting, both legal (tests/test_rules.py).
KNOWN: set[tuple[str, ...]] = set()


def test_hands_check_clean() -> None:
    check = pytest.importorskip("studbook.check")
    if not SITE.exists():
        pytest.skip(f"corpus absent: {SITE}")
    unexpected = []
    for path in sorted(SITE.glob("*.txt")):
        for hand in read_file(path, site="fulltilt").hands:
            for v in check.check_hand(hand).violations:
                if (v.rule,) not in KNOWN and (v.rule, hand.hand_id) not in KNOWN:
                    unexpected.append((path.name, hand.hand_id, v))
    assert unexpected == []


def test_detects_a_hand_header_only_at_a_line_start() -> None:
    header = "Full Tilt Poker Game #21536266313: Table Hagan - $3/$6 Ante $0.50 - Limit Stud Hi - 12:06:20 ET - 2010/06/11\n"
    assert FORMAT.detect(header) and FORMAT.detect("text before\n" + header)
    assert not FORMAT.detect("x" + header)
