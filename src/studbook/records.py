"""Fast construction of frozen dataclasses: events, and the engine's results.

A frozen dataclass's ``__init__`` stores each field through
``object.__setattr__`` with keyword arguments; a parser makes about fifty
events a hand and the engine a result per player, and that alone would cost
a third of the parse time. A *maker* takes every field positionally, in
field order, and fills a *draft* instead: an instance of a mutable subclass
that adds no slots (so it has exactly the class's layout), whose plain
attribute stores Python runs cheaply, then turns the draft into the real
class by assigning its ``__class__`` (which Python allows between classes of
the same layout). The result is indistinguishable from the constructor's
(same type, fields, equality, hash). Should a class not allow that, the maker
stores the fields through the class's slot descriptors; classes with a
``__post_init__`` or without slots get their ordinary constructor.

The draft is a subclass rather than a sibling (the class's own base and
slots) because Python's layout check on the assignment is then a walk up one
base instead of comparing two classes' slot tuples: about 500 instructions
against 660 (3.11; the maker whole, 1.57 k against 1.73 k for five fields,
``docs/performance-34.md``, i34k).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from studbook.classcode import run

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T", bound="DataclassInstance")


def maker(cls: type[T]) -> Callable[..., T]:
    """A function ``make(*values)`` taking every field of ``cls`` in order.

    Give the result its signature where it is defined, ``make_note:
    Callable[[str, int, str], Note] = maker(Note)``, so mypy checks every
    positional call; ``tests/test_records.py`` holds each annotation to its
    class's fields, in order and type. Trailing fields with a default may be
    left out of the annotation and the calls (a field added to a class that
    many readers make), and then take their default."""
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    if hasattr(cls, "__post_init__") or not hasattr(cls, "__slots__"):
        return lambda *values: cls(**dict(zip(names, values)))
    defaults: dict[str, Any] = {}
    for i in range(len(fields) - 1, -1, -1):  # the trailing run of fields with a plain default
        if fields[i].default is dataclasses.MISSING:
            break
        defaults[f"_d{i}"] = fields[i].default
    make = _draft_maker(cls, names, defaults) or _slot_maker(cls, names, defaults)
    make.__doc__ = f"Make a {cls.__name__} from ({', '.join(names)})."
    return make


def _draft_maker(cls: type[T], names: list[str], defaults: dict[str, Any]) -> Callable[..., T] | None:
    """``make`` filling a draft of ``cls``; None when ``cls`` cannot take one."""
    slots = cls.__dict__.get("__slots__")
    if slots is None or any(name.startswith("__") for name in names):
        return None  # private names are mangled in a class body, not in ``make``
    # object's own methods, so that the draft's stores are plain slot stores
    namespace = {"__slots__": (), "__init__": object.__init__,
                 "__setattr__": object.__setattr__, "__delattr__": object.__delattr__}  # fmt: skip
    draft = type(f"{cls.__name__}Draft", (cls,), namespace)
    body = "".join(f"    o.{name} = v{i}\n" for i, name in enumerate(names))
    make = _compile(names, f"    o = _draft()\n{body}    o.__class__ = _cls\n", {"_draft": draft, "_cls": cls}, defaults)
    try:
        made = make(*[None] * len(names))
    except TypeError:  # a layout or class that refuses the assignment
        return None
    return make if type(made) is cls else None


def _slot_maker(cls: type[T], names: list[str], defaults: dict[str, Any]) -> Callable[..., T]:
    """``make`` storing each field through the class's slot descriptors."""
    setters = {f"_set_{i}": getattr(cls, name).__set__ for i, name in enumerate(names)}
    body = "".join(f"    _set_{i}(o, v{i})\n" for i in range(len(names)))
    return _compile(names, f"    o = _new(_cls)\n{body}", {"_new": object.__new__, "_cls": cls, **setters}, defaults)


def _compile(names: list[str], body: str, scope: dict[str, Any], defaults: dict[str, Any]) -> Callable[..., Any]:
    args = ", ".join(f"v{i}=_d{i}" if f"_d{i}" in defaults else f"v{i}" for i in range(len(names)))
    scope.update(defaults)
    run(f"def make({args}):\n{body}    return o\n", scope)  # from the dataclass's own field names
    make: Callable[..., Any] = scope["make"]
    return make


__all__ = ["maker"]
