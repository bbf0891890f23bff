"""The interactive terminal replayer (standard ``curses``): the frames of
:func:`studbook.view.text.frame`, one at a time, driven by keys."""

from __future__ import annotations

import curses
from typing import Any, Mapping, Sequence

from studbook.check import TableMemory
from studbook.events import Hand

from . import Replay, replay
from .text import frame, header

SPEEDS = (2.4, 1.6, 1.0, 0.65, 0.4, 0.2)  # seconds per step when playing
HELP = "<- -> step  up/down street  Home/End  space play  +/- speed  n/p hand  r reveal  b big bets  q quit"


class Replayer:
    """Keys move a cursor (hand, step); each move redraws one frame."""

    def __init__(
        self, hands: Sequence[Hand], *, start: int = 0, reveal: bool = False, big_bets: bool = False,
        memories: Mapping[tuple[str, int], TableMemory] | None = None, hero: str | None = None,
    ) -> None:
        self.hands = list(hands)
        self.memories = memories or {}
        self.hero = hero  # whose down cards are seen (None: the player the log deals them to)
        self.reveal = reveal
        self.big_bets = big_bets
        self.hand = start
        self.step = 0
        self.playing = False
        self.speed = 2
        self._cache: dict[tuple[int, bool], Replay] = {}

    @property
    def current(self) -> Replay:
        key = (self.hand, self.reveal)
        if key not in self._cache:
            hand = self.hands[self.hand]
            self._cache[key] = replay(hand, reveal=self.reveal, hero=self.hero,
                                      memory=self.memories.get((hand.file, hand.line)))
        return self._cache[key]

    def street_starts(self) -> list[int]:
        return [0] + [s.index for s in self.current.steps if s.starts_street]

    def key(self, key: Any) -> bool:
        """Handle one key; False to quit."""
        last = len(self.current.steps) - 1
        if key in ("q", "Q", "\x1b"):
            return False
        if key == curses.KEY_RIGHT:
            self.step = min(last, self.step + 1)
        elif key == curses.KEY_LEFT:
            self.step = max(0, self.step - 1)
        elif key == curses.KEY_DOWN:
            self.step = next((s for s in self.street_starts() if s > self.step), last)
        elif key == curses.KEY_UP:
            self.step = next((s for s in reversed(self.street_starts()) if s < self.step), 0)
        elif key == curses.KEY_HOME:
            self.step = 0
        elif key == curses.KEY_END:
            self.step = last
        elif key == " ":
            self.playing = not self.playing
        elif key in ("+", "="):
            self.speed = min(len(SPEEDS) - 1, self.speed + 1)
        elif key == "-":
            self.speed = max(0, self.speed - 1)
        elif key in ("n", "p"):
            self.hand = (self.hand + (1 if key == "n" else -1)) % len(self.hands)
            self.step = 0
            self.playing = False
        elif key == "r":
            self.reveal = not self.reveal
        elif key == "b":
            self.big_bets = not self.big_bets
        return True

    def lines(self) -> list[str]:
        r = self.current
        step = r.steps[min(self.step, len(r.steps) - 1)]
        status = (f"hand {self.hand + 1}/{len(self.hands)}  speed {self.speed + 1}"
                  f"{'  playing' if self.playing else ''}{'  reveal' if self.reveal else ''}")
        return [header(r.hand), status, "", *frame(r, step, self.big_bets), "", HELP]

    def draw(self, screen: Any) -> None:
        screen.erase()
        height, width = screen.getmaxyx()
        for y, text in enumerate(self.lines()[:height - 1]):
            attr = curses.A_BOLD if y == 0 else (curses.A_REVERSE if text.startswith("  !!") else curses.A_NORMAL)
            screen.addnstr(y, 0, text, width - 1, attr)
        screen.refresh()

    def run(self, screen: Any) -> None:
        curses.curs_set(0)
        screen.keypad(True)
        while True:
            self.draw(screen)
            screen.timeout(int(SPEEDS[self.speed] * 1000) if self.playing else -1)
            try:
                key = screen.get_wch()
            except curses.error:  # the play timer ran out: one step on
                if self.step >= len(self.current.steps) - 1:
                    self.playing = False
                else:
                    self.step += 1
                continue
            if not self.key(key):
                return


__all__ = ["HELP", "Replayer", "SPEEDS"]
