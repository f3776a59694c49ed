"""A scenario's `calibration:` block: what `planner twin` fitted on a history, as YAML.

`planner twin` writes it; every replay of the scenario reads it. The start latency is applied
(`Policy.start_latency`); the rest is reported: the history the fit came from, the share of
its node list its jobs effectively had, the policy that best explained the observed order,
and the validation window's error, which every what-if made from the scenario carries as its
error bar (`planner replay --json`'s `calibration`). A hand-written
`calibration: {start_latency: {fixed_s: 20}}` gives every job a flat 20 s floor.
"""

from collections.abc import Mapping
from typing import Annotated, Self

from pydantic import Field, model_validator

from planner.core.configbase import ConfigModel
from planner.core.notes import note
from planner.engine.latency import SizeClasses, StartLatency
from planner.engine.policy import MAX_SIMULATED_S
from planner.engine.summary import CalibrationNote, ValidationRatios

Latency = Annotated[float, Field(ge=0, le=MAX_SIMULATED_S)]
Ratio = Annotated[float, Field(ge=0)]


class StartLatencySpec(ConfigModel):
    """Fitted start latency per pod-size class (see `planner.engine.latency`)."""

    seed: int = 0
    share_split: float = Field(
        default=0.5, gt=0, lt=1, description="shares of one GPU below this are 'share-small'"
    )
    mem_edges_gib: tuple[float, ...] = Field(
        default=(), description="memory bands' edges (GiB per pod), ascending"
    )
    quantiles: dict[str, tuple[Latency, ...]] = Field(
        default_factory=dict,
        description="class label (gpu1/mem0, or a GPU band alone) -> latency in seconds at "
        "equally spaced probabilities 0..1, ascending",
    )
    fallback: tuple[Latency, ...] = Field(
        default=(), description="every job's latency quantiles, for classes not listed"
    )
    fixed_s: Latency | None = Field(
        default=None, description="one latency for every job instead of the tables"
    )

    @model_validator(mode="after")
    def _tables(self) -> Self:
        if self.fixed_s is None and not self.fallback:
            raise ValueError("start_latency needs `fallback` quantiles, or `fixed_s`")
        if list(self.mem_edges_gib) != sorted(self.mem_edges_gib):
            raise ValueError("start_latency.mem_edges_gib must be ascending")
        try:
            self.to_start_latency()
        except ValueError as err:
            raise ValueError(str(err)) from None
        return self

    def to_start_latency(self) -> StartLatency:
        fallback = self.fallback or (self.fixed_s or 0.0,)
        return StartLatency(
            classes=SizeClasses(self.share_split, self.mem_edges_gib),
            quantiles=dict(self.quantiles),
            fallback=fallback,
            seed=self.seed,
            fixed_s=self.fixed_s,
        )

    @classmethod
    def from_latency(cls, latency: StartLatency) -> "StartLatencySpec":
        return cls(
            seed=latency.seed,
            share_split=latency.classes.share_split,
            mem_edges_gib=latency.classes.mem_edges_gib,
            quantiles={label: tuple(table) for label, table in latency.quantiles.items()},
            fallback=latency.fallback,
            fixed_s=latency.fixed_s,
        )


class PolicyFitSpec(ConfigModel):
    """The admission and queueing that best explained the observed start order."""

    admission: str
    queueing: str
    score: float | None = None


class ValidationSpec(ConfigModel):
    """Replayed / observed on the held-back validation window: the what-ifs' error bar."""

    p50_ratio: Ratio | None = None
    p90_ratio: Ratio | None = None
    p99_ratio: Ratio | None = None
    withdrawn_ratio: Ratio | None = None
    verdict: str = ""
    allocation_error: Ratio | None = Field(
        default=None,
        description="mean absolute error of the allocated GPUs per bin / mean observed",
    )
    allocation_level_error: Ratio | None = Field(
        default=None,
        description="|replayed - observed| allocated GPU-hours over the validation window / "
        "observed (the Monte Carlo's demand spread)",
    )


class CalibrationSpec(ConfigModel):
    """What `planner twin` fitted; only `start_latency` changes what a replay does."""

    fitted_on: str = Field(default="", description="the history fitted: trace name (id)")
    fit_until_s: float | None = Field(default=None, description="end of the fit window")
    validation_window_s: tuple[float, float] | None = None
    start_latency: StartLatencySpec | None = None
    effective_gpu_share: float = Field(
        default=1.0,
        gt=0,
        description="share of the history's node list its jobs effectively had (reported, "
        "not applied to what-if clusters)",
    )
    policy_fit: PolicyFitSpec | None = None
    validation: ValidationSpec | None = Field(
        default=None, description="the error bar every what-if from this scenario carries"
    )

    @classmethod
    def from_fit(
        cls,
        latency: StartLatency | None,
        *,
        fitted_on: str,
        fit_until_s: float,
        validation_window_s: tuple[float, float],
        effective_gpu_share: float = 1.0,
        policy_fit: Mapping[str, object] | None = None,
        validation: Mapping[str, object] | None = None,
    ) -> "CalibrationSpec":
        """The block `planner twin` writes: its fitted latency and what it measured.

        `policy_fit`: {admission, queueing, score}; `validation`: {p50_ratio, p90_ratio,
        p99_ratio, withdrawn_ratio, verdict, allocation_error} (ratios replayed / observed,
        None where the observed value is 0)."""
        return cls(
            fitted_on=fitted_on,
            fit_until_s=fit_until_s,
            validation_window_s=validation_window_s,
            start_latency=None if latency is None else StartLatencySpec.from_latency(latency),
            effective_gpu_share=effective_gpu_share,
            policy_fit=None if policy_fit is None else PolicyFitSpec.model_validate(policy_fit),
            validation=None if validation is None else ValidationSpec.model_validate(validation),
        )

    def error_bar(self) -> CalibrationNote | None:
        """What replay results carry (None without a validation)."""
        if self.validation is None:
            return None
        v = self.validation
        return CalibrationNote(
            fitted_on=self.fitted_on,
            fit_until_s=self.fit_until_s,
            validation_window_s=self.validation_window_s,
            effective_gpu_share=self.effective_gpu_share,
            validation=ValidationRatios(
                v.p50_ratio, v.p90_ratio, v.p99_ratio, v.withdrawn_ratio, v.verdict
            ),
        )


def error_bar_text(bar: CalibrationNote) -> str:
    """A calibrated replay's error bar in one line (`planner replay`, TCO notes): a coded
    note, so the reports and pages can word it (the verdict stays as `planner twin` wrote it)."""
    v = bar.validation

    def times(ratio: float | None) -> str:
        return note("not_available") if ratio is None else f"x{round(ratio, 2)}"

    said = {
        "fitted_on": bar.fitted_on or note("a_history"),
        "p50": times(v.p50_ratio),
        "p90": times(v.p90_ratio),
        "p99": times(v.p99_ratio),
        "withdrawn": times(v.withdrawn_ratio),
    }
    if v.verdict:
        return note("calibrated_verdict", **said, verdict=v.verdict)
    return note("calibrated", **said)
