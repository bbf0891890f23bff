"""The interactive terminal replayer: its keys on their own, then the real program in tmux."""

from __future__ import annotations

import curses
import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from studbook.view.terminal import Replayer
from test_replay import COMMUNITY_8, STUD8_SIDE_POT, load


def test_keys_move_through_steps_streets_and_hands(corpus: Path) -> None:
    hands = [load(corpus, STUD8_SIDE_POT), load(corpus, COMMUNITY_8)]
    r = Replayer(hands)
    last = len(r.current.steps) - 1
    assert r.key(curses.KEY_RIGHT) and r.step == 1
    r.key(curses.KEY_LEFT)
    r.key(curses.KEY_LEFT)
    assert r.step == 0
    r.key(curses.KEY_DOWN)
    assert r.current.steps[r.step].label == "3rd street · the deal"
    r.key(curses.KEY_DOWN)
    assert r.current.steps[r.step].label == "4th street · the deal"
    r.key(curses.KEY_UP)
    assert r.current.steps[r.step].label == "3rd street · the deal"
    r.key(curses.KEY_END)
    assert r.step == last
    r.key(curses.KEY_HOME)
    assert r.step == 0
    r.key(" ")
    assert r.playing
    r.key("+")
    r.key("-")
    r.key("-")
    assert r.speed == 1
    r.key("n")
    assert r.hand == 1 and r.step == 0 and not r.playing
    r.key("p")
    r.key(curses.KEY_DOWN)  # 3rd street's cards are out
    screen = "\n".join(r.lines())
    assert "[?? ??] 6c" in screen and "hand 1/2" in screen
    r.key("r")
    assert "[3d 8c] 6c" in "\n".join(r.lines())
    assert not r.key("q")


# How long a screen may take to show: each wait ends as soon as it shows, so this only
# bounds a failure; the replayer's start (imports, the file read) on a loaded machine
# running the whole suite can take many times its 0.5 s alone.
PATIENCE = 120


def _tmux(socket: str, *args: str) -> str:
    done = subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, timeout=PATIENCE)
    return done.stdout


def _screen_after(socket: str, wanted: str) -> str:
    deadline = time.monotonic() + PATIENCE
    screen = ""
    while time.monotonic() < deadline:
        screen = _tmux(socket, "capture-pane", "-p", "-t", "replay")
        if wanted in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{wanted!r} not on screen:\n{screen}")


@contextmanager
def tmux_session(command: str) -> Iterator[str]:
    """``command`` running in a private tmux server (150x40); yields the server's socket name."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux not installed: the interactive replayer is tested through its keys only")
    socket = f"studbook-test-{os.getpid()}-{time.monotonic_ns()}"
    _tmux(socket, "new-session", "-d", "-s", "replay", "-x", "150", "-y", "40", command)
    try:
        yield socket
    finally:
        _tmux(socket, "kill-server")


STUDBOOK = Path(sys.executable).with_name("studbook")


def test_interactive_in_a_terminal(corpus: Path, tmp_path: Path) -> None:
    done = tmp_path / "exit-status"
    with tmux_session(f"'{STUDBOOK}' replay '{corpus / STUD8_SIDE_POT[0]}'; echo $? > '{done}'") as socket:
        _screen_after(socket, "before the deal (step 0/44)")
        _tmux(socket, "send-keys", "-t", "replay", "Right", "Right", "Right")
        _screen_after(socket, "3rd street · action 1 of 7 (step 3/44")
        _tmux(socket, "send-keys", "-t", "replay", "Down")
        screen = _screen_after(socket, "4th street · the deal")
        assert "Player0" in screen and "space play" in screen
        _tmux(socket, "send-keys", "-t", "replay", "End")
        _screen_after(socket, "result (step 44/44")
        _tmux(socket, "send-keys", "-t", "replay", "q")
        deadline = time.monotonic() + PATIENCE
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert done.read_text().strip() == "0"


def test_interactive_hand_of_a_file_reaches_its_neighbours(corpus: Path) -> None:
    path = corpus / "PokerStars/7-Stud-USD-0.04-0.08-200911.txt"
    with tmux_session(f"'{STUDBOOK}' replay '{path}' --hand 35874081088") as socket:
        assert "hand 35874081088" in _screen_after(socket, "hand 3/11")
        _tmux(socket, "send-keys", "-t", "replay", "n")
        assert "hand 35874124553" in _screen_after(socket, "hand 4/11")
        _tmux(socket, "send-keys", "-t", "replay", "q")


def test_the_terminal_replayer_sees_the_hero_it_is_given(corpus: Path) -> None:
    """``replay --hero NAME`` in the terminal: the frames are that viewer's, as in --plain and --html."""
    from studbook.view import hero_of, replay

    hand = load(corpus, STUD8_SIDE_POT)
    assert Replayer([hand]).current == replay(hand) and Replayer([hand]).current.hero == hero_of(hand)
    others = [seat.player for seat in hand.seats if seat.player != hero_of(hand)]
    for player in others:
        chosen = Replayer([hand], hero=player)
        assert chosen.current == replay(hand, hero=player) and chosen.current.hero == player
    assert any(Replayer([hand], hero=p).lines() != Replayer([hand]).lines() for p in others)


def test_keys_on_a_shipped_hand() -> None:
    """The keys on the shipped histories (no corpus): down lands on each street's deal, then the result."""
    import studbook
    from studbook.events import Hand

    path = Path(__file__).resolve().parents[1] / "histories" / "HH20240302 Aaltje IV - $0.50-$1 Ante $0.10 - USD Limit Stud.txt"
    hand = next(h for h in studbook.parse_file(path) if isinstance(h, Hand) and h.hand_id == "258263415718")
    r = Replayer([hand])
    labels = []
    while r.step < len(r.current.steps) - 1:
        r.key(curses.KEY_DOWN)
        labels.append(r.current.steps[r.step].label)
    assert labels == ["3rd street · the deal", "4th street · the deal", "5th street · the deal", "6th street · the deal",
                      "result"]
    r.key("b")
    screen = "\n".join(r.lines())
    assert "result (step 22/22, lines 54-62) | rake 0.06 BB" in screen and "\nrake 0.06 BB" in screen
    r.key(curses.KEY_LEFT)
    assert "> Papa Razz collects 1.24 BB from the pot" in "\n".join(r.lines())
