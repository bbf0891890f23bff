"""The hero is the player the log marks as its own, on every site that marks one.

Bovada writes ``Seat+2 [ME]`` on the hero's lines and prints every player's down cards
(so the down cards alone name nobody); iPoker names its ``<nickname>`` in the session's
header; the other sites' deal lines (``Dealt to``) show the hero's down cards alone.
The marked player is the default hero of every reading command, the output says where
it came from, ``--hero`` overrides it, and ``show``/``replay`` show the hero's down cards.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studbook.cli import main
from studbook.frames import load
from studbook.parse import read_file

BOVADA = "Bovada/7-StudHL-USD-0.25-0.50-201209.txt"  # one hand: "Seat+2 [ME]" dealt [4d Qd Ac]
IPOKER = "iPoker/7-StudL-USD-0.05-0.10-201009.txt"  # <nickname>Hero</nickname>, 2 hands
WINNING = "WinningPoker/7-Stud-8max-USD-1.00-2.00-201608.HH00000000 G0.txt"  # Dealt to ChazDazzle


def _path(corpus: Path, name: str) -> str:
    path = corpus / name
    if not path.exists():
        pytest.skip(f"corpus file missing: {path}")
    return str(path)


def test_bovada_me_is_the_hero(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _path(corpus, BOVADA)
    [hand] = read_file(Path(path)).hands
    assert hand.hero() == ("Seat+2", "[ME]")
    assert main(["hands", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("hero: Seat+2 (marked by the log as its own player in 1 of 1 hand: [ME] on their "
                      "seat; --hero NAME to choose)")
    assert "(4d Qd) Ac" in out[2]
    assert main(["show", path]) == 0
    shown = capsys.readouterr().out
    assert "hero (*): Seat+2" in shown and "Seat+2* [4d Qd] Ac" in shown  # the hero's own down cards
    assert "Seat+1  [?? ??] 2s" in shown  # an opponent's stay hidden until shown
    assert main(["show", path, "--hero", "Seat+1"]) == 0  # --hero chooses
    assert "hero (*): Seat+1" in capsys.readouterr().out


def test_ipoker_nickname_and_deal_lines_mark_the_hero(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, hero, words in ((IPOKER, "Hero", "the <nickname> of its session"),
                              (WINNING, "ChazDazzle", "its deal lines show their down cards alone")):
        path = _path(corpus, name)
        assert main(["hands", path]) == 0
        first = capsys.readouterr().out.splitlines()[0]
        assert first.startswith(f"hero: {hero} (marked by the log as its own player in ") and words in first


def test_every_site_that_marks_a_hero_names_it(corpus: Path) -> None:
    # each site's corpus hands: the mark its logs use, on every hand whose log shows the
    # hero's cards (Everleaf's corpus hand is an observer's: no cards, no hero)
    hands = load(corpus, frames=["hands"]).hands
    marks = {site: set(part["hero_mark"].dropna()) for site, part in hands.groupby("site", observed=True)}
    assert marks["bovada"] == {"[ME]"} and marks["ipoker"] == {"<nickname>"}
    for site in ("absolute", "fulltilt", "kingsclub", "merge", "ongame", "partypoker", "pokerstars",
                 "winamax", "winning"):
        assert marks[site] == {"deal"}, site
    bovada = hands[hands["site"] == "bovada"]
    assert bovada["hero"].notna().all()  # every Bovada hand, though its down cards are everybody's


def test_a_store_imported_before_the_marks_names_the_hero_by_down_cards(
        corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a schema-4 store has no hands.hero: read as it is, the hero found by the down cards
    # the logs show (as before), and the line says so; the next import adds the columns
    import sqlite3

    db = tmp_path / "old.db"
    assert main(["import", _path(corpus, WINNING), "--db", str(db)]) == 0
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE hands DROP COLUMN hero")
        conn.execute("ALTER TABLE hands DROP COLUMN hero_mark")
        for column in ("street", "party", "seat", "expected", "actual"):  # schema 5's
            conn.execute(f"ALTER TABLE violations DROP COLUMN {column}")
        conn.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    capsys.readouterr()
    assert main(["hands", "--db", str(db)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("hero: ChazDazzle (marked by the log as its own player in ")
    assert "their down cards shown (a store imported before the marks were kept)" in first
