"""Every violation message the engine can write, each defined once, filed under its rule.

A :class:`Message` is a rule id (:mod:`studbook.engine.rules`) and a template; the
checks report one by name, with its fields, and nothing else:
``s.report(DEAL_ANTE_TWICE, e.line, player=p.name)``
(:meth:`~studbook.engine.table.Table.report`). Since the message carries its rule, a
message cannot be filed under the wrong rule; each name starts with its rule's
constant (``DEAL_ANTE_...`` says ``deal.ante``), and ``SAYS[rule]`` answers "what
can rule X say?" in one step. Tests (``tests/test_violation_messages.py``) keep the
table and the call sites in step: each call gives exactly its template's fields,
and every message is reported somewhere.

Templates are :meth:`str.format` strings over named fields. A field's value is
written as an amount when it is a Decimal or an int amount (:func:`~studbook.money.format_amount`),
as its label when it is a Street, and with ``str`` otherwise; a format spec names
how a sequence is written: ``cards`` (space separated, ``??`` for an unknown card),
``list`` (comma separated), ``or`` (``a or b``), ``shares`` (``name amount`` pairs,
an amount or a ``(least, most)`` range, comma separated); and ``street`` writes a
Street as ``4th street`` (anything else as it is). Formatting happens only
when a violation is reported, never on the legal path.

A message also says what its :class:`~studbook.engine.result.Violation` carries
besides the text: which of its fields is the value the rule expected and which
the value the log has (a name, or a tuple of names for a pair of values), and
who is at fault (:data:`PARTY`, by rule, unless the message says otherwise); the
player at fault or concerned is its ``player`` field (docs/violations.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from string import Formatter
from typing import Any, Callable, Final, Iterable, Mapping, cast

from studbook.cards import Card
from studbook.events import Street
from studbook.money import Money, format_amount
from studbook.engine.result import Party, Value, Violation, new_violation
from studbook.engine.rules import (
    BET_ALLIN, BET_CAP, BET_CHECK, BET_OPEN_PAIR, BET_SIZE, BRINGIN_ALLIN, BRINGIN_AMOUNT, BRINGIN_COMPLETE,
    BRINGIN_PLAYER, CARDS_COMMUNITY, CARDS_CONSISTENT, CARDS_COUNT, CARDS_UNIQUE, CHIPS_STACK, DEAL_ANTE,
    DEAL_ORDER, DEAL_PATTERN, DEAL_PLAYERS, ORDER_FIRST, ORDER_STREETS, ORDER_THIRD, ORDER_TURN, POT_SIDE,
    POT_TOTAL, POT_UNCALLED, RULE_IDS, SHOWDOWN_AWARD, SHOWDOWN_ORDER,
)

_PLAYER_RULES: Final = frozenset({
    BRINGIN_PLAYER, BRINGIN_ALLIN, BRINGIN_COMPLETE, ORDER_THIRD, ORDER_FIRST, ORDER_TURN,
    BET_SIZE, BET_OPEN_PAIR, BET_CAP, BET_ALLIN, BET_CHECK, SHOWDOWN_ORDER,
})
PARTY: Final[dict[str, Party]] = {rule: Party.PLAYER if rule in _PLAYER_RULES else Party.SITE for rule in RULE_IDS}
"""Who is at fault when a rule is broken: the player for the rules of a player's own
action (bring-in, order of action, bets, showing), the site or dealer for money,
cards, streets and awards. A message may say otherwise (a notice the log writes)."""


def _text(value: object) -> str:
    if isinstance(value, Decimal):
        return format_amount(value)
    if isinstance(value, Street):
        return value.label
    return str(value)


def _cards(cards: Iterable[Card | None]) -> str:
    return " ".join("??" if c is None else str(c) for c in cards)


_Share = tuple[str, Money | tuple[Money, Money]]
"""A player's share of a pot: an amount, or a (least, most) range."""


def _share(share: _Share) -> str:
    name, amount = share
    if isinstance(amount, tuple):
        least, most = amount
        return f"{name} {_text(least)}" if least == most else f"{name} {_text(least)}-{_text(most)}"
    return f"{name} {_text(amount)}"


_SPECS: Final[dict[str, Callable[[Any], str]]] = {
    "": _text,
    "cards": _cards,
    "list": lambda values: ", ".join(map(_text, values)),
    "or": lambda values: " or ".join(map(_text, values)),
    "shares": lambda shares: ", ".join(map(_share, shares)),
    "street": lambda value: f"{value.label} street" if isinstance(value, Street) else _text(value),
}
"""How a field is written, by its format spec."""


class _Writer(Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        return _SPECS[format_spec](value)


_WRITER: Final = _Writer()


@dataclass(frozen=True, slots=True)
class Message:
    """One thing a rule can say: its rule id and the template of its text."""

    rule: str
    template: str
    expected: str | tuple[str, ...] | None = None  # the field(s) holding what the rule wanted
    actual: str | tuple[str, ...] | None = None  # the field(s) holding what the log has
    party: Party | None = None  # who is at fault, when not the rule's (PARTY)

    @property
    def at_fault(self) -> Party:
        return PARTY[self.rule] if self.party is None else self.party

    @property
    def fields(self) -> frozenset[str]:
        """The names the template needs (each call site gives exactly these)."""
        return frozenset(name for _, name, _, _ in _WRITER.parse(self.template) if name is not None)

    @property
    def specs(self) -> frozenset[str]:
        """The format specs the template uses (each one of :data:`_SPECS`)."""
        return frozenset(spec for _, name, spec, _ in _WRITER.parse(self.template) if name is not None and spec)

    def text(self, fields: Mapping[str, object]) -> str:
        return _WRITER.vformat(self.template, (), fields)

    def violation(self, line: int, street: Street | None, seats: Mapping[str, int],
                  fields: Mapping[str, object]) -> Violation:
        """The violation this message reports at ``line`` from ``fields``: its text,
        and the values it names. ``street`` is the street in play, unless the
        message names one; ``seats`` gives the seat of a player."""
        player = fields.get("player")
        name = player if isinstance(player, str) else None
        named = fields.get("street")
        return new_violation(self.rule, line, self.text(fields), named if isinstance(named, Street) else street,
                             self.at_fault, name, None if name is None else seats.get(name),
                             _value(self.expected, fields), _value(self.actual, fields))


_COUNTS: Final = frozenset({"able", "bets", "cap", "count", "down", "left", "limit", "live", "pot", "side_pots", "up",
                            "want_down", "want_up"})
"""The fields a violation names whose ints are counts (players, cards, bets, a pot's number).
Any other int among its values is an amount of chips (:data:`~studbook.money.Money`), kept
as the Decimal it stands for, so a violation's values are amounts whatever the hand's kind."""


def _value(names: str | tuple[str, ...] | None, fields: Mapping[str, object]) -> Value:
    if names is None:
        return None
    if isinstance(names, tuple):
        return tuple(_frozen(fields[n], n in _COUNTS) for n in names)
    return _frozen(fields[names], names in _COUNTS)


def _frozen(value: object, count: bool) -> Value:
    """A field's value as a Violation keeps it (a list or a set becomes a tuple, an int
    amount a Decimal: ``count`` says its ints are counts)."""
    if isinstance(value, (list, tuple, frozenset, set)):
        return tuple(_frozen(v, count) for v in value)
    if value.__class__ is int and not count:
        return Decimal(cast(int, value))
    return cast(Value, value)  # the template fields are Values


def value_text(value: Value) -> str:
    """A violation's expected or actual value as text (the store's columns): as a
    message writes it, a sequence of cards space separated (``??`` for an unknown
    card), any other sequence comma separated, a share as ``name amount``."""
    if isinstance(value, tuple):
        cards = [v for v in value if v is None or isinstance(v, Card)]
        if value and len(cards) == len(value):
            return _cards(cards)
        return ", ".join(_share(cast(_Share, v)) if isinstance(v, tuple) else _text(v) for v in value)
    return _text(value)


def value_json(value: Value) -> object:
    """A violation's expected or actual value in JSON: an amount as plain decimal text
    (``"0.50"``), a street as its label, a card as ``"Ah"``, a sequence as a list
    (an unknown card null), a name or a count as it is."""
    if isinstance(value, tuple):
        return [value_json(v) for v in value]
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, Street):
        return value.label
    if isinstance(value, Card):
        return str(value)
    return value


def violation_text(v: Violation) -> str:
    """A violation as the text forms write it after where it is (``check``, ``show``)."""
    return f"{v.rule}: {v.message}"


def violation_record(v: Violation) -> dict[str, object]:
    """A violation as the JSON forms write it (``check --format jsonl``, the replayer page):
    rule, line and message, then its fields."""
    return {"rule": v.rule, "line": v.line, "message": v.message,
            "street": None if v.street is None else v.street.label, "party": v.party.value,
            "seat": v.seat, "player": v.player, "expected": value_json(v.expected), "actual": value_json(v.actual)}


def pot_name(index: int, count: int) -> str:
    """How a message names pot ``index`` of ``count``."""
    if count == 1:
        return "the pot"
    return "the main pot" if index == 0 else f"side pot {index}"


# Deal and cards

DEAL_PLAYERS_COUNT: Final = Message(DEAL_PLAYERS, "{count} players dealt in; stud needs 2 to 8", actual="count")

DEAL_ANTE_NO_SEAT: Final = Message(DEAL_ANTE, "{player} posts an ante but has no seat")
DEAL_ANTE_AFTER_DEAL: Final = Message(DEAL_ANTE, "{player} posts the ante after the deal began")
DEAL_ANTE_TWICE: Final = Message(DEAL_ANTE, "{player} posts a second ante")
DEAL_ANTE_AMOUNT: Final = Message(DEAL_ANTE, "ante should be {expected}, not {amount} from {player}",
                                  expected="expected", actual="amount")
DEAL_ANTE_NOT_POSTED: Final = Message(DEAL_ANTE, "{player} was dealt in without posting the ante")

DEAL_PATTERN_NO_CARD: Final = Message(DEAL_PATTERN, "{player} received no {street}-street card")
DEAL_PATTERN_WRONG_STREET: Final = Message(DEAL_PATTERN, "{dealt}-street cards dealt during {street} street",
                                           expected="street", actual="dealt")
DEAL_PATTERN_TWICE: Final = Message(DEAL_PATTERN, "{player} dealt twice on {street} street")
DEAL_PATTERN_CARDS: Final = Message(
    DEAL_PATTERN, "{street} street deals {want_down} down and {want_up} up to {player}, not {down} down and {up} up",
    expected=("want_down", "want_up"), actual=("down", "up"))
DEAL_PATTERN_UP_MISSING: Final = Message(DEAL_PATTERN, "{player}'s {street}-street up card is missing")

DEAL_ORDER_NO_SEAT: Final = Message(DEAL_ORDER, "cards dealt to {player}, who has no seat")
DEAL_ORDER_NOT_DEALT_IN: Final = Message(DEAL_ORDER, "{player} was not dealt in but receives cards")
DEAL_ORDER_FOLDED: Final = Message(DEAL_ORDER, "{player} folded but receives {street}-street cards")
DEAL_ORDER_CLOCKWISE: Final = Message(DEAL_ORDER, "{player} dealt out of clockwise order")

CARDS_UNIQUE_TWO_OWNERS: Final = Message(CARDS_UNIQUE, "{card} is {owner}'s card but also appears for {player}",
                                         expected="owner", actual="player")
CARDS_UNIQUE_COMMUNITY: Final = Message(CARDS_UNIQUE, "community card {card} is also {owner}'s card", actual="owner")
CARDS_UNIQUE_SHOWN_TWICE: Final = Message(CARDS_UNIQUE, "{player} shows the same card twice: [{cards:cards}]",
                                          actual="cards")
CARDS_UNIQUE_SHOWS_ANOTHERS: Final = Message(CARDS_UNIQUE, "{player} shows {card}, which is {owner}'s card",
                                             expected="owner", actual="player")

CARDS_CONSISTENT_EARLIER: Final = Message(
    CARDS_CONSISTENT, "{player}'s earlier cards were [{known:cards}], the log now shows [{before:cards}]",
    expected="known", actual="before")
CARDS_CONSISTENT_NOT_DEALT: Final = Message(
    CARDS_CONSISTENT, "{player} shows [{shown:cards}] but was dealt [{dealt:cards}]", expected="dealt", actual="shown")
CARDS_CONSISTENT_MISSING: Final = Message(
    CARDS_CONSISTENT, "{player} shows [{shown:cards}] without {missing:cards}, dealt earlier",
    expected="missing", actual="shown")
CARDS_CONSISTENT_NO_SEAT: Final = Message(CARDS_CONSISTENT, "{player} shows cards but has no seat")

CARDS_COUNT_SHOWN: Final = Message(CARDS_COUNT, "{player} shows {count} cards; a stud hand has {limit}",
                                   expected="limit", actual="count")
CARDS_COUNT_SHOWN_BESIDES_COMMUNITY: Final = Message(
    CARDS_COUNT, "{player} shows {count} cards besides the community card; a stud hand has {limit}",
    expected="limit", actual="count")

CARDS_COMMUNITY_DUE: Final = Message(
    CARDS_COMMUNITY, "deck has {left} cards for {live} players: a community card is due",
    expected="live", actual="left")
CARDS_COMMUNITY_ALREADY_DEALT: Final = Message(
    CARDS_COMMUNITY, "{player} gets a 7th-street card although the community card {card} was dealt", actual="card")
CARDS_COMMUNITY_NOT_SEVENTH: Final = Message(CARDS_COMMUNITY, "a community card outside 7th street")
CARDS_COMMUNITY_SECOND: Final = Message(CARDS_COMMUNITY, "a second community card")
CARDS_COMMUNITY_NOT_DUE: Final = Message(
    CARDS_COMMUNITY, "community card dealt although {left} cards remain for {live} players",
    expected="live", actual="left")

# Bring-in (3rd street)

BRINGIN_PLAYER_WRONG: Final = Message(
    BRINGIN_PLAYER, "bring-in should be {expected} ({door}, {which} up card), not {player} ({theirs})",
    expected="expected", actual="player")
BRINGIN_PLAYER_WRONG_NO_DOOR: Final = Message(
    BRINGIN_PLAYER, "bring-in should be {expected} ({door}, {which} up card), not {player}",
    expected="expected", actual="player")
BRINGIN_PLAYER_AFTER_OPENING: Final = Message(BRINGIN_PLAYER, "{player} brings in after the betting was opened")
BRINGIN_PLAYER_FOLDS: Final = Message(BRINGIN_PLAYER, "{player} must bring in or complete, not fold")
BRINGIN_PLAYER_CALLS_FIRST: Final = Message(BRINGIN_PLAYER, "{player} calls before anyone brought in")

BRINGIN_ALLIN_LEFT_ACTS_FIRST: Final = Message(
    BRINGIN_ALLIN, "{all_in} is all-in from the ante: {expected}, on their left, acts first, not {player}",
    expected="expected", actual="player")
BRINGIN_ALLIN_CHECKS: Final = Message(BRINGIN_ALLIN, "{player} must bring in, complete or fold, not check")

BRINGIN_AMOUNT_RANGE: Final = Message(
    BRINGIN_AMOUNT, "bring-in {amount} must be more than zero and less than the small bet {small}",
    expected="small", actual="amount")
BRINGIN_AMOUNT_AS_IN_HAND: Final = Message(
    BRINGIN_AMOUNT, "bring-in should be {expected} as in hand {hand} at this table and stakes, not {amount}",
    expected="expected", actual="amount")
BRINGIN_AMOUNT_AT_TABLE: Final = Message(BRINGIN_AMOUNT, "bring-in should be {expected} at this table, not {amount}",
                                         expected="expected", actual="amount")

BRINGIN_COMPLETE_NOT_FACING: Final = Message(
    BRINGIN_COMPLETE, "{player} completes, but only a player facing just the bring-in may complete")
BRINGIN_COMPLETE_SIZE: Final = Message(
    BRINGIN_COMPLETE, "the completion is to exactly the small bet {small}, not {to} ({player})",
    expected="small", actual="to")

# Order of action

_OUT_OF_TURN = "{expected} is to act, not {player}"  # said by order.third on 3rd street, order.turn after
ORDER_THIRD_OUT_OF_TURN: Final = Message(ORDER_THIRD, _OUT_OF_TURN, expected="expected", actual="player")

ORDER_FIRST_BOARD: Final = Message(
    ORDER_FIRST, "{expected} ({which} board {expected_board:cards}) acts first on {street} street, "
                 "not {player} ({which} board {board:cards})", expected="expected", actual="player")

ORDER_TURN_OUT_OF_TURN: Final = Message(ORDER_TURN, _OUT_OF_TURN, expected="expected", actual="player")
ORDER_TURN_NO_SEAT: Final = Message(ORDER_TURN, "{player} acts but has no seat", party=Party.SITE)
ORDER_TURN_FOLDED: Final = Message(ORDER_TURN, "{player} folded earlier but acts again")
ORDER_TURN_NOT_DEALT_IN: Final = Message(ORDER_TURN, "{player} was not dealt in but acts")
ORDER_TURN_ALL_IN: Final = Message(ORDER_TURN, "{player} is all-in and cannot act")
ORDER_TURN_ROUND_COMPLETE: Final = Message(ORDER_TURN, "{player} acts after the {street}-street betting was complete")

ORDER_STREETS_AFTER_WON: Final = Message(ORDER_STREETS, "{street} street after the hand was won")
ORDER_STREETS_START: Final = Message(ORDER_STREETS, "the hand should start on 3rd street, not {street}",
                                     actual="street")
ORDER_STREETS_NEXT: Final = Message(ORDER_STREETS, "after {street} street comes {expected}, not {new}",
                                    expected="expected", actual="new")
ORDER_STREETS_NO_BETTING: Final = Message(
    ORDER_STREETS, "no betting on {street} street before {until:street}; {player} was to act",
    expected="player", actual="until")
ORDER_STREETS_UNFINISHED: Final = Message(
    ORDER_STREETS, "{street} street betting unfinished before {until:street}: {player} to act",
    expected="player", actual="until")
ORDER_STREETS_ENDS_EARLY: Final = Message(ORDER_STREETS, "the hand ends on {street} street with {live} players live",
                                          actual="live")
ORDER_STREETS_SHOWDOWN_EARLY: Final = Message(
    ORDER_STREETS, "showdown after {street} street with {able} players still betting", actual="able")
ORDER_STREETS_CARDS_BEFORE_THIRD: Final = Message(ORDER_STREETS, "cards dealt before 3rd street")
ORDER_STREETS_ACTS_BEFORE_THIRD: Final = Message(ORDER_STREETS, "{player} acts before 3rd street", party=Party.PLAYER)
ORDER_STREETS_ONE_CAN_BET: Final = Message(
    ORDER_STREETS, "{player} acts on {street} street, but at most one player can still bet", party=Party.PLAYER)

# Bet sizes (fixed limit)

BET_SIZE_CALLS_MORE: Final = Message(BET_SIZE, "{player} calls {amount}, but only {owed} is owed",
                                     expected="owed", actual="amount")
BET_SIZE_NO_RAISE: Final = Message(BET_SIZE, "{player} {kind}s to {to}, which does not raise the {current} to call",
                                   expected="current", actual="to")
BET_SIZE_UNCALLABLE: Final = Message(
    BET_SIZE, "{player} {what}s to {to}, but nobody left could call it: only call or fold", actual="to")
BET_SIZE_SHORT: Final = Message(
    BET_SIZE, "{player} {what}s to {to}; a {what} here is to {sizes:or} (less only when all-in)",
    expected="sizes", actual="to")
BET_SIZE_WRONG: Final = Message(BET_SIZE, "{player} {what}s to {to}; a {what} here is to {sizes:or}",
                                expected="sizes", actual="to")

BET_OPEN_PAIR_NO_DOUBLE: Final = Message(
    BET_OPEN_PAIR, "{player} makes a double {what} on 4th street; razz has no open-pair double bet")
BET_OPEN_PAIR_NO_PAIR: Final = Message(
    BET_OPEN_PAIR, "{player} makes a double {what} on 4th street without an open pair")
BET_OPEN_PAIR_SMALL_AFTER_DOUBLE: Final = Message(
    BET_OPEN_PAIR, "after a double bet on 4th street every raise is {big}; {player} raises {small}",
    expected="big", actual="small")
BET_OPEN_PAIR_NOTICE_NO_DOUBLE: Final = Message(BET_OPEN_PAIR, "an open-pair double bet announced in razz",
                                                party=Party.SITE)
BET_OPEN_PAIR_NOTICE_STREET: Final = Message(BET_OPEN_PAIR, "an open-pair double bet announced outside 4th street",
                                             party=Party.SITE)
BET_OPEN_PAIR_NOTICE_NO_PAIR: Final = Message(
    BET_OPEN_PAIR, "an open-pair double bet announced with no open pair on 4th street", party=Party.SITE)

BET_CAP_RAISE: Final = Message(BET_CAP, "{player} raises after {bets} bets; the cap is {cap}",
                               expected="cap", actual="bets")
BET_CAP_NOTICE: Final = Message(BET_CAP, "the log says betting is capped after {bets} bets; the cap is {cap}",
                                expected="cap", actual="bets", party=Party.SITE)

BET_ALLIN_SHORT_CALL: Final = Message(
    BET_ALLIN, "{player} calls {amount} of {owed} without being all-in ({behind} behind)",
    expected="owed", actual="amount")
BET_ALLIN_NOT_REOPENED: Final = Message(
    BET_ALLIN, "{player} raises, but the all-in raise to {current} was less than half a bet "
               "and does not reopen the betting", actual="current")

BET_CHECK_MUST_BRING_IN: Final = Message(BET_CHECK, "{player} checks but must bring in")
BET_CHECK_FACING: Final = Message(BET_CHECK, "{player} checks facing {owed} to call", expected="owed")
BET_CHECK_CALLS_NOTHING: Final = Message(BET_CHECK, "{player} calls {amount} with nothing to call", actual="amount")

# Chips, pots, showdown

CHIPS_STACK_ALL_IN_WITH_CHIPS: Final = Message(CHIPS_STACK, "{player} is said to be all-in with {behind} behind",
                                               actual="behind")
CHIPS_STACK_MORE_THAN_STACK: Final = Message(CHIPS_STACK, "{player} puts in {chips} with only {behind} behind",
                                             expected="behind", actual="chips")

POT_UNCALLED_NO_SEAT: Final = Message(POT_UNCALLED, "uncalled bet returned to {player}, who has no seat")
POT_UNCALLED_NONE: Final = Message(POT_UNCALLED, "no bet was uncalled, yet {amount} returned to {player}",
                                   actual="amount")
POT_UNCALLED_WRONG: Final = Message(
    POT_UNCALLED, "the uncalled {expected} goes back to {top}, not {amount} to {player}",
    expected=("expected", "top"), actual=("amount", "player"))
POT_UNCALLED_NOT_RETURNED: Final = Message(POT_UNCALLED, "{player}'s uncalled {amount} was not returned",
                                           expected="amount")

POT_SIDE_COUNT: Final = Message(
    POT_SIDE, "the log states {count} pots ({stated:list}); the contributions make {pots} ({amounts:list})",
    expected="amounts", actual="stated")
POT_SIDE_STATED: Final = Message(POT_SIDE, "{pot} should be {amount}, the log says {stated}",
                                 expected="amount", actual="stated")
POT_SIDE_STATED_LESS_RAKE: Final = Message(POT_SIDE, "{pot} should be {amount} less rake, the log says {stated}",
                                           expected="amount", actual="stated")
POT_SIDE_NO_SUCH_POT: Final = Message(
    POT_SIDE, "{player} collects from side pot {pot}, but there is only 1 side pot", actual="pot")
POT_SIDE_NO_SUCH_POTS: Final = Message(
    POT_SIDE, "{player} collects from side pot {pot}, but there are only {side_pots} side pots",
    expected="side_pots", actual="pot")
# a collection in a hand nobody put a chip in: there is no pot to collect from
POT_SIDE_NO_POT: Final = Message(
    POT_SIDE, "{player} collects from {pot}, but nobody put a chip in: the hand has no pot")
POT_SIDE_NOT_ELIGIBLE: Final = Message(
    POT_SIDE, "{player} collects from {pot} but did not match it (eligible: {eligible:list})",
    expected="eligible", actual="player")
POT_SIDE_COLLECTED: Final = Message(POT_SIDE, "{pot} holds {net} after rake, but {collected} is collected from it",
                                    expected="net", actual="collected")

POT_TOTAL_STATED: Final = Message(
    POT_TOTAL, "total pot should be {computed} (contributions less returned bets), the log says {stated}",
    expected="computed", actual="stated")
POT_TOTAL_COLLECTED: Final = Message(
    POT_TOTAL, "collected {collected} + rake {rake} should equal the total pot {stated}",
    expected="stated", actual=("collected", "rake"))
POT_TOTAL_MORE_THAN_POT: Final = Message(POT_TOTAL, "collected {collected} is more than the pot {computed}",
                                         expected="computed", actual="collected")
POT_TOTAL_NOT_COLLECTED: Final = Message(
    POT_TOTAL, "nobody collects the pot of {computed}: the hand ends before its pot is awarded (cut short?)",
    expected="computed")

SHOWDOWN_ORDER_RUN_OUT: Final = Message(
    SHOWDOWN_ORDER, "after an all-in run-out hands show in dealing order: {first} first, not {player}",
    expected="first", actual="player")
SHOWDOWN_ORDER_FIRST_BETTOR: Final = Message(
    SHOWDOWN_ORDER, "{first} made the first bet ({street} street) and shows first, not {player}",
    expected="first", actual="player")
SHOWDOWN_ORDER_LAST_AGGRESSOR: Final = Message(
    SHOWDOWN_ORDER, "{first} made the last bet or raise ({street} street) and shows first, not {player}",
    expected="first", actual="player")
SHOWDOWN_ORDER_NO_BET: Final = Message(SHOWDOWN_ORDER, "nobody bet the final round: {first} shows first, not {player}",
                                       expected="first", actual="player")
SHOWDOWN_ORDER_NO_BET_FIRST_TO_ACT: Final = Message(
    SHOWDOWN_ORDER, "nobody bet the final round: {first}, first to act, shows first, not {player}",
    expected="first", actual="player")
SHOWDOWN_ORDER_SIDE_POTS: Final = Message(
    SHOWDOWN_ORDER, "side pots show first, from the last: {player} after {last}, who is all-in for less",
    actual="player")
SHOWDOWN_ORDER_CLOCKWISE: Final = Message(SHOWDOWN_ORDER, "hands show clockwise from {base}: {player} after {last}",
                                          actual="player")

SHOWDOWN_AWARD_NO_SEAT: Final = Message(SHOWDOWN_AWARD, "{player} collects but has no seat")
SHOWDOWN_AWARD_FOLDED: Final = Message(SHOWDOWN_AWARD, "{player} folded but collects from {pot}")
SHOWDOWN_AWARD_POT: Final = Message(SHOWDOWN_AWARD, "{pot}: expected {want:shares}; the log has {got:shares}",
                                    expected="want", actual="got")
SHOWDOWN_AWARD_POT_TO_NOBODY: Final = Message(SHOWDOWN_AWARD, "{pot}: expected {want:shares}; the log has nobody",
                                              expected="want")
SHOWDOWN_AWARD_HAND: Final = Message(SHOWDOWN_AWARD, "expected {want:shares}; the log has {got:shares}",
                                     expected="want", actual="got")


MESSAGES: Final[dict[str, Message]] = {
    name: value for name, value in globals().items() if isinstance(value, Message)
}
"""Every message by its name."""

SAYS: Final[dict[str, tuple[Message, ...]]] = {
    rule: tuple(m for m in MESSAGES.values() if m.rule == rule) for rule in sorted(RULE_IDS)
}
"""Each rule id: the messages it can say (none for a rule never flagged)."""
