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

# No deadline: hypothesis's default fails an example that takes over 200 ms, which on a
# loaded machine says how busy it was, not what the code did (a test that means to time
# something says so). Both profiles, so a test without settings of its own has none either.
settings.register_profile("repeatable", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, print_blob=True, deadline=None)
settings.load_profile("explore" if SCALE > 0 else "repeatable")


def examples(count: int) -> int:
    """``count`` examples, times the ``STUDBOOK_FUZZ`` scale when exploring."""
    return count * max(SCALE, 1)
