"""Helpers shared by the subcommands."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterable, Iterator


class UsageError(Exception):
    """A usage problem: reported as one line on stderr, exit status 2."""


def expand_paths(paths: Iterable[str]) -> list[Path]:
    """Files named, and every regular file below directories named, sorted.

    Raises UsageError for a path that does not exist or cannot be read, and
    for a directory holding no files at all.
    """
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files = sorted(p for p in _walk(path) if p.is_file())
            if not files:
                raise UsageError(f"{name}: directory holds no hand-history files")
            found.extend(files)
        elif path.is_file():
            if not os.access(path, os.R_OK):
                raise UsageError(f"{name}: permission denied")
            found.append(path)
        elif path.exists():
            raise UsageError(f"{name}: not a regular file or directory")
        else:
            raise UsageError(f"{name}: no such file or directory")
    return found


def _walk(root: Path) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for filename in filenames:
            if not filename.startswith("."):
                yield Path(dirpath) / filename


def stderr(message: str) -> None:
    print(message, file=sys.stderr)
