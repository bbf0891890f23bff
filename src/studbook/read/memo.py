"""Bounded memos of pure conversions.

Logs write the same few amounts and card runs thousands of times; a
:class:`TextMemo` converts each written form once (and a :class:`Memo`, each
value of any hashable kind: the frames convert the same amounts over and over). Reading it is a plain
dict lookup (``memo[text]``, or the bound ``memo.__getitem__`` where a
function is expected), much cheaper than a call through ``functools.lru_cache``;
a miss converts through ``__missing__`` (or ``memo.remember(key)``, after
``memo.get(key)``, where most keys are new). A conversion that raises is not
remembered, so the error comes again on the next lookup.
"""

from __future__ import annotations

from typing import Callable, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V], Generic[K, V]):
    """``convert(key)`` per key, remembered; forgets everything once full."""

    __slots__ = ("convert", "limit")

    def __init__(self, convert: Callable[[K], V], limit: int = 1 << 14) -> None:
        super().__init__()
        self.convert = convert
        self.limit = limit

    def remember(self, key: K) -> V:
        """``convert(key)``, remembered: a miss's conversion, for a reader that looks up first
        with ``memo.get(key)`` where a key is mostly new (issue 34: ``memo[key]``'s miss
        calls ``__missing__`` from C, a new run of the eval loop, some 0.5 k instructions more
        a miss than ``get`` and this call, and ``get``'s hit is some 0.1 k cheaper too)."""
        value = self.convert(key)
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value

    __missing__ = remember


class TextMemo(Memo[str, V]):
    """``convert(text)`` per written text, remembered."""

    __slots__ = ()


__all__ = ["Memo", "TextMemo"]
