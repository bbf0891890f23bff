"""The rule book in Python: each rule id with its section and what it says.

The engine's violations name rule ids (:data:`studbook.engine.rules.RULE_IDS`);
this is what each id means, in the words of the project's rule book
(``RULES.md`` of the shared material, kept equal to it by
``tests/test_rulebook.py``). :func:`describe` gives one rule's text,
:func:`rule_table` all of them as a DataFrame (for a notebook)::

    >>> from studbook import describe_rule
    >>> describe_rule("bet.cap")[:40]
    'At most four bets per round: one bet (or'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the book: its id, section, text and sources (the seeds it cites)."""

    id: str
    section: str
    text: str
    source: str


RULES: dict[str, Rule] = {rule.id: rule for rule in (
    Rule('deal.players', 'Deal and cards',
         '2 to 8 players are dealt in.',
         '001, 003'),
    Rule('deal.ante', 'Deal and cards',
         "Every player posts the same ante (the header's) before the deal; a player with fewer chips posts all they have and is all-in. Antes do not count toward later bets.",
         '001, 003'),
    Rule('deal.pattern', 'Deal and cards',
         '3rd street: two down cards and one up card (door card). 4th, 5th, 6th: one up card each. 7th (river): one down card. Five betting rounds.',
         '000, 001, 003'),
    Rule('deal.order', 'Deal and cards',
         'Cards are dealt clockwise; only players still in the hand receive cards on later streets; an all-in player keeps receiving cards.',
         '000 r16'),
    Rule('cards.unique', 'Deal and cards',
         'One 52-card deck: no card appears twice in a hand (hole, up, community, shown).',
         'standard'),
    Rule('cards.consistent', 'Deal and cards',
         'A card shown at showdown or dealt to the hero must agree with what the log showed earlier for that player (same up cards, same order).',
         '000 r18'),
    Rule('cards.count', 'Deal and cards',
         'A live hand at showdown has exactly seven cards (community card included); more than seven is dead. Fewer than seven is dead, except a player missing only the seventh card.',
         '000 r18'),
    Rule('cards.community', 'Deal and cards',
         'If the deck cannot give every remaining player a 7th-street card (8 players left: 48 dealt, 4 remain), one community card is turned face up and plays in every hand. The player now high (low in razz) on board *using the community card* acts first. Never a community card when the deck suffices.',
         '000 r15, 001, 003'),
    Rule('bringin.player', 'Bring-in (3rd street)',
         'Stud and Stud8: the lowest up card brings in; ace is high; a tie in rank is broken by suit, clubs lowest, then diamonds, hearts, spades. Razz: the highest up card brings in; ace is low, king highest; ties by suit, spades highest.',
         '000 r2, 001, 003'),
    Rule('bringin.allin', 'Bring-in (3rd street)',
         'If the bring-in player is all-in from the ante, the player to their left acts first and no bring-in is owed; if they have chips for only part of the bring-in, that partial bring-in stands and the others must still enter for at least the normal amount.',
         '000 r4'),
    Rule('bringin.amount', 'Bring-in (3rd street)',
         "The bring-in is the table's fixed bring-in (often half the small bet, 001/003, but sites set their own: a tournament level 1000/2000 may bring in for 300). It is more than zero and less than the small bet, and every hand at the same table and stakes uses the same bring-in unless the bring-in player is all-in for less. Instead of bringing in, the player may open for the full small bet (complete).",
         '000 r3, 001, 003'),
    Rule('bringin.complete', 'Bring-in (3rd street)',
         'Raising the bring-in to the small bet is a completion, not a raise; only a player facing just the bring-in may complete, and only to exactly the small bet.',
         '000 r6, 002'),
    Rule('order.third', 'Order of action',
         'On 3rd street the bring-in acts first, then play goes clockwise.',
         '000 r2, 003'),
    Rule('order.first', 'Order of action',
         'From 4th street on, the best hand showing acts first: Stud and Stud8 highest board (pairs, two pair, trips, quads, then high cards; straights and flushes do not count); Razz lowest board (A-5 low, pairs count against). A tie is broken by position: the player first in dealing order (first clockwise from the dealer) acts first.',
         '000 r2, 001, 003'),
    Rule('order.turn', 'Order of action',
         'Action goes clockwise; only a live player who is not all-in acts; nobody acts twice in a row or out of turn; a folded hand never acts again. A round ends when every live, not-all-in player has acted and matched the highest bet (or folded).',
         '000 r8, r10, standard'),
    Rule('order.streets', 'Order of action',
         'Streets come in order 3rd, 4th, 5th, 6th, 7th; no betting round is skipped while two or more players can still bet; when at most one player can still bet, remaining cards are dealt with no betting.',
         '000, standard'),
    Rule('bet.size', 'Bet sizes (fixed limit)',
         '3rd and 4th street: every bet and raise is the small bet; 5th, 6th, 7th: the big bet. A raise adds exactly one bet unit to the amount to call.',
         '000, 001, 003'),
    Rule('bet.open_pair', 'Bet sizes (fixed limit)',
         'Stud and Stud8 only: when any player shows an open pair on 4th street, any player may bet or raise either the small or the big bet; once a big bet or raise is made, every later raise on that street is a big bet.',
         '000 r7, 001, 002'),
    Rule('bet.cap', 'Bet sizes (fixed limit)',
         'At most four bets per round: one bet (or the completion) and three raises; then only call or fold. A bring-in is not a bet. Heads-up exceptions are site profiles.',
         '000 r6, 001, 003'),
    Rule('bet.allin', 'Bet sizes (fixed limit)',
         'A player may bet, raise or call for less than the full amount only when that puts them all-in. An all-in raise of less than half a bet does not reopen the betting for players who already acted; half a bet or more counts as a full raise.',
         "standard (Robert's Rules, limit)"),
    Rule('bet.check', 'Bet sizes (fixed limit)',
         'A player may check only when there is no bet to call on this street (the bring-in is a bet to call).',
         'standard'),
    Rule('chips.stack', 'Chips, pots, showdown',
         'Table stakes: nobody puts in more than the chips they started the hand with; a stack never goes negative.',
         'standard'),
    Rule('pot.uncalled', 'Chips, pots, showdown',
         'An uncalled bet (or its unmatched part) is returned to the bettor, exactly.',
         'standard'),
    Rule('pot.side', 'Chips, pots, showdown',
         'An all-in player competes only for what they matched from each opponent; side pots are built from the excess, in order.',
         'standard'),
    Rule('pot.total', 'Chips, pots, showdown',
         'The stated total pot equals the sum of all contributions less returned bets; each stated side pot matches; collected amounts plus rake equal the total pot.',
         '001 (rake), standard'),
    Rule('showdown.order', 'Chips, pots, showdown',
         'At showdown the last aggressor of the final round shows first (first in position if nobody bet), then clockwise; others may show or muck.',
         '003'),
    Rule('showdown.award', 'Chips, pots, showdown',
         'Each pot goes to the best eligible hand among those shown: Stud highest five of seven; Razz lowest A-5 five of seven; Stud8 half to the best high, half to the best 8-or-better low (five different ranks 8 or lower, ace low, straights and flushes ignored), the whole pot to the high when no low qualifies. Tied hands split; an odd chip goes to the high half, and among tied hands per the site profile. An uncontested pot goes to the last live player.',
         '000, 001, 003'),
    Rule('showdown.no_refund', 'Chips, pots, showdown',
         "A caller beaten by the opponent's open cards gets no refund. (Not a violation to flag: it documents that such a call is legal.)",
         '000 r19'),
)}
"""Every rule of the book by id, in the book's order."""


def describe(rule: str) -> str:
    """What rule ``rule`` (an id such as ``"bet.size"``) says; KeyError naming the
    known ids for an unknown one."""
    try:
        return RULES[rule].text
    except KeyError:
        raise KeyError(f"no rule {rule!r}; the rules are {', '.join(RULES)}") from None


def rule_table() -> Any:
    """The rule book as a DataFrame indexed by rule id: ``section``, ``text``, ``source``."""
    import pandas as pd

    return pd.DataFrame([(r.id, r.section, r.text, r.source) for r in RULES.values()],
                        columns=["rule", "section", "text", "source"]).set_index("rule")


__all__ = ["RULES", "Rule", "describe", "rule_table"]
