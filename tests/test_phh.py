"""PHH read as a site: studbook's own PHH of every corpus hand reads back to the
same actions and nets; pokerkit's PHH of simulated hands checks clean with
pokerkit's payoffs; an illegal action is flagged at its line; other variants
are skipped with the variant named."""

from __future__ import annotations

import warnings
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from studbook.check import check_hand, check_paths
from studbook.engine.result import HandCheck
from studbook.events import Action, ActionKind, Hand, Rejected, Skipped, Structure
from studbook.parse import parse_text, read_file
from studbook.simulate import simulate_hands
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


@pytest.fixture(scope="module")
def corpus_checks(corpus: Path) -> list[HandCheck]:
    return [r for fc in check_paths([corpus]) for r in fc.results
            if isinstance(r, HandCheck) and r.hand.header.structure is Structure.FIXED]


def test_corpus_hands_read_back_with_the_same_actions_and_nets(corpus_checks: list[HandCheck]) -> None:
    outcomes = Counter[str]()
    for check in corpus_checks:
        hand = check.hand
        text = write_phh(hand, result_of(check))
        back = read_back(text)
        assert back.site == "phh" and back.hand_id == hand.hand_id
        assert back.players() == phh_players(hand)
        assert betting(back) == [b for b in betting(hand) if b[0] in phh_players(hand)], hand.line
        assert phh_actions(back) == phh_actions(hand), (hand.file, hand.line)
        again = check_hand(back)
        if check.violations:
            outcomes["flagged in the log"] += 1
            continue
        # ``winnings`` carry the collections over: the nets are the log's, and a clean hand stays clean
        assert again.net == check.net, (hand.file, hand.line, again.net, check.net)
        assert not again.violations, (hand.file, hand.line, again.violations)
        outcomes["same"] += 1
    assert outcomes["same"] >= 0.9 * len(corpus_checks), outcomes


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
