"""The notebooks run top to bottom (nbclient), and are stored without outputs.

They run on the shipped ``histories/`` (skipped with the reason while it is
empty) and, as a second source, on the real PokerStars corpus read in place.
The source is passed through the STUDBOOK_SOURCE environment variable the
notebooks' first cell reads.
"""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
HISTORIES = ROOT / "histories"
CORPUS = ROOT.parent / "shared" / "corpus" / "PokerStars"


FIGURES = {"player_stats.ipynb": 4, "integrity_report.ipynb": 1, "research_dataset.ipynb": 1}


def _has_files(folder: Path) -> bool:
    return folder.is_dir() and any(p.is_file() and not p.name.startswith(".")
                                   for p in folder.rglob("*"))


SOURCES = [
    pytest.param(HISTORIES, id="histories", marks=pytest.mark.skipif(
        not _has_files(HISTORIES),
        reason="histories/ is empty: the simulator's sample logs have not been added yet")),
    pytest.param(CORPUS, id="corpus", marks=pytest.mark.skipif(
        not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")),
    pytest.param("store", id="store"),  # a store made by `studbook import` of simulated hands
]


@pytest.fixture(scope="module")
def simulated_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    simulate = pytest.importorskip("studbook.simulate")
    from studbook.cli import main

    folder = tmp_path_factory.mktemp("simulated")
    for seed, variant in enumerate(("stud", "stud8", "razz")):
        hands = simulate.simulate_hands(variant, 30, 5, seed=seed, hero="Hero")
        (folder / f"{variant}.txt").write_text(simulate.write_hands(hands))
    db = folder / "hands.db"
    assert main(["import", str(folder), "--db", str(db), "-q"]) == 0
    return db


def test_the_notebooks_exist() -> None:
    assert {p.name for p in NOTEBOOKS} == set(FIGURES)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, path.name


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_runs_top_to_bottom(path: Path, source: Path | str, request: pytest.FixtureRequest,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    from nbclient import NotebookClient

    if source == "store":
        source = request.getfixturevalue("simulated_store")

    monkeypatch.setenv("STUDBOOK_SOURCE", str(source))
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=600, startup_timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    images = sum(1 for cell in notebook.cells if cell.cell_type == "code"
                 for output in cell.get("outputs", []) if "image/png" in output.get("data", {}))
    assert images >= FIGURES[path.name], "the notebook should draw its figures"
    # the file on disk is untouched: executed outputs stay in memory
    assert all(c.outputs == [] for c in nbformat.read(path, as_version=4).cells
               if c.cell_type == "code")
    assert os.environ["STUDBOOK_SOURCE"] == str(source)
