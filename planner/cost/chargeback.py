"""Chargeback: each option's cost split over the teams (trace queues) whose jobs it served.

An option's cost has two parts. Its *idle* cost (`OptionReport.idle_cost`: the owned GPUs'
fixed cost left unallocated; none for a cloud option, which bills only what runs) and the
rest, its *used* cost. The used cost is always split by the GPU-hours each team's jobs used
on that option. The idle cost follows the chosen rule, the three Kubecost and OpenCost offer
(their `shareIdle` / `__idle__` allocation, and a fixed-weight share):

* `use`: spread like the used cost, by GPU-hours (OpenCost's `shareIdle=true`);
* `quota`: spread by each team's quota (Kueue nominal GPUs or Volcano shares): a team pays
  for the capacity reserved for it, used or not; without quotas the rule falls back to `use`;
* `idle`: kept as a separate "idle" line nobody is charged (`includeIdle`, `__idle__`).

When the rule's weights are all zero (no team used the option, or no quota), the idle cost
goes to the idle line rather than vanishing (the edge case OpenCost fixed in its PR #883).

Money is split in whole cents by the largest-remainder method, so the teams' charges plus the
idle line add up to the option's total rounded to the cent, exactly. Nothing here reads files
or a replay: `planner.cost.chargeback_usage` measures the GPU-hours and quotas.
"""

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from planner.core.serialize import IN_MEMORY

Rule = Literal["use", "quota", "idle"]
RULES: tuple[Rule, ...] = ("use", "quota", "idle")


JOB_COLUMNS = (
    "job_id", "team", "user", "gpus", "gpu_hours", "status", "wait_s", "gpu_hours_in_window",
    "hybrid_status", "hybrid_wait_s", "hybrid_gpu_hours_in_window",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class JobTable:
    """The replay's jobs as the per-job table shows them, one tuple per column: `status`
    and `wait_s` in the self-hosted replay, the hybrid's beside them (empty without a hybrid);
    waits in seconds, None for a job that never started. `gpu_hours_in_window` is what the
    option's chargeback credits the job over the trace's window (its GPU-hours run on the
    owned GPUs inside the window; a hybrid's burst counts whole): a team's GPU-hours a month
    are its jobs' sum x 730 / the window's hours."""

    job_id: tuple[str, ...] = ()
    team: tuple[str, ...] = ()
    user: tuple[str, ...] = ()
    gpus: tuple[float, ...] = ()
    gpu_hours: tuple[float, ...] = ()
    status: tuple[str, ...] = ()
    wait_s: tuple[float | None, ...] = ()
    gpu_hours_in_window: tuple[float | None, ...] = ()
    hybrid_status: tuple[str, ...] = ()
    hybrid_wait_s: tuple[float | None, ...] = ()
    hybrid_gpu_hours_in_window: tuple[float | None, ...] = ()

    def __len__(self) -> int:
        return len(self.job_id)

    def rows(
        self,
    ) -> Iterator[
        tuple[
            str, str, str, float, float, str, float | None, float | None, str, float | None,
            float | None,
        ]
    ]:  # fmt: skip
        """One tuple per job, in `JOB_COLUMNS` order ("" / None where there is no hybrid)."""
        n = len(self.job_id)
        hybrid = self.hybrid_status or ("",) * n
        hybrid_wait = self.hybrid_wait_s or (None,) * n
        hybrid_in = self.hybrid_gpu_hours_in_window or (None,) * n
        in_window = self.gpu_hours_in_window or (None,) * n
        return zip(
            self.job_id, self.team, self.user, self.gpus, self.gpu_hours, self.status,
            self.wait_s, in_window, hybrid, hybrid_wait, hybrid_in, strict=True,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class ChargebackData:
    """What the chargeback needs from the replay, carried in the `TcoReport`."""

    usage: Mapping[str, Mapping[str, float]]
    """By option name, each team's GPU-hours per month served by that option."""
    quotas: Mapping[str, float]
    """Each team's quota in GPUs (empty: the scenario sets no quotas)."""
    quota_source: str = ""
    """Where the quotas come from: "kueue", "volcano" or "" (none)."""
    jobs: JobTable = field(default=JobTable(), metadata=IN_MEMORY)
    """The per-job table (`planner report`'s FILE-jobs.csv), from the replay of this run.
    Kept in memory only, never in `planner tco --json` or a saved result: it grows with the
    trace (about 180 bytes a job), the reports need only the team totals above, and every
    file the table goes into is rendered from a fresh run (`planner report` and the Compare
    page price the scenario again). A report read back from JSON has an empty table."""


@dataclass(frozen=True, slots=True)
class Charge:
    """One team's charge for one option, in cents."""

    team: str
    used_cents: int
    idle_cents: int

    @property
    def cents(self) -> int:
        return self.used_cents + self.idle_cents


@dataclass(frozen=True, slots=True)
class OptionCharges:
    """One option's cost split over teams; `sum(charges) + idle_cents == total_cents`."""

    option: str
    total_cents: int
    rule: Rule
    """The rule applied: the one asked for, or `use` when `quota` had no quotas."""
    charges: tuple[Charge, ...]
    idle_cents: int
    """Cost on the separate idle line (rule `idle`, or no team to spread it on)."""

    def charge(self, team: str) -> Charge | None:
        return next((c for c in self.charges if c.team == team), None)


def cents(amount: float) -> int:
    """`amount` rounded to a whole number of cents (half away from zero)."""
    return int(Fraction(amount) * 100 + (Fraction(1, 2) if amount >= 0 else Fraction(-1, 2)))


def split_cents(amount: int, weights: Sequence[float]) -> list[int]:
    """`amount` cents in whole cents proportional to `weights` (largest remainder; ties go to
    the earlier weight). Sums to `amount` exactly; all zeros if the weights sum to zero."""
    total = sum(Fraction(w) for w in weights)
    if total <= 0 or amount == 0:
        return [0] * len(weights)
    sign, whole = (1, amount) if amount > 0 else (-1, -amount)
    exact = [whole * Fraction(w) / total for w in weights]
    shares = [int(x) for x in exact]  # int() floors a positive Fraction
    left = whole - sum(shares)
    by_remainder = sorted(range(len(exact)), key=lambda k: (-(exact[k] - shares[k]), k))
    for k in by_remainder[:left]:
        shares[k] += 1
    return [sign * s for s in shares]


def allocate(
    option: str,
    total: float,
    idle: float | None,
    usage: Mapping[str, float],
    quotas: Mapping[str, float],
    *,
    rule: Rule,
) -> OptionCharges:
    """`total` (the option's cost over the horizon) split over the teams of `usage` and
    `quotas` by `rule`; `idle` is the part no job used (None or 0 for a cloud option)."""
    total_c = cents(total)
    idle_c = min(max(cents(idle or 0.0), 0), max(total_c, 0))
    teams = sorted({*usage, *quotas})
    used = [max(usage.get(t, 0.0), 0.0) for t in teams]
    if not any(used):  # nothing ran: the whole cost is idle
        idle_c = total_c
    applied: Rule = "use" if rule == "quota" and not any(quotas.values()) else rule
    used_split = split_cents(total_c - idle_c, used)
    weights = {"use": used, "quota": [max(quotas.get(t, 0.0), 0.0) for t in teams]}
    idle_split = split_cents(idle_c, weights[applied]) if applied != "idle" else [0] * len(teams)
    charges = tuple(
        Charge(team, u, i) for team, u, i in zip(teams, used_split, idle_split, strict=True)
    )
    left = total_c - sum(c.cents for c in charges)
    return OptionCharges(option, total_c, applied, charges, left)


def charge_options(
    options: Sequence[tuple[str, float, float | None]], data: ChargebackData, rule: Rule
) -> list[OptionCharges]:
    """Each (option name, total, idle cost) split by `rule`, with the GPU-hours `data` has
    for that option (an option it has none for puts its whole cost on the idle line)."""
    return [
        allocate(name, total, idle, data.usage.get(name, {}), data.quotas, rule=rule)
        for name, total, idle in options
    ]
