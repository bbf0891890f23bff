"""The positional makers (``studbook.records.maker``) are typed per class: each
maker's annotation lists its dataclass's fields, in order and type, so mypy
checks every positional call; and a maker builds what the constructor builds."""

from __future__ import annotations

import dataclasses
import pickle
import types
import typing
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import studbook.engine.pots as pots
import studbook.engine.result as result
import studbook.engine.snapshot as snapshot
import studbook.read.split as split
import studbook.sites.makers as makers

MODULES = (makers, pots, result, snapshot, split)


def _makers(module: types.ModuleType) -> list[tuple[str, Any, Any]]:
    """(name, annotation, value) of each module-level maker."""
    hints = typing.get_type_hints(module)
    found = [(name, hints.get(name), value) for name, value in vars(module).items()
             if callable(value) and (value.__doc__ or "").startswith("Make a ")]
    return found


ALL = [(module.__name__, *found) for module in MODULES for found in _makers(module)]


def test_every_maker_is_found() -> None:
    assert len([m for m in ALL if m[0] == makers.__name__]) == len(makers.__all__)
    assert {m[1] for m in ALL if m[0] != makers.__name__} == {
        "new_player_result", "new_pot_award", "new_hand_check", "new_violation", "new_action_facts", "_new_seat",
        "new_pot", "_hand_text"}


@pytest.mark.parametrize("module, name, hint, make", ALL, ids=[f"{m}.{n}" for m, n, _, _ in ALL])
def test_a_makers_signature_is_its_dataclass_fields_in_order(module: str, name: str, hint: Any,
                                                             make: Callable[..., Any]) -> None:
    assert hint is not None, f"{module}.{name} has no annotation: mypy cannot check its calls"
    assert typing.get_origin(hint) is typing.get_origin(Callable), hint
    params, made = typing.get_args(hint)
    assert dataclasses.is_dataclass(made), made
    every = dataclasses.fields(made)
    fields = every[:len(params)]  # trailing fields with a default may be left out
    assert all(f.default is not dataclasses.MISSING for f in every[len(params):]), name
    field_types = typing.get_type_hints(made)
    assert [_norm(p) for p in params] == [_norm(field_types[f.name]) for f in fields], (
        f"{name}: ({', '.join(f.name for f in fields)})")
    values = [_sample(field_types[f.name], i) for i, f in enumerate(fields)]
    built = make(*values)
    assert type(built) is made
    assert built == made(**{f.name: v for f, v in zip(fields, values)})
    assert make(*values, *[_sample(None, i) for i in range(len(params), len(every))]) == made(
        **{f.name: _sample(None, i) if i >= len(params) else values[i] for i, f in enumerate(every)})


def _norm(tp: Any) -> Any:
    """``X | None`` and ``Optional[X]`` alike."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return frozenset(_norm(a) for a in typing.get_args(tp))
    return tp


def _sample(tp: Any, index: int) -> Any:
    """A distinct value (only equality matters: the maker stores, never checks)."""
    return ("value", index)


MADE = [(name, typing.get_args(hint)[1], make) for _, name, hint, make in ALL]
_VALUE = st.recursive(st.none() | st.integers() | st.text(max_size=5), lambda inner: st.tuples(inner, inner), max_leaves=4)


@pytest.mark.parametrize("name, made, make", MADE, ids=[m[0] for m in MADE])
def test_a_makers_draft_is_a_slotless_subclass_of_its_class(name: str, made: type, make: Callable[..., Any]) -> None:
    """The draft adds no slots to the class it becomes, so Python's layout check on the ``__class__``
    assignment walks one base instead of comparing two classes' slot tuples (i34k: 500 instructions
    against 660 a make); a sibling draft (the class's base, its slots) was the dearer mechanism."""
    draft = make.__globals__["_draft"]
    assert draft.__bases__ == (made,) and draft.__slots__ == ()
    assert draft.__basicsize__ == made.__basicsize__  # type: ignore[attr-defined]
    assert made.__init__ is not object.__init__ and draft.__init__ is object.__init__  # type: ignore[misc]


@pytest.mark.parametrize("name, made, make", MADE, ids=[m[0] for m in MADE])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_made_object_is_the_constructors(name: str, made: type, make: Callable[..., Any], data: st.DataObject) -> None:
    """Same type, fields, equality, hash, frozenness, pickling and ``dataclasses.replace``."""
    fields = dataclasses.fields(made)
    values = [data.draw(_VALUE) for _ in fields]
    built = make(*values)
    expected = made(**{f.name: v for f, v in zip(fields, values)})
    assert type(built) is made and built == expected and hash(built) == hash(expected)
    assert [getattr(built, f.name) for f in fields] == values and not hasattr(built, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, fields[0].name, None)
    copied = pickle.loads(pickle.dumps(built))
    assert type(copied) is made and copied == expected
    other = data.draw(_VALUE)
    replaced = dataclasses.replace(built, **{fields[-1].name: other})  # type: ignore[type-var]
    assert type(replaced) is made and replaced == dataclasses.replace(expected, **{fields[-1].name: other})  # type: ignore[type-var]
