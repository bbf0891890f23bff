"""Charts of frames, as matplotlib Figures drawn with the Agg canvas.

Each function takes :class:`~studbook.frames.Frames` and returns a
:class:`matplotlib.figure.Figure` (made without pyplot, so no global state
and no display needed); ``save(figure, path)`` writes PNG, SVG or PDF by the
file's extension. In a notebook the returned figure shows as the cell's value.

* :func:`cumulative_results`: net won over hands, with the showdown and
  non-showdown lines trackers draw.
* :func:`compare_players`: percentage stats of several players side by side.
* :func:`starting_hand_results`: results by starting-hand class.
* :func:`violations_by_rule`: rule violations by rule, stacked by site.
* :func:`session_results`: big bets won per sitting, with the running total.
* :func:`tournament_chips`: chips after each hand, one line per tournament.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, StrMethodFormatter

from studbook.frames import MONEY_SCALE, Frames
from studbook.lean import filled
from studbook.stats import BY_NAME, by_starting_hand, compute

COMPARE_STATS = ("vpip", "complete_raise_3rd", "steal_attempt", "bring_in_fold_to_steal",
                 "went_to_showdown", "won_at_showdown", "afq_post")
COLORS = {"total": "#1f77b4", "showdown": "#2ca02c", "non_showdown": "#d62728"}


def _figure(width: float = 9.0, height: float = 5.0) -> Figure:
    figure = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def save(figure: Figure, path: str | Path) -> Path:
    """Write ``figure`` to ``path`` (format from the extension: png, svg, pdf)."""
    path = Path(path)
    figure.savefig(path)
    return path


def main_player(frames: Frames) -> str | None:
    """The player dealt into the most hands (the hero of one's own histories)."""
    players = frames.players["player"]
    if players.empty:
        return None
    counts = players.value_counts(sort=False)
    most = set(counts.index[counts == counts.max()])
    return str(next(name for name in players if name in most))  # on a tie, the first seen


def _hands(count: int) -> str:
    return f"{int(count):,} hand{'s' if count != 1 else ''}"


_GROUPED = StrMethodFormatter("{x:,.0f}")
"""Tick labels of counts and sums written in full with thousands separators
(1,000,000 rather than matplotlib's 1.0 and a "1e6" offset)."""


def _empty(figure: Figure, title: str, message: str) -> Figure:
    axes = figure.add_subplot()
    axes.set_title(title)
    axes.text(0.5, 0.5, message, ha="center", va="center", transform=axes.transAxes)
    axes.set_axis_off()
    return figure


def cumulative_results(frames: Frames, player: str | None = None, *,
                       unit: str = "auto") -> Figure:
    """Cumulative net won by ``player`` over their hands, in time order.

    Three lines: all hands, hands that reached showdown (for the player), hands
    that did not. ``unit`` is 'bb' (big bets of each hand's stakes), 'money'
    (needs one currency) or 'auto' (money when the hands share one currency).
    """
    player = player or main_player(frames)
    figure = _figure()
    title = f"Results of {player}" if player else "Results"
    rows = frames.players[frames.players["player"] == player]
    if rows.empty:
        return _empty(figure, title, "no hands for this player")
    rows = rows.merge(frames.hands[["site", "hand_id", "started_utc", "currency"]],
                      on=["site", "hand_id"], how="left", sort=False)
    rows = rows.reset_index(drop=True).sort_values("started_utc", kind="stable", na_position="last")
    currencies = filled(rows["currency"], "chips").astype(object).unique()
    if unit == "auto":
        unit = "money" if len(currencies) == 1 else "bb"
    if unit == "money":
        if len(currencies) != 1:
            raise ValueError("results in money need hands of one currency; use unit='bb'")
        values = rows["net"].astype("float64") / MONEY_SCALE
        label = f"Net won ({currencies[0]})"
    else:
        values = rows["net_bb"]
        label = "Net won (big bets)"
    showdown = rows["showdown"].to_numpy()
    x = np.arange(1, len(rows) + 1)
    axes = figure.add_subplot()
    axes.plot(x, values.cumsum(), color=COLORS["total"], lw=2, label="All hands")
    axes.plot(x, values.where(showdown, 0.0).cumsum(), color=COLORS["showdown"], lw=1.3,
              label="At showdown")
    axes.plot(x, values.where(~showdown, 0.0).cumsum(), color=COLORS["non_showdown"], lw=1.3,
              label="Without showdown")
    axes.axhline(0, color="grey", lw=0.8)
    total = values.sum()
    axes.set_title(f"{title}: {_hands(len(rows))}, {total:+,.2f} "
                   f"{'bb' if unit == 'bb' else currencies[0]}")
    axes.set_xlabel("Hands played (in time order)")
    axes.xaxis.set_major_formatter(_GROUPED)
    if unit != "bb":
        axes.yaxis.set_major_formatter(_GROUPED)
    axes.set_ylabel(label)
    axes.grid(alpha=0.3)
    axes.legend(loc="best")
    return figure


def compare_players(frames: Frames, players: Sequence[str] | None = None, *,
                    stats: Sequence[str] = COMPARE_STATS, top: int = 6,
                    min_hands: int = 0) -> Figure:
    """Percentage stats (VPIP, steals, showdowns...) of several players side by side.

    ``players`` defaults to the ``top`` players with the most hands. All variants
    together; the legend gives each player's hands, and each bar its sample size
    (the opportunities the percentage is of). A player with fewer than
    ``min_hands`` hands is drawn grey and hatched: a small sample.
    """
    figure = _figure(10, 5.5)
    table = compute(frames, by=("player",), stats=("hands", *stats), split_money=False,
                    denominators=True)
    if players is None:
        table = table.sort_values("hands", ascending=False, kind="stable").head(top)
    else:
        table = table[table["player"].isin(players)]
    if table.empty:
        return _empty(figure, "Players compared", "no hands for these players")
    axes = figure.add_subplot()
    width = 0.8 / len(table)
    x = np.arange(len(stats))
    small_samples = False
    for i, (_, row) in enumerate(table.iterrows()):
        values = [row[name] for name in stats]
        samples = [row[f"{name}_n"] for name in stats]
        small = row["hands"] < min_hands
        small_samples |= bool(small)
        label = f"{row['player']} ({_hands(row['hands'])}{', small sample' if small else ''})"
        style: dict[str, Any] = (dict(color="lightgrey", hatch="//", edgecolor="grey")
                                 if small else {})
        positions = x + (i - (len(table) - 1) / 2) * width
        axes.bar(positions, values, width, label=label, **style)
        for position, value, sample in zip(positions, values, samples):
            if pd.isna(value):
                axes.text(position, 1, "n/a", rotation=90, ha="center", va="bottom",
                          fontsize="x-small", color="grey")
            else:
                axes.text(position, value + 0.5, str(int(sample)), ha="center", va="bottom",
                          rotation=90, fontsize=6, color="dimgrey")
    axes.set_xticks(x, [BY_NAME[name].label.replace(" %", "") for name in stats],
                    rotation=20, ha="right")
    axes.set_ylabel("Percent of opportunities (%)")
    axes.set_ylim(0, 102)
    note = f"; grey: under {min_hands} hands" if small_samples else ""
    axes.set_title("Players compared (numbers on bars: opportunities; n/a: none"
                   f"{note})")
    axes.grid(axis="y", alpha=0.3)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", title="Player")
    return figure


def starting_hand_results(frames: Frames, player: str | None = None) -> Figure:
    """Big bets won per hand by starting-hand class, one panel per variant."""
    player = player or main_player(frames)
    table = by_starting_hand(frames, player=player) if player else pd.DataFrame()
    title = f"Results by starting hand: {player}"
    if table.empty:
        return _empty(_figure(), title, "no hands with known starting cards")
    variants = list(dict.fromkeys(table["variant"]))
    figure = _figure(9, 1.2 + 0.35 * len(table) + 0.6 * len(variants))
    panels = figure.subplots(len(variants), 1, squeeze=False,
                             height_ratios=[(table["variant"] == v).sum() for v in variants])
    for axes, variant in zip(panels[:, 0], variants):
        part = table[table["variant"] == variant].iloc[::-1]
        per_hand = part["net_won_bb"] / part["hands"]
        colors = [COLORS["showdown"] if v >= 0 else COLORS["non_showdown"] for v in per_hand]
        bars = axes.barh(part["start_class"], per_hand, color=colors)
        axes.bar_label(bars, labels=[_hands(n) for n in part["hands"]], padding=3,
                       fontsize="small")
        axes.axvline(0, color="grey", lw=0.8)
        axes.set_title(variant)
        axes.set_xlabel("Big bets won per hand")
        axes.grid(axis="x", alpha=0.3)
        axes.margins(x=0.25)
    figure.suptitle(title)
    return figure


def violations_by_rule(frames: Frames) -> Figure:
    """Number of rule violations per rule id, stacked by site."""
    violations = frames.violations
    figure = _figure(9, 1.5 + 0.4 * max(violations["rule"].nunique(), 3))
    title = "Rule violations by rule"
    if violations.empty:
        return _empty(figure, title, f"no violations in {len(frames.hands)} hands")
    counts = (violations.groupby(["rule", "site"], observed=True).size()
              .unstack("site", fill_value=0))
    counts = counts.loc[counts.sum(axis=1).sort_values().index]
    axes = figure.add_subplot()
    left = np.zeros(len(counts))
    for site in counts.columns:
        axes.barh(counts.index, counts[site], left=left, label=site)
        left += counts[site].to_numpy()
    for y, total in enumerate(left):
        axes.text(total, y, f" {int(total)}", va="center", fontsize="small")
    hands = violations[["site", "hand_id"]].drop_duplicates().shape[0]
    axes.set_title(f"{title}: {len(violations):,} in {hands:,} of {_hands(len(frames.hands))}")
    axes.set_xlabel("Violations (count)")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylabel("Rule id (docs/rules.md)")
    axes.grid(axis="x", alpha=0.3)
    axes.margins(x=0.1)
    axes.legend(title="Site", loc="lower right")
    return figure


def session_results(frames: Frames, player: str | None = None) -> Figure:
    """Big bets won in each sitting of ``player`` (bars, labelled with the hands
    played), and the running total (line), in time order."""
    from studbook.sessions import sessions

    player = player or main_player(frames)
    figure = _figure(10, 5)
    title = f"Sessions of {player}" if player else "Sessions"
    table = sessions(frames, player).table if player else pd.DataFrame()
    if table.empty:
        return _empty(figure, title, "no hands with a known start time")
    axes = figure.add_subplot()
    x = np.arange(1, len(table) + 1)
    values = table["net_bb"].to_numpy(dtype=float)
    colors = [COLORS["showdown"] if v >= 0 else COLORS["non_showdown"] for v in values]
    bars = axes.bar(x, values, color=colors, label="Big bets won in the sitting")
    if len(table) <= 40:
        axes.bar_label(bars, labels=[str(n) for n in table["hands"]], padding=2,
                       fontsize="x-small")
    axes.plot(x, values.cumsum(), color=COLORS["total"], lw=2, marker="o", ms=3,
              label="Running total")
    axes.axhline(0, color="grey", lw=0.8)
    first, last = table["start"].iloc[0], table["start"].iloc[-1]
    axes.set_title(f"{title}: {len(table):,} sittings, {_hands(table['hands'].sum())}, "
                   f"{values.sum():+,.2f} bb ({first:%Y-%m-%d} to {last:%Y-%m-%d})")
    axes.set_xlabel("Sitting (in time order; bar labels: hands played)")
    axes.set_ylabel("Net won (big bets)")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(axis="y", alpha=0.3)
    axes.legend(loc="best")
    return figure


def _plain_text(value: object) -> str:
    """Text matplotlib shows as written ('$' would start mathematics)."""
    return "" if pd.isna(value) else str(value).replace("$", r"\$")


def tournament_chips(frames: Frames, player: str | None = None) -> Figure:
    """``player``'s chips after each hand of each tournament, one line a tournament."""
    from studbook.tournaments import chips_over_time

    player = player or main_player(frames)
    figure = _figure()
    title = f"Tournament chips of {player}" if player else "Tournament chips"
    chips = chips_over_time(frames, player) if player else pd.DataFrame()
    if chips.empty:
        return _empty(figure, title, "no tournament hands")
    axes = figure.add_subplot()
    for (site, tournament), part in chips.groupby(["site", "tournament"], sort=False, observed=True):
        values = part["chips"].to_numpy(dtype=float) / MONEY_SCALE
        axes.plot(np.arange(1, len(part) + 1), values, lw=1.5, marker=".", ms=3,
                  label=f"{tournament} ({_plain_text(part['buy_in'].iloc[0])}, {_hands(len(part))})")
    count = chips.groupby(["site", "tournament"], observed=True).ngroups
    axes.set_title(f"{title}: {count} tournament{'s' if count != 1 else ''}")
    axes.set_xlabel("Hands played in the tournament")
    axes.set_ylabel("Chips after the hand")
    axes.set_ylim(bottom=0)
    axes.grid(alpha=0.3)
    axes.legend(loc="best", fontsize="small", title="Tournament")
    return figure


KINDS = {
    "results": "cumulative net won over hands, with showdown / non-showdown lines",
    "players": "percentage stats of several players side by side",
    "starting-hands": "big bets won per hand by starting-hand class",
    "violations": "rule violations by rule and site",
    "sessions": "big bets won per sitting, with the running total",
    "tournaments": "chips after each hand, one line per tournament",
}


def plot(kind: str, frames: Frames, players: Sequence[str] | None = None, *,
         min_hands: int = 0) -> Figure:
    """The figure of ``kind`` (a key of :data:`KINDS`); ``min_hands`` greys out the
    players chart's small samples."""
    player = players[0] if players else None
    if kind == "results":
        return cumulative_results(frames, player)
    if kind == "players":
        return compare_players(frames, players, min_hands=min_hands)
    if kind == "starting-hands":
        return starting_hand_results(frames, player)
    if kind == "violations":
        return violations_by_rule(frames)
    if kind == "sessions":
        return session_results(frames, player)
    if kind == "tournaments":
        return tournament_chips(frames, player)
    raise ValueError(f"unknown plot kind {kind!r}")


__all__ = ["COMPARE_STATS", "KINDS", "compare_players", "cumulative_results", "main_player",
           "plot", "save", "session_results", "starting_hand_results", "tournament_chips",
           "violations_by_rule"]
