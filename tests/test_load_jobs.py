"""Loading a stored trace in chunks (issue 33): the same jobs, in the same order, with the same
values and types as reading every row at once, whatever the chunk size; equal per-pod values,
queues, users and statuses are one object across chunks."""

from dataclasses import astuple
from pathlib import Path

import duckdb
import numpy as np
import pytest

from planner.core.errors import StoreError
from planner.core.model import Job
from planner.service.job_chunks import SHARED_COLUMNS, Sharing, jobs_from_columns, jobs_in_order
from planner.service.replay import load_jobs
from planner.store.traces import JOB_COLUMNS, job_column_chunks, job_columns, job_order
from tests.conftest import ingest, write

SAMPLE = Path(__file__).parents[1] / "data" / "traces" / "sample.csv"
# A left-censored row (no submit, no start), a right-censored one (no end), a CPU-only one and
# a withdrawn one: start_s, end_s and withdraw_after_s are NULL on some rows and not others.
CENSORED = """job_id,submit_time,start_time,end_time,gpus,cpu,status
L1,,,7200,8,8,completed
R1,3600,3600,,8,8,running
C1,0,0,3600,4,4,completed
F1,7200,7200,10800,8,8,failed
CPU1,0,0,36000,0,16,completed
P1,1000,,1300,8,8,pending
"""


def rows_one_by_one(con: duckdb.DuckDBPyConnection, trace_id: str) -> list[Job]:
    """The reference: every row fetched as Python values by DuckDB itself, no NumPy."""
    rows = con.execute(
        f"SELECT {JOB_COLUMNS} FROM jobs WHERE trace_id = ? ORDER BY submit_s, row_number",
        [trace_id],
    ).fetchall()
    return [
        Job(*row[:7], tuple(t for t in row[7].split("|") if t), *row[8:15], bool(row[15]))
        for row in rows
    ]


def field_types(jobs: list[Job]) -> list[tuple[type, ...]]:
    """Each job's field types: == holds for 1 and 1.0, the compiled engine's checks do not."""
    return [tuple(type(value) for value in astuple(job)) for job in jobs]


@pytest.mark.parametrize("chunk_rows", [3, 65_536])
def test_the_sample_trace_loads_as_the_rows_read_one_by_one(
    con: duckdb.DuckDBPyConnection, chunk_rows: int
) -> None:
    trace_id = ingest(con, SAMPLE).trace_id
    assert trace_id is not None
    expected = rows_one_by_one(con, trace_id)

    jobs = load_jobs(con, trace_id, chunk_rows)

    assert len(jobs) == 4000  # the sample's 4,000 rows, all accepted
    assert jobs == expected
    assert field_types(jobs) == field_types(expected)


@pytest.mark.parametrize("chunk_rows", [1, 3, 4, 100])
def test_nulls_in_start_end_and_withdraw_load_as_none(
    tmp_path: Path, con: duckdb.DuckDBPyConnection, chunk_rows: int
) -> None:
    trace_id = ingest(con, write(tmp_path, "export.csv", CENSORED)).trace_id
    assert trace_id is not None
    expected = rows_one_by_one(con, trace_id)

    jobs = load_jobs(con, trace_id, chunk_rows)

    assert jobs == expected
    assert field_types(jobs) == field_types(expected)
    by_id = {job.job_id: job for job in jobs}
    # R1 has no end, P1 (withdrawn) never started; only P1 has a pending lifetime: 1,300 - 1,000
    assert (by_id["R1"].end_s, by_id["P1"].start_s) == (None, None)
    assert by_id["P1"].withdraw_after_s == 300.0
    assert [job.job_id for job in jobs if job.withdraw_after_s is not None] == ["P1"]
    assert [job.job_id for job in jobs if job.running_at_start] == ["L1"]


def test_equal_values_are_one_object_across_chunks(con: duckdb.DuckDBPyConnection) -> None:
    trace_id = ingest(con, SAMPLE).trace_id
    assert trace_id is not None

    jobs = load_jobs(con, trace_id, 3)

    for name in ("pods", "gpus", "cpu", "mem_gib", "gpu_types", "queue", "user", "priority"):
        values = [getattr(job, name) for job in jobs]
        assert len({id(value) for value in values}) == len(set(values)), name
    assert len({id(job.status) for job in jobs}) == len({job.status for job in jobs})


def test_the_whole_table_read_at_once_gives_the_same_jobs(
    con: duckdb.DuckDBPyConnection,
) -> None:
    trace_id = ingest(con, SAMPLE).trace_id
    assert trace_id is not None

    # fetched whole, DuckDB's NumPy arrays mask NULLs instead of NaN
    jobs = jobs_from_columns(job_columns(con, trace_id), Sharing())  # type: ignore[arg-type]

    assert jobs == load_jobs(con, trace_id, 7)


def test_chunks_in_any_order_land_where_the_order_puts_them(
    con: duckdb.DuckDBPyConnection,
) -> None:
    trace_id = ingest(con, SAMPLE).trace_id
    assert trace_id is not None
    (whole,) = job_column_chunks(con, trace_id, 10_000)  # stored in submit order already
    # chunks of 3 rows, last chunk first, each chunk's rows reversed
    chunks = [
        {name: column[start : start + 3][::-1] for name, column in whole.items()}
        for start in reversed(range(0, 4000, 3))
    ]

    jobs = jobs_in_order(job_order(con, trace_id), chunks)

    assert jobs == rows_one_by_one(con, trace_id)


def test_rows_that_are_not_the_orders_are_refused(con: duckdb.DuckDBPyConnection) -> None:
    trace_id = ingest(con, SAMPLE).trace_id
    assert trace_id is not None
    order = job_order(con, trace_id)
    chunks = list(job_column_chunks(con, trace_id, 1000))

    with pytest.raises(StoreError, match="changed while they were read"):
        jobs_in_order(order[:-1], chunks)  # a row came that the order does not list
    with pytest.raises(StoreError, match="changed while they were read"):
        jobs_in_order(order, chunks[:-1])  # a chunk went missing
    with pytest.raises(StoreError, match="changed while they were read"):
        jobs_in_order(order[:0], chunks)  # the trace's jobs were deleted meanwhile


def test_sharing_keeps_zero_and_minus_zero_and_ints_and_floats_apart() -> None:
    sharing = Sharing()
    zero, minus_zero = np.array([0.0, -0.0, 0.0]), np.array([-0.0])

    floats = sharing.column("cpu", zero) + sharing.column("cpu", minus_zero)
    ints = sharing.column("pods", np.array([1, 1]))
    ones = sharing.column("gpus", np.array([1.0]))

    assert [str(value) for value in floats] == ["0.0", "-0.0", "0.0", "-0.0"]
    assert floats[0] is floats[2]
    assert floats[1] is floats[3]
    assert [type(value) for value in (*ints, *ones)] == [int, int, float]
    assert set(SHARED_COLUMNS) >= {"pods", "gpus", "cpu", "mem_gib", "priority"}


def test_a_half_read_result_on_the_connection_does_not_stop_the_load(
    con: duckdb.DuckDBPyConnection,
) -> None:
    trace_id = ingest(con, SAMPLE).trace_id
    assert trace_id is not None
    con.execute("SELECT * FROM range(10)").fetchone()  # 9 rows left unread

    jobs = load_jobs(con, trace_id)

    assert len(jobs) == 4000
