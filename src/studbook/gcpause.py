"""Pausing the cyclic garbage collector around bulk work on hands."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC for the block (a no-op when it is already off).

    Parsing, checking and unpickling a file make thousands of small acyclic
    objects (events, tuples, engine state) that reference counting frees on
    its own; each collection they trigger would rescan every hand the caller
    holds (a fifth to a third of the time in bulk runs). No user code runs
    inside these blocks, so nothing that needs the collector waits on it.
    """
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
