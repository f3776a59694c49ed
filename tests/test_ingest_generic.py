"""Generic job histories: column names, encodings, delimiters, Excel, gzip, time zones."""

import gzip
from pathlib import Path

import duckdb
import openpyxl
import pytest

from tests.conftest import ingest, jobs_of, write

BASIC = (
    "job_id,submit_time,start_time,end_time,gpus,queue,user,status\n"
    "a,2024-01-05 10:00:00,2024-01-05 10:05:00,2024-01-05 11:05:00,8,nlp,ann,completed\n"
    "b,2024-01-05 10:01:00,2024-01-05 10:06:00,2024-01-05 10:36:00,1,cv,bo,failed\n"
)


def test_basic_history_becomes_jobs_relative_to_the_first_submit(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    report = ingest(con, write(tmp_path, "h.csv", BASIC), tz="Asia/Shanghai")
    jobs = jobs_of(con, report.trace_id)

    assert (report.rows, report.accepted, report.rejected) == (2, 2, 0)
    assert [(j["job_id"], j["submit_s"], j["start_s"], j["duration_s"]) for j in jobs] == [
        ("a", 0.0, 300.0, 3600.0),
        ("b", 60.0, 360.0, 1800.0),
    ]
    assert report.start_utc == "2024-01-05T02:00:00+00:00"
    assert report.gpu_hours == pytest.approx(8 * 1 + 1 * 0.5)
    assert report.column_mapping["gpus"] == "gpus"


def test_chinese_headers_in_gbk_are_recognised(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = (
        "任务ID,提交时间,开始时间,结束时间,GPU数,队列,状态\n"
        "t1,2024/1/5 10:00,2024/1/5 10:01,2024/1/5 12:01,4,算法组,成功\n"
    )
    report = ingest(con, write(tmp_path, "cn.csv", text, encoding="gbk"))
    jobs = jobs_of(con, report.trace_id)

    assert report.read_as.endswith("gb18030, comma")
    assert report.accepted == 1
    assert jobs[0]["queue"] == "算法组"
    assert jobs[0]["status"] == "completed"
    assert jobs[0]["duration_s"] == 7200.0


@pytest.mark.parametrize(
    ("encoding", "delimiter"),
    [
        ("utf-8-sig", ";"),
        ("utf-8", "\t"),
        ("utf-16", "\t"),
        ("gb18030", ","),
    ],
)
def test_encodings_and_delimiters(
    tmp_path: Path, con: duckdb.DuckDBPyConnection, encoding: str, delimiter: str
) -> None:
    text = BASIC.replace(",", delimiter)
    report = ingest(con, write(tmp_path, "h.txt", text, encoding=encoding))

    assert report.accepted == 2
    assert report.gpu_hours == pytest.approx(8.5)


def test_gzip_is_read_transparently(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    path = tmp_path / "h.csv.gz"
    path.write_bytes(gzip.compress(BASIC.encode()))

    assert ingest(con, path).accepted == 2


def test_excel_workbook_with_real_dates(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    import datetime as dt

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Job Name", "Submit Time", "Duration", "Num GPUs", "Team"])
    sheet.append(["x1", dt.datetime(2024, 1, 5, 10, 0), "01:30:00", 2, "a"])
    sheet.append(["x2", dt.datetime(2024, 1, 5, 11, 0), 600, 0.5, "b"])
    path = tmp_path / "jobs.xlsx"
    book.save(path)

    report = ingest(con, path)
    jobs = jobs_of(con, report.trace_id)

    assert report.read_as == "xlsx"
    assert [(j["job_id"], j["submit_s"], j["duration_s"], j["gpus"]) for j in jobs] == [
        ("x1", 0.0, 5400.0, 2.0),
        ("x2", 3600.0, 600.0, 0.5),
    ]
    assert [j["row_number"] for j in jobs] == [2, 3]


def test_map_overrides_detection(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    text = "id,t0,secs,cards,gpus\nq,0,100,4,99\n"
    report = ingest(
        con,
        write(tmp_path, "m.csv", text),
        mapping={"submit": "t0", "duration": "secs", "gpus": "cards"},
    )

    assert jobs_of(con, report.trace_id)[0]["gpus"] == 4.0
    assert report.column_mapping["gpus"] == "cards"
    assert report.time_base == "relative"


def test_missing_end_is_kept_running_with_the_time_observed_so_far(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = "job_id,submit_s,start_s,end_s,gpus\ndone,0,0,1000,1\nlive,100,200,,2\n"
    report = ingest(con, write(tmp_path, "r.csv", text))
    jobs = {j["job_id"]: j for j in jobs_of(con, report.trace_id)}

    assert jobs["live"]["status"] == "running-at-end"
    assert jobs["live"]["duration_s"] == 800.0  # the export's last moment (1000) - start
    assert "running_at_end" in str(jobs["live"]["flags"])
    assert report.flagged["running_at_end"] == 1


def test_large_jobs_without_pod_count_are_split_and_flagged(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = (
        "job_id,submit_s,duration_s,gpus\nbig,0,10,64\nodd,0,10,12\nprime,0,10,13\nsmall,0,10,4\n"
    )
    report = ingest(con, write(tmp_path, "p.csv", text))
    shape = {j["job_id"]: (j["pods"], j["gpus"]) for j in jobs_of(con, report.trace_id)}

    assert shape == {"big": (8, 8.0), "odd": (2, 6.0), "prime": (13, 1.0), "small": (1, 4.0)}
    assert report.flagged["pods_inferred"] == 3
    assert report.gpu_total == 64 + 12 + 13 + 4


def test_explicit_pods_divide_totals(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    text = "job_id,submit_s,duration_s,gpus,nodes,cpu,mem_gib\nj,0,10,16,2,64,512\n"
    report = ingest(con, write(tmp_path, "n.csv", text))
    job = jobs_of(con, report.trace_id)[0]

    assert (job["pods"], job["gpus"], job["cpu"], job["mem_gib"]) == (2, 8.0, 32.0, 256.0)


def test_status_words_and_priority_classes(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    text = (
        "job_id,submit_s,duration_s,gpus,state,priority\n"
        "a,0,1,1,SUCCEEDED,high\nb,0,1,1,Killed,7\nc,0,1,1,TIMEOUT,\n"
    )
    report = ingest(con, write(tmp_path, "s.csv", text))
    got = {j["job_id"]: (j["status"], j["priority"]) for j in jobs_of(con, report.trace_id)}

    assert got == {"a": ("completed", 1), "b": ("cancelled", 7), "c": ("failed", 0)}


def test_rejected_rows_keep_the_original_cells(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = "job_id,submit_s,duration_s,gpus\nok,0,10,1\nbad,0,10,two\n"
    report = ingest(con, write(tmp_path, "r.csv", text))
    row = con.execute(
        "SELECT row_number, reason, column_name, value, raw_json "
        "FROM rejected_rows WHERE trace_id = ?",
        [report.trace_id],
    ).fetchone()

    assert row == (
        3,
        "not_a_number",
        "gpus",
        "two",
        '{"job_id": "bad", "submit_s": "0", "duration_s": "10", "gpus": "two"}',
    )


def test_a_1024_gpu_gang_is_kept_and_a_unit_mistake_is_not(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = "job_id,submit_s,duration_s,gpus,pods\nllm,0,10,1024,128\noops,0,10,2000000,1\n"
    report = ingest(con, write(tmp_path, "g.csv", text))

    assert report.rejected_by_reason == {"implausible_value": 1}
    assert [(j["pods"], j["gpus"]) for j in jobs_of(con, report.trace_id)] == [(128, 8.0)]
