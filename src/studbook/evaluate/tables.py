"""Lookup tables behind the fast evaluators, built once on first use (~0.1 s).

Without a flush, every value here depends only on the rank multiset of the
cards. A multiset is keyed by ``sum(RANK_WEIGHT[rank])`` with three bits a rank
(counts 0..4), so the key of five to seven cards is exact and cheap to add up.
The 6,175 five-card multisets are valued from their count pattern (4-1 quads,
3-2 full house, ..., five singles a straight or high card); six and seven card
multisets take the best of their one-card-smaller sub-multisets. All of it is
vectorised with numpy. Flushes use a direct table over the 8,192 suit rank
masks: in seven cards a flush can sit beside two pair at most, so a flush is
always the best hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from . import values as v
from .keys import FLUSH_ADD, FLUSH_TEST, LOW_BITS, LOW_MASK, RANK_WEIGHT, SUIT_WEIGHT


Int64Array = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Tables:
    # rank-multiset key -> high value without flushes << LOW_BITS | A-5 low value
    by_key: dict[int, int]
    flush: list[int]  # 13-bit suit mask (bit r-2 for rank r) -> flush or straight flush value
    keys: Int64Array  # sorted multiset keys (5 to 7 cards), for the batch path
    high_values: Int64Array  # aligned with keys
    low_values: Int64Array
    flush_values: Int64Array


def build() -> Tables:
    keys, highs, lows = _multiset_values()
    flush = _flush_table(keys, highs)
    return Tables(
        by_key=dict(zip(keys.tolist(), ((highs << LOW_BITS) | lows).tolist())),
        flush=flush.tolist(),
        keys=keys,
        high_values=highs,
        low_values=lows,
        flush_values=flush,
    )


def _count_vectors() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """Every (13,) count vector with counts 0..4 summing to at most 7, and the sums."""
    vectors = np.zeros((1, 13), dtype=np.int8)
    sums = np.zeros(1, dtype=np.int8)
    for rank in range(13):
        parts, part_sums = [vectors], [sums]
        for count in range(1, 5):
            fits = sums + count <= 7
            grown = vectors[fits]
            grown[:, rank] = count
            parts.append(grown)
            part_sums.append(sums[fits] + count)
        vectors, sums = np.concatenate(parts), np.concatenate(part_sums)
    return vectors, sums


def _multisets(
    vectors: tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]], size: int
) -> tuple[Int64Array, npt.NDArray[np.int8]]:
    """Sorted keys and (n, 13) counts of every rank multiset of ``size`` cards."""
    counts = vectors[0][vectors[1] == size]
    keys = counts.astype(np.int64) @ (1 << (3 * np.arange(13, dtype=np.int64)))
    order = np.argsort(keys)
    return keys[order], counts[order]


def _multiset_values() -> tuple[Int64Array, Int64Array, Int64Array]:
    vectors = _count_vectors()
    keys5, counts5 = _multisets(vectors, 5)
    highs = _five_card_high(counts5)
    lows = _five_card_low(counts5)
    all_keys, all_highs, all_lows = [keys5], [highs], [lows]
    prev = (keys5, highs, lows)
    for size in (6, 7):
        keys, counts = _multisets(vectors, size)
        highs, lows = _best_of_smaller(keys, counts, *prev)
        all_keys.append(keys)
        all_highs.append(highs)
        all_lows.append(lows)
        prev = (keys, highs, lows)
    keys = np.concatenate(all_keys)
    order = np.argsort(keys)
    return keys[order], np.concatenate(all_highs)[order], np.concatenate(all_lows)[order]


def _five_card_high(counts: npt.NDArray[np.int8]) -> Int64Array:
    """High values of five-card rank multisets (rows of counts by rank 2..14)."""
    values = _by_groups(counts, rank_offset=2, categories=_HIGH_BY_PATTERN)
    bits = counts.astype(np.int64) << np.arange(13, dtype=np.int64)
    top = _STRAIGHT_TOP[(bits * (counts == 1)).sum(axis=1)]
    straight = (counts.max(axis=1) == 1) & (top > 0)
    return np.where(straight, (v.STRAIGHT << v.CATEGORY_SHIFT) | (top << 16), values)


def _five_card_low(counts: npt.NDArray[np.int8]) -> Int64Array:
    """A-5 low values of five-card rank multisets; the ace moves to the bottom."""
    ace_low = np.hstack([counts[:, 12:], counts[:, :12]])
    return _by_groups(ace_low, rank_offset=1, categories=_LOW_BY_PATTERN)


def _by_groups(
    counts: npt.NDArray[np.int8], rank_offset: int, categories: dict[tuple[int, ...], int]
) -> Int64Array:
    """Five cards: category from the count pattern, then ranks by (count, rank) descending,
    which is the order of significance of every five-card hand but a straight."""
    significance = counts.astype(np.int64) * 16 + np.arange(13)
    order = np.argsort(-significance, axis=1)[:, :5]
    group_counts = np.take_along_axis(counts, order, axis=1).astype(np.int64)
    ranks = np.where(group_counts > 0, order + rank_offset, 0)
    values = np.zeros(len(counts), dtype=np.int64)
    for pattern, category in categories.items():
        width = len(pattern)
        match = (group_counts[:, :width] == pattern).all(axis=1)
        values[match] = category
    for position in range(5):
        values = (values << 4) | ranks[:, position]
    return values


_HIGH_BY_PATTERN = dict(zip(v.GROUP_PATTERNS, v.HIGH_BY_LOW_CATEGORY))
_LOW_BY_PATTERN = {pattern: low for low, pattern in enumerate(v.GROUP_PATTERNS)}


def _straight_tops() -> Int64Array:
    """Top rank of the best straight by 13-bit rank mask (bit 0 = deuce), else 0."""
    tops = np.zeros(1 << 13, dtype=np.int64)
    masks = np.arange(1 << 13)
    for top in range(5, 15):
        run = 0b1111 | 1 << 12 if top == 5 else 0b11111 << (top - 6)
        tops[(masks & run) == run] = top  # ascending, so the best straight wins
    return tops


_STRAIGHT_TOP = _straight_tops()


def _best_of_smaller(
    keys: Int64Array,
    counts: npt.NDArray[np.int8],
    sub_keys: Int64Array,
    sub_highs: Int64Array,
    sub_lows: Int64Array,
) -> tuple[Int64Array, Int64Array]:
    """Best five of n cards is the best five of some n-1 of them: drop each rank in turn."""
    best_high = np.full(len(keys), -1, dtype=np.int64)
    best_low = np.full(len(keys), np.iinfo(np.int64).max, dtype=np.int64)
    for r in range(13):
        has = counts[:, r] > 0
        position = np.searchsorted(sub_keys, keys[has] - (1 << (3 * r)))
        best_high[has] = np.maximum(best_high[has], sub_highs[position])
        best_low[has] = np.minimum(best_low[has], sub_lows[position])
    return best_high, best_low


def _flush_table(keys: Int64Array, highs: Int64Array) -> Int64Array:
    """Value by 13-bit suit mask: the no-pair high value of those ranks, promoted
    (high card -> flush, straight -> straight flush). Masks of 8+ bits stay 0."""
    masks = np.arange(1 << 13, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(13, dtype=np.int64)) & 1
    usable = (bits.sum(axis=1) >= 5) & (bits.sum(axis=1) <= 7)
    mask_keys = (bits[usable] << (3 * np.arange(13, dtype=np.int64))).sum(axis=1)
    values = highs[np.searchsorted(keys, mask_keys)]
    promoted = np.where(values >> v.CATEGORY_SHIFT == v.STRAIGHT, v.STRAIGHT_FLUSH, v.FLUSH)
    table = np.zeros(1 << 13, dtype=np.int64)
    table[usable] = (values & ((1 << v.CATEGORY_SHIFT) - 1)) | (promoted << v.CATEGORY_SHIFT)
    return table
