"""Integrity analytics: facts on hand-worked hands, the CMH test, planted cheats found."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from studbook.check import check_hand
from studbook.cli import main
from studbook.frames import Frames, frames_from_checks, load
from studbook.integrity import analyse, bursts, cmh_z, multiway_decisions, share_tests, showdown_facts
from studbook.events import ActionKind
from studbook.simulate import simulate
from studbook.strategies import CheatKind, Collusion, Strategies, assign_styles

# Two hands written by hand-scripted players. Hand 1: Cy folds on 3rd; heads-up,
# Ann bets 4th and 5th, Bob checks and calls, then folds on 5th to Ann's bet with
# the stronger board (J-4-2 against T-6-5). Hand 2: Bob folds on 3rd; heads-up,
# Cy bets 4th, 5th and 7th, Ann calls, bets 6th, and loses at showdown.
HAND_1 = """\
PokerStars Hand #254071050724:  7 Card Stud Limit ($2/$4 USD) - 2024/04/01 22:35:06 ET
Table 'Gaudeamus XI' 8-max
Seat 2: Bob ($24.44 in chips)
Seat 3: Cy ($42.82 in chips)
Seat 5: Ann ($41.14 in chips)
Bob: posts the ante $0.40
Cy: posts the ante $0.40
Ann: posts the ante $0.40
*** 3rd STREET ***
Dealt to Bob [Qc As Jd]
Dealt to Cy [Ad]
Dealt to Ann [5h]
Ann: brings in for $1
Bob: calls $1
Cy: folds
*** 4th STREET ***
Dealt to Bob [Qc As Jd] [2h]
Dealt to Ann [5h] [Ts]
Bob: checks
Ann: bets $2
Bob: calls $2
*** 5th STREET ***
Dealt to Bob [Qc As Jd 2h] [4c]
Dealt to Ann [5h Ts] [6h]
Bob: checks
Ann: bets $4
Bob: folds
Uncalled bet ($4) returned to Ann
Ann collected $6.84 from pot
*** SUMMARY ***
Total pot $7.20 | Rake $0.36
Seat 2: Bob folded on the 5th Street
Seat 3: Cy folded on the 3rd Street (didn't bet)
Seat 5: Ann collected ($6.84)
"""
HAND_2 = """\
PokerStars Hand #254071050800:  7 Card Stud Limit ($2/$4 USD) - 2024/04/01 22:38:00 ET
Table 'Hydra IX' 8-max
Seat 2: Ann ($60.48 in chips)
Seat 4: Cy ($323.55 in chips)
Seat 5: Bob ($202.31 in chips)
Ann: posts the ante $0.40
Cy: posts the ante $0.40
Bob: posts the ante $0.40
*** 3rd STREET ***
Dealt to Ann [Qd Ks Js]
Dealt to Cy [Ad]
Dealt to Bob [3c]
Bob: brings in for $1
Ann: calls $1
Cy: completes it to $2
Bob: folds
Ann: calls $1
*** 4th STREET ***
Dealt to Ann [Qd Ks Js] [2s]
Dealt to Cy [Ad] [2h]
Cy: bets $2
Ann: calls $2
*** 5th STREET ***
Dealt to Ann [Qd Ks Js 2s] [5c]
Dealt to Cy [Ad 2h] [5s]
Cy: bets $4
Ann: calls $4
*** 6th STREET ***
Dealt to Ann [Qd Ks Js 2s 5c] [Jh]
Dealt to Cy [Ad 2h 5s] [2d]
Ann: bets $4
Cy: calls $4
*** RIVER ***
Dealt to Ann [Qd Ks Js 2s 5c Jh] [9d]
Ann: checks
Cy: bets $4
Ann: calls $4
*** SHOW DOWN ***
Cy: shows [As 4h Ad 2h 5s 2d 7c] (two pair, Aces and Deuces)
Ann: mucks hand
Cy collected $32.49 from pot
*** SUMMARY ***
Total pot $34.20 | Rake $1.71
Seat 2: Ann mucked [Qd Ks Js 2s 5c Jh 9d]
Seat 4: Cy showed [As 4h Ad 2h 5s 2d 7c] and won ($32.49) with two pair, Aces and Deuces
Seat 5: Bob folded on the 3rd Street
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("built")
    (folder / "built.txt").write_text(HAND_1 + "\n\n\n" + HAND_2, encoding="utf-8")
    return analyse(load(folder))


def _pair(report, a: str, b: str) -> dict:
    rows = report.pairs[(report.pairs["a"] == a) & (report.pairs["b"] == b)]
    assert len(rows) == 1
    return rows.iloc[0].to_dict()


def test_heads_up_decisions_counted_by_hand(report) -> None:
    ann_bob = _pair(report, "Ann", "Bob")
    # hand 1, heads-up: Bob checks, Ann bets, Bob calls (4th); Bob checks, Ann bets, Bob folds (5th)
    assert (ann_bob["hands"], ann_bob["heads_up"]) == (2, 1)
    assert (ann_bob["a_decisions"], ann_bob["a_aggressive"]) == (2, 2)
    assert (ann_bob["b_decisions"], ann_bob["b_aggressive"], ann_bob["b_facing"]) == (4, 0, 2)
    assert (ann_bob["b_folds"], ann_bob["b_folds_stronger"]) == (1, 1)
    ann_cy = _pair(report, "Ann", "Cy")
    # hand 2, heads-up: Ann calls 3rd, 4th, 5th, bets 6th, checks and calls 7th; Cy bets 4th, 5th, 7th, calls 6th
    assert (ann_cy["a_decisions"], ann_cy["a_aggressive"], ann_cy["a_facing"]) == (6, 1, 4)
    assert (ann_cy["b_decisions"], ann_cy["b_aggressive"], ann_cy["b_facing"]) == (4, 3, 1)
    assert (ann_cy["a_folds"], ann_cy["b_folds"], ann_cy["showdowns"]) == (0, 0, 1)
    assert _pair(report, "Bob", "Cy")["heads_up"] == 0


def test_chips_won_from_each_other(report) -> None:
    # hand 1: Ann takes Bob's $3.40 and Cy's $0.40 ante; hand 2: Cy takes Ann's $16.40 and Bob's $1.40 ($4 big bet)
    ann_bob, ann_cy, bob_cy = _pair(report, "Ann", "Bob"), _pair(report, "Ann", "Cy"), _pair(report, "Bob", "Cy")
    assert (ann_bob["a_won_from_b_bb"], ann_bob["b_won_from_a_bb"]) == (0.85, 0.0)
    assert (ann_cy["a_won_from_b_bb"], ann_cy["b_won_from_a_bb"]) == (0.1, 4.1)
    assert (bob_cy["a_won_from_b_bb"], bob_cy["b_won_from_a_bb"]) == (0.0, 0.35)
    assert ann_cy["b_large_pots_from_a"] == 0  # 4.1 big bets is under the 5 of a large pot
    assert not report.pairs["flagged"].any()  # two hands test nothing


def test_players_win_rate(report) -> None:
    players = report.players.set_index("player")
    # Ann: +3.44 (hand 1: $6.84 - $3.40) and -16.40, big bet $4: mean -1.62 big bets a hand
    assert players.loc["Ann", "bb_per_100"] == pytest.approx(-162.0)
    assert players.loc["Ann", "ci_low"] < -162 < players.loc["Ann", "ci_high"]


def _two_sites(frames: Frames, other: str) -> Frames:
    """``frames`` and a copy of them at site ``other``: the same names at two sites."""
    tables = {}
    for name in ("hands", "players", "actions", "pots", "violations", "rejects"):
        table = getattr(frames, name)
        copy = table.assign(site=other) if "site" in table.columns else table.iloc[0:0]
        tables[name] = pd.concat([table.astype({"site": str}) if "site" in table.columns else table, copy],
                                 ignore_index=True)
    return replace(frames, **tables)


def test_players_keyed_by_site_and_name(tmp_path: Path) -> None:
    frames = load(_built_folder(tmp_path))
    one, two = analyse(frames), analyse(_two_sites(frames, "fulltilt"))
    # Ann and Bob at two sites are two pairs, each with the facts of one site; not one pair with doubled counts
    assert sorted(two.pairs["site"].unique()) == ["fulltilt", "pokerstars"]
    assert len(two.pairs) == 2 * len(one.pairs)
    facts = ["hands", "heads_up", "a_decisions", "b_folds", "a_won_from_b_bb", "showdowns"]
    for site in ("pokerstars", "fulltilt"):
        rows = two.pairs[(two.pairs["site"] == site) & (two.pairs["a"] == "Ann") & (two.pairs["b"] == "Bob")]
        assert rows[facts].values.tolist() == [[2, 1, 2, 1, 0.85, 0]]
    players = two.players.set_index(["site", "player"])
    assert len(players) == 6
    assert players.loc[("fulltilt", "Ann"), "hands"] == 2
    assert players.loc[("fulltilt", "Ann"), "bb_per_100"] == pytest.approx(-162.0)


def test_multiway_decisions_on_built_hands(report, tmp_path: Path) -> None:
    frames = load(_built_folder(tmp_path))
    m = multiway_decisions(frames.hands, frames.players, frames.actions)
    rows = [(h[-3:], p, o, f, b) for h, p, o, f, b in m[["hand_id", "player", "other", "fold", "other_bet"]]
            .itertuples(index=False)]
    # facing a bet three-handed on 3rd street: hand 1 Bob calls and Cy folds to Ann's bring-in;
    # hand 2 Ann calls Bob's bring-in, Cy completes over it, Bob folds to Cy's completion
    assert sorted(rows) == sorted([
        ("724", "Bob", "Cy", False, False), ("724", "Bob", "Ann", False, True),
        ("724", "Cy", "Bob", True, False), ("724", "Cy", "Ann", True, True),
        ("800", "Ann", "Cy", False, False), ("800", "Ann", "Bob", False, True),
        ("800", "Cy", "Ann", False, False), ("800", "Cy", "Bob", False, True),
        ("800", "Bob", "Ann", True, False), ("800", "Bob", "Cy", True, True)])


def _multiway(spots: list[tuple[str, list[str], str, int, int]]) -> pd.DataFrame:
    """Decisions facing a bet three-handed on 5th street: (actor, the two others
    live, the bettor, decisions, folds among them), one row per other live."""
    rows, hand = [], 0
    for player, others, bettor, count, folds in spots:
        for i in range(count):
            hand += 1
            rows += [("s", str(hand), "T", 1, 5, 3, player, other, i < folds, other == bettor) for other in others]
    return pd.DataFrame(rows, columns=["site", "hand_id", "table", "seq", "street", "live", "player", "other",
                                       "fold", "other_bet"])


def test_share_test_finds_folds_while_the_partner_is_live() -> None:
    # Xe folds to Bo's bets 30 times in 40 while Yu is live, 10 in 40 without Yu; others fold 10 in 40 with Yu live
    spots = [("Xe", ["Yu", "Bo"], "Bo", 40, 30), ("Xe", ["Cy", "Bo"], "Bo", 40, 10),
             ("Di", ["Yu", "Bo"], "Bo", 40, 10), ("Di", ["Cy", "Bo"], "Bo", 40, 10)]
    tests = share_tests(_multiway(spots))
    xe_yu = tests.loc[("s", "Xe", "Yu")]
    assert xe_yu["folder"] == "Xe" and xe_yu["share_n"] == 40
    # one 2x2 table per baseline (30/40 against 10/40): z = sqrt(chi-square x (N-1)/N) = sqrt(20 x 79/80)
    assert xe_yu["share_z"] == pytest.approx((20 * 79 / 80) ** 0.5)
    assert tests.loc[("s", "Di", "Yu"), "share_z"] < 0  # Di folds no more with Yu live than without
    # the bettor's presence is not evidence: Bo made every bet Xe folded to
    assert ("s", "Bo", "Xe") not in tests.index


def test_showdowns_against_the_cards_shown(report, tmp_path: Path) -> None:
    players = report.players.set_index("player")
    # hand 2: Cy's two pair (aces and deuces) beats Ann's jacks, both seven cards known; Cy takes it all
    assert players.loc["Cy", ["known_showdowns", "expected_share", "won_share", "showdown_mismatches"]].tolist() \
        == [1, 1.0, 1.0, 0]
    assert players.loc["Ann", ["known_showdowns", "expected_share", "won_share"]].tolist() == [1, 0.0, 0.0]
    assert players.loc["Bob", "known_showdowns"] == 0
    # the same hand with the pot given to Ann's worse hand: a mismatch for both
    tampered = HAND_2.replace("Cy collected $32.49", "Ann collected $32.49").replace(
        "Seat 2: Ann mucked [Qd Ks Js 2s 5c Jh 9d]", "Seat 2: Ann showed [Qd Ks Js 2s 5c Jh 9d] and won ($32.49)").replace(
        " and won ($32.49) with two pair, Aces and Deuces", " and lost with two pair, Aces and Deuces")
    (tmp_path / "tampered.txt").write_text(tampered, encoding="utf-8")
    shown = analyse(load(tmp_path)).players.set_index("player")
    assert shown.loc["Ann", ["expected_share", "won_share", "showdown_deviation", "showdown_mismatches"]].tolist() \
        == [0.0, 1.0, 1.0, 1]
    assert shown.loc["Cy", ["showdown_deviation", "showdown_mismatches"]].tolist() == [-1.0, 1]


def test_showdown_prediction_splits_stud8_and_razz() -> None:
    # stud8: Ann's wheel takes the low and ties nothing for high (Bob's flush); razz: Ann's 5-low takes it all
    cards = {"Ann": ("As 2d 3c", "4h 5s Kd Kc"), "Bob": ("9h Th Jh", "Qh 2h Ks Qs")}
    rows = [(v, h, name, down, up, won) for v, h, wins in (("stud8", "1", {"Ann": 50, "Bob": 50}),
                                                          ("razz", "2", {"Ann": 0, "Bob": 100}))
            for name, (down, up) in cards.items() for won in [wins[name]]]
    players = pd.DataFrame(rows, columns=["variant", "hand_id", "player", "down_cards", "up_cards", "collected"])
    players = players.assign(site="s", showdown=True)
    pots = pd.DataFrame({"site": "s", "hand_id": ["1", "2"], "pot": 0})
    facts = showdown_facts(players, pots).set_index("player")
    # stud8: Ann half (low), Bob half (high) as collected; razz: Ann's wheel should win but Bob collected
    assert facts.loc["Ann", ["known_showdowns", "expected_share", "won_share", "showdown_mismatches"]].tolist() \
        == [2, 1.5, 0.5, 1]
    assert facts.loc["Bob", ["expected_share", "won_share", "showdown_deviation"]].tolist() == [0.5, 1.5, 1.0]


def test_card_sharing_partner_folds_the_weaker_hand() -> None:
    names = [f"p{i}" for i in range(5)]
    strategies = Strategies(assign_styles(names, random.Random(2)), [Collusion("p0", "p1", CheatKind.CARD_SHARING, 1.0)])
    seen: list[tuple[bool, bool]] = []

    def chooser(decision):
        action = strategies(decision)
        live = {p.name for p in decision.state.live_players}
        partner = {"p0": "p1", "p1": "p0"}.get(decision.player)
        if partner in live and len(live) > 2 and decision.options.to_call > 0 and decision.options.find(
                ActionKind.FOLD) is not None:
            seen.append((decision.strength(partner) > decision.strength(decision.player),
                         action is not None and action.kind is ActionKind.FOLD))
        return action

    list(simulate("stud", 150, 5, 4, names=names, chooser=chooser))
    weaker = [folded for partner_stronger, folded in seen if partner_stronger]
    assert len(weaker) > 20 and all(weaker)  # at strength 1 the weaker partner always folds to a bet
    assert not all(folded for partner_stronger, folded in seen if not partner_stronger)


def test_cmh_single_stratum_is_the_chi_square() -> None:
    # one 2x2 table: CMH z squared = Pearson chi-square x (N-1)/N
    x, n, y, m = 3, 40, 30, 60
    z, decisions = cmh_z(pd.DataFrame({"x": [x], "n": [n], "y": [y], "m": [m]}))
    total, events = n + m, x + y
    expected = [[n * events / total, n * (total - events) / total],
                [m * events / total, m * (total - events) / total]]
    observed = [[x, n - x], [y, m - y]]
    chi = sum((o - e) ** 2 / e for row_o, row_e in zip(observed, expected) for o, e in zip(row_o, row_e))
    assert z < 0 and decisions == n
    assert z * z == pytest.approx(chi * (total - 1) / total)


def test_planted_pairs_rank_first() -> None:
    names = [f"p{i}" for i in range(6)]
    strategies = Strategies(assign_styles(names, random.Random(1)), [
        Collusion("p0", "p1", CheatKind.SOFT_PLAY, 0.8), Collusion("p2", "p3", CheatKind.CHIP_DUMPING, 0.8)])
    hands = simulate("stud", 1200, 6, 3, names=names, chooser=strategies)
    report = analyse(frames_from_checks(check_hand(s.hand) for s in hands))
    top = report.pairs.head(2)
    assert {(a, b) for a, b in top[["a", "b"]].itertuples(index=False)} == {("p0", "p1"), ("p2", "p3")}
    assert top["flagged"].all()
    # four of the six cheat: a pair of two cheaters of different pairs may look odd, never one with an honest player
    flagged = report.flagged
    assert not flagged[flagged["a"].isin(["p4", "p5"]) | flagged["b"].isin(["p4", "p5"])].shape[0]
    dumping = top[top["a"] == "p2"].iloc[0]
    assert (dumping["kind"], dumping["dumper"]) == ("chip_dumping", "p2")
    assert dumping["evidence"].count(":") == 10  # ten hands where p2 folded to p3's bet


def test_bursts_found() -> None:
    times = pd.to_datetime(["2024-01-01 10:00", "2024-01-01 10:05", "2024-01-01 10:06", "2024-01-01 10:20",
                            "2024-01-01 10:29", "2024-01-01 15:00"], utc=True)
    v = pd.DataFrame({"site": "s", "hand_id": [str(i) for i in range(6)], "rule": "bet.size", "party": "site",
                      "table": "T", "started_utc": times})
    found = bursts(v, minutes=30, faults=5)
    assert found[["violations", "hands"]].values.tolist() == [[5, 5]]
    assert found["end"].iloc[0] == times[4]
    assert bursts(v, minutes=20, faults=5).empty


def _built_folder(tmp_path: Path) -> Path:
    (tmp_path / "built.txt").write_text(HAND_1 + "\n\n\n" + HAND_2, encoding="utf-8")
    return tmp_path


def test_cli_text_json_and_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _built_folder(tmp_path)
    assert main(["integrity", str(folder)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 hands, 3 pairs (0 tested: enough play together), 0 flagged")
    assert "violations by rule\nnone" in out
    assert main(["integrity", str(folder), "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    ann_bob = next(r for r in records if (r["a"], r["b"]) == ("Ann", "Bob"))
    assert (ann_bob["b_folds_stronger"], ann_bob["evidence"]) == (1, "pokerstars:254071050724")
    assert main(["integrity"]) == 2
    assert "give either --db FILE or hand-history PATHs" in capsys.readouterr().err


def test_cli_html_links_the_replayer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _built_folder(tmp_path)
    out = tmp_path / "report.html"
    assert main(["integrity", str(folder), "--format", "html", "--output", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert '<a href="report.hands.html#pokerstars:254071050724">254071050724</a>' in text
    assert text.count("data:image/png;base64,") == 2 and "<script" not in text and "http" not in text
    hands = (tmp_path / "report.hands.html").read_text(encoding="utf-8")
    assert '"hand_id":"254071050724"' in hands and '"hand_id":"254071050800"' in hands
    assert "location.hash" in hands


def test_report_link_opens_the_replayer_at_its_hand(tmp_path: Path) -> None:
    from browser import browser
    from selenium.webdriver.common.by import By

    folder = _built_folder(tmp_path)
    out = tmp_path / "report.html"
    assert main(["integrity", str(folder), "--format", "html", "--output", str(out)]) == 0
    for driver in browser():
        driver.get(out.as_uri())  # type: ignore[attr-defined]
        link = driver.find_element(By.LINK_TEXT, "254071050800")  # type: ignore[attr-defined]
        link.click()
        assert driver.current_url.endswith("report.hands.html#pokerstars:254071050800")  # type: ignore[attr-defined]
        info = driver.find_element(By.ID, "hand-list")  # type: ignore[attr-defined]
        assert info.get_attribute("value") == "1"  # the second hand of the page, not the first
        assert "Hydra IX" in driver.find_element(By.ID, "hand-info").text  # type: ignore[attr-defined]


def test_null_scale_measures_the_honest_spread() -> None:
    from studbook.integrity import null_scale

    rng = random.Random(5)
    honest = [rng.gauss(0, 1.5) for _ in range(400)]
    assert null_scale(pd.Series(honest)) == pytest.approx(1.5, abs=0.15)
    # three cheating pairs far out do not widen it; a narrow spread is never scaled up
    assert null_scale(pd.Series(honest + [-20.0, -25.0, -30.0])) == pytest.approx(null_scale(pd.Series(honest)), abs=0.05)
    assert null_scale(pd.Series([rng.gauss(0, 0.5) for _ in range(400)])) == 1.0
    assert null_scale(pd.Series([-9.0, 9.0] * 9)) == 1.0  # under 20 pairs: left as it is
