# Two commands do all the set-up (see README.md):
#   make app   - create .venv if missing, install the app (no test tools), start it on the
#                bundled sample; `make app PORT=8600` picks another port
#   make test  - create/update .venv, install test extras, lint, type-check, layer contracts, tests
PYTHON ?= python3
PORT   ?= 8501
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
APP_STAMP := $(VENV)/.installed-app
WORKERS ?= $(shell n=$$(nproc); echo $$(( n + 1 > 5 ? 5 : n + 1 )))

.PHONY: app test lint check-only bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(APP_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(APP_STAMP)

# The test extras include everything the app needs, so installing them installs the app too.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(APP_STAMP)

app: $(APP_STAMP)
	$(BIN)/streamlit run streamlit_app.py --server.port $(PORT)

LINT := $(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy && $(BIN)/lint-imports

lint: $(STAMP)
	$(LINT)

# Tests run in parallel workers (pytest-xdist): one more than the cores, at most five (three on
# a 2-core machine). Browser tests spend part of their time waiting on a server and a browser,
# which the extra worker fills; on a busy machine it also keeps the suite's share of the CPU
# (2-core, two CPU hogs: 24:22 with three workers, 29:35 with two). Whole files go to one worker (--dist loadfile), so module fixtures still run once,
# longest first (tests/file_costs.py; --no-loadscope-reorder keeps that order) so that the
# workers finish together. `make lint` runs beside the tests (mypy's cold run is a minute of
# one CPU); its output is printed after the tests' and either failing fails `make test`.
test: $(STAMP)
	@(set -x; $(LINT)) > $(VENV)/lint.log 2>&1 & lint=$$!; \
	trap 'kill $$lint 2>/dev/null' INT TERM; \
	$(BIN)/pytest --numprocesses $(WORKERS) --dist loadfile --no-loadscope-reorder; \
	tests=$$?; wait $$lint; linted=$$?; \
	echo "---- make lint (ran beside the tests): exit $$linted ----"; cat $(VENV)/lint.log; \
	[ $$tests -eq 0 ] && [ $$linted -eq 0 ]

bench: $(STAMP)
	$(BIN)/python bench/bench_ingest.py
	$(BIN)/python bench/bench_replay.py
	$(BIN)/python bench/bench_sharing.py
	$(BIN)/python bench/bench_app_replay.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
