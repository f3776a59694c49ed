"""Fixtures for the AppTest page tests: each test gets its own database file.

The app's first run on a fresh file migrates it and imports the bundled sample (about a
third of a short page test's CPU). That state is built once per session and each test gets
a copy: what the app then does is what it does on every later run (the sample is recognised
by its hash). Tests that need a file without the sample use `empty_db`. Tests that only read
(they save, import and edit nothing) may use `read_db`: one copy per module, so the app's
replays and reports, cached by the file's path and the scenario, are computed once per module
instead of once per test.
"""

import shutil
from pathlib import Path

import pytest

from planner.store import open_store
from planner.ui.cache import ensure_sample


@pytest.fixture(scope="session")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database as the app's first run leaves it: migrated, the bundled sample imported."""
    path = tmp_path_factory.mktemp("sample-db") / "planner.duckdb"
    con = open_store(path)
    try:
        ensure_sample(con)
    finally:
        con.close()  # checkpointed: the one file holds everything, ready to copy
    return path


@pytest.fixture
def empty_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A path for a fresh database file, not yet created (the app creates it)."""
    path = tmp_path / "planner.duckdb"
    monkeypatch.setenv("PLANNER_DB", str(path))
    return path


@pytest.fixture
def db(empty_db: Path, sample_db: Path) -> Path:
    """A database file of the test's own, as the app's first run leaves it (cached
    connections and runs key on its path)."""
    shutil.copyfile(sample_db, empty_db)
    return empty_db


@pytest.fixture(scope="module")
def module_db(tmp_path_factory: pytest.TempPathFactory, sample_db: Path) -> Path:
    """One copy of the sample database for a module's tests that only read."""
    path = tmp_path_factory.mktemp("module-db") / "planner.duckdb"
    shutil.copyfile(sample_db, path)
    return path


@pytest.fixture
def read_db(module_db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The module's shared database file, for a test that writes nothing to it: a test
    that saves, imports or edits takes `db` (its own copy), and so does one that must see
    a replay or report computed afresh (a cache miss)."""
    monkeypatch.setenv("PLANNER_DB", str(module_db))
    return module_db
