"""Checked hands as tidy pandas DataFrames.

:func:`frames_from_checks` turns what the checker produces (``HandCheck`` for
every hand it replayed, ``Rejected`` / ``Skipped`` for the others) into a
:class:`Frames`: seven DataFrames with stable column names and dtypes, listed in
:data:`SCHEMA` (``schema_markdown()`` renders it for the README). :func:`load`
builds the same frames from hand-history files or from a store made by
``studbook import``.

Money is exact: every amount column is an integer in *minor units*, the amount
times :data:`MONEY_SCALE` (100): cents for real money, hundredths of a chip for
tournament and play-money chips. An amount with finer precision than that is
never rounded: the hand becomes a row of ``rejects``. The ``*_bb`` columns are
float conveniences in big bets (amount / the hand's big bet).

The dtypes are lean (:mod:`studbook.lean`), so that a million hands fit in a
few GB: repeated strings are categoricals (``site``, ``hand_id``, ``player``,
``file`` and ``variant`` share one set of categories across the tables, so
joins compare codes), other strings are Arrow-backed where pyarrow is
installed, and integers are the narrowest type the schema names, widened when a
value needs it (amounts are ``int32`` up to 21,474,836.47 units, ``int64``
beyond). Group categoricals with ``observed=True``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

import pandas as pd

from studbook.cards import Card, format_cards
from studbook.engine.result import HandCheck, PlayerResult
from studbook.events import (
    Action,
    ActionKind,
    Deal,
    Hand,
    Note,
    PostAnte,
    Rejected,
    Skipped,
    Street,
    TournamentFinish,
    Variant,
)
from studbook.perfile import per_file
from studbook.lean import TableBuilder, release_memory, share_categories
from studbook.money import format_amount
from studbook.read.memo import Memo

MONEY_DIGITS = 2
MONEY_SCALE = 10**MONEY_DIGITS
"""Amount columns hold ``amount * MONEY_SCALE`` as int64 (cents, or 1/100 chip)."""

CheckResult = HandCheck | Rejected | Skipped


# ---------------------------------------------------------------------------
# Schema: the one description of every column, used to type frames and tables


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    dtype: str  # a pandas dtype name
    doc: str


def _cols(*specs: tuple[str, str, str]) -> tuple[Column, ...]:
    return tuple(Column(*spec) for spec in specs)


_KEY = (
    ("site", "category", "site short name, e.g. 'pokerstars'"),
    ("hand_id", "category", "the site's hand number; (site, hand_id) identifies a hand"),
)
_MONEY = "int32"  # int64 when a value needs it (see schema_markdown)
_MONEY_OPT = "Int32"

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
        ("small_bet", _MONEY, "small bet (3rd, 4th street), minor units"),
        ("big_bet", _MONEY, "big bet (5th to 7th street), minor units"),
        ("ante", _MONEY_OPT, "ante, minor units: the header's, else the one most players posted; NA when none"),
        ("bring_in", _MONEY_OPT, "bring-in, minor units: the header's, else the one posted (not all-in); NA when none"),
        ("tournament", "category", "tournament id; NA for cash games"),
        ("buy_in", "category", "tournament buy-in as written"),
        ("level", "category", "tournament level as written"),
        ("table", "category", "table name"),
        ("max_seats", "Int8", "seats at the table, NA when not stated"),
        ("started_utc", "datetime64[ns, UTC]", "start time in UTC; NaT when unknown or written without a zone (never taken as UTC)"),
        ("started", "string", "start time exactly as written"),
        ("players", "int8", "players dealt in"),
        ("pot", _MONEY, "total pot: every contribution less uncalled bets returned"),
        ("rake", _MONEY, "rake taken, minor units"),
        ("pot_bb", "float64", "pot in big bets (float convenience)"),
        ("went_to_showdown", "bool", "two or more players were live at the end (marked showdown or not)"),
        ("status", "category", "'ok' or 'violations' (the checker's verdict)"),
        ("violations", "int8", "number of rule violations found"),
        ("file", "category", "file the hand came from"),
        ("line", "int32", "first line of the hand in that file"),
        ("end_line", "int32", "last line of the hand"),
        ("notes", "int32", "lines of the hand that carry no play (see the notes table)"),
    ),
    "players": _cols(
        *_KEY,
        ("variant", "category", "the hand's variant (repeated for convenience)"),
        ("player", "category", "player name"),
        ("seat", "int8", "seat number"),
        ("stack", _MONEY, "chips at the start of the hand, minor units"),
        ("big_bet", _MONEY, "the hand's big bet, minor units (repeated for convenience)"),
        ("door", "category", "the 3rd-street up card, e.g. 'Kd'; NA when unknown"),
        ("up_cards", "string", "up cards in deal order, space separated ('' if none known)"),
        ("down_cards", "string", "down cards the log revealed, space separated ('' if none)"),
        ("start_cards", "string", "the three 3rd-street cards (2 down, door) when all are known"),
        ("start_class", "category", "starting-hand class of start_cards (see stats); NA if unknown"),
        ("brought_in", "bool", "this player posted the bring-in"),
        ("last_street", "int8", "last street the player was live on, 3..7"),
        ("folded", "bool", "the player folded"),
        ("all_in", "bool", "the player was all-in at some point"),
        ("showdown", "bool", "the player was live at a showdown"),
        ("showed", "bool", "the player showed cards"),
        ("won_at_showdown", "bool", "the player won (part of) a pot at showdown"),
        ("contributed", _MONEY, "antes and bets, less uncalled bets returned"),
        ("collected", _MONEY, "chips taken from pots"),
        ("net", _MONEY, "collected - contributed"),
        ("net_bb", "float64", "net in big bets (float convenience)"),
        ("high_won", _MONEY, "chips won from high halves and whole pots"),
        ("low_won", _MONEY, "chips won from low halves (stud8; razz pots count as high/whole)"),
        ("finish_place", "Int16", "the place the player finished the tournament in, where this hand's log "
                                  "states it (the hand they went out in or won it in; an iPoker "
                                  "tournament session states its hero's on every hand); NA otherwise"),
        ("finish_prize", _MONEY_OPT, "the prize that line states, minor units of the tournament's money; NA when none"),
    ),
    "actions": _cols(
        *_KEY,
        ("seq", "int8", "order of the action in the hand, from 0"),
        ("line", "int32", "line of the action in the file"),
        ("street", "int8", "3..7"),
        ("player", "category", "who acted"),
        ("kind", "category", "bring_in, complete, bet, raise, call, check or fold; a bet or raise that faces "
                             "only the bring-in is `complete`, whatever the site wrote (`studbook.betting`)"),
        ("amount", _MONEY_OPT, "the first figure the log wrote (a raise's increment)"),
        ("to", _MONEY_OPT, "the player's street total after the action, where the log says"),
        ("put_in", _MONEY, "chips this action added to the pot (derived)"),
        ("all_in", "bool", "the action put the player all-in"),
        ("to_call", _MONEY, "chips the player needed to call before acting (derived)"),
        ("facing_bet", "bool", "to_call > 0 (the bring-in counts as a bet to call)"),
        ("bets_before", "int8",
         "bets this round before the action: completion/bet = 1, each raise +1; "
         "the bring-in alone is 0"),
        ("pot_before", _MONEY, "pot before the action: antes and bets so far, less returns"),
    ),
    "pots": _cols(
        *_KEY,
        ("pot", "int8", "0 for the main (or only) pot, k for side pot k"),
        ("pot_kind", "category", "'main' or 'side'"),
        ("pot_amount", _MONEY, "the pot's size, minor units"),
        ("eligible", "string", "players eligible for the pot, comma separated"),
        ("half", "category", "'whole' (no split), 'high' or 'low'"),
        ("winner", "category", "who took this half; NA when nobody is recorded"),
        ("won", _MONEY, "what the winner took from this half"),
    ),
    "violations": _cols(
        *_KEY,
        ("variant", "category", "the hand's variant"),
        ("rule", "category", "rule id from RULES.md, e.g. 'bet.size'"),
        ("file", "category", "file of the hand"),
        ("line", "int32", "line of the event that broke the rule"),
        ("player", "category", "player of that event, NA when it has none"),
        ("message", "string", "expected vs found"),
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


SHARED_CATEGORIES: dict[str, str] = {
    "site": "site", "hand_id": "hand_id", "player": "player", "winner": "player",
    "file": "file", "variant": "variant",
}
"""Categorical columns (by name) whose categories are one set across the tables: column -> domain."""


def schema_markdown() -> str:
    """The schema as Markdown tables (for the README)."""
    parts = [
        f"All amounts are integers in minor units: amount x {MONEY_SCALE} "
        "(cents, or hundredths of a chip).\n\n"
        "Dtypes: an integer column has the dtype shown when every value fits it, "
        "else the narrowest wider one that holds them (never wrapped): amounts are "
        "int32 up to 21,474,836.47 units, int64 beyond; capitalised names (`Int32`) "
        "take NA. `category` is a pandas Categorical with its values, sorted, as "
        "categories; `site`, `hand_id`, `player` (and `winner`), `file` and "
        "`variant` share one set of categories across the tables, so joins on them "
        "compare codes (group them with `observed=True`). `string` is pandas' "
        "string dtype, Arrow-backed when pyarrow is installed.\n"
    ]
    for table, columns in SCHEMA.items():
        parts.append(f"\n### `{table}`\n\n| column | dtype | meaning |\n|---|---|---|")
        parts.extend(f"| `{c.name}` | {c.dtype} | {c.doc} |" for c in columns)
    return "\n".join(parts) + "\n"


@dataclass
class Frames:
    """The seven tables; see :data:`SCHEMA`. Money columns are minor units.

    Frames made by :func:`load` with ``frames=`` hold the tables asked for;
    the others are loaded from the same source when first used
    (:meth:`loaded` names those at hand).
    """

    hands: pd.DataFrame
    players: pd.DataFrame
    actions: pd.DataFrame
    pots: pd.DataFrame
    violations: pd.DataFrame
    rejects: pd.DataFrame
    notes: pd.DataFrame = field(default_factory=lambda: typed_frame("notes", []))

    @classmethod
    def lazy(cls, tables: dict[str, pd.DataFrame],
             load_table: Callable[[str], pd.DataFrame]) -> Frames:
        """Frames holding ``tables``; any other table is ``load_table(name)`` when first used."""
        frames = cls.__new__(cls)
        frames.__dict__.update(tables)
        frames.__dict__["_load_table"] = load_table
        return frames

    if not TYPE_CHECKING:  # mypy keeps checking attribute names against the fields

        def __getattr__(self, name: str) -> pd.DataFrame:
            load_table = self.__dict__.get("_load_table")
            if load_table is None or name not in SCHEMA:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            self.__dict__[name] = load_table(name)
            share_categories({t: self.__dict__[t] for t in self.loaded()}, SHARED_CATEGORIES)
            return self.__dict__[name]

    def loaded(self) -> tuple[str, ...]:
        """The tables at hand (all of them, but for frames made by :meth:`lazy`)."""
        return tuple(table for table in TABLES if table in self.__dict__)

    def tables(self) -> Iterator[tuple[str, pd.DataFrame]]:
        for field in fields(self):
            yield field.name, getattr(self, field.name)

    def __len__(self) -> int:
        return len(self.hands)

    def subset(self, *, variants: Iterable[str] | None = None,
               sites: Iterable[str] | None = None) -> Frames:
        """The hands of the given variants and/or sites, with their rows of every table."""
        hands = self.hands
        if variants is not None:
            hands = hands[hands["variant"].isin(list(variants))]
        if sites is not None:
            hands = hands[hands["site"].isin(list(sites))]
        return self.of_hands(hands)

    def of_hands(self, hands: pd.DataFrame) -> Frames:
        """These rows of ``hands`` with their rows of every table (rejects unchanged)."""
        keys = hands[["site", "hand_id"]]

        def keep(frame: pd.DataFrame) -> pd.DataFrame:
            return frame.merge(keys, on=["site", "hand_id"], how="inner", sort=False)

        return Frames(hands=hands.reset_index(drop=True), players=keep(self.players),
                      actions=keep(self.actions), pots=keep(self.pots),
                      violations=keep(self.violations), rejects=self.rejects, notes=keep(self.notes))


def typed_frame(table: str, data: Any, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """A DataFrame of ``table`` from rows (tuples in schema order) or a DataFrame,
    with the schema's dtypes; ``columns``: only those (see :func:`table_columns`)."""
    specs = table_columns(table, columns)
    builder = TableBuilder(specs)
    if isinstance(data, pd.DataFrame):
        builder.add_columns(data.reindex(columns=[c.name for c in specs]))
    else:
        builder.add(list(data))
    return builder.frame()


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


def empty_frames() -> Frames:
    return Frames(**{table: typed_frame(table, []) for table in TABLES})


def to_minor(amount: Decimal) -> int:
    """``amount`` in minor units; ValueError when that would round."""
    return _MINOR[amount]  # a hand repeats the same few amounts: each is converted once


def _exact_minor(amount: Decimal) -> int:
    scaled = amount * MONEY_SCALE
    integral = scaled.to_integral_value()
    if scaled != integral:
        raise ValueError(f"amount {amount} is finer than 1/{MONEY_SCALE} of a unit")
    return int(integral)


_MINOR: Memo[Decimal, int] = Memo(_exact_minor)


def from_minor(value: int) -> Decimal:
    """The exact Decimal amount of a minor-units value."""
    return Decimal(int(value)).scaleb(-MONEY_DIGITS)


def _opt_minor(amount: Decimal | None) -> int | None:
    return None if amount is None else to_minor(amount)


# ---------------------------------------------------------------------------
# Building the frames


def frames_from_checks(results: Iterable[CheckResult]) -> Frames:
    """Frames from checker results, with no I/O."""
    return Frames(**build_frames([results]))


def build_frames(
    chunks: Iterable[Iterable[CheckResult]],
    tables: Sequence[str] = TABLES,
    columns: dict[str, Sequence[str]] | None = None,
) -> dict[str, pd.DataFrame]:
    """The ``tables`` (with their ``columns``) of checker results that come in
    chunks (a file's, say): each chunk's rows are made and converted to the
    frames' dtypes before the next, so their Python objects never pile up."""
    builders = {table: TableBuilder(table_columns(table, (columns or {}).get(table)))
                for table in tables}
    picks = {table: _picker(table, builder.names) for table, builder in builders.items()}
    for chunk in chunks:
        rows = rows_from_checks(chunk)
        for table, builder in builders.items():
            pick = picks[table]
            builder.add(rows[table] if pick is None else [pick(row) for row in rows[table]])
        del rows
    frames = {table: builder.frame() for table, builder in builders.items()}
    share_categories(frames, SHARED_CATEGORIES)
    release_memory()
    return frames


def rows_from_checks(results: Iterable[CheckResult]) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of every table from checker results: tuples of plain Python
    values in :data:`SCHEMA` order (what the frames and the store are made of)."""
    rows: dict[str, list[tuple[Any, ...]]] = {table: [] for table in TABLES}
    for result in results:
        if isinstance(result, HandCheck):
            try:
                hand_rows = _hand_rows(result)
            except ValueError as error:
                rows["rejects"].append(_unrepresentable(result.hand, str(error)))
                continue
            for table, table_rows in hand_rows.items():
                rows[table].extend(table_rows)
        elif isinstance(result, Rejected):
            rows["rejects"].append(_rejected_row(result))
        elif isinstance(result, Skipped):
            rows["rejects"].append(_skipped_row(result))
        else:
            raise TypeError(f"not a check result: {type(result).__name__}")
    return rows


def _rejected_row(rejected: Rejected) -> tuple[Any, ...]:
    return ("rejected", rejected.site, rejected.hand_id, rejected.file, rejected.line,
            rejected.hand_line, rejected.reason, rejected.text)


def _skipped_row(skipped: Skipped) -> tuple[Any, ...]:
    return ("skipped", skipped.site, skipped.hand_id, skipped.file, skipped.line, skipped.line,
            skipped.reason, skipped.game)


def _unrepresentable(hand: Hand, reason: str) -> tuple[Any, ...]:
    return ("rejected", hand.site, hand.hand_id, hand.file, hand.line, hand.line,
            f"cannot store exactly: {reason}", "")


def _hand_rows(check: HandCheck) -> dict[str, list[tuple[Any, ...]]]:
    hand = check.hand
    header = hand.header
    key = (header.site, header.hand_id)
    stakes = header.stakes
    big_bet = to_minor(stakes.big_bet)
    actions, posted = _action_rows(check), _posted(hand)
    brought_in = posted.brought_in
    pots, won = _pot_rows(check)
    pot = sum(to_minor(p.contributed) for p in check.players)
    started = _aware(header.started_utc)
    hand_row = (
        *key, header.variant.value, header.structure.value, header.game, header.mix,
        header.currency, header.play_money, _stakes_label(hand),
        to_minor(stakes.small_bet), big_bet,
        posted.ante() if stakes.ante is None else to_minor(stakes.ante),
        posted.bring_in if stakes.bring_in is None else to_minor(stakes.bring_in),
        header.tournament.id if header.tournament else None,
        header.tournament.buy_in if header.tournament else None,
        header.tournament.level if header.tournament else None,
        header.table, header.max_seats, started, header.started,
        len(check.players) or len(hand.players()),
        pot, to_minor(check.rake), _per_bb(pot, big_bet),
        check.went_to_showdown, check.status, len(check.violations),
        hand.file, hand.line, hand.end_line, 0,
    )
    starts = _starting_cards(hand)
    finishes = {e.player: e for e in hand.events if type(e) is TournamentFinish}
    players = [
        (*_player_row(key, hand.variant, big_bet, result, starts, brought_in, won, check.went_to_showdown),
         *_finish(finishes.get(result.player)))
        for result in check.players
    ]
    violations = _violation_rows(check)
    notes = [(*key, n.file, n.line, n.text) for n in hand.events if type(n) is Note]
    if notes:
        hand_row = (*hand_row[:-1], len(notes))
    return {"hands": [hand_row], "players": players, "actions": actions, "pots": pots,
            "violations": violations, "notes": notes}


def _aware(when: datetime | None) -> datetime | None:
    """A start time with a zone; one without is not taken as UTC but left unknown
    (NaT), the time as written staying in ``started``."""
    return when if when is not None and when.tzinfo is not None else None


def _stakes_label(hand: Hand) -> str:
    header = hand.header
    symbol = {"USD": "$", "EUR": "€", "GBP": "£"}.get(header.currency or "", "")
    stakes = header.stakes
    text = f"{format_amount(stakes.small_bet, symbol)}/{format_amount(stakes.big_bet, symbol)}"
    return f"{text} {header.currency}" if header.currency else text


def _per_bb(amount: int, big_bet: int) -> float:
    return amount / big_bet if big_bet else float("nan")


def _player_row(
    key: tuple[str, str],
    variant: Variant,
    big_bet: int,
    result: PlayerResult,
    starts: dict[str, tuple[Card, Card, Card]],
    brought_in: str | None,
    won: dict[tuple[str, str], int],
    went_to_showdown: bool,
) -> tuple[Any, ...]:
    start = starts.get(result.player) or _start_from_result(result)
    net = to_minor(result.net)
    return (
        *key, variant.value, result.player, result.seat, to_minor(result.stack), big_bet,
        str(result.up_cards[0]) if result.up_cards else None,
        format_cards(result.up_cards), format_cards(result.down_cards),
        format_cards(start) if start else None,
        starting_class(start, variant) if start else None,
        result.player == brought_in,
        int(result.last_street), result.folded, result.all_in,
        went_to_showdown and not result.folded,
        result.showed, result.won_at_showdown,
        to_minor(result.contributed), to_minor(result.collected), net, _per_bb(net, big_bet),
        won.get((result.player, "high"), 0), won.get((result.player, "low"), 0),
    )


def _finish(finish: TournamentFinish | None) -> tuple[int | None, int | None]:
    """A player row's finish_place and finish_prize."""
    if finish is None:
        return None, None
    return finish.place, _opt_minor(finish.prize)


def _starting_cards(hand: Hand) -> dict[str, tuple[Card, Card, Card]]:
    """Three 3rd-street cards of each player whose deal line shows all three."""
    starts: dict[str, tuple[Card, Card, Card]] = {}
    for event in hand.events:
        if isinstance(event, Deal) and event.street is Street.THIRD:
            if len(event.down) == 2 and len(event.up) == 1:
                starts[event.player] = (event.down[0], event.down[1], event.up[0])
    return starts


def _start_from_result(result: PlayerResult) -> tuple[Card, Card, Card] | None:
    # The engine lists revealed down cards in deal order: the first two are 3rd street's.
    if len(result.down_cards) >= 2 and result.up_cards:
        return (result.down_cards[0], result.down_cards[1], result.up_cards[0])
    return None


def _pot_rows(check: HandCheck) -> tuple[list[tuple[Any, ...]], dict[tuple[str, str], int]]:
    key = (check.hand.site, check.hand.hand_id)
    rows: list[tuple[Any, ...]] = []
    won: dict[tuple[str, str], int] = {}
    for award in check.pots:
        base = (*key, award.pot, "main" if award.pot == 0 else "side", to_minor(award.amount),
                ", ".join(award.eligible))
        halves = ((("high", award.high), ("low", award.low)) if award.low
                  else (("whole", award.high),))
        recorded = False
        for half, winners in halves:
            for winner, amount in winners:
                minor = to_minor(amount)
                rows.append((*base, half, winner, minor))
                side = "low" if half == "low" else "high"
                won[(winner, side)] = won.get((winner, side), 0) + minor
                recorded = True
        if not recorded:
            rows.append((*base, "whole", None, 0))
    return rows, won


def _violation_rows(check: HandCheck) -> list[tuple[Any, ...]]:
    if not check.violations:
        return []
    hand = check.hand
    player_at: dict[int, str] = {}
    for event in hand.events:
        player = getattr(event, "player", None)
        if isinstance(player, str):
            player_at.setdefault(event.line, player)
    return [
        (hand.site, hand.hand_id, hand.variant.value, v.rule, hand.file, v.line,
         player_at.get(v.line), v.message)
        for v in check.violations
    ]


# ---------------------------------------------------------------------------
# The actions rows: what the engine published for each action, and the forced bets posted


@dataclass(slots=True)
class _Posted:
    """What a hand's log shows of its forced bets (minor units)."""

    antes: list[int] = field(default_factory=list)  # those not all-in
    brought_in: str | None = None
    bring_in: int | None = None  # when not all-in

    def ante(self) -> int | None:
        """The ante most players posted (the larger on a tie)."""
        antes = self.antes
        return max(set(antes), key=lambda a: (antes.count(a), a)) if antes else None


def _posted(hand: Hand) -> _Posted:
    """The antes and the first bring-in as the log wrote them."""
    posted = _Posted()
    for event in hand.events:
        if type(event) is PostAnte:
            if not event.all_in:
                posted.antes.append(to_minor(event.amount))
        elif type(event) is Action and event.kind is ActionKind.BRING_IN and posted.brought_in is None:
            posted.brought_in = event.player
            if not event.all_in and event.amount is not None:
                posted.bring_in = to_minor(event.amount)
    return posted


def _action_rows(check: HandCheck) -> list[tuple[Any, ...]]:
    """One row an action: the logged figures beside the engine's facts (``HandCheck.actions``)."""
    key = (check.hand.site, check.hand.hand_id)
    rows: list[tuple[Any, ...]] = []
    for number, facts in enumerate(check.actions):
        event = facts.action
        to_call = to_minor(facts.to_call)
        rows.append((
            *key, number, event.line, int(facts.street or Street.THIRD), event.player,
            facts.kind.value, _opt_minor(event.amount), _opt_minor(event.to), to_minor(facts.put_in),
            event.all_in, to_call, to_call > 0, facts.bets_before, to_minor(facts.pot_before),
        ))
    return rows


# ---------------------------------------------------------------------------
# Starting-hand classes


STUD_CLASSES = (
    "rolled-up trips", "buried pair", "split pair", "three to a flush",
    "three to a straight", "three low (8 or under)", "high cards", "other",
)
"""Stud and stud8 classes, first match wins; 'three low' is used for stud8 only."""

RAZZ_CLASSES = tuple(f"{rank}-low" for rank in "345678") + ("9-low", "T-low", "J-low",
                                                            "Q-low", "K-low", "paired")
"""Razz classes: the highest of three different ranks, ace low; or 'paired'."""


def starting_class(cards: Sequence[Card], variant: Variant | str) -> str:
    """The class of three 3rd-street cards ``(down, down, door)``.

    Stud / stud8, first match wins: rolled-up trips (three of a rank); buried
    pair (the two down cards pair); split pair (the door pairs a down card);
    three to a flush; three to a straight (three different ranks within a span
    of five, ace high or low: 5-6-8 and A-2-4 count); stud8 only: three low
    (three different ranks 8 or under, ace low); high cards (two or more cards
    ten or higher); other. Razz: '<r>-low' where r is the highest of three
    different ranks counting the ace low (A-2-3 is '3-low'), else 'paired'.
    """
    variant = Variant(variant)
    ranks = [card.rank for card in cards]
    if variant is Variant.RAZZ:
        lows = sorted(card.low_rank for card in cards)
        if len(set(lows)) < 3:
            return "paired"
        return f"{'A23456789TJQK'[lows[-1] - 1]}-low"
    down1, down2, door = cards
    if len(set(ranks)) == 1:
        return "rolled-up trips"
    if down1.rank == down2.rank:
        return "buried pair"
    if door.rank in (down1.rank, down2.rank):
        return "split pair"
    if len({card.suit for card in cards}) == 1:
        return "three to a flush"
    if _straight_span(ranks):
        return "three to a straight"
    if variant is Variant.STUD8 and all(card.low_rank <= 8 for card in cards):
        return "three low (8 or under)"
    if sum(rank >= 10 for rank in ranks) >= 2:
        return "high cards"
    return "other"


def _straight_span(ranks: list[int]) -> bool:
    for values in (ranks, [1 if rank == 14 else rank for rank in ranks]):
        if max(values) - min(values) <= 4:
            return True
    return False


# ---------------------------------------------------------------------------
# Loading


def _picker(table: str, names: list[str]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]] | None:
    """A function giving the values of ``names`` of a row of ``table``; None for all columns."""
    every = [c.name for c in SCHEMA[table]]
    if names == every:
        return None
    positions = [every.index(name) for name in names]
    return lambda row: tuple(row[i] for i in positions)


def load(
    source: str | Path | Iterable[str | Path],
    frames: Iterable[str] | None = None,
    columns: Mapping[str, Sequence[str]] | None = None,
) -> Frames:
    """Frames from a store file (``studbook import --db``) or hand-history paths.

    ``source`` is a store path, or one or more files/directories of hand
    histories, which are parsed and checked (``studbook.check.check_paths``).
    ``frames`` names the tables to load (default: all); any other is
    loaded from the same source when first used (from hand histories, that
    parses them again). ``columns`` maps a table to the columns to load
    (default: all); the key columns ``site`` and ``hand_id`` always come
    too. From a store only those SQL columns are read. ValueError names an
    unknown table or column.
    """
    paths = [Path(source)] if isinstance(source, (str, Path)) else [Path(p) for p in source]
    wanted = list(TABLES if frames is None else ([frames] if isinstance(frames, str) else frames))
    columns = dict(columns or {})
    for table in {*wanted, *columns}:
        table_columns(table, columns.get(table))  # ValueError for a name that does not exist
    from studbook import store  # imported here: store builds on this module

    if len(paths) == 1 and store.is_store(paths[0]):
        def read(tables: Sequence[str]) -> dict[str, pd.DataFrame]:
            return store.read_tables(paths[0], tables, columns)
    else:
        def read(tables: Sequence[str]) -> dict[str, pd.DataFrame]:
            with per_file(_file_results(paths)) as each_file:  # the rows are made as each file is checked
                return build_frames(each_file, tables, columns)
    loaded = read(wanted)
    if len(loaded) == len(TABLES):
        return Frames(**loaded)
    return Frames.lazy(loaded, lambda table: read([table])[table])


def _file_results(paths: Iterable[str | Path]) -> Iterator[list[CheckResult]]:
    """Each file's check results, a list a file, in file order."""
    from studbook.check import check_paths

    for file_check in check_paths([str(p) for p in paths]):
        yield list(file_check.results)


def check_results(paths: Iterable[str | Path]) -> Iterator[CheckResult]:
    """Every hand's check result of the files and directories ``paths``, in file order."""
    for results in _file_results(paths):
        yield from results


__all__ = [
    "CheckResult", "Column", "Frames", "MONEY_DIGITS", "MONEY_SCALE", "RAZZ_CLASSES", "SCHEMA",
    "SHARED_CATEGORIES", "STUD_CLASSES", "TABLES", "build_frames", "check_results", "empty_frames",
    "frames_from_checks", "rows_from_checks", "from_minor", "load", "schema_markdown", "starting_class",
    "table_columns", "to_minor", "typed_frame",
]
