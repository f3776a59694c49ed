"""Sizing by search: the fewest servers of one pool meeting a wait target, found by bisection
(or, with several workers, k-section) over server counts rather than a grid.

The search assumes the wait falls (or stays) as servers are added: it brackets the answer
between a count that misses the target and one that meets it (doubling from the scenario's
count when that misses, up to `GROWTH` times it), then narrows the bracket, so it prices about
log2(count) points. A count meets the target only if it also starts as many jobs as the
bracket's top count: a cluster too small for the largest gangs would otherwise leave them out
of its waits and seem to meet any target. Given the floor the largest gang sets
(`planner.service.sweep_floor`: no count below it runs that job), the search starts at the
floor when the scenario has fewer, and never prices a count below it.

Which counts to price next is a pure function of the counts priced so far (`next_step`), so
the search can price `width` counts at once on as many workers: the next `width` doublings,
then `width` counts splitting the bracket into `width + 1` parts. Width 1 is plain bisection;
every width finds the same answer when the verdicts fall in line with the count, in fewer
rounds for more width. Each point goes through `planner.service.sweep_run`, so it is stored
and a repeated search prices nothing. The other pools stay as the scenario has them, and the
answer says so.
"""

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from planner.core.errors import ScenarioError
from planner.cost.scenario import MAX_SERVERS, TcoScenario
from planner.service.sweep_keys import Point, pool_of
from planner.service.sweep_point import PointOption, PointResult

STATS = {"p95_wait": "wait_p95_s", "mean_wait": "wait_mean_s", "p99_wait": "wait_p99_s"}
_UNITS = {"s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0, "d": 86_400.0}
GROWTH = 16
"""The search tries at most this many times the scenario's servers (doubling from them)."""
_TARGET = re.compile(r"^\s*([a-z0-9_]+)\s*=\s*([0-9]*\.?[0-9]+)\s*([a-z]*)\s*$")

Evaluate = Callable[[list[Point]], list[PointResult]]
"""Prices points (stored ones read back) and gives their results in order; the points of one
call may be priced side by side."""
Tried = Callable[[PointResult, bool], None]
"""Told each point the search tries and whether it meets the target."""


@dataclass(frozen=True, slots=True)
class Target:
    stat: str
    """A key of `STATS`."""
    seconds: float
    option: str = "self-hosted"

    def wait_of(self, result: PointResult) -> float | None:
        """The option's wait statistic over the first horizon, in seconds."""
        return _wait(result.option(self.option), self.stat)

    def met_by(self, result: PointResult) -> bool:
        """Whether the option's wait over the first horizon is at most the target (a point
        without waits, where no job of the scope ran, does not meet it)."""
        wait = self.wait_of(result)
        return wait is not None and wait <= self.seconds


@dataclass(frozen=True, slots=True)
class Search:
    key: str
    """The `servers` key searched (`servers` or `servers.GPU`)."""
    answer: PointResult | None
    """The fewest servers meeting the target (None: not even `ceiling` servers do)."""
    tried: tuple[PointResult, ...]
    """Every point priced, in server order."""
    ceiling: int
    held: tuple[str, ...]
    """The other pools, held as the scenario has them ('128 x H800')."""
    floor: int = 0
    """The fewest servers that run the largest job; no count below it was priced (0: none
    given)."""


# --- which counts to price next: a pure function of what is known --------------------------


@dataclass(frozen=True, slots=True)
class Seen:
    """What the search keeps of a priced count."""

    wait_met: bool
    """Its wait is at most the target."""
    never_ran: int
    """Jobs it never started."""


@dataclass(frozen=True, slots=True)
class Step:
    counts: tuple[int, ...]
    """Counts to price next, side by side (empty: the search is over)."""
    answer: int | None = None
    """Once over, the fewest servers meeting the target (None: not even the ceiling)."""
    reference: int | None = None
    """Jobs never started by the bracket's top count, once bracketed: a count meets the
    target only if it leaves out no more (None while doubling: the wait alone decides)."""

    def meets(self, seen: Seen) -> bool:
        return meets(seen, self.reference)


def meets(seen: Seen, reference: int | None) -> bool:
    """Whether a priced count meets the target, given the bracket's top's never-started jobs
    (None while doubling)."""
    return seen.wait_met and (reference is None or seen.never_ran <= reference)


def ladder(start: int, ceiling: int) -> list[int]:
    """The counts the search doubles through: start, 2 x start, ... up to the ceiling."""
    counts = [start]
    while counts[-1] < ceiling:
        counts.append(min(counts[-1] * 2, ceiling))
    return counts


def next_step(
    seen: Mapping[int, Seen], start: int, ceiling: int, width: int = 1, floor: int = 0
) -> Step:
    """The counts to price next (up to `width`), given those priced so far, or the answer.

    Doubling from the larger of `start` and `floor` (at most `ceiling`): the first count of
    the ladder whose wait meets the target tops the bracket, the count before it (or the
    floor less one: no count below the floor runs the largest job) is its bottom; the next
    `width` ladder counts not priced are asked for together, so a wide search may price a few
    above the top. Then k-section."""
    rungs = ladder(max(start, floor), ceiling)
    low = max(floor - 1, 0)
    for k, n in enumerate(rungs):
        if n not in seen:
            return Step(tuple(c for c in rungs[k:] if c not in seen)[:width])
        if seen[n].wait_met:
            return _narrowed(seen, low, n, width)
        low = n
    return Step((), None)


def _narrowed(seen: Mapping[int, Seen], low: int, high: int, width: int) -> Step:
    """Within a bracket (`low` misses, `high` meets): the counts splitting it not priced yet,
    or, once all are, the smaller bracket between the first that meets and the one before."""
    reference = seen[high].never_ran
    while high - low > 1:
        inside = sections(low, high, width)
        missing = tuple(n for n in inside if n not in seen)
        if missing:
            return Step(missing, reference=reference)
        meeting = [n for n in inside if meets(seen[n], reference)]
        if not meeting:
            low = inside[-1]
            continue
        low = max((n for n in inside if n < meeting[0]), default=low)
        high = meeting[0]
    return Step((), high, reference)


def sections(low: int, high: int, width: int) -> tuple[int, ...]:
    """Up to `width` counts strictly between `low` and `high` splitting it into `width + 1`
    near-equal parts (every count between when there are no more than `width`)."""
    cuts = {low + (high - low) * j // (width + 1) for j in range(1, width + 1)}
    return tuple(sorted(cuts - {low}))


# --- the search ------------------------------------------------------------------------------


def parse_target(text: str, option: str = "self-hosted") -> Target:
    """'p95_wait=1h' (or 30m, 600s, 0.5d; no unit: seconds) read into a Target."""
    match = _TARGET.match(text.lower())
    if match is None or match.group(1) not in STATS or match.group(3) not in {"", *_UNITS}:
        raise ScenarioError(
            f"--target '{text}': write STAT=VALUE with STAT one of {', '.join(STATS)} and "
            "VALUE a duration such as 1h, 30m or 600s"
        )
    stat, value, unit = match.groups()
    return Target(stat, float(value) * _UNITS.get(unit, 1.0), option)


def smallest(
    scenario: TcoScenario,
    key: str,
    target: Target,
    evaluate: Evaluate,
    fixed: Point = (),
    *,
    on_tried: Tried | None = None,
    width: int = 1,
    floor: int = 0,
) -> Search:
    """The fewest servers of `key`'s pool meeting `target`, the other varied keys at `fixed`;
    `width` counts priced per call of `evaluate` (the workers it has); no count below
    `floor` (ignored above `MAX_SERVERS`) is priced."""
    pool = pool_of(scenario, key)
    floor = floor if floor <= MAX_SERVERS else 0
    start = scenario.self_hosted[pool].servers
    ceiling = min(MAX_SERVERS, max(start, floor) * GROWTH)
    tried: dict[int, PointResult] = {}
    seen: dict[int, Seen] = {}
    step = next_step(seen, start, ceiling, max(1, width), floor)
    while step.counts:
        results = evaluate([((key, n), *fixed) for n in step.counts])
        for n, result in zip(step.counts, results, strict=True):
            _check_option(result, target.option)
            tried[n] = result
            seen[n] = Seen(target.met_by(result), _never_ran(result, target))
            if on_tried is not None:
                on_tried(result, step.meets(seen[n]))
        step = next_step(seen, start, ceiling, max(1, width), floor)
    answer = None if step.answer is None else tried[step.answer]
    return _search(key, answer, tried, scenario, pool, floor=floor)


def _never_ran(result: PointResult, target: Target) -> int:
    found = result.option(target.option)
    return 0 if found is None or found.never_ran is None else found.never_ran


def _search(
    key: str,
    answer: PointResult | None,
    tried: dict[int, PointResult],
    scenario: TcoScenario,
    pool: int,
    *,
    floor: int,
) -> Search:
    held = tuple(f"{p.servers} x {p.gpu}" for k, p in enumerate(scenario.self_hosted) if k != pool)
    ordered = tuple(tried[n] for n in sorted(tried))
    return Search(key, answer, ordered, max(tried), held, floor)


def _check_option(result: PointResult, option: str) -> None:
    names = list(dict.fromkeys(o.option for o in result.options))
    if option not in names:
        raise ScenarioError(f"--option {option}: the scenario's options are {', '.join(names)}")


def _wait(option: PointOption | None, stat: str) -> float | None:
    if option is None:
        return None
    value = getattr(option, STATS[stat])
    return None if value is None else float(value)
