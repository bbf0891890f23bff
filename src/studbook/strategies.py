"""Player strategies for the simulator: honest play in a style, and colluding pairs.

A :class:`Strategies` is a ``chooser`` for :func:`studbook.simulate.simulate`:
it decides every action of the players it knows. Honest players play their
cards (the simulator's 0..1 strength of their own cards, from the evaluator)
in a :class:`Style`: a loose player calls with less, a tight one folds more.

A :class:`Collusion` plants a cheating pair at a given ``strength`` (the
chance, 0..1, that the pair cheats where it can):

* ``soft_play``: heads-up against each other, neither bets nor raises (they
  check or call instead);
* ``chip_dumping``: heads-up, the receiver (``second``) bets and raises into
  the dumper (``first``), who calls on 3rd and 4th street, building the pot,
  then folds to a bet from 5th street on, whatever their cards;
* ``card_sharing``: each sees the other's down cards; with both live and at
  least one other player, the one holding the weaker cards (by the
  simulator's strength of both hands) folds to a bet, leaving the pot to the
  stronger partner instead of paying to chase it.

These are the behaviours :mod:`studbook.integrity` tests for; the pair plays
honestly in every other spot (against other players only, and for soft play
and chip dumping in multi-way pots).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping, Sequence

from studbook.betting import AGGRESSIVE
from studbook.engine.state import LegalAction
from studbook.events import ActionKind, Street
from studbook.simulate import Decision

_K = ActionKind


@dataclass(frozen=True, slots=True)
class Style:
    """How an honest player plays their strength: call above ``call_at``,
    bet above ``bet_at`` and raise above ``raise_at``, each aggressive move
    taken with chance ``aggression``; ``noise`` blurs the strength each decision."""

    name: str
    call_at: float
    bet_at: float
    raise_at: float
    aggression: float
    noise: float = 0.12


LOOSE = Style("loose", call_at=0.38, bet_at=0.5, raise_at=0.72, aggression=0.85)
TIGHT = Style("tight", call_at=0.58, bet_at=0.62, raise_at=0.82, aggression=0.65)
STYLES = (LOOSE, TIGHT)


class CheatKind(Enum):
    SOFT_PLAY = "soft_play"
    CHIP_DUMPING = "chip_dumping"
    CARD_SHARING = "card_sharing"


@dataclass(frozen=True, slots=True)
class Collusion:
    """A planted pair; for chip dumping ``first`` loses to ``second``."""

    first: str
    second: str
    kind: CheatKind
    strength: float = 0.7

    @property
    def pair(self) -> tuple[str, str]:
        return (self.first, self.second) if self.first < self.second else (self.second, self.first)


def honest(decision: Decision, style: Style) -> LegalAction:
    """The action of an honest player of ``style`` holding these cards."""
    options, rng = decision.options, decision.rng
    strength = decision.strength(decision.player) + rng.uniform(-style.noise, style.noise)
    aggressive = [a for a in options.actions if a.kind in AGGRESSIVE]
    bring_in = options.find(_K.BRING_IN)
    if bring_in is not None:
        if aggressive and strength > style.raise_at and rng.random() < style.aggression:
            return aggressive[0]
        return bring_in
    facing = options.to_call > 0
    if aggressive and rng.random() < style.aggression:
        if strength > (style.raise_at if facing else style.bet_at):
            return aggressive[0]
    passive = options.find(_K.CHECK) or options.find(_K.CALL)
    fold = options.find(_K.FOLD)
    if fold is None or passive is None:
        return passive or options.actions[0]
    cheap = decision.street is Street.THIRD and decision.state.bets == 0  # only the bring-in to call
    if strength < style.call_at - (0.15 if cheap else 0.0):
        return fold
    return passive


@dataclass
class Strategies:
    """The chooser of a session: every player's style, and the planted pairs."""

    styles: Mapping[str, Style]
    collusions: Sequence[Collusion] = ()
    _partners: dict[str, list[Collusion]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        for collusion in self.collusions:
            for name in (collusion.first, collusion.second):
                self._partners.setdefault(name, []).append(collusion)

    def __call__(self, decision: Decision) -> LegalAction | None:
        style = self.styles.get(decision.player)
        if style is None:
            return None  # not ours: the simulator's own choice
        choice = honest(decision, style)
        live = [p.name for p in decision.state.live_players]
        if len(live) > 2:
            return _share_cards(decision, self._partners.get(decision.player, ()), live, choice)
        if len(live) != 2:
            return choice
        opponent = live[0] if live[1] == decision.player else live[1]
        for collusion in self._partners.get(decision.player, ()):
            if collusion.kind is CheatKind.CARD_SHARING:
                continue
            if opponent in (collusion.first, collusion.second) and decision.rng.random() < collusion.strength:
                return _cheat(decision, collusion, choice)
        return choice


def _share_cards(decision: Decision, collusions: Sequence[Collusion], live: list[str],
                 choice: LegalAction) -> LegalAction:
    """Multi-way, facing a bet: fold the weaker of two card-sharing partners."""
    fold = decision.options.find(_K.FOLD)
    if fold is None or decision.options.to_call <= 0 or choice.kind is _K.FOLD:
        return choice
    for collusion in collusions:
        if collusion.kind is not CheatKind.CARD_SHARING:
            continue
        partner = collusion.second if decision.player == collusion.first else collusion.first
        if partner in live and decision.strength(partner) > decision.strength(decision.player) \
                and decision.rng.random() < collusion.strength:
            return fold
    return choice


def _cheat(decision: Decision, collusion: Collusion, choice: LegalAction) -> LegalAction:
    options = decision.options
    aggressive = [a for a in options.actions if a.kind in AGGRESSIVE]
    passive = options.find(_K.CHECK) or options.find(_K.CALL) or options.find(_K.BRING_IN)
    if collusion.kind is CheatKind.SOFT_PLAY:
        return passive if choice.kind in AGGRESSIVE and passive is not None else choice
    if decision.player == collusion.second:  # the receiver builds the pot
        return aggressive[0] if aggressive else choice
    fold = options.find(_K.FOLD)
    if decision.street >= Street.FIFTH and options.to_call > 0 and fold is not None:
        return fold
    return passive if passive is not None else choice


def assign_styles(names: Sequence[str], rng: random.Random) -> dict[str, Style]:
    """Half the players loose, half tight, at random."""
    return {name: STYLES[rng.randrange(len(STYLES))] for name in names}


__all__ = ["LOOSE", "STYLES", "TIGHT", "CheatKind", "Collusion", "Strategies", "Style", "assign_styles", "honest"]
