"""The CI's shell scripts cannot fail at random.

Under ``set -o pipefail`` a pipe into a reader that leaves early (``grep -q``,
``head``) fails whenever the writer is still writing: it dies of SIGPIPE and the
pipe's status is 141. CI run of 2026-12-03 lost a green suite to exactly that in
``scripts/wheel_check.sh`` (``unzip -l | grep -q``). The class is banned here.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EARLY_READER = re.compile(r"\|\s*(grep\s+(-\w*q|--quiet)|head\b)")


def _uses_pipefail(text: str) -> bool:
    return re.search(r"set\s+-[a-z]*o\s+pipefail", text) is not None


SCRIPTS = [
    path
    for path in sorted([*ROOT.glob("scripts/*.sh"), ROOT / ".ci" / "run"])
    if _uses_pipefail(path.read_text())
]


def test_the_ci_entry_point_is_among_the_scripts_checked() -> None:
    assert ROOT / ".ci" / "run" in SCRIPTS
    assert ROOT / "scripts" / "wheel_check.sh" in SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_pipe_into_a_reader_that_leaves_early(script: Path) -> None:
    text = script.read_text()
    bad = [
        f"{script.name}:{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), start=1)
        if not line.lstrip().startswith("#") and EARLY_READER.search(line)
    ]
    assert not bad, "pipe into an early-leaving reader under pipefail:\n" + "\n".join(bad)


def test_the_pattern_is_a_real_hazard(tmp_path: Path) -> None:
    # Why the ban: a writer that outlives grep -q's match makes the pipe fail.
    script = tmp_path / "race.sh"
    script.write_text(
        "set -o pipefail\n"
        "{ echo match; sleep 0.2; seq 100000; } | grep -q match\n"
    )
    result = subprocess.run(["bash", str(script)], check=False)
    assert result.returncode == 141


def test_the_ban_catches_the_old_wheel_check() -> None:
    old = 'unzip -l "$wheel" | grep -q "studbook/view/static/replay.js" || exit 1'
    assert EARLY_READER.search(old)
    assert _uses_pipefail("set -euo pipefail")
