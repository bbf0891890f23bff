"""Generate a corpus of real-shaped PokerStars stud hands for benchmarks.

Takes every stud / stud hi-lo / razz hand of the real corpus
(``../shared/corpus/PokerStars``), and writes copies through the PokerStars
writer with new hand ids, new player names (spaces, brackets, non-ASCII
letters included) and shifted start times, 250 hands a file.

    .venv/bin/python benchmarks/generate.py --hands 20000 --out out/bench-corpus

The output is generated data: never commit it (``out/`` is ignored).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from datetime import timedelta
from pathlib import Path

import studbook
from studbook import Hand
from studbook.write import write_hands

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "PokerStars"
NAME_PARTS = ["Ana", "bob", "Zé", "drachen", "süss", "PC", "[Mittel]", "x:y", "Hero", "O'Neil", "77", "léa"]


def real_hands(corpus: Path) -> list[Hand]:
    hands = [hand for report in studbook.parse_paths([corpus]) for hand in report.hands]
    if not hands:
        sys.exit(f"no stud hands found under {corpus}")
    return hands


def renamed(hand: Hand, number: int, rng: random.Random) -> Hand:
    names: dict[str, str] = {}
    for seat in hand.seats:
        while True:
            name = " ".join(rng.sample(NAME_PARTS, rng.randint(1, 2))) + str(rng.randint(1, 999))
            if name not in names.values():
                break
        names[seat.player] = name

    def fix(event: object) -> object:
        changes = {}
        player = getattr(event, "player", None)
        if player in names:
            changes["player"] = names[player]
            text = getattr(event, "text", None)
            if isinstance(text, str) and text.startswith(player):
                changes["text"] = names[player] + text[len(player):]
        return dataclasses.replace(event, **changes) if changes else event  # type: ignore[type-var]

    header = hand.header
    started_utc = header.started_utc + timedelta(minutes=number) if header.started_utc else None
    header = dataclasses.replace(header, hand_id=str(200_000_000_000 + number), started="",
                                 started_utc=started_utc)  # fmt: skip
    return dataclasses.replace(hand, header=header, seats=tuple(fix(s) for s in hand.seats),  # type: ignore[misc]
                               events=tuple(fix(e) for e in hand.events))  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--per-file", type=int, default=250)
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "bench-corpus")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    source = real_hands(args.corpus)
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("bench-*.txt"):
        old.unlink()
    lines = written = 0
    for start in range(0, args.hands, args.per_file):
        batch = [renamed(rng.choice(source), n, rng) for n in range(start, min(start + args.per_file, args.hands))]
        text = write_hands(batch)
        (args.out / f"bench-{start // args.per_file:04d}.txt").write_text(text, encoding="utf-8")
        written += len(batch)
        lines += text.count("\n")
    print(f"wrote {written} hands ({lines / written:.1f} lines a hand) from {len(source)} real hands "
          f"to {args.out}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
