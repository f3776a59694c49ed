"""The twin check: replay a history on the cluster it came from, calibrate what the history
cannot show, and measure the fit on a later window held back from the calibration.

1. Split the history at `fit_until_s` (default: when 60% of its jobs had been submitted).
2. Effective capacity: a history that uses a small share of its node list met a cluster
   busy with other work (the closed-system check warns below `CLOSED_SYSTEM_SHARE`). The
   fit tries shares of the node list (each kind of node cut in proportion) and keeps the
   one whose replay best reproduces the fit window's waits; the rest is background load.
   It never tries a share below what the history held at once, per pool
   (`planner.twin.capacity_floor`).
3. Start latency per pod-size class, from the observed waits of jobs that replay says met
   no contention on that capacity (`planner.twin.latency_fit`), and the never-placed share.
4. The policy (gang or pod admission, fifo, strict fifo or backfill) that best explains the
   fit window, reported with its score.
5. Replay the whole history calibrated and compare the validation window; the plain replay
   (whole node list, no latency) is compared the same way, as "before".

Scores: the sum over p50, p90 and p99 of |log((replayed + 1 s) / (observed + 1 s))| plus the
same for the withdrawn count; 0 is a perfect fit.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine.latency import StartLatency
from planner.engine.policy import Admission, Policy, Queueing
from planner.twin.arrivals import arrival_shift
from planner.twin.capacity_floor import ALL, floor_share, observed_peaks
from planner.twin.compare import Outcome, compare, observed_outcome, observed_wait
from planner.twin.latency_fit import MEM_BAND_CHOICES, Draws, LatencyFit, fit_latency
from planner.twin.progress import Listener, Tally
from planner.twin.report import (
    CLOSED_SYSTEM_SHARE,
    Calibration,
    CapacityFit,
    JobRow,
    PolicyFit,
    TwinReport,
)
from planner.twin.trials import (
    CapacityTry,
    ReplayTry,
    Runner,
    ScoredTry,
    Setting,
    start_order_agreement,  # noqa: F401 - its callers import it here
)

FIT_SHARE = 0.6
GRID = 10  # node-list shares tried first (log-spaced), before refining around the best
REFINE = 3
POLICIES: tuple[tuple[Admission, Queueing], ...] = (
    ("gang", "fifo"),
    ("gang", "strict-fifo"),
    ("gang", "backfill"),
    ("pod", "fifo"),
)
_LAST_REPLAYS = len(MEM_BAND_CHOICES) + 1 + len(POLICIES) + 2  # bands, refit, policies, final
FEWEST_REPLAYS = 2 + _LAST_REPLAYS
"""A check's replays when the whole node list is the only capacity to try."""
MOST_REPLAYS = 2 * (GRID + 2 * REFINE) + _LAST_REPLAYS
"""A check's replays at most: every capacity of the grid and of the refining rounds."""


class NoObservedStartsError(ValueError):
    """The history has no observed start times: there is nothing to compare a replay to."""


@dataclass(frozen=True, slots=True)
class TwinInput:
    trace: str
    cluster: str
    jobs: Sequence[Job]
    nodes: Sequence[NodeSpec]
    policy: Policy
    fit_until_s: float | None = None
    bin_s: float = 3600.0
    seed: int = 0
    workers: int = 1
    """Processes that run the independent tries of each round (`planner.twin.trials`)."""


@dataclass(frozen=True, slots=True)
class TwinRun:
    """The report, and what a calibrated scenario is made of."""

    report: TwinReport
    latency: StartLatency
    policy: Policy
    rows: tuple[JobRow, ...]


@dataclass(frozen=True, slots=True)
class _Trial:
    share: float
    nodes: list[NodeSpec]
    fit: LatencyFit
    score: float
    uncontended: frozenset[str]


def run_twin(spec: TwinInput, progress: Listener | None = None) -> TwinRun:
    """The check; `progress` hears of every replay (`planner.twin.progress`)."""
    jobs = list(spec.jobs)
    started = [j for j in jobs if observed_wait(j) is not None]
    if not started:
        raise NoObservedStartsError(
            "this history has no observed start times (a scheduled or start column), so "
            "there is nothing to compare a replay with: export the start time of each job "
            "to check the replay against what happened"
        )
    end = _history_end(jobs)
    observed = {j.job_id: observed_outcome(j, end) for j in jobs}
    cut = spec.fit_until_s if spec.fit_until_s is not None else default_fit_until(jobs)
    begin = min(j.submit_s for j in jobs)
    val_window = (cut, max(end, cut) + 1.0)
    fitter = _Fitter(spec, jobs, observed, (begin, cut), progress)
    try:
        trials = fitter.capacity_search()
        best = fitter.with_bands(min(trials, key=lambda t: (t.score, -t.share)))
        policies = fitter.policy_search(best)
        chosen = min(policies, key=lambda p: p.score)
        policy = replace(fitter.base, admission=chosen.admission, queueing=chosen.queueing)
        after_outcomes, plain = fitter.runner.map(
            [ReplayTry(best.nodes, policy, best.fit), ReplayTry(spec.nodes, fitter.base)]
        )
    except BaseException:
        fitter.runner.close(now=True)  # an error or a cancelled check: stop the workers
        raise
    fitter.runner.close()
    after = compare(jobs, observed, after_outcomes, val_window, spec.bin_s)
    before = compare(jobs, observed, plain, val_window, spec.bin_s)
    fitter.tally.finish()
    node_gpus = sum(n.gpus for n in spec.nodes)
    share_used = _history_gpus(jobs, observed, end) / node_gpus if node_gpus else 0.0
    floored = fitter.floor < 1.0 and best.share <= fitter.floor
    calibration = Calibration(
        fit_until_s=cut,
        latency=best.fit.classes,
        effective_gpu_share=best.share,
        effective_gpus=sum(n.gpus for n in best.nodes),
        capacity_scores=tuple(
            CapacityFit(t.share, sum(n.gpus for n in t.nodes), round(t.score, 4))
            for t in sorted(trials, key=lambda t: t.share)
        ),
        policy_scores=tuple(policies),
        policy=chosen,
        policies_alike=_alike(policies),
        background_given=fitter.base.colocation is not None,
        peak_gpus=fitter.peaks.gpus[ALL],
        peak_gpus_by_pool={p: g for p, g in fitter.peaks.gpus.items() if p != ALL},
        floored=floored,
    )
    report = TwinReport(
        trace=spec.trace,
        cluster=spec.cluster,
        jobs=len(jobs),
        jobs_with_observed_start=len(started),
        node_gpus=node_gpus,
        history_gpu_share=share_used,
        closed_system_warning=share_used < CLOSED_SYSTEM_SHARE,
        notes=_notes(share_used, policies, fitter.base.colocation is not None),
        fit=compare(jobs, observed, after_outcomes, fitter.window, spec.bin_s),
        before=before,
        after=after,
        calibration=calibration,
        verdict=after.verdict,
        arrival_shift=arrival_shift(jobs, val_window),
    )
    rows = job_rows(jobs, observed, after_outcomes, cut, best.fit)
    return TwinRun(report, best.fit.latency, replace(policy, start_latency=best.fit.latency), rows)


def default_fit_until(jobs: Sequence[Job]) -> float:
    """The submission time by which `FIT_SHARE` of the jobs had been submitted."""
    submits = sorted(j.submit_s for j in jobs if not j.running_at_start) or [0.0]
    return float(submits[min(int(len(submits) * FIT_SHARE), len(submits) - 1)])


class _Fitter:
    """The searches of one calibration: each trial replays the whole history and scores the
    fit window only (a replay is causal: later jobs never change earlier starts). The tries of
    a round run through `self.runner`, at once where it has workers, their results taken in
    the order a one-at-a-time search would take them."""

    def __init__(
        self,
        spec: TwinInput,
        jobs: list[Job],
        observed: dict[str, Outcome],
        window: tuple[float, float],
        progress: Listener | None = None,
    ) -> None:
        self.spec, self.jobs, self.observed, self.window = spec, jobs, observed, window
        self.base = replace(spec.policy, start_latency=None)
        self.fit_jobs = [
            j for j in jobs if window[0] <= j.submit_s < window[1] and not j.running_at_start
        ]
        self.trials: dict[int, _Trial] = {}
        self.unschedulable: int | None = None
        self.peaks = observed_peaks(jobs, observed)
        self.floor = floor_share(spec.nodes, self.peaks, effective_nodes)
        self.shares = self._grid()
        # backfill does not run with queues
        self.policies = [p for p in POLICIES if self.base.queues is None or p[1] != "backfill"]
        self.tally = Tally(self._planned_replays(), progress)
        draws = Draws.of(jobs, spec.seed)
        setting = Setting(jobs, observed, window, self.fit_jobs, self.base, spec.seed, draws)
        self.runner = Runner(setting, self.tally, spec.workers)

    def _grid(self) -> list[float]:
        """A log-spaced grid of node-list shares from the whole list down to the least that
        holds the history's peaks."""
        low = max(self.floor, 1e-4)
        if self.base.colocation is not None:
            low = 1.0  # the background load is given (online GPUs by hour): accepted as is
        return [float(s) for s in np.geomspace(1.0, low, GRID)] if low < 1 else [1.0]

    def _planned_replays(self) -> int:
        """At most: two a capacity tried (contention, then with latency), two neighbours a
        refining round, one a memory-band count and the refit, one a policy, and the
        calibrated and plain replays of the whole history."""
        capacities = len(self.shares) + (2 * REFINE if len(self.shares) > 1 else 0)
        return 2 * capacities + _LAST_REPLAYS - (len(POLICIES) - len(self.policies))

    def capacity_search(self) -> list[_Trial]:
        """The grid of shares, then halving the gaps around the best."""
        self.try_shares(self.shares[:1])  # the whole node list: the others' unschedulable bar
        self.try_shares(self.shares[1:])
        if len(self.shares) == 1:
            return list(self.trials.values())
        for _ in range(REFINE):
            ranked = sorted(self.trials.values(), key=lambda t: t.share)
            at = min(range(len(ranked)), key=lambda i: ranked[i].score)
            shares = [
                math.sqrt(near.share * ranked[at].share)
                for near in ranked[max(at - 1, 0) : at] + ranked[at + 1 : at + 2]
                if near.score != ranked[at].score  # a flat stretch has nothing to find
            ]
            self.try_shares(shares)
            self.tally.skipped(2 * (2 - len(shares)))
        return list(self.trials.values())

    def try_shares(self, shares: Sequence[float]) -> None:
        """Try each share whose GPU count is new, in order (at once, with workers)."""
        todo: dict[int, tuple[float, list[NodeSpec]]] = {}
        for share in shares:
            nodes = effective_nodes(self.spec.nodes, share)
            gpus = sum(n.gpus for n in nodes)
            if not gpus or gpus in self.trials or gpus in todo:
                self.tally.skipped(2)
            else:
                todo[gpus] = (share, nodes)
        tries = [CapacityTry(nodes, self.unschedulable) for _, nodes in todo.values()]
        for (gpus, (share, nodes)), tried in zip(todo.items(), self.runner.map(tries), strict=True):
            if tried.fit is None:
                self.tally.skipped(1)  # its replay with latency was not needed
            if self.unschedulable is None:
                self.unschedulable = tried.unschedulable  # the whole node list's, tried first
            if tried.fit is None or tried.unschedulable > self.unschedulable:
                continue  # a cut that drops the only nodes some jobs fit on is not the cluster
            self.trials[gpus] = _Trial(share, nodes, tried.fit, tried.score, tried.uncontended)

    def with_bands(self, best: _Trial) -> _Trial:
        """Memory bands chosen on the fit window alone: fit on its first 60%, score its
        last 40%, keep the best count, refit on the whole fit window."""
        inner_cut = default_fit_until(self.fit_jobs)
        inner_jobs = [j for j in self.fit_jobs if j.submit_s < inner_cut]
        held = (inner_cut, self.window[1])
        uncontended = set(best.uncontended)
        seed = self.spec.seed
        tries = [
            ScoredTry(
                ReplayTry(best.nodes, self.base, fit_latency(inner_jobs, uncontended, seed, b)),
                held,
            )
            for b in MEM_BAND_CHOICES
        ]
        scored = self.runner.map(tries)
        scores = {b: s for b, (s, _) in zip(MEM_BAND_CHOICES, scored, strict=True)}
        bands = min(MEM_BAND_CHOICES, key=lambda b: scores[b])
        fit = fit_latency(self.fit_jobs, uncontended, seed, bands)
        refit = ScoredTry(ReplayTry(best.nodes, self.base, fit), self.window)
        ((score, _),) = self.runner.map([refit])
        return _Trial(best.share, best.nodes, fit, score, best.uncontended)

    def policy_search(self, best: _Trial) -> list[PolicyFit]:
        chosen = [replace(self.base, admission=a, queueing=q) for a, q in self.policies]
        tries = [ScoredTry(ReplayTry(best.nodes, p, best.fit), self.window, True) for p in chosen]
        fits = []
        for policy, (fit_score, order) in zip(chosen, self.runner.map(tries), strict=True):
            total = fit_score + (1.0 - order if order is not None else 0.0)
            fits.append(PolicyFit(policy.admission, policy.queueing, round(total, 4), order))
        return fits


def effective_nodes(nodes: Sequence[NodeSpec], share: float) -> list[NodeSpec]:
    """`share` of each kind of node (same GPU type, GPUs, CPU and memory), first ones kept."""
    kinds: dict[tuple[str, int, float, float], list[NodeSpec]] = {}
    for node in nodes:
        kinds.setdefault((node.gpu_type, node.gpus, node.cpu, node.mem_gib), []).append(node)
    kept = {id(n) for group in kinds.values() for n in group[: round(len(group) * share)]}
    return [n for n in nodes if id(n) in kept]


def _history_end(jobs: Sequence[Job]) -> float:
    ends = [j.end_s for j in jobs if j.end_s is not None]
    ends += [j.submit_s + j.duration_s for j in jobs]
    return max(ends) if ends else 0.0


def _history_gpus(jobs: Sequence[Job], observed: dict[str, Outcome], end: float) -> float:
    """Mean GPUs the history's jobs held over its span."""
    begin = min((j.submit_s for j in jobs), default=0.0)
    held = sum(
        job.total_gpus * (out.end_s - out.start_s)
        for job in jobs
        if (out := observed[job.job_id]).start_s is not None and out.end_s is not None
    )
    return held / (end - begin) if end > begin else 0.0


def _notes(share_used: float, policies: list[PolicyFit], given_load: bool) -> tuple[str, ...]:
    notes = []
    if share_used < CLOSED_SYSTEM_SHARE:
        notes.append(
            f"The history's own jobs held {share_used:.1%} of the node list's GPUs on average "
            f"(below {CLOSED_SYSTEM_SHARE:.0%}): the cluster was busy with work this history "
            "does not show, so a replay on the whole node list meets an idle cluster. The "
            "calibration fits that missing load as a smaller effective capacity and as start "
            "latency."
        )
    if given_load:
        notes.append(
            "The background load is given (online services' GPUs by hour of day): the twin "
            "replays with it on the whole node list instead of fitting a smaller capacity."
        )
    if _alike(policies):
        notes.append(
            "The history cannot tell the scheduling policies apart (their scores are within "
            "1%): the calibrated scenario keeps the first one tried."
        )
    return tuple(notes)


def _alike(policies: list[PolicyFit]) -> bool:
    scores = [p.score for p in policies]
    return bool(scores) and max(scores) - min(scores) <= 0.01 * max(*scores, 1e-9)


def job_rows(
    jobs: Sequence[Job],
    observed: dict[str, Outcome],
    replayed: dict[str, Outcome],
    cut: float,
    fit: LatencyFit,
) -> tuple[JobRow, ...]:
    rows = []
    classes = fit.latency.classes
    for job in jobs:
        obs_wait = observed_wait(job)
        rep = replayed[job.job_id]
        rep_wait = None if rep.start_s is None else max(rep.start_s - job.submit_s, 0.0)
        residual = None if obs_wait is None or rep_wait is None else rep_wait - obs_wait
        rows.append(
            JobRow(
                job_id=job.job_id,
                team=job.queue,
                size_class=classes.label(job),
                window="fit" if job.submit_s < cut else "validation",
                submit_s=job.submit_s,
                observed_start_s=observed[job.job_id].start_s,
                observed_wait_s=obs_wait,
                replayed_start_s=rep.start_s,
                replayed_wait_s=rep_wait,
                residual_s=residual,
            )
        )
    return tuple(rows)
