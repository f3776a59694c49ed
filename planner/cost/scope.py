"""Which jobs a TCO prices: the same jobs on every side, owned or rented.

`gpu-jobs` (the default) leaves CPU-only jobs (no GPUs) out of every option. `all-jobs` keeps
them where they have a home on both sides: in the cloud on CPU instances, and when owned on
the scenario's CPU servers (`cpu_servers`, the jobs are pinned to them) or on the GPU
servers' CPUs when every owned pool gives finite `cpu` and `mem_gib`. Without an owned home
they are left out of every option too, never priced on one side only.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

from planner.core.model import Job
from planner.cost.scenario import TcoScenario

CPU_POOL = "CPU"
"""The GPU type the owned CPU servers stand under in the replay."""


@dataclass(frozen=True, slots=True)
class LeftOut:
    """CPU-only jobs no option prices (scope gpu-jobs), and their CPU-hours."""

    cpu_only_jobs: int = 0
    cpu_hours: float = 0.0


@dataclass(frozen=True, slots=True)
class Scoped:
    """The jobs in scope and what was left out of every option."""

    jobs: list[Job]
    left_out_jobs: int = 0
    left_out_cpu_hours: float = 0.0
    why: str = ""

    def notes(self, scope: str) -> list[str]:
        if not self.left_out_jobs:
            return []
        jobs = "job" if self.left_out_jobs == 1 else "jobs"
        return [
            f"scope {scope}: {self.left_out_jobs:,} CPU-only {jobs} "
            f"({self.left_out_cpu_hours:,.1f} CPU-hours) are left out of every option "
            f"({self.why})"
        ]

    def left_out(self) -> LeftOut:
        """The report's `left_out`: CPU-only jobs no option prices, and their CPU-hours."""
        return LeftOut(self.left_out_jobs, self.left_out_cpu_hours)


def is_cpu_only(job: Job) -> bool:
    return job.total_gpus <= 0


def cpu_hours(job: Job) -> float:
    """CPU-hours of a job: its pods' cores for its run."""
    return job.pods * job.cpu * job.duration_s / 3600.0


def owned_cpu_home(scenario: TcoScenario) -> str | None:
    """Where CPU-only jobs run when owned: 'cpu_servers', 'gpu_servers' or None."""
    if scenario.cpu_servers is not None:
        return "cpu_servers"
    pools = scenario.self_hosted
    if pools and all(p.cpu > 0 and p.mem_gib > 0 for p in pools):
        return "gpu_servers"
    return None


def scoped_jobs(scenario: TcoScenario, jobs: Sequence[Job]) -> Scoped:
    """The jobs every option prices under the scenario's scope."""
    cpu_only = [j for j in jobs if is_cpu_only(j)]
    if not cpu_only:
        return Scoped(list(jobs))
    gpu = [j for j in jobs if not is_cpu_only(j)]
    hours = sum(cpu_hours(j) for j in cpu_only)
    if scenario.scope == "gpu-jobs":
        return Scoped(gpu, len(cpu_only), hours, "scope all-jobs prices them")
    home = owned_cpu_home(scenario) if scenario.self_hosted else "cloud only"
    if home is None:
        why = (
            "no owned home: give the self-hosted pools cpu and mem_gib, or cpu_servers, so they "
            "are priced on both sides"
        )
        return Scoped(gpu, len(cpu_only), hours, why)
    if home == "cpu_servers":
        return Scoped([replace(j, gpu_types=(CPU_POOL,)) if is_cpu_only(j) else j for j in jobs])
    return Scoped(list(jobs))
