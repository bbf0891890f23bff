"""The cut-hand rule on closed files (studbook.complete, applied by studbook.parse).

A file's last hand is whole only when the site's end of a hand is seen: every
player dealt in has a summary line and the last line is whole (a newline after
it, or the ending the site writes whole). Cut a real hand at every character
of its summary: rejected as cut; the whole hand, with or without a newline
after it: read.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from studbook.cli import main
from studbook.complete import SUMMARY_LISTS_EVERY_SEAT
from studbook.events import Hand, PotSummary, Rejected, SeatSummary
from studbook.parse import parse_text, read_file
from studbook.read import decode, files_in, read_bytes

# What a cut may leave that is itself a whole line of another form, so that no
# reader can tell it from a whole one: the rest of the line is exactly one of these.
INDISTINGUISHABLE = re.compile(r" ?\(didn't bet\)| ?and did not bet"  # PokerStars, Winning: "folded on the 3rd Street"
                               r"| ?\[[^\]]*\]"  # PokerStars: "mucked" without the cards
                               r"|\d")  # Winning: "Game ended at: 2016/8/2 11:17:4" (a second of one digit)


def _last_hands(corpus: Path) -> list[tuple[Hand, str]]:
    """Up to three hands of each corpus file of the sites whose summary lists every
    seat, each with its text as the file holds it (no newline after the last line)."""
    found = []
    for path in files_in(corpus):
        if "summaries" in path.parts:
            continue
        hands = [h for h in read_file(path).hands if h.site in SUMMARY_LISTS_EVERY_SEAT]
        if not hands:
            continue
        lines = decode(read_bytes(path)).text.replace("\r\n", "\n").split("\n")
        found += [(h, "\n".join(lines[h.line - 1:h.end_line])) for h in hands[:3]]
    return found


def _summary_start(hand: Hand, text: str) -> int:
    first = min(e.line for e in hand.events if isinstance(e, (SeatSummary, PotSummary)))
    return len("\n".join(text.split("\n")[: first - hand.line])) + 1


def test_a_real_hand_cut_at_every_character_of_its_summary_is_rejected(corpus: Path) -> None:
    hands = _last_hands(corpus)
    assert {h.site for h, _ in hands} == SUMMARY_LISTS_EVERY_SEAT  # every such site has corpus hands
    cuts = rejected = 0
    for hand, text in hands:
        assert isinstance(list(parse_text(text, site=hand.site))[-1], Hand), hand.hand_id
        assert isinstance(list(parse_text(text + "\n", site=hand.site))[-1], Hand), hand.hand_id
        for at in range(_summary_start(hand, text), len(text)):
            rest = text[at:].split("\n", 1)[0]
            if not rest.strip():  # only the spaces after a whole line are cut
                continue
            cuts += 1
            last = list(parse_text(text[:at], site=hand.site))[-1]
            if isinstance(last, Rejected):  # as cut, or by the grammar ("hand ends early, truncated?")
                rejected += 1
            else:
                assert INDISTINGUISHABLE.fullmatch(rest.rstrip()), (hand.site, hand.hand_id, text[:at][-60:], rest)
    assert cuts > 10_000 and cuts - rejected < 20  # the few cuts no reader can tell apart


def test_real_files_that_end_without_a_newline_still_read(corpus: Path) -> None:
    ends = [p for p in files_in(corpus) if "summaries" not in p.parts and p.suffix == ".txt"
            and read_bytes(p)[-1:] not in (b"\n", b"\x00")]
    assert ends  # PokerStars, KingsClub and Winamax files end without one
    read = 0
    for path in ends:
        result = read_file(path)
        assert not [r for r in result.rejected if r.reason.startswith("hand cut")], path
        read += len(result.hands)
    assert read >= 10


def _cut_file(tmp_path: Path, corpus: Path) -> tuple[Path, list[str], str]:
    """A real PokerStars file whose last hand stops inside its last summary line."""
    source = corpus / "PokerStars" / "Triple-Stud-USD-2.00-0.20-MTT-201301.txt"
    text = decode(read_bytes(source)).text.rstrip("\n")
    line = "Seat 8: Player5 showed [9c Js Jh 5s 6d Ts 4c] and lost with a pair of Jacks"
    assert text.endswith(line)
    cut = text[: -len(" of Jacks")]  # "... and lost with a pair"
    path = tmp_path / "cut.txt"
    path.write_text(cut, encoding="utf-8")
    ids = [h.hand_id for h in read_file(source).hands]
    return path, ids, cut.rsplit("\n", 1)[-1]


def test_check_and_import_reject_a_last_hand_cut_inside_a_summary_line(tmp_path: Path, corpus: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path, ids, last = _cut_file(tmp_path, corpus)
    results = read_file(path).results
    assert [r.hand_id for r in results if isinstance(r, Hand)] == ids[:-1]
    cut = results[-1]
    assert isinstance(cut, Rejected) and cut.hand_id == ids[-1] and cut.text == last
    assert cut.reason == "hand cut: the file ends inside a line of the summary"
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"hand {ids[-1]}: rejected: hand cut: the file ends inside a line of the summary" in out
    assert last in out  # the offending text
    db = tmp_path / "s.db"
    assert main(["import", str(path), "--db", str(db)]) == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM hands").fetchone()[0] == len(ids) - 1
        assert conn.execute("SELECT site, hand_id FROM rejects").fetchall() == [("pokerstars", ids[-1])]
    path.write_text(path.read_text(encoding="utf-8") + " of Jacks", encoding="utf-8")  # the line whole again
    assert main(["check", str(path)]) == 0
