"""KingsClub: street labels one street off, street-total figures, real hands field by field."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from studbook.events import (
    Action, ActionKind, Collect, Deal, Hand, PostAnte, PotSummary, SeatSummary, Street, StreetStart,
    UncalledReturned, Variant,
)
from studbook.check import check_hand
from studbook.parse import parse_text, read_file
from studbook.read import decode, read_bytes
from studbook.sites import register
from studbook.sites.kingsclub import FORMAT
from samples import CORPUS

SITE = CORPUS / "KingsClub"
STUD = "7-Stud-USD-44-88-202010.txt"
HILO = "7-StudHL-USD-44-88-202203.fixed.streets.txt"
RAZZ = "Razz-USD-40-80-202101.txt"
MULTI = "Razz-USD-500-100-202101.multi.pot.failure.txt"
D = Decimal


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register(FORMAT)


def only_hand(name: str) -> Hand:
    path = SITE / name
    if not path.exists():
        pytest.skip(f"corpus file absent: {path}")
    result = read_file(path)
    assert result.site == "kingsclub" and result.counts() == {"parsed": 1, "skipped": 0, "rejected": 0}
    return result.hands[0]


def nets(hand: Hand) -> dict[str, Decimal]:
    """Each player's result from the events; an uncalled excess the log does not
    return (KingsClub never prints it) goes back to its owner, as the rules say."""
    put: Counter[str] = Counter()
    street: dict[str, Decimal] = {}
    returned = False
    for e in hand.events:
        if isinstance(e, StreetStart):
            street = {}
        elif isinstance(e, PostAnte):
            put[e.player] += e.amount
        elif isinstance(e, Action) and e.amount is not None:
            before = street.get(e.player, D(0))
            total = e.to if e.to is not None else before + e.amount
            put[e.player] += total - before
            street[e.player] = total
        elif isinstance(e, UncalledReturned):
            put[e.player] -= e.amount
            returned = True
    if not returned:
        (top, most), (_, second) = put.most_common(2)
        put[top] -= most - second
    for e in hand.events:
        if isinstance(e, Collect):
            put[e.player] -= e.amount
    return {p: -v for p, v in put.items()}


@pytest.mark.parametrize("name", ["2-7 Razz-USD-22-44-202101.txt", "2-7 Razz-USD-500-1000-202102.multi.pot.failure.txt"])
def test_deuce_to_seven_razz_skipped(name: str) -> None:
    path = SITE / name
    if not path.exists():
        pytest.skip(f"corpus file absent: {path}")
    (skipped,) = read_file(path).skipped
    assert skipped.game == "Limit 2-7 Razz" and "2-7 razz" in skipped.reason


def test_stud_hand_street_totals_and_labels_one_off() -> None:
    hand = only_hand(STUD)
    h = hand.header
    assert (h.hand_id, h.variant, h.stakes.small_bet, h.stakes.big_bet, h.table) == (
        "37581152", Variant.STUD, D(44), D(88), "Real Deal Mix")
    assert [(s.seat, s.player, s.stack) for s in hand.seats][:2] == [(1, "Player0", D("2146.30")), (2, "Player1", D("1281.04"))]
    # no label before the first deal; "*** 3RD STREET ***" .. "*** 6TH STREET ***" are 4th .. 7th
    assert [e.street for e in hand.events if isinstance(e, StreetStart)] == list(Street)
    river = [e for e in hand.events if isinstance(e, Deal) and e.street is Street.SEVENTH]
    assert [(d.player, d.down, d.up) for d in river] == [("Player3", (), ()), ("Player4", (), ())]
    acts = [(e.player, e.kind, e.amount, e.to) for e in hand.events if isinstance(e, Action)][:9]
    assert acts == [
        ("Player0", ActionKind.BRING_IN, D("33.16"), None),
        ("Player1", ActionKind.FOLD, None, None),
        ("Player2", ActionKind.COMPLETE, D(44), D(44)),  # "bets 44" over the bring-in
        ("Player3", ActionKind.RAISE, D("33.16"), D("77.16")),  # "raises to 77.16": street total
        ("Player4", ActionKind.RAISE, D(44), D("121.16")),
        ("Hero", ActionKind.FOLD, None, None),
        ("Player0", ActionKind.FOLD, None, None),
        ("Player2", ActionKind.CALL, D("77.16"), None),  # "calls 121.16": 44 already in
        ("Player3", ActionKind.CALL, D(44), None),
    ]
    assert [(c.player, c.amount) for c in hand.events if isinstance(c, Collect)] == [("Player3", D("1294.60"))]
    (pot,) = [e for e in hand.events if isinstance(e, PotSummary)]
    assert (pot.total, pot.rake) == (D("1299.60"), D(5))


@pytest.mark.parametrize("name", [STUD, HILO, MULTI])
def test_normalised_figures_reproduce_every_summary_net(name: str) -> None:
    # The summary's "+259.64"/"-33.16" per seat is the proof of what the figures mean.
    hand = only_hand(name)
    stated = {e.player: D(e.outcome.split()[-1].replace(",", "")) for e in hand.events if isinstance(e, SeatSummary)}
    assert {p: v for p, v in nets(hand).items()} == {p: v for p, v in stated.items() if v or p in nets(hand)}


def test_fixed_streets_file_labels_correct() -> None:
    hand = only_hand(HILO)
    assert hand.variant is Variant.STUD8
    assert [e.street for e in hand.events if isinstance(e, StreetStart)] == list(Street)
    acts = [(e.player, e.kind, e.amount, e.to) for e in hand.events if isinstance(e, Action)]
    assert ("Player5", ActionKind.CALL, D("10.84"), None) in acts  # "calls 44" after bringing in 33.16
    hero = [e for e in hand.events if isinstance(e, Deal) and e.player == "Hero"]
    assert len(hero) == 5 and hero[-1].street is Street.SEVENTH and str(hero[-1].down[0]) == "9s"


# The engine's findings on these hands:
# * the KingsClub logs never print a returned uncalled bet (Razz 40/80: Hero's
#   40 on 4th street; the summary nets prove it came back): profile KINGSCLUB
#   (logs_uncalled=False: the engine returns it, tests/test_engine_profiles.py);
# * a raise by the bring-in's size over a completion on 3rd street (77.16 over
#   44 at 44/88: bet.size; 625 after an all-in 225 at 500/1000, where the
#   completion is to 500: bringin.complete): the site broke the rules.
EXPECTED = {
    STUD: {("bet.size", 25)},
    HILO: set(),
    RAZZ: set(),
    MULTI: {("bringin.complete", 31)},
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_check_results(name: str) -> None:
    check = pytest.importorskip("studbook.check")
    found = {(v.rule, v.line) for v in check.check_hand(only_hand(name)).violations}
    assert found == EXPECTED[name]


def test_detects_a_hand_header_only_at_a_line_start() -> None:
    header = "#37581152: Limit Seven Card Stud - 44/88\n2020-10-26 19:00:47\nTable 'Real Deal Mix'\n"
    assert FORMAT.detect(header) and FORMAT.detect("text before\n" + header)
    assert not FORMAT.detect("x" + header)


# ---------------------------------------------------------------------------
# "Dealt to X: [known] [new]": the cards already known, then the street's new ones
# (as FPDB's KingsClubToFpdb.py reads its dealt lines)

_DEALT = re.compile(r"^Dealt to (.+?): \[([^\]]+)\]$")


def _with_known_cards(text: str, hidden: str) -> str:
    """Every deal after a player's first written as "[known so far] [new]" ("X" for a hidden card
    when ``hidden`` is "X"; the hidden cards left out when it is "")."""
    known: dict[str, list[str]] = {}
    out = []
    for line in text.split("\n"):
        found = _DEALT.match(line)
        if found is None:
            out.append(line)
            continue
        player, new = found.group(1), found.group(2).split()
        so_far = [c for c in known.get(player, []) if c != "X" or hidden]
        out.append(f"Dealt to {player}: [{' '.join(so_far)}] [{' '.join(new)}]" if so_far else line)
        known.setdefault(player, []).extend(new)
    return "\n".join(out)


@pytest.mark.parametrize("name", [STUD, HILO, RAZZ, MULTI])
@pytest.mark.parametrize("hidden", ["X", ""])
def test_dealt_lines_with_the_known_cards_first_read_as_the_new_card(name: str, hidden: str) -> None:
    path = SITE / name
    if not path.exists():
        pytest.skip(f"corpus file absent: {path}")
    text = decode(read_bytes(path)).text
    edited = _with_known_cards(text, hidden)
    assert edited.count("] [") >= 2
    [before], [after] = list(parse_text(text, file="k.txt")), list(parse_text(edited, file="k.txt"))
    assert isinstance(before, Hand) and isinstance(after, Hand)
    # the same deals, each later one with the cards known before it (its `before`)
    assert [dataclasses.replace(e, before=()) if isinstance(e, Deal) else e for e in after.events] == list(before.events)
    later = [e for e in after.events if isinstance(e, Deal) and e.street is not Street.THIRD]
    assert later and all(e.before for e in later)
    checked, again = check_hand(before), check_hand(after)
    assert (again.status, again.violations) == (checked.status, checked.violations)


def test_known_cards_that_disagree_with_the_deal_are_flagged() -> None:
    path = SITE / STUD
    if not path.exists():
        pytest.skip(f"corpus file absent: {path}")
    edited = _with_known_cards(decode(read_bytes(path)).text, "X")
    twice = next(line for line in edited.split("\n") if line.startswith("Dealt to ") and "] [" in line)
    known = next(c for c in twice.split("[")[1].rstrip("] ").split() if c != "X")
    wrong = next(c for c in ("2c", "2d", "2h", "5c") if c not in edited)
    [after] = list(parse_text(edited.replace(twice, twice.replace(known, wrong, 1)), file="k.txt"))
    assert isinstance(after, Hand)
    assert "cards.consistent" in {v.rule for v in check_hand(after).violations}
