"""A sweep's cloud bills made once in the parent and kept by its workers (`sweep_bills`).

The workers' jobs are other objects than the parent's (read from the shipped columns, without
their observed times): the shipped bills must be found for them, price every point as a fresh
bill does to the bit, and leave a worker nothing to bill at its first point.
"""

import pickle
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from planner.core.file_access import LOCAL_FILES
from planner.service import tco_rent
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep_bills import read_bills, write_bills
from planner.service.sweep_point import price_point
from planner.service.sweep_run import Sweep
from planner.service.sweep_ship import read_jobs, write_jobs
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_rent import ShippedBills, bills_kept
from planner.store import Connection, connect

ROOT = Path(__file__).resolve().parents[1]
TODAY = date(2026, 12, 1)


@pytest.fixture(scope="module", params=["per-job", "pool"])
def store(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Connection, Sweep]]:
    """The bundled sample (no hybrid) renting per job or on a node pool."""
    sample = load_tco_scenario(ROOT / "data" / "scenarios" / "sample-tco.yaml")
    trace = str(ROOT / "data" / "traces" / "sample.csv")
    cloud = tuple(c.model_copy(update={"packing": request.param}) for c in sample.cloud)
    scenario = sample.model_copy(update={"hybrid": None, "trace": trace, "cloud": cloud})
    with connect(tmp_path_factory.mktemp("bills") / "planner.duckdb") as con:
        trace_id = resolve_trace(con, trace, files=LOCAL_FILES)
        yield con, Sweep(scenario, load_jobs(con, trace_id), trace_id, TODAY)


def test_a_worker_keeps_the_parents_bills_and_prices_as_a_fresh_bill(
    store: tuple[Connection, Sweep], tmp_path: Path
) -> None:
    con, sweep = store
    with bills_kept():
        write_bills(con, sweep.scenario, sweep.jobs, sweep.today, tmp_path / "bills.pickle")
        made = len(tco_rent._BILLS.kept or {})
    write_jobs(sweep.jobs, tmp_path)
    theirs = read_jobs(tmp_path, observed=False)  # as a worker holds them: other objects
    points = [(("servers", 4),), (("servers", 8),)]
    fresh = [price_point(con, sweep.scenario, sweep.jobs, p, sweep.today) for p in points]

    with bills_kept():
        assert read_bills(tmp_path / "bills.pickle", sweep.scenario, theirs)
        kept = dict(tco_rent._BILLS.kept or {})
        sums = dict(tco_rent._BILLS.sums or {})
        priced = [price_point(con, sweep.scenario, theirs, p, sweep.today) for p in points]
        after = dict(tco_rent._BILLS.kept or {})
        summed = dict(tco_rent._BILLS.sums or {})

    assert made == len(sweep.scenario.cloud) == len(kept) > 0
    assert after.keys() == kept.keys()  # every point found them: nothing billed afresh
    assert all(after[k] is kept[k] for k in kept)
    assert summed.keys() == sums.keys()  # and their sums: nothing summed afresh
    assert {k[0] for k in sums} == {"rented", "demanded"}
    for a, b in zip(priced, fresh, strict=True):
        assert pickle.dumps(a) == pickle.dumps(b)  # floats by their bytes


def test_other_jobs_keep_no_shipped_bill(store: tuple[Connection, Sweep], tmp_path: Path) -> None:
    """Bills are kept for jobs equal to the ones they were made for: others bill afresh."""
    con, sweep = store
    with bills_kept():
        write_bills(con, sweep.scenario, sweep.jobs, sweep.today, tmp_path / "bills.pickle")
    fewer = sweep.jobs[: len(sweep.jobs) // 2]
    moved = [replace(job, duration_s=job.duration_s + 1.0) for job in sweep.jobs]
    # the bills equal, but the rented hours by team kept beside them would not be
    regrouped = [replace(job, queue=f"{job.queue}-other") for job in sweep.jobs]

    for other in (fewer, moved, regrouped):
        with bills_kept():
            assert not read_bills(tmp_path / "bills.pickle", sweep.scenario, other)
            assert not tco_rent._BILLS.kept


def test_a_scenario_without_cloud_ships_no_bill(
    store: tuple[Connection, Sweep], tmp_path: Path
) -> None:
    con, sweep = store
    own = sweep.scenario.model_copy(update={"cloud": ()})
    with tempfile.TemporaryDirectory() as folder, bills_kept():
        path = Path(folder) / "bills.pickle"
        write_bills(con, own, sweep.jobs, sweep.today, path)
        assert not read_bills(path, own, sweep.jobs)
        assert pickle.loads(path.read_bytes())[1] == ShippedBills([], None)
