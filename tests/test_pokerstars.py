"""PokerStars stud hand histories -> typed events (issue #2)."""

from __future__ import annotations

import csv
import os
from datetime import datetime, timezone
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from budget import examples
from mutations import mutate

import studbook
from studbook import (
    Action, ActionKind, BettingCapped, Chatter, ChatterKind, Collect, Deal, DealCommunity, Hand,
    Muck, NoLowHand, NoShow, OpenPairNotice, ParseError, PostAnte, PotSummary, Rejected, SeatSummary,
    Show, ShowdownStart, Skipped, Street, StreetStart, Structure, UncalledReturned, Variant,
)
from studbook.cards import Card, parse_cards
from studbook.events import ParseResult, Stakes, Tournament
from studbook.sites.base import HandText
from studbook.sites.pokerstars import ZONES, to_utc

D = Decimal


def cards(text: str) -> tuple:
    return parse_cards(text)


# A hand written for these tests (not from the corpus): names with spaces,
# colons, brackets and non-ASCII letters.
SMALL = """\
PokerStars Hand #1001: Tournament #77, €5+€0.50 EUR 7 Card Stud Limit - Level II (20/40) - 2020/07/01 12:00:00 CET
Table '77 1' 8-max
Seat 1: PC [Mittel] (1,500 in chips)
Seat 2: drachensüss (1500 in chips)
Seat 4: a: b (300 in chips) is sitting out
PC [Mittel]: posts the ante 4
drachensüss: posts the ante 4
*** 3rd STREET ***
Dealt to PC [Mittel] [2c]
Dealt to drachensüss [Kd 9s Ah]
PC [Mittel]: brings in for 5
drachensüss: completes it to 20
PC [Mittel]: raises 20 to 40 and is all-in
drachensüss: calls 20
*** 4th STREET ***
Dealt to PC [Mittel] [2c] [2d]
Dealt to drachensüss [Kd 9s Ah] [Jc]
Pair on board - a double bet is allowed
drachensüss: checks
drachensüss said, "gl: calls 5"
PC [Mittel]: folds
Uncalled bet (0) returned to drachensüss
drachensüss collected 88 from pot
drachensüss: doesn't show hand
*** SUMMARY ***
Total pot 88 | Rake 0
Seat 1: PC [Mittel] folded on the 4th Street
Seat 2: drachensüss collected (88)
"""


def only(results: list) -> Hand:
    assert len(results) == 1 and isinstance(results[0], Hand), results
    return results[0]


def parse_one(path: Path) -> Hand:
    return only(list(studbook.parse_file(path)))


def test_a_name_that_starts_another_seated_name_is_read_as_the_longest_that_fits() -> None:
    """"drachensüss" and "drachensüss:" both seated: "drachensüss: is sitting out" is the
    second one (a name without the optional colon), "drachensüss: checks" the first."""
    text = SMALL.replace("Seat 4: a: b (300", "Seat 4: drachensüss: (300").replace(
        "drachensüss: checks\n", "drachensüss: checks\ndrachensüss: is sitting out\n")
    events = only(list(studbook.parse_text(text, file="prefix.txt"))).events
    sitting_out = next(e for e in events if isinstance(e, Chatter) and e.kind is ChatterKind.SIT_OUT)
    check = next(e for e in events if isinstance(e, Action) and e.kind is ActionKind.CHECK)
    assert (sitting_out.player, check.player) == ("drachensüss:", "drachensüss")


# ---------------------------------------------------------------------------
# A hand made for the tests: every field of the model


def test_small_hand_event_by_event() -> None:
    hand = only(list(studbook.parse_text(SMALL, file="small.txt")))
    h = hand.header
    assert (h.site, h.hand_id, h.variant, h.structure, h.game) == (
        "pokerstars", "1001", Variant.STUD, Structure.FIXED, "7 Card Stud Limit")
    assert (h.stakes.small_bet, h.stakes.big_bet, h.stakes.ante, h.stakes.bring_in) == (20, 40, None, None)
    assert h.currency is None and not h.play_money
    assert h.tournament == studbook.Tournament(id="77", buy_in="€5+€0.50 EUR", level="II")
    assert (h.table, h.max_seats, h.button) == ("77 1", 8, None)
    assert h.started == "2020/07/01 12:00:00 CET"
    assert h.started_utc == datetime(2020, 7, 1, 10, 0, tzinfo=timezone.utc)  # CEST in July
    assert [(s.seat, s.player, s.stack, s.sitting_out) for s in hand.seats] == [
        (1, "PC [Mittel]", D(1500), False), (2, "drachensüss", D(1500), False), (4, "a: b", D(300), True)]
    assert hand.players() == ("PC [Mittel]", "drachensüss")
    ev = hand.events
    f = "small.txt"
    assert ev[0] == PostAnte(file=f, line=6, player="PC [Mittel]", amount=D(4))
    assert ev[2] == StreetStart(file=f, line=8, street=Street.THIRD)
    assert ev[3] == Deal(file=f, line=9, player="PC [Mittel]", street=Street.THIRD, up=cards("2c"))
    assert ev[4] == Deal(file=f, line=10, player="drachensüss", street=Street.THIRD,
                         down=cards("Kd 9s"), up=cards("Ah"))  # fmt: skip
    assert ev[5] == Action(file=f, line=11, player="PC [Mittel]", kind=ActionKind.BRING_IN, amount=D(5))
    assert ev[6] == Action(file=f, line=12, player="drachensüss", kind=ActionKind.COMPLETE,
                           amount=D(20), to=D(20))  # fmt: skip
    assert ev[7] == Action(file=f, line=13, player="PC [Mittel]", kind=ActionKind.RAISE,
                           amount=D(20), to=D(40), all_in=True)  # fmt: skip
    assert ev[10] == Deal(file=f, line=16, player="PC [Mittel]", street=Street.FOURTH,
                          up=cards("2d"), before=cards("2c"))  # fmt: skip
    assert isinstance(ev[12], OpenPairNotice)
    assert ev[14] == Chatter(file=f, line=20, kind=ChatterKind.SAID, text="gl: calls 5", player="drachensüss")
    assert ev[16] == UncalledReturned(file=f, line=22, player="drachensüss", amount=D(0))
    assert ev[17] == Collect(file=f, line=23, player="drachensüss", amount=D(88))
    assert ev[18] == NoShow(file=f, line=24, player="drachensüss")
    assert ev[19] == PotSummary(file=f, line=26, total=D(88), rake=D(0))
    assert ev[21] == SeatSummary(file=f, line=28, seat=2, player="drachensüss",
                                 outcome="collected (88)", won=D(88))  # fmt: skip
    assert (hand.line, hand.end_line) == (1, 28)


# ---------------------------------------------------------------------------
# The real corpus


def stud_files(corpus: Path) -> list[tuple[Path, int]]:
    rows = list(csv.DictReader((corpus / "INDEX.tsv").open(encoding="utf-8"), delimiter="\t"))
    return [(corpus / r["path"], int(r["hands"])) for r in rows
            if r["site"] == "PokerStars" and r["hands"] not in ("-", "0")]  # fmt: skip


def test_every_pokerstars_hand_is_parsed_or_skipped(corpus: Path) -> None:
    files = stud_files(corpus)
    assert len(files) == 13
    assert sum(n for _, n in files) == 159
    for path, expected in files:
        results = list(studbook.parse_file(path))
        assert len(results) == expected, path
        rejected = [r.message() for r in results if isinstance(r, Rejected)]
        assert rejected == [], path
        if "8-Game" in path.name:
            hands = [r for r in results if isinstance(r, Hand)]
            skipped = [r for r in results if isinstance(r, Skipped)]
            assert (len(hands), len(skipped)) == (53, 84)
            variants = [h.variant for h in hands]
            assert (variants.count(Variant.STUD), variants.count(Variant.STUD8),
                    variants.count(Variant.RAZZ)) == (16, 18, 19)  # fmt: skip
            games = {s.game for s in skipped}
            assert games == {"Hold'em Limit", "Hold'em No Limit", "Omaha Hi/Lo Limit",
                             "Omaha Pot Limit", "Triple Draw 2-7 Lowball Limit"}  # fmt: skip
            assert all(s.hand_id and s.line >= 1 for s in skipped)
        else:
            assert all(isinstance(r, Hand) for r in results), path


def test_parse_paths_counts_add_up(corpus: Path) -> None:
    root = corpus / "PokerStars"
    reports = {str(Path(r.file).relative_to(root)): r for r in studbook.parse_paths([root])}
    game8 = reports["8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"]
    assert game8.counts() == {"parsed": 53, "skipped": 84, "rejected": 0}
    assert game8.encoding == "utf-8-sig" and game8.site == "pokerstars"
    summary = reports["summaries/8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"]
    assert summary.note == "a PokerStars tournament summary, not a hand history"
    assert summary.results == [] and summary.error is None
    assert reports["7-StudHL-USD-0.04-0.08-200911.Cardtest.txt.hp"].error.startswith("not a hand history")


def test_side_pots_all_in_bet_and_dual_time(corpus: Path) -> None:
    hand = parse_one(corpus / "PokerStars" / "HH20110417 Salm IX - $0.04-$0.08 Ante $0.01 - USD Limit Stud.txt")
    h = hand.header
    assert (h.hand_id, h.currency, h.stakes.small_bet, h.stakes.big_bet) == ("60974484959", "USD", D("0.04"), D("0.08"))
    assert h.started == "2011/04/18 2:21:35 CET [2011/04/17 20:21:35 ET]"
    assert h.started_utc == datetime(2011, 4, 18, 0, 21, 35, tzinfo=timezone.utc)
    assert (h.table, h.max_seats, h.tournament, h.mix) == ("Salm IX", 8, None, None)
    by_line = {e.line: e for e in hand.events}
    assert isinstance(by_line[43], OpenPairNotice)
    assert by_line[44] == Action(file=hand.file, line=44, player="Spacemasa", kind=ActionKind.BET,
                                 amount=D("0.08"), all_in=True)  # fmt: skip
    assert by_line[56].kind is ActionKind.RAISE and (by_line[56].amount, by_line[56].to) == (D("0.08"), D("0.16"))
    assert by_line[68] == Show(file=hand.file, line=68, player="ranchim",
                               cards=cards("Tc Kh As Jd Qd 2s 9c"), description="a straight, Ten to Ace")  # fmt: skip
    assert by_line[69] == Muck(file=hand.file, line=69, player="Tumim")
    assert [(e.player, e.amount, e.pot) for e in hand.events if isinstance(e, Collect)] == [
        ("ranchim", D("0.61"), 1), ("ranchim", D("0.42"), 0)]
    total = [e for e in hand.events if isinstance(e, PotSummary)][0]
    assert (total.total, total.rake, total.pots) == (D("1.08"), D("0.05"), (D("0.42"), D("0.61")))
    summary = [e for e in hand.events if isinstance(e, SeatSummary)]
    assert summary[3].won == D("1.03") and summary[3].cards == cards("Tc Kh As Jd Qd 2s 9c")
    assert summary[6].outcome == "mucked [5c 6c 2d 3h Ac 4d 8d]" and summary[6].won is None


def test_bracket_name_capped_betting_and_razz(corpus: Path) -> None:
    hand = parse_one(corpus / "PokerStars" / "Razz-8max-USD-200-15-201009.bracket.in.alias.txt")
    h = hand.header
    assert h.variant is Variant.RAZZ and h.currency is None
    assert h.tournament == studbook.Tournament(id="2010090015", buy_in="$200+$15 USD", level="IV")
    assert (h.stakes.small_bet, h.stakes.big_bet) == (D(50), D(100))
    assert hand.seats[-1].player == "PC [Mittel]"
    deals = [e for e in hand.events if isinstance(e, Deal) and e.player == "PC [Mittel]"]
    assert [(e.street, e.before, e.up) for e in deals][1] == (Street.FOURTH, cards("5c"), cards("9s"))
    assert any(isinstance(e, BettingCapped) and e.line == 39 for e in hand.events)
    hero7 = [e for e in hand.events if isinstance(e, Deal) and e.street == Street.SEVENTH]
    assert hero7[0].down == cards("5h") and hero7[0].up == () and len(hero7[0].before) == 6


def test_all_in_ante_main_and_side_pots(corpus: Path) -> None:
    hand = parse_one(corpus / "PokerStars" / "7-StudHL-USD-0.98-0.12-202302.allin.ante.txt")
    h = hand.header
    assert (h.variant, h.mix, h.tournament.level, h.tournament.buy_in) == (Variant.STUD8, "HORSE", "V", "$0.98+$0.12 USD")
    assert h.started_utc == datetime(2023, 2, 5, 18, 25, 51, tzinfo=timezone.utc)
    assert hand.seats[2].sitting_out
    antes = [e for e in hand.events if isinstance(e, PostAnte)]
    assert [a.all_in for a in antes].count(True) == 1 and antes[5].player == "Hero"
    assert [(e.player, e.amount, e.pot) for e in hand.events if isinstance(e, Collect)] == [
        ("Player3", D(150), 1), ("Player0", D(150), 1), ("Hero", D(160), 0), ("Hero", D(160), 0)]
    total = [e for e in hand.events if isinstance(e, PotSummary)][0]
    assert total.pots == (D(320), D(300))


def test_pt2_export_and_hidden_card_and_community_card(corpus: Path) -> None:
    pt2 = parse_one(corpus / "PokerStars" / "7-StudHL-USD-10-1-200906.PT2.export.txt")
    assert pt2.header.game == "7 CARD STUD HI/LO LIMIT" and pt2.variant is Variant.STUD8
    assert pt2.header.tournament.level == "I" and pt2.header.tournament.buy_in == "$10+$1"
    triple = parse_one(corpus / "PokerStars" / "Triple-Stud-USD-2.00-0.20-MTT-201301.txt")
    assert triple.header.mix == "Triple Stud" and triple.header.tournament.level == "XXXI"
    assert triple.header.started_utc == datetime(2013, 1, 3, 14, 27, 43, tzinfo=timezone.utc)
    river = [e for e in triple.events if isinstance(e, Deal) and e.street == Street.SEVENTH][0]
    assert (river.down, river.up, len(river.before)) == ((), (), 6)  # "[of]": not shown
    call = [e for e in triple.events if isinstance(e, Action) and e.all_in][0]
    assert (call.player, call.kind, call.amount) == ("Player5", ActionKind.CALL, D(72))
    board = parse_one(corpus / "PokerStars" / "7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt")
    community = [e for e in board.events if isinstance(e, DealCommunity)]
    assert community == [DealCommunity(file=board.file, line=87, card=cards("6h")[0])]
    assert board.header.currency == "USD"  # "$" without a code


def test_cash_mix_uncalled_and_home_game(corpus: Path) -> None:
    hand = parse_one(corpus / "PokerStars" / "7-StudHL-USD-400-800-201701.3bet.fix.txt")
    assert (hand.header.mix, hand.header.currency, hand.header.stakes.small_bet) == ("8-Game", "USD", D(400))
    raises = [(e.amount, e.to) for e in hand.events if isinstance(e, Action) and e.kind is ActionKind.RAISE]
    assert raises == [(D(280), D(400)), (D(400), D(800)), (D(400), D(1200))]
    assert [e for e in hand.events if isinstance(e, UncalledReturned)][0].amount == D(800)
    games = list(studbook.parse_file(corpus / "PokerStars" / "8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"))
    first = next(r for r in games if isinstance(r, Hand))
    t = first.header.tournament
    assert (t.id, t.buy_in, t.home_club) == ("743144019", "100+9", "Dazzle's Room")
    assert first.header.play_money and first.header.currency is None
    stud8 = [r for r in games if isinstance(r, Hand) and any(isinstance(e, NoLowHand) for e in r.events)]
    assert len(stud8) == 3 and all(h.variant is Variant.STUD8 for h in stud8)
    shown_after_collect = [r for r in games if isinstance(r, Hand) and r.hand_id == "99632607069"][0]
    assert not any(isinstance(e, ShowdownStart) for e in shown_after_collect.events)
    assert isinstance(shown_after_collect.events[-4], Show)


def test_fixture_variants(corpus: Path) -> None:
    fixtures = corpus / "PokerStars" / "fpdb3-fixtures"
    razz = parse_one(fixtures / "razz.txt")
    assert razz.header.button == 1
    deal = [e for e in razz.events if isinstance(e, Deal)][0]
    assert (deal.down, deal.up) == (cards("2h 3d"), cards("7s"))
    assert [e for e in razz.events if isinstance(e, Action)][0].kind is ActionKind.BRING_IN
    horse = parse_one(fixtures / "horse.txt")
    assert horse.header.tournament == studbook.Tournament(id="", level="I") and not horse.header.play_money


@pytest.mark.parametrize(
    "when, zone, utc",
    [
        ("2009/07/16 2:36:31", "CET", datetime(2009, 7, 16, 0, 36, 31)),
        ("2009/01/16 2:36:31", "CET", datetime(2009, 1, 16, 1, 36, 31)),
        ("2013/07/03 16:27:43", "EET", datetime(2013, 7, 3, 13, 27, 43)),
        ("2023/03/12 3:30:00", "ET", datetime(2023, 3, 12, 7, 30)),  # EDT began at 2:00
        ("2023/03/11 3:30:00", "ET", datetime(2023, 3, 11, 8, 30)),
        ("2023/08/01 10:00:00", "PT", datetime(2023, 8, 1, 17, 0)),
    ],
)
def test_time_zones_with_dst(when: str, zone: str, utc: datetime) -> None:
    assert to_utc(when, zone) == utc.replace(tzinfo=timezone.utc)
    assert to_utc(when, "XYZT") is None


# ---------------------------------------------------------------------------
# Malformed input: clear messages with file and line


def two_hands(first: str = SMALL) -> str:
    return first + "\n\n" + SMALL.replace("#1001", "#1002")


def test_truncated_hand_is_rejected_and_next_hand_survives(tmp_path: Path) -> None:
    cut = SMALL[: SMALL.index("*** SUMMARY ***")]
    path = tmp_path / "t.txt"
    path.write_text(two_hands(cut), encoding="utf-8")
    results = list(studbook.parse_file(path))
    assert [type(r) for r in results] == [Rejected, Hand]
    bad = results[0]
    assert (bad.file, bad.line, bad.hand_line, bad.hand_id) == (str(path), 24, 1, "1001")
    assert "truncated" in bad.reason
    assert results[1].hand_id == "1002" and results[1].line == 27


def test_unknown_line_inside_a_hand(tmp_path: Path) -> None:
    text = SMALL.replace("drachensüss: checks\n", "drachensüss: checks\nPC [Mittel]: dances a jig\n")
    results = list(studbook.parse_text(two_hands(text), file="u.txt"))
    bad = results[0]
    assert isinstance(bad, Rejected) and bad.line == 20 and bad.text == "PC [Mittel]: dances a jig"
    assert bad.reason.startswith("unknown line")
    assert bad.message().startswith("u.txt:20: hand 1001: unknown line")
    assert isinstance(results[1], Hand)


def test_line_out_of_place_and_bad_header() -> None:
    text = SMALL.replace("*** 4th STREET ***\n", "*** 4th STREET ***\ndrachensüss: posts the ante 4\n")
    bad = list(studbook.parse_text(text))[0]
    assert isinstance(bad, Rejected) and bad.line == 16 and bad.reason.startswith("ante out of place")
    header = list(studbook.parse_text(SMALL.replace("Level II (20/40) -", "Level II (20/40)")))[0]
    # the header names 7 Card Stud in a form the grammar does not read: never skipped, never "unrecognised"
    assert isinstance(header, Rejected) and header.line == 1 and header.reason == "unknown stud header"


def test_binary_empty_and_foreign_files(tmp_path: Path) -> None:
    (tmp_path / "bin.dat").write_bytes(bytes(range(256)) * 40)
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("just some notes\nnothing else\n")
    reports = {Path(r.file).name: r for r in studbook.parse_paths([tmp_path])}
    assert reports["bin.dat"].error == "binary file, not text"
    assert reports["empty.txt"].error == "empty file"
    assert reports["notes.txt"].error.startswith("not a hand history of any known site")
    assert all(r.results == [] for r in reports.values())
    assert list(studbook.parse_file(tmp_path / "empty.txt")) == [Rejected(str(tmp_path / "empty.txt"), 1, 1, "empty file")]
    with pytest.raises(ParseError, match=r"bin.dat:1: binary file"):
        list(studbook.parse_file(tmp_path / "bin.dat", strict=True))


def test_directory_without_logs(tmp_path: Path) -> None:
    assert list(studbook.parse_paths([tmp_path])) == []


def test_strict_raises_parse_error_with_file_and_line() -> None:
    # an unknown line with an amount may be a play (a line with none is a Note: tests/test_line_policy.py)
    text = SMALL.replace("drachensüss: checks\n", "drachensüss: checks\nnonsense $5\n")
    with pytest.raises(ParseError) as caught:
        list(studbook.parse_text(text, file="s.txt", strict=True))
    assert isinstance(caught.value, ValueError)
    assert (caught.value.file, caught.value.line) == ("s.txt", 20)
    assert str(caught.value).startswith("s.txt:20: unknown line")


def test_forced_site_and_nul_bytes_and_leading_garbage(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_bytes(b"\xef\xbb\xbfsome junk\r\n\r\n" + SMALL.replace("\n", "\r\n").encode().replace(b"Table", b"Ta\x00ble"))
    [report] = studbook.parse_paths([path], site="pokerstars")
    # "some junk" carries no play (no amount, no card): a warning, not a rejection (issue 31's policy)
    assert report.counts() == {"parsed": 1, "skipped": 0, "rejected": 0}
    assert any("text before the first hand carries no play" in w for w in report.warnings)
    assert report.hands[0].line == 3 and report.hands[0].events[0].line == 8
    assert "1 NUL byte dropped" in report.warnings
    assert report.rejected == []  # listed as a warning, never dropped unseen
    with pytest.raises(ValueError, match="unknown site"):
        list(studbook.parse_text(SMALL, site="nosuchsite"))


# ---------------------------------------------------------------------------
# Fuzzing: bad input never raises out of parse_text


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzzed_hands_never_raise(data: st.DataObject) -> None:
    text = mutate(two_hands(), data)
    results = list(studbook.parse_text(text, file="fuzz.txt"))
    assert results, "every input gives at least one result"
    for result in results:
        assert isinstance(result, (Hand, Skipped, Rejected))
        if isinstance(result, Rejected):
            assert result.file == "fuzz.txt" and result.line >= 1 and result.reason
            assert not result.reason.startswith("internal error"), result.reason


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=300) | st.binary(max_size=300).map(lambda b: b.decode("latin-1")))
def test_random_text_never_raises(text: str) -> None:
    for result in studbook.parse_text("PokerStars Hand #5: " + text):
        assert isinstance(result, (Hand, Skipped, Rejected))
    for result in studbook.parse_text(text):
        assert isinstance(result, (Hand, Skipped, Rejected))


# Knockout tournaments: a bounty message after the pot is collected, in the words the
# client's versions used. It is about the tournament's money, not this hand's chips.
BOUNTY_LINES = (
    "{winner} wins $1.50 for eliminating {loser} and their own bounty increases by $1.50 to $4.50",
    "{winner} wins the $2.50 bounty for eliminating {loser}",
    "{winner} wins $0.75 for splitting the elimination of {loser} and their own bounty increases by $0.75 to $3.75",
    "{winner} wins 1,500 for eliminating {loser}",
    # a bounty shared: the winners' names as one list, the one seated here first
    "{winner}, vecenta split the $50 bounty for eliminating {loser}",
    "{winner}, JKuzja, vecenta split the 22000 bounty for eliminating {loser}",
)
_HISTORIES = Path(__file__).resolve().parents[1] / "histories"


@pytest.mark.parametrize("words", BOUNTY_LINES)
def test_knockout_bounty_messages_read_as_table_messages(words: str) -> None:
    """Every tournament hand of histories/ with a collect, a bounty message added after
    its first collect line, reads as before: the same events but one table message."""
    [path] = _HISTORIES.glob("*T3761643380*.txt")
    text = path.read_text(encoding="utf-8")
    hands = [h for h in studbook.parse_text(text, file="t.txt") if isinstance(h, Hand)]
    edited_hands = 0
    for hand in hands:
        lines = text.splitlines()[hand.line - 1:hand.end_line]
        collects = [e for e in hand.events if isinstance(e, Collect)]
        losers = [s.player for s in hand.seats if s.player != collects[0].player] if collects else []
        if not losers:
            continue
        at = collects[0].line - hand.line + 1
        message = words.format(winner=collects[0].player, loser=losers[0])
        [again] = studbook.parse_text("\n".join(lines[:at] + [message] + lines[at:]) + "\n", file="t.txt")
        assert isinstance(again, Hand), again
        chatter = [e for e in again.events if isinstance(e, Chatter)]
        assert [c.kind for c in chatter if c.line == at + 1] == [ChatterKind.OTHER]
        before = [_play(e, 0) for e in hand.events]
        after = [_play(e, 1 if e.line > at else 0) for e in again.events if not (isinstance(e, Chatter) and e.line == at + 1)]
        assert after == [(name, line - hand.line + 1 if line else line, rest) for name, line, rest in before]
        edited_hands += 1
    assert edited_hands >= 10


def _play(event: object, shift: int) -> tuple[object, ...]:
    import dataclasses

    fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}  # type: ignore[arg-type]
    line = fields.pop("line", None)
    fields.pop("file", None)
    return (type(event).__name__, (line - shift) if line else line, tuple(sorted(fields.items(), key=lambda kv: kv[0])))


OTHER_GAME_HAND = """\
PokerStars Home Game Hand #99631934052: {Dazzle's Room} Tournament #743144019, 100+9 8-Game (Hold'em Limit) - Match Round I, Level II (20/40) - 2013/06/05 23:40:34 ET
Table '743144019 1' 2-max Seat #1 is the button
Seat 1: Player0 (890 in chips)
Seat 2: Hero (2110 in chips)
Player0: posts small blind 10
Hero: posts big blind 20
*** HOLE CARDS ***
Dealt to Hero [9c 8s]
Player0: raises 20 to 40 {body}
"""


def test_a_hand_of_another_game_is_passed_over_from_its_header(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand of another game is skipped at its header: after it the grammar reads any
    line (``_OTHER_LINE*``), so no line of the body is read, by a scanner or otherwise."""
    from studbook.read.grammar import _Scanner

    read = _Scanner.read
    seen: list[str] = []

    def spy(self: _Scanner, text: str, pos: int, rest: str) -> object:
        seen.append(rest)
        return read(self, text, pos, rest)

    monkeypatch.setattr(_Scanner, "read", spy)
    for body in ("first", "second", "third"):  # lines never read before: no scanner remembers them
        (skipped,) = studbook.parse_text(OTHER_GAME_HAND.replace("{body}", body), file="mix.txt")
        assert isinstance(skipped, Skipped)
        assert (skipped.hand_id, skipped.game, skipped.reason) == (
            "99631934052", "Hold'em Limit", "not a stud, stud hi/lo or razz hand")
    body_lines = OTHER_GAME_HAND.split("\n", 1)[1]
    assert not [rest for rest in seen if rest and rest in body_lines], seen


@settings(max_examples=examples(400), deadline=None)
@given(zone=st.sampled_from(sorted(ZONES)), when=st.datetimes(datetime(1850, 1, 1), datetime(2100, 12, 31)))
def test_a_time_is_read_in_its_zone_as_the_zone_rules_say(zone: str, when: datetime) -> None:
    """``to_utc`` looks a zone's offset up once an hour; each time is what the zone's rules,
    applied second by second, make of it (changes of clocks, skipped and repeated hours)."""
    from zoneinfo import ZoneInfo

    written = when.strftime("%Y/%m/%d %H:%M:%S").rjust(19, "0")
    exact = when.replace(microsecond=0, tzinfo=ZoneInfo(ZONES[zone])).astimezone(timezone.utc)
    assert to_utc(written, zone) == exact


@pytest.mark.parametrize("year", [1918, 1945, 2007, 2011, 2013, 2023])
def test_the_hours_of_a_change_of_clocks_are_read_as_the_zone_rules_say(year: int) -> None:
    """Every minute (first and last second) of the days a zone changes its clocks: the
    hour a change falls in (St. John's changed at 00:01 until 2011) and the hours
    skipped or repeated, in every zone a log may name."""
    from datetime import timedelta
    from zoneinfo import ZoneInfo

    days = 0
    for zone in sorted(ZONES):
        tz = ZoneInfo(ZONES[zone])
        for day in range(365):
            start = datetime(year, 1, 1) + timedelta(days=day)
            if start.replace(tzinfo=tz).utcoffset() == start.replace(hour=23, minute=59, tzinfo=tz).utcoffset():
                continue
            days += 1
            for minute in range(24 * 60):
                for second in (0, 59):
                    local = start + timedelta(minutes=minute, seconds=second)
                    exact = local.replace(tzinfo=tz).astimezone(timezone.utc)
                    assert to_utc(local.strftime("%Y/%m/%d %H:%M:%S"), zone) == exact, (zone, local)
    assert days >= 10  # the zones' changes of that year were met


def _to_utc_by_numbers(when: str, zone: str) -> datetime | None:
    """``to_utc`` as it is defined: the six numbers of the time in order, read in the zone's rules."""
    import re
    from zoneinfo import ZoneInfo

    if zone not in ZONES:
        return None
    year, month, date, hour, minute, second = map(int, re.findall(r"[0-9]+", when)[:6])
    local = datetime(year, month, date, hour, minute, second, tzinfo=ZoneInfo(ZONES[zone]))
    return local.astimezone(timezone.utc)


def _outcome(read: object, when: str, zone: str) -> object:
    try:
        return read(when, zone)  # type: ignore[operator]
    except ValueError as error:
        return ("ValueError", str(error))


_NUMBER = st.one_of(st.integers(0, 70).map(str), st.integers(0, 70).map(lambda n: f"{n:02d}"),
                    st.sampled_from(["2013", "1999", "0", "00", "12345", "٣"]))  # fmt: skip
_SEPARATOR = st.sampled_from(["/", "-", " ", " - ", ":", "", "x", "  "])


@settings(max_examples=examples(600), deadline=None)
@given(zone=st.sampled_from(sorted(ZONES) + ["XYZT"]), parts=st.lists(st.tuples(_NUMBER, _SEPARATOR), min_size=3, max_size=8),
       tail=st.sampled_from(["", " ET", ":"]))  # fmt: skip
def test_any_written_time_is_read_as_its_six_numbers_say(zone: str, parts: list[tuple[str, str]], tail: str) -> None:
    """The hour remembered (``to_utc``'s fast path) gives what the numbers give, or the same error,
    for times written in any form: too few or too many numbers, one digit, no date, seconds past 59,
    an hour not in the calendar."""
    when = "".join(number + separator for number, separator in parts).rstrip() + tail
    when = when[:-1] if when.endswith(":") and tail != ":" else when
    for _ in range(2):  # first read, then remembered
        assert _outcome(to_utc, when, zone) == _outcome(_to_utc_by_numbers, when, zone), when
    for written in ("2013/06/05 23:30:00", "2007/05/20 - 19:04:40", "2009-11-26 10:27:46", "2013/6/5 3:05:09"):
        assert to_utc(written, zone) == _to_utc_by_numbers(written, zone)


def test_a_time_is_read_once_an_hour(monkeypatch: pytest.MonkeyPatch) -> None:
    """The numbers of an hour's times are found once (``findall`` and two datetimes were a fifth of
    a skipped hand's read, issue 34); each time is still its zone's."""
    import re

    from studbook.sites import lines

    found: list[str] = []

    class Spy:
        def findall(self, text: str) -> list[str]:
            found.append(text)
            return re.findall(r"[0-9]+", text)

    monkeypatch.setattr(lines, "_NUMBERS", Spy())
    for minute in range(60):
        when = f"2031/07/09 13:{minute:02d}:{minute % 7:02d}"
        assert to_utc(when, "CET") == _to_utc_by_numbers(when, "CET")
    assert len(found) <= 1, found  # (none: an earlier test read that hour)


def test_a_hand_of_another_game_is_skipped_at_its_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand of another game is skipped at its game: its level and time are not made
    (``to_utc`` is never called), and it is skipped as before; the grammar still reads the
    rest of its header, so a header whose time no grammar reads is rejected as before."""
    from studbook.sites import pokerstars

    times: list[str] = []
    monkeypatch.setattr(pokerstars, "to_utc", lambda when, zone: times.append(when))
    (skipped,) = studbook.parse_text(OTHER_GAME_HAND.replace("{body}", ""), file="mix.txt")
    assert isinstance(skipped, Skipped) and not times
    assert (skipped.line, skipped.hand_id, skipped.game, skipped.reason, skipped.site) == (
        1, "99631934052", "Hold'em Limit", "not a stud, stud hi/lo or razz hand", "pokerstars")
    garbled = OTHER_GAME_HAND.replace("{body}", "").replace("2013/06/05 23:40:34 ET", "2013/06/05 at noon")
    (rejected,) = studbook.parse_text(garbled, file="mix.txt")
    assert isinstance(rejected, Rejected) and rejected.line == 1, rejected


@pytest.mark.parametrize("tail", [" drachensüss is sitting out", ' drachensüss said, "hi"', "drachensüss is sitting out"])
def test_a_header_with_a_no_play_line_after_its_time_is_rejected_at_its_header(tail: str) -> None:
    """The line policy passes a line the grammar does not read only from its start: a
    header whose text after its time would be a no-play line on a line of its own is
    rejected at the header (the scan tells a line's start from the text, not a flag)."""
    header, body = SMALL.split("\n", 1)
    (rejected,) = studbook.parse_text(header + tail + "\n" + body, file="tail.txt")
    assert isinstance(rejected, Rejected) and (rejected.line, rejected.reason) == (1, "unknown stud header"), rejected


def test_a_hand_or_a_skipped_hand_is_not_named_again_by_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand, and a hand the builder skipped (named by its site already), come from
    parse.py as the site made them (issue 34: no call a hand to name the site); a rejected
    hand, which the builder leaves unnamed, is still named by the format that read it."""
    from studbook import parse

    named: list[object] = []
    with_site = parse._with_site
    monkeypatch.setattr(parse, "_with_site", lambda result, site: named.append(result) or with_site(result, site))
    other = OTHER_GAME_HAND.replace("{body}", "")
    results = list(studbook.parse_text(SMALL + "\n\n" + other, file="mix.txt"))
    assert [type(r) for r in results] == [Hand, Skipped] and results[1].site == "pokerstars" and not named
    garbled = other.replace("2013/06/05 23:40:34 ET", "2013/06/05 at noon")
    (rejected,) = studbook.parse_text(garbled, file="mix.txt")
    assert isinstance(rejected, Rejected) and rejected.site == "pokerstars" and named == [replace(rejected, site=None)]


def test_a_scan_keeps_no_offset_a_line_and_a_handler_reads_its_own_line() -> None:
    """The scan stores nothing on the builder a line for the few handlers that read their
    line's text (issue 34: ``self.start``, stored on every line): they ask with their line
    (``line_text(line)``), so table messages carry their own lines wherever they come, and a
    line whose handler raises is still the line a rejection names."""
    from studbook.sites.base import HandText
    from studbook.sites.pokerstars import FORMAT

    stored: list[str] = []

    class Spy(FORMAT.builder):  # type: ignore[name-defined,misc]
        def __setattr__(self, name: str, value: object) -> None:
            stored.append(name)
            super().__setattr__(name, value)

    lines = SMALL.splitlines()
    messages = {5: "a: b leaves the table", 13: "drachensüss has timed out", 23: "PC [Mittel] joins the table at seat #5"}
    for at in sorted(messages, reverse=True):
        lines.insert(at, messages[at])
    text = "\n".join(lines) + "\n"
    hand = Spy("t.txt", HandText(7, text), text, FORMAT.grammar()).build()
    assert isinstance(hand, Hand)
    assert stored.count("start") == 1, stored.count("start")  # its starting value, none a line
    chatter = [(e.line, e.text) for e in hand.events if isinstance(e, Chatter) and e.kind is not ChatterKind.SAID]
    assert chatter == [(7 + lines.index(message), message) for message in messages.values()]
    board = lines.index("Total pot 88 | Rake 0") + 1
    [rejected] = studbook.parse_text("\n".join(lines[:board] + ["Board [Ah]"] + lines[board:]) + "\n", file="t.txt")
    assert isinstance(rejected, Rejected) and rejected.line == board + 1, rejected
    assert "does not match the river's community card" in rejected.reason

_HEADERS = (
    OTHER_GAME_HAND.split("\n", 1)[0], SMALL.split("\n", 1)[0],
    "PokerStars Hand #2: Tournament #3, $10+$1 USD HORSE (Razz Limit) - Level V (200/400) - 2023/02/05 10:25:51 PT [2023/02/05 13:25:51 ET]",
    "PokerStars Game #35874676388:  Omaha Hi/Lo Limit ($0.04/$0.08 USD) - 2009/11/26 10:27:46 ET",
    "PokerStars Hand #7: Mixed Hold'em/Stud (Razz Limit) - 2013/06/05 23:40:34 ET",
    "PokerStars Zoom Hand #9: 8-Game (5 Card Draw Limit, $400/$800 USD) [ADM ID: 0D6C4B] - 2013/06/05 23:40:34 ET",
)
_PIECES = ("Hold'em", "Razz", "7 Card Stud", "Omaha", " - ", " (", ")", ", ", "{Club} ", "Tournament #1, ", "Level I (1/2)",
           "2-7", "Five Card", "Badugi", " [AAMS ID: 1F]", "\n", "ET", "2013/06/05 1:02:03")


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_header_read_in_one_match_reads_as_the_builder_reads_it(data: st.DataObject) -> None:
    """A hand skipped from its first line alone (``LineFormat`` with the builder's
    ``OTHER_GAME``, issue 34) comes out as its builder makes it, and any other hand
    as before: headers of stud and other games, their pieces cut, doubled, moved or
    replaced by pieces that change what the grammar reads (a stud game in a mix
    named like another game, two games, a missing " - ", a line cut in two)."""
    from unittest import mock

    from studbook.sites.pokerstars import FORMAT

    header = data.draw(st.sampled_from(_HEADERS))
    for _ in range(data.draw(st.integers(0, 3))):
        i = data.draw(st.integers(0, len(header)))
        j = data.draw(st.integers(i, min(len(header), i + 12)))
        piece = data.draw(st.sampled_from(_PIECES) | st.text(max_size=4) | st.just(header[i:j]))
        header = header[:i] + piece + header[j if data.draw(st.booleans()) else i:]
    body = data.draw(st.sampled_from([OTHER_GAME_HAND.replace("{body}", ""), SMALL])).split("\n", 1)[1]
    chunk = HandText(3, header + "\n" + body)
    other_games = FORMAT._other_games
    assert other_games is not None
    other_games.running = True  # tried from its first line, as in a run of skipped hands
    result = FORMAT.parse_hand(chunk, "h.txt")
    event("skipped from its first line" if other_games.first_line.match(chunk.text)
          else f"read by the builder: {type(result).__name__}")  # fmt: skip
    with mock.patch.dict(FORMAT.__dict__, {"_other_games": None}):
        assert result == FORMAT.parse_hand(chunk, "h.txt")


def test_hands_of_another_game_are_tried_from_their_header_while_they_come_in_a_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand is tried from its first line only after a skipped hand (other games come in
    runs: a mix's rotation): a log of stud hands is not read twice at each header, and a
    run of other games is read by a builder at its first hand only (issue 34)."""
    from studbook.read.grammar import FirstLinePass
    from studbook.sites.pokerstars import FORMAT

    tried: list[int] = []
    match = FirstLinePass.match
    monkeypatch.setattr(FirstLinePass, "match", lambda self, text: tried.append(1) or match(self, text))
    built: list[int] = []
    init = FORMAT.builder.__init__
    monkeypatch.setattr(FORMAT.builder, "__init__", lambda self, *a: built.append(a[1].first_line) or init(self, *a))
    other_games = FORMAT._other_games
    assert other_games is not None
    monkeypatch.setattr(other_games, "running", False)
    other = OTHER_GAME_HAND.replace("{body}", "")
    hands = [other, other, other, SMALL, SMALL, other, other]
    log = "\n\n".join(hand.replace("#", f"#{n}", 1) for n, hand in enumerate(hands, 1))
    results = list(studbook.parse_text(log, file="mix.txt"))
    assert [type(r) for r in results] == [Skipped] * 3 + [Hand] * 2 + [Skipped] * 2
    firsts = [r.line for r in results]
    assert built == [firsts[0], firsts[3], firsts[4], firsts[5]]  # a run's first hand, the stud hands
    assert len(tried) == 4  # the second and third hands, the first stud hand, the last hand
    monkeypatch.setattr(other_games, "running", False)
    tried.clear()
    assert all(isinstance(r, Hand) for r in studbook.parse_text("\n\n".join([SMALL] * 5), file="stud.txt"))
    assert not tried


@pytest.mark.parametrize("reader", ["stream_file", "stream_sourced"])
def test_a_run_of_skipped_hands_is_read_in_the_splits_loop(tmp_path: Path, reader: str) -> None:
    """A run of hands of another game, read from a file as ``studbook check`` reads it
    (:func:`~studbook.parse.stream_file`) and as ``studbook import`` reads it
    (:func:`~studbook.parse.stream_sourced`, each hand beside its text), is read in the
    split's loop (issue 34: the format's reader offered each hand, ``LineFormat.hands``):
    some 5 Python calls a hand (parse.py's generators, the format's read, the pass's
    match, the ``Skipped`` made; the split yields a run's results in one list, 6 calls a
    hand before i34r15), where each hand went through a ``HandText``, ``_parse_hand``,
    ``parse_hand``, ``screen`` and the naming before (10 calls a hand; the import's
    reading 12, with each hand's text taken). Counted with ``sys.setprofile``:
    Python calls only, the difference of two files over their hands."""
    import sys

    from studbook import parse

    other = OTHER_GAME_HAND.replace("{body}", "")

    def read(path: Path) -> list[ParseResult]:
        if reader == "stream_file":
            return list(parse.stream_file(path)[1])
        return [result for result, _ in parse.stream_sourced(path)[1]]

    def calls(hands: int) -> tuple[int, list[ParseResult]]:
        path = tmp_path / f"run{hands}.txt"
        path.write_text("\n\n".join(other.replace("#99631934052", f"#{1000 + n}") for n in range(hands)), encoding="utf-8")
        read(path)  # warm: the grammar, its first line's regex, the game named
        events: list[str] = []
        sys.setprofile(lambda frame, event, arg: events.append(event))
        try:
            results = read(path)
        finally:
            sys.setprofile(None)
        return events.count("call"), results

    calls20, _ = calls(20)
    calls60, results = calls(60)
    assert [(r.hand_id, r.game, r.line) for r in results if isinstance(r, Skipped)] == [
        (str(1000 + n), "Hold'em Limit", 1 + 11 * n) for n in range(60)]
    assert (calls60 - calls20) / 40 <= 5.5, (calls60 - calls20) / 40


def _c_calls_a_hand(tmp_path: Path, hand: str, number: str) -> tuple[dict[str, float], list[ParseResult]]:
    """The C calls a hand makes in a file of such hands (``hand`` with its hand number
    ``number`` made distinct), read as ``studbook check`` reads it, by the called
    method's qualified name ("Pattern.match", "dict.get"): counted with ``sys.setprofile``,
    the difference of two files over their hands, each read once before (the grammar, its
    regexes and memos made); and the larger file's results."""
    import collections
    import sys

    from studbook import parse

    def calls(hands: int) -> tuple[collections.Counter[str], list[ParseResult]]:
        path = tmp_path / f"run{hands}.txt"
        path.write_text("\n\n".join(hand.replace(number, f"{number}{hands}{1000 + n}") for n in range(hands)),
                        encoding="utf-8")  # (no hand of the file read twice before: its first line is new)
        list(parse.stream_file(path)[1])  # warm: the grammar, its regexes, the memos
        called: collections.Counter[str] = collections.Counter()
        sys.setprofile(lambda frame, event, arg: called.update([getattr(arg, "__qualname__", "?")])
                       if event == "c_call" else None)  # fmt: skip
        try:
            results = list(parse.stream_file(path)[1])
        finally:
            sys.setprofile(None)
        return called, results

    (calls20, _), (calls60, results) = calls(20), calls(60)
    return {name: (calls60[name] - calls20[name]) / 40 for name in calls60}, results


def _c_calls_a_skipped_hand_in_a_run(tmp_path: Path) -> dict[str, float]:
    """:func:`_c_calls_a_hand` of a hand of another game, in a run of them."""
    called, results = _c_calls_a_hand(tmp_path, OTHER_GAME_HAND.replace("{body}", ""), "#99631934052")
    assert [(r.hand_id, r.game) for r in results if isinstance(r, Skipped)] == [
        (f"99631934052{60}{1000 + n}", "Hold'em Limit") for n in range(60)]
    return called


def test_a_stud_hand_is_matched_by_its_header_and_first_token_only(tmp_path: Path) -> None:
    """A PokerStars stud hand of a log whose lines repeat is matched by two regexes at most:
    the header where the split finds it and its first token (the hand number: new every hand).
    Its text is tested for the format's start, "PokerStars ", with ``str.startswith``, and
    whether its tournament's buy-in is real money is remembered by the buy-in's text
    (issue 34: a regex's match and a search, some 3 k instructions, every hand). The
    header's tournament and stakes, the same every hand, are made once (two objects and
    two amounts a hand)."""
    from studbook.sites.pokerstars import FORMAT

    called, results = _c_calls_a_hand(tmp_path, SMALL, "#1001")
    hands = [r for r in results if isinstance(r, Hand)]
    assert len(hands) == len(results) == 60
    # at most those two: a scanner that weighs its lines (read/grammar.py's _Scanner._weigh_lines)
    # may remember a line at its first sight, so the second read of the file matches fewer
    # (how many fewer depends on what the process read before: the scanners are shared)
    assert called.get("Pattern.match", 0) <= 2 and called.get("Pattern.search", 0) == 0, called
    assert FORMAT._literal_start == "PokerStars "
    first, last = hands[0].header, hands[-1].header
    assert first.tournament is last.tournament and first.stakes is last.stakes
    assert first.tournament == Tournament("77", "€5+€0.50 EUR", "II", None)
    assert first.stakes == Stakes(Decimal(20), Decimal(40))


def test_a_pokerstars_hand_makes_none_of_the_builders_rare_containers() -> None:
    """The players who anted, those marked sitting out, the cards seen per player and the
    noted lines are made when a handler first asks for them: PokerStars' handlers never
    do on a hand of plain lines (issue 34: four containers made and freed every hand)."""
    from studbook.sites.pokerstars import FORMAT

    builder = FORMAT.builder("h.txt", HandText(3, SMALL), SMALL, FORMAT.grammar())
    assert isinstance(builder.build(), Hand)
    assert not {"anted", "sitting_out", "known", "noted"} & vars(builder).keys()
    assert builder.noted == [] and builder.anted == set()  # made when asked for


def test_a_skipped_hand_in_a_run_is_matched_by_two_regexes(tmp_path: Path) -> None:
    """A hand of another game in a run, read as ``studbook check`` reads it, is matched by
    two regexes: the header where the split finds it and the first-line pass. The format's
    ``starts`` ("PokerStars ") is the header's literal prefix, so the reader does not match
    it again (issue 34; three a hand before i34r15)."""
    assert _c_calls_a_skipped_hand_in_a_run(tmp_path)["Pattern.match"] == 2


def test_a_skipped_hands_repeated_header_rest_costs_one_lookup(tmp_path: Path) -> None:
    """A hand of another game in a run whose header's rest (the game, the table, the level)
    was read before costs one lookup: the first-line pass remembers what the reader makes of
    the rest, the game it names, not the rest's groups to look the game up by again; and the
    first token's match is asked for its fields alone, as the scanners ask theirs (issue 34:
    a tuple of the game's groups made, hashed and looked up, a tuple of four fields sliced to
    two, and a third ``end`` a hand cost a skipped hand some 5 k instructions of its 46 k)."""
    from studbook.sites.pokerstars import FORMAT

    called = _c_calls_a_skipped_hand_in_a_run(tmp_path)
    assert (called["dict.get"], called["Match.end"], called["Match.group"]) == (1, 2, 1), called
    other_games = FORMAT._other_games
    assert other_games is not None and other_games.first_line is not None
    assert 0 not in other_games.first_line.first_args[0]  # never the whole match: no copy of it


_RUN_GAMES = ("Hold'em Limit", "Omaha Hi/Lo Limit", "Triple Draw 2-7 Lowball Limit", "Hold'em No Limit",
              "Hold\ufffdem Limit", "Razz Limit")


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_log_read_with_its_runs_of_skipped_hands_reads_as_hand_by_hand(tmp_path: Path, data: st.DataObject) -> None:
    """A log of runs of hands of another game (damaged game names among them: rejected),
    stud hands, headers the pass does not read, notices between hands and hands over a
    (lowered) size limit reads as each hand read by itself by the builder (no pass, no
    run, the format's ``_other_games`` None, each hand's text taken): every result the
    same, with its reason, file and line, in the same order (issue 34: the split's loop
    reads a run of skipped hands)."""
    from typing import Any
    from unittest import mock

    from studbook.parse import stream_file, stream_sourced
    from studbook.read import limits
    from studbook.sites.pokerstars import FORMAT

    kinds = data.draw(st.lists(st.sampled_from(["other"] * 4 + ["stud", "garbled", "long", "notice"]), min_size=1, max_size=14))
    hands = []
    for n, kind in enumerate(kinds, 1):
        game = data.draw(st.sampled_from(_RUN_GAMES))
        other = OTHER_GAME_HAND.replace("Hold'em Limit", game).replace("#", f"#{n}", 1)
        hand = {"other": other.replace("{body}", ""), "stud": SMALL.replace("#1001", f"#{n}", 1),
                "garbled": other.replace("{body}", "").replace("2013/06/05", "2013/06"),
                "long": other.replace("{body}", "x" * 700), "notice": "Player0 has timed out\n"}[kind]
        hands.append(hand + "\n" * data.draw(st.integers(1, 3)))
    path = tmp_path / "log.txt"
    path.write_text("".join(hands).rstrip("\n") + "\n" * data.draw(st.integers(0, 2)), encoding="utf-8")
    other_games = FORMAT._other_games
    assert other_games is not None
    offered: list[bool] = []  # whether each hand the split offered was read
    run_read = type(other_games).read

    def spy(self: Any, context: Any, hand: str, line: int) -> Any:
        result = run_read(self, context, hand, line)
        offered.append(result is not None)
        return result

    with mock.patch.object(limits, "MAX_HAND_CHARS", 1000), mock.patch.object(type(other_games), "read", spy):
        other_games.running = data.draw(st.booleans())  # as a file read before may have left it
        report, results = stream_file(path)
        read = list(results)
        event(f"read in a run: {min(sum(offered), 3)}+")
        with mock.patch.dict(FORMAT.__dict__, {"_other_games": None}):
            base_report, sourced = stream_sourced(path)
            by_hand = [result for result, _ in sourced]
    assert read == by_hand
    assert (report.warnings, report.error) == (base_report.warnings, base_report.error)
    event(f"{sum(isinstance(r, Skipped) for r in read)} skipped, {sum(isinstance(r, Rejected) for r in read)} rejected")


def test_a_first_lines_rest_is_remembered_by_one_string() -> None:
    """The pass remembers what the rest of a first line reads by one string, the rest
    with the character before it (issue 34: a tuple of the two made, hashed and
    compared a hand cost a skipped hand some 1 k instructions of its 50 k)."""
    from studbook.sites.pokerstars import FORMAT

    other_games = FORMAT._other_games
    assert other_games is not None and other_games.first_line is not None
    first_line = other_games.first_line
    header = OTHER_GAME_HAND.replace("{body}", "").replace("23:40:34", "23:41:17")
    found = first_line.match(header)
    assert found is not None and found[0][-1] == "99631934052"
    rest = header[header.index(": ") + 1 : header.index("\n")]  # the first token, "...#99631934052: ", read
    assert first_line.remembered[rest] == found[1]


def _mixed_logs(corpus: Path) -> list[tuple[str, list[str]]]:
    """Every PokerStars corpus log holding hands of another game: (its name, its hands' texts)."""
    from studbook.parse import read_file

    logs = []
    for path in sorted((corpus / "PokerStars").glob("*.txt")):
        if any(isinstance(r, Skipped) for r in read_file(path).results):
            text = path.read_text(encoding="utf-8-sig", errors="replace")
            logs.append((path.name, [h for h in text.split("\n\n") if h.strip()]))
    return logs


@settings(max_examples=examples(120), suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_real_mixed_logs_mutated_read_with_their_runs_as_hand_by_hand(corpus: Path, tmp_path: Path,
                                                                       data: st.DataObject) -> None:
    """The class behind the split's run of skipped hands, on real logs: a stretch of
    consecutive hands of every PokerStars corpus log that mixes in other games, with
    lines dropped, doubled, swapped, garbled, inserted or cut (``mutations.mutate``),
    reads through the split's run exactly as each hand read by itself by the builder
    (no first-line pass, no run): every result, its reason, file and line, in order."""
    from unittest import mock

    from studbook.parse import stream_file, stream_sourced
    from studbook.sites.pokerstars import FORMAT

    logs = _mixed_logs(corpus)
    if not logs:
        pytest.skip(f"no PokerStars log with hands of another game in {corpus}")
    name, hands = data.draw(st.sampled_from(logs), label="log")
    start = data.draw(st.integers(0, len(hands) - 1))
    stretch = "\n\n".join(hands[start : start + data.draw(st.integers(1, 12))])
    path = tmp_path / name
    path.write_text(mutate(stretch, data) + "\n", encoding="utf-8")
    other_games = FORMAT._other_games
    assert other_games is not None
    other_games.running = data.draw(st.booleans())  # as a file read before may have left it
    report, results = stream_file(path)
    read = list(results)
    with mock.patch.dict(FORMAT.__dict__, {"_other_games": None}):
        base_report, sourced = stream_sourced(path)
        by_hand = [result for result, _ in sourced]
    event(f"{min(sum(isinstance(r, Skipped) for r in read), 4)}+ skipped")
    assert read == by_hand
    assert (report.warnings, report.error) == (base_report.warnings, base_report.error)


def test_an_import_reads_real_mixed_logs_runs_in_the_split_with_each_hands_text(corpus: Path) -> None:
    """``studbook import``'s reading (:func:`~studbook.parse.stream_sourced`, each result
    beside its original text) of every PokerStars corpus log that mixes in other games,
    with the split's runs of skipped hands, gives what reading each hand by itself gives
    (no run): every result in order, and every hand's and rejection's text; a skipped
    hand comes without a text, which nothing stores (issue 34: the import read each
    skipped hand through its text, ``parse_hand`` and the screen)."""
    from unittest import mock

    from studbook.parse import stream_sourced
    from studbook.sites.pokerstars import FORMAT

    logs = [name for name, _ in _mixed_logs(corpus)]
    if not logs:
        pytest.skip(f"no PokerStars log with hands of another game in {corpus}")
    for name in logs:
        path = corpus / "PokerStars" / name
        report, sourced = stream_sourced(path)
        read = list(sourced)
        with mock.patch.dict(FORMAT.__dict__, {"_other_games": None}):
            base_report, base = stream_sourced(path)
            by_hand = list(base)
        assert [r for r, _ in read] == [r for r, _ in by_hand], name
        assert (report.warnings, report.error) == (base_report.warnings, base_report.error), name
        skipped = [isinstance(r, Skipped) for r, _ in read]
        assert sum(skipped) > 1, name
        assert all(source is None for (_, source), skip in zip(read, skipped) if skip), name
        assert [s for (_, s), skip in zip(read, skipped) if not skip] == [
            s for (_, s), skip in zip(by_hand, skipped) if not skip], name
        assert any(s is not None for (_, s), skip in zip(read, skipped) if not skip), name


@pytest.mark.parametrize("written", ["0", "7", "07", "99", "100", "123456"])
def test_a_summary_seat_number_is_held_to_the_one_limit_for_counts(written: str) -> None:
    """A summary seat line's seat number is read through a memo of its text (issue 34: a Python
    call to within_count a line, some 10 k instructions a simulated hand): each text gives what
    ``within_count`` gives, and a number past the limit raises each time it is read (a conversion
    that raises is not remembered)."""
    from studbook.read.limits import within_count
    from studbook.sites.pokerstars import _SUMMARY_SEATS

    try:
        expected: int | str = within_count(int(written), "seat number")
    except ValueError as error:
        expected = str(error)
    for _ in range(2):
        try:
            got: int | str = _SUMMARY_SEATS[written]
        except ValueError as error:
            got = str(error)
        assert got == expected


def test_a_seat_and_a_pot_read_through_memos_read_as_their_conversions() -> None:
    """A seat line's seat, a table's size and button and a collect line's pot are read through
    memos of their text (issue 34: ``int`` and ``pot_number`` calls, a seat line a player): every
    text the grammar lets through reads as the conversion reads it, and a pot number past the limit
    raises each time."""
    from studbook.sites.lines import pot_number
    from studbook.sites.pokerstars import _NUMBERS, _POTS

    for n in range(100):
        for written in {str(n), f"{n:02d}"}:
            assert _NUMBERS[written] == int(written)
    for pot in ("pot", "main pot", "side pot", "side pot-1", "side pot-12"):
        assert _POTS[pot] == pot_number(pot)
    for _ in range(2):
        with pytest.raises(ValueError, match="pot number"):
            _POTS["side pot-1000"]


_CARD_PARTS = st.sampled_from(["Th", "2c", "As", "10h", "th", "kD", "of", "Xx", "1", ""])
_CARD_GAPS = st.sampled_from([" ", " ", " ", "  ", "\t", ""])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(runs=st.lists(st.lists(st.tuples(_CARD_PARTS, _CARD_GAPS), max_size=7), min_size=1, max_size=12))
def test_a_run_of_cards_read_from_its_head_reads_as_parse_cards(
        runs: list[list[tuple[str, str]]], monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """The card memo reads a new run from its run of all cards but the last where it holds that
    (issue 34: a deal line's cards before are the last street's): every run, each of its heads
    read before it or not, reads as ``parse_cards`` reads it, or raises its error. (A run without
    a space never reads from the empty head: ``cards("")`` is read first here.)"""
    from studbook.read.memo import TextMemo
    from studbook.sites import lines

    memo: TextMemo[tuple[Card, ...]] = TextMemo(lines._card_run)
    monkeypatch.setattr(lines, "CARDS", memo)
    monkeypatch.setattr(lines, "cards", memo.__getitem__)

    def read(read_by: Callable[[str], tuple[Card, ...]], text: str) -> tuple[Card, ...] | str:
        try:
            return read_by(text)
        except ValueError as error:
            return f"ValueError: {error}"

    assert read(memo.__getitem__, "") == ()
    for parts in runs:
        text = "".join(part + gap for part, gap in parts)
        for end in range(len(text) + 1):  # its heads first, then itself, each twice
            for _ in range(2):
                assert read(memo.__getitem__, text[:end]) == read(parse_cards, text[:end]), text[:end]


_GAME_NAMES = {"stud_variant", "stud_structure"}


def test_a_hands_lines_name_no_enum_member_through_its_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """The handlers name the streets and kinds they make by module names, not ``Street.THIRD``
    (issue 34: CPython 3.11 looks an enum class's attribute up through EnumType's ``__getattr__``
    hook, some 1 k instructions, on 3rd street's deal lines, completions, raises, chat): reading a
    hand looks up no member through its class from the sites' modules, save where a game's name
    is read (``stud_variant``, ``stud_structure``: once a game, remembered by PokerStars' reader)."""
    import enum
    import sys

    looked_up: list[str] = []
    plain = type.__getattribute__

    def spy(cls: type, name: str) -> object:
        value = plain(cls, name)
        code = sys._getframe(1).f_code
        caller = f"{code.co_filename}:{code.co_name}"
        if isinstance(value, enum.Enum) and f"sites{os.sep}" in caller and code.co_name not in _GAME_NAMES:
            looked_up.append(f"{cls.__name__}.{name} in {caller}")
        return value

    studbook.parse_text(SMALL, file="warm.txt")  # (the grammar made, the plan's steps filled)
    monkeypatch.setattr(enum.EnumType, "__getattribute__", spy, raising=False)
    hand = only(list(studbook.parse_text(SMALL.replace("#1001", "#1003"), file="small.txt")))
    monkeypatch.undo()
    assert len(hand.events) > 20 and not looked_up, looked_up


def test_a_memos_remember_converts_stores_and_is_its_miss() -> None:
    """``Memo.remember`` is the memo's miss, callable after a ``get`` (issue 34: a miss through
    ``memo[key]`` calls ``__missing__`` from C): it converts once, stores, clears when full, does
    not remember a conversion that raises; a value that is false (nought) reads again, the same."""
    from studbook.read.memo import Memo, TextMemo

    assert Memo.__missing__ is Memo.remember
    calls: list[str] = []

    def convert(text: str) -> int:
        calls.append(text)
        return int(text)

    memo: TextMemo[int] = TextMemo(convert, 2)
    assert memo.get("7") is None and memo.remember("7") == 7 and memo.get("7") == 7 and memo["7"] == 7
    assert (memo.get("0") or memo.remember("0")) == 0 and (memo.get("0") or memo.remember("0")) == 0
    assert calls == ["7", "0", "0"]
    assert dict(memo) == {"0": 0}  # (full at two when "0" came again: cleared, then stored)
    assert memo.remember("5") == 5 and memo.remember("6") == 6 and dict(memo) == {"6": 6}
    with pytest.raises(ValueError):
        memo.remember("x")
    assert "x" not in memo


def _read_with_memo_misses(monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[list[ParseResult], list[str]]:
    """``text`` read, each miss of a memo through ``__missing__`` noted as "<caller>: <key>"."""
    import sys

    from studbook.read.memo import Memo, TextMemo

    missed: list[str] = []
    miss = TextMemo.__missing__

    def spy(memo: Memo[str, object], key: str) -> object:
        missed.append(f"{sys._getframe(1).f_code.co_name}: {key}")
        return miss(memo, key)

    monkeypatch.setattr(TextMemo, "__missing__", spy)
    results = list(studbook.parse_text(text, file="new.txt"))
    monkeypatch.undo()
    return results, missed


def test_a_seats_stack_and_a_deals_cards_before_are_read_without_the_memos_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stack and a deal line's cards before are mostly new to the memos: PokerStars' seat and
    deal handlers look them up with ``get`` and remember them (issue 34: ``memo[text]``'s miss
    goes through ``__missing__``, called from C, some 0.5 k instructions more a miss); the hand
    reads as before."""
    from studbook.sites.lines import AMOUNTS, CARDS

    text = SMALL.replace("#1001", "#1004").replace("(1,500 in chips)", "(98,761 in chips)")
    text = text.replace("(1500 in chips)", "(98762 in chips)").replace("[Kd 9s Ah] [Jc]", "[Kd 9s Ah] [Jd]")
    list(studbook.parse_text(SMALL, file="warm.txt"))
    for stack in ("98762", "98,761"):
        AMOUNTS.pop(stack, None)
    for run in ("Kd 9s Ah", "Jd", "2c"):  # ("Jd", the new card, still a miss: the spy sees)
        CARDS.pop(run, None)
    results, missed = _read_with_memo_misses(monkeypatch, text)
    hand = only(results)
    new_texts = ("seat: 98762", "seat: 98,761", "deal: Kd 9s Ah", "deal: 2c")
    assert "deal: Jd" in missed and not [m for m in missed if m in new_texts], missed
    assert [seat.stack for seat in hand.seats[:2]] == [98761, 98762]
    assert hand.events and "98762" in AMOUNTS and "Kd 9s Ah" in CARDS


def _outcome_as_main_read_it(outcome: str) -> tuple[tuple[Card, ...], object]:
    """``summary_outcome`` as main dbfc151 wrote it: the chips won summed as ``sum(won[1:], won[0])``."""
    import re

    from studbook.sites.lines import amount

    shown = re.search(r"(?:showed|mucked) \[([^\]]*)\]", outcome) if "ed [" in outcome else None
    won = [amount(value) for value in re.findall(r"(?:won|collected) \(([^)]*)\)", outcome)] if "(" in outcome else []
    return parse_cards(shown.group(1)) if shown else (), sum(won[1:], won[0]) if won else None


_OUTCOME_PARTS = st.sampled_from([
    "showed [Ah Kd 7c 5s 2d 9h Jc]", "mucked [Qs Tc 5h]", "and won ($1.20)", "and won (1,500)", "collected (88)",
    "collected ($0.80)", "won ($0.05)", "won (7)", "won (1.5)", "with HI: a pair of Kings;", "LO: 8,6,5,3,2",
    "folded on the 3rd Street (didn't bet)", "(button)", "(bring-in)", "and lost with", "[", "(", ")", "]", " ",
])


@settings(max_examples=examples(500), deadline=None)
@given(st.lists(_OUTCOME_PARTS, max_size=7))
def test_a_summary_outcome_reads_as_mains_and_is_remembered(parts: list[str]) -> None:
    """A summary seat line's outcome (``OUTCOMES``, a memo of ``_read_outcome``: issue 34, its misses
    without an ``lru_cache``'s call from C) reads as main's ``lru_cache`` function did: the same
    cards, and the chips won summed in order, of the same kind and exponent (ints stay ints, the
    first amount itself when alone); read twice, the same."""
    from studbook.sites.lines import OUTCOMES, summary_outcome

    outcome = " ".join(parts)
    OUTCOMES.pop(outcome, None)
    expected = _outcome_as_main_read_it(outcome)
    for _ in range(2):
        shown, won = summary_outcome(outcome)
        assert shown == expected[0]
        assert won == expected[1] and type(won) is type(expected[1]) and str(won) == str(expected[1])
    assert outcome in OUTCOMES


def test_a_new_summary_outcome_is_read_without_the_memos_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A winner's outcome is mostly new: PokerStars' summary seat handler looks it up with ``get``
    and remembers it, as a stack (above); the hand reads as before."""
    from studbook.sites.lines import OUTCOMES

    list(studbook.parse_text(SMALL, file="warm.txt"))
    OUTCOMES.clear()
    results, missed = _read_with_memo_misses(monkeypatch, SMALL.replace("#1001", "#1005"))
    hand = only(results)
    assert "collected (88)" in OUTCOMES and not [m for m in missed if m.endswith(": collected (88)")], missed
    summary = [e for e in hand.events if type(e).__name__ == "SeatSummary" and e.won is not None]
    assert [(e.player, e.won) for e in summary] == [("drachensüss", 88)]


def test_an_antes_and_a_bets_amount_are_read_by_get_not_the_memos_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Antes and bets, the lines read most, read their amounts with the memo's ``get`` (a hit some 60
    instructions cheaper than the bound ``__getitem__``, issue 34) and remember a new one: no miss
    through ``__missing__``; an amount of nought (false) reads again, the same value."""
    from studbook.sites.lines import AMOUNTS

    text = SMALL.replace("#1001", "#1006").replace("posts the ante 4", "posts the ante 7")
    text = text.replace("brings in for 5", "brings in for 0")
    list(studbook.parse_text(SMALL, file="warm.txt"))
    for figure in ("7", "0"):
        AMOUNTS.pop(figure, None)
    results, missed = _read_with_memo_misses(monkeypatch, text)
    assert not [m for m in missed if m.startswith(("ante", "bet"))], missed
    assert "7" in AMOUNTS and "0" in AMOUNTS
    hand = only(results)
    assert [e.amount for e in hand.events if type(e).__name__ == "PostAnte"] == [7, 7]
    assert [e.amount for e in hand.events if type(e).__name__ == "Action"][0] == 0
