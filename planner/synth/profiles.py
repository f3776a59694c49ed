"""The calibration table of the synthetic trace profiles: numbers and where they come from.

Data only: `planner.synth` turns a `Profile` into distributions and streams the rows. Every
figure copied from a published source names its file and row; the rest are our assumptions,
flagged where set.
"""

from dataclasses import dataclass

_DAY_S = 86_400


@dataclass(frozen=True, slots=True)
class Campaigns:
    """Each team alternates campaigns (deadline pushes) and quiet spells, on its own clock.

    Spell lengths are uniform in 0.5-1.5 times their mean; a quiet spell submits at
    `quiet_level` times the team's long-run rate and a campaign at whatever level keeps that
    long-run rate (so a team's share of the jobs is its weight, campaigns or not).
    """

    campaign_days: float
    quiet_days: float
    quiet_level: float

    @property
    def campaign_level(self) -> float:
        duty = self.campaign_days / (self.campaign_days + self.quiet_days)
        return (1.0 - (1.0 - duty) * self.quiet_level) / duty


@dataclass(frozen=True, slots=True)
class Profile:
    """Calibration of one synthetic cluster; times in seconds, shares in 0–1.

    `gpu_mean`, `gpu_max`, run and queue statistics and `status_shares` are copied from the
    trace authors' summaries; the remaining fields are our assumptions, flagged where set.
    """

    name: str
    utc_offset_h: int
    jobs_per_day: float
    gpu_mean: float
    gpu_max: int
    single_gpu_share: float  # ≥ 0.5 keeps the median at 1 GPU, as in every source row
    run_median_s: float
    run_mean_s: float
    run_max_s: float
    queue_zero_share: float  # jobs that start the second they are submitted
    queue_nonzero_median_s: float
    queue_mean_s: float  # over all jobs, zeros included
    queue_max_s: float
    status_shares: tuple[tuple[str, float], ...]  # completed, cancelled, failed
    gpu_types: tuple[tuple[str, float], ...]  # "" = any type will do
    teams: int
    users_per_team: int
    cpu_per_gpu: tuple[int, int]
    mem_gib_per_gpu: tuple[int, int]
    team_weights: tuple[float, ...] = ()  # shares of the jobs; () = Zipf over `teams`
    campaigns: Campaigns | None = None  # None: every team follows the common cycle only
    run_gpu_exponent: float = 0.0  # run times scale as gpus ** this (0: independent)

    def __post_init__(self) -> None:
        if self.team_weights and len(self.team_weights) != self.teams:
            weights = len(self.team_weights)
            raise ValueError(f"{self.name}: {self.teams} teams but {weights} weights")


_QUEUE_MAX_S = 14 * _DAY_S  # assumption: the sources give no queue-time maximum

# Mean demand (running + pending GPUs) of the 8 busiest virtual clusters of Helios Earth,
# May 2020: earth_vc_sequences/{vc6YE,vcvlY,vcpDC,vcLJZ,vc3sl,vcTJs,vcMod,vc8Sj}.csv.gz.
_EARTH_VC_DEMAND_GPUS = (207.6, 68.0, 65.0, 61.7, 40.4, 40.1, 39.8, 28.2)

PROFILES: dict[str, Profile] = {
    # Source: /work/shared/traces/helios-philly-acme-aggregates/acme_cluster_summary.csv,
    # row "Philly". 112,956 GPU jobs over the 74 days of philly_node_sequence.csv
    # (2017-10-03 .. 2017-12-15) ≈ 1,500 jobs/day; 11 teams = the 11 VCs of philly_vc_nodes.csv.
    "philly": Profile(
        name="philly", utc_offset_h=-8, jobs_per_day=1_500.0,
        gpu_mean=1.928, gpu_max=128, single_gpu_share=0.70,
        run_median_s=874.0, run_mean_s=18_006.055, run_max_s=4_240_676.0,
        queue_zero_share=0.0, queue_nonzero_median_s=189.0, queue_mean_s=3_760.604,
        queue_max_s=_QUEUE_MAX_S,
        status_shares=(("completed", 0.604), ("cancelled", 0.09), ("failed", 0.305)),
        gpu_types=(("V100", 0.95), ("", 0.05)),  # stand-in: Philly's own cards are not sold
        teams=11, users_per_team=6, cpu_per_gpu=(6, 12), mem_gib_per_gpu=(40, 100),
    ),
    # Source: same file, row "Helios" (= "total" of helios_cluster_summary.csv).
    # 1,580,464 GPU jobs over the 181 days of earth_vc_gpu_number.csv ≈ 8,700 jobs/day.
    # Median queue is 0: 60 % start at once (assumed) and the rest have a 60 s median.
    "helios": Profile(
        name="helios", utc_offset_h=8, jobs_per_day=8_700.0,
        gpu_mean=3.716, gpu_max=2048, single_gpu_share=0.60,
        run_median_s=206.0, run_mean_s=6_651.681, run_max_s=4_320_009.0,
        queue_zero_share=0.60, queue_nonzero_median_s=60.0, queue_mean_s=862.047,
        queue_max_s=_QUEUE_MAX_S,
        status_shares=(("completed", 0.624), ("cancelled", 0.221), ("failed", 0.155)),
        gpu_types=(("V100", 0.90), ("A100", 0.05), ("", 0.05)),
        teams=12, users_per_team=8, cpu_per_gpu=(6, 12), mem_gib_per_gpu=(40, 100),
    ),
    # Source: same file, row "Kalos" (Acme, LLM development, 2023). 19,907 GPU jobs over
    # roughly four months (May–Aug 2023, AcmeTrace README) ≈ 170 jobs/day. CPU and memory
    # per GPU follow the README's example rows (960 CPUs and 1,000 GB per 8-GPU pod).
    "llm": Profile(
        name="llm", utc_offset_h=8, jobs_per_day=170.0,
        gpu_mean=26.77, gpu_max=1024, single_gpu_share=0.55,
        run_median_s=124.0, run_mean_s=1_259.689, run_max_s=625_740.0,
        queue_zero_share=0.0, queue_nonzero_median_s=17.0, queue_mean_s=214.179,
        queue_max_s=_QUEUE_MAX_S,
        status_shares=(("completed", 0.541), ("cancelled", 0.062), ("failed", 0.397)),
        gpu_types=(("A100", 0.70), ("H800", 0.25), ("", 0.05)),  # mix is our choice
        teams=8, users_per_team=10, cpu_per_gpu=(12, 16), mem_gib_per_gpu=(100, 125),
    ),
    # Eight teams sharing 512 GPUs (the queue demo, data/scenarios/teams-*.yaml).
    # Jobs: helios_cluster_summary.csv, row "Uranus": 4.038 GPUs mean, 1 median; run time
    # 280 s median, 9,164 s mean; final states 0.607 / 0.201 / 0.192; queue 1,949 s mean,
    # 0 median (60 % at once and a 60 s median otherwise, as for "helios", assumed).
    # Uranus ran 329,117 GPU jobs in 181 days on 2,119 GPUs: 440 jobs/day on 512 GPUs.
    # Its GPU time (complete + cancel + fail = 26.56e9 GPU-s) is 80 % of its capacity and
    # 80,700 GPU-s per job, 2.18 times 4.038 GPUs x 9,164 s: big jobs run longer. Run time
    # growing as gpus ** 0.55 gives 2.18 and so 80 % of 512 GPUs at 440 jobs/day.
    # Team shares: _EARTH_VC_DEMAND_GPUS. Campaigns (3-day pushes, 6-day lulls at 40 %) are
    # our assumption; README compares the resulting burstiness with Earth's VCs.
    # Also assumed: gangs of at most 64 GPUs (one team's quota in the demo), a 7-day run
    # limit, and one request template (12 cores, 96 GiB per GPU).
    "teams": Profile(
        name="teams", utc_offset_h=8, jobs_per_day=440.0,
        gpu_mean=4.038, gpu_max=64, single_gpu_share=0.60,
        run_median_s=280.0, run_mean_s=9_163.725, run_max_s=7 * _DAY_S,
        queue_zero_share=0.60, queue_nonzero_median_s=60.0, queue_mean_s=1_949.182,
        queue_max_s=_QUEUE_MAX_S,
        status_shares=(("completed", 0.607), ("cancelled", 0.201), ("failed", 0.192)),
        gpu_types=(("A100", 1.0),),
        teams=8, users_per_team=8, cpu_per_gpu=(12, 12), mem_gib_per_gpu=(96, 96),
        team_weights=_EARTH_VC_DEMAND_GPUS,
        campaigns=Campaigns(campaign_days=3.0, quiet_days=6.0, quiet_level=0.4),
        run_gpu_exponent=0.55,
    ),
}  # fmt: skip
