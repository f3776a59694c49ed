"""A job history is a window of a running cluster: rows censored at either edge are kept.

The export below is made by hand; its window runs from 00:00 (the earliest time any row
knows, `plain`'s submit) to 05:00 (the latest, `late`'s end). Expected jobs are worked out
by hand in each test.
"""

import json
from pathlib import Path

import duckdb
import pytest

from planner.cli import main
from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.store import migrations, open_store
from tests.conftest import ingest, jobs_of, write

EXPORT = """job_id,submit_time,start_time,end_time,gpus,status
left,,,2024-01-01T02:00:00Z,8,completed
right,2024-01-01T01:00:00Z,2024-01-01T01:30:00Z,,4,running
both,,,,2,running
plain,2024-01-01T00:00:00Z,2024-01-01T00:10:00Z,2024-01-01T01:10:00Z,1,completed
deleted,2024-01-01T03:00:00Z,,2024-01-01T03:05:00Z,1,pending
waiting,2024-01-01T04:00:00Z,,,2,pending
late,2024-01-01T04:30:00Z,2024-01-01T04:40:00Z,2024-01-01T05:00:00Z,1,completed
"""
HOUR = 3600.0


@pytest.fixture
def export(tmp_path: Path) -> Path:
    return write(tmp_path, "export.csv", EXPORT)


def test_censored_rows_run_from_the_window_start_and_to_the_window_end(
    export: Path, con: duckdb.DuckDBPyConnection
) -> None:
    report = ingest(con, export)
    jobs = {j["job_id"]: j for j in jobs_of(con, report.trace_id)}

    assert (report.rows, report.accepted, report.rejected) == (7, 7, 0)
    assert report.start_utc == "2024-01-01T00:00:00+00:00"
    assert report.horizon_s == 5 * HOUR
    # no start: running when the window opened at 00:00, ended at 02:00 -> 2 h
    left = jobs["left"]
    assert (left["submit_s"], left["start_s"], left["duration_s"]) == (0.0, 0.0, 2 * HOUR)
    assert (left["status"], left["running_at_start"]) == ("completed", True)
    # no end: 01:30 to the window end at 05:00 -> 3.5 h
    right = jobs["right"]
    assert (right["start_s"], right["duration_s"], right["status"]) == (
        1.5 * HOUR,
        3.5 * HOUR,
        "running-at-end",
    )
    # neither: the whole window, 5 h, flagged on both sides
    both = jobs["both"]
    assert (both["start_s"], both["duration_s"], both["status"]) == (
        0.0,
        5 * HOUR,
        "running-at-end",
    )
    assert both["running_at_start"]
    assert set(both["flags"].split(",")) >= {"running_at_start", "running_at_end"}
    # pending with an end: deleted after 5 minutes of waiting; no run time
    deleted = jobs["deleted"]
    assert (deleted["status"], deleted["duration_s"], deleted["withdraw_after_s"]) == (
        "withdrawn",
        0.0,
        300.0,
    )
    assert deleted["start_s"] != deleted["start_s"]  # NaN: it never started
    # pending without an end: still waiting at 05:00, one hour after its submit at 04:00
    waiting = jobs["waiting"]
    assert (waiting["status"], waiting["withdraw_after_s"]) == ("withdrawn", HOUR)
    assert "pending_at_end" in waiting["flags"]
    assert (
        report.running_at_start,
        report.running_at_end,
        report.withdrawn,
        report.pending_at_end,
    ) == (2, 2, 2, 1)
    # 8 x 2 h + 4 x 3.5 h + 2 x 5 h + 1 x 1 h + 1 x 20 min; withdrawn jobs add nothing
    assert report.gpu_hours == pytest.approx(16 + 14 + 10 + 1 + 1 / 3)


def test_censored_reject_rejects_rows_without_a_start_and_keeps_the_rest(
    export: Path, con: duckdb.DuckDBPyConnection
) -> None:
    report = ingest(con, export, censored="reject")

    kept = {j["job_id"] for j in jobs_of(con, report.trace_id)}
    assert kept == {"right", "plain", "deleted", "waiting", "late"}
    assert report.rejected_by_reason == {"never_started": 2}
    assert (report.running_at_start, report.running_at_end, report.withdrawn) == (0, 1, 2)
    assert report.gpu_hours == pytest.approx(14 + 1 + 1 / 3)


def test_the_censoring_choice_is_part_of_the_trace_identity(
    export: Path, con: duckdb.DuckDBPyConnection
) -> None:
    window = ingest(con, export)
    reject = ingest(con, export, censored="reject")

    assert window.trace_id != reject.trace_id
    assert not reject.already_imported


def test_ingest_cli_takes_censored_and_reports_both_flags(
    export: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "planner.duckdb")

    assert main(["ingest", str(export), "--db", db, "--censored", "reject", "--json"]) == 0
    rejected = json.loads(capsys.readouterr().out)
    assert main(["ingest", str(export), "--db", db]) == 0
    text = capsys.readouterr().out

    assert (rejected["accepted"], rejected["running_at_start"]) == (5, 0)
    assert "censored: 2 running at start, 2 running at end; withdrawn 2 (1 still pending" in text


def test_a_start_less_row_with_a_submit_time_starts_when_submitted(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    path = write(
        tmp_path,
        "jobs.csv",
        "job_id,submit_time,start_time,end_time,gpus,status\n"
        "a,2024-01-01T00:00:00Z,2024-01-01T00:00:00Z,2024-01-01T02:00:00Z,1,completed\n"
        "b,2024-01-01T01:00:00Z,,2024-01-01T01:30:00Z,2,failed\n",
    )

    report = ingest(con, path)
    b = {j["job_id"]: j for j in jobs_of(con, report.trace_id)}["b"]

    assert (b["submit_s"], b["duration_s"], b["status"]) == (HOUR, 1800.0, "failed")
    assert "start_from_submit" in b["flags"]
    assert not b["running_at_start"]


SACCT = """JobID|User|Account|Submit|Start|End|Elapsed|NNodes|AllocTRES|ReqTRES|State
1|ann|nlp|2024-03-01T09:00:00|2024-03-01T09:00:00|2024-03-01T10:00:00|01:00:00|1|gres/gpu=8||COMPLETED
2|ann|nlp|2024-03-01T09:30:00|Unknown|Unknown|00:00:00|1||gres/gpu=4|PENDING
3|bob|cv|2024-03-01T09:40:00|None|2024-03-01T09:45:00|00:00:00|1||gres/gpu=2|CANCELLED by 1001
4|bob|cv|2024-03-01T09:50:00|2024-03-01T09:50:00|2024-03-01T10:20:00|00:30:00|1|gres/gpu=1||TIMEOUT
"""


def test_slurm_pending_and_cancelled_while_pending_are_withdrawn(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    report = ingest(con, write(tmp_path, "sacct.txt", SACCT))
    jobs = {j["job_id"]: j for j in jobs_of(con, report.trace_id)}

    assert (report.accepted, report.rejected, report.withdrawn) == (4, 0, 2)
    # still pending at the export (window end 10:20): withdrawn 50 minutes after its submit
    assert (jobs["2"]["status"], jobs["2"]["withdraw_after_s"]) == ("withdrawn", 3000.0)
    # cancelled before it started: withdrawn after its 5 minutes in the queue
    assert (jobs["3"]["status"], jobs["3"]["withdraw_after_s"]) == ("withdrawn", 300.0)
    assert (jobs["1"]["status"], jobs["4"]["status"]) == ("completed", "failed")


def test_a_database_from_before_withdrawn_jobs_keeps_its_jobs_and_takes_new_ones(
    tmp_path: Path, export: Path
) -> None:
    path = tmp_path / "old.duckdb"
    old = duckdb.connect(str(path))
    old.execute(
        "CREATE TABLE schema_migrations (package VARCHAR NOT NULL, version INTEGER NOT NULL, "
        "name VARCHAR NOT NULL, applied_at TIMESTAMP, PRIMARY KEY (package, version))"
    )
    for version, name, sql in migrations("planner")[:2]:  # the schema before 003
        old.execute(sql)
        old.execute(
            "INSERT INTO schema_migrations VALUES ('planner', ?, ?, now())", [version, name]
        )
    old.execute(
        "INSERT INTO jobs VALUES ('t', 1, 'j1', 0, 60, 1, 1, 0, 0, '', 'q', '', 0, "
        "'completed', 0, 60, '')"
    )
    old.close()

    con = open_store(path)
    kept = con.execute("SELECT job_id, withdraw_after_s, running_at_start FROM jobs").fetchall()
    report = import_file(con, export, IngestOptions())
    con.close()

    assert kept == [("j1", None, False)]
    assert report.withdrawn == 2


def test_inspect_leaves_rows_already_running_at_the_window_start_out_of_the_waits(
    export: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31, item 6: `left` and `both` were running when the window opened; their submit
    is unknown (set to the window start), so their 0 s is no wait. The twin leaves them out,
    and so must `planner inspect`. Observed waits: right 30 min, plain 10, late 10 (the
    withdrawn and pending rows never started): p50 600 s, mean (1800 + 600 + 600) / 3 =
    1000 s, p90 600 + 0.8 x (1800 - 600) = 1560 s (with the two 0 s: 1320 s, mean 600 s)."""
    db = str(tmp_path / "p.duckdb")

    assert main(["inspect", str(export), "--db", db, "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert main(["inspect", str(export), "--db", db]) == 0
    text = capsys.readouterr().out

    wait = stats["wait_s"]
    assert (wait["p50"], wait["mean"], wait["p90"]) == (600.0, 1000.0, pytest.approx(1560.0))
    assert stats["wait_left_out_running_at_start"] == 2
    assert "2 jobs already running when the export's window opened are left out" in text
