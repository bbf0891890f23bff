"""The self-contained HTML replayer: one file, inline CSS and JS, cards drawn as SVG.

:func:`page` fills ``replay.html`` (package data, beside ``replay.css`` and
``replay.js``) with the hands as JSON in ``<script type="application/json"
id="studbook-replay">``; docs/commands/show-and-replay.md documents the JSON. Nothing is fetched:
no network, no CDN.
"""

from __future__ import annotations

import json
from decimal import Decimal
from importlib.resources import files
from typing import Any, Iterable

from studbook.cards import Card
from studbook.engine.result import Violation
from studbook.engine.snapshot import SeatView, Snapshot

from . import Replay
from .text import pot_name

FORMAT_VERSION = 1


def _text(name: str) -> str:
    return files("studbook.view").joinpath("static", name).read_text(encoding="utf-8")


def _dec(value: Decimal) -> str:
    """An exact amount as plain decimal text ("10", not "1E+1")."""
    return format(value, "f")


def _card(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _violation(v: Violation) -> dict[str, Any]:
    return {"rule": v.rule, "line": v.line, "message": v.message}


def _cards(seat: SeatView) -> list[dict[str, Any]]:
    return [{"card": _card(c.card), "up": c.up} for c in seat.cards]


def step_data(snap: Snapshot) -> dict[str, Any]:
    """One step of the page's JSON (see docs/commands/show-and-replay.md)."""
    dealt = [s for s in snap.seats if s.dealt_in]
    return {
        "street": int(snap.street) if snap.street is not None else None,
        "line": snap.line,
        "event": type(snap.event).__name__ if snap.event is not None else None,
        "actor": snap.actor,
        "action": snap.action,
        "amount": _dec(snap.amount) if snap.amount is not None else None,
        "pot": _dec(snap.pot),
        "pots": [{"name": pot_name(p.index, len(snap.pots)), "amount": _dec(p.amount), "eligible": list(p.eligible)}
                 for p in snap.pots],
        "stacks": {s.name: _dec(s.stack) for s in dealt},
        "in_front": {s.name: _dec(s.in_front) for s in dealt if s.in_front},
        "folded": [s.name for s in dealt if s.folded],
        "all_in": [s.name for s in dealt if s.all_in],
        "to_act": snap.to_act,
        "cards": {s.name: _cards(s) for s in dealt},
        "community": _card(snap.community),
        "violations": [_violation(v) for v in snap.violations],
    }


def hand_data(replay: Replay) -> dict[str, Any]:
    """One hand of the page's JSON: header, seats, steps, showdown, pots."""
    hand = replay.hand
    h = hand.header
    first = replay.snapshots[0]
    dealt = {s.name for snap in replay.snapshots for s in snap.seats if s.dealt_in}
    return {
        "site": h.site,
        "hand_id": hand.hand_id,
        "variant": h.variant.value,
        "game": h.game,
        "table": h.table,
        "stakes": {"small_bet": _dec(h.stakes.small_bet), "big_bet": _dec(h.stakes.big_bet),
                   "ante": _dec(h.stakes.ante) if h.stakes.ante is not None else None},
        "currency": h.currency,
        "file": hand.file,
        "line": hand.line,
        "players": [s.name for s in first.seats if s.name in dealt],
        "seats": {s.name: s.seat for s in first.seats if s.name in dealt},
        "max_seats": h.max_seats,
        "hero": replay.hero,
        "known": {name: [_card(c) for c in down] for name, down in replay.known.items()
                  if any(c is not None for c in down)},
        "steps": [step_data(s) for s in replay.snapshots],
        "award_step": replay.award_step,
        "showdown": [
            {"player": s.player, "high": s.high, "high_five": [str(c) for c in s.high_five],
             "low": s.low, "low_five": [str(c) for c in s.low_five]}
            for s in replay.shown
        ],
        "pots": [
            {"name": pot_name(p.index, len(replay.pots)), "amount": _dec(p.amount), "eligible": list(p.eligible),
             "high": [[n, _dec(a)] for n, a in p.high], "low": [[n, _dec(a)] for n, a in p.low],
             "best_high": list(p.best_high), "best_low": list(p.best_low)}
            for p in replay.pots
        ],
    }


def page_data(replays: Iterable[Replay]) -> dict[str, Any]:
    return {"format": FORMAT_VERSION, "hands": [hand_data(r) for r in replays]}


def _json_for_script(data: Any) -> str:
    """JSON that cannot end the ``<script>`` element it sits in."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=_default)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return _dec(value)
    if isinstance(value, Card):
        return str(value)
    raise TypeError(f"not JSON: {value!r}")


def page(replays: Iterable[Replay], title: str = "studbook replayer") -> str:
    """The whole HTML page for these hands."""
    html = _text("replay.html")
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (html.replace("/*STYLE*/", _text("replay.css"))
                .replace("/*SCRIPT*/", _text("replay.js"))
                .replace("{{TITLE}}", escaped)
                .replace("{{DATA}}", _json_for_script(page_data(replays))))


__all__ = ["FORMAT_VERSION", "hand_data", "page", "page_data", "step_data"]
