"""``--format original``: each hand's text exactly as the site wrote it (after decoding;
an XML site's hand is its ``<game>`` element), hands apart by a blank line as the
sites write them, or with ``--split`` one file a hand (``.txt``, ``.xml``). From a
store, the text it kept at import, so the hand-history files may be gone."""

from __future__ import annotations

from studbook.originals import suffix_of
from studbook.write import HandOut, HandWriter, NotWritten, register


def render(hand: HandOut) -> str:
    if hand.text is None:
        raise NotWritten(f"hand {hand.site} {hand.hand_id}: no original text")
    return hand.text


def joined(number: int, text: str) -> str:
    return text if number == 1 else "\n" + text  # hands apart by a blank line, as the sites write them


WRITER = register(HandWriter("original", "original text", render, joined, suffix_of,
                             wants_hand=False, wants_text=True))
