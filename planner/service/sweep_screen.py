"""Sizing by a screened search: every candidate count replayed on a time slice of the trace
(cheap), then full replays around the frontier the screen points at until the answer is a
fully replayed count that meets the target and the next smaller candidate, also fully
replayed, does not.

The screen is the trace's first `fraction` of its time (jobs submitted in it, every count of
servers as asked): unlike thinning jobs onto fewer servers it keeps the gangs, the servers
they need and the server counts themselves, and it starts from an empty cluster as the full
replay does. Its waits are not the full replay's, so the screen only decides which counts to
replay fully: each fully replayed count also measures the screen's error there (wait and
utilization, screened against full), and the full waits at the counts not yet replayed are
estimated from the screen's shape fitted through the fully replayed ones
(`planner.service.sweep_estimate`) before the frontier is read again.

Which candidates to replay fully next is a pure function of the estimated verdicts and the
full verdicts so far (`next_full`): the bracket is the largest candidate known to miss below
the smallest known to meet; inside it, for the first `GUIDED_ROUNDS` rounds, the estimated
answer and the candidate below it, then counts splitting the bracket evenly (so a poor
estimate costs a bisection's rounds at most, after the guided ones). Whatever the estimate
says, the search ends only when the bracket is two neighbouring candidates, both fully
replayed (or the smallest candidate meets), so when full waits fall as servers are added the
answer is the full grid's over the same candidates; a wrong estimate costs more full replays,
never a wrong answer.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from planner.core.errors import ScenarioError
from planner.cost.scenario import TcoScenario
from planner.cost.scope import scoped_jobs
from planner.service.sweep_estimate import between, estimated_waits
from planner.service.sweep_floor import floor_of
from planner.service.sweep_keys import Point, apply, pool_of
from planner.service.sweep_point import PointResult
from planner.service.sweep_run import Sweep, pricing, run_sweep
from planner.service.sweep_search import Target
from planner.store import Connection

FRACTION = 0.125
"""The share of the trace's time the screen replays by default."""

EVERY = 2
"""The screen replays every `EVERY`-th candidate (and the largest); the counts between are read
off their screened neighbours (`sweep_estimate.between`), except those the first round of full
replays would take, which are screened too before it."""

GUIDED_ROUNDS = 2
"""Rounds of full replays placed at the estimated frontier; later rounds split the bracket."""

Shown = Callable[[str, PointResult, bool], None]
"""Told each point priced ('screen' or 'full'), and whether it meets the target."""


@dataclass(frozen=True, slots=True)
class ScreenError:
    """The screen against the full replay at one count."""

    servers: int
    screened_wait_s: float | None
    full_wait_s: float | None
    screened_utilization: float | None
    full_utilization: float | None
    screened: bool = True
    """False: the count was not screened; its screened wait is read off its neighbours', its
    utilization unknown."""

    @property
    def wait_s(self) -> float | None:
        """Full minus screened wait (positive: the screen under-estimates it)."""
        if self.screened_wait_s is None or self.full_wait_s is None:
            return None
        return self.full_wait_s - self.screened_wait_s

    @property
    def utilization(self) -> float | None:
        """Full minus screened utilization, as a share (0.02 = 2 percentage points)."""
        if self.screened_utilization is None or self.full_utilization is None:
            return None
        return self.full_utilization - self.screened_utilization


@dataclass(frozen=True, slots=True)
class ScreenedSearch:
    key: str
    answer: PointResult | None
    """The fewest candidate servers meeting the target, fully replayed (None: none does)."""
    full: tuple[PointResult, ...]
    """Every point fully replayed, in server order."""
    screened: tuple[PointResult, ...]
    """Every candidate replayed on the slice (every `every`-th, the largest and those the first
    round of full replays took), in server order."""
    errors: tuple[ScreenError, ...]
    """The screen's error at each fully replayed count, in server order."""
    fraction: float
    slice_jobs: int
    trace_jobs: int
    below_floor: tuple[int, ...] = ()
    """Candidates under the floor the largest job sets: they never run it, so they miss."""
    every: int = 1

    @property
    def worst_wait_error_s(self) -> float | None:
        """The largest |full - screened| wait among the fully replayed counts."""
        found = [abs(e.wait_s) for e in self.errors if e.wait_s is not None]
        return max(found, default=None)

    @property
    def worst_utilization_error(self) -> float | None:
        found = [abs(e.utilization) for e in self.errors if e.utilization is not None]
        return max(found, default=None)


# --- which candidates to replay fully next: a pure function of what is known ---------------


@dataclass(frozen=True, slots=True)
class Round:
    indices: tuple[int, ...]
    """Candidates (by position) to replay fully next, side by side (empty: over)."""
    answer: int | None = None
    """Once over, the position of the answer (None: no candidate meets the target)."""


def next_full(
    predicted: Sequence[bool], full: Mapping[int, bool], width: int = 1, *, guided: bool = True
) -> Round:
    """The candidates to replay fully next (up to `width`, at least one), given the estimated
    verdict for each candidate and the full verdicts so far, or the answer.

    The bracket: `high`, the smallest position fully meeting (past the end if none), and
    `low`, the largest position fully missing below it (-1 if none). Over when they are
    neighbours. Else, inside the bracket, when `guided`, the estimate's answer (its first
    meeting position, or `high` when it predicts none there) and the position below it
    first; then positions splitting the bracket evenly."""
    high = min((i for i, met in full.items() if met), default=len(predicted))
    low = max((i for i, met in full.items() if not met and i < high), default=-1)
    if high == low + 1:
        return Round((), high if high < len(predicted) else None)
    inside = range(low + 1, high)
    guess = next((i for i in inside if predicted[i]), high)
    wanted = [guess, guess - 1] if guided else []
    wanted += _splits(low, high, max(1, width))
    chosen = [i for i in dict.fromkeys(wanted) if i in inside and i not in full]
    return Round(tuple(sorted(chosen[: max(1, width)])))


def _splits(low: int, high: int, width: int) -> list[int]:
    return [low + (high - low) * j // (width + 1) for j in range(1, width + 1)]


def predicted_meets(waits: Sequence[float | None], target_s: float) -> list[bool]:
    """The estimated verdicts: a wait at most the target (a count without waits does not
    meet it)."""
    return [w is not None and w <= target_s for w in waits]


# --- the screen's sample ----------------------------------------------------------------------


def time_slice(sweep: Sweep, fraction: float) -> Sweep:
    """The sweep's jobs submitted in the first `fraction` of the trace's submit span, under a
    trace id of its own (its points are stored apart from the whole trace's)."""
    if not 0 < fraction <= 1:
        raise ScenarioError(f"--screen-fraction {fraction}: give a share above 0, at most 1")
    if not sweep.jobs:
        raise ScenarioError("the trace has no jobs to screen")
    first = min(j.submit_s for j in sweep.jobs)
    last = max(j.submit_s for j in sweep.jobs)
    end = first + (last - first) * fraction
    jobs = [j for j in sweep.jobs if j.submit_s <= end]
    trace_id = f"{sweep.trace_id} first {fraction:g} of its time ({len(jobs)} jobs)"
    return Sweep(sweep.scenario, jobs, trace_id, sweep.today)


# --- the search ------------------------------------------------------------------------------


def screened_smallest(
    con: Connection,
    sweep: Sweep,
    key: str,
    target: Target,
    *,
    candidates: Sequence[int],
    fixed: Point = (),
    fraction: float = FRACTION,
    workers: int = 1,
    floor: int = 0,
    every: int = EVERY,
    on_point: Shown | None = None,
) -> ScreenedSearch:
    """The fewest of `candidates` servers of `key`'s pool meeting `target` (other varied keys
    at `fixed`), screened on a time slice (every `every`-th candidate, the largest and those
    the first round takes) and confirmed by full replays on `workers` processes; candidates
    below `floor` are not replayed (they miss)."""
    pool_of(sweep.scenario, key)  # a clear error for a pool the scenario lacks
    counts = sorted({int(n) for n in candidates if n >= floor})
    below = tuple(sorted({int(n) for n in candidates if n < floor}))
    if not counts:
        raise ScenarioError(
            f"every candidate of {key} is below {floor} servers, the fewest that run the "
            "largest job: give larger counts"
        )
    if every < 1:
        raise ScenarioError(f"--screen-every {every}: give a whole number, at least 1")
    part = time_slice(sweep, fraction)
    points = [((key, n), *fixed) for n in counts]
    sampled = sorted({*range(0, len(counts), every), len(counts) - 1})
    screen = _Screen(counts, {}, target)
    with pricing(con, part, workers=min(workers, len(sampled))) as price:
        while sampled:  # then the first round's counts, where the screen was read between
            priced = run_sweep(con, part, [points[i] for i in sampled], price=price).results
            screen.screened.update(zip(sampled, priced, strict=True))
            for r in priced:
                _shown(on_point, "screen", r, target.met_by(r))
            first = screen.step({}, workers, guided=True).indices
            sampled = [i for i in first if i not in screen.screened]
    full: dict[int, PointResult] = {}
    with pricing(con, sweep, workers=workers) as price:
        rounds = 0
        step = screen.step(full, workers, guided=True)
        while step.indices:
            asked = [points[i] for i in step.indices]
            priced = run_sweep(con, sweep, asked, price=price).results
            full.update(zip(step.indices, priced, strict=True))
            verdicts = _full_verdicts(full, target)
            for i in step.indices:
                _shown(on_point, "full", full[i], verdicts[i])
            rounds += 1
            step = screen.step(full, workers, guided=rounds < GUIDED_ROUNDS)
    answer = None if step.answer is None else full[step.answer]
    errors = screen.errors(full)
    return ScreenedSearch(
        key,
        answer,
        tuple(full[i] for i in sorted(full)),
        tuple(screen.screened[i] for i in sorted(screen.screened)),
        errors,
        fraction,
        len(part.jobs),
        len(sweep.jobs),
        below,
        every,
    )


@dataclass(frozen=True, slots=True)
class _Screen:
    """The screened candidates, for reading the frontier again as full replays come in."""

    counts: Sequence[int]
    screened: dict[int, PointResult]
    """By candidate position: the positions screened."""
    target: Target

    def waits(self) -> list[float | None]:
        """Each candidate's screened wait, read off its neighbours' where it was not screened."""
        found = {i: self.target.wait_of(r) for i, r in self.screened.items()}
        return between(self.counts, found, self.target.seconds)

    def step(self, full: Mapping[int, PointResult], width: int, *, guided: bool) -> Round:
        measured = {i: self.target.wait_of(r) for i, r in full.items()}
        estimated = estimated_waits(self.waits(), measured, self.target.seconds)
        predicted = predicted_meets(estimated, self.target.seconds)
        verdicts = _full_verdicts(full, self.target)
        return next_full(predicted, verdicts, width, guided=guided)

    def errors(self, full: Mapping[int, PointResult]) -> tuple[ScreenError, ...]:
        waits = self.waits()
        return tuple(self._error(i, waits[i], full[i]) for i in sorted(full))

    def _error(self, i: int, wait: float | None, full: PointResult) -> ScreenError:
        option = self.target.option
        part = self.screened.get(i)
        s = None if part is None else part.option(option)
        f = full.option(option)
        return ScreenError(
            self.counts[i],
            wait,
            self.target.wait_of(full),
            None if s is None else s.utilization,
            None if f is None else f.utilization,
            part is not None,
        )


def _full_verdicts(full: Mapping[int, PointResult], target: Target) -> dict[int, bool]:
    """A fully replayed count meets the target if its wait does and it leaves no more jobs
    never started than the fully replayed count leaving out the fewest: a cluster too small
    for the largest gangs leaves them out of its waits."""
    never = {i: _never_ran(r, target) for i, r in full.items()}
    reference = min(never.values(), default=0)
    return {i: target.met_by(r) and never[i] <= reference for i, r in full.items()}


def _never_ran(result: PointResult, target: Target) -> int:
    found = result.option(target.option)
    return 0 if found is None or found.never_ran is None else found.never_ran


def _shown(on_point: Shown | None, stage: str, result: PointResult, met: bool) -> None:
    if on_point is not None:
        on_point(stage, result, met)


def held_pools(scenario: TcoScenario, key: str) -> tuple[str, ...]:
    """The other pools, as the scenario has them ('128 x H800')."""
    pool = pool_of(scenario, key)
    return tuple(f"{p.servers} x {p.gpu}" for k, p in enumerate(scenario.self_hosted) if k != pool)


def floor_for(sweep: Sweep, key: str, option: str, fixed: Point = ()) -> int:
    """The fewest servers of `key`'s pool that run the largest job, for a self-hosted answer
    (0 for a hybrid: it sends jobs too large for its servers to the cloud)."""
    if option != "self-hosted":
        return 0
    scenario = apply(sweep.scenario, fixed)
    jobs = scoped_jobs(scenario, sweep.jobs).jobs
    return floor_of(scenario, jobs, pool_of(scenario, key)).servers
