"""The replayer's snapshots (studbook.replay) on real hands of each variant.

After every event the pot, stacks, chips in front and cards of the snapshot are
the engine's (an independent StudState fed the same events); the viewer never
sees an opponent's down card before the log shows it; the money at the end is
what the log states; the stud deal pattern (2 down 1 up, up, up, up, down, or
the community card) holds on every street.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

import studbook
from studbook.check import check_hand, start_state
from studbook.events import (
    Action, Chatter, Collect, Deal, DealCommunity, Hand, Muck, PostAnte, PotSummary, SeatSummary, Show, Street, StreetStart,
    Variant,
)
from studbook.view import replay
from samples import CORPUS

ZERO = Decimal(0)
STUD8_SIDE_POT = ("PokerStars/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt", "241636097024")
COMMUNITY_8 = ("PokerStars/7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt", "30506593746")
RUN_OUT = ("PokerStars/Triple-Stud-USD-2.00-0.20-MTT-201301.txt", "91733835979")
RAZZ_7TH = ("PokerStars/Razz-8max-USD-200-15-201009.bracket.in.alias.txt", "49382949075")
EVERYONE_DEALT = ("Bovada/7-Stud-USD-MTT - $10-$1 - 201206.txt", "2633131343")
HANDS = [STUD8_SIDE_POT, COMMUNITY_8, RUN_OUT, RAZZ_7TH, EVERYONE_DEALT]
# The same kinds of hand from the shipped histories, so a fresh clone runs these tests too
ROOT = Path(__file__).resolve().parents[1]
SHIPPED_STUD8_SIDE_POT = ("histories/HH20240304 Brunhilde II - $2-$4 Ante $0.40 - USD Limit Stud Hi-Lo.txt",
                          "259226328036")
SHIPPED_RUN_OUT = ("histories/HH20240302 Aaltje IV - $0.50-$1 Ante $0.10 - USD Limit Stud.txt", "258263421758")
SHIPPED_RAZZ_7TH = ("histories/HH20240307 Cassiopeia VII - $10-$20 Ante $2 - USD Limit Razz.txt", "259512930211")
SHIPPED = [SHIPPED_STUD8_SIDE_POT, SHIPPED_RUN_OUT, SHIPPED_RAZZ_7TH]
# what the histories hold no kind of: a community card (PokerStars), another site (Bovada)
CORPUS_ONLY = [COMMUNITY_8, EVERYONE_DEALT]


def load(request: pytest.FixtureRequest | Path, where: tuple[str, str]) -> Hand:
    """The hand ``where`` names: in the shipped histories, or in the corpus (the corpus
    folder itself, or the request its fixture comes from: skips without it)."""
    path, hand_id = where
    if path.startswith("histories/"):
        root = ROOT
    else:
        root = request if isinstance(request, Path) else request.getfixturevalue("corpus")
    for hand in studbook.parse_file(root / path):
        if isinstance(hand, Hand) and hand.hand_id == hand_id:
            return hand
    raise AssertionError(f"hand {hand_id} not in {path}")


def shown_by_step(hand: Hand) -> list[dict[str, set[str]]]:
    """Per step (0: before the first event), the cards each player has shown so far, from the log."""
    events = [e for e in hand.events if not isinstance(e, Chatter)]
    shown: dict[str, set[str]] = {}
    out = [{}]
    for e in events:
        if isinstance(e, (Show, Muck, SeatSummary)) and e.cards:
            shown.setdefault(e.player, set()).update(map(str, e.cards))
        out.append({k: set(v) for k, v in shown.items()})
    return out


@pytest.mark.parametrize("where", SHIPPED + CORPUS_ONLY, ids=lambda w: w[1])
def test_snapshots_are_the_engines_state(request: pytest.FixtureRequest, where: tuple[str, str]) -> None:
    hand = load(request, where)
    r = replay(hand)
    state = start_state(hand)
    events = [e for e in hand.events if not isinstance(e, Chatter)]
    assert len(r) == len(events) + 1
    for event, snap in zip(events, r.snapshots[1:]):
        state.apply(event)
        assert snap.event is event
        assert snap.pot == sum((p.total - p.collected for p in state.players), ZERO)
        assert snap.community is state.community and snap.street is state.street
        for p in state.players:
            seat = snap.seat(p.name)
            assert seat.stack == p.stack + p.collected
            assert seat.folded == p.folded and seat.all_in == p.all_in
            assert seat.up_cards == tuple(p.up)
            hidden_river = (state.street is Street.SEVENTH and state.community is None and p.live
                            and not p.dealt & (1 << 7) and len(p.down) == 2 and bool(p.up))
            assert len(seat.cards) == len(p.cards()) + hidden_river
        if isinstance(event, StreetStart):
            assert all(s.in_front == ZERO for s in snap.seats)
    assert r.violations == () or all(v.rule for v in r.violations)


@pytest.mark.parametrize("where", SHIPPED + CORPUS_ONLY, ids=lambda w: w[1])
def test_viewer_never_sees_hidden_down_cards(request: pytest.FixtureRequest, where: tuple[str, str]) -> None:
    hand = load(request, where)
    r = replay(hand)
    dealt_down = {e.player for e in hand.events if isinstance(e, Deal) and e.down}
    marked = hand.hero()  # the log's own mark (Bovada's [ME]), else the one player dealt down cards
    assert r.hero == (marked[0] if marked else None)
    assert marked is None or marked[1] != "deal" or dealt_down == {r.hero}
    shown = shown_by_step(hand)
    for snap in r:
        for seat in snap.seats:
            down = [c.card for c in seat.cards if not c.up]
            if seat.name == r.hero:
                continue
            visible = {str(c) for c in down if c is not None}
            assert visible <= shown[snap.step].get(seat.name, set()), (snap.step, seat.name, visible)
            if not shown[snap.step].get(seat.name):
                assert all(c is None for c in down), (snap.step, seat.name)


def test_hero_sees_own_down_cards_and_reveal_shows_known_ones(request: pytest.FixtureRequest) -> None:
    hand = load(request, STUD8_SIDE_POT)
    viewer, revealed = replay(hand), replay(hand, reveal=True)
    hero = viewer.hero
    third = next(e for e in hand.events if isinstance(e, Deal) and e.player == hero and e.down)
    after_deal = next(s for s in viewer if s.event is third)
    assert [c.card for c in after_deal.seat(hero).cards if not c.up] == list(third.down)
    # the log shows Player0's seven at the end: reveal has the two hole cards from 3rd street on
    shows = {e.player: e.cards for e in hand.events if isinstance(e, Show)}
    first_deal = next(s for s in revealed if isinstance(s.event, Deal) and s.event.player == "Player0")
    assert [c.card for c in first_deal.seat("Player0").cards] == list(shows["Player0"][:3])
    assert all(c.card is None for c in next(s for s in viewer if s.step == first_deal.step).seat("Player0").cards
               if not c.up)


@pytest.mark.parametrize("where", SHIPPED + CORPUS_ONLY, ids=lambda w: w[1])
def test_money_at_the_end_is_what_the_log_says(request: pytest.FixtureRequest, where: tuple[str, str]) -> None:
    hand = load(request, where)
    r = replay(hand)
    check = check_hand(hand)
    summary = next((e for e in hand.events if isinstance(e, PotSummary)), None)
    first_collect = next(s for s in r if isinstance(s.event, Collect))
    before = r[first_collect.step - 1]
    if summary is not None:
        assert before.pot == summary.total
        # a format with no rake field (rake None): what is left is the rake the engine worked out
        assert r[-1].pot == (summary.rake if summary.rake is not None else check.rake)
    final = r[-1]
    start = {s.player: s.stack for s in hand.seats}
    for result in check.players:
        assert final.seat(result.player).stack - start[result.player] == result.net
    assert sum((p.amount for p in r.pots), ZERO) == before.pot


@pytest.mark.parametrize("where", SHIPPED, ids=lambda w: w[1])
def test_deal_pattern_per_street(request: pytest.FixtureRequest, where: tuple[str, str]) -> None:
    hand = load(request, where)
    r = replay(hand)
    pattern = {3: "ddu", 4: "dduu", 5: "dduuu", 6: "dduuuu", 7: "dduuuud"}
    for i, snap in enumerate(r.snapshots[:-1]):
        nxt = r[i + 1].event
        if not isinstance(snap.event, Deal) or isinstance(nxt, Deal):
            continue  # the street's deal is complete here
        for seat in snap.seats:
            if seat.live:
                got = "".join("u" if c.up else "d" for c in seat.cards)
                assert got == pattern[int(snap.street)], (snap.step, seat.name)
                assert [c.street for c in seat.cards] == sorted(c.street for c in seat.cards)


def test_community_card_hand(request: pytest.FixtureRequest) -> None:
    hand = load(request, COMMUNITY_8)
    r = replay(hand)
    assert len(r[0].seats) == 8
    step = next(s for s in r if isinstance(s.event, DealCommunity))
    assert step.community == step.event.card and r[step.step - 1].community is None
    for snap in r.snapshots[step.step:]:
        for seat in snap.seats:
            assert len(seat.cards) <= 6  # nobody gets a 7th card of their own
    assert "community card" in step.action
    winner = r.shown[0]
    assert step.community in winner.cards and len(winner.cards) == 7


def test_all_in_run_out_has_no_betting_steps(request: pytest.FixtureRequest) -> None:
    hand = load(request, SHIPPED_RUN_OUT)
    r = replay(hand)
    streets = [s for s in r if isinstance(s.event, StreetStart)]
    assert [int(s.event.street) for s in streets] == [3, 4, 5, 6, 7]
    last_action = max(s.step for s in r if isinstance(s.event, Action))
    run_out = [s for s in r if s.step > last_action and s.street is not None]
    assert any(isinstance(s.event, StreetStart) and s.event.street is Street.SEVENTH for s in run_out)
    assert all(s.to_act is None for s in run_out)
    live = [s for s in r[-1].seats if s.live]
    assert len(live) >= 2 and all(len(s.cards) == 7 for s in live)


def test_stud8_side_pot_halves(request: pytest.FixtureRequest) -> None:
    hand = load(request, STUD8_SIDE_POT)
    r = replay(hand)
    assert hand.variant is Variant.STUD8 and len(r.pots) == 2
    main, side = r.pots
    assert main.best_high == ("Hero",) and main.best_low == ("Hero",)
    assert side.best_high == ("Player3",) and side.best_low == ("Player0",)
    shown = {s.player: s for s in r.shown}
    assert shown["Player0"].low == "8,7,6,3,A" and len(shown["Player0"].low_five) == 5
    assert shown["Player1"].low == "no low" and shown["Player1"].low_five == ()
    summary = next(e for e in hand.events if isinstance(e, PotSummary))
    showdown = next(s for s in r if s.action == "showdown")
    assert [p.amount for p in showdown.pots] == [p.amount for p in r.pots]
    assert len(summary.pots) in (0, 2)


def test_razz_to_seventh(request: pytest.FixtureRequest) -> None:
    hand = load(request, SHIPPED_RAZZ_7TH)
    r = replay(hand)
    assert hand.variant is Variant.RAZZ
    seventh = [s for s in r if s.street is Street.SEVENTH]
    assert seventh
    winner = next(s.event.player for s in r if isinstance(s.event, Collect))
    assert r.pots[0].best_low == (winner,)
    assert all(h.high is None and h.low is not None and len(h.low_five) == 5 for h in r.shown)


def test_replay_is_exported_lazily() -> None:
    assert studbook.replay is replay


def test_replaying_changes_nothing_the_checker_finds(request: pytest.FixtureRequest) -> None:
    """Snapshots (asking whose turn it is included) leave the engine's verdict as it is."""
    planted = ROOT / "histories" / "planted-violations.txt"
    hands = [load(request, where) for where in SHIPPED]
    hands += [load(request, where) for where in HANDS] if CORPUS.is_dir() else []
    hands += [h for h in studbook.parse_file(planted) if isinstance(h, Hand)]
    found = 0
    for hand in hands:
        expected = {(v.rule, v.line, v.message) for v in check_hand(hand).violations}
        got = {(v.rule, v.line, v.message) for v in replay(hand).violations}
        assert got == expected, hand.hand_id
        found += len(expected)
    assert found >= 10  # the planted file's violations are among them


# ---------------------------------------------------------------------------
# Steps a player recognises, on the shipped histories (no corpus needed)

HISTORIES = ROOT / "histories"


def shipped_hands() -> list[Hand]:
    return [h for path in sorted(HISTORIES.glob("*.txt")) for h in studbook.parse_file(path) if isinstance(h, Hand)]


@pytest.fixture(scope="module")
def shipped() -> list[Hand]:
    hands = shipped_hands()
    assert len(hands) > 1000
    return hands[::25]  # every 25th: all the files, every variant, a fast test


def test_steps_cover_every_event_once_in_order(shipped: list[Hand]) -> None:
    from studbook.view import StepKind

    for hand in shipped:
        r = replay(hand)
        covered = [s.event for step in r.steps for s in step.events]
        assert sorted(id(e) for e in covered) == sorted(id(s.event) for s in r.snapshots[1:]), hand.hand_id
        assert r.steps[0].kind is StepKind.START and r.steps[-1].kind is StepKind.RESULT
        assert [s.index for s in r.steps] == list(range(len(r.steps)))


def test_antes_one_step_and_each_streets_deal_one_step(shipped: list[Hand]) -> None:
    """"Next street" lands with the street's cards dealt: every live player's cards of that street are out."""
    from studbook.view import StepKind

    pattern = {3: 3, 4: 4, 5: 5, 6: 6, 7: 7}
    for hand in shipped:
        r = replay(hand)
        antes = [s for s in r.steps if any(isinstance(e.event, PostAnte) for e in s.events)]
        assert len(antes) == 1 and antes[0].kind is StepKind.ANTES and antes[0].index == 1, hand.hand_id
        assert len(antes[0].events) == sum(isinstance(e, PostAnte) for e in hand.events)
        deals = [s for s in r.steps if s.kind is StepKind.DEAL]
        streets = [e for e in hand.events if isinstance(e, StreetStart)]
        assert [int(s.street) for s in deals] == [int(e.street) for e in streets], hand.hand_id
        for step in deals:
            assert isinstance(step.events[0].event, StreetStart) and step.starts_street
            moves = [s.event for s in step.events if isinstance(s.event, (Action, PostAnte, Collect, Show, Muck))]
            assert moves == [], (hand.hand_id, step.label)  # a note after the deal may be in its log
            for seat in step.snapshot.seats:
                if seat.live and step.snapshot.community is None:
                    assert len(seat.cards) == pattern[int(step.street)], (hand.hand_id, step.label, seat.name)


def test_notes_and_summary_lines_are_no_steps(shipped: list[Hand]) -> None:
    from studbook.events import BettingCapped, Note
    from studbook.view import StepKind

    summary_seen = 0
    for hand in shipped:
        r = replay(hand)
        for step in r.steps[1:]:
            if step.kind is not StepKind.RESULT:
                assert not any(isinstance(s.event, (SeatSummary, PotSummary)) for s in step.events), hand.hand_id
            first = next(s.event for s in step.events if s.event is not None)
            assert not isinstance(first, (Note, BettingCapped, SeatSummary)) or step.kind is StepKind.RESULT
        result = r.steps[-1]
        summary_seen += sum(isinstance(s.event, SeatSummary) for s in result.events)
    assert summary_seen > 100


def test_counter_speaks_poker(shipped: list[Hand]) -> None:
    import re

    from studbook.view import StepKind

    hand = shipped[0]
    r = replay(hand)
    labels = [s.label for s in r.steps]
    assert labels[:3] == ["before the deal", "antes", "3rd street · the deal"]
    actions = [s for s in r.steps if s.kind is StepKind.ACTION and s.street is Street.THIRD]
    assert [s.label for s in actions] == [f"3rd street · action {i} of {len(actions)}" for i in range(1, len(actions) + 1)]
    assert all(re.fullmatch(r"(before the deal|antes|result|showdown|the pot is awarded|"
                            r"[3-7]th street( \(river\))? · (the deal|action \d+ of \d+|uncalled bet)|"
                            r"3rd street · (the deal|action \d+ of \d+|uncalled bet))", label) for label in labels), labels


def test_rake_labelled_after_the_award(shipped: list[Hand]) -> None:
    from studbook.view import StepKind

    raked = 0
    for hand in shipped:
        r = replay(hand)
        stated = next(e.rake for e in hand.events if isinstance(e, PotSummary))
        last_award = max(s.index for s in r.steps if s.kind is StepKind.AWARD)
        for step in r.steps:
            if step.index < last_award:
                assert step.pot_label == "pot"
            elif step.snapshot.pot > 0:
                assert step.pot_label == "rake" and step.snapshot.pot == stated, hand.hand_id
                raked += 1
    assert raked > 20
