# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test fuzz faults install bench docs wheel clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,docs]'
	touch $(STAMP)

install: $(STAMP)

OUT := out
DB := $(OUT)/studbook.db
SB := $(VENV)/bin/studbook

run: $(STAMP)
	@mkdir -p $(OUT)
	$(SB) import histories --db $(DB)
	$(SB) stats --db $(DB) --min-hands 300 --sort bb_per_100
	$(SB) sessions --db $(DB)
	$(SB) plot results --db $(DB) --player Hero -o $(OUT)/hero-results.png
	$(SB) plot starting-hands --db $(DB) --player Hero -o $(OUT)/hero-starting-hands.png
	$(SB) plot players --db $(DB) --player Hero --player "Böse Sieben" --player "Fuchs im Bau" -o $(OUT)/players.png
	$(SB) plot violations --db $(DB) -o $(OUT)/violations.png
	$(SB) plot sessions --db $(DB) -o $(OUT)/hero-sessions.png
	@echo "plots written to $(OUT)/: hero-results.png hero-starting-hands.png players.png violations.png hero-sessions.png"
	$(SB) replay histories/planted-violations.txt --html $(OUT)/replay.html

test: $(STAMP)
	$(PY) -m pytest -q

# The property tests with 20 times the examples, from fresh random seeds
# (`make test` draws the same examples every run; see tests/budget.py),
# and the tests marked slow (big inputs under a memory limit).
FUZZ ?= 20
fuzz: $(STAMP)
	STUDBOOK_FUZZ=$(FUZZ) $(PY) -m pytest -q -m "hypothesis or slow"

# The fault tests (marker faults: tests/test_store_faults.py, tests/test_edge_faults.py)
# with their long part: kill -9 at many points and rounds of concurrent imports, FAULTS
# times as many; a hand of every text site cut at every character; amounts at and past
# the limit through every other reading command.
FAULTS ?= 1
faults: $(STAMP)
	STUDBOOK_FAULTS=$(FAULTS) $(PY) -m pytest -q -m faults

# The documentation site, into site/ (open site/index.html); --strict: a broken
# link or a missing page is an error. The generated pages are checked first.
docs: $(STAMP)
	$(PY) scripts/gen_docs.py --check
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

# The wheel installs into a clean venv with its grammars and static files and checks
# a sample there (scripts/wheel_check.sh; needs the package index for the dependencies).
wheel: $(STAMP)
	scripts/wheel_check.sh

bench: $(STAMP)
	$(PY) benchmarks/generate.py --hands 20000
	$(PY) benchmarks/bench_parse.py out/bench-corpus --repeat 3
	$(PY) benchmarks/bench_check.py --hands 20000
	$(PY) benchmarks/bench_evaluate.py
	$(PY) benchmarks/bench_pokerkit.py

clean:
	rm -rf $(VENV) out site dist build
