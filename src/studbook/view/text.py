"""A hand for the terminal: ``studbook show`` (a block per street) and
``studbook replay --plain`` (one frame per event)."""

from __future__ import annotations

from decimal import Decimal
from typing import Iterator

from studbook.engine.messages import violation_text
from studbook.engine.snapshot import SeatView, Snapshot, Words, written
from studbook.events import (
    Action, BettingCapped, Collect, Deal, DealCommunity, Hand, Muck, NoLowHand, NoShow, Note, OpenPairNotice, PostAnte,
    Show, ShowdownStart, StreetStart, UncalledReturned,
)
from studbook.money import Money, exact, format_amount, hand_money, money_label

from . import PotResult, Replay
from .steps import Step, StepKind

ZERO = Decimal(0)


def money(value: Money, big_bet: Money | None = None) -> str:
    """An amount, or in big bets (``2.5 BB``) when ``big_bet`` is given."""
    if big_bet:
        return f"{(exact(value) / big_bet).quantize(Decimal('0.01')).normalize():f} BB"
    return format_amount(value)


def header(hand: Hand) -> str:
    h = hand.header
    stakes = f"{format_amount(h.stakes.small_bet)}/{format_amount(h.stakes.big_bet)}"
    if h.stakes.ante:
        stakes += f", ante {format_amount(h.stakes.ante)}"
    # what every figure below is in, by the one money rule (the log's currency, else the
    # site's known one, else 'unknown currency'; or tournament chips, play money)
    kind, known = hand_money(h.site, h.currency, tournament=h.tournament is not None, play_money=h.play_money)
    currency = f" {money_label(kind, known)}"
    table = f", table {h.table!r}" if h.table else ""
    return (f"{h.site} hand {hand.hand_id}: {h.game} ({h.variant.value}), {stakes}{currency}{table}"
            f"  [{hand.file}:{hand.line}]")


def board(seat: SeatView) -> str:
    """``[?? ??] 9h 3d [??]``: down cards in brackets, up cards bare."""
    parts: list[str] = []
    for i, card in enumerate(seat.cards):
        text = card.text
        if not card.up:
            if i == 1 and not seat.cards[0].up:
                parts[-1] = parts[-1][:-1] + " " + text + "]"
                continue
            text = f"[{text}]"
        parts.append(text)
    return " ".join(parts)


def _seat_label(seat: SeatView, width: int) -> str:
    mark = "*" if seat.hero else " "
    return f"{seat.name:<{width}}{mark}"


def _violations(snap: Snapshot, indent: str = "  ") -> list[str]:
    return [f"{indent}!! line {v.line}: {violation_text(v)}" for v in snap.violations]


def show_lines(replay: Replay, big_bets: bool = False) -> list[str]:
    """``studbook show``: the hand as blocks per street, the showdown and the pots."""
    hand = replay.hand
    unit = hand.header.stakes.big_bet if big_bets else None
    snaps = replay.snapshots
    width = max((len(s.name) for s in snaps[0].seats), default=4)
    out = [header(hand)]
    first = snaps[0]
    out.append("seats: " + ", ".join(
        f"{s.seat} {s.name}{'*' if s.name == replay.hero else ''} ({money(s.stack, unit)})"
        for s in first.seats if snaps[-1].seat(s.name).dealt_in))
    if replay.hero:
        out.append(f"hero (*): {replay.hero}")
    antes = [s for s in snaps if isinstance(s.event, PostAnte)]
    if antes:
        out.append(f"antes: {len(antes)} posted, pot {money(antes[-1].pot, unit)}")
        for s in antes:
            out.extend(_violations(s))
    for i, snap in enumerate(snaps[1:], start=1):
        event = snap.event
        nxt = snaps[i + 1].event if i + 1 < len(snaps) else None
        if isinstance(event, StreetStart):
            out.append("")
            out.append(f"*** {snap.action} ***")
        elif isinstance(event, ShowdownStart):
            out.append("")
            out.append("*** showdown ***")
        if isinstance(event, (StreetStart, Deal, DealCommunity)) and not isinstance(nxt, (Deal, DealCommunity)):
            out.extend(_boards(snap, width, unit))
        elif isinstance(event, (Action, UncalledReturned, Show, Muck, NoShow, Collect)):
            text = f"  {snap.actor} {written(snap.words, lambda value: money(value, unit))}"
            out.append(f"{text:<{width + 40}} pot {money(snap.pot, unit)}" if isinstance(event, Action) else text)
        if not isinstance(event, PostAnte):
            out.extend(_violations(snap))
    out.extend(_showdown_lines(replay, unit))
    return out


def _boards(snap: Snapshot, width: int, unit: Money | None) -> list[str]:
    lines = []
    for seat in snap.seats:
        if seat.live:
            lines.append(f"  {_seat_label(seat, width)} {board(seat):<28} stack {money(seat.stack, unit)}")
    if snap.community is not None:
        lines.append(f"  community card: {snap.community}")
    return lines


def _showdown_lines(replay: Replay, unit: Money | None) -> list[str]:
    out: list[str] = []
    if replay.shown:
        out.append("")
        out.append("hands at the showdown:")
        for h in replay.shown:
            parts = []
            if h.high is not None:
                parts.append(f"high: {h.high} [{' '.join(map(str, h.high_five))}]")
            if h.low is not None:
                five = f" [{' '.join(map(str, h.low_five))}]" if h.low_five else ""
                parts.append(f"low: {h.low}{five}")
            out.append(f"  {h.player}: " + "; ".join(parts))
    if replay.pots:
        out.append("")
        out.append("pots:")
        for pot in replay.pots:
            out.append("  " + pot_line(pot, len(replay.pots), unit))
    end = replay.steps[-1]
    if end.pot_label != "pot":  # what stays in the middle once every pot is collected
        out.append(f"{end.pot_label} {money(end.snapshot.pot, unit)}")
    out.append("")
    final = replay.snapshots[-1]
    out.append("result: " + ", ".join(
        f"{s.name} {_signed(s.collected - s.put_in, unit)}" for s in final.seats if s.dealt_in))
    count = len(replay.violations)
    out.append(f"{count} violation{'s' if count != 1 else ''}")
    return out


def _signed(value: Money, unit: Money | None) -> str:
    return ("+" if value > ZERO else "") + money(value, unit)


def pot_name(index: int, count: int) -> str:
    if count == 1:
        return "pot"
    return "main pot" if index == 0 else f"side pot {index}"


def pot_line(pot: PotResult, count: int, unit: Money | None = None) -> str:
    """``main pot 0.44 (a, b, c): high a 0.42; low b 0.20``."""
    won = []
    if pot.high and not pot.low and pot.best_low:
        # the log does not say which half: name it from the hands shown
        won.append(", ".join(f"{n} {money(a, unit)}{_halves(pot, n)}" for n, a in pot.high))
    elif pot.high:
        label = "high " if pot.low else ""
        won.append(label + ", ".join(f"{n} {money(a, unit)}" for n, a in pot.high))
    if pot.low:
        won.append("low " + ", ".join(f"{n} {money(a, unit)}" for n, a in pot.low))
    taken = "; ".join(won) if won else "nobody collected"
    return f"{pot_name(pot.index, count)} {money(pot.amount, unit)} ({', '.join(pot.eligible)}): {taken}"


def _halves(pot: PotResult, name: str) -> str:
    halves = [half for half, best in (("high", pot.best_high), ("low", pot.best_low)) if name in best]
    return f" ({' and '.join(halves)})" if halves and pot.best_high else ""


def frame(replay: Replay, step: Step, big_bets: bool = False) -> list[str]:
    """One frame of ``replay --plain``: where we are (in poker words, the step and the log's
    lines after them), what happened, every seat, the pot; at the end the result."""
    hand = replay.hand
    unit = hand.header.stakes.big_bet if big_bets else None
    snap = step.snapshot
    head = f"--- hand {hand.hand_id} · {step.label} (step {step.index}/{len(replay.steps) - 1}{_where(step)})"
    head += f" | {step.pot_label} {money(snap.pot, unit)}"
    if len(snap.pots) > 1 and step.pot_label == "pot":
        head += " (" + ", ".join(f"{pot_name(p.index, 2)} {money(p.amount, unit)}" for p in snap.pots) + ")"
    if snap.to_act:
        head += f" | to act: {snap.to_act}"
    lines = [head, *_said(step, unit)]
    width = max((len(s.name) for s in snap.seats), default=4)
    for seat in snap.seats:
        if not seat.dealt_in:
            continue
        state = "folded" if seat.folded else ("all-in" if seat.all_in else "")
        front = f"in front {money(seat.in_front, unit)}" if seat.in_front else ""
        lines.append(f"  {seat.seat:>2} {_seat_label(seat, width)} {money(seat.stack, unit):>10}  "
                     f"{board(seat):<30} {front:<16} {state}".rstrip())
    if snap.community is not None:
        lines.append(f"  community card: {snap.community}")
    for event in step.events:
        lines.extend(_violations(event))
    if step.kind is StepKind.RESULT:
        lines.extend(_showdown_lines(replay, unit)[1:])
    return lines


def _where(step: Step) -> str:
    lines = sorted(set(step.lines))
    if not lines:
        return ""
    return f", line {lines[0]}" if len(lines) == 1 else f", lines {lines[0]}-{lines[-1]}"


def _said(step: Step, unit: Money | None) -> list[str]:
    """The step's events as log lines: ``> Bob calls 0.04``; a deal as one line, notes in brackets."""
    out: list[str] = []
    def said(snap_words: Words) -> str:
        return written(snap_words, lambda value: money(value, unit))

    actor, headline = step.headline
    if step.kind is not StepKind.START:
        out.append(f"> {actor + ' ' if actor else ''}{said(headline)}")
    for snap in step.events:
        event = snap.event
        if isinstance(event, _NOTE_KINDS):
            out.append(f"  ({said(snap.words)})")
        elif isinstance(event, DealCommunity):
            out.append(f"> {said(snap.words)}")
    return out


_NOTE_KINDS = (Note, BettingCapped, OpenPairNotice, NoLowHand)


def plain_frames(replay: Replay, big_bets: bool = False) -> Iterator[str]:
    for step in replay.steps:
        yield "\n".join(frame(replay, step, big_bets))


__all__ = ["board", "frame", "header", "money", "plain_frames", "pot_line", "show_lines"]
