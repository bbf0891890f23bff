"""Violations as data: every violation of the real corpus and the sample histories
carries who is at fault and the values its rule compared, the text forms and the
jsonl form agree, and a store of the previous schema opens and gains the columns.

Which message a violation was written from is found by its text (each template
as a pattern): its fields are then held to what that message names
(``engine/messages.py``, docs/violations.md)."""

from __future__ import annotations

import json
import re
import sqlite3
from functools import cache
from pathlib import Path

import pytest

from studbook.check import check_paths
from studbook.cli import main
from studbook.engine.messages import SAYS, Message, value_text
from studbook.engine.result import HandCheck, Party, Violation
from studbook.events import Street

HISTORIES = Path(__file__).resolve().parents[1] / "histories"
ADDED = ["street", "party", "seat", "player", "expected", "actual"]
"""The keys a violation's JSON object gained, after rule, line and message."""


def _pattern(message: Message) -> re.Pattern[str]:
    parts = re.split(r"\{[^{}]*\}", message.template)
    return re.compile("(?s)" + "(.*)".join(map(re.escape, parts)) + r"\Z")


def _said_by(v: Violation) -> list[Message]:
    """The messages of the violation's rule its text can be written by."""
    return [m for m in SAYS[v.rule] if _pattern(m).match(v.message)]


def _filled(value: object) -> bool:
    """A value is there (an empty tuple is one: nobody eligible, no card shown)."""
    return value is not None and value != ""


@cache
def _violations(folder: Path) -> tuple[tuple[str, str, Violation], ...]:
    return tuple((checked.file, r.hand.hand_id, v) for checked in check_paths([folder])
                 for r in checked.results if isinstance(r, HandCheck) for v in r.violations)


def _every_violation(corpus: Path) -> list[tuple[str, str, Violation]]:
    found = [*_violations(corpus), *_violations(HISTORIES)]
    assert len(found) >= 45  # the corpus's 8 and the planted ones of the histories
    return found


def test_every_violation_has_its_party_and_values(corpus: Path) -> None:
    """No empty field where the rule's message has one: the party the rule (or message)
    names, the player and seat for a player's fault, the expected and actual values the
    message compares, and the street from 3rd street on."""
    wrong = []
    for file, hand, v in _every_violation(corpus):
        said = _said_by(v)
        problems = [] if said else ["no message of its rule writes this text"]
        for m in said:
            if v.party is not m.at_fault:
                problems.append(f"party {v.party} not {m.at_fault}")
            if m.expected is not None and not _filled(v.expected):
                problems.append("no expected value")
            if m.actual is not None and not _filled(v.actual):
                problems.append("no actual value")
            if "player" in m.fields and not v.player:
                problems.append("no player")
        if v.party is Party.PLAYER and (v.player is None or v.seat is None):
            problems.append("a player's fault without the player and seat")
        if v.player is not None and v.player not in v.message:
            problems.append(f"player {v.player} not named by the message")
        if v.street is None and not v.rule.startswith("deal."):
            problems.append("no street")
        if problems:
            wrong.append((file, hand, v.line, v.rule, v.message, problems))
    assert wrong == []


def test_the_values_are_the_ones_the_message_writes(corpus: Path) -> None:
    """Each expected and actual value, written as text, appears in the message."""
    wrong = []
    for file, _, v in _every_violation(corpus):
        for value in (v.expected, v.actual):
            if value is None:
                continue
            if value_text(value) in v.message:
                continue
            # a pair of fields (down and up cards, amount and player): each one is written
            parts = [value_text(p) for p in value if p is not None] if isinstance(value, tuple) else []
            if not parts or any(p not in v.message for p in parts):
                wrong.append((file, v.line, v.message, value_text(value)))
    assert wrong == []


@pytest.mark.parametrize("where", ["corpus", "histories"])
def test_jsonl_violations_are_the_text_forms_plus_the_added_keys(
        where: str, corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``check --format jsonl``: each violation object is rule, line and message (as before,
    in that order) then the added keys; the text form's lines are the same violations."""
    folder = corpus if where == "corpus" else HISTORIES
    assert main(["check", str(folder), "--format", "jsonl"]) == 1
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert main(["check", str(folder)]) == 1
    text = [x for x in capsys.readouterr().out.splitlines() if ": hand " in x and ": rejected: " not in x]
    objects = [(r, v) for r in records if "violations" in r for v in r["violations"]]
    assert objects and all(list(v) == ["rule", "line", "message", *ADDED] for _, v in objects)
    written = [f"{r['file']}:{v['line']}: hand {r['hand_id']}: {v['rule']}: {v['message']}" for r, v in objects]
    assert [x for x in text if x in set(written)] == written
    assert all(v["party"] in {p.value for p in Party} for _, v in objects)
    assert all(v["street"] is None or v["street"] in {s.label for s in Street} for _, v in objects)


def test_jsonl_values_are_plain_json(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fixture whose 5th-street order is wrong: the players compared, by name; the
    bet size expected, amounts as plain decimal text in a list."""
    assert main(["check", str(corpus / "PokerStars" / "fpdb3-fixtures"), "--format", "jsonl"]) == 1
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    found = {(r["hand_id"], v["line"]): v for r in records for v in r.get("violations", [])}
    assert {k: found[("3234567890", 27)][k] for k in ADDED} == {
        "street": "5th", "party": "player", "seat": 3, "player": "Player3", "expected": "Player1", "actual": "Player3"}
    assert {k: found[("35874566077", 35)][k] for k in ADDED} == {
        "street": "7th", "party": "site", "seat": None, "player": None, "expected": "0.50", "actual": "0.74"}


def test_the_violations_frame_has_the_fields(capsys: pytest.CaptureFixture[str]) -> None:
    """The planted violations of the histories, as the frame holds them: the player is the
    violation's (the bring-in rule names who brought in wrongly), with seat and values."""
    from studbook.frames import load

    frames = load(HISTORIES / "planted-violations.txt")
    rows = {(r.rule, r.line): r for r in frames.violations.itertuples()}
    row = rows[("bringin.player", 22)]
    assert (row.player, row.party, row.street, row.expected, row.actual) == (
        "OldSchool Stud", "player", "3rd", "{fish}", "OldSchool Stud")
    assert row.seat > 0
    assert frames.violations["party"].notna().all()


MAIN_SCHEMA_VIOLATIONS = ("site", "hand_id", "variant", "rule", "file", "line", "player", "message")
"""The violations table of schema 4 (main before the fields)."""


def test_a_schema_4_store_opens_and_gains_the_violation_columns(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A store of schema 4, made as main made it (the violations table without the
    fields): read with the new columns NA, and given them by the next import."""
    from studbook.store import SCHEMA_VERSION, Store

    planted = HISTORIES / "planted-violations.txt"
    db = tmp_path / "old.db"
    assert main(["import", str(planted), "--db", str(db), "-q"]) == 0
    with sqlite3.connect(db) as conn:  # what a schema-4 store looks like
        for column in ("street", "party", "seat", "expected", "actual"):
            conn.execute(f"ALTER TABLE violations DROP COLUMN {column}")
        conn.execute("ALTER TABLE hands DROP COLUMN hero")  # schema 6's
        conn.execute("ALTER TABLE hands DROP COLUMN hero_mark")
        conn.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
        assert tuple(r[1] for r in conn.execute("PRAGMA table_info(violations)")) == MAIN_SCHEMA_VIOLATIONS
        count = conn.execute("SELECT count(*) FROM violations").fetchone()[0]
    capsys.readouterr()
    with Store(db, create=False, readonly=True) as store:
        old = store.read_table("violations")
    assert len(old) == count > 0 and old["party"].isna().all() and old["expected"].isna().all()
    with Store(db, create=False, readonly=False) as store:  # opened for writing: upgraded in place
        assert len(store.read_table("violations")) == count
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (SCHEMA_VERSION,)
        assert tuple(r[1] for r in conn.execute("PRAGMA table_info(violations)")) == (
            *MAIN_SCHEMA_VIOLATIONS, "street", "party", "seat", "expected", "actual")
    other = tmp_path / "more.txt"  # a new hand imports into the upgraded store with its fields
    other.write_text(planted.read_text(encoding="utf-8").replace("258878136593", "258878136599"), encoding="utf-8")
    assert main(["import", str(other), "--db", str(db), "-q"]) == 0
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT party, expected FROM violations WHERE hand_id = '258878136599' "
                            "AND rule = 'bringin.player'").fetchall()
    assert rows == [("player", "{fish}")]


def _rule_table() -> str:
    def names(spec: str | tuple[str, ...] | None) -> str:
        return "" if spec is None else f"`{spec}`" if isinstance(spec, str) else ", ".join(f"`{s}`" for s in spec)

    rows = ["| rule | party | message | expected | actual |", "|---|---|---|---|---|"]
    rows += [f"| `{rule}` | {m.at_fault.value} | `{m.template}` | {names(m.expected)} | {names(m.actual)} |"
             for rule, says in SAYS.items() for m in says]
    return "\n".join(rows) + "\n"


def test_the_docs_say_which_fields_each_rule_fills() -> None:
    """docs/violations.md's table by rule is the message table's."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "violations.md").read_text(encoding="utf-8")
    assert _rule_table() in doc
