"""The one serialiser (`planner.core.serialize`): typed results to JSON and back.

`tests/data/replay_summary_queues.json` was written by the code before the summary was typed
(`summarize` returned a dict then): the typed summary must still print it byte for byte.
"""

import contextlib
import io
import json
import string
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.cli.main import main
from planner.core.model import Job
from planner.core.notes import ENGLISH, Note, note, worded
from planner.core.serialize import (
    FLATTEN,
    IN_MEMORY,
    NOTE_CODES,
    OMIT,
    from_json,
    json_dict,
    to_json,
)
from planner.cost.chargeback import ChargebackData, JobTable
from planner.cost.results import TcoReport
from planner.engine import ReplayResult, simulate
from planner.engine.metrics import summarize
from planner.engine.policy import Policy
from planner.engine.scenario import QueuesSpec
from planner.engine.summary import ReplayReport, ReplaySummary

DATA = Path(__file__).parent / "data"
SCENARIOS = Path(__file__).resolve().parents[1] / "data" / "scenarios"
ONE_NODE = [("n1", "A100", 8, 0.0, 0.0)]


def with_queues() -> ReplayResult:
    """Two ClusterQueues sharing one 8-GPU node; a CPU-only job and one that never fits."""
    spec = QueuesSpec.model_validate(
        {
            "flavors": [{"name": "f"}],
            "cluster_queues": [
                {"name": "A", "cohort": "org", "quotas": [{"flavor": "f", "gpus": 4}]},
                {"name": "B", "cohort": "org", "quotas": [{"flavor": "f", "gpus": 4}]},
            ],
        }
    )
    jobs = [
        Job("b1", 0, 100, gpus=8, queue="B"),
        Job("a1", 10, 50, gpus=4, queue="A"),
        Job("b2", 20, 50, gpus=4, queue="B"),
        Job("c1", 30, 40, gpus=0, queue="A", cpu=2),
        Job("big", 40, 10, gpus=16, queue="A"),
    ]
    return simulate(jobs, ONE_NODE, Policy(queues=spec.to_setup(strict_default=False)))


def test_the_replay_summary_prints_the_json_it_printed_as_a_dict() -> None:
    expected = (DATA / "replay_summary_queues.json").read_text(encoding="utf-8")

    text = json.dumps(to_json(summarize(with_queues())), indent=2) + "\n"

    assert text == expected


def test_a_replay_summary_round_trips_through_its_json() -> None:
    summary = summarize(with_queues(), timeline=True)
    report = ReplayReport("t1", "pools", summary)

    data = json.loads(json.dumps(to_json(report)))
    back = from_json(ReplayReport, data)

    assert back == report
    assert to_json(back) == data
    assert list(data)[:3] == ["trace_id", "cluster", "jobs"]  # the summary's keys flattened
    assert summary.queues is not None
    assert back.summary.queues == summary.queues
    assert "sharing" not in data  # omitted when no GPU is shared


def test_a_summary_without_queues_has_none_of_their_keys() -> None:
    jobs = [Job("a", 0, 60, gpus=8), Job("b", 0, 60, gpus=8)]

    data = json_dict(summarize(simulate(jobs, ONE_NODE, Policy())))

    assert "borrowed_gpu_hours" not in data
    assert "timeline" not in data
    assert from_json(ReplaySummary, data).queues is None


def _tco_json(tmp_path: Path, name: str) -> str:
    args = ["tco", "--scenario", str(SCENARIOS / name), "--db", str(tmp_path / "p.duckdb")]
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main([*args, "--json"]) == 0
    return buffer.getvalue()


def test_a_tco_report_round_trips_through_planner_tco_json(tmp_path: Path) -> None:
    printed = _tco_json(tmp_path, "worked-example-h100.yaml")

    report = from_json(TcoReport, json.loads(printed))

    assert json.dumps(to_json(report), indent=2, default=str) + "\n" == printed
    assert report.horizons[0].options[0].ledger is not None
    assert report.horizons[0].comparisons[0].owned == "self-hosted"


@dataclass(frozen=True, slots=True)
class _Inner:
    a: int
    b: float | None = field(default=None, metadata=OMIT)


@dataclass(frozen=True, slots=True)
class _Outer:
    name: str
    items: tuple[_Inner, ...]
    by_key: dict[str, _Inner]
    inner: _Inner | None = field(default=None, metadata=FLATTEN)


@pytest.mark.parametrize(
    "value",
    [
        _Outer("x", (_Inner(1), _Inner(2, 0.5)), {"k": _Inner(3)}),
        _Outer("y", (_Inner(5),), {}, _Inner(4, 1.5)),
    ],
)
def test_fields_are_written_in_order_omitted_or_flattened(value: _Outer) -> None:
    data = to_json(value)

    assert list(data)[:3] == ["name", "items", "by_key"]
    assert "b" not in data["items"][0]  # None: left out
    assert ("a" in data) == (value.inner is not None)  # inner's keys at the top level
    assert from_json(_Outer, json.loads(json.dumps(data))) == value


def test_values_are_not_converted() -> None:
    assert to_json(_Inner(0, 0)) == {"a": 0, "b": 0}  # an int stays an int (JSON "0")
    assert json.dumps(to_json(_Inner(1, 2.0))) == '{"a": 1, "b": 2.0}'


@dataclass(frozen=True, slots=True)
class _Noted:
    notes: tuple[str, ...]
    label: str = ""
    rows: tuple[int, ...] = field(default=(), metadata=IN_MEMORY)


def test_notes_keep_their_codes_and_values_through_json() -> None:
    fx = note("placeholder_fx", price=note("server", name="8xA100"), base="EUR", quote="USD")
    bridge = note("bridge_cloud", months=3, option="AWS")
    value = _Noted((bridge, fx, "typed by hand"), note("server", name="8xH100"))

    data = json.loads(json.dumps(to_json(value)))
    read = from_json(_Noted, data)

    assert data["notes"] == [str(bridge), str(fx), "typed by hand"]  # readers see the text
    assert read == value
    assert [(n.code, n.values) for n in read.notes[:2] if isinstance(n, Note)] == [
        ("bridge_cloud", {"months": 3, "option": "AWS"}),
        ("placeholder_fx", {"price": "server 8xA100", "base": "EUR", "quote": "USD"}),
    ]
    price = read.notes[1].values["price"]  # type: ignore[attr-defined]
    assert (price.code, price.values) == ("server", {"name": "8xA100"})
    assert type(read.notes[2]) is str
    assert isinstance(read.label, Note)
    assert read.label.code == "server"


def test_json_saved_before_codes_were_kept_reads_its_notes_as_text() -> None:
    saved = {"notes": ["servers are paid at order ...", "a remark"], "label": "server 8xH100"}

    read = from_json(_Noted, saved)

    assert read == _Noted(("servers are paid at order ...", "a remark"), "server 8xH100")
    assert all(type(n) is str for n in (*read.notes, read.label))
    assert NOTE_CODES not in to_json(read)  # no codes, no key: the JSON is as it was


def test_an_in_memory_field_is_never_written_nor_read() -> None:
    data = to_json(_Noted(("x",), rows=(1, 2, 3)))

    assert "rows" not in data
    assert from_json(_Noted, data | {"rows": [4]}).rows == ()


def test_the_per_job_table_stays_out_of_the_json() -> None:
    jobs = JobTable(("j1",), ("team-a",), ("u1",), (8.0,), (80.0,), ("completed",), (0.0,))
    data = ChargebackData({"self-hosted": {"team-a": 80.0}}, {"team-a": 8.0}, "kueue", jobs)

    written = to_json(data)

    assert written == {
        "usage": {"self-hosted": {"team-a": 80.0}},
        "quotas": {"team-a": 8.0},
        "quota_source": "kueue",
    }
    assert from_json(ChargebackData, written) == replace(data, jobs=JobTable())


_VALUE = st.one_of(st.text(max_size=12), st.integers(-(10**6), 10**6))


@st.composite
def _any_note(draw: st.DrawFn) -> Note:
    code = draw(st.sampled_from(sorted(ENGLISH)))
    names = {n for _, n, _, _ in string.Formatter().parse(ENGLISH[code]) if n}
    return note(code, **{name: draw(_VALUE) for name in sorted(names)})


@given(notes=st.lists(_any_note(), max_size=4))
def test_any_coded_note_survives_json_and_is_worded_the_same(notes: list[Note]) -> None:
    read = from_json(_Noted, json.loads(json.dumps(to_json(_Noted(tuple(notes))))))

    assert read.notes == tuple(notes)
    for before, after in zip(notes, read.notes, strict=True):
        twins = {(n.code, tuple(n.values.items())) for n in notes if n == before}
        if len(twins) == 1:
            assert worded(after, "zh") == worded(before, "zh")
        else:  # two notes wrote the same text: read back as that text, never misworded
            assert type(after) is str


def test_a_text_two_notes_share_is_read_back_as_text() -> None:
    offer = note("offer", provider="assumption", instance="x", plan="y")
    assumption = note("assumption_in_set", name="x", set="y")

    read = from_json(_Noted, to_json(_Noted((offer, assumption))))

    assert offer == assumption
    assert [type(n) for n in read.notes] == [str, str]
