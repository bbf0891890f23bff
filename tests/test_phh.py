"""PHH read as a site: studbook's own PHH of every corpus hand reads back to the
same actions and nets; pokerkit's PHH of simulated hands checks clean with
pokerkit's payoffs; an illegal action is flagged at its line; other variants
are skipped with the variant named."""

from __future__ import annotations

import warnings
from collections import Counter
from itertools import product
from decimal import Decimal
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from studbook.check import check_hand, check_paths
from studbook.engine.result import HandCheck
from studbook.events import Action, ActionKind, Hand, PostAnte, Rejected, Skipped, Structure
from studbook.parse import parse_text, read_file
from studbook.simulate import simulate_hands, write_hands
from studbook.write.phh import PhhResult, phh_actions, phh_players, write_phh, write_phhs

K = ActionKind
KINDS = {K.BET: "cbr", K.RAISE: "cbr", K.COMPLETE: "cbr", K.CHECK: "cc", K.CALL: "cc",
         K.BRING_IN: "pb", K.FOLD: "f"}


def result_of(check: HandCheck) -> PhhResult:
    return PhhResult({p.player: p.collected for p in check.players}, check.net)


def read_back(text: str, file: str = "hand.phh") -> Hand:
    results = list(parse_text(text, file=file))
    assert len(results) == 1 and isinstance(results[0], Hand), results
    return results[0]


def betting(hand: Hand) -> list[tuple[str, str]]:
    return [(e.player, KINDS[e.kind]) for e in hand.events if isinstance(e, Action)]


HISTORIES = Path(__file__).resolve().parents[1] / "histories"


def fixed_checks(paths: list[Path]) -> list[HandCheck]:
    return [r for fc in check_paths(paths) for r in fc.results
            if isinstance(r, HandCheck) and r.hand.header.structure is Structure.FIXED]


@pytest.fixture(scope="module")
def corpus_checks(corpus: Path) -> list[HandCheck]:
    return fixed_checks([corpus])


def played(check: HandCheck, players: tuple[str, ...]) -> list[tuple[object, ...]]:
    """Each action of ``players`` as the engine applied it: kind (completions named so),
    chips put in, chips to call, bets and pot before it, all-in."""
    return [(f.action.player, f.street, f.kind, f.put_in, f.to_call, f.bets_before, f.pot_before, f.action.all_in)
            for f in check.actions if f.action.player in players]


def short_bring_in(hand: Hand) -> bool:
    """A bring-in all-in for less than the stakes' bring-in: PHH says only ``pb``, so the
    others call what it put in (pokerkit's reading), where the log's callers put in the full one."""
    return any(isinstance(e, Action) and e.kind is K.BRING_IN and e.all_in and e.amount != hand.header.stakes.bring_in
               for e in hand.events)


def round_trip(checks: list[HandCheck]) -> Counter[str]:
    """text -> Hand -> PHH -> Hand: the same players, action words, deals and shows; a hand
    clean in the log plays the same actions (the engine's facts of each) to the same nets
    and stays clean. Returns the outcomes counted."""
    outcomes = Counter[str]()
    for check in checks:
        hand = check.hand
        players = phh_players(hand)
        back = read_back(write_phh(hand, result_of(check)))
        assert back.site == "phh" and back.hand_id == hand.hand_id
        assert back.players() == players
        assert betting(back) == [b for b in betting(hand) if b[0] in players], hand.line
        assert phh_actions(back) == phh_actions(hand), (hand.file, hand.line)
        again = check_hand(back)
        if check.violations:
            outcomes["flagged in the log"] += 1
            continue
        # ``winnings`` carry the collections over: the nets are the log's, and a clean hand stays clean
        if short_bring_in(hand):
            outcomes["bring-in all-in for less"] += 1
            continue
        assert played(again, players) == played(check, players), (hand.file, hand.line)
        assert again.net == check.net, (hand.file, hand.line, again.net, check.net)
        assert not again.violations, (hand.file, hand.line, again.violations)
        outcomes["same"] += 1
    return outcomes


def test_corpus_hands_read_back_with_the_same_actions_and_nets(corpus_checks: list[HandCheck]) -> None:
    outcomes = round_trip(corpus_checks)
    assert outcomes["same"] >= 0.9 * len(corpus_checks), outcomes


def test_sample_histories_read_back_with_the_same_actions_and_nets() -> None:
    checks = fixed_checks([HISTORIES])
    outcomes = round_trip(checks)
    assert outcomes["same"] >= 0.95 * len(checks) and outcomes["bring-in all-in for less"] > 0, outcomes


def test_simulated_text_reads_back_through_phh_with_the_same_actions_and_nets() -> None:
    """About 1,500 simulated hands, cash and tournament (short stacks, all-ins), each
    written as PokerStars text and read back before the round trip: every one the same."""
    checks = []
    for number, (variant, tournament) in enumerate(product(("stud", "stud8", "razz"), (False, True))):
        text = write_hands(simulate_hands(variant, 250, 2 + number, 28 + number, tournament, hands_per_level=8))
        checks += [check_hand(h) for h in parse_text(text, file="simulated.txt") if isinstance(h, Hand)]
    assert len(checks) == 1500 and not [c for c in checks if c.violations]
    outcomes = round_trip(checks)
    assert outcomes["same"] + outcomes["bring-in all-in for less"] == 1500, outcomes
    assert outcomes["same"] >= 1450, outcomes


def test_a_phhs_file_is_detected_and_every_hand_has_its_lines(corpus: Path, tmp_path: Path) -> None:
    hands = [h for h in read_file(corpus / "PokerStars" / "7-Stud-USD-0.04-0.08-200911.txt").hands][:5]
    assert len(hands) == 5
    path = tmp_path / "five.phhs"
    path.write_text(write_phhs((h, None) for h in hands), encoding="utf-8")
    result = read_file(path)
    assert result.site == "phh" and [h.hand_id for h in result.hands] == [h.hand_id for h in hands]
    lines = path.read_text(encoding="utf-8").split("\n")
    for back in result.hands:
        assert lines[back.line - 1].startswith("[")
        for event in back.events:
            if isinstance(event, Action):  # each action at its own line of the file
                assert f'"p{back.players().index(event.player) + 1} ' in lines[event.line - 1]


def _bring_in_line(text: str) -> tuple[int, str]:
    lines = text.split("\n")
    index = next(i for i, line in enumerate(lines) if line.strip().endswith(' pb",'))
    return index, lines[index]


def test_an_illegal_action_is_flagged_with_its_rule_at_its_line(corpus: Path) -> None:
    hand = read_file(corpus / "PokerStars" / "7-Stud-USD-0.04-0.08-200911.txt").hands[0]
    text = write_phh(hand)
    assert not check_hand(read_back(text)).violations
    index, line = _bring_in_line(text)
    player = int(line.split('"p')[1].split()[0])
    other = 1 if player != 1 else 2
    changed = text.split("\n")
    changed[index] = line.replace(f'"p{player} pb', f'"p{other} pb')
    check = check_hand(read_back("\n".join(changed)))
    assert [(v.rule, v.line) for v in check.violations][:1] == [("bringin.player", index + 1)], check.violations


def test_a_wrong_bet_size_is_flagged_at_its_line(corpus: Path) -> None:
    hand = read_file(corpus / "PokerStars" / "7-Stud-USD-0.04-0.08-200911.txt").hands[0]
    lines = write_phh(hand).split("\n")
    index = next(i for i, line in enumerate(lines) if " cbr " in line)
    to = lines[index].split(" cbr ")[1].rstrip('",')
    lines[index] = lines[index].replace(f" cbr {to}", f" cbr {Decimal(to) + Decimal('0.01')}")
    check = check_hand(read_back("\n".join(lines)))
    assert [(v.rule, v.line) for v in check.violations] == [("bet.size", index + 1)], check.violations


def test_other_variants_are_skipped_with_the_variant_named() -> None:
    text = ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
            'starting_stacks = [200, 200]\nactions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 f"]\n')
    (result,) = parse_text(text, file="holdem.phh")
    assert isinstance(result, Skipped) and "'NT'" in result.reason and result.game == "PHH variant 'NT'"


@pytest.mark.parametrize("text, line, words", [
    ('variant = "F7S"\nantes = [1, 1]\nbring_in = 2\nsmall_bet = 5\nbig_bet = 10\n'
     'starting_stacks = [100, 100]\nactions = [\n  "d dh p1 ????2c",\n  "d dh p9 ????3c",\n]\n', 9, "no player p9"),
    ('variant = "F7S"\nantes = [1, 1]\nbring_in = 2\nsmall_bet = 5\nbig_bet = 10\n'
     'starting_stacks = [100]\nactions = []\n', 2, "antes has 2 entries"),
    ('variant = "F7S"\nantes = [1, 1]\nbring_in = 2\nsmall_bet = 5\nbig_bet = 10\n'
     'starting_stacks = [100, 100\nactions = []\n', 7, "not valid TOML"),
    ('variant = "FR"\nantes = [1, 1]\nsmall_bet = 5\nbig_bet = 10\n'
     'starting_stacks = [100, 100]\nactions = []\n', 1, "no 'bring_in' field"),
    ('variant = "F7S"\nantes = [1, 1]\nbring_in = 2\nsmall_bet = 5\nbig_bet = 10\n'
     'starting_stacks = [100, 100]\nactions = [\n  "d dh p1 ????2c",\n  "d dh p2 ????3c",\n  "p1 pb",\n'
     '  "p2 cbr nan",\n]\n', 11, "not an amount"),
    ('variant = "F7S"\nantes = [1, 1]\nbring_in = inf\nsmall_bet = 5\nbig_bet = 10\n'
     'starting_stacks = [100, 100]\nactions = []\n', 3, "bring_in: not an amount"),
])
def test_bad_phh_is_rejected_at_its_line(text: str, line: int, words: str) -> None:
    (result,) = parse_text(text, file="bad.phh")
    assert isinstance(result, Rejected), result
    assert result.line == line and words in result.reason, result


# -- hand-made PHH: what cc and cbr come to ---------------------------------------

_DEALS = ["d dh p1 ????2c", "d dh p2 ????9d", "d dh p3 ????Kh"]  # p1 brings in (lowest up card)


def made(actions: list[str], stacks: str = "[100, 100, 100]", antes: str = "[1, 1, 1]") -> str:
    """A three-player stud hand (bring-in 1, small bet 2, big bet 4), one action a line
    (the first action at line 8)."""
    return (f'variant = "F7S"\nantes = {antes}\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n'
            f'starting_stacks = {stacks}\nactions = [\n' + "".join(f'  "{a}",\n' for a in _DEALS + actions) + "]\n")


def acts(text: str) -> list[tuple[str, ActionKind, Decimal | None, Decimal | None, bool]]:
    return [(e.player, e.kind, e.amount, e.to, e.all_in) for e in read_back(text).events if isinstance(e, Action)]


def betting_faults(text: str) -> list[str]:
    """The engine's verdict on the betting of a hand-made (unfinished) hand: the rules broken of
    the bet sizes and the bring-in."""
    return [v.rule for v in check_hand(read_back(text)).violations if v.rule.startswith(("bet.", "bringin."))]


def test_cc_is_a_check_when_nothing_is_owed_else_a_call() -> None:
    text = made(["p1 pb", "p2 cc", "p3 cc", "p1 cc",  # 3rd: calls of the bring-in, then a check
                 "d dh p1 3c", "d dh p2 4d", "d dh p3 5h", "p3 cc", "p1 cbr 2", "p2 cc", "p3 cc"])
    assert acts(text) == [
        ("p1", K.BRING_IN, 1, None, False), ("p2", K.CALL, 1, None, False), ("p3", K.CALL, 1, None, False),
        ("p1", K.CHECK, None, None, False),
        ("p3", K.CHECK, None, None, False), ("p1", K.BET, 2, None, False), ("p2", K.CALL, 2, None, False),
        ("p3", K.CALL, 2, None, False),
    ]
    assert not betting_faults(text)


def test_cbr_is_a_completion_a_bet_or_a_raise_by_the_street_total() -> None:
    text = made(["p1 pb", "p2 cbr 2", "p3 cbr 4", "p1 cbr 6", "p2 cc", "p3 cc",
                 "d dh p1 3c", "d dh p2 4d", "d dh p3 5h", "p3 cbr 2", "p1 cbr 4", "p2 f", "p3 cc"])
    assert acts(text) == [
        ("p1", K.BRING_IN, 1, None, False), ("p2", K.COMPLETE, 2, 2, False), ("p3", K.RAISE, 2, 4, False),
        ("p1", K.RAISE, 2, 6, False), ("p2", K.CALL, 4, None, False), ("p3", K.CALL, 2, None, False),
        ("p3", K.BET, 2, None, False), ("p1", K.RAISE, 2, 4, False), ("p2", K.FOLD, None, None, False),
        ("p3", K.CALL, 2, None, False),
    ]
    assert not betting_faults(text)


def test_a_short_all_in_completion_leaves_the_next_cbr_a_completion() -> None:
    """As the engine counts bets: 3rd street opens at the small bet."""
    text = made(["p1 pb", "p2 cbr 1.5", "p3 cbr 2", "p1 cc"], stacks="[100, 2.5, 100]")
    assert acts(text) == [("p1", K.BRING_IN, 1, None, False), ("p2", K.COMPLETE, Decimal("1.5"), Decimal("1.5"), True),
                          ("p3", K.COMPLETE, 2, 2, False), ("p1", K.CALL, 1, None, False)]
    assert not betting_faults(text)


def test_all_in_calls_for_less_and_short_posts_take_the_whole_stack() -> None:
    text = made(["p1 pb", "p2 cbr 2", "p3 cc", "p1 cc", "d dh p1 Ac", "d dh p2 4d", "d dh p3 5h",
                 "p1 cbr 2", "p2 cbr 4", "p3 cc", "p1 cc"], stacks="[100, 100, 5.5]")
    assert acts(text)[-4:] == [("p1", K.BET, 2, None, False), ("p2", K.RAISE, 2, 4, False),
                               ("p3", K.CALL, Decimal("2.5"), None, True),  # 4 owed, 2.5 left
                               ("p1", K.CALL, 2, None, False)]
    assert not betting_faults(text)
    short = read_back(made(["p1 pb", "p2 cc", "p3 f"], stacks="[1.5, 100, 0.5]"))
    assert [(e.player, e.amount, e.all_in) for e in short.events if isinstance(e, PostAnte)] == [
        ("p1", 1, False), ("p2", 1, False), ("p3", Decimal("0.5"), True)]
    # PHH's bring_in is what is due: p1 brings in the 0.5 left, and p2 calls that
    assert [(e.player, e.kind, e.amount, e.all_in) for e in short.events if isinstance(e, Action)][:2] == [
        ("p1", K.BRING_IN, Decimal("0.5"), True), ("p2", K.CALL, Decimal("0.5"), False)]


@pytest.mark.parametrize("cbr, words", [
    ("p3 cbr 4", None),  # the legal twin: a raise
    ("p3 cbr 2", "p3 cbr 2 does not raise the bet of 2"),  # the completion's total: a call written as cbr
    ("p3 cbr 1.5", "p3 cbr 1.5 does not raise the bet of 2"),
    ("p3 cbr 0", "p3 cbr 0 does not raise the bet of 2"),
    ("p3 cbr 200", "p3 cannot make it 200: 101 more than the stack"),
])
def test_a_cbr_that_does_not_raise_or_overdraws_is_rejected_at_its_line(cbr: str, words: str | None) -> None:
    text = made(["p1 pb", "p2 cbr 2", cbr])
    (result,) = parse_text(text, file="bad.phh")
    if words is None:
        assert isinstance(result, Hand) and acts(text)[-1] == ("p3", K.RAISE, 2, 4, False)
    else:
        assert isinstance(result, Rejected) and result.line == 13 and words in result.reason, result
        assert result.text == cbr
    pokerkit = pytest.importorskip("pokerkit")  # the oracle plays the legal twin and refuses the others
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            states = list(pokerkit.HandHistory.loads(text))
        except ValueError:
            states = []
    assert bool(states) is (words is None)


@settings(max_examples=examples(40), deadline=None)
@given(variant=st.sampled_from(["stud", "stud8", "razz"]), players=st.integers(2, 8),
       seed=st.integers(0, 10**6), tournament=st.booleans(), hero=st.booleans())
def test_simulated_hands_round_trip_through_phh(variant: str, players: int, seed: int, tournament: bool,
                                                hero: bool) -> None:
    hand = next(simulate_hands(variant, 1, players, seed, tournament, hero="Hero" if hero else None))
    check = check_hand(hand)
    assert not check.violations
    back = read_back(write_phh(hand, result_of(check)))
    again = check_hand(back)
    assert not again.violations, again.violations
    assert again.net == check.net and phh_actions(back) == phh_actions(hand)


# -- PHH that pokerkit writes ---------------------------------------------------

@pytest.mark.parametrize("variant", ["stud", "stud8", "razz"])
def test_pokerkit_phh_checks_clean_with_pokerkits_payoffs(variant: str) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    from test_pokerkit_oracle import exclusion, play_in_pokerkit

    from studbook.simulate import simulate

    compared = 0
    brought_in = ""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for sim in simulate(variant, 40, 5, 77, tournament=True, hands_per_level=6):
            if exclusion(sim) is not None:
                continue
            game, state, names = play_in_pokerkit(sim)
            text = pokerkit.HandHistory.from_game_state(game, state).dumps()
            check = check_hand(read_back(text))
            assert not check.violations, (text, check.violations)
            nets = {f"p{i + 1}": Decimal(int(v)) for i, v in enumerate(state.payoffs)}
            assert check.net == nets, (text, check.net, nets)
            assert [(f"p{names.index(p) + 1}", k) for p, k in betting(sim.hand)] == betting(read_back(text))
            compared += 1
            if " pb'" in text:
                brought_in = text
    assert compared >= 20
    # pokerkit writes every action on the ``actions`` line: a wrong bring-in is flagged there
    lines = brought_in.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("actions = "))
    bring_in = next(a for a in betting(read_back(brought_in)) if a[1] == "pb")[0]
    other = "p1" if bring_in != "p1" else "p2"
    lines[at] = lines[at].replace(f"'{bring_in} pb'", f"'{other} pb'")
    check = check_hand(read_back("\n".join(lines)))
    assert ("bringin.player", at + 1) in [(v.rule, v.line) for v in check.violations], check.violations
