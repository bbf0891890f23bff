"""studbook: Seven-Card Stud hand histories.

    >>> import studbook
    >>> for result in studbook.parse_file("HH20110417.txt"):   # doctest: +SKIP
    ...     if isinstance(result, studbook.Hand):
    ...         print(result.hand_id, result.variant)

``parse_file`` / ``parse_text`` yield ``Hand | Skipped | Rejected``, one per
hand; ``parse_paths`` yields a per-file ``FileResult`` report. The event
types of :mod:`studbook.events` are re-exported here.

The later stages are reachable from here too, imported on first use so that
``import studbook`` stays light: ``check_hand`` / ``check_paths``
(:mod:`studbook.check`), ``load`` / ``Frames`` (:mod:`studbook.frames`),
``replay`` (:mod:`studbook.view`: a snapshot of the table after every event).
"""

from __future__ import annotations

from studbook.events import *  # noqa: F403 - the event model is part of the public API
from studbook.events import __all__ as _event_names
from studbook.parse import FileResult, ParseError, parse_file, parse_paths, parse_text, read_file

__version__ = "0.1.0"

_LAZY = {
    "check_hand": "studbook.check",
    "check_paths": "studbook.check",
    "load": "studbook.frames",
    "Frames": "studbook.frames",
    "replay": "studbook.view",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'studbook' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    *_event_names, "FileResult", "ParseError", "parse_file", "parse_paths", "parse_text",
    "read_file", "__version__", *_LAZY,
]
