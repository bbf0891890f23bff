"""Hand values in PokerStars wording: "a pair of Eights", "8,7,6,3,A"."""

from __future__ import annotations

from . import values as v

_NAMES = "Ace Deuce Three Four Five Six Seven Eight Nine Ten Jack Queen King Ace".split()
_CHARS = "-A23456789TJQKA"  # by rank: 1 and 14 are both the ace
_WORDING = {
    v.HIGH_CARD: "high card {one}",
    v.PAIR: "a pair of {many}",
    v.TWO_PAIR: "two pair, {many} and {many2}",
    v.TRIPS: "three of a kind, {many}",
    v.STRAIGHT: "a straight, {bottom} to {one}",
    v.FLUSH: "a flush, {one} high",
    v.FULL_HOUSE: "a full house, {many} full of {many2}",
    v.QUADS: "four of a kind, {many}",
    v.STRAIGHT_FLUSH: "a straight flush, {bottom} to {one}",
}


def describe_high(value: int) -> str:
    """E.g. "two pair, Queens and Fives", "a straight, Five to Nine", "a flush, King high"."""
    category, ranks = v.unpack(value)
    if category == v.STRAIGHT_FLUSH and ranks[0] == 14:
        return "a Royal Flush"
    return _worded(category, ranks)


def describe_low(value: int | None) -> str:
    """E.g. "8,7,6,3,A"; a paired low as "a pair of Deuces"; None as "no low"."""
    if value is None or value >> v.CATEGORY_SHIFT > v.LOW_QUADS:
        return "no low"
    category, ranks = v.unpack(value)
    if category == v.LOW_NO_PAIR:
        return ",".join(_CHARS[rank] for rank in ranks)
    return _worded(v.HIGH_BY_LOW_CATEGORY[category], ranks)


def _worded(category: int, ranks: tuple[int, ...]) -> str:
    if category not in _WORDING or not ranks:
        raise ValueError(f"not a hand value: category {category}, ranks {ranks}")
    second = ranks[1] if len(ranks) > 1 else ranks[0]
    return _WORDING[category].format(
        one=_one(ranks[0]),
        many=_many(ranks[0]),
        many2=_many(second),
        bottom=_one(ranks[0] - 4 if ranks[0] > 5 else 1),
    )


def _one(rank: int) -> str:
    return _NAMES[rank - 1]


def _many(rank: int) -> str:
    return _one(rank) + ("es" if rank == 6 else "s")
