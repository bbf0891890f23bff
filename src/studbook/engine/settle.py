"""The end of a hand: uncalled bets, pots, awards, totals, and per-player results.

:func:`finish` closes the betting of a :class:`StudState` that has seen every
event of a hand, checks the money against what the log says (rules
``pot.uncalled``, ``pot.side``, ``pot.total``, ``showdown.award``) and returns
the pots and the per-player results.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Mapping, Sequence

from studbook.betting import after_rake, pot_layers
from studbook.cards import Card
from studbook.events import LOW_HALF, Collect, Half, Variant
from studbook.money import Money

from .messages import (
    pot_name, POT_SIDE_COLLECTED, POT_SIDE_COUNT, POT_SIDE_NO_POT, POT_SIDE_NO_SUCH_POT, POT_SIDE_NO_SUCH_POTS,
    POT_SIDE_NOT_ELIGIBLE, POT_SIDE_STATED, POT_SIDE_STATED_LESS_RAKE, POT_TOTAL_COLLECTED, POT_TOTAL_MORE_THAN_POT,
    POT_TOTAL_NOT_COLLECTED,
    POT_TOTAL_STATED, POT_UNCALLED_NOT_RETURNED, SHOWDOWN_AWARD_FOLDED, SHOWDOWN_AWARD_HAND, SHOWDOWN_AWARD_POT,
    SHOWDOWN_AWARD_POT_TO_NOBODY,
)
from .pots import add_ranges, build_pots, high_half, split, split_exact, total
from .result import PlayerResult, PotAward, new_player_result, new_pot_award
from .rules import POT_UNCALLED
from .rules.showdown import unmatched
from .state import PlayerState, StudState
from .variants import showdown_winners, VARIANT_RULES


ZERO = Decimal(0)
Ranges = dict[str, tuple[Money, Money]]
Layer = tuple[Money, tuple[str, ...]]
"""A pot as :func:`~studbook.betting.pot_layers` gives it, (amount, eligible); its index is
its place in the hand's list. Settlement reads the layers themselves: a
:class:`~studbook.engine.pots.Pot` made of each (:func:`~studbook.engine.pots.build_pots`,
for other callers) would be read once and dropped, an object made every hand for nothing."""


def finish(state: StudState, end_line: int) -> tuple[list[PotAward], list[PlayerResult], Money, bool]:
    """Close the hand; returns (pots, players, rake, went_to_showdown).

    Each question is asked once and its answer shared: the uncalled bet (returned
    here or checked returned), the pots' total, what was collected (:func:`_gather`);
    a check whose facts rule it out is not called (a clean hand's settlement is its
    fixed cost: every hand pays it)."""
    state.end_betting(end_line)
    collects = state.collects
    money_line = collects[0].line if collects else state.summary.line if state.summary is not None else end_line
    profile = state.profile
    contributions = _contributions(state)
    top, bet, _ = unmatched(state, contributions)  # (the rule's own function, no wrapper: every hand asks)
    if top is not None and bet > state.zero and state.betting_closed:
        if profile.logs_uncalled:
            _check_unreturned(state, top, bet, money_line)
        else:
            _return_unlogged(state, top, bet)
            contributions = _contributions(state)  # (the bet returned is no longer in)
    if not profile.logs_collections and not collects:
        _award_unlogged(state, end_line)
    pots = pot_layers(contributions, state.zero)
    computed = pots[0][0] if len(pots) == 1 else total([amount for amount, _ in pots])
    got = _gather(state.collects, state.zero)  # (the collections are final from here)
    rake = _rake(state, computed, got)
    nets = _net_pots(state, pots, rake)
    totals_ok = _check_totals(state, pots, computed, rake, nets, got, money_line)
    by_pot = _collections_by_pot(state, len(pots), got)
    awards: list[PotAward] = []
    for index, (amount, eligible) in enumerate(pots):
        net = nets[index] if nets is not None else None
        collected = by_pot.get(index, {}) if by_pot is not None else None
        if collected is not None and totals_ok:
            expected = _expected(state, eligible, net) if net is not None else None
            _check_award(state, index, eligible, len(pots), net, expected, collected,
                         got.first_line.get(index, money_line))
        awards.append(_award(state, index, amount, eligible, collected, got))
    if by_pot is None and totals_ok:
        _check_aggregate(state, pots, nets, got, money_line)
    showdown = state.went_to_showdown
    return awards, _results(state, showdown), rake, showdown


def _contributions(state: StudState) -> list[tuple[str, Money, bool]]:
    """(name, total put in, live) of each player dealt in, in dealing order: what
    :func:`~studbook.betting.pot_layers` and :func:`~studbook.engine.pots.build_pots` take,
    and where :func:`~studbook.engine.rules.showdown.unmatched` finds the top two totals."""
    out = []
    for p in state.order:  # (a loop: a comprehension makes a function and a frame each hand)
        if p.in_hand:
            out.append((p.name, p.total, p.live))
    return out


class _Collected:
    """What the log says was collected, gathered in one pass over the hand's collections
    by :func:`_gather`: every money check of :func:`finish` reads it (before, each walked
    the collections again: the total, the sums per pot, each pot's first line and halves)."""

    __slots__ = ("total", "by_player", "by_pot", "first_line", "halves", "numbered", "top_pot")
    total: Money  # every collection
    by_player: dict[str, Money]  # each player's, over all pots
    by_pot: dict[int, dict[str, Money]]  # each pot's, by player
    first_line: dict[int, int]  # each pot's first collection line
    halves: dict[int, dict[str, Half]]  # each pot's halves named (stud8), by player
    numbered: bool  # some collection names a side pot
    top_pot: int  # the highest pot number named (-1: none)


_new_object = object.__new__


def _gather(collects: Sequence[Collect], zero: Money) -> _Collected:
    # (no __init__: its fields are set here, where they are worked out; a class call with
    # an __init__, or a positional maker's draft, costs more than the whole pass on most hands)
    got = _new_object(_Collected)
    by_player: dict[str, Money] = {}
    by_pot: dict[int, dict[str, Money]] = {}
    first_line: dict[int, int] = {}
    halves: dict[int, dict[str, Half]] = {}
    got.by_player, got.by_pot, got.first_line, got.halves = by_player, by_pot, first_line, halves
    total = zero
    numbered = False
    top_pot = -1
    for c in collects:
        player, amount, pot = c.player, c.amount, c.pot
        total += amount
        by_player[player] = by_player.get(player, zero) + amount
        row = by_pot.get(pot)
        if row is None:
            row = by_pot[pot] = {}
            first_line[pot] = c.line
            if pot > top_pot:
                top_pot = pot
            if pot:
                numbered = True
        row[player] = row.get(player, zero) + amount
        if c.half is not None:
            halves.setdefault(pot, {})[player] = c.half
    got.total, got.numbered, got.top_pot = total, numbered, top_pot
    return got


def _return_unlogged(state: StudState, top: PlayerState, amount: Money) -> None:
    """Profile logs_uncalled=False: the site returns an uncalled bet (``top``'s ``amount``,
    the betting closed) without a line; do it here."""
    top.stack += amount
    top.total -= amount
    top.returned += amount
    if state.profile.uncalled_in_pot:
        _take_from_collections(state, top, amount)
        summary = state.summary
        if summary is not None:
            pots = summary.pots[:-1] + (summary.pots[-1] - amount,) if summary.pots else ()
            state.summary = replace(summary, total=summary.total - amount, pots=pots)


def _award_unlogged(state: StudState, line: int) -> None:
    """Profile logs_collections=False and no collection in the log: each pot goes
    to the best hands shown, as the rules split it (a mucked or unknown hand wins nothing)."""
    for player, amount, pot in expected_collections(state):
        state.apply(Collect(file="", line=line, player=player, amount=amount, pot=pot))


def _take_from_collections(state: StudState, p: PlayerState, amount: Money) -> None:
    """Count ``amount`` of ``p``'s collections as their returned bet, not as winnings."""
    left = amount
    out = []
    for c in state.collects:
        if c.player == p.name and left > state.zero:
            taken = min(c.amount, left)
            left -= taken
            p.collected -= taken
            c = replace(c, amount=c.amount - taken)
        out.append(c)
    state.collects[:] = out


def _rake(state: StudState, computed: Money, got: _Collected) -> Money:
    """The stated rake; with profile states_rake=False, or a summary with no
    rake field, what the pot (``computed``) holds beyond the collections (for the
    latter at most the profile's unstated_rake_share of the pot: more is left to pot.total)."""
    summary = state.summary
    if summary is not None and summary.rake is not None:
        return summary.rake
    if (summary is None and state.profile.states_rake) or not state.collects:
        return state.zero
    left = max(computed - got.total, state.zero)
    return left if summary is None else min(left, computed * state.profile.unstated_rake_share)


def _check_unreturned(state: StudState, top: PlayerState, amount: Money, line: int) -> None:
    """Rule pot.uncalled: ``top``'s ``amount`` nobody matched was not returned (the
    betting closed), unless a return was already found wrong."""
    if not any(v.rule == POT_UNCALLED for v in state.violations):
        state.report(POT_UNCALLED_NOT_RETURNED, line, player=top.name, amount=amount)


def _check_totals(state: StudState, pots: list[Layer], computed: Money, rake: Money, nets: list[Money] | None,
                  got: _Collected, line: int) -> bool:
    """pot.total and the stated side pots; False when the totals are off.

    A wrong collection is blamed on its own line where the shown hands tell
    who should have collected what (``line``, the first collection, otherwise).
    ``computed``: the pots' total.
    """
    collected = got.total
    summary = state.summary
    ok = True
    if not state.collects and computed > state.zero and state.profile.logs_collections:
        # every chip put in is collected by someone or returned, whatever the site: a hand
        # whose pot goes to nobody was cut before its end (or its award lines lost)
        state.report(POT_TOTAL_NOT_COLLECTED, line, computed=computed)
        return False
    if summary is not None:
        if summary.total != computed:
            state.report(POT_TOTAL_STATED, summary.line, computed=computed, stated=summary.total)
            ok = False
        if state.collects and collected + rake != summary.total and (ok or collected + rake != computed):
            # when the collections and rake agree with the contributions, the stated
            # total is the one line that is wrong: it alone was flagged above
            state.report(POT_TOTAL_COLLECTED, _wrong_collection(state, pots, nets, line),
                         collected=collected, rake=rake, stated=summary.total)
            ok = False
        if summary.pots:
            ok = _check_stated_pots(state, pots, summary.pots, rake, summary.line) and ok
    elif state.collects and collected > computed:
        state.report(POT_TOTAL_MORE_THAN_POT, _wrong_collection(state, pots, nets, line),
                     collected=collected, computed=computed)
        ok = False
    return ok


def _wrong_collection(state: StudState, pots: list[Layer], nets: list[Money] | None, default: int) -> int:
    """The line of the first collection outside what its player should collect over
    all pots; ``default`` when the log does not let us know who should collect what."""
    if nets is None:
        return default
    expected: Ranges = {}
    for (_, eligible), net in zip(pots, nets):
        shares = _expected(state, eligible, net)
        if shares is None:
            return default
        add_ranges(expected, shares)
    return _off_line(state.collects, expected, default)


def _off_line(collects: Sequence[Collect], expected: Ranges, default: int) -> int:
    """The first line at which ``collects`` are known to be wrong: one that takes its
    player past their share, or a player's last one that leaves them short;
    ``default`` when none is (a player who should collect has no line at all)."""
    total: dict[str, Money] = {}
    last: dict[str, int] = {}
    for c in collects:
        total[c.player] = total.get(c.player, ZERO) + c.amount
        last[c.player] = c.line
    running: dict[str, Money] = {}
    for c in collects:
        least, most = expected.get(c.player, (ZERO, ZERO))
        running[c.player] = amount = running.get(c.player, ZERO) + c.amount
        if amount > most or (last[c.player] == c.line and total[c.player] < least):
            return c.line
    return default


def _check_stated_pots(state: StudState, pots: list[Layer], stated: Sequence[Money], rake: Money, line: int) -> bool:
    if len(stated) != len(pots):
        state.report(POT_SIDE_COUNT, line, count=len(stated), stated=stated, pots=len(pots),
                     amounts=[amount for amount, _ in pots])
        return False
    for index, ((ours, _), amount) in enumerate(zip(pots, stated)):
        if not state.zero <= ours - amount <= rake:
            state.report(POT_SIDE_STATED_LESS_RAKE if rake else POT_SIDE_STATED, line,
                         pot=pot_name(index, len(pots)), amount=ours, stated=amount)
            return False
    return True


def _net_pots(state: StudState, pots: list[Layer], rake: Money) -> list[Money] | None:
    """Each pot after rake, where the log lets us know it."""
    summary = state.summary
    if summary is not None and summary.pots and len(summary.pots) == len(pots):
        return list(summary.pots)
    if len(pots) == 1:
        return [pots[0][0] - rake]
    if not rake:
        return [amount for amount, _ in pots]
    return None


def _collections_by_pot(state: StudState, count: int, got: _Collected) -> dict[int, dict[str, Money]] | None:
    """Collections per pot, or None when the log's pot numbers do not fit our pots."""
    stated = state.summary is not None and bool(state.summary.pots)
    if count > 1 and not stated and not got.numbered:
        return None  # the log does not number its pots: compare totals per player
    if got.top_pot < count:
        return got.by_pot
    for c in state.collects:  # the first collection of a pot we do not have
        if c.pot >= count:
            if count == 1:
                return None
            if count == 0:
                state.report(POT_SIDE_NO_POT, c.line, player=c.player, pot=pot_name(c.pot, 2))
            elif count == 2:
                state.report(POT_SIDE_NO_SUCH_POT, c.line, player=c.player, pot=c.pot)
            else:
                state.report(POT_SIDE_NO_SUCH_POTS, c.line, player=c.player, pot=c.pot, side_pots=count - 1)
            break
    return None


def _full_hand(state: StudState, p: PlayerState) -> list[Card] | None:
    cards = list(filter(None, p.cards()))  # the known ones: a card is never falsy
    if state.community is not None:
        cards.append(state.community)
    return cards if len(cards) == 7 else None


def _expected(state: StudState, eligible: tuple[str, ...], net: Money) -> Ranges | None:
    """Who should win the pot of ``eligible`` (``net`` after rake), as ranges; None when the log cannot tell."""
    if len(eligible) == 1:  # (the pots' players are the hand's: the layers take them from state.order)
        return {eligible[0]: (net, net)}
    hands: dict[str, list[Card]] = {}  # the contenders': those who showed, in dealing order
    by_name = state.by_name
    for n in eligible:  # (one walk)
        p = by_name.get(n)
        if p is None:
            continue
        if p.showed:
            cards = _full_hand(state, p)
            if cards is None:
                return None
            hands[n] = cards
        elif p.collected > state.zero and not p.mucked:
            return None  # a collector whose hand we never saw
    if not hands:
        return None
    try:
        return _split_pot(state.variant, state.chip, state.profile.odd_chip_tie == "deal_order",
                          hands, net, list(hands))
    except ValueError:
        return None


def pot_winners(variant: Variant, hands: Mapping[str, Sequence[Card]], order: Sequence[str]) -> tuple[list[str], list[str]]:
    """Who wins a pot among shown seven-card ``hands`` (``order``: dealing order):
    (the high hands, or razz's lowest, that take the pot or its high half; the
    8-or-better lows that take the low half, empty when the pot is not split).
    Rule showdown.award, as ``variant``'s :class:`~studbook.engine.variants.VariantRules`
    say; ValueError on impossible hands."""
    return showdown_winners(VARIANT_RULES[variant], hands, order)


def _split_pot(
    variant: Variant, chip: Money, exact: bool, hands: dict[str, list[Card]], net: Money, order: list[str]
) -> Ranges:
    """Shares of a pot among shown hands (``order``: dealing order); ValueError on impossible hands."""
    out: Ranges = {}
    for amount, winners in _halves(variant, chip, hands, net, order):
        if exact:
            add_ranges(out, {n: (v, v) for n, v in split_exact(amount, winners, chip).items()})
        else:
            add_ranges(out, split(amount, winners, chip))
    return out


def _halves(variant: Variant, chip: Money, hands: dict[str, list[Card]], net: Money,
            order: list[str]) -> list[tuple[Money, list[str]]]:
    """A pot's parts and who wins each: (the high half, its winners) and (the low half,
    its winners) when the pot splits, else (the pot, its winners)."""
    high_winners, low_winners = pot_winners(variant, hands, order)
    if low_winners:
        high_part = high_half(net, chip)
        return [(high_part, high_winners), (net - high_part, low_winners)]
    return [(net, high_winners)]


def _check_award(
    state: StudState, index: int, eligible: tuple[str, ...], count: int, net: Money | None,
    expected: Ranges | None, collected: dict[str, Money], where: int,
) -> None:
    """Rule showdown.award and pot.side for pot ``index`` (of ``count``); ``where``: its first
    collection line."""
    by_name = state.by_name
    for player in collected:
        p = by_name.get(player)
        if p is not None and p.folded:
            state.report(SHOWDOWN_AWARD_FOLDED, where, player=player, pot=pot_name(index, count))
            return
        if player not in eligible:
            state.report(POT_SIDE_NOT_ELIGIBLE, where, player=player, pot=pot_name(index, count),
                         eligible=eligible)
            return
    if count > 1 and net is not None and collected and sum(collected.values(), state.zero) != net:
        state.report(POT_SIDE_COLLECTED, where, pot=pot_name(index, count), net=net,
                     collected=sum(collected.values(), state.zero))
        return
    if expected is None or not _misawarded(expected, collected):
        return
    name = pot_name(index, count)
    want = _shares(state, expected)
    where = _off_line([c for c in state.collects if c.pot == index], expected, where)
    if collected:
        state.report(SHOWDOWN_AWARD_POT, where, pot=name, want=want, got=_shares(state, collected))
    else:
        state.report(SHOWDOWN_AWARD_POT_TO_NOBODY, where, pot=name, want=want)


def _check_aggregate(state: StudState, pots: list[Layer], nets: list[Money] | None, got: _Collected,
                     line: int) -> None:
    """Awards summed over all pots, when the log's pot numbers cannot be matched."""
    if nets is None:
        return
    total: Ranges = {}
    for (_, eligible), net in zip(pots, nets):
        expected = _expected(state, eligible, net)
        if expected is None:
            return
        add_ranges(total, expected)
    collected = got.by_player
    if not collected:
        return
    if _misawarded(total, collected):
        state.report(SHOWDOWN_AWARD_HAND, _off_line(state.collects, total, line),
                     want=_shares(state, total), got=_shares(state, collected))


def _misawarded(expected: Ranges, collected: Mapping[str, Money]) -> bool:
    """Someone collected outside their expected range (zero for those not expected)."""
    for name, (least, most) in expected.items():
        if not least <= collected.get(name, ZERO) <= most:
            return True
    for name, amount in collected.items():
        if amount != ZERO and name not in expected:
            return True
    return False


_Share = tuple[str, Money | tuple[Money, Money]]


def _shares(state: StudState, amounts: Mapping[str, Money] | Ranges) -> list[_Share]:
    """Each player's amount or range, in dealing order (a message's ``shares`` field)."""
    return [(n, amounts[n]) for n in _ordered(state, amounts)]


def _ordered(state: StudState, names: Mapping[str, object]) -> list[str]:
    pos = {p.name: p.pos for p in state.order}
    return sorted(names, key=lambda n: pos.get(n, 99))


def _award(state: StudState, index: int, amount: Money, eligible: tuple[str, ...],
           collected: dict[str, Money] | None, got: _Collected) -> PotAward:
    if collected is None:  # the log's pot numbers do not fit: the main pot shows every collection
        collected = got.by_player if index == 0 else {}
    halves = got.halves.get(index)
    if not halves and len(collected) < 2:  # (most pots: one collector, the whole pot, in one step)
        return new_pot_award(index, amount, eligible, tuple(collected.items()), ())
    high: list[tuple[str, Money]] = []
    low: list[tuple[str, Money]] = []
    for player in (_ordered(state, collected) if len(collected) > 1 else collected):
        share = collected[player]
        if halves and halves.get(player) is LOW_HALF:
            low.append((player, share))
        else:
            high.append((player, share))
    return new_pot_award(index, amount, eligible, tuple(high), tuple(low))


def _results(state: StudState, showdown: bool) -> list[PlayerResult]:
    out: list[PlayerResult] = []
    make = new_player_result
    zero = state.zero
    for p in state.players:
        if not p.in_hand:
            continue
        down = p.down
        # the known down cards (a card is never falsy); most players' are all unknown,
        # told by any() without a filter made
        known_down = tuple(filter(None, down)) if any(down) else ()
        collected = p.collected
        total = p.total
        folded = p.folded
        # the net: what was collected less the total put in; where nothing was (the hand's zero
        # itself, most players), the total's negation, the same figure: a total is a sum from the
        # hand's zero, so its exponent is at most the zero's (0), and a Decimal's negation is
        # the zero of the same exponent less it, some 280 instructions to a subtraction's 470
        net = -total if collected is zero else collected - total
        out.append(make(
            p.name, p.seat, p.start, total, collected, net, p.last_street, folded, p.all_in,
            p.showed, showdown and not folded and collected > zero, tuple(p.up), known_down,
        ))
    return out


def expected_collections(state: StudState, rake: Money = ZERO, *, halves: bool = False) -> list[tuple[str, Money, int]]:
    """What each player should collect, as (player, amount, pot index), for a hand
    whose betting is over and whose live hands are all known (a simulator's view).

    ``rake`` comes out of the pots as the profile's ``rake_from`` says. Odd chips go to
    the first winners in dealing order. Players with unknown cards, and mucked hands,
    cannot win a contested pot. With ``halves`` a split pot's high and low halves are
    separate collections (a player who scoops has two), as PokerStars writes them.
    """
    pots = build_pots(_contributions(state), state.zero)
    nets = after_rake([pot.amount for pot in pots], rake, state.chip, state.profile.rake_from)
    out: list[tuple[str, Money, int]] = []
    for pot, net in zip(pots, nets):
        live = [state.player(n) for n in pot.eligible]
        hands = {p.name: c for p in live
                 if p is not None and not p.mucked and (c := _full_hand(state, p)) is not None}
        if len(pot.eligible) == 1:
            out.append((pot.eligible[0], net, pot.index))
            continue
        if not hands:
            continue
        order = [n for n in pot.eligible if n in hands]
        if halves:
            for amount, winners in _halves(state.variant, state.chip, hands, net, order):
                shares = split_exact(amount, winners, state.chip)
                out.extend((name, shares[name], pot.index) for name in winners if shares[name])
            continue
        ranges = _split_pot(state.variant, state.chip, True, hands, net, order)
        out.extend((name, r[0], pot.index) for name, r in ranges.items() if r[0])
    return out


__all__ = ["expected_collections", "finish", "pot_winners"]
