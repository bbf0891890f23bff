"""The rule ids of the rule book (``docs/rules.md``), one constant each.

Every violation the engine reports names one of these; ``tests/test_rule_ids.py``
compares :data:`RULE_IDS` with the rule book both ways. An id is public: never
rename one, add new ones. The constants follow the rule book's sections.

The checks follow them too, one module of this package a section, each a
set of functions of the hand's state (:class:`~studbook.engine.table.Table`)
that ask it questions and report through its one reporter, through its public
parts only (the table's docstring lists what a rule may read and call;
``tests/test_rule_ids.py`` fails on a private name used here); the state machine
(:class:`~studbook.engine.state.StudState`) sends each event to its section's
function: :mod:`.deal` (deal and cards), :mod:`.order` (order of action),
:mod:`.bringin` (the bring-in posted), :mod:`.bets` (bet sizes, and
``legal_actions()``'s sizes), :mod:`.showdown` (the uncalled bet, showing,
collections); ``engine/settle.py`` judges the money at the end of a hand.
:data:`CHECKED_IN` answers "where is rule X checked?" (kept true by a test), and
:data:`studbook.engine.messages.SAYS` "what can rule X say?" (each message defined
once there, filed under its rule).
"""

from __future__ import annotations

from typing import Final

# Deal and cards
DEAL_PLAYERS: Final = "deal.players"
DEAL_ANTE: Final = "deal.ante"
DEAL_PATTERN: Final = "deal.pattern"
DEAL_ORDER: Final = "deal.order"
CARDS_UNIQUE: Final = "cards.unique"
CARDS_CONSISTENT: Final = "cards.consistent"
CARDS_COUNT: Final = "cards.count"
CARDS_COMMUNITY: Final = "cards.community"

# Bring-in (3rd street)
BRINGIN_PLAYER: Final = "bringin.player"
BRINGIN_ALLIN: Final = "bringin.allin"
BRINGIN_AMOUNT: Final = "bringin.amount"
BRINGIN_COMPLETE: Final = "bringin.complete"

# Order of action
ORDER_THIRD: Final = "order.third"
ORDER_FIRST: Final = "order.first"
ORDER_TURN: Final = "order.turn"
ORDER_STREETS: Final = "order.streets"

# Bet sizes (fixed limit)
BET_SIZE: Final = "bet.size"
BET_OPEN_PAIR: Final = "bet.open_pair"
BET_CAP: Final = "bet.cap"
BET_ALLIN: Final = "bet.allin"
BET_CHECK: Final = "bet.check"

# Chips, pots, showdown
CHIPS_STACK: Final = "chips.stack"
POT_UNCALLED: Final = "pot.uncalled"
POT_SIDE: Final = "pot.side"
POT_TOTAL: Final = "pot.total"
SHOWDOWN_ORDER: Final = "showdown.order"
SHOWDOWN_AWARD: Final = "showdown.award"
SHOWDOWN_NO_REFUND: Final = "showdown.no_refund"  # documents a legal play: never flagged

RULE_IDS: Final = frozenset({
    DEAL_PLAYERS, DEAL_ANTE, DEAL_PATTERN, DEAL_ORDER,
    CARDS_UNIQUE, CARDS_CONSISTENT, CARDS_COUNT, CARDS_COMMUNITY,
    BRINGIN_PLAYER, BRINGIN_ALLIN, BRINGIN_AMOUNT, BRINGIN_COMPLETE,
    ORDER_THIRD, ORDER_FIRST, ORDER_TURN, ORDER_STREETS,
    BET_SIZE, BET_OPEN_PAIR, BET_CAP, BET_ALLIN, BET_CHECK,
    CHIPS_STACK, POT_UNCALLED, POT_SIDE, POT_TOTAL,
    SHOWDOWN_ORDER, SHOWDOWN_AWARD, SHOWDOWN_NO_REFUND,
})
"""Every rule id of the rule book."""

CHECKED_IN: Final[dict[str, tuple[str, ...]]] = {
    DEAL_PLAYERS: ("rules/deal.py",),
    DEAL_ANTE: ("rules/deal.py", "rules/order.py"),  # order: dealt in without an ante, found as betting starts
    DEAL_PATTERN: ("rules/deal.py",),
    DEAL_ORDER: ("rules/deal.py",),
    CARDS_UNIQUE: ("rules/deal.py",),
    CARDS_CONSISTENT: ("rules/deal.py", "rules/showdown.py"),  # showdown: a seatless player shows
    CARDS_COUNT: ("rules/deal.py",),
    CARDS_COMMUNITY: ("rules/deal.py",),
    BRINGIN_PLAYER: ("rules/bringin.py", "rules/order.py", "rules/bets.py"),  # who acts first; fold/check/call instead
    BRINGIN_ALLIN: ("rules/order.py", "rules/bets.py"),  # who acts first after it; a check instead
    BRINGIN_AMOUNT: ("rules/bringin.py",),
    BRINGIN_COMPLETE: ("rules/bets.py",),  # a completion is a bet
    ORDER_THIRD: ("rules/order.py",),
    ORDER_FIRST: ("rules/order.py",),
    ORDER_TURN: ("rules/order.py",),
    ORDER_STREETS: ("rules/order.py", "rules/deal.py", "rules/showdown.py"),  # cards, showdown too early
    BET_SIZE: ("rules/bets.py",),
    BET_OPEN_PAIR: ("rules/bets.py",),
    BET_CAP: ("rules/bets.py",),
    BET_ALLIN: ("rules/bets.py",),
    BET_CHECK: ("rules/bets.py",),
    CHIPS_STACK: ("table.py",),  # wherever chips go in
    POT_UNCALLED: ("rules/showdown.py", "settle.py"),  # returned wrongly; never returned
    POT_SIDE: ("settle.py",),
    POT_TOTAL: ("settle.py",),
    SHOWDOWN_ORDER: ("rules/showdown.py",),
    SHOWDOWN_AWARD: ("rules/showdown.py", "settle.py"),
    SHOWDOWN_NO_REFUND: (),  # documents a legal play: never flagged
}
"""Each rule id: the modules of ``studbook/engine/`` that check it, its own section's first."""
