"""Looking at hands: the replayer's model, text views and the HTML page.

:func:`replay` runs one parsed hand through the engine and returns a
:class:`Replay`: a snapshot of the table (:class:`~studbook.engine.snapshot.Snapshot`)
before the first event and after every event, the hands shown at the
showdown with their high and low values and the five cards each uses, and
who took what from which pot; and the steps a player steps through
(:mod:`.steps`: the antes as one, a street's deal as one, each action, the
result last). Iterating a Replay yields its snapshots::

    import studbook
    hand = next(h for h in studbook.parse_file("HH.txt") if isinstance(h, studbook.Hand))
    for snap in studbook.replay(hand):
        print(snap.step, snap.street, snap.actor, snap.action, snap.pot)

:mod:`.text` prints a hand for the terminal (``studbook show``, ``studbook
replay --plain``); :mod:`.html` writes the self-contained web replayer.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations
from typing import Callable, Iterator, Sequence

from studbook.cards import Card
from studbook.check import TableMemory, start_state
from studbook.engine.profiles import RuleProfile
from studbook.engine.result import Violation
from studbook.engine.settle import finish
from studbook.engine.snapshot import CardView, PotView, Recorder, SeatView, Snapshot
from studbook.engine.state import StudState
from studbook.evaluate import describe_high, describe_low, high_value, low8_value, low_a5_value
from studbook.events import Chatter, Collect, Deal, Hand, PotSummary, Variant
from studbook.money import Money

from .steps import Step, StepKind, group

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand the log showed in full at the end: its value(s) and the five cards used."""

    player: str
    cards: tuple[Card, ...]  # the player's seven (the community card included when dealt)
    high: str | None  # "two pair, Queens and Fives"; None in razz
    high_five: tuple[Card, ...]
    low: str | None  # "8,6,4,2,A", "no low" (stud8); None in stud
    low_five: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot: its size, who could win it, who took which half (as the log says), and
    the best shown high and low hands among those who could win it."""

    index: int
    amount: Money
    eligible: tuple[str, ...]
    high: tuple[tuple[str, Money], ...]  # the high half, or the whole pot
    low: tuple[tuple[str, Money], ...]  # the low half (stud8, where the log says)
    best_high: tuple[str, ...]
    best_low: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Replay:
    """A hand as a sequence of snapshots, with its showdown and its pots."""

    hand: Hand
    hero: str | None
    reveal: bool
    snapshots: tuple[Snapshot, ...]
    shown: tuple[ShownHand, ...]
    pots: tuple[PotResult, ...]
    violations: tuple[Violation, ...]  # every one, as the steps carry them
    known: dict[str, tuple[Card | None, ...]]  # down cards the log knows by the end, per player
    steps: tuple[Step, ...]  # what a player steps through (the page, replay --plain and the terminal)

    def __iter__(self) -> Iterator[Snapshot]:
        return iter(self.snapshots)

    def __len__(self) -> int:
        return len(self.snapshots)

    def __repr__(self) -> str:
        hand = self.hand
        return f"<Replay of {hand.site} #{hand.hand_id}: {len(self.snapshots)} snapshots, {len(self.violations)} violations>"

    def _repr_html_(self) -> str:  # a notebook displays the replayer, inline
        from studbook.display import replay_html

        return replay_html(self)

    def __getitem__(self, step: int) -> Snapshot:
        return self.snapshots[step]

    @property
    def award_step(self) -> int:
        """The step where the pot is first awarded (the last step when the log has no collection)."""
        for s in self.snapshots:
            if isinstance(s.event, Collect):
                return s.step
        return len(self.snapshots) - 1

    @property
    def award(self) -> int:
        """The step where the first pot is collected (the result step when the log has no collection)."""
        return next((s.index for s in self.steps if s.kind is StepKind.AWARD), len(self.steps) - 1)


def replay(
    hand: Hand, *, reveal: bool = False, hero: str | None = None,
    profile: RuleProfile | None = None, memory: TableMemory | None = None,
) -> Replay:
    """Replay ``hand`` through the engine, a :class:`Snapshot` per event.

    ``reveal``: show every card the log knows from the start (else the viewer's
    view: the hero's down cards, others' once shown). ``hero``: the viewer's
    player (default: the player the log deals down cards to). ``profile`` and
    ``memory`` as for :func:`studbook.check.check_hand`.
    """
    final = start_state(hand, profile, memory)
    final.apply_all(hand.events)
    before = len(final.violations)
    awards, _, _, _ = finish(final, hand.end_line)
    late = final.violations[before:]
    known = {p.name: tuple(p.down) for p in final.players}
    hero = hero if hero is not None else hero_of(hand)
    recorder = Recorder(start_state(hand, profile, memory), hero=hero, known=known if reveal else None)
    snapshots = recorder.record([e for e in hand.events if not isinstance(e, Chatter)], late)
    shown = _shown_hands(final)
    by_name = {s.player: s for s in shown}
    pots = tuple(
        PotResult(a.pot, a.amount, a.eligible, a.high, a.low, *_best(final.variant, [by_name[n] for n in a.eligible
                                                                                    if n in by_name]))
        for a in awards
    )
    violations = tuple(v for s in snapshots for v in s.violations)
    stated = next((e.rake for e in hand.events if isinstance(e, PotSummary)), None)
    steps = group(snapshots, stated)
    return Replay(hand, recorder.hero, reveal, tuple(snapshots), shown, pots, violations, known, steps)


def hero_of(hand: Hand) -> str | None:
    """The player the log marks as its own (:meth:`studbook.events.Hand.hero`: Bovada's
    ``[ME]``, iPoker's nickname, else the one player the log deals down cards to)."""
    marked = hand.hero()
    return marked[0] if marked else None


def _shown_hands(state: StudState) -> tuple[ShownHand, ...]:
    out: list[ShownHand] = []
    variant = state.variant
    for p in state.order:
        if not (p.in_hand and not p.folded and (p.showed or p.mucked)):
            continue
        cards = [c for c in p.cards() if c is not None]
        if state.community is not None:
            cards.append(state.community)
        if len(cards) != 7 or len(set(cards)) != 7:
            continue
        high = high_five = low = low_five = None
        if variant is not Variant.RAZZ:
            value = high_value(cards)
            high, high_five = describe_high(value), _five(cards, high_value, value)
        if variant is Variant.RAZZ:
            lv = low_a5_value(cards)
            low, low_five = describe_low(lv), _five(cards, low_a5_value, lv)
        elif variant is Variant.STUD8:
            l8 = low8_value(cards)
            low = describe_low(l8)
            low_five = _five(cards, low8_value, l8) if l8 is not None else ()
        out.append(ShownHand(p.name, tuple(cards), high, high_five or (), low, low_five or ()))
    return tuple(out)


def _five(cards: Sequence[Card], value_of: Callable[[Sequence[Card]], int | None], value: int) -> tuple[Card, ...]:
    """The five of ``cards`` that make ``value`` (in the player's order)."""
    for five in combinations(cards, 5):
        if value_of(five) == value:
            return five
    return ()


def _best(variant: Variant, hands: list[ShownHand]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The best shown high and low hands among ``hands`` (names; empty when none)."""
    high: tuple[str, ...] = ()
    low: tuple[str, ...] = ()
    if not hands:
        return high, low
    if variant is not Variant.RAZZ:
        values = {h.player: high_value(h.cards) for h in hands}
        top = max(values.values())
        high = tuple(n for n, v in values.items() if v == top)
    if variant is Variant.RAZZ:
        lows: dict[str, int | None] = {h.player: low_a5_value(h.cards) for h in hands}
    elif variant is Variant.STUD8:
        lows = {h.player: low8_value(h.cards) for h in hands}
    else:
        lows = {}
    qualified = [v for v in lows.values() if v is not None]
    if qualified:
        best = min(qualified)
        low = tuple(n for n, v in lows.items() if v == best)
    return high, low


__all__ = ["CardView", "PotResult", "PotView", "Replay", "SeatView", "ShownHand", "Snapshot", "Step", "StepKind", "hero_of",
           "replay"]
