"""Where the cross-site tests take each site's hands from.

The real corpus (``../shared/corpus``) holds every site's logs but BetOnline's;
for a site the corpus has no log of, the hand-made histories under
``tests/handmade/<site>/`` (written from what other parsers' code reads: see
README, Sites) stand in, so the tests that run on every site's sample run on it
too. A sample is named by its path below its root: the corpus's (``PokerStars/...``)
or this folder's (``handmade/betonline/...``).
"""

from __future__ import annotations

import os
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# The corpus's one address for every test: ``STUDBOOK_CORPUS`` moves it (point it at a
# missing folder to run the suite as a fresh clone without ``../shared`` does).
CORPUS = Path(os.environ.get("STUDBOOK_CORPUS") or TESTS.parents[1] / "shared" / "corpus")
HANDMADE = TESTS / "handmade"


def sample_files(corpus: Path) -> list[tuple[str, Path]]:
    """(name, path) of every file of the corpus, then of every hand-made history."""
    real = [(str(path.relative_to(corpus)), path) for path in sorted(corpus.rglob("*")) if path.is_file()]
    made = [(str(path.relative_to(TESTS)), path) for path in sorted(HANDMADE.rglob("*")) if path.is_file()]
    return real + made


def sample_path(corpus: Path, name: str) -> Path:
    """The file a sample's name stands for (see :func:`sample_files`)."""
    return TESTS / name if name.startswith("handmade/") else corpus / name
