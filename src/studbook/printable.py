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
import os

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


__all__ = ["ERRORS", "printable_path"]
