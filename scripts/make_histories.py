"""Regenerate ``histories/``: the sample PokerStars logs studbook ships.

    .venv/bin/python scripts/make_histories.py          # rewrites histories/*.txt, *.tsv

Every file comes from :mod:`studbook.simulate` with a fixed seed, so running
this again gives byte-identical files. Nothing here comes from a real log.

* one file per cash table or tournament, named like PokerStars' own files,
  with "Hero" seated in every one (player stats across files);
* ``planted-violations.txt``: simulated hands, each with ONE line changed so
  that it breaks one rule of RULES.md; ``.planted-violations.tsv`` is the
  answer key (file line, hand, rule id, what was changed; a dot file, so `studbook
  check histories/` does not read it as a log). The script checks
  every planted hand is clean before the change and flagged after it.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Callable, Iterator

from studbook.check import check_hand
from studbook.events import Hand
from studbook.money import format_amount, parse_amount
from studbook.parse import parse_text
from studbook.simulate import SimulatedHand, file_name, simulate
from studbook.write.pokerstars import write_hand, write_hands

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "histories"
HERO = "Hero"


@dataclass(frozen=True)
class Session:
    variant: str
    players: int
    hands: int  # tournaments: at most this many (the event ends first)
    seed: int
    start: datetime
    stakes: str = "2"
    table: str | None = None
    tournament: bool = False


SESSIONS = (
    Session("stud", 8, 450, 101, datetime(2024, 3, 2, 19, 5, 11), stakes="0.5", table="Aaltje IV"),
    Session("stud8", 6, 450, 102, datetime(2024, 3, 4, 21, 40, 2), stakes="2", table="Brunhilde II"),
    Session("razz", 7, 330, 103, datetime(2024, 3, 7, 14, 12, 45), stakes="10", table="Cassiopeia VII"),
    Session("stud", 5, 280, 104, datetime(2024, 3, 9, 23, 1, 9), stakes="10", table="Dorado III"),
    Session("stud8", 8, 330, 105, datetime(2024, 3, 12, 18, 30, 0), stakes="0.5", table="Eunike V"),
    Session("razz", 2, 160, 106, datetime(2024, 3, 15, 1, 17, 33), stakes="2", table="Fidelitas IX"),
    Session("stud8", 8, 400, 107, datetime(2024, 3, 16, 20, 0, 4), tournament=True),
    Session("razz", 6, 300, 108, datetime(2024, 3, 20, 20, 0, 2), tournament=True),
    Session("stud", 4, 200, 109, datetime(2024, 3, 23, 15, 30, 7), tournament=True),
)


def session_hands(session: Session) -> list[Hand]:
    hands: list[Hand] = []
    first_tournament: str | None = None
    for simulated in simulate(session.variant, session.hands, session.players, session.seed, session.tournament,
                              stakes=session.stakes, table=session.table, hero=HERO, start=session.start,
                              hands_per_level=12):
        tournament = simulated.hand.header.tournament
        if tournament is not None:
            first_tournament = first_tournament or tournament.id
            if tournament.id != first_tournament:
                break  # one file per tournament: this one is over
        hands.append(simulated.hand)
    return hands


# ------------------------------------------------------------------ planted violations

Mutation = Callable[[list[str]], "tuple[int, str, str] | None"]  # (index, new line, what)

_ACTION = re.compile(r"^(?P<player>.+?): (?P<verb>brings in for|bets|calls|raises|checks|folds|completes it to)"
                     r"(?P<rest>.*)$")
_STREET = re.compile(r"^\*\*\* (3rd|4th|5th|6th) STREET \*\*\*|^\*\*\* RIVER \*\*\*")


def _amount(text: str) -> Decimal:
    return parse_amount(text)


def _money(value: Decimal, like: str) -> str:
    return format_amount(value, "$" if like.startswith("$") else "")


def _street_of(lines: list[str], index: int) -> str:
    for line in reversed(lines[:index]):
        if _STREET.match(line):
            return line
    return ""


def wrong_bring_in(lines: list[str]) -> tuple[int, str, str] | None:
    dealt = [m.group(1) for line in lines if (m := re.match(r"^Dealt to (.+?) \[[^\]]+\]$", line))]
    for i, line in enumerate(lines):
        m = _ACTION.match(line)
        if m and m.group("verb") == "brings in for" and "all-in" not in line:
            other = next((p for p in dealt if p != m.group("player")), None)
            if other:
                return i, f"{other}: brings in for{m.group('rest')}", f"{other} brings in instead of {m.group('player')}"
    return None


def out_of_turn(lines: list[str]) -> tuple[int, str, str] | None:
    for i in range(1, len(lines) - 1):
        a, b = _ACTION.match(lines[i]), _ACTION.match(lines[i + 1])
        if not (a and b and _ACTION.match(lines[i - 1])) or "3rd" in _street_of(lines, i):
            continue  # mid-round, after 3rd street: the rule is order.turn
        if a.group("verb") == b.group("verb") == "checks" and a.group("player") != b.group("player"):
            return i, f"{b.group('player')}: checks", f"{b.group('player')} checks before {a.group('player')}, out of turn"
    return None


def wrong_bet_size(lines: list[str]) -> tuple[int, str, str] | None:
    for i, line in enumerate(lines):
        m = _ACTION.match(line)
        if m and m.group("verb") == "bets" and "all-in" not in line and "5th" in _street_of(lines, i):
            value = m.group("rest").strip()
            half = _money(_amount(value) / 2, value)
            return i, f"{m.group('player')}: bets {half}", f"a 5th-street bet of {half} instead of {value}"
    return None


def over_the_cap(lines: list[str]) -> tuple[int, str, str] | None:
    for i, line in enumerate(lines[:-1]):
        if line != "Betting is capped":
            continue
        raise_line = _ACTION.match(lines[i - 1])
        nxt = _ACTION.match(lines[i + 1])
        if not (raise_line and nxt and nxt.group("verb") == "calls" and "all-in" not in lines[i + 1]):
            continue
        parts = re.match(r" (\S+) to (\S+)", raise_line.group("rest"))
        if parts is None:
            continue
        unit, to = parts.group(1), parts.group(2)
        new_to = _money(_amount(to) + _amount(unit), to)
        return i + 1, f"{nxt.group('player')}: raises {unit} to {new_to}", "a fifth bet after the cap of four"
    return None


def bad_pot_total(lines: list[str]) -> tuple[int, str, str] | None:
    for i, line in enumerate(lines):
        m = re.match(r"^Total pot (\S+) \| Rake (\S+)$", line)
        if m:
            total = m.group(1)
            more = _money(_amount(total) + (Decimal(1) if not total.startswith("$") else Decimal("0.50")), total)
            return i, f"Total pot {more} | Rake {m.group(2)}", f"total pot {more} instead of {total}"
    return None


def wrong_winner(lines: list[str]) -> tuple[int, str, str] | None:
    if "*** SHOW DOWN ***" not in lines:
        return None
    shown = [m.group(1) for line in lines if (m := re.match(r"^(.+?): shows \[", line))]
    collects = [(i, m) for i, line in enumerate(lines) if (m := re.match(r"^(.+?) collected (\S+) from pot$", line))]
    if len(collects) != 1 or len(set(shown)) < 2 or any("all-in" in line for line in lines):
        return None
    i, m = collects[0]
    loser = next(p for p in shown if p != m.group(1))
    return i, f"{loser} collected {m.group(2)} from pot", f"the pot goes to {loser}, who lost, not {m.group(1)}"


def wrong_ante(lines: list[str]) -> tuple[int, str, str] | None:
    antes = [(i, m) for i, line in enumerate(lines) if (m := re.match(r"^(.+?): posts the ante (\S+)$", line))]
    if len(antes) < 3:
        return None
    i, m = antes[2]
    value = m.group(2)
    less = _money(_amount(value) / 2, value)
    return i, f"{m.group(1)}: posts the ante {less}", f"an ante of {less} instead of {value}"


def check_facing_bet(lines: list[str]) -> tuple[int, str, str] | None:
    for i, line in enumerate(lines):
        m = _ACTION.match(line)
        if m and m.group("verb") == "calls" and "all-in" not in line and "4th" in _street_of(lines, i):
            return i, f"{m.group('player')}: checks", f"{m.group('player')} checks facing a bet"
    return None


def wrong_completion(lines: list[str]) -> tuple[int, str, str] | None:
    for i, line in enumerate(lines):
        m = _ACTION.match(line)
        if m and m.group("verb") == "completes it to" and "all-in" not in line:
            value = m.group("rest").strip()
            more = _money(_amount(value) * 2, value)
            return i, f"{m.group('player')}: completes it to {more}", f"a completion to {more} instead of {value}"
    return None


def wrong_uncalled(lines: list[str]) -> tuple[int, str, str] | None:
    for i, line in enumerate(lines):
        m = re.match(r"^Uncalled bet \((\S+)\) returned to (.+)$", line)
        if m:
            more = _money(_amount(m.group(1)) * 2, m.group(1))
            return i, f"Uncalled bet ({more}) returned to {m.group(2)}", f"{more} returned instead of {m.group(1)}"
    return None


def duplicate_card(lines: list[str]) -> tuple[int, str, str] | None:
    door = None
    for i, line in enumerate(lines):
        m = re.match(r"^Dealt to (.+?) \[(\S\S)\]$", line)
        if m and door is None:
            door = m.group(2)
        m4 = re.match(r"^Dealt to (.+?) \[(\S\S)\] \[(\S\S)\]$", line)
        if m4 and door is not None and m4.group(2) != door:
            return i, f"Dealt to {m4.group(1)} [{m4.group(2)}] [{door}]", f"{m4.group(1)} is dealt {door}, another player's door card"
    return None


def razz_double_bet(lines: list[str]) -> tuple[int, str, str] | None:
    if "Razz" not in lines[0]:
        return None
    small = re.search(r"\((\S+)/(\S+)", lines[0])
    if small is None:
        return None
    for i, line in enumerate(lines):
        m = _ACTION.match(line)
        if m and m.group("verb") == "bets" and "all-in" not in line and "4th" in _street_of(lines, i):
            return i, f"{m.group('player')}: bets {small.group(2)}", "a double bet on 4th street in razz"
    return None


PLANTS: tuple[tuple[str, Mutation], ...] = (
    ("bringin.player", wrong_bring_in),
    ("order.turn", out_of_turn),
    ("bet.size", wrong_bet_size),
    ("bet.cap", over_the_cap),
    ("pot.total", bad_pot_total),
    ("showdown.award", wrong_winner),
    ("deal.ante", wrong_ante),
    ("bet.check", check_facing_bet),
    ("bringin.complete", wrong_completion),
    ("pot.uncalled", wrong_uncalled),
    ("cards.unique", duplicate_card),
    ("bet.open_pair", razz_double_bet),
)


def _candidates() -> Iterator[SimulatedHand]:
    for variant, seed in (("stud", 201), ("razz", 202), ("stud8", 203)):
        yield from simulate(variant, 120, 6, seed, stakes="1", table="Gaudeamus XI", hero=HERO,
                            start=datetime(2024, 3, 27, 11, 0, 0))


def planted() -> tuple[list[str], list[tuple[str, str, str, int]]]:
    """Mutated hand texts, and (hand id, rule, what, 0-based changed line) for each."""
    texts: list[str] = []
    key: list[tuple[str, str, str, int]] = []
    pool = [s for s in _candidates() if not check_hand(s.hand).violations]
    used: set[str] = set()
    for rule, mutate in PLANTS:
        for simulated in pool:
            hand = simulated.hand
            if hand.hand_id in used:
                continue
            lines = write_hand(hand).rstrip("\n").split("\n")
            change = mutate(lines)
            if change is None:
                continue
            index, new_line, what = change
            lines[index] = new_line
            text = "\n".join(lines) + "\n"
            results = list(parse_text(text))
            if len(results) != 1 or not isinstance(results[0], Hand):
                continue
            found = check_hand(results[0]).violations
            if not any(v.rule == rule and v.line == index + 1 for v in found):
                continue
            used.add(hand.hand_id)
            texts.append(text)
            key.append((hand.hand_id, rule, what, index))
            break
        else:
            raise SystemExit(f"no simulated hand could carry a planted {rule} violation")
    return texts, key


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for old in OUT.glob("*.txt"):
        old.unlink()
    total = 0
    for session in SESSIONS:
        hands = session_hands(session)
        path = OUT / file_name(hands[0])
        path.write_text(write_hands(hands), encoding="utf-8")
        total += len(hands)
        print(f"{path.name}: {len(hands)} hands, {path.stat().st_size} bytes")
    texts, key = planted()
    text = "\n\n".join(texts) + "\n"
    (OUT / "planted-violations.txt").write_text(text, encoding="utf-8")
    rows = ["line\thand\trule\tchange"]
    offset = 1
    for hand_text, (hand_id, rule, what, index) in zip(texts, key):
        rows.append(f"{offset + index}\t{hand_id}\t{rule}\t{what}")
        offset += hand_text.count("\n") + 2  # hands are two blank lines apart
    (OUT / ".planted-violations.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"planted-violations.txt: {len(texts)} hands; {total} hands in the session files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
