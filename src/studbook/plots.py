"""Charts of frames, as matplotlib Figures drawn with the Agg canvas.

Each function takes :class:`~studbook.frames.Frames` and returns a
:class:`matplotlib.figure.Figure` (made without pyplot, so no global state
and no display needed); ``save(figure, path)`` writes PNG, SVG or PDF by the
file's extension. In a notebook the returned figure shows as the cell's value.

* :func:`cumulative_results`: net won over hands, a panel per variant and kind, with the showdown and
  non-showdown lines trackers draw.
* :func:`compare_players`: percentage stats of several players side by side.
* :func:`starting_hand_results`: results by starting-hand class.
* :func:`violations_by_rule`: rule violations by rule, stacked by site.
* :func:`session_results`: big bets won per session, with the running total, a panel per kind.
* :func:`tournament_chips`: chips after each hand, one line per tournament.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.lines import Line2D
from matplotlib.ticker import Formatter, MaxNLocator, StrMethodFormatter

from studbook.filters import KINDS as GAME_KINDS
from studbook.filters import VARIANTS, find_hero, game_kind, known_currency
from studbook.frames import MONEY_SCALE, Frames
from studbook.lean import filled
from studbook.money import CASH, TOURNAMENT, money_label
from studbook.rows import VARIANT_CLASSES
from studbook.stats import BY_NAME, by_starting_hand, compute
from studbook.words import counted

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
    """The hero (the player the logs mark as their own, :func:`studbook.filters.find_hero`),
    else the player dealt into the most hands (the first seen on a tie)."""
    hero = find_hero(frames)
    if hero is not None:
        return hero[0]
    players = frames.players["player"]
    if players.empty:
        return None
    counts = players.value_counts(sort=False)
    most = set(counts.index[counts == counts.max()])
    return str(next(name for name in players if name in most))


def _hands(count: int) -> str:
    return counted(int(count), "hand", grouped=True)


_GROUPED = StrMethodFormatter("{x:,.0f}")
"""Tick labels of counts and sums written in full with thousands separators
(1,000,000 rather than matplotlib's 1.0 and a "1e6" offset)."""


def _empty(figure: Figure, title: str, message: str) -> Figure:
    axes = figure.add_subplot()
    axes.set_title(title)
    axes.text(0.5, 0.5, message, ha="center", va="center", transform=axes.transAxes)
    axes.set_axis_off()
    return figure


def _player_hands(frames: Frames, player: str | None) -> pd.DataFrame:
    """The player's rows with their hand's start, kind of game and currency, in time order."""
    rows = frames.players[frames.players["player"] == player]
    hands = frames.hands.assign(kind=game_kind(frames.hands), currency=known_currency(frames.hands))[
        ["site", "hand_id", "started_utc", "currency", "kind", "file", "line"]]
    rows = rows.merge(hands, on=["site", "hand_id"], how="left", sort=False)
    return (rows.sort_values(["started_utc", "file", "line"], kind="stable", na_position="last")
            .reset_index(drop=True))


def _games(rows: pd.DataFrame) -> tuple[list[str], list[str]]:
    """The variants and kinds of game of ``rows``, each in its usual order."""
    variants = [v for v in VARIANTS if (rows["variant"] == v).any()]
    kinds = [k for k in GAME_KINDS if (rows["kind"] == k).any()]
    return variants, kinds


def _grid(figure: Figure, rows: int, columns: int) -> np.ndarray:
    return figure.subplots(rows, columns, squeeze=False)


def cumulative_results(frames: Frames, player: str | None = None, *,
                       unit: str = "auto") -> Figure:
    """Cumulative net won by ``player`` over time, one panel per variant (rows) and kind
    of game (columns): cash and tournament results, and the variants, never share a line.

    Three lines a panel: all hands, hands that reached showdown (for the player), hands
    that did not; the x axis gives the hands' start dates (hands whose start time is
    unknown are drawn in log order on an axis of hand numbers when a panel has no
    time at all, and left out, as the panel's title says, otherwise). ``unit`` is 'bb'
    (big bets of each hand's stakes), 'money' (cash of one currency only) or 'auto'
    (money when every hand is cash of one currency).
    """
    player = player or main_player(frames)
    title = f"Results of {player}" if player else "Results"
    rows = _player_hands(frames, player)
    if rows.empty:
        return _empty(_figure(), title, "no hands for this player")
    currencies = filled(rows["currency"], "").astype(object).unique()
    one_money = len(currencies) == 1 and set(rows["kind"]) == {"cash"}
    if unit == "auto":
        unit = "money" if one_money else "bb"
    if unit == "money" and not one_money:
        raise ValueError("results in money need cash hands of one currency; use unit='bb'")
    name = money_label(CASH, str(currencies[0]) or None) if unit == "money" else "bb"
    variants, kinds = _games(rows)
    figure = _figure(6.0 * len(kinds) + 1, 1.2 + 3.0 * len(variants))
    panels = _grid(figure, len(variants), len(kinds))
    for (i, variant), (j, kind) in itertools.product(enumerate(variants), enumerate(kinds)):
        part = rows[(rows["variant"] == variant) & (rows["kind"] == kind)]
        axes = panels[i, j]
        if part.empty:
            axes.set_axis_off()
            continue
        values = part["net"].astype("float64") / MONEY_SCALE if unit == "money" else part["net_bb"]
        _results_panel(axes, part, values.to_numpy(dtype=float), f"{variant}, {kind}", name)
    figure.suptitle(f"{title}: {_hands(len(rows))}, {rows['net_bb'].sum():+,.2f} bb "
                    "(one panel per variant and kind of game)")
    handles, labels = panels[0, 0].get_legend_handles_labels() if panels[0, 0].axison else ([], [])
    if not handles:
        handles, labels = next(a for a in panels.flat if a.axison).get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=3)
    return figure


def _results_panel(axes: Any, part: pd.DataFrame, values: np.ndarray, game: str, unit: str) -> None:
    """One panel of :func:`cumulative_results`: the three running totals of ``part``, over
    its hands in time order, the ticks labelled with the hand's number and start date."""
    x = np.arange(1, len(part) + 1)
    showdown = part["showdown"].to_numpy(dtype=bool)
    axes.plot(x, values.cumsum(), color=COLORS["total"], lw=2, label="All hands")
    axes.plot(x, np.where(showdown, values, 0.0).cumsum(), color=COLORS["showdown"], lw=1.2,
              label="At showdown")
    axes.plot(x, np.where(~showdown, values, 0.0).cumsum(), color=COLORS["non_showdown"], lw=1.2,
              label="Without showdown")
    axes.axhline(0, color="grey", lw=0.8)
    starts = list(part["started_utc"])
    axes.xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True, min_n_ticks=2))
    axes.xaxis.set_major_formatter(_DatedTicks(starts, numbered=True))
    axes.set_xlim(1, max(len(part), 2))
    timed = "start date where it changes, UTC" if part["started_utc"].notna().any() else "no start times known"
    axes.set_xlabel(f"Hands in time order (ticks: hand number and {timed})")
    axes.set_title(f"{game}: {_hands(len(part))}, {values.sum():+,.2f} {unit}", fontsize="medium")
    axes.set_ylabel(f"Net won ({'big bets' if unit == 'bb' else unit})")
    axes.grid(alpha=0.3)


class _DatedTicks(Formatter):
    """Ticks of hands or sessions in time order (position n is ``starts[n - 1]``): the hand's
    number when ``numbered``, and the start date under the first tick of each day only (the
    neighbouring ticks of one day would repeat it); a later session of a day says its time."""

    def __init__(self, starts: list[Any], numbered: bool) -> None:
        self.starts = starts
        self.numbered = numbered

    def __call__(self, x: float, pos: int | None = None) -> str:
        return self.format_ticks([x])[0]

    def format_ticks(self, values: Any) -> list[str]:
        labels, last_day = [], None
        for value in values:
            number = int(round(value))
            if number != value or not 1 <= number <= len(self.starts):
                labels.append("")
                continue
            start = self.starts[number - 1]
            parts = [f"{number:,}"] if self.numbered else []
            if not pd.isna(start):
                day = f"{start:%Y-%m-%d}"
                parts.append(day if day != last_day else "" if self.numbered else f"{start:%H:%M}")
                last_day = day
            labels.append("\n".join(p for p in parts if p))
        return labels


def compare_players(frames: Frames, players: Sequence[str] | None = None, *,
                    stats: Sequence[str] = COMPARE_STATS, top: int = 6,
                    min_hands: int = 0) -> Figure:
    """Percentage stats (VPIP, steals, showdowns...) of several players side by side,
    one panel per variant (a stud player's figures of razz and stud never pool).

    ``players`` defaults to the ``top`` players with the most hands. Each bar is
    labelled with its percentage and the opportunities it is of; the legend gives each
    player's hands of the variant. A player with fewer than ``min_hands`` hands of the
    variant is drawn grey and hatched: a small sample. Cash and tournament hands of a
    variant count together (percentages of one player's own opportunities), as the
    title says.
    """
    table = compute(frames, by=("player", "variant"), stats=("hands", *stats), split_money=False,
                    denominators=True)
    if players is None:
        totals = table.groupby("player", observed=True, sort=False)["hands"].sum()
        chosen = list(totals.sort_values(ascending=False, kind="stable").head(top).index)
    else:
        chosen = list(players)
    table = table[table["player"].isin(chosen)]
    if table.empty:
        return _empty(_figure(10, 5.5), "Players compared", "no hands for these players")
    variants = [v for v in VARIANTS if (table["variant"] == v).any()]
    heights = [len(stats) * (table["variant"] == v).sum() * 0.19 + 0.9 for v in variants]
    figure = _figure(10, 1.0 + sum(heights))
    panels = figure.subplots(len(variants), 1, squeeze=False, height_ratios=heights)[:, 0]
    small_samples = False
    for axes, variant in zip(panels, variants):
        part = table[table["variant"] == variant]
        part = part.set_index("player").loc[[p for p in chosen if p in set(part["player"])]]
        small_samples |= _players_panel(axes, part, stats, min_hands, variant)
    note = f"; grey: under {min_hands} hands" if small_samples else ""
    figure.suptitle("Players compared, one panel per variant\n(cash and tournament hands "
                    f"together; labels: percent of the opportunities, n/a: none{note})")
    return figure


def _players_panel(axes: Any, part: pd.DataFrame, stats: Sequence[str], min_hands: int,
                   variant: str) -> bool:
    """One variant's panel of :func:`compare_players`; True when it has a small sample."""
    count = len(part)
    height = 0.8 / count
    y = np.arange(len(stats))[::-1]  # the first stat on top
    small_samples = False
    for i, (player, row) in enumerate(part.iterrows()):
        values = np.array([row[name] for name in stats], dtype=float)
        samples = [row[f"{name}_n"] for name in stats]
        small = row["hands"] < min_hands
        small_samples |= bool(small)
        label = f"{player} ({_hands(row['hands'])}{', small sample' if small else ''})"
        style: dict[str, Any] = (dict(color="lightgrey", hatch="//", edgecolor="grey")
                                 if small else {})
        positions = y + ((count - 1) / 2 - i) * height
        axes.barh(positions, np.nan_to_num(values), height, label=_plain_text(label), **style)
        for position, value, sample in zip(positions, values, samples):
            text = "n/a" if np.isnan(value) else f"{value:.0f}% of {int(sample):,}"
            axes.text((0 if np.isnan(value) else value) + 1, position, text, va="center",
                      fontsize=7)
    axes.set_yticks(y, [BY_NAME[name].label.replace(" %", "") for name in stats])
    axes.set_xlim(0, 125)  # room for the labels of a 100% bar
    axes.set_xticks(range(0, 101, 20))
    axes.set_xlabel("Percent of opportunities (%)")
    axes.set_title(variant, fontsize="medium")
    axes.grid(axis="x", alpha=0.3)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", title="Player")
    return small_samples


KIND_COLORS = {"cash": "#1f77b4", "tournament": "#ff7f0e", "play-money": "#7f7f7f"}


def starting_hand_results(frames: Frames, player: str | None = None) -> Figure:
    """Big bets won per hand by starting-hand class, one panel per variant, cash and
    tournament hands as separate bars (legend); each bar labelled with its hands.

    The classes are :data:`studbook.rows.VARIANT_CLASSES` (see ``starting_class``).
    """
    player = player or main_player(frames)
    table = by_starting_hand(frames, player=player) if player else pd.DataFrame()
    title = f"Results by starting hand: {player}"
    if table.empty:
        return _empty(_figure(), title, "no hands with known starting cards")
    table = (table.groupby(["variant", "kind", "start_class"], observed=True, sort=False)
             [["hands", "net_won_bb"]].sum().reset_index())  # currencies together: big bets
    table = table[table["hands"] > 0]
    variants = [v for v in VARIANTS if (table["variant"] == v).any()]
    kinds = [k for k in GAME_KINDS if (table["kind"] == k).any()]
    classes = {v: _classes_of(table[table["variant"] == v]["start_class"], v) for v in variants}
    bars = [len(classes[v]) * len(kinds) for v in variants]
    figure = _figure(9, 1.3 + sum(0.24 * n + 0.8 for n in bars))
    panels = figure.subplots(len(variants), 1, squeeze=False,
                             height_ratios=[0.24 * n + 0.8 for n in bars])[:, 0]
    for axes, variant in zip(panels, variants):
        _starting_panel(axes, table[table["variant"] == variant], classes[variant], kinds, variant)
    figure.suptitle(f"{title} (big bets won per hand; labels: hands)")
    handles = [Patch(color=KIND_COLORS[k], label=k) for k in kinds]
    figure.legend(handles=handles, loc="outside lower center", ncols=len(kinds),
                  title="kind of game")
    return figure


def _classes_of(found: pd.Series, variant: str) -> list[str]:
    """The classes ``found`` holds, in the variant's order (any others, from a store
    imported with an older list, after them)."""
    present = set(found)
    known = [c for c in VARIANT_CLASSES[variant] if c in present]
    return known + sorted(present - set(known))


def _starting_panel(axes: Any, part: pd.DataFrame, classes: list[str], kinds: list[str],
                    variant: str) -> None:
    """One variant's panel of :func:`starting_hand_results`: a bar per class and kind."""
    height = 0.8 / len(kinds)
    y = np.arange(len(classes))[::-1]
    cells = part.set_index(["start_class", "kind"])
    widest = max(float((part["net_won_bb"] / part["hands"]).abs().max()), 0.1)
    for i, kind in enumerate(kinds):
        for position, name in zip(y + ((len(kinds) - 1) / 2 - i) * height, classes):
            if (name, kind) not in cells.index:
                continue
            hands, net = cells.loc[(name, kind), ["hands", "net_won_bb"]]
            value = net / hands
            axes.barh(position, value, height * 0.9, color=KIND_COLORS[kind])
            axes.text(value + (0.02 if value >= 0 else -0.02) * widest, position, _hands(hands),
                      va="center", ha="left" if value >= 0 else "right", fontsize=7)
    axes.set_yticks(y, classes)
    axes.set_xlim(-1.6 * widest, 1.6 * widest)  # room for the labels beside the longest bar
    axes.axvline(0, color="grey", lw=0.8)
    axes.set_title(variant, fontsize="medium")
    axes.set_xlabel("Big bets won per hand")
    axes.grid(axis="x", alpha=0.3)


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
    """Big bets won in each session of ``player`` (bars) and the running total (line),
    in time order, one panel per kind of game (cash sessions and tournament sittings
    never share a total). A session's tables may be of several variants: its big bets
    are each hand's own, added up (the title says so)."""
    from studbook.sessions import sessions

    player = player or main_player(frames)
    title = f"Sessions of {player}" if player else "Sessions"
    table = sessions(frames, player).table if player else pd.DataFrame()
    if table.empty:
        return _empty(_figure(10, 5), title, "no hands with a known start time")
    kinds = [k for k in GAME_KINDS if (table["kind"] == k).any()]
    figure = _figure(10, 1.0 + 3.6 * len(kinds))
    panels = figure.subplots(len(kinds), 1, squeeze=False)[:, 0]
    for axes, kind in zip(panels, kinds):
        _sessions_panel(axes, table[table["kind"] == kind].reset_index(drop=True), kind)
    figure.suptitle(f"{title} (big bets of every variant played in a session, added up)")
    # the bars take their colour from their sign, so the legend names both colours itself
    handles = [Patch(color=COLORS["showdown"], label="Session won (big bets)"),
               Patch(color=COLORS["non_showdown"], label="Session lost (big bets)"),
               Line2D([], [], color=COLORS["total"], lw=2, marker="o", ms=3, label="Running total")]
    figure.legend(handles=handles, loc="outside lower center", ncols=3)
    return figure


def _sessions_panel(axes: Any, part: pd.DataFrame, kind: str) -> None:
    """One kind of game's panel of :func:`session_results`."""
    x = np.arange(1, len(part) + 1)
    values = part["net_bb"].to_numpy(dtype=float)
    colors = [COLORS["showdown"] if v >= 0 else COLORS["non_showdown"] for v in values]
    axes.bar(x, values, color=colors)
    axes.plot(x, values.cumsum(), color=COLORS["total"], lw=2, marker="o", ms=3)
    axes.axhline(0, color="grey", lw=0.8)
    starts = list(part["start"])
    axes.xaxis.set_major_locator(MaxNLocator(nbins=8, integer=True))
    axes.xaxis.set_major_formatter(_DatedTicks(starts, numbered=False))
    axes.set_xlim(0.4, len(part) + 0.6)
    axes.set_title(f"{kind}: {counted(len(part), 'session')}, {_hands(part['hands'].sum())}, "
                   f"{values.sum():+,.2f} bb ({starts[0]:%Y-%m-%d} to {starts[-1]:%Y-%m-%d})",
                   fontsize="medium")
    axes.margins(y=0.08)
    axes.set_xlabel("Session (in time order; ticks: start date, or time on the same day, UTC)")
    axes.set_ylabel("Net won (big bets)")
    axes.grid(axis="y", alpha=0.3)


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
                  label=f"{tournament} ({', '.join(dict.fromkeys(part['variant'].astype(str)))}, "
                        f"{_plain_text(part['buy_in'].iloc[0])}, {_hands(len(part))})")
    count = chips.groupby(["site", "tournament"], observed=True).ngroups
    axes.set_title(f"{title}: {counted(count, 'tournament')}")
    axes.set_xlabel("Hands played in the tournament")
    axes.set_ylabel(f"{money_label(TOURNAMENT, None).capitalize()} after the hand")
    axes.set_ylim(bottom=0)
    axes.grid(alpha=0.3)
    axes.legend(loc="best", fontsize="small", title="Tournament")
    return figure


KINDS = {
    "results": "cumulative net won over time, a panel per variant and kind of game, "
               "with showdown / non-showdown lines",
    "players": "percentage stats of several players side by side, a panel per variant",
    "starting-hands": "big bets won per hand by starting-hand class, a panel per variant, "
                      "cash and tournament apart",
    "violations": "rule violations by rule and site",
    "sessions": "big bets won per session, with the running total, a panel per kind of game",
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
