"""The floor a sizing answer cannot go below: the servers of one pool the largest gang needs.

A gang's pods start together and a pod never spans servers, so a job of P pods of g whole
GPUs needs ceil(P / (G // g)) servers of G GPUs (a pod of 1.5 GPUs takes 2, as the replay
rounds it): no count below that runs it, whatever the wait target. Pods the scenario's
other pools can take (held as the scenario has them, if the job accepts their GPU type)
need none of the pool. The pool's floor is the most any job needs.

It counts GPUs only, so it is a lower bound the replay can only raise (CPU or memory per
server may need more). A job with a deadline (`withdraw_after_s`: withdrawn in the history)
leaves when it cannot start and sets no floor; nor do shared GPUs (fractional pods, MIG
profiles), nor any job of a scenario that shares GPUs (`scheduling.sharing`: time-slicing
packs more pods on a GPU).
Pure arithmetic on the jobs and the scenario: no replay.
"""

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass

from planner.core.model import Job
from planner.cost.scenario import OwnedPoolSpec, TcoScenario
from planner.engine.sharing import find_profile


@dataclass(frozen=True, slots=True)
class Gang:
    """A job as the floor sees it."""

    job_id: str
    pods: int
    gpus: float
    """In all: pods x GPUs per pod."""
    servers: int
    """Servers of the pool it needs, the other pools held."""
    gpu_hours: float


@dataclass(frozen=True, slots=True)
class Floor:
    gpu: str
    gpus_per_server: int
    servers: int
    """The most servers any job needs (0: no job needs more than none)."""
    largest: tuple[Gang, ...]
    """The jobs needing `servers`, largest first (by GPUs, then trace order)."""
    needs: tuple[int, ...]
    """What every job needing two servers or more needs, ascending."""

    def jobs_above(self, servers: int) -> int:
        """Jobs needing more than `servers` servers (for `servers` >= 1)."""
        return len(self.needs) - bisect.bisect_right(self.needs, max(servers, 1))

    @property
    def job(self) -> Gang | None:
        """The job that sets the floor (None without one)."""
        return self.largest[0] if self.largest else None


def floor_of(scenario: TcoScenario, jobs: Sequence[Job], pool: int) -> Floor:
    """The floor the jobs set on self-hosted pool number `pool`."""
    spec = scenario.self_hosted[pool]
    others = [p for k, p in enumerate(scenario.self_hosted) if k != pool]
    shares = scenario.scheduling is not None and bool(scenario.scheduling.sharing)
    gangs = [] if shares else _gangs(jobs, spec, others)
    most = max((g.servers for g in gangs), default=0)
    largest = sorted((g for g in gangs if g.servers == most), key=lambda g: -g.gpus)
    needs = tuple(sorted(g.servers for g in gangs if g.servers >= 2))
    return Floor(spec.gpu, spec.gpus_per_server, most, tuple(largest), needs)


def _gangs(jobs: Sequence[Job], spec: OwnedPoolSpec, others: Sequence[OwnedPoolSpec]) -> list[Gang]:
    gangs = []
    for job in jobs:
        servers = servers_needed(job, spec, others)
        if servers:
            gangs.append(Gang(job.job_id, job.pods, job.total_gpus, servers, job.gpu_hours))
    return gangs


def servers_needed(job: Job, spec: OwnedPoolSpec, others: Sequence[OwnedPoolSpec]) -> int | None:
    """Servers of `spec`'s pool the job needs, its pods the other pools can hold taken
    there first; None when the pool cannot run it (not its GPU type, a pod larger than a
    server, a shared or no GPU, a deadline)."""
    per_server = _pods_per_server(job, spec)
    if not per_server or job.withdraw_after_s is not None:
        return None
    elsewhere = sum(p.servers * (_pods_per_server(job, p) or 0) for p in others)
    return max(0, math.ceil((job.pods - elsewhere) / per_server))


def _pods_per_server(job: Job, spec: OwnedPoolSpec) -> int | None:
    """Whole-GPU pods of the job one server of the pool holds (None: not a whole-GPU pod
    this pool's GPU type may run)."""
    if job.gpus < 1 or any(find_profile(t) is not None for t in job.gpu_types):
        return None
    if job.gpu_types and spec.gpu.upper() not in {t.upper() for t in job.gpu_types}:
        return None
    return spec.gpus_per_server // math.ceil(job.gpus) or None
