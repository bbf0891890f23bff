"""How the evaluators key five to seven cards, without numpy.

The scalar evaluators (:mod:`.scalar`) need only these and two lookups (kept
between processes, :mod:`studbook.diskmemo`), so a one-hand check does not
import numpy; :mod:`.tables` builds the lookups, with numpy, from the same keys.
"""

from __future__ import annotations

RANK_WEIGHT: tuple[int, ...] = tuple(0 if r < 2 else 1 << (3 * (r - 2)) for r in range(15))
SUIT_WEIGHT: dict[str, int] = {"c": 1, "d": 1 << 4, "h": 1 << 8, "s": 1 << 12}
# A suit nibble holds its card count; adding 3 sets bit 3 exactly when the count is >= 5.
FLUSH_ADD, FLUSH_TEST = 0x3333, 0x8888
LOW_BITS = 24  # a value fits in 4 + 20 bits: one dict holds both, halving its memory
LOW_MASK = (1 << LOW_BITS) - 1

__all__ = ["FLUSH_ADD", "FLUSH_TEST", "LOW_BITS", "LOW_MASK", "RANK_WEIGHT", "SUIT_WEIGHT"]
