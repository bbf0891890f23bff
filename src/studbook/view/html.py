"""The self-contained HTML replayer: one file, inline CSS and JS, cards drawn as SVG.

:func:`page` fills ``replay.html`` (package data, beside ``replay.css`` and
``replay.js``) with the hands as JSON in ``<script type="application/json"
id="studbook-replay">``; docs/replay.md documents the JSON. Nothing is fetched:
no network, no CDN.
"""

from __future__ import annotations

import json
from decimal import Decimal
from importlib.resources import files
from typing import Any, Iterable

from studbook.cards import Card
from studbook.money import Money, exact
from studbook.engine.messages import violation_record
from studbook.engine.snapshot import SeatView, Snapshot, Words, written
from studbook.events import (
    BettingCapped, DealCommunity, NoLowHand, Note, OpenPairNotice, PotSummary, SeatSummary, ShowdownStart, StreetStart,
)

from . import Replay
from .steps import Step, StepKind
from .text import pot_name

FORMAT_VERSION = 2  # 2: a step is what a player steps through (view/steps.py), words with amounts apart


def _text(name: str) -> str:
    return files("studbook.view").joinpath("static", name).read_text(encoding="utf-8")


def _dec(value: Money) -> str:
    """An exact amount as plain decimal text ("10", not "1E+1"; an int's as a Decimal's)."""
    return format(exact(value), "f")


def _card(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _cards(seat: SeatView) -> list[dict[str, Any]]:
    return [{"card": _card(c.card), "up": c.up} for c in seat.cards]


def words_data(words: Words) -> list[Any]:
    """Words for the page: text as strings, each amount as ``[amount]`` (the page writes it in big bets or not)."""
    return [[_dec(w)] if isinstance(w, (Decimal, int)) else w for w in words]


_LOG_CLASS = {StreetStart: "street", ShowdownStart: "street", SeatSummary: "summary", PotSummary: "summary",
              Note: "note", BettingCapped: "note", OpenPairNotice: "note", NoLowHand: "note"}


def _log(step: Step) -> list[dict[str, Any]]:
    """The step's lines of the log: a deal and the antes as their headline, each other event as itself."""
    if step.kind in (StepKind.ANTES, StepKind.DEAL):
        actor, said = step.headline
        out = [{"actor": actor, "words": words_data(said), "class": "street" if step.kind is StepKind.DEAL else ""}]
        return out + [_log_line(s) for s in step.events if isinstance(s.event, DealCommunity)]
    return [_log_line(s) for s in step.events]


def _log_line(snap: Snapshot) -> dict[str, Any]:
    return {"actor": snap.actor, "words": words_data(snap.words), "class": _LOG_CLASS.get(type(snap.event), "")}


def step_data(step: Step) -> dict[str, Any]:
    """One step of the page's JSON (see docs/replay.md)."""
    snap = step.snapshot
    dealt = [s for s in snap.seats if s.dealt_in]
    actor, said = step.headline
    main = next((s.event for s in step.events if not isinstance(s.event, DealCommunity)), None)
    return {
        "kind": step.kind.value,
        "label": step.label,
        "lines": sorted(set(step.lines)),
        "starts_street": step.starts_street,
        "street": int(snap.street) if snap.street is not None else None,
        "line": step.events[-1].line if step.events else 0,
        "event": type(main).__name__ if main is not None else None,
        "actor": actor,
        "words": words_data(said),
        "action": written(said),
        "log": _log(step),
        "amount": _dec(snap.amount) if snap.amount is not None else None,
        "pot": _dec(snap.pot),
        "pot_label": step.pot_label,
        "pots": [{"name": pot_name(p.index, len(snap.pots)), "amount": _dec(p.amount), "eligible": list(p.eligible)}
                 for p in snap.pots],
        "stacks": {s.name: _dec(s.stack) for s in dealt},
        "in_front": {s.name: _dec(s.in_front) for s in dealt if s.in_front},
        "folded": [s.name for s in dealt if s.folded],
        "all_in": [s.name for s in dealt if s.all_in],
        "to_act": snap.to_act,
        "cards": {s.name: _cards(s) for s in dealt},
        "community": _card(snap.community),
        "violations": [violation_record(v) for v in step.violations],
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
        "steps": [step_data(s) for s in replay.steps],
        "award_step": replay.award,
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


__all__ = ["FORMAT_VERSION", "hand_data", "page", "page_data", "step_data", "words_data"]
