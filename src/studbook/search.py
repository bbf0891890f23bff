"""Hand search: one row per hand a player was dealt into, with what they held and won.

:func:`find_hands` lists a player's hands (after :func:`studbook.filters.select`)
in time order: the hand's site, id and start, its stakes, the player's cards
(down cards the log showed, then up cards in deal order), the starting-hand
class, the result in money (``currency``: a cash game's, from its log or its
site, :func:`studbook.filters.known_currency`; NA for tournament chips, play money
and an unknown currency, which ``kind`` tells apart) and in big bets, whether the player reached showdown, and the rule
violations found in the hand. ``site`` and ``hand_id`` name the hand for the
commands that take hand ids.
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from studbook.filters import game_kind, known_currency
from studbook.frames import Frames, from_minor
from studbook.lean import filled
from studbook.rows import START_CLASSES

CLASSES = START_CLASSES  # the classes of studbook.rows.starting_class, by name
COLUMNS = ["site", "hand_id", "started_utc", "started", "variant", "kind", "stakes", "player",
           "down_cards", "up_cards", "start_class", "showdown", "net", "currency", "net_bb",
           "violations", "rules"]


def find_hands(
    frames: Frames,
    players: str | Sequence[str],
    *,
    showdown: bool | None = None,
    won: bool | None = None,
    min_bb: float | None = None,
    starting_hand: str | None = None,
    rule: str | None = None,
    any_hand: bool = False,
) -> pd.DataFrame:
    """The hands of ``players`` that match, in time order (see :data:`COLUMNS`).

    ``showdown``: only hands the player took to showdown (True) or not (False);
    ``won``: only hands with a positive (True) or negative (False) result;
    ``min_bb``: only results of at least that many big bets either way;
    ``starting_hand``: a class of :data:`CLASSES` (any case); ``rule``: hands
    with a violation of that rule id, or of any id under it (``bet`` takes
    ``bet.size``). ``any_hand``: also the hands none of ``players`` was dealt
    into, one row each with no player (what ``check`` found is found whoever
    played it); the player criteria then still keep only the players' rows.
    """
    names = [players] if isinstance(players, str) else list(players)
    rows = frames.players[frames.players["player"].isin(names)].drop(columns="variant")
    by_player = showdown is not None or won is not None or min_bb is not None or starting_hand is not None
    if showdown is not None:
        rows = rows[rows["showdown"] == showdown]
    if won is True:
        rows = rows[rows["net"] > 0]
    elif won is False:
        rows = rows[rows["net"] < 0]
    if min_bb is not None:
        rows = rows[rows["net_bb"].abs() >= min_bb]
    if starting_hand is not None:
        rows = rows[rows["start_class"].str.casefold() == starting_hand.casefold()]
    hands = frames.hands.assign(kind=game_kind(frames.hands), currency=known_currency(frames.hands))[
        ["site", "hand_id", "started_utc", "started", "variant", "kind", "stakes", "currency"]]
    if any_hand and not by_player:
        out = hands.merge(rows, on=["site", "hand_id"], how="left", sort=False)
    else:
        out = rows.merge(hands, on=["site", "hand_id"], how="left", sort=False)
    violations = frames.violations
    if rule is not None:
        violations = violations[(violations["rule"] == rule)
                                | violations["rule"].str.startswith(rule + ".")]
        out = out.merge(violations[["site", "hand_id"]].drop_duplicates(),
                        on=["site", "hand_id"], how="inner", sort=False)
    per_hand = frames.violations.groupby(["site", "hand_id"], sort=False, observed=True)["rule"].agg(
        violations="size", rules=lambda r: ", ".join(sorted(set(r))))
    out = out.merge(per_hand.reset_index(), on=["site", "hand_id"], how="left", sort=False)
    out["violations"] = out["violations"].fillna(0).astype("int64")
    out["rules"] = filled(out["rules"], "")
    out["net"] = [None if pd.isna(v) else from_minor(v) for v in out["net"]]
    out = out.sort_values(["started_utc", "site", "hand_id"], kind="stable", na_position="last")
    return out[COLUMNS].reset_index(drop=True)


def start_class(text: str) -> str | None:
    """The class of :data:`CLASSES` that ``text`` names (any case), or None."""
    folded = {name.casefold(): name for name in CLASSES}
    return folded.get(text.casefold())


__all__ = ["CLASSES", "COLUMNS", "find_hands", "start_class"]
