"""Shared fixtures: the real hand-history corpus beside the repository."""

from __future__ import annotations

from pathlib import Path

import budget  # noqa: F401 - loads the hypothesis profile before any test module
import pytest

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus() -> Path:
    """``../shared/corpus``, or skip: the corpus is not part of the repository."""
    if not CORPUS.is_dir():
        pytest.skip(f"real hand-history corpus not found at {CORPUS}")
    return CORPUS
