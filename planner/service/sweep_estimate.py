"""The full replay's wait at a count not yet fully replayed, read from the screen and from the
counts that were.

A time slice's waits are not the full replay's: the slice starts idle and misses the backlog a
long history builds (on a 3.4M-job helios trace, 4 to 6 times too short near the frontier), so
a fixed margin added to them reads every count near the frontier as uncertain. But they fall
with the servers in much the same shape as the full replay's. So the log of the full wait is
taken as an affine function of the log of the screened wait, fitted through the fully
replayed counts nearest each candidate: with one such count, the full wait is the screened
wait times the ratio measured there; with two, the slope between them carries the screen's
shape across (through both when the candidate lies between them, from the nearer side's two
when it lies beyond them).

Only which counts are replayed fully next depends on this estimate; the answer is always a
fully replayed count (`planner.service.sweep_screen`), so a poor estimate costs full replays,
never a wrong answer.
"""

import math
from collections.abc import Mapping, Sequence

OFFSET_SHARE = 0.01
"""Waits are compared as log(wait + 1 % of the target): a zero wait has a finite log, and
waits far below the target weigh little in the fit."""

SLOPES = (0.25, 4.0)
"""The fitted slope (log full against log screened) is held in this range: two counts whose
screened waits barely differ would otherwise give any slope."""


def estimated_waits(
    screened: Sequence[float | None], full: Mapping[int, float | None], target_s: float
) -> list[float | None]:
    """Each candidate's full wait: measured where it was fully replayed, else estimated from
    its screened wait (None where the screen saw no wait: no job of the scope ran there)."""
    offset = target_s * OFFSET_SHARE
    logs = {
        k: (_log(s, offset), _log(f, offset))
        for k, f in full.items()
        if (s := screened[k]) is not None and f is not None
    }
    found: list[float | None] = []
    for i, wait in enumerate(screened):
        if i in full:
            found.append(full[i])
        elif wait is None:
            found.append(None)
        else:
            estimate = _estimated_log(i, _log(wait, offset), logs)
            found.append(max(0.0, math.exp(estimate) - offset))
    return found


def between(
    counts: Sequence[int], screened: Mapping[int, float | None], target_s: float
) -> list[float | None]:
    """Each candidate's screened wait: measured at the positions screened, else read off the
    nearest screened on each side, log-linearly in the count (None if either has no wait, or
    the candidate has a screened neighbour on one side only)."""
    offset = target_s * OFFSET_SHARE
    known = sorted(screened)
    found: list[float | None] = []
    for i, count in enumerate(counts):
        if i in screened:
            found.append(screened[i])
            continue
        below = [k for k in known if k < i]
        above = [k for k in known if k > i]
        low = screened[below[-1]] if below else None
        high = screened[above[0]] if above else None
        if low is None or high is None:
            found.append(None)
            continue
        a, b = counts[below[-1]], counts[above[0]]
        share = (count - a) / (b - a)
        log = _log(low, offset) + share * (_log(high, offset) - _log(low, offset))
        found.append(max(0.0, math.exp(log) - offset))
    return found


def _estimated_log(i: int, screened: float, logs: Mapping[int, tuple[float, float]]) -> float:
    pair = _references(i, sorted(logs))
    if not pair:
        return screened
    (s_a, f_a), slope = logs[pair[0]], 1.0
    if len(pair) == 2:
        s_b, f_b = logs[pair[1]]
        if abs(s_b - s_a) > 1e-9:
            slope = min(max((f_b - f_a) / (s_b - s_a), SLOPES[0]), SLOPES[1])
    return f_a + slope * (screened - s_a)


def _references(i: int, measured: list[int]) -> tuple[int, ...]:
    """The fully replayed positions the estimate at `i` is fitted through, the nearest first
    (a held slope still passes through it): the nearest on each side, else the two nearest on
    the one side there are any (or the only one)."""
    below = [k for k in measured if k < i]
    above = [k for k in measured if k > i]
    if below and above:
        return tuple(sorted((below[-1], above[0]), key=lambda k: abs(k - i)))
    return tuple(below[::-1][:2] or above[:2])


def _log(wait: float, offset: float) -> float:
    return math.log(wait + offset)
