"""Bounded memos of pure conversions.

Logs write the same few amounts and card runs thousands of times; a
:class:`TextMemo` converts each written form once (and a :class:`Memo`, each
value of any hashable kind: the frames convert the same amounts over and over). Reading it is a plain
dict lookup (``memo[text]``, or the bound ``memo.__getitem__`` where a
function is expected), much cheaper than a call through ``functools.lru_cache``;
a miss converts through ``__missing__``. A conversion that raises is not
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

    def __missing__(self, key: K) -> V:
        value = self.convert(key)
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


class TextMemo(Memo[str, V]):
    """``convert(text)`` per written text, remembered."""

    __slots__ = ()


__all__ = ["Memo", "TextMemo"]
