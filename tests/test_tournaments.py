"""``studbook tournaments`` and ``plot tournaments``, worked out by hand.

PokerStars/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt (the corpus): one hand of
tournament 3540610518, "$0.98+$0.12 USD", level V, 2023/02/05 13:25:51 ET (18:25:51 UTC):
Hero sits with 40 chips, posts the ante 40 all-in and collects 160 + 160: 320 chips after
the hand, +280.

histories/HH20240316 T3778019413 (the project's sample): Hero is seated in the first 53
of its 117 hands (seat lines) and "Hero finished the tournament in 5th place" at line 4071,
after losing the last chips: from 1500 at level I to 0 at level V.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest

from studbook.cli import main
from studbook.frames import load
from studbook.plots import tournament_chips
from studbook.tournaments import chips_over_time, tournaments
from test_filters import CASH, TOURNAMENT

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = next((ROOT / "histories").glob("HH20240316 T3778019413*"))


def test_one_hand_tournament(corpus: Path) -> None:
    frames = load([corpus / TOURNAMENT, corpus / CASH])
    [row] = tournaments(frames, "Hero").to_dict("records")
    assert (row["tournament"], row["buy_in"], row["hands"], row["first_level"]) == (
        "3540610518", "$0.98+$0.12 USD", 1, "V")
    assert row["first_utc"] == pd.Timestamp("2023-02-05T18:25:51Z")
    assert (row["start_chips"], row["end_chips"], row["net_chips"], row["busted"]) == (
        Decimal("40.00"), Decimal("320.00"), Decimal("280.00"), False)


def test_a_tournament_played_to_the_end() -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    assert len(re.findall(r"^Seat \d: Hero \(", text, re.M)) == 53
    frames = load(SAMPLE)
    [row] = tournaments(frames, "Hero").to_dict("records")
    assert (row["hands"], row["first_level"], row["last_level"]) == (53, "I", "V")
    assert (row["start_chips"], row["end_chips"], row["busted"]) == (Decimal("1500.00"), Decimal("0.00"), True)
    chips = chips_over_time(frames, "Hero")
    assert len(chips) == 53 and chips["chips"].iloc[-1] == 0 and (chips["chips"] > 0).iloc[:-1].all()
    figure = tournament_chips(frames, "Hero")
    axes = figure.axes[0]
    assert axes.get_title() == "Tournament chips of Hero: 1 tournament"
    assert [t.get_text() for t in axes.get_legend().get_texts()] == [
        r"3778019413 (\$0.98+\$0.12 USD, 53 hands)"]
    assert len(axes.lines[0].get_xdata()) == 53


def test_tournaments_cli(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(corpus / TOURNAMENT), str(corpus / CASH)]
    assert main(["tournaments", *paths, "--format", "csv"]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("hero: Hero")
    assert captured.out.splitlines()[1].startswith("pokerstars,3540610518,$0.98+$0.12 USD,stud8,1,")
    assert main(["tournaments", *paths, "--cash"]) == 0
    assert "no tournament hands match" in capsys.readouterr().out
    out = tmp_path / "t.png"
    assert main(["plot", "tournaments", *paths, "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
