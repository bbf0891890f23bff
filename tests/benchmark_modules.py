"""The benchmarks of ``benchmarks/`` as modules, for the tests that run them on a few hands
so they cannot rot. ``benchmarks/`` is no package and its scripts import each other by name
(``bench_floor`` imports ``bench_store``): it is on ``sys.path`` while a test module uses one."""

from __future__ import annotations

import importlib
import sys
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Iterator

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@contextmanager
def benchmark(name: str) -> Iterator[ModuleType]:
    """The benchmark ``name`` (``bench_floor``, ``scale_run`` ...) imported, ``benchmarks/`` on
    the path until the block ends."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))
