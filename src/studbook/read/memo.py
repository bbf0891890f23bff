"""Bounded memos of pure text conversions.

Logs write the same few amounts and card runs thousands of times; a
:class:`TextMemo` converts each written form once. Reading it is a plain
dict lookup (``memo[text]``, or the bound ``memo.__getitem__`` where a
function is expected), much cheaper than a call through ``functools.lru_cache``;
a miss converts through ``__missing__``. A conversion that raises is not
remembered, so the error comes again on the next lookup.
"""

from __future__ import annotations

from typing import Callable, Generic, TypeVar

V = TypeVar("V")


class TextMemo(dict[str, V], Generic[V]):
    """``convert(text)`` per text, remembered; forgets everything once full."""

    __slots__ = ("convert", "limit")

    def __init__(self, convert: Callable[[str], V], limit: int = 1 << 14) -> None:
        super().__init__()
        self.convert = convert
        self.limit = limit

    def __missing__(self, text: str) -> V:
        value = self.convert(text)
        if len(self) >= self.limit:
            self.clear()
        self[text] = value
        return value


__all__ = ["TextMemo"]
