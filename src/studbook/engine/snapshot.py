"""Public, immutable snapshots of the table, taken from :class:`StudState` after each event.

A replayer never reads the events a second time to work out stacks, pots or
cards: it feeds them to the engine and photographs the engine's state.
:func:`take` makes one :class:`Snapshot` of a state; :class:`Recorder` applies
a hand's events one at a time and takes a snapshot after each.

What a snapshot shows depends on who looks:

* the **viewer** (``reveal=False``) sees every up card, the hero's down cards
  (the hero is the player the log deals down cards to) and other players' down
  cards only once the log shows them (a show, a muck with cards, a summary
  line); every other down card is a :class:`CardView` with ``card=None``;
* ``reveal=True`` shows every card the log knows by the end of the hand, from
  the first street on (what a tracker calls "known cards").

Money follows the engine: ``stack`` is the engine's chips behind plus what the
player collected, ``in_front`` the chips put in on this street while its
betting is open, ``pot`` everything put in (less uncalled bets returned) and
not yet collected, ``pots`` the main and side pots of the chips gathered into
the middle (``rule pot.side``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping, Sequence

from studbook.cards import Card, format_cards
from studbook.events import (
    SEVENTH, THIRD, Action, ActionKind, BettingCapped, Collect, Deal, DealCommunity, Event, Muck, NoLowHand, NoShow,
    Note, OpenPairNotice, PostAnte, PotSummary, SeatSummary, Show, ShowdownStart, Street, StreetStart, UncalledReturned,
)
from studbook.money import Money, format_amount
from studbook.records import maker

from .pots import build_pots
from .result import Violation
from .state import PlayerState, StudState

ZERO = Decimal(0)
# the street each card of a full stud hand is dealt on, in dealing order (down, down, up x4, down)
_UP_STREETS = (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH)

Words = tuple[str | Money, ...]
"""An event in words: text and amounts, so a view can write the amounts its own way (big bets)."""


@dataclass(frozen=True, slots=True)
class CardView:
    """One card in front of a player: ``card`` is None when face down to this viewer."""

    card: Card | None
    up: bool  # dealt face up
    street: Street  # the street it was dealt on

    @property
    def text(self) -> str:
        """``"Ah"``, or ``"??"`` for a card this viewer cannot see."""
        return "??" if self.card is None else str(self.card)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat at one moment of the hand."""

    seat: int
    name: str
    stack: Money  # chips behind, plus chips collected from pots
    in_front: Money  # put in on this street, while its betting is open
    put_in: Money  # this hand so far, antes included, less uncalled bets returned
    collected: Money
    cards: tuple[CardView, ...]  # in dealing order: down, down, up..., down
    dealt_in: bool
    folded: bool
    all_in: bool
    showed: bool
    mucked: bool
    hero: bool

    @property
    def live(self) -> bool:
        return self.dealt_in and not self.folded

    @property
    def up_cards(self) -> tuple[Card, ...]:
        return tuple(c.card for c in self.cards if c.up and c.card is not None)


@dataclass(frozen=True, slots=True)
class PotView:
    """A pot (0 main, k side pot k) and the live players who can win it."""

    index: int
    amount: Money
    eligible: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The table after ``event`` (None: before the first event)."""

    step: int
    event: Event | None
    street: Street | None
    seats: tuple[SeatView, ...]  # by seat number
    community: Card | None
    pot: Money
    pots: tuple[PotView, ...]
    to_act: str | None  # who the engine expects to act next (None: nobody, or not yet known)
    actor: str | None  # the player of ``event``, if it has one
    action: str  # ``event`` in words: "raises 0.04 to 0.08", "shows [Ah Kd ...]"
    words: Words  # the same, its amounts apart: ("raises ", Decimal("0.04"), " to ", Decimal("0.08"))
    amount: Money | None  # the chips ``event`` moved, where it moved any
    violations: tuple[Violation, ...]  # raised by this event
    reveal: bool

    @property
    def line(self) -> int:
        return self.event.line if self.event is not None else 0

    def seat(self, name: str) -> SeatView:
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)


def take(
    state: StudState,
    *,
    step: int = 0,
    event: Event | None = None,
    violations: Sequence[Violation] = (),
    hero: str | None = None,
    shown: Mapping[str, frozenset[Card]] | None = None,
    known: Mapping[str, Sequence[Card | None]] | None = None,
    to_act: str | None = None,
) -> Snapshot:
    """A snapshot of ``state``.

    ``shown``: per player, the cards the log has shown so far (their down
    cards among them are face up to the viewer). ``known``: per player, the
    down cards the log knows by the end of the hand; given, the snapshot is a
    reveal one and shows them.
    """
    shown = shown or {}
    swept = state.at_showdown or state.hand_over or bool(state.collects)
    seats = tuple(
        _seat(state, p, swept, p.name == hero, shown.get(p.name, frozenset()),
              None if known is None else known.get(p.name, ()))
        for p in state.players
    )
    in_middle = [(p.name, p.total if swept else p.total - p.street_in, p.live)
                 for p in state.order if p.in_hand]
    pots = tuple(PotView(p.index, p.amount, p.eligible) for p in build_pots(in_middle, state.zero))
    put_in = sum((p.total for p in state.players), state.zero)
    collected = sum((p.collected for p in state.players), state.zero)
    actor = getattr(event, "player", None)
    said = words(event) if event is not None else ()
    return Snapshot(
        step=step, event=event, street=state.street, seats=seats, community=state.community,
        pot=put_in - collected, pots=pots, to_act=to_act, actor=actor if isinstance(actor, str) else None,
        action=written(said), words=said, amount=_chips(event),
        violations=tuple(violations), reveal=known is not None,
    )


_new_seat: Callable[[int, str, Money, Money, Money, Money, tuple[CardView, ...], bool, bool, bool, bool,
                     bool, bool], SeatView] = maker(SeatView)
_CARD_VIEWS: dict[tuple[Card | None, bool, Street], CardView] = {}  # frozen, so shared between snapshots


def _card_view(card: Card | None, up: bool, street: Street) -> CardView:
    key = (card, up, street)
    view = _CARD_VIEWS.get(key)
    if view is None:
        view = _CARD_VIEWS[key] = CardView(card, up, street)
    return view


def _seat(
    state: StudState, p: PlayerState, swept: bool, hero: bool, shown: frozenset[Card],
    known: Sequence[Card | None] | None,
) -> SeatView:
    cards: list[CardView] = []
    down = list(p.down)
    if (state.street is SEVENTH and state.community is None and p.live
            and not p.dealt & (1 << SEVENTH) and len(down) == 2 and p.up):
        down.append(None)  # the river card the log does not print for opponents
    for j, card in enumerate(down):
        if known is not None and j < len(known) and known[j] is not None:
            card = known[j]
        elif known is None and not hero and card not in shown:
            card = None
        cards.append(_card_view(card, False, THIRD if j < 2 else SEVENTH))
    ups = [_card_view(c, True, _UP_STREETS[min(i, 3)]) for i, c in enumerate(p.up)]
    cut = min(2, len(cards))
    cards[cut:cut] = ups
    return _new_seat(
        p.seat, p.name, p.stack + p.collected, ZERO if swept else p.street_in, p.total, p.collected, tuple(cards),
        p.in_hand, p.folded, p.all_in, p.showed, p.mucked, hero,
    )


def _chips(event: Event | None) -> Money | None:
    if isinstance(event, (PostAnte, Collect, UncalledReturned)):
        return event.amount
    if isinstance(event, Action):
        if event.kind in (ActionKind.RAISE, ActionKind.COMPLETE) and event.to is not None:
            return event.to
        return event.amount
    return None


_VERBS = {
    ActionKind.BRING_IN: "brings in for", ActionKind.COMPLETE: "completes to", ActionKind.BET: "bets",
    ActionKind.RAISE: "raises", ActionKind.CALL: "calls", ActionKind.CHECK: "checks", ActionKind.FOLD: "folds",
}

def _action_words(event: Action) -> Words:
    kind = event.kind
    words: Words
    if kind is ActionKind.RAISE and event.to is not None and event.amount:
        words = ("raises ", event.amount, " to ", event.to)
    elif kind is ActionKind.RAISE:
        words = ("raises ", event.amount or event.to or ZERO)
    elif kind is ActionKind.COMPLETE:
        words = ("completes to ", event.to if event.to is not None else event.amount or ZERO)
    elif event.amount is not None and kind not in (ActionKind.CHECK, ActionKind.FOLD):
        words = (f"{_VERBS[kind]} ", event.amount)
    else:
        words = (_VERBS[kind],)
    return words + ((" and is all-in",) if event.all_in else ())


def _deal_words(event: Deal) -> Words:
    parts = [f"[{format_cards(cards)}] {where}" for cards, where in ((event.down, "down"), (event.up, "up")) if cards]
    return ("is dealt " + (" and ".join(parts) if parts else "a card face down"),)


def _collect_words(event: Collect) -> Words:
    pot = "the pot" if event.pot == 0 else f"side pot {event.pot}"
    half = f" ({event.half.value} half)" if event.half is not None else ""
    return ("collects ", event.amount, f" from {pot}{half}")


def _pot_words(event: PotSummary) -> Words:
    return ("total pot ", event.total) + ((", rake ", event.rake) if event.rake is not None else ())


_WORDS: dict[type, Callable[[Any], Words]] = {
    Action: _action_words,
    Deal: _deal_words,
    Collect: _collect_words,
    PostAnte: lambda e: ("posts the ante ", e.amount) + ((" and is all-in",) if e.all_in else ()),
    StreetStart: lambda e: (f"{e.street.label} street" if e.street is not SEVENTH else "7th street (the river)",),
    DealCommunity: lambda e: (f"community card {e.card}: the deck ran short",),
    UncalledReturned: lambda e: ("takes back the uncalled ", e.amount),
    ShowdownStart: lambda e: ("showdown",),
    Show: lambda e: (f"shows [{format_cards(e.cards)}]" + (f" ({e.description})" if e.description else ""),),
    Muck: lambda e: (f"mucks [{format_cards(e.cards)}]" if e.cards else "mucks",),
    NoShow: lambda e: ("does not show",),
    SeatSummary: lambda e: (f"summary: {e.outcome}",),
    PotSummary: _pot_words,
    OpenPairNotice: lambda e: ("an open pair on 4th street: a double bet is allowed",),
    BettingCapped: lambda e: ("betting is capped",),
    NoLowHand: lambda e: ("no low hand qualified",),
    Note: lambda e: (e.text,),
}


def words(event: Event) -> Words:
    """An event in a few words (text and amounts), without the player's name."""
    make = _WORDS.get(type(event))
    return make(event) if make is not None else (type(event).__name__,)


def written(parts: Words, money: Callable[[Money], str] = format_amount) -> str:
    """Words as text, each amount written by ``money``."""
    return "".join(p if isinstance(p, str) else money(p) for p in parts)


def describe(event: Event) -> str:
    """An event in a few words, without the player's name."""
    return written(words(event))


def revealed_cards(event: Event) -> tuple[str, tuple[Card, ...]] | None:
    """The player and the cards an event shows to the table (show, muck, summary line)."""
    if isinstance(event, (Show, Muck, SeatSummary)) and event.cards:
        return event.player, event.cards
    return None


def _to_act(state: StudState, event: Event) -> str | None:
    """Who the engine expects next; nobody while a street is being dealt or shown down."""
    if isinstance(event, (StreetStart, ShowdownStart, Show, Muck, Collect, SeatSummary)) or state.at_showdown:
        return None
    street = state.street
    if street is None or state.hand_over:
        return None
    if street is not SEVENTH:
        bit = 1 << street
        if any(p.live and not p.dealt & bit for p in state.order):
            return None  # still dealing
    return state.peek_to_act()


class Recorder:
    """Apply a hand's events to ``state`` one at a time; :meth:`record` yields a
    snapshot before the first event and after each one.

    ``known``: the down cards the log knows by the end of the hand, per player
    (from a state that saw every event); given, the snapshots reveal them.
    ``hero``: the viewer's player, whose down cards are face up (None: nobody's).
    ``late``: violations found after the last event (closing the hand), added to
    the snapshot of the event on their line, else to the last one.
    """

    def __init__(
        self, state: StudState, *, hero: str | None = None,
        known: Mapping[str, Sequence[Card | None]] | None = None,
    ) -> None:
        self.state = state
        self.hero = hero
        self.known = known
        self.shown: dict[str, frozenset[Card]] = {}

    def record(self, events: Iterable[Event], late: Sequence[Violation] = ()) -> list[Snapshot]:
        state = self.state
        out = [take(state, hero=self.hero, known=self.known)]
        for event in events:
            before = len(state.violations)
            state.apply(event)
            seen = revealed_cards(event)
            if seen is not None:
                self.shown[seen[0]] = self.shown.get(seen[0], frozenset()) | frozenset(seen[1])
            out.append(take(
                state, step=len(out), event=event, violations=state.violations[before:], hero=self.hero,
                shown=self.shown, known=self.known, to_act=_to_act(state, event),
            ))
        if late:
            out = _place_late(out, late)
        return out


def _place_late(snapshots: list[Snapshot], late: Sequence[Violation]) -> list[Snapshot]:
    by_line: dict[int, int] = {}
    for s in snapshots:
        if s.event is not None:
            by_line.setdefault(s.line, s.step)
    extra: dict[int, list[Violation]] = {}
    for v in late:
        extra.setdefault(by_line.get(v.line, len(snapshots) - 1), []).append(v)
    out = list(snapshots)
    for step, found in extra.items():
        out[step] = replace(out[step], violations=out[step].violations + tuple(found))
    return out


__all__ = ["CardView", "PotView", "Recorder", "SeatView", "Snapshot", "Words", "describe", "revealed_cards", "take", "words",
           "written"]
