"""The twin's tries, each a pure function of the check's fixed inputs, and a runner that does
the independent tries of one round at once, on the cores available.

A calibration (`planner.twin.calibrate`) tries capacities, memory-band counts and policies;
every try replays the whole history and scores one window. The tries of one round (the grid of
capacities, a refining round's two neighbours, the band counts, the policies, the final
calibrated and plain replays) do not depend on each other, so `Runner.map` runs them in worker
processes and hands back their results in the order asked: the search then makes the same
choices in the same order as it does one try at a time, and the report is the same to the bit
(`tests/test_twin_parallel.py`). The workers start from a fork server, as the sweep's do (the
app's threads stay in this process), and receive the check's inputs once.
"""

import math
import multiprocessing
import multiprocessing.pool
import os
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

import numpy as np

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.core.pools import end_pool
from planner.engine.loop import simulate
from planner.engine.policy import Policy
from planner.engine.result import ReplayResult
from planner.twin.compare import Outcome, quantiles
from planner.twin.latency_fit import Draws, LatencyFit, fit_latency, twin_jobs
from planner.twin.progress import Tally

PARALLEL_FROM_JOBS = 10_000
"""Histories this long run their tries in parallel by default: below it, starting the workers
(a second or two) costs more than it saves."""
PARALLEL_FROM_CORES = 4
"""On two cores shared with other work, two workers did not finish a 24,000-job check sooner
and cost a fifth more CPU (docs/twin.md): the check keeps to one process there."""
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


@dataclass(frozen=True, slots=True)
class Setting:
    """What every try of one check reads and none changes."""

    jobs: Sequence[Job]
    observed: Mapping[str, Outcome]
    window: tuple[float, float]
    """The fit window (submissions, start inclusive, end exclusive)."""
    fit_jobs: Sequence[Job]
    """The jobs submitted in the fit window, not censored on the left."""
    base: Policy
    seed: int
    draws: Draws | None = None
    """The jobs' drawn numbers for `seed`, drawn once for every twin replay."""


class Try(Protocol[R_co]):
    def run(self, setting: Setting, replayed: Callable[[], None]) -> R_co:
        """The try's result; `replayed` is called after each replay."""
        ...


@dataclass(frozen=True, slots=True)
class CapacityResult:
    unschedulable: int
    uncontended: frozenset[str]
    fit: LatencyFit | None
    """None: the try stopped after the contention replay (more jobs unschedulable)."""
    score: float


@dataclass(frozen=True, slots=True)
class CapacityTry:
    """A capacity: replay without latency to find the fit window's uncontended jobs, fit the
    latency on them, replay with it and score the fit window. The second replay is skipped
    when more jobs are unschedulable than `most_unschedulable` (the whole node list's)."""

    nodes: Sequence[NodeSpec]
    most_unschedulable: int | None

    def run(self, setting: Setting, replayed: Callable[[], None]) -> CapacityResult:
        contention = simulate(setting.jobs, self.nodes, setting.base)
        replayed()
        unschedulable = sum(s == "unschedulable" for s in contention.status)
        uncontended = frozenset(uncontended_jobs(contention, setting.window))
        if self.most_unschedulable is not None and unschedulable > self.most_unschedulable:
            return CapacityResult(unschedulable, uncontended, None, math.inf)
        fit = fit_latency(setting.fit_jobs, set(uncontended), setting.seed)
        outcomes = outcomes_of(twin_replay(setting, self.nodes, setting.base, fit))
        replayed()
        return CapacityResult(unschedulable, uncontended, fit, window_score(setting, outcomes))


@dataclass(frozen=True, slots=True)
class ReplayTry:
    """One replay of the whole history (with `fit`'s start latency when given); its outcomes
    per job id."""

    nodes: Sequence[NodeSpec]
    policy: Policy
    fit: LatencyFit | None = None

    def run(self, setting: Setting, replayed: Callable[[], None]) -> dict[str, Outcome]:
        if self.fit is None:
            result = simulate(setting.jobs, self.nodes, self.policy)
        else:
            result = twin_replay(setting, self.nodes, self.policy, self.fit)
        replayed()
        return outcomes_of(result)


@dataclass(frozen=True, slots=True)
class ScoredTry:
    """A replay scored on `window`, and (`order`) the Spearman agreement of its fit-window
    start order with the observed one: a worker sends back two numbers, not every outcome."""

    replay: ReplayTry
    window: tuple[float, float]
    order: bool = False

    def run(self, setting: Setting, replayed: Callable[[], None]) -> tuple[float, float | None]:
        outcomes = self.replay.run(setting, replayed)
        score = score_window(setting.jobs, setting.observed, outcomes, self.window)
        if not self.order:
            return score, None
        return score, start_order_agreement(setting.fit_jobs, setting.observed, outcomes)


class Runner:
    """Runs tries one at a time, or in `workers` processes started at the first `map`."""

    def __init__(self, setting: Setting, tally: Tally, workers: int = 1) -> None:
        self.setting, self.tally, self.workers = setting, tally, workers
        self.pool: multiprocessing.pool.Pool | None = None

    def map(self, tries: Sequence[Try[R]]) -> list[R]:
        """The tries' results in their order; the tally hears of each replay."""
        if self.workers <= 1 or len(tries) <= 1:
            return [one.run(self.setting, self.tally.replayed) for one in tries]
        pool = self._started()
        results: dict[int, R] = {}
        for index, result, replays in pool.imap_unordered(_run, enumerate(tries)):
            results[index] = result
            for _ in range(replays):
                self.tally.replayed()
        return [results[index] for index in range(len(tries))]

    def _started(self) -> multiprocessing.pool.Pool:
        if self.pool is None:
            # a fork server, not a fork: the app's threads (and DuckDB's) run in this process
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])
            self.pool = context.Pool(self.workers, _start_worker, (self.setting,))
        return self.pool

    def close(self, *, now: bool = False) -> None:
        """Stop the workers (`now`: without waiting, on an error or a cancelled check)."""
        end_pool(self.pool, now=now)
        self.pool = None


def default_workers(jobs: int) -> int:
    """The cores this process may use, from `PARALLEL_FROM_JOBS` jobs up on `PARALLEL_FROM_CORES`
    cores or more; else 1."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    if jobs < PARALLEL_FROM_JOBS or cores < PARALLEL_FROM_CORES:
        return 1
    return cores


def window_score(setting: Setting, replayed: Mapping[str, Outcome]) -> float:
    """The fit window's score (the score `planner.twin.calibrate` describes), from the
    waits and withdrawn counts alone: a try needs nothing else of the comparison."""
    return score_window(setting.jobs, setting.observed, replayed, setting.window)


def score_window(
    jobs: Sequence[Job],
    observed: Mapping[str, Outcome],
    replayed: Mapping[str, Outcome],
    window: tuple[float, float],
) -> float:
    """The sum over p50, p90 and p99 of |log((replayed + 1 s) / (observed + 1 s))| plus the
    same for the withdrawn count, over the jobs submitted in `window` (as `compare` counts
    them: not censored on the left, waits of the jobs that started)."""
    low, high = window
    chosen = [job for job in jobs if low <= job.submit_s < high and not job.running_at_start]
    sides = []
    for outcomes in (observed, replayed):
        waits = [
            max(start - job.submit_s, 0.0)
            for job in chosen
            if (start := outcomes[job.job_id].start_s) is not None
        ]
        sides.append(quantiles(waits))
    total = 0.0
    for name in ("p50", "p90", "p99"):
        o, r = getattr(sides[0], name), getattr(sides[1], name)
        if o is not None and r is not None:
            total += abs(math.log((r + 1.0) / (o + 1.0)))
    seen = sum(observed[j.job_id].withdrawn for j in chosen)
    withdrawn = sum(replayed[j.job_id].withdrawn for j in chosen)
    return total + abs(math.log((withdrawn + 1.0) / (seen + 1.0)))


def start_order_agreement(
    jobs: Sequence[Job], observed: Mapping[str, Outcome], replayed: Mapping[str, Outcome]
) -> float | None:
    """Spearman rank correlation of the observed and replayed start times of the jobs that
    started on both sides: 1 when the replay starts them in the observed order."""
    pairs = [
        (o, r)
        for job in jobs
        if (o := observed[job.job_id].start_s) is not None
        and (r := replayed[job.job_id].start_s) is not None
    ]
    if len(pairs) < 3:
        return None
    ranks = [
        np.argsort(np.argsort(np.array(side), kind="stable")) for side in zip(*pairs, strict=True)
    ]
    if ranks[0].std() == 0 or ranks[1].std() == 0:
        return None
    return round(float(np.corrcoef(ranks[0], ranks[1])[0, 1]), 6)


def twin_replay(
    setting: Setting, nodes: Sequence[NodeSpec], policy: Policy, fit: LatencyFit
) -> ReplayResult:
    twin, latency = twin_jobs(setting.jobs, fit, setting.draws)
    return simulate(twin, nodes, replace(policy, start_latency=latency))


def outcomes_of(result: ReplayResult) -> dict[str, Outcome]:
    return {
        job.job_id: Outcome(result.start_s[i], result.end_s[i], result.status[i] == "withdrawn")
        for i, job in enumerate(result.jobs)
    }


def uncontended_jobs(result: ReplayResult, window: tuple[float, float]) -> set[str]:
    """The jobs submitted in `window` that the replay started at their submission."""
    return {
        job.job_id
        for i, job in enumerate(result.jobs)
        if window[0] <= job.submit_s < window[1]
        and result.start_s[i] is not None
        and result.start_s[i] == job.submit_s
    }


# --- inside a worker process -----------------------------------------------------------------

_WORKER: dict[str, Setting] = {}


def _start_worker(setting: Setting) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C stops
    _WORKER["setting"] = setting


def _run(indexed: tuple[int, Try[R]]) -> tuple[int, R, int]:
    """The try's index, result and replays run (the parent tallies them as results come)."""
    index, one = indexed
    count = [0]

    def replayed() -> None:
        count[0] += 1

    return index, one.run(_WORKER["setting"], replayed), count[0]
