"""Fit the start latency from a history's observed starts.

Per pod-size class (`planner.engine.latency.SizeClasses`: GPUs per pod x memory band), the
latency is the empirical distribution of the observed waits of jobs the replay could start
at once (uncontended: whatever they waited was not for capacity the history shows), and the
never-placed share is the share of the class's jobs withdrawn without ever starting. Classes
with fewer than `MIN_JOBS` jobs borrow their GPU band's distribution, then everyone's.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from planner.core.model import Job
from planner.engine.latency import SizeClasses, StartLatency, draw, quantile_at
from planner.twin.compare import observed_wait
from planner.twin.report import LatencyClass

MIN_JOBS = 30
POINTS = 101  # quantiles kept per class: every percent
MEM_BANDS = 4
MEM_BAND_CHOICES = (2, 3, 4, 6)


@dataclass(frozen=True, slots=True)
class LatencyFit:
    latency: StartLatency
    never_placed: Mapping[str, float]
    """Class label, GPU band or '' (everyone) -> share withdrawn without ever starting."""
    patience: Mapping[str, tuple[float, ...]]
    """Same keys -> quantiles of how long those jobs' users waited before deleting them."""
    classes: tuple[LatencyClass, ...]

    def share_for(self, job: Job) -> tuple[float, tuple[float, ...]]:
        return self.share_for_label(self.latency.classes.label(job))

    def share_for_label(self, label: str) -> tuple[float, tuple[float, ...]]:
        for key in (label, label.partition("/")[0], ""):
            if key in self.never_placed:
                return self.never_placed[key], self.patience.get(key, self.patience[""])
        raise AssertionError("the fit always has an everyone entry")


def size_classes(jobs: Sequence[Job], mem_bands: int = MEM_BANDS) -> SizeClasses:
    """Band edges from the fit window: shares split at their median, memory at quartiles."""
    shares = [j.gpus for j in jobs if 0 < j.gpus < 1]
    split = float(np.median(shares)) if shares else 0.5
    mems = [j.mem_gib for j in jobs]
    edges: tuple[float, ...] = ()
    if mems:
        cut = np.quantile(mems, np.linspace(0, 1, mem_bands + 1)[1:-1])
        # an edge at the smallest value would leave its band empty
        edges = tuple(sorted({round(float(e), 3) for e in cut if e > min(mems)}))
    return SizeClasses(share_split=round(split, 3), mem_edges_gib=edges)


def fit_latency(
    fit_jobs: Sequence[Job], uncontended: set[str], seed: int = 0, mem_bands: int = MEM_BANDS
) -> LatencyFit:
    """Latency tables from `fit_jobs` (the fit window, not censored on the left), using the
    observed waits of the jobs in `uncontended` only, memory cut in `mem_bands` bands."""
    classes = size_classes(fit_jobs, mem_bands)
    waits: dict[str, list[float]] = {"": []}
    counts: dict[str, int] = {"": 0}
    withdrawn: dict[str, list[float]] = {"": []}
    for job in fit_jobs:
        label = classes.label(job)
        keys = (label, label.partition("/")[0], "")
        wait = observed_wait(job)
        for key in keys:
            counts[key] = counts.get(key, 0) + 1
            if wait is not None and job.job_id in uncontended:
                waits.setdefault(key, []).append(wait)
            if job.status == "withdrawn":
                withdrawn.setdefault(key, []).append(job.withdraw_after_s or 0.0)
    if not waits[""]:
        waits[""] = [0.0]  # no uncontended start to learn from: no latency
    tables = {k: _table(v) for k, v in waits.items() if k and len(v) >= MIN_JOBS}
    latency = StartLatency(classes, tables, _table(waits[""]), seed=seed)
    never = {k: len(withdrawn.get(k, ())) / n for k, n in counts.items() if n >= MIN_JOBS or not k}
    patience = {k: _table(v) for k, v in withdrawn.items() if len(v) >= MIN_JOBS or (not k and v)}
    if "" not in patience:
        patience[""] = (0.0,)
    return LatencyFit(latency, never, patience, _describe(classes, tables, waits, never, counts))


def _table(values: Sequence[float]) -> tuple[float, ...]:
    points = np.quantile(values, np.linspace(0, 1, POINTS))
    return tuple(round(float(v), 3) for v in np.maximum.accumulate(points))


def _describe(
    classes: SizeClasses,
    tables: Mapping[str, tuple[float, ...]],
    waits: Mapping[str, list[float]],
    never: Mapping[str, float],
    counts: Mapping[str, int],
) -> tuple[LatencyClass, ...]:
    rows = []
    for label in sorted(k for k in tables if "/" in k):
        table = tables[label]
        rows.append(
            LatencyClass(
                label=label,
                description=classes.describe(label),
                jobs=counts[label],
                p50_s=quantile_at(table, 0.5),
                p90_s=quantile_at(table, 0.9),
                never_placed_share=never.get(label, never[""]),
            )
        )
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class Draws:
    """Each job's own uniform numbers (`planner.engine.latency.draw`) for one seed. They
    depend on the job's id and the seed only, never on a fit, so a check draws them once for
    all its twin replays instead of hashing every id again in each."""

    seed: int
    never_placed: Mapping[str, float]
    latency: Mapping[str, float]

    @classmethod
    def of(cls, jobs: Sequence[Job], seed: int) -> "Draws":
        ids = [job.job_id for job in jobs]
        return cls(
            seed,
            {i: draw(i, seed, "never-placed") for i in ids},
            {i: draw(i, seed) for i in ids},
        )


def twin_jobs(
    jobs: Sequence[Job], fit: LatencyFit, draws: Draws | None = None
) -> tuple[list[Job], StartLatency]:
    """The jobs and latency of a twin replay: each job draws whether it ever gets room on the
    history's cluster. A never-placed job waits out its user's patience (observed, or drawn
    from its class's) and is withdrawn; every other job starts, deadline or not, after its
    class's latency. With `draws` (of the fit's seed) every job's latency is worked out here,
    from its class's table and its drawn number as the engine would, and handed over per job."""
    seed = fit.latency.seed
    drawn = draws if draws is not None and draws.seed == seed else None
    out: list[Job] = []
    per_job: dict[str, float] = {}
    own: dict[str, float] = {}
    for job in jobs:
        label = fit.latency.classes.label(job)
        if drawn is not None:
            own[job.job_id] = _latency_s(fit.latency, label, drawn.latency[job.job_id])
        if job.running_at_start:
            out.append(job)
            continue
        share, patience = fit.share_for_label(label)
        u = drawn.never_placed[job.job_id] if drawn else draw(job.job_id, seed, "never-placed")
        if u < share:
            wait = job.withdraw_after_s
            if wait is None:
                wait = quantile_at(patience, draw(job.job_id, seed, "patience"))
            out.append(replace(job, withdraw_after_s=wait))
            per_job[job.job_id] = wait + 1.0
        else:
            out.append(replace(job, withdraw_after_s=None) if job.withdraw_after_s else job)
    return out, replace(fit.latency, per_job=own | per_job)


def _latency_s(latency: StartLatency, label: str, u: float) -> float:
    """`StartLatency.latency_s` of a job of class `label` whose drawn number is `u`."""
    if latency.fixed_s is not None:
        return latency.fixed_s
    table = latency.quantiles.get(label)
    if table is None:
        table = latency.quantiles.get(label.partition("/")[0], latency.fallback)
    return quantile_at(table, u)
