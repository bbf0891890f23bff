"""Fast construction of the frozen event dataclasses.

A frozen dataclass's ``__init__`` stores each field through
``object.__setattr__`` with keyword arguments; a parser makes about forty
events a hand, and that alone would cost a third of the parse time. A
*maker* stores the fields through the class's slot descriptors instead, with
positional arguments in field order. The result is indistinguishable from
the constructor's (same type, fields, equality, hash); classes with a
``__post_init__`` or without slots get their ordinary constructor.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def maker(cls: type[T]) -> Callable[..., T]:
    """A function ``make(*values)`` taking every field of ``cls`` in order."""
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__") or not hasattr(cls, "__slots__"):
        return lambda *values: cls(**dict(zip(names, values)))
    setters = {f"_set_{i}": getattr(cls, name).__set__ for i, name in enumerate(names)}
    args = ", ".join(f"v{i}" for i in range(len(names)))
    body = "".join(f"    _set_{i}(o, v{i})\n" for i in range(len(names)))
    source = f"def make({args}):\n    o = _new(_cls)\n{body}    return o\n"
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls, **setters}
    exec(source, scope)  # noqa: S102 - generated from the dataclass's own field names
    make: Callable[..., T] = scope["make"]
    make.__doc__ = f"Make a {cls.__name__} from ({', '.join(names)})."
    return make


__all__ = ["maker"]
