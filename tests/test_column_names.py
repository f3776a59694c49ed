"""Every documented column name is recognised however an export spells it: snake_case,
kebab-case, spaced words, CamelCase (with acronyms such as `NumGPUs`), upper case."""

from collections.abc import Mapping
from pathlib import Path

import duckdb
import pytest

from planner.ingest.columns import (
    NODE_SYNONYMS,
    SYNONYMS,
    match_key,
    resolve_columns,
)
from tests.conftest import ingest, jobs_of, write

ACRONYMS = ("id", "gpu", "gpus", "cpu", "cpus", "mib", "gib", "mb", "gb", "sn", "vc")


def _camel(name: str) -> str:
    """`num_gpus` -> `NumGPUs`: acronyms in capitals (a plural keeps its lower-case `s`)."""
    return "".join(_camel_word(word) for word in name.split("_"))


def _camel_word(word: str) -> str:
    if word not in ACRONYMS:
        return word.capitalize()
    if word.endswith("s") and word[:-1] in ACRONYMS:
        return word[:-1].upper() + "s"
    return word.upper()


def _spellings(name: str) -> dict[str, str]:
    words = name.split("_")
    return {
        "snake": name,
        "kebab": "-".join(words),
        "spaced": " ".join(w.capitalize() for w in words),
        "camel": _camel(name),
        "lower camel": _camel(name)[:1].lower() + _camel(name)[1:],
        "upper": name.upper(),
    }


def _cases(synonyms: Mapping[str, tuple[str, ...]]) -> list[tuple[str, str, str]]:
    return [
        (field, name, style)
        for field, names in synonyms.items()
        for name in names
        for style in _spellings(name)
    ]


def test_camel_spelling_of_the_helper_is_what_exports_write() -> None:
    assert _camel("num_gpus") == "NumGPUs"
    assert _camel("job_id") == "JobID"
    assert _camel("memory_mib") == "MemoryMIB"
    assert _camel("submit_time") == "SubmitTime"


@pytest.mark.parametrize(("field", "name", "style"), _cases(SYNONYMS))
def test_every_job_alias_in_every_spelling(field: str, name: str, style: str) -> None:
    spelled = _spellings(name)[style]
    alone = resolve_columns([name], {}, file="h.csv")
    # A name alone may belong to an earlier field (`id`): each spelling must go where the
    # documented name goes.
    wanted = next(f for f, col in alone.columns.items() if col == name)
    assert resolve_columns([spelled], {}, file="h.csv").columns == {wanted: spelled}


@pytest.mark.parametrize(("field", "name", "style"), _cases(NODE_SYNONYMS))
def test_every_node_alias_in_every_spelling(field: str, name: str, style: str) -> None:
    spelled = _spellings(name)[style]
    alone = resolve_columns([name], {}, file="n.csv", synonyms=NODE_SYNONYMS)
    wanted = next(f for f, col in alone.columns.items() if col == name)
    got = resolve_columns([spelled], {}, file="n.csv", synonyms=NODE_SYNONYMS)
    assert got.columns == {wanted: spelled}


@pytest.mark.parametrize("synonyms", [SYNONYMS, NODE_SYNONYMS])
def test_no_two_fields_share_a_match_key(synonyms: Mapping[str, tuple[str, ...]]) -> None:
    owner: dict[str, str] = {}
    for field, names in synonyms.items():
        for name in names:
            assert owner.setdefault(match_key(name), field) == field, name


def test_a_camel_case_export_is_read(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    text = (
        "JobID,User,Queue,SubmitTime,StartTime,EndTime,NumGPUs,State\n"
        "a,ann,nlp,2024-01-05 10:00:00,2024-01-05 10:05:00,2024-01-05 11:05:00,8,COMPLETED\n"
        "b,bo,cv,2024-01-05 10:01:00,2024-01-05 10:06:00,2024-01-05 10:36:00,1,FAILED\n"
    )
    report = ingest(con, write(tmp_path, "camel.csv", text))
    jobs = jobs_of(con, report.trace_id)

    assert (report.rows, report.accepted, report.rejected) == (2, 2, 0)
    assert report.column_mapping == {
        "job_id": "JobID",
        "submit": "SubmitTime",
        "start": "StartTime",
        "end": "EndTime",
        "gpus": "NumGPUs",
        "queue": "Queue",
        "user": "User",
        "status": "State",
    }
    assert [(j["job_id"], j["duration_s"], j["queue"]) for j in jobs] == [
        ("a", 3600.0, "nlp"),
        ("b", 1800.0, "cv"),
    ]


def test_a_serving_exports_obvious_columns_are_read_and_the_rest_named(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = (
        "instance_sn,app_name,creation_time,deletion_time,gpu_request,memory_request,node_ip,"
        "comment\n"
        "i-1,search,2024-01-05 10:00:00,2024-01-05 11:00:00,1,16,10.0.0.1,ok\n"
    )
    report = ingest(con, write(tmp_path, "serving.csv", text))

    assert report.column_mapping == {
        "job_id": "instance_sn",
        "submit": "creation_time",
        "end": "deletion_time",
        "gpus": "gpu_request",
        "mem": "memory_request",
        "queue": "app_name",
    }
    assert report.unused_columns == ["node_ip", "comment"]
    assert "  columns not used: 'node_ip', 'comment' (--map FIELD=COLUMN)" in report.summary_lines()
    assert [(j["job_id"], j["queue"], j["mem_gib"]) for j in jobs_of(con, report.trace_id)] == [
        ("i-1", "search", 16.0)
    ]
