"""Each hand's original text: what the site wrote, as the reader saw it.

A hand's original text is the chunk its site's ``split`` gave the parser: for
a text site the hand's lines exactly as decoded (newlines normalised to LF),
for an XML site the hand's element (``<game ...>...</game>``). The store
keeps it (compressed) so ``studbook export --format original`` can give the
hands back after their files are gone.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from studbook.events import ParseResult
from studbook.read import decode, detect_format, read_bytes
from studbook.sites import HandText, get_site, sites_in_order

OriginalKey = tuple[str, int]  # (file as the parser named it, first line of the hand)


@dataclass(frozen=True, slots=True)
class HandSource:
    """A hand's original text, and for an XML site the file's head before its first
    hand (the session header its reader needs to read the hand again), else None."""

    text: str
    context: str | None = None


class Sources:
    """Each hand's :class:`HandSource` as one file's text is split: the chunk
    itself, and for an XML element the file's head before the first hand
    (found once per file)."""

    __slots__ = ("_context",)

    def __init__(self) -> None:
        self._context: str | None = None

    def of(self, chunk: str, text: str) -> HandSource:
        """The source of ``chunk``, split from ``text`` (the file's text, or for
        a text site the window of it the chunk came from)."""
        if not _is_xml(chunk):
            return HandSource(chunk)
        if self._context is None:
            at = text.find(chunk)
            self._context = text[:at] if at >= 0 else ""
        return HandSource(chunk, self._context)


def hand_texts(path: str | os.PathLike[str], site: str | None = None) -> dict[OriginalKey, HandSource]:
    """Every hand's original text in the file at ``path``, keyed by (file, first line)
    as :func:`studbook.parse.read_file` names its hands; empty when the file is not
    a hand history. OSError propagates. (``studbook import`` takes the texts in its
    parse's own pass instead: :func:`studbook.parse.stream_sourced`.)"""
    text = decode(read_bytes(path)).text
    fmt = get_site(site) if site else detect_format(text, sites_in_order())
    if fmt is None:
        return {}
    file = str(path)
    sources = Sources()
    return {(file, chunk.first_line): sources.of(chunk.text, text) for chunk in fmt.split(text)}


def read_again(site: str, source: HandSource, file: str, line: int) -> ParseResult:
    """Parse a kept hand again: alone, or for an XML site behind its file's head
    (the hand keeps its line numbers)."""
    fmt = get_site(site)
    if not source.context:
        return fmt.parse_hand(HandText(line, source.text), file)
    gap = max(0, line - 1 - source.context.count("\n"))
    chunks = list(fmt.split(source.context + "\n" * gap + source.text))
    chunk = next((c for c in chunks if c.first_line == line), chunks[-1] if chunks else HandText(line, source.text))
    return fmt.parse_hand(chunk, file)


def _is_xml(text: str) -> bool:
    return text.lstrip().startswith("<")


def suffix_of(text: str) -> str:
    """The file suffix for a hand's original text: ``.xml`` for an XML element, else ``.txt``."""
    return ".xml" if _is_xml(text) else ".txt"


__all__ = ["HandSource", "OriginalKey", "Sources", "hand_texts", "read_again", "suffix_of"]
