#!/usr/bin/env bash
# The wheel ships what studbook needs: build it (no setuptools warnings allowed),
# install it into a clean virtual environment (none of the source tree on its path),
# and run it there: check a sample (grammars) and write a replayer page (static files).
# Used by `make wheel` and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

.venv/bin/python -m build --wheel --outdir "$work/dist" . >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
if grep -n -E "would be ignored|Warning|^ *!!" "$work/build.log"; then
    echo "wheel check: the build warned (above); see $work/build.log" >&2
    exit 1
fi
wheel=$(ls "$work"/dist/studbook-*.whl)
# List the wheel once into a file, then grep the file: with pipefail, `unzip -l | grep -q`
# fails at random, since grep -q leaves at its match and unzip (unbuffered) dies of SIGPIPE.
unzip -l "$wheel" >"$work/wheel.list"
grep -q "studbook/grammars/common.lark" "$work/wheel.list" || { echo "wheel check: no grammars in $wheel" >&2; exit 1; }
grep -q "studbook/view/static/replay.js" "$work/wheel.list" || { echo "wheel check: no replayer files in $wheel" >&2; exit 1; }

"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$wheel"
cd "$work"   # away from src/, so only the installed wheel can be imported
set +e
"$work/venv/bin/studbook" check "$root/histories/planted-violations.txt" >"$work/check.out" 2>&1
status=$?
set -e
# the planted hands break rules on purpose: exit 1 and their summary
grep -q "^summary: 1 file, 12 hands, 0 ok, 12 hands with violations" "$work/check.out" && [ "$status" = 1 ] \
    || { cat "$work/check.out"; echo "wheel check: studbook check gave exit $status" >&2; exit 1; }
"$work/venv/bin/studbook" replay "$root/histories/planted-violations.txt" --html "$work/replay.html" >/dev/null 2>&1
grep -q "studbook-replay" "$work/replay.html" || { echo "wheel check: the replayer page lacks its data" >&2; exit 1; }
"$work/venv/bin/python" -c "import studbook, sys; assert '$root' not in studbook.__file__, studbook.__file__"
echo "wheel check: $(basename "$wheel") installs into a clean venv, checks the sample hands and writes a replayer page"
