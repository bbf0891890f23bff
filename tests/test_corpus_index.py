"""Every hand of the real corpus, against the hand counts of its INDEX.tsv.

INDEX.tsv says, per file, how many hands it holds and of which games
("mixed: 10 stud hi, 10 stud hi-lo, 10 razz, 54 other"). Every stud, stud
hi/lo and razz hand must parse, every other hand must come back skipped with
its game named, nothing may be rejected, and the variants must be the ones
the index names.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pytest

from studbook import Hand, Rejected, Skipped, parse_file
from studbook.events import Variant

_KINDS = {"stud hi": Variant.STUD, "stud hi-lo": Variant.STUD8, "razz": Variant.RAZZ}
_NOT_STUD = ("5-stud", "razz (2-7 low)")


def _expected(game: str, hands: int) -> tuple[Counter[Variant], int]:
    """(stud hands by variant, other hands) that the index's game column promises."""
    if game.startswith("mixed:"):
        variants: Counter[Variant] = Counter()
        other = 0
        for count, kind in re.findall(r"(\d+) (stud hi-lo|stud hi|razz|other)", game):
            if kind == "other":
                other += int(count)
            else:
                variants[_KINDS[kind]] += int(count)
        assert sum(variants.values()) + other == hands, game
        return variants, other
    if game in _NOT_STUD:
        return Counter(), hands
    return Counter({_KINDS[game]: hands}), 0


def _rows(corpus: Path) -> list[dict[str, str]]:
    with open(corpus / "INDEX.tsv", encoding="utf-8", newline="") as index:
        rows = list(csv.DictReader(index, delimiter="\t"))
    return [r for r in rows if r["hands"].isdigit() and int(r["hands"]) > 0]


def test_index_lists_hand_files(corpus: Path) -> None:
    assert len(_rows(corpus)) >= 50


def test_every_indexed_hand_parses_or_is_skipped(corpus: Path) -> None:
    problems = []
    total = Counter()
    for row in _rows(corpus):
        variants, other = _expected(row["game"], int(row["hands"]))
        results = list(parse_file(corpus / row["path"]))
        parsed = Counter(r.variant for r in results if isinstance(r, Hand))
        skipped = [r for r in results if isinstance(r, Skipped)]
        rejected = [r for r in results if isinstance(r, Rejected)]
        total.update(parsed)
        if rejected:
            problems.append(f"{row['path']}: rejected {[r.message() for r in rejected]}")
        if row["game"] == "stud hi-lo" and parsed and set(parsed) != {Variant.STUD8}:
            problems.append(f"{row['path']}: expected stud8, parsed {dict(parsed)}")
        elif sum(parsed.values()) != sum(variants.values()) or (
            row["game"].startswith("mixed:") and parsed != variants
        ):
            problems.append(f"{row['path']}: expected {dict(variants)}, parsed {dict(parsed)}")
        if len(skipped) != other:
            problems.append(f"{row['path']}: expected {other} skipped, got {len(skipped)}")
        if any(not s.game for s in skipped):
            problems.append(f"{row['path']}: a skipped hand does not name its game")
    assert not problems, "\n".join(problems)
    assert sum(total.values()) == 336


@pytest.mark.parametrize("variant", list(Variant))
def test_the_corpus_has_every_variant(corpus: Path, variant: Variant) -> None:
    rows = [r for r in _rows(corpus) if _expected(r["game"], int(r["hands"]))[0][variant]]
    assert rows, f"no {variant.value} file in the index"
