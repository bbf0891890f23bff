"""The one place that reads the structure of a regular expression.

The scanners (``read/grammar.py``) and the splitter (``read/split.py``) look
inside their regexes to skip work: a literal text every match must contain, a
literal prefix, whether a match stays within its line. Python has no public
API for that, so this module wraps CPython's ``re._parser`` and
``re._constants``. Every use is an optimisation: where the internals are
missing or change shape, :func:`regex_items` gives None and each caller falls
back to the plain, slower path with the same results.
"""

from __future__ import annotations

from typing import Any

try:
    import re._constants as OPS
    import re._parser as _parser
except ImportError:  # pragma: no cover - another Python implementation
    OPS = None  # type: ignore[assignment]
    _parser = None  # type: ignore[assignment]


def regex_items(pattern: str, flags: int = 0) -> list[tuple[Any, Any]] | None:
    """The top-level items of ``pattern`` as ``(opcode, argument)`` pairs (opcodes
    from :data:`OPS`), or None when they cannot be read."""
    if _parser is None:
        return None
    try:
        return list(_parser.parse(pattern, flags))
    except Exception:  # noqa: BLE001 - an optimisation only: the caller takes the plain path
        return None


__all__ = ["OPS", "regex_items"]
