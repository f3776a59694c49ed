"""Sizing by search: the fewest servers of one pool meeting a wait target, found by bisection
over server counts rather than a grid.

The search assumes the wait falls (or stays) as servers are added: it brackets the answer
between a count that misses the target and one that meets it (doubling from the scenario's
count when that misses, up to `GROWTH` times it), then halves the bracket, so it prices about
log2(count) points. A count meets the target only if it also starts as many jobs as the
largest count priced: a cluster too small for the largest gangs would otherwise leave them
out of its waits and seem to meet any target. Each point goes through
`planner.service.sweep_run`, so it is stored and a repeated search prices nothing. The
other pools stay as the scenario has them, and the answer says so.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

from planner.core.errors import ScenarioError
from planner.cost.scenario import MAX_SERVERS, TcoScenario
from planner.service.sweep_keys import Point, pool_of
from planner.service.sweep_point import OptionResult, PointResult

STATS = {"p95_wait": "wait_p95_s", "mean_wait": "wait_mean_s", "p99_wait": "wait_p99_s"}
_UNITS = {"s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0, "d": 86_400.0}
GROWTH = 16
"""The search tries at most this many times the scenario's servers (doubling from them)."""
_TARGET = re.compile(r"^\s*([a-z0-9_]+)\s*=\s*([0-9]*\.?[0-9]+)\s*([a-z]*)\s*$")

Evaluate = Callable[[list[Point]], list[PointResult]]
"""Prices points (stored ones read back) and gives their results in order."""
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
) -> Search:
    """The fewest servers of `key`'s pool meeting `target`, the other varied keys at `fixed`."""
    pool = pool_of(scenario, key)
    start = scenario.self_hosted[pool].servers
    ceiling = min(MAX_SERVERS, start * GROWTH)
    tried: dict[int, PointResult] = {}

    def meets(n: int) -> bool:
        if n not in tried:
            tried[n] = evaluate([((key, n), *fixed)])[0]
            _check_option(tried[n], target.option)
        # the largest count priced is the reference: while doubling it is `n` itself
        reference = _never_ran(tried[max(tried)], target)
        met = target.met_by(tried[n]) and _never_ran(tried[n], target) <= reference
        if on_tried is not None:
            on_tried(tried[n], met)
        return met

    low, high = 0, start  # low misses (0 servers serve nothing), high is tried next
    while not meets(high):
        if high >= ceiling:
            return _search(key, None, tried, scenario, pool)
        low, high = high, min(high * 2, ceiling)
    while high - low > 1:
        mid = (low + high) // 2
        if meets(mid):
            high = mid
        else:
            low = mid
    return _search(key, tried[high], tried, scenario, pool)


def _never_ran(result: PointResult, target: Target) -> int:
    found = result.option(target.option)
    return 0 if found is None or found.never_ran is None else found.never_ran


def _search(
    key: str,
    answer: PointResult | None,
    tried: dict[int, PointResult],
    scenario: TcoScenario,
    pool: int,
) -> Search:
    held = tuple(f"{p.servers} x {p.gpu}" for k, p in enumerate(scenario.self_hosted) if k != pool)
    ordered = tuple(tried[n] for n in sorted(tried))
    return Search(key, answer, ordered, max(tried), held)


def _check_option(result: PointResult, option: str) -> None:
    names = list(dict.fromkeys(o.option for o in result.options))
    if option not in names:
        raise ScenarioError(f"--option {option}: the scenario's options are {', '.join(names)}")


def _wait(option: OptionResult | None, stat: str) -> float | None:
    if option is None:
        return None
    value = getattr(option, STATS[stat])
    return None if value is None else float(value)
