"""studbook.read: decoding, splitting, the fast grammar driver, fast records."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from studbook.events import Action, ActionKind, Deal, Street
from studbook.cards import Card
from studbook.read import decode, detect_format, split_at_headers, split_blank_lines
from studbook.read.records import maker
from studbook.sites import all_sites, get_site
from studbook.sites.pokerstars import HEADER_START, grammar

TEXT = "PokerStars Hand #1: x\nline two\n"


@pytest.mark.parametrize(
    "data, encoding",
    [
        (b"\xef\xbb\xbf" + TEXT.encode(), "utf-8-sig"),
        (b"\xff\xfe" + TEXT.encode("utf-16-le"), "utf-16-le"),
        (b"\xfe\xff" + TEXT.encode("utf-16-be"), "utf-16-be"),
        (TEXT.encode("utf-16-le"), "utf-16-le"),
        (TEXT.encode("utf-16-be"), "utf-16-be"),
        (TEXT.encode(), "utf-8"),
    ],
)
def test_decode_encodings(data: bytes, encoding: str) -> None:
    decoded = decode(data)
    assert decoded.encoding == encoding
    assert decoded.text == TEXT
    assert not decoded.binary and not decoded.warnings


def test_decode_cp1252_and_non_ascii_names() -> None:
    decoded = decode("Seat 1: drachensüss (€5 in chips)\n".encode("cp1252"))
    assert decoded.encoding == "cp1252"
    assert "drachensüss" in decoded.text and "€5" in decoded.text
    assert decode("drachensüss\n".encode()).text == "drachensüss\n"


def test_decode_newlines_and_nul_bytes() -> None:
    decoded = decode(b"a\r\nb\rc\x00d\n\x00")
    assert decoded.text == "a\nb\ncd\n"
    assert decoded.warnings == ("2 NUL bytes dropped",)


def test_decode_binary() -> None:
    assert decode(bytes(range(256)) * 20).binary
    assert not decode(b"").binary


def test_split_blank_lines_keeps_line_numbers() -> None:
    text = "\n\nA1\nA2\n\n\n  \nB1\n\nC1"
    blocks = list(split_blank_lines(text))
    assert [(b.first_line, b.text) for b in blocks] == [(3, "A1\nA2\n"), (8, "B1\n"), (10, "C1\n")]


def test_split_at_headers_drops_leading_garbage_and_keeps_stray_text() -> None:
    text = "garbage\n\nPokerStars Hand #1: a\nx\n\nstray\n\n\nPokerStars Hand #2: b\ny\nPokerStars Game #3: c\n"
    chunks = list(split_at_headers(text, HEADER_START))
    assert [(c.first_line, c.text) for c in chunks] == [
        (3, "PokerStars Hand #1: a\nx\n"),
        (6, "stray\n"),
        (9, "PokerStars Hand #2: b\ny\n"),
        (11, "PokerStars Game #3: c\n"),
    ]


def test_detection_through_the_registry() -> None:
    assert detect_format("junk\nPokerStars Game #123: ...", all_sites()) is get_site("pokerstars")
    assert detect_format("just some notes\nnothing else\n", all_sites()) is None
    with pytest.raises(KeyError, match="unknown site"):
        get_site("nosuchsite")


def test_fast_driver_agrees_with_lark_on_the_corpus(corpus: Path) -> None:
    """The lean loop over Lark's tables gives exactly Lark's own tokens."""
    rules = grammar()
    fmt = get_site("pokerstars")
    checked = 0
    for path in sorted((corpus / "PokerStars").rglob("*.txt")):
        if "summaries" in path.parts:
            continue
        text = decode(path.read_bytes()).text
        for chunk in fmt.split(text):
            fast = rules.lines(chunk.text)
            assert fast == rules.reference_lines(chunk.text), f"{path}:{chunk.first_line}"
            checked += 1
    assert checked == 159  # 75 stud + 84 other-game hands


def test_maker_builds_equal_frozen_events() -> None:
    make_action = maker(Action)
    fast = make_action("f", 3, "p", ActionKind.RAISE, Decimal("1"), Decimal("2"), True)
    slow = Action(file="f", line=3, player="p", kind=ActionKind.RAISE, amount=Decimal("1"),
                  to=Decimal("2"), all_in=True)  # fmt: skip
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    with pytest.raises(AttributeError):
        fast.player = "q"  # type: ignore[misc]
    deal = maker(Deal)("f", 1, "p", Street.THIRD, (Card.parse("Ah"),), (), ())
    assert deal == Deal(file="f", line=1, player="p", street=Street.THIRD, down=(Card.parse("Ah"),))
