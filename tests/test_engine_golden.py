"""Replays and fill curves stay bit-identical while the engine is made faster.

Each scenario below (seeded synthetic jobs on a small cluster busy enough to queue) is replayed
and everything the result carries is serialised exactly (floats by `repr`) and hashed: per-job
start, end, status, placement and waits, run totals, the timeline, queue accounting; for the
fill protocol the whole curve. The digests in `tests/data/engine_golden.json` were recorded
before the speed work of issue 16 started; a change that moves any job by one ulp fails here.
Regenerate only on purpose, for a change that is meant to alter results:
`UPDATE_ENGINE_GOLDEN=1 pytest tests/test_engine_golden.py`.
"""

import hashlib
import json
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import asdict, fields, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.fill import FillResult, PodRequest, fill
from planner.engine.job_waits import Waits
from planner.engine.policy import Policy
from planner.engine.scenario import QueuesSpec, Scenario
from planner.engine.sharing import MigConfig, SharingMode, TimeSlicing
from planner.engine.volcano import VolcanoSpec
from planner.service.replay import with_volcano_queues
from planner.synth import generate

GOLDEN = Path(__file__).parent / "data" / "engine_golden.json"
UPDATE = os.environ.get("UPDATE_ENGINE_GOLDEN") == "1"
JOBS, SQUEEZE, PLAIN_NODES = 600, 0.05, 24
SMALL_JOBS, MIXED_NODES = 250, 16
TEAMS = [f"team-{chr(ord('a') + n)}" for n in range(11)]


def philly(n: int, seed: int, squeeze: float) -> list[Job]:
    """The synthetic philly trace, time compressed by `squeeze` so a small cluster queues."""
    jobs: list[Job] = []
    first: datetime | None = None
    for row in generate("philly", n, seed):
        submit = datetime.fromisoformat(row.submit_time)
        first = first or submit
        jobs.append(
            Job(
                row.job_id,
                (submit - first).total_seconds() * squeeze,
                float(row.duration_s),
                pods=row.pods,
                gpus=row.gpus / row.pods,
                cpu=row.cpu / row.pods,
                mem_gib=row.mem_gib / row.pods,
                queue=row.queue,
                user=row.user,
                priority=row.priority,
            )
        )
    return jobs


def fractional(jobs: list[Job], seed: int) -> list[Job]:
    """Some single-GPU pods ask for a share of one GPU instead (fgd, sharing)."""
    rng = random.Random(seed)
    shares = (0.25, 0.5, 0.3)
    return [
        replace(job, gpus=shares[k % 3]) if job.gpus == 1 and rng.random() < 0.4 else job
        for k, job in enumerate(jobs)
    ]


def with_deadlines(jobs: list[Job], seed: int) -> list[Job]:
    rng = random.Random(seed)
    return [
        replace(job, withdraw_after_s=rng.uniform(600, 20_000)) if rng.random() < 0.2 else job
        for job in jobs
    ]


def nodes_plain(n: int) -> list[NodeSpec]:
    return [NodeSpec(f"n{k:03d}", "A100", 8, 0.0, 0.0) for k in range(n)]


def nodes_mixed(n: int) -> list[NodeSpec]:
    """Two GPU types, CPU and memory limited, a few CPU-only nodes."""
    out: list[NodeSpec] = []
    for k in range(n):
        if k % 7 == 6:
            out.append(NodeSpec(f"c{k:03d}", "", 0, 96.0, 384.0))
        elif k % 3 == 0:
            out.append(NodeSpec(f"v{k:03d}", "V100", 4, 48.0, 256.0))
        else:
            out.append(NodeSpec(f"a{k:03d}", "A100", 8, 96.0, 768.0))
    return out


def kueue_queues() -> Any:
    reclaim = {"within_cluster_queue": "LowerPriority", "reclaim_within_cohort": "Any"}
    queues = [
        {
            "name": f"cq-{n:02d}",
            "cohort": f"org-{n % 3}",
            "quotas": [{"flavor": "a100", "gpus": 24}],
            "preemption": reclaim,
        }
        for n in range(11)
    ]
    spec = {
        "flavors": [{"name": "a100", "gpu_type": "A100"}],
        "cluster_queues": queues,
        "local_queues": {team: f"cq-{n:02d}" for n, team in enumerate(TEAMS)},
    }
    return QueuesSpec.model_validate(spec).to_setup(strict_default=False)


def volcano_policy(nodes: list[NodeSpec]) -> Policy:
    volcano = VolcanoSpec.model_validate(
        {
            "queues": [
                {"name": f"q{n}", "weight": 1 + n % 3, "capability": {"": 96}} for n in range(4)
            ],
            "reclaim": True,
            "preempt": True,
            "local_queues": {team: f"q{n % 4}" for n, team in enumerate(TEAMS)},
        }
    )
    scenario, _ = with_volcano_queues(Scenario(volcano=volcano), nodes)
    return scenario.to_policy()


def _replays() -> dict[str, Callable[[], ReplayResult]]:
    base = philly(JOBS, 7, SQUEEZE)
    plain = nodes_plain(PLAIN_NODES)
    mixed = nodes_mixed(MIXED_NODES)
    frac = fractional(base[:SMALL_JOBS], 3)  # CPU-limited nodes: many distinct states
    sharing: dict[str, SharingMode] = {
        "A100": MigConfig(),
        "V100": TimeSlicing(replicas=2, slowdown=1.5),
    }
    return {
        "gang-best-fit-backfill": lambda: simulate(base, plain, Policy(queueing="backfill")),
        "gang-best-fit-backfill-estimate": lambda: simulate(
            base[:SMALL_JOBS],
            mixed,
            Policy(queueing="backfill", estimate_factor=1.5, backfill_depth=40),
        ),
        "gang-best-fit-fifo": lambda: simulate(base, plain, Policy(queueing="fifo")),
        "gang-strict-fifo": lambda: simulate(base, plain, Policy(queueing="strict-fifo")),
        "pod-admission-timeout": lambda: simulate(
            base, plain, Policy(admission="pod", pod_timeout_s=900.0)
        ),
        "fgd-fractional-mixed": lambda: simulate(frac, mixed, Policy(placement="fgd")),
        "fgd-backfill-fractional": lambda: simulate(
            frac, mixed, Policy(placement="fgd", queueing="backfill")
        ),
        "random-backfill": lambda: simulate(
            frac, mixed, Policy(placement="random", queueing="backfill", seed=5)
        ),
        "binpack-fifo": lambda: simulate(frac, mixed, Policy(placement="binpack")),
        "spread-strict": lambda: simulate(
            frac, mixed, Policy(placement="spread", queueing="strict-fifo")
        ),
        "kueue-preemption": lambda: simulate(
            base[:SMALL_JOBS], plain, Policy(queues=kueue_queues(), termination_grace_s=30.0)
        ),
        "volcano": lambda: simulate(base, plain, volcano_policy(plain)),
        "deadlines-burst": lambda: simulate(
            with_deadlines(base, 11), plain, Policy(queueing="backfill", burst_after_s=7200.0)
        ),
        "mig-time-slicing": lambda: simulate(frac, mixed, Policy(sharing=sharing)),
        "mig-time-slicing-backfill": lambda: simulate(
            frac, mixed, Policy(sharing=sharing, queueing="backfill")
        ),
    }


def fill_pods(n: int, seed: int) -> list[PodRequest]:
    rng = random.Random(seed)
    gpu_choices = (0.0, 0.25, 0.5, 1.0, 1.0, 2.0, 4.0, 8.0)
    pods: list[PodRequest] = []
    for _ in range(n):
        gpus = rng.choice(gpu_choices)
        types: tuple[str, ...] = ("V100",) if rng.random() < 0.1 else ()
        pods.append((gpus, rng.choice((2.0, 4.0, 8.0, 16.0)), rng.choice((8.0, 32.0, 64.0)), types))
    return pods


def _fills() -> dict[str, Callable[[], FillResult]]:
    pods = fill_pods(800, 5)
    nodes = nodes_mixed(60)
    return {
        f"fill-{name}": (
            lambda name=name: fill(pods, nodes, placement=name, seeds=(1, 2), until=1.3)  # type: ignore[misc]
        )
        for name in ("best-fit", "fgd", "random", "binpack", "spread")
    }


def _plain(value: object) -> object:
    """JSON-ready, floats exact (json writes `repr`), dict keys in order."""
    if isinstance(value, dict):
        return [[str(k), _plain(v)] for k, v in value.items()]
    if isinstance(value, list | tuple | Waits):  # the packed waits as the list they stand for
        return [_plain(v) for v in value]
    return value


def replay_digest(result: ReplayResult) -> str:
    record = {
        f.name: _plain(getattr(result, f.name))
        for f in fields(result)
        if f.name not in ("jobs", "policy", "timeline")
    }
    record["timeline"] = _plain(asdict(result.timeline))
    record["job_ids"] = [job.job_id for job in result.jobs]
    return _sha(record)


def fill_digest(result: FillResult) -> str:
    record = [_plain(asdict(point)) for point in result.points]
    record.append(result.placed_pods)
    return _sha(record)


def _sha(record: object) -> str:
    text = json.dumps(record, separators=(",", ":"), allow_nan=True)
    return hashlib.sha256(text.encode()).hexdigest()


REPLAYS = _replays()
FILLS = _fills()


@pytest.fixture(scope="module")
def golden() -> dict[str, str]:
    if UPDATE or not GOLDEN.exists():
        return {}
    return json.loads(GOLDEN.read_text())  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def recorded() -> Iterator[dict[str, str]]:
    """Digests computed by this run (written out at the end with UPDATE_ENGINE_GOLDEN=1)."""
    found: dict[str, str] = {}
    yield found
    if UPDATE:
        GOLDEN.write_text(json.dumps(dict(sorted(found.items())), indent=1) + "\n")


@pytest.mark.parametrize("name", sorted(REPLAYS))
def test_replay_is_bit_identical_to_the_recorded_one(
    name: str, golden: dict[str, str], recorded: dict[str, str]
) -> None:
    result = REPLAYS[name]()

    recorded[name] = replay_digest(result)

    assert UPDATE or recorded[name] == golden[name]


@pytest.mark.parametrize("name", sorted(FILLS))
def test_fill_curve_is_bit_identical_to_the_recorded_one(
    name: str, golden: dict[str, str], recorded: dict[str, str]
) -> None:
    result = FILLS[name]()

    recorded[name] = fill_digest(result)

    assert UPDATE or recorded[name] == golden[name]


def test_the_scenarios_queue_jobs_and_fragment_the_cluster() -> None:
    """The golden scenarios are worth guarding: jobs wait, some backfill around a pivot."""
    result = REPLAYS["gang-best-fit-backfill"]()
    waited = [w for w in result.wait_by_reason if w is not None]

    assert len(waited) > len(result.jobs) // 10
    assert result.allocated_gpu_s > 0
