"""Best five of five to seven cards: high, A-5 low, 8-or-better low, one hand a call.

Each call adds up two small integers over the cards (a rank-multiset key and a
per-suit count) and does one dict lookup, about 1 µs for seven cards.
"""

from __future__ import annotations

from typing import Sequence

from ..cards import Card
from .tables import (
    FLUSH_ADD,
    FLUSH_TEST,
    LOW_BITS,
    LOW_MASK,
    RANK_WEIGHT,
    SUIT_WEIGHT,
    Tables,
    build,
)
from .values import qualifies_eight

_FLUSH_BIT: tuple[int, ...] = tuple(0 if r < 2 else 1 << (r - 2) for r in range(15))
_SUIT_OF_NIBBLE = "cdhs"
_tables: Tables | None = None


def tables() -> Tables:
    """The lookup tables, built on first use."""
    global _tables
    if _tables is None:
        _tables = build()
    return _tables


def high_value(cards: Sequence[Card]) -> int:
    """Best five-card high hand of 5 to 7 cards; larger is better, equal values tie."""
    t = _tables or tables()
    key = 0
    suits = 0
    for card in cards:
        key += RANK_WEIGHT[card.rank]
        suits += SUIT_WEIGHT[card.suit]
    if (suits + FLUSH_ADD) & FLUSH_TEST and 5 <= len(cards) <= 7:
        value = t.flush[_flush_mask(cards, suits)]
        if value:
            return value
        raise _bad_hand(cards)  # five of a suit but not five ranks: a repeated card
    try:
        return t.by_key[key] >> LOW_BITS
    except KeyError:
        raise _bad_hand(cards) from None


def low_a5_value(cards: Sequence[Card]) -> int:
    """Best A-5 low (razz) of 5 to 7 cards: ace low, straights and flushes ignored,
    pairs count against; smaller is better, equal values tie."""
    t = _tables or tables()
    key = 0
    for card in cards:
        key += RANK_WEIGHT[card.rank]
    try:
        return t.by_key[key] & LOW_MASK
    except KeyError:
        raise _bad_hand(cards) from None


def low8_value(cards: Sequence[Card]) -> int | None:
    """Best 8-or-better low of 5 to 7 cards (five different ranks 8 or lower, ace
    low), or None when none qualifies; smaller is better."""
    value = low_a5_value(cards)
    return value if qualifies_eight(value) else None


def _flush_mask(cards: Sequence[Card], suits: int) -> int:
    shift = 0
    while ((suits >> shift) & 15) < 5:
        shift += 4
    suit = _SUIT_OF_NIBBLE[shift // 4]
    mask = 0
    for card in cards:
        if card.suit == suit:
            mask |= _FLUSH_BIT[card.rank]
    return mask


def _bad_hand(cards: Sequence[Card]) -> ValueError:
    shown = " ".join(str(card) for card in cards)
    return ValueError(f"need 5 to 7 different cards, got {len(cards)}: {shown}")
