"""What checking one hand produces: violations, pots and per-player results.

These types are the engine's public output; frames, the store, stats and the
CLI read them and nothing deeper.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from itertools import starmap
from typing import Callable, Iterable, TypeAlias

from studbook.betting import named
from studbook.cards import Card
from studbook.events import Action, ActionKind, Hand, Street
from studbook.money import Money, ZEROS
from studbook.records import maker


class Party(Enum):
    """Who is at fault for a violation (docs/violations.md)."""

    PLAYER = "player"  # a player's own action: a bet, a check, acting out of turn, showing out of order
    SITE = "site"  # the site or dealer: money (antes, stacks, pots, returns), cards, streets and awards


Value: TypeAlias = "str | int | Money | Street | Card | None | tuple[Value, ...]"
"""A value a rule compared: an amount (Decimal), a player (str), a count (int), a
street, a card (None inside a sequence: a card the log does not show), or a
tuple of these: cards, amounts, names, or ``(player, amount)`` shares (an
amount that may be a ``(least, most)`` range)."""


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule broken at a line: the rule's own fields, and its message written from them
    by the one message table (:mod:`studbook.engine.messages`)."""

    rule: str  # a rule id from docs/rules.md, e.g. "bringin.player"
    line: int  # the line of the event that broke the rule
    message: str  # says expected vs found
    street: Street | None = None  # the street in play (None before 3rd street)
    party: Party = Party.SITE  # who is at fault
    player: str | None = None  # the player at fault (Party.PLAYER), else the player concerned, if any
    seat: int | None = None  # that player's seat (None: no player, or one without a seat)
    expected: Value = None  # what the rule wanted (None: the rule compares no value)
    actual: Value = None  # what the log has instead


@dataclass(frozen=True, slots=True)
class PotAward:
    """One pot as the engine built it, and who the log says took it."""

    pot: int  # 0 main (or the only pot), k >= 1 side pot k
    amount: Money
    eligible: tuple[str, ...]
    high: tuple[tuple[str, Money], ...] = ()  # winners of the high half (or the whole pot)
    low: tuple[tuple[str, Money], ...] = ()  # winners of the low half (stud8)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    player: str
    seat: int
    stack: Money  # at the start of the hand
    contributed: Money  # antes and bets, less uncalled bets returned
    collected: Money
    net: Money  # collected - contributed
    last_street: Street  # the last street the player was live on
    folded: bool
    all_in: bool
    showed: bool
    won_at_showdown: bool
    up_cards: tuple[Card, ...] = ()
    down_cards: tuple[Card, ...] = ()  # those the log revealed


@dataclass(frozen=True, slots=True)
class ActionFacts:
    """What one logged action did, as the engine applied it (the frames' ``actions`` rows)."""

    action: Action  # the event as logged (player, figures, line)
    street: Street | None  # the street in play (None: an action before 3rd street)
    kind: ActionKind  # the logged kind, a bet or raise that completes named ``complete``
    put_in: Money  # chips the action added to the pot
    to_call: Money  # chips the player needed to call before acting
    bets_before: int  # bets and raises this round before the action (the bring-in is not one)
    pot_before: Money  # antes and bets so far, less uncalled bets returned


ActionRecord = tuple[Action, Street | None, int, Money, Money, Money, Money, Money]
"""What the engine notes as it applies an action, cheaply (a hand has dozens):
the event, the street, the bets made this round, the pot, the bet to match, the
player's street total before, and their hand total before and after it.
:func:`action_facts` turns it into the action's :class:`ActionFacts`."""


FactFields = tuple[Action, Street | None, ActionKind, Money, Money, int, Money]
"""An :class:`ActionFacts`' fields, in order (the frames' actions rows take them so)."""


def action_facts(record: ActionRecord) -> ActionFacts:
    """The facts of one action the engine applied, from its note."""
    return new_action_facts(*fact_fields((record,))[0])


def fact_fields(log: Iterable[ActionRecord]) -> list[FactFields]:
    """The fields of each action's :class:`ActionFacts`, in order, with no object made
    (the frames' actions rows take them so, a few dozen a hand): one comprehension a
    hand, no call an action (the kind's name is :data:`_NAMED`'s)."""
    names = _NAMED
    zeros = ZEROS
    # (the bet to match, the action's own kind of zero when nothing was: money.ZEROS)
    return [(action, street, names[action.kind][street][1 if bets > 0 else 0], after - before,
             level - street_in if level > street_in else zeros[level.__class__], bets, pot)
            for action, street, bets, pot, level, street_in, before, after in log]


_NAMED: dict[ActionKind, dict[Street | None, tuple[ActionKind, ActionKind]]] = {
    kind: {street: (named(kind, street, False), named(kind, street, True)) for street in (None, *Street)}
    for kind in ActionKind}
""":func:`betting.named` of every kind and street, not opened then opened: looked up, not called,
an action. By kind, then street, then ``opened`` as 0 or 1: a key of all three is a new tuple an
action, hashed and compared with the table's, twice the cost of the three look-ups (issue 34)."""


@dataclass(frozen=True, slots=True)
class HandCheck:
    hand: Hand
    violations: tuple[Violation, ...]
    players: tuple[PlayerResult, ...]
    pots: tuple[PotAward, ...]
    rake: Money
    went_to_showdown: bool
    action_log: tuple[ActionRecord, ...]  # one per Action event, in log order (see actions)

    @property
    def status(self) -> str:
        return "violations" if self.violations else "ok"

    @property
    def net(self) -> dict[str, Money]:
        return {p.player: p.net for p in self.players}

    @property
    def actions(self) -> tuple[ActionFacts, ...]:
        """Each Action event's facts as the engine applied it, in log order."""
        return tuple(starmap(new_action_facts, fact_fields(self.action_log)))


# positional constructors (every field, in declaration order) for the engine's hot path
# (each typed with its class's fields in order, so mypy checks the calls: tests/test_records.py)
new_player_result: Callable[[str, int, Money, Money, Money, Money, Street, bool, bool, bool, bool,
                             tuple[Card, ...], tuple[Card, ...]], PlayerResult] = maker(PlayerResult)
new_pot_award: Callable[[int, Money, tuple[str, ...], tuple[tuple[str, Money], ...],
                         tuple[tuple[str, Money], ...]], PotAward] = maker(PotAward)
new_hand_check: Callable[[Hand, tuple[Violation, ...], tuple[PlayerResult, ...], tuple[PotAward, ...], Money, bool,
                          tuple[ActionRecord, ...]], HandCheck] = maker(HandCheck)
new_violation: Callable[[str, int, str, Street | None, Party, str | None, int | None, Value, Value],
                        Violation] = maker(Violation)
new_action_facts: Callable[[Action, Street | None, ActionKind, Money, Money, int, Money],
                           ActionFacts] = maker(ActionFacts)
