"""Cards' text: kept on each card as it is made, read by format_cards (i34m8)."""

from __future__ import annotations

import pickle

from hypothesis import given, strategies as st

from studbook.cards import DECK, RANKS, Card, format_cards, parse_cards


def test_every_card_keeps_its_text_and_compares_and_hashes_by_rank_and_suit() -> None:
    for card in DECK:
        assert card.text == str(card) == RANKS[card.rank - 2] + card.suit
        assert Card(card.rank, card.suit).text == card.text  # a card made anew writes its own
        assert Card(card.rank, card.suit) == card and hash(card) == hash((card.rank, card.suit))  # as before
        assert repr(card) == f"Card({card.text!r})"
        copy = pickle.loads(pickle.dumps(card))
        assert copy == card and copy.text == card.text
    assert Card(10, "h").text == "Th" and Card(14, "s").text == "As"


@given(st.lists(st.sampled_from(DECK), max_size=8))
def test_format_cards_writes_each_cards_text_space_separated(cards: list[Card]) -> None:
    text = format_cards(cards)
    assert text == " ".join(RANKS[card.rank - 2] + card.suit for card in cards)
    assert format_cards(iter(cards)) == text  # any iterable, once
    assert parse_cards(text) == tuple(cards)
