"""Which hands to look at: the one definition of the filters every command takes.

A :class:`Filters` holds the hand criteria (time, site, stakes, kind of game,
currency, table size, variant) and the player selection (``players``, and the
``hero``: the player one's own logs deal down cards to). ``Filters.of`` builds
one from the strings a user types (the CLI passes its options through it
unchanged, so ``studbook stats --since 2024-03-02`` and
``Filters.of(since="2024-03-02")`` are the same selection), and
:func:`select` applies the hand criteria to :class:`~studbook.frames.Frames`,
keeping every table's rows of the hands kept.

Times: ``since``/``until`` take a date (``2024-03-02``) or a date and time
(``2024-03-02 18:30``, ``2024-03-02T18:30:00+01:00``) with an optional zone
after a space (``2024-03-02 18:30 Europe/Berlin``); without a zone the time
is UTC. ``until`` given as a date alone includes that whole day. Hands whose
start time is unknown (``started_utc`` NaT) are left out when a time filter
is given.

Kinds of game: ``cash`` (real money, not a tournament), ``tournament`` (a
tournament id), ``play-money`` (play-money chips, not a tournament).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from typing import Iterable, Mapping, Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pandas as pd

from studbook.engine.result import HandCheck
from studbook.events import DEALT_MARK
from studbook.frames import Frames, frames_from_checks, to_minor
from studbook.lean import STRING, filled
from studbook.money import CASH, SITE_CURRENCY
from studbook.sites import site_names
from studbook.words import counted

VARIANTS = ("stud", "stud8", "razz")
KINDS = ("cash", "tournament", "play-money")
_DATE_ONLY = re.compile(r"\d{4}-\d{2}-\d{2}")
_STAKES = re.compile(r"\s*[^\d.]*([\d.]+)\s*[-/]\s*[^\d.]*([\d.]+)\s*[A-Za-z]*\s*")
_RANGE = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?")


class FilterError(ValueError):
    """A filter value that does not read; the message names the option and the value."""


@dataclass(frozen=True, slots=True)
class Filters:
    """Hand criteria and the player selection; an empty field selects everything."""

    since: pd.Timestamp | None = None  # inclusive, UTC
    until: pd.Timestamp | None = None  # exclusive, UTC
    sites: tuple[str, ...] = ()
    stakes: tuple[tuple[int, int], ...] = ()  # (small bet, big bet) in minor units
    kinds: tuple[str, ...] = ()  # of KINDS
    currencies: tuple[str, ...] = ()  # ISO codes
    table_size: tuple[int, int] | None = None  # max seats, inclusive range
    variants: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    hero: str | None = None

    @classmethod
    def of(
        cls, *, since: str | None = None, until: str | None = None,
        sites: Iterable[str] = (), stakes: Iterable[str] = (), kinds: Iterable[str] = (),
        currencies: Iterable[str] = (), table_size: str | None = None,
        variants: Iterable[str] = (), players: Iterable[str] = (), hero: str | None = None,
    ) -> Filters:
        """Filters from the strings a user writes; :class:`FilterError` for a bad one."""
        kinds = tuple(k.lower().replace("_", "-").replace(" ", "-") for k in kinds)
        unknown = [k for k in kinds if k not in KINDS]
        if unknown:
            raise FilterError(f"unknown kind of game {', '.join(unknown)}; known: {', '.join(KINDS)}")
        bad_variants = [v for v in variants if v not in VARIANTS]
        if bad_variants:
            raise FilterError(f"unknown variant {', '.join(bad_variants)}; known: {', '.join(VARIANTS)}")
        sites = tuple(s.strip().lower() for s in sites)
        bad_sites = [s for s in sites if s not in site_names()]
        if bad_sites:
            raise FilterError(f"unknown site {', '.join(map(repr, bad_sites))}; known: {', '.join(site_names())}")
        start = parse_when(since, "--since") if since else None
        end = parse_when(until, "--until", end=True) if until else None
        if start is not None and end is not None and end <= start:
            raise FilterError(f"--since {since} --until {until}: the range is empty "
                              "(--until is not after --since)")
        return cls(
            since=start,
            until=end,
            sites=sites,
            stakes=tuple(parse_stakes(s) for s in stakes),
            kinds=kinds,
            currencies=tuple(c.upper() for c in currencies),
            table_size=parse_range(table_size, "--table-size") if table_size else None,
            variants=tuple(variants),
            players=tuple(players),
            hero=hero,
        )

    def with_hero(self, hero: str | None) -> Filters:
        return replace(self, hero=hero)

    @property
    def named_players(self) -> tuple[str, ...]:
        """The players the user named: every ``--player``, then the ``--hero``."""
        return (*self.players, *([self.hero] if self.hero else []))

    @property
    def selects_hands(self) -> bool:
        """Any hand criterion given (the player selection aside)."""
        return bool(self.since is not None or self.until is not None or self.sites or self.stakes
                    or self.kinds or self.currencies or self.table_size or self.variants)

    def describe(self) -> str:
        """The hand criteria in words, '' when there are none."""
        parts = []
        if self.since is not None:
            parts.append(f"since {self.since.isoformat()}")
        if self.until is not None:
            parts.append(f"before {self.until.isoformat()}")
        for name, values in (("site", self.sites), ("kind", self.kinds),
                             ("currency", self.currencies), ("variant", self.variants)):
            if values:
                parts.append(f"{name} {'/'.join(values)}")
        if self.stakes:
            parts.append("stakes " + "/".join(f"{_minor_text(s)}-{_minor_text(b)}"
                                              for s, b in self.stakes))
        if self.table_size:
            low, high = self.table_size
            parts.append(f"table size {low}" if low == high else f"table size {low}-{high}")
        return ", ".join(parts)


def _minor_text(value: int) -> str:
    from studbook.frames import from_minor

    return format(from_minor(value).normalize(), "f")


def parse_when(text: str, option: str = "time", *, end: bool = False) -> pd.Timestamp:
    """A date or datetime, with an optional zone (offset or IANA name after a space),
    as an aware UTC Timestamp; a bare date with ``end`` is the start of the next day."""
    text = text.strip()
    zone: ZoneInfo | None = None
    head, _, last = text.rpartition(" ")
    if head and re.search("[A-Za-z]", last):
        try:
            zone = ZoneInfo(last)
        except (ZoneInfoNotFoundError, ValueError):
            raise FilterError(f"{option} {text!r}: unknown time zone {last!r}") from None
        text = head
    try:
        when = pd.Timestamp(text)
    except ValueError:
        raise FilterError(f"{option} {text!r}: not a date or time "
                          "(e.g. 2024-03-02 or '2024-03-02 18:30 Europe/Berlin')") from None
    if when is pd.NaT:
        raise FilterError(f"{option}: empty time")
    if when.tzinfo is None:
        when = when.tz_localize(zone or "UTC")
    elif zone is not None:
        raise FilterError(f"{option} {text!r}: give either an offset or a zone name, not both")
    if end and _DATE_ONLY.fullmatch(text):
        when = when + pd.Timedelta(days=1)
    return when.tz_convert("UTC")


def parse_stakes(text: str) -> tuple[int, int]:
    """``0.50-1``, ``$0.50/$1``, ``10-20`` -> (small bet, big bet) in minor units."""
    match = _STAKES.fullmatch(text)
    if match is None:
        raise FilterError(f"--stakes {text!r}: expected SMALL-BIG, e.g. 0.50-1")
    try:
        small, big = (to_minor(Decimal(part)) for part in match.groups())
    except (InvalidOperation, ValueError):
        raise FilterError(f"--stakes {text!r}: expected SMALL-BIG, e.g. 0.50-1") from None
    return small, big


def parse_range(text: str, option: str) -> tuple[int, int]:
    """``2-8`` or ``6`` -> an inclusive range."""
    match = _RANGE.fullmatch(text)
    if match is None:
        raise FilterError(f"{option} {text!r}: expected N or LOW-HIGH, e.g. 2-8")
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) else low
    if high < low:
        raise FilterError(f"{option} {text!r}: the range is empty")
    return low, high


def game_kind(hands: pd.DataFrame) -> pd.Series:
    """Each hand's kind of game: 'tournament', 'play-money' or 'cash'."""
    kind = pd.Series("cash", index=hands.index, dtype="string")
    kind = kind.mask(hands["play_money"].astype(bool), "play-money")
    return kind.mask(hands["tournament"].notna(), "tournament")


def known_currency(hands: pd.DataFrame) -> pd.Series:
    """Each hand's currency by the one money rule (:func:`studbook.money.cash_currency`):
    a cash game's from its log, else its site's known one; NA for an unknown
    currency and for tournament chips and play money (their ``kind`` says which)."""
    written = hands["currency"].astype(object)
    known = written.where(written.notna(), hands["site"].astype(object).map(SITE_CURRENCY))
    return known.where(game_kind(hands) == CASH).astype(STRING)


def hand_mask(hands: pd.DataFrame, filters: Filters) -> pd.Series:
    """True for the hands the criteria keep (the player selection aside)."""
    keep = pd.Series(True, index=hands.index)
    started = hands["started_utc"]
    if filters.since is not None:
        keep &= (started >= filters.since).fillna(False)
    if filters.until is not None:
        keep &= (started < filters.until).fillna(False)
    if filters.sites:
        keep &= hands["site"].isin(filters.sites)
    if filters.variants:
        keep &= hands["variant"].isin(filters.variants)
    if filters.currencies:
        keep &= hands["currency"].isin(filters.currencies).fillna(False)
    if filters.kinds:
        keep &= game_kind(hands).isin(filters.kinds)
    if filters.stakes:
        pairs = set(filters.stakes)
        keep &= pd.Series([(s, b) in pairs for s, b in zip(hands["small_bet"], hands["big_bet"])],
                          index=hands.index)
    if filters.table_size is not None:
        low, high = filters.table_size
        keep &= hands["max_seats"].between(low, high).fillna(False).astype(bool)
    return keep.astype(bool)


def select(frames: Frames, filters: Filters) -> Frames:
    """The hands the criteria keep, with their rows of every table (rejects unchanged)."""
    if not filters.selects_hands:
        return frames
    hands = frames.hands[hand_mask(frames.hands, filters)]
    return frames.of_hands(hands)


def select_checks(checks: Sequence[HandCheck], filters: Filters) -> list[HandCheck]:
    """The checked hands the criteria keep (each judged by its row of the ``hands``
    frame, so a filter means here what it means on frames), and of those, the hands
    a ``players`` name was dealt into; in the order given."""
    kept = list(checks)
    if filters.selects_hands and kept:
        hands = frames_from_checks(kept).hands
        hands = hands[hand_mask(hands, filters)]
        keys = set(zip(hands["site"].astype(str), hands["hand_id"].astype(str)))
        kept = [c for c in kept if (c.hand.site, c.hand.hand_id) in keys]
    if filters.players:
        names = set(filters.players)
        kept = [c for c in kept if not names.isdisjoint(c.hand.players())]
    return kept


def find_hero(frames: Frames) -> tuple[str, int] | None:
    """The player the logs mark as their own (:meth:`studbook.events.Hand.hero`) in the
    most hands, and that number of hands (a tie goes to the first name in sorted
    order); None when no log marks anyone."""
    found = most_dealt(dealt_counts(frames))
    return None if found is None else found[:2]


SHOWN_MARK = "shown"
"""The mark :func:`dealt_counts` gives frames of a store imported before the logs' marks
were kept: the player whose down cards the logs show."""

MARK_WORDS = {
    DEALT_MARK: "its deal lines show their down cards alone",
    "[ME]": "[ME] on their seat",
    "<nickname>": "the <nickname> of its session",
    SHOWN_MARK: "their down cards shown (a store imported before the marks were kept)",
}
"""How the hero line says where the hero came from, by mark (hands.hero_mark)."""


def dealt_counts(frames: Frames) -> Counter[tuple[str, str]]:
    """Each (player, mark) with the number of hands of ``frames`` whose log marks the
    player as its own that way (``hands.hero``, ``hands.hero_mark``); the counts
    :func:`find_hero` ranks, which add up over frames of different hands. Frames with
    no mark at all (a store imported before the marks were kept) count the hands whose
    down cards the logs show, as :data:`SHOWN_MARK`."""
    hands = frames.hands
    if "hero" in hands.columns and hands["hero"].notna().any():
        marked = hands.loc[hands["hero"].notna(), ["hero", "hero_mark"]]
        return Counter(zip(marked["hero"].astype(str), filled(marked["hero_mark"], "").astype(str)))
    known = frames.players[filled(frames.players["down_cards"], "") != ""]
    return Counter({(str(name), SHOWN_MARK): int(count)
                    for name, count in known["player"].value_counts().items() if count})


def most_dealt(counts: Mapping[tuple[str, str], int]) -> tuple[str, int, tuple[str, ...]] | None:
    """The player marked in the most hands (the first in sorted order on a tie), those
    hands, and the marks, most used first."""
    per_player: Counter[str] = Counter()
    for (name, _mark), count in counts.items():
        per_player[name] += count
    if not per_player:
        return None
    name = min(per_player, key=lambda player: (-per_player[player], player))
    marks = sorted(((count, mark) for (player, mark), count in counts.items() if player == name),
                   reverse=True)
    return name, per_player[name], tuple(mark for _count, mark in marks)


def faced(frames: Frames, hero: str) -> list[tuple[str, str]]:
    """The players dealt into a hand with ``hero`` (the hero's opponents), as
    ``(site, name)``: a player is a name on a site."""
    return sorted((site, name) for site, name in met_by(frames, hero) if name != hero)


def met_by(frames: Frames, hero: str) -> set[tuple[str, str]]:
    """The players (``hero`` too) dealt into a hand of ``frames`` with ``hero``, as ``(site, name)``."""
    players = frames.players
    hands = players.loc[players["player"] == hero, ["site", "hand_id"]]
    met = players.merge(hands, on=["site", "hand_id"], how="inner")
    return set(zip(met["site"].astype(str), met["player"].astype(str)))


def hero_line(frames: Frames, filters: Filters) -> tuple[str | None, str]:
    """The hero (given, or found) and the line that states it."""
    return hero_stated(filters, None if filters.hero else most_dealt(dealt_counts(frames)),
                       len(frames.hands))


def hero_stated(filters: Filters, found: tuple[str, int, tuple[str, ...]] | None,
                hands: int) -> tuple[str | None, str]:
    """The hero (``--hero``, else ``found`` among ``hands`` hands: see :func:`most_dealt`)
    and the line that states it and where it came from."""
    if filters.hero:
        return filters.hero, f"hero: {filters.hero} (--hero)"
    if found is None:
        return None, "hero: none found (no log marks its own player in these hands; give --hero NAME)"
    name, marked, marks = found
    how = ", ".join(MARK_WORDS.get(mark, mark) for mark in marks)
    return name, (f"hero: {name} (marked by the log as its own player in {marked} of "
                  f"{counted(hands, 'hand')}: {how}; --hero NAME to choose)")


def unknown_players(known: Iterable[str], names: Sequence[str]) -> str | None:
    """None when every name is ``known``, else the message, with a near name to suggest."""
    known = set(known)
    missing = [name for name in names if name not in known]
    if not missing:
        return None
    parts = []
    for name in missing:
        hint = suggest(name, known)
        parts.append(f"{name}" + (f" (did you mean {hint}?)" if hint else ""))
    return f"no hands for player {', '.join(parts)}"


def suggest(name: str, known: Iterable[str]) -> str | None:
    """A known name that differs only in case, or the nearest close one."""
    known = list(known)
    folded = {k.casefold(): k for k in known}
    if name.casefold() in folded:
        return folded[name.casefold()]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
    return close[0] if close else None


__all__ = ["FilterError", "Filters", "KINDS", "MARK_WORDS", "SHOWN_MARK", "VARIANTS", "dealt_counts", "faced", "find_hero", "game_kind",
           "hand_mask", "hero_line", "hero_stated", "known_currency", "met_by", "most_dealt", "parse_range", "parse_stakes",
           "parse_when", "select", "select_checks", "suggest", "unknown_players"]
