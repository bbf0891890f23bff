"""File names as they are stored and printed, whatever bytes they hold.

On POSIX a file name is bytes; Python reads bytes that are not UTF-8 as lone
surrogates (``b"caf\\xff"`` becomes ``"caf\\udcff"``, see ``os.fsdecode``),
which SQLite and a UTF-8 terminal refuse. :func:`printable_path` writes each
such byte as a ``\\xff`` escape, and the ``studbook.path`` codec error handler
does the same for any text printed (the command line installs it on stdout
and stderr), so a name reads the same in the store and in every message.
"""

from __future__ import annotations

import codecs
import io
import os
import re
from typing import Any, TextIO

ERRORS = "studbook.path"
"""The codec error handler that escapes surrogates as :func:`printable_path` does."""


def _escape(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chunk = error.object[error.start:error.end]
    return "".join(f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF
                   else f"\\u{ord(c):04x}" for c in chunk), error.end


codecs.register_error(ERRORS, _escape)


def printable_path(name: str | os.PathLike[str]) -> str:
    """``name`` with each byte that is not UTF-8 (a lone surrogate from
    ``os.fsdecode``) written as a ``\\xff`` escape; other names unchanged."""
    text = os.fspath(name)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", ERRORS).decode("utf-8")
    return text


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def terminal_safe(text: str) -> str:
    """``text`` with each control character a terminal would act on (ESC, BEL,
    backspace, the C1 controls, ...) written as a ``\\x1b`` escape, so a name in
    a hand history cannot drive the terminal it is printed on; newlines, tabs
    and carriage returns (a progress bar's) are kept."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text) if _CONTROL.search(text) else text


class TerminalSafe(io.TextIOBase):
    """A text stream that writes to ``stream`` through :func:`terminal_safe`
    (with ``escape``; as it is without), what the command line puts on its
    standard output and error. When the reader of a pipe goes away (``studbook
    check ... | head -1``), the rest is dropped and the command runs on, so its
    exit status is still the run's, never hidden by the broken pipe."""

    def __init__(self, stream: TextIO, escape: bool = True) -> None:
        super().__init__()
        self.stream = stream
        self.escape = escape

    def write(self, text: str) -> int:
        try:
            self.stream.write(terminal_safe(text) if self.escape else text)
        except BrokenPipeError:
            self._discard()
        return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            self._discard()

    def _discard(self) -> None:
        """Point the stream's file descriptor at /dev/null: what it still holds, and
        everything written later (at exit too), goes nowhere without an error."""
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, self.stream.fileno())
        finally:
            os.close(devnull)

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:  # encoding, buffer, errors, ...: the stream's
        return getattr(self.stream, name)


__all__ = ["ERRORS", "TerminalSafe", "printable_path", "terminal_safe"]
