"""Every chart's text is readable: no two labels overlap, and none lies outside the figure.

Each chart kind (``studbook.plots.KINDS``) is drawn from the sample histories (as
``make run`` draws them) and from the real corpus, then every text the renderer draws
(titles, axis labels, tick labels in view, bar and value labels, legend entries) is
measured with matplotlib's own extents (``get_window_extent`` with the canvas's
renderer) and compared pairwise.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Iterator

import pytest
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from studbook.frames import Frames, load
from studbook.plots import KINDS, plot

HISTORIES = Path(__file__).resolve().parents[1] / "histories"
MAKE_RUN_PLAYERS = {"players": ["Hero", "Böse Sieben", "Fuchs im Bau"]}  # as the Makefile draws it
SLACK = 0.5  # pixels: extents that merely touch are not an overlap


def _axis_texts(axes: Axes) -> Iterator[Text]:
    if not axes.axison:
        return
    for axis in (axes.xaxis, axes.yaxis):
        low, high = sorted(axis.get_view_interval())
        for tick in axis.get_major_ticks():
            if low - 1e-9 <= tick.get_loc() <= high + 1e-9:
                yield from (tick.label1, tick.label2)
        yield axis.label
        yield axis.get_offset_text()


def drawn_texts(figure: Figure) -> list[Text]:
    """The texts the renderer draws: visible, not empty."""
    texts: list[Text] = []
    for axes in figure.axes:
        texts.extend(_axis_texts(axes))
        texts.extend([axes.title, axes._left_title, axes._right_title, *axes.texts])
        legend = axes.get_legend()
        if legend is not None:
            texts.extend([legend.get_title(), *legend.get_texts()])
    texts.extend(figure.texts)
    if figure._suptitle is not None:
        texts.append(figure._suptitle)
    for legend in figure.legends:
        texts.extend([legend.get_title(), *legend.get_texts()])
    unique = {id(t): t for t in texts}  # the suptitle is among figure.texts too
    return [t for t in unique.values() if t.get_visible() and t.get_text().strip()]


def text_problems(figure: Figure) -> list[str]:
    """Each pair of drawn texts that overlap, and each text not wholly inside the figure."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in drawn_texts(figure)]
    inside = figure.bbox.padded(SLACK)
    problems = [f"outside the figure: {text!r}" for text, box in boxes
                if not (inside.contains(box.x0, box.y0) and inside.contains(box.x1, box.y1))]
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        if Bbox.intersection(box_a.padded(-SLACK),
                             box_b.padded(-SLACK)) is not None:
            problems.append(f"overlap: {a!r} and {b!r}")
    return problems


@pytest.fixture(scope="module")
def histories() -> Frames:
    return load(HISTORIES)


@pytest.fixture(scope="module")
def corpus_frames(corpus: Path) -> Frames:
    return load(corpus)


@pytest.mark.parametrize("kind", list(KINDS))
def test_histories_charts_have_readable_text(kind: str, histories: Frames) -> None:
    figure = plot(kind, histories, MAKE_RUN_PLAYERS.get(kind))
    assert text_problems(figure) == []


@pytest.mark.parametrize("kind", list(KINDS))
def test_corpus_charts_have_readable_text(kind: str, corpus_frames: Frames) -> None:
    figure = plot(kind, corpus_frames)
    assert text_problems(figure) == []


def test_the_check_finds_overlap_and_clipping() -> None:
    # the old starting-hands chart's fault: two count labels on one bar row
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = Figure(figsize=(4, 3))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.barh(["4-low"], [1.0])
    axes.text(0.5, 0, "98 hands")
    axes.text(0.52, 0, "15 hands")
    axes.text(1.3, 0.3, "a label past the right edge of the figure")
    problems = text_problems(figure)
    assert "overlap: '98 hands' and '15 hands'" in problems
    assert "outside the figure: 'a label past the right edge of the figure'" in problems
