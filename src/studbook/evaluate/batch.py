"""Vectorised evaluation of many hands at once (simulation, equity, statistics).

A batch is an ``(n, k)`` integer array of ``Card.index`` values (0..51, rank-major,
``index = (rank - 2) * 4 + suit_order``), ``k`` from 5 to 7. The values are the
scalar functions' values, from the same tables, row by row.

One pass of gathers adds up a 64-bit word per hand: the rank-multiset key (three
bits a rank, bits 0..38) and the suit counts (a nibble a suit, from bit 40). The
key is too wide to index a table directly, so it is split into the counts of
deuce..eight (21 bits) and nine..ace (18 bits); each half indexes a small direct
table of its possible count vectors (3,180 and 1,548 of them), and the pair
indexes the 76,155 multisets of at most seven cards: the nine..ace vectors are
ordered by card count, so those that fit beside a given low half form a prefix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ..cards import Card
from .scalar import tables
from .keys import FLUSH_TEST
from .values import CATEGORY_SHIFT, LOW_NO_PAIR

Int64Array = npt.NDArray[np.int64]

NO_LOW = 1 << 30
"""Marks "no 8-or-better low" in :func:`low8_values`; larger than every low value."""

_LOW_BITS, _HIGH_BITS, _SUIT_SHIFT = 21, 18, 40
_INDEX = np.arange(52, dtype=np.int64)
_CARD_WEIGHT: Int64Array = (1 << (3 * (_INDEX >> 2))) | (1 << (_SUIT_SHIFT + 4 * (_INDEX & 3)))
_RANK_BIT: Int64Array = 1 << (_INDEX >> 2)
_INVALID = np.iinfo(np.int16).max
_CARD_INDEX: list[dict[str, int]] = [
    {suit: (rank - 2) * 4 + order for order, suit in enumerate("cdhs")} for rank in range(15)
]


@dataclass(frozen=True, slots=True)
class _Index:
    low_half: npt.NDArray[np.int16]  # deuce..eight counts (21 bits) -> low vector number
    high_half: npt.NDArray[np.int16]  # nine..ace counts (18 bits) -> high vector number
    offset: Int64Array  # low vector number -> start of its block
    limit: npt.NDArray[np.int16]  # low vector number -> how many high vectors fit beside it
    high: Int64Array  # block position -> high value (0 for fewer than five cards)
    low: Int64Array  # block position -> A-5 low value


_index: _Index | None = None


def _build_index() -> _Index:
    t = tables()
    counts = np.arange(5)
    lows = _vectors(7, counts)
    highs = _vectors(6, counts)
    highs = highs[np.argsort(highs.sum(axis=1), kind="stable")]
    fits_below = np.searchsorted(highs.sum(axis=1), np.arange(8), side="right")  # sum <= s
    low_sums = lows.sum(axis=1)
    limit = fits_below[7 - low_sums]
    offset = np.concatenate([[0], np.cumsum(limit)[:-1]])
    low_keys = _keys(lows, 0)
    high_keys = _keys(highs, 3 * 7)
    block_low = np.repeat(np.arange(len(lows)), limit)
    block_high = np.arange(len(block_low)) - offset[block_low]
    keys = low_keys[block_low] | high_keys[block_high]
    sizes = low_sums[block_low] + highs.sum(axis=1)[block_high]
    position = np.minimum(np.searchsorted(t.keys, keys), len(t.keys) - 1)
    found = (sizes >= 5) & (t.keys[position] == keys)
    low_half = np.full(1 << _LOW_BITS, len(lows), dtype=np.int16)  # the extra row has limit 0
    low_half[low_keys] = np.arange(len(lows))
    high_half = np.full(1 << _HIGH_BITS, _INVALID, dtype=np.int16)
    high_half[high_keys >> (3 * 7)] = np.arange(len(highs))
    return _Index(
        low_half=low_half,
        high_half=high_half,
        offset=np.append(offset, 0).astype(np.int64),
        limit=np.append(limit, 0).astype(np.int16),
        high=np.where(found, t.high_values[position], 0),
        low=np.where(found, t.low_values[position], 0),
    )


def _vectors(ranks: int, counts: npt.NDArray[np.int64]) -> Int64Array:
    """Count vectors over ``ranks`` ranks, each count 0..4, at most seven cards."""
    grid = np.stack(np.meshgrid(*([counts] * ranks), indexing="ij"), axis=-1).reshape(-1, ranks)
    return grid[grid.sum(axis=1) <= 7].astype(np.int64)


def _keys(vectors: Int64Array, shift: int) -> Int64Array:
    return (vectors << (shift + 3 * np.arange(vectors.shape[1], dtype=np.int64))).sum(axis=1)


def _lookup(idx: npt.NDArray[np.integer]) -> tuple[_Index, npt.NDArray[np.intp], Int64Array]:
    """The index, each hand's block position and its summed word."""
    global _index
    if _index is None:
        _index = _build_index()
    word = _column_sum(_CARD_WEIGHT, idx)
    low_number = _index.low_half[word & ((1 << _LOW_BITS) - 1)]
    high_number = _index.high_half[(word >> _LOW_BITS) & ((1 << _HIGH_BITS) - 1)]
    if not (high_number < _index.limit[low_number]).all():
        raise ValueError("a hand repeats a rank more than four times")
    return _index, _index.offset[low_number] + high_number, word


def hand_indices(hands: Iterable[Sequence[Card]]) -> npt.NDArray[np.int8]:
    """Hands of cards (all of one length) as the ``(n, k)`` index array the batch functions take."""
    rows = [[_CARD_INDEX[card.rank][card.suit] for card in hand] for hand in hands]
    return np.array(rows, dtype=np.int8).reshape(len(rows), -1)


def high_values(hands: npt.ArrayLike) -> Int64Array:
    """:func:`high_value` of every row of an ``(n, 5..7)`` array of card indices."""
    idx = _checked(hands)
    index, position, word = _lookup(idx)
    values = index.high[position]
    suits = word >> _SUIT_SHIFT
    flush = ((suits + 0x3333) & FLUSH_TEST) != 0
    if flush.any():
        flush_values = tables().flush_values[_flush_masks(idx[flush], suits[flush])]
        if not flush_values.all():
            raise ValueError("a hand repeats a card")  # five of a suit, fewer ranks
        values[flush] = flush_values
    return values


def low_a5_values(hands: npt.ArrayLike) -> Int64Array:
    """:func:`low_a5_value` of every row of an ``(n, 5..7)`` array of card indices."""
    index, position, _ = _lookup(_checked(hands))
    return index.low[position]


def low8_values(hands: npt.ArrayLike) -> Int64Array:
    """:func:`low8_value` of every row, with :data:`NO_LOW` where no low qualifies."""
    values = low_a5_values(hands)
    qualified = (values >> CATEGORY_SHIFT == LOW_NO_PAIR) & (((values >> 16) & 15) <= 8)
    return np.where(qualified, values, NO_LOW)


def _checked(hands: npt.ArrayLike) -> npt.NDArray[np.integer]:
    idx = np.asarray(hands)
    if idx.ndim != 2 or not 5 <= idx.shape[1] <= 7:
        raise ValueError(f"need an (n, 5..7) array of card indices, got shape {idx.shape}")
    if not np.issubdtype(idx.dtype, np.integer):
        raise ValueError(f"card indices must be integers, got {idx.dtype}")
    if idx.size and (idx.min() < 0 or idx.max() > 51):
        raise ValueError("card indices must be 0..51")
    return idx


def _column_sum(weights: Int64Array, idx: npt.NDArray[np.integer]) -> Int64Array:
    # Adding k columns beats a sum over a short axis by a wide margin.
    total = weights[idx[:, 0]]
    for column in range(1, idx.shape[1]):
        total += weights[idx[:, column]]
    return total


def _flush_masks(idx: npt.NDArray[np.integer], suits: Int64Array) -> npt.NDArray[np.intp]:
    nibbles = (suits[:, None] >> (4 * np.arange(4, dtype=np.int64))) & 15
    flush_suit = np.argmax(nibbles >= 5, axis=1)
    in_suit = (idx & 3) == flush_suit[:, None]
    masks: npt.NDArray[np.intp] = np.bitwise_or.reduce(np.where(in_suit, _RANK_BIT[idx], 0), axis=1)
    return masks
