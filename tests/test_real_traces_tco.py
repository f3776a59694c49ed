"""The real openb pod list priced end to end: the same demand on every side, a ledger that
balances, withdrawn and CPU-only pods where the rules put them, and a cloud bill equal to a
hand computation from the raw file, to the cent."""

import math
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

from planner.core.file_access import LOCAL_FILES
from planner.cost.baremetal import HOURS_PER_MONTH
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.tco import OptionReport
from planner.service.tco_run import run_tco
from planner.store import open_store
from tests.conftest import ingest

TODAY = date(2026, 6, 1)
PRICE = 2.0  # per GPU-hour, flat: a pod rents the whole GPUs it asks for (a share: one)
SERVER = {
    "gpu": "A100",
    "servers": 4,
    "gpus_per_server": 8,
    "price": 120_000,
    "idle_kw": 1.5,
    "load_kw": 5.5,
    "max_kw": 6.5,
}


# The pod list is read, imported and priced (default scenario) once for the module: every
# test checks the same report from its own side.
@pytest.fixture(scope="module")
def raw_pods(shared_traces: Path) -> pd.DataFrame:
    return pd.read_csv(shared_traces / "alibaba-openb-2023" / "openb_pod_list_default.csv.gz")


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = open_store(tmp_path_factory.mktemp("openb") / "planner.duckdb")
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def trace_id(shared_traces: Path, con: duckdb.DuckDBPyConnection) -> str:
    path = shared_traces / "alibaba-openb-2023" / "openb_pod_list_default.csv.gz"
    return str(ingest(con, path).trace_id)


@pytest.fixture(scope="module")
def report(con: duckdb.DuckDBPyConnection, trace_id: str) -> TcoReport:
    """The default scenario priced on the pod list."""
    return _report(con, trace_id)


def _scenario(**fields: Any) -> TcoScenario:
    data = {
        "horizons_years": [1],
        "self_hosted": [SERVER],
        "cloud": [
            {"name": "flat", "gpu": "A100", "price_per_gpu_hour": PRICE, "packing": "per-job"}
        ],
        "hybrid": {"burst_after_s": 3600, "servers": {"A100": 2}},
        "overrides": {"lead_time_months": 2, "fte_per_server": 0.05},
    } | fields
    return TcoScenario.model_validate(data)


def _ran_gpu_pods(raw: pd.DataFrame) -> pd.DataFrame:
    """GPU pods that ran (scheduled), with per-pod GPUs and run time, straight from the file."""
    ran = raw[raw["scheduled_time"].notna() & (raw["num_gpu"] > 0)].copy()
    ran["gpus"] = ran["num_gpu"] * ran["gpu_milli"] / 1000
    ran["run_s"] = ran["deletion_time"] - ran["scheduled_time"]
    return ran


def _span_hours(raw: pd.DataFrame) -> float:
    """The priced jobs' span: first submit to the last submit + run time (GPU pods, the
    withdrawn ones with no run time included)."""
    gpu = raw[raw["num_gpu"] > 0]
    run = (gpu["deletion_time"] - gpu["scheduled_time"]).fillna(0.0)
    return float((gpu["creation_time"] + run).max() - gpu["creation_time"].min()) / 3600


def _report(con: duckdb.DuckDBPyConnection, trace_id: str, **fields: Any) -> TcoReport:
    return run_tco(con, _scenario(**fields), files=LOCAL_FILES, trace=trace_id, today=TODAY)


def _options(report: TcoReport) -> dict[str, OptionReport]:
    return {o.name: o for o in report.horizons[0].options}


def test_the_cloud_bill_is_a_hand_computation_from_the_raw_file_to_the_cent(
    raw_pods: pd.DataFrame, report: TcoReport
) -> None:
    ran = _ran_gpu_pods(raw_pods)
    # one pod each; a share (<1 GPU) rents one GPU, n whole GPUs an n-GPU instance; billed
    # per second with a 60 s minimum
    rented = ran["gpus"].map(lambda g: 1.0 if g < 1 else math.ceil(g))
    billed_s = ran["run_s"].clip(lower=60).map(math.ceil)
    trace_bill = float((rented * billed_s / 3600 * PRICE).sum())

    flat = _options(report)["flat"]
    months = 12
    per_trace = flat.total * _span_hours(raw_pods) / (HOURS_PER_MONTH * months)
    assert per_trace == pytest.approx(trace_bill, abs=0.005)
    assert flat.ledger.cloud_per_job_sum == pytest.approx(flat.total, rel=1e-12)
    assert trace_bill == pytest.approx(119_230.41, abs=0.01)


def test_every_option_prices_the_same_openb_demand_and_the_ledger_balances(
    raw_pods: pd.DataFrame, report: TcoReport
) -> None:
    ran = _ran_gpu_pods(raw_pods)
    gpu_hours = float((ran["gpus"] * ran["run_s"]).sum()) / 3600  # useful: every pod that ran

    scale = HOURS_PER_MONTH * 12 / _span_hours(raw_pods)
    options = _options(report)
    assert set(options) == {"self-hosted", "hybrid", "flat"}
    for name, option in options.items():
        ledger = option.ledger.gpu_hours
        assert ledger.demanded == pytest.approx(gpu_hours * scale, rel=1e-9), name
        served = ledger.owned + sum(ledger.cloud.values())
        assert served + sum(ledger.unserved.values()) == pytest.approx(ledger.demanded, rel=1e-9), (
            name
        )
        assert option.ledger.cpu_hours is None  # scope gpu-jobs: CPU-only pods are out
    own = options["self-hosted"].ledger.gpu_hours
    assert own.cloud["bridge"] == pytest.approx(own.demanded * 2 / 12, rel=1e-9)
    cpu_only = raw_pods[raw_pods["num_gpu"] == 0]
    assert any(f"{len(cpu_only):,} CPU-only jobs" in note for note in report.notes), report.notes


def test_the_hybrid_pays_staff_for_the_servers_it_keeps_from_delivery(
    report: TcoReport,
) -> None:
    staff = {name: o.totals["staff"] for name, o in _options(report).items() if "staff" in o.totals}
    fte_cost = 180_000.0  # the reference set's US loaded cost per FTE-year
    in_service = 12 - 2  # months after the 2-month lead time
    assert staff["self-hosted"] == pytest.approx(4 * 0.05 * fte_cost / 12 * in_service)
    assert staff["hybrid"] == pytest.approx(2 * 0.05 * fte_cost / 12 * in_service)


def test_cpu_only_pods_never_change_the_gpu_bill(
    raw_pods: pd.DataFrame, con: duckdb.DuckDBPyConnection, report: TcoReport, tmp_path: Path
) -> None:
    gpu_only = tmp_path / "openb_gpu_pods.csv"
    raw_pods[raw_pods["num_gpu"] > 0].to_csv(gpu_only, index=False)
    without = str(ingest(con, gpu_only).trace_id)

    mixed = _options(report)["flat"]
    alone = _options(_report(con, without))["flat"]

    assert mixed.total == pytest.approx(alone.total, rel=1e-12)
    assert mixed.ledger == alone.ledger


def test_openb_on_a_node_pool_of_8_gpu_instances_packs_pods_and_still_balances(
    con: duckdb.DuckDBPyConnection, trace_id: str
) -> None:
    eight = {"provider": "AWS", "gpu": "A100", "instance": "p4d.24xlarge"}
    clouds = [{**eight, "name": "per-job", "packing": "per-job"}, {**eight, "name": "pool"}]
    report = _report(con, trace_id, cloud=clouds, hybrid=None)

    assert report.inputs is not None
    per_job, pool = (c.packing for c in report.inputs.clouds)
    assert per_job is not None
    assert pool is not None
    assert pool.held_gpu_hours == pytest.approx(per_job.held_gpu_hours, rel=1e-9)
    assert pool.overhead is not None
    assert per_job.overhead is not None
    assert 1.0 <= pool.overhead < per_job.overhead
    options = _options(report)
    assert options["pool"].total < options["per-job"].total
    for name in ("per-job", "pool"):
        ledger = options[name].ledger
        assert ledger.gpu_hours.imbalance == pytest.approx(
            0.0, abs=1e-6 * ledger.gpu_hours.demanded
        )
        assert ledger.cloud_per_job_sum == pytest.approx(options[name].total, rel=1e-9)
