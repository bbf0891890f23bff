"""Smoke test of benchmarks/bench_mixed.py on the real corpus: the workload and one tiny run."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Iterator

import pytest

from benchmark_modules import benchmark

SITES = 12  # every site of studbook.sites has stud hands in the corpus


@pytest.fixture(scope="module")
def bench_mixed() -> Iterator[ModuleType]:
    """The benchmark as a module (benchmarks/ is no package; it imports bench_check from there)."""
    with benchmark("bench_mixed") as module:
        yield module


@pytest.fixture(scope="module")
def sources(bench_mixed: ModuleType, corpus: Path) -> list:
    return bench_mixed.load_corpus(corpus)


def test_every_site_is_in_the_workload(bench_mixed: ModuleType, sources: list) -> None:
    workload = bench_mixed.build_workload(sources, 200)
    assert len({s.site for s in workload}) == SITES
    assert sum(s.hands for s in workload) >= 200
    assert Counter(s.name for s in workload) == Counter({s.name: 1 for s in sources})  # the corpus once


def test_balanced_workload_gives_each_site_about_the_same_hands(bench_mixed: ModuleType, sources: list) -> None:
    per_site = Counter[str]()
    for source in bench_mixed.build_workload(sources, 2400, balanced=True):
        per_site[source.site] += source.hands
    assert len(per_site) == SITES
    assert max(per_site.values()) <= 2 * 2400 / SITES  # iPoker's 117-hand file is the coarsest step


def test_one_run_counts_add_up(bench_mixed: ModuleType, sources: list) -> None:
    workload = bench_mixed.build_workload(sources, 200)
    timings = bench_mixed.one_run(workload, check=True)
    expected = Counter[str]()
    for source in workload:
        expected[source.site] += source.hands
    assert {site: t.hands for site, t in timings.items()} == dict(expected)
    assert bench_mixed.total(timings).hands == sum(expected.values())


def test_tiny_benchmark_prints_every_site(
    bench_mixed: ModuleType, corpus: Path, sources: list, capsys: pytest.CaptureFixture[str]
) -> None:
    code = bench_mixed.main(["--corpus", str(corpus), "--hands", "200", "--runs", "1", "--sim-hands", "20"])
    out = capsys.readouterr().out
    assert code == 0
    assert "all sites" in out and "PokerStars (simulated)" in out and "of simulated PokerStars" in out
    rows = [line.split() for line in out.splitlines()]
    site_rows = [row for row in rows if row and row[0] in {s.site for s in sources}]
    assert len(site_rows) == SITES
    total = next(row for row in rows if row[:2] == ["all", "sites"])
    assert sum(int(row[2]) for row in site_rows) == int(total[3])  # hands per site add up


def test_missing_corpus_exits_2(bench_mixed: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_mixed.main(["--corpus", str(tmp_path / "absent")]) == 2
    assert "corpus not found" in capsys.readouterr().err
