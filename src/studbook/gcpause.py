"""Pausing the cyclic garbage collector around bulk work on hands.

Parsing, checking and unpickling a file make thousands of small acyclic
objects (events, tuples, engine state) that reference counting frees on its
own; each collection they trigger would rescan every hand the caller holds
(a fifth to a third of the time in bulk runs).

The mechanics only: the policy (when a run pauses and collects) is the
per-file loop's, :mod:`studbook.perfile`, the one module that imports this one.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Callable, Iterator

FILES_PER_COLLECTION = 16


@contextmanager
def gc_between_files(every: int = FILES_PER_COLLECTION) -> Iterator[Callable[[], None]]:
    """Pause the cyclic GC for a whole run over files; collect at file boundaries.

    For a command that handles each file's hands and lets them go before the
    next file. With a pause around each file alone, the file's hands
    are still alive when the collector comes back on, and its next pass
    traverses every one of them (about a fifth of a check run's time). Here
    the caller calls the yielded ``next_file()`` as it takes each file, the
    one before let go; every ``every`` files that runs a young collection,
    while only one file is alive, so garbage cycles (from rejected hands'
    exceptions, say) never pile up.
    """
    collecting = gc.isenabled()
    gc.disable()
    done = 0

    def next_file() -> None:
        nonlocal done
        done += 1
        if done % every == 0:
            gc.collect(1 if done % (every * 10) == 0 else 0)

    try:
        yield next_file
    finally:
        if collecting:
            gc.enable()


def collect_young() -> None:
    """A young collection while the collector is paused (it runs by itself otherwise)."""
    if not gc.isenabled():
        gc.collect(0)
