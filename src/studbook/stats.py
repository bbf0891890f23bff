"""Player statistics made for stud.

Every statistic is one :class:`Stat` in :data:`STATS`: a name, a label, its
definition in words (``stat_definitions_markdown()`` lists them for
docs/stat-definitions.md), and two functions of the *facts* table, a numerator and a
denominator per player-hand; a group's value is ``sum(numerator) /
sum(denominator) * scale`` (or just the sum when there is no denominator).

The facts table (:func:`facts`) has one row per player per hand, built from
the frames: what the player did on each street, and the 3rd-street situations
stud trackers never had (bring-in, steals from the last seats, bring-in
defence). It is derived from the ``players`` and ``actions`` frames only.

3rd-street terms used below:

* *steal opportunity*: everybody who acted before the player since the
  bring-in folded; the player is one of the last :data:`STEAL_SEATS` players
  to act before the action returns to the bring-in (at most two others still
  to act, the bring-in not counted); and the player's door card outranks the
  bring-in's door card (stud, stud8: higher rank, ace high; razz: lower rank,
  ace low). A *steal attempt* is completing (or raising) in that spot.
* *bring-in defence*: the bring-in player facing a steal attempt that
  everyone else folded to; their answer is fold, call or re-raise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

from studbook.betting import AGGRESSIVE_NAMES
from studbook.cards import Card
from studbook.filters import Filters, game_kind, known_currency, select
from studbook.frames import MONEY_SCALE, RAZZ_CLASSES, STUD_CLASSES, Frames
from studbook.lean import STRING
from studbook.rows import WHOLE_UNITS

STEAL_SEATS = 3
"""A steal comes from the last three live seats to act (the stealer and at most two more)."""

AGGRESSIVE = AGGRESSIVE_NAMES
VOLUNTARY = (*AGGRESSIVE, "call")
LATER_STREETS = (4, 5, 6, 7)
STREET_LABEL = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}
KEY = ["site", "hand_id", "player"]

Column = Callable[[pd.DataFrame], pd.Series]


@dataclass(frozen=True)
class Stat:
    name: str  # output column
    label: str  # short header
    doc: str  # the definition, in words
    num: Column
    den: Column | None = None  # None: the value is the sum of num
    scale: float = 1.0  # 100 for percentages and "per 100 hands"
    unit: str = ""  # "%", "bb", "bb/100", "hands", "ratio", "money"


def _col(name: str) -> Column:
    return lambda f: f[name]


def _one(f: pd.DataFrame) -> pd.Series:
    return pd.Series(1, index=f.index)


def _street_stats() -> list[Stat]:
    stats = []
    for street in LATER_STREETS:
        label = STREET_LABEL[street]
        stats.append(Stat(
            f"af_{label}", f"AF {label}",
            f"Aggression factor on {label} street: bets and raises divided by calls "
            f"(a player who never called shows no value).",
            _col(f"aggr_{street}"), _col(f"call_{street}"), unit="ratio"))
        stats.append(Stat(
            f"afq_{label}", f"AFq {label} %",
            f"Aggression frequency on {label} street: bets and raises as a percentage of "
            f"bets, raises, calls and folds (checks are not counted).",
            _col(f"aggr_{street}"), _col(f"acts_{street}"), 100, "%"))
    stats.append(Stat(
        "af_post", "AF 4th-7th", "Aggression factor over 4th to 7th street together.",
        lambda f: f[[f"aggr_{s}" for s in LATER_STREETS]].sum(axis=1),
        lambda f: f[[f"call_{s}" for s in LATER_STREETS]].sum(axis=1), unit="ratio"))
    stats.append(Stat(
        "afq_post", "AFq 4th-7th %", "Aggression frequency over 4th to 7th street together.",
        lambda f: f[[f"aggr_{s}" for s in LATER_STREETS]].sum(axis=1),
        lambda f: f[[f"acts_{s}" for s in LATER_STREETS]].sum(axis=1), 100, "%"))
    return stats


STATS: tuple[Stat, ...] = (
    Stat("hands", "Hands", "Hands the player was dealt into.", _one, unit="hands"),
    Stat("vpip", "VPIP %",
         "Voluntarily put money in the pot on 3rd street: called, completed, bet or raised, "
         "as a percentage of hands in which the player acted on 3rd street. Posting the "
         "ante or the bring-in is not voluntary: a bring-in who then folded, or whom "
         "everyone folded to, did not VPIP; a bring-in who called a completion did.",
         _col("vpip"), _col("acted_3rd"), 100, "%"),
    Stat("complete_raise_3rd", "Compl/raise 3rd %",
         "Completed the bring-in or raised on 3rd street (stud's pre-flop raise), as a "
         "percentage of hands in which the player acted on 3rd street.",
         _col("aggr_3"), _col("acted_3rd"), 100, "%"),
    Stat("steal_attempt", "Steal %",
         "Steal attempts as a percentage of steal opportunities: completing or raising "
         "when everyone before folded to the bring-in, from one of the last three live "
         "seats to act, with a door card that outranks the bring-in's.",
         _col("steal"), _col("steal_chance"), 100, "%"),
    Stat("bring_in_fold_to_steal", "BI fold vs steal %",
         "As the bring-in facing a steal attempt that everyone else folded to: folded, "
         "as a percentage of such spots.",
         _col("bi_fold"), _col("bi_vs_steal"), 100, "%"),
    Stat("bring_in_call_steal", "BI call vs steal %",
         "As the bring-in facing a steal attempt: called, as a percentage of such spots.",
         _col("bi_call"), _col("bi_vs_steal"), 100, "%"),
    Stat("bring_in_reraise_steal", "BI re-raise vs steal %",
         "As the bring-in facing a steal attempt: re-raised, as a percentage of such spots.",
         _col("bi_reraise"), _col("bi_vs_steal"), 100, "%"),
    *_street_stats(),
    Stat("fold_to_3rd_aggression", "Fold 3rd vs compl/raise %",
         "Facing a completion or a raise on 3rd street (not the bring-in alone): folded, "
         "as a percentage of hands in which the player faced one.",
         _col("folded_aggr_3rd"), _col("faced_aggr_3rd"), 100, "%"),
    Stat("three_bet_3rd", "3-bet 3rd %",
         "Re-raised on 3rd street facing a completion and a raise of it (the third bet; "
         "the bring-in is no bet, the completion is the first), as a percentage of hands "
         "in which the player acted facing those two bets.",
         _col("three_bet"), _col("three_bet_chance"), 100, "%"),
    Stat("bring_in_complete", "BI completes %",
         "As the player who must open 3rd street (the bring-in's door card): completed to a "
         "full small bet instead of bringing in for less, as a percentage of those hands.",
         _col("opened_complete"), _col("opened_3rd"), 100, "%"),
    Stat("fold_to_4th_bet", "Fold to 4th bet %",
         "Facing a bet on 4th street (one bet, not yet raised): folded, as a percentage of "
         "hands in which the player faced one.",
         _col("folded_bet_4th"), _col("faced_bet_4th"), 100, "%"),
    *(Stat(f"saw_{STREET_LABEL[street]}", f"Saw {STREET_LABEL[street]} %",
           f"Still in the hand when {STREET_LABEL[street]} street was dealt, as a percentage of "
           f"hands dealt.", _col(f"saw_{STREET_LABEL[street]}"), _one, 100, "%")
      for street in LATER_STREETS),
    Stat("saw_showdown", "Saw SD %",
         "Live at a showdown, as a percentage of hands dealt.", _col("showdown"), _one, 100, "%"),
    Stat("went_to_showdown", "WTSD %",
         "Went to showdown (live when the hand was shown down) as a percentage of hands "
         "in which the player saw 4th street.",
         _col("showdown"), _col("saw_4th"), 100, "%"),
    Stat("won_at_showdown", "W$SD %",
         "Won all or part of a pot at showdown, as a percentage of showdowns reached.",
         _col("won_showdown"), _col("showdown"), 100, "%"),
    Stat("won_when_saw_4th", "W$S4th %",
         "Won all or part of a pot (at showdown or not) in hands in which the player saw "
         "4th street, as a percentage of those hands.",
         _col("won_saw_4th"), _col("saw_4th"), 100, "%"),
    Stat("won_without_showdown", "Won w/o SD %",
         "Won a pot without a showdown (everyone else folded, 3rd-street steals "
         "included), as a percentage of hands dealt.",
         _col("won_no_showdown"), _one, 100, "%"),
    Stat("net_won", "Net won",
         "Net won: collected less contributed (antes and bets, after uncalled bets "
         "returned; rake is paid by the winners), in whole units of the row's money "
         "(its currency; tournament chips or play money by its kind); a player's hands "
         "of different kinds or currencies are separate rows, so it is never a sum of "
         "different monies.",
         _col("net"), unit="money"),
    Stat("rake_paid", "Rake paid",
         "Rake paid: each hand's rake shared among the players in proportion to what "
         "they put in the pot (weighted contributed), in whole units of the row's money "
         "(cash games; tournament and play-money hands take none).",
         _col("rake_share"), unit="money"),
    Stat("net_won_bb", "Net won (bb)", "Net won in big bets of each hand's stakes.",
         _col("net_bb"), unit="bb"),
    Stat("showdown_won_bb", "At showdown (bb)",
         "Net won in big bets in the hands where the player reached showdown.",
         _col("net_bb_showdown"), unit="bb"),
    Stat("non_showdown_won_bb", "Without SD (bb)",
         "Net won in big bets in the hands where the player did not reach showdown "
         "(folds count here as losses).",
         _col("net_bb_no_showdown"), unit="bb"),
    Stat("bb_per_100", "bb/100", "Big bets won per 100 hands dealt.",
         _col("net_bb"), _one, 100, "bb/100"),
)
BY_NAME = {stat.name: stat for stat in STATS}
STARTING_HAND_STATS = ("hands", "vpip", "went_to_showdown", "won_at_showdown",
                       "net_won_bb", "bb_per_100")
TABLE_STATS = ("hands", "vpip", "complete_raise_3rd", "steal_attempt", "bring_in_fold_to_steal",
               "afq_post", "saw_4th", "went_to_showdown", "won_at_showdown", "won_when_saw_4th", "net_won",
               "bb_per_100")
"""The columns of ``studbook stats``' text table when no ``--stats`` are chosen."""
HUD_STATS = ("vpip", "complete_raise_3rd", "three_bet_3rd", "fold_to_3rd_aggression", "steal_attempt",
             "bring_in_fold_to_steal", "fold_to_4th_bet", "afq_post", "went_to_showdown", "hands")
"""The stud "HUD" row of ``studbook stats --opponents``."""


def stat_definitions_markdown() -> str:
    """The stat registry as a Markdown table (for docs/stat-definitions.md, by scripts/gen_docs.py)."""
    lines = ["| stat | column | definition |", "|---|---|---|"]
    lines.extend(f"| {s.label} | `{s.name}` | {s.doc} |" for s in STATS)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Facts: one row per player-hand


def facts(frames: Frames) -> pd.DataFrame:
    """One row per player per hand with the counts the stats are made of."""
    players = frames.players
    hands = frames.hands.assign(kind=game_kind(frames.hands), currency=known_currency(frames.hands))[
        ["site", "hand_id", "currency", "kind", "rake"]]
    base = players[KEY + ["variant", "big_bet", "start_class", "last_street", "showdown",
                          "won_at_showdown", "contributed", "collected", "net", "net_bb"]]
    out = _left_joined(base, [(hands, ["site", "hand_id"]), (_action_counts(frames.actions), KEY),
                              (_third_street_spots(frames), KEY)],
                       counts=COUNTED)
    for street in LATER_STREETS:
        out[f"saw_{STREET_LABEL[street]}"] = (out["last_street"] >= street).astype("int64")
    out["showdown"] = out["showdown"].astype("int64")
    out["won_showdown"] = (out["won_at_showdown"] & (out["showdown"] > 0)).astype("int64")
    out["won_no_showdown"] = ((out["collected"] > 0) & (out["showdown"] == 0)).astype("int64")
    out["won_saw_4th"] = ((out["collected"] > 0) & (out["saw_4th"] > 0)).astype("int64")
    out["rake_share"] = _rake_shares(out)
    out["net_bb_showdown"] = out["net_bb"].where(out["showdown"] > 0, 0.0)
    out["net_bb_no_showdown"] = out["net_bb"].where(out["showdown"] == 0, 0.0)
    return out


COUNTED = ("aggr_", "call_", "acts_", "acted_", "vpip", "steal", "bi_", "faced_", "folded_", "three_bet",
           "opened_")
"""The facts' count columns: 0 for a player-hand with no row of their own (no action)."""


def _rake_shares(table: pd.DataFrame) -> pd.Series:
    """Each player's share of their hand's rake (minor units, float), in proportion to
    what they put in the pot (PokerTracker's "weighted contributed" rake, FPDB's
    ``rakeWeighted``): the rake comes out of every contribution alike."""
    numbers, _ = _numbered([table["site"], table["hand_id"]])
    contributed = table["contributed"].to_numpy(dtype="float64")
    kept = numbers >= 0
    totals = np.bincount(numbers[kept], weights=contributed[kept], minlength=int(numbers.max(initial=-1)) + 1)
    total = np.where(kept, totals[np.maximum(numbers, 0)], 0.0) if len(totals) else np.zeros(len(table))
    rake = table["rake"].fillna(0).to_numpy(dtype="float64")
    share = np.divide(rake * contributed, total, out=np.zeros(len(table)), where=total > 0)
    return pd.Series(share, index=table.index)


def _left_joined(base: pd.DataFrame, rights: Sequence[tuple[pd.DataFrame, list[str]]],
                 counts: tuple[str, ...] = ()) -> pd.DataFrame:
    """``base`` merged (``how="left"``) with each of ``rights`` on its keys in turn;
    the columns whose names start with one of ``counts`` as int64, 0 where no row
    matched (``fillna(0).astype("int64")`` of the merged columns).

    Where every right table has one row a key and no key is missing (what frames
    hold), each right table's columns are taken at the positions of ``base``'s
    keys (the counts straight into int64) and the table is made once: the same
    values and dtypes as the merges, which copied the growing table once each."""
    plain = all(not right.duplicated(keys).any() and not right[keys].isna().any().any()
                and not base[keys].isna().any().any() for right, keys in rights)
    if not plain:
        out = base
        for right, keys in rights:
            out = out.merge(right, on=keys, how="left")
        counted = [c for c in out.columns if counts and c.startswith(counts)]
        out[counted] = out[counted].fillna(0).astype("int64")
        return out
    left = base.reset_index(drop=True)
    parts = [left]
    sample = left.iloc[:1]  # the merges of a row give the keys' dtypes (their common type)
    for right, keys in rights:
        rows = _positions(left, right, keys)
        parts.append(pd.DataFrame({
            column: (pd.api.extensions.take(right[column].to_numpy(dtype=np.int64), rows, allow_fill=True,
                                            fill_value=0)
                     if counts and column.startswith(counts)
                     else pd.api.extensions.take(_takeable(right[column]), rows, allow_fill=True))
            for column in right.columns if column not in keys}))
        sample = sample.merge(right.iloc[:1], on=keys, how="left")
    out = pd.concat(parts, axis=1)
    for key in {key for _, keys in rights for key in keys}:
        if out[key].dtype != sample[key].dtype:
            out[key] = out[key].astype(sample[key].dtype)
    return out


def _takeable(column: pd.Series) -> Any:
    """The column's values as ``take`` wants them: pandas 2.2 warns (FutureWarning) on a
    numpy-backed extension array, so those go as their numpy array, the others as they are."""
    values = column.array
    return values.to_numpy() if isinstance(values, pd.arrays.NumpyExtensionArray) else values


def _positions(left: pd.DataFrame, right: pd.DataFrame, keys: list[str]) -> np.ndarray:
    """For each row of ``left``, the position of the row of ``right`` with its keys
    (-1 for none); ``right``'s keys are unique. Keys that are categoricals of ``left``
    (as the frames' are) compare as numbers made of their codes."""
    if all(isinstance(left[key].dtype, pd.CategoricalDtype) for key in keys):
        sizes = [max(len(left[key].cat.categories), 1) for key in keys]
        if float(np.prod([float(n) for n in sizes])) < 2.0**62:
            codes = [_codes_in(right[key], left[key].dtype) for key in keys]
            own = [left[key].cat.codes.to_numpy() for key in keys]
            # a right row with a key value outside left's categories matches no left row, and
            # two such rows (the players of a hand with no row in left) must not share a number;
            # nor does a left row with a key missing (code -1) match any
            known = np.flatnonzero(np.logical_and.reduce([code >= 0 for code in codes]))
            if not len(known):
                return np.full(len(left), -1, dtype=np.intp)
            mine, theirs = np.zeros(len(left), np.int64), np.zeros(len(known), np.int64)
            for size, code, mine_code in zip(sizes, codes, own):
                mine = mine * size + mine_code
                theirs = theirs * size + code[known]
            found = pd.Index(theirs).get_indexer(mine)
            found[np.logical_or.reduce([code < 0 for code in own])] = -1
            return np.where(found >= 0, known[np.maximum(found, 0)], -1)
    return pd.MultiIndex.from_frame(right[keys]).get_indexer(pd.MultiIndex.from_frame(left[keys]))


def _codes_in(values: pd.Series, dtype: pd.CategoricalDtype) -> np.ndarray:
    """The codes of ``values`` among the categories of ``dtype`` (-1: not among them)."""
    if values.dtype == dtype:
        return values.cat.codes.to_numpy()
    if isinstance(values.dtype, pd.CategoricalDtype):
        found = np.append(dtype.categories.get_indexer(values.cat.categories), -1)  # code -1 (NA): -1
        return found[values.cat.codes.to_numpy()]
    return dtype.categories.get_indexer(values)


def _action_counts(actions: pd.DataFrame) -> pd.DataFrame:
    """Per player-hand: acted on 3rd, VPIP, and aggressive/call/act counts per street.

    The player-hands are numbered once (:func:`_numbered`) and each count is a
    ``bincount`` of those numbers: a groupby on the three key columns and the
    street took some 220 bytes an action row at its peak."""
    a = actions[KEY + ["street", "kind", "bets_before", "facing_bet"]]
    numbers, first = _numbered([a[c] for c in KEY])
    kept = numbers >= 0  # rows with a missing key are no player-hand's (as a groupby drops them)
    numbers, street = numbers[kept], a["street"].to_numpy()[kept]
    bets = a["bets_before"].to_numpy()[kept]
    facing = a["facing_bet"].to_numpy(dtype=bool)[kept]
    size = len(first)

    def kind_in(*kinds: str) -> np.ndarray:  # on the categorical's codes: no object per row
        return a["kind"].isin(kinds).to_numpy()[kept]

    aggressive, calls, folds, raises = kind_in(*AGGRESSIVE), kind_in("call"), kind_in("fold"), kind_in("raise")
    counted = aggressive | calls | folds
    voluntary = kind_in(*VOLUNTARY)
    result = pd.DataFrame({c: a[c].take(first).reset_index(drop=True) for c in KEY})

    def count(street_number: int, flags: np.ndarray | None) -> np.ndarray:
        on = street == street_number
        if flags is not None:
            on &= flags
        return np.bincount(numbers[on], minlength=size).astype("int64")

    def any_of(street_number: int, flags: np.ndarray) -> np.ndarray:
        return (count(street_number, flags) > 0).astype("int64")  # per hand, not per action

    for number in (3, *LATER_STREETS):
        for name, flags in (("aggr", aggressive), ("call", calls), ("acts", counted)):
            result[f"{name}_{number}"] = count(number, flags)
    result["aggr_3"] = (result["aggr_3"] > 0).astype("int64")  # per hand, not per action
    result["acted_3rd"] = count(3, None) > 0
    result["vpip"] = count(3, voluntary) > 0
    # facing a completion or a raise on 3rd (the bring-in alone is no bet: bets_before 0)
    result["faced_aggr_3rd"] = any_of(3, (bets >= 1) & facing)
    result["folded_aggr_3rd"] = any_of(3, (bets >= 1) & folds)
    # a re-raise is the third bet: facing a completion and a raise of it
    result["three_bet_chance"] = any_of(3, (bets == 2) & facing)
    result["three_bet"] = any_of(3, (bets == 2) & raises)
    result["faced_bet_4th"] = any_of(4, (bets == 1) & facing)
    result["folded_bet_4th"] = any_of(4, (bets == 1) & folds)
    opener = _first_of_hands(a[["site", "hand_id"]][kept], street == 3)
    result["opened_3rd"] = any_of(3, opener & kind_in("bring_in", "complete"))
    result["opened_complete"] = any_of(3, opener & kind_in("complete"))
    return result


def _first_of_hands(keys: pd.DataFrame, on: np.ndarray) -> np.ndarray:
    """True at the first of each hand's rows where ``on`` holds (the rows in hand order)."""
    rows = np.flatnonzero(on)
    first = np.zeros(len(keys), dtype=bool)
    if len(rows):
        _, firsts = _numbered([keys[c].iloc[rows] for c in keys.columns])
        first[rows[firsts]] = True
    return first


def _numbered(keys: Sequence[pd.Series]) -> tuple[np.ndarray, np.ndarray]:
    """Each row's number of its combination of ``keys`` (0, 1, ... in order of first
    appearance; -1 where a key is missing), and the first row of each number."""
    combined = np.zeros(len(keys[0]), dtype=np.int64)
    missing = np.zeros(len(keys[0]), dtype=bool)
    for key in keys:
        codes, uniques = pd.factorize(key, use_na_sentinel=True)
        missing |= codes < 0
        width = max(len(uniques), 1)
        if len(combined) and int(combined.max()) >= (1 << 62) // width:  # would overflow: renumber first
            combined = pd.factorize(combined)[0].astype(np.int64)
        combined = combined * width + np.maximum(codes, 0)
    numbers = np.full(len(combined), -1, dtype=np.int64)
    present = ~missing
    numbers[present] = pd.factorize(combined[present])[0]
    first = np.zeros(int(numbers.max()) + 1 if len(numbers) else 0, dtype=np.int64)
    rows = np.flatnonzero(numbers >= 0)
    first[numbers[rows][::-1]] = rows[::-1]
    return numbers, first


def door_beats(door: Card, bring_in_door: Card, variant: str) -> bool:
    """The door card outranks the bring-in's (rank only: a tie does not)."""
    if variant == "razz":
        return door.low_rank < bring_in_door.low_rank
    return door.rank > bring_in_door.rank


def _third_street_spots(frames: Frames) -> pd.DataFrame:
    """Per player-hand: steal chances and attempts, bring-in defence, from 3rd-street actions.

    The players' door cards and the hands' variants come onto the 3rd-street
    action rows by merging (a player with no row there plays no part in a spot),
    so no Python object is made per player-hand or per hand of the frames."""
    third = frames.actions.loc[frames.actions["street"] == 3, ["site", "hand_id", "player", "kind"]]
    doors = frames.players[KEY + ["door"]].drop_duplicates(KEY, keep="last")  # as a dict of them would
    variants = frames.hands[["site", "hand_id", "variant"]].drop_duplicates(["site", "hand_id"], keep="last")
    third = _left_joined(third, [(doors, KEY), (variants, ["site", "hand_id"])])
    cards: dict[Any, Card | None] = {}  # each door written once
    rows: list[tuple[Any, ...]] = []
    hand_actions: list[tuple[str, str]] = []
    hand_doors: dict[tuple[str, str, str], Card] = {}
    current: tuple[str, str] | None = None
    variant: Any = None
    for site, hand_id, player, kind, door, of_hand in zip(*map(_python_values, (
            third[c] for c in ("site", "hand_id", "player", "kind", "door", "variant")))):
        if (site, hand_id) != current:
            if current is not None:
                rows.extend(_spots(current, hand_actions, hand_doors, _variant_or_stud(variant)))
            current, hand_actions, hand_doors, variant = (site, hand_id), [], {}, of_hand
        hand_actions.append((player, kind))
        card = cards[door] if door in cards else cards.setdefault(
            door, Card.parse(door) if isinstance(door, str) else None)
        if card is not None:
            hand_doors[(site, hand_id, player)] = card
    if current is not None:
        rows.extend(_spots(current, hand_actions, hand_doors, _variant_or_stud(variant)))
    return pd.DataFrame.from_records(rows, columns=KEY + [
        "steal_chance", "steal", "bi_vs_steal", "bi_fold", "bi_call", "bi_reraise"])


def _python_values(column: pd.Series) -> Iterator[Any]:
    """The values of ``column`` one at a time, as ``itertuples`` gives them; a
    categorical's from its codes, so that they are not all made as Python objects
    at once (``itertuples`` makes every column's: some 400 bytes a row here)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        categories = [*column.cat.categories.tolist(), np.nan]  # code -1: NA
        return map(categories.__getitem__, column.cat.codes.to_numpy())
    return iter(column.tolist())


def _variant_or_stud(variant: Any) -> str:
    return variant if isinstance(variant, str) else "stud"  # a hand with no row in hands


def _spots(
    hand: tuple[str, str],
    actions: Sequence[tuple[str, str]],
    doors: dict[tuple[str, str, str], Card],
    variant: str,
) -> list[tuple[Any, ...]]:
    """The steal and bring-in-defence spots of one hand's 3rd street."""
    if not actions or actions[0][1] != "bring_in":
        return []
    bring_in = actions[0][0]
    bring_in_door = doors.get((*hand, bring_in))
    first_round: list[str] = []  # players in order of their first action after the bring-in
    for player, _ in actions[1:]:
        if player != bring_in and player not in first_round:
            first_round.append(player)
    out: list[tuple[Any, ...]] = []
    stealer: str | None = None
    for player, kind in actions[1:]:
        if player == bring_in:
            if stealer is not None:
                defence = (kind == "fold", kind == "call", kind in ("raise", "complete", "bet"))
                out.append((*hand, bring_in, 0, 0, 1, *map(int, defence)))
            break
        if stealer is not None:
            if kind != "fold":
                break  # someone else came in: not a pure steal spot for the bring-in
            continue
        behind = len(first_round) - first_round.index(player) - 1
        door = doors.get((*hand, player))
        chance = (behind < STEAL_SEATS and door is not None and bring_in_door is not None
                  and door_beats(door, bring_in_door, variant))
        attempt = chance and kind in AGGRESSIVE
        if chance:
            out.append((*hand, player, 1, int(attempt), 0, 0, 0, 0))
        if attempt:
            stealer = player
        elif kind != "fold":
            break  # a call (or an attempt from the wrong seat) ends the folded-to spot
    return out


# ---------------------------------------------------------------------------
# Computing

PLAYER_KEYS = ("site", "player", "variant")
"""The groups of :func:`compute` by default: a player is a name on a site."""

MONEY_KEYS = ("kind", "currency")
"""What splits every group with ``split_money``: the kind of game and its currency."""

Players = str | Sequence[str | tuple[str, str]] | None
"""Players chosen: a name (on any site), or names and ``(site, name)`` pairs."""

Aliases = Mapping[tuple[str, str], str] | None
"""``{(site, name): person}``: the names (on their sites) that are one person, merged on purpose."""


def compute(
    frames: Frames,
    *,
    player: Players = None,
    variant: str | Sequence[str] | None = None,
    by: Sequence[str] = PLAYER_KEYS,
    stats: Sequence[str] | None = None,
    min_hands: int = 0,
    filters: Filters | None = None,
    split_money: bool = True,
    denominators: bool = False,
    aliases: Aliases = None,
) -> pd.DataFrame:
    """One row per group (default: site, player and variant), one column per stat.

    A player is a name on a site: ``Player1`` of two sites is two rows. To count
    several names as one person on purpose, ``aliases`` maps each ``(site, name)``
    to the person's name: their hands are one group, ``player`` the person and
    ``site`` their sites joined with ``+`` (``fulltilt+pokerstars``). Names alone,
    across every site, are ``by=("player", "variant")``.

    ``filters`` selects the hands (and, with ``players``, the players) first;
    ``player`` keeps names (on any site) and ``(site, name)`` pairs, before any
    alias merges them; ``min_hands`` keeps the groups with at least that many
    hands, whichever stats are chosen.

    With ``split_money`` (the default) every group is split by kind of game
    (``kind``: cash, tournament, play-money) and ``currency`` (a cash game's ISO
    code, from its log or its site, :func:`known_currency`; NA for tournament
    chips, play money and an unknown currency), so money never mixes. Without
    it, ``kind`` and ``currency`` are the group's, 'mixed' when several, and the
    money stats are NaN for a group of mixed money.

    Percentages are 0..100, NaN where the denominator is zero (no opportunity).
    The money stats (``net_won``, ``rake_paid``; :data:`MONEY_STATS`) are float64
    in whole units of the row's money, summed exactly in minor units first, and
    the table's ``attrs["units"]`` names them (``{"net_won": "whole", ...}``, as
    each frame's names its integer ``"minor"`` columns); the
    ``*_bb`` stats are in big bets. With ``denominators``, each stat with a
    denominator has a ``<name>_n`` column beside it: the number of opportunities
    (the sample size).

    The same as :func:`finish` of :func:`sums`: frames too large for memory
    can be summed in chunks of whole hands and the sums combined
    (:func:`combine_sums`), as ``studbook stats`` and the Dask scale run do.
    """
    if filters is not None:
        frames = select(frames, filters)
        player = player or filters.players or None
    part = sums(frames, player=player, variant=variant, by=by, stats=stats, split_money=split_money,
                aliases=aliases)
    return finish(part, by=by, stats=stats, min_hands=min_hands, split_money=split_money,
                  denominators=denominators)


def _keys(by: Sequence[str], split_money: bool) -> list[str]:
    return list(by) + (list(MONEY_KEYS) if split_money else [])


def sums(
    frames: Frames,
    *,
    player: Players = None,
    variant: str | Sequence[str] | None = None,
    by: Sequence[str] = PLAYER_KEYS,
    stats: Sequence[str] | None = None,
    split_money: bool = True,
    aliases: Aliases = None,
) -> pd.DataFrame:
    """Each group's sums of the stats' numerators and denominators (``<stat>__num``,
    ``<stat>__den``), its hands (``__hands``) and its first and last kind and
    currency (``__kind_min``/``__kind_max``, ``__currency_min``/``__currency_max``,
    '' for none), indexed by the group keys.

    Sums of frames holding whole hands add up (:func:`combine_sums`): every stat
    is a ratio of sums over player-hands.
    """
    table = facts(frames)
    table = _players(table, player)
    table = _filter(table, "variant", variant)
    table = merged_aliases(table, aliases)
    chosen = [BY_NAME[name] for name in (stats or BY_NAME)]
    keys = _keys(by, split_money)
    if "start_class" in keys:
        table = table[table["start_class"].notna()]
    keyed = pd.DataFrame({key: _plain(table[key]) for key in keys}, index=table.index)
    grouped = keyed.groupby(keys, sort=True, dropna=False, observed=True)
    groups = grouped.ngroup().to_numpy()  # each row's group, numbered in the groups' (sorted) order
    # each sum by itself (the same sum of the same rows in the same order as a
    # groupby of them all together), so that only one column a stat is made at a
    # time, never a table of them all (some 70 columns a player-hand)
    columns: dict[str, pd.Series] = {"__hands": _group_sum(_one(table), groups)}
    for stat in chosen:
        columns[f"{stat.name}__num"] = _group_sum(stat.num(table), groups)
        if stat.den is not None:
            columns[f"{stat.name}__den"] = _group_sum(stat.den(table), groups)
    for name in MONEY_KEYS:  # '' for none: min and max tell one money from several
        values = table[name].astype(STRING).fillna("").groupby(groups, sort=True)
        columns[f"__{name}_min"], columns[f"__{name}_max"] = values.min(), values.max()
    out = pd.DataFrame(columns)
    out.index = grouped.size().index
    return out


def merged_aliases(table: pd.DataFrame, aliases: Aliases) -> pd.DataFrame:
    """``table`` (with ``site`` and ``player`` columns) with each aliased ``(site, name)``
    made its person: ``player`` the person, ``site`` the person's sites joined with
    ``+`` (the same label in every chunk, so that sums of chunks add up)."""
    if not aliases:
        return table
    sites: dict[str, set[str]] = {}
    for (site, _), person in aliases.items():
        sites.setdefault(person, set()).add(site)
    labels = {person: "+".join(sorted(names)) for person, names in sites.items()}
    known = pd.MultiIndex.from_tuples(list(aliases))
    persons = np.array(list(aliases.values()), dtype=object)
    found = known.get_indexer(pd.MultiIndex.from_arrays(
        [table["site"].astype(object), table["player"].astype(object)]))
    hit = found >= 0
    player = table["player"].astype(object).to_numpy(copy=True)
    site = table["site"].astype(object).to_numpy(copy=True)
    player[hit] = persons[found[hit]]
    site[hit] = [labels[person] for person in player[hit]]
    return table.assign(player=pd.Series(player, index=table.index, dtype=STRING),
                        site=pd.Series(site, index=table.index, dtype=STRING))


def _plain(column: pd.Series) -> pd.Series:
    """A group key as plain strings, so that sums of different chunks line up."""
    return column.astype(STRING) if isinstance(column.dtype, pd.CategoricalDtype) else column


def _group_sum(values: pd.Series, groups: np.ndarray) -> pd.Series:
    return values.groupby(groups, sort=True).sum()


def combine_sums(parts: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """The sums (:func:`sums`) of several chunks of whole hands as one."""
    frames = [part for part in parts if not part.empty]
    if not frames:
        return pd.DataFrame()
    both = pd.concat(frames)
    keys = list(range(both.index.nlevels))
    grouped = both.groupby(level=keys, sort=True, dropna=False)
    firsts = [f"__{name}_min" for name in MONEY_KEYS]
    lasts = [f"__{name}_max" for name in MONEY_KEYS]
    counted = [c for c in both.columns if c not in firsts + lasts]
    out = grouped[counted].sum()
    out[firsts] = grouped[firsts].min()
    out[lasts] = grouped[lasts].max()
    return out


MONEY_STATS = tuple(stat.name for stat in STATS if stat.unit == "money")
"""The stats in money: float64, whole units of the row's money (see :func:`compute`)."""


def finish(
    totals: pd.DataFrame,
    *,
    by: Sequence[str] = PLAYER_KEYS,
    stats: Sequence[str] | None = None,
    min_hands: int = 0,
    split_money: bool = True,
    denominators: bool = False,
) -> pd.DataFrame:
    """The stats table (see :func:`compute`) from the groups' sums (:func:`sums`)."""
    chosen = [BY_NAME[name] for name in (stats or BY_NAME)]
    keys = _keys(by, split_money)
    names = [s.name for s in chosen]
    if denominators:
        names = [n for s in chosen for n in ((s.name, f"{s.name}_n") if s.den else (s.name,))]
    if totals.empty:
        return _with_units(pd.DataFrame(columns=keys + ([] if split_money else list(MONEY_KEYS)) + names))
    one_money = ((totals["__kind_min"] == totals["__kind_max"])
                 & (totals["__currency_min"] == totals["__currency_max"])).to_numpy()
    result = pd.DataFrame(index=totals.index)
    if not split_money:
        for name in MONEY_KEYS:
            result[name] = totals[f"__{name}_min"].where(one_money, "mixed").replace("", pd.NA).astype(STRING)
    for stat in chosen:
        numerator = totals[f"{stat.name}__num"].astype("float64")
        if stat.unit == "money":  # exact sums of minor units, then whole units
            value = (numerator / MONEY_SCALE).where(one_money)
        elif stat.den is None:
            value = totals[f"{stat.name}__num"]
        else:
            denominator = totals[f"{stat.name}__den"].astype("float64")
            value = numerator.div(denominator.where(denominator > 0, np.nan)) * stat.scale
        if stat.unit == "hands":
            value = value.astype("int64")
        result[stat.name] = value
        if denominators and stat.den is not None:
            result[f"{stat.name}_n"] = totals[f"{stat.name}__den"].astype("int64")
    if min_hands:
        result = result[totals["__hands"] >= min_hands]
    result = result.reset_index()
    for key in keys:  # the groups' names as plain strings (NA where none), whatever the frames' dtypes
        result[key] = result[key].astype(STRING)
    return _with_units(result.reset_index(drop=True))


def _with_units(table: pd.DataFrame) -> pd.DataFrame:
    """The table with its money columns' unit in ``attrs["units"]`` (column -> ``"whole"``),
    as the frames name theirs (``"minor"``): one way to tell what a money column holds."""
    table.attrs["units"] = {name: WHOLE_UNITS for name in MONEY_STATS if name in table.columns}
    return table


def compute_chunks(
    chunks: Iterable[Frames],
    *,
    player: Players = None,
    variant: str | Sequence[str] | None = None,
    by: Sequence[str] = PLAYER_KEYS,
    stats: Sequence[str] | None = None,
    min_hands: int = 0,
    split_money: bool = True,
    denominators: bool = False,
    aliases: Aliases = None,
) -> pd.DataFrame:
    """:func:`compute` of frames that arrive in chunks of whole hands (a store read
    a chunk at a time): the same table, with one chunk and the running sums in memory."""
    total = pd.DataFrame()
    for frames in chunks:
        part = sums(frames, player=player, variant=variant, by=by, stats=stats, split_money=split_money,
                    aliases=aliases)
        total = combine_sums([total, part])
    return finish(total, by=by, stats=stats, min_hands=min_hands, split_money=split_money,
                  denominators=denominators)


STARTING_HAND_KEYS = ("site", "player", "variant", "start_class")
"""The groups of :func:`by_starting_hand`."""


def by_starting_hand(frames: Frames, *, player: Players = None,
                     variant: str | Sequence[str] | None = None,
                     min_hands: int = 0, denominators: bool = False,
                     aliases: Aliases = None) -> pd.DataFrame:
    """Results per starting-hand class, where the player's three 3rd-street cards are known."""
    table = compute(frames, player=player, variant=variant,
                    by=STARTING_HAND_KEYS, stats=STARTING_HAND_STATS,
                    min_hands=min_hands, denominators=denominators, aliases=aliases)
    return in_class_order(table)


def in_class_order(table: pd.DataFrame) -> pd.DataFrame:
    """A starting-hand table by (site,) player, variant and class in the classes' order."""
    order = {name: i for i, name in enumerate(STUD_CLASSES + RAZZ_CLASSES)}
    table["_order"] = table["start_class"].map(order)
    keys = [key for key in ("site", "player", "variant") if key in table.columns]
    return (table.sort_values([*keys, "_order"], kind="stable")
            .drop(columns="_order").reset_index(drop=True))


def _players(table: pd.DataFrame, wanted: Players) -> pd.DataFrame:
    """The rows of the ``wanted`` players: names on any site, ``(site, name)`` pairs on theirs."""
    if wanted is None:
        return table
    chosen = [wanted] if isinstance(wanted, str) else list(wanted)
    names = [w for w in chosen if isinstance(w, str)]
    pairs = [tuple(w) for w in chosen if not isinstance(w, str)]
    keep = table["player"].isin(names).to_numpy(copy=True)
    if pairs:
        keep |= pd.MultiIndex.from_arrays([table["site"].astype(object), table["player"].astype(object)]).isin(pairs)
    return table[keep]


def _filter(table: pd.DataFrame, column: str,
            wanted: str | Sequence[str] | None) -> pd.DataFrame:
    if wanted is None:
        return table
    values = [wanted] if isinstance(wanted, str) else list(wanted)
    return table[table[column].isin(values)]


__all__ = ["Aliases", "BY_NAME", "HUD_STATS", "MONEY_KEYS", "MONEY_STATS", "PLAYER_KEYS", "Players", "STATS",
           "STEAL_SEATS", "STARTING_HAND_STATS", "STARTING_HAND_KEYS", "TABLE_STATS", "Stat", "by_starting_hand",
           "combine_sums", "compute", "compute_chunks", "door_beats", "facts", "finish", "in_class_order",
           "known_currency", "merged_aliases", "stat_definitions_markdown", "sums"]
