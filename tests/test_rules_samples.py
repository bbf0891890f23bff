"""Every rule a log can show, flagged on a sample hand with one change: runs on every clone.

tests/test_rules.py changes one line of a real corpus hand per rule (and skips
without the corpus). This file does the same on the project's own sample
histories (``histories/``, simulated PokerStars logs that check clean), so a
fresh clone tests each rule too: for each rule, the first sample hand the
change applies to must be clean as it is and, changed, have as its first
violation that rule at the changed line. The twelve changes that
``scripts/make_histories.py`` plants (``PLANTS``) are reused; the others are
written here. Rules a sample cannot carry (the bring-in player all-in from the
ante) are tested on built hands in tests/test_rules.py, which needs no corpus.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest

from studbook.check import check_hand
from studbook.events import Hand
from studbook.money import format_amount, parse_amount
from studbook.parse import parse_text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from make_histories import PLANTS  # noqa: E402 - the planting changes live with the script that plants them

from test_rules import MUTATIONS  # noqa: E402

Change = Callable[[list[str]], "tuple[list[str], int] | None"]
"""A hand's lines -> (the changed lines, the 0-based line the violation is on), or None where it does not apply."""

ACTION = re.compile(r"^(?P<player>.+?): (?P<verb>brings in for|bets|calls|raises|checks|folds|completes it to)"
                    r"(?P<rest>.*)$")
SHOWS = re.compile(r"^(?P<player>.+?): shows \[(?P<cards>[^\]]+)\]")
DECK = [f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "cdhs"]


@cache
def sample_hands() -> tuple[tuple[str, ...], ...]:
    """The session files' hands (not the planted ones) as lines, in file order."""
    hands = []
    for path in sorted((ROOT / "histories").glob("HH*.txt")):
        for text in path.read_text(encoding="utf-8").split("\n\n\n"):
            if text.strip():
                hands.append(tuple(text.strip("\n").split("\n")))
    return tuple(hands)


def _parsed(lines: list[str]) -> Hand:
    results = list(parse_text("\n".join(lines) + "\n", file="sample.txt"))
    assert len(results) == 1 and isinstance(results[0], Hand), results
    return results[0]


def _unused_card(lines: list[str]) -> str:
    text = " ".join(lines)
    return next(card for card in DECK if not re.search(rf"(?<![\w]){card}(?![\w])", text))


def _street(lines: list[str], index: int) -> str:
    return next((line for line in reversed(lines[:index]) if line.startswith("*** ")), "")


def _planted(plant: Callable[[list[str]], "tuple[int, str, str] | None"]) -> Change:
    def change(lines: list[str]) -> tuple[list[str], int] | None:
        found = plant(lines)
        if found is None:
            return None
        index, new_line, _ = found
        return [*lines[:index], new_line, *lines[index + 1:]], index
    return change


def swapped(lines: list[str], i: int) -> list[str]:
    return [*lines[:i], lines[i + 1], lines[i], *lines[i + 2:]]


def extra_up_card(lines: list[str]) -> tuple[list[str], int] | None:
    """deal.pattern: two new up cards on 4th street for an opponent."""
    for i, line in enumerate(lines):
        m = re.match(r"^Dealt to (.+?) \[(\S\S)\] \[(\S\S)\]$", line)
        if m and "4th" in _street(lines, i):
            return [*lines[:i], f"{line[:-1]} {_unused_card(lines)}]", *lines[i + 1:]], i
    return None


def deal_out_of_order(lines: list[str]) -> tuple[list[str], int] | None:
    """deal.order: two opponents' 4th-street deal lines swapped."""
    for i in range(len(lines) - 2):
        if ("4th" in _street(lines, i) and all(re.match(r"^Dealt to .+ \[\S\S\] \[\S\S\]$", lines[j]) for j in (i, i + 1))):
            return swapped(lines, i), i + 1
    return None


def shown_card_changed(lines: list[str]) -> tuple[list[str], int] | None:
    """cards.consistent: a shown hand whose door card is not the one dealt."""
    for i, line in enumerate(lines):
        m = SHOWS.match(line)
        if m and len(m.group("cards").split()) == 7:
            cards = m.group("cards").split()
            cards[2] = _unused_card(lines)
            return [*lines[:i], line.replace(m.group("cards"), " ".join(cards), 1), *lines[i + 1:]], i
    return None


def eighth_card_shown(lines: list[str]) -> tuple[list[str], int] | None:
    """cards.count: a hand shown with eight cards."""
    for i, line in enumerate(lines):
        m = SHOWS.match(line)
        if m and len(m.group("cards").split()) == 7:
            return [*lines[:i], line.replace(m.group("cards"), f"{m.group('cards')} {_unused_card(lines)}", 1),
                    *lines[i + 1:]], i
    return None


def _first_action_after(lines: list[str], marker: str) -> int | None:
    start = next((i for i, line in enumerate(lines) if line.startswith(marker)), None)
    if start is None:
        return None
    return next((i for i in range(start, len(lines)) if ACTION.match(lines[i])), None)


def third_street_swap(lines: list[str]) -> tuple[list[str], int] | None:
    """order.third: the two players after the bring-in act the other way round."""
    i = _first_action_after(lines, "*** 3rd STREET ***")
    if i is None or "brings in" not in lines[i]:
        return None
    a, b = ACTION.match(lines[i + 1]), ACTION.match(lines[i + 2])
    if a and b and a.group("verb") == b.group("verb") == "folds":
        return swapped(lines, i + 1), i + 1
    return None


def fourth_street_swap(lines: list[str]) -> tuple[list[str], int] | None:
    """order.first: on 4th street the second player acts before the best board."""
    i = _first_action_after(lines, "*** 4th STREET ***")
    if i is None:
        return None
    a, b = ACTION.match(lines[i]), ACTION.match(lines[i + 1])
    if a and b and a.group("verb") == b.group("verb") == "checks":
        return swapped(lines, i), i
    return None


def round_left_unfinished(lines: list[str]) -> tuple[list[str], int] | None:
    """order.streets: the last call of 3rd street left out, so 4th street comes too soon."""
    for i, line in enumerate(lines):
        if line == "*** 4th STREET ***" and ACTION.match(lines[i - 1]) and " calls " in lines[i - 1] \
                and "all-in" not in lines[i - 1]:
            return [*lines[:i - 1], *lines[i:]], i - 1
    return None


def bring_in_of_a_small_bet(lines: list[str]) -> tuple[list[str], int] | None:
    """bringin.amount: a bring-in of the whole small bet (the choice is bring in, or complete)."""
    stakes = re.search(r"\((\S+)/(\S+) ", lines[0])
    i = _first_action_after(lines, "*** 3rd STREET ***")
    if stakes is None or i is None or "brings in for" not in lines[i] or "all-in" in lines[i]:
        return None
    player = ACTION.match(lines[i]).group("player")  # type: ignore[union-attr]
    return [*lines[:i], f"{player}: brings in for {stakes.group(1)}", *lines[i + 1:]], i


def short_call_not_all_in(lines: list[str]) -> tuple[list[str], int] | None:
    """bet.allin: an all-in call for less, written as a plain call one unit shorter."""
    for i, line in enumerate(lines):
        m = re.match(r"^(.+?): calls (\S+) and is all-in$", line)
        if m:
            less = parse_amount(m.group(2)) - parse_amount("0.01")
            if less > 0:
                return [*lines[:i], f"{m.group(1)}: calls {format_amount(less, '$')}", *lines[i + 1:]], i
    return None


def stack_too_small(lines: list[str]) -> tuple[list[str], int] | None:
    """chips.stack: a player all-in for a cent more than their seat line gives them."""
    for i, line in enumerate(lines):
        m = re.match(r"^(.+?): (?:bets|calls|raises) .* and is all-in$", line)
        if not m:
            continue
        for j, seat in enumerate(lines[:i]):
            s = re.match(rf"^Seat (\d+): {re.escape(m.group(1))} \((\S+) in chips\)$", seat)
            if s:
                less = format_amount(parse_amount(s.group(2)) - parse_amount("0.01"), "$")
                return [*lines[:j], f"Seat {s.group(1)}: {m.group(1)} ({less} in chips)", *lines[j + 1:]], i
    return None


def side_pot_shifted(lines: list[str]) -> tuple[list[str], int] | None:
    """pot.side: ten cents of the side pot stated as the main pot's (the total unchanged).

    The collection from the side pot now takes more than the stated side pot holds: the
    engine reports the fault there, at the collection that takes too much (one fault, one
    violation, at the line that is wrong once the stated pots are taken as they are)."""
    for i, line in enumerate(lines):
        m = re.match(r"^Total pot (\S+) Main pot (\S+)\. Side pot (\S+)\. \| Rake (\S+)$", line)
        taker = next((j for j, seen in enumerate(lines[:i]) if seen.endswith(" from side pot")), None)
        if m and taker is not None:
            ten = parse_amount("0.10")
            main = format_amount(parse_amount(m.group(2)) + ten, "$")
            side = format_amount(parse_amount(m.group(3)) - ten, "$")
            return [*lines[:i], f"Total pot {m.group(1)} Main pot {main}. Side pot {side}. | Rake {m.group(4)}",
                    *lines[i + 1:]], taker
    return None


def shows_swapped(lines: list[str]) -> tuple[list[str], int] | None:
    """showdown.order: after a river bet, the caller shows before the bettor."""
    if "*** SHOW DOWN ***" not in lines:
        return None
    start = lines.index("*** SHOW DOWN ***")
    river = [ACTION.match(line) for line in lines[lines.index("*** RIVER ***"):start]] if "*** RIVER ***" in lines else []
    if not any(m and m.group("verb") in ("bets", "raises") for m in river):
        return None
    if SHOWS.match(lines[start + 1]) and SHOWS.match(lines[start + 2]):
        return swapped(lines, start + 1), start + 1
    return None


CHANGES: dict[str, Change] = {
    **{rule: _planted(plant) for rule, plant in PLANTS},
    "deal.pattern": extra_up_card,
    "deal.order": deal_out_of_order,
    "cards.consistent": shown_card_changed,
    "cards.count": eighth_card_shown,
    "order.third": third_street_swap,
    "order.first": fourth_street_swap,
    "order.streets": round_left_unfinished,
    "bringin.amount": bring_in_of_a_small_bet,
    "bet.allin": short_call_not_all_in,
    "chips.stack": stack_too_small,
    "pot.side": side_pot_shifted,
    "showdown.order": shows_swapped,
}
BUILT_ONLY = {"bringin.allin"}
"""Rules of the corpus changes that no sample hand can carry: tested on built hands."""


def first_change(rule: str) -> Iterator[tuple[list[str], list[str], int]]:
    for hand in sample_hands():
        changed = CHANGES[rule](list(hand))
        if changed is not None:
            yield list(hand), *changed
            return


def test_every_rule_of_the_corpus_changes_has_a_sample_change() -> None:
    assert {m.rule for m in MUTATIONS} - BUILT_ONLY == set(CHANGES)


@pytest.mark.parametrize("rule", sorted(CHANGES))
def test_one_changed_line_of_a_sample_hand_is_flagged(rule: str) -> None:
    found = list(first_change(rule))
    assert found, f"no sample hand takes the {rule} change"
    original, lines, index = found[0]
    assert check_hand(_parsed(original)).violations == (), "the sample hand (legal twin) must pass"
    check = check_hand(_parsed(lines))
    assert check.violations, f"{rule}: the changed hand passed:\n" + "\n".join(lines)
    assert (check.violations[0].rule, check.violations[0].line) == (rule, index + 1), (
        check.violations, lines[index])


def test_the_unused_card_is_unused() -> None:
    lines = ["Dealt to A [2c 2d 2h]", "Dealt to B [2s]"]
    assert _unused_card(lines) == "3c"
