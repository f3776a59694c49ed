"""The working scenario's label and exported YAML follow the trace chosen in the session: a
manager's own job history renames it (and its `trace:` is that history's stored id), the
sample keeps the sample's names."""

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from streamlit.testing.v1 import AppTest

from planner.cli import main
from planner.store import connect
from planner.store.trace_stats import list_traces
from tests.pages.app import open_app_page

JOBS = "job_id,submit_time,duration,num_gpu\n" + "".join(
    f"j{i},{i * 600},{1200 + 60 * i},{1 + i % 4}\n" for i in range(20)
)


@pytest.fixture(scope="module")
def own_trace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """A database holding a small job history of the user's (imported as the CLI does), and
    its stored trace id."""
    folder = tmp_path_factory.mktemp("working")
    db, history = folder / "planner.duckdb", folder / "lab-jobs.csv"
    history.write_text(JOBS, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLANNER_DB", str(db))
        assert main(["ingest", str(history), "--db", str(db)]) == 0
        yield db, _trace_id(db, history.name)


def _trace_id(db: Path, name: str) -> str:
    with connect(db) as con:
        return next(r["trace_id"] for r in list_traces(con) if Path(r["source_file"]).name == name)


def _cluster_yaml(at: AppTest) -> dict[str, object]:
    at.switch_page("pages/cluster.py").run()
    assert not at.exception
    data = yaml.safe_load(str(at.code[-1].value))
    assert isinstance(data, dict)
    return data


def test_an_own_trace_renames_the_working_scenario_and_its_yaml(
    own_trace: tuple[Path, str],
) -> None:
    db, trace_id = own_trace
    at = open_app_page("pages/overview.py", 120)
    at.selectbox(key="trace_select").set_value(trace_id).run()
    at.switch_page("pages/overview.py").run()  # the label sits above the selector
    summary = next(m.value for m in at.markdown if "lab-jobs on 128 nodes" in m.value)
    assert "sample on 128 nodes" not in summary

    data = _cluster_yaml(at)
    assert (data["name"], data["trace"]) == ("lab-jobs on 128 nodes", trace_id)

    at.switch_page("pages/overview.py").run()
    sample_id = _trace_id(db, "sample.csv")
    at.selectbox(key="trace_select").set_value(sample_id).run()
    data = _cluster_yaml(at)
    assert (data["name"], data["trace"]) == ("sample on 128 nodes", "../traces/sample.csv")
