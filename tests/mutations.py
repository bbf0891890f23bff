"""Line mutations of real hand histories, for the fuzz tests (hypothesis draws every choice)."""

from __future__ import annotations

import re

from hypothesis import strategies as st

NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")
ODD_NUMBERS = ("0", "00", "1", "3.5", "0.001", "999999", "12345678901234567890")
# words that mean something on some line of some site: names, cards, amounts, markers
ODD_WORDS = ("Hero", "Player1", "x", "", ":", "[Ah]", "[Ah Ah]", "(0.40)", "$1", "all-in", "folds", "Seat", "***")


def mutate(text: str, data: st.DataObject) -> str:
    """``text`` with one to four lines dropped, doubled, swapped, garbled,
    inserted or cut after, a number on a line changed to an odd one, or a
    word of a line replaced (a player's name by another, a card, ...)."""
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["drop", "dup", "swap", "garble", "insert", "cut", "number", "word"]))
        i = data.draw(st.integers(0, len(lines) - 1))
        j = data.draw(st.integers(0, len(lines) - 1))
        if op == "drop" and len(lines) > 1:
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[j])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "garble":
            junk = data.draw(st.text(min_size=1, max_size=8))
            k = data.draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:k] + junk + lines[i][k:]
        elif op == "insert":
            lines.insert(i, data.draw(st.text(max_size=40)))
        elif op == "cut":
            lines = lines[: i + 1]
        elif op == "number" and (numbers := list(NUMBER.finditer(lines[i]))):
            m = data.draw(st.sampled_from(numbers))
            lines[i] = lines[i][: m.start()] + data.draw(st.sampled_from(ODD_NUMBERS)) + lines[i][m.end() :]
        elif op == "word":
            words = lines[i].split(" ")
            words[data.draw(st.integers(0, len(words) - 1))] = data.draw(st.sampled_from(ODD_WORDS))
            lines[i] = " ".join(words)
    return "\n".join(lines)
