#!/usr/bin/env bash
# Type check: mypy over src/studbook with pyproject's [tool.mypy] settings
# (unused ignores are errors; strict on the engine, betting.py and events.py).
set -euo pipefail
cd "$(dirname "$0")/.."
MYPY="${MYPY:-.venv/bin/mypy}"
"$MYPY" --warn-unused-ignores src/studbook
