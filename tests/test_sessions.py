"""Sittings and days (studbook.sessions, ``studbook sessions``), worked out by hand.

The real cash file (PokerStars/7-Stud-USD-0.04-0.08-200911.txt, see test_filters.py): 11
hands at 'Atalante II' started 10:08:43, 10:09:44, 10:10:56, 10:12:11, 10:13:01, 10:14:15,
10:14:58, 10:16:07, 10:16:59, 10:18:16, 10:19:39 ET (EST, UTC-5); Hero's nets -0.03,
-0.01, +0.59, -0.03, -0.03, -0.01, -0.01, -0.19, -0.01, +0.59, -0.03 (stack deltas).
One sitting: start 15:08:43 UTC, duration 10 min 56 s = 656 s, net +0.83 USD = 10.375
big bets of 0.08, bb/100 = 10.375 / 11 * 100 = 94.318..., big bets per hour =
10.375 / (656 / 3600) = 56.935...
With a 1-minute gap the pauses (61, 72, 75, 50, 74, 43, 69, 52, 77, 83 s) longer than 60 s
cut it into 8 sittings: hands [1] [2] [3] [4 5] [6 7] [8 9] [10] [11]; [4 5] lasts 50 s
and nets -0.06.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest

from studbook.cli import main
from studbook.frames import Frames, frames_from_checks, load
from studbook.sessions import sessions, summary
from test_filters import CASH, TOURNAMENT
from test_frames import showdown_hand, steal_hand


@pytest.fixture(scope="module")
def cash(corpus: Path) -> Frames:
    return load(corpus / CASH)


def test_one_sitting_worked_by_hand(cash: Frames) -> None:
    found = sessions(cash, "Hero")
    assert found.untimed == 0 and len(found.table) == 1
    row = found.table.iloc[0]
    assert row["start"] == pd.Timestamp("2009-11-26T15:08:43Z")
    assert row["duration"] == pd.Timedelta(seconds=656)
    assert (row["hands"], row["net"], row["currency"], row["kind"]) == (11, Decimal("0.83"), "USD", "cash")
    assert row["tables"] == "Atalante II"
    assert row["net_bb"] == pytest.approx(10.375)
    assert row["bb_per_100"] == pytest.approx(10.375 / 11 * 100)
    assert row["bb_per_hour"] == pytest.approx(10.375 / (656 / 3600))


def test_the_gap_cuts_sittings(cash: Frames) -> None:
    table = sessions(cash, "Hero", gap=pd.Timedelta(minutes=1)).table
    assert table["hands"].tolist() == [1, 1, 1, 2, 2, 2, 1, 1]
    fourth = table.iloc[3]
    assert fourth["start"] == pd.Timestamp("2009-11-26T15:12:11Z")
    assert fourth["duration"] == pd.Timedelta(seconds=50) and fourth["net"] == Decimal("-0.06")
    assert sum(table["net"]) == Decimal("0.83")
    assert pd.isna(table.iloc[0]["bb_per_hour"])  # one hand: no duration


def _at(builder, when: str, table: str):  # type: ignore[no-untyped-def]
    builder.header = dataclasses.replace(builder.header, table=table,
                                         started_utc=pd.Timestamp(when).to_pydatetime())
    return builder.check()


def test_tables_days_and_untimed_hands() -> None:
    # A plays two tables at once around midnight UTC, and one hand has no known time.
    checks = [
        _at(showdown_hand("1"), "2024-01-01T23:40Z", "Left"),    # A +0.39
        _at(steal_hand("2"), "2024-01-01T23:45Z", "Right"),      # A -0.01
        _at(showdown_hand("3"), "2024-01-02T00:05Z", "Left"),    # A +0.39
        _at(steal_hand("4"), "2024-01-02T01:00Z", "Right"),      # 75 min after hand 2: new sitting
    ]
    untimed = showdown_hand("5")
    untimed.header = dataclasses.replace(untimed.header, started_utc=None, started="2024/01/02 03:00")
    frames = frames_from_checks([*checks, untimed.check()])
    sittings = sessions(frames, "A", by="table")
    assert sittings.untimed == 1 and sittings.zoneless == 1  # a time written, no zone
    assert sittings.table[["tables", "hands"]].values.tolist() == [["Left", 2], ["Right", 1], ["Right", 1]]
    assert sittings.table.iloc[0]["duration"] == pd.Timedelta(minutes=25)
    # the two tables played at once are one session: its hands and hours counted once
    merged = sessions(frames, "A").table
    assert merged[["tables", "hands", "net"]].values.tolist() == [
        ["Left, Right", 3, Decimal("0.77")], ["Right", 1, Decimal("-0.01")]]
    assert merged.iloc[0]["duration"] == pd.Timedelta(minutes=25)  # 23:40 to 00:05, not 25 + 0
    assert summary(merged)[["sessions", "hands", "net"]].values.tolist() == [[2, 4, Decimal("0.76")]]
    days = sessions(frames, "A", by="day").table
    assert days[["tables", "hands", "net"]].values.tolist() == [
        ["Left, Right", 2, Decimal("0.38")], ["Left, Right", 2, Decimal("0.38")]]
    totals = summary(sittings.table)
    assert totals[["sessions", "hands", "net"]].values.tolist() == [[3, 4, Decimal("0.76")]]


def test_sessions_cli(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(corpus / CASH), str(corpus / TOURNAMENT)]
    assert main(["sessions", *paths]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("hero: Hero")
    assert out[2].split() == ["2009-11-26", "15:08", "0h10", "cash", "Atalante", "II", "11",
                              "0.83", "USD", "+10.38", "+94.3", "+56.9"]
    # the tournament hand: Hero's ante of 40 all-in wins 320, +280 chips = 0.7 big bets of 400
    assert out[3].split()[-7:] == ["1", "280", "tournament", "chips", "+0.70", "+70.0", "-"]
    assert "total" in out
    assert main(["sessions", *paths, "--cash", "--gap", "1", "--by-table", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["hands"] for r in rows] == ["1", "1", "1", "2", "2", "2", "1", "1"]
    assert rows[3]["duration"] == "50.0" and rows[3]["net"] == "-0.06"
    assert main(["sessions", *paths, "--gap", "0"]) == 2
    assert main(["sessions", *paths, "--player", "Hero", "--player", "trs2758"]) == 2


def test_overlapping_histories_tables_are_one_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Two of the sample tables moved to the same evening: Hero's sittings there overlap.
    histories = Path(__file__).resolve().parents[1] / "histories"
    frames = load([p for p in sorted(histories.iterdir()) if "Aaltje" in p.name or "Fidelitas" in p.name])
    shift = pd.Timestamp("2024-03-03T00:05Z") - pd.Timestamp("2024-03-15T05:17Z")
    fidelitas = frames.hands["table"] == "Fidelitas IX"
    frames.hands.loc[fidelitas, "started_utc"] += shift  # now 00:05 to 03:38 beside Aaltje's 00:05 to 10:15
    by_table = sessions(frames, "Hero", by="table").table
    assert by_table["hands"].tolist() == [450, 160]
    merged = sessions(frames, "Hero").table
    assert merged[["tables", "hands"]].values.tolist() == [["Aaltje IV, Fidelitas IX", 610]]
    assert merged.iloc[0]["duration"] == by_table.iloc[0]["duration"]  # Aaltje's 10h10 holds Fidelitas's
    assert summary(merged)["hours"].iloc[0] == pytest.approx(summary(by_table)["hours"].iloc[0]
                                                            - by_table.iloc[1]["duration"].total_seconds() / 3600)


def test_hands_without_a_zone_are_not_said_to_have_no_time(corpus: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus / "iPoker" / "7-StudL-USD-0.05-0.10-201009.txt"  # times written without a zone
    if not path.exists():
        pytest.skip(f"corpus file missing: {path}")
    assert main(["sessions", str(path)]) == 0
    out = capsys.readouterr().out
    assert "2 hands of Hero have a start time written without a time zone" in out
    assert "no known start time" not in out and "have no start time" not in out


def test_money_says_what_it_is_in(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # KingsClub writes no currency; its cash tables are USD (money.SITE_CURRENCY), never "chips".
    assert main(["sessions", str(corpus / "KingsClub" / "7-Stud-USD-44-88-202010.txt")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2].split()[-6:] == ["1", "-33.16", "USD", "-0.38", "-37.7", "-"]
    assert out[-1].split()[4:6] == ["-33.16", "USD"]  # the total too
    # the shipped tournaments: whole chips, said to be tournament chips, in the rows and the total
    histories = Path(__file__).resolve().parents[1] / "histories"
    assert main(["sessions", str(histories), "--tournament"]) == 0
    out = capsys.readouterr().out
    assert out.count("-1500 tournament chips") == 3 and "-4500 tournament chips" in out
    assert " chips" not in out.replace("tournament chips", "")
