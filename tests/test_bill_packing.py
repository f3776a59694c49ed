"""Kept cloud bills are packed into typed arrays (`planner.service.bill_packing`, issue 33): a
bill unpacks to itself to the bit, a kept entry holds no per-job objects, and points priced
with packed bills equal fresh ones on instances of each job's own (the node pool's case is
`tests/test_sweep.py::test_kept_cloud_bills_price_points_as_fresh_bills_to_the_bit`)."""

import pickle
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.core.file_access import LOCAL_FILES
from planner.cost.cloud import CloudBill, JobPrice
from planner.service import tco_rent
from planner.service.bill_packing import pack_bill, pack_pool, unpack_bill, unpack_pool
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep_keys import apply
from planner.service.sweep_point import PointResult, price_point
from planner.service.sweep_run import Sweep
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_rent import bills_kept
from planner.store import Connection, connect

ROOT = Path(__file__).resolve().parents[1]
TODAY = date(2026, 12, 1)

indices = st.integers(min_value=0, max_value=2**63 - 1)
# every double, NaN and -0.0 included: compared by their pickled bytes
doubles = st.floats(allow_nan=True, allow_infinity=True)
prices = st.builds(JobPrice, indices, indices, indices, doubles, doubles, doubles)


@given(st.lists(prices, max_size=40), doubles)
def test_a_bill_unpacks_to_itself_to_the_bit(jobs: list[JobPrice], total: float) -> None:
    bill = CloudBill(jobs, {3: "no SKU"}, total, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0)

    packed = pack_bill(bill)

    assert packed.bill.jobs == []  # the per-job prices live in the arrays only
    assert pickle.dumps(unpack_bill(packed)) == pickle.dumps(bill)


@pytest.fixture(scope="module")
def per_job(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Connection, Sweep]]:
    """The bundled sample (no hybrid, 8 A100 servers) renting each job instances of its own."""
    sample = load_tco_scenario(ROOT / "data" / "scenarios" / "sample-tco.yaml")
    trace = str(ROOT / "data" / "traces" / "sample.csv")
    cloud = tuple(c.model_copy(update={"packing": "per-job"}) for c in sample.cloud)
    update = {"hybrid": None, "trace": trace, "cloud": cloud}
    scenario = apply(sample, (("servers", 8),)).model_copy(update=update)
    with connect(tmp_path_factory.mktemp("packing") / "planner.duckdb") as con:
        trace_id = resolve_trace(con, trace, files=LOCAL_FILES)
        yield con, Sweep(scenario, load_jobs(con, trace_id), trace_id, TODAY)


def test_packed_per_job_bills_price_points_as_fresh_bills_to_the_bit(
    per_job: tuple[Connection, Sweep],
) -> None:
    con, sweep = per_job
    plain = (("servers", 2),)
    committed = (("servers", 3), ("cloud[0].committed_gpus", 16))

    def priced(point: tuple) -> PointResult:  # type: ignore[type-arg]
        return price_point(con, sweep.scenario, sweep.jobs, point, sweep.today)

    fresh = [priced(plain), priced(committed)]
    with bills_kept():
        kept = [priced(plain), priced(committed), priced(plain), priced(committed)]
        entries = list(tco_rent._BILLS.kept.values())  # type: ignore[union-attr]
        sums = [key[0] for key in tco_rent._BILLS.sums]  # type: ignore[union-attr]

    # per job, one bill for every point: the commitment is kept beside it, packed too; each
    # point unpacks new objects, yet each bill's hours are summed once (by the packed bill)
    assert len(entries) == 1
    assert sorted(sums) == ["demanded", "rented", "rented"]
    assert entries[0].bill.bill.jobs == []
    assert [c.bill.jobs for c in entries[0].committed.values()] == [[]]
    assert len(entries[0].bill.cost) == len(sweep.jobs)  # every sample job is billed
    for a, b in zip([*fresh, *fresh], kept, strict=True):
        assert pickle.dumps(a) == pickle.dumps(b)  # floats by their bytes
        assert a.inputs == b.inputs
    assert kept[1].option("AWS H100 on-demand") != kept[0].option("AWS H100 on-demand")


def _kept_pool_bill(con: Connection, sweep: Sweep) -> Any:
    """The one bill kept after pricing a point with every cloud option on a node pool."""
    pooled = tuple(c.model_copy(update={"packing": "pool"}) for c in sweep.scenario.cloud)
    scenario = sweep.scenario.model_copy(update={"cloud": pooled})
    with bills_kept():
        price_point(con, scenario, sweep.jobs, (("servers", 2),), sweep.today)
        (entry,) = tco_rent._BILLS.kept.values()  # type: ignore[union-attr]
    return entry


def test_a_kept_node_pool_bill_holds_no_per_job_objects(
    per_job: tuple[Connection, Sweep],
) -> None:
    entry = _kept_pool_bill(*per_job)

    assert entry.pool is not None
    priced = entry.pool.priced
    assert (priced.bill.jobs, priced.pool.waits.jobs, priced.pool.waits.cap_s) == ([], (), ())
    assert len(entry.pool.jobs) == len(entry.pool.bill.cost) > 0


def test_an_unpacked_node_pool_bill_reads_its_waits_from_the_packed_arrays(
    per_job: tuple[Connection, Sweep],
) -> None:
    """Unpacked, a kept pool's per-job waits are the packed arrays themselves (no tuple and
    no float per job at each point: issue 33), with the fresh bill's values and statistics."""
    entry = _kept_pool_bill(*per_job)
    assert entry.pool is not None
    unpacked = unpack_pool(entry.pool).pool.waits
    again = pack_pool(unpack_pool(entry.pool))

    assert unpacked.jobs is entry.pool.jobs
    assert unpacked.cap_s is entry.pool.cap_s
    assert unpacked.provisioning_s is entry.pool.provisioning_s
    assert unpacked.total == entry.pool.priced.pool.waits.total
    assert (again.jobs, again.cap_s, again.provisioning_s) == (
        entry.pool.jobs,
        entry.pool.cap_s,
        entry.pool.provisioning_s,
    )
