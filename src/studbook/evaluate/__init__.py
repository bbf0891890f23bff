"""Hand evaluation: high, A-5 low, 8-or-better low, partial boards, bring-in.

Scalar functions take 5 to 7 :class:`~studbook.cards.Card` and return an int
(see :mod:`.values` for the encoding); batch functions take an ``(n, 5..7)``
array of ``Card.index`` values and return an int64 array of the same values.
The tables behind both are built on first use (about 0.1 s). The batch
functions (and numpy) are imported when first asked for: a one-hand check
needs only the scalar ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import board_high_key, board_low_key, bring_in_key
from .describe import describe_high, describe_low
from .scalar import high_value, low8_value, low_a5_value

if TYPE_CHECKING:
    from .batch import NO_LOW, hand_indices, high_values, low8_values, low_a5_values

_BATCH = frozenset({"NO_LOW", "hand_indices", "high_values", "low8_values", "low_a5_values"})


def __getattr__(name: str) -> Any:
    if name in _BATCH:
        from . import batch

        return getattr(batch, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "NO_LOW",
    "board_high_key",
    "board_low_key",
    "bring_in_key",
    "describe_high",
    "describe_low",
    "hand_indices",
    "high_value",
    "high_values",
    "low8_value",
    "low8_values",
    "low_a5_value",
    "low_a5_values",
]
