"""A sweep's cloud bills, billed once in the parent and kept by every worker.

Each worker of a local pool used to bill the cloud options afresh at its first point (the
bills are then kept, `tco_rent.bills_kept`): at 1,000,000 jobs a node pool's first billing
is about 20 CPU s and +640 MB, a worker's peak (issue 33). The parent bills the base
scenario's jobs once before the workers start, writes the kept bills (packed: typed arrays)
into the pool's folder, and each worker keeps them for its own jobs, which are equal to the
parent's in every field a bill reads (`sweep_ship`). A point whose cloud options or scope
differ from the base scenario's finds no shipped bill and bills afresh, as before: the
figures never depend on where a bill was made.
"""

import hashlib
import pickle
from array import array
from datetime import date
from operator import attrgetter
from pathlib import Path

from planner.core.model import Job
from planner.cost.scenario import TcoScenario
from planner.cost.scope import scoped_jobs
from planner.service.tco_inputs import load_inputs
from planner.service.tco_rent import ShippedBills, demand_of, keep_shipped, kept_bills, rent_all
from planner.service.tco_window import window
from planner.store import Connection


def write_bills(
    con: Connection, scenario: TcoScenario, jobs: list[Job], today: date, path: Path
) -> None:
    """Bill the base `scenario`'s `jobs` (inside `bills_kept()`) and write the kept bills."""
    shipped = ShippedBills([], None)
    scoped: list[Job] = []
    if scenario.growth is None and scenario.cloud and scenario.self_hosted and jobs:
        scoped = scoped_jobs(scenario, jobs).jobs  # as `tco_run` scopes a point's jobs
        inputs, _ = load_inputs(con, scenario, today)
        scale = window(scoped).scale
        rent_all(con, scenario, inputs, scoped, scale)
        demand_of(scoped)  # summed once, kept beside the bills
        shipped = kept_bills(scoped)
    with path.open("wb") as out:
        pickle.dump((fingerprint(scoped), shipped), out, protocol=5)


def read_bills(path: Path, scenario: TcoScenario, jobs: list[Job]) -> bool:
    """Keep the bills `write_bills` wrote as bills of this process's `jobs`, inside
    `bills_kept()`, if they equal the parent's in every field a bill reads; whether kept."""
    with path.open("rb") as read:
        written, shipped = pickle.load(read)  # the parent's file
    if not shipped.bills:
        return False
    scoped = scoped_jobs(scenario, jobs).jobs
    if fingerprint(scoped) != written:
        return False  # other jobs: each point bills them afresh
    keep_shipped(shipped, scoped)
    return True


def fingerprint(jobs: list[Job]) -> str:
    """A hash of every field of `jobs` a cloud bill or the sums kept beside it read, in order
    (`queue`: the rented hours by team, `chargeback_usage.team_hours`)."""
    digest = hashlib.blake2b(digest_size=16)
    for name in ("submit_s", "duration_s", "gpus", "cpu", "mem_gib"):
        digest.update(array("d", map(attrgetter(name), jobs)).tobytes())
    digest.update(array("q", (job.pods for job in jobs)).tobytes())
    for name in ("job_id", "status", "queue"):
        digest.update("\x1f".join(map(attrgetter(name), jobs)).encode("utf-8", "surrogatepass"))
    digest.update(repr([job.gpu_types for job in jobs]).encode())
    return digest.hexdigest()
