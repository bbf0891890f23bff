"""The methods ``dataclasses`` writes for studbook's classes, compiled once and kept.

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``,
``__hash__`` and (frozen) ``__setattr__`` as Python source and hands it to
``exec``, which parses and compiles it: for studbook's fifty-odd classes that
was about a third of a one-hand ``studbook check`` process (some 200 M
instructions). The source is the same every run, so the compiled code is kept
in a :class:`~studbook.diskmemo.DiskMemo` (named by the interpreter's
version, as code objects are) and read back by later processes.

:func:`install` puts :func:`_exec` in ``dataclasses``'s namespace, where it is
found before the built-in ``exec``. It compiles as ``exec`` would from there
(``dataclasses`` has no ``__future__`` import, hence ``dont_inherit``) and runs
the code the same way, so the classes are the same; only classes of studbook's
own modules have their code kept (others are compiled as before), so the memo
holds what this package's source makes and nothing else.
"""

import builtins
import dataclasses
import sys
from types import CodeType
from typing import Any

from studbook.diskmemo import DiskMemo

_KEPT = DiskMemo("dataclass-code")
_PACKAGE = __name__.split(".")[0] + "."


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:  # noqa: A002 - exec's own names
    if globals is None:  # exec's default: the caller's namespaces
        caller = sys._getframe(1)
        globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
    if isinstance(source, str):
        source = _compiled(source, str(globals.get("__name__", "")).startswith(_PACKAGE))
    builtins.exec(source, globals, locals)


def _compiled(source: str, keep: bool) -> CodeType:
    def compile_it() -> CodeType:
        return compile(source, "<string>", "exec", dont_inherit=True)

    return _KEPT.get(source, compile_it) if keep else compile_it()


def run(source: str, namespace: dict[str, Any]) -> None:
    """``exec(source, namespace)`` for code the package writes for itself at import
    (:mod:`studbook.records`' makers), its compiled form kept like the dataclasses'."""
    builtins.exec(_compiled(source, True), namespace)


def install() -> None:
    """Keep the compiled methods of the dataclasses defined from now on (once per process)."""
    if getattr(dataclasses, "exec", None) is None:
        setattr(dataclasses, "exec", _exec)  # noqa: B010 - a module global, looked up before the built-in


__all__ = ["install", "run"]
