"""The README and the documentation cannot rot: their examples run, their generated parts are current.

Every fenced block with the info string ``console`` in README.md and docs/**/*.md
is run: each line starting with ``$ `` is a command (one line; pipes allowed),
run by bash from a fresh folder holding ``histories/`` (a link to the project's
samples) and ``out/studbook.db`` imported from it, with the project's
``studbook`` first on PATH. The lines after it, up to the next command or the
block's end, are what it prints (stdout and stderr as a terminal shows them),
compared verbatim, except for:

* a line ``...`` alone, which stands for any number of lines (none included);
* times and durations (``1.2 s``, ``1.2s``, ``340 ms``, ``25 µs``, ``3 seconds``,
  ``0:00:03``), read as ``<time>`` on both sides (a whole number needs its space:
  ``7s`` is a card);
* the run folder's absolute path, read as ``.``.

That list is the whole of what may vary; anything else that differs fails, so
a change that alters what a command prints must update the docs that show it.
The exit status is not compared (``check`` exits 1 on a rule broken).
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import gen_docs  # noqa: E402 - the generator lives with the scripts, not in the package

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```console[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
ELIDED = "..."
VARIABLE = [  # (what varies, pattern): the documented variable parts, in this order
    ("a clock duration", re.compile(r"\b\d+:\d\d:\d\d(?:\.\d+)?\b")),
    # a number, a space and a unit, or a decimal and a unit: "7s" alone is a card
    ("a time in seconds", re.compile(r"\b(?:\d+ |\d+\.\d+ ?)(?:s|ms|µs|sec|seconds)\b")),
]


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    command: str
    expected: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


def examples(pages: list[Path] = PAGES, root: Path = ROOT) -> list[Example]:
    """Each ``$ `` command of each console block, with the output shown after it."""
    found = []
    for page in pages:
        name = page.relative_to(root).as_posix()
        text = page.read_text(encoding="utf-8")
        for block in FENCE.finditer(text):
            first = text.count("\n", 0, block.start(1)) + 1
            lines = block.group(1).rstrip("\n").split("\n")
            starts = [i for i, line in enumerate(lines) if line.startswith("$ ")]
            if not starts or starts[0] != 0:
                raise ValueError(f"{name}:{first}: a console block starts with a '$ ' command")
            for i, end in zip(starts, [*starts[1:], len(lines)]):
                found.append(Example(name, first + i, lines[i][2:],
                                     tuple(lines[i + 1:end])))
    return found


def normalised(text: str, folder: Path) -> str:
    text = text.replace(str(folder), ".")
    for _, pattern in VARIABLE:
        text = pattern.sub("<time>", text)
    return text


def matches(expected: tuple[str, ...], output: str) -> bool:
    """``output`` is ``expected`` line for line, a ``...`` line standing for any lines."""
    pattern = "".join(r"(?:[^\n]*\n)*?" if line == ELIDED else re.escape(line) + r"\n" for line in expected)
    return re.fullmatch(pattern, output) is not None


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``out/studbook.db`` imported from the samples once; each example gets a copy."""
    folder = tmp_path_factory.mktemp("imported")
    (folder / "histories").symlink_to(ROOT / "histories")
    run("studbook import histories --db out/studbook.db", folder, check=True)
    return folder / "out" / "studbook.db"


def run(command: str, folder: Path, check: bool = False) -> str:
    (folder / "out").mkdir(exist_ok=True)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONUNBUFFERED="1", TZ="UTC", COLUMNS="80", LC_ALL="C.UTF-8")
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, check=False, timeout=600)
    if check and done.returncode != 0:
        raise AssertionError(f"{command} exited {done.returncode}:\n{done.stdout}")
    return done.stdout


@pytest.mark.parametrize("example", examples(), ids=str)
def test_console_example_prints_what_the_docs_show(example: Example, store: Path, tmp_path: Path) -> None:
    (tmp_path / "histories").symlink_to(ROOT / "histories")
    (tmp_path / "out").mkdir()
    shutil.copy(store, tmp_path / "out" / "studbook.db")
    # the store keeps each file's absolute path: the folder it was imported in reads as "." too
    output = normalised(normalised(run(example.command, tmp_path), tmp_path), store.parent.parent)
    expected = tuple(normalised(line, tmp_path) for line in example.expected)
    if not matches(expected, output):
        diff = "\n".join(difflib.unified_diff(list(expected), output.splitlines(), "the docs", "the command",
                                              lineterm=""))
        pytest.fail(f"{example}: $ {example.command}\n{diff}")


def test_the_docs_have_console_examples() -> None:
    pages = {example.page for example in examples()}
    assert "README.md" in pages and len(pages) >= 3


def test_elision_and_variable_parts(tmp_path: Path) -> None:
    assert matches(("a", ELIDED, "d"), "a\nb\nc\nd\n")
    assert matches(("a", ELIDED, "b"), "a\nb\n")
    assert not matches(("a", ELIDED, "d"), "a\nb\nc\n")
    assert not matches(("a", "d"), "a\nb\nd\n")
    assert not matches(("a",), "a\nb\n")  # output the docs do not show fails too
    assert normalised(f"took 1.25 s, then 340 ms in {tmp_path}/out", tmp_path) == "took <time>, then <time> in ./out"
    assert normalised("10h10  2294 hands  1/2 USD  [7s 9s]  0:00:03", tmp_path) == "10h10  2294 hands  1/2 USD  [7s 9s]  <time>"
    assert normalised("in 1.5s or 3 seconds", tmp_path) == "in <time> or <time>"


def test_a_block_must_start_with_a_command(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("text\n\n```console\noutput first\n$ studbook --version\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"page.md:4: a console block starts with a '\$ ' command"):
        examples([page], tmp_path)
    page.write_text("```console\n$ studbook --version\nstudbook 0.1.0\n$ true\n```\n", encoding="utf-8")
    assert [(e.line, e.command, e.expected) for e in examples([page], tmp_path)] == [
        (2, "studbook --version", ("studbook 0.1.0",)), (4, "true", ())]


@pytest.mark.parametrize("page", sorted(gen_docs.GENERATED), ids=str)
def test_generated_page_is_current(page: str) -> None:
    """The committed page equals what scripts/gen_docs.py makes from the code."""
    path = ROOT / page
    assert path.read_text(encoding="utf-8") == gen_docs.expected_pages()[path], (
        f"{page} is stale: run python scripts/gen_docs.py")


def test_generated_part_is_replaced_between_its_markers() -> None:
    begin = gen_docs.BEGIN.format(source="x")
    page = f"# T\n\n{begin}\n\nold\n\n{gen_docs.END}\n\nafter\n"
    assert gen_docs.regenerated(page, "x", "new\n") == f"# T\n\n{begin}\n\nnew\n\n{gen_docs.END}\n\nafter\n"
    with pytest.raises(ValueError):
        gen_docs.regenerated("# no markers\n", "x", "new")


def test_the_rule_table_is_made_from_the_rule_book(tmp_path: Path) -> None:
    """src/studbook/rulebook.py's table is docs/rules.md's rows: id (as its constant), the
    section heading above it, the rule's text and its sources."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text(
        "# The rule book\n\n| id | rule | source |\n|---|---|---|\n\n## Bets\n\n| id | rule | source |\n|---|---|---|\n"
        "| `bet.cap` | Four bets, then only calls. | 000 r6 |\n| `bet.check` | Check with nothing to call. | standard |\n",
        encoding="utf-8")
    assert gen_docs.rule_rows((tmp_path / "docs" / "rules.md").read_text(encoding="utf-8")) == [
        ("bet.cap", "Bets", "Four bets, then only calls.", "000 r6"),
        ("bet.check", "Bets", "Check with nothing to call.", "standard"),
    ]
    table = gen_docs._rules(tmp_path)
    assert "    Rule(rules.BET_CAP, 'Bets',\n         'Four bets, then only calls.',\n         '000 r6')," in table
    python = "x = 1\n" + gen_docs.PY_BEGIN.format(source="docs/rules.md") + "\nold\n" + gen_docs.PY_END + "\n"
    assert gen_docs.regenerated(python, "docs/rules.md", "new", python=True) == (
        "x = 1\n" + gen_docs.PY_BEGIN.format(source="docs/rules.md") + "\n\nnew\n\n" + gen_docs.PY_END + "\n")
