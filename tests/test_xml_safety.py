"""The XML formats refuse DTDs and entities, and survive broken or cut-short hands."""

from __future__ import annotations

from pathlib import Path

from studbook.events import Hand, Rejected
from studbook.parse import parse_text
from studbook.sites import register
from studbook.sites.ipoker import FORMAT as IPOKER
from studbook.sites.merge import FORMAT as MERGE
from studbook.sites.xml_common import UNSAFE_REASON, scan

register(IPOKER)
register(MERGE)

BOMB = """<?xml version="1.0"?>
<!DOCTYPE session [
 <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
]>
<session sessioncode="1"><general><nickname>&c;</nickname></general>
<game gamecode="1"><general><players/></general></game></session>
"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE session [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<session sessioncode="1"><general><nickname>&secret;</nickname></general>
<game gamecode="1"><general><players/></general></game></session>
"""

GAME = """<game id="1-{n}" starttime="20110204202244" numholecards="7" gametype="39" realmoney="true" data="20110204|T (1)|1|1-{n}|false">
<players dealer="1">
<player seat="0" nickname="A" balance="$1" dealtin="true" />
<player seat="1" nickname="B" balance="$1" dealtin="true" />
</players>
<round id="BLINDS" sequence="1">
<event sequence="1" type="ANTE" player="0" amount="0.05"/>
<event sequence="2" type="ANTE" player="1" amount="0.05"/>
</round>
<round id="BRING_IN" sequence="2">
<event sequence="3" type="BRING_IN" player="0" amount="0.10"/>
<cards type="DRAW_DRAWN_CARDS" cards="null,null,2c" player="0"/>
<cards type="DRAW_DRAWN_CARDS" cards="null,null,Kc" player="1"/>
</round>
<round id="THIRD_STREET" sequence="3">
<event sequence="4" type="FOLD" player="1"/>
</round>
<round id="END_OF_FOLDED_GAME" sequence="4">
<winner amount="0.20" uncalled="false" potnumber="1" player="0" pottype="n"/>
</round>
</game>
"""
DESCRIPTION = '<description type="7-Stud" stakes="Limit $0.50/$1"/>\n'


def test_entity_expansion_bomb_is_refused() -> None:
    assert IPOKER.detect(BOMB)
    (result,) = list(parse_text(BOMB, file="bomb.xml"))
    assert isinstance(result, Rejected)
    assert result.reason == UNSAFE_REASON and result.line == 2
    assert "bomb.xml:2" in result.message()


def test_external_entity_is_refused() -> None:
    (result,) = list(parse_text(EXTERNAL, file="xxe.xml", site="ipoker"))
    assert isinstance(result, Rejected) and "DTD" in result.reason
    assert "root:" not in result.message()


def test_the_parser_itself_refuses_a_dtd() -> None:
    # the scanner's expat handlers refuse even if the text check were bypassed
    from studbook.sites import xml_common

    text = EXTERNAL.replace("<?xml version=\"1.0\"?>", "")
    items = list(xml_common._scan_segment(text, 0, len(text), 1, "game", frozenset(), True))
    assert items and items[-1].kind == "error"


def test_undeclared_entity_is_a_rejected_hand() -> None:
    text = DESCRIPTION + GAME.format(n=1).replace('nickname="A"', 'nickname="&boom;"') + GAME.format(n=2)
    results = list(parse_text(text, file="m.xml"))
    assert isinstance(results[0], Rejected) and "malformed XML" in results[0].reason
    assert isinstance(results[1], Hand) and results[1].hand_id == "1-2"  # the next hand still parses


def test_truncated_last_hand() -> None:
    full = DESCRIPTION + GAME.format(n=1) + GAME.format(n=2)
    cut = full[: full.rindex("<winner")]
    results = list(parse_text(cut, file="cut.xml"))
    assert isinstance(results[0], Hand)
    assert isinstance(results[1], Rejected) and "truncated" in results[1].reason
    assert results[1].hand_line == 2 + GAME.count("\n")


def test_line_numbers_follow_the_file_with_a_declaration() -> None:
    text = '<?xml version="1.0" encoding="utf-8"?>\n' + DESCRIPTION + GAME.format(n=1)
    items = list(scan(text, "game", frozenset({"description"})))
    assert [(i.kind, i.first_line) for i in items] == [("context", 2), ("record", 3)]
    (hand,) = list(parse_text(text, file="m.xml"))
    assert isinstance(hand, Hand) and hand.seats[0].line == 5


def test_utf16_and_bom_files(tmp_path: Path) -> None:
    from studbook.parse import read_file

    text = DESCRIPTION + GAME.format(n=1)
    for encoding, data in (("utf-16", text.replace("\n", "\r\n").encode("utf-16")),
                           ("utf-8-sig", text.encode("utf-8-sig"))):  # fmt: skip
        path = tmp_path / f"h.{encoding}.txt"
        path.write_bytes(data)
        result = read_file(path)
        assert result.site == "merge" and result.counts()["parsed"] == 1, result.details()


def test_a_scan_leaves_no_parser_cycle_for_the_collector() -> None:
    """Once a segment is read (whole, malformed or refused), its expat parser and
    builder go with the reference count: the collector may be paused for the whole
    file (gcpause), so a cycle between them would keep every segment's parser."""
    import gc

    from studbook.sites import xml_common

    def builders() -> int:
        return sum(type(o) is xml_common._Builder for o in gc.get_objects())

    texts = [DESCRIPTION + GAME.format(n=1), DESCRIPTION + GAME.format(n=1)[:-40], EXTERNAL]
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        before = builders()
        for text in texts:
            items = list(xml_common._scan_segment(text, 0, len(text), 1, "game", frozenset(), True))
            assert items
        assert builders() == before
    finally:
        if was_enabled:
            gc.enable()
