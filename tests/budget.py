"""How hard the property tests search.

``make test`` (and CI) is repeatable: each property test draws the same
examples on every run (hypothesis's ``derandomize``), so a red run is a change
in the code, never a new random draw. ``make fuzz`` sets ``STUDBOOK_FUZZ=N``:
N times as many examples, from fresh random seeds, to find new failures; a
failure it finds becomes a fixed test before the fix lands.
"""

from __future__ import annotations

import os

from hypothesis import settings

SCALE = int(os.environ.get("STUDBOOK_FUZZ") or 0)

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile("explore" if SCALE > 0 else "repeatable")


def examples(count: int) -> int:
    """``count`` examples, times the ``STUDBOOK_FUZZ`` scale when exploring."""
    return count * max(SCALE, 1)
