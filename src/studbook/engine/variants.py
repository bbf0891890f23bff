"""The stud variants as data: what differs between stud, stud hi/lo and razz.

The rules read a :class:`VariantRules` (``state.variant_rules``) and never branch
on the variant's name: adding a variant is one more entry in :data:`VARIANT_RULES`
(and its evaluators in ``studbook.evaluate``).

=========  ===============  ===========  ================  ==========  ================
variant    bring-in         first later  open-pair double  high wins   low wins
=========  ===============  ===========  ================  ==========  ================
stud       lowest door      best board   yes               whole pot   -
stud8      lowest door      best board   yes               half        half, 8 or better
razz       highest door     lowest board no                -           whole pot, any
=========  ===============  ===========  ================  ==========  ================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Literal, Mapping, Sequence

from studbook.cards import Card, DECK
from studbook.evaluate import bring_in_key, high_value, low8_value, low_a5_value
from studbook.events import Variant

HighValue = Callable[[Sequence[Card]], int]
"""A high evaluator: larger is better (``studbook.evaluate.high_value``)."""
LowValue = Callable[[Sequence[Card]], "int | None"]
"""A low evaluator: smaller is better; None when the hand does not qualify."""


@dataclass(frozen=True, slots=True, eq=False)
class VariantRules:
    """One variant's rules, as the engine reads them."""

    variant: Variant
    bring_in_by: Literal["lowest", "highest"]
    """Rule bringin.player: the door card that brings in (ties by suit, as
    ``studbook.evaluate.bring_in_key`` orders them)."""
    first_board: Literal["best", "lowest"]
    """Rule order.first: whose board acts first on 4th to 7th street."""
    open_pair_double: bool
    """Rule bet.open_pair: an open pair on 4th street allows the big bet."""
    high: HighValue | None
    """Showdown: the high evaluator (the pot, or half of it with a low), None when no high wins."""
    low: LowValue | None
    """Showdown: the low evaluator (the pot alone, or half of it with a high), None when no low wins."""
    low_qualifier: int | None
    """The highest card a winning low may hold (8: eight or better; ``low`` applies it); None: any low."""

    bring_in_keys: Mapping[str, int] = field(init=False)
    """Each door card's place in the bring-in order, by the card's text (the smallest brings
    in; from ``variant``, in :func:`~studbook.evaluate.bring_in_key`'s order)."""
    low_board_first: bool = field(init=False)
    """The lowest board, not the best, acts first on later streets (from ``first_board``)."""

    def __post_init__(self) -> None:
        # fields, not properties: rules bringin.player and order.first read them for
        # every street
        # (by text, read from the card's slot: ``id(card)`` is a builtin call with its audit
        # hook and a new int; a place, an int, compares in one step where the key's tuple
        # compares item by item: every live player's door card on every 3rd street)
        variant = self.variant.value
        ordered = sorted(DECK, key=lambda card: bring_in_key(card, variant))
        keys = {card.text: place for place, card in enumerate(ordered)}
        object.__setattr__(self, "bring_in_keys", keys)
        object.__setattr__(self, "low_board_first", self.first_board == "lowest")

    @property
    def splits(self) -> bool:
        """A pot is split between the best high and the best (qualifying) low."""
        return self.high is not None and self.low is not None


VARIANT_RULES: Mapping[Variant, VariantRules] = {rules.variant: rules for rules in (
    VariantRules(variant=Variant.STUD, bring_in_by="lowest", first_board="best", open_pair_double=True,
                 high=high_value, low=None, low_qualifier=None),
    VariantRules(variant=Variant.STUD8, bring_in_by="lowest", first_board="best", open_pair_double=True,
                 high=high_value, low=low8_value, low_qualifier=8),
    VariantRules(variant=Variant.RAZZ, bring_in_by="highest", first_board="lowest", open_pair_double=False,
                 high=None, low=low_a5_value, low_qualifier=None),
)}
"""Every variant's rules."""


def showdown_winners(rules: VariantRules, hands: Mapping[str, Sequence[Card]],
                order: Sequence[str]) -> tuple[list[str], list[str]]:
    """Who wins a pot among shown seven-card ``hands`` (``order``: dealing order):
    (the hands that take the pot or its high half; the qualifying lows that take
    the low half, empty when the pot is not split). Rule showdown.award;
    ValueError on impossible hands."""
    # (loops, not comprehensions: each comprehension makes a function and a frame, and
    # every contested pot asks)
    high, low = rules.high, rules.low
    lows: dict[str, int | None] = {}
    if low is not None:
        for n in order:
            lows[n] = low(hands[n])
    if high is None:
        return _lowest(lows, order), []
    winners: list[str] = []
    top: int | None = None
    for n in order:  # the highest value, ties in dealing order
        value = high(hands[n])
        if top is None or value > top:
            top, winners = value, [n]
        elif value == top:
            winners.append(n)
    return winners, _lowest(lows, order) if lows else []  # (no low evaluator: no low half, no walk)


def _lowest(values: Mapping[str, int | None], order: Sequence[str]) -> list[str]:
    """The players of ``order`` with the smallest qualifying value in ``values`` (none
    when nobody qualifies), in dealing order."""
    best: int | None = None
    lowest: list[str] = []
    for n in order:
        value = values.get(n)
        if value is None:
            continue
        if best is None or value < best:
            best, lowest = value, [n]
        elif value == best:
            lowest.append(n)
    return lowest
