"""A sweep's jobs shipped to its workers as memory-mapped columns (`planner.service.sweep_ship`):
any jobs come back equal, a stored trace with missing times and several GPU types included,
and the files live only while the pool does: gone after the sweep, after a point's error and
after Ctrl-C. (That two workers price every point as one does: tests/test_sweep.py.)
"""

import tempfile
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.core.errors import ScenarioError
from planner.core.file_access import LOCAL_FILES
from planner.core.model import JOB_STATUSES, Job
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep_run import Sweep, run_sweep
from planner.service.sweep_ship import read_jobs, write_jobs
from planner.service.tco_files import load_tco_scenario
from planner.store import Connection, connect

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "scenarios" / "sample-tco.yaml"
JOBS = 300

# the window runs 00:00 to 05:00; `left` and `both` have no start (running when it opened),
# `right` and `both` no end, `deleted` and `waiting` never started (withdrawn after 5 min
# and 1 h), the others have no withdrawal
EXPORT = """job_id,submit_time,start_time,end_time,gpus,gpu_type,status
left,,,2024-01-01T02:00:00Z,8,A100/H100,completed
right,2024-01-01T01:00:00Z,2024-01-01T01:30:00Z,,4,H100,running
both,,,,2,,running
plain,2024-01-01T00:00:00Z,2024-01-01T00:10:00Z,2024-01-01T01:10:00Z,1,A100,completed
deleted,2024-01-01T03:00:00Z,,2024-01-01T03:05:00Z,1,A100/H100/L40S,pending
waiting,2024-01-01T04:00:00Z,,,2,H100,pending
late,2024-01-01T04:30:00Z,2024-01-01T04:40:00Z,2024-01-01T05:00:00Z,1,,completed
"""


def shipped(jobs: list[Job], folder: Path, chunk: int) -> list[Job]:
    write_jobs(jobs, folder)
    return read_jobs(folder, chunk)


def test_a_stored_trace_with_missing_times_and_several_gpu_types_comes_back_unchanged(
    tmp_path: Path,
) -> None:
    (tmp_path / "export.csv").write_text(EXPORT)
    with connect(tmp_path / "planner.duckdb") as con:
        trace_id = resolve_trace(con, str(tmp_path / "export.csv"), files=LOCAL_FILES)
        jobs = load_jobs(con, trace_id)
    (tmp_path / "shipped").mkdir()

    back = shipped(jobs, tmp_path / "shipped", chunk=3)  # three chunks: 3 + 3 + 1 jobs

    assert back == jobs
    by_id = {job.job_id: job for job in back}
    assert by_id["left"].gpu_types == ("A100", "H100")
    assert by_id["deleted"].gpu_types == ("A100", "H100", "L40S")
    assert by_id["both"].gpu_types == ()
    assert (by_id["deleted"].start_s, by_id["deleted"].withdraw_after_s) == (None, 300.0)
    assert (by_id["right"].end_s, by_id["right"].withdraw_after_s) == (None, None)
    assert by_id["both"].running_at_start is True
    assert [type(job.pods) for job in back] == [int] * len(jobs)  # not a NumPy integer


texts = st.text(max_size=6)
times = st.none() | st.floats(allow_nan=False)
jobs_strategy = st.lists(
    st.builds(
        Job,
        job_id=st.text(max_size=12),  # any text, lone surrogates and "|" included
        submit_s=st.floats(allow_nan=False),
        duration_s=st.floats(allow_nan=False),
        pods=st.integers(-(2**63), 2**63 - 1),
        gpus=st.floats(allow_nan=False),
        cpu=st.floats(allow_nan=False),
        mem_gib=st.floats(allow_nan=False),
        # the store keeps a job's types joined by "|", each non-empty
        gpu_types=st.lists(st.text(st.characters(exclude_characters="|"), min_size=1)).map(tuple),
        queue=texts,
        user=texts,
        priority=st.integers(-(2**63), 2**63 - 1),
        status=st.sampled_from(JOB_STATUSES),
        start_s=times,
        end_s=times,
        withdraw_after_s=times,
        running_at_start=st.booleans(),
    ),
    max_size=20,
)


@given(jobs=jobs_strategy, chunk=st.integers(1, 8))
def test_any_jobs_come_back_equal_in_their_order(jobs: list[Job], chunk: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        back = shipped(jobs, Path(folder), chunk)

    assert back == jobs
    # equal queues, users, statuses and GPU types are one object each (as load_jobs makes them)
    assert len({id(job.queue) for job in back}) == len({job.queue for job in back})
    assert len({id(job.gpu_types) for job in back}) == len({job.gpu_types for job in back})


@given(jobs=jobs_strategy, chunk=st.integers(1, 8))
def test_a_workers_jobs_are_equal_but_for_their_observed_start_and_end(
    jobs: list[Job], chunk: int
) -> None:
    """A sweep worker reads the jobs without what no point reads (issue 33)."""
    with tempfile.TemporaryDirectory() as folder:
        write_jobs(jobs, Path(folder))
        back = read_jobs(Path(folder), chunk, observed=False)

    assert back == [replace(job, start_s=None, end_s=None) for job in jobs]


# --- the files' life -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Connection, Sweep]]:
    lines = (ROOT / "data" / "traces" / "sample.csv").read_text().splitlines(keepends=True)
    folder = tmp_path_factory.mktemp("ship")
    trace = folder / "sample-head.csv"
    trace.write_text("".join(lines[: JOBS + 1]))
    scenario = load_tco_scenario(SAMPLE).model_copy(update={"hybrid": None, "trace": str(trace)})
    with connect(folder / "planner.duckdb") as con:
        trace_id = resolve_trace(con, str(trace), files=LOCAL_FILES)
        yield con, Sweep(scenario, load_jobs(con, trace_id), trace_id, date(2026, 12, 1))


@pytest.fixture
def temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder the sweep's temporary folders are made in (multiprocessing may make its
    own there too)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def shipped_files(temporary: Path) -> list[str]:
    """The job column files of every sweep folder under `temporary` now."""
    return sorted(p.name for p in temporary.glob("planner-sweep-*/jobs/*"))


def test_the_jobs_files_exist_while_the_workers_price_and_go_with_the_pool(
    temporary: Path, store: tuple[Connection, Sweep]
) -> None:
    con, sweep = store
    seen: list[list[str]] = []

    run_sweep(
        con,
        sweep,
        [(("servers", n),) for n in (5, 6)],
        workers=2,
        on_point=lambda done, total: seen.append(shipped_files(temporary)),
    )

    assert "submit_s.npy" in seen[0]
    assert "job_id.bin" in seen[0]
    assert list(temporary.glob("planner-sweep-*")) == []


def test_the_jobs_files_go_after_an_error_in_a_point(
    temporary: Path, store: tuple[Connection, Sweep]
) -> None:
    con, sweep = store
    refused = (("placement", "nowhere"),)  # the worker's `apply` refuses it

    with pytest.raises(ScenarioError, match="placement"):
        run_sweep(con, sweep, [(("servers", 7),), refused], workers=2)

    assert list(temporary.glob("planner-sweep-*")) == []


def test_the_jobs_files_go_after_ctrl_c(temporary: Path, store: tuple[Connection, Sweep]) -> None:
    con, sweep = store
    seen: list[list[str]] = []

    def interrupted(done: int, total: int) -> None:
        seen.append(shipped_files(temporary))
        raise KeyboardInterrupt  # as Ctrl-C does, in the parent while the workers price

    with pytest.raises(KeyboardInterrupt):
        run_sweep(
            con, sweep, [(("servers", n),) for n in (8, 9, 10)], workers=2, on_point=interrupted
        )

    assert "submit_s.npy" in seen[0]  # the interrupt came while the files were there
    assert list(temporary.glob("planner-sweep-*")) == []
