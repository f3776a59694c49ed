"""An owned cluster is credited only the work it did within the trace's window (first submit
to last submit + run time, what the cloud is billed over); the backlog it works off after is
`carried` in the ledger, so every option still prices the same demand. Hand-computed cases,
a regression against the old whole-job figures when nothing is late, hypothesis properties
and the real openb pod list."""

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.core.config import NodeSpec
from planner.core.file_access import LOCAL_FILES
from planner.core.model import Job
from planner.cost.baremetal import HOURS_PER_MONTH
from planner.cost.chargeback_usage import RAN, served, team_hours
from planner.cost.ledger import Balance
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.tco import OptionReport
from planner.engine import simulate
from planner.engine.metrics import run_share_in_window, useful_gpu_hours
from planner.engine.policy import Policy
from planner.report.csv_tidy import write_jobs_csv
from planner.service.tco_run import run_tco, tco_of_jobs
from planner.service.tco_window import window
from planner.store import open_store
from tests.conftest import ingest
from tests.test_ledger import jobs_strategy
from tests.test_preemption import BORROWERS, TWO_NODES, by_id, setup
from tests.test_scope import CLOUD, SERVER

TODAY = date(2026, 6, 1)
H = 3600.0


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    con = open_store(Path(tmp_path_factory.mktemp("window")) / "planner.duckdb")
    yield con
    con.close()


def _scenario(servers: int = 1, **fields: Any) -> TcoScenario:
    data = {
        "horizons_years": [1],
        "self_hosted": [SERVER | {"servers": servers}],
        "cloud": [CLOUD],
        "overrides": {"lead_time_months": 0},
    } | fields
    return TcoScenario.model_validate(data)


def _options(report: TcoReport) -> dict[str, OptionReport]:
    return {o.name: o for o in report.horizons[0].options}


def _gpu_ledger(option: OptionReport) -> Balance:
    assert option.ledger is not None
    return option.ledger.gpu_hours


def _job(job_id: str, submit_h: float, hours: float, gpus: float = 8, team: str = "") -> Job:
    return Job(job_id, submit_h * H, hours * H, gpus=gpus, gpu_types=("A100",), queue=team)


# Twice what one 8-GPU server can do in the window: a (0 h, 3 h), b (0 h, 2 h), c (1 h, 3 h),
# 8 GPUs each: the window is 0-4 h (c ends at 4 h in the cloud), 32 GPU-h of room for 64.
# FIFO on the server: a 0-3 h, b 3-5 h (1 h of it inside), c 5-8 h.
OVERLOADED = [_job("a", 0, 3, team="x"), _job("b", 0, 2, team="y"), _job("c", 1, 3, team="z")]


def test_an_overloaded_server_is_credited_its_gpus_times_the_window_and_carries_the_rest(
    book: duckdb.DuckDBPyConnection,
) -> None:
    report = tco_of_jobs(book, _scenario(), OVERLOADED, today=TODAY)

    scale = HOURS_PER_MONTH / 4  # a 4-hour window, 182.5 of them a month
    # served within the window: a 24 + b 8 = 32 GPU-h = 8 GPUs x 4 h, exactly
    assert report.useful_gpu_hours_per_month == pytest.approx(8 * 4 * scale, rel=1e-12)
    options = _options(report)
    own, rent = _gpu_ledger(options["self-hosted"]), _gpu_ledger(options["rent"])
    months = 12
    assert own.demanded == pytest.approx(64 * scale * months, rel=1e-12)
    assert own.owned == pytest.approx(32 * scale * months, rel=1e-12)
    # carried: b's hour after the window (8) and all of c (24)
    assert own.unserved["carried"] == pytest.approx(32 * scale * months, rel=1e-12)
    assert own.imbalance == pytest.approx(0.0, abs=1e-9)
    assert rent.demanded == own.demanded
    assert rent.cloud["rented"] == pytest.approx(own.demanded, rel=1e-12)
    # the owned option is credited the work it did in the window; the 32 GPU-hours carried
    # are bought elsewhere (equal service), so its cost per useful GPU-hour is over all 64
    mine = options["self-hosted"]
    assert mine.useful_gpu_hours == pytest.approx(32 * scale * months, rel=1e-12)
    assert mine.served_elsewhere_gpu_hours == pytest.approx(32 * scale * months, rel=1e-12)
    assert mine.served_share == pytest.approx(0.5, rel=1e-12)
    assert mine.cost_per_useful_gpu_hour == pytest.approx(mine.total / (64 * scale * months))
    # the chargeback counts the same hours: x all of a, y b's first hour, z nothing yet
    assert report.chargeback is not None
    usage = report.chargeback.usage["self-hosted"]
    assert usage == pytest.approx({"x": 24 * scale, "y": 8 * scale, "z": 0.0})
    assert report.chargeback.usage["rent"] == pytest.approx(
        {"x": 24 * scale, "y": 16 * scale, "z": 24 * scale}
    )
    assert any("were still waiting or running" in n for n in report.notes), report.notes
    # the per-job table says each job's part, so a team's hours can be redone by hand
    table = report.chargeback.jobs
    assert table.gpu_hours == (24.0, 16.0, 24.0)
    assert table.gpu_hours_in_window == (24.0, 8.0, 0.0)
    lines = write_jobs_csv([("s", report)]).decode().splitlines()
    assert lines[0].split(",")[8] == "gpu_hours_in_window"
    assert [line.split(",")[8] for line in lines[1:]] == ["24.0", "8.0", "0.0"]


def test_the_allocation_by_hour_leaves_out_the_backlog_worked_off_after_the_window(
    book: duckdb.DuckDBPyConnection,
) -> None:
    # a (8 GPUs) fills the server for the 2-hour window; b (4 GPUs) runs 2-4 h, after it:
    # counted over the replay the allocation would be (1 + 1 + 0.5 + 0.5) / 4 in those hours
    jobs = [_job("a", 0, 2), _job("b", 0, 2, gpus=4)]

    report = tco_of_jobs(book, _scenario(), jobs, today=TODAY)

    assert report.allocation == pytest.approx(1.0)
    served_h = 16.0  # 8 GPUs x 2 h; b's 8 GPU-h are carried
    assert report.useful_gpu_hours_per_month == pytest.approx(served_h * HOURS_PER_MONTH / 2)
    own = _gpu_ledger(_options(report)["self-hosted"])
    assert own.unserved["carried"] == pytest.approx(8 * HOURS_PER_MONTH / 2 * 12)


def test_the_allocation_by_hour_leaves_out_the_idle_hours_before_the_first_submission(
    book: duckdb.DuckDBPyConnection,
) -> None:
    # the trace's clock starts at 0, its one GPU job at 10 h: the window is 10-12 h, all busy
    # (counted from 0, hours 0-9 would be idle: allocation 4/24)
    report = tco_of_jobs(book, _scenario(), [_job("late", 10, 2)], today=TODAY)

    assert report.allocation == pytest.approx(1.0)
    assert report.useful_gpu_hours_per_month == pytest.approx(8 * HOURS_PER_MONTH)


def test_a_server_that_keeps_up_gives_the_same_figures_as_counting_whole_jobs(
    book: duckdb.DuckDBPyConnection,
) -> None:
    # no job waits: each runs at its submission, inside the window, as the cloud runs it
    jobs = [_job(f"j{k}", k, 1.5, gpus=2, team=f"t{k % 2}") for k in range(6)]
    scenario = _scenario(hybrid={"burst_after_s": 600, "servers": {"A100": 1}})

    report = tco_of_jobs(book, scenario, jobs, today=TODAY)

    # the figures before the window rule, computed the old way, bit for bit
    result = simulate(jobs, [NodeSpec("a100-0", "A100", 8, 0.0, 0.0)], Policy())
    scale = HOURS_PER_MONTH / 6.5  # first submit 0 h, last end 5 + 1.5 h
    whole = useful_gpu_hours(result, served=("completed", "burst")) * scale
    assert report.useful_gpu_hours_per_month == whole
    assert report.chargeback is not None
    assert report.chargeback.usage["self-hosted"] == team_hours(served(result, RAN), scale)
    for option in _options(report).values():
        ledger = _gpu_ledger(option)
        assert ledger.unserved["carried"] == 0.0
        assert ledger.owned + sum(ledger.cloud.values()) == pytest.approx(
            ledger.demanded, rel=1e-12
        )
    assert not any("were still waiting or running" in n for n in report.notes)
    assert not any("useful GPU-hours differ" in n for n in report.notes)


def test_a_preempted_job_counts_its_runs_inside_the_window_pro_rata() -> None:
    # b1 ran 0-30 s, was evicted, and ran again 80-185 s: 135 s on the GPUs in all
    result = simulate(
        BORROWERS,
        [NodeSpec(*node) for node in TWO_NODES],
        Policy(queues=setup({"reclaim_within_cohort": "Any"}), restart_overhead_s=5),
    )
    ix = by_id(result)

    shares = run_share_in_window(result, 0.0, 100.0)

    assert shares[ix["b1"]] == pytest.approx((30 + 20) / 135)
    assert shares[ix["a1"]] == 1.0  # 30-80 s: wholly inside
    assert shares[ix["b2"]] == 1.0  # 0-100 s: the window's edge is inside
    assert run_share_in_window(result, 200.0, 300.0) == [0.0, 0.0, 0.0]


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    jobs=jobs_strategy,
    servers=st.integers(1, 3),
    kept=st.integers(1, 3),
    lead=st.integers(0, 3),
    burst_h=st.sampled_from([0.5, 4.0]),
)
def test_served_within_the_window_never_exceeds_the_gpus_and_every_ledger_balances(
    book: duckdb.DuckDBPyConnection,
    *,
    jobs: list[Job],
    servers: int,
    kept: int,
    lead: int,
    burst_h: float,
) -> None:
    kept = min(kept, servers)
    scenario = _scenario(
        servers,
        hybrid={"burst_after_s": burst_h * H, "servers": {"A100": kept}},
        overrides={"lead_time_months": lead},
    )

    report = tco_of_jobs(book, scenario, jobs, today=TODAY)

    months, bound = 12, HOURS_PER_MONTH * (1 + 1e-12)
    assert report.useful_gpu_hours_per_month <= 8 * servers * bound
    options = _options(report)
    assert set(options) == {"self-hosted", "hybrid", "rent"}
    demanded = _gpu_ledger(options["rent"]).demanded
    for name, option in options.items():
        ledger = _gpu_ledger(option)
        accounted = ledger.owned + sum(ledger.cloud.values()) + sum(ledger.unserved.values())
        assert ledger.demanded == pytest.approx(demanded, rel=1e-12), name
        assert accounted == pytest.approx(ledger.demanded, rel=1e-9), name
    for name, gpus in (("self-hosted", 8 * servers), ("hybrid", 8 * kept)):
        ledger = _gpu_ledger(options[name])
        assert ledger.owned <= gpus * (months - lead) * bound, name  # served on prem
    assert _gpu_ledger(options["rent"]).unserved["carried"] == 0.0
    # the per-job table's hours in the window add up to each team's chargeback hours
    assert report.chargeback is not None
    table, scale = report.chargeback.jobs, window(jobs).scale
    for name, column in (
        ("self-hosted", table.gpu_hours_in_window),
        ("hybrid", table.hybrid_gpu_hours_in_window),
    ):
        by_team: dict[str, float] = {}
        for team, hours in zip(table.team, column, strict=True):
            by_team[team] = by_team.get(team, 0.0) + (hours or 0.0) * scale
        usage = report.chargeback.usage[name]
        assert {t: v for t, v in by_team.items() if v} == pytest.approx(
            {t: v for t, v in usage.items() if v}, rel=1e-12
        ), name


def test_the_openb_pods_on_one_server_are_credited_at_most_its_gpus(
    shared_traces: Path, con: duckdb.DuckDBPyConnection
) -> None:
    # about 10,500 GPU-h a month of pods (14 GPUs busy on average) on one 8-GPU server:
    # counted whole, the server would have done more than its 5,840 GPU-hours a month
    path = shared_traces / "alibaba-openb-2023" / "openb_pod_list_default.csv.gz"
    trace = str(ingest(con, path).trace_id)

    report = run_tco(con, _scenario(1), files=LOCAL_FILES, trace=trace, today=TODAY)

    options = _options(report)
    own, rent = _gpu_ledger(options["self-hosted"]), _gpu_ledger(options["rent"])
    assert report.useful_gpu_hours_per_month <= 8 * HOURS_PER_MONTH * (1 + 1e-12)
    assert rent.cloud["rented"] / 12 > 8 * HOURS_PER_MONTH  # the demand is beyond the server
    assert own.unserved["carried"] > 0
    assert own.demanded == pytest.approx(rent.demanded, rel=1e-12)
    accounted = own.owned + sum(own.cloud.values()) + sum(own.unserved.values())
    assert accounted == pytest.approx(own.demanded, rel=1e-9)
    assert own.owned == pytest.approx(report.useful_gpu_hours_per_month * 12, rel=1e-9)
