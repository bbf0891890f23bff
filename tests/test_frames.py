"""Frames from hand-built hands: schema, money, the betting accumulator, classes.

``HandBuilder`` (a small fixture factory) is shared by the other test files of
issue #4 (``from test_frames import HandBuilder``): it writes a hand event by
event and works out a plain ``HandCheck`` for it, the way the engine would for
a legal hand (players, pots, nets), so these tests need no parser; each
action's facts (``HandCheck.actions``) are the engine's own, as in a real check.
"""

from __future__ import annotations

from collections import Counter

from dataclasses import replace
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from studbook.cards import Card, parse_cards
from studbook.check import check_hand
from studbook.engine.result import HandCheck, Party, PlayerResult, PotAward, Violation
from studbook.events import (
    Action, ActionKind, Collect, Deal, Event, Half, Hand, HandHeader, PostAnte, Rejected,
    Seat, Show, ShowdownStart, Skipped, Stakes, Street, StreetStart, Structure,
    UncalledReturned, Variant,
)
from studbook.money import parse_amount
from studbook.frames import (
    MONEY_SCALE, SCHEMA, Column, Frames, frames_from_checks, from_minor, schema_markdown,
    starting_class, to_minor,
)
from samples import CORPUS


@pytest.fixture(autouse=True)
def _no_stakes_from_an_earlier_test() -> None:
    """Each test's first hand works its stakes' figures out (``rows._LAST_STAKES`` keeps the
    last hand's: a test that replaces a memo they come from would else meet an earlier test's)."""
    from studbook import rows

    rows._LAST_STAKES[0] = None


def _logging_memo(convert: Any, log: list[Any]) -> Any:
    """A memo of ``convert`` that writes each key it is asked for into ``log`` (which
    conversions the rows ask for, and by what: text or value)."""
    from studbook.read.memo import Memo

    class Logging(Memo[Any, int]):
        def __getitem__(self, key: Any) -> int:
            log.append(key)
            return super().__getitem__(key)

    return Logging(convert)

D = Decimal


class HandBuilder:
    """Write a hand event by event; ``check()`` gives the HandCheck of a legal hand.

    Amounts are strings or Decimals in currency units. Seats are dealt in the
    order given. ``act`` takes the log's figures: chips put in for bring-in,
    bet and call; ``to`` (the street total) for complete and raise.
    """

    def __init__(
        self, hand_id: str, players: dict[str, str] | None = None, *,
        variant: str = "stud", ante: str = "0.01", bring_in: str = "0.02",
        small: str = "0.04", big: str = "0.08", site: str = "pokerstars",
        currency: str | None = "USD", file: str = "test.txt", started: datetime | None = None,
    ) -> None:
        players = players or {"A": "1.00", "B": "1.00", "C": "1.00", "D": "1.00"}
        self.file = file
        self.header = HandHeader(
            site=site, hand_id=hand_id, variant=Variant(variant), structure=Structure.FIXED,
            game="7 Card Stud Limit", currency=currency,
            stakes=Stakes(small_bet=D(small), big_bet=D(big), ante=D(ante),
                          bring_in=D(bring_in)),
            table="T", max_seats=8,
            started_utc=started or datetime(2024, 1, 1, 12, 0, tzinfo=timezone.utc),
        )
        self.line = 1
        self.seats = tuple(
            Seat(file=file, line=self._next(), seat=i + 1, player=name, stack=D(stack))
            for i, (name, stack) in enumerate(players.items())
        )
        self.events: list[Event] = []
        self.street = Street.THIRD
        self.street_in: dict[str, Decimal] = {}
        self.put: dict[str, Decimal] = {p: D(0) for p in players}
        self.collected: dict[str, Decimal] = {p: D(0) for p in players}
        self.halves: list[tuple[str, Decimal, Half | None, int]] = []
        self.folded: set[str] = set()
        self.all_in: set[str] = set()
        self.last: dict[str, Street] = {p: Street.THIRD for p in players}
        self.up: dict[str, list[Card]] = {p: [] for p in players}
        self.down: dict[str, list[Card]] = {p: [] for p in players}
        self.shown: set[str] = set()
        self.showdown = False
        for name in players:
            self._add(PostAnte, player=name, amount=D(ante))
            self.put[name] += D(ante)
        self.street_marker(3)

    def _next(self) -> int:
        self.line += 1
        return self.line

    def _add(self, cls: type, **kw: Any) -> Event:
        event = cls(file=self.file, line=self._next(), **kw)
        self.events.append(event)
        return event

    def street_marker(self, street: int) -> HandBuilder:
        self.street = Street(street)
        self.street_in = {}
        self._add(StreetStart, street=self.street)
        return self

    def deal(self, player: str, up: str = "", down: str = "") -> HandBuilder:
        self._add(Deal, player=player, street=self.street, up=parse_cards(up),
                  down=parse_cards(down))
        self.up[player] += parse_cards(up)
        self.down[player] += parse_cards(down)
        self.last[player] = self.street
        return self

    def act(self, player: str, kind: str, amount: str | None = None, to: str | None = None,
            all_in: bool = False) -> HandBuilder:
        action_kind = ActionKind(kind)
        before = self.street_in.get(player, D(0))
        if to is not None:
            total = D(to)
        elif amount is not None:
            total = before + D(amount)
        else:
            total = before
        self.street_in[player] = total
        self.put[player] += total - before
        if action_kind is ActionKind.FOLD:
            self.folded.add(player)
        if all_in:
            self.all_in.add(player)
        self._add(Action, player=player, kind=action_kind,
                  amount=None if amount is None else D(amount),
                  to=None if to is None else D(to), all_in=all_in)
        return self

    def returned(self, player: str, amount: str) -> HandBuilder:
        self.put[player] -= D(amount)
        self._add(UncalledReturned, player=player, amount=D(amount))
        return self

    def show(self, player: str, cards: str) -> HandBuilder:
        if not self.showdown:
            self.showdown = True
            self._add(ShowdownStart)
        self.shown.add(player)
        self._add(Show, player=player, cards=parse_cards(cards))
        return self

    def collect(self, player: str, amount: str, half: str | None = None,
                pot: int = 0) -> HandBuilder:
        self.collected[player] += D(amount)
        self.halves.append((player, D(amount), Half(half) if half else None, pot))
        self._add(Collect, player=player, amount=D(amount), pot=pot,
                  half=Half(half) if half else None)
        return self

    def hand(self) -> Hand:
        return Hand(file=self.file, line=1, end_line=self.line, header=self.header,
                    seats=self.seats, events=tuple(self.events))

    def check(self, violations: tuple[Violation, ...] = (), rake: str = "0") -> HandCheck:
        players = []
        for seat in self.seats:
            name = seat.player
            live_at_showdown = self.showdown and name not in self.folded
            players.append(PlayerResult(
                player=name, seat=seat.seat, stack=seat.stack, contributed=self.put[name],
                collected=self.collected[name], net=self.collected[name] - self.put[name],
                last_street=self.last[name], folded=name in self.folded,
                all_in=name in self.all_in, showed=name in self.shown,
                won_at_showdown=live_at_showdown and self.collected[name] > 0,
                up_cards=tuple(self.up[name]), down_cards=tuple(self.down[name]),
            ))
        total = sum(self.put.values(), D(0)) - D(rake)
        high = tuple((p, a) for p, a, half, _ in self.halves if half is not Half.LOW)
        low = tuple((p, a) for p, a, half, _ in self.halves if half is Half.LOW)
        live = tuple(s.player for s in self.seats if s.player not in self.folded)
        pots = (PotAward(pot=0, amount=total, eligible=live, high=high, low=low),)
        hand = self.hand()
        return HandCheck(hand=hand, violations=violations, players=tuple(players),
                         pots=pots, rake=D(rake), went_to_showdown=self.showdown,
                         action_log=check_hand(hand).action_log)


def steal_hand(hand_id: str = "1") -> HandBuilder:
    """Four players; D steals from the last seats, B (bring-in) defends by calling.

    Antes 4 x 0.01. 3rd: B brings in 0.02, C folds, D completes to 0.04, A
    folds, B calls 0.02. 4th: B checks, D bets 0.04, B folds; 0.04 returned.
    Pot = 0.04 antes + 0.04 + 0.04 = 0.12, D collects 0.12 (no rake).
    Nets: A -0.01, B -0.05, C -0.01, D +0.07.
    """
    b = HandBuilder(hand_id)
    b.deal("A", "Kd", "Ah 2d").deal("B", "2c").deal("C", "9h").deal("D", "Qs")
    b.act("B", "bring_in", "0.02").act("C", "fold").act("D", "complete", to="0.04")
    b.act("A", "fold").act("B", "call", "0.02")
    b.street_marker(4).deal("B", "5d").deal("D", "Qh")
    b.act("B", "check").act("D", "bet", "0.04").act("B", "fold")
    b.returned("D", "0.04").collect("D", "0.12")
    return b


def showdown_hand(hand_id: str = "2") -> HandBuilder:
    """Three players to a showdown; A (hero, cards known) wins 0.90 net of 0.03 rake.

    3rd: C brings in 0.02 (door 3c), A completes to 0.04, B calls 0.04, C calls 0.02.
    4th: A bets 0.04, B raises to 0.08, C folds, A calls 0.04.
    5th-7th: A bets 0.08, B calls 0.08, each street.
    Contributions: A = 0.01+0.04+0.08+0.24 = 0.37, B = 0.37, C = 0.01+0.04 = 0.05.
    Pot 0.79, rake 0.03, A collects 0.76. Nets: A +0.39, B -0.37, C -0.05.
    """
    b = HandBuilder(hand_id, {"A": "2.00", "B": "2.00", "C": "2.00"})
    b.deal("A", "Ks", "Kh 7c").deal("B", "Jd").deal("C", "3c")
    b.act("C", "bring_in", "0.02").act("A", "complete", to="0.04").act("B", "call", "0.04")
    b.act("C", "call", "0.02")
    b.street_marker(4).deal("A", "4s").deal("B", "Td").deal("C", "8h")
    b.act("A", "bet", "0.04").act("B", "raise", "0.04", to="0.08").act("C", "fold")
    b.act("A", "call", "0.04")
    for street, a_up, b_up in ((5, "9c", "2s"), (6, "5h", "6h")):
        b.street_marker(street).deal("A", a_up).deal("B", b_up)
        b.act("A", "bet", "0.08").act("B", "call", "0.08")
    b.street_marker(7).deal("A", down="Kc").deal("B")
    b.act("A", "bet", "0.08").act("B", "call", "0.08")
    b.show("A", "Kh 7c Ks 4s 9c 5h Kc").show("B", "Jc Jh Jd Td 2s 6h 3d")
    b.collect("A", "0.76")
    return b


# ---------------------------------------------------------------------------


def test_schema_is_the_frames_columns_and_dtypes() -> None:
    frames = frames_from_checks([steal_hand().check(), showdown_hand().check()])
    for name, frame in frames.tables():
        expected = [(c.name, c.dtype) for c in SCHEMA[name]]
        assert [(col, str(frame[col].dtype)) for col in frame.columns] == expected, name


def test_empty_input_gives_typed_empty_frames() -> None:
    frames = frames_from_checks([])
    assert len(frames) == 0
    assert str(frames.players["net"].dtype) == "int32"


def test_hands_frame() -> None:
    frames = frames_from_checks([showdown_hand().check(rake="0.03")])
    row = frames.hands.iloc[0]
    assert (row.site, row.hand_id, row.variant, row.currency) == ("pokerstars", "2", "stud", "USD")
    assert row.stakes == "$0.04/$0.08 USD"
    assert (row.small_bet, row.big_bet, row.ante, row.bring_in) == (4, 8, 1, 2)
    assert row.players == 3
    assert row.pot == 79 and row.rake == 3  # 0.37 + 0.37 + 0.05; cents
    assert row.pot_bb == pytest.approx(79 / 8)
    assert row.went_to_showdown and row.status == "ok" and row.violations == 0
    assert row.started_utc == pd.Timestamp("2024-01-01 12:00", tz="UTC")


def test_players_frame_money_is_exact_minor_units() -> None:
    frames = frames_from_checks([showdown_hand().check(rake="0.03")])
    players = frames.players.set_index("player")
    assert players.loc["A", "net"] == 39 and players.loc["B", "net"] == -37
    assert players.loc["C", "net"] == -5
    assert players["contributed"].sum() == 79
    assert players["net"].sum() == -3  # the rake
    assert players.loc["A", "net_bb"] == pytest.approx(39 / 8)
    assert from_minor(players.loc["A", "net"]) == D("0.39")
    assert players.loc["A", "high_won"] == 76 and players.loc["A", "low_won"] == 0


def test_players_frame_cards_and_streets() -> None:
    frames = frames_from_checks([showdown_hand().check()])
    players = frames.players.set_index("player")
    a = players.loc["A"]
    assert a.door == "Ks" and a.up_cards == "Ks 4s 9c 5h"
    assert a.down_cards == "Kh 7c Kc"
    assert a.start_cards == "Kh 7c Ks" and a.start_class == "split pair"
    assert a.last_street == 7 and a.showdown and a.won_at_showdown and not a.folded
    c = players.loc["C"]
    assert c.brought_in and c.folded and c.last_street == 4 and not c.showdown
    assert pd.isna(c.start_cards) and pd.isna(c.start_class)


def test_action_accumulator_worked_by_hand() -> None:
    actions = frames_from_checks([showdown_hand().check()]).actions
    rows = actions[["street", "player", "kind", "put_in", "to_call", "facing_bet",
                    "bets_before", "pot_before"]].head(8).values.tolist()
    assert rows == [
        # antes 0.03 in the pot before anyone acts
        [3, "C", "bring_in", 2, 0, False, 0, 3],
        [3, "A", "complete", 4, 2, True, 0, 5],   # faces the bring-in only
        [3, "B", "call", 4, 4, True, 1, 9],
        [3, "C", "call", 2, 2, True, 1, 13],
        [4, "A", "bet", 4, 0, False, 0, 15],
        [4, "B", "raise", 8, 4, True, 1, 19],     # raise 0.04 to 0.08
        [4, "C", "fold", 0, 8, True, 2, 27],
        [4, "A", "call", 4, 4, True, 2, 27],
    ]
    assert actions["seq"].tolist() == list(range(len(actions)))
    assert actions["put_in"].sum() + 3 == 79  # all bets plus antes


def test_uncalled_bet_returned_lowers_the_pot() -> None:
    actions = frames_from_checks([steal_hand().check()]).actions
    last = actions.iloc[-1]
    # pot before B's fold on 4th: 0.04 antes + 0.08 (3rd) + 0.04 (D's bet)
    assert (last.player, last.kind, last.pot_before, last.to_call) == ("B", "fold", 16, 4)


def test_raise_without_to_uses_the_increment() -> None:
    b = HandBuilder("r", {"A": "1", "B": "1"})
    b.deal("A", "2c").deal("B", "Kd")
    b.act("A", "bring_in", "0.02").act("B", "complete", to="0.04")
    b.act("A", "raise", "0.04")  # increment only: to 0.08
    check = b.check()
    actions = frames_from_checks([check]).actions
    assert actions["put_in"].tolist() == [2, 4, 6]
    assert actions["bets_before"].tolist() == [0, 0, 1]


def test_pots_frame_split_pot() -> None:
    b = HandBuilder("s", {"A": "1", "B": "1"}, variant="stud8")
    b.deal("A", "2c").deal("B", "Kd")
    b.act("A", "bring_in", "0.02").act("B", "call", "0.02")
    b.show("A", "Ac 3d 2c 4h 5s 9d 9c").show("B", "Kc Ks Kd 7h 8h Qs Jc")
    b.collect("B", "0.03", half="high").collect("A", "0.03", half="low")
    pots = frames_from_checks([b.check()]).pots
    assert pots[["pot_kind", "half", "winner", "won"]].values.tolist() == [
        ["main", "high", "B", 3], ["main", "low", "A", 3],
    ]
    players = frames_from_checks([b.check()]).players.set_index("player")
    assert players.loc["A", "low_won"] == 3 and players.loc["B", "high_won"] == 3


def test_violations_rows_carry_the_violations_own_fields() -> None:
    """The player is the violation's own, not whoever's event sits on its line: a pot
    violation at D's line names nobody, one naming C at D's line names C."""
    b = steal_hand("v")
    d_complete = next(e for e in b.events if isinstance(e, Action) and e.player == "D")
    check = b.check(violations=(
        Violation("pot.total", d_complete.line, "expected 0.04", street=Street.THIRD, expected=D("0.04"),
                  actual=D("0.05")),
        Violation("order.turn", d_complete.line, "C is to act, not D", street=Street.FOURTH, party=Party.PLAYER,
                  player="D", seat=4, expected="C", actual="D"),
        Violation("showdown.award", d_complete.line, "x", street=Street.SEVENTH,
                  expected=(("C", D("0.10")), ("D", (D("0.05"), D("0.06")))), actual=()),
    ))
    frames = frames_from_checks([check])
    rows = frames.violations[["rule", "line", "file", "player", "street", "party", "seat", "expected", "actual"]]
    assert rows.astype(object).where(rows.notna(), None).values.tolist() == [
        ["pot.total", d_complete.line, "test.txt", None, "3rd", "site", None, "0.04", "0.05"],
        ["order.turn", d_complete.line, "test.txt", "D", "4th", "player", 4, "C", "D"],
        ["showdown.award", d_complete.line, "test.txt", None, "7th", "site", None, "C 0.10, D 0.05-0.06", ""],
    ]
    assert frames.hands.iloc[0].status == "violations"


def test_rejected_and_skipped_go_to_rejects() -> None:
    frames = frames_from_checks([
        Rejected(file="f.txt", line=12, hand_line=10, reason="bad amount", text="x $",
                 hand_id="77"),
        Skipped(file="f.txt", line=30, hand_id="78", game="Hold'em No Limit"),
        steal_hand().check(),
    ])
    assert frames.rejects[["status", "hand_id", "line", "hand_line"]].values.tolist() == [
        ["rejected", "77", 12, 10], ["skipped", "78", 30, 30],
    ]
    assert len(frames.hands) == 1


def test_amount_finer_than_a_cent_is_rejected_not_rounded() -> None:
    b = HandBuilder("fine", {"A": "1.005", "B": "1"})
    b.deal("A", "2c").deal("B", "Kd").act("A", "bring_in", "0.02").act("B", "fold")
    frames = frames_from_checks([b.check()])
    assert len(frames.hands) == 0
    assert "finer than 1/100" in frames.rejects.iloc[0].reason
    with pytest.raises(ValueError):
        to_minor(D("0.001"))
    assert to_minor(D("1250")) == 1250 * MONEY_SCALE


@pytest.mark.parametrize(("cards", "variant", "expected"), [
    ("7c 7d 7s", "stud", "rolled-up trips"),
    ("Qc Qd 5s", "stud", "buried pair"),
    ("Qc 5d 5s", "stud", "split pair"),
    ("2h 9h Kh", "stud", "three to a flush"),
    ("5c 6d 8s", "stud", "three to a straight"),
    ("Ac 2d 4s", "stud", "three to a straight"),  # ace low
    ("Qc Kd As", "stud", "three to a straight"),
    ("Ac 3d 8s", "stud8", "three low (8 or under)"),
    ("Ac Kd 3s", "stud", "high cards"),
    ("Ac 3d 9s", "stud", "ace and two small"),
    ("Ac 3d 9s", "stud8", "ace and two small"),  # 9 is not low
    ("Ac 3d 8s", "stud", "ace and two small"),
    ("2c 7d Js", "stud", "one high card (T to K)"),
    ("Kc 2d 7s", "stud", "one high card (T to K)"),
    ("2c 7d 9s", "stud", "three small (9 or under)"),
    ("Ac 2d 3s", "razz", "3-low"),
    ("7c 2d 5s", "razz", "7-low"),
    ("Kc 2d 5s", "razz", "K-low"),
    ("Ac Ad 5s", "razz", "paired"),
])
def test_starting_class(cards: str, variant: str, expected: str) -> None:
    assert starting_class(parse_cards(cards), variant) == expected


@pytest.mark.parametrize("variant", ["stud", "stud8", "razz"])
def test_starting_classes_name_every_start_and_none_holds_most(variant: str) -> None:
    # every ordered start (down, down, door) of a deck: each class of the variant's list
    # occurs, no other, and no class is a catch-all (the old stud 'other' held 42% of starts)
    from itertools import permutations

    from studbook.rows import VARIANT_CLASSES

    deck = [Card.parse(rank + suit) for rank in "23456789TJQKA" for suit in "cdhs"]
    counts = Counter(starting_class(start, variant) for start in permutations(deck, 3))
    assert set(counts) == set(VARIANT_CLASSES[variant])
    assert max(counts.values()) / sum(counts.values()) < 0.3, counts.most_common(2)


def test_schema_markdown_lists_every_column() -> None:
    text = schema_markdown()
    for columns in SCHEMA.values():
        for column in columns:
            assert f"`{column.name}`" in text


# ---------------------------------------------------------------------------
# Whole logs (the shipped histories; the real corpus, read in place): the accumulator agrees with the engine



@pytest.mark.parametrize("folder", [
    pytest.param(Path(__file__).resolve().parents[1] / "histories", id="histories"),
    pytest.param(CORPUS / "PokerStars", id="corpus", marks=pytest.mark.skipif(
        not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}"))])
def test_accumulator_agrees_with_the_engine_on_real_logs(folder: Path) -> None:
    from studbook.frames import check_results

    results = list(check_results([folder]))
    frames = frames_from_checks(results)
    assert len(frames.hands) > 0
    outside_actions = {}  # antes less uncalled bets returned, per hand
    for result in results:
        if isinstance(result, HandCheck):
            events = result.hand.events
            outside_actions[(result.hand.site, result.hand.hand_id)] = sum(
                to_minor(e.amount) for e in events if isinstance(e, PostAnte)) - sum(
                to_minor(e.amount) for e in events if isinstance(e, UncalledReturned))
    put_in = frames.actions.groupby(["site", "hand_id"], observed=True)["put_in"].sum()
    for key, pot in frames.hands.set_index(["site", "hand_id"])["pot"].items():
        assert put_in.get(key, 0) + outside_actions[key] == pot, key
    actions = frames.actions
    assert (actions["to_call"] >= 0).all() and (actions["put_in"] >= 0).all()
    capped = set(frames.violations.loc[frames.violations["rule"] == "bet.cap", "hand_id"])  # a 5th bet, flagged
    assert actions.loc[~actions["hand_id"].isin(capped), "bets_before"].between(0, 4).all()
    players = frames.players
    assert (players["net"] == players["collected"] - players["contributed"]).all()
    assert frames.rejects["status"].isin(["rejected", "skipped"]).all()


def test_subset_by_variant_keeps_every_table_consistent() -> None:
    razz = HandBuilder("z", {"A": "1", "B": "1"}, variant="razz")
    razz.deal("A", "Kc").deal("B", "2d").act("A", "bring_in", "0.02").act("B", "fold")
    razz.returned("A", "0").collect("A", "0.04")
    frames = frames_from_checks([steal_hand().check(), razz.check()])
    only = frames.subset(variants=["razz"])
    assert only.hands["hand_id"].tolist() == ["z"]
    assert set(only.players["hand_id"]) == set(only.actions["hand_id"]) == {"z"}
    assert len(frames.subset(sites=["pokerstars"])) == 2


def test_ante_and_bring_in_come_from_the_log_when_the_header_has_none() -> None:
    import dataclasses

    b = steal_hand("posted")
    b.header = dataclasses.replace(b.header, stakes=dataclasses.replace(b.header.stakes, ante=None, bring_in=None))
    check = b.check()
    antes = [e for e in check.hand.events if isinstance(e, PostAnte)]
    # one posts a wrong ante and one goes all-in for that much: the all-in one does not
    # count, so the ante most posted (0.01 by two) stands
    odd = {antes[0].player: dataclasses.replace(antes[0], amount=D("0.02")),
           antes[1].player: dataclasses.replace(antes[1], amount=D("0.02"), all_in=True)}
    events = tuple(odd.get(getattr(e, "player", None), e) if isinstance(e, PostAnte) else e for e in check.hand.events)
    check = dataclasses.replace(check, hand=dataclasses.replace(check.hand, events=events))
    row = frames_from_checks([check]).hands.iloc[0]
    assert (row.ante, row.bring_in) == (1, 2)
    stated = steal_hand("stated").check()
    row = frames_from_checks([stated]).hands.iloc[0]
    assert (row.ante, row.bring_in) == (to_minor(stated.hand.header.stakes.ante), to_minor(stated.hand.header.stakes.bring_in))


def test_readme_schema_tables_are_schema_markdown() -> None:
    root = Path(__file__).resolve().parents[1]
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    assert any(schema_markdown() in page.read_text(encoding="utf-8") for page in pages), \
        "the README or a docs page holds the schema (schema_markdown())"


def test_load_only_the_frames_and_columns_asked_for(tmp_path: Path) -> None:
    from studbook.frames import check_results, load
    from studbook.simulate import simulate_hands, write_hands
    from studbook.store import import_results

    log = tmp_path / "hands.txt"
    log.write_text(write_hands(simulate_hands("stud8", 30, 5, seed=3)), encoding="utf-8")
    db = tmp_path / "hands.db"
    import_results(db, check_results([log]))
    full = load(db)
    for source in (db, [log]):
        lean = load(source, frames=["players"], columns={"players": ["player", "net"]})
        assert lean.loaded() == ("players",)
        assert list(lean.players.columns) == ["site", "hand_id", "player", "net"]
        assert lean.players["net"].tolist() == full.players["net"].tolist()
        assert lean.actions["kind"].tolist() == full.actions["kind"].tolist()  # loaded when used
        assert "actions" in lean.loaded()
        # the same categories where the tables hold the same values, across the tables loaded
        # later too (one dtype object on pandas 3; pandas 2 copies it into each column)
        assert lean.actions["hand_id"].dtype == lean.players["hand_id"].dtype
        assert lean.actions["hand_id"].cat.categories.equals(lean.players["hand_id"].cat.categories)
    with pytest.raises(ValueError, match="no column nope in players"):
        load(db, frames=["players"], columns={"players": ["nope"]})
    with pytest.raises(ValueError, match="no table 'seats'"):
        load(db, frames=["seats"])


def test_lean_dtypes_widen_rather_than_wrap() -> None:
    from studbook.lean import TableBuilder

    columns = [Column("a", "int8", ""), Column("b", "Int32", ""), Column("c", "category", "")]
    builder = TableBuilder(columns, rows=2)
    builder.add([(1, None, "x"), (2, 5, None)])
    builder.add([(300, 2**40, "a")])  # more rows than announced, and wider values
    frame = builder.frame()
    assert frame["a"].tolist() == [1, 2, 300] and str(frame["a"].dtype) == "int16"
    assert str(frame["b"].dtype) == "Int64" and frame["b"].tolist()[1:] == [5, 2**40]
    assert list(frame["c"].cat.categories) == ["a", "x"] and frame["c"].isna().tolist() == [False, True, False]
    with pytest.raises(ValueError, match="missing values"):
        TableBuilder([Column("a", "int8", "")]).add([(None,)])


@pytest.mark.parametrize("folder", [
    pytest.param(Path(__file__).resolve().parents[1] / "histories", id="histories"),
    pytest.param(CORPUS, id="corpus", marks=pytest.mark.skipif(
        not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}"))])
def test_the_rows_find_the_hero_in_their_own_pass_over_the_events(folder: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # the rows read each hand's events once (rows._scan): Hand.hero's pass of its own
    # over them was a tenth of the rows' cost; the hero must come out the same
    from studbook.frames import check_results
    from studbook.rows import rows_from_checks

    results = [r for r in check_results([folder]) if isinstance(r, HandCheck)]
    heroes = {(r.hand.site, r.hand.hand_id): r.hand.hero() or (None, None) for r in results}
    assert any(hero != (None, None) for hero in heroes.values())

    def second_pass(hand: Hand) -> None:
        raise AssertionError("Hand.hero passed over the events again")

    monkeypatch.setattr(Hand, "hero", second_pass)
    hero_at = [c.name for c in SCHEMA["hands"]].index("hero")
    rows = rows_from_checks(results)["hands"]
    assert {(row[0], row[1]): (row[hero_at], row[hero_at + 1]) for row in rows} == heroes


def test_a_zero_or_logged_amount_of_an_action_is_not_written_out_to_find_its_minor_units(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # each amount the rows convert is written out with str (rows._MINOR): a check or a
    # fold puts nothing in and most actions owe nothing, so those zeros are taken as 0
    from studbook import rows
    from studbook.engine.result import fact_fields

    written: list[str] = []
    check = showdown_hand().check()
    monkeypatch.setattr(rows, "_MINOR", _logging_memo(rows._MINOR.convert, written))
    monkeypatch.setattr(rows, "_BY_TEXT", (str, rows._MINOR))  # a cash hand's figures, by their text
    made = rows._action_rows(check, "s", "1", rows._figure_keys(check.hand), None)
    facts = fact_fields(check.action_log)
    zeros = sum(1 for f in facts for amount in (f[3], f[4]) if amount == 0)
    assert zeros >= 6  # checks, folds, actions owing nothing
    figures = sum(1 for f in facts for amount in (f[3], f[4]) if amount is not None)  # the engine's
    # what an action put in equal to an amount the log wrote, what it owed equal to what it put in:
    # those minor units are the logged amount's (rows._WRITTEN), not written out again
    logged = sum(1 for f in facts if f[3] and f[3] in (f[0].amount, f[0].to))
    owed_put = sum(1 for f in facts if f[4] and f[4] == f[3])
    assert logged >= 4 and owed_put >= 2  # calls, bets, the bring-in
    pots = [f[6] for f in facts]
    new_pots = sum(1 for before, pot in zip([None, *pots], pots) if pot is not before)  # a pot unchanged: not again
    assert 0 < new_pots < len(pots)
    assert len(made) == len(facts) and len(written) == figures - zeros - logged - owed_put + new_pots
    minor = [c.name for c in rows.SCHEMA["actions"]]
    put_in, to_call = minor.index("put_in"), minor.index("to_call")
    assert [(row[put_in], row[to_call]) for row in made] == [
        (rows._exact_minor(f[3]), rows._exact_minor(f[4])) for f in facts]  # the same minor units


def test_the_stakes_of_hands_alike_are_written_out_once_and_as_each_log_wrote_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a file's hands share their stakes: rows._LABELS writes each out once (two
    # format_amount calls a hand were a few percent of the rows), by the bets' texts,
    # so 0.040 (an equal Decimal) keeps a label of its own
    from studbook import rows
    from studbook.money import format_amount

    written: list[Decimal] = []

    def counting(value: Decimal, symbol: str = "") -> str:
        written.append(value)
        return format_amount(value, symbol)

    monkeypatch.setattr(rows, "format_amount", counting)
    monkeypatch.setattr(rows, "_LABELS", type(rows._LABELS)(rows._label))
    checks = [steal_hand(str(n)).check() for n in range(5)]
    checks.append(HandBuilder("x", small="0.040", big="0.080").act("A", "fold").check())
    hands = frames_from_checks(checks).hands
    assert hands["stakes"].tolist() == ["$0.04/$0.08 USD"] * 5 + ["$0.040/$0.080 USD"]
    assert len(written) == 4


def _scaled_and_rounded(amount: Decimal) -> int:
    """Minor units as rows._exact_minor worked them out before 2026-12-04 (i34m7): the
    Decimal scaled, rounded and compared; the reference for the fraction it takes now."""
    scaled = amount * MONEY_SCALE
    integral = scaled.to_integral_value()
    if scaled != integral:
        raise ValueError(f"amount {amount} is finer than 1/{MONEY_SCALE} of a unit")
    return int(integral)


_WRITTEN_AMOUNTS = st.one_of(
    # as logs write them: "0.5", "1.50", "2", "-3.40", "0.00", finer ones ("0.005") refused
    st.builds(lambda sign, whole, places, digits: D(f"{sign}{whole}" + (f".{digits:0{places}d}"[:places + 1] if places else "")),
              st.sampled_from(["", "-"]), st.integers(0, 10**12), st.integers(0, 4), st.integers(0, 9999)),
    # "1.5K", "2M": a positive exponent
    st.builds(lambda figure, suffix: parse_amount(f"{figure}{suffix}"),
              st.sampled_from(["1", "1.5", "2.25", "0.5", "10", "999.99"]), st.sampled_from(["K", "M"])),
    # what the engine's arithmetic makes: sums and differences of mixed exponents
    st.builds(lambda a, b: D(a) - D(b), st.sampled_from(["1.50", "2", "0.5", "1.5E+3", "0.00", "0.04"]),
              st.sampled_from(["0.50", "3", "0.05", "2E+1", "0"])),
)


@given(_WRITTEN_AMOUNTS)
def test_minor_units_are_the_amounts_the_decimal_scaled_and_rounded_gave(amount: Decimal) -> None:
    from studbook import rows

    def outcome(convert: Any) -> object:  # the minor units, or the refusal's message
        try:
            return convert(amount)
        except ValueError as error:
            return str(error)

    expected, found = outcome(_scaled_and_rounded), outcome(rows._exact_minor)
    assert found == expected and type(found) is type(expected)
    if isinstance(expected, int):
        assert to_minor(amount) == expected and rows._MINOR[str(amount)] == expected


def test_a_players_stack_and_net_are_not_looked_up_by_their_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # stacks are mostly amounts not met before (a miss cost three conversions) and the net
    # is collected less contributed: only those two are looked up (what was collected when
    # it is not 0), and the rows are the same
    from studbook import rows

    check = showdown_hand().check()
    written: list[str] = []
    monkeypatch.setattr(rows, "_MINOR", _logging_memo(rows._MINOR.convert, written))
    monkeypatch.setattr(rows, "_BY_TEXT", (str, rows._MINOR))  # a cash hand's figures, by their text
    seen = rows._scan(check.hand)
    _, won = rows._pot_rows(check, ("s", "1"), rows._figure_keys(check.hand), None)
    written.clear()  # the forced bets' and the pots'
    made = rows._player_rows("s", "1", "stud", 8, 8, check, seen, won, rows._figure_keys(check.hand), None)
    assert sorted(written) == sorted(str(amount) for p in check.players for amount in (p.contributed, p.collected)
                                     if amount)  # nothing collected: 0, not written out
    assert any(not p.collected for p in check.players)
    columns = [c.name for c in SCHEMA["players"]]
    for row, result in zip(made, check.players):
        values = dict(zip(columns, row))
        assert values["stack"] == to_minor(result.stack) and values["net"] == to_minor(result.net)
        assert values["net_bb"] == to_minor(result.net) / 8


def test_a_start_known_from_the_revealed_cards_is_written_from_their_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # B's start is known only from the cards shown at the showdown: its text is cut from the
    # down and up cards' texts, written once each; A's 3rd-street deal line shows the engine's
    # very first two down cards and door (the same objects): cut from those texts too
    # (2026-12-05, i34m12: A's start was written out a third time)
    from studbook import rows
    from studbook.cards import format_cards

    check = check_hand(showdown_hand().hand())  # the engine's results: B's down cards from the showdown
    formatted: list[tuple[Card, ...]] = []

    def counting(cards: tuple[Card, ...]) -> str:
        formatted.append(tuple(cards))
        return format_cards(cards)

    monkeypatch.setattr(rows, "format_cards", counting)
    seen = rows._scan(check.hand)
    made = rows._player_rows("s", "1", "stud", 8, 8, check, seen, {}, rows._figure_keys(check.hand), None)
    start_at = [c.name for c in SCHEMA["players"]].index("start_cards")
    starts = {row[3]: row[start_at] for row in made}
    by_player = {p.player: p for p in check.players}
    assert starts["B"] == format_cards(by_player["B"].down_cards[:2] + by_player["B"].up_cards[:1]) == "Jc Jh Jd"
    assert [row[start_at + 1] for row in made if row[3] == "B"] == ["rolled-up trips"]
    assert starts["A"] == "Kh 7c Ks" and starts["C"] is None
    ups_and_downs = sum((len(p.up_cards) > 1) + bool(p.down_cards) for p in check.players)  # (one card: its text)
    assert len(formatted) == ups_and_downs  # nothing written for A's start
    # a start the deal line showed that is not those objects is written from its own cards:
    # equal cards (the same text), and other cards than the engine's (its own text)
    figures = rows._figure_keys(check.hand)
    for start in ((Card(13, "h"), Card(7, "c"), Card(13, "s")), (Card(2, "d"), Card(3, "d"), Card(4, "d"))):
        seen.starts["A"] = start
        formatted.clear()
        made = rows._player_rows("s", "1", "stud", 8, 8, check, seen, {}, figures, None)
        assert start in formatted and len(formatted) == ups_and_downs + 1
        assert {row[3]: row[start_at] for row in made}["A"] == format_cards(start)


def test_a_run_of_one_card_is_its_cards_text_not_written_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # A and C fold on 3rd street with their door alone up: a run of one card is the card's
    # own text (2026-12-05, i34m16: format_cards was called for it, 3.2 times a simulated hand);
    # the door is the first up card's text, whatever the run's length
    from studbook import rows
    from studbook.cards import format_cards

    check = steal_hand().check()
    formatted: list[tuple[Card, ...]] = []

    def counting(cards: tuple[Card, ...]) -> str:
        formatted.append(tuple(cards))
        return format_cards(cards)

    monkeypatch.setattr(rows, "format_cards", counting)
    made = rows._player_rows("s", "1", "stud", 8, 8, check, rows._scan(check.hand), {},
                             rows._figure_keys(check.hand), None)
    names = [c.name for c in SCHEMA["players"]]
    door, up, down = names.index("door"), names.index("up_cards"), names.index("down_cards")
    by_player = {p.player: p for p in check.players}
    assert [len(by_player[name].up_cards) for name in "ABCD"] == [1, 2, 1, 2]
    for row in made:
        result = by_player[row[3]]
        assert (row[door], row[up], row[down]) == (
            result.up_cards[0].text, format_cards(result.up_cards), format_cards(result.down_cards))
    assert formatted == [by_player["A"].down_cards, by_player["B"].up_cards, by_player["D"].up_cards]


def test_a_hands_antes_of_one_decimal_are_looked_up_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # a reader makes one Decimal a written amount, so a hand's antes are mostly one object:
    # its minor units are the ante before's (an `is`), where equal Decimals that are other
    # objects are each looked up (rows._WRITTEN); what the scan gathers is the same
    from studbook import rows

    hand = steal_hand().hand()
    ante = Decimal("0.01")
    shared = replace(hand, events=tuple(replace(e, amount=ante) if isinstance(e, PostAnte) else e
                                        for e in hand.events))
    copies = replace(hand, events=tuple(replace(e, amount=Decimal("0.010")) if isinstance(e, PostAnte) else e
                                        for e in hand.events))
    looked_up: list[Decimal] = []
    monkeypatch.setattr(rows, "_WRITTEN", _logging_memo(rows._exact_minor, looked_up))
    antes = [e for e in hand.events if isinstance(e, PostAnte)]
    assert len(antes) == 4
    seen = rows._scan(shared)
    assert looked_up == [ante, Decimal("0.02")] and looked_up[0] is ante  # the ante once, the bring-in
    looked_up.clear()
    assert rows._scan(copies) == seen and seen.antes == [1, 1, 1, 1]
    assert len(looked_up) == 4 + 1


def test_a_hands_stakes_figures_are_the_last_hands_where_its_header_holds_the_same_stakes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a reader makes one Stakes object a file's stakes: a hand whose header holds the last
    # hand's object (and currency) takes its label, bets and figure keys as they are, nothing
    # written out again; an equal Stakes that is another object (0.040 is 0.04), or the same
    # in another currency, is worked out anew: a label of its own
    from studbook import rows

    monkeypatch.setattr(rows, "_LAST_STAKES", [None])
    hand = steal_hand().hand()
    stakes = hand.header.stakes
    written: list[str] = []
    monkeypatch.setattr(rows, "_MINOR", _logging_memo(rows._MINOR.convert, written))
    first = rows._stakes_figures(hand)
    assert written == [str(stakes.big_bet), str(stakes.small_bet), str(stakes.ante), str(stakes.bring_in)]
    written.clear()
    again = replace(hand, header=replace(hand.header, hand_id="2"))
    assert again.header.stakes is stakes and rows._stakes_figures(again) is first and not written
    equal = Stakes(Decimal("0.040"), Decimal("0.080"), stakes.ante, stakes.bring_in)
    other = replace(hand, header=replace(hand.header, stakes=equal))
    assert other.header.stakes == stakes
    assert rows._stakes_figures(other).label == "$0.040/$0.080 USD" != first.label == "$0.04/$0.08 USD"
    euros = replace(hand, header=replace(hand.header, currency="EUR"))
    assert rows._stakes_figures(euros).label == "€0.04/€0.08 EUR"
    hands = frames_from_checks([check_hand(h) for h in (hand, again, other, euros)]).hands
    assert hands["stakes"].tolist() == ["$0.04/$0.08 USD"] * 2 + ["$0.040/$0.080 USD", "€0.04/€0.08 EUR"]


def test_the_amounts_the_log_wrote_are_found_by_their_decimal_not_written_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # a reader makes one Decimal a written amount and its hash is kept: the actions' logged
    # figures (amount, to) and the forced bets are looked up by it (rows._WRITTEN); only the
    # engine's figures (new Decimals) are written out (rows._MINOR); the rows are the same
    from studbook import rows

    check = check_hand(showdown_hand().hand())
    before = rows.rows_from_checks([check])
    by_text: list[str] = []
    by_decimal: list[Decimal] = []

    monkeypatch.setattr(rows, "_MINOR", _logging_memo(rows._MINOR.convert, by_text))
    monkeypatch.setattr(rows, "_BY_TEXT", (str, rows._MINOR))  # a cash hand's figures, by their text
    monkeypatch.setattr(rows, "_WRITTEN", _logging_memo(rows._exact_minor, by_decimal))
    rows._action_rows(check, "s", "1", rows._figure_keys(check.hand), None)
    from studbook.engine.result import fact_fields
    # each logged figure once: what an action put in that is its total (a first raise) takes the
    # total's minor units already found, not a second look-up
    logged = [figure for f in fact_fields(check.action_log) for figure in (f[0].amount, f[0].to)
              if figure is not None]
    assert by_decimal == logged and len(by_decimal) >= 10
    engine_figures = {str(f[i]) for f in fact_fields(check.action_log) for i in (3, 4, 6)}
    assert by_text and set(by_text) <= engine_figures
    by_text.clear()
    by_decimal.clear()
    seen = rows._scan(check.hand)
    forced = [e.amount for e in check.hand.events
              if isinstance(e, PostAnte) or (isinstance(e, Action) and e.kind is ActionKind.BRING_IN)]
    assert by_decimal == forced and not by_text
    assert seen.antes == [to_minor(a) for a in forced[:-1]] and seen.bring_in == to_minor(forced[-1])
    assert rows.rows_from_checks([check]) == before


def test_every_starting_class_key_is_classed_as_before_the_plain_comparisons() -> None:
    # rows._class_of compares the three ranks directly (2026-12-04, i34m7: a new key 15 k to
    # 9 k instructions); every key of every variant, impossible ones too, classed as the sets,
    # sorts and generators of 5ed6d77 classed them (the digest of that tree's classes)
    import hashlib
    from itertools import product

    from studbook import rows

    classes = [f"{variant.value} {a} {b} {c} {suited} {rows._class_of((a, b, c, suited), variant)}"
               for variant in Variant for a, b, c in product(range(2, 15), repeat=3) for suited in (False, True)]
    assert len(classes) == 13182
    assert hashlib.md5("\n".join(classes).encode()).hexdigest() == "77207e90c117b5bc584cbaf3a148f70b"


def _seen_by_isinstance(hand: Any) -> tuple[Any, ...]:
    """What rows._scan gathers, read the plain way: isinstance, each field on its own."""
    from studbook.events import Note, TournamentFinish
    from studbook.rows import _WRITTEN

    events = hand.events
    bring_ins = [e for e in events if isinstance(e, Action) and e.kind is ActionKind.BRING_IN]
    first = bring_ins[0] if bring_ins else None
    starts = {e.player: (e.down[0], e.down[1], e.up[0]) for e in events if isinstance(e, Deal) and e.down
              and e.street is Street.THIRD and len(e.down) == 2 and len(e.up) == 1}
    return ([_WRITTEN[e.amount] for e in events if isinstance(e, PostAnte) and not e.all_in],
            first and first.player,
            None if first is None or first.all_in or first.amount is None else _WRITTEN[first.amount],
            starts,
            {e.player: e for e in events if isinstance(e, TournamentFinish) and e.player is not None},
            [e for e in events if isinstance(e, Note)],
            {e.player for e in events if isinstance(e, Deal) and e.down})


@pytest.mark.parametrize("folder", [
    pytest.param(Path(__file__).resolve().parents[1] / "histories", id="histories"),
    pytest.param(CORPUS, id="corpus", marks=pytest.mark.skipif(
        not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}"))])
def test_the_rows_scan_of_a_hands_events_is_what_isinstance_reads(folder: Path) -> None:
    # rows._scan tells events by their exact type, the types held in locals, actions asked
    # first (i34m10): every hand of every site reads as the plain isinstance reading does
    from studbook import rows
    from studbook.frames import check_results

    from studbook.events import Note

    hands = [r.hand for r in check_results([folder]) if isinstance(r, HandCheck)]
    assert hands
    # and each with a note and a second bring-in at its end (the logs have few notes)
    hands += [replace(hand, events=(*hand.events, Note(file=hand.file, line=hand.end_line, text="a note"),
                                    Action(file=hand.file, line=hand.end_line, player="X",
                                           kind=ActionKind.BRING_IN, amount=Decimal("0.01"))))
              for hand in hands]
    for hand in hands:
        seen = rows._scan(hand)
        assert (seen.antes, seen.brought_in, seen.bring_in, seen.starts, seen.finishes, seen.notes,
                seen.dealt) == _seen_by_isinstance(hand), (hand.site, hand.hand_id)
