"""Counts in words: the one place a noun takes its plural in the messages,
and a place its ordinal suffix."""

from __future__ import annotations


def counted(count: int, singular: str, plural: str | None = None, *, grouped: bool = False) -> str:
    """``count`` and the noun it counts, singular for one: ``counted(1, "hand")`` is
    '1 hand', ``counted(2, "hand with violations", "hands with violations")`` is
    '2 hands with violations' (the plural defaults to the singular and an 's');
    ``grouped`` writes thousands separators (1,000)."""
    number = f"{count:,}" if grouped else str(count)
    return f"{number} {singular if count == 1 else plural or singular + 's'}"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``: a finishing place as written."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


__all__ = ["counted", "ordinal"]
