"""The readers' betting ledger: what a site writes -> events.py's amounts.

Every reader that works out an action's figures, the line readers
(:mod:`studbook.sites.lines`: Full Tilt, Bovada, Everleaf, ...), the XML
readers (:mod:`studbook.sites.xml_common`: iPoker, Merge) and the PHH reader
(:mod:`studbook.sites.phh`), keeps one
:class:`Ledger` per hand. Sites write "chips put in", "new street total" or
"raised by"; the ledger knows each player's stack and street total and the bet
to match, so it gives events.py's ``amount`` and ``to`` and tells a completion
from a bet or a raise. At the end of a hand it gives what the log may not
state: the uncalled bet, the main and side pots, the stakes the bets show.
The arithmetic is :mod:`studbook.betting`'s (the engine's too); this module
only keeps one hand's figures.

Where sites differ, the difference is a constructor option (data), never a
second ledger: whether stacks tell an all-in (``stacks_tell_all_in``), what
they tell (``all_in_takes_chips``), and whether the log's own action words
are kept (``kinds_as_written``). Line readers call :meth:`Ledger.act` with a
kind and the figure as written (``chips=``, ``to=`` or ``by=``); XML readers
call :meth:`Ledger.act_as` with the site's intent and one figure, which
reads it into the same call.
A reader that knows more says so: antes and bring-ins written as what is
due (``posts_as_due``), the small bet (``small_bet``); a log with one word
for a check and a call calls :meth:`Ledger.check_or_call`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal, Mapping, Optional

from studbook.money import ZEROS, Money
from studbook.betting import (
    call_chips, completes, figures, fixed_stakes, kind_for, named, pot_layers, top_two, uncalled_part, written_total,
)
from studbook.events import (
    BET, BRING_IN, CALL, CHECK, COMPLETE, FIFTH, FOLD, FOURTH, RAISE, SEVENTH, SIXTH, THIRD, ActionKind, Street,
)

ZERO = Decimal(0)


Figure = Literal["chips", "to"]  # what an XML site's figure is: the chips put in, or the street total after
Intent = Literal["bring_in", "complete", "bet", "raise", "call", "all_in", "check", "fold"]

# An XML site's intent as the kind given to Ledger.act: bet, raise, completion
# and all-in are told apart by the figures, so any of them stands for all.
_INTENT_KINDS: dict[str, ActionKind] = {
    "bring_in": BRING_IN, "call": CALL, "check": CHECK, "fold": FOLD,
    "bet": RAISE, "raise": RAISE, "complete": RAISE, "all_in": RAISE,
}


# What an action comes to: (kind, amount, to, all-in, chips put in by it), the
# first four events.py's Action fields. A plain tuple: one is built for every
# action of every hand, and a NamedTuple (its ``__new__`` is Python code) costs
# several times as much to make, a frozen dataclass more.
Normalised = tuple[ActionKind, Optional[Money], Optional[Money], bool, Money]

# A fold's and a check's figures: no chips put in, ``0`` whatever the hand's kind (no reader adds
# it to anything: the chips put in are the ledger's own figure; a constant costs no look-up)
_FOLDED: Normalised = (FOLD, None, None, False, 0)
_CHECKED: Normalised = (CHECK, None, None, False, 0)


class Ledger:
    """One hand's betting state, so a reader can normalise a site's figures.

    Events semantics (events.py): bring-in, bet and call amounts are the chips
    put in; a raise's ``amount`` is the increment over the bet to call and
    ``to`` the player's street total; a completion has ``amount == to``.

    Options (the sites' differences, as data):

    * ``stacks_tell_all_in``: an action (or ante) that leaves the player no
      chips is all-in; False where the log says "all-in" itself (Full Tilt,
      Absolute, Kings Club, Winning): only its marks do;
    * ``all_in_takes_chips``: only the action that takes a player's last chips
      is all-in (a stack above nothing brought to nothing), not a later one of
      a player already at nothing (a 0-chip call after an all-in ante, or an
      action of a player whose stack is not known, read as 0): the XML readers.
      The line readers read an all-in off any stack left at or below nothing.
      No log of the corpus tells the two apart (no action there comes from a
      player already without chips), so each family keeps the rule it had; an
      ante is all-in by the stack it leaves under either;
    * ``kinds_as_written``: bet, raise and call as the log names them (the
      figures it lacks from the ledger), else told from the figures;
    * ``posts_as_due``: an ante or bring-in is given as the amount due (PHH's
      ``antes`` and ``bring_in``), not the chips put in: a player with less
      posts the whole stack (all-in for less);
    * ``small_bet``: the fixed-limit small bet, where the reader knows it: 3rd
      street is opened only by a bet that reaches it, as the engine counts bets
      (after an all-in completion for less, the next bet still completes);
      unknown (None), or with ``kinds_as_written`` (the log names them), any
      bet or completion opens it.
    """

    __slots__ = (
        "stacks_tell_all_in", "all_in_takes_chips", "kinds_as_written", "stacks", "street_in", "put_in",
        "antes", "in_hand", "folded", "street", "level", "opened", "fresh", "aggressor", "units",
        "bring_in", "ante", "posts_as_due", "small_bet", "zero",
    )

    def __init__(self, stacks: Mapping[str, Money] | None = None, *, stacks_tell_all_in: bool = True,
                 all_in_takes_chips: bool = False, kinds_as_written: bool = False,
                 posts_as_due: bool = False, small_bet: Money | None = None) -> None:  # fmt: skip
        self.stacks_tell_all_in = stacks_tell_all_in
        self.all_in_takes_chips = all_in_takes_chips
        self.kinds_as_written = kinds_as_written
        self.posts_as_due = posts_as_due
        self.small_bet = small_bet
        # What the hand's figures count from: a Decimal zero until the first ante (in a hand
        # without antes, the bring-in) tells the kind of the hand's amounts (money.ZEROS), so a
        # chip hand's figures stay ints: an int meeting a Decimal zero becomes a Decimal, a
        # conversion every operation after (i34r18).
        self.zero: Money = ZERO
        self.stacks: dict[str, Money] = {}
        self.street_in: dict[str, Money] = {}  # this street's chips, per player who put any in
        self.put_in: dict[str, Money] = {}  # the whole hand's, antes included, in first-contribution order
        self.antes: dict[str, Money] = {}
        self.in_hand: dict[str, None] = {}  # ordered set: posted, dealt or acted
        self.folded: set[str] = set()
        self.street: Street | None = None
        self.level: Money = ZERO  # the bet to match on this street
        self.opened = False  # a bet or completion made on this street (a bring-in is not one; see small_bet)
        self.fresh = False  # no action yet on this street
        self.aggressor: str | None = None  # the last bet or raise of the latest street with any action
        self.units: dict[Street, Money] = {}  # per street, the first bet size not all-in (see stakes())
        self.bring_in: Money | None = None  # the first bring-in and ante that are not 0 (0 if all are)
        self.ante: Money | None = None
        if stacks:
            self.stacks.update(stacks)

    # -- seats, antes, streets ------------------------------------------------------------
    def seat(self, player: str, stack: Money) -> None:
        self.stacks[player] = stack

    def post_ante(self, player: str, chips: Money) -> bool:
        """Take an ante (``antes[player]``: what it took); True when it leaves the player all-in."""
        self.in_hand[player] = None
        if self.posts_as_due:
            chips = self._postable(player, chips)
        if not self.ante:  # the first ante not 0: the kind of its chips is the hand's (looked up once)
            self.ante = chips
            self.zero = ZEROS[chips.__class__]
        zero = self.zero
        self.antes[player] = self.antes.get(player, zero) + chips
        self.put_in[player] = self.put_in.get(player, zero) + chips
        left = self.stacks[player] = self.stacks.get(player, zero) - chips
        return self.stacks_tell_all_in and left <= 0

    def start(self, street: Street) -> None:
        self.street = street
        self.level = self.zero
        self.opened = False
        self.fresh = True
        self.street_in = {}

    def live(self) -> list[str]:
        """Players posted, dealt or acting who did not fold, in that order."""
        return [p for p in self.in_hand if p not in self.folded]

    # -- actions ----------------------------------------------------------------------------
    def act(self, player: str, kind: ActionKind, chips: Money | None = None, to: Money | None = None,
            by: Money | None = None, all_in: bool = False) -> Normalised:  # fmt: skip
        """The event's figures for what a site wrote: the ``chips`` put in, the
        street total ``to`` or, for a raise, the increment ``by``; ``all_in`` when
        the log says so. A bring-in or call is that; a bet, raise or completion
        is told from the figures (unless ``kinds_as_written``)."""
        self.in_hand[player] = None
        if self.fresh:  # the final round is the last one with any action
            self.fresh, self.aggressor = False, None
        if kind is FOLD:
            self.folded.add(player)
            return (kind, None, None, True, 0) if all_in else _FOLDED
        if kind is CHECK:
            return (kind, None, None, True, 0) if all_in else _CHECKED
        if kind is BRING_IN and self.ante is None:  # no ante told the hand's kind: the bring-in does
            before = self._zero_from(player, chips if chips is not None else to)
        else:
            before = self.street_in.get(player, self.zero)
        if self.kinds_as_written:
            return self._as_written(player, kind, before, chips, to, by, all_in)
        if kind is BRING_IN:
            if chips is None:
                chips = to - before if to is not None else self.zero
            if self.posts_as_due:
                chips = self._postable(player, chips)
            self.bring_in = self.bring_in or chips
            all_in = self._put(player, chips) or all_in
            if before + chips > self.level:
                self.level = before + chips
            return (kind, chips, None, all_in, chips)
        if kind is CALL:  # never moves the bet to match, whatever it puts in
            if chips is None:
                zero = self.zero
                chips = call_chips(self.level, before, self.stacks.get(player, zero), zero) if to is None else to - before
            all_in = self._put(player, chips) or all_in
            return (kind, chips, None, all_in, chips)
        level = self.level
        total = written_total(before, level, chips=chips, to=to, by=by)
        chips = total - before
        all_in = self._put(player, chips) or all_in
        kind = kind_for(total, level, completes(self.street, self.opened))
        value, new_to = figures(kind, total, before, level)
        if kind is not CALL:  # else less than a raise: an all-in call for less
            self._raised(player, kind, total, all_in)
        return (kind, value, new_to, all_in, chips)

    def check_or_call(self, player: str) -> Normalised:
        """:meth:`act` for a log's one word for both: a call when the player owes
        chips and has any (an all-in call for less when short), else a check."""
        zero = self.zero
        chips = call_chips(self.level, self.street_in.get(player, zero), self.stacks.get(player, zero), zero)
        return self.act(player, CALL, chips) if chips > 0 else self.act(player, CHECK)

    def act_as(self, player: str, intent: Intent, figure: Money | None, means: Figure) -> Normalised:
        """:meth:`act` for an XML site's action: its ``intent`` and the one
        ``figure`` it writes (none is 0), meaning ``means``."""
        value = figure if figure is not None else self.zero
        if means == "to":  # (positional: a keyword call costs more, for every action)
            return self.act(player, _INTENT_KINDS[intent], None, value, None, intent == "all_in")
        return self.act(player, _INTENT_KINDS[intent], value, None, None, intent == "all_in")

    def _as_written(self, player: str, kind: ActionKind, before: Money, chips: Money | None,
                    to: Money | None, by: Money | None, all_in: bool) -> Normalised:  # fmt: skip
        """The log's own action kind, with the figures it lacks from the ledger;
        only a bet or raise that opens 3rd street is a completion."""
        value: Money | None = None
        shown_to: Money | None = None
        total: Money | None = None
        if kind is BRING_IN or kind is BET or kind is CALL:
            value = chips if chips is not None else (to - before if to is not None else None)  # as written
            total = before + (value or self.zero)
            if kind is BRING_IN:
                self.bring_in = self.bring_in or value
        elif kind is COMPLETE:
            total = to if to is not None else before + (chips or self.zero)
        elif kind is RAISE:
            total = written_total(before, self.level, to=to, by=by or self.zero)
        kind = named(kind, self.street, self.opened)  # the first bet of 3rd street, or a raise of the bring-in
        if total is None:
            return (kind, value, shown_to, all_in, self.zero)
        if kind is COMPLETE or kind is RAISE:
            value, shown_to = figures(kind, total, before, self.level)
        chips = total - before
        all_in = self._put(player, chips) or all_in
        if kind is COMPLETE or kind is BET or kind is RAISE:
            if total > self.level:
                self._raised(player, kind, total, all_in)
            self.opened = True
        elif total > self.level:
            self.level = total
        return (kind, value, shown_to, all_in, chips)

    def _zero_from(self, player: str, first: Money | None) -> Money:
        """A hand without antes (none posted, or all 0): its bring-in is the first amount it
        counts, and tells the kind of its figures as a first ante does (a chip hand's stay
        ints); the bet to match and the player's street total, none yet, count from that
        zero. What the player has in this street (the hand's zero)."""
        if first is not None and first.__class__ is not self.zero.__class__:
            self.zero = ZEROS[first.__class__]
            if not self.level:
                self.level = self.zero
        return self.street_in.get(player, self.zero)

    def _postable(self, player: str, due: Money) -> Money:
        """What a post of ``due`` takes: all of a shorter stack."""
        return min(due, self.stacks.get(player, self.zero))

    def _put(self, player: str, chips: Money) -> bool:
        """Take ``chips`` from the player into the pot; True when that tells an all-in."""
        zero = self.zero
        stack = self.stacks.get(player, zero)
        left = self.stacks[player] = stack - chips
        self.street_in[player] = self.street_in.get(player, zero) + chips
        self.put_in[player] = self.put_in.get(player, zero) + chips
        return self.stacks_tell_all_in and left <= 0 and (stack > 0 or not self.all_in_takes_chips)

    def _raised(self, player: str, kind: ActionKind, total: Money, all_in: bool) -> None:
        """A bet, completion or raise to ``total``: the new bet to match; its
        size (a completion's total, else the increment) shows the stakes
        unless all-in (it may be short)."""
        if not all_in and self.street is not None and self.street not in self.units:
            self.units[self.street] = total if kind is COMPLETE else total - self.level
        self.level = total
        self.opened = self.opened or self.small_bet is None or total >= self.small_bet
        self.aggressor = player

    def returned(self, player: str, chips: Money) -> None:
        """An uncalled bet the log returns (``put_in`` keeps what was put in)."""
        self.stacks[player] = self.stacks.get(player, self.zero) + chips
        self.street_in[player] = self.street_in.get(player, self.zero) - chips

    def won(self, player: str, chips: Money) -> None:
        self.stacks[player] = self.stacks.get(player, self.zero) + chips

    # -- what the hand's figures show ---------------------------------------------------------
    def uncalled(self) -> tuple[str, Money] | None:
        """The bet nobody matched at the end of the hand, as (player, amount)."""
        zero = self.zero
        top, first, second = top_two(self.put_in.items(), zero)
        if top is None:
            return None
        amount = uncalled_part(first, second, self.antes.get(top, zero))
        return (top, amount) if amount > 0 else None

    def pots(self) -> list[tuple[Money, frozenset[str]]]:
        """Main pot then side pots, each with the live players eligible for it
        (contributions after any uncalled bet was returned)."""
        totals = dict(self.put_in)
        uncalled = self.uncalled()
        if uncalled is not None:
            totals[uncalled[0]] -= uncalled[1]
        layers = pot_layers([(p, total, p not in self.folded) for p, total in totals.items()], self.zero)
        return [(amount, frozenset(eligible)) for amount, eligible in layers]

    def stakes(self) -> tuple[Money | None, Money | None]:
        """(small bet, big bet) as the bets of this hand show them, where they do:
        the completion or 4th street's bet, and the first bet of 5th street on."""
        units = self.units
        small = units.get(THIRD) or units.get(FOURTH)
        big = units.get(FIFTH) or units.get(SIXTH) or units.get(SEVENTH)
        if small is not None and units.get(FOURTH) not in (None, small):
            small = min(small, units[FOURTH])  # a 4th-street open-pair double bet
        return small, big

    def shown_stakes(self) -> tuple[Money, Money] | None:
        """Fixed-limit (small bet, big bet) from :meth:`stakes`; None when the bets
        show neither (a reader then falls back on what it has: the bring-in, other
        hands of the file)."""
        return fixed_stakes(*self.stakes())


__all__ = ["Figure", "Intent", "Ledger", "Normalised"]
