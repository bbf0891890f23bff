"""Splitting decoded text into hands, keeping 1-based line numbers."""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, Generator, Iterator, Protocol, TypeVar, overload

from studbook.read.regex import OPS as _c
from studbook.read.regex import no_newline, regex_items
from studbook.records import maker
from studbook.sites.base import HandText, hand_lines

# A hand's text made by its positional maker (every hand is one: fewer steps than the
# frozen class's __init__, issue 34)
_hand_text: Callable[[int, str, list[str] | None], HandText] = maker(HandText)

R = TypeVar("R", covariant=True)

_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n)+")
# In a detector that reads a hand's first lines (a regex): the end of a line, then up to
# eight lines of any text before the next line it reads. Logs put lines that carry no play
# (timers, table notices, chat) anywhere, between a header's lines too: a detector looks
# past them, and the site's grammar and line policy judge them.
NEXT_LINES = r"\n(?:[^\n]*\n){0,8}?"


def split_blank_lines(text: str, first_line: int = 1) -> Iterator[HandText]:
    """Blocks of text separated by blank lines; each ends with a newline."""
    line = first_line
    pos = 0
    for gap in _BLANK_RUN.finditer(text):
        block = text[pos : gap.start() + 1]
        if block.strip():
            yield HandText(line + _leading_blank_lines(block), block.lstrip("\n"))
        line += text.count("\n", pos, gap.end())
        pos = gap.end()
    block = text[pos:]
    if block.strip():
        block = block if block.endswith("\n") else block + "\n"
        yield HandText(line + _leading_blank_lines(block), block.lstrip("\n"))


class HandReader(Protocol[R]):
    """What may read a hand where the split finds it, while ``running``."""

    running: bool  # whether it reads hands now (a run of the hands it reads): the split offers none else

    def read(self, context: Any, hand: str, line: int) -> R | None:
        """The text of a hand, starting on the split text's line ``line``, read (with
        what the split was given as ``context``), or None: the split yields it as a
        :class:`HandText`."""
        ...


class _NotReading:
    """The reader of a split given none, and of a text's first hand: it reads no hand."""

    running = False

    def read(self, context: Any, hand: str, line: int) -> None:
        return None


_NOT_READING = _NotReading()


@overload
def split_at_headers(text: str, header: re.Pattern[str]) -> Generator[HandText, None, int | None]: ...
@overload
def split_at_headers(text: str, header: re.Pattern[str], reader: HandReader[R],
                     context: Any) -> Generator[HandText | list[R], None, int | None]: ...  # fmt: skip


def split_at_headers(text: str, header: re.Pattern[str], reader: HandReader[R] | None = None,
                     context: Any = None) -> Generator[HandText | list[R], None, int | None]:  # fmt: skip
    """Hands that start with a line matching ``header`` (a ``re.M`` pattern).

    A hand runs to its first blank line; anything after that and before the
    next header is yielded as a block of its own (the site parser rejects it
    as text outside a hand). Text before the first header is dropped: callers
    can tell from the first hand's line number.

    With a ``reader``, each hand after the first that runs to its blank line
    is offered to it while it is running, and what it reads takes the hand's
    place, the hands it reads in a row yielded together, in a list (one step a
    run for the split's callers, not one a hand): a site's format reads a run
    of hands of another game on the split's way, each skipped from its first
    line, with no :class:`HandText` made and no ``parse_hand`` a hand (issue
    34: a mixed log's other games are read by the hundred). The first hand is always split out,
    so what comes before it is its caller's to judge.

    Returns (as ``yield from`` gives it) the line after ``text``'s last, 1 + its newlines,
    counted hand by hand on the way; None when no header was found (the lines not counted).
    """
    starts = header_starts(header)(text)
    if not starts:
        return None
    line = 1 + text.count("\n", 0, starts[0])
    find, count = text.find, text.count  # (bound once: a mixed log's skipped hands cost little else, issue 34)
    later: HandReader[R] = _NOT_READING if reader is None else reader
    offer: HandReader[R] = _NOT_READING  # not the first hand
    run: list[R] = []  # what the reader read, since the last hand it did not
    for start, end in zip(starts, starts[1:] + [len(text)]):
        blank = find("\n\n", start, end)
        # the usual case: one hand, then blank lines (the hand is copied out of the text once)
        if blank != -1 and text[blank:end].isspace():
            hand = text[start : blank + 1]
            if offer.running and (result := offer.read(context, hand, line)) is not None:
                run.append(result)  # (the offer is the reader already: no hand of a text's first)
                line += count("\n", start, end)
                continue
        else:
            hand = ""  # not one hand (a hand's text is never empty): below
        if run:
            yield run
            run = []
        if hand:
            # its lines cut here, once: their number is its newlines (the blank lines after it
            # counted alone), and the builder reads them (HandText.lines)
            lines = hand_lines(hand)
            yield _hand_text(line, hand, lines)
            line += len(lines) + count("\n", blank + 1, end)
        else:
            if blank == -1:
                yield _hand_text(line, text[start:end].rstrip(" \t\n") + "\n", None)
            else:
                yield from split_blank_lines(text[start:end], line)
            line += count("\n", start, end)
        offer = later
    if run:
        yield run
    return line


def _leading_blank_lines(block: str) -> int:
    return len(block) - len(block.lstrip("\n"))


def split_at_starts(text: str, header: re.Pattern[str]) -> Generator[HandText, None, int | None]:
    """Hands starting at each ``header`` match (a ``re.M`` pattern), up to the next one,
    trailing blank lines dropped; blank lines inside a hand are kept (the grammar decides).
    Text before the first header is dropped. Returns the line after ``text``'s last, as
    :func:`split_at_headers` does."""
    starts = header_starts(header)(text)
    if not starts:
        return None
    line = 1 + text.count("\n", 0, starts[0])
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        chunk = text[start:end]
        body = chunk.rstrip()
        if body:
            yield HandText(line, body + "\n")
        line += chunk.count("\n")
    return line


@functools.lru_cache(maxsize=64)
def header_starts(header: re.Pattern[str], first_only: bool = False) -> Callable[[str], list[int]]:
    """A function giving the offsets where ``header`` (a ``re.M`` pattern
    anchored with ``^``) matches, as ``finditer`` finds them; with
    ``first_only``, the first one only (what ``search`` finds).

    A regex starting with ``^`` is tried at every offset of the text; when
    the header starts with literal text, ``str.find`` jumps from one line
    that starts with it to the next, and only those are matched.
    """
    prefix = _literal_prefix(header)
    if not prefix and first_only:
        return lambda text: [m.start()] if (m := header.search(text)) else []
    if not prefix:
        return lambda text: [m.start() for m in header.finditer(text)]
    needle = "\n" + prefix
    match = header.match

    def starts(text: str) -> list[int]:
        found: list[int] = []
        add = found.append
        done = 0  # finditer resumes where the previous match ended
        find = text.find
        at = 0 if text.startswith(prefix) else find(needle) + 1 or -1
        while at >= 0:  # (a few steps a hand: a mixed log's skipped hands cost little else, issue 34)
            if at >= done and (m := match(text, at)) is not None:
                add(at)
                done = m.end()  # past ``at``: a match holds the prefix
            at = find(needle, at) + 1 or -1
        return found

    def first(text: str) -> list[int]:
        find = text.find
        at = 0 if text.startswith(prefix) else find(needle) + 1 or -1
        while at >= 0:
            if match(text, at) is not None:
                return [at]
            at = find(needle, at) + 1 or -1
        return []

    return first if first_only else starts


@functools.lru_cache(maxsize=64)
def last_header_start(header: re.Pattern[str]) -> Callable[[str, int], int]:
    """A function giving the last offset past 0 and at or before ``limit`` among those
    :func:`header_starts` gives for ``text``, or 0: where a window of a long file is cut.

    Where the header starts with literal text and no match of it holds a newline (so no
    match reaches the next line's start, and every line where it matches is a start), the
    text is searched backwards from ``limit`` for a line starting with the literal, and
    only those are matched (issue 34: finding every header of a 1 MB window to cut it at
    the last, some 490 matches, before the split finds them all again)."""
    starts = header_starts(header)
    prefix = _literal_prefix(header)
    items = _header_items(header) if prefix and not header.flags & re.S else None
    if items is None or not all(no_newline(op, arg) for op, arg in items):
        return lambda text, limit: next((at for at in reversed(starts(text)) if 0 < at <= limit), 0)
    needle = "\n" + prefix
    match = header.match

    def last(text: str, limit: int) -> int:
        if limit < 1:
            return 0
        rfind = text.rfind
        at = rfind(needle, 0, limit - 1 + len(needle))  # (a start past ``at``'s newline, at ``limit`` at most)
        while at >= 0:
            if match(text, at + 1) is not None:
                return at + 1
            at = rfind(needle, 0, at - 1 + len(needle))
        return 0

    return last


@functools.lru_cache(maxsize=64)
def _header_items(header: re.Pattern[str]) -> list[tuple[Any, Any]] | None:
    """``header``'s items (:func:`regex_items`), read once a process (a regex is read in Python:
    the split and a long file's cut each ask)."""
    return regex_items(header.pattern, header.flags)


def _literal_prefix(header: re.Pattern[str]) -> str:
    """The literal text a multi-line ``^...`` pattern starts with, or ""."""
    if not header.flags & re.M or header.flags & re.I:
        return ""
    items = _header_items(header)
    if items is None:  # then every offset is tried
        return ""
    if not items or items[0] != (_c.AT, _c.AT_BEGINNING):
        return ""
    return _literal_run(items[1:])


def _literal_run(items: list[tuple[Any, Any]]) -> str:
    """The text of the literal items ``items`` start with."""
    prefix = ""
    for op, arg in items:
        if op is not _c.LITERAL:
            break
        prefix += chr(arg)
    return prefix


def starts_every_match(header: re.Pattern[str], start: re.Pattern[str]) -> bool:
    """Whether ``start`` matches at the start of every text ``header`` matches at its
    start (``start`` literal text, which ``header``'s literal prefix starts with): then
    a hand the split found there need not be matched with ``start`` again."""
    literal = literal_text(start)
    return literal is not None and _literal_prefix(header).startswith(literal)


def literal_text(pattern: re.Pattern[str]) -> str | None:
    """The text ``pattern`` matches when it is that literal text alone, with no flag that
    changes what it matches (ignoring case); else None. A match of such a pattern at a
    text's start is ``str.startswith``'s test (issue 34: a regex match's fixed cost, some
    2.5 k instructions, where a hand's text is tested for its site's start)."""
    if pattern.flags & re.I:
        return None
    items = regex_items(pattern.pattern, pattern.flags)
    if items is None:
        return None
    literal = _literal_run(items)
    return literal if len(literal) == len(items) else None
