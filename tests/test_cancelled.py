"""Hands the site cancelled are Skipped with one reason, never Rejected.

A site whose grammar reads common.lark's ``HAND_CANCELLED`` (Full Tilt's
``Hand #N has been canceled``, KingsClub's and PokerStars' ``Hand cancelled``,
as FPDB's readers look for them: anywhere after the header) skips the hand at that line, wherever it is written and
whatever follows it (the rest of the hand, or nothing). A real corpus hand gets
the line after each of its lines; the import report counts it apart from the
games that are not replayed. Sites whose grammar does not read the line are
left as they were (no client of theirs is known to write it).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from samples import sample_path
from studbook.cli import main
from studbook.cli.importer import report
from studbook.events import Hand, Note, Rejected, Skipped
from studbook.parse import parse_text
from studbook.read import decode, read_bytes
from studbook.read.grammar import load_grammar
from studbook.sites import get_site, site_names
from studbook.sites.base import CANCELLED_REASON
from studbook.sites.lines import LineFormat
from studbook.store import ImportSummary

TEXT_SITES = tuple(name for name in site_names() if isinstance(get_site(name), LineFormat))
# Per site whose grammar reads the cancel line: a corpus file, and the line as its client writes it.
CANCELS = {
    "fulltilt": ("FullTilt/7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt", "Hand #{id} has been canceled"),
    "kingsclub": ("KingsClub/7-Stud-USD-44-88-202010.txt", "Hand cancelled"),
    "pokerstars": ("PokerStars/7-Stud-USD-0.04-0.08-200911.txt", "Hand cancelled"),
}
# One corpus file per other text site, for the sites that do not read it.
OTHERS = {
    "bovada": "Bovada/7-StudHL-USD-0.25-0.50-201209.txt",
    "ongame": "OnGame/7-StudHL-USD-0.25-0.50-201008.All.streets.txt",
    "partypoker": "PartyPoker/7-StudHL-USD-0.50-1.00-201008.txt",
    "everleaf": "Everleaf/7-Stud-USD-0.05-0.10.201107.txt",
    "winamax": "Winamax/7-Stud-6max-EUR-25-50-201611._8games_.txt",
    "winning": "WinningPoker/7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham GAMETYPE.txt",
    "absolute": "Absolute/7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt",
    # no real log; the Chico network's other parsers drop a "Hand cancelled" line as noise,
    # which tells nothing of what follows it
    "betonline": "handmade/betonline/7-Stud-USD-0.50-1.00-cash.txt",
}


def _reads_cancel(site: str) -> bool:
    fmt = get_site(site)
    assert isinstance(fmt, LineFormat)
    return "HAND_CANCELLED" in load_grammar(fmt.grammar_name).terminals


def _first_hand(corpus: Path, name: str, site: str) -> tuple[Hand, list[str]]:
    path = sample_path(corpus, name)
    if not path.is_file():
        pytest.skip(f"corpus file {name} not found")
    text = decode(read_bytes(path)).text
    hand = next(r for r in parse_text(text, file="real.txt", site=site) if isinstance(r, Hand))
    return hand, text.split("\n")[hand.line - 1 : hand.end_line]


def _one(lines: list[str], site: str) -> Hand | Rejected | Skipped:
    results = list(parse_text("\n".join(lines) + "\n", file="edited.txt", site=site))
    assert len(results) == 1, results
    return results[0]


def test_the_sites_that_read_the_cancel_line_are_the_listed_ones() -> None:
    assert {site for site in TEXT_SITES if _reads_cancel(site)} == set(CANCELS)
    assert set(CANCELS) | set(OTHERS) == set(TEXT_SITES)


@pytest.mark.parametrize("site", sorted(CANCELS))
@pytest.mark.parametrize("rest", ["kept", "cut"])
def test_a_cancel_line_after_any_line_skips_the_hand(corpus: Path, site: str, rest: str) -> None:
    name, written = CANCELS[site]
    hand, lines = _first_hand(corpus, name, site)
    cancel = written.format(id=hand.hand_id)
    for at in range(1, len(lines) + 1):  # after the header, ..., after the last summary line
        edited = lines[:at] + [cancel] + (lines[at:] if rest == "kept" else [])
        result = _one(edited, site)
        assert isinstance(result, Skipped), (at, lines[at - 1], result)
        assert (result.reason, result.hand_id, result.game) == (CANCELLED_REASON, hand.hand_id, hand.header.game)
        assert result.line == 1


@pytest.mark.parametrize("site", sorted(CANCELS))
def test_the_unedited_hand_still_reads(corpus: Path, site: str) -> None:
    hand, lines = _first_hand(corpus, CANCELS[site][0], site)
    again = _one(lines, site)
    assert isinstance(again, Hand)
    assert again.events == tuple(dataclasses.replace(e, file="edited.txt") for e in hand.events)


@pytest.mark.parametrize("site", sorted(site for site, (_, written) in CANCELS.items() if "{id}" in written))
def test_a_cancel_line_naming_another_hand_rejects_at_that_line(corpus: Path, site: str) -> None:
    hand, lines = _first_hand(corpus, CANCELS[site][0], site)
    other = f"Hand #{int(hand.hand_id) + 1} has been canceled"
    for at in (1, len(lines) // 2, len(lines)):
        result = _one(lines[:at] + [other] + lines[at:], site)
        assert isinstance(result, Rejected), (at, result)
        assert result.line == at + 1 and result.text == other


@pytest.mark.parametrize("site", sorted(OTHERS))
def test_sites_without_the_cancel_line_are_unchanged(corpus: Path, site: str) -> None:
    """No client of theirs is known to write it: the line policy judges it as any other line."""
    hand, lines = _first_hand(corpus, OTHERS[site], site)
    at = hand.seats[0].line - hand.line + 1  # after the first seat line
    result = _one(lines[:at] + [f"Hand #{hand.hand_id} has been canceled"] + lines[at:], site)
    assert not (isinstance(result, Skipped) and result.reason == CANCELLED_REASON)


def test_a_cancelled_hand_is_listed_as_skipped_by_import(corpus: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    hand, lines = _first_hand(corpus, CANCELS["fulltilt"][0], "fulltilt")
    at = next(i for i, line in enumerate(lines) if line.startswith("*** 3RD STREET")) + 2
    path = tmp_path / "ft.txt"
    path.write_text("\n".join(lines[:at] + [f"Hand #{hand.hand_id} has been canceled"]) + "\n", encoding="utf-8")
    assert main(["import", str(path), "--db", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    assert f"skipped                 1  ({CANCELLED_REASON} 1)" in out
    assert "rejected                0" in out


def test_the_import_report_counts_cancelled_hands_apart_from_other_games() -> None:
    summary = ImportSummary()
    summary.skipped = 3
    summary.problems.extend([
        Skipped(file="f", line=1, hand_id="1", game="Limit Stud Hi", reason=CANCELLED_REASON),
        Skipped(file="f", line=9, hand_id="2", game="Limit Hold'em"),
        Skipped(file="f", line=19, hand_id="3", game="Limit Hold'em"),
    ])
    text = report(summary, "s.db", 1, 0)
    assert f"({CANCELLED_REASON} 1; not stud: Limit Hold'em 2)" in text


def test_other_words_about_cancelling_stay_a_note(corpus: Path) -> None:
    """Only the site's own cancel line cancels: other words (no client known to write them) are a note."""
    hand, lines = _first_hand(corpus, CANCELS["fulltilt"][0], "fulltilt")
    at = len(lines) // 2
    result = _one(lines[:at] + ["The hand has been canceled by the dealer"] + lines[at:], "fulltilt")
    assert isinstance(result, Hand) and any(isinstance(e, Note) for e in result.events)
