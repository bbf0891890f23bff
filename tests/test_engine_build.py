"""A small builder of hand-built event streams for engine tests (and its own tests).

Each method appends one event on the next line and returns that line, so a
test can assert the line a violation names.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Iterable

import pytest

from studbook.cards import Card, parse_cards
from studbook.check import check_hand
from studbook.engine.result import HandCheck
from studbook.engine.state import StudState
from studbook.events import (
    Action, ActionKind, Collect, Deal, DealCommunity, Event, Hand, HandHeader, Muck, PostAnte,
    PotSummary, Seat, Show, ShowdownStart, Stakes, Street, StreetStart, Structure,
    UncalledReturned, Variant,
)
from samples import CORPUS

D = Decimal
K = ActionKind
STARS = CORPUS / "PokerStars"


def need_corpus() -> None:
    if not STARS.is_dir():
        pytest.skip(f"real corpus not found at {STARS}")


def corpus_text(name: str) -> str:
    """A PokerStars corpus file as decoded text (LF newlines), read at test time."""
    need_corpus()
    data = (STARS / name).read_bytes()
    return data.decode("utf-8-sig").replace("\r\n", "\n")


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


class HandBuilder:
    def __init__(
        self,
        variant: str = "stud",
        seats: Iterable[tuple[int, str, str]] = ((1, "A", "100"), (2, "B", "100"), (3, "C", "100")),
        small: str = "2",
        big: str = "4",
        ante: str | None = "0.5",
        bring_in: str | None = "1",
        structure: Structure = Structure.FIXED,
        site: str = "test",
        hand_id: str = "1",
        table: str = "T",
    ) -> None:
        self.stakes = Stakes(D(small), D(big), D(ante) if ante is not None else None,
                             D(bring_in) if bring_in is not None else None)
        self.header = HandHeader(site=site, hand_id=hand_id, variant=Variant(variant), structure=structure,
                                 game=variant, stakes=self.stakes, currency=None, table=table)
        self.line = 2
        self.seats: list[Seat] = []
        for seat, name, stack in seats:
            self.seats.append(Seat(file="t", line=self.line, seat=seat, player=name, stack=D(stack)))
            self.line += 1
        self.events: list[Event] = []

    def _add(self, event: Event) -> int:
        self.events.append(event)
        return event.line

    def _next(self) -> int:
        self.line += 1
        return self.line

    def antes(self, amount: str | None = None) -> int:
        first = 0
        for s in self.seats:
            a = D(amount) if amount is not None else self.stakes.ante or D(0)
            a = min(a, s.stack)
            line = self._add(PostAnte(file="t", line=self._next(), player=s.player, amount=a, all_in=a == s.stack))
            first = first or line
        return first

    def ante(self, player: str, amount: str, all_in: bool = False) -> int:
        return self._add(PostAnte(file="t", line=self._next(), player=player, amount=D(amount), all_in=all_in))

    def street(self, street: int) -> int:
        return self._add(StreetStart(file="t", line=self._next(), street=Street(street)))

    def deal(self, player: str, up: str = "", down: str = "", street: int | None = None) -> int:
        s = Street(street) if street is not None else self._current_street()
        return self._add(Deal(file="t", line=self._next(), player=player, street=s, up=cards(up), down=cards(down)))

    def _current_street(self) -> Street:
        for e in reversed(self.events):
            if isinstance(e, StreetStart):
                return e.street
        return Street.THIRD

    def community(self, card: str) -> int:
        return self._add(DealCommunity(file="t", line=self._next(), card=Card.parse(card)))

    def act(self, player: str, kind: str, amount: str | None = None, to: str | None = None, all_in: bool = False) -> int:
        return self._add(Action(file="t", line=self._next(), player=player, kind=ActionKind(kind),
                                amount=D(amount) if amount is not None else None,
                                to=D(to) if to is not None else None, all_in=all_in))

    def uncalled(self, player: str, amount: str) -> int:
        return self._add(UncalledReturned(file="t", line=self._next(), player=player, amount=D(amount)))

    def showdown(self) -> int:
        return self._add(ShowdownStart(file="t", line=self._next()))

    def show(self, player: str, shown: str) -> int:
        return self._add(Show(file="t", line=self._next(), player=player, cards=cards(shown)))

    def muck(self, player: str) -> int:
        return self._add(Muck(file="t", line=self._next(), player=player))

    def collect(self, player: str, amount: str, pot: int = 0) -> int:
        return self._add(Collect(file="t", line=self._next(), player=player, amount=D(amount), pot=pot))

    def summary(self, total: str, rake: str = "0", pots: Iterable[str] = ()) -> int:
        return self._add(PotSummary(file="t", line=self._next(), total=D(total), rake=D(rake),
                                    pots=tuple(D(p) for p in pots)))

    def hand(self) -> Hand:
        return Hand(file="t", line=1, end_line=self.line + 1, header=self.header, seats=tuple(self.seats),
                    events=tuple(self.events))

    def check(self) -> HandCheck:
        return check_hand(self.hand())

    def partial(self) -> list[tuple[str, int]]:
        """Violations of an unfinished hand: the events so far, without settling it."""
        state = StudState(self.header.variant, self.stakes, self.seats, None, self.header.structure)
        state.apply_all(self.events)
        return [(v.rule, v.line) for v in state.violations]


def rules(check: HandCheck) -> list[tuple[str, int]]:
    return [(v.rule, v.line) for v in check.violations]


def first(check: HandCheck) -> tuple[str, int]:
    assert check.violations, "expected a violation"
    v = check.violations[0]
    return (v.rule, v.line)


def third_street(doors: dict[str, str], stacks: dict[str, str] | None = None, **options: object) -> HandBuilder:
    """Players seated 1, 2, ... in the order of ``doors``, antes posted, 3rd street door cards dealt."""
    stacks = stacks or {}
    seats = tuple((i + 1, name, stacks.get(name, "100")) for i, name in enumerate(doors))
    h = HandBuilder(seats=seats, **options)  # type: ignore[arg-type]
    h.antes()
    h.street(3)
    for name, door in doors.items():
        h.deal(name, up=door)
    return h


def heads_up_stud(*, a_up: str = "Kh", b_up: str = "3c", **options: object) -> HandBuilder:
    """A and B antes and 3rd street dealt; B (lower door card) brings in."""
    return third_street({"A": a_up, "B": b_up}, **options)


def test_builder_builds_a_clean_hand() -> None:
    h = heads_up_stud()
    h.act("B", "bring_in", "1")
    h.act("A", "fold")
    h.uncalled("B", "1")
    h.collect("B", "1")
    h.summary("1")
    check = h.check()
    assert check.violations == ()
    assert check.net == {"A": D("-0.5"), "B": D("0.5")}
