"""Splitting decoded text into hands, keeping 1-based line numbers."""

from __future__ import annotations

import re
from typing import Iterator

from studbook.sites.base import HandText

_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n)+")


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


def split_at_headers(text: str, header: re.Pattern[str]) -> Iterator[HandText]:
    """Hands that start with a line matching ``header`` (a ``re.M`` pattern).

    A hand runs to its first blank line; anything after that and before the
    next header is yielded as a block of its own (the site parser rejects it
    as text outside a hand). Text before the first header is dropped: callers
    can tell from the first hand's line number.
    """
    starts = [m.start() for m in header.finditer(text)]
    line = 1 + text.count("\n", 0, starts[0]) if starts else 1
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        chunk = text[start:end]
        blank = chunk.find("\n\n")
        if blank == -1 or not chunk[blank:].strip():  # the usual case: one hand
            hand = chunk[: blank + 1] if blank != -1 else chunk.rstrip(" \t\n") + "\n"
            yield HandText(line, hand)
        else:
            yield from split_blank_lines(chunk, line)
        line += chunk.count("\n")


def _leading_blank_lines(block: str) -> int:
    return len(block) - len(block.lstrip("\n"))
