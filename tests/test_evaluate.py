"""Hand evaluation against a slow, obviously-correct reference, known orderings,
known 5-card frequencies, partial boards and bring-in, and pokerkit where installed."""

from __future__ import annotations

from collections import Counter
from itertools import chain, combinations
from typing import Any, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from budget import examples

from studbook.cards import DECK, Card, parse_cards
from studbook.evaluate import (
    NO_LOW,
    board_high_key,
    board_low_key,
    bring_in_key,
    describe_high,
    describe_low,
    hand_indices,
    high_value,
    high_values,
    low8_value,
    low8_values,
    low_a5_value,
    low_a5_values,
)
from studbook.events import Variant
from studbook.evaluate.keys import RANK_WEIGHT, SUIT_WEIGHT
from studbook.evaluate.scalar import _CARD_WEIGHT, _RANKS_SHIFT, _SUITS_MASK

# ---------------------------------------------------------------- reference
# Categories, spelled out: the encoding promised by studbook.evaluate.values.
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
LOW_CATEGORY_BY_SHAPE = {
    (1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4, (4, 1): 5,
}

Ref = tuple[int, tuple[int, ...]]


def pack(ref: Ref) -> int:
    category, ranks = ref
    padded = list(ranks) + [0] * (5 - len(ranks))
    return (category << 20) | sum(r << (16 - 4 * i) for i, r in enumerate(padded))


def groups(ranks: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(shape, order): counts and ranks ordered by count, then rank, both descending."""
    ordered = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    return tuple(c for _, c in ordered), tuple(r for r, _ in ordered)


def ref_high5(cards: Sequence[Card]) -> Ref:
    ranks = sorted((c.rank for c in cards), reverse=True)
    shape, order = groups(ranks)
    flush = len({c.suit for c in cards}) == 1
    top = 0
    if len(shape) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif ranks == [14, 5, 4, 3, 2]:
        top = 5
    if top and flush:
        return STRAIGHT_FLUSH, (top,)
    if shape == (4, 1):
        return QUADS, order
    if shape == (3, 2):
        return FULL_HOUSE, order
    if flush:
        return FLUSH, tuple(ranks)
    if top:
        return STRAIGHT, (top,)
    return {(3, 1, 1): TRIPS, (2, 2, 1): TWO_PAIR, (2, 1, 1, 1): PAIR}.get(shape, HIGH_CARD), order


def ref_low5(cards: Sequence[Card]) -> Ref:
    shape, order = groups([c.low_rank for c in cards])
    return LOW_CATEGORY_BY_SHAPE[shape], order


def ref_high(cards: Sequence[Card]) -> int:
    return pack(max(ref_high5(five) for five in combinations(cards, 5)))


def ref_low(cards: Sequence[Card]) -> int:
    return pack(min(ref_low5(five) for five in combinations(cards, 5)))


def ref_low8(cards: Sequence[Card]) -> int | None:
    lows = [
        tuple(sorted((c.low_rank for c in five), reverse=True))
        for five in combinations(cards, 5)
    ]
    qualifying = [r for r in lows if len(set(r)) == 5 and r[0] <= 8]
    return pack((0, min(qualifying))) if qualifying else None


def ref_board_high(up: Sequence[Card]) -> tuple[int, ...]:
    """Best min(n, 5) up cards by groups only (no straights, no flushes)."""

    def key(cards: Sequence[Card]) -> tuple[int, ...]:
        shape, order = groups([c.rank for c in cards])
        first, second = shape[0], (shape[1] if len(shape) > 1 else 0)
        if first == 4:
            category = QUADS
        elif first == 3:
            category = FULL_HOUSE if second >= 2 else TRIPS
        elif first == 2:
            category = TWO_PAIR if second == 2 else PAIR
        else:
            category = HIGH_CARD
        return (category, *order)

    return max(key(part) for part in combinations(up, min(len(up), 5)))


def ref_board_low(up: Sequence[Card]) -> tuple[int, ...]:
    def key(cards: Sequence[Card]) -> tuple[int, ...]:
        shape, order = groups([c.low_rank for c in cards])
        first, second = shape[0], (shape[1] if len(shape) > 1 else 0)
        if first == 4:
            category = 5
        elif first == 3:
            category = 4 if second >= 2 else 3
        elif first == 2:
            category = 2 if second == 2 else 1
        else:
            category = 0
        return (category, *order)

    return min(key(part) for part in combinations(up, min(len(up), 5)))


# ---------------------------------------------------------------- strategies
def _sub_deck(ranks: str, suits: str) -> list[Card]:
    return [c for c in DECK if "23456789TJQKA"[c.rank - 2] in ranks and c.suit in suits]


# Small decks make flushes, straights, quads and 8-lows common enough to test.
DECKS = [
    list(DECK),
    _sub_deck("23456789TJQKA", "hs"),
    _sub_deck("A2345678", "cdhs"),
    _sub_deck("A23456", "cdhs"),
    _sub_deck("9TJQKA", "cdhs"),
    _sub_deck("A2345TJQK", "cd"),
]


@st.composite
def hands(draw: st.DrawFn, min_size: int = 5, max_size: int = 7) -> list[Card]:
    deck = draw(st.sampled_from(DECKS))
    size = draw(st.integers(min_size, max_size))
    return draw(st.permutations(deck))[:size]


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# ---------------------------------------------------------------- against the reference
@settings(max_examples=examples(600), deadline=None)
@given(hands())
def test_high_matches_reference(hand: list[Card]) -> None:
    assert high_value(hand) == ref_high(hand)


@settings(max_examples=examples(600), deadline=None)
@given(hands())
def test_low_a5_matches_reference(hand: list[Card]) -> None:
    assert low_a5_value(hand) == ref_low(hand)


@settings(max_examples=examples(600), deadline=None)
@given(hands())
def test_low8_matches_reference(hand: list[Card]) -> None:
    assert low8_value(hand) == ref_low8(hand)


@settings(max_examples=examples(300), deadline=None)
@given(hands(1, 7))
def test_board_keys_match_reference(up: list[Card]) -> None:
    assert board_high_key(up) == ref_board_high(up)
    assert board_low_key(up) == ref_board_low(up)


def _boards(most: int) -> list[tuple[Card, ...]]:
    """A board for every multiset of one to ``most`` ranks (each rank at most four times)."""
    from itertools import combinations_with_replacement

    suits: dict[int, list[Card]] = {r: [c for c in DECK if c.rank == r] for r in range(2, 15)}
    out = []
    for size in range(1, most + 1):
        for ranks in combinations_with_replacement(range(2, 15), size):
            if max(Counter(ranks).values()) <= 4:
                out.append(tuple(suits[r][i - ranks.index(r)] for i, r in enumerate(ranks)))
    return out


def test_board_keys_of_every_rank_multiset_match_reference() -> None:
    for up in _boards(5):
        assert board_high_key(up) == ref_board_high(up), up
        assert board_low_key(up) == ref_board_low(up), up


def test_a_board_key_makes_no_counter_and_no_comprehension() -> None:
    """order.first asks for the key of every board it has not seen (some two a simulated
    hand in a run of 600), so the keys are counted with loops: a Counter over a generator
    and a comprehension a group made a frame apiece, three times the rest of the work
    (main: Counter's calls and four frames more a board). Razz's rarer paired boards keep
    theirs."""
    import sys

    made: list[str] = []

    def profile(frame: Any, what: str, arg: Any) -> None:
        if what == "call" and frame.f_code.co_name not in (
                "board_high_key", "board_low_key", "_with_kickers", "low_rank"):
            made.append(frame.f_code.co_name)

    for up in _boards(4):
        unpaired = len({c.rank for c in up}) == len(up)
        sys.setprofile(profile)
        try:
            board_high_key(up)
            if unpaired:
                board_low_key(up)
        finally:
            sys.setprofile(None)
        assert made == [], (up, made)


@settings(max_examples=examples(200), deadline=None)
@given(hands(5, 7))
def test_board_low_key_of_five_or_more_is_the_a5_low(up: list[Card]) -> None:
    value = low_a5_value(up)
    ranks = [(value >> shift) & 15 for shift in (16, 12, 8, 4, 0)]
    assert board_low_key(up) == (value >> 20, *[r for r in ranks if r])


@settings(max_examples=examples(50), deadline=None)
@given(st.lists(hands(7, 7), min_size=1, max_size=40))
def test_batch_equals_scalar(batch: list[list[Card]]) -> None:
    idx = hand_indices(batch)
    assert high_values(idx).tolist() == [high_value(h) for h in batch]
    assert low_a5_values(idx).tolist() == [low_a5_value(h) for h in batch]
    assert low8_values(idx).tolist() == [
        NO_LOW if low8_value(h) is None else low8_value(h) for h in batch
    ]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_batch_equals_scalar_on_random_deals(size: int) -> None:
    rng = np.random.default_rng(size)
    idx = np.argsort(rng.random((20_000, 52)), axis=1)[:, :size]
    batch = [[DECK[i] for i in row] for row in idx.tolist()]
    assert high_values(idx).tolist() == [high_value(h) for h in batch]
    assert low_a5_values(idx).tolist() == [low_a5_value(h) for h in batch]
    assert hand_indices(batch).tolist() == idx.tolist()


# ---------------------------------------------------------------- known results
def _all_five_card_hands() -> np.ndarray:
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int8)
    return flat.reshape(-1, 5)


def test_every_five_card_hand_has_the_known_frequencies() -> None:
    idx = _all_five_card_hands()
    assert len(idx) == 2_598_960
    high = high_values(idx)
    assert len(np.unique(high)) == 7462
    by_category = Counter((high >> 20).tolist())
    assert [by_category[c] for c in range(9)] == [
        1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40,
    ]
    assert len(np.unique(low_a5_values(idx))) == 6175  # every rank multiset is its own low
    low8 = low8_values(idx)
    assert int((low8 != NO_LOW).sum()) == 56 * 4**5
    assert len(np.unique(low8[low8 != NO_LOW])) == 56


@pytest.mark.parametrize(
    "better, worse",
    [
        ("As 2d 3c 4h 5s", "Ks Qd Jc 9h 8s"),  # the wheel is a straight...
        ("2s 3d 4c 5h 6s", "As 2d 3c 4h 5s"),  # ...the lowest one
        ("Ts Jd Qc Kh As", "9s Td Jc Qh Ks"),
        ("Ah 2h 3h 4h 5h", "Ac Ad Ah As Ks"),  # steel wheel beats quads
        ("2h 5h 7h 9h Jh", "Ts Jd Qc Kh As"),  # flush beats straight
        ("Kc Kd 2h 2s 2d", "Ah Kh Qh Jh 9h"),  # full house beats flush
        ("Qs Qd 5c 5h As", "Qh Qc 5s 5d Ks"),  # two pair, kicker decides
        ("Qs Qd 6c 6h 2s", "Qh Qc 5s 5d As"),  # second pair before kicker
        ("8c 8d Ah 4s 3d", "8h 8s Kh Qs Jd"),
        ("Ac Kd Qh Js 9c", "Ac Kd Qh Js 8c"),
        ("3c 3d 3h 2s 2d", "2c 2h 2s As Ad"),
    ],
)
def test_high_orderings(better: str, worse: str) -> None:
    assert high_value(cards(better)) > high_value(cards(worse))


def test_high_ties_exactly_across_suits() -> None:
    assert high_value(cards("As Kd Qc Jh 9s 2c 3d")) == high_value(cards("Ad Kc Qs Jd 9h 3s 2h"))
    assert high_value(cards("Ad 2c 3s 4d 5h Kc Kd")) == high_value(cards("Ac 2d 3h 4s 5c"))
    assert high_value(cards("Ks Kd 9c 9h 4s 3c 2d")) == high_value(cards("Kc Kh 9s 9d 4h"))


@pytest.mark.parametrize(
    "seven, best",
    [
        ("Ah 2d 3c 4s 5h Kd Kc", "a straight, Ace to Five"),
        ("6h 6d 6c 8s 8h 2c 8c", "a full house, Eights full of Sixes"),
        ("Qh Qd 5c 5s 9h 9c 3c", "two pair, Queens and Nines"),
        ("2h 3h 4h 5h 6h 7h Ah", "a straight flush, Three to Seven"),
        ("Kh Kd Kc Ks Qh Qd Qc", "four of a kind, Kings"),
    ],
)
def test_best_five_of_seven(seven: str, best: str) -> None:
    assert describe_high(high_value(cards(seven))) == best


@pytest.mark.parametrize(
    "better, worse",
    [
        ("5c 4d 3h 2s Ac", "6c 4d 3h 2s Ac"),  # the wheel is the nuts
        ("Ah 2h 3h 4h 5h", "6c 4d 3h 2s Ac"),  # flushes and straights ignored
        ("8c 7d 5h 4s 3c", "8c 7d 6h 3s Ac"),  # 8,7,5,4,3 beats 8,7,6,3,A
        ("Kc Qd Jh Ts 9c", "Ac Ad 2h 3s 4c"),  # no pair beats a pair
        ("Ac Ad 2h 3s 4c", "2c 2d Ah 3s 4c"),  # pair of aces is the lowest pair
        ("Ac Ad 2h 2s Kc", "Ac Ad Ah 2s 3c"),  # two pair beats trips
        ("Ac Ad Ah 2s 3c", "Ac Ad Ah 2s 2c"),  # trips beat a full house
        ("Kc Kd Kh Qs Qc", "Ac Ad Ah As 2c"),  # a full house beats quads
    ],
)
def test_low_orderings(better: str, worse: str) -> None:
    assert low_a5_value(cards(better)) < low_a5_value(cards(worse))


def test_low_best_five_of_seven() -> None:
    assert describe_low(low_a5_value(cards("Kh Kd 8c 7s 6h 3c Ad"))) == "8,7,6,3,A"
    two_pair = low_a5_value(cards("2c 2d 2h 3s 3h 4c 4d"))
    assert describe_low(two_pair) == "two pair, Threes and Deuces"
    assert describe_low(low_a5_value(cards("Ac Ad 2c 2d 3c 3d Ks"))) == "a pair of Aces"


def test_low8() -> None:
    better, worse = low8_value(cards("8c 7d 5h 4s 3c")), low8_value(cards("8c 7d 6h 3s Ac"))
    assert better is not None and worse is not None and better < worse
    assert low8_value(cards("9c 7d 6h 3s Ac Kd Kc")) is None
    assert low8_value(cards("8c 8d 7h 6s 6c Ac Ad")) is None  # only four different low ranks
    assert low8_value(cards("Ac 2c 3c 4c 5c 9d 9h")) == low_a5_value(cards("5d 4d 3d 2d Ad"))
    assert describe_low(low8_value(cards("Kc 8d 7h 6s 3c Ac Qd"))) == "8,7,6,3,A"
    assert describe_low(None) == "no low"


@pytest.mark.parametrize(
    "text, wording",
    [
        ("Ac Kd 9h 7s 3c", "high card Ace"),
        ("8c 8d Ah 4s 3d", "a pair of Eights"),
        ("2c 2d Ah 4s 3d", "a pair of Deuces"),
        ("6c 6d Ah 4s 3d", "a pair of Sixes"),
        ("Qc Qd 5h 5s 3d", "two pair, Queens and Fives"),
        ("7c 7d 7h Ks 3d", "three of a kind, Sevens"),
        ("5c 6d 7h 8s 9d", "a straight, Five to Nine"),
        ("Tc Jd Qh Ks Ad", "a straight, Ten to Ace"),
        ("2h 5h 7h 9h Qh", "a flush, Queen high"),
        ("5c 5d 5h As Ad", "a full house, Fives full of Aces"),
        ("Ac Ad Ah As 3d", "four of a kind, Aces"),
        ("5h 6h 7h 8h 9h", "a straight flush, Five to Nine"),
        ("Th Jh Qh Kh Ah", "a Royal Flush"),
    ],
)
def test_describe_high_pokerstars_wording(text: str, wording: str) -> None:
    assert describe_high(high_value(cards(text))) == wording


def test_describe_low_pokerstars_wording() -> None:
    assert describe_low(low_a5_value(cards("Tc 5d 3h 2s Ac"))) == "T,5,3,2,A"
    assert describe_low(low_a5_value(cards("Qc Tc 9d 5h As"))) == "Q,T,9,5,A"


@pytest.mark.parametrize("size", [0, 1, 4, 8])
def test_wrong_number_of_cards_is_an_error(size: int) -> None:
    hand = list(DECK[:size])
    for evaluate in (high_value, low_a5_value, low8_value):
        with pytest.raises(ValueError):
            evaluate(hand)


def test_repeated_cards_that_cannot_be_a_hand_are_errors() -> None:
    with pytest.raises(ValueError):
        high_value(cards("As As As As As"))
    with pytest.raises(ValueError):
        high_value(cards("As As Ks Qs Js"))  # five spades, four ranks
    with pytest.raises(ValueError):
        high_values(np.full((1, 7), 51))
    with pytest.raises(ValueError):
        low_a5_values(np.full((2, 5), 0))
    with pytest.raises(ValueError):
        high_values(np.array([[48, 48, 44, 40, 36, 1, 2]]))  # five spades, four ranks
    with pytest.raises(ValueError):
        high_values(np.zeros((3, 4), dtype=int))
    with pytest.raises(ValueError):
        high_values(np.array([[0, 1, 2, 3, 52]]))


# ---------------------------------------------------------------- partial boards
@pytest.mark.parametrize(
    "better, worse",
    [
        ("2c 2d", "As Kd"),  # a pair of deuces beats A-K showing
        ("Ac Ad", "Kc Kd"),
        ("9c 9d Ah", "9h 9s Kh"),  # kicker
        ("7c 7d 7h", "Kc Kd Qh Qs"),  # trips beat two pair
        ("7c 7d 7h 2s", "Kc Kd Qh Qs"),
        ("Kc Kd Qh Qs", "Ac Ad Kh Qs"),  # two pair beat a pair
        ("2c 2d 2h 2s", "Ac Ad Ah Ks"),  # quads beat trips
        ("Ac 2d 3h 4s", "Ks Qd Jh Th"),  # high cards, ace high
        ("Ac Kd 3h 2s", "Ac Qd Jh Ts"),
        ("Ac", "Kd"),
        ("2c 2d", "5h 6h 7h 8h"),  # no straights, no flushes
        ("Ac 3d", "5h 6h 7h 8h"),
    ],
)
def test_board_high_orderings(better: str, worse: str) -> None:
    assert board_high_key(cards(better)) > board_high_key(cards(worse))


@pytest.mark.parametrize(
    "better, worse",
    [
        ("Ac 2d", "2c 3d"),  # A-2 beats 2-3
        ("Ac", "2d"),  # the ace is low
        ("Kc Qd", "2c 2d"),  # a pair counts against
        ("7c 6d 4h 2s", "8c 3d 2h Ac"),  # highest card first
        ("8c 7d 6h 3s", "8c 7d 6h 4s"),
        ("2c 2d 3h 4s", "Kc Kd Qh Js"),  # the lower pair
        ("Kc Kd Qh Qs", "2c 2d 2h 3s"),  # two pair beats trips
        ("2c 3d 4h 5s", "5h 6h 7h 8h"),  # no straights, no flushes: just lower
    ],
)
def test_board_low_orderings(better: str, worse: str) -> None:
    assert board_low_key(cards(better)) < board_low_key(cards(worse))


def test_board_keys_carry_no_suits() -> None:
    assert board_high_key(cards("Ah Kd")) == board_high_key(cards("As Kc"))
    assert board_high_key(cards("9h 9d 3c")) == board_high_key(cards("9s 9c 3h"))
    assert board_low_key(cards("Ah 5d 2c")) == board_low_key(cards("As 5c 2h"))
    assert board_high_key(cards("5h 6h 7h 8h")) == board_high_key(cards("5c 6d 7h 8s"))


def test_board_keys_with_a_community_card_or_more() -> None:
    assert board_high_key(cards("Kc Kd Kh 2s 2d")) > board_high_key(cards("Qc Qd Qh As Kd"))
    assert board_low_key(cards("5c 4d 3h 2s Ac")) < board_low_key(cards("6c 4d 3h 2s Ac"))


# ---------------------------------------------------------------- bring-in
def brings_in(doors: str, variant: str | Variant) -> str:
    return str(min(cards(doors), key=lambda card: bring_in_key(card, variant)))


@pytest.mark.parametrize("variant", ["stud", "stud8", Variant.STUD, Variant.STUD8])
def test_stud_bring_in(variant: str | Variant) -> None:
    assert brings_in("2d 2c", variant) == "2c"  # clubs lowest
    assert brings_in("2s 2h 2d", variant) == "2d"
    assert brings_in("3c 2s", variant) == "2s"  # rank before suit
    assert brings_in("Ac Kd", variant) == "Kd"  # ace high
    assert brings_in("As Ac Ad", variant) == "Ac"


@pytest.mark.parametrize("variant", ["razz", Variant.RAZZ])
def test_razz_bring_in(variant: str | Variant) -> None:
    assert brings_in("Kh Ks", variant) == "Ks"  # spades highest
    assert brings_in("Qs Kc", variant) == "Kc"  # king highest
    assert brings_in("As 2c", variant) == "2c"  # the ace is low, never over a 2
    assert brings_in("Ac Ad Ah As", variant) == "As"
    assert brings_in("7c 8c 3d", variant) == "8c"


@settings(max_examples=examples(200), deadline=None)
@given(st.permutations(DECK).map(lambda deck: deck[:8]))
def test_bring_in_matches_rule(doors: list[Card]) -> None:
    order = "cdhs"
    stud = min(doors, key=lambda c: bring_in_key(c, "stud"))
    assert stud == min(doors, key=lambda c: (c.rank, order.index(c.suit)))
    razz = min(doors, key=lambda c: bring_in_key(c, Variant.RAZZ))
    assert razz == max(doors, key=lambda c: (c.low_rank, order.index(c.suit)))


def test_unknown_variant() -> None:
    with pytest.raises(ValueError):
        bring_in_key(DECK[0], "holdem")


# ---------------------------------------------------------------- pokerkit, where installed
@settings(max_examples=examples(150), deadline=None)
@given(hands(7, 7), hands(7, 7))
def test_orderings_agree_with_pokerkit(first: list[Card], second: list[Card]) -> None:
    pokerkit = pytest.importorskip("pokerkit")

    def text(hand: list[Card]) -> str:
        return "".join(str(c) for c in hand)

    def sign(x: int) -> int:
        return (x > 0) - (x < 0)

    def pk_sign(kind: Any, a: list[Card], b: list[Card]) -> int | None:
        try:
            ha, hb = kind.from_game(text(a)), kind.from_game(text(b))
        except ValueError:
            return None
        return (ha > hb) - (ha < hb)

    assert sign(high_value(first) - high_value(second)) == pk_sign(
        pokerkit.StandardHighHand, first, second
    )
    assert sign(low_a5_value(second) - low_a5_value(first)) == pk_sign(
        pokerkit.RegularLowHand, first, second
    )
    low_first, low_second = low8_value(first), low8_value(second)
    if low_first is not None and low_second is not None:
        assert sign(low_second - low_first) == pk_sign(
            pokerkit.EightOrBetterLowHand, first, second
        )
    else:
        with pytest.raises(ValueError):
            pokerkit.EightOrBetterLowHand.from_game(text(first if low_first is None else second))


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=15))
def test_the_cards_packed_weights_part_into_their_rank_and_suit_sums(cards: list[Card]) -> None:
    """``high_value`` adds one packed figure a card, its rank's and suit's weights (i34e25):
    the sum of up to 15 of them, repeats and all (more than any hand), parts into the two
    sums exactly. Catches a rank field placed where a suit's count carries into it."""
    weights = sum(_CARD_WEIGHT[card.text] for card in cards)
    assert weights >> _RANKS_SHIFT == sum(RANK_WEIGHT[card.rank] for card in cards)
    assert weights & _SUITS_MASK == sum(SUIT_WEIGHT[card.suit] for card in cards)
