"""Smoke test of benchmarks/bench_floor.py: a tiny run of each mode, and its layouts' derived columns."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import ModuleType
from typing import Iterator

import pytest

from benchmark_modules import benchmark


@pytest.fixture(scope="module")
def bench_floor() -> Iterator[ModuleType]:
    """The benchmark as a module (benchmarks/ is no package; it imports bench_store from there)."""
    with benchmark("bench_floor") as module:
        yield module


@pytest.fixture(scope="module")
def files(bench_floor: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> list:
    folder = tmp_path_factory.mktemp("floor")
    (folder / "hands").mkdir()
    paths = bench_floor.write_simulated(folder / "hands", 40, 20)  # two files of 20 hands
    return bench_floor.prepare(paths, folder / "scratch.db")


def test_the_floor_mode_prints_each_part_and_the_floor(bench_floor: ModuleType,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_floor.main(["--hands", "20", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    for part in ("(a) inserts", "(b) pack", "(c) least rows", "(d) check", "floor (a)+(b)+(c) over (d)"):
        assert part in out


def test_the_options_mode_times_every_layout_and_level(bench_floor: ModuleType,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_floor.main(["--hands", "20", "--rounds", "1", "--options"]) == 0
    out = capsys.readouterr().out
    for layout in bench_floor.LAYOUTS:
        assert layout.name in out
    assert out.count("zstd") == len(bench_floor.LEVELS)


def test_the_replayed_statements_store_what_the_import_stores(bench_floor: ModuleType, files: list,
                                                              tmp_path: Path) -> None:
    """(a) times the store's own statements: replayed, they give the store an import of the files gives."""
    bench_floor.replay(files, tmp_path / "replayed.db")
    from studbook.store import Store

    with Store(tmp_path / "imported.db") as store:
        for file in files:
            store.add_prepared(file.prepared)
    for table in ("hands", "players", "actions", "originals"):
        rows = [sqlite3.connect(tmp_path / name).execute(f"SELECT * FROM {table}").fetchall()
                for name in ("replayed.db", "imported.db")]
        assert rows[0] == rows[1] and rows[0]


_READ = {"hands": ("pot", "pot_bb"), "players": ("player", "net", "door", "net_bb"), "actions": ("seq", "facing_bet")}
"""Each table's columns a layout may generate, after one that orders a hand's rows."""


def _read(db: Path, int_key: bool, table: str, lean: bool) -> list[tuple]:
    """``table``'s rows of the store at ``db`` (children keyed by ``int_key``), each with its hand's
    site and hand_id; without players' ``net_bb`` when ``lean``."""
    columns = [c for c in _READ[table] if not (c == "net_bb" and lean)]
    keyed = int_key and table != "hands"
    key = "h.site, h.hand_id" if keyed else "t.site, t.hand_id"
    join = " JOIN hands h ON h.hand = t.hand" if keyed else ""
    query = f"SELECT {key}, {', '.join('t.' + c for c in columns)} FROM {table} t{join} ORDER BY 1, 2, 3"
    return sqlite3.connect(db).execute(query).fetchall()


OPTIONS = range(1, 11)
"""The indices in ``LAYOUTS`` of the options (not the store's own layout, the shares or the JSON one)."""


def test_the_layouts_read_back_are_every_option(bench_floor: ModuleType) -> None:
    """A layout added to ``LAYOUTS`` is read back below too (fails when OPTIONS misses one)."""
    options = [i for i, layout in enumerate(bench_floor.LAYOUTS)
               if i and not layout.left_out and not layout.actions_json]
    assert options == list(OPTIONS)


@pytest.mark.parametrize("index", OPTIONS)
def test_a_layout_reads_back_the_stores_values(bench_floor: ModuleType, files: list, tmp_path: Path,
                                               index: int) -> None:
    """A layout's generated columns (pot_bb, net, door, net_bb, facing_bet) and its integer key give back
    the values the store's schema holds: each option stores the same hands. (Fails with a formula
    wrong, e.g. the door cut as three characters, or a child row keyed to the wrong hand.)"""
    base, other = bench_floor.LAYOUTS[0], bench_floor.LAYOUTS[index]
    for layout, name in ((base, "base.db"), (other, "other.db")):
        bench_floor.write_layout(layout, files, tmp_path / name)
    for table in _READ:
        expected = _read(tmp_path / "base.db", False, table, other.lean)
        assert expected and _read(tmp_path / "other.db", other.int_key, table, other.lean) == expected, table


def test_the_options_baseline_is_the_stores_schema(bench_floor: ModuleType, tmp_path: Path) -> None:
    """The options' first layout makes the tables a new store has, statement for statement (so each
    option's saving is against the store's own schema)."""
    from studbook.store import Store

    with Store(tmp_path / "store.db") as store:
        made = dict(store.conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall())
    layout = bench_floor._tables(bench_floor.LAYOUTS[0])
    assert {table: spec.create for table, spec in layout.items()} == {table: made[table] for table in layout}


def test_the_json_layout_keeps_every_action_of_every_hand(bench_floor: ModuleType, files: list,
                                                          tmp_path: Path) -> None:
    """The design that stores a hand's actions as one JSON text holds them all, each with its values."""
    import json

    layout = next(layout for layout in bench_floor.LAYOUTS if layout.actions_json)
    bench_floor.write_layout(layout, files, tmp_path / "json.db")
    stored = sqlite3.connect(tmp_path / "json.db").execute("SELECT actions FROM actions").fetchall()
    actions = [action for (text,) in stored for action in json.loads(text)]
    assert len(actions) == sum(len(file.prepared.tables["actions"]) for file in files)
    assert {len(action) for action in actions} == {len(bench_floor.SCHEMA["actions"]) - 2}
