"""``studbook check``: text and jsonl output, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from studbook.check import check_paths
from studbook.cli import main
from studbook.engine.result import HandCheck

from test_engine_build import STARS, corpus_text, need_corpus
from test_rules import ANTE, STUD

# a shipped log that checks clean: 54 hands of a stud tournament
CLEAN = Path(__file__).resolve().parents[1] / "histories" / "HH20240323 T3761643380 Limit Stud $3.30 + $0.30.txt"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _broken(tmp_path: Path) -> tuple[Path, int]:
    text = corpus_text(STUD).replace("Nikolay Zem: posts the ante $0.01", "Nikolay Zem: posts the ante $0.02", 1)
    line = text[: text.index("Nikolay Zem: posts the ante $0.02")].count("\n") + 1
    return _write(tmp_path, "broken.txt", text), line


def test_text_ok_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(CLEAN)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "summary: 1 file, 54 hands, 54 ok, 0 hands with violations, 0 violations, 0 rejected, 0 skipped"
    assert out[1].split() == ["site", "files", "hands", "ok", "skipped", "rejected", "violations"]
    assert out[2].split() == ["pokerstars", "1", "54", "54", "0", "0", "0"]


def test_text_violation_lines_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, line = _broken(tmp_path)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{path}:{line}: hand 35874004239: deal.ante: ante should be 0.01, not 0.02 from Nikolay Zem"
    assert out[1].startswith(f"{path}:") and ": hand 35874004239: pot.total: " in out[1]
    assert "summary: 1 file, 11 hands, 10 ok, 1 hand with violations, 2 violations, 0 rejected, 0 skipped" in out
    # the summary counts violations by rule: how many, and in how many hands
    table = out[next(i for i, text in enumerate(out) if text.split() == ["rule", "violations", "hands"]):]
    assert [row.split() for row in table[1:]] == [["deal.ante", "1", "1"], ["pot.total", "1", "1"]]


def test_jsonl_one_object_per_hand_then_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, line = _broken(tmp_path)
    assert main(["check", "--format", "jsonl", str(path)]) == 1
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    hands, summary = records[:-1], records[-1]
    assert len(hands) == 11
    assert summary == {"summary": {"files": 1, "hands": 11, "ok": 10, "violations": 1, "rejected": 0, "skipped": 0}}
    first = hands[0]
    assert set(first) == {"file", "line", "site", "hand_id", "variant", "status", "violations", "net"}
    assert (first["file"], first["line"], first["site"], first["hand_id"], first["variant"], first["status"]) == (
        str(path), 1, "pokerstars", "35874004239", "stud", "violations")
    assert first["violations"][0] == {"rule": "deal.ante", "line": line,
                                      "message": "ante should be 0.01, not 0.02 from Nikolay Zem",
                                      "street": None, "party": "site", "seat": 3, "player": "Nikolay Zem",
                                      "expected": "0.01", "actual": "0.02"}
    assert [v["line"] for v in first["violations"]] == sorted(v["line"] for v in first["violations"])
    assert first["net"]["trs2758"] == "0.41"
    assert hands[1]["status"] == "ok" and hands[1]["violations"] == []


def test_jsonl_rejected_and_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = corpus_text(ANTE).replace("*** 3rd STREET ***", "*** 3rd STRET ***")
    bad = _write(tmp_path, "bad.txt", text)
    assert main(["check", "--format", "jsonl", str(bad)]) == 1
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert records[0]["status"] == "rejected" and records[0]["reason"]
    assert records[0]["violations"] == [] and records[0]["net"] == {}
    assert records[-1]["summary"]["rejected"] == 1
    need_corpus()
    mixed = STARS / "8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"
    assert main(["check", "--format", "jsonl", str(mixed)]) == 0  # skipped hands are fine
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    skipped = [r for r in records[:-1] if r["status"] == "skipped"]
    assert len(skipped) == 84 and all(r["variant"] is None and r["reason"] for r in skipped)
    assert records[-1]["summary"] == {"files": 1, "hands": 137, "ok": 53, "violations": 0, "rejected": 0,
                                      "skipped": 84}


def test_text_rejected_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = corpus_text(ANTE).replace("*** 3rd STREET ***", "*** 3rd STRET ***")
    bad = _write(tmp_path, "bad.txt", text)
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{bad}:") and ": hand 241636097024: rejected: " in out[0]


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "missing.txt")]) == 2
    assert main(["check", "--site", "nosuchsite", str(tmp_path)]) == 2
    with pytest.raises(SystemExit) as exit_:
        main(["check", "--format", "xml", "x"])
    assert exit_.value.code == 2


def test_subprocess_runs_the_installed_command() -> None:
    exe = Path(sys.executable).with_name("studbook")
    command = [str(exe)] if exe.exists() else [sys.executable, "-c", "import sys; from studbook.cli import main; sys.exit(main())"]
    done = subprocess.run([*command, "check", "--format", "jsonl", str(CLEAN)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stderr == ""  # no progress bar when stderr is not a terminal
    assert json.loads(done.stdout.splitlines()[-1])["summary"]["ok"] == 54


def test_files_not_hand_histories_ignored_when_walked_errors_when_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path, "hands.txt", CLEAN.read_text(encoding="utf-8"))
    _write(tmp_path, "hands.txt.hp", "{'Player': {'seatNo': 1}}\n")  # an FPDB side file
    _write(tmp_path, "empty.txt", "")
    (tmp_path / "blob.bin").write_bytes(bytes(range(256)) * 4)
    assert main(["check", str(tmp_path)]) == 0  # walked: listed once as ignored, exit status unchanged
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "summary: 1 file, 54 hands, 54 ok, 0 hands with violations, 0 violations, 0 rejected, 0 skipped, 3 ignored"
    assert out[2].split() == ["pokerstars", "1", "54", "54", "0", "0", "0"]
    assert out[3:] == [
        "ignored (3 files):",
        f"  not a hand history: {tmp_path / 'blob.bin'} (binary file, not text)",
        f"  not a hand history: {tmp_path / 'empty.txt'} (empty file)",
        f"  not a hand history: {tmp_path / 'hands.txt.hp'} (no known site's format)",
    ]
    assert main(["check", "--format", "jsonl", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out.splitlines()[-1]) == {
        "summary": {"files": 1, "hands": 54, "ok": 54, "violations": 0, "rejected": 0, "skipped": 0}}
    assert captured.err.count("not a hand history: ") == 3
    assert main(["check", "--format", "jsonl", str(tmp_path / "empty.txt"), str(tmp_path / "hands.txt")]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0] == {"file": str(tmp_path / "empty.txt"), "line": 1, "site": None, "hand_id": None,
                          "variant": None, "status": "rejected", "violations": [], "net": {}, "reason": "empty file"}
    assert len(records) == 56 and records[-1] == {
        "summary": {"files": 2, "hands": 55, "ok": 54, "violations": 0, "rejected": 1, "skipped": 0}}
    for name, reason in (("empty.txt", "empty file"), ("blob.bin", "binary file, not text")):
        assert main(["check", str(tmp_path / name)]) == 1  # named: one error line
        out = capsys.readouterr().out.splitlines()
        assert out[0] == f"{tmp_path / name}:1: error: {reason}"
        assert [line for line in out if ": error: " in line] == [out[0]]
    assert main(["check", str(tmp_path / "hands.txt.hp")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{tmp_path / 'hands.txt.hp'}:1: error: not a hand history of any known site")
    assert out[1] == "summary: 1 file, 0 hands, 0 ok, 0 hands with violations, 0 violations, 0 rejected, 0 skipped, 1 file error"


def test_corpus_check_table(capsys: pytest.CaptureFixture[str]) -> None:
    need_corpus()
    corpus = STARS.parent
    code = main(["check", str(corpus)])
    out = capsys.readouterr().out.splitlines()
    assert code == 1  # the genuine site faults (tests/test_check_sites.py)
    summary = next(line for line in out if line.startswith("summary: "))
    assert "file error" not in summary and "ignored" in summary
    table = out[out.index(summary) + 1:]
    assert table[0].split() == ["site", "files", "hands", "ok", "skipped", "rejected", "violations"]
    sites = [row.split()[0] for row in table[1:13]]
    assert sites == sorted(["absolute", "bovada", "everleaf", "fulltilt", "ipoker", "kingsclub", "merge", "ongame",
                            "partypoker", "pokerstars", "winamax", "winning"])
    assert table[13].split() == ["rule", "violations", "hands"]
    end = next(i for i, row in enumerate(table) if row.startswith("ignored ("))
    listed = {row.split()[0]: (int(row.split()[1]), int(row.split()[2])) for row in table[14:end]}
    checks = [r for f in check_paths([corpus]) for r in f.results if isinstance(r, HandCheck)]
    assert listed == {
        rule: (sum(v.rule == rule for c in checks for v in c.violations),
               sum(any(v.rule == rule for v in c.violations) for c in checks))
        for rule in {v.rule for c in checks for v in c.violations}
    }


def test_text_rejection_shows_the_offending_text_and_verbose_lists_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = corpus_text(ANTE).replace("*** 3rd STREET ***", "*** 3rd STRET ***")
    bad = _write(tmp_path, "bad.txt", text)
    assert main(["check", str(bad)]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith(": '*** 3rd STRET ***'")  # as import lists it
    need_corpus()
    mixed = str(STARS / "8-Game-2max-STT-play-100-201306.homeGame.shootout.txt")
    assert main(["check", mixed]) == 0
    assert ": skipped: " not in capsys.readouterr().out
    assert main(["check", "--verbose", mixed]) == 0
    skipped = [line for line in capsys.readouterr().out.splitlines() if ": skipped: " in line]
    assert len(skipped) == 84  # the file's 84 hands of other games (INDEX.tsv)
    assert skipped[0] == (f"{mixed}:1: hand 99631756108: skipped: not a stud, stud hi/lo or razz "
                          "hand: Triple Draw 2-7 Lowball Limit")


def test_dash_reads_standard_input(tmp_path: Path) -> None:
    need_corpus()
    path, line = _broken(tmp_path)
    exe = Path(sys.executable).with_name("studbook")
    command = [str(exe)] if exe.exists() else [sys.executable, "-c", "import sys; from studbook.cli import main; sys.exit(main())"]
    done = subprocess.run([*command, "check", "-"], input=path.read_bytes(), capture_output=True,
                          check=False)
    out = done.stdout.decode().splitlines()
    assert done.returncode == 1
    assert out[0].startswith(f"<stdin>:{line}: hand 35874004239: deal.ante: ")
    assert "summary: 1 file, 11 hands, 10 ok, 1 hand with violations, 2 violations, 0 rejected, 0 skipped" in out
    done = subprocess.run([*command, "check", "--jobs", "2", "-"], input=b"", capture_output=True,
                          check=False)
    assert done.returncode == 2 and b"standard input" in done.stderr

