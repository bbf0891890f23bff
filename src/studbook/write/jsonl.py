"""``--format jsonl``: one JSON object a hand, with its header, seats and events
(each event with its ``type``, ``file`` and ``line``); amounts are exact decimal
strings, cards their text."""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from datetime import datetime
from decimal import Decimal
from enum import Enum
from typing import Any

from studbook.cards import Card
from studbook.events import Hand, money_fields
from studbook.write import HandOut, HandWriter, register


def plain(value: Any, money: bool = False) -> Any:
    """A value as JSON holds it: amounts as exact decimal strings (``money``: an int is chips,
    :func:`~studbook.events.money_fields`), cards as text."""
    if money and value.__class__ is int:
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (Decimal, Card)):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (tuple, list)):
        return [plain(v, money) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        amounts = money_fields(type(value))
        return {f.name: plain(getattr(value, f.name), f.name in amounts) for f in fields(value)}
    return value


def hand_record(hand: Hand) -> dict[str, Any]:
    """One hand as a JSON object: where it came from, its header, seats and events
    (each event with its ``type``, ``file`` and ``line``)."""
    return {
        "site": hand.site, "hand_id": hand.hand_id, "file": hand.file, "line": hand.line,
        "end_line": hand.end_line, "header": plain(hand.header),
        "seats": [plain(s) for s in hand.seats],
        "events": [{"type": type(e).__name__, **plain(e)} for e in hand.events],
    }


def render(hand: HandOut) -> str:
    assert hand.hand is not None  # wants_hand
    return json.dumps(hand_record(hand.hand), ensure_ascii=False) + "\n"


WRITER = register(HandWriter("jsonl", "JSON lines", render))

__all__ = ["WRITER", "hand_record", "plain"]
