"""The steps a player recognises, from the replay's snapshots (one per event).

A step is what one click of "next" shows: the antes (all of them), a street's
deal (the street's marker and every card dealt on it, so "next street" lands
with the cards on the table), one action, one show or muck, one collection,
and last the result. Lines that change nothing on the table (the site's notes,
"betting is capped", the summary lines) are not steps: they belong to the step
before them (the summary lines to the result) and show in its log.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from typing import Sequence

from studbook.engine.result import Violation
from studbook.money import Money
from studbook.engine.snapshot import Snapshot, Words
from studbook.events import (
    Action, Collect, Deal, DealCommunity, Muck, NoShow, PostAnte, PotSummary, SeatSummary, Show, ShowdownStart,
    Street, StreetStart, UncalledReturned,
)

ZERO = Decimal(0)


class StepKind(str, Enum):
    START = "start"  # the seats and stacks, before the antes
    ANTES = "antes"
    DEAL = "deal"  # a street begins and its cards are dealt
    ACTION = "action"  # one betting action
    UNCALLED = "uncalled"  # an uncalled bet goes back
    SHOWDOWN = "showdown"  # one hand shown, mucked or kept
    AWARD = "award"  # one collection from a pot
    RESULT = "result"  # who won which pot, with the hands; the summary lines


_KIND = {
    PostAnte: StepKind.ANTES, StreetStart: StepKind.DEAL, Deal: StepKind.DEAL, DealCommunity: StepKind.DEAL,
    Action: StepKind.ACTION, UncalledReturned: StepKind.UNCALLED, Show: StepKind.SHOWDOWN,
    Muck: StepKind.SHOWDOWN, NoShow: StepKind.SHOWDOWN, Collect: StepKind.AWARD,
}
_SUMMARY = (SeatSummary, PotSummary)
_JOINS = {StepKind.ANTES: (PostAnte,), StepKind.DEAL: (Deal, DealCommunity)}  # events that add to such a step


@dataclass(frozen=True, slots=True)
class Step:
    """One step: the table at its end and the events it covers (its lines of the log)."""

    index: int
    kind: StepKind
    label: str  # "3rd street · action 4 of 12"
    snapshot: Snapshot  # the table once the step's events are applied
    events: tuple[Snapshot, ...]  # a snapshot per event covered, in log order (empty: the start)
    pot_label: str  # "pot", or "rake" for what stays in the middle after the last collection

    @property
    def street(self) -> Street | None:
        return self.snapshot.street

    @property
    def lines(self) -> tuple[int, ...]:
        return tuple(s.line for s in self.events)

    @property
    def violations(self) -> tuple[Violation, ...]:
        return tuple(v for s in self.events for v in s.violations)

    @property
    def headline(self) -> tuple[str | None, Words]:
        """Who did what at this step, in a few words: "Bob", ("calls ", 0.04); a deal, the antes
        and the result in the table's words."""
        if self.kind is StepKind.ANTES:
            return None, (f"{len(self.events)} antes posted",)
        if self.kind is StepKind.DEAL:
            return None, (f"{street_name(self.street)}: the cards are dealt",)
        if self.kind is StepKind.RESULT:
            return None, ("the result",)
        if self.kind is StepKind.START:
            return None, ("the players take their seats",)
        main = next((s for s in self.events if not isinstance(s.event, ShowdownStart)), self.events[-1])
        return main.actor, main.words

    @property
    def starts_street(self) -> bool:
        """Where "next street" lands: a street's deal, the showdown, the result."""
        return self.kind in (StepKind.DEAL, StepKind.RESULT) or any(
            isinstance(s.event, ShowdownStart) for s in self.events)


def group(snapshots: Sequence[Snapshot], stated_rake: Money | None = None) -> tuple[Step, ...]:
    """The steps of a replay's ``snapshots`` (the first: before any event)."""
    groups: list[tuple[StepKind, list[Snapshot]]] = [(StepKind.START, [])]
    summary: list[Snapshot] = []
    marker: list[Snapshot] = []  # "showdown": the first step of it carries it
    for snap in snapshots[1:]:
        event = snap.event
        kind = _KIND.get(type(event))
        last_kind, last = groups[-1]
        if isinstance(event, ShowdownStart):
            marker.append(snap)
        elif isinstance(event, _SUMMARY) or (kind is None and summary):
            summary.append(snap)
        elif kind is None:
            last.append(snap)  # a note: shown in the log of the step it follows
        elif kind is last_kind and isinstance(event, _JOINS.get(kind, ())) and not marker:
            last.append(snap)
        else:
            groups.append((kind, marker + [snap]))
            marker = []
    if marker:
        groups.append((StepKind.SHOWDOWN, marker))
    groups.append((StepKind.RESULT, summary))
    return _steps(groups, snapshots, stated_rake)


def _steps(groups: list[tuple[StepKind, list[Snapshot]]], snapshots: Sequence[Snapshot],
           stated_rake: Money | None) -> tuple[Step, ...]:
    actions: dict[Street | None, int] = {}
    for kind, events in groups:
        if kind is StepKind.ACTION:
            street = events[-1].street
            actions[street] = actions.get(street, 0) + 1
    last_award = max((i for i, (kind, _) in enumerate(groups) if kind is StepKind.AWARD), default=None)
    out: list[Step] = []
    seen: dict[Street | None, int] = {}
    table = snapshots[0]
    for index, (kind, events) in enumerate(groups):
        if kind is StepKind.RESULT:
            table = snapshots[-1]  # every event applied, a summary line out of its place too
        elif events:
            table = events[-1]
        street = table.street
        if kind is StepKind.ACTION:
            seen[street] = seen.get(street, 0) + 1
        label = _label(kind, street, seen.get(street, 0), actions.get(street, 0))
        after = last_award is not None and index >= last_award
        out.append(Step(index, kind, label, table, tuple(events), _pot_label(table.pot, after, stated_rake)))
    return tuple(out)


def _label(kind: StepKind, street: Street | None, number: int, count: int) -> str:
    name = street_name(street)
    if kind is StepKind.START:
        return "before the deal"
    if kind is StepKind.ANTES:
        return "antes"
    if kind is StepKind.DEAL:
        return f"{name} · the deal"
    if kind is StepKind.ACTION:
        return f"{name} · action {number} of {count}"
    if kind is StepKind.UNCALLED:
        return f"{name} · uncalled bet"
    if kind is StepKind.SHOWDOWN:
        return "showdown"
    if kind is StepKind.AWARD:
        return "the pot is awarded"
    return "result"


def street_name(street: Street | None) -> str:
    """``3rd street``, ``7th street (river)``; ``antes`` before the first street."""
    if street is None:
        return "antes"
    return f"{street.label} street" + (" (river)" if street is Street.SEVENTH else "")


def _pot_label(pot: Money, after_award: bool, stated_rake: Money | None) -> str:
    """What the chips in the middle are: the pot, or once every pot is collected, the rake."""
    if not after_award or pot <= ZERO:
        return "pot"
    return "rake" if stated_rake is None or stated_rake == pot else "not collected"


__all__ = ["Step", "StepKind", "group", "street_name"]
