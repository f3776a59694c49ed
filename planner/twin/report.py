"""The twin check's results: plain frozen types the CLI, the service and the pages read by
attribute and `planner.core.serialize` turns into JSON. Nothing here computes anything."""

from dataclasses import dataclass, field

from planner.engine.policy import Admission, Queueing

WAIT_RATIO_LIMIT = 2.0
"""A replayed wait quantile within this factor of the observed one (either way) matches."""
WITHDRAWN_LIMIT = 0.10
"""Replayed withdrawn jobs within this share of the observed count match."""
CLOSED_SYSTEM_SHARE = 0.20
"""Below this mean share of the node list's GPUs in use by the history's own jobs, the
cluster was busy with work the history does not show: a replay on the whole node list is
not the cluster the jobs met."""


@dataclass(frozen=True, slots=True)
class WaitQuantiles:
    jobs: int
    p50: float | None
    p90: float | None
    p99: float | None
    mean: float | None


@dataclass(frozen=True, slots=True)
class GroupWaits:
    """Observed and replayed waits of one group of jobs (a GPU-size class or a team)."""

    group: str
    observed: WaitQuantiles
    replayed: WaitQuantiles


@dataclass(frozen=True, slots=True)
class Miss:
    """One figure outside the verdict's thresholds: `quantity` is p50, p90, p99 or
    withdrawn."""

    quantity: str
    replayed: float
    observed: float


@dataclass(frozen=True, slots=True)
class Comparison:
    """Observed against replayed, for the jobs submitted in one window."""

    window_s: tuple[float, float]
    jobs: int
    observed: WaitQuantiles
    replayed: WaitQuantiles
    ratios: dict[str, float | None]
    """replayed / observed for p50, p90, p99 and mean (None where observed is 0)."""
    waited_share: tuple[float, float]
    """Share of started jobs that waited more than 0 s: observed, replayed."""
    waiting_gpu_hours: tuple[float, float]
    ks_distance: float | None
    """Kolmogorov-Smirnov: the largest gap between the two wait distributions (0 to 1)."""
    wasserstein_s: float | None
    """Earth mover's distance between the two wait distributions, in seconds."""
    allocation_bin_s: float
    allocation_correlation: float | None
    allocation_error: float | None
    """Mean absolute difference of allocated GPUs per bin / mean observed allocated GPUs."""
    allocation_level_error: float | None
    """|replayed - observed| allocated GPU-hours over the window / observed."""
    withdrawn: tuple[int, int]
    """Jobs withdrawn (never started): observed, replayed."""
    by_size: tuple[GroupWaits, ...]
    by_team: tuple[GroupWaits, ...]
    misses: tuple[Miss, ...]
    """What keeps the replay from matching (empty: it matches)."""
    matches: bool
    verdict: str


@dataclass(frozen=True, slots=True)
class LatencyClass:
    """One pod-size class's fitted start latency (from uncontended starts of the fit window)."""

    label: str
    description: str
    jobs: int
    p50_s: float
    p90_s: float
    never_placed_share: float
    """Share of the class's jobs withdrawn without ever starting on the history's cluster."""


@dataclass(frozen=True, slots=True)
class CapacityFit:
    share: float
    gpus: int
    score: float


@dataclass(frozen=True, slots=True)
class PolicyFit:
    admission: Admission
    queueing: Queueing
    score: float
    """The wait score (see `planner.twin.calibrate`) plus 1 - `order_agreement`."""
    order_agreement: float | None = None
    """Spearman rank correlation of observed and replayed start times (fit window)."""


@dataclass(frozen=True, slots=True)
class Calibration:
    fit_until_s: float
    latency: tuple[LatencyClass, ...]
    effective_gpu_share: float
    effective_gpus: int
    capacity_scores: tuple[CapacityFit, ...]
    policy_scores: tuple[PolicyFit, ...]
    policy: PolicyFit
    policies_alike: bool
    """The scores are within 1% of each other: the history cannot tell the policies apart."""
    background_given: bool = False
    """The scenario gives the background load (online GPUs by hour): accepted, not fitted."""
    peak_gpus: float = 0.0
    """The most GPUs the history's own jobs held at once: the fit's floor."""
    peak_gpus_by_pool: dict[str, float] = field(default_factory=dict)
    """The same per GPU type, of the jobs that name one type: each pool's floor."""
    floored: bool = False
    """The fit chose the floor: it would have gone below what the history held at once."""


@dataclass(frozen=True, slots=True)
class JobRow:
    """One job of the per-job table (`planner twin --out`)."""

    job_id: str
    team: str
    size_class: str
    window: str
    submit_s: float
    observed_start_s: float | None
    observed_wait_s: float | None
    replayed_start_s: float | None
    replayed_wait_s: float | None
    residual_s: float | None
    """Replayed wait - observed wait."""


@dataclass(frozen=True, slots=True)
class ArrivalShift:
    at_s: float
    """The split: the first submission time of the later side."""
    per_day: tuple[float, float]
    """Submissions a day before and after the split."""
    p50_s: tuple[float | None, float | None]
    p90_s: tuple[float | None, float | None]
    """Observed waits before and after (None where no job of that side started)."""


@dataclass(frozen=True, slots=True)
class TwinReport:
    trace: str
    cluster: str
    jobs: int
    jobs_with_observed_start: int
    node_gpus: int
    history_gpu_share: float
    """Mean GPUs the history's own jobs held / the node list's GPUs."""
    closed_system_warning: bool
    """`history_gpu_share` is below `CLOSED_SYSTEM_SHARE`."""
    notes: tuple[str, ...]
    fit: Comparison
    """The calibrated replay on the fit window (what the fit saw)."""
    before: Comparison
    """The plain replay (no latency, whole node list) on the validation window."""
    after: Comparison
    """The calibrated replay on the validation window (held back from the fit)."""
    calibration: Calibration
    verdict: str
    arrival_shift: ArrivalShift | None = None
    """Where the validation window's arrival rate changes most, if it changes enough
    (`planner.twin.arrivals`)."""
