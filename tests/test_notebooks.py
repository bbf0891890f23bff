"""The notebooks run top to bottom (nbclient), and are stored without outputs.

They run on the shipped ``histories/`` (skipped with the reason while it is
empty) and, as a second source, on the real PokerStars corpus read in place.
The source is passed through the STUDBOOK_SOURCE environment variable the
notebooks' first cell reads.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import nbformat
import pytest
from samples import CORPUS

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
HISTORIES = ROOT / "histories"
CORPUS = CORPUS / "PokerStars"
SHOTS = ROOT / "out" / "test-screenshots"  # looked at by a person, not compared


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


def replayers(notebook: nbformat.NotebookNode) -> list[str]:
    """The replayer frames among the notebook's HTML outputs."""
    return [output["data"]["text/html"] for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.get("outputs", []) if "text/html" in output.get("data", {})
            and output["data"]["text/html"].startswith("<iframe srcdoc=")]


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
    warned = [output.get("text", "") for cell in notebook.cells if cell.cell_type == "code"
              for output in cell.get("outputs", []) if output.get("name") == "stderr"
              and "Warning" in output.get("text", "")]
    assert not warned, f"the notebook warns: {warned}"
    if path.name == "integrity_report.ipynb" and source == HISTORIES:  # its planted violations
        assert len(replayers(notebook)) == 1, "the first violation's hand shown as the replayer"
    images = sum(1 for cell in notebook.cells if cell.cell_type == "code"
                 for output in cell.get("outputs", []) if "image/png" in output.get("data", {}))
    assert images >= FIGURES[path.name], "the notebook should draw its figures"
    # the file on disk is untouched: executed outputs stay in memory
    assert all(c.outputs == [] for c in nbformat.read(path, as_version=4).cells
               if c.cell_type == "code")
    assert os.environ["STUDBOOK_SOURCE"] == str(source)


@pytest.mark.parametrize(("source", "error"), [
    ("does-not-exist", "FileNotFoundError"),
    ("notebooks", "NoHandHistories"),  # a folder without hand histories: the notebooks themselves
])
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_wrong_source_fails_with_a_clear_error(path: Path, source: str, error: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    monkeypatch.setenv("STUDBOOK_SOURCE", str(ROOT / source))
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=600, startup_timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    with pytest.raises(CellExecutionError) as raised:
        client.execute()
    assert raised.value.ename == error
    assert str(ROOT / source) in raised.value.evalue


@pytest.fixture
def driver() -> Any:
    from tests.browser import browser

    yield from browser()


@pytest.mark.skipif(not _has_files(HISTORIES), reason="histories/ is empty")
def test_the_exported_notebook_shows_a_hand_as_the_replayer(driver: Any, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The integrity notebook run on histories/, exported as HTML by nbconvert, opened in
    headless Chromium: its replayer frame steps through the first violation's hand."""
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter
    from selenium.webdriver.common.by import By

    monkeypatch.setenv("STUDBOOK_SOURCE", str(HISTORIES))
    path = ROOT / "notebooks" / "integrity_report.ipynb"
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=600, startup_timeout=180, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    page = tmp_path / "integrity_report.html"
    page.write_text(HTMLExporter().from_notebook_node(notebook)[0], encoding="utf-8")
    driver.get(page.as_uri())
    frames = driver.find_elements(By.CSS_SELECTOR, "iframe[srcdoc]")
    assert len(frames) == 1
    driver.execute_script("arguments[0].scrollIntoView();", frames[0])
    driver.switch_to.frame(frames[0])
    counter = driver.find_element(By.ID, "step-counter")  # in poker words; the step number in its title
    assert counter.text == "before the deal" and counter.get_attribute("title").startswith("step 0 of ")
    steps = int(counter.get_attribute("title").split(" of ")[1].split()[0])
    step_on = driver.find_element(By.ID, "next")
    rules = []
    for step in range(1, steps + 1):
        step_on.click()
        assert counter.get_attribute("title").startswith(f"step {step} of ")
        rules = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#violations .rule")]
        if rules:
            break
    assert rules, "a step of the hand shows its violation"
    driver.switch_to.default_content()
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / "notebook-replayer.png"))
