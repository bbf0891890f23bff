"""``studbook show`` and ``studbook replay --plain`` / ``--html`` on real hands."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from studbook.cli import main
from studbook.parse import parse_text
from test_replay import COMMUNITY_8, STUD8_SIDE_POT

SIDE_POT_FILE = STUD8_SIDE_POT[0]
PLANTED = str(Path(__file__).resolve().parents[1] / "histories" / "planted-violations.txt")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_one_hand(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", str(corpus / SIDE_POT_FILE), "--hand", STUD8_SIDE_POT[1])
    assert code == 0, err
    assert "*** 3rd street ***" in out and "*** 7th street (the river) ***" in out and "*** showdown ***" in out
    # opponents' hole cards hidden, the hero's shown
    assert re.search(r"Player0 +\[\?\? \?\?\] 6c", out)
    assert re.search(r"Hero +\* \[3h Ah\] 2s", out)
    assert "seats: 1 Player0 (8835), 2 Player1 (1485), 3 Player2" in out
    assert "Player1 checks" in out and "pot 620" in out
    assert "Player0: high: a pair of Eights [8c 7h As 8d Tc]; low: 8,7,6,3,A" in out
    assert "side pot 1 300 (Player0, Player1, Player3, Player5, Player6): Player0 150 (low), Player3 150 (high)" in out
    assert "0 violations" in out


def test_show_reveal_and_pokerstars(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(corpus / SIDE_POT_FILE)
    code, out, _ = run(capsys, "show", path, "--hand", STUD8_SIDE_POT[1], "--reveal")
    assert code == 0
    assert re.search(r"Player0 +\[3d 8c\] 6c", out)  # shown at the end, known from the deal on
    code, out, _ = run(capsys, "show", path, "--hand", STUD8_SIDE_POT[1], "--as", "pokerstars")
    assert code == 0
    again = list(parse_text(out))
    assert len(again) == 1 and again[0].hand_id == STUD8_SIDE_POT[1]


def test_show_marks_violations_in_place(capsys: pytest.CaptureFixture[str]) -> None:
    # `studbook check` flags one violation in this hand of the planted file
    code, out, _ = run(capsys, "show", PLANTED, "--hand", "258878136617")
    assert code == 0
    assert re.search(r"  !! line \d+: [a-z]+\.[a-z_]+: ", out)
    assert "1 violation" in out


def test_show_unknown_hand_and_usage(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "show", AALTJE, "--hand", "999")
    assert code == 1 and "hand 999: not found" in err
    code, _, err = run(capsys, "show")
    assert code == 2 and "--db FILE or hand-history PATHs" in err


def test_show_from_store(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.db"
    assert main(["import", str(corpus / COMMUNITY_8[0]), "--db", str(db)]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "show", "--db", str(db), "--hand", COMMUNITY_8[1])
    assert code == 0, err
    assert "community card: 6h" in out


def test_show_from_store_is_show_from_the_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = str(REPO / "histories" / "HH20240323 T3761643380 Limit Stud $3.30 + $0.30.txt")
    db = tmp_path / "s.db"
    assert main(["import", log, "--db", str(db), "-q"]) == 0
    capsys.readouterr()
    code, from_store, err = run(capsys, "show", "--db", str(db), "--hand", "251200800002")
    assert code == 0, err
    assert from_store.startswith("pokerstars hand 251200800002: 7 Card Stud Limit (stud), 20/40 tournament chips, table '3761643380 1'")
    assert run(capsys, "show", log, "--hand", "251200800002")[1] == from_store


def test_replay_plain_one_frame_per_step(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(corpus / COMMUNITY_8[0]), "--plain", "--player", "Player3")
    assert code == 0
    frames = out.split("--- hand ")[1:]
    from studbook import parse_file
    from studbook.view import replay

    hand = next(iter(parse_file(corpus / COMMUNITY_8[0])))
    assert len(frames) == len(replay(hand).steps)
    community = next(f for f in frames if "> community card" in f)
    assert "community card: 6h" in community
    assert "to act:" in out and "in front 0.02" in out


def test_replay_plain_big_bets(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(corpus / SIDE_POT_FILE), "--plain", "--big-bets")
    assert code == 0
    assert "| pot 0.8 BB" in out  # eight antes of 40, the big bet 400


def test_replay_html_data(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "r.html"
    code, _, err = run(capsys, "replay", str(corpus / SIDE_POT_FILE), str(corpus / COMMUNITY_8[0]), "--html", str(out_file))
    assert code == 0 and "wrote" in err
    text = out_file.read_text(encoding="utf-8")
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text
    data = json.loads(re.search(r'<script type="application/json" id="studbook-replay">(.*?)</script>', text, re.S)[1])
    hands = data["hands"]
    assert [h["hand_id"] for h in hands] == [STUD8_SIDE_POT[1], COMMUNITY_8[1]]
    for key in ("site", "hand_id", "variant", "players", "steps"):
        assert key in hands[0]
    step = hands[0]["steps"][-1]
    for key in ("street", "actor", "action", "amount", "pot", "stacks", "cards", "community", "violations"):
        assert key in step
    assert all(isinstance(v, str) for v in step["stacks"].values())
    # no opponent's down card in a step before it is shown
    first = hands[0]["steps"][12]
    assert all(c["card"] is None for c in first["cards"]["Player0"] if not c["up"])


def test_replay_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "replay", AALTJE)
    assert code == 2 and "--plain" in err


def test_show_finds_what_check_finds(capsys: pytest.CaptureFixture[str]) -> None:
    """Across the hands of a file (a table's bring-in remembered from earlier hands included)."""
    planted = PLANTED
    code, out, _ = run(capsys, "check", planted)
    assert code == 1
    expected = {m.groups() for m in re.finditer(r":(\d+): hand \d+: ([a-z_.]+): (.*)", out)}
    assert len(expected) >= 10
    code, out, _ = run(capsys, "show", planted)
    assert code == 0
    got = {m.groups() for m in re.finditer(r"  !! line (\d+): ([a-z_.]+): (.*)", out)}
    assert got == expected


def test_show_remembers_the_tables_bring_in(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A real file with one change: the second hand brings in for less than the first did."""
    lines = (corpus / "PokerStars/7-Stud-USD-0.04-0.08-200911.txt").read_text().split("\n")
    assert lines[89] == "RoadDevil: brings in for $0.02"
    lines[89] = "RoadDevil: brings in for $0.01"
    edited = tmp_path / "edited.txt"
    edited.write_text("\n".join(lines))
    code, out, _ = run(capsys, "show", str(edited), "--hand", "35874039554")
    assert code == 0
    assert "!! line 90: bringin.amount: bring-in should be 0.02 as in hand 35874004239 at this table" in out


# ---------------------------------------------------------------------------
# The same commands on the shipped histories (a fresh clone, no corpus)

REPO = Path(__file__).resolve().parents[1]
AALTJE = str(REPO / "histories" / "HH20240302 Aaltje IV - $0.50-$1 Ante $0.10 - USD Limit Stud.txt")
LONG_HAND = "258263419673"  # 8 players, four pots, the deck runs short
BETONLINE = str(REPO / "tests" / "handmade" / "betonline" / "7-Stud-USD-0.50-1.00-cash.txt")


def test_replay_plain_steps_on_the_shipped_histories(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", AALTJE, "--plain", "--hand", LONG_HAND)
    assert code == 0, err
    frames = out.split("\n--- hand ")[1:]
    heads = [f.split("\n")[0] for f in frames]
    assert heads[0] == f"{LONG_HAND} · before the deal (step 0/{len(frames) - 1}) | pot 0"
    assert heads[1].startswith(f"{LONG_HAND} · antes (step 1/") and "> 8 antes posted" in frames[1]
    assert heads[2].startswith(f"{LONG_HAND} · 3rd street · the deal (step 2/")
    assert re.match(rf"{LONG_HAND} · 3rd street · action 1 of \d+ \(step 3/\d+, line \d+\) \| pot ", heads[3])
    assert not any("> Note" in f or "> summary:" in f or "posts the ante" in f for f in frames)
    last = frames[-1]
    assert last.startswith(f"{LONG_HAND} · result (step ") and "| rake 2.99" in last.split("\n")[0]
    assert "hands at the showdown:" not in last or "gutshot gus:" in last
    assert "main pot 39.12 (" in last and "side pot 3 2.40 (" in last and "\nrake 2.99\n" in last
    assert "gutshot gus: high: three of a kind, Deuces" in last


def test_replay_plain_big_bets_reach_the_actions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", AALTJE, "--plain", "--hand", LONG_HAND, "--big-bets")
    assert code == 0
    actions = [line for line in out.split("\n") if re.match(r"> .* (calls|bets|raises|brings in for|collects) ", line)]
    assert actions and all(re.search(r"\d BB", line) for line in actions)
    assert not any(re.search(r"\d\.\d\d(?! BB)", line) for line in actions)


def test_show_big_bets_reach_the_actions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", AALTJE, "--hand", LONG_HAND, "--big-bets")
    assert code == 0
    actions = [line for line in out.split("\n") if re.match(r"  \S.* (calls|bets|raises|brings in for) ", line)]
    assert actions and all(re.search(r"(calls|bets|raises|brings in for|to) [\d.]+ BB", line) for line in actions)


@pytest.mark.parametrize("path, hand_id", [(AALTJE, LONG_HAND), (BETONLINE, "100000001")], ids=["pokerstars", "betonline"])
def test_show_as_pokerstars_reads_back(capsys: pytest.CaptureFixture[str], path: str, hand_id: str) -> None:
    code, out, err = run(capsys, "show", path, "--hand", hand_id, "--as", "pokerstars")
    assert code == 0, err
    back = list(parse_text(out, site="pokerstars"))
    assert len(back) == 1 and back[0].hand_id == hand_id  # type: ignore[union-attr]
    assert "is the button" not in out and out.startswith(f"PokerStars Hand #{hand_id}:  7 Card Stud Limit ($0.50/$1 USD) - ")


def test_show_as_pokerstars_refuses_in_one_line() -> None:
    import dataclasses

    from studbook import parse_file
    from studbook.cli.show import pokerstars_text

    hand = next(h for h in parse_file(BETONLINE) if h.hand_id == "100000001")  # type: ignore[union-attr]
    hand = dataclasses.replace(hand, header=dataclasses.replace(hand.header, hand_id="AB-CD"))  # type: ignore[type-var]
    text, reason = pokerstars_text(hand)  # type: ignore[arg-type]
    assert text == "" and reason == "hand id 'AB-CD' has no digits: PokerStars numbers its hands"


def test_replay_html_steps_on_the_shipped_histories(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "r.html"
    code, _, err = run(capsys, "replay", AALTJE, "--hand", LONG_HAND, "--html", str(out_file))
    assert code == 0, err
    text = out_file.read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="studbook-replay">(.*?)</script>', text, re.S)[1])
    assert data["format"] == 2
    steps = data["hands"][0]["steps"]
    assert [s["kind"] for s in steps[:3]] == ["start", "antes", "deal"] and steps[-1]["kind"] == "result"
    assert steps[-1]["pot_label"] == "rake" and steps[-1]["pot"] == "2.99"
    assert steps[3]["words"][-1] == ["0.25"] and steps[3]["label"] == "3rd street · action 1 of 8"


def test_show_labels_the_rake(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", AALTJE, "--hand", LONG_HAND)
    assert code == 0
    assert "  side pot 3 2.40 (" in out and "\nrake 2.99\n\nresult: " in out


def test_the_header_says_what_the_money_is_in(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # KingsClub writes no currency: its cash tables are USD (money.SITE_CURRENCY)
    for command in (["show"], ["replay", "--plain"]):
        code, out, err = run(capsys, *command, str(corpus / "KingsClub" / "7-Stud-USD-44-88-202010.txt"))
        assert code in (0, 1), err  # (show exits 0 for a violation, replay 1)
        assert "(stud), 44/88 USD, table 'Real Deal Mix'" in out.splitlines()[0]
    code, out, err = run(capsys, "show", str(REPO / "histories"), "--tournament", "--hand", "259648566558")
    assert code == 0, err
    assert "(stud8), 20/40 tournament chips, table '3778019413 1'" in out.splitlines()[0]
