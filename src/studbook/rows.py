"""The tables' rows: what the checker found, as tuples of plain Python values.

The store's write path and the frames share this stage: :func:`rows_from_checks`
turns check results into the rows of every table of :data:`SCHEMA`, in column
order, and nothing here imports pandas, so ``studbook import`` (which only
writes rows to SQLite) does not pay for it. :mod:`studbook.frames` types the
rows into DataFrames and re-exports these names.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from operator import itemgetter, pos
from typing import Any, Callable, Iterable, Sequence

from studbook.cards import DECK, RANKS, SUITS, Card, format_cards
from studbook.engine.messages import value_text
from studbook.engine.result import HandCheck, fact_fields
from studbook.events import (
    BRING_IN,
    RAZZ,
    STUD8,
    THIRD,
    Action,
    ActionKind,
    Deal,
    Hand,
    Note,
    PostAnte,
    Rejected,
    Skipped,
    Stakes,
    Street,
    Structure,
    TournamentFinish,
    Variant,
)
from studbook.money import MONEY_DIGITS, Money, format_amount
from studbook.read.memo import Memo

MONEY_SCALE = 10**MONEY_DIGITS
"""Amount columns hold ``amount * MONEY_SCALE`` as int64 (cents, or 1/100 chip)."""

CheckResult = HandCheck | Rejected | Skipped


# ---------------------------------------------------------------------------
# Schema: the one description of every column, used to type frames and tables


MINOR_UNITS = "minor"
"""The unit of every amount column: integer minor units, the amount times :data:`MONEY_SCALE`."""
WHOLE_UNITS = "whole"
"""The unit of a money figure as a float of whole units (``stats.compute``'s money stats):
dollars, euros, chips; named, as :data:`MINOR_UNITS` is, in the frame's ``attrs["units"]``."""


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    dtype: str  # a pandas dtype name
    doc: str
    unit: str = ""  # MINOR_UNITS for an amount column
    order: tuple[str, ...] | str | None = None
    """A category column's order: None, its values sorted as text; ``NATURAL``, ids that
    are all digits by their number (then the others as text); a tuple, that order
    (the column is then an ordered categorical)."""


NATURAL = "natural"


def _cols(*specs: tuple[Any, ...]) -> tuple[Column, ...]:
    return tuple(Column(*spec) for spec in specs)


def _money(name: str, doc: str, dtype: str = "int32") -> tuple[str, str, str, str]:
    """An amount column: integer minor units (int64 when a value needs it, see schema_markdown)."""
    return (name, dtype, doc, MINOR_UNITS)


_KEY = (
    ("site", "category", "site short name, e.g. 'pokerstars'"),
    ("hand_id", "category", "the site's hand number; (site, hand_id) identifies a hand; "
                            "sorts as numbers where ids are all digits", "", NATURAL),
)
_MONEY_OPT = "Int32"
_CARD_ORDER = tuple(rank + suit for rank in RANKS for suit in SUITS)  # 2c 2d ... As: by rank, then suit

STUD_CLASSES = (
    "rolled-up trips", "buried pair", "split pair", "three to a flush",
    "three to a straight", "three low (8 or under)", "high cards", "ace and two small",
    "one high card (T to K)", "three small (9 or under)",
)
"""Stud and stud8 classes, first match wins; 'three low' is used for stud8 only."""

RAZZ_CLASSES = tuple(f"{rank}-low" for rank in "345678") + ("9-low", "T-low", "J-low",
                                                            "Q-low", "K-low", "paired")
"""Razz classes: the highest of three different ranks, ace low; or 'paired'."""

VARIANT_CLASSES: dict[str, tuple[str, ...]] = {
    "stud": tuple(name for name in STUD_CLASSES if not name.startswith("three low")),
    "stud8": STUD_CLASSES,
    "razz": RAZZ_CLASSES,
}
"""The classes :func:`starting_class` gives each variant's starts, in order."""

START_CLASSES = STUD_CLASSES + RAZZ_CLASSES
"""Every starting-hand class, in order (stud's and stud8's, then razz's)."""

_STORED_CLASSES = START_CLASSES + ("other",)
# 'other': stud's catch-all in stores imported before it was split into the last three stud classes


SCHEMA: dict[str, tuple[Column, ...]] = {
    "hands": _cols(
        *_KEY,
        ("variant", "category", "'stud', 'stud8' or 'razz'"),
        ("structure", "category", "'fixed', 'pot' or 'no' (limit)"),
        ("game", "category", "the game as the log wrote it"),
        ("mix", "category", "mixed-game rotation (e.g. 'HORSE'), NA when none"),
        ("currency", "category", "ISO currency code; NA for chips (tournament, play money)"),
        ("play_money", "bool", "play-money hand"),
        ("stakes", "category", "small/big bet as written, e.g. '$0.04/$0.08 USD'"),
        _money("small_bet", "small bet (3rd, 4th street), minor units"),
        _money("big_bet", "big bet (5th to 7th street), minor units"),
        _money("ante", "ante, minor units: the header's, else the one most players posted; NA when none", _MONEY_OPT),
        _money("bring_in", "bring-in, minor units: the header's, else the one posted (not all-in); NA when none", _MONEY_OPT),
        ("tournament", "category", "tournament id; NA for cash games"),
        ("buy_in", "category", "tournament buy-in as written"),
        ("level", "category", "tournament level as written"),
        ("table", "category", "table name"),
        ("max_seats", "Int8", "seats at the table, NA when not stated"),
        ("started_utc", "datetime64[ns, UTC]", "start time in UTC; NaT when unknown or written without a zone (never taken as UTC)"),
        ("started", "string", "start time exactly as written"),
        ("players", "int8", "players dealt in"),
        _money("pot", "total pot: every contribution less uncalled bets returned"),
        _money("rake", "rake taken, minor units"),
        ("pot_bb", "float64", "pot in big bets (float convenience)"),
        ("went_to_showdown", "bool", "two or more players were live at the end (marked showdown or not)"),
        ("status", "category", "'ok' or 'violations' (the checker's verdict)"),
        ("violations", "int8", "number of rule violations found"),
        ("file", "category", "file the hand came from"),
        ("line", "int32", "first line of the hand in that file"),
        ("end_line", "int32", "last line of the hand"),
        ("notes", "int32", "lines of the hand that carry no play (see the notes table)"),
        ("hero", "category", "the player the log marks as its own (Bovada's [ME], iPoker's nickname, the "
                             "one its deal lines show down cards to); NA when it marks nobody"),
        ("hero_mark", "category", "how the log marks the hero: '[ME]', '<nickname>' or 'deal' (its deal "
                                  "lines); NA when it marks nobody"),
    ),
    "players": _cols(
        *_KEY,
        ("variant", "category", "the hand's variant (repeated for convenience)"),
        ("player", "category", "player name"),
        ("seat", "int8", "seat number"),
        _money("stack", "chips at the start of the hand, minor units"),
        _money("big_bet", "the hand's big bet, minor units (repeated for convenience)"),
        ("door", "category", "the 3rd-street up card, e.g. 'Kd'; NA when unknown; ordered by rank, then suit",
         "", _CARD_ORDER),
        ("up_cards", "string", "up cards in deal order, space separated ('' if none known)"),
        ("down_cards", "string", "down cards the log revealed, space separated ('' if none)"),
        ("start_cards", "string", "the three 3rd-street cards (2 down, door) when all are known"),
        ("start_class", "category", "starting-hand class of start_cards (see stats); NA if unknown; ordered "
                                    "as STUD_CLASSES, then RAZZ_CLASSES (strongest first, razz lowest first); "
                                    "'other' (last) in stores imported before stud's catch-all was split",
         "", _STORED_CLASSES),
        ("brought_in", "bool", "this player posted the bring-in"),
        ("last_street", "int8", "last street the player was live on, 3..7"),
        ("folded", "bool", "the player folded"),
        ("all_in", "bool", "the player was all-in at some point"),
        ("showdown", "bool", "the player was live at a showdown"),
        ("showed", "bool", "the player showed cards"),
        ("won_at_showdown", "bool", "the player won (part of) a pot at showdown"),
        _money("contributed", "antes and bets, less uncalled bets returned"),
        _money("collected", "chips taken from pots"),
        _money("net", "collected - contributed"),
        ("net_bb", "float64", "net in big bets (float convenience)"),
        _money("high_won", "chips won from high halves and whole pots"),
        _money("low_won", "chips won from low halves (stud8; razz pots count as high/whole)"),
        ("finish_place", "Int16", "the place the player finished the tournament in, where this hand's log "
                                  "states it (the hand they went out in or won it in; an iPoker "
                                  "tournament session states its hero's on every hand); NA otherwise"),
        _money("finish_prize", "the prize that line states, minor units of the tournament's money; NA when none", _MONEY_OPT),
    ),
    "actions": _cols(
        *_KEY,
        ("seq", "int8", "order of the action in the hand, from 0"),
        ("line", "int32", "line of the action in the file"),
        ("street", "int8", "3..7"),
        ("player", "category", "who acted"),
        ("kind", "category", "bring_in, complete, bet, raise, call, check or fold; a bet or raise that faces "
                             "only the bring-in is `complete`, whatever the site wrote (`studbook.betting`)"),
        _money("amount", "the first figure the log wrote (a raise's increment)", _MONEY_OPT),
        _money("to", "the player's street total after the action, where the log says", _MONEY_OPT),
        _money("put_in", "chips this action added to the pot (derived)"),
        ("all_in", "bool", "the action put the player all-in"),
        _money("to_call", "chips the player needed to call before acting (derived)"),
        ("facing_bet", "bool", "to_call > 0 (the bring-in counts as a bet to call)"),
        ("bets_before", "int8",
         "bets this round before the action: completion/bet = 1, each raise +1; "
         "the bring-in alone is 0"),
        _money("pot_before", "pot before the action: antes and bets so far, less returns"),
    ),
    "pots": _cols(
        *_KEY,
        ("pot", "int8", "0 for the main (or only) pot, k for side pot k"),
        ("pot_kind", "category", "'main' or 'side'"),
        _money("pot_amount", "the pot's size, minor units"),
        ("eligible", "string", "players eligible for the pot, comma separated"),
        ("half", "category", "'whole' (no split), 'high' or 'low'"),
        ("winner", "category", "who took this half; NA when nobody is recorded"),
        _money("won", "what the winner took from this half"),
    ),
    "violations": _cols(
        *_KEY,
        ("variant", "category", "the hand's variant"),
        ("rule", "category", "rule id from docs/rules.md, e.g. 'bet.size'"),
        ("file", "category", "file of the hand"),
        ("line", "int32", "line of the event that broke the rule"),
        ("player", "category", "the player at fault (party 'player'), else the one the rule names; NA if none"),
        ("message", "string", "expected vs found"),
        # added in schema version 5 (at the end: an older store gains them by ALTER TABLE)
        ("street", "category", "the street the rule concerns ('3rd' ... '7th'), NA before 3rd street"),
        ("party", "category", "who is at fault: 'player' (a player's action) or 'site' (money, cards, awards)"),
        ("seat", "Int8", "that player's seat, NA when none"),
        ("expected", "string", "what the rule expected, as the message writes it; NA when it compares no value"),
        ("actual", "string", "what the log has instead, as the message writes it; NA when none"),
    ),
    "rejects": _cols(
        ("status", "category", "'rejected' (unreadable) or 'skipped' (not a stud game)"),
        ("site", "category", "site when known, else NA"),
        ("hand_id", "string", "hand id when known, else NA"),
        ("file", "category", "file"),
        ("line", "int32", "the offending line (first line of the hand for skipped)"),
        ("hand_line", "int32", "first line of the hand"),
        ("reason", "category", "why"),
        ("text", "string", "the offending text ('' when none), or the skipped game"),
    ),
    "notes": _cols(
        *_KEY,
        ("file", "category", "file of the hand"),
        ("line", "int32", "the line in that file"),
        ("text", "string", "the line as written: one no rule of the site's format reads, that carries no play"),
    ),
}
TABLES: tuple[str, ...] = tuple(SCHEMA)
assert TABLES == ("hands", "players", "actions", "pots", "violations", "rejects", "notes")  # add_rows' order


SHARED_CATEGORIES: dict[str, str] = {
    "site": "site", "hand_id": "hand_id", "player": "player", "winner": "player",
    "file": "file", "variant": "variant",
}
"""Categorical columns (by name) whose categories are one set across the tables: column -> domain."""



def table_columns(table: str, names: Iterable[str] | None = None) -> list[Column]:
    """The schema's columns of ``table``, in schema order: all, or ``names`` and the
    key columns (``site``, ``hand_id``), which are always kept so that tables join.
    ValueError for a table or column that does not exist."""
    if table not in SCHEMA:
        raise ValueError(f"no table {table!r}; the tables are {', '.join(TABLES)}")
    columns = SCHEMA[table]
    if names is None:
        return list(columns)
    wanted = set(names) if not isinstance(names, str) else {names}
    unknown = wanted - {c.name for c in columns}
    if unknown:
        raise ValueError(f"no column {', '.join(sorted(unknown))} in {table}; "
                         f"its columns are {', '.join(c.name for c in columns)}")
    keys = {"site", "hand_id"} if table != "rejects" else set()
    return [c for c in columns if c.name in wanted or c.name in keys]



def to_minor(amount: Money) -> int:
    """``amount`` in minor units; ValueError when that would round."""
    return _MINOR[str(amount)]


def _exact_minor(amount: Money) -> int:
    """``amount`` in minor units, worked out (:func:`to_minor` remembers it by its text).
    The amount as a fraction in lowest terms is exact and takes no decimal context: a
    third of what scaling the Decimal, rounding it and comparing the two cost. The amount is
    whole minor units exactly when that fraction's denominator divides :data:`MONEY_SCALE`: a
    look-up of the factor, where a ``divmod``, its pair and a test of the rest cost a fifth more."""
    numerator, denominator = amount.as_integer_ratio()
    try:
        return numerator * _SCALE_FACTORS[denominator]
    except KeyError:  # (a `try` costs nothing on 3.11 until it catches; a subscript is cheaper than `get`)
        raise ValueError(f"amount {amount} is finer than 1/{MONEY_SCALE} of a unit") from None


_SCALE_FACTORS = {denominator: MONEY_SCALE // denominator
                  for denominator in range(1, MONEY_SCALE + 1) if MONEY_SCALE % denominator == 0}
"""What a fraction of each denominator that divides :data:`MONEY_SCALE` (1, 2, 4, 5, 10, 20, 25,
50, 100) is multiplied by to give minor units: 1/4 is 25 hundredths."""


_MINOR: Memo[str, int] = Memo(lambda text: _exact_minor(Decimal(text)))
"""Each amount's minor units by its text: a hand repeats the same few amounts, each converted
once. Keyed by ``str(amount)``, not the Decimal: most amounts the rows take are new objects
the engine computed (totals, calls, pots), and hashing a new Decimal costs three times as
much as writing it out (``str`` is exact, so equal texts are equal amounts)."""

_WRITTEN: Memo[Money, int] = Memo(_exact_minor)
"""The minor units of the amounts the log wrote (the events' figures: antes, bets, raises), by the
Decimal. A reader makes one Decimal a written form (``sites.lines.AMOUNTS``) and Python keeps a
Decimal's hash once worked out, so these are found without writing them out (some 300
instructions, where ``str`` and :data:`_MINOR` cost 2,000). (Equal amounts have equal minor units, whatever their exponents,
and a chip amount read as an int meets its equal Decimal's entry.) The
engine's figures are new Decimals, whose hash would cost more than the text: :data:`_MINOR`."""


FigureKeys = tuple[Callable[[Money], Any], Memo[Any, int]]
"""How a hand's engine figures (totals, calls, pots) find their minor units: ``memo[key(amount)]``."""
_BY_TEXT: FigureKeys = (str, _MINOR)  # a cash hand's: new Decimals, by their text
_BY_VALUE: FigureKeys = (pos, _WRITTEN)
"""A chip hand's (i34e14: amounts written as whole chips are ints, and the engine counts from an int
zero): by the amount itself, an int's hash being the int, where ``str`` writes it out (and its text
is hashed anew). ``pos`` gives an int back as it is; a Decimal a chip hand may still hold comes as an
equal Decimal, which :data:`_WRITTEN` converts by its value, exactly."""


def _figure_keys(hand: Hand) -> FigureKeys:
    """:data:`_BY_VALUE` for a hand of chips (its stakes' zero an int, the engine's zero too:
    ``Stakes.zero``, ``Table.zero``), else :data:`_BY_TEXT`."""
    return _BY_VALUE if hand.header.stakes.zero.__class__ is int else _BY_TEXT


def from_minor(value: int) -> Decimal:
    """The exact Decimal amount of a minor-units value."""
    return Decimal(int(value)).scaleb(-MONEY_DIGITS)


# ---------------------------------------------------------------------------
# Building the rows

def rows_from_checks(results: Iterable[CheckResult], null: Any = None) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of every table from checker results: tuples of plain Python
    values in :data:`SCHEMA` order (what the frames and the store are made of;
    booleans are the ints 0 and 1, which SQLite binds without an adapter).
    ``null`` stands for a missing value in the players, actions and pots rows (see :func:`add_rows`)."""
    rows: dict[str, list[tuple[Any, ...]]] = {table: [] for table in TABLES}
    tables = tuple(rows.values())
    for result in results:
        add_rows(result, tables, null)
    return rows


def add_rows(result: CheckResult, tables: Sequence[list[tuple[Any, ...]]], null: Any = None) -> None:
    """Append one result's rows to ``tables``, the lists of every table in :data:`TABLES`
    order (what :func:`rows_from_checks` does for each result; the store's write path
    calls it as each result is checked, while the result is still in the caches).
    ``null`` is what the players, actions and pots rows hold for a missing value (most of
    the missing values a hand has): None for the frames, the store's ``NULL`` for SQLite."""
    hands, players, actions, pots, violations, rejects, notes = tables
    if isinstance(result, HandCheck):
        try:
            hand, hand_players, hand_actions, hand_pots, hand_violations, hand_notes = _hand_rows(result, null)
        except ValueError as error:
            rejects.append(_unrepresentable(result.hand, str(error)))
            return
        hands.append(hand)
        players.extend(hand_players)
        actions.extend(hand_actions)
        if hand_pots:
            pots.extend(hand_pots)
        if hand_violations:
            violations.extend(hand_violations)
        if hand_notes:
            notes.extend(hand_notes)
    elif isinstance(result, Rejected):
        rejects.append(_rejected_row(result))
    elif isinstance(result, Skipped):
        rejects.append(_skipped_row(result))
    else:
        raise TypeError(f"not a check result: {type(result).__name__}")


def _rejected_row(rejected: Rejected) -> tuple[Any, ...]:
    return ("rejected", rejected.site, rejected.hand_id, rejected.file, rejected.line,
            rejected.hand_line, rejected.reason, rejected.text)


def _skipped_row(skipped: Skipped) -> tuple[Any, ...]:
    return ("skipped", skipped.site, skipped.hand_id, skipped.file, skipped.line, skipped.line,
            skipped.reason, skipped.game)


def _unrepresentable(hand: Hand, reason: str) -> tuple[Any, ...]:
    return ("rejected", hand.site, hand.hand_id, hand.file, hand.line, hand.line,
            f"cannot store exactly: {reason}", "")


Rows = list[tuple[Any, ...]]
_VALUE: dict[Any, str] = {member: member.value for kind in (Variant, Structure, ActionKind) for member in kind}
"""Each enum member's value: a dict lookup is cheaper than the enum's ``value`` property."""
_STREET: dict[Street | None, int] = {None: 3, **{street: int(street) for street in Street}}
"""An action's street as the actions rows write it (3 for one logged before 3rd street)."""


def _hand_rows(check: HandCheck, null: Any) -> tuple[tuple[Any, ...], Rows, Rows, Rows, Rows, Rows]:
    """One hand's rows: its hands row, then its players, actions, pots, violations and notes rows."""
    hand = check.hand
    header = hand.header
    site, hand_id = key = (header.site, header.hand_id)
    stakes = _stakes_figures(hand)  # the last hand's, mostly
    big_bet = stakes.big_bet
    seen = _scan(hand)
    variant = _VALUE[header.variant]
    figures = stakes.figures
    pots, won = _pot_rows(check, key, figures, null)
    per_bb = stakes.per_bb
    players = _player_rows(site, hand_id, variant, big_bet, per_bb, check, seen, won, figures, null)
    pot = sum(map(_CONTRIBUTED, players))
    tournament = header.tournament
    hero, hero_mark = hand.marked_hero(seen.dealt) or _NO_HERO  # (in the row by name: no list made for a `*`)
    hand_row = (
        site, hand_id, variant, _VALUE[header.structure], header.game, header.mix,
        header.currency, 1 if header.play_money else 0, stakes.label, stakes.small_bet, big_bet,
        seen.ante() if stakes.ante is None else stakes.ante,
        seen.bring_in if stakes.bring_in is None else stakes.bring_in,
        tournament.id if tournament else None,
        tournament.buy_in if tournament else None,
        tournament.level if tournament else None,
        header.table, header.max_seats, _aware(header.started_utc), header.started,
        len(players) or len(hand.players()),
        pot, _MINOR[str(rake)] if (rake := check.rake) else 0, pot / per_bb,  # most hands' rake is 0
        1 if check.went_to_showdown else 0, check.status, len(check.violations),
        hand.file, hand.line, hand.end_line, len(seen.notes), hero, hero_mark,
    )
    # most hands have no notes: no comprehension made for none (on 3.11, a function object each)
    notes = [(site, hand_id, n.file, n.line, n.text) for n in seen.notes] if seen.notes else []
    violations = _violation_rows(check) if check.violations else []  # most hands have none: no call
    return hand_row, players, _action_rows(check, site, hand_id, figures, null), pots, violations, notes


@dataclass(frozen=True, slots=True)
class _StakesFigures:
    """What the rows take from a hand's stakes: the hands row's label and forced bets in minor
    units (``ante``, ``bring_in``: the header's, None where it does not say), what an amount is
    divided by to give it in big bets, and how the engine's figures find their minor units."""

    stakes: Stakes  # the header's object these were worked out from
    currency: str | None  # the label names it
    label: str
    small_bet: int
    big_bet: int
    ante: int | None
    bring_in: int | None
    per_bb: float
    figures: FigureKeys


def _stakes_figures(hand: Hand) -> _StakesFigures:
    """The hand's :class:`_StakesFigures`: the last hand's where the header holds the very same
    :class:`Stakes` object (frozen: the same figures) and currency. A reader makes one object a
    file's stakes (all but its first hand meet it here): two amounts written out, three
    look-ups and two calls a hand, where an ``is`` and a compare cost little. (The stakes'
    amounts are so converted before the log's: a hand built in code with a stake and another
    amount finer than a minor unit is rejected naming the stake. A reader refuses both.)"""
    header = hand.header
    stakes = header.stakes
    last = _LAST_STAKES[0]
    if last is not None and last.stakes is stakes and last.currency == header.currency:
        return last
    minor = _MINOR
    small_text, big_text = str(stakes.small_bet), str(stakes.big_bet)  # for the label too
    big_bet = minor[big_text]
    worked_out = _LAST_STAKES[0] = _StakesFigures(
        stakes, header.currency, _LABELS[(small_text, big_text, header.currency)], minor[small_text], big_bet,
        None if stakes.ante is None else minor[str(stakes.ante)],
        None if stakes.bring_in is None else minor[str(stakes.bring_in)],
        _big_bets(big_bet), _figure_keys(hand))
    return worked_out


_LAST_STAKES: list[_StakesFigures | None] = [None]
"""The last hand's :class:`_StakesFigures` (one: a file's hands share theirs). It holds what
:data:`_MINOR`, :data:`_LABELS` and :func:`_figure_keys` gave: a test that replaces one of
those empties it first (``tests/test_frames.py`` does for every test)."""


def _aware(when: datetime | None) -> datetime | None:
    """A start time with a zone; one without is not taken as UTC but left unknown
    (NaT), the time as written staying in ``started``."""
    return when if when is not None and when.tzinfo is not None else None


def _label(key: tuple[str, str, str | None]) -> str:
    small_bet, big_bet, currency = Decimal(key[0]), Decimal(key[1]), key[2]
    symbol = {"USD": "$", "EUR": "€", "GBP": "£"}.get(currency or "", "")
    text = f"{format_amount(small_bet, symbol)}/{format_amount(big_bet, symbol)}"
    return f"{text} {currency}" if currency else text


_LABELS: Memo[tuple[str, str, str | None], str] = Memo(_label)
"""Each stakes' label by the bets' texts, made once: a file's hands share their stakes.
(Keyed by the texts, not the Decimals: 0.04 and 0.040 are equal Decimals, with labels
of their own.)"""


def _big_bets(big_bet: int) -> float:
    """What an amount is divided by to give it in big bets (``pot_bb``, ``net_bb``): the big
    bet, or NaN when it is 0 (every such figure is then NaN). Worked out once a hand."""
    return big_bet or _NAN


_NAN = float("nan")


def _player_rows(site: str, hand_id: str, variant: str, big_bet: int, per_bb: float, check: HandCheck,
                 seen: _Seen, won: dict[str, list[int]], figures: FigureKeys, null: Any) -> Rows:
    text, minor = figures
    classes = _CLASSES[variant]  # starting classes, by ClassKey
    streets = _STREET
    showdown = check.went_to_showdown
    brought_in = seen.brought_in
    starts = seen.starts
    finishes = seen.finishes
    rows: Rows = []
    for result in check.players:
        player = result.player
        up = result.up_cards
        down = result.down_cards
        # the door is the first up card; a run of one card (most players' up cards: those who
        # fold on 3rd street) is its card's text, written as the card was made: no call, no list
        door = up[0].text if up else null
        up_text = (door if len(up) == 1 else format_cards(up)) if up else ""
        down_text = format_cards(down) if down else ""
        start = starts.get(player)
        if len(down) >= 2 and up and (start is None or (
                start[0] is down[0] and start[1] is down[1] and start[2] is up[0])):
            # the engine lists revealed down cards in deal order: the first two are 3rd street's. A
            # start its deal line showed is mostly those very cards (the same objects): its text too
            # is cut from theirs, written already (a third text written costs a call and a list)
            start = start or (down[0], down[1], up[0])
            start_cards = f"{down_text[:5]} {door}"  # every card is written in two characters
        elif start is not None:
            start_cards = format_cards(start)
        else:
            start_cards = null
        contributed = minor[text(result.contributed)]
        collected = minor[text(result.collected)] if result.collected else 0  # most players take nothing
        net = collected - contributed  # the engine's net, exactly: both are whole minor units
        place = prize = null  # the tournament finish this hand states, rarely any
        if finishes and player in finishes:
            finish = finishes[player]
            place, prize = finish.place, null if finish.prize is None else to_minor(finish.prize)
        high, low = won.get(player, _NOTHING_WON)
        # the stack is worked out, not looked up: stacks are mostly amounts not met before
        # (4.7 of a hand's 6 missed the memo), and a miss costs three conversions
        rows.append((
            site, hand_id, variant, player, result.seat, _exact_minor(result.stack), big_bet,
            door, up_text, down_text, start_cards, classes[(start[0].rank, start[1].rank, start[2].rank,
                                  start[0].suit == start[1].suit == start[2].suit)] if start else null,
            1 if player == brought_in else 0,
            streets[result.last_street], 1 if result.folded else 0, 1 if result.all_in else 0,
            1 if showdown and not result.folded else 0,
            1 if result.showed else 0, 1 if result.won_at_showdown else 0,
            contributed, collected, net, net / per_bb,
            high, low, place, prize,
        ))
    return rows


_NOTHING_WON = (0, 0)
_CONTRIBUTED = itemgetter([c.name for c in SCHEMA["players"]].index("contributed"))  # a players row's
_NO_HERO = (None, None)  # a hands row's hero and hero_mark when the log marks nobody


def _pot_rows(check: HandCheck, key: tuple[str, str], figures: FigureKeys, null: Any
              ) -> tuple[Rows, dict[str, list[int]]]:
    """The pots rows, and what each winner took: [from high halves and whole pots, from low halves]."""
    text, minor = figures
    site, hand_id = key
    rows: Rows = []
    won: dict[str, list[int]] = {}
    for award in check.pots:
        number = award.pot
        base = (site, hand_id, number, "main" if number == 0 else "side", minor[text(award.amount)],
                ", ".join(award.eligible))
        # each half's name, where `won` counts it, its winners (a row is `base` and three more:
        # a concatenation, where a display with `*base` builds a list and copies it)
        halves = ((("high", 0, award.high), ("low", 1, award.low)) if award.low
                  else (("whole", 0, award.high),))
        recorded = False
        for half, column, winners in halves:
            for winner, amount in winners:
                taken = minor[text(amount)]
                rows.append(base + (half, winner, taken))
                shares = won.get(winner)
                if shares is None:
                    shares = won[winner] = [0, 0]
                shares[column] += taken
                recorded = True
        if not recorded:
            rows.append(base + ("whole", null, 0))
    return rows, won


def _violation_rows(check: HandCheck) -> Rows:
    """The violations rows of a hand the checker found some in."""
    hand = check.hand
    return [
        (hand.site, hand.hand_id, hand.variant.value, v.rule, hand.file, v.line, v.player, v.message,
         None if v.street is None else v.street.label, v.party.value, v.seat,
         None if v.expected is None else value_text(v.expected), None if v.actual is None else value_text(v.actual))
        for v in check.violations
    ]


# ---------------------------------------------------------------------------
# What the rows take from the events (one pass), and the actions rows


@dataclass(slots=True)
class _Seen:
    """What a hand's log shows beyond the engine's results: its forced bets (minor
    units), each player's three 3rd-street cards, tournament finishes and notes, and
    the players it deals down cards to (for :meth:`Hand.marked_hero`). Made by :func:`_scan`
    once its pass is over, every field given: a class call with none runs a factory a field.
    Never changed after, but not frozen: a frozen class's ``__init__`` sets each of its seven
    fields through ``object.__setattr__``, once a hand."""

    antes: list[int]  # those not all-in
    brought_in: str | None
    bring_in: int | None  # when not all-in
    starts: dict[str, tuple[Card, Card, Card]]  # deal lines showing all three
    finishes: dict[str, TournamentFinish]
    notes: list[Note]
    dealt: set[str]  # players dealt down cards the log shows

    def ante(self) -> int | None:
        """The ante most players posted (the larger on a tie)."""
        antes = self.antes
        if not antes:
            return None
        first = antes[0]
        if antes.count(first) == len(antes):  # the usual hand: everyone posted the same
            return first
        return max(set(antes), key=lambda a: (antes.count(a), a))


def _scan(hand: Hand) -> _Seen:
    """The hand's :class:`_Seen`, in one pass over its events. Events are told by
    their exact type (none of these has a subclass): cheaper than ``isinstance``. The type
    is taken once an event and the types are locals, betting actions (a third of a hand's
    events) asked first, then deals and antes: most events meet one or two comparisons.
    What is gathered is held in locals, the record made at the end."""
    written = _WRITTEN
    action, deal, post_ante, note, finish, bring_in = Action, Deal, PostAnte, Note, TournamentFinish, BRING_IN
    antes: list[int] = []
    brought_in: str | None = None
    bring_in_units: int | None = None
    starts: dict[str, tuple[Card, Card, Card]] = {}
    finishes: dict[str, TournamentFinish] = {}
    notes: list[Note] = []
    dealt: set[str] = set()
    # the last ante's amount and its minor units: a hand's antes are mostly one Decimal (a reader
    # makes one a written form), whose units the one before worked out (an `is`, not a look-up)
    ante_amount: Any = None
    ante_units = 0
    events: tuple[Any, ...] = hand.events  # told apart by `kind is`, which mypy does not narrow by
    for event in events:
        kind = type(event)
        if kind is action:
            if brought_in is None and event.kind is bring_in:  # once found, an action's one test
                brought_in = event.player
                if not event.all_in and event.amount is not None:
                    bring_in_units = written[event.amount]
        elif kind is deal:
            if event.down:
                dealt.add(event.player)
                if event.street is THIRD and len(event.down) == 2 and len(event.up) == 1:
                    starts[event.player] = (event.down[0], event.down[1], event.up[0])
        elif kind is post_ante:
            if not event.all_in:
                if event.amount is not ante_amount:
                    ante_amount = event.amount
                    ante_units = written[ante_amount]
                antes.append(ante_units)
        elif kind is note:
            notes.append(event)
        elif kind is finish and event.player is not None:
            finishes[event.player] = event
    return _Seen(antes, brought_in, bring_in_units, starts, finishes, notes, dealt)


def _action_rows(check: HandCheck, site: str, hand_id: str, figures: FigureKeys, null: Any) -> Rows:
    """One row an action: the logged figures beside the engine's facts (``HandCheck.actions``,
    taken field by field from its records: no object an action). A check or a fold puts
    nothing in, and most actions owe nothing: a zero amount is 0 without writing it out. After
    such an action the pot is the engine's same Decimal as before it (8 of a hand's 18 pots):
    its minor units are the last row's. What an action put in is mostly the figure the log
    wrote (a call's, bet's or bring-in's amount, a first raise's total: 9.6 of a hand's 9.8), and
    a call's owed what it put in (5.7 of 10.6): an equal amount has the same minor units, so
    these are compared (some 350 instructions) where writing a new amount out and looking it
    up costs 1,300. (The engine's figures by ``figures``, the hand's :func:`_figure_keys`.)
    A loop, not a comprehension: the names a comprehension carries from one row to the next
    (the last pot) or reuses within a row are cells on 3.11, each read and write an indirection
    (a simulated hand's rows 6 k instructions dearer so). The figures are converted in the
    columns' order, so that an amount that cannot be stored names the same first figure."""
    text, minor = figures
    written = _WRITTEN
    value = _VALUE
    streets = _STREET
    rows: Rows = []
    keep = rows.append
    pot = last_pot = None  # the last row's pot, and the engine's Decimal it was written from
    for number, (event, street, kind, put_in, to_call, bets_before, pot_before) in enumerate(
            fact_fields(check.action_log)):
        amount = event.amount
        logged = null if amount is None else written[amount]
        to = event.to
        total = null if to is None else written[to]
        put = 0 if not put_in else logged if put_in == amount else total if put_in == to else minor[text(put_in)]
        owed = 0 if not to_call else put if to_call == put_in else minor[text(to_call)]
        if pot_before is not last_pot:
            pot = minor[text(pot_before)]
            last_pot = pot_before
        keep((site, hand_id, number, event.line, streets[street], event.player, value[kind], logged, total, put,
              1 if event.all_in else 0, owed, 1 if owed > 0 else 0, bets_before, pot))
    return rows


# ---------------------------------------------------------------------------
# Starting-hand classes


def starting_class(cards: Sequence[Card], variant: Variant | str) -> str:
    """The class of three 3rd-street cards ``(down, down, door)``.

    Stud / stud8, first match wins: rolled-up trips (three of a rank); buried
    pair (the two down cards pair); split pair (the door pairs a down card);
    three to a flush; three to a straight (three different ranks within a span
    of five, ace high or low: 5-6-8 and A-2-4 count); stud8 only: three low
    (three different ranks 8 or under, ace low); high cards (two or more cards
    ten or higher); ace and two small (an ace, the others 9 or under); one high
    card (one ten, jack, queen or king, the others 9 or under); three small
    (every card 9 or under). Razz: '<r>-low' where r is the highest of three
    different ranks counting the ace low (A-2-3 is '3-low'), else 'paired'.
    """
    down1, down2, door = cards
    return _class_of((down1.rank, down2.rank, door.rank, down1.suit == down2.suit == door.suit), Variant(variant))


ClassKey = tuple[int, int, int, bool]
"""What a starting class depends on: the three cards' ranks, in order, and whether they share a suit."""

_ACE = 14


def _class_of(key: ClassKey, variant: Variant) -> str:
    """:func:`starting_class` of the cards ``key`` describes. Each new key of an import
    comes here (about one a hand over the first 9,000 hands): plain comparisons of the
    three ranks, no sets, generators or sorts but razz's."""
    down1, down2, door, suited = key
    if variant is RAZZ:
        lows = sorted((_LOW[down1], _LOW[down2], _LOW[door]))
        if lows[0] == lows[1] or lows[1] == lows[2]:
            return "paired"
        return f"{'A23456789TJQK'[lows[2] - 1]}-low"
    if down1 == down2:
        return "rolled-up trips" if door == down1 else "buried pair"
    if door == down1 or door == down2:
        return "split pair"
    if suited:
        return "three to a flush"
    low1, low2, low3 = _LOW[down1], _LOW[down2], _LOW[door]
    if (max(down1, down2, door) - min(down1, down2, door) <= 4
            or max(low1, low2, low3) - min(low1, low2, low3) <= 4):  # a span of five, ace high or low
        return "three to a straight"
    if variant is STUD8 and max(low1, low2, low3) <= 8:
        return "three low (8 or under)"
    high = (down1 >= 10) + (down2 >= 10) + (door >= 10)
    if high >= 2:
        return "high cards"
    if _ACE in key[:3]:
        return "ace and two small"
    return "one high card (T to K)" if high else "three small (9 or under)"


_LOW = {card.rank: card.low_rank for card in DECK}
"""Each rank with the ace counted low (1), as :attr:`Card.low_rank` counts it."""


def _classes_of(variant: Variant) -> Memo[ClassKey, str]:
    """The variant's :func:`starting_class` by :data:`ClassKey`, each key classed once (a few
    thousand keys where there are 132,600 ordered three-card starts)."""
    return Memo(lambda key: _class_of(key, variant))


_CLASSES: dict[str, Memo[ClassKey, str]] = {variant.value: _classes_of(variant) for variant in Variant}



__all__ = [
    "CheckResult", "Column", "MINOR_UNITS", "WHOLE_UNITS", "MONEY_DIGITS", "NATURAL", "MONEY_SCALE", "RAZZ_CLASSES", "SCHEMA",
    "SHARED_CATEGORIES", "START_CLASSES", "STUD_CLASSES", "TABLES", "VARIANT_CLASSES", "add_rows", "from_minor",
    "rows_from_checks", "starting_class", "table_columns", "to_minor",
]
