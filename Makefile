# Two commands do all the set-up (see README.md):
#   make app   - create .venv if missing, install, start the app on the bundled sample
#   make test  - create/update .venv, install test extras, lint, type-check, layer contracts, tests
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: app test lint check-only bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

app: $(STAMP)
	$(BIN)/streamlit run streamlit_app.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/bench_ingest.py
	$(BIN)/python bench/bench_replay.py
	$(BIN)/python bench/bench_sharing.py
	$(BIN)/python bench/bench_app_replay.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
