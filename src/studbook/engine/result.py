"""What checking one hand produces: violations, pots and per-player results.

These types are the engine's public output; frames, the store, stats and the
CLI read them and nothing deeper.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any, Callable

from studbook.cards import Card
from studbook.events import Hand, Street


@dataclass(frozen=True, slots=True)
class Violation:
    rule: str  # a rule id from RULES.md, e.g. "bringin.player"
    line: int  # the line of the event that broke the rule
    message: str  # says expected vs found


@dataclass(frozen=True, slots=True)
class PotAward:
    """One pot as the engine built it, and who the log says took it."""

    pot: int  # 0 main (or the only pot), k >= 1 side pot k
    amount: Decimal
    eligible: tuple[str, ...]
    high: tuple[tuple[str, Decimal], ...] = ()  # winners of the high half (or the whole pot)
    low: tuple[tuple[str, Decimal], ...] = ()  # winners of the low half (stud8)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    player: str
    seat: int
    stack: Decimal  # at the start of the hand
    contributed: Decimal  # antes and bets, less uncalled bets returned
    collected: Decimal
    net: Decimal  # collected - contributed
    last_street: Street  # the last street the player was live on
    folded: bool
    all_in: bool
    showed: bool
    won_at_showdown: bool
    up_cards: tuple[Card, ...] = ()
    down_cards: tuple[Card, ...] = ()  # those the log revealed


@dataclass(frozen=True, slots=True)
class HandCheck:
    hand: Hand
    violations: tuple[Violation, ...]
    players: tuple[PlayerResult, ...]
    pots: tuple[PotAward, ...]
    rake: Decimal
    went_to_showdown: bool

    @property
    def status(self) -> str:
        return "violations" if self.violations else "ok"

    @property
    def net(self) -> dict[str, Decimal]:
        return {p.player: p.net for p in self.players}


def _positional_maker(cls: type) -> Callable[..., Any]:
    """A constructor taking every field positionally, for the engine's hot path.

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``
    from keyword arguments: several µs for a PlayerResult. This builds the very same
    object (same class, same fields) about four times faster: a plain class with the
    same slots stores the fields as any ``__init__`` does, then the object becomes an
    instance of ``cls`` (Python allows ``__class__`` assignment between classes whose
    slots are the same).
    """
    names = [f.name for f in fields(cls)]
    if tuple(names) != tuple(getattr(cls, "__slots__", ())):
        raise TypeError(f"{cls.__name__}: the fields are not the slots")
    body = "".join(f"        self.{name} = {name}\n" for name in names)
    source = (f"class Twin:\n    __slots__ = {tuple(names)!r}\n\n"
              f"    def __init__(self, {', '.join(names)}):\n{body}        self.__class__ = cls\n")
    namespace: dict[str, Any] = {"cls": cls}
    exec(source, namespace)  # noqa: S102 - the source is built from the dataclass's own field names
    return namespace["Twin"]  # type: ignore[no-any-return]


# positional constructors (every field, in declaration order) for the engine's hot path
new_player_result = _positional_maker(PlayerResult)
new_pot_award = _positional_maker(PotAward)
new_hand_check = _positional_maker(HandCheck)
new_violation = _positional_maker(Violation)
