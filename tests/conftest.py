"""Shared fixtures: the real hand-history corpus beside the repository."""

from __future__ import annotations

from pathlib import Path

import os

import budget  # noqa: F401 - loads the hypothesis profile before any test module
import pytest
from samples import CORPUS



@pytest.fixture(scope="session")
def corpus() -> Path:
    """``../shared/corpus``, or skip: the corpus is not part of the repository."""
    if not CORPUS.is_dir():
        pytest.skip(f"real hand-history corpus not found at {CORPUS}")
    return CORPUS


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run only under ``make fuzz`` (STUDBOOK_FUZZ) or with STUDBOOK_SLOW=1."""
    if os.environ.get("STUDBOOK_SLOW") or os.environ.get("STUDBOOK_FUZZ"):
        return
    skip = pytest.mark.skip(reason="slow: run by `make fuzz` or with STUDBOOK_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
