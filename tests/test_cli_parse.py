"""``studbook parse``: formats, per-file summaries, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studbook.cli import main
from test_pokerstars import SMALL  # tests/ is on sys.path (pytest prepend mode)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["parse", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture()
def logs(tmp_path: Path) -> Path:
    (tmp_path / "good.txt").write_text(SMALL + "\n\n" + SMALL.replace("#1001", "#1002"), encoding="utf-8")
    return tmp_path


def test_text_output_and_summary_on_stderr(capsys: pytest.CaptureFixture[str], logs: Path) -> None:
    code, out, err = run(capsys, str(logs / "good.txt"))
    assert code == 0
    assert "hand 1001" in out and "hand 1002" in out
    assert "Action           player='PC [Mittel]' kind=raise amount=20 to=40 all_in=True" in out
    assert err.strip() == f"{logs / 'good.txt'}: pokerstars, utf-8: 2 hands: 2 parsed, 0 skipped, 0 rejected"


def test_jsonl_one_object_per_event(capsys: pytest.CaptureFixture[str], logs: Path) -> None:
    code, out, _ = run(capsys, str(logs), "--format", "jsonl")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0]["event"] == "HandHeader" and records[0]["hand_id"] == "1001"
    raise_ = next(r for r in records if r["event"] == "Action" and r["kind"] == "raise")
    assert raise_ == {"hand_id": "1001", "file": str(logs / "good.txt"), "line": 13, "event": "Action",
                      "player": "PC [Mittel]", "kind": "raise", "amount": "20", "to": "40", "all_in": True}  # fmt: skip
    deal = next(r for r in records if r["event"] == "Deal" and r["down"])
    assert (deal["down"], deal["up"]) == (["Kd", "9s"], ["Ah"])


def test_summary_format_rejects_and_exit_1(capsys: pytest.CaptureFixture[str], logs: Path) -> None:
    (logs / "bad.txt").write_text(SMALL.replace("drachensüss: checks\n", "drachensüss: juggles\n"))
    (logs / "empty.txt").write_text("")
    code, out, err = run(capsys, str(logs), "--format", "summary")
    assert code == 1 and err == ""
    assert f"  rejected: {logs / 'bad.txt'}:19: hand 1001: unknown line" in out
    assert f"not a hand history: {logs / 'empty.txt'} (empty file)" in out  # found by walking: ignored
    assert out.splitlines()[-1] == "total: 2 files, 2 parsed, 0 skipped, 1 rejected, 0 file errors, 1 ignored"


def test_files_that_are_not_hand_histories(capsys: pytest.CaptureFixture[str], logs: Path) -> None:
    (logs / "empty.txt").write_text("")
    (logs / "data.bin").write_bytes(b"\x00\x01\x02\xff" * 64)
    (logs / "notes.md").write_text("# my notes\n")
    code, out, _ = run(capsys, str(logs), "--format", "summary")  # walked: listed once, exit 0
    assert code == 0
    ignored = [line for line in out.splitlines() if line.startswith("not a hand history: ")]
    assert ignored == [f"not a hand history: {logs / 'data.bin'} (binary file, not text)",
                       f"not a hand history: {logs / 'empty.txt'} (empty file)",
                       f"not a hand history: {logs / 'notes.md'} (no known site's format)"]
    assert out.splitlines()[-1] == "total: 1 file, 2 parsed, 0 skipped, 0 rejected, 0 file errors, 3 ignored"
    for name, reason in (("empty.txt", "empty file"), ("data.bin", "binary file, not text")):
        code, out, _ = run(capsys, str(logs / name), "--format", "summary")  # named: an error
        assert code == 1 and out == f"{logs / name}:1: error: {reason}\n"
    code, out, _ = run(capsys, str(logs / "notes.md"), "--format", "summary")
    assert code == 1 and out.startswith(f"{logs / 'notes.md'}:1: error: not a hand history of any known site")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, str(tmp_path / "missing.txt"))
    assert code == 2 and err.strip().endswith("missing.txt: no such file or directory")
    empty = tmp_path / "nothing"
    empty.mkdir()
    code, _, err = run(capsys, str(empty))
    assert code == 2 and "directory holds no hand-history files" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as caught:
        main(["parse", "--site", "nosuchsite", str(tmp_path)])
    assert caught.value.code == 2


def test_forced_site(capsys: pytest.CaptureFixture[str], logs: Path) -> None:
    code, _, err = run(capsys, str(logs / "good.txt"), "--site", "pokerstars", "--format", "jsonl")
    assert code == 0 and "2 parsed" in err


def test_corpus_directory(capsys: pytest.CaptureFixture[str], corpus: Path) -> None:
    code, out, _ = run(capsys, str(corpus / "PokerStars"), "--format", "summary")
    assert "53 parsed, 84 skipped (Hold'em Limit x24" in out
    summary = corpus / "PokerStars" / "summaries" / "8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"
    assert f"not a hand history: {summary} (a PokerStars tournament summary, not a hand history)" in out
    assert "total: 13 files, 75 parsed, 84 skipped, 0 rejected, 0 file errors, 4 ignored" in out
    assert code == 0  # FPDB's .hp/.gt/.json side files and the summary are ignored
    code, out, _ = run(capsys, str(summary), "--format", "summary")
    assert code == 1 and out == f"{summary}:1: error: a PokerStars tournament summary, not a hand history\n"


def test_version_matches_the_package_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    import tomllib

    import studbook

    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.strip() == f"studbook {studbook.__version__}"
    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["version"] == studbook.__version__


def test_python_dash_m_runs_the_cli(logs: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "studbook", "parse", str(logs / "good.txt"), "--format", "summary"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0 and "2 parsed" in done.stdout, done
