"""benchmarks/scale_run.py on a few hundred hands: distinct ids, Dask equal to pandas, and a
difference between them is reported, not hidden."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from types import ModuleType
from typing import Iterator

import pytest

from studbook.cli import main

from benchmark_modules import benchmark


@pytest.fixture(scope="module")
def scale_run() -> Iterator[ModuleType]:
    with benchmark("scale_run") as module:
        yield module


@pytest.fixture(scope="module")
def answers(scale_run: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("scale")
    scale_run.generate(out / "hands", 600, 100, 2)
    db = out / "scale.db"
    assert main(["import", str(out / "hands"), "--db", str(db), "-q"]) == 0
    with open(out / "stats.csv", "w") as handle:
        sys.stdout, saved = handle, sys.stdout
        try:
            assert main(["stats", "--db", str(db), "--format", "csv"]) == 0
        finally:
            sys.stdout = saved
    scale_run.pandas_answers(db, out / "pandas.pkl", out / "memory.json")
    scale_run.dask_answers(out / "hands", out / "dask.pkl", 1, 2)  # 2 files a partition
    return out


def test_six_files_of_distinct_hands(answers: Path) -> None:
    from studbook import load

    files = sorted((answers / "hands").iterdir(), key=lambda f: f.name.split("-")[2])  # by number
    assert [f.name.split("-")[1] for f in files] == ["stud", "stud8", "razz"] * 2
    hands = load(answers / "scale.db", frames=["hands"]).hands
    assert len(hands) == 600 and hands["hand_id"].nunique() == 600


def test_dask_equals_pandas_and_the_stats_command(scale_run: ModuleType, answers: Path) -> None:
    agree, verdict = scale_run.compare(answers / "pandas.pkl", answers / "dask.pkl", answers / "stats.csv")
    assert agree, verdict
    assert verdict.startswith("Dask equals pandas: 600 hands")


def test_a_difference_is_reported(scale_run: ModuleType, answers: Path, tmp_path: Path) -> None:
    with open(answers / "dask.pkl", "rb") as handle:
        theirs = pickle.load(handle)
    theirs["counts"].iloc[0, 1] += 1  # one player's net, one cent
    theirs["stats"].loc[3, "vpip"] += 0.5
    with open(tmp_path / "dask.pkl", "wb") as handle:
        pickle.dump(theirs, handle)
    agree, verdict = scale_run.compare(answers / "pandas.pkl", tmp_path / "dask.pkl", answers / "stats.csv")
    assert not agree
    assert "hands or net per player differ" in verdict and "column vpip differs" in verdict
