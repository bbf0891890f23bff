#!/bin/sh
# The frames, the Python API and the notebooks on the lowest pandas pyproject.toml
# allows (the main venv has the newest): a venv of its own, the same tests, and
# FutureWarnings (pandas 2's observed=False among them) are errors in the API tests.
# Usage: scripts/ci_pandas_matrix.sh [VENV]   (default .venv-pandas-lowest; ~5-10 min)
set -eu
cd "$(dirname "$0")/.."
VENV=${1:-.venv-pandas-lowest}
LOWEST=$(sed -n 's/^ *"pandas>=\([0-9.]*\)",*$/\1/p' pyproject.toml)
[ -n "$LOWEST" ] || { echo "no pandas>= bound in pyproject.toml" >&2; exit 2; }
PYTHON=${PYTHON:-python3}
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
# the lowest pandas exactly (2.1 means 2.1.0); its wheels are built against numpy 1.x,
# which the newest pyarrow no longer supports
"$VENV/bin/python" -m pip install --quiet -e '.[test]' "pandas==$LOWEST.0" "numpy<2" "pyarrow<18"
"$VENV/bin/python" -c "import pandas; print('pandas', pandas.__version__)"
"$VENV/bin/python" -m ipykernel install --sys-prefix --name python3 >/dev/null
"$VENV/bin/python" -m pytest -q -W error::FutureWarning tests/test_python_api.py tests/test_frames.py
"$VENV/bin/python" -m pytest -q tests/test_notebooks.py
