"""Playing cards.

A :class:`Card` is one of 52 interned instances, so cards compare by identity
and can be used as dict keys cheaply. ``Card.index`` runs 0..51 in the order
rank-major, suit-minor, with suits ordered clubs < diamonds < hearts < spades:
the order stud uses to break ties between equal door cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # bring-in tie-break order: clubs lowest, spades highest


@dataclass(frozen=True, slots=True)
class Card:
    rank: int  # 2..14, ace high (14)
    suit: str  # one of "cdhs"
    text: str = field(init=False, repr=False, compare=False)  # "Th": written once, as the card is made

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", RANKS[self.rank - 2] + self.suit)  # (frozen: no plain assignment)

    @property
    def index(self) -> int:
        return (self.rank - 2) * 4 + SUITS.index(self.suit)

    @property
    def suit_order(self) -> int:
        return SUITS.index(self.suit)

    @property
    def low_rank(self) -> int:
        """Rank with the ace counted low (1), as razz and lowball count it."""
        return 1 if self.rank == 14 else self.rank

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @staticmethod
    def parse(text: str) -> "Card":
        """Parse ``"Th"``, ``"10h"`` or ``"th"`` into the interned card; raise ValueError."""
        try:
            return _BY_TEXT[text]
        except KeyError:
            pass
        normalised = text.strip()
        if normalised[:2] == "10":
            normalised = "T" + normalised[2:]
        if len(normalised) == 2:
            card = _BY_TEXT.get(normalised[0].upper() + normalised[1].lower())
            if card is not None:
                return card
        raise ValueError(f"not a card: {text!r}")


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in SUITS)
_BY_TEXT: dict[str, Card] = {str(card): card for card in DECK}
_CARD = _BY_TEXT.__getitem__  # bound once: parse_cards runs on every new run of cards


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse space-separated cards, e.g. ``"3d Th As"``."""
    try:  # the usual case: every card written as "Th"
        return tuple(map(_CARD, text.split()))
    except KeyError:
        return tuple(Card.parse(part) for part in text.split())


def format_cards(cards: Iterable[Card]) -> str:
    """The cards' texts, space separated: ``"3d Th As"`` (each card's text kept on it; the rows
    call this some nine times a hand). A list of the texts, then one join: ``join`` over ``map``
    grows a list of its own as it goes, a third more for four cards. The list is filled by a
    loop, not a comprehension: on CPython 3.11 a comprehension makes a function object and a
    frame each time it runs, a third of this call's cost for a run of one to four cards."""
    texts: list[str] = []
    for card in cards:
        texts.append(card.text)
    return " ".join(texts)
