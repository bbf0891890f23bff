"""The validating state machine of one stud hand.

:class:`StudState` is fed the events of a hand one at a time (:meth:`StudState.apply`)
and keeps what a dealer would: seats, stacks, cards (up, down, known or not),
the street, whose turn it is, the amount to call, the bets made this round,
contributions, all-ins. Whenever an event breaks a rule of ``RULES.md`` it
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

import copy
from dataclasses import dataclass
from decimal import Decimal
from operator import attrgetter
from typing import Any, Callable, Iterable, Sequence

from studbook.betting import AGGRESSIVE, completes, named, street_total
from studbook.cards import DECK, Card
from studbook.events import (
    Action,
    ActionKind,
    BettingCapped,
    Collect,
    Deal,
    DealCommunity,
    Event,
    Muck,
    NoLowHand,
    OpenPairNotice,
    PostAnte,
    PotSummary,
    Seat,
    SeatSummary,
    Show,
    ShowdownStart,
    Stakes,
    Street,
    StreetStart,
    Structure,
    UncalledReturned,
    Variant,
)
from studbook.evaluate import board_high_key, board_low_key, bring_in_key
from studbook.money import format_amount

from .profiles import DEFAULT, RuleProfile
from .result import ActionFacts, Violation, new_action_facts, new_violation
from .rules import (
    BET_ALLIN, BET_CAP, BET_CHECK, BET_OPEN_PAIR, BET_SIZE, BRINGIN_ALLIN, BRINGIN_AMOUNT,
    BRINGIN_COMPLETE, BRINGIN_PLAYER, CARDS_COMMUNITY, CARDS_CONSISTENT, CARDS_COUNT, CARDS_UNIQUE,
    CHIPS_STACK, DEAL_ANTE, DEAL_ORDER, DEAL_PATTERN, DEAL_PLAYERS, ORDER_FIRST, ORDER_STREETS,
    ORDER_THIRD, ORDER_TURN, POT_UNCALLED, SHOWDOWN_AWARD, SHOWDOWN_ORDER,
)

ZERO = Decimal(0)
_K = ActionKind
_THIRD, _FOURTH, _SEVENTH = Street.THIRD, Street.FOURTH, Street.SEVENTH
_RAZZ = Variant.RAZZ
_FOLD, _CHECK, _CALL, _BRING_IN = _K.FOLD, _K.CHECK, _K.CALL, _K.BRING_IN
_RAISE, _COMPLETE = _K.RAISE, _K.COMPLETE


_SEAT = attrgetter("seat")


def _fmt(value: Decimal) -> str:
    return format_amount(value)


def _cards(cards: Iterable[Card | None]) -> str:
    return " ".join("??" if c is None else str(c) for c in cards)


class PlayerState:
    """One seat's state during the hand. Read it; change it only through StudState."""

    __slots__ = (
        "name", "seat", "pos", "start", "stack", "ante", "total", "street_in", "returned",
        "collected", "in_hand", "folded", "all_in", "acted", "acted_level", "up", "down",
        "dealt", "last_street", "showed", "mucked", "shown", "sitting_out", "deal_line", "up_ranks",
    )

    def __init__(self, name: str, seat: int, stack: Decimal, in_hand: bool, sitting_out: bool) -> None:
        self.name = name
        self.seat = seat
        self.pos = 0  # index in dealing order
        self.start = stack
        self.stack = stack  # chips behind
        self.ante = ZERO
        self.total = ZERO  # put in this hand (antes included), less uncalled bets returned
        self.street_in = ZERO  # put in on this street (antes excluded)
        self.returned = ZERO
        self.collected = ZERO
        self.in_hand = in_hand
        self.sitting_out = sitting_out
        self.folded = False
        self.all_in = False
        self.acted = False  # acted in this betting round
        self.acted_level = ZERO  # the full bet level when they last acted
        self.up: list[Card] = []
        self.up_ranks = 0  # _rank_sum(up), kept as up grows (order.first)
        self.down: list[Card | None] = []  # None: a down card the log did not show
        self.dealt = 0  # bit per street dealt (1 << street)
        self.deal_line = 0  # line of the 3rd-street deal
        self.last_street = _THIRD
        self.showed = False
        self.mucked = False
        self.shown: tuple[Card, ...] = ()

    @property
    def live(self) -> bool:
        """Dealt in and not folded."""
        return self.in_hand and not self.folded

    @property
    def can_act(self) -> bool:
        return self.in_hand and not self.folded and not self.all_in

    def cards(self) -> list[Card | None]:
        """All cards in dealing order: down, down, up..., down (None where unknown)."""
        if len(self.down) >= 2:
            return [*self.down[:2], *self.up, *self.down[2:]]
        return [*self.down, *self.up]

    def __repr__(self) -> str:
        return f"PlayerState({self.name!r}, seat={self.seat}, stack={self.stack})"


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One thing the player to act may do, with exact amounts.

    ``chips`` is what the action puts in; ``to`` the player's street total after it;
    ``amount`` the figure an :class:`~studbook.events.Action` carries (chips for
    bring-in, bet and call; the increment for a raise; the total for a completion).
    """

    kind: ActionKind
    chips: Decimal = ZERO
    to: Decimal = ZERO
    amount: Decimal | None = None
    all_in: bool = False

    def to_event(self, player: str, *, file: str = "", line: int = 0) -> Action:
        """The :class:`~studbook.events.Action` that takes this option."""
        return Action(
            file=file, line=line, player=player, kind=self.kind, amount=self.amount,
            to=self.to if self.kind in (_K.RAISE, _K.COMPLETE) else None, all_in=self.all_in,
        )


@dataclass(frozen=True, slots=True)
class LegalActions:
    """Who acts next and every option they have (fixed limit: exact amounts).

    For pot- and no-limit hands the aggressive options give the smallest legal
    size; ``max_to`` is the largest street total the player can reach (all-in).
    """

    player: str
    actions: tuple[LegalAction, ...]
    to_call: Decimal
    street: Street
    max_to: Decimal

    def kinds(self) -> tuple[ActionKind, ...]:
        return tuple(a.kind for a in self.actions)

    def find(self, kind: ActionKind) -> LegalAction | None:
        for action in self.actions:
            if action.kind is kind:
                return action
        return None


class StudState:
    """The state of one stud hand; see the module docstring for the protocol.

    Public, read-only attributes: ``variant``, ``structure``, ``stakes``,
    ``profile``, ``street`` (None before 3rd street), ``players`` (seat order),
    ``violations`` (in the order found), ``community`` (the 7th-street community
    card or None), ``bring_in`` (the bring-in amount in force), ``bets`` (bets
    and raises this round, for the cap), ``aggressions`` (bets, raises and completions
    made this round, full or all-in for less), ``current_bet`` (the highest street total),
    ``pot`` (antes and bets so far, less uncalled bets returned) and ``actions``
    (each Action applied, with what it did: :class:`~studbook.engine.result.ActionFacts`).
    """

    # slots: a hand's state has too many attributes for a fast instance dict
    __slots__ = (
        "variant", "structure", "stakes", "profile", "small", "big", "ante", "bring_in", "chip",
        "bring_in_source", "fixed", "violations", "players", "order", "street", "community",
        "current_bet", "bet_level", "bets", "big_bet_made", "hand_over", "showdown_line",
        "bring_in_posted", "ante_posted", "collects", "summary", "no_low_noted", "pot", "actions", "aggressions",
        "_by_name", "_others", "_order_from_deal", "_open_pair", "_to_act", "_round_started",
        "_first_ok", "_opened", "_bring_in_player", "_bring_in_optional", "_round_flagged",
        "_aggressor", "_final_aggressor", "_final_first", "_round_first", "_round_first_bettor",
        "_final_first_bettor", "_last_action_street", "_last_deal_pos", "_seen", "_showdown",
        "_shown_first", "_shown_last", "_show_base", "_returned_line", "_river_done", "_river_due", "_deals_verified",
        "_deck_at_river", "_community_flagged",
    )

    def __init__(
        self,
        variant: Variant,
        stakes: Stakes,
        seats: Sequence[tuple[int, str, Decimal] | Seat],
        profile: RuleProfile | None = None,
        structure: Structure = Structure.FIXED,
        *,
        button: int | None = None,
        chip: Decimal | None = None,
        bring_in: Decimal | None = None,
        bring_in_hand: str | None = None,
    ) -> None:
        self.variant = variant
        self.structure = structure
        self.stakes = stakes
        self.profile = profile or DEFAULT
        self.small = stakes.small_bet
        self.big = stakes.big_bet
        self.ante = stakes.ante
        # the bring-in in force: the header's, else one remembered from the table
        self.bring_in: Decimal | None = stakes.bring_in if stakes.bring_in is not None else bring_in
        self.chip = chip if chip is not None else _chip_of(stakes, seats)
        # where an expected bring-in came from, for rule bringin.amount's message: the
        # earlier hand at this table and stakes that the checker remembered it from
        self.bring_in_source = (f" as in hand {bring_in_hand} at this table and stakes"
                                if bring_in_hand is not None else " at this table")
        self.fixed = structure is Structure.FIXED
        self.violations: list[Violation] = []
        self.players: list[PlayerState] = []
        self._by_name: dict[str, PlayerState] = {}
        for seat in seats:
            if isinstance(seat, Seat):
                out = seat.sitting_out or seat.out_of_hand
                p = PlayerState(seat.player, seat.seat, seat.stack, not out, out)
            else:
                p = PlayerState(seat[1], seat[0], seat[2], True, False)
            if p.name not in self._by_name:
                self.players.append(p)
                self._by_name[p.name] = p
        self.players.sort(key=_SEAT)
        start = 0
        if self.profile.deal_start == "after_button" and button is not None:
            start = next((i for i, q in enumerate(self.players) if q.seat > button), 0)
        self._set_order(start)
        # profile deal_start="first_dealt": the first 3rd-street deal sets the dealing order
        self._order_from_deal = self.profile.deal_start == "first_dealt"
        self.street: Street | None = None
        self.community: Card | None = None
        self.current_bet = ZERO
        self.bet_level = ZERO  # the street total of the last full bet or raise
        self.bets = 0  # bets and raises this round (the completion counts; the bring-in does not)
        self.aggressions = 0  # bets, raises and completions this round, short all-ins included
        self.big_bet_made = False  # 4th street open-pair double bet made
        self._open_pair: bool | None = None
        self._to_act: PlayerState | None = None
        self._round_started = False  # first actor chosen for this street
        self._first_ok: tuple[PlayerState, ...] = ()  # acceptable first actors
        self._opened = False  # 3rd street: bring-in or completion made
        self._bring_in_player: PlayerState | None = None
        self._bring_in_optional = False  # bring-in player all-in from the ante
        self._round_flagged = False  # an order violation this round: skip "unfinished" noise
        self._aggressor: PlayerState | None = None
        self._final_aggressor: PlayerState | None = None
        self._final_first: PlayerState | None = None
        self._round_first: PlayerState | None = None  # who acted first this round (None: nobody yet)
        self._round_first_bettor: PlayerState | None = None  # first bet or completion this round
        self._final_first_bettor: PlayerState | None = None
        self._last_action_street: Street | None = None
        self._last_deal_pos = -1
        self._seen: dict[int, str] = {}  # id(card) -> owner: cards are interned, ids are cheap keys
        self._showdown = False
        self._shown_first: PlayerState | None = None  # showdown.order: the first hand shown
        self._shown_last: PlayerState | None = None  # and the latest
        self._show_base: PlayerState | None = None  # who should have shown first, where known
        self.showdown_line = 0
        self.bring_in_posted: tuple[Decimal, int, bool] | None = None  # amount, line, all-in
        self.ante_posted: Decimal | None = None
        self.collects: list[Collect] = []
        self.pot = ZERO
        self.actions: list[ActionFacts] = []
        self.summary: PotSummary | None = None
        self.no_low_noted = False
        self.hand_over = False  # one live player left
        self._returned_line = 0
        self._river_done = False
        self._river_due = False  # 7th street and _implicit_river not yet run
        self._deals_verified = False  # _check_missing_deals found every deal of this street
        self._deck_at_river: int | None = None
        self._community_flagged = False

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(
        cls,
        variant: Variant | str,
        stakes: Stakes,
        seats: Sequence[tuple[int, str, Decimal] | Seat],
        profile: RuleProfile | None = None,
        structure: Structure = Structure.FIXED,
        **options: object,
    ) -> "StudState":
        """A hand before the antes. ``seats``: ``(seat, name, stack)`` or Seat events.

        Options: ``button`` (seat), ``chip`` (smallest chip, e.g. Decimal("0.01")),
        ``bring_in`` (the table's bring-in when ``stakes`` does not say) and
        ``bring_in_hand`` (the earlier hand it comes from, named in messages).
        """
        return cls(Variant(variant), stakes, seats, profile, structure, **options)  # type: ignore[arg-type]

    def _set_order(self, start: int) -> None:
        """Dealing order: the players by seat, clockwise from index ``start``."""
        self.order: list[PlayerState] = self.players[start:] + self.players[:start]
        for i, q in enumerate(self.order):
            q.pos = i
        # each position's view of the table: the other players, clockwise from the next
        n = len(self.order)
        ring = self.order + self.order
        self._others = [ring[i + 1:i + n] for i in range(n)]

    # ------------------------------------------------------------------ public queries

    def player(self, name: str) -> PlayerState | None:
        return self._by_name.get(name)

    # ------------------------------------------------------------------ read-only views (replayers: engine/snapshot.py)

    @property
    def at_showdown(self) -> bool:
        """The log marked the showdown (a ShowdownStart was applied)."""
        return self._showdown

    def peek_to_act(self) -> str | None:
        """:attr:`to_act`, without starting the betting round on this state: asking starts
        it, which the state must do itself when the next event comes (with that event's line).
        Starting a round only sets the state's own fields, so a shallow copy answers."""
        if self._round_started or self.street is None or self.hand_over:
            return self._to_act.name if self._to_act is not None else None
        clone = copy.copy(self)
        clone.violations = []
        return clone.to_act

    @property
    def live_players(self) -> list[PlayerState]:
        """Players dealt in and not folded, in dealing order."""
        return [p for p in self.order if p.in_hand and not p.folded]

    @property
    def to_act(self) -> str | None:
        """The player due to act now, or None when nobody can act on this street."""
        self._ensure_round()
        return self._to_act.name if self._to_act is not None else None

    @property
    def is_betting_over(self) -> bool:
        """No one is left to act on this street (or the hand is won)."""
        return self.to_act is None

    @property
    def is_hand_over(self) -> bool:
        """The hand is decided: one live player left, or 7th-street betting is over."""
        if self.hand_over:
            return True
        return self.street is _SEVENTH and self.is_betting_over

    @property
    def next_street(self) -> Street | None:
        if self.hand_over:
            return None
        if self.street is None:
            return _THIRD
        return None if self.street is _SEVENTH else Street(self.street + 1)

    def dealing_order(self) -> list[str]:
        """Who receives cards on the current street, in dealing order."""
        return [p.name for p in self.order if p.in_hand and not p.folded]

    def needs_community_card(self) -> bool:
        """True on 7th street when the deck cannot give every live player a card."""
        return self._deck_left() < self._live_count()

    def _live_count(self) -> int:
        """Players dealt in and not folded."""
        n = 0
        for p in self.order:
            if p.in_hand and not p.folded:
                n += 1
        return n

    def _deck_left(self) -> int:
        """Cards left in the deck before the 7th-street deal (no burns online)."""
        if self._deck_at_river is not None:
            return self._deck_at_river
        return 52 - self._cards_dealt()

    def to_call(self, name: str) -> Decimal:
        p = self._by_name[name]
        return max(self.current_bet - p.street_in, ZERO)

    def legal_actions(self) -> LegalActions | None:
        """The player to act and their options; None when nobody is to act."""
        self._ensure_round()
        p = self._to_act
        if p is None or self.street is None:
            return None
        return LegalActions(p.name, tuple(self._options(p)), max(self.current_bet - p.street_in, ZERO),
                            self.street, p.street_in + p.stack)

    # ------------------------------------------------------------------ driving

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
                continue  # events the engine does not read (chatter, seats)
            handler(self, event)

    # conveniences for simulators: build the event and apply it
    def post_antes(self, *, line: int = 0) -> None:
        ante = self.ante or ZERO
        if not ante:
            return
        for p in self.order:
            if p.in_hand:
                amount = min(ante, p.stack)
                self.apply(PostAnte(file="", line=line, player=p.name, amount=amount,
                                    all_in=amount == p.stack))

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

    # ------------------------------------------------------------------ violations

    def flag(self, rule: str, line: int, message: str) -> None:
        self.violations.append(new_violation(rule, line, message))

    # ------------------------------------------------------------------ antes

    def _on_ante(self, e: PostAnte) -> None:
        p = self._by_name.get(e.player)
        amount = e.amount
        posted = self.ante_posted
        expected = self.ante if self.ante is not None else posted
        if (p is not None and self.street is None and not p.ante and amount < p.stack and not e.all_in
                and (expected is None or amount == expected)):
            # fast path: the ante in force (or the first one posted), once, before the deal,
            # with chips left behind
            p.in_hand = True
            if posted is None:
                self.ante_posted = amount
            p.stack -= amount
            p.total += amount
            self.pot += amount
            p.ante += amount
            p.street_in = ZERO  # antes do not count toward bets
            return
        self._ante_checked(p, e)

    def _ante_checked(self, p: PlayerState | None, e: PostAnte) -> None:
        if p is None:
            self.flag(DEAL_ANTE, e.line, f"{e.player} posts an ante but has no seat")
            return
        if self.street is not None:
            self.flag(DEAL_ANTE, e.line, f"{p.name} posts the ante after the deal began")
        if p.ante:
            self.flag(DEAL_ANTE, e.line, f"{p.name} posts a second ante")
        self._deal_in(p)
        expected = self.ante if self.ante is not None else self.ante_posted
        amount = e.amount
        if self.ante_posted is None and (amount < p.stack or not e.all_in):
            self.ante_posted = amount
        if expected is not None and amount != expected:
            short_all_in = amount < expected and amount == p.stack
            if not short_all_in:
                self.flag(DEAL_ANTE, e.line,
                          f"ante should be {_fmt(expected)}, not {_fmt(amount)} from {p.name}")
        self._put(p, amount, e.line)
        p.ante += amount
        p.street_in = ZERO  # antes do not count toward bets

    # ------------------------------------------------------------------ streets

    def _on_street(self, e: StreetStart) -> None:
        new = e.street
        if self.hand_over:
            self.flag(ORDER_STREETS, e.line, f"{new.label} street after the hand was won")
        if self.street is None:
            self._begin_hand(e.line)
            if new is not _THIRD:
                self.flag(ORDER_STREETS, e.line, f"the hand should start on 3rd street, not {new.label}")
        else:
            self._close_round(e.line, new)
            if new != self.street + 1:
                expected = Street(self.street + 1).label if self.street < _SEVENTH else "the showdown"
                self.flag(ORDER_STREETS, e.line, f"after {self.street.label} street comes {expected}, not {new.label}")
        self.street = new
        self._river_due = new is _SEVENTH and not self._river_done
        if new is _SEVENTH:
            self._deck_at_river = 52 - self._cards_dealt()
        for p in self.order:
            p.street_in = ZERO
            p.acted = False
            p.acted_level = ZERO
        self.current_bet = ZERO
        self.bet_level = ZERO
        self.bets = 0
        self.aggressions = 0
        self.big_bet_made = False
        self._open_pair = None
        self._to_act = None
        self._round_started = False
        self._round_flagged = False
        self._aggressor = None
        self._round_first = None
        self._round_first_bettor = None
        self._last_deal_pos = -1
        self._deals_verified = False

    def _begin_hand(self, line: int) -> None:
        dealt = [p for p in self.order if p.in_hand]
        if not 2 <= len(dealt) <= 8:
            self.flag(DEAL_PLAYERS, line, f"{len(dealt)} players dealt in; stud needs 2 to 8")

    def _close_round(self, line: int, until: Street | str) -> None:
        """Checks when a betting round ends: at ``until``, a new street, the showdown or the end."""
        if self.street is None or self.hand_over:
            return
        if self._river_due:
            self._implicit_river(line)
        self._check_missing_deals(line)
        self._ensure_round()
        p = self._to_act
        if p is not None and not self._round_flagged:
            what = f"{until.label} street" if isinstance(until, Street) else until
            if self._round_first is None:
                self.flag(ORDER_STREETS, line,
                          f"no betting on {self.street.label} street before {what}; {p.name} was to act")
            else:
                self.flag(ORDER_STREETS, line,
                          f"{self.street.label} street betting unfinished before {what}: {p.name} to act")
        if self._round_first is not None:
            self._last_action_street = self.street
            self._final_aggressor = self._aggressor
            self._final_first = self._round_first
            self._final_first_bettor = self._round_first_bettor

    def _implicit_river(self, line: int) -> None:
        """7th-street down cards the log does not print (opponents'), once betting starts."""
        self._river_done = True
        self._river_due = False
        if self.community is None and not self._community_flagged and self.needs_community_card():
            self._community_flagged = True
            live = self._live_count()
            self.flag(CARDS_COMMUNITY, line,
                      f"deck has {self._deck_left()} cards for {live} players: a community card is due")
            return
        bit = 1 << _SEVENTH
        for p in self.order:
            if p.in_hand and not p.folded and not p.dealt & bit and self.community is None:
                p.dealt |= bit
                p.down.append(None)

    def _check_missing_deals(self, line: int) -> None:
        street = self.street
        if self._deals_verified or not self.profile.logs_every_up_card or street is None or street is _SEVENTH:
            return
        bit = 1 << street
        for p in self.order:
            if not p.dealt & bit and p.in_hand and not p.folded:
                p.dealt |= bit  # one report per street
                self.flag(DEAL_PATTERN, line, f"{p.name} received no {street.label}-street card")
        # every live player now has this street's bit: until someone else is dealt in
        # (_deal_in), checking again would find nothing
        self._deals_verified = True

    def _deal_in(self, p: PlayerState) -> None:
        """``p`` takes part after all (they were marked out of the hand)."""
        p.in_hand = True
        self._deals_verified = False

    # ------------------------------------------------------------------ cards

    def _on_deal(self, e: Deal) -> None:
        p: PlayerState | None = self._by_name.get(e.player)
        if p is None:
            self._deal_checked(p, e)
            return
        street = e.street
        if self._order_from_deal and self.street is _THIRD:
            self._order_from_deal = False
            self._set_order(self.players.index(p))
        up = e.up
        # fast paths: the one up card (3rd street: and the hero's two down cards) to a
        # live player, in dealing order, on the street in play, cards not seen before
        if (street is self.street and len(up) == 1 and not p.folded and p.in_hand
                and p.pos > self._last_deal_pos and id(up[0]) not in self._seen):
            card = up[0]
            if street is _THIRD:
                if self._deal_third(p, e, card):
                    return
            elif street is not _SEVENTH and not e.down and not p.dealt & (bit := 1 << street):
                before = e.before
                if not before or list(before) == p.up or list(before) == p.cards():
                    self._last_deal_pos = p.pos
                    p.dealt |= bit
                    self._seen[id(card)] = p.name
                    p.up.append(card)
                    p.up_ranks += _RANK_NIBBLE[card.rank]
                    p.last_street = street
                    return
        self._deal_checked(p, e)

    def _deal_third(self, p: PlayerState, e: Deal, card: Card) -> bool:
        """The fast path's 3rd-street deal; False (nothing done) when it needs the checks."""
        down = e.down
        seen = self._seen
        if e.before or p.dealt & 8:  # 8: 1 << _THIRD
            return False
        if down and (len(down) != 2 or down[0] is down[1] or card is down[0] or card is down[1]
                     or id(down[0]) in seen or id(down[1]) in seen):
            return False
        self._last_deal_pos = p.pos
        p.dealt |= 8
        p.deal_line = e.line
        name = p.name
        seen[id(card)] = name
        for c in down:
            seen[id(c)] = name
        p.up.append(card)
        p.up_ranks += _RANK_NIBBLE[card.rank]
        p.down[:0] = down or (None, None)
        return True

    def _deal_checked(self, p: PlayerState | None, e: Deal) -> None:
        street = self.street
        if p is None:
            self.flag(DEAL_ORDER, e.line, f"cards dealt to {e.player}, who has no seat")
            return
        if street is None:
            self.flag(ORDER_STREETS, e.line, "cards dealt before 3rd street")
            return
        if e.street is not street:
            self.flag(DEAL_PATTERN, e.line, f"{e.street.label}-street cards dealt during {street.label} street")
        if not p.in_hand:
            if street is _THIRD:
                self._deal_in(p)  # a player marked sitting out but dealt in
            else:
                self.flag(DEAL_ORDER, e.line, f"{p.name} was not dealt in but receives cards")
        elif p.folded:
            self.flag(DEAL_ORDER, e.line, f"{p.name} folded but receives {street.label}-street cards")
        if self.profile.deals_in_order:
            if p.pos < self._last_deal_pos:
                self.flag(DEAL_ORDER, e.line, f"{p.name} dealt out of clockwise order")
            self._last_deal_pos = p.pos
        bit = 1 << street
        if p.dealt & bit:
            self.flag(DEAL_PATTERN, e.line, f"{p.name} dealt twice on {street.label} street")
            self._check_before(p, e)
            self._see_all(p, e.up, e.line)
            self._see_all(p, e.down, e.line)
            return
        p.dealt |= bit
        if street is _THIRD:
            p.deal_line = e.line
        self._check_before(p, e)
        want_up, want_down = (1, 2) if street is _THIRD else ((0, 1) if street is _SEVENTH else (1, 0))
        up, down = e.up, e.down
        if street is _SEVENTH and self.community is not None:
            self.flag(CARDS_COMMUNITY, e.line,
                      f"{p.name} gets a 7th-street card although the community card {self.community} was dealt")
        elif street is _SEVENTH and not self._community_flagged and self.needs_community_card():
            self._community_flagged = True
            live = self._live_count()
            self.flag(CARDS_COMMUNITY, e.line,
                      f"deck has {self._deck_left()} cards for {live} players: a community card is due")
        if len(up) > want_up or len(down) > want_down:
            self.flag(DEAL_PATTERN, e.line,
                      f"{street.label} street deals {want_down} down and {want_up} up to {p.name}, "
                      f"not {len(down)} down and {len(up)} up")
        elif self.profile.logs_every_up_card and want_up and not up:
            self.flag(DEAL_PATTERN, e.line, f"{p.name}'s {street.label}-street up card is missing")
        self._see_all(p, up, e.line)
        self._see_all(p, down, e.line)
        p.up.extend(up)
        p.up_ranks = _rank_sum(p.up)
        if street is _THIRD:
            known = list(down[:2])
            p.down[:0] = known + [None] * (2 - len(known))
            if len(down) > 2:
                p.down.extend(down[2:])
        elif down or want_down:
            p.down.extend(down or (None,))
        p.last_street = street

    def _check_before(self, p: PlayerState, e: Deal) -> None:
        if not e.before:
            return
        before = list(e.before)
        if before == p.up:
            return
        known = p.cards()
        if len(before) == len(known) and all(k is None or k is b for k, b in zip(known, before)):
            # the hero's hole cards, shown again: learn any we did not know
            self._learn(p, before, e.line, known)
            return
        self.flag(CARDS_CONSISTENT, e.line,
                  f"{p.name}'s earlier cards were [{_cards(known)}], the log now shows [{_cards(before)}]")

    def _see(self, p: PlayerState, card: Card, line: int) -> None:
        owner = self._seen.get(id(card))
        if owner is None:
            self._seen[id(card)] = p.name
        elif owner != p.name:
            self.flag(CARDS_UNIQUE, line, f"{card} is {owner}'s card but also appears for {p.name}")

    def _see_all(self, p: PlayerState, cards: Iterable[Card], line: int) -> None:
        for card in cards:
            self._see(p, card, line)

    def _cards_dealt(self) -> int:
        n = 0
        for p in self.order:
            if p.in_hand:
                n += len(p.up) + len(p.down)
        return n

    def _on_community(self, e: DealCommunity) -> None:
        if self.street is not _SEVENTH:
            self.flag(CARDS_COMMUNITY, e.line, "a community card outside 7th street")
        elif self.community is not None:
            self.flag(CARDS_COMMUNITY, e.line, "a second community card")
        elif not self.needs_community_card():
            live = self._live_count()
            self.flag(CARDS_COMMUNITY, e.line,
                      f"community card dealt although {self._deck_left()} cards remain for {live} players")
        owner = self._seen.get(id(e.card))
        if owner is not None and owner != "community":
            self.flag(CARDS_UNIQUE, e.line, f"community card {e.card} is also {owner}'s card")
        self._seen[id(e.card)] = "community"
        self.community = e.card

    # ------------------------------------------------------------------ turn order

    def _ensure_round(self, line: int = 0) -> None:
        if self._round_started or self.street is None or self.hand_over:
            return
        self._round_started = True
        if line:
            self._check_missing_deals(line)
        if self.street is _THIRD:
            self._start_third()
        else:
            self._start_later()

    def _start_third(self) -> None:
        dealt = [p for p in self.order if p.in_hand and not p.folded]
        if self.ante or self.ante_posted:
            for p in dealt:
                if not p.ante and p.start > ZERO:
                    self.flag(DEAL_ANTE, p.deal_line, f"{p.name} was dealt in without posting the ante")
        keys = _BRING_IN_KEYS[self.variant]
        able = 0
        low: PlayerState | None = None  # the lowest door card (razz: the highest)
        low_key = (99, 99)
        doors = 0
        for p in dealt:
            if not p.all_in:
                able += 1
            if p.up:
                doors += 1
                key = keys[id(p.up[0])]
                if key < low_key:
                    low, low_key = p, key
        if able < 2:
            # rule order.streets: everyone else is all-in from the ante; no bring-in, no betting
            self._to_act = None
            return
        if doors < len(dealt) or low is None:
            # door cards unknown: accept whoever the log has bring in
            self._bring_in_player = None
            self._first_ok = tuple(p for p in dealt if p.can_act)
            self._to_act = self._first_ok[0] if self._first_ok else None
            return
        self._bring_in_player = low
        if low.can_act:
            self._first_ok = (low,)
            self._to_act = low
            return
        # rule bringin.allin: all-in from the ante; the player to their left acts first
        self._bring_in_optional = True
        nxt = self._next_from(low.pos)
        self._first_ok = (nxt,) if nxt is not None else ()
        self._to_act = nxt

    def _start_later(self) -> None:
        live: list[PlayerState] = []
        able = 0
        short = False  # a live board with fewer up cards than the street deals
        expected_up = 4 if self.street is _SEVENTH else (self.street or 3) - 2
        for p in self.order:
            if p.folded or not p.in_hand:
                continue
            live.append(p)
            if not p.all_in:
                able += 1
            if len(p.up) < expected_up:
                short = True
        if len(live) < 2 or able < 2:
            self._to_act = None  # at most one player can bet: no betting round
            return
        if short:
            self._first_ok = tuple([p for p in live if not p.all_in])  # boards unknown: any able player may start
            self._to_act = self._first_ok[0]
            return
        best = self._best_board(live)
        if best.can_act:
            self._first_ok = (best,)
            self._to_act = best
            return
        nxt = self._next_from(best.pos)
        best_able = self._best_board([p for p in live if not p.all_in])
        mode = self.profile.first_skip_all_in
        if mode == "next_clockwise":
            self._first_ok = (nxt,) if nxt else ()
        elif mode == "best_active":
            self._first_ok = (best_able,)
        else:
            self._first_ok = tuple(dict.fromkeys(q for q in (nxt, best_able) if q is not None))
        self._to_act = self._first_ok[0] if self._first_ok else None

    def _board(self, p: PlayerState) -> list[Card]:
        if self.community is not None:
            return [*p.up, self.community]
        return p.up

    def _best_board(self, players: list[PlayerState]) -> PlayerState:
        """The best board showing (``players`` in dealing order, so ties go to the first)."""
        low = self.variant is _RAZZ
        community = self.community
        known = _BOARD_KEYS[low]
        best = players[0]
        best_key: tuple[int, ...] | None = None
        for q in players:
            key = known.get(q.up_ranks) if community is None and len(q.up) <= 15 else None
            if key is None:
                key = _board_key(q.up if community is None else [*q.up, community], low)
            if best_key is None or key < best_key:
                best, best_key = q, key
        return best

    def _first_reason(self, p: PlayerState) -> str:
        board = " ".join(str(c) for c in self._board(p))
        return f"{'lowest' if self.variant is _RAZZ else 'best'} board {board}"

    def _next_from(self, pos: int, able: int = -1) -> PlayerState | None:
        """The next player after position ``pos`` who still has to act this round."""
        order = self.order
        n = len(order)
        current = self.current_bet
        if able < 0:
            able = 0
            for q in order:
                if q.in_hand and not q.folded and not q.all_in:
                    able += 1
        for k in range(1, n + 1):
            q = order[(pos + k) % n]
            if not q.in_hand or q.folded or q.all_in:
                continue
            if q.street_in < current:
                return q
            if not q.acted and able >= 2:
                return q
        return None

    # ------------------------------------------------------------------ legal options

    def _units(self) -> tuple[Decimal, ...]:
        street = self.street
        if street is _THIRD:
            return (self.small,)
        if street is _FOURTH:
            if self.variant is not _RAZZ and self._has_open_pair():
                return (self.big,) if self.big_bet_made else (self.small, self.big)
            return (self.small,)
        return (self.big,)

    def _has_open_pair(self) -> bool:
        """4th street: a live board shows an open pair, or the log hides a live board
        (rule bet.open_pair is not judged on boards the engine cannot see)."""
        if self._open_pair is None:
            self._open_pair = any(
                len(p.up) < 2 or p.up[0].rank == p.up[1].rank for p in self.order if p.in_hand and not p.folded)
        return self._open_pair

    def _capped(self) -> bool:
        if self.bets < self.profile.cap_bets:
            return False
        if self.profile.uncapped_heads_up and self._live_count() == 2:
            return False
        return True

    def _options(self, p: PlayerState) -> list[LegalAction]:
        stack = p.stack
        to_call = max(self.current_bet - p.street_in, ZERO)
        out: list[LegalAction] = []
        unopened = self.street is _THIRD and not self._opened
        if unopened and self._bring_in_player is not None:
            bring_in = self.bring_in if self.bring_in is not None else _default_bring_in(self.small)
            if self._bring_in_optional:
                out.append(LegalAction(_K.FOLD))
            chips = min(bring_in, stack)
            out.append(LegalAction(_K.BRING_IN, chips, p.street_in + chips, chips, chips == stack))
            if stack > bring_in:
                to = p.street_in + min(self.small, stack)
                out.append(LegalAction(_K.COMPLETE, to - p.street_in, to, to, stack <= self.small))
            return out
        if to_call > ZERO:
            out.append(LegalAction(_K.FOLD))
            chips = min(to_call, stack)
            out.append(LegalAction(_K.CALL, chips, p.street_in + chips, chips, chips == stack))
        else:
            out.append(LegalAction(_K.CHECK))
        if self.fixed and completes(self.street, self.bets > 0):
            kind = _K.COMPLETE
        else:  # (pot- and no-limit hands offer a raise of the bring-in as a raise)
            kind = _K.BET if self.current_bet == ZERO else _K.RAISE
        most = p.street_in + stack
        for size in self._raise_targets(p):
            to = min(size, most)
            amount = to if kind is _K.COMPLETE else to - p.street_in if kind is _K.BET else to - self.current_bet
            out.append(LegalAction(kind, to - p.street_in, to, amount, to == most))
        return out

    def _raise_targets(self, p: PlayerState) -> tuple[Decimal, ...]:
        """The street totals ``p`` may bet, raise or complete to: the one definition of
        legal sizes, which legal_actions() offers and the checker accepts (rules
        bet.size, bet.open_pair, bet.cap, bet.allin, bringin.complete). Fixed limit:
        each legal size; pot- and no-limit: the smallest; () when ``p`` may only call,
        check or fold. A player may also go all-in for less (legal_actions() offers
        the size capped at their stack)."""
        stack = p.stack
        current = self.current_bet
        if stack <= current - p.street_in:
            return ()
        if not any(q is not p and q.can_act for q in self.order):
            return ()  # everyone else is all-in: a raise could not be called
        third_open = completes(self.street, self.bets > 0)
        if not third_open and p.acted and p.acted_level == self.bet_level and p.street_in < current:
            return ()  # rule bet.allin: a short all-in raise does not reopen the betting
        most = p.street_in + stack
        if not self.fixed:
            step = max(current - self.bet_level, self.small) if current else self.small
            if self.street is _THIRD and not self._opened:
                step = self.small
            return (current + step,)
        if self._capped():
            return ()
        if third_open:
            return (self.small,) if min(self.small, most) > current else ()
        if current == ZERO:
            return self._units()
        level = self.bet_level if current > self.bet_level else current
        return tuple(level + unit for unit in self._units())

    # ------------------------------------------------------------------ actions

    def _on_action(self, e: Action) -> None:
        p = self._by_name.get(e.player)
        street = self.street
        if p is None or street is None:
            self._misplaced_action(p, e)
            self._misplaced_facts(e)
            return
        if p is not self._to_act or self._river_due:
            self._start_turn(p, e)
        # the action's facts as it finds the round (published on the result: the frames' rows)
        bets, pot, before = self.aggressions, self.pot, p.total
        to_call = self.current_bet - p.street_in
        if self._round_first is None:
            self._round_first = p
        self._last_action_street = street
        kind = e.kind
        if kind is _CHECK:
            self._check(p, e)
        elif kind is _CALL:
            self._call(p, e)
        elif kind is _FOLD:
            self._fold(p, e)
        elif kind is _BRING_IN:
            self._bring_in(p, e)
        else:
            self._aggress(p, e)
        p.acted = True
        p.acted_level = self.bet_level
        p.last_street = street
        self.actions.append(new_action_facts(e, street, named(kind, street, bets > 0), p.total - before,
                                             to_call if to_call > ZERO else ZERO, bets, pot))
        self._advance(p)

    def _misplaced_facts(self, e: Action) -> None:
        """The facts of an action the engine could not apply: it put nothing in."""
        bets = self.aggressions
        self.actions.append(new_action_facts(e, self.street, named(e.kind, self.street, bets > 0), ZERO, ZERO,
                                             bets, self.pot))
        if e.kind in AGGRESSIVE:
            self.aggressions += 1

    def _misplaced_action(self, p: PlayerState | None, e: Action) -> None:
        if p is None:
            self.flag(ORDER_TURN, e.line, f"{e.player} acts but has no seat")
        else:
            self.flag(ORDER_STREETS, e.line, f"{p.name} acts before 3rd street")

    def _start_turn(self, p: PlayerState, e: Action) -> None:
        """An action by someone other than the known player to act, or the first of a round
        (the player to act is only known once the round has started)."""
        if self._river_due:
            self._implicit_river(e.line)
        if not self._round_started:
            self._ensure_round(e.line)
        if self._to_act is not p:
            self._check_turn(p, e)

    def _check_turn(self, p: PlayerState, e: Action) -> None:
        expected = self._to_act
        first = self._round_first is None
        if p.folded:
            self.flag(ORDER_TURN, e.line, f"{p.name} folded earlier but acts again")
            self._round_flagged = True
            return
        if not p.in_hand:
            self.flag(ORDER_TURN, e.line, f"{p.name} was not dealt in but acts")
            self._deal_in(p)
            self._round_flagged = True
            return
        if p.all_in:
            self.flag(ORDER_TURN, e.line, f"{p.name} is all-in and cannot act")
            self._round_flagged = True
            return
        if expected is p:
            return
        if first and p in self._first_ok:
            return
        self._round_flagged = True
        street = self.street
        if expected is None:
            able = sum(1 for q in self.order if q.can_act)
            if first and able < 2:
                self.flag(ORDER_STREETS, e.line,
                          f"{p.name} acts on {street.label} street, but at most one player can still bet")  # type: ignore[union-attr]
            else:
                self.flag(ORDER_TURN, e.line,
                          f"{p.name} acts after the {street.label}-street betting was complete")  # type: ignore[union-attr]
            return
        if first and street is _THIRD:
            if self._bring_in_optional:
                low = self._bring_in_player
                self.flag(BRINGIN_ALLIN, e.line,
                          f"{low.name if low else '?'} is all-in from the ante: {expected.name}, on their left, "
                          f"acts first, not {p.name}")
            else:
                self.flag(BRINGIN_PLAYER, e.line, self._bring_in_message(expected, p))
            return
        if first:
            self.flag(ORDER_FIRST, e.line,
                      f"{expected.name} ({self._first_reason(expected)}) acts first on {street.label} street, "  # type: ignore[union-attr]
                      f"not {p.name} ({self._first_reason(p)})")
            return
        rule = ORDER_THIRD if street is _THIRD else ORDER_TURN
        self.flag(rule, e.line, f"{expected.name} is to act, not {p.name}")

    def _bring_in_message(self, expected: PlayerState, p: PlayerState) -> str:
        which = "highest" if self.variant is _RAZZ else "lowest"
        theirs = f" ({p.up[0]})" if p.up else ""
        return (f"bring-in should be {expected.name} ({expected.up[0]}, {which} up card), "
                f"not {p.name}{theirs}")

    def _advance(self, p: PlayerState) -> None:
        """After ``p`` acted: is the hand won, and who acts next?

        Next is the first player after ``p`` (clockwise) who can act and owes chips or
        has not acted this round; ``p`` again only when they still owe and nobody else
        does; with fewer than two able players, only someone who owes acts.
        """
        current = self.current_bet
        if p.folded or p.all_in or not p.in_hand or p.street_in < current:
            self._advance_scan(p, current)
            return
        # p can still act and owes nothing (a check, call or raise): the first such player
        # after them who owes or has not acted is next (with p, two can act); else nobody
        others_live = False
        for q in self._others[p.pos]:
            if q.folded or not q.in_hand:
                continue
            others_live = True
            if not q.all_in and (q.street_in < current or not q.acted):
                self._to_act = q
                return
        if others_live:
            self._to_act = None
        else:
            self._win_by_folds()

    def _advance_scan(self, p: PlayerState, current: Decimal) -> None:
        """_advance in general (``p`` folded, all-in or still owing); the scan stops as
        soon as later players cannot change the answer."""
        able = stuck = 0  # live players who can act, and who are all-in
        p_owes = False
        if not p.folded and p.in_hand:
            if p.all_in:
                stuck = 1
            else:
                able = 1
                p_owes = p.street_in < current
        found: PlayerState | None = None  # the first who owes or has not acted
        owes: PlayerState | None = None  # the first who owes
        for q in self._others[p.pos]:
            if q.folded or not q.in_hand:
                continue
            if q.all_in:
                stuck += 1
                continue
            able += 1
            if q.street_in < current:
                if owes is None:
                    owes = q
                    if found is None:
                        found = q
            elif found is None and not q.acted:
                found = q
            if found is not None and able >= 2 and (owes is not None or not p_owes):
                break  # (two able players are two live ones)
        if able + stuck <= 1:
            self._win_by_folds()
        elif owes is None and p_owes:
            self._to_act = p
        elif able < 2:
            self._to_act = owes
        else:
            self._to_act = found

    def _win_by_folds(self) -> None:
        """One live player is left: the hand is won."""
        self.hand_over = True
        self._to_act = None
        self._last_action_street = self.street
        self._final_aggressor = self._aggressor
        self._final_first = self._round_first
        self._final_first_bettor = self._round_first_bettor

    def _fold(self, p: PlayerState, e: Action) -> None:
        if self.street is _THIRD and not self._opened and p is self._bring_in_player and not self._bring_in_optional:
            self.flag(BRINGIN_PLAYER, e.line, f"{p.name} must bring in or complete, not fold")
            self._opened = True
        p.folded = True

    def _check(self, p: PlayerState, e: Action) -> None:
        if self.street is _THIRD and not self._opened and self._bring_in_player is not None:
            if self._bring_in_optional:
                self.flag(BRINGIN_ALLIN, e.line, f"{p.name} must bring in, complete or fold, not check")
            else:
                self.flag(BET_CHECK, e.line, f"{p.name} checks but must bring in")
            return
        owed = self.current_bet - p.street_in
        if owed > ZERO:
            self.flag(BET_CHECK, e.line, f"{p.name} checks facing {_fmt(owed)} to call")

    def _call(self, p: PlayerState, e: Action) -> None:
        owed = self.current_bet - p.street_in
        amount = e.amount
        if amount is None:
            amount = min(owed, p.stack)
        if amount != owed or owed <= ZERO:
            self._check_call(p, e, owed, amount)
        self._put(p, amount, e.line, e.all_in)

    def _check_call(self, p: PlayerState, e: Action, owed: Decimal, amount: Decimal) -> None:
        """A call of other than exactly what is owed (or of nothing)."""
        if owed <= ZERO:
            if self.street is _THIRD and not self._opened and self._bring_in_player is not None:
                self.flag(BRINGIN_PLAYER, e.line, f"{p.name} calls before anyone brought in")
            else:
                self.flag(BET_CHECK, e.line, f"{p.name} calls {_fmt(amount)} with nothing to call")
        elif amount > owed and self._short_bring_in_unknown():
            # a bring-in all-in for less at a table whose bring-in we do not know yet:
            # the first caller shows the normal amount (rule bringin.allin)
            self.bring_in = self.current_bet = self.bet_level = p.street_in + amount
        elif amount > owed:
            self.flag(BET_SIZE, e.line, f"{p.name} calls {_fmt(amount)}, but only {_fmt(owed)} is owed")
        elif amount < owed and amount < p.stack:
            self.flag(BET_ALLIN, e.line,
                      f"{p.name} calls {_fmt(amount)} of {_fmt(owed)} without being all-in "
                      f"({_fmt(p.stack - amount)} behind)")

    def _short_bring_in_unknown(self) -> bool:
        b = self._bring_in_player
        return (self.street is _THIRD and self.bets == 0 and self.bring_in is None
                and b is not None and b.all_in and self.current_bet == b.street_in)

    def _bring_in(self, p: PlayerState, e: Action) -> None:
        amount = e.amount if e.amount is not None else (e.to or ZERO)
        if self.street is not _THIRD or self._opened:
            if not self._round_flagged:
                self.flag(BRINGIN_PLAYER, e.line, f"{p.name} brings in after the betting was opened")
        self.bring_in_posted = (amount, e.line, amount >= p.stack)
        expected = self.bring_in
        all_in_short = amount >= p.stack and (expected is None or amount < expected)
        if self.fixed and not all_in_short:
            if not ZERO < amount < self.small:
                self.flag(BRINGIN_AMOUNT, e.line,
                          f"bring-in {_fmt(amount)} must be more than zero and less than the small bet {_fmt(self.small)}")
            elif expected is not None and amount != expected:
                self.flag(BRINGIN_AMOUNT, e.line,
                          f"bring-in should be {_fmt(expected)}{self.bring_in_source}, not {_fmt(amount)}")
        if self.bring_in is None and not all_in_short:
            self.bring_in = amount
        self._opened = True
        self._put(p, amount, e.line, e.all_in)
        level = p.street_in if not all_in_short or expected is None else max(expected, p.street_in)
        if level > self.current_bet:
            self.current_bet = level
            self.bet_level = level

    def _aggress(self, p: PlayerState, e: Action) -> None:
        kind = e.kind
        self.aggressions += 1
        before = p.street_in
        to = street_total(kind, e.amount, e.to, before, self.current_bet)
        current = self.current_bet
        chips = to - before
        all_in = chips >= p.stack
        if to <= current:
            self.flag(BET_SIZE, e.line,
                      f"{p.name} {kind.value}s to {_fmt(to)}, which does not raise the {_fmt(current)} to call")
            self._put(p, chips, e.line, e.all_in)
            return
        third_open = completes(self.street, self.bets > 0)
        if self.fixed:
            self._check_aggression(p, e, to, all_in, third_open)
        self._opened = True
        if self._round_first_bettor is None:
            self._round_first_bettor = p
        self._put(p, chips, e.line, e.all_in)
        self._raise_levels(p, to, third_open)

    def _check_aggression(self, p: PlayerState, e: Action, to: Decimal, all_in: bool, third_open: bool) -> None:
        """A bet, raise or completion is legal when legal_actions() offers its size
        (:meth:`_raise_targets`), or it is an all-in for less than the size offered;
        otherwise the violation names the rule it breaks and what was legal."""
        if e.kind is _COMPLETE and not third_open:
            self.flag(BRINGIN_COMPLETE, e.line,
                      f"{p.name} completes, but only a player facing just the bring-in may complete")
            return
        offered = self._raise_targets(p)
        if to in offered or (all_in and offered and to < max(offered)):
            return
        if third_open:
            self.flag(BRINGIN_COMPLETE, e.line,
                      f"the completion is to exactly the small bet {_fmt(self.small)}, not {_fmt(to)} ({p.name})")
            return
        self._not_offered(p, e, to, all_in, offered)

    def _not_offered(self, p: PlayerState, e: Action, to: Decimal, all_in: bool, offered: tuple[Decimal, ...]) -> None:
        """Which rule a bet or raise the legal actions did not offer breaks."""
        current = self.current_bet
        if current > ZERO and self._capped():
            self.flag(BET_CAP, e.line,
                      f"{p.name} raises after {self.bets} bets; the cap is {self.profile.cap_bets}")
            return
        if current > ZERO and p.acted and p.acted_level == self.bet_level and p.street_in < current:
            self.flag(BET_ALLIN, e.line,
                      f"{p.name} raises, but the all-in raise to {_fmt(current)} was less than half a bet "
                      f"and does not reopen the betting")
            return
        what = "bet" if current == ZERO else "raise"
        if not offered:
            self.flag(BET_SIZE, e.line, f"{p.name} {what}s to {_fmt(to)}, but nobody left could call it: "
                                        f"only call or fold")
            return
        if self.street is _FOURTH:
            big_to = (current + self.big) if current else self.big
            if to == big_to or to == self.bet_level + self.big:
                if self.variant is _RAZZ:
                    self.flag(BET_OPEN_PAIR, e.line,
                              f"{p.name} makes a double {what} on 4th street; razz has no open-pair double bet")
                    return
                if not self._has_open_pair():
                    self.flag(BET_OPEN_PAIR, e.line,
                              f"{p.name} makes a double {what} on 4th street without an open pair")
                    return
            if self.big_bet_made and to == current + self.small:
                self.flag(BET_OPEN_PAIR, e.line,
                          f"after a double bet on 4th street every raise is {_fmt(self.big)}; {p.name} raises {_fmt(self.small)}")
                return
        sizes = ' or '.join(_fmt(a) for a in offered)
        if not all_in and to < min(offered) and to > current:
            self.flag(BET_SIZE, e.line,
                      f"{p.name} {what}s to {_fmt(to)}; a {what} here is to {sizes} (less only when all-in)")
            return
        self.flag(BET_SIZE, e.line, f"{p.name} {what}s to {_fmt(to)}; a {what} here is to {sizes}")

    def _raise_levels(self, p: PlayerState, to: Decimal, third_open: bool) -> None:
        level = self.bet_level
        if third_open:
            if to >= self.small or not self.fixed:
                self.bets += 1
                self.bet_level = to
            self.current_bet = max(self.current_bet, to)
            self._aggressor = p
            return
        increment = to - level
        if self.street is _FOURTH and len(self._units()) > 1 or self.big_bet_made:
            if increment >= self.big:
                self.big_bet_made = True  # rule bet.open_pair: later raises are big bets
            unit = self.big if self.big_bet_made else self.small
        else:
            unit = self.small if self.street is _THIRD or self.street is _FOURTH else self.big
        if not self.fixed or increment * 2 >= unit:
            self.bets += 1
            self.bet_level = to
        self.current_bet = to
        self._aggressor = p

    def _put(self, p: PlayerState, chips: Decimal, line: int, all_in_flag: bool = False) -> None:
        before = p.stack
        p.stack = stack = before - chips
        p.street_in += chips
        p.total += chips
        self.pot += chips
        if stack > ZERO:
            if all_in_flag:
                self.flag(CHIPS_STACK, line, f"{p.name} is said to be all-in with {_fmt(stack)} behind")
            return
        if stack < ZERO:  # more than they had
            self.flag(CHIPS_STACK, line, f"{p.name} puts in {_fmt(chips)} with only {_fmt(before)} behind")
        p.all_in = True

    # ------------------------------------------------------------------ the end of betting

    def _on_uncalled(self, e: UncalledReturned) -> None:
        p = self._by_name.get(e.player)
        if p is None:
            self.flag(POT_UNCALLED, e.line, f"uncalled bet returned to {e.player}, who has no seat")
            return
        top, expected, unmatched = self._unmatched()
        if top is p and e.amount == unmatched > ZERO:
            pass  # the whole unmatched part, an unmatched ante included, comes back exactly
        elif top is None or expected <= ZERO:
            self.flag(POT_UNCALLED, e.line, f"no bet was uncalled, yet {_fmt(e.amount)} returned to {p.name}")
        elif top is not p or e.amount != expected:
            self.flag(POT_UNCALLED, e.line,
                      f"the uncalled {_fmt(expected)} goes back to {top.name}, "
                      f"not {_fmt(e.amount)} to {p.name}")
        p.stack += e.amount
        p.total -= e.amount
        self.pot -= e.amount
        p.street_in = max(p.street_in - e.amount, ZERO)
        p.returned += e.amount
        self._returned_line = e.line
        if p.stack > ZERO and p.all_in and not p.folded:
            p.all_in = False

    def _uncalled(self) -> tuple[PlayerState | None, Decimal]:
        """The player whose bet nobody matched, and the unmatched part (street bets only)."""
        top, street_part, _ = self._unmatched()
        return top, street_part

    def _unmatched(self) -> tuple[PlayerState | None, Decimal, Decimal]:
        """The top contributor, the unmatched part of their street bets, and the whole
        unmatched part (an ante nobody could match included: rule pot.uncalled)."""
        top: PlayerState | None = None
        first = second = ZERO
        for p in self.order:
            t = p.total
            if t > first:
                second = first
                first = t
                top = p
            elif t > second:
                second = t
        if top is None:
            return None, ZERO, ZERO
        return top, min(first - second, top.total - top.ante), first - second

    def uncalled(self) -> tuple[str, Decimal] | None:
        """The uncalled bet to return now, as (player, amount), or None."""
        top, amount = self._uncalled()
        if top is None or amount <= ZERO or not (self.hand_over or self._betting_done()):
            return None
        return top.name, amount

    def unmatched_bet(self) -> tuple[PlayerState | None, Decimal]:
        """The player whose bet nobody matched and by how much (None, 0 when none),
        whether or not the betting is over."""
        return self._uncalled()

    @property
    def betting_closed(self) -> bool:
        """The betting is over: the showdown began, the hand is won, or nobody is to act."""
        return self._showdown or self.hand_over or self.is_betting_over

    @property
    def went_to_showdown(self) -> bool:
        """Two or more players were live at the end: the pot was contested, whether
        or not the log marks a showdown (Full Tilt, for one, writes no marker when
        all-in hands are shown before the river)."""
        return self._showdown or self._live_count() >= 2

    def end_betting(self, end_line: int) -> None:
        """The hand's log ended (rule order.streets: no betting round is skipped while
        two or more players can still bet)."""
        if self.street is None or self.hand_over or self._showdown:
            return
        street = self.street
        self._close_round(end_line, "the end of the hand")
        live = [p for p in self.order if p.in_hand and not p.folded]
        if street is not _SEVENTH and len(live) >= 2 and able_count(live) >= 2 and not self._round_flagged:
            self.flag(ORDER_STREETS, end_line, f"the hand ends on {street.label} street with {len(live)} players live")

    def _betting_done(self) -> bool:
        self._ensure_round()
        return self._to_act is None

    # ------------------------------------------------------------------ showdown

    def _on_showdown(self, e: ShowdownStart) -> None:
        self._close_round(e.line, "the showdown")
        self._showdown = True
        self.showdown_line = e.line
        live = [p for p in self.order if p.in_hand and not p.folded]
        if self.street is not _SEVENTH and not self.hand_over:
            able = able_count(live)
            if able >= 2:
                self.flag(ORDER_STREETS, e.line,
                          f"showdown after {self.street.label if self.street else 'no'} street with {able} players still betting")

    def showdown_order(self) -> list[str]:
        """Live players in the order they show: the last aggressor of the final round
        first (else the first in dealing order), then clockwise (with the profile's
        shows_side_pots_first, pot by pot from the last side pot)."""
        live = [p for p in self.order if p.in_hand and not p.folded]
        if not live:
            return []
        first = self._final_aggressor if self._final_aggressor in live else live[0]
        rest = sorted((p for p in live if p is not first), key=lambda q: self._show_key(first, q))  # type: ignore[arg-type]
        return [first.name] + [p.name for p in rest]  # type: ignore[union-attr]

    def _check_show_order(self, p: PlayerState, line: int) -> None:
        if not self._showdown or not self.profile.logs_show_order:
            return
        first = self._shown_first
        if first is not None:
            self._check_show_next(first, p, line)
            return
        self._shown_first = self._shown_last = p
        live = [q for q in self.order if q.in_hand and not q.folded]
        if len(live) < 2 or not p.live:
            return
        street = self._last_action_street
        if self.profile.show_order_all_in == "deal_order" and self._ran_out(live):
            self._show_base = live[0]
            if p is not live[0]:
                self.flag(SHOWDOWN_ORDER, line,
                          f"after an all-in run-out hands show in dealing order: {live[0].name} first, not {p.name}")
            return
        first_bettor = self.profile.show_order_bet == "first_bettor"
        aggressor = self._final_first_bettor if first_bettor else self._final_aggressor
        if aggressor is not None and aggressor.live:
            self._show_base = aggressor
            if p is not aggressor:
                what = "the first bet" if first_bettor else "the last bet or raise"
                self.flag(SHOWDOWN_ORDER, line,
                          f"{aggressor.name} made {what} "
                          f"({street.label if street else ''} street) and shows first, not {p.name}")
            return
        mode = self.profile.show_order_no_bet
        if mode == "deal_order":
            self._show_base = live[0]
        if mode == "deal_order" and p is not live[0]:
            self.flag(SHOWDOWN_ORDER, line, f"nobody bet the final round: {live[0].name} shows first, not {p.name}")
        elif mode == "first_to_act":
            expected = self._final_first
            if expected is not None and expected.live:
                self._show_base = expected
            if expected is not None and expected.live and p is not expected:
                self.flag(SHOWDOWN_ORDER, line,
                          f"nobody bet the final round: {expected.name}, first to act, shows first, not {p.name}")

    def _check_show_next(self, first: PlayerState, p: PlayerState, line: int) -> None:
        """After the first hand shown, the others show or muck clockwise from it (from
        whoever should have shown first, where known, so that one hand out of turn is
        one violation); with the profile's shows_side_pots_first, pot by pot from the
        last side pot."""
        last = self._shown_last
        base = self._show_base or first
        if last is None or p is last or p is base or not p.live:
            return  # (the one who should have shown first, showing later: flagged already)
        self._shown_last = p  # judged against the latest: one hand out of turn is one violation
        if last is first or self._show_key(base, p) > self._show_key(base, last):
            return
        if self.profile.shows_side_pots_first and p.total > last.total:
            self.flag(SHOWDOWN_ORDER, line,
                      f"side pots show first, from the last: {p.name} after {last.name}, who is all-in for less")
        else:
            self.flag(SHOWDOWN_ORDER, line, f"hands show clockwise from {base.name}: {p.name} after {last.name}")

    def _show_key(self, first: PlayerState, q: PlayerState) -> tuple[Decimal, int]:
        """Where ``q`` comes in the showing order after ``first``."""
        clockwise = (q.pos - first.pos) % len(self.order)
        return (-q.total if self.profile.shows_side_pots_first else ZERO, clockwise)

    def _ran_out(self, live: list[PlayerState]) -> bool:
        """Cards were dealt with no betting: at most one live player could bet, and the
        last betting action came before 7th street."""
        street = self._last_action_street
        return (able_count(live) < 2
                and (street is None or street is not _SEVENTH))

    def _on_show(self, e: Show) -> None:
        p = self._by_name.get(e.player)
        if p is None:
            self.flag(CARDS_CONSISTENT, e.line, f"{e.player} shows cards but has no seat")
            return
        self._check_show_order(p, e.line)
        self._check_shown(p, e.cards, e.line)
        p.showed = True
        if len(e.cards) >= len(p.shown):
            p.shown = e.cards

    def _on_muck(self, e: Muck) -> None:
        p = self._by_name.get(e.player)
        if p is None:
            return
        self._check_show_order(p, e.line)
        p.mucked = True
        if e.cards:
            self._check_shown(p, e.cards, e.line)

    def _on_seat_summary(self, e: SeatSummary) -> None:
        if not e.cards:
            return
        p = self._by_name.get(e.player)
        if p is None or e.cards == p.shown:
            return
        self._check_shown(p, e.cards, e.line)
        if not p.shown and "showed" in e.outcome:
            p.shown = e.cards

    def _check_shown(self, p: PlayerState, shown: tuple[Card, ...], line: int) -> None:
        """cards.unique, cards.consistent and cards.count for cards a player shows."""
        own_ids = set(map(id, shown))  # cards are interned: identity is equality
        if len(own_ids) != len(shown):
            self.flag(CARDS_UNIQUE, line, f"{p.name} shows the same card twice: [{_cards(shown)}]")
        community = self.community
        own: Sequence[Card] = shown
        limit = 7
        if community is not None:
            own = [c for c in shown if c is not community]
            own_ids.discard(id(community))
            limit = 6
        if len(own) > limit:
            self.flag(CARDS_COUNT, line,
                      f"{p.name} shows {len(own)} cards{' besides the community card' if community else ''}; "
                      f"a stud hand has {limit}")
        known = p.cards()
        if self.profile.shows_in_deal_order and len(own) == len(known) and len(known) >= 3:
            for k, c in zip(known, own):
                if k is not None and k is not c:
                    self.flag(CARDS_CONSISTENT, line,
                              f"{p.name} shows [{_cards(own)}] but was dealt [{_cards(known)}]")
                    return
        else:
            missing = [c for c in known if c is not None and id(c) not in own_ids]
            if len(own) >= len(known) and missing:
                self.flag(CARDS_CONSISTENT, line,
                          f"{p.name} shows [{_cards(own)}] without {_cards(missing)}, dealt earlier")
                return
        seen = self._seen
        name = p.name
        if not set(map(seen.get, map(id, own))).issubset((None, name)):  # someone else's card
            for card in own:
                owner = seen.get(id(card))
                if owner is not None and owner != name:
                    self.flag(CARDS_UNIQUE, line, f"{name} shows {card}, which is {owner}'s card")
        self._learn(p, own, line, known)

    def _learn(self, p: PlayerState, cards: Sequence[Card], line: int, known: list[Card | None] | None = None) -> None:
        """Fill unknown down cards from cards the player revealed (``known``: ``p.cards()``)."""
        if known is None:
            known = p.cards()
        mine = set(map(id, known))
        if mine.issuperset(map(id, cards)):
            return  # nothing new
        seen = self._seen
        name = p.name
        if not p.up and all(c is None for c in p.down):
            # the log never showed this player's deals: take the cards in dealing order
            p.down = [*cards[:2], *cards[6:7]]
            p.up = list(cards[2:6])
            p.up_ranks = _rank_sum(p.up)
            for card in cards[:7]:
                seen.setdefault(id(card), name)
            return
        down = p.down
        if len(cards) == len(known):
            # the same count as dealt: each unknown slot takes the card shown in its place
            # (index in cards() order: down 0-1, then the up cards, then later down cards)
            n_up = len(p.up)
            for i, k in enumerate(known):
                if k is None:
                    card = cards[i]
                    down[i if i < 2 else i - n_up] = card
                    seen.setdefault(id(card), name)
            return
        for card in cards:
            if id(card) in mine:
                continue
            i = next((j for j, c in enumerate(down) if c is None), -1)
            if i < 0:
                return
            down[i] = card
            seen.setdefault(id(card), name)

    # ------------------------------------------------------------------ money lines

    def _on_collect(self, e: Collect) -> None:
        p = self._by_name.get(e.player)
        if p is None:
            self.flag(SHOWDOWN_AWARD, e.line, f"{e.player} collects but has no seat")
            return
        p.collected += e.amount
        self.collects.append(e)

    def _on_summary(self, e: PotSummary) -> None:
        if self.summary is None:
            self.summary = e

    def _on_no_low(self, e: NoLowHand) -> None:
        self.no_low_noted = True

    def _on_capped(self, e: BettingCapped) -> None:
        if self.fixed and self.bets < self.profile.cap_bets:
            self.flag(BET_CAP, e.line,
                      f"the log says betting is capped after {self.bets} bets; the cap is {self.profile.cap_bets}")

    def _on_open_pair_notice(self, e: OpenPairNotice) -> None:
        if self.variant is _RAZZ:
            self.flag(BET_OPEN_PAIR, e.line, "an open-pair double bet announced in razz")
        elif self.street is not _FOURTH:
            self.flag(BET_OPEN_PAIR, e.line, "an open-pair double bet announced outside 4th street")
        elif not self._has_open_pair():
            self.flag(BET_OPEN_PAIR, e.line, "an open-pair double bet announced with no open pair on 4th street")


# ---------------------------------------------------------------------- helpers

_HANDLERS: dict[type, Callable[[StudState, Any], None]] = {
    Action: StudState._on_action,
    Deal: StudState._on_deal,
    StreetStart: StudState._on_street,
    PostAnte: StudState._on_ante,
    DealCommunity: StudState._on_community,
    UncalledReturned: StudState._on_uncalled,
    ShowdownStart: StudState._on_showdown,
    Show: StudState._on_show,
    Muck: StudState._on_muck,
    Collect: StudState._on_collect,
    PotSummary: StudState._on_summary,
    SeatSummary: StudState._on_seat_summary,
    BettingCapped: StudState._on_capped,
    OpenPairNotice: StudState._on_open_pair_notice,
    NoLowHand: StudState._on_no_low,
}


def able_count(players: Iterable[PlayerState]) -> int:
    """How many of ``players`` (live ones) are not all-in."""
    n = 0
    for p in players:
        if not p.all_in:
            n += 1
    return n


def _neg(key: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(-k for k in key)


# order.first: board keys by the ranks showing (_rank_sum), for razz (low) and the others
_RANK_NIBBLE = tuple(1 << (4 * rank) for rank in range(15))
_BOARD_KEYS: dict[bool, dict[int, tuple[int, ...]]] = {False: {}, True: {}}

# rule bringin.player: each door card's key per variant (smallest brings in), by id of the interned card
_BRING_IN_KEYS: dict[Variant, dict[int, tuple[int, int]]] = {
    v: {id(card): bring_in_key(card, v.value) for card in DECK} for v in Variant
}


def _rank_sum(cards: Sequence[Card]) -> int:
    """The ranks of ``cards`` as one int, a count per rank in 4 bits (so exact up to 15 cards)."""
    ranks = 0
    for card in cards:
        ranks += _RANK_NIBBLE[card.rank]
    return ranks


def _board_key(up: Sequence[Card], low: bool) -> tuple[int, ...]:
    """The order.first sort key of a board (smallest acts first), memoised by ranks."""
    if len(up) > 15:  # only ever in a broken log
        return board_low_key(up) if low else _neg(board_high_key(up))
    ranks = _rank_sum(up)
    known = _BOARD_KEYS[low]
    key = known.get(ranks)
    if key is None:
        key = known[ranks] = board_low_key(up) if low else _neg(board_high_key(up))
    return key


def _default_bring_in(small: Decimal) -> Decimal:
    return small / 2


_PLACES: dict[Decimal, int] = {}  # amount -> its decimal places, trailing zeros aside
_CHIPS: dict[int, Decimal] = {}


def _places(value: Decimal) -> int:
    places = _PLACES.get(value)  # equal Decimals ("1.50", "1.5") have the same places
    if places is None:
        exponent = value.normalize().as_tuple().exponent
        places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
        if len(_PLACES) > 65536:
            _PLACES.clear()
        _PLACES[value] = places
    return places


def _chip_of(stakes: Stakes, seats: Sequence[tuple[int, str, Decimal] | Seat]) -> Decimal:
    """The smallest chip: from the decimal places of the stakes and stacks."""
    places = 0
    values = [stakes.small_bet, stakes.big_bet, stakes.ante, stakes.bring_in]
    values.extend(s.stack if isinstance(s, Seat) else s[2] for s in seats)
    for value in values:
        if value is None:
            continue
        n = _places(value)
        if n > places:
            places = n
    chip = _CHIPS.get(places)
    if chip is None:
        chip = _CHIPS[places] = Decimal(1).scaleb(-places)
    return chip


__all__ = ["LegalAction", "LegalActions", "PlayerState", "StudState"]
