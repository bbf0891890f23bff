"""Import hands while they are played: poll folders, store each hand once it is whole.

:class:`Watcher` remembers each file's size, modification time and inode;
when one changes (it grew, was truncated, or a new file appeared after the
site rotated its log) the file is read again from the start, and every hand
in it goes through the checker into the store, which keeps one row per
``(site, hand_id)``: a hand read twice is stored once, so a restart (or a
rotated file read again under its new name) never doubles a hand, and since
each poll's hands go in as one transaction, a watcher killed at any point
loses nothing that the next start does not read again.

The last hand of a file is taken only when the text after it shows its end
(:func:`studbook.complete.ended`: a blank line, or the site's closing line);
until then it is left for later, so a hand the site is still writing is never
stored half.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from studbook.check import CheckResult, TableMemory, check_file_result
from studbook.complete import ended
from studbook.engine.result import HandCheck
from studbook.events import Rejected, Skipped
from studbook.money import hand_money, money_text
from studbook.parse import read_data
from studbook.read import decode, files_in
from studbook.store import Store
from studbook.view import hero_of


@dataclass(frozen=True, slots=True)
class Seen:
    """What a file looked like when it was last read."""

    size: int
    mtime_ns: int
    inode: int


@dataclass
class Watcher:
    """Polls ``paths`` (folders or files) and stores new whole hands in ``store``."""

    store: Store
    paths: Sequence[Path]
    on_result: Callable[[CheckResult], None] | None = None
    seen: dict[Path, Seen] = field(default_factory=dict)
    stored: int = 0
    problems: set[tuple[Any, ...]] | None = None  # (status, file, hand_line) of stored rejects

    def files(self) -> list[Path]:
        found: list[Path] = []
        for path in self.paths:
            found.extend(p for p in files_in(path) if p.is_file())
        return found

    def poll(self) -> int:
        """Read every file that changed; the number of hands stored."""
        before = self.stored
        for path in self.files():
            try:
                stat = path.stat()
            except OSError:
                continue  # rotated away between the listing and now
            now = Seen(stat.st_size, stat.st_mtime_ns, stat.st_ino)
            if self.seen.get(path) == now:
                continue
            self.read(path, now)
        return self.stored - before

    def _stored(self, result: CheckResult) -> bool:
        if isinstance(result, HandCheck):
            return (result.hand.site, result.hand.hand_id) in self.store.keys()
        if self.problems is None:
            self.problems = set(self.store.conn.execute(
                "SELECT status, file, hand_line FROM rejects").fetchall())
        return _problem_key(result) in self.problems

    def read(self, path: Path, now: Seen) -> None:
        try:
            data = path.read_bytes()
        except OSError:
            return  # gone or unreadable for now: tried again at the next change
        results = whole_hands(data, str(path))
        if results is None:
            return  # not a hand history (yet): looked at again when it changes
        fresh = [r for r in results if not self._stored(r)]
        summary = self.store.add(fresh)
        self.stored += summary.new
        for result in fresh:
            if isinstance(result, (Rejected, Skipped)) and self.problems is not None:
                self.problems.add(_problem_key(result))
            if self.on_result is not None:
                self.on_result(result)
        self.seen[path] = Seen(len(data), now.mtime_ns, now.inode) if len(data) == now.size else now


def whole_hands(data: bytes, name: str) -> list[CheckResult] | None:
    """The checked hands of a file's bytes, its last hand left out unless its end
    is written; None when the bytes are not a hand history (or hold no whole hand)."""
    parsed = read_data(data, name)
    if parsed.error is not None or parsed.site is None:
        return None
    if parsed.results and not ended(decode(data).text):
        parsed.results = parsed.results[:-1]  # still being written: left for later
    checked = check_file_result(parsed, TableMemory())
    return checked.results


def _problem_key(result: Rejected | Skipped) -> tuple[Any, ...]:
    status = "rejected" if isinstance(result, Rejected) else "skipped"
    return (status, result.file, result.hand_line if isinstance(result, Rejected) else result.line)


def describe(result: CheckResult, hero: str | None = None) -> str:
    """One line for a new hand: its id, the hero's result, its violations."""
    if isinstance(result, HandCheck):
        hand = result.hand
        who = hero or hero_of(hand)
        net = next((p.net for p in result.players if p.player == who), None)
        h = hand.header
        kind, currency = hand_money(h.site, h.currency, tournament=h.tournament is not None,
                                    play_money=h.play_money)
        outcome = (f"{who} {'+' if net >= 0 else ''}{money_text(net, kind, currency)}" if net is not None
                   else "hero not in the hand")
        rules = sorted({v.rule for v in result.violations})
        verdict = (f"{len(result.violations)} violations ({', '.join(rules)})"
                   if result.violations else "ok")
        return f"{hand.site} {hand.hand_id}: {outcome}: {verdict}"
    if isinstance(result, Rejected):
        return f"{result.file}:{result.line}: rejected: {result.reason}"
    assert isinstance(result, Skipped)
    return f"{result.file}:{result.line}: skipped: {result.game}"


__all__ = ["Seen", "Watcher", "describe", "whole_hands"]
