"""Fixtures for the AppTest page tests: each test gets its own database file."""

from pathlib import Path

import pytest


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh database file for the app (cached connections and runs key on its path)."""
    path = tmp_path / "planner.duckdb"
    monkeypatch.setenv("PLANNER_DB", str(path))
    return path
