"""Where the held-back window's arrival rate changes, and what the waits did on either side.

A calibration fitted on the first part of a history cannot know load that comes later. This
finds the day boundary of the validation window where a change of the arrival rate is most
likely (a Poisson change point), and reports it when one side's rate is at least `SHIFT` times
the other's, with each side's observed p50 and p90 waits: the story the data tells (on openb
default, 225 pods a day before day 146 and 440 after, waits 2 / 68 s then 33 / 243 s).
"""

import math
from collections.abc import Sequence

from planner.core.model import Job
from planner.twin.compare import observed_wait, quantiles
from planner.twin.report import ArrivalShift

DAY_S = 86_400.0
SHIFT = 1.5
"""A rate this many times the other side's (either way) is a change worth saying."""


def arrival_shift(jobs: Sequence[Job], window_s: tuple[float, float]) -> ArrivalShift | None:
    """The most likely change of the arrival rate in `window_s` (split on whole days from its
    start, at least a day on each side), if the rates either side differ by `SHIFT` or more."""
    low = window_s[0]
    chosen = [j for j in jobs if low <= j.submit_s < window_s[1] and not j.running_at_start]
    if not chosen:
        return None
    last = max(j.submit_s for j in chosen)
    days = int((last - low) // DAY_S)
    total = len(chosen)
    best: tuple[float, float, float, float] | None = None  # (evidence, split, before, after)
    for k in range(1, days):
        split = low + k * DAY_S
        early = sum(j.submit_s < split for j in chosen)
        spans = (split - low, last - split)
        if 0 < early < total:
            # a Poisson change point: the log-likelihood gained by two rates instead of one
            evidence = (
                _fit(early, spans[0]) + _fit(total - early, spans[1]) - _fit(total, last - low)
            )
            if best is None or evidence > best[0]:
                best = (
                    evidence,
                    split,
                    early / spans[0] * DAY_S,
                    (total - early) / spans[1] * DAY_S,
                )
    if best is None or abs(math.log(best[3] / best[2])) < math.log(SHIFT):
        return None
    _, split, before, after = best
    sides = ([j for j in chosen if j.submit_s < split], [j for j in chosen if j.submit_s >= split])
    waits = [_quantiles(side) for side in sides]
    return ArrivalShift(
        at_s=split,
        per_day=(before, after),
        p50_s=(waits[0][0], waits[1][0]),
        p90_s=(waits[0][1], waits[1][1]),
    )


def _fit(count: int, span_s: float) -> float:
    return count * math.log(count / span_s)


def _quantiles(jobs: list[Job]) -> tuple[float | None, float | None]:
    found = quantiles([w for j in jobs if (w := observed_wait(j)) is not None])
    return found.p50, found.p90
