"""A player's tournaments: buy-in, hands, chips over time, how it ended.

:func:`tournaments` gives one row per tournament the player was dealt into
(site and tournament id): the buy-in as written, the variants, the hands,
the first and last hand's start (UTC) and level, the stack at the first hand,
the chips after the last hand (its stack plus its net), the chips won or lost,
``busted`` when the last hand left the player no chips, and the ``place`` and
``prize`` where a hand's log states them (PokerStars: ``Hero finished the
tournament in 5th place [and received $N]``, ``Hero wins the tournament and
receives $N``; the players frame's ``finish_place``/``finish_prize``), NA
where no hand of the tournament says.
:func:`chips_over_time` gives the chips after each hand, for a chart.
"""

from __future__ import annotations

import pandas as pd

from studbook.frames import Frames, from_minor

COLUMNS = ["site", "tournament", "buy_in", "variants", "hands", "first_utc", "last_utc",
           "first_level", "last_level", "start_chips", "end_chips", "net_chips", "busted", "place", "prize"]


def chips_over_time(frames: Frames, player: str) -> pd.DataFrame:
    """The player's tournament hands in order, with ``chips`` after each (minor units)."""
    rows = frames.players[frames.players["player"] == player][
        ["site", "hand_id", "variant", "stack", "net", "finish_place", "finish_prize"]]
    hands = frames.hands[frames.hands["tournament"].notna()][
        ["site", "hand_id", "tournament", "buy_in", "level", "started_utc", "line", "file"]]
    out = rows.merge(hands, on=["site", "hand_id"], how="inner", sort=False)
    out["chips"] = out["stack"] + out["net"]
    out = out.sort_values(["site", "tournament", "started_utc", "file", "line"], kind="stable")
    return out.reset_index(drop=True)


def tournaments(frames: Frames, player: str) -> pd.DataFrame:
    """One row per tournament of ``player`` (see :data:`COLUMNS`), in time order."""
    chips = chips_over_time(frames, player)
    if chips.empty:
        return pd.DataFrame(columns=COLUMNS)
    grouped = chips.groupby(["site", "tournament"], sort=False, observed=True)
    table = grouped.agg(
        buy_in=("buy_in", "first"), variants=("variant", lambda v: ", ".join(dict.fromkeys(v))),
        hands=("hand_id", "size"), first_utc=("started_utc", "first"),
        last_utc=("started_utc", "last"), first_level=("level", "first"),
        last_level=("level", "last"), start=("stack", "first"), end=("chips", "last"),
        place=("finish_place", "last"), prize=("finish_prize", "last"),  # "last": the last stated
    ).reset_index()
    table["start_chips"] = [from_minor(v) for v in table.pop("start")]
    table["end_chips"] = [from_minor(v) for v in table.pop("end")]
    table["net_chips"] = table["end_chips"] - table["start_chips"]
    table["busted"] = table["end_chips"] == 0
    table["place"] = table["place"].astype("Int16")
    table["prize"] = [None if pd.isna(v) else from_minor(int(v)) for v in table["prize"]]
    return table.sort_values("first_utc", kind="stable")[COLUMNS].reset_index(drop=True)


__all__ = ["COLUMNS", "chips_over_time", "tournaments"]
