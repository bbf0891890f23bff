"""Rule book section "Deal and cards": deal.*, cards.*.

The checks: antes, the deal of each street, the community card, and every card shown: who gets what, once.
Each is a function of the hand's state ``s`` (:class:`~studbook.engine.table.Table`): it asks the state
questions and reports through its one reporter, ``s.report(MESSAGE, line, **fields)``
(engine/messages.py), at the line that is wrong.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from studbook.cards import Card
from studbook.events import Deal, DealCommunity, PostAnte, SeatSummary
from studbook.engine.messages import (
    CARDS_COMMUNITY_ALREADY_DEALT, CARDS_COMMUNITY_DUE, CARDS_COMMUNITY_NOT_DUE, CARDS_COMMUNITY_NOT_SEVENTH,
    CARDS_COMMUNITY_SECOND, CARDS_CONSISTENT_EARLIER, CARDS_CONSISTENT_MISSING, CARDS_CONSISTENT_NOT_DEALT,
    CARDS_COUNT_SHOWN, CARDS_COUNT_SHOWN_BESIDES_COMMUNITY, CARDS_UNIQUE_COMMUNITY, CARDS_UNIQUE_SHOWN_TWICE,
    CARDS_UNIQUE_SHOWS_ANOTHERS, CARDS_UNIQUE_TWO_OWNERS, DEAL_ANTE_AFTER_DEAL, DEAL_ANTE_AMOUNT, DEAL_ANTE_NO_SEAT,
    DEAL_ANTE_TWICE, DEAL_ORDER_CLOCKWISE, DEAL_ORDER_FOLDED, DEAL_ORDER_NO_SEAT, DEAL_ORDER_NOT_DEALT_IN,
    DEAL_PATTERN_CARDS, DEAL_PATTERN_NO_CARD, DEAL_PATTERN_TWICE, DEAL_PATTERN_UP_MISSING, DEAL_PATTERN_WRONG_STREET,
    DEAL_PLAYERS_COUNT, ORDER_STREETS_CARDS_BEFORE_THIRD,
)
from studbook.engine.table import (
    PlayerState, RANK_NIBBLE, rank_sum, COMMUNITY_REPORTED, SEVENTH, Table, THIRD,
)

__all__ = [
    "begin_hand", "check_missing_deals", "check_shown", "implicit_river", "on_ante", "on_community",
    "on_deal", "on_seat_summary"
]
"""This section's public surface: what the other sections and ``StudState`` may call."""

# ``s.card_owners`` and the sets of a shown hand's cards are keyed by ``card.text`` ("Th"):
# cards are interned, so a card's text is as unique as the card. The text is read from a
# slot, where ``id(card)`` was a builtin call (with its audit hook) making a new int each
# time, and a hand looks its cards up some 40 times. A shown hand's sets of texts are filled
# by loops: ``map`` through an ``attrgetter`` (a generic attribute look-up a card) and a
# comprehension (a function and a frame) both cost more for seven cards.


_SEVENTH_BIT = 1 << SEVENTH
"""7th street's bit of ``PlayerState.dealt`` (a shift by an enum member is a generic call)."""


def on_ante(s: Table, e: PostAnte) -> None:
    """A player posts the ante (:class:`~studbook.events.PostAnte`): chips go in, the player is
    dealt in. May report: chips.stack, deal.ante."""
    p = s.by_name.get(e.player)
    amount = e.amount
    posted = s.ante_posted
    expected = s.ante if s.ante is not None else posted
    # (seen: the last amount the fast path took, so one that is the ante in force: the
    # readers remember amounts, so a hand's ante lines share one object, where the stakes'
    # ante is another, and an amount's comparison is some 150 instructions)
    seen, start = s.ante_start
    if (p is not None and s.street is None and not p.ante and amount < p.stack and not e.all_in
            and (amount is seen or expected is None or amount is expected or amount == expected)):
        # fast path: the ante in force (or the first one posted), once, before the deal,
        # with chips left behind
        if not p.in_hand:  # (a seat marked out of the hand)
            s.deal_in(p)
        if posted is None:
            s.ante_posted = amount
        zero = s.zero
        p.stack -= amount
        s.pot += amount
        total = p.total
        if total is zero:
            # (the player's start: the hand total and the ante are both still the hand's
            # zero, since any change of the total makes a new object, so their sums are one,
            # worked out once a player, and once a hand where the players post one amount, the
            # same object (the readers remember amounts): an addition is some 450 instructions
            # on a cash table, its result the same for every player)
            if amount is not seen:
                start = zero + amount
                s.ante_start = (amount, start)
            p.total = p.ante = start
        else:
            p.total = total + amount
            p.ante += amount
        p.street_in = zero  # antes do not count toward bets
        return
    _ante_checked(s, p, e)


def _ante_checked(s: Table, p: PlayerState | None, e: PostAnte) -> None:
    if p is None:
        s.report(DEAL_ANTE_NO_SEAT, e.line, player=e.player)
        return
    if s.street is not None:
        s.report(DEAL_ANTE_AFTER_DEAL, e.line, player=p.name)
    if p.ante:
        s.report(DEAL_ANTE_TWICE, e.line, player=p.name)
    s.deal_in(p)
    expected = s.ante if s.ante is not None else s.ante_posted
    amount = e.amount
    if s.ante_posted is None and (amount < p.stack or not e.all_in):
        s.ante_posted = amount
    if expected is not None and amount != expected:
        short_all_in = amount < expected and amount == p.stack
        if not short_all_in:
            s.report(DEAL_ANTE_AMOUNT, e.line, expected=expected, amount=amount, player=p.name)
    s.put(p, amount, e.line)
    p.ante += amount
    p.street_in = s.zero  # antes do not count toward bets


def begin_hand(s: Table, line: int) -> None:
    """The hand's first street starts: are 2 to 8 players dealt in? May report: deal.players."""
    # (the table's count of live players: before the first street nobody has folded, since
    # an action without a street is not applied, so the live are those dealt in)
    dealt = s.live_left
    if not 2 <= dealt <= 8:
        s.report(DEAL_PLAYERS_COUNT, line, count=dealt)


def implicit_river(s: Table, line: int) -> None:
    """7th-street down cards the log does not print (opponents'), once betting starts: each
    live player is dealt one, or, when the deck cannot cover them, the community card is due.
    May report: cards.community."""
    s.implicit_river_done = True
    s.implicit_river_due = False
    if s.community is not None:
        return  # (dealt already: nobody gets an unprinted card)
    if COMMUNITY_REPORTED not in s.reported and s.needs_community_card():
        s.reported.add(COMMUNITY_REPORTED)
        s.report(CARDS_COMMUNITY_DUE, line, left=s.deck_left(), live=s.live_count())
        return
    for p in s.order:
        if p.live and not p.dealt & _SEVENTH_BIT:
            p.dealt |= _SEVENTH_BIT
            p.down.append(None)


def check_missing_deals(s: Table, line: int) -> None:
    """A live player missing this street's card, where the profile logs every up card (once a
    street). May report: deal.pattern."""
    street = s.street
    r = s.round
    if r.deals_verified or street is None:
        return
    # (7th street's card is down. r.deals: live players the fast path dealt this street's
    # card, each once; while no action of the round was applied (r.first), none has folded
    # since, and after a late deal-in the count cannot reach live_left (Table.deal_in): so
    # as many as live_left, nobody is missing. A round's first action asks this before it
    # is applied, where its line is known; else the round's end does.)
    if (s.profile.logs_every_up_card and street is not SEVENTH
            and (r.deals < s.live_left or r.first is not None)):
        bit = 1 << street
        for p in s.order:
            if not p.dealt & bit and p.live:
                p.dealt |= bit  # one report per street
                s.report(DEAL_PATTERN_NO_CARD, line, player=p.name, street=street)
    # every live player now has this street's bit (or the rule does not apply): until
    # someone else is dealt in (deal_in), asking again would find nothing
    r.deals_verified = True


def on_deal(s: Table, e: Deal) -> None:
    """Cards dealt to a player (:class:`~studbook.events.Deal`): each card seen once, the street's
    pattern, the dealing order. May report: cards.community, cards.consistent, cards.unique,
    deal.order, deal.pattern, order.streets."""
    p: PlayerState | None = s.by_name.get(e.player)
    if p is None:
        _deal_checked(s, p, e)
        return
    street = e.street
    if s.order_from_deal and s.street is THIRD:
        s.order_from_deal = False
        s.set_order(s.players.index(p))
    up = e.up
    r = s.round
    owners = s.card_owners
    # The fast paths: the one up card (3rd street: and the hero's two down cards) to a live
    # player, in dealing order, on the street in play, cards not seen before; anything else
    # goes to _deal_checked, which names what is wrong. (Written in this one frame: a hand
    # has some 16 deals, and a call for 3rd street's cost about what its work did.)
    if (street is s.street and len(up) == 1 and p.live
            and p.pos > r.last_deal_pos and (card := up[0]).text not in owners):
        down = e.down
        if street is THIRD:
            if not e.before and not p.dealt & 8 and (  # 8: 1 << THIRD
                    not down or (len(down) == 2 and down[0] is not down[1] and card is not down[0]
                                 and card is not down[1] and down[0].text not in owners
                                 and down[1].text not in owners)):
                r.last_deal_pos = p.pos
                r.deals += 1
                p.dealt |= 8
                p.deal_line = e.line
                name = owners[card.text] = p.name
                p.up.append(card)
                p.up_ranks += RANK_NIBBLE[card.rank]
                # (the down cards go before any the log showed earlier: a new list, where a
                # slice's assignment makes a slice and moves the list's items)
                if down:
                    owners[down[0].text] = owners[down[1].text] = name
                    p.down = [*down, *p.down]
                else:
                    p.down = [None, None, *p.down]
                return
        elif street is not SEVENTH and not down and not p.dealt & (bit := 1 << street):
            before = e.before
            if not before or (held := [*before]) == p.up or held == p.cards():
                r.last_deal_pos = p.pos
                r.deals += 1
                p.dealt |= bit
                owners[card.text] = p.name
                p.up.append(card)
                p.up_ranks += RANK_NIBBLE[card.rank]
                p.last_street = street
                return
    _deal_checked(s, p, e)


def _deal_checked(s: Table, p: PlayerState | None, e: Deal) -> None:
    street = s.street
    if p is None:
        s.report(DEAL_ORDER_NO_SEAT, e.line, player=e.player)
        return
    if street is None:
        s.report(ORDER_STREETS_CARDS_BEFORE_THIRD, e.line)
        return
    if e.street is not street:
        s.report(DEAL_PATTERN_WRONG_STREET, e.line, dealt=e.street, street=street)
    if not p.in_hand:
        if street is THIRD:
            s.deal_in(p)  # a player marked sitting out but dealt in
        else:
            s.report(DEAL_ORDER_NOT_DEALT_IN, e.line, player=p.name)
    elif p.folded:
        s.report(DEAL_ORDER_FOLDED, e.line, player=p.name, street=street)
    if s.profile.deals_in_order:
        if p.pos < s.round.last_deal_pos:
            s.report(DEAL_ORDER_CLOCKWISE, e.line, player=p.name)
        s.round.last_deal_pos = p.pos
    bit = 1 << street
    if p.dealt & bit:
        s.report(DEAL_PATTERN_TWICE, e.line, player=p.name, street=street)
        _check_before(s, p, e)
        _see_all(s, p, e.up, e.line)
        _see_all(s, p, e.down, e.line)
        return
    p.dealt |= bit
    if street is THIRD:
        p.deal_line = e.line
    _check_before(s, p, e)
    want_up, want_down = (1, 2) if street is THIRD else ((0, 1) if street is SEVENTH else (1, 0))
    up, down = e.up, e.down
    if street is SEVENTH and s.community is not None:
        s.report(CARDS_COMMUNITY_ALREADY_DEALT, e.line, player=p.name, card=s.community)
    elif street is SEVENTH and COMMUNITY_REPORTED not in s.reported and s.needs_community_card():
        s.reported.add(COMMUNITY_REPORTED)
        s.report(CARDS_COMMUNITY_DUE, e.line, left=s.deck_left(), live=s.live_count())
    if len(up) > want_up or len(down) > want_down:
        s.report(DEAL_PATTERN_CARDS, e.line, street=street, want_down=want_down, want_up=want_up,
                    player=p.name, down=len(down), up=len(up))
    elif s.profile.logs_every_up_card and want_up and not up:
        s.report(DEAL_PATTERN_UP_MISSING, e.line, player=p.name, street=street)
    _see_all(s, p, up, e.line)
    _see_all(s, p, down, e.line)
    p.up.extend(up)
    p.up_ranks = rank_sum(p.up)
    if street is THIRD:
        known = list(down[:2])
        p.down[:0] = known + [None] * (2 - len(known))
        if len(down) > 2:
            p.down.extend(down[2:])
    elif down or want_down:
        p.down.extend(down or (None,))
    p.last_street = street


def _check_before(s: Table, p: PlayerState, e: Deal) -> None:
    if not e.before:
        return
    before = list(e.before)
    if before == p.up:
        return
    known = p.cards()
    if len(before) == len(known):
        for k, b in zip(known, before):  # (a loop, not all() over a generator: the hero's every deal)
            if k is not None and k is not b:
                break
        else:  # the hero's hole cards, shown again: learn any we did not know
            _learn(s, p, before, e.line, known)
            return
    s.report(CARDS_CONSISTENT_EARLIER, e.line, player=p.name, known=known, before=before)


def _see(s: Table, p: PlayerState, card: Card, line: int) -> None:
    owner = s.card_owners.get(card.text)
    if owner is None:
        s.card_owners[card.text] = p.name
    elif owner != p.name:
        s.report(CARDS_UNIQUE_TWO_OWNERS, line, card=card, owner=owner, player=p.name)


def _see_all(s: Table, p: PlayerState, cards: Iterable[Card], line: int) -> None:
    for card in cards:
        _see(s, p, card, line)


def on_community(s: Table, e: DealCommunity) -> None:
    """The 7th-street community card (:class:`~studbook.events.DealCommunity`): due, and new?
    May report: cards.community, cards.unique."""
    if s.street is not SEVENTH:
        s.report(CARDS_COMMUNITY_NOT_SEVENTH, e.line)
    elif s.community is not None:
        s.report(CARDS_COMMUNITY_SECOND, e.line)
    elif not s.needs_community_card():
        s.report(CARDS_COMMUNITY_NOT_DUE, e.line, left=s.deck_left(), live=s.live_count())
    owner = s.card_owners.get(e.card.text)
    if owner is not None and owner != "community":
        s.report(CARDS_UNIQUE_COMMUNITY, e.line, card=e.card, owner=owner)
    s.card_owners[e.card.text] = "community"
    s.community = e.card


def on_seat_summary(s: Table, e: SeatSummary) -> None:
    """The summary's cards of a seat (:class:`~studbook.events.SeatSummary`), checked as shown
    cards. May report: cards.consistent, cards.count, cards.unique."""
    if not e.cards:
        return
    p = s.by_name.get(e.player)
    if p is None or e.cards == p.shown:
        return
    check_shown(s, p, e.cards, e.line)
    if not p.shown and "showed" in e.outcome:
        p.shown = e.cards


def check_shown(s: Table, p: PlayerState, shown: tuple[Card, ...], line: int) -> None:
    """Cards a player shows (at the showdown, a muck or the summary) against what they were
    dealt and what others hold. May report: cards.consistent, cards.count, cards.unique."""
    own_texts: set[str] = set()  # cards are interned: a card's text is as unique as the card
    for card in shown:  # (a loop: a comprehension makes a function and a frame)
        own_texts.add(card.text)
    if len(own_texts) != len(shown):
        s.report(CARDS_UNIQUE_SHOWN_TWICE, line, player=p.name, cards=shown)
    community = s.community
    own: Sequence[Card] = shown
    limit = 7
    if community is not None:
        own = [c for c in shown if c is not community]
        own_texts.discard(community.text)
        limit = 6
    if len(own) > limit:
        s.report(CARDS_COUNT_SHOWN_BESIDES_COMMUNITY if community else CARDS_COUNT_SHOWN, line,
                    player=p.name, count=len(own), limit=limit)
    known = p.cards()
    if s.profile.shows_in_deal_order and len(own) == len(known) and len(known) >= 3:
        for k, c in zip(known, own):
            if k is not None and k is not c:
                s.report(CARDS_CONSISTENT_NOT_DEALT, line, player=p.name, shown=own, dealt=known)
                return
    else:
        missing = [c for c in known if c is not None and c.text not in own_texts]
        if len(own) >= len(known) and missing:
            s.report(CARDS_CONSISTENT_MISSING, line, player=p.name, shown=own, missing=missing)
            return
    owners = s.card_owners
    name = p.name
    for card in own:  # someone else's card
        owner = owners.get(card.text)
        if owner is not None and owner != name:
            s.report(CARDS_UNIQUE_SHOWS_ANOTHERS, line, player=name, card=card, owner=owner)
    _learn(s, p, own, line, known, len(own_texts) == len(own))


def _learn(s: Table, p: PlayerState, cards: Sequence[Card], line: int, known: list[Card | None] | None = None,
           distinct: bool = False) -> None:
    """Fill unknown down cards from cards the player revealed (``known``: ``p.cards()``;
    ``distinct``: no two of ``cards`` are one card, as :func:`check_shown` knows)."""
    if known is None:
        known = p.cards()
    mine: set[str] = set()  # the known cards' texts (a loop: a comprehension makes a function and a frame)
    if distinct and len(cards) == len(known):
        # as many distinct cards as dealt: one is new exactly where a card is unknown (none:
        # all of them are known, or one is new with no unknown place to take it, and nothing
        # changes), so the known cards' texts are not needed (a shown hand's common case)
        for card in known:  # (a loop: `None in known` compares each card with None through Card.__eq__)
            if card is None:
                break
        else:
            return  # nothing new, or nowhere to put it
    else:
        for card in known:
            if card is not None:
                mine.add(card.text)
        for card in cards:  # (a loop: a shown hand's first card is most often an unknown down card)
            if card.text not in mine:
                break
        else:
            return  # nothing new
    owners = s.card_owners
    name = p.name
    if not p.up and all(c is None for c in p.down):
        # the log never showed this player's deals: take the cards in dealing order
        p.down = [*cards[:2], *cards[6:7]]
        p.up = list(cards[2:6])
        p.up_ranks = rank_sum(p.up)
        for card in cards[:7]:
            owners.setdefault(card.text, name)
        return
    down = p.down
    if len(cards) == len(known):
        # the same count as dealt: each unknown slot takes the card shown in its place (only
        # down cards are unknown; in cards() order: down 0-1, then the up cards, then later
        # down cards)
        n_up = len(p.up)
        for i, k in enumerate(down):
            if k is None:
                card = cards[i if i < 2 else i + n_up]
                down[i] = card
                owners.setdefault(card.text, name)
        return
    for card in cards:
        if card.text in mine:
            continue
        i = next((j for j, c in enumerate(down) if c is None), -1)
        if i < 0:
            return
        down[i] = card
        owners.setdefault(card.text, name)

