"""The shared filters on ``export``, ``show`` and ``replay``, end to end.

The figures come from histories/ (one file per table or tournament, read off
the files: stakes and kind in the file name, first and last hand's start in UTC):
  Aaltje IV      $0.50-$1 cash stud       450 hands, 2024-03-03 00:05 .. 10:15
  Brunhilde II   $2-$4    cash stud8      450 hands, 2024-03-05 02:40 .. 12:50
  Cassiopeia VII $10-$20  cash razz       330 hands, 2024-03-07 19:12 .. 03-08 02:45
  Dorado III     $10-$20  cash stud       280 hands, 2024-03-10 04:01 .. 09:35
  Eunike V       $0.50-$1 cash stud8      330 hands, 2024-03-12 22:30 .. 03-13 05:58
  Fidelitas IX   $2-$4    cash razz       160 hands, 2024-03-15 05:17 .. 08:50
  T3778019413    tournament stud8         117 hands, 2024-03-17
  T3711401991    tournament razz          111 hands, 2024-03-21
  T3761643380    tournament stud           54 hands, 2024-03-23
  planted-violations  $0.04-$0.08 cash     12 hands, 2024-03-27
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from studbook.check import check_hand
from studbook.cli import main
from studbook.cli.selection import select_from
from studbook.engine.result import HandCheck
from studbook.filters import Filters, select_checks
from studbook.parse import read_file

HISTORIES = Path(__file__).resolve().parents[1] / "histories"


def _table(path: str) -> str:
    name = Path(path).name
    return next(word for word in ("Aaltje", "Brunhilde", "Cassiopeia", "Dorado", "Eunike", "Fidelitas",
                                  "T3778019413", "T3711401991", "T3761643380", "planted") if word in name)


def _exported(capsys: pytest.CaptureFixture[str], *args: str) -> Counter[str]:
    """Hands per table that ``export --format jsonl`` writes."""
    assert main(["export", *args, "--format", "jsonl"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return Counter(_table(r["file"]) for r in records)


def _replayed(capsys: pytest.CaptureFixture[str], *args: str) -> Counter[str]:
    assert main(["replay", "--plain", *args]) == 0
    files = re.findall(r"^=== .*\[(.*):\d+\]$", capsys.readouterr().out, re.M)
    return Counter(_table(f) for f in files)


def _shown(capsys: pytest.CaptureFixture[str], *args: str) -> Counter[str]:
    assert main(["show", *args]) == 0
    files = re.findall(r"^\w+ hand \d+: .*\[(.*):\d+\]$", capsys.readouterr().out, re.M)
    return Counter(_table(f) for f in files)


# (filters, the hands per table they keep, from the table above)
CASES = [
    (["--stakes", "0.50-1"], {"Aaltje": 450, "Eunike": 330}),
    (["--stakes", "$10/$20", "--variant", "razz"], {"Cassiopeia": 330}),
    (["--since", "2024-03-07", "--until", "2024-03-10"], {"Cassiopeia": 330, "Dorado": 280}),
    (["--until", "2024-03-03 00:05:11"], {}),
    (["--tournament", "--variant", "razz"], {"T3711401991": 111}),
    (["--tournament", "--play-money"], {"T3778019413": 117, "T3711401991": 111, "T3761643380": 54}),
    (["--cash", "--currency", "usd", "--since", "2024-03-15"], {"Fidelitas": 160, "planted": 12}),
    (["--site", "fulltilt"], {}),
    (["--table-size", "9-10"], {}),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("store") / "histories.db"
    assert main(["import", str(HISTORIES), "--db", str(db)]) == 0
    return db


@pytest.mark.parametrize(("options", "expected"), CASES)
def test_export_filters_on_files_and_on_a_store(options: list[str], expected: dict[str, int], store: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    if not expected:  # nothing matches: exit 0, nothing written, said on stderr
        assert main(["export", "--db", str(store), "--format", "jsonl", *options]) == 0
        captured = capsys.readouterr()
        assert captured.out == "" and "exported 0 hands" in captured.err
        return
    assert _exported(capsys, "--db", str(store), *options) == expected
    if options in (["--stakes", "0.50-1"], ["--tournament", "--variant", "razz"]):  # from the files: two cases
        assert _exported(capsys, str(HISTORIES), *options) == expected


def test_show_and_replay_filters(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = {"T3711401991": 111}
    assert _replayed(capsys, str(HISTORIES), "--tournament", "--variant", "razz") == expected
    assert _shown(capsys, str(HISTORIES), "--variant", "razz", "--play-money", "--tournament") == expected
    assert _shown(capsys, "--db", str(store), "--since", "2024-03-07 20:00 Europe/Berlin",  # 19:00 UTC
                  "--until", "2024-03-07 19:15", "--stakes", "10-20") == {"Cassiopeia": 3}
    # the file's first three hands: 14:12:45, 14:13:24 and 14:14:43 ET, i.e. 19:12:45 .. 19:14:43 UTC


def test_export_frames_are_filtered_too(tmp_path: Path, store: Path) -> None:
    out = tmp_path / "csv"
    assert main(["export", "--db", str(store), "--format", "csv", "-o", str(out), "--stakes", "0.50-1",
                 "--player", "Hero"]) == 0
    hands = (out / "hands.csv").read_text(encoding="utf-8").splitlines()
    files = Counter(_table(line) for line in hands[1:])
    assert set(files) <= {"Aaltje", "Eunike"} and 0 < sum(files.values()) <= 780


def test_site_means_the_same_in_every_reading_command(corpus: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """``--site`` selects a site's hands; ``--read-as`` forces the format, as ``export --site`` did."""
    logs = corpus / "FullTilt"
    expected = Counter[str]()
    for path in sorted(p for p in logs.rglob("*.txt") if "summaries" not in p.parts):
        for hand in read_file(path).hands:
            expected[hand.site] += 1
    assert expected["fulltilt"] > 10
    assert main(["export", str(corpus), "--site", "fulltilt", "--format", "jsonl"]) in (0, 1)
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["site"] for r in records} == {"fulltilt"} and len(records) == expected["fulltilt"]
    one = str(corpus / "PokerStars" / "7-Stud-USD-0.04-0.08-200911.txt")
    assert main(["export", one, "--site", "pokerstars", "--format", "phh"]) == 0  # the old invocation
    as_filter = capsys.readouterr().out
    assert main(["export", one, "--read-as", "pokerstars", "--format", "phh"]) == 0
    assert capsys.readouterr().out == as_filter and as_filter.count("[") >= 11
    for site, hands in (("pokerstars", 11), ("fulltilt", 0)):  # frames out, the file read as SITE
        out = tmp_path / site
        assert main(["export", one, "--read-as", site, "--format", "csv", "-o", str(out)]) == 0
        assert len((out / "hands.csv").read_text(encoding="utf-8").splitlines()) == 1 + hands
    assert main(["stats", one, "--site", "pokerstars", "--format", "csv"]) == 0
    capsys.readouterr()
    for command in (["export", one, "--format", "jsonl"], ["show", one], ["replay", "--plain", one],
                    ["stats", one], ["hands", one]):
        assert main([*command, "--site", "nosuch"]) == 2
        assert "unknown site 'nosuch'; known: pokerstars, " in capsys.readouterr().err
    assert main(["show", one, "--read-as", "nosuch"]) == 2
    assert "unknown site 'nosuch'" in capsys.readouterr().err


def test_python_api_selects_as_the_cli_does() -> None:
    path = HISTORIES / "HH20240307 Cassiopeia VII - $10-$20 Ante $2 - USD Limit Razz.txt"
    checks = [check_hand(h) for h in read_file(path).hands]
    assert all(isinstance(c, HandCheck) for c in checks)
    late = Filters.of(since="2024-03-08 02:00")  # the last hands, after 02:00 UTC on the 8th
    kept = select_checks(checks, late)
    assert kept and len(kept) < len(checks)
    assert all(c.hand.header.started_utc is not None and c.hand.header.started_utc.isoformat() >= "2024-03-08T02:00"
               for c in kept)
    assert [h.hand_id for h in select_from([path], late).hands] == [c.hand.hand_id for c in kept]
    names = set(checks[0].hand.players())
    one = sorted(names)[0]
    assert all(one in c.hand.players() for c in select_checks(checks, Filters.of(players=[one])))


@pytest.mark.parametrize("command", [["export", "--format", "jsonl"], ["show"], ["replay", "--plain"]])
def test_a_misspelt_player_is_a_usage_error_with_the_near_name(command: list[str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """As in ``stats``: a --player or --hero that no hand seats is exit 2 with a hint, not an empty answer."""
    planted = str(HISTORIES / "planted-violations.txt")
    for option in ("--player",) if command[0] == "export" else ("--player", "--hero"):
        assert main([*command, planted, option, "ma baker"]) == 2
        err = capsys.readouterr().err
        assert "no hands for player ma baker (did you mean Ma Baker?)" in err


def test_export_writes_the_known_players_hands_and_names_the_unknown_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    planted = str(HISTORIES / "planted-violations.txt")
    seated = [h for h in read_file(planted).hands if "Ma Baker" in {s.player for s in h.seats}]
    assert main(["export", planted, "--format", "jsonl", "--player", "Ma Baker", "--player", "Nobody"]) == 1
    captured = capsys.readouterr()
    assert [json.loads(line)["hand_id"] for line in captured.out.splitlines()] == [h.hand_id for h in seated]
    assert "no hands for player Nobody" in captured.err
