"""Derived values kept between processes: worked out once, read back at start-up.

A one-hand ``studbook check`` spent most of its start-up deriving the same
things every run: compiling the scanners' regexes (Python's regex compiler is
written in Python) and building the hand evaluator's lookup tables (with
numpy). :class:`DiskMemo` keeps such values in one ``marshal`` file a memo in
the temporary folder, as Lark keeps its compiled grammars there: the file's
name holds a digest of the Python version and of the source files the values
are derived from, so a changed source or interpreter reads a fresh file.

Every value is an optimisation only: an unreadable or missing file is an
empty memo, and a file that cannot be written is skipped. Each value is
kept marshalled on its own and unmarshalled when first asked for: a memo
holds what every process (a check of all the sites, say) has added, and a
process pays only for the values it uses. New values are
written when the process exits, merged with what other processes wrote
meanwhile (a renamed temporary file, so a reader never sees half a file).
"""

from __future__ import annotations

import atexit
import hashlib
import marshal
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Hashable, TypeVar

T = TypeVar("T")
_FORMAT = "2"  # bumped when what a memo holds changes shape


class DiskMemo:
    """A dict of ``marshal``-able values, kept in the temporary folder.

    ``sources`` are the files the values are derived from (their text is in
    the file name's digest)."""

    def __init__(self, name: str, *sources: Path) -> None:
        self._name = name
        self._sources = sources
        self._kept: dict[Hashable, bytes] | None = None  # as read: each value still marshalled
        self._values: dict[Hashable, Any] = {}  # read back or derived by this process
        self._added: dict[Hashable, Any] = {}
        self._path: Path | None = None

    def path(self) -> Path:
        """The memo's file: named by the interpreter and the sources' text."""
        if self._path is None:
            self._path = self._named()
        return self._path

    def _named(self) -> Path:
        digest = hashlib.sha256(f"{_FORMAT} {sys.version} {sys.implementation.cache_tag}".encode())
        for source in self._sources:
            digest.update(source.read_bytes())
        return Path(tempfile.gettempdir()) / f"studbook-{self._name}-{digest.hexdigest()[:20]}.marshal"

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """The value kept for ``key``, else ``make()`` (kept from now on)."""
        try:
            value: T = self._values[key]
            return value
        except KeyError:
            pass
        kept = (self._kept if self._kept is not None else self._load()).get(key)
        if kept is not None:
            try:
                value = self._values[key] = marshal.loads(kept)
                return value
            except (EOFError, ValueError, TypeError):  # a damaged value: derived again
                pass
        value = self._values[key] = make()
        if not self._added:
            atexit.register(self.save)
        self._added[key] = value
        return value

    def _load(self) -> dict[Hashable, bytes]:
        self._kept = _read(self.path())
        return self._kept

    def save(self) -> None:
        """Write the values added by this process, merged with the file's."""
        if not self._added:
            return
        path = self.path()
        merged = {**_read(path), **{key: marshal.dumps(value) for key, value in self._added.items()}}
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            partial.write_bytes(marshal.dumps(merged))
            os.replace(partial, path)
        except (OSError, ValueError):  # a read-only or full temp folder: the next run derives them again
            partial.unlink(missing_ok=True)
            return
        self._added = {}


def _read(path: Path) -> dict[Hashable, bytes]:
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return data if isinstance(data, dict) else {}


__all__ = ["DiskMemo"]
