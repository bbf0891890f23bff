"""Reading hand-history files: decoding, site detection, splitting.

Stage helpers shared by every site format; the site modules in
:mod:`studbook.sites` use them and :mod:`studbook.parse` glues them together.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable, Iterator, Protocol, TypeVar

from studbook.read.decode import Decoded, decode, normalise_newlines
from studbook.read.split import split_at_headers, split_at_starts, split_blank_lines

HEAD_CHARS = 8192
_BLANK_RUN = re.compile(r"\n[ \t\r\n]*\n|[ \t]{64,}")  # blank lines, or a long run of blanks in a line
# _BLANK_RUN's two kinds, collapsed one after the other (see collapse_blank_runs)
_BLANK_LINES = re.compile(r"\n[ \t\r\n]*\n")
_LONG_BLANKS = re.compile(r"[ \t]{64,}")
_LONG_SPACES = " " * 64


_NOT_BLANK = re.compile(r"[^ \t\r\n]")  # a character no run of _BLANK_RUN holds
_FIRST_TRY = HEAD_CHARS + 1024  # the text read first for a head: most files' blank runs are short


def collapse_blank_runs(text: str) -> str:
    """``text`` with each blank run of :data:`_BLANK_RUN` made one gap, as
    ``_BLANK_RUN.sub(lambda run: "\\n\\n" if "\\n" in run.group() else " ", text)``.

    Why two passes: the one regex tries its second branch at every blank of the
    text, some 2.4 M instructions for the head of every file read (issue 34). Its
    blank lines start at a newline and its long runs hold none, so neither kind
    cuts into the other: the blank lines first, by a regex that only starts at a
    newline, then the long runs, where a C-level search finds one."""
    text = _BLANK_LINES.sub("\n\n", text)
    spaced = text.replace("\t", " ") if "\t" in text else text
    return _LONG_BLANKS.sub(" ", text) if _LONG_SPACES in spaced else text


def blank_collapsed_head(text: str) -> str:
    """The first :data:`HEAD_CHARS` characters of ``text`` with each blank run (see
    :data:`_BLANK_RUN`) made one gap: ``collapse_blank_runs(text)[:HEAD_CHARS]``, read
    from as short a start of ``text`` as gives them. No blank run holds a character that
    is not blank, so the runs of a start cut before one are the whole text's, the start's
    result the start of the whole's: a file of a megabyte costs what its head does, where
    collapsing all of it cost more than reading its hands (issue 34)."""
    size = _FIRST_TRY
    while size < len(text):
        cut = _NOT_BLANK.search(text, size)
        if cut is None:
            break
        head = collapse_blank_runs(text[: cut.start()])
        if len(head) >= HEAD_CHARS:
            return head[:HEAD_CHARS]
        size *= 4  # blank runs took the first try's text: read more
    return collapse_blank_runs(text)[:HEAD_CHARS]

class Detects(Protocol):
    """What :func:`detect_format` needs of a format: whether a file's head is its."""

    def detect(self, head: str) -> bool: ...


F = TypeVar("F", bound=Detects)


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The raw bytes of a file (OSError propagates)."""
    return Path(path).read_bytes()


def files_in(path: str | os.PathLike[str]) -> Iterator[Path]:
    """``path`` itself when it is not a directory, else every file below it
    in walk order (each folder's files by name, then its sub-folders by
    name), names starting with a dot skipped."""
    target = Path(path)
    if not target.is_dir():
        yield target
        return
    for root, dirs, files in os.walk(target):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        yield from (Path(root) / name for name in sorted(files) if not name.startswith("."))


def detect_format(text: str, formats: Iterable[F]) -> F | None:
    """The first format whose ``detect`` accepts the head of ``text``, blank space
    passed over: a file may start with any amount of it, and a run of blank lines
    (after a line of junk, say) counts as one, so it cannot push the first hand
    out of the head."""
    head = blank_collapsed_head(text.lstrip()[: HEAD_CHARS * 64])
    for fmt in formats:
        if fmt.detect(head):
            return fmt
    return None


__all__ = [
    "Decoded", "Detects", "HEAD_CHARS", "decode", "detect_format", "files_in", "normalise_newlines", "read_bytes",
    "split_at_headers", "split_at_starts", "split_blank_lines",
]
