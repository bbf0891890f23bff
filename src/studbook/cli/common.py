"""Helpers shared by the subcommands."""

from __future__ import annotations

import errno
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from studbook.parse import not_a_hand_history  # noqa: F401 - the subcommands take it from here
from studbook.printable import printable_path
from studbook.read import files_in


class UsageError(Exception):
    """A usage problem: reported as one line on stderr, exit status 2."""


@dataclass(frozen=True, slots=True)
class InputFile:
    """A file to read, and whether the user named it (else it was found in a directory)."""

    path: Path
    explicit: bool


def expand_inputs(paths: Iterable[str]) -> list[InputFile]:
    """Files named, and every regular file below directories named (sorted), each
    marked as named explicitly or found by walking.

    Raises UsageError for a path that does not exist or cannot be read, and
    for a directory holding no files at all.
    """
    found: list[InputFile] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files = []
            for p in sorted(files_in(path)):
                if p.is_file():
                    files.append(p)
                else:  # a FIFO, a socket, a link to nothing or to itself: listed, never read
                    stderr(f"ignored: {printable_path(p)} ({not_regular(p)})")
            if not files:
                raise UsageError(f"{name}: directory holds no hand-history files")
            found.extend(InputFile(p, False) for p in files)
        elif path.is_file():
            if not os.access(path, os.R_OK):
                raise UsageError(f"{name}: permission denied")
            found.append(InputFile(path, True))
        else:
            raise UsageError(f"{name}: {not_regular(path)}")
    return found


def not_regular(path: Path) -> str:
    """Why ``path`` (not a regular file nor a directory) is not read."""
    try:
        mode = path.stat().st_mode
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "a symbolic link loop"
        if path.is_symlink():
            return "a symbolic link to nothing"
        return "no such file or directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe), not a regular file"
    return "not a regular file or directory"


def expand_paths(paths: Iterable[str]) -> list[Path]:
    """The files of :func:`expand_inputs`, without the explicit marks."""
    return [f.path for f in expand_inputs(paths)]


def ignored_line(path: str, reason: str) -> str:
    """The one line listing a file found by walking that is not a hand history."""
    return f"not a hand history: {path} ({reason})"


def stderr(message: str) -> None:
    print(message, file=sys.stderr)
