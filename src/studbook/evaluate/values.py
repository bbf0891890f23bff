"""Hand values as integers: the encoding shared by every evaluator.

A value packs a category and up to five ranks into one int:
``category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5``, the ranks
in order of significance (pair rank before kickers, kickers descending), unused
nibbles zero. Comparing two values therefore compares category, then ranks.

High values use ranks 2..14 (ace high) and the categories ``HIGH_CARD`` ..
``STRAIGHT_FLUSH``; larger is better; a straight carries only its top rank
(5 for the wheel). Low values use ranks 1..13 (ace low) and the ``LOW_*`` categories;
smaller is better. An 8-or-better low is a ``LOW_NO_PAIR`` value whose first
rank is at most 8, so 8-low and A-5 low values of the same five cards are equal.
"""

from __future__ import annotations

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
LOW_NO_PAIR, LOW_PAIR, LOW_TWO_PAIR, LOW_TRIPS, LOW_FULL_HOUSE, LOW_QUADS = range(6)

CATEGORY_SHIFT = 20

# The six ways five cards group by rank, worst high hand first. A low category
# is the position here (no pair best), so LOW_PAIR pairs with PAIR and so on.
GROUP_PATTERNS = ((1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1))
HIGH_BY_LOW_CATEGORY = (HIGH_CARD, PAIR, TWO_PAIR, TRIPS, FULL_HOUSE, QUADS)


def unpack(value: int) -> tuple[int, tuple[int, ...]]:
    """``(category, ranks)`` with the zero (unused) nibbles dropped."""
    ranks = tuple(r for r in ((value >> shift) & 15 for shift in (16, 12, 8, 4, 0)) if r)
    return value >> CATEGORY_SHIFT, ranks


def qualifies_eight(low_value: int) -> bool:
    """Whether an A-5 low value is also an 8-or-better low."""
    return low_value >> CATEGORY_SHIFT == LOW_NO_PAIR and (low_value >> 16) & 15 <= 8
