"""One fault, one violation, at the line that is wrong (issue 13, point 4).

Each test changes one line of a real hand that checks clean (its legal twin: of
every site and variant of the corpus, or a shipped history) and asserts the exact
violations of the changed hand.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from studbook.check import check_hand
from studbook.events import Collect, Hand, PotSummary, Variant
from studbook.money import exponent, format_amount
from studbook.parse import parse_text
from studbook.read import decode, files_in, normalise_newlines, read_bytes

from test_rules import hands_of, line_of

XML_SITES = ("ipoker", "merge")


def _text(path: Path) -> str:
    return normalise_newlines(decode(read_bytes(path)).text)


def _clean_hands_with_a_total(corpus: Path) -> dict[tuple[str, Variant], tuple[Path, Hand]]:
    """The first clean hand with a stated total pot, per text site and variant."""
    found: dict[tuple[str, Variant], tuple[Path, Hand]] = {}
    for path in files_in(corpus):
        text = _text(path)
        lines = text.split("\n")
        for hand in parse_text(text, file=str(path)):
            if not isinstance(hand, Hand) or hand.site in XML_SITES:
                continue
            key = (hand.site, hand.header.variant)
            summary = next((e for e in hand.events if isinstance(e, PotSummary)), None)
            if key in found or summary is None or format_amount(summary.total) not in lines[summary.line - 1]:
                continue  # (a site that writes the total and the rake on two lines has it elsewhere)
            if check_hand(hand).violations == ():
                found[key] = (path, hand)
    return found


def _changed_total(path: Path, hand: Hand) -> tuple[Hand, int]:
    """``hand`` read again with its stated total pot one unit more, and that line."""
    summary = next(e for e in hand.events if isinstance(e, PotSummary))
    lines = _text(path).split("\n")
    old = format_amount(summary.total)
    unit = Decimal(1).scaleb(exponent(summary.total))  # (chips: an int, exponent 0)
    text = lines[summary.line - 1]
    assert old in text, text
    lines[summary.line - 1] = text.replace(old, format_amount(summary.total + unit), 1)
    again = {r.hand_id: r for r in parse_text("\n".join(lines), file=str(path)) if isinstance(r, Hand)}
    return again[hand.hand_id], summary.line


def test_a_changed_total_pot_is_one_violation_at_the_total_pot_line(corpus: Path) -> None:
    found = _clean_hands_with_a_total(corpus)
    variants = {variant for _site, variant in found}
    assert variants == set(Variant) and len({site for site, _ in found}) >= 5, sorted(found)
    for (site, variant), (path, hand) in sorted(found.items()):
        changed, line = _changed_total(path, hand)
        got = [(v.rule, v.line) for v in check_hand(changed).violations]
        assert got == [("pot.total", line)], (site, variant, path.name, check_hand(changed).violations)


# A shipped stud8 hand (lines 76-161 of its log) whose pot is split in two halves of $4.30
SPLIT_LOG = Path(__file__).resolve().parents[1] / "histories" / "HH20240312 Eunike V - $0.50-$1 Ante $0.10 - USD Limit Stud Hi-Lo.txt"
SPLIT = SPLIT_LOG.name


def _split_pot() -> tuple[str, Hand]:
    text = "\n".join(_text(SPLIT_LOG).split("\n")[75:161]) + "\n"
    (hand,) = hands_of(text, SPLIT).values()
    assert hand.hand_id == "253396132322" and hand.variant is Variant.STUD8
    assert check_hand(hand).violations == ()  # the legal twin
    collects = [e for e in hand.events if isinstance(e, Collect)]
    assert [c.player for c in collects] == ["Mañana", "Hero"]
    return text, hand


@pytest.mark.parametrize("old, new", [
    ("Hero collected $4.30 from pot", "Hero collected $4.31 from pot"),
    ("Mañana collected $4.30 from pot", "Mañana collected $4.31 from pot"),
])
def test_a_changed_half_of_a_split_pot_is_blamed_on_its_own_line(old: str, new: str) -> None:
    text, _legal = _split_pot()
    changed = text.replace(old, new)
    (hand,) = hands_of(changed, SPLIT).values()
    got = [(v.rule, v.line) for v in check_hand(hand).violations]
    assert got == [("pot.total", line_of(changed, new))]


@pytest.mark.parametrize("new", [
    "Mañana collected $4.30 from pot\nMañana collected $4.30 from pot",
    "Hero collected $4.30 from pot\nHero collected $4.30 from pot",
])
def test_a_misawarded_half_is_blamed_on_the_line_that_takes_too_much(new: str) -> None:
    text, _legal = _split_pot()
    changed = text.replace("Mañana collected $4.30 from pot\nHero collected $4.30 from pot", new)
    (hand,) = hands_of(changed, SPLIT).values()
    got = [(v.rule, v.line) for v in check_hand(hand).violations]
    assert got == [("showdown.award", line_of(changed, new) + 1)]


def test_an_extra_collection_is_blamed_on_its_own_line() -> None:
    text, _legal = _split_pot()
    changed = text.replace("Hero collected $4.30 from pot", "Hero collected $4.20 from pot")
    changed = changed.replace("Mañana collected $4.30 from pot", "Mañana collected $4.30 from pot\n"
                              "Mañana collected $0.10 from pot")
    (hand,) = hands_of(changed, SPLIT).values()
    got = [(v.rule, v.line) for v in check_hand(hand).violations]
    assert got == [("showdown.award", line_of(changed, "Mañana collected $0.10 from pot"))]
