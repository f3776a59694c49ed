"""Shared fixtures: a fresh database per test, the real public traces, small file builders."""

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from hypothesis import settings

from planner.ingest import IngestOptions, IngestReport
from planner.service.importer import import_file
from planner.store import open_store
from tests.file_costs import load_costs, longest_first

SHARED = Path(__file__).resolve().parents[1].parent / "shared"

# Hypothesis fails an example that takes longer than 200 ms by default: a wall-clock limit,
# which a loaded CI machine breaks (seen: 328 ms for one IRR solve). Tests assert behaviour,
# never time; a test's own @settings may still set other options.
settings.register_profile("planner", deadline=None)
settings.load_profile("planner")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Whole files, longest first (tests/file_costs.py), so that parallel workers finish
    together instead of one running a long file alone at the end."""
    items[:] = longest_first(items, load_costs())


@pytest.fixture(autouse=True)
def _main_module_kept() -> Iterator[None]:
    """Streamlit's AppTest runs a script as `__main__` and leaves it there; a process pool
    started later in the same worker (the sweep's forkserver) would then run that deleted
    temporary script in its children and break ("name '__args' is not defined")."""
    main = sys.modules.get("__main__")
    yield
    if main is not None:
        sys.modules["__main__"] = main


@pytest.fixture
def con(tmp_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A migrated planner database in a fresh file."""
    connection = open_store(tmp_path / "planner.duckdb")
    yield connection
    connection.close()


@pytest.fixture(scope="session")
def shared_traces() -> Path:
    """`../shared/traces`, or skip with the reason when the checkout has no shared data."""
    root = Path(os.environ.get("PLANNER_SHARED", SHARED)) / "traces"
    if not root.is_dir():
        pytest.skip(f"real traces not available: {root} does not exist (../shared is absent)")
    return root


def write(tmp_path: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def ingest(con: duckdb.DuckDBPyConnection, path: Path, **options: object) -> IngestReport:
    return import_file(con, path, IngestOptions(**options))  # type: ignore[arg-type]


def jobs_of(con: duckdb.DuckDBPyConnection, trace_id: str) -> list[dict[str, object]]:
    frame = con.execute(
        "SELECT * FROM jobs WHERE trace_id = ? ORDER BY row_number", [trace_id]
    ).df()
    return frame.to_dict(orient="records")
