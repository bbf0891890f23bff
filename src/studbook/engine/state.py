"""The validating state machine of one stud hand.

:class:`StudState` is fed the events of a hand one at a time (:meth:`StudState.apply`)
and keeps what a dealer would: seats, stacks, cards (up, down, known or not),
the street, whose turn it is, the amount to call, the bets made this round,
contributions, all-ins. Whenever an event breaks a rule of ``docs/rules.md`` it
records a :class:`~studbook.engine.result.Violation` (rule id, line, expected
vs found) and then applies the event as the site did, so later checks stay
meaningful. It never raises on bad input.

:meth:`StudState.legal_actions` is the single definition of what the player to
act may do; the checker, the simulator and replayers all use it.

Driving a hand (what a simulator does; ``tests/test_engine_state.py`` runs it)::

    state = StudState.new("stud", Stakes(Decimal(2), Decimal(4), Decimal("0.5"), Decimal(1)),
                          [(1, "ann", Decimal(100)), (3, "bob", Decimal(80))])
    state.post_antes()                              # PostAnte for everyone dealt in
    while state.next_street is not None:
        state.start_street(state.next_street)       # StreetStart
        if state.street is Street.SEVENTH and state.needs_community_card():
            state.apply(DealCommunity(file="", line=0, card=card))
        else:
            for name in state.dealing_order():         # Deal, clockwise
                state.deal(name, up=(...), down=(...))  # 3rd: 2 down 1 up; 4th-6th: 1 up; 7th: 1 down
        while not state.is_betting_over:
            options = state.legal_actions()          # .player, .to_call, .actions
            state.act(options.actions[0])            # or state.apply(option.to_event(player))
        if state.hand_over:                          # everyone else folded
            break
    if (back := state.uncalled()) is not None:       # (player, amount)
        state.apply(UncalledReturned(file="", line=0, player=back[0], amount=back[1]))
    # showdown: Show events in state.showdown_order(); then
    # expected_collections(state) gives the Collect events, finish(state, line) the pots and results.

Amounts follow :class:`~studbook.events.Action`: ``amount`` is chips put in for
bring-in, bet and call, the increment for a raise; ``to`` is the player's
street total after a raise or completion. A completion (raising the bring-in
to the small bet) is ``ActionKind.COMPLETE`` in :meth:`legal_actions`; logs may
write it as a bet (by the bring-in player) or a raise, and the engine reads all three.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable, Iterable, Sequence, Unpack

from studbook.money import Money
from studbook.betting import owed
from studbook import events
from studbook.cards import Card
from studbook.events import (
    Action, BettingCapped, Collect, Deal, DealCommunity, Event, Muck, NoLowHand, OpenPairNotice, PostAnte,
    PotSummary, Seat, SeatSummary, Show, ShowdownStart, Stakes, Street, StreetStart, Structure,
    UncalledReturned, Variant,
)
from studbook.engine.profiles import RuleProfile
from studbook.engine.table import SEVENTH, THIRD
from studbook.engine.table import LegalAction, LegalActions, PlayerState  # public: re-exported
from studbook.engine.rules import bets, deal, order, showdown
from studbook.engine.table import Table, TableOptions


class StudState(Table):
    """The state machine of one stud hand; see the module docstring for the protocol,
    :class:`~studbook.engine.table.Table` for its state and ``engine/rules/`` for the
    checks, one rule book section a module: functions of the state that ask it questions
    and report through its one reporter (:meth:`~studbook.engine.table.Table.report`)."""

    __slots__ = ()

    @classmethod
    def new(
        cls,
        variant: Variant | str,
        stakes: Stakes,
        seats: Sequence[tuple[int, str, Money] | Seat],
        profile: RuleProfile | None = None,
        structure: Structure = Structure.FIXED,
        **options: Unpack[TableOptions],
    ) -> "StudState":
        """A hand before the antes. ``seats``: ``(seat, name, stack)`` or Seat events.

        Options (:class:`~studbook.engine.table.TableOptions`): ``button`` (seat),
        ``chip`` (smallest chip, e.g. Decimal("0.01")), ``bring_in`` (the table's
        bring-in when ``stakes`` does not say) and ``bring_in_hand`` (the earlier hand
        it comes from, named in messages).
        """
        return cls(Variant(variant), stakes, seats, profile, structure, **options)

    def peek_to_act(self) -> str | None:
        """:attr:`to_act` (kept for callers that name it so: asking never changes the state)."""
        return self.to_act

    @property
    def to_act(self) -> str | None:
        """The player due to act now, or None when nobody can act on this street.
        A query: the betting round starts with the next event, at its line."""
        p = order.player_to_act(self)
        return p.name if p is not None else None

    @property
    def is_betting_over(self) -> bool:
        """No one is left to act on this street (or the hand is won)."""
        return self.to_act is None

    @property
    def is_hand_over(self) -> bool:
        """The hand is decided: one live player left, or 7th-street betting is over."""
        if self.hand_over:
            return True
        return self.street is SEVENTH and self.is_betting_over

    @property
    def next_street(self) -> Street | None:
        if self.hand_over:
            return None
        if self.street is None:
            return THIRD
        return None if self.street is SEVENTH else Street(self.street + 1)

    def legal_actions(self) -> LegalActions | None:
        """The player to act and their options; None when nobody is to act.
        A pure query: calling it changes nothing (the round's opening is computed,
        not started, when no event has started it yet)."""
        street = self.street
        if street is None or self.hand_over:
            return None
        if self.round.started:
            p, bring_in_player, optional = self.round.to_act, self.bring_in_player, self.bring_in_optional
        else:
            p, _, bring_in_player, optional = order.round_opening(self)
        if p is None:
            return None
        return LegalActions(p.name, tuple(bets.legal_options(self, p, bring_in_player, optional)),
                            owed(self.round.current_bet, p.street_in, self.zero), street, p.street_in + p.stack)

    def apply(self, event: Event) -> None:
        """Apply one event; violations found are appended to ``self.violations``."""
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def apply_all(self, events: Iterable[Event]) -> None:
        handlers = _HANDLERS
        for event in events:
            try:
                handler = handlers[type(event)]
            except KeyError:
                continue  # an event type defined elsewhere (the engine's own do not raise)
            handler(self, event)

    def post_antes(self, *, file: str = "", line: int = 0) -> list[PostAnte]:
        """Everyone dealt in posts the ante (all-in for less on a short stack), in seat
        order, one a line from ``line`` (every one on line 0 when not given); returns
        the events applied (a simulator writes them)."""
        ante = self.ante or self.zero
        posted: list[PostAnte] = []
        if not ante:
            return posted
        for p in self.order:
            if p.in_hand:
                amount = min(ante, p.stack)
                event = PostAnte(file=file, line=line + len(posted) if line else 0, player=p.name, amount=amount,
                                 all_in=amount == p.stack)
                self.apply(event)
                posted.append(event)
        return posted

    def start_street(self, street: Street, *, line: int = 0) -> None:
        self.apply(StreetStart(file="", line=line, street=street))

    def deal(self, player: str, *, up: Sequence[Card] = (), down: Sequence[Card] = (), line: int = 0) -> None:
        assert self.street is not None
        self.apply(Deal(file="", line=line, player=player, street=self.street, up=tuple(up), down=tuple(down)))

    def act(self, option: LegalAction, *, line: int = 0) -> None:
        """Take one of ``legal_actions()`` for the player to act."""
        player = self.to_act
        if player is None:
            raise ValueError("nobody is to act")
        self.apply(option.to_event(player, line=line))

    # the queries and moves a section defines, as methods (the functions themselves:
    # no wrapper call; each documented where it is defined)
    end_betting = order.end_betting
    """The hand's log ended at ``end_line``: close the betting (rule order.streets)."""
    uncalled = showdown.uncalled
    """The uncalled bet to return now, as (player, amount), or None."""
    unmatched_bet = showdown.unmatched_bet
    """The player whose bet nobody matched and by how much (None, 0 when none)."""
    showdown_order = showdown.showdown_order
    """Live players in the order they show."""

    @property
    def betting_closed(self) -> bool:
        """The betting is over: the showdown began, the hand is won, or nobody is to act."""
        return self.at_showdown or self.hand_over or self.is_betting_over


# ---------------------------------------------------------------------- helpers

def _ignore(state: StudState, event: Event) -> None:
    """An event the engine does not read (chatter, a seat, a note)."""


# every event type of studbook.events is a key (those the engine does not read: _ignore),
# so such an event costs a call, not a raised and caught KeyError (real logs have a few
# a hand: chatter, notes)
_HANDLERS: dict[type, Callable[[StudState, Any], None]] = dict.fromkeys(
    (kind for kind in vars(events).values() if isinstance(kind, type) and issubclass(kind, Event)), _ignore)
_HANDLERS.update({
    Action: bets.on_action,
    Deal: deal.on_deal,
    StreetStart: order.on_street,
    PostAnte: deal.on_ante,
    DealCommunity: deal.on_community,
    UncalledReturned: showdown.on_uncalled,
    ShowdownStart: showdown.on_showdown,
    Show: showdown.on_show,
    Muck: showdown.on_muck,
    Collect: showdown.on_collect,
    PotSummary: showdown.on_summary,
    SeatSummary: deal.on_seat_summary,
    BettingCapped: bets.on_capped,
    OpenPairNotice: bets.on_open_pair_notice,
    NoLowHand: showdown.on_no_low,
})
"""Each event type's rule: a function of the state and the event."""


__all__ = ["LegalAction", "LegalActions", "PlayerState", "StudState"]

