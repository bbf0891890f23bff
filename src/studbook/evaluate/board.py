"""Partial boards (who acts first) and door cards (who brings in).

Keys are tuples ``(category, ranks...)`` with no suits: equal boards tie and the
engine breaks the tie by position (rule ``order.first``). Bring-in keys do carry
the suit, since suit breaks bring-in ties (rule ``bringin.player``).

Boards are ranked from rank counts alone and take the best ``min(n, 5)`` cards,
so a board of five or more (a community card) is handled too.
"""

from __future__ import annotations

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
    # (loops: a Counter over a generator and a comprehension for each group made a frame
    # apiece, more than the counting; order.first asks for every new board it sees)
    counts: dict[int, int] = {}
    for card in up:
        rank = card.rank
        counts[rank] = counts.get(rank, 0) + 1
    size = min(len(up), 5)
    by_rank = sorted(counts, reverse=True)
    if len(by_rank) == len(up):  # no rank twice: most boards
        return (v.HIGH_CARD, *by_rank[:size])
    quads = trips = 0  # the highest rank showing four (three) times or more
    pairs: list[int] = []  # the ranks showing twice or more, highest first
    for rank in by_rank:
        count = counts[rank]
        if count >= 2:
            pairs.append(rank)
            if count >= 3 and not trips:
                trips = rank
            if count >= 4 and not quads:
                quads = rank
    if quads:
        return (v.QUADS, *_with_kickers((quads,), 4, by_rank, size))
    if trips and len(pairs) >= 2:
        return (v.FULL_HOUSE, trips, pairs[1] if pairs[0] == trips else pairs[0])
    if trips:
        return (v.TRIPS, *_with_kickers((trips,), 3, by_rank, size))
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
    counts: dict[int, int] = {}
    for card in up:  # (a loop, not a Counter over a generator: see board_high_key)
        rank = card.low_rank
        counts[rank] = counts.get(rank, 0) + 1
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
    wanted = size - used
    if wanted <= 0:
        return made
    kickers = list(made)
    for r in by_rank:  # (a loop: the best kickers, highest first, beside the made ranks)
        if r not in made:
            kickers.append(r)
            wanted -= 1
            if not wanted:
                break
    return tuple(kickers)


def _with_low_kickers(made: tuple[int, ...], by_rank: list[int]) -> tuple[int, ...]:
    return made + tuple(sorted((r for r in by_rank if r not in made), reverse=True))
