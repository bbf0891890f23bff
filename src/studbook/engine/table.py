"""The table one stud hand is played at: seats, stacks, cards, the pot, and the
state every rule section reads (:mod:`studbook.engine.rules`).

:class:`Table` holds the hand's state, the questions the rules ask of it, and the
moves every section shares (chips put in, a player dealt in, a violation reported:
:meth:`Table.report`, the one reporter). The rule sections (``engine/rules/``) are
functions of it, not layers of it; :class:`~studbook.engine.state.StudState` adds the
public protocol (apply, legal_actions, ...) and sends each event to its section. :class:`PlayerState` is one seat; :class:`LegalAction` and
:class:`LegalActions` are what :meth:`~studbook.engine.state.StudState.legal_actions` returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import Any, Iterable, Sequence, TypedDict

from studbook.betting import owed
from studbook.cards import Card
from studbook.diskmemo import DiskMemo
from studbook.events import (
    BRING_IN, CALL, CHECK, COMPLETE, FIXED, FOLD, FOURTH, RAISE, SEVENTH, THIRD,
    Action, ActionKind, Collect, PotSummary, Seat, Stakes, Street, Structure, Variant,
)
from studbook.money import Money, exact
from studbook.evaluate import board_high_key, board_low_key
from studbook.engine.messages import CHIPS_STACK_ALL_IN_WITH_CHIPS, CHIPS_STACK_MORE_THAN_STACK, Message
from studbook.engine.profiles import DEFAULT, RuleProfile
from studbook.engine.variants import VARIANT_RULES
from studbook.engine.result import ActionFacts, ActionRecord, action_facts, Violation

__all__ = [
    "BOARD_KEY_FIGURES", "BOARD_KEYS", "BRING_IN", "CALL", "CHECK", "COMMUNITY_REPORTED", "COMPLETE", "FOLD", "FOURTH",
    "LegalAction", "LegalActions", "PlayerState", "RANK_NIBBLE", "Reported", "Round", "SEVENTH", "THIRD", "TURN_REPORTED",
    "Table", "TableOptions", "ZERO",
    "able_count", "board_key", "packed_board_key", "rank_sum", "smallest_chip",
]

ZERO = Decimal(0)


_SEAT = attrgetter("seat")


class Reported(StrEnum):
    """A fault already reported whose consequences later checks would only repeat:
    while it stands (in :attr:`Table.reported`), those checks stay quiet, so one fault
    gives one violation, at the line that is wrong."""

    TURN = "turn"
    """Someone acted out of turn this round (rules order.*, bringin.player): the round's
    "betting unfinished" / "the hand ends with players live" and a bring-in after the
    opening follow from it. Cleared at each new street."""
    COMMUNITY = "community"
    """A 7th-street community card was due (rule cards.community): said once a hand."""


# the rule sections' names for them (module globals, as events' THIRD: read on most hands)
TURN_REPORTED, COMMUNITY_REPORTED = Reported.TURN, Reported.COMMUNITY


class PlayerState:
    """One seat's state during the hand. Read it; change it only through StudState."""

    __slots__ = (
        "name", "seat", "pos", "start", "stack", "ante", "total", "street_in", "returned",
        "collected", "in_hand", "folded", "live", "all_in", "acted", "acted_level", "up", "down",
        "dealt", "last_street", "showed", "mucked", "shown", "deal_line", "up_ranks",
    )

    # (made by Table._seat_players, which sets every slot but pos: Table.set_order's)
    name: str
    seat: int
    pos: int
    start: Money
    stack: Money
    ante: Money
    total: Money
    street_in: Money
    returned: Money
    collected: Money
    in_hand: bool
    folded: bool
    live: bool
    all_in: bool
    acted: bool
    acted_level: Money
    up: list[Card]
    up_ranks: int
    down: list[Card | None]
    dealt: int
    deal_line: int
    last_street: Street
    showed: bool
    mucked: bool
    shown: tuple[Card, ...]

    @property
    def can_act(self) -> bool:
        return self.live and not self.all_in

    def cards(self) -> list[Card | None]:
        """All cards in dealing order: down, down, up..., down (None where unknown)."""
        down = self.down
        if len(down) >= 2:  # (the first two by index: a slice is a list made and let go)
            return [down[0], down[1], *self.up, *down[2:]]
        return [*down, *self.up]

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
    chips: Money = ZERO
    to: Money = ZERO
    amount: Money | None = None
    all_in: bool = False

    def to_event(self, player: str, *, file: str = "", line: int = 0) -> Action:
        """The :class:`~studbook.events.Action` that takes this option."""
        return Action(
            file=file, line=line, player=player, kind=self.kind, amount=self.amount,
            to=self.to if self.kind in (RAISE, COMPLETE) else None, all_in=self.all_in,
        )


@dataclass(frozen=True, slots=True)
class LegalActions:
    """Who acts next and every option they have (fixed limit: exact amounts).

    For pot- and no-limit hands the aggressive options give the smallest legal
    size; ``max_to`` is the largest street total the player can reach (all-in).
    """

    player: str
    actions: tuple[LegalAction, ...]
    to_call: Money
    street: Street
    max_to: Money

    def kinds(self) -> tuple[ActionKind, ...]:
        return tuple(a.kind for a in self.actions)

    def find(self, kind: ActionKind) -> LegalAction | None:
        for action in self.actions:
            if action.kind is kind:
                return action
        return None


class Round:
    """One street's betting, a part of the hand's state (``state.round``), reset at each
    street: the betting ledger (the bet to call, the last full bet, bets for the cap)
    and who is to act. Read it; the rules change it."""

    __slots__ = (
        "current_bet", "bet_level", "bets", "aggressions", "big_bet_made", "open_pair", "units", "to_act", "started",
        "first_ok", "aggressor", "first", "first_bettor", "last_deal_pos", "deals", "deals_verified", "zero",
    )

    def __init__(self, zero: Money) -> None:
        self.zero = zero  # the hand's (Table.zero)
        self.first_ok: tuple[PlayerState, ...] = ()
        self.reset()

    def reset(self) -> None:
        """A new street's round (in place: a new object each street costs more)."""
        # the highest street total, and the street total of the last full bet or raise
        self.current_bet = self.bet_level = self.zero
        self.bets = 0  # bets and raises (the completion counts; the bring-in does not)
        self.aggressions = 0  # bets, raises and completions, short all-ins included
        self.big_bet_made = False  # 4th street open-pair double bet made
        self.open_pair: bool | None = None  # 4th street: a live board shows a pair (None: not asked yet)
        self.units: tuple[Money, ...] | None = None  # the bet sizes in force (bets._units; None: not asked yet)
        self.to_act: PlayerState | None = None  # once started
        self.started = False  # the first actor chosen (by the first event of the round)
        # first_ok, the acceptable first actors once started, is carried from the last
        # street until then (a round nobody can open keeps the last street's)
        self.aggressor: PlayerState | None = None  # the last to bet or raise
        self.first: PlayerState | None = None  # who acted first (None: nobody yet)
        self.first_bettor: PlayerState | None = None  # the first bet or completion
        self.last_deal_pos = -1  # dealing position of the latest deal (rule deal.order)
        # live players dealt this street's card by the deal's fast path, each once (rule
        # deal.pattern: check_missing_deals walks the players when fewer than live_left, or
        # once an action of the round was applied)
        self.deals = 0
        self.deals_verified = False  # check_missing_deals found every deal of this street


_CLOCKWISE_VIEWS: dict[int, itemgetter[Any]] = {}
"""Each player count's getter of the positions' views (a dozen at most): :func:`_clockwise_views`."""


def _clockwise_views(count: int) -> itemgetter[Any]:
    """For a table of ``count`` players: what takes from the dealing order twice over (a
    ring) each position's view, the other players clockwise from the next, as a tuple by
    position (:attr:`Table.clockwise_after`). One getter a player count, made once and
    remembered in :data:`_CLOCKWISE_VIEWS`: it slices the ring in one C call, not a slice's
    bytecodes a player (some 1.5 k instructions a hand of 8). It ends with an empty view no
    position reads: an itemgetter of one item would return it bare, not in a tuple."""
    views = _CLOCKWISE_VIEWS[count] = itemgetter(
        *(slice(pos + 1, pos + count) for pos in range(count)), slice(0, 0))
    return views


class TableOptions(TypedDict, total=False):
    """The keyword options of a :class:`Table` (and of ``StudState.new``), each optional."""

    button: int | None
    """The button's seat (profile ``deal_start="after_button"``: dealing starts after it)."""
    chip: Money | None
    """The smallest chip, e.g. Decimal("0.01") (else worked out from the stakes and stacks)."""
    bring_in: Money | None
    """The table's bring-in, where the stakes do not say."""
    bring_in_hand: str | None
    """The earlier hand at this table the bring-in comes from (named in messages)."""


class Table:
    """The state of one stud hand: the public parts every rule section reads, the
    questions it asks and the moves it makes; see :class:`~studbook.engine.state.StudState`
    for the protocol callers use.

    **What a rule reads** (public, typed attributes; outside ``engine/`` read-only).
    The rule sections (``engine/rules/``) keep them: a rule sets the attribute its
    event changes, and never reaches for a private name (``tests/test_rule_ids.py``
    walks every rule module and fails on one).

    * the game: ``variant``, ``variant_rules`` (what differs by variant:
      :class:`~studbook.engine.variants.VariantRules`), ``structure``, ``fixed``
      (fixed limit), ``stakes``, ``small``, ``big``, ``ante``, ``profile`` (the site's
      habits: :class:`~studbook.engine.profiles.RuleProfile`).
    * seats and stacks: ``players`` (:class:`PlayerState`, seat order), ``order`` (the
      same in dealing order, each with its ``pos``), ``by_name`` (each player by name),
      ``clockwise_after`` (for each dealing position, the other players clockwise from
      the next), ``live_left`` (the players dealt in and not folded), ``order_from_deal``
      (the first 3rd-street deal is still to set the dealing order: profile
      ``deal_start="first_dealt"``).
    * the street and its betting: ``street`` (None before 3rd street), ``round`` (the
      street's ledger and who is to act: :class:`Round`), ``pot`` (antes and bets, less
      uncalled bets returned), ``hand_over`` (one live player left), ``action_log``
      (each Action applied, with what it found: :data:`~studbook.engine.result.ActionRecord`;
      :meth:`action_facts` names what each did).
    * the bring-in: ``bring_in`` (the amount in force), ``bring_in_hand``, ``bring_in_posted``,
      ``bring_in_player`` and ``bring_in_optional`` (from 3rd street's opening), ``opened``
      (3rd street's bring-in or completion made), ``ante_posted``.
    * cards: ``card_owners`` (who holds each card seen), ``community``, and 7th street's
      cards the log does not print: ``implicit_river_due``, ``implicit_river_done``,
      ``deck_at_river``.
    * the last betting round with an action, for the showdown: ``last_action_street``,
      ``final_aggressor``, ``final_first``, ``final_first_bettor``.
    * the showdown: ``at_showdown``, ``showdown_line``, ``shown_first``, ``shown_last``,
      ``should_show_first``, ``collects``, ``summary``, ``no_low_noted``.
    * what was found: ``violations`` (in the order found) and ``reported`` (faults whose
      knock-on messages are held back: :class:`Reported`; a rule adds the fault it
      reports and asks ``Reported.X in s.reported`` before a message that would repeat it).

    **What a rule asks**: :meth:`player`, :attr:`live_players`, :meth:`live_count`,
    :meth:`dealing_order`, :meth:`to_call`, :meth:`board`, :meth:`needs_community_card`,
    :meth:`deck_left`, :meth:`cards_dealt`, :attr:`chip`, :attr:`went_to_showdown`;
    ``current_bet``, ``bet_level``, ``bets``, ``aggressions`` and ``big_bet_made`` read
    ``round``'s, for callers of old.

    **What a rule calls**: :meth:`report` (the one reporter), :meth:`put` (chips go in),
    :meth:`deal_in` (a player takes part after all), :meth:`set_order` (the dealing order).
    """

    # slots: a hand's state has too many attributes for a fast instance dict
    __slots__ = (
        "variant", "variant_rules", "structure", "fixed", "stakes", "small", "big", "ante", "profile", "_chip", "zero",
        "_seats_given",
        "players", "order", "by_name", "clockwise_after", "order_from_deal", "live_left",
        "street", "round", "pot", "hand_over", "action_log",
        "bring_in", "bring_in_hand", "bring_in_posted", "bring_in_player", "bring_in_optional", "opened", "ante_posted",
        "ante_start",
        "card_owners", "community", "implicit_river_due", "implicit_river_done", "deck_at_river",
        "last_action_street", "final_aggressor", "final_first", "final_first_bettor",
        "at_showdown", "showdown_line", "shown_first", "shown_last", "should_show_first", "collects", "summary",
        "no_low_noted",
        "violations", "reported",
    )

    def __init__(
        self,
        variant: Variant,
        stakes: Stakes,
        seats: Sequence[tuple[int, str, Money] | Seat],
        profile: RuleProfile | None = None,
        structure: Structure = Structure.FIXED,
        *,
        button: int | None = None,
        chip: Money | None = None,
        bring_in: Money | None = None,
        bring_in_hand: str | None = None,
    ) -> None:
        # the game
        self.variant = variant
        self.variant_rules = VARIANT_RULES[variant]
        self.structure = structure
        self.stakes = stakes
        self.profile = profile or DEFAULT
        self.small = stakes.small_bet
        self.big = stakes.big_bet
        self.ante = stakes.ante
        # the hand's zero, of its amounts' kind: ints for chips, Decimals else (Stakes.zero):
        # every zero the engine starts a figure from or compares with is this one, since an
        # int meeting a Decimal costs a conversion an operation
        self.zero = zero = stakes.zero
        # the bring-in in force: the header's, else one remembered from the table
        self.bring_in: Money | None = stakes.bring_in if stakes.bring_in is not None else bring_in
        # the smallest chip: given, else worked out from the stakes and stacks when first
        # asked (the chip property: only a split pot asks, most hands never do)
        self._chip = chip
        self._seats_given = tuple(seats)  # (a copy: a caller may reuse its list)
        # the earlier hand at this table and stakes the checker remembered the bring-in from
        # (rule bringin.amount's message names it)
        self.bring_in_hand = bring_in_hand
        self.fixed = structure is FIXED
        self.violations: list[Violation] = []
        # seats and stacks
        self._seat_players(seats, zero)
        start = 0
        if self.profile.deal_start == "after_button" and button is not None:
            start = next((i for i, q in enumerate(self.players) if q.seat > button), 0)
        self.set_order(start)
        # profile deal_start="first_dealt": the first 3rd-street deal sets the dealing order
        self.order_from_deal: bool = self.profile.deal_start == "first_dealt"
        # the street and its betting
        self.street: Street | None = None
        self.round = Round(zero)  # the street's betting and who is to act
        # the bring-in
        self.opened: bool = False  # 3rd street: the bring-in or a completion made
        self.bring_in_player: PlayerState | None = None  # who brings in (None: unknown, or nobody)
        self.bring_in_optional: bool = False  # the bring-in player is all-in from the ante (rule bringin.allin)
        self.reported: set[Reported] = set()  # faults whose knock-on messages are held back
        # the last betting round with an action (its Round's facts, kept for the showdown)
        self.final_aggressor: PlayerState | None = None
        self.final_first: PlayerState | None = None
        self.final_first_bettor: PlayerState | None = None
        self.last_action_street: Street | None = None  # the street of the latest action
        # each card seen, by its text, and its owner's name ("community" for the community
        # card): cards are interned, so a card's text is as unique as the card (rule cards.unique)
        self.card_owners: dict[str, str] = {}
        self.community: Card | None = None
        # the showdown
        self.at_showdown: bool = False  # the log marked the showdown (a ShowdownStart was applied)
        self.shown_first: PlayerState | None = None  # showdown.order: the first hand shown
        self.shown_last: PlayerState | None = None  # and the latest
        # who should have shown first, where known: later hands are judged clockwise from them
        self.should_show_first: PlayerState | None = None
        self.showdown_line = 0
        self.bring_in_posted: tuple[Money, int, bool] | None = None  # amount, line, all-in
        self.ante_posted: Money | None = None  # the ante in force: the first one posted, where the stakes say none
        # a player's figures after their first chips, an ante: the ante's amount and the hand total it
        # makes (the zero plus it), kept for the next player who posts the same amount (rules/deal.py)
        self.ante_start: tuple[Money | None, Money] = (None, zero)
        self.collects: list[Collect] = []
        self.pot = zero
        self.action_log: list[ActionRecord] = []
        self.summary: PotSummary | None = None
        self.no_low_noted = False
        self.hand_over = False  # one live player left
        # 7th street's down cards the log does not print (opponents'): deal.implicit_river
        # gives each live player an unknown one once betting starts
        self.implicit_river_done: bool = False
        self.implicit_river_due: bool = False  # 7th street, and not yet given
        self.deck_at_river: int | None = None  # cards left in the deck as 7th street began

    def _seat_players(self, seats: Iterable[tuple[int, str, Money] | Seat], zero: Money) -> None:
        """Seat the players (``players`` by seat, ``by_name``, ``live_left``), each seat's state
        at the hand's start (``zero``: the hand's, :attr:`zero`): the one place a
        :class:`PlayerState` is made; the first seat of a name stands. The states are made
        in this loop, not by a call a seat: a Python call's frame was some 500 instructions
        a seat. The class has no ``__init__`` of its own, so its call goes straight to
        object's: cheaper than ``object.__new__(PlayerState)``, a builtin method whose
        wrapper checks and slices its arguments (some 300 instructions a seat)."""
        players: list[PlayerState] = []
        by_name: dict[str, PlayerState] = {}
        self.players, self.by_name = players, by_name
        live = 0
        last_seat = -1
        in_seat_order = True  # (a log lists its seats in order: no sort then)
        for seat in seats:
            if isinstance(seat, Seat):
                number, name, stack = seat.seat, seat.player, seat.stack
                # dealt in (not a seat sitting out or out of the hand, until deal_in)
                in_hand = not (seat.sitting_out or seat.out_of_hand)
            else:
                number, name, stack = seat[0], seat[1], seat[2]
                in_hand = True
            if name in by_name:
                continue
            p = PlayerState()
            p.name = name
            p.seat = number
            p.start = stack
            p.stack = stack  # chips behind
            p.ante = zero
            p.total = zero  # put in this hand (antes included), less uncalled bets returned
            p.street_in = zero  # put in on this street (antes excluded)
            p.returned = zero
            p.collected = zero
            p.in_hand = in_hand
            p.folded = False
            # dealt in and not folded: kept where either changes (Table.deal_in, the fold in
            # rules/bets.py, each with Table.live_left), since the rules ask it of every player
            # they walk (one read, not two)
            p.live = in_hand
            p.all_in = False
            p.acted = False  # acted in this betting round
            p.acted_level = zero  # the full bet level when they last acted (read only while acted)
            p.up = []
            p.up_ranks = 0  # rank_sum(up), kept as up grows (order.first)
            p.down = []  # None: a down card the log did not show
            p.dealt = 0  # bit per street dealt (1 << street)
            p.deal_line = 0  # line of the 3rd-street deal
            p.last_street = THIRD
            p.showed = False
            p.mucked = False
            p.shown = ()
            players.append(p)
            by_name[name] = p
            live += in_hand
            if number < last_seat:
                in_seat_order = False
            last_seat = number
        # the players live (dealt in and not folded), kept with each player's live by
        # deal_in and the fold: live_count() without a walk
        self.live_left = live
        if not in_seat_order:
            # (by seat, equal seats as listed: the sort is stable, and a list already in
            # order, the common case, is asked by the loop's one int comparison a seat: the
            # sort's key is a call a player through an attrgetter)
            players.sort(key=_SEAT)

    def set_order(self, start: int) -> None:
        """Set the dealing order: the players by seat, clockwise from index ``start``
        (``order``, each player's ``pos`` and ``clockwise_after``)."""
        players = self.players
        # (every hand: one copy where dealing starts with the first seat, a counter, not enumerate)
        order = self.order = players[start:] + players[:start] if start else players[:]
        # each position's view of the table: the other players, clockwise from the next
        # (the getter by get, made on a miss: a hit, nearly every hand, costs no call of ours)
        count = len(order)
        views = _CLOCKWISE_VIEWS.get(count) or _clockwise_views(count)
        self.clockwise_after: tuple[tuple[PlayerState, ...], ...] = views(tuple(order) * 2)
        i = 0
        for q in order:
            q.pos = i
            i += 1

    @property
    def chip(self) -> Money:
        """The smallest chip: the one given, else from the decimal places of the stakes
        and the stacks (e.g. Decimal("0.01"))."""
        chip = self._chip
        if chip is None:
            chip = smallest_chip(self.stakes, self._seats_given)
            # a whole chip of a hand of ints (chips) an int, as its other figures
            chip = self._chip = 1 if chip == 1 and self.zero.__class__ is int else chip
        return chip

    # the street's betting ledger, read from its part (``round``) by callers of old
    @property
    def current_bet(self) -> Money:
        """The highest street total (:attr:`Round.current_bet`)."""
        return self.round.current_bet

    @current_bet.setter
    def current_bet(self, value: Money) -> None:
        self.round.current_bet = value

    @property
    def bet_level(self) -> Money:
        """The street total of the last full bet or raise (:attr:`Round.bet_level`)."""
        return self.round.bet_level

    @property
    def bets(self) -> int:
        """Bets and raises this round, for the cap (:attr:`Round.bets`)."""
        return self.round.bets

    @property
    def aggressions(self) -> int:
        """Bets, raises and completions this round, short all-ins included (:attr:`Round.aggressions`)."""
        return self.round.aggressions

    @property
    def big_bet_made(self) -> bool:
        """4th street: the open-pair double bet was made (:attr:`Round.big_bet_made`)."""
        return self.round.big_bet_made

    def player(self, name: str) -> PlayerState | None:
        """The player seated as ``name`` (None: no such seat)."""
        return self.by_name.get(name)

    @property
    def live_players(self) -> list[PlayerState]:
        """Players dealt in and not folded, in dealing order."""
        live = []
        for p in self.order:  # (a loop: a comprehension makes a function and a frame at each ask)
            if p.live:
                live.append(p)
        return live

    def dealing_order(self) -> list[str]:
        """Who receives cards on the current street, in dealing order."""
        return [p.name for p in self.order if p.live]

    def needs_community_card(self) -> bool:
        """True on 7th street when the deck cannot give every live player a card."""
        return self.deck_left() < self.live_left

    def live_count(self) -> int:
        """Players dealt in and not folded (:attr:`live_left`, kept by deal_in and the fold)."""
        return self.live_left

    def deck_left(self) -> int:
        """Cards left in the deck before the 7th-street deal (no burns online)."""
        if self.deck_at_river is not None:
            return self.deck_at_river
        return 52 - self.cards_dealt()

    def cards_dealt(self) -> int:
        """Cards dealt so far to the players dealt in (up and down, known or not)."""
        n = 0
        for p in self.order:
            if p.in_hand:
                n += len(p.up) + len(p.down)
        return n

    def to_call(self, name: str) -> Money:
        """What ``name`` must put in to call (:func:`studbook.betting.owed`)."""
        p = self.by_name[name]
        return owed(self.round.current_bet, p.street_in, self.zero)

    @property
    def went_to_showdown(self) -> bool:
        """Two or more players were live at the end: the pot was contested, whether
        or not the log marks a showdown (Full Tilt, for one, writes no marker when
        all-in hands are shown before the river)."""
        return self.at_showdown or self.live_left >= 2

    def action_facts(self) -> list[ActionFacts]:
        """What each action applied so far did (:func:`~studbook.engine.result.action_facts`)."""
        return list(map(action_facts, self.action_log))

    def report(self, message: Message, line: int, **fields: object) -> None:
        """A violation of ``message``'s rule at ``line``, its text written from ``fields``
        (:mod:`studbook.engine.messages`, the one place messages are defined), with
        the values it names and who is at fault."""
        self.violations.append(message.violation(line, self.street, self._seats(), fields))

    def _seats(self) -> dict[str, int]:
        """Each player's seat (made only when a violation is reported)."""
        return {name: p.seat for name, p in self.by_name.items()}

    def put(self, p: PlayerState, chips: Money, line: int, all_in_flag: bool = False) -> None:
        """``p`` puts ``chips`` in at ``line``: their stack, street and hand totals and
        the pot move together, and rule chips.stack is checked (``all_in_flag``: the
        log says all-in). Every bet goes in here (an ordinary ante has a fast path)."""
        before = p.stack
        p.stack = stack = before - chips
        p.street_in += chips
        p.total += chips
        self.pot += chips
        if stack > self.zero:
            if all_in_flag:
                self.report(CHIPS_STACK_ALL_IN_WITH_CHIPS, line, player=p.name, behind=stack)
            return
        if stack < self.zero:  # more than they had
            self.report(CHIPS_STACK_MORE_THAN_STACK, line, player=p.name, chips=chips, behind=before)
        p.all_in = True

    def deal_in(self, p: PlayerState) -> None:
        """``p`` takes part after all (they were marked out of the hand)."""
        p.in_hand = True
        if not p.live and not p.folded:
            p.live = True
            self.live_left += 1
        # this street's deals are asked again, by a walk: the deal count is set where it
        # cannot reach live_left this street (players counted after a late deal-in may fold
        # before the ask, and each player is counted at most once a street)
        self.round.deals_verified = False
        self.round.deals = -len(self.players)

    def board(self, p: PlayerState) -> list[Card]:
        """The cards ``p`` shows: their up cards, and the community card once dealt."""
        if self.community is not None:
            return [*p.up, self.community]
        return p.up


def able_count(players: Iterable[PlayerState]) -> int:
    """How many of ``players`` (live ones) are not all-in."""
    n = 0
    for p in players:
        if not p.all_in:
            n += 1
    return n


# order.first's board keys, shared by the deal (which keeps ``PlayerState.up_ranks``, the
# ranks showing, as cards arrive) and the order of action (which sorts boards by them).
RANK_NIBBLE = tuple(1 << (4 * rank) for rank in range(15))
"""A rank's count in :func:`rank_sum`'s int: ``ranks += RANK_NIBBLE[card.rank]`` adds one card."""
BOARD_KEYS: dict[bool, dict[int, int]] = {False: {}, True: {}}
""":func:`board_key`'s memo, by low (razz) or not, then by :func:`rank_sum`: the order.first
sort key of a board with those ranks (read directly by the order of action's hot path)."""
_FIGURE_BITS = 5
"""Bits a board key's figure takes in :func:`packed_board_key`'s int: a figure is a category
or a rank (0 to 14), written as 16 less it (a high board's) or 16 more (a low board's), 2 to
30, so that 0 is left for "no figure"."""
BOARD_KEY_FIGURES = 6
"""The most figures a board key has: its category and at most five ranks (the best five cards)."""


def packed_board_key(key: tuple[int, ...], high: bool) -> int:
    """An evaluator's board key (:func:`~studbook.evaluate.board_high_key`, larger is better,
    when ``high``; else :func:`~studbook.evaluate.board_low_key`, smaller is better) as one int
    that sorts as the tuple does, the smallest acting first: a figure of 5 bits each (negated
    for a high board), the missing ones 0, below every figure, as a shorter tuple sorts first.
    (An int of one digit: the order of action compares boards for every live player of every
    later street, and two tuples' comparison is a rich comparison a figure, some 300
    instructions, an int's some 30.)"""
    packed = 0
    for figure in key:
        packed = packed << _FIGURE_BITS | (16 - figure if high else 16 + figure)
    return packed << _FIGURE_BITS * (BOARD_KEY_FIGURES - len(key))

def rank_sum(cards: Sequence[Card]) -> int:
    """The ranks of ``cards`` as one int, a count per rank in 4 bits (so exact up to 15 cards):
    the key of :data:`BOARD_KEYS` and the value ``PlayerState.up_ranks`` keeps."""
    ranks = 0
    for card in cards:
        ranks += RANK_NIBBLE[card.rank]
    return ranks


def board_key(up: Sequence[Card], low: bool) -> int:
    """The order.first sort key of a board (smallest acts first; ``low`` for razz's lowest
    board), :func:`packed_board_key`'s int, memoised by ranks in :data:`BOARD_KEYS`. Reports nothing."""
    if len(up) > 15:  # only ever in a broken log
        return _board_key(up, low)
    ranks = rank_sum(up)
    known = BOARD_KEYS[low]
    key = known.get(ranks)
    if key is None:
        key = known[ranks] = _KEPT_BOARD_KEYS.get((low, ranks), lambda: _board_key(up, low))
    return key


# The board keys kept between processes (a board's key is its ranks' alone): a process meets
# most of some 2,400 boards of one to four ranks a variant for the first time in its first few
# hundred hands, and working one out (the evaluator's counts and sorts, then the packing) is
# some 15 k instructions where reading it back is some 3 k (issue 34: a check of 600 simulated
# hands spent some 40 k a hand more on its first pass over them than on a second)
_EVALUATE = Path(__file__).parent.parent / "evaluate"
_KEPT_BOARD_KEYS = DiskMemo("board-keys", Path(__file__), _EVALUATE / "board.py", _EVALUATE / "values.py")


def _board_key(up: Sequence[Card], low: bool) -> int:
    return packed_board_key(board_low_key(up), False) if low else packed_board_key(board_high_key(up), True)


_PLACES: dict[Money, int] = {}  # amount -> its decimal places, trailing zeros aside
_CHIPS: dict[int, Money] = {}


def _places(value: Money) -> int:
    """``value``'s decimal places, trailing zeros aside, worked out and kept in :data:`_PLACES`
    (equal Decimals, "1.50" and "1.5", have the same places): the memo's miss."""
    exponent = exact(value).normalize().as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    if len(_PLACES) > 65536:
        _PLACES.clear()
    _PLACES[value] = places
    return places


def smallest_chip(stakes: Stakes, seats: Sequence[tuple[int, str, Money] | Seat]) -> Money:
    """The smallest chip of a table whose site did not say it: one unit of the most decimal
    places among the stakes and the stacks (``1.50`` and ``1.5`` alike: one place)."""
    places = 0
    values = [stakes.small_bet, stakes.big_bet, stakes.ante, stakes.bring_in]
    for s in seats:
        values.append(s.stack if isinstance(s, Seat) else s[2])
    known = _PLACES
    for value in values:
        if value is None:
            continue
        # (the memo read here, _places called only for a value not seen: a Python call
        # a value was most of a table's cost, some 4,000 instructions a split pot)
        n = known.get(value)
        if n is None:
            n = _places(value)
        if n > places:
            places = n
    chip = _CHIPS.get(places)
    if chip is None:
        chip = _CHIPS[places] = Decimal(1).scaleb(-places)
    return chip

