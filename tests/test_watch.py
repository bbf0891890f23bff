"""``studbook watch`` and the cut-hand rule (studbook.complete, studbook.watch).

The writer-process test: a separate process writes real hands (the first 24 of the
project's Aaltje IV sample, each followed by the blank lines PokerStars writes) to a
log in pieces cut at random points, rotates the log (renames it, starts a new one)
after hand 8, and after hand 16 truncates the new log and writes it again from its
first hand, as a site re-writing a file does. A watcher process polls the folder; it is
killed (SIGKILL) soon after it announces a hand, and restarted, twice while the writer
writes. At the end the store holds exactly the 24 hands written, each once.
"""

from __future__ import annotations

import re
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studbook.cli import main
from studbook.complete import ended
from studbook.engine.result import HandCheck
from studbook.events import Hand, Rejected
from studbook.parse import parse_text
from studbook.watch import whole_hands

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = next((ROOT / "histories").glob("HH20240302 Aaltje IV*"))
HEADER = re.compile(r"^PokerStars Hand #(\d+)", re.M)


def sample_hands(n: int) -> list[str]:
    text = SAMPLE.read_text(encoding="utf-8")
    starts = [m.start() for m in HEADER.finditer(text)][: n + 1]
    return [text[a:b].rstrip("\n") + "\n\n\n" for a, b in zip(starts, starts[1:])]


def _ids(hands: list[str]) -> list[str]:
    return [HEADER.match(h).group(1) for h in hands]  # type: ignore[union-attr]


# ---------------------------------------------------------------------------
# the cut-hand rule


def test_a_hand_cut_in_its_summary_is_rejected_by_check_and_import(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    hands = sample_hands(3)
    last = hands[-1].rstrip("\n")
    summary = last.index("*** SUMMARY ***")
    seat_lines = [m.start() for m in re.finditer(r"^Seat \d+: ", last[summary:], re.M)]
    assert len(seat_lines) >= 3
    cut = last[: summary + seat_lines[2]]  # the third and later summary lines missing
    path = tmp_path / "cut.txt"
    path.write_text("".join(hands[:-1]) + cut, encoding="utf-8")
    results = list(parse_text(path.read_text(encoding="utf-8"), file=str(path)))
    assert [type(r) for r in results] == [Hand, Hand, Rejected]
    assert results[-1].reason.startswith("hand cut: the file ends in the summary (no summary line for ")
    assert main(["check", str(path)]) == 1
    assert ": hand " + _ids(hands)[-1] + ": rejected: hand cut" in capsys.readouterr().out
    db = tmp_path / "s.db"
    assert main(["import", str(path), "--db", str(db), "--quiet"]) == 0
    stored = sqlite3.connect(db).execute("SELECT count(*) FROM hands").fetchone()[0]
    rejects = sqlite3.connect(db).execute("SELECT site, reason FROM rejects").fetchall()
    assert stored == 2 and rejects[0][0] == "pokerstars" and rejects[0][1].startswith("hand cut")
    # the whole hand, even without its blank lines, is fine
    path.write_text("".join(hands[:-1]) + last, encoding="utf-8")
    assert all(isinstance(r, Hand) for r in parse_text(path.read_text(encoding="utf-8")))


def test_watch_takes_only_hands_whose_end_is_written() -> None:
    hands = sample_hands(3)
    text = "".join(hands)
    ids = _ids(hands)
    ends = [len("".join(hands[: i + 1])) for i in range(3)]
    for cut in range(0, len(text) + 1, 37):
        data = text[:cut].encode("utf-8")
        results = whole_hands(data, "log.txt") or []
        taken = [r.hand.hand_id for r in results if isinstance(r, HandCheck)]
        assert not [r for r in results if not isinstance(r, HandCheck)], cut
        # a hand is taken once the text after it shows its end: the blank line that follows
        whole = sum(1 for end in ends if cut >= end - 1)
        assert taken == ids[:whole], cut
    assert ended("x\n\n") and ended("***** End of hand R5-1-2 *****\n") and not ended("Seat 1: a\n")


# ---------------------------------------------------------------------------
# the writer process

WRITER = r"""
import os, random, sys, time
folder, source, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
hands = open(source, encoding="utf-8").read().split("\x00")
rng = random.Random(seed)
log = os.path.join(folder, "HH20240302 Aaltje IV.txt")

def write(text):
    with open(log, "a", encoding="utf-8") as out:
        pieces = sorted(rng.sample(range(1, len(text)), 3))
        for a, b in zip([0, *pieces], [*pieces, len(text)]):
            out.write(text[a:b]); out.flush()
            time.sleep(rng.uniform(0.01, 0.04))

def wait_for(name):  # the test has killed one watcher and started the next
    while not os.path.exists(os.path.join(folder, "..", name)):
        time.sleep(0.02)

for i, hand in enumerate(hands):
    if i == 8:
        os.rename(log, os.path.join(folder, "HH20240302 Aaltje IV.1.txt"))  # the site rotates its log
    if i == 16:
        written = open(log, encoding="utf-8").read()
        open(log, "w").close()  # truncated, then written again from its first hand
        write(written)
    if i in (10, 20):
        write(hand[: len(hand) // 2])  # half a hand, then the watcher is killed
        wait_for(f"go{i}")
        write(hand[len(hand) // 2:])
    else:
        write(hand)
print("done", flush=True)
"""


def _studbook() -> list[str]:
    exe = Path(sys.executable).with_name("studbook")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "studbook"]


def test_writer_process_rotation_kill_and_restart(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    hands = sample_hands(24)
    source = tmp_path / "hands.bin"
    source.write_text("\x00".join(hands), encoding="utf-8")
    folder = tmp_path / "logs"
    folder.mkdir()
    db = tmp_path / "watch.db"
    watch = [*_studbook(), "watch", str(folder), "--db", str(db), "--interval", "0.05"]
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(folder), str(source), "15"],
                              stdout=subprocess.PIPE, text=True)
    printed: list[str] = []
    try:
        for go in ("go10", "go20"):
            watcher = subprocess.Popen(watch, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            assert watcher.stdout is not None
            select.select([watcher.stdout], [], [], 120)  # its first hand announced (or 2 min: a busy machine)
            time.sleep(0.3)
            watcher.send_signal(signal.SIGKILL)  # killed mid-work, wherever it is
            out, _ = watcher.communicate(timeout=30)
            printed.extend(out.splitlines())
            (tmp_path / go).touch()  # the writer goes on, with no watcher running
        live = [line for line in printed if line.startswith("pokerstars ")]
        assert writer.wait(timeout=60) == 0
    finally:
        if writer.poll() is None:
            writer.kill()
    assert main([*watch[len(_studbook()):], "--once"]) == 0  # the last start, in this process
    printed.extend(capsys.readouterr().out.splitlines())
    connection = sqlite3.connect(db)
    stored = [row[0] for row in connection.execute("SELECT hand_id FROM hands ORDER BY hand_id")]
    assert stored == sorted(_ids(hands))  # exactly the hands written, none twice
    assert connection.execute("SELECT count(*) FROM rejects").fetchone()[0] == 0
    assert connection.execute("SELECT count(*) FROM players").fetchone()[0] == sum(
        len(re.findall(r"^Seat \d+: .* in chips", h, re.M)) for h in hands)
    # one line per new hand; a hand is never announced before it is stored
    assert live, "the watcher stored hands while they were written"
    announced = [line.split()[1].rstrip(":") for line in printed if line.startswith("pokerstars ")]
    assert set(announced) <= set(stored) and len(announced) == len(set(announced))  # never twice
    assert all(re.fullmatch(r"pokerstars \d+: \S+ [-+][\d.]+ USD: (ok|\d+ violations \(.*\))", line)
               for line in printed if line.startswith("pokerstars "))


def test_a_new_hands_line_says_what_its_money_is_in(corpus: Path) -> None:
    # KingsClub writes no currency: USD (money.SITE_CURRENCY); a tournament: whole chips, named
    from studbook.check import stream_file
    from studbook.watch import describe

    [kingsclub] = stream_file(corpus / "KingsClub" / "7-Stud-USD-44-88-202010.txt").results
    assert describe(kingsclub, "Hero") == "kingsclub 37581152: Hero -33.16 USD: 1 violations (bet.size)"
    repo = Path(__file__).resolve().parents[1] / "histories"
    [tournament] = sorted(repo.glob("*T3778019413*"))
    first = next(iter(stream_file(tournament).results))
    assert describe(first, "Hero") == "pokerstars 259648566558: Hero -205 tournament chips: ok"
