"""Plots: each kind renders to PNG with titles, labelled axes and legends; the plot CLI.

The PNGs are written under pytest's tmp_path; set STUDBOOK_PLOT_DIR to keep
them somewhere to look at.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pandas as pd
import pytest
from matplotlib.figure import Figure

from studbook.cli import main
from studbook.engine.result import Violation
from studbook.frames import Frames, frames_from_checks, load
from studbook.plots import (
    compare_players, cumulative_results, plot, save, session_results, starting_hand_results,
    violations_by_rule,
)
from studbook.store import import_results
from test_frames import showdown_hand, steal_hand

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def frames() -> Frames:
    checks = []
    for i in range(12):
        b = showdown_hand(f"s{i}") if i % 3 else steal_hand(f"t{i}")
        violations = (Violation("bet.size", 20, "expected 0.04"),) if i % 4 == 0 else ()
        checks.append(b.check(violations=violations))
    return frames_from_checks(checks)


@pytest.fixture()
def out_dir(tmp_path: Path) -> Path:
    kept = os.environ.get("STUDBOOK_PLOT_DIR")
    if kept:
        Path(kept).mkdir(parents=True, exist_ok=True)
        return Path(kept)
    return tmp_path


def _texts(figure: Figure) -> list[str]:
    axes = figure.axes[0]
    return [axes.get_title(), axes.get_xlabel(), axes.get_ylabel()]


def _render(figure: Figure, path: Path, min_size: int = 10_000) -> None:
    save(figure, path)
    assert path.read_bytes()[:8] == PNG and path.stat().st_size > min_size


def test_cumulative_results(frames: Frames, out_dir: Path) -> None:
    figure = cumulative_results(frames, "A")
    title, xlabel, ylabel = _texts(figure)
    # A: 4 steal hands at -0.01 and 8 showdown hands at +0.39 (no rake): +3.08 USD, one
    # panel (stud, cash)
    assert len(figure.axes) == 1 and figure.get_suptitle().startswith("Results of A: 12 hands")
    assert title == "stud, cash: 12 hands, +3.08 USD"
    assert xlabel.startswith("Hands in time order") and ylabel == "Net won (USD)"
    axes = figure.axes[0]
    assert [line.get_label() for line in axes.get_lines()[:3]] == [
        "All hands", "At showdown", "Without showdown"]
    total, showdown, other = (line.get_ydata() for line in axes.get_lines()[:3])
    assert total[-1] == pytest.approx(showdown[-1] + other[-1])
    assert showdown[-1] == pytest.approx(8 * 0.39) and other[-1] == pytest.approx(-0.04)
    _render(figure, out_dir / "results.png")


def test_cumulative_results_in_big_bets(frames: Frames) -> None:
    figure = cumulative_results(frames, "A", unit="bb")
    assert figure.axes[0].get_ylabel() == "Net won (big bets)"
    assert figure.axes[0].get_lines()[0].get_ydata()[-1] == pytest.approx(3.08 / 0.08)


def test_compare_players(frames: Frames, out_dir: Path) -> None:
    figure = compare_players(frames)
    title, xlabel, _ = _texts(figure)
    assert figure.get_suptitle().startswith("Players compared, one panel per variant")
    assert title == "stud" and xlabel == "Percent of opportunities (%)"
    legend = [text.get_text() for text in figure.axes[0].get_legend().get_texts()]
    assert legend[:2] == ["A (12 hands)", "B (12 hands)"]
    _render(figure, out_dir / "players.png")


def test_compare_players_shows_sample_sizes_and_greys_small_samples(frames: Frames, out_dir: Path) -> None:
    # 12 hands: A, B and C are in all of them, D only in the 4 steal hands (i = 0, 3, 6, 9).
    figure = compare_players(frames, stats=("vpip", "steal_attempt"), min_hands=5)
    axes = figure.axes[0]
    legend = [text.get_text() for text in axes.get_legend().get_texts()]
    assert legend == ["A (12 hands)", "B (12 hands)", "C (12 hands)", "D (4 hands, small sample)"]
    grey = [bar for bar in axes.patches if bar.get_facecolor()[:3] == (0.827451, 0.827451, 0.827451)
            or bar.get_hatch() == "//"]
    assert len(grey) == 2  # D's two bars
    # A acted on 3rd street in all 12 hands: VPIP's sample size on A's bar is 12;
    # D had a steal chance in each of its 4 hands
    labels = [text.get_text() for text in axes.texts]
    assert labels[0] == "67% of 12" and labels[-1] == "100% of 4"
    assert "grey: under 5 hands" in figure.get_suptitle()
    _render(figure, out_dir / "players-small-samples.png")


def test_starting_hand_results(frames: Frames, out_dir: Path) -> None:
    figure = starting_hand_results(frames, "A")
    assert figure.get_suptitle() == "Results by starting hand: A (big bets won per hand; labels: hands)"
    assert figure.axes[0].get_xlabel() == "Big bets won per hand"
    labels = [tick.get_text() for tick in figure.axes[0].get_yticklabels()]
    assert set(labels) == {"split pair", "high cards"}
    _render(figure, out_dir / "starting-hands.png")


def test_violations_by_rule(frames: Frames, out_dir: Path) -> None:
    figure = violations_by_rule(frames)
    title, xlabel, _ = _texts(figure)
    assert title == "Rule violations by rule: 3 in 3 of 12 hands"  # hands 0, 4 and 8
    assert xlabel == "Violations (count)"
    _render(figure, out_dir / "violations.png")


def test_empty_frames_give_a_figure_that_says_so(out_dir: Path) -> None:
    empty = frames_from_checks([])
    for kind in ("results", "players", "starting-hands", "violations", "sessions", "tournaments"):
        figure = plot(kind, empty)
        assert figure.axes[0].texts  # the message
        _render(figure, out_dir / f"empty-{kind}.png", min_size=1_000)


def test_plot_cli(frames: Frames, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.db"
    import_results(db, [showdown_hand(str(i)).check() for i in range(4)])
    for kind in ("results", "players", "starting-hands", "violations", "sessions"):
        out = tmp_path / f"{kind}.png"
        assert main(["plot", kind, "--db", str(db), "--player", "A", "-o", str(out)]) == 0
        assert out.read_bytes()[:8] == PNG
    assert main(["plot", "results", "--db", str(db), "-o", str(tmp_path / "x.gif")]) == 2
    assert main(["plot", "results", "--db", str(db), "--player", "Nobody",
                 "-o", str(tmp_path / "x.png")]) == 2
    assert "no hands for player Nobody" in capsys.readouterr().err


def test_session_results(out_dir: Path) -> None:
    import dataclasses
    from datetime import datetime, timedelta, timezone

    checks = []
    for i in range(6):  # three sittings of two hands, a day apart; A: +0.39 then -0.01
        b = showdown_hand(f"s{i}") if i % 2 == 0 else steal_hand(f"t{i}")
        when = datetime(2024, 1, 1 + i // 2, 12, i % 2, tzinfo=timezone.utc)
        b.header = dataclasses.replace(b.header, started_utc=when)
        checks.append(b.check())
    figure = session_results(frames_from_checks(checks), "A")
    title, xlabel, ylabel = _texts(figure)
    assert title == "cash: 3 sessions, 6 hands, +14.25 bb (2024-01-01 to 2024-01-03)"
    assert xlabel.startswith("Session") and ylabel == "Net won (big bets)"
    axes = figure.axes[0]
    assert [round(bar.get_height(), 3) for bar in axes.patches] == [4.75, 4.75, 4.75]  # 0.38 / 0.08
    figure.canvas.draw()
    ticks = [t.get_text() for t in axes.get_xticklabels() if t.get_text()]
    assert ticks == ["2024-01-01", "2024-01-02", "2024-01-03"]  # each session's start date
    legend = [text.get_text() for text in figure.legends[0].get_texts()]
    assert legend == ["Session won (big bets)", "Session lost (big bets)", "Running total"]
    colours = [handle.get_facecolor() for handle in figure.legends[0].legend_handles[:2]]
    assert colours[0] != colours[1]  # both bar colours named, whatever the first session did
    _render(figure, out_dir / "sessions.png")


def test_sessions_of_one_day_tick_the_date_once_then_their_times() -> None:
    """Two sessions on one day and one the next: the second tick says its start time,
    not the date again (the neighbouring ticks repeated it)."""
    import dataclasses
    from datetime import datetime, timezone

    checks = []
    for i, (day, hour) in enumerate(((1, 9), (1, 18), (2, 9))):
        b = showdown_hand(f"d{i}")
        b.header = dataclasses.replace(b.header, started_utc=datetime(2024, 1, day, hour, tzinfo=timezone.utc))
        checks.append(b.check())
    figure = session_results(frames_from_checks(checks), "A")
    figure.canvas.draw()
    ticks = [t.get_text() for t in figure.axes[0].get_xticklabels() if t.get_text()]
    assert ticks == ["2024-01-01", "18:00", "2024-01-02"]


def test_large_counts_are_written_in_full_with_separators(out_dir: Path) -> None:
    """Over a thousand hands: the title's count and the axes' ticks are grouped numbers
    (2,213 hands; 1,000, 2,000 on the axis), not a bare figure with a "1e3" offset."""
    import studbook

    frames = studbook.load(Path(__file__).resolve().parent.parent / "histories")
    hands = int((frames.players["player"] == "Hero").sum())
    assert hands > 1000
    figure = cumulative_results(frames, "Hero")
    _render(figure, out_dir / "results_grouped.png")
    assert f"Hero: {hands:,} hands, " in figure.get_suptitle()
    figure.canvas.draw()
    ticks = [t.get_text() for a in figure.axes for t in a.get_xticklabels() if t.get_text()]
    assert all(t.split("\n")[0].replace(",", "").isdigit() for t in ticks)  # each tick: the hand's number
    for axes in figure.axes:  # the start date under the first tick of each day, never repeated
        labels = [t.get_text() for t in axes.get_xticklabels() if t.get_text()]
        dates = [label.split("\n")[1] for label in labels if "\n" in label]
        assert labels and "\n2024-03-" in labels[0] and dates == sorted(set(dates))
    assert all(a.xaxis.get_offset_text().get_text() == "" for a in figure.axes)


def test_charts_keep_kinds_and_variants_apart(out_dir: Path) -> None:
    """On the sample histories (cash and tournament hands of stud, stud8 and razz): the
    results have a panel per variant and kind of game, with dates on the hand axis; the
    players chart a panel per variant; the starting hands a bar per class and kind (razz
    4-low: cash 4 hands losing, the tournament's 1 hand winning, never on one bar); the
    sessions a panel per kind of game."""
    import studbook

    frames = studbook.load(Path(__file__).resolve().parent.parent / "histories")
    results = cumulative_results(frames, "Hero")
    titles = {a.get_title().split(":")[0] for a in results.axes}
    assert titles == {f"{v}, {k}" for v in ("stud", "stud8", "razz") for k in ("cash", "tournament")}
    results.canvas.draw()
    assert all("\n2024-03-" in next(t.get_text() for t in a.get_xticklabels() if t.get_text())
               for a in results.axes)  # each panel's first tick has its date
    players = compare_players(frames, ["Hero", "Böse Sieben"])
    assert [a.get_title() for a in players.axes] == ["stud", "stud8", "razz"]
    starting = starting_hand_results(frames, "Hero")
    assert [t.get_text() for t in starting.legends[0].get_texts()] == ["cash", "tournament"]
    razz = next(a for a in starting.axes if a.get_title() == "razz")
    four_low = razz.get_yticks()[[t.get_text() for t in razz.get_yticklabels()].index("4-low")]
    bars = sorted((bar.get_y(), bar.get_width()) for bar in razz.patches
                  if abs(bar.get_y() + bar.get_height() / 2 - four_low) < 0.5)
    assert len(bars) == 2 and bars[0][1] > 0 > bars[1][1]  # the tournament's below, the cash on top
    assert {t.get_text() for t in razz.texts} >= {"4 hands", "1 hand"}
    sessions = session_results(frames, "Hero")
    assert [a.get_title().split(":")[0] for a in sessions.axes] == ["cash", "tournament"]
    assert len(sessions.axes[0].patches) == 7 and len(sessions.axes[1].patches) == 3
    for name, figure in (("results", results), ("players", players), ("starting", starting),
                         ("sessions", sessions)):
        _render(figure, out_dir / f"histories-{name}.png")


def test_money_axis_says_what_the_money_is_in(frames: Frames, corpus: Path) -> None:
    # KingsClub writes no currency: its cash tables are USD (money.SITE_CURRENCY)
    kingsclub = load([corpus / "KingsClub" / "7-Stud-USD-44-88-202010.txt"])
    figure = cumulative_results(kingsclub, "Hero", unit="money")
    assert figure.axes[0].get_ylabel() == "Net won (USD)"
    assert figure.axes[0].get_title().endswith("-33.16 USD")
    # a cash game of a site whose currency is unknown: said so, never "chips"
    unknown = dataclasses.replace(frames, hands=frames.hands.assign(currency=pd.NA))
    figure = cumulative_results(unknown, "A", unit="money")
    assert figure.axes[0].get_ylabel() == "Net won (unknown currency)"
