"""The typed event model: what a parsed hand is.

A site's parser turns each hand of a log into a :class:`Hand`: a header, the
seats, and a tuple of events in the order the log wrote them. Every event is
a frozen dataclass that carries the file and the 1-based line it came from.
Amounts are exact values as the log wrote them (:data:`~studbook.money.Money`: an int for a
whole number of chips, else a :class:`~decimal.Decimal`).

Hands that cannot be read become :class:`Rejected`, hands of other games
(hold'em in a mixed rotation, ...) become :class:`Skipped`; a parser yields
exactly one of the three for every hand of a file.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from enum import Enum, IntEnum
from typing import Union

from studbook.cards import Card
from studbook.money import ZEROS, Money


class Variant(str, Enum):
    STUD = "stud"  # seven-card stud, high only
    STUD8 = "stud8"  # seven-card stud hi/lo, eight or better
    RAZZ = "razz"  # seven-card stud, A-5 lowball


class Structure(str, Enum):
    """Betting structure. Stud is almost always fixed limit."""

    FIXED = "fixed"
    POT = "pot"
    NO = "no"


class Street(IntEnum):
    THIRD = 3
    FOURTH = 4
    FIFTH = 5
    SIXTH = 6
    SEVENTH = 7  # the river

    @property
    def label(self) -> str:
        return {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}[int(self)]


class ActionKind(str, Enum):
    BRING_IN = "bring_in"
    COMPLETE = "complete"
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    CHECK = "check"
    FOLD = "fold"


class Half(str, Enum):
    """Which half of a split pot a collection is, where the log says."""

    HIGH = "high"
    LOW = "low"


class ChatterKind(str, Enum):
    JOIN = "join"
    LEAVE = "leave"
    SIT_OUT = "sit_out"
    RETURN = "return"
    DISCONNECT = "disconnect"
    RECONNECT = "reconnect"
    TIMEOUT = "timeout"
    SAID = "said"
    OTHER = "other"


# Each member that the per-line and per-event paths name, bound once as a module name (issue 34):
# on CPython 3.11 an enum class's attribute is looked up through EnumType's ``__getattr__``
# hook, which no instruction specialises (some 700 to 1,000 instructions a look-up), where
# a module's name is a dict hit. They are the members themselves: those paths import them
# from here and compare with ``is``; other code may write ``Street.THIRD``.
THIRD, FOURTH, FIFTH, SIXTH, SEVENTH = Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH
BRING_IN, COMPLETE, BET, RAISE, CALL, CHECK, FOLD = (
    ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE, ActionKind.CALL,
    ActionKind.CHECK, ActionKind.FOLD,
)
SAID, SIT_OUT = ChatterKind.SAID, ChatterKind.SIT_OUT
LOW_HALF = Half.LOW
FIXED = Structure.FIXED
STUD8, RAZZ = Variant.STUD8, Variant.RAZZ


# ---------------------------------------------------------------------------
# Header


@dataclass(frozen=True, slots=True)
class Stakes:
    small_bet: Money
    big_bet: Money
    ante: Money | None = None  # None when the header does not say
    bring_in: Money | None = None  # None when the header does not say

    @property
    def zero(self) -> Money:
        """What a hand at these stakes counts from: ``0`` where its bets are whole chips
        (ints), ``Decimal(0)`` else (:data:`~studbook.money.ZEROS`, by the small bet's kind)."""
        return ZEROS[self.small_bet.__class__]


@dataclass(frozen=True, slots=True)
class Tournament:
    id: str
    buy_in: str | None = None  # as written, e.g. "$10+$1 USD"
    level: str | None = None  # as written, e.g. "IV"
    home_club: str | None = None  # PokerStars home games: "{Club}"


@dataclass(frozen=True, slots=True)
class HandHeader:
    site: str  # "pokerstars", "fulltilt", ...
    hand_id: str
    variant: Variant
    structure: Structure
    game: str  # the game as written, e.g. "7 Card Stud Hi/Lo Limit"
    stakes: Stakes
    currency: str | None  # ISO code for real money; None for chips
    play_money: bool = False
    tournament: Tournament | None = None
    mix: str | None = None  # mixed-game rotation name, e.g. "HORSE"
    table: str = ""
    max_seats: int | None = None
    button: int | None = None
    started: str = ""  # the start time exactly as written
    started_utc: datetime | None = None
    # the player the log marks as its own, where it marks one by name (Bovada's "[ME]",
    # iPoker's <nickname>), and the mark as written; Hand.hero also reads the deal lines
    hero: str | None = None
    hero_mark: str = ""


# ---------------------------------------------------------------------------
# Events


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    file: str
    line: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Seat(Event):
    seat: int
    player: str
    stack: Money
    sitting_out: bool = False
    out_of_hand: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class PostAnte(Event):
    player: str
    amount: Money
    all_in: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class StreetStart(Event):
    """A street marker such as ``*** 4th STREET ***``."""

    street: Street


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal(Event):
    """Cards the log shows one player receiving on one street.

    ``down``/``up`` hold the newly dealt cards the log reveals; cards the log
    does not show (opponents' hole cards) are simply absent, and the engine
    knows from the deal pattern how many there were. ``before`` repeats what
    the log printed of the player's earlier cards on this line, for
    consistency checks.
    """

    player: str
    street: Street
    down: tuple[Card, ...] = ()
    up: tuple[Card, ...] = ()
    before: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class DealCommunity(Event):
    """The community card turned up when the deck runs short on 7th street."""

    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class Action(Event):
    """A betting action.

    ``amount`` is the first figure the log wrote: chips put in for
    bring-in, bet and call; the increment for a raise ("raises $0.04 to
    $0.08"). ``to`` is the player's total for the street after the action,
    where the log says ("to $0.08", "completes it to $0.04").
    """

    player: str
    kind: ActionKind
    amount: Money | None = None
    to: Money | None = None
    all_in: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingCapped(Event):
    """The site's note that the betting round has reached its cap."""


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenPairNotice(Event):
    """The site's note that an open pair on 4th street allows a double bet."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UncalledReturned(Event):
    player: str
    amount: Money


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowdownStart(Event):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class Show(Event):
    player: str
    cards: tuple[Card, ...]
    description: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Muck(Event):
    player: str
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class NoShow(Event):
    """A winner who did not show ("doesn't show hand")."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NoLowHand(Event):
    """The site's note that no low hand qualified."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Collect(Event):
    """A player taking chips from a pot.

    ``pot`` is 0 for the whole pot or the main pot, k >= 1 for side pot k
    (an unnumbered "side pot" is 1). ``half`` says hi or lo where the log does.
    """

    player: str
    amount: Money
    pot: int = 0
    half: Half | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PotSummary(Event):
    """``Total pot $0.67 | Rake $0.03``: the stated totals.

    ``pots`` lists main then side pots where the log splits them, else is empty.
    ``rake`` is None where the log's format has no rake field (``Total Pot($150)``).
    """

    total: Money
    rake: Money | None
    pots: tuple[Money, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatSummary(Event):
    """One seat line of the summary, e.g. ``Seat 5: trs2758 collected ($0.64)``."""

    seat: int
    player: str
    outcome: str  # the text after the name, as written
    cards: tuple[Card, ...] = ()
    won: Money | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Chatter(Event):
    """Table talk and comings and goings: no effect on the hand."""

    kind: ChatterKind
    text: str
    player: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentFinish(Chatter):
    """A tournament line that states how a player finished: ``X finished the
    tournament in 3rd place [and received $N]``, ``X wins the tournament and
    receives $N`` (place 1). A table message to the engine and the replayer
    (it changes no chips of the hand); the frames keep it on the player's row."""

    place: int
    prize: Money | None = None  # as the log states it, in the tournament's money


@dataclass(frozen=True, slots=True, kw_only=True)
class Note(Event):
    """A line no rule of the site's format reads that cannot change the hand:
    it names no seated player (save in a no-play phrase: a timer, a presence
    or connection notice) and carries no amount and no card. Kept, counted
    per hand and shown by ``studbook check --notes``; the hand goes on."""

    text: str


# ---------------------------------------------------------------------------
# Parse results


@dataclass(frozen=True, slots=True)
class Hand:
    """One parsed stud hand."""

    file: str
    line: int  # first line of the hand
    end_line: int  # last line of the hand
    header: HandHeader
    seats: tuple[Seat, ...]
    events: tuple[Event, ...]

    @property
    def site(self) -> str:
        return self.header.site

    @property
    def hand_id(self) -> str:
        return self.header.hand_id

    @property
    def variant(self) -> Variant:
        return self.header.variant

    def players(self) -> tuple[str, ...]:
        """Players dealt in, in seat order (those not sitting out)."""
        return tuple(s.player for s in self.seats if not (s.sitting_out or s.out_of_hand))

    def __repr__(self) -> str:
        # one line: the dataclass's own repr runs to thousands of characters
        name = self.file.replace("\\", "/").rsplit("/", 1)[-1]
        return (f"<Hand {self.site} #{self.hand_id} {self.variant.value}, {len(self.players())} players, "
                f"{len(self.events)} events, {name}:{self.line}-{self.end_line}>")

    def _repr_html_(self) -> str:
        # a notebook's display only: the replayer (a later stage) renders the hand
        from studbook.display import hand_html

        return hand_html(self)

    def hero(self) -> tuple[str, str] | None:
        """The player the log marks as its own, and the mark: the header's (Bovada's
        ``[ME]``, iPoker's ``<nickname>``), else the one player the deal lines show down
        cards to (``Dealt to`` lines and their kin, mark :data:`DEALT_MARK`); None when
        the log marks nobody (it deals nobody's down cards, or everybody's)."""
        return self.marked_hero({e.player for e in self.events if isinstance(e, Deal) and e.down})

    def marked_hero(self, dealt: set[str]) -> tuple[str, str] | None:
        """:meth:`hero`, given ``dealt``: the players the deal lines show down cards to
        (for a caller that passes over the events anyway, as the store's rows do)."""
        header = self.header
        if header.hero is not None and any(seat.player == header.hero for seat in self.seats):
            return header.hero, header.hero_mark
        return (next(iter(dealt)), DEALT_MARK) if len(dealt) == 1 else None


DEALT_MARK = "deal"
"""The mark of a hero whom the log's deal lines alone show down cards to."""


@dataclass(frozen=True, slots=True)
class Rejected:
    """A hand that could not be read, with where and why."""

    file: str
    line: int  # the offending line
    hand_line: int  # first line of the hand
    reason: str
    text: str = ""  # the offending text
    hand_id: str | None = None
    site: str | None = None  # the site's format, when the file was recognised

    def message(self) -> str:
        where = f"{self.file}:{self.line}"
        hand = f"hand {self.hand_id}: " if self.hand_id else ""
        shown = f": {self.text!r}" if self.text else ""
        return f"{where}: {hand}{self.reason}{shown}"


@dataclass(frozen=True, slots=True)
class Skipped:
    """A hand of a game studbook does not replay (hold'em in a mix, 5-card stud...)."""

    file: str
    line: int
    hand_id: str | None
    game: str
    reason: str = "not a stud, stud hi/lo or razz hand"
    site: str | None = None  # the site's format


ParseResult = Union[Hand, Rejected, Skipped]

_MONEY_FIELDS: dict[type, frozenset[str]] = {}


def money_fields(cls: type) -> frozenset[str]:
    """The fields of one of these dataclasses that hold amounts (typed :data:`~studbook.money.Money`):
    an int there is a whole number of chips, written as an amount (as the Decimal it stands
    for), where an int elsewhere is a count, a seat or a line. (Kept by class.)"""
    names = _MONEY_FIELDS.get(cls)
    if names is None:
        names = _MONEY_FIELDS[cls] = frozenset(f.name for f in fields(cls) if "Money" in str(f.type))
    return names


__all__ = [
    "BET", "BRING_IN", "CALL", "CHECK", "COMPLETE", "FIFTH", "FIXED", "FOLD", "FOURTH", "LOW_HALF",
    "RAISE", "RAZZ", "SAID", "SEVENTH", "SIT_OUT", "SIXTH", "STUD8", "THIRD",
    "Action", "ActionKind", "money_fields", "BettingCapped", "ChatterKind", "Chatter", "Collect", "DEALT_MARK", "Deal",
    "DealCommunity", "Event", "Half", "Hand", "HandHeader", "Muck", "NoLowHand", "NoShow", "Note",
    "OpenPairNotice", "ParseResult", "PostAnte", "PotSummary", "Rejected", "Seat",
    "SeatSummary", "Show", "ShowdownStart", "Skipped", "Stakes", "Street", "StreetStart",
    "Structure", "Tournament", "TournamentFinish", "UncalledReturned", "Variant",
]

