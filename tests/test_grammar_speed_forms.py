"""The grammar pieces written for the regex engine's speed (an optional part as
an alternation with an empty branch, a greedy rest up to the last non-blank, one
alternative for marks that share a start) match exactly what the plain forms
they replace matched: the same match, the same groups, on any text."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from studbook.read.grammar import grammar_dir

# the plain forms, as the grammars wrote them before (the reference)
PLAIN_AMOUNT = r"(?:(?:USD|EUR|GBP|CAD) )??[$€£]?[0-9][0-9,]*(?:\.[0-9]+)?(?: ?€| (?:USD|EUR|GBP|CAD))??"
PLAIN_ALL_IN = r"((?i:,? and is all[- ]in|,? and has gone all[- ]in|,? all[- ]in| \(all[- ]in\)| - all[- ]in))?"
PLAIN_OUTCOME_REST = r"[^\n]*?"
EOL = r"[ \t]*\n"

# what follows the pieces in the grammars: the line's end, a stakes' code, more text
AFTERS = (EOL, " (USD|EUR)" + EOL, "/", r"\) ", r" to ", r"\.")
WORDS = ["USD", "EUR", " ", "$", "€", "1", "0", ",", ".", "5", " and is ", " and has gone ", "all-in", "All In",
         "all in", " (", ")", " - ", ", ", "\t", "\n", "x", "/", " to ", "folded", "showed", "(bring-in) "]
texts = st.lists(st.sampled_from(WORDS), max_size=12).map("".join)


def _piece(file: str, name: str) -> str:
    match = re.search(rf"^{name}(?:\.\d+)?: (.*)$", (grammar_dir() / file).read_text(encoding="utf-8"), re.M)
    assert match is not None, f"{name} not in {file}"
    return match.group(1)


def _regex(piece: str) -> str:
    """A one-regex terminal as the .lark file writes it: /.../ -> its regex."""
    assert piece.startswith("/") and piece.endswith("/")
    return piece[1:-1]


AMOUNT = _regex(_piece("common.lark", "AMOUNT_WRITTEN"))
ALL_IN = _regex(_piece("common.lark", "ALL_IN_MARK"))
SUMMARY_OUTCOME = re.search(r'" " /(.*)/ EOL$', _piece("pokerstars.lark", "SEAT_SUMMARY"))


def _same(fast: str, plain: str, text: str) -> None:
    a, b = re.match(fast, text), re.match(plain, text)
    assert (a and (a.end(), a.groups())) == (b and (b.end(), b.groups())), (fast, plain, text)


def test_the_pieces_are_the_fast_forms() -> None:
    assert "??" not in AMOUNT and "(?:|" in AMOUNT  # else this test compares nothing new
    assert ALL_IN != PLAIN_ALL_IN and SUMMARY_OUTCOME is not None and "*?" not in SUMMARY_OUTCOME.group(1)


@settings(max_examples=400, deadline=None)
@given(texts, st.sampled_from(AFTERS))
def test_amount_matches_as_the_lazy_form(text: str, after: str) -> None:
    _same(f"({AMOUNT}){after}", f"({PLAIN_AMOUNT}){after}", text)
    _same(f"({AMOUNT})/({AMOUNT})(?: (USD|EUR))?{EOL}", f"({PLAIN_AMOUNT})/({PLAIN_AMOUNT})(?: (USD|EUR))?{EOL}",
          text)  # the stakes: a code after the big bet stays the stakes' code


@settings(max_examples=400, deadline=None)
@given(texts)
def test_all_in_mark_matches_as_the_five_alternatives(text: str) -> None:
    _same(f"x?{ALL_IN}{EOL}", f"x?{PLAIN_ALL_IN}{EOL}", text)
    _same(f"([0-9]+){ALL_IN}", f"([0-9]+){PLAIN_ALL_IN}", text)


@settings(max_examples=400, deadline=None)
@given(texts)
def test_seat_summary_outcome_matches_as_the_lazy_rest(text: str) -> None:
    assert SUMMARY_OUTCOME is not None
    fast = SUMMARY_OUTCOME.group(1)
    plain = fast.replace(r"(?:[^\n]*[^ \t\n])?", PLAIN_OUTCOME_REST)  # the rest after the outcome word
    assert plain != fast
    _same(f"Seat 1: ([^\\n]+?) {fast}{EOL}", f"Seat 1: ([^\\n]+?) {plain}{EOL}", "Seat 1: Bob " + text + "\n")
    _same(f"{fast}{EOL}", f"{plain}{EOL}", text)
