"""Partial boards (who acts first) and door cards (who brings in).

Keys are tuples ``(category, ranks...)`` with no suits: equal boards tie and the
engine breaks the tie by position (rule ``order.first``). Bring-in keys do carry
the suit, since suit breaks bring-in ties (rule ``bringin.player``).

Boards are ranked from rank counts alone and take the best ``min(n, 5)`` cards,
so a board of five or more (a community card) is handled too.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from ..cards import Card
from . import values as v

_VARIANTS = ("stud", "stud8", "razz")


def board_high_key(up: Sequence[Card]) -> tuple[int, ...]:
    """Stud/Stud8 "best hand showing" of the up cards; larger is better.

    Quads > trips > two pair > pair > high cards (a full house between quads and
    trips from five cards on); straights and flushes do not count. The key is the
    high-value category (``values.PAIR`` etc.), then ranks 2..14 by significance.
    """
    counts = Counter(card.rank for card in up)
    size = min(len(up), 5)
    by_rank = sorted(counts, reverse=True)
    quads = [r for r in by_rank if counts[r] >= 4]
    trips = [r for r in by_rank if counts[r] >= 3]
    pairs = [r for r in by_rank if counts[r] >= 2]
    if quads:
        return (v.QUADS, *_with_kickers((quads[0],), 4, by_rank, size))
    if trips and len(pairs) >= 2:
        return (v.FULL_HOUSE, trips[0], next(p for p in pairs if p != trips[0]))
    if trips:
        return (v.TRIPS, *_with_kickers((trips[0],), 3, by_rank, size))
    if len(pairs) >= 2:
        return (v.TWO_PAIR, *_with_kickers((pairs[0], pairs[1]), 4, by_rank, size))
    if pairs:
        return (v.PAIR, *_with_kickers((pairs[0],), 2, by_rank, size))
    return (v.HIGH_CARD, *by_rank[:size])


def board_low_key(up: Sequence[Card]) -> tuple[int, ...]:
    """Razz "lowest board" of the up cards: A-5 low, pairs count against; smaller is better.

    The low-value category (``values.LOW_*``), then ranks 1..13 (ace low), highest
    first among unpaired cards: A-2 is ``(0, 2, 1)``, 2-3 ``(0, 3, 2)``.
    """
    # Using every distinct rank always leaves the fewest paired cards; what is
    # left to choose is which ranks to pair: the lowest that can be.
    counts = Counter(card.low_rank for card in up)
    size = min(len(up), 5)
    by_rank = sorted(counts)
    if len(by_rank) >= size:
        return (v.LOW_NO_PAIR, *sorted(by_rank[:size], reverse=True))
    extra = size - len(by_rank)
    pairs = [r for r in by_rank if counts[r] >= 2]
    trips = [r for r in by_rank if counts[r] >= 3]
    if extra == 1:
        return (v.LOW_PAIR, *_with_low_kickers((pairs[0],), by_rank))
    if extra == 2:
        if len(pairs) >= 2:
            return (v.LOW_TWO_PAIR, *_with_low_kickers((pairs[1], pairs[0]), by_rank))
        return (v.LOW_TRIPS, *_with_low_kickers((trips[0],), by_rank))
    for t in trips:  # two ranks make the five (or four) cards: a full house beats quads
        other = next((p for p in pairs if p != t), None)
        if other is not None:
            return (v.LOW_FULL_HOUSE, t, other)
    quads = next(r for r in by_rank if counts[r] >= 4)
    return (v.LOW_QUADS, *_with_low_kickers((quads,), by_rank))


def bring_in_key(card: Card, variant: str) -> tuple[int, int]:
    """Sort key of a door card; the SMALLEST key among the players brings in.

    Stud/Stud8: lowest rank (ace high), ties clubs < diamonds < hearts < spades.
    Razz: highest rank (ace low, king highest), ties spades first.
    ``variant`` is "stud", "stud8" or "razz", or a ``studbook.events.Variant``.
    """
    name = getattr(variant, "value", variant)
    if name == "razz":
        return (-card.low_rank, -card.suit_order)
    if name in _VARIANTS:
        return (card.rank, card.suit_order)
    raise ValueError(f"unknown variant {variant!r}; expected one of {_VARIANTS}")


def _with_kickers(
    made: tuple[int, ...], used: int, by_rank: list[int], size: int
) -> tuple[int, ...]:
    kickers = [r for r in by_rank if r not in made][: max(size - used, 0)]
    return made + tuple(kickers)


def _with_low_kickers(made: tuple[int, ...], by_rank: list[int]) -> tuple[int, ...]:
    return made + tuple(sorted((r for r in by_rank if r not in made), reverse=True))
