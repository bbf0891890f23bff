"""studbook: Seven-Card Stud hand histories.

    >>> import studbook
    >>> for result in studbook.parse_file("HH20110417.txt"):   # doctest: +SKIP
    ...     if isinstance(result, studbook.Hand):
    ...         print(result.hand_id, result.variant)

``parse_file`` / ``parse_text`` yield ``Hand | Skipped | Rejected``, one per
hand; ``parse_paths`` yields a per-file ``FileResult`` report. The event
types of :mod:`studbook.events` are re-exported here.

The later stages are reachable from here too, imported on first use so that
``import studbook`` stays light (``dir(studbook)`` lists them, so completion
finds them): ``check_hand`` / ``check_paths`` (:mod:`studbook.check`),
``load`` / ``Frames`` / ``NoHandHistories`` / ``SCHEMA`` / ``MONEY_SCALE``
(:mod:`studbook.frames`), ``replay`` (:mod:`studbook.view`: a snapshot of the
table after every event), ``describe_rule`` / ``rule_table`` (what each rule
id means, :mod:`studbook.rulebook`), ``to_dask`` (:mod:`studbook.scale`).

    >>> frames = studbook.load("histories")                  # doctest: +SKIP
    >>> frames.hand(frames.violations.iloc[0])               # the replayer, in Jupyter  # doctest: +SKIP
"""

from __future__ import annotations

from studbook import classcode

classcode.install()  # before any of the package's dataclasses is made

from studbook.events import *  # noqa: F403 - the event model is part of the public API
from studbook.events import __all__ as _event_names
from studbook.parse import FileResult, ParseError, parse_file, parse_paths, parse_text, read_file

__version__ = "0.1.0"

_LAZY = {
    "check_hand": ("studbook.check", "check_hand"),
    "check_paths": ("studbook.check", "check_paths"),
    "load": ("studbook.frames", "load"),
    "Frames": ("studbook.frames", "Frames"),
    "NoHandHistories": ("studbook.frames", "NoHandHistories"),
    "SCHEMA": ("studbook.frames", "SCHEMA"),
    "MONEY_SCALE": ("studbook.frames", "MONEY_SCALE"),
    "HandView": ("studbook.display", "HandView"),
    "replay": ("studbook.view", "replay"),
    "describe_rule": ("studbook.rulebook", "describe"),
    "rule_table": ("studbook.rulebook", "rule_table"),
    "to_dask": ("studbook.scale", "to_dask"),
}


def __getattr__(name: str) -> object:
    found = _LAZY.get(name)
    if found is None:
        raise AttributeError(f"module 'studbook' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(found[0]), found[1])


def __dir__() -> list[str]:
    # the lazy names too, so that completion (studbook.lo<TAB>) finds them
    return sorted({*globals(), *_LAZY})


__all__ = [
    *_event_names, "FileResult", "ParseError", "parse_file", "parse_paths", "parse_text",
    "read_file", "__version__", *_LAZY,
]
