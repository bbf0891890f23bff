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

import re
from pathlib import Path
from typing import Any

from studbook.diskmemo import DiskMemo

try:
    import _sre
    import re._compiler as _compiler
    import re._constants as OPS
    import re._parser as _parser
except ImportError:  # pragma: no cover - another Python implementation
    OPS = None
    _parser = None

# The compiled form of each regex, kept between processes: Python's regex
# compiler is Python code, and the scanners' alternations were most of a
# one-hand check's start-up. The interpreter's version is in the memo's name.
_CODES = DiskMemo("regex", Path(__file__))


def regex_items(pattern: str, flags: int = 0) -> list[tuple[Any, Any]] | None:
    """The top-level items of ``pattern`` as ``(opcode, argument)`` pairs (opcodes
    from :data:`OPS`), or None when they cannot be read."""
    if _parser is None:
        return None
    try:
        return list(_parser.parse(pattern, flags))
    except Exception:  # noqa: BLE001 - an optimisation only: the caller takes the plain path
        return None


def min_width(pattern: str) -> int | None:
    """The fewest characters a match of ``pattern`` takes, or None when unknown."""
    if _parser is None:
        return None
    try:
        return int(_parser.parse(pattern, 0).getwidth()[0])
    except Exception:  # noqa: BLE001 - an optimisation only
        return None


def no_newline(op: Any, arg: Any) -> bool:
    """True when the item can never match a newline (conservative)."""
    if op is OPS.LITERAL:
        return bool(arg != 10)
    if op is OPS.NOT_LITERAL:
        return bool(arg == 10)
    if op is OPS.ANY or op is OPS.AT or op is OPS.ASSERT or op is OPS.ASSERT_NOT:
        return True
    if op is OPS.IN:
        negated = bool(arg) and arg[0][0] is OPS.NEGATE
        if negated:
            return (OPS.LITERAL, 10) in arg
        return all(
            (kind is OPS.LITERAL and value != 10)
            or (kind is OPS.RANGE and not value[0] <= 10 <= value[1])
            or (kind is OPS.CATEGORY and value in (OPS.CATEGORY_DIGIT, OPS.CATEGORY_WORD))
            for kind, value in arg
        )
    if op in (OPS.MAX_REPEAT, OPS.MIN_REPEAT, OPS.POSSESSIVE_REPEAT):
        return all(no_newline(o, a) for o, a in arg[2])
    if op is OPS.SUBPATTERN:
        return not arg[1] and not arg[2] and all(no_newline(o, a) for o, a in arg[3])
    if op is OPS.BRANCH:
        return all(no_newline(o, a) for branch in arg[1] for o, a in branch)
    return False


def compiled(pattern: str) -> re.Pattern[str]:
    """``re.compile(pattern)``, from the code kept by an earlier process when
    there is one (as ``re.compile`` makes it: parse, code, ``_sre.compile``)."""
    if _parser is None:
        return re.compile(pattern)
    try:
        flags, code, groups, groupindex, indexgroup = _CODES.get(str(pattern), lambda: _code_of(pattern))
        compiled: re.Pattern[str] = _sre.compile(pattern, flags, code, groups, groupindex, indexgroup)
        return compiled
    except Exception:  # noqa: BLE001 - internals of another shape: the plain path, same pattern
        return re.compile(pattern)


def _code_of(pattern: str) -> tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]:
    """What ``re._compiler.compile`` passes to ``_sre.compile``, besides the pattern."""
    parsed = _parser.parse(pattern, 0)
    state = parsed.state
    indexgroup: list[str | None] = [None] * state.groups
    for name, index in state.groupdict.items():
        indexgroup[index] = name
    code = [int(op) for op in _compiler._code(parsed, 0)]  # plain ints: marshal takes no int subclass
    return int(state.flags), code, state.groups - 1, dict(state.groupdict), tuple(indexgroup)


__all__ = ["OPS", "compiled", "min_width", "no_newline", "regex_items"]
