"""Original texts taken in the parse's own pass (studbook.parse.stream_sourced):
the same texts as reading the file again (originals.hand_texts), the same
results as the plain stream, and ``import`` reads each file once."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

import studbook.cli.importer as importer
import studbook.originals as originals
import studbook.scale as scale
from studbook.store import prepare as store_prepare
from studbook.check import SourcedStream, stream_file, stream_sourced
from studbook.cli import main
from studbook.engine.result import HandCheck
from studbook.originals import hand_texts
from studbook.parse import read_file
from studbook.parse import stream_sourced as parse_sourced
from studbook.read import files_in

HISTORIES = Path(__file__).resolve().parents[1] / "histories"


def _files(root: Path) -> list[str]:
    return [str(f) for f in files_in(root)]


def _stored(db: Path) -> dict[tuple[str, int], tuple[str, str | None]]:
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT file, line, text, context FROM originals").fetchall()
    conn.close()
    unpack = store_prepare.unpack
    return {(file, line): (unpack(text), unpack(context)) for file, line, text, context in rows}


def _reread(files: list[str]) -> dict[tuple[str, int], tuple[str, str | None]]:
    """Each stored hand's text as the file read again gives it (the oracle)."""
    out = {}
    for file in files:
        for (name, line), source in hand_texts(file).items():
            out[(name, line)] = (source.text, source.context)
    return out


def _assert_sourced_like_reread(files: list[str]) -> int:
    sourced_hands = 0
    for file in files:
        plain = read_file(file)
        report, sourced = parse_sourced(file)
        pairs = list(sourced)
        assert [r for r, _ in pairs] == plain.results, file
        assert replace(report, results=plain.results) == plain
        again = hand_texts(file)
        for result, source in pairs:
            if source is None:
                continue
            sourced_hands += 1
            assert again[(file, result.line)] == source, (file, result.line)
    return sourced_hands


def test_sourced_parse_is_the_plain_parse_with_the_reread_texts_histories() -> None:
    assert _assert_sourced_like_reread(_files(HISTORIES)) > 2000


def test_sourced_parse_is_the_plain_parse_with_the_reread_texts_corpus(corpus: Path) -> None:
    files = _files(corpus)
    assert any(f.endswith(".xml") for f in files)  # the XML sites' file heads are covered
    assert _assert_sourced_like_reread(files) > 300


def test_sourced_check_is_the_plain_check() -> None:
    for file in _files(HISTORIES):
        plain = stream_file(file)
        sourced = stream_sourced(file)
        assert [r for r, _ in sourced.results] == list(plain.results)
        assert sourced.parsed == plain.parsed


def _no_reread(monkeypatch: pytest.MonkeyPatch) -> None:
    """No file is read a second time in this process: for its originals, or for a
    hand a worker checked that the bring-in memory has checked again."""
    def reread(*args: object, **kwargs: object) -> None:
        raise AssertionError("import read a file a second time")

    monkeypatch.setattr(originals, "hand_texts", reread)
    monkeypatch.setattr(scale, "_hands_by_line", reread)


@pytest.mark.parametrize("root", ["histories", "corpus"])
def test_import_stores_the_reread_texts_reading_each_file_once(
        root: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    path = HISTORIES if root == "histories" else request.getfixturevalue("corpus")
    files = _files(path)
    want = _reread(files)
    _no_reread(monkeypatch)
    db = tmp_path / "s.db"
    assert main(["import", str(path), "--db", str(db), "-q", "--jobs", "1"]) == 0
    stored = _stored(db)
    assert stored and len(stored) == sqlite3.connect(db).execute("SELECT count(*) FROM hands").fetchone()[0]
    assert all(stored[key] == want[key] for key in stored)


def test_jobs_streamed_files_carry_their_texts_pooled_ones_come_packed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --jobs, a file checked here hand by hand carries its texts; a worker's
    file comes with its originals rows, packed from the text the worker read. No
    file is read twice, and the stored texts equal a one-job import's."""
    monkeypatch.setattr(scale, "STREAMED_BYTES", 800_000)  # two of the histories' files
    streamed = {f for f in _files(HISTORIES) if Path(f).stat().st_size >= 800_000}
    assert 0 < len(streamed) < len(_files(HISTORIES))
    kinds = []
    real_store = importer._store
    def store(store, checked, *args):  # type: ignore[no-untyped-def]
        kinds.append((checked.parsed.file, isinstance(checked, SourcedStream)))
        return real_store(store, checked, *args)
    monkeypatch.setattr(importer, "_store", store)
    _no_reread(monkeypatch)
    jobs, one = tmp_path / "jobs.db", tmp_path / "one.db"
    assert main(["import", str(HISTORIES), "--db", str(jobs), "-q", "--jobs", "2"]) == 0
    assert {file for file, carried in kinds if carried} == streamed
    assert {file for file, carried in kinds if not carried} == set(_files(HISTORIES)) - streamed
    assert main(["import", str(HISTORIES), "--db", str(one), "-q", "--jobs", "1"]) == 0
    assert _stored(jobs) == _stored(one)


def test_store_add_holds_carried_texts_for_each_hand(tmp_path: Path) -> None:
    """Store.add takes (result, text) pairs: every new hand's text, none for the others."""
    from studbook.store import Store

    file = str(HISTORIES / "planted-violations.txt")
    checked = stream_sourced(file)
    store = Store(tmp_path / "s.db")
    pairs = list(checked.results)
    store.add(pairs, batch_size=7)
    kept = {(o.file, o.line): o.text for o in store.originals()}
    store.close()
    hands = [(r.hand.file, r.hand.line, s) for r, s in pairs if isinstance(r, HandCheck)]
    assert len(kept) == len(hands) > 7
    assert all(kept[(f, line)] == s.text for f, line, s in hands if s is not None)
