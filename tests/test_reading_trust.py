"""Small things a reading command must get right (issue: numbers a player can trust).

An inverted time range is a usage error; input whose every hand was rejected says so
(not only "no hands match"); a start time written without a zone prints normalised.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studbook.cli import main
from studbook.words import counted, ordinal

HISTORIES = Path(__file__).resolve().parents[1] / "histories"
PLANTED = str(HISTORIES / "planted-violations.txt")
CASH = "PokerStars/7-Stud-USD-0.04-0.08-200911.txt"  # 11 hands, each with a 'collected' line
WINNING = "WinningPoker/7-Stud-8max-USD-1.00-2.00-201608.HH00000000 G0.txt"


def _corpus_file(corpus: Path, name: str) -> Path:
    path = corpus / name
    if not path.exists():
        pytest.skip(f"corpus file missing: {path}")
    return path


@pytest.mark.parametrize("command", [["stats"], ["hands"], ["sessions"], ["tournaments"],
                                     ["show"], ["replay", "--plain"], ["export", "--format", "jsonl"],
                                     ["plot", "results"]])
def test_an_inverted_range_is_a_usage_error(command: list[str], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    output = ["-o", str(tmp_path / "x.png")] if command[0] == "plot" else []
    assert main([*command, PLANTED, *output, "--since", "2024-01-01", "--until", "2023-01-01"]) == 2
    err = capsys.readouterr().err
    assert "--since 2024-01-01 --until 2023-01-01: the range is empty" in err


def test_a_range_of_one_day_is_not_inverted(capsys: pytest.CaptureFixture[str]) -> None:
    # --until as a date includes that day: since and until the same date is that day
    assert main(["hands", PLANTED, "--player", "Hero", "--since", "2024-03-27", "--until", "2024-03-27",
                 "--format", "csv"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 13  # the header and the 12 hands


@pytest.mark.parametrize("command", [["stats"], ["hands"], ["sessions"], ["show"], ["replay", "--plain"]])
def test_input_whose_every_hand_was_rejected_says_so(command: list[str], corpus: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # the real hands with one word misspelt in each: a line the reader cannot read
    text = _corpus_file(corpus, CASH).read_text()
    broken = tmp_path / "broken.txt"
    broken.write_text(text.replace(" collected ", " colected "))
    main([*command, str(broken)])
    err = capsys.readouterr().err
    assert "no hand of the input could be read: 11 hands rejected ('studbook check' says why)" in err
    # the same hands in a store: every reading command says so too, stats' chunked reading of it included
    store = tmp_path / "broken.db"
    main(["import", str(broken), "--db", str(store)])
    capsys.readouterr()
    main([*command, "--db", str(store)] if command[0] not in ("show", "replay") else [*command, str(broken)])
    err = capsys.readouterr().err
    assert "no hand of the input could be read: 11 hands rejected ('studbook check' says why)" in err


def test_a_start_time_without_a_zone_prints_normalised(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _corpus_file(corpus, WINNING)  # "Game started at: 2016/8/2 11:17:19", no zone
    assert main(["hands", str(path)]) == 0
    out = capsys.readouterr().out
    assert "2016-08-02 11:17:19 (zone unknown)" in out and "2016/8/2" not in out


def test_counts_take_the_singular_for_one() -> None:
    assert counted(1, "hand") == "1 hand" and counted(0, "hand") == "0 hands"
    assert counted(1, "hand with violations", "hands with violations") == "1 hand with violations"
    assert counted(1234, "hand", grouped=True) == "1,234 hands"


def test_places_take_their_ordinal_suffix() -> None:
    written = [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)]
    assert written == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th"]
