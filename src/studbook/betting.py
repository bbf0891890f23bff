"""Betting arithmetic shared by the readers, the engine and the frames.

A stage below ``sites/`` and ``engine/``: it knows events' figures, nothing of
any site. Each piece is decided here and nowhere else:

* **what counts as a completion**: the first bet of 3rd street, the one that
  faces at most the bring-in (:func:`completes`). Sites write it as a bet, a
  raise ("raises $0.02 to $0.04") or a completion; studbook calls it
  ``complete`` everywhere (:func:`named`, :func:`kind_for`);
* **a player's street total after an action**, from what a site wrote (chips
  put in, the new total or a raise's increment: :func:`written_total`) and
  from the figure an
  :class:`~studbook.events.Action` carries (:func:`street_total`): chips put in
  for a bring-in, bet or call; the increment over the bet to call for a raise;
  the total for a completion; ``to``, where given, for a raise or completion;
  and back, an action's figures from the street total it reaches
  (:func:`figures`);
* **what a call costs**: the chips to call (:func:`owed`), capped by the stack
  (:func:`call_chips`: an all-in call for less);
* **the uncalled bet**: the top contribution less the second, never an ante
  (:func:`top_two`, :func:`uncalled_part`; rule ``pot.uncalled``);
* **main and side pots** from each player's contribution (:func:`pot_layers`;
  rule ``pot.side``), and a log's per-player winnings spread over them
  (:func:`split_winnings`);
* **where the rake comes from** when there are side pots: the main pot first,
  or each pot its share (:func:`after_rake`; a site's ``RuleProfile.rake_from``);
* **fixed-limit stakes** from one known bet size (:func:`fixed_stakes`), and
  the **bet size of a street**: the small bet on 3rd and 4th, the big bet
  from 5th (:func:`street_bet`; 4th street's open-pair double bet is the
  engine's rule ``bet.open_pair``);
* **the aggressive kinds**, those that make a bet (:data:`AGGRESSIVE`; their
  names, for frames' ``kind`` columns: :data:`AGGRESSIVE_NAMES`).

Who uses it: the readers' one ``Ledger`` (``sites/ledger.py``, for the text,
the XML and the PHH readers; Absolute's all-in lines read with it), iPoker's
awards (``sites/ipoker.py``) and the PHH writer's street totals
(``write/phh.py``); the engine
(``engine/rules/bets.py``, the uncalled bet in ``engine/rules/showdown.py``,
``engine/pots.py``'s ``build_pots``, ``engine/result.py``'s :func:`named`);
the simulator through ``build_pots``, ``legal_actions()`` and :func:`after_rake`, and the frames
through the engine's published facts.

The engine applies them to a hand's actions and publishes each action's facts
(:class:`studbook.engine.result.ActionFacts`: chips put in, chips to call, pot
and bets before it), which the frames' ``actions`` rows read.
Amounts are ``Decimal`` or ``int`` (minor units); a hand's amounts are :data:`~studbook.money.Money`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Collection, Iterable, Literal, Mapping, Sequence, TypeVar

from studbook.events import BET, CALL, COMPLETE, FOURTH, RAISE, THIRD, ActionKind, Street
from studbook.money import Money, exact, half

N = TypeVar("N", int, Decimal, Money)
P = TypeVar("P")  # whoever a contribution belongs to: a name, a player's state

_ZERO = Decimal(0)

AGGRESSIVE = frozenset({ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE})
"""The kinds that make a bet: a bring-in is not one (rule ``bet.cap``)."""
AGGRESSIVE_NAMES: tuple[str, ...] = tuple(k.value for k in ActionKind if k in AGGRESSIVE)
""":data:`AGGRESSIVE` as the names a frame's ``kind`` column holds ("complete", "bet", "raise")."""


def street_bet(street: Street | None, small: N, big: N) -> N:
    """The fixed-limit bet and raise of ``street``: the small bet on 3rd and 4th
    street, the big bet from 5th (rule ``bet.size``; 4th street's open-pair
    double bet aside, rule ``bet.open_pair``)."""
    return small if street is THIRD or street is FOURTH else big


def completes(street: Street | None, opened: bool) -> bool:
    """A bet or raise on ``street`` is a completion: 3rd street, not yet ``opened``
    by a bet (it faces the bring-in at most; rule ``bringin.complete``)."""
    return street is THIRD and not opened


def named(kind: ActionKind, street: Street | None, opened: bool) -> ActionKind:
    """``kind`` as studbook names it: a bet or raise that completes is ``complete``."""
    if (kind is RAISE or kind is BET) and completes(street, opened):
        return COMPLETE
    return kind


def street_total(kind: ActionKind, amount: N | None, to: N | None, before: N, level: N) -> N:
    """The player's street total after an action of ``kind`` carrying ``amount`` and
    ``to`` (events.py's figures), from ``before`` (their total so far) and ``level``
    (the bet to call). Check and fold leave it at ``before``."""
    if kind is RAISE:
        if to is not None:
            return to
        return level + amount if amount is not None else level
    if kind is COMPLETE:
        if to is not None:
            return to
        return amount if amount is not None else before
    if amount is not None:
        return before + amount
    return to if to is not None else before


def written_total(before: Money, level: Money, *, chips: Money | None = None, to: Money | None = None,
                  by: Money | None = None) -> Money:
    """A player's street total from what a site wrote: the new total ``to``, a raise's
    increment ``by`` over the bet to call (``level``), or the ``chips`` put in."""
    if to is not None:
        return to
    if by is not None:
        return level + by
    return before + chips if chips is not None else before


def kind_for(total: N, level: N, completing: bool) -> ActionKind:
    """The kind of an action that takes the player's street total to ``total``
    facing the bet ``level``: a call when it does not raise it (an all-in call for
    less included), else a completion when ``completing`` (:func:`completes`),
    a bet when nothing was bet, a raise otherwise."""
    if total <= level:
        return CALL
    if completing:
        return COMPLETE
    return BET if level == 0 else RAISE


def figures(kind: ActionKind, total: N, before: N, level: N) -> tuple[N, N | None]:
    """events.py's ``(amount, to)`` for an action of ``kind`` that takes the
    player's street total from ``before`` to ``total`` facing ``level``: the
    inverse of :func:`street_total` (a completion's amount is its total, a
    raise's the increment over ``level``, others' the chips put in)."""
    if kind is COMPLETE:
        return total, total
    if kind is RAISE:
        return total - level, total
    return total - before, None


def owed(level: Money, before: Money, zero: Money = _ZERO) -> Money:
    """The chips to call: the bet ``level`` less the player's street total ``before``
    (``zero`` when nothing is owed: the hand's, :attr:`~studbook.engine.table.Table.zero`)."""
    due = level - before
    return due if due > zero else zero  # (not max(): this runs for every call and check)


def call_chips(level: Money, before: Money, stack: Money, zero: Money = _ZERO) -> Money:
    """The chips a call puts in: what is owed, or the whole ``stack`` when that
    is less (an all-in call for less)."""
    return min(owed(level, before, zero), stack)


def top_two(totals: Iterable[tuple[P, Money] | tuple[P, Money, bool]], zero: Money = _ZERO) -> tuple[P | None, Money, Money]:
    """The top contributor (the first listed among equals), their total and the
    second-highest total (nothing when alone); ``(None, 0, 0)`` when nobody put
    anything in. The difference is the part of the top bet nobody matched.
    ``totals``: (who, total) pairs, or :func:`pot_layers`' (who, total, live) contributions."""
    top: P | None = None
    first = second = zero
    for row in totals:  # (by index: a pair or a contribution; who is read only for a new top)
        total = row[1]
        # (asked against the second first: most players, a fold's ante and bring-in, are not
        # above it, one comparison, not two; second <= first, so the answers are the same)
        if total > second:
            if total > first:
                second = first
                first = total
                top = row[0]
            else:
                second = total
    return top, first, second


def uncalled_part(first: Money, second: Money, ante: Money) -> Money:
    """The uncalled bet of the top contributor (total ``first``, ``ante`` of it
    their ante) over the second-highest total: what nobody matched, less any
    part of the ante (an ante is not a bet; rule ``pot.uncalled``)."""
    # (the top less the greater of the two: min(first - second, first - ante), exactly, the
    # exponent too, as both keep the first of equals, with one subtraction, not two)
    return first - max(second, ante)


def pot_layers(contributions: Sequence[tuple[P, Money, bool]], zero: Money = _ZERO) -> list[tuple[Money, tuple[P, ...]]]:
    """Main pot then side pots (rule ``pot.side``), each as (amount, eligible).

    ``contributions`` lists ``(player, total put in, live)`` in dealing order,
    after uncalled bets were returned; folded players are not live but their
    chips stay in the layers they reached. Layers end at each live player's
    total; layers with the same eligible players merge; the pots add up to the
    contributions. The eligible keep the order of ``contributions``. ``zero``: the hand's.
    """
    # the common case, one pot: every live player put in the same (nobody all-in for less),
    # found in the one walk that sums the pot; else the layers. The pot is the sum of the
    # contributions, which is the layers' sum term for term (the value, and the Decimal
    # exponent: a sum's is its terms' least, and the one live total is one of the terms)
    level: Money | None = None  # the one live total, if there is one
    amount = zero
    eligible: list[P] = []
    for name, t, live in contributions:
        if t > zero:
            amount += t
            if live:
                if level is None:
                    level = t
                elif t != level:
                    return _layers(contributions, zero)
                eligible.append(name)
    if level is None:
        return _layers(contributions, zero)
    return [(amount, tuple(eligible))]


def _layers(contributions: Sequence[tuple[P, Money, bool]], zero: Money = _ZERO) -> list[tuple[Money, tuple[P, ...]]]:
    levels = sorted({total for _, total, live in contributions if live and total > zero})
    if not levels:
        total = sum((t for _, t, _ in contributions), zero)
        return [(total, ())] if total else []
    layers: list[tuple[Money, tuple[P, ...]]] = []
    floor = zero
    for level in levels:
        amount = sum((min(t, level) - min(t, floor) for _, t, _ in contributions if t > floor), zero)
        eligible = tuple(name for name, t, live in contributions if live and t >= level)
        if layers and layers[-1][1] == eligible:
            layers[-1] = (layers[-1][0] + amount, eligible)
        else:
            layers.append((amount, eligible))
        floor = level
    # chips above the highest live total (folded players who put in more) join the top pot
    excess = sum((t - floor for _, t, _ in contributions if t > floor), zero)
    if excess:
        amount, eligible = layers[-1]
        layers[-1] = (amount + excess, eligible)
    return layers


def split_winnings(wins: Mapping[P, Money],
                   pots: Sequence[tuple[Money, Collection[P]]]) -> list[tuple[P, Money, int]]:
    """Each player's total winnings as (player, amount, pot index) collections.

    For logs that give only a total per player: with side pots, the last
    pot (fewest eligible players) is filled first, each pot shared evenly
    among its eligible winners; whatever is left (rake, odd chips) stays
    with the main pot. With one pot it is one collection per winner.
    """
    remaining = {player: amount for player, amount in wins.items() if amount > 0}
    if len(pots) <= 1:
        return [(player, amount, 0) for player, amount in remaining.items()]
    shares: dict[tuple[P, int], Money] = {}
    for index in range(len(pots) - 1, 0, -1):
        amount, eligible = pots[index]
        takers = [p for p in remaining if p in eligible and remaining[p] > 0]
        left = amount
        for n, player in enumerate(takers):
            share = min(remaining[player], left if n == len(takers) - 1 else exact(amount) / len(takers))
            if share > 0:
                shares[(player, index)] = share
                remaining[player] -= share
                left -= share
    out = [(player, amount, 0) for player, amount in remaining.items() if amount > 0]
    out += [(player, amount, index) for (player, index), amount in sorted(shares.items(), key=lambda i: i[0][1])]
    return out


RakeFrom = Literal["main_pot", "each_pot"]
"""Where the rake of a hand with side pots comes from: ``main_pot``, the main pot
(and, where it holds less than the rake, the next pots in turn); ``each_pot``,
every pot in proportion to its size, in whole chips, the chips left over going to
the pots with the largest remainders (the first of equals)."""


def after_rake(pots: Sequence[Money], rake: Money, chip: Money, rake_from: RakeFrom) -> list[Money]:
    """Each pot of ``pots`` (main pot first) less its part of ``rake``; the parts add up to
    the rake (never more than a pot holds)."""
    if len(pots) <= 1:
        return [pot - rake for pot in pots]
    if rake_from == "main_pot":
        out: list[Money] = []
        left = rake
        for amount in pots:
            taken = min(left, amount)
            left -= taken
            out.append(amount - taken)
        return out
    whole = exact(sum(pots, _ZERO))  # (a Decimal: the division below is exact, never a float's)
    ideal = [rake * amount / whole for amount in pots]
    parts = [(share // chip) * chip for share in ideal]
    spare = int((rake - sum(parts, _ZERO)) / chip)
    by_remainder = sorted(range(len(pots)), key=lambda i: parts[i] - ideal[i])  # stable: the first of equals
    for i in by_remainder[:spare]:
        parts[i] += chip
    return [amount - part for amount, part in zip(pots, parts)]


def fixed_stakes(small: Money | None, big: Money | None) -> tuple[Money, Money] | None:
    """Fixed-limit stakes (small bet, big bet) from one known figure: the big bet
    is twice the small; None when neither is known."""
    if small is None and big is None:
        return None
    if small is None:
        assert big is not None
        return half(big), big
    return small, big if big is not None else small * 2


__all__ = [
    "AGGRESSIVE", "AGGRESSIVE_NAMES", "RakeFrom", "after_rake", "call_chips", "completes", "figures", "fixed_stakes", "kind_for", "named", "owed", "pot_layers",
    "split_winnings", "street_total", "street_bet", "top_two", "uncalled_part", "written_total",
]
