"""The engine's small fixed costs a hand (issue 34, round i34e8): each asks its question
once, and the answers are what the general definitions give."""

from __future__ import annotations

import random
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from studbook.cards import DECK, Card
from studbook.check import TableKey, TableMemory, check_file_result
from studbook.evaluate import board_high_key, board_low_key
from studbook.events import Hand
from studbook.parse import parse_paths
from studbook.engine.table import BOARD_KEYS, board_key, packed_board_key

ROOT = Path(__file__).resolve().parent.parent


class _Rebuilding(TableMemory):
    """A memory that builds the key again to remember a hand, as main did (the reference)."""

    __slots__ = ()

    def remember(self, hand: Hand, ante: Decimal | None, amount: Decimal) -> None:
        self.bring_ins.setdefault(TableMemory.key(hand), {}).setdefault(ante, (amount, hand.hand_id))


def test_a_hands_table_key_is_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``TableMemory`` builds a hand's table key once: ``bring_in_for`` at the hand's start
    and ``remember`` at its end ask the same key (main: built twice for every hand whose
    bring-in is remembered). The bring-ins remembered and every result are the reference's."""
    files = list(parse_paths([ROOT / "histories"]))
    reference = _Rebuilding()
    expected = [check_file_result(f, reference).results for f in files]
    built: Counter[tuple[str, int]] = Counter()
    key = TableMemory.key

    def counting(hand: Hand) -> TableKey:
        built[hand.file, hand.line] += 1
        return key(hand)

    monkeypatch.setattr(TableMemory, "key", staticmethod(counting))
    memory = TableMemory()
    assert [check_file_result(f, memory).results for f in files] == expected
    assert memory.bring_ins == reference.bring_ins and memory.bring_ins
    hands = sum(len(f.hands) for f in files)
    assert len(built) == hands and set(built.values()) == {1}, Counter(built.values())


def test_a_hand_remembered_without_being_asked_about_uses_its_own_key() -> None:
    """``remember`` for another hand than the one last asked about builds that hand's key."""
    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    first = hands[0]
    other = next(h for h in hands if TableMemory.key(h) != TableMemory.key(first))
    memory = TableMemory()
    assert memory.bring_in_for(first) is None
    memory.remember(other, None, Decimal(1))
    assert list(memory.bring_ins) == [TableMemory.key(other)]
    memory.remember(first, None, Decimal(2))
    assert list(memory.bring_ins) == [TableMemory.key(other), TableMemory.key(first)]


def test_the_one_bring_in_remembered_at_a_table_answers_for_another_ante() -> None:
    """``bring_in_for``: a hand whose ante the table's memory does not hold gets the one
    bring-in remembered there, and nothing when two were (i34e25 reads the one value by a
    loop, not ``next(iter(...))``). Catches a first value returned where two are held."""
    hand = next(h for f in parse_paths([ROOT / "histories"]) for h in f.hands)
    antes = [Decimal("0.0625"), Decimal("0.03125")]
    assert hand.header.stakes.ante not in antes
    memory = TableMemory()
    memory.remember(hand, antes[0], Decimal(3))
    assert memory.bring_in_for(hand) == (Decimal(3), hand.hand_id)
    memory.remember(hand, antes[1], Decimal(5))
    assert memory.bring_in_for(hand) is None


def _generator_frames(boards: list[list[Card]], low: bool) -> tuple[list[int], int]:
    made = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal made
        if event == "call" and frame.f_code.co_name == "<genexpr>":
            made += 1

    sys.setprofile(profile)
    try:
        keys = [board_key(up, low) for up in boards]
    finally:
        sys.setprofile(None)
    return keys, made


@pytest.mark.parametrize("low", [False, True])
def test_a_new_boards_key_makes_no_generator_and_is_the_evaluators(low: bool) -> None:
    """A high board met for the first time is keyed without a generator expression's frame
    (main: ``_neg``'s, every new high board; razz's paired low boards keep the evaluator's
    own); the key is the evaluator's, negated for the high boards (smallest acts first), packed
    in one int (``packed_board_key``), whatever the memo held."""
    rng = random.Random(34)
    boards = [rng.sample(DECK, rng.randint(1, 5)) for _ in range(2000)]
    saved = BOARD_KEYS[low].copy()
    BOARD_KEYS[low].clear()
    try:
        keys, made = _generator_frames(boards, low)
        again, _ = _generator_frames(boards, low)
    finally:
        BOARD_KEYS[low].clear()
        BOARD_KEYS[low].update(saved)
    if not low:
        assert made == 0
    expected = [packed_board_key(board_low_key(up), False) if low else packed_board_key(board_high_key(up), True)
                for up in boards]
    assert keys == expected and again == expected


def _sign(a: object, b: object) -> int:
    return (a > b) - (a < b)  # type: ignore[operator]


_BOARD = st.lists(st.sampled_from(DECK), min_size=1, max_size=16, unique=True)


@settings(max_examples=examples(1000), deadline=None)
@given(_BOARD, _BOARD, st.booleans())
def test_the_packed_board_keys_order_every_two_boards_as_the_evaluators_tuples(
        one: list[Card], other: list[Card], low: bool) -> None:
    """order.first compares boards by ``board_key``'s ints (one rich comparison of tuples a
    figure was its cost): two boards of one to sixteen cards, high or low, compare as the
    evaluator's tuples do (the high boards' negated: smallest acts first), ties included.
    Fails with a figure's field too narrow, a missing figure not below every figure (a short
    key, such as a full house's, after a longer one it prefixes), or a high key not negated."""
    def reference(up: list[Card]) -> tuple[int, ...]:
        return board_low_key(up) if low else tuple(-k for k in board_high_key(up))

    a, b = board_key(one, low), board_key(other, low)
    assert type(a) is int and type(b) is int
    assert _sign(a, b) == _sign(reference(one), reference(other))


def test_a_short_key_sorts_before_the_longer_ones_it_prefixes() -> None:
    """A tuple that prefixes another sorts first; so must its packed int (the missing figures
    are 0, below every figure): a low key, and a high key's negated tuple, as main's tuples sorted."""
    assert packed_board_key((4, 3, 2), False) < packed_board_key((4, 3, 2, 1), False)
    assert packed_board_key((1, 14), True) < packed_board_key((1, 14, 13), True)  # (-1, -14) < (-1, -14, -13)
    assert packed_board_key((0, 14, 13, 12, 11, 10), True) < packed_board_key((0, 2), True)  # -14 < -2


class _Counting(dict[Any, Any]):
    """The memory's tables, counting the look-ups by key."""

    asked = 0

    def get(self, key: Any, default: Any = None) -> Any:
        self.asked += 1
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.asked += 1
        return super().__contains__(key)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self.asked += 1
        return super().setdefault(key, default)


def test_remember_looks_a_table_up_once_keeps_the_first_bring_in_and_stays_bounded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``remember`` looks the hand's table up once (main: twice, ``in`` and ``setdefault``,
    and a new dict made each time); the first bring-in remembered for an ante stays, and at
    :data:`MAX_TABLES` tables a new table pushes out the first remembered, a known one nothing."""
    monkeypatch.setattr("studbook.check.MAX_TABLES", 2)
    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    tables: dict[TableKey, Hand] = {}
    for h in hands:
        tables.setdefault(TableMemory.key(h), h)
    first, second, third = list(tables.values())[:3]
    memory = TableMemory(_Counting())
    counting = memory.bring_ins
    assert isinstance(counting, _Counting)
    for hand, ante, amount in ((first, None, "1"), (first, None, "2"), (first, Decimal("0.5"), "3"),
                               (second, None, "4"), (first, None, "5"), (third, None, "6")):
        asked = counting.asked
        memory.remember(hand, ante, Decimal(amount))
        assert counting.asked - asked == 1
    assert memory.bring_ins == {
        TableMemory.key(second): {None: (Decimal(4), second.hand_id)},
        TableMemory.key(third): {None: (Decimal(6), third.hand_id)},
    }


def _board_keys_in_a_process(tmp: Path, boards: list[str], derive: bool) -> list[list[int]]:
    """Each board's keys (high, then low) in a ``studbook`` process whose temporary folder is
    ``tmp``; without ``derive``, a board key worked out rather than read back fails the process."""
    import json
    import os
    import subprocess

    script = (
        "import json, sys\n"
        "from studbook.cards import parse_cards\n"
        "from studbook.engine import table\n"
        + ("" if derive else "def _no(*_):\n    raise AssertionError('a board key worked out, not read back')\n"
                              "table._board_key = _no\n")
        + f"print(json.dumps([[table.board_key(parse_cards(b), low) for low in (False, True)] for b in {boards!r}]))\n"
    )
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    keys: list[list[int]] = json.loads(done.stdout)
    return keys


def test_a_boards_key_is_kept_between_processes_and_read_back_as_worked_out(tmp_path: Path) -> None:
    """A process's new board keys are kept in the temporary folder (``table._KEPT_BOARD_KEYS``,
    by variant and ranks) and a later process reads them back instead of working them out: the
    same keys as the evaluators give here. Fails if the keys are not kept (the second process
    works one out), or kept by something other than what a key depends on (a suit: a board of
    the same ranks in other suits would read another's key or none)."""
    rng = random.Random(3434)
    boards = [rng.sample(DECK, rng.randint(1, 5)) for _ in range(300)]
    texts = [" ".join(card.text for card in up) for up in boards]
    first = _board_keys_in_a_process(tmp_path, texts, derive=True)
    # the same ranks in other suits: read back, not worked out
    resuited = [" ".join(text[0] + rng.choice("cdhs") for text in t.split()) for t in texts]
    again = _board_keys_in_a_process(tmp_path, resuited, derive=False)
    expected = [[packed_board_key(board_high_key(up), True), packed_board_key(board_low_key(up), False)]
                for up in boards]
    assert first == expected and again == expected
