"""The rule ids of the rule book (``RULES.md`` of the shared material), one constant each.

Every violation the engine reports names one of these; ``tests/test_rule_ids.py``
compares :data:`RULE_IDS` with the rule book both ways. An id is public: never
rename one, add new ones. The constants follow the rule book's sections.
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
