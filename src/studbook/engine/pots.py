"""Pots from contributions, and exact splits of a pot among tied winners."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Callable, Iterable, Sequence

from studbook.betting import pot_layers
from studbook.money import Money, exact
from studbook.records import maker

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: main (index 0) or side pot k, with the players who can win it."""

    index: int
    amount: Money
    eligible: tuple[str, ...]  # live players who matched this layer, in dealing order


new_pot: Callable[[int, Money, tuple[str, ...]], Pot] = maker(Pot)
"""Pot's positional constructor (every hand makes its pots: a frozen dataclass's own
``__init__`` costs several times as much)."""


def build_pots(contributions: Sequence[tuple[str, Money, bool]], zero: Money = ZERO) -> list[Pot]:
    """Main and side pots (rule ``pot.side``), as :func:`studbook.betting.pot_layers` layers them.

    ``contributions`` lists ``(player, total put in, live)`` in dealing order,
    after uncalled bets were returned; folded players are not live but their
    chips stay in the layers they reached. Layers end at each live all-in
    player's total; layers with the same eligible players merge. ``zero``: the hand's.
    """
    layers = pot_layers(contributions, zero)
    if len(layers) == 1:  # (most hands: one pot, made without a comprehension's call)
        amount, eligible = layers[0]
        return [new_pot(0, amount, eligible)]
    return [new_pot(i, amount, eligible) for i, (amount, eligible) in enumerate(layers)]


def _even_share(amount: Money, count: int, unit: Money) -> tuple[Money, Money]:
    """``count`` winners' even share of ``amount`` rounded down to the chip ``unit``,
    and what is left over (the odd chips, each going to one winner)."""
    # (the rounding given by place, not by keyword: a keyword makes the C method's call a
    # dict and its parsing, most of the rounding's cost; every contested pot asks)
    if count == 1:  # (a pot's one winner, most showdowns: x / 1 and x * 1 are x, exponent and all)
        base = (exact(amount) / unit).to_integral_value(ROUND_FLOOR) * unit
        return base, amount - base
    base = (exact(amount) / count / unit).to_integral_value(ROUND_FLOOR) * unit
    return base, amount - base * count


def split(amount: Money, winners: Sequence[str], unit: Money) -> dict[str, tuple[Money, Money]]:
    """Each winner's share of ``amount`` as a (least, most) range: the even share
    rounded down to the chip ``unit``, or one chip more for those who may get an odd chip."""
    if not winners:
        return {}
    base, odd = _even_share(amount, len(winners), unit)
    most = base + unit if odd > ZERO else base
    return dict.fromkeys(winners, (base, most))  # (no comprehension's function and frame)


def split_exact(amount: Money, winners: Sequence[str], unit: Money) -> dict[str, Money]:
    """Even split with the odd chips going one each to the first winners listed."""
    if not winners:
        return {}
    base, odd = _even_share(amount, len(winners), unit)
    odd_chips = int(odd / unit)
    return {w: base + (unit if i < odd_chips else ZERO) for i, w in enumerate(winners)}


def high_half(amount: Money, unit: Money) -> Money:
    """The high half of a hi/lo pot: half, with the odd chip (rule ``showdown.award``)."""
    return (exact(amount) / 2 / unit).to_integral_value(ROUND_CEILING) * unit  # (by place: as _even_share)


def add_ranges(
    into: dict[str, tuple[Money, Money]], more: dict[str, tuple[Money, Money]]
) -> None:
    for name, (low, high) in more.items():
        old = into.get(name, (ZERO, ZERO))
        into[name] = (old[0] + low, old[1] + high)


def total(amounts: Iterable[Money]) -> Money:
    return sum(amounts, ZERO)
