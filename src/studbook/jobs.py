"""How many processes a command over files uses: the policy, apart from the pool.

``studbook check`` and ``studbook import`` decide their ``--jobs`` default
from the inputs' size and the free cores before they check anything; the
pool itself (:mod:`studbook.scale`, with pickle and multiprocessing) is
imported only when more than one process is used, so a small check does not
pay for it at start-up.
"""

from __future__ import annotations

import os
from typing import Iterable

PathLike = str | os.PathLike[str]


def resolve_jobs(jobs: int | None) -> int:
    """Worker processes for ``jobs``: None or 0 means one per available CPU."""
    if jobs is None or jobs == 0:
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if jobs < 0:
        raise ValueError(f"jobs must be 0 (all cores) or more, not {jobs}")
    return jobs


AUTO_BYTES = 64 << 20
"""Inputs smaller than this (in bytes of logs) are checked in one process when ``--jobs`` is not given."""
AUTO_PREPARED_FREE_CORES = 2
"""Processes pay off from this many free cores for :func:`studbook.scale.prepare_files` (``check`` and
``import``): what a worker sends back (each hand's output, or its rows) costs little to
move, and the calling process only prints or stores it (docs/scale.md, "Large archives").
(Whole checks, :func:`studbook.scale.check_files`, cost about half as much to move as to make.)"""


def auto_jobs(files: Iterable[PathLike], free_cores: int = AUTO_PREPARED_FREE_CORES) -> int:
    """The processes to use when the user did not say: one per free core (cores
    less the load average) for large inputs when that is ``free_cores`` or more,
    else 1. The output is the same either way."""
    if sum(file_size(str(f)) for f in files) < AUTO_BYTES:
        return 1
    try:
        busy = os.getloadavg()[0]
    except OSError:  # no load average on this system
        return 1
    free = int(resolve_jobs(0) - busy)
    return free if free >= free_cores else 1


def file_size(file: str) -> int:
    """The file's size in bytes; 0 when it cannot be read (the reading reports that)."""
    try:
        return os.path.getsize(file)
    except OSError:
        return 0


__all__ = ["AUTO_BYTES", "AUTO_PREPARED_FREE_CORES", "PathLike", "auto_jobs", "file_size", "resolve_jobs"]
