# Two commands do all the set-up (see README.md):
#   make app   - create .venv if missing, install the app (no test tools), compile the engine
#                (best effort), start it on the bundled sample; `make app PORT=8600` for a port
#   make test  - create/update .venv, install test extras, compile the engine, lint, type-check,
#                layer contracts, tests
PYTHON ?= python3
PORT   ?= 8501
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
APP_STAMP := $(VENV)/.installed-app
# The engine's hot modules are compiled with mypyc into $(VENV)/planner-compiled
# (planner/engine/compiled.py), again only when the sources they were built from changed
# (--if-stale). The engine checks that hash itself when it is imported and runs as plain
# Python if the build is missing or stale, so an edit never runs old compiled code.
COMPILE   := $(BIN)/python -m planner.engine.compile --if-stale
WORKERS ?= $(shell n=$$(nproc); echo $$(( n + 1 > 5 ? 5 : n + 1 )))

.PHONY: app test lint check-only bench clean compiled

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(APP_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[fast]'
	touch $(APP_STAMP)

# The test extras include everything the app needs, so installing them installs the app too.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(APP_STAMP)

# `make app` goes on without a C compiler (plain Python, the same results, slower);
# `make test` needs the build, since the tests check the compiled engine against the plain one.
app: $(APP_STAMP)
	@$(COMPILE) --best-effort
	$(BIN)/streamlit run streamlit_app.py --server.port $(PORT)

LINT := $(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy && $(BIN)/lint-imports

lint: $(STAMP)
	$(LINT)

compiled: $(STAMP)
	$(COMPILE)

# Tests run in parallel workers (pytest-xdist): one more than the cores, at most five (three on
# a 2-core machine). Browser tests spend part of their time waiting on a server and a browser,
# which the extra worker fills; on a busy machine it also keeps the suite's share of the CPU
# (2-core, two CPU hogs, before the engine was compiled: 24:22 with three workers, 29:35 with
# two; compiled, 9:55-10:55 with three). Whole files go to one worker (--dist loadfile), so
# module fixtures still run once,
# longest first (tests/file_costs.py; --no-loadscope-reorder keeps that order) so that the
# workers finish together. `make lint` runs beside the tests (mypy's cold run is a minute of
# one CPU); its output is printed after the tests' and either failing fails `make test`.
test: $(STAMP) compiled
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
