"""Hands, replays and frames in a notebook: short reprs, HTML displays, and the
way from a row of the frames to its hand.

A :class:`HandView` is one hand found from the frames (:meth:`Frames.hand
<studbook.frames.Frames.hand>`): its original text (the store's kept copy when
the frames came from a store, else read from the hand's file), the parsed hand,
its check and its replay. In Jupyter a hand, a replay or a HandView displays
as the replayer of ``studbook replay --html`` (:func:`studbook.view.html.page`,
the one page builder), inline in an ``<iframe>`` so that its script and style
stay its own and the exported notebook is self-contained.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studbook.events import Hand

if TYPE_CHECKING:
    from studbook.engine.result import HandCheck
    from studbook.tables import Frames
    from studbook.view import Replay

FRAME_HEIGHT = 760
"""Pixels of the replayer's frame in a notebook."""


def page_html(replays: list[Replay], title: str) -> str:
    """The replayer of ``replays`` as a notebook output: the page inline in an iframe."""
    from studbook.view.html import page

    document = html.escape(page(replays, title=title), quote=True)
    return (f'<iframe srcdoc="{document}" title="{html.escape(title)}" '
            f'style="width:100%;box-sizing:border-box;height:{FRAME_HEIGHT}px;border:1px solid #ccc" '
            'sandbox="allow-scripts"></iframe>')


def replay_html(replay: Replay) -> str:
    hand = replay.hand
    return page_html([replay], f"{hand.site} hand {hand.hand_id}")


def hand_html(hand: Hand) -> str:
    from studbook.view import replay

    return replay_html(replay(hand))


@dataclass(frozen=True)
class HandView:
    """A hand found from the frames: ``text`` (its original text), ``hand`` (parsed
    again from it), ``check`` (the engine's verdict) and ``replay`` (snapshots),
    each made when first asked for; ``line(n)`` is the text of file line ``n``."""

    site: str
    hand_id: str
    file: str
    first_line: int
    text: str
    context: str | None = field(default=None, repr=False)  # an XML site's file head

    @cached_property
    def hand(self) -> Hand:
        from studbook.events import Rejected, Skipped
        from studbook.originals import HandSource, read_again

        parsed = read_again(self.site, HandSource(self.text, self.context), self.file, self.first_line)
        if isinstance(parsed, (Rejected, Skipped)):
            raise ValueError(f"{self.file}:{self.first_line}: hand {self.hand_id} no longer reads: "
                             f"{parsed.reason}")
        return parsed

    @cached_property
    def check(self) -> HandCheck:
        from studbook.check import check_hand

        return check_hand(self.hand)

    @cached_property
    def replay(self) -> Replay:
        from studbook.view import replay

        return replay(self.hand)

    def line(self, number: int) -> str:
        """The text of line ``number`` of the hand's file ('' outside the hand)."""
        lines = self.text.splitlines()
        at = number - self.first_line
        return lines[at] if 0 <= at < len(lines) else ""

    def __repr__(self) -> str:
        return (f"<HandView {self.site} #{self.hand_id}, {Path(self.file).name}:{self.first_line}, "
                f"{len(self.text.splitlines())} lines>")

    def _repr_html_(self) -> str:
        return replay_html(self.replay)


def find_hand(frames: Frames, site: str, hand_id: str) -> HandView:
    """The :class:`HandView` of the hand ``(site, hand_id)`` of ``frames``: from the
    store's kept original text when the frames came from a store, else from the
    hand's file (its ``file`` and ``line`` in the hands table). KeyError when
    the frames hold no such hand."""
    from studbook.store import Store, is_store

    source = frames.source
    if len(source) == 1 and is_store(source[0]):
        with Store(source[0], create=False) as store:
            original = next(store.originals([(site, hand_id)]), None)
        if original is None:
            raise KeyError(f"no hand {hand_id} of {site} in {source[0]}")
        return HandView(site, hand_id, original.file, original.line, original.text, original.context)
    hands = frames.hands
    row = hands[(hands["site"] == site) & (hands["hand_id"] == hand_id)]
    if row.empty:
        raise KeyError(f"no hand {hand_id} of {site} in these frames")
    from studbook.originals import hand_texts

    file, line = str(row["file"].iloc[0]), int(row["line"].iloc[0])
    kept = hand_texts(file, site).get((file, line))
    if kept is None:
        raise KeyError(f"{file}:{line}: hand {hand_id} of {site} is no longer in its file")
    return HandView(site, hand_id, file, line, kept.text, kept.context)


def _count(frames: Frames, table: str) -> str:
    return f"{len(frames.__dict__[table]):,}" if table in frames.loaded() else "not loaded"


def frames_repr(frames: Frames) -> str:
    """A few lines: where from, each table's rows, the ignored files, the money unit."""
    from studbook.rows import MONEY_SCALE, TABLES

    where = ", ".join(str(p) for p in frames.source[:2]) + (" ..." if len(frames.source) > 2 else "")
    counts = ", ".join(f"{table}={_count(frames, table)}" for table in TABLES)
    return (f"<Frames{' of ' + where if where else ''}: {counts}; ignored files={len(frames.ignored)}; "
            f"money in integer minor units (x{MONEY_SCALE})>")


def frames_html(frames: Frames) -> str:
    """A summary table: each table's rows and columns, the ignored files, the money unit."""
    from studbook.rows import MONEY_SCALE, TABLES
    from studbook.tables import MONEY_COLUMNS

    rows = []
    for table in TABLES:
        loaded = table in frames.loaded()
        frame = frames.__dict__.get(table)
        columns = len(frame.columns) if loaded and frame is not None else "-"
        money = ", ".join(MONEY_COLUMNS[table]) or "-"
        rows.append(f"<tr><td><code>{table}</code></td><td>{_count(frames, table)}</td>"
                    f"<td>{columns}</td><td>{html.escape(money)}</td></tr>")
    where = html.escape(", ".join(str(p) for p in frames.source)) or "(built in memory)"
    return (f"<div><b>studbook Frames</b> of {where}<table>"
            "<tr><th>table</th><th>rows</th><th>columns</th><th>money columns (minor units)</th></tr>"
            + "".join(rows) + "</table>"
            f"<p>{len(frames.ignored)} file(s) ignored (not hand histories: <code>frames.ignored</code>). "
            f"Amounts are integers in minor units (amount x {MONEY_SCALE}); "
            "<code>frames.hand(row)</code> shows a row's hand.</p></div>")


__all__ = ["FRAME_HEIGHT", "HandView", "find_hand", "frames_html", "frames_repr", "hand_html",
           "page_html", "replay_html"]
