"""Best five of five to seven cards: high, A-5 low, 8-or-better low, one hand a call.

Each call adds up two small integers over the cards (a rank-multiset key and a
per-suit count) and does one dict lookup, about 1 µs for seven cards.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Sequence

from ..cards import DECK, Card
from ..diskmemo import DiskMemo
from .keys import FLUSH_ADD, FLUSH_TEST, LOW_BITS, LOW_MASK, RANK_WEIGHT, SUIT_WEIGHT
from .values import qualifies_eight

if TYPE_CHECKING:
    from .tables import Tables

_FLUSH_BIT: tuple[int, ...] = tuple(0 if r < 2 else 1 << (r - 2) for r in range(15))
_SUIT_OF_NIBBLE = "cdhs"
_RANKS_SHIFT = 20
"""Where a card's rank weight starts in :data:`_CARD_WEIGHT`: above its suit weight's 16 bits
and 4 bits to spare, so that no count of cards carries a suit's count into the ranks."""
_SUITS_MASK = (1 << 16) - 1
_CARD_WEIGHT: dict[str, int] = {
    card.text: RANK_WEIGHT[card.rank] << _RANKS_SHIFT | SUIT_WEIGHT[card.suit] for card in DECK}
"""A card's rank weight and suit weight (:mod:`.keys`) in one int, by the card's text: the
high evaluator adds one figure a card, not two (a showdown's hands, seven cards each, every
contested pot), and takes the two sums apart once."""
_tables: Tables | None = None


class Lookups(NamedTuple):
    """What the scalar evaluators look values up in (see :class:`.tables.Tables`)."""

    by_key: dict[int, int]
    flush: list[int]


_lookups: Lookups | None = None
# The lookups, kept between processes: building them takes numpy and most of a
# one-hand check's start-up; reading them back, neither.
_here = Path(__file__).parent
_KEPT = DiskMemo("hand-values", _here / "tables.py", _here / "keys.py", _here / "values.py")


def tables() -> Tables:
    """The lookup tables (numpy arrays too, for the batch evaluators), built on first use."""
    global _tables
    if _tables is None:
        from .tables import build

        _tables = build()
    return _tables


def lookups() -> Lookups:
    """The scalar evaluators' lookups: kept by an earlier process, else from :func:`tables`."""
    global _lookups
    if _lookups is None:
        by_key, flush = _KEPT.get("lookups", lambda: (tables().by_key, tables().flush))
        _lookups = Lookups(by_key, flush)
    return _lookups


def high_value(cards: Sequence[Card]) -> int:
    """Best five-card high hand of 5 to 7 cards; larger is better, equal values tie."""
    t = _lookups or lookups()
    weights = 0
    for card in cards:
        weights += _CARD_WEIGHT[card.text]
    key = weights >> _RANKS_SHIFT
    suits = weights & _SUITS_MASK
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
    t = _lookups or lookups()
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
