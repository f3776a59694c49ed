"""Loading a stored trace in chunks (issue 33): the same jobs, in the same order, with the same
values and types as reading every row at once, whatever the chunk size; equal per-pod values,
run times, queues, users and statuses are one object across chunks; and the load imports
neither NumPy, pandas nor pyarrow."""

import gc
import subprocess
import sys
from dataclasses import astuple
from pathlib import Path

import duckdb
import numpy as np
import pytest

from planner.core.errors import StoreError
from planner.core.model import Job
from planner.service import job_chunks, job_rows
from planner.service.job_chunks import Sharing, jobs_from_columns
from planner.service.job_rows import SharedValues, load_jobs
from planner.store import open_store
from planner.store.traces import JOB_COLUMNS, job_columns, job_row_chunks
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
# Several GPU types (one job takes either of two, two take any), shared GPUs (half a GPU per
# pod), a gang of 2 pods, NULL start, end and pending lifetime on some rows.
MIXED = """job_id,submit_time,start_time,end_time,pods,gpus,gpu_type,status
gang,0,0,3600,2,16,A100,completed
half,60,60,660,1,0.5,T4,completed
either,60,,,1,1,A100/H100,running
any,120,120,,1,1,,running
quarter,120,180,780,1,0.25,T4,failed
pending,300,,900,1,8,H100,pending
"""
# Ten jobs at one instant and five at the next: ties in submit time run across every chunk
# boundary of 3 rows, and are broken by the file's order.
TIES = "job_id,submit_time,duration_s,gpus\n" + "".join(
    f"{name},{submit},60,1\n"
    for name, submit in [
        *((f"t0-{i}", 0) for i in (3, 1, 4, 0, 5, 9, 2, 6, 8, 7)),
        *((f"t60-{i}", 60) for i in (2, 0, 1, 4, 3)),
    ]
)


def rows_one_by_one(con: duckdb.DuckDBPyConnection, trace_id: str) -> list[Job]:
    """The reference: every row at once, in one query, each made a `Job` by hand."""
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


def stored(con: duckdb.DuckDBPyConnection, path: Path) -> str:
    trace_id = ingest(con, path).trace_id
    assert trace_id is not None
    return trace_id


@pytest.mark.parametrize("chunk_rows", [7, 65_536])
def test_the_sample_trace_loads_as_the_rows_read_one_by_one(
    con: duckdb.DuckDBPyConnection, chunk_rows: int
) -> None:
    trace_id = stored(con, SAMPLE)
    expected = rows_one_by_one(con, trace_id)

    jobs = load_jobs(con, trace_id, chunk_rows)

    assert len(jobs) == 4000  # the sample's 4,000 rows, all accepted
    assert jobs == expected
    assert field_types(jobs) == field_types(expected)


@pytest.mark.parametrize("chunk_rows", [1, 3, 4, 100])
def test_nulls_in_start_end_and_withdraw_load_as_none(
    tmp_path: Path, con: duckdb.DuckDBPyConnection, chunk_rows: int
) -> None:
    trace_id = stored(con, write(tmp_path, "export.csv", CENSORED))
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


@pytest.mark.parametrize("chunk_rows", [1, 2, 65_536])
def test_gpu_types_shared_gpus_and_gangs_load_as_the_numpy_builder_makes_them(
    tmp_path: Path, con: duckdb.DuckDBPyConnection, chunk_rows: int
) -> None:
    trace_id = stored(con, write(tmp_path, "mixed.csv", MIXED))
    # the builder of the benches and the sweep's workers: NumPy columns (NULLs masked)
    built = jobs_from_columns(job_columns(con, trace_id), Sharing())  # type: ignore[arg-type]

    jobs = load_jobs(con, trace_id, chunk_rows)

    assert jobs == built
    assert field_types(jobs) == field_types(built)
    by_id = {job.job_id: job for job in jobs}
    assert by_id["either"].gpu_types == ("A100", "H100")
    assert by_id["any"].gpu_types == by_id["gang"].gpu_types[:0] == ()
    # 16 GPUs over 2 pods: 8 a pod; half and quarter GPUs stay fractions of one card
    assert (by_id["gang"].pods, by_id["gang"].gpus) == (2, 8.0)
    assert (by_id["half"].gpus, by_id["quarter"].gpus) == (0.5, 0.25)
    assert (by_id["either"].start_s, by_id["either"].end_s) == (None, None)
    assert (by_id["any"].start_s, by_id["any"].end_s) == (120.0, None)
    assert by_id["pending"].withdraw_after_s == 600.0  # deleted at 900, submitted at 300
    assert by_id["half"].gpu_types is by_id["quarter"].gpu_types


@pytest.mark.parametrize("chunk_rows", [1, 3, 4, 15, 16])
def test_ties_in_submit_time_keep_the_files_order_across_chunk_boundaries(
    tmp_path: Path, con: duckdb.DuckDBPyConnection, chunk_rows: int
) -> None:
    trace_id = stored(con, write(tmp_path, "ties.csv", TIES))

    jobs = load_jobs(con, trace_id, chunk_rows)

    assert [job.job_id for job in jobs] == [
        *(f"t0-{i}" for i in (3, 1, 4, 0, 5, 9, 2, 6, 8, 7)),
        *(f"t60-{i}" for i in (2, 0, 1, 4, 3)),
    ]


def test_chunks_hold_at_most_the_rows_asked_for(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    trace_id = stored(con, write(tmp_path, "ties.csv", TIES))

    sizes = [len(rows) for rows in job_row_chunks(con, trace_id, 4)]

    assert sizes == [4, 4, 4, 3]  # 15 jobs: 4 + 4 + 4 + 3


@pytest.mark.parametrize(
    ("queries", "sizes"), [(4, [4, 4, 4, 3]), (3, [8, 7]), (2, [8, 7]), (1, [15])]
)
def test_a_trace_past_the_queries_allowed_is_read_in_multiples_of_the_rows(
    tmp_path: Path, con: duckdb.DuckDBPyConnection, queries: int, sizes: list[int]
) -> None:
    trace_id = stored(con, write(tmp_path, "ties.csv", TIES))

    chunks = list(job_row_chunks(con, trace_id, 4, queries=queries))

    # 15 jobs in 4 chunks of 4 rows; 3 queries or fewer take 2 of those at a time, 1 takes all
    assert [len(rows) for rows in chunks] == sizes
    assert [row[0] for rows in chunks for row in rows] == [
        job.job_id for job in load_jobs(con, trace_id)
    ]


def test_equal_values_are_one_object_across_chunks(con: duckdb.DuckDBPyConnection) -> None:
    trace_id = stored(con, SAMPLE)

    jobs = load_jobs(con, trace_id, 3)

    shared = ("pods", "gpus", "cpu", "mem_gib", "gpu_types", "queue", "user", "priority")
    for name in (*shared, "duration_s", "status"):
        values = [getattr(job, name) for job in jobs]
        assert len({id(value) for value in values}) == len(set(values)), name


def test_the_numpy_builder_shares_the_same_columns() -> None:
    assert job_chunks.SHARED_COLUMNS == job_rows.SHARED_COLUMNS
    assert set(job_rows.SHARED_COLUMNS) <= {name.strip() for name in JOB_COLUMNS.split(",")}


def test_rows_added_or_removed_while_the_chunks_are_read_are_refused(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    trace_id = stored(con, write(tmp_path, "ties.csv", TIES))
    copy_last = (
        "INSERT INTO jobs SELECT * REPLACE (row_number + 100 AS row_number) FROM jobs "
        "WHERE trace_id = ? AND job_id = 't60-3'"
    )

    chunks = job_row_chunks(con, trace_id, 4)
    next(chunks)  # rows 1-4 read; a copy of the last row lands in the last chunk's range
    con.execute(copy_last, [trace_id])
    with pytest.raises(StoreError, match="changed while they were read"):
        list(chunks)

    chunks = job_row_chunks(con, trace_id, 4)  # 16 jobs now: 4 + 4 + 4 + 4
    next(chunks)
    con.execute("DELETE FROM jobs WHERE trace_id = ? AND job_id = 't0-9'", [trace_id])
    with pytest.raises(StoreError, match="changed while they were read"):
        next(chunks)  # the second chunk has 3 rows where the ranges counted 4


def test_shared_values_keep_zero_and_minus_zero_and_ints_and_floats_apart() -> None:
    shared = SharedValues()

    floats = shared.column("cpu", [0.0, -0.0, 0.0]) + shared.column("cpu", [-0.0, 2.0, 0.0])
    ints = shared.column("pods", [1, 1])
    ones = shared.column("gpus", [1.0])

    assert [str(value) for value in floats] == ["0.0", "-0.0", "0.0", "-0.0", "2.0", "0.0"]
    assert floats[0] is floats[2] is floats[5]
    assert floats[1] is floats[3]
    assert [type(value) for value in (*ints, *ones)] == [int, int, float]


def test_numpy_sharing_keeps_zero_and_minus_zero_and_ints_and_floats_apart() -> None:
    sharing = Sharing()
    zero, minus_zero = np.array([0.0, -0.0, 0.0]), np.array([-0.0])

    floats = sharing.column("cpu", zero) + sharing.column("cpu", minus_zero)
    ints = sharing.column("pods", np.array([1, 1]))
    ones = sharing.column("gpus", np.array([1.0]))

    assert [str(value) for value in floats] == ["0.0", "-0.0", "0.0", "-0.0"]
    assert floats[0] is floats[2]
    assert floats[1] is floats[3]
    assert [type(value) for value in (*ints, *ones)] == [int, int, float]


def test_a_half_read_result_on_the_connection_does_not_stop_the_load(
    con: duckdb.DuckDBPyConnection,
) -> None:
    trace_id = stored(con, SAMPLE)
    con.execute("SELECT * FROM range(10)").fetchone()  # 9 rows left unread

    jobs = load_jobs(con, trace_id)

    assert len(jobs) == 4000


def test_the_collector_is_left_as_it_was_found(con: duckdb.DuckDBPyConnection) -> None:
    trace_id = stored(con, SAMPLE)
    assert gc.isenabled()

    load_jobs(con, trace_id)
    assert gc.isenabled()
    gc.disable()
    try:
        load_jobs(con, trace_id)
        assert not gc.isenabled()
    finally:
        gc.enable()


LOAD_ALONE = """
import sys
from pathlib import Path
from planner.service.job_rows import load_jobs
from planner.store import open_store
con = open_store(Path(sys.argv[1]))
print(len(load_jobs(con, sys.argv[2])))
print(",".join(name for name in ("numpy", "pandas", "pyarrow") if name in sys.modules))
"""


def test_opening_the_store_and_loading_a_trace_import_no_numpy_pandas_or_pyarrow(
    tmp_path: Path,
) -> None:
    database = tmp_path / "planner.duckdb"
    con = open_store(database)
    trace_id = stored(con, SAMPLE)
    con.close()

    loaded = subprocess.run(
        [sys.executable, "-c", LOAD_ALONE, str(database), trace_id],
        capture_output=True,
        text=True,
        check=True,
    )

    # 4,000 jobs, and 70 MiB of imports not made (the price book's package pulls pandas in)
    assert loaded.stdout.splitlines() == ["4000", ""]
