"""What binds a sizing answer: the wait target, or the floor the largest gang sets; and how
many servers meet the target without the few largest jobs.

The search (`sweep_search.smallest`) starts at the floor (`sweep_floor`) and prices no count
below it. When its answer is the floor, the floor may bind rather than the target. The few
largest jobs are then defined as the jobs needing the floor's count (no job needs more):
they are set aside and the rest is searched by the same search, from the rest's own floor,
on a sweep of its own (its points stored under the trace id and the jobs set aside, apart
from the whole trace's). The jobs set aside are listed with their GPU-hours, to be served
elsewhere (rented, or a hybrid's burst): no figure of the second answer includes them.

What binds:
- "floor": the answer is the floor, and the rest meets the target with fewer servers;
- "target": the answer is above the floor, or the rest needs as many servers;
- "none": no count up to the search's ceiling meets the target.
Only a self-hosted answer has a floor: a hybrid sends jobs too large for its servers to the
cloud.
"""

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from planner.cost.scope import scoped_jobs
from planner.service.sweep_floor import Floor, Gang, floor_of
from planner.service.sweep_keys import Point, apply, pool_of
from planner.service.sweep_point import PointResult
from planner.service.sweep_run import Sweep
from planner.service.sweep_search import Search

Binds = Literal["floor", "target", "none"]
SearchOn = Callable[[Sweep, int], Search]
"""Searches a sweep's jobs from a floor (the caller's target, workers, fixed keys and
progress bound in)."""


@dataclass(frozen=True, slots=True)
class Bound:
    floor: Floor
    binds: Binds
    aside: tuple[Gang, ...]
    """The jobs set aside for `rest` (the floor's); empty when the rest was not searched."""
    gpu_hours: float
    """GPU-hours of every job sized (the jobs set aside are a share of these)."""
    rest: Search | None = None
    """The search without the jobs set aside (None: not searched, the target binds)."""
    rest_floor: Floor | None = None
    """The floor of the jobs left: when it is the rest's answer, the next gang binds it."""

    @property
    def aside_gpu_hours(self) -> float:
        return sum(g.gpu_hours for g in self.aside)


Sized = tuple[Search, Bound | None]
"""A search and what binds its answer."""


def count_of(result: PointResult | None) -> int | None:
    """The server count a search point sized (its key comes first)."""
    return None if result is None else int(result.point[0][1])  # type: ignore[arg-type]


def sized(sweep: Sweep, key: str, option: str, search_on: SearchOn, fixed: Point = ()) -> Sized:
    """The search for `key`'s pool (from the floor for self-hosted), and what binds its
    answer (None for a hybrid)."""
    if option != "self-hosted":
        return search_on(sweep, 0), None
    scenario = apply(sweep.scenario, fixed)
    pool = pool_of(scenario, key)
    jobs = scoped_jobs(scenario, sweep.jobs).jobs
    floor = floor_of(scenario, jobs, pool)
    search = search_on(sweep, floor.servers)
    hours = sum(j.gpu_hours for j in jobs)
    answer = count_of(search.answer)
    binds: Binds = "none" if answer is None else "target"
    if floor.servers < 2 or (answer is not None and answer > floor.servers):
        return search, Bound(floor, binds, (), hours)  # the floor cannot bind
    rest = without(sweep, floor.largest)
    if not rest.jobs:
        return search, Bound(floor, binds, (), hours)
    rest_floor = floor_of(scenario, scoped_jobs(scenario, rest.jobs).jobs, pool)
    found = search_on(rest, rest_floor.servers)
    fewer = count_of(found.answer)
    if answer == floor.servers and fewer is not None and fewer < floor.servers:
        binds = "floor"
    return search, Bound(floor, binds, floor.largest, hours, found, rest_floor)


def without(sweep: Sweep, aside: tuple[Gang, ...]) -> Sweep:
    """The sweep without the jobs set aside, under a trace id of its own (so its stored
    points are apart from the whole trace's)."""
    ids = {g.job_id for g in aside}
    digest = hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()[:12]
    jobs = [j for j in sweep.jobs if j.job_id not in ids]
    trace_id = f"{sweep.trace_id} without {len(ids)} largest ({digest})"
    return Sweep(sweep.scenario, jobs, trace_id, sweep.today)
