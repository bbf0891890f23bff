"""The regex internals (CPython's ``re._parser``) are read in one place,
``studbook.read.regex``; without them every caller takes its plain path and
gives the same results."""

from __future__ import annotations

import re
from typing import Iterator

import pytest

from studbook.read import grammar, regex, split

HEADER = re.compile(r"^PokerStars Hand #(\d+):", re.M)
TEXT = "x\nPokerStars Hand #1: a\nb\nPokerStars Hand #22: c\n  PokerStars Hand #3: not at a line start\n"


def test_regex_items_reads_a_pattern() -> None:
    items = regex.regex_items("ab")
    assert items == [(regex.OPS.LITERAL, ord("a")), (regex.OPS.LITERAL, ord("b"))]
    assert regex.regex_items("(") is None  # not a regex: None, never an exception


def test_the_optimisations_are_used_where_the_internals_read() -> None:
    assert split._literal_prefix(HEADER) == "PokerStars Hand #"
    assert grammar._in_line(r"[a-z]+ calls \d+\n")
    assert grammar._line_guard(r"[a-z]+ calls \d+") == "(?=[^\\n]*" + re.escape("calls ") + ")"  # (its leading space left)
    assert grammar._line_guard(r"[a-z]+: calls \d+") == "(?=[^\\n]*" + re.escape(": calls ") + ")"


# what split remembers of a header a process: read again once the internals are gone (and
# forgotten after, so no other test meets the plain paths' functions)
_SPLIT_MEMOS = (split.header_starts, split.last_header_start, split._header_items)


@pytest.fixture
def split_memos_cleared() -> Iterator[None]:
    for memo in _SPLIT_MEMOS:
        memo.cache_clear()
    yield
    for memo in _SPLIT_MEMOS:
        memo.cache_clear()


def test_without_the_internals_the_plain_paths_give_the_same_results(
        monkeypatch: pytest.MonkeyPatch, split_memos_cleared: None) -> None:
    fast = split.header_starts(HEADER)(TEXT)
    assert fast == [m.start() for m in HEADER.finditer(TEXT)]
    last = split.last_header_start(HEADER)
    fast_last = [last(TEXT, limit) for limit in range(len(TEXT) + 1)]
    monkeypatch.setattr(regex, "_parser", None)
    for module in (split, grammar):
        monkeypatch.setattr(module, "regex_items", regex.regex_items)
    for memo in _SPLIT_MEMOS:
        memo.cache_clear()
    assert regex.regex_items("ab") is None
    assert split._literal_prefix(HEADER) == ""
    assert not grammar._in_line(r"[a-z]+ calls \d+\n")
    assert grammar._line_guard(r"[a-z]+ calls \d+") == ""
    assert split.header_starts(HEADER)(TEXT) == fast
    plain_last = split.last_header_start(HEADER)
    assert plain_last is not last
    assert [plain_last(TEXT, limit) for limit in range(len(TEXT) + 1)] == fast_last
