"""The tests cannot fail at random: a test's outcome is its code's behaviour, not the
machine's load (CI runs the whole suite on two shared cores; a red run must mean a
change in the code).

Hypothesis fails an example that takes over its ``deadline`` (200 ms unless told),
so a property test fails when the machine is busy: the profiles (``budget.py``) set
none, and no test sets one back. The waits on other processes and on a browser are
event-driven, with deadlines that only bound a failure (see ``test_replay_terminal``,
``test_replay_browser``'s play and pause, ``test_scale``'s workers); issue 34's round
of 2026-12-04 ran the timing-sensitive files under load (docs/performance-34.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import budget  # noqa: F401 - the profiles, as conftest loads them
from hypothesis import settings

TESTS = Path(__file__).resolve().parent
A_DEADLINE = re.compile(r"\bdeadline=(?!None\b)")


def test_property_tests_have_no_deadline() -> None:
    assert settings.default.deadline is None
    assert settings.get_profile("repeatable").deadline is None
    assert settings.get_profile("explore").deadline is None


def test_no_property_test_sets_a_deadline() -> None:
    found = [f"{path.name}:{number}" for path in sorted(TESTS.glob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if A_DEADLINE.search(line) and path != Path(__file__).resolve()]  # fmt: skip
    assert found == []
