"""Arrivals of synthetic jobs team by team: fixed shares, each team on its own campaigns.

A team submits at share × campaign level × the common daily and weekly cycle; campaigns of
different teams are independent, so one team's push meets another's quiet spell, which is
what leaves statically partitioned quotas idle while other teams queue. Campaign clocks draw
from their own seeded generators, so the schedule does not depend on how many jobs are
drawn. Stdlib only, like `planner.synth`.
"""

import random
from collections.abc import Callable, Sequence

from planner.synth.profiles import Campaigns


class _Campaign:
    """One team's alternation of campaigns and quiet spells, advanced lazily in time."""

    def __init__(self, campaigns: Campaigns, rng: random.Random) -> None:
        self.spec = campaigns
        self.rng = rng
        duty = campaigns.campaign_days / (campaigns.campaign_days + campaigns.quiet_days)
        self.active = rng.random() < duty
        self.until_s = self._spell_s() * rng.random()  # the trace starts mid-spell

    def _spell_s(self) -> float:
        mean_days = self.spec.campaign_days if self.active else self.spec.quiet_days
        return mean_days * 86_400.0 * self.rng.uniform(0.5, 1.5)

    def level(self, t_s: float) -> float:
        """Submission rate at `t_s` relative to the team's long-run rate; `t_s` never decreases."""
        while t_s >= self.until_s:
            self.active = not self.active
            self.until_s += self._spell_s()
        return self.spec.campaign_level if self.active else self.spec.quiet_level


class TeamArrivals:
    """The superposed arrivals of all teams, drawn by thinning (Lewis–Shedler).

    `cycle(t_s)` is the common daily and weekly factor, at most `cycle_peak`; `base_per_s`
    is the all-teams rate where that factor and every campaign level are 1.
    """

    def __init__(
        self,
        weights: Sequence[float],
        campaigns: Campaigns | None,
        cycle: Callable[[float], float],
        cycle_peak: float,
        seed: int,
    ) -> None:
        total = sum(weights)
        self.weights = [w / total for w in weights]
        self.campaigns = (
            [_Campaign(campaigns, random.Random(f"{seed}/team/{i}")) for i in range(len(weights))]
            if campaigns is not None
            else []
        )
        top_level = campaigns.campaign_level if campaigns is not None else 1.0
        self.cycle = cycle
        self.peak = cycle_peak * max(top_level, 1.0)

    def _rates(self, t_s: float) -> list[float]:
        if not self.campaigns:
            return self.weights
        return [w * c.level(t_s) for w, c in zip(self.weights, self.campaigns, strict=True)]

    def next(self, t_s: float, base_per_s: float, rng: random.Random) -> tuple[float, int]:
        """The next arrival after `t_s` and the index of the team that submits it."""
        while True:
            t_s += rng.expovariate(base_per_s * self.peak)
            rates = self._rates(t_s)
            cycle = self.cycle(t_s)
            # accepted, draw / cycle is uniform over [0, sum(rates)]: it also picks the team
            draw = rng.random() * self.peak / cycle
            if draw <= sum(rates):
                return t_s, _pick(rates, draw)


def _pick(rates: Sequence[float], draw: float) -> int:
    """The index whose slice of the cumulative `rates` holds `draw`."""
    for index, rate in enumerate(rates):
        draw -= rate
        if draw <= 0.0:
            return index
    return len(rates) - 1  # rounding at the very top
