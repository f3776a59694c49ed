"""A TCO scenario as users write it (YAML): what to own, what to rent, over which horizons.

Prices left out come from the price book (`planner prices`); numbers given here override it.
Without a trace the demand is `utilization` of the owned GPUs; with one, the replay says it.
"""

from datetime import date
from typing import Annotated, Literal, Self

from pydantic import Field, field_validator, model_validator

from planner.core.config import MAX_NODES, NodeSpec, Whole
from planner.core.configbase import ConfigModel
from planner.core.errors import CodedValueError, ScenarioError
from planner.core.notes import cloud_label
from planner.cost.cloud import PricingModel
from planner.cost.elsewhere_spec import ServedElsewhereSpec
from planner.cost.pool_defaults import PROVISIONING, SCALE_DOWN, Packing
from planner.engine.calibration import CalibrationSpec
from planner.engine.scenario import (
    ColocationSpec,
    OverheadSpec,
    PolicySpec,
    PreemptionCostSpec,
    PrioritiesSpec,
    QueuesSpec,
    Scenario,
    SharingSpec,
)
from planner.engine.volcano import VolcanoSpec

DAY_S = 86_400.0
"""A node pool's delays are at most a day."""
MAX_INSTANCES = 1_000_000
MAX_HORIZON_YEARS = 50
"""A horizon is priced month by month: 50 years is 600 months, and beyond it no server,
price or discount rate means anything."""
MAX_HORIZONS = 10
MAX_SERVERS = MAX_NODES
"""Per pool and in all, as a replay cluster's nodes: each server is a node of the replay."""
MAX_AMOUNT = 1e8
"""The largest price or amount a scenario may give (a server, an hour, a GB), as the price book
bounds its prices: past it NPVs run to hundreds of digits and charts to infinity."""
MAX_RATE = 10.0
"""The largest discount or escalation rate a year (1,000 %)."""
Years = Annotated[float, Field(gt=0, le=MAX_HORIZON_YEARS)]


class OwnedPoolSpec(ConfigModel):
    """Identical servers; price and power default to the price book's server for the GPU."""

    gpu: str = Field(min_length=1)
    servers: Whole = Field(ge=1, le=MAX_SERVERS)
    gpus_per_server: Whole = Field(default=8, ge=1, le=64)
    price: float | None = Field(default=None, ge=0, le=MAX_AMOUNT, description="per server")
    currency: str | None = Field(default=None, description="of `price` (default: reporting)")
    idle_kw: float | None = Field(default=None, ge=0)
    load_kw: float | None = Field(default=None, ge=0)
    max_kw: float | None = Field(default=None, ge=0)
    cpu: float = Field(
        default=0.0, ge=0, description="cores per server in the replay (0 = not limited)"
    )
    mem_gib: float = Field(
        default=0.0, ge=0, description="GiB per server in the replay (0 = not limited)"
    )


class CpuServersSpec(ConfigModel):
    """Owned CPU servers for CPU-only jobs (scope all-jobs): priced like any server (CapEx,
    energy at `power_kw` all the time, colocation, support, staff per server)."""

    count: Whole = Field(ge=1, le=MAX_SERVERS)
    price: float = Field(ge=0, le=MAX_AMOUNT, description="per server")
    currency: str | None = Field(default=None, description="of `price` (default: reporting)")
    power_kw: float = Field(ge=0, description="per server, drawn and contracted")
    cpu: float = Field(gt=0, description="cores per server")
    mem_gib: float = Field(gt=0, description="GiB per server")


class SchedulingSpec(ConfigModel):
    """A replay scenario's scheduling set-up beyond `policy` (queues, sharing, priorities,
    ...), so the TCO replay schedules the owned servers the way `planner replay` would."""

    queues: QueuesSpec | None = None
    volcano: VolcanoSpec | None = None
    overhead: OverheadSpec | None = None
    colocation: ColocationSpec | None = None
    sharing: tuple[SharingSpec, ...] = ()
    priorities: PrioritiesSpec | None = None
    preemption: PreemptionCostSpec = PreemptionCostSpec()
    calibration: CalibrationSpec | None = Field(
        default=None, description="start latency and error bar fitted by `planner twin`"
    )


class SpotSpec(ConfigModel):
    interruptions_per_hour: float = Field(default=0.05, ge=0)
    restart_s: float = Field(default=300.0, ge=0)
    checkpoint_interval_s: float | None = Field(default=3600.0, gt=0)


class CloudSpec(ConfigModel):
    """A rented option: the price book's SKUs for `gpu` under one pricing model."""

    name: str | None = None
    gpu: str = Field(min_length=1)
    provider: str | None = None
    region: str | None = None
    instance: str | None = Field(default=None, description="one instance type only")
    pricing_model: PricingModel = "on_demand"
    term_months: Whole | None = Field(default=None, ge=1, le=120)
    price_per_gpu_hour: float | None = Field(
        default=None,
        ge=0,
        le=MAX_AMOUNT,
        description="instead of the price book (reporting currency)",
    )
    committed_gpus: float | None = Field(
        default=None, ge=0, description="capacity paid every hour; demand above it on demand"
    )
    committed_gpus_by_year: tuple[Annotated[float, Field(ge=0)], ...] = Field(
        default=(),
        max_length=MAX_HORIZON_YEARS,
        description="with growth, instead of committed_gpus: year 1 first (later years keep "
        "the last); a year's 0 commits nothing, its demand all on demand",
    )
    overflow: str | None = Field(
        default=None,
        description="with a commitment: the cloud option (its name) whose prices bill the "
        "demand above the committed GPUs, e.g. a spot option; default: this option on demand",
    )
    spot: SpotSpec | None = None
    startup_s: float = Field(default=0.0, ge=0, description="billed per job start")
    storage_gb: float = Field(default=0.0, ge=0, description="kept in the cloud every month")
    storage_price_gb_month: float = Field(
        default=0.0, ge=0, le=MAX_AMOUNT, description="reporting currency"
    )
    egress_gb_month: float = Field(default=0.0, ge=0, description="data out each month")
    egress_price_gb: float = Field(
        default=0.0, ge=0, le=MAX_AMOUNT, description="reporting currency"
    )
    price_per_vcpu_hour: float | None = Field(
        default=None,
        ge=0,
        le=MAX_AMOUNT,
        description="CPU instances (scope all-jobs; default: price book)",
    )
    price_per_gib_hour: float | None = Field(
        default=None, ge=0, le=MAX_AMOUNT, description="CPU instances' memory (scope all-jobs)"
    )
    packing: Packing = Field(
        default="pool",
        description="pool (default): pods share the instances of an autoscaled node pool "
        "(launched when a pod fits none, released after standing empty for scale_down_s), "
        "as Kubernetes rents them; per-job: each job on instances of its own",
    )
    provisioning_s: float | None = Field(
        default=None,
        ge=0,
        le=DAY_S,
        description="pool: launch to ready of an instance (default: the assumption set's "
        f"{PROVISIONING.name}, {PROVISIONING.value:g} s in reference-defaults)",
    )
    scale_down_s: float | None = Field(
        default=None,
        ge=0,
        le=DAY_S,
        description="pool: an empty instance is released after (default: the assumption "
        f"set's {SCALE_DOWN.name}, {SCALE_DOWN.value:g} s in reference-defaults)",
    )
    max_instances: Whole | None = Field(
        default=None,
        ge=1,
        le=MAX_INSTANCES,
        description="pool: instances up at once (the account's quota)",
    )

    @model_validator(mode="after")
    def _one_commitment(self) -> Self:
        if self.committed_gpus is not None and self.committed_gpus_by_year:
            raise CodedValueError(
                "give `committed_gpus` or `committed_gpus_by_year`, not both",
                "commitment_two_sizes",
            )
        return self

    @model_validator(mode="after")
    def _pool_settings(self) -> Self:
        if self.packing == "per-job" and self.max_instances is not None:
            raise CodedValueError(
                f"cloud option '{self.label()}': `max_instances` caps a node pool: give "
                "`packing: pool` too, or leave `max_instances` out",
                "per_job_cap",
                option=self.label(),
            )
        return self

    def committed_in(self, year: int) -> float | None:
        """The GPUs committed in year `year` (1 = the trace's; None: none by year)."""
        by_year = self.committed_gpus_by_year
        return by_year[min(year, len(by_year)) - 1] if by_year else None

    def data_costs(self) -> dict[str, float]:
        """Storage and egress a month (only the ones given)."""
        costs = {
            "storage": self.storage_gb * self.storage_price_gb_month,
            "egress": self.egress_gb_month * self.egress_price_gb,
        }
        return {k: v for k, v in costs.items() if v}

    def label(self) -> str:
        """Its name; our own ("AWS H100 on_demand", or the option form's "AWS H100 reserved
        36m") as a coded note, so a report in Chinese says the pricing model in words."""
        sku = self.instance or self.gpu
        ours = cloud_label(self.provider or "", sku, self.pricing_model)
        if not self.name or self.name == ours:
            return ours
        termed = cloud_label(self.provider or "", sku, self.pricing_model, self.term_months)
        return termed if self.name == termed else self.name


class HybridSpec(ConfigModel):
    """Own the self-hosted servers and burst a job to the cloud once it has waited this long."""

    burst_after_s: float = Field(ge=0)
    cloud: str | None = Field(default=None, description="the cloud option bursts go to")
    servers: dict[str, Annotated[Whole, Field(ge=0, le=MAX_SERVERS)]] = Field(
        default_factory=dict,
        description="servers kept per self-hosted GPU type (default: as self_hosted)",
    )


SynthProfile = Literal["philly", "helios", "llm", "teams"]
"""`planner.synth.profiles.PROFILES`' names (tests/test_growth.py checks they agree)."""


class TeamGrowthSpec(ConfigModel):
    """A synthetic team that joins from a year on (`planner.synth.profiles` profiles)."""

    name: str = Field(min_length=1, max_length=80, description="its queue")
    profile: SynthProfile = Field(description="a `planner synth` profile")
    from_year: Whole = Field(default=1, ge=1, le=MAX_HORIZON_YEARS)
    share: float = Field(gt=0, le=100, description="its GPU-hours as a share of the year's")
    gpu: str = Field(default="", description="GPU type its jobs ask for (default: any)")


class GrowthSpec(ConfigModel):
    """Demand growth over the horizon: each year's months are priced from that year's replay.

    Year 1 is the trace's; `arrival_rate` gives each year's factor on the trace's arrival
    rate (years past the list keep its last factor), `arrival_rate_per_year` compounds one;
    `time_warp` runs each year's clock faster (the same jobs in a shorter span)."""

    arrival_rate: tuple[Annotated[float, Field(ge=0, le=1000)], ...] = Field(
        default=(), max_length=MAX_HORIZON_YEARS, description="factor per year, year 1 first"
    )
    arrival_rate_per_year: float | None = Field(
        default=None, gt=0, le=100, description="year k's factor is this to the power k - 1"
    )
    time_warp: tuple[Annotated[float, Field(gt=0, le=1000)], ...] = Field(
        default=(),
        max_length=MAX_HORIZON_YEARS,
        description="per year, year 1 first: the trace's clock runs this much faster",
    )
    add_team: TeamGrowthSpec | None = None
    seed: int = Field(default=0, ge=0, description="the resampling's seed")

    @model_validator(mode="after")
    def _one_rate(self) -> Self:
        if self.arrival_rate and self.arrival_rate_per_year is not None:
            raise CodedValueError(
                "give `arrival_rate` (per year) or `arrival_rate_per_year`, not both",
                "growth_two_rates",
            )
        return self

    def factor(self, year: int) -> float:
        """Year `year`'s (1 = the trace's) factor on the trace's arrival rate."""
        if self.arrival_rate_per_year is not None:
            return float(self.arrival_rate_per_year ** (year - 1))
        if self.arrival_rate:
            return self.arrival_rate[min(year, len(self.arrival_rate)) - 1]
        return 1.0

    def warp(self, year: int) -> float:
        """Year `year`'s time-warp (years past the list keep its last one)."""
        return self.time_warp[min(year, len(self.time_warp)) - 1] if self.time_warp else 1.0


class TcoScenario(ConfigModel):
    name: str = ""
    currency: str = Field(default="USD", min_length=3, max_length=3)
    fx_date: date | None = Field(default=None, description="date of the FX rates (default today)")
    horizons_years: tuple[Years, ...] = Field(
        default=(3.0, 5.0),
        min_length=1,
        max_length=MAX_HORIZONS,
        description=f"years, each more than 0 and at most {MAX_HORIZON_YEARS}",
    )
    discount_rate: float = Field(default=0.08, gt=-1, le=MAX_RATE)
    utilization: float | None = Field(
        default=None, ge=0, le=1, description="allocated share of owned GPUs, without a trace"
    )
    trace: str | None = Field(default=None, description="job history file or stored trace id")
    policy: PolicySpec = PolicySpec()
    assumptions: str = Field(default="reference-defaults", description="price book set")
    overrides: dict[str, float | tuple[float, ...] | str] = Field(
        default_factory=dict, description="bare-metal assumptions (planner/cost/baremetal.py names)"
    )
    scheduling: SchedulingSpec | None = Field(
        default=None,
        description="queues, sharing, priorities, ... of the replay (a replay scenario's)",
    )
    self_hosted: tuple[OwnedPoolSpec, ...] = Field(
        default=(), description="servers to own; none: a cloud-only scenario"
    )
    cloud: tuple[CloudSpec, ...] = ()
    hybrid: HybridSpec | None = None
    served_elsewhere: ServedElsewhereSpec = Field(
        default=ServedElsewhereSpec(),
        description="demand an option leaves unserved, priced as bought elsewhere",
    )
    speed: dict[str, float] = Field(
        default_factory=dict,
        description="'H100/A100': 2.0 means an H100 runs A100 jobs twice as fast (default 1.0)",
    )
    sensitivity_swing: float = Field(default=0.2, gt=0, lt=1)
    scope: Literal["gpu-jobs", "all-jobs"] = Field(
        default="gpu-jobs",
        description="gpu-jobs: CPU-only jobs are left out of every option; all-jobs: they "
        "are priced on CPU instances in the cloud and on owned CPUs (GPU servers with cpu "
        "and mem_gib, or cpu_servers), or left out of every option if they have no owned home",
    )
    cpu_servers: CpuServersSpec | None = Field(
        default=None, description="owned CPU servers for CPU-only jobs (scope all-jobs)"
    )
    exclude_failed: bool = Field(
        default=False, description="failed and cancelled jobs' work is not useful"
    )
    wait_scope: str = Field(
        default="gpu-jobs",
        pattern=r"^(gpu-jobs|all-jobs|team:.+)$",
        description="whose waits the options report and the capacity target uses: gpu-jobs "
        "(jobs asking for GPUs), all-jobs or team:NAME (one queue's jobs)",
    )
    growth: GrowthSpec | None = Field(
        default=None, description="demand growth by year of the horizon (needs a trace)"
    )

    @field_validator("self_hosted")
    @classmethod
    def _servers_in_all(cls, pools: tuple[OwnedPoolSpec, ...]) -> tuple[OwnedPoolSpec, ...]:
        servers = sum(p.servers for p in pools)
        if servers > MAX_SERVERS:
            raise CodedValueError(
                f"{servers:,} servers in all ({len(pools):,} pools), more than the "
                f"{MAX_SERVERS:,} the planner replays and prices; describe at most that many",
                "too_many_servers",
                servers=servers,
                pools=len(pools),
                limit=MAX_SERVERS,
            )
        return pools

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if not self.self_hosted and not self.cloud:
            raise CodedValueError(
                "give servers to own (`self_hosted`), cloud options (`cloud`) or both", "no_options"
            )
        if self.hybrid and not self.self_hosted:
            raise CodedValueError("hybrid needs self-hosted servers to keep", "hybrid_no_owned")
        if self.hybrid and not self.cloud:
            raise CodedValueError("hybrid needs a cloud option to burst to", "hybrid_no_cloud")
        names = [c.label() for c in self.cloud]
        if self.hybrid and self.hybrid.cloud and self.hybrid.cloud not in names:
            raise CodedValueError(
                f"hybrid.cloud '{self.hybrid.cloud}' is not a cloud option",
                "hybrid_unknown_cloud",
                cloud=self.hybrid.cloud,
            )
        owned = {p.gpu.upper() for p in self.self_hosted}
        for gpu, count in (self.hybrid.servers if self.hybrid else {}).items():
            if gpu.upper() not in owned or count < 0:
                raise CodedValueError(
                    f"hybrid.servers: '{gpu}: {count}' is not a self-hosted pool",
                    "hybrid_servers_not_owned",
                    gpu=gpu,
                    count=count,
                )
        if len(set(names)) != len(names):
            raise CodedValueError(
                "two cloud options have the same name: give them `name`s", "duplicate_cloud_names"
            )
        by_name = {c.label(): c for c in self.cloud}
        for c in self.cloud:
            _check_overflow(c, by_name)
        if self.growth is None and any(c.committed_gpus_by_year for c in self.cloud):
            raise CodedValueError(
                "`committed_gpus_by_year` needs `growth:` (each year priced from its own "
                "replay); without it give `committed_gpus`",
                "commitment_by_year_no_growth",
            )
        for key, value in self.speed.items():
            if "/" not in key or value <= 0:
                raise CodedValueError(
                    f"speed '{key}: {value}': write 'FAST/SLOW: factor > 0'",
                    "speed_format",
                    key=key,
                    value=value,
                )
        return self

    def overflow_of(self, spec: CloudSpec) -> CloudSpec:
        """The option that bills demand above `spec`'s committed GPUs: the one its
        `overflow` names (a spot option, say), else `spec` itself on demand."""
        named = next((c for c in self.cloud if c.label() == spec.overflow), None)
        if named is not None:
            return named
        return spec.model_copy(update={"pricing_model": "on_demand", "term_months": None})

    def replay_scenario(self) -> Scenario:
        """The replay scenario (no trace, no cluster) whose policy the owned servers run."""
        parts = self.scheduling.model_dump(exclude_unset=True) if self.scheduling else {}
        return Scenario.model_validate({"policy": self.policy.model_dump(), **parts})


def _check_overflow(spec: CloudSpec, options: dict[str, CloudSpec]) -> None:
    """`overflow` names another option, without a commitment of its own, of a committed one."""
    if spec.overflow is None:
        return
    target = options.get(spec.overflow)
    if not (spec.committed_gpus or spec.committed_gpus_by_year):
        raise CodedValueError(
            f"cloud option '{spec.label()}': `overflow` bills the demand above committed "
            "GPUs: give `committed_gpus` too, or leave `overflow` out",
            "overflow_without_commitment",
            option=spec.label(),
        )
    if target is None or target is spec:
        raise CodedValueError(
            f"cloud option '{spec.label()}': overflow '{spec.overflow}' is not another cloud "
            "option",
            "overflow_unknown_cloud",
            option=spec.label(),
            overflow=spec.overflow,
        )
    if target.committed_gpus or target.committed_gpus_by_year or target.overflow:
        raise CodedValueError(
            f"cloud option '{spec.label()}': overflow '{spec.overflow}' has a commitment "
            "of its own: name an on-demand or spot option",
            "overflow_committed",
            option=spec.label(),
            overflow=spec.overflow,
        )


def tco_from_replay(scenario: Scenario, nodes: list[NodeSpec], **fields: object) -> TcoScenario:
    """A replay scenario priced as owning its cluster: one self-hosted pool per run of
    identical GPU nodes (price and power from the price book), its policy and scheduling
    set-up; `fields` (cloud, horizons_years, currency, ...) are added as given."""
    pools: list[dict[str, object]] = []
    for _, gpu_type, gpus, cpu, mem_gib in nodes:
        if not gpus:
            continue  # CPU-only nodes are not priced as GPU servers
        shape = {"gpu": gpu_type, "gpus_per_server": int(gpus), "cpu": cpu, "mem_gib": mem_gib}
        if pools and {k: v for k, v in pools[-1].items() if k != "servers"} == shape:
            pools[-1]["servers"] = int(str(pools[-1]["servers"])) + 1
        else:
            pools.append({**shape, "servers": 1})
    if not pools:
        raise ScenarioError(f"scenario '{scenario.name}': its cluster has no GPU nodes to price")
    scheduling = scenario.model_dump(
        include={
            "queues",
            "volcano",
            "overhead",
            "colocation",
            "sharing",
            "priorities",
            "preemption",
            "calibration",
        },
        exclude_defaults=True,
    )
    data: dict[str, object] = {
        "name": scenario.name,
        "trace": scenario.trace,
        "policy": scenario.policy.model_dump(),
        "self_hosted": pools,
        **({"scheduling": scheduling} if scheduling else {}),
        **fields,
    }
    return TcoScenario.model_validate(data)
