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

import csv
import io
import json
import re
import sqlite3
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
    assert axes.get_ylabel() == "Tournament chips after the hand"
    assert [t.get_text() for t in axes.get_legend().get_texts()] == [
        r"3778019413 (stud8, \$0.98+\$0.12 USD, 53 hands)"]
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


# -- the finishing place and prize, where the log states them ---------------------------------

MTT = "PokerStars/Triple-Stud-USD-2.00-0.20-MTT-201301.txt"  # "Player5 finished the tournament in 28th place"


def test_finish_lines_are_typed_events(corpus: Path) -> None:
    from studbook.events import Chatter, TournamentFinish
    from studbook.parse import read_file

    [hand] = read_file(corpus / MTT).hands
    [finish] = [e for e in hand.events if isinstance(e, TournamentFinish)]
    assert (finish.player, finish.place, finish.prize, finish.line) == ("Player5", 28, None, 51)
    assert isinstance(finish, Chatter) and finish.text == "Player5 finished the tournament in 28th place"
    [row] = tournaments(load(corpus / MTT), "Player5").to_dict("records")
    assert (row["tournament"], row["busted"], row["place"], row["prize"]) == ("664712833", True, 28, None)


def test_the_sample_tournament_ends_with_every_place(capsys: pytest.CaptureFixture[str]) -> None:
    """histories T3778019413: eight finish lines, 8th to 2nd, and "dealer's pal wins the
    tournament and receives $7.84" (line 6103)."""
    frames = load(SAMPLE)
    stated = frames.players[frames.players["finish_place"].notna()]
    assert sorted(zip(stated["finish_place"], stated["player"])) == [
        (1, "dealer's pal"), (2, "Íñigo"), (3, "JoJo [NL]"), (4, "LowBall Larry"), (5, "Hero"),
        (6, "Lucky Lou"), (7, "Brick City"), (8, "count de monet")]
    assert stated.loc[stated["finish_place"] == 1, "finish_prize"].tolist() == [784]
    assert stated["finish_prize"].notna().sum() == 1
    [hero] = tournaments(frames, "Hero").to_dict("records")
    assert (hero["place"], hero["prize"]) == (5, None)
    [winner] = tournaments(frames, "dealer's pal").to_dict("records")
    assert (winner["place"], winner["prize"], winner["busted"]) == (1, Decimal("7.84"), False)
    assert main(["tournaments", str(SAMPLE), "--player", "dealer's pal", "--format", "json"]) == 0
    [record] = json.loads(capsys.readouterr().out)
    assert (record["place"], record["prize"]) == (1, "7.84")
    assert main(["tournaments", str(SAMPLE), "--hero", "Hero"]) == 0  # 5th, no prize
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "hero: Hero (--hero)"
    assert lines[1].split()[-2:] == ["place", "prize"] and lines[2].split()[-2:] == ["yes", "5th"]
    # money by the one rule: chips whole and named, the prize in the buy-in's currency
    assert "1500 tournament chips 0 tournament chips -1500 tournament chips" in lines[2]
    assert main(["tournaments", str(SAMPLE), "--player", "dealer's pal"]) == 0
    assert capsys.readouterr().out.splitlines()[1].endswith("10500 tournament chips          1st 7.84 USD")


def test_edited_finish_lines_with_prizes_reach_the_store(corpus: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    text = (corpus / MTT).read_text(encoding="utf-8")
    line = "Player5 finished the tournament in 28th place\n"
    assert line in text
    edited = tmp_path / "mtt.txt"
    edited.write_text(text.replace(line, "Player5 finished the tournament in 3rd place and received $12.50.\n"
                                         "Hero wins the tournament and receives $40.00 - congratulations!\n"),
                      encoding="utf-8")
    db = tmp_path / "t.db"
    assert main(["import", str(edited), "--db", str(db)]) == 0
    capsys.readouterr()
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT player, finish_place, finish_prize FROM players "
                            "WHERE finish_place IS NOT NULL ORDER BY finish_place").fetchall()
    assert rows == [("Hero", 1, 4000), ("Player5", 3, 1250)]
    assert main(["tournaments", "--db", str(db), "--player", "Player5", "--format", "csv"]) == 0
    [row] = csv.DictReader(io.StringIO(capsys.readouterr().out))
    assert (row["place"], row["prize"], row["busted"]) == ("3", "12.50", "True")
    assert main(["check", str(edited)]) == 0  # a finish line changes nothing of the hand


def test_a_schema_3_store_is_read_and_upgraded(corpus: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A store made before the finishing place (schema 3, no players.finish_* columns):
    read as it is (places NA), and given the columns by the next import."""
    from studbook.store import SCHEMA_VERSION, Store

    db = tmp_path / "old.db"
    assert main(["import", str(corpus / TOURNAMENT), "--db", str(db)]) == 0
    with sqlite3.connect(db) as conn:  # what a schema-3 store looks like
        conn.execute("ALTER TABLE players DROP COLUMN finish_place")
        conn.execute("ALTER TABLE players DROP COLUMN finish_prize")
        conn.execute("ALTER TABLE hands DROP COLUMN hero")  # schema 6's
        conn.execute("ALTER TABLE hands DROP COLUMN hero_mark")
        for column in ("street", "party", "seat", "expected", "actual"):  # schema 5's
            conn.execute(f"ALTER TABLE violations DROP COLUMN {column}")
        conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    capsys.readouterr()
    assert main(["tournaments", "--db", str(db), "--format", "csv"]) == 0
    [row] = csv.DictReader(io.StringIO(capsys.readouterr().out))
    assert (row["tournament"], row["place"], row["prize"]) == ("3540610518", "", "")
    with Store(db, create=False) as store:
        assert store.read_table("players")["finish_place"].isna().all()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("3",)
    assert main(["import", str(corpus / MTT), "--db", str(db)]) == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (SCHEMA_VERSION,)
        assert conn.execute("SELECT player, finish_place FROM players WHERE finish_place IS NOT NULL"
                            ).fetchall() == [("Player5", 28)]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    assert main(["tournaments", "--db", str(db)]) == 2
    assert f"store schema version 2, expected {SCHEMA_VERSION}" in capsys.readouterr().err


IPOKER_STT = "iPoker/7-StudHi-USD-STT-5-201103.txt"


def test_an_ipoker_session_states_its_heros_place_and_win(corpus: Path, tmp_path: Path) -> None:
    """iPoker writes the hero's finish in the tournament session's header (<place>, <win>):
    each hand of the session the hero sits in carries it, at the <place> line, and the
    tournaments table and the store show it; a cash session states none."""
    from studbook.events import TournamentFinish
    from studbook.parse import read_file

    path = corpus / IPOKER_STT
    text = path.read_text(encoding="utf-8", errors="replace")
    place = re.search(r"<place>(\d+)</place>", text)
    win = re.search(r"<win>\$([\d.]+)</win>", text)
    hero = re.search(r"<nickname>([^<]+)</nickname>", text)
    assert place and win and hero
    place_line = text.count("\n", 0, place.start()) + 1
    hands = read_file(path).hands
    finishes = [[e for e in h.events if isinstance(e, TournamentFinish)] for h in hands]
    seated = [any(s.player == hero.group(1) for s in h.seats) for h in hands]
    assert [len(f) for f in finishes] == [int(s) for s in seated] and any(seated)
    for (finish,) in (f for f in finishes if f):
        assert (finish.player, finish.place, finish.prize, finish.line, finish.file) == (
            hero.group(1), int(place.group(1)), Decimal(win.group(1)), place_line, str(path))
    [row] = tournaments(load(path), hero.group(1)).to_dict("records")
    assert (row["place"], row["prize"]) == (int(place.group(1)), Decimal(win.group(1)))
    db = tmp_path / "ipoker.db"
    assert main(["import", str(path), "--db", str(db), "-q"]) == 0
    stored = sqlite3.connect(db).execute(
        "SELECT DISTINCT finish_place, finish_prize FROM players WHERE player = ? AND finish_place IS NOT NULL",
        (hero.group(1),)).fetchall()
    assert stored == [(int(place.group(1)), int(Decimal(win.group(1)) * 100))]
    cash = next(p for p in sorted((corpus / "iPoker").glob("*")) if "<place>" not in p.read_text(errors="replace"))
    assert not [e for h in read_file(cash).hands for e in h.events if isinstance(e, TournamentFinish)]
