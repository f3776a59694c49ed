"""Invariants of GPU sharing (MIG and time-slicing) on random small clusters (hypothesis).

Two levels. Replays: what the result says ran is rebuilt instant by instant, with each job's
MIG instances or time-sliced replicas derived from the profile mapping of
`scheduler-semantics.md` A5 (not from the engine's own tables), and every node's share must
pack onto its GPUs: MIG instances into legal per-GPU fillings of the mode (any legal
placement for dynamic MIG, a sub-multiset of the layout for static layouts, of the layout or
an `all-<profile>` layout with re-layout), replicas into GPUs x replicas. `ClusterState`:
random plan/allocate/release sequences, each returned instance checked against a per-GPU
ledger kept here (legal start, no overlap, inside the GPU's layout), `plan()` checked
against a brute-force count of what still fits, and the state idle again once all is back.
Under pod admission a partly placed job holds instances the result does not show, so the
per-instant checks are then a lower bound and the report's totals are checked on gang only.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from planner.core.config import NodeSpec
from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.cluster import PLACEMENTS, ClusterState, NodeAlloc, PodShape
from planner.engine.loop import Replay as _Replay
from planner.engine.policy import Policy
from planner.engine.sharing import (
    MIG_COMPUTE,
    MIG_SLOTS,
    NAMED_LAYOUTS,
    PROFILES,
    MigConfig,
    MigProfile,
    SharingMode,
    TimeSlicing,
    best_start,
    find_profile,
    place_layout,
)
from planner.engine.waits import REASON_CODES, UNSCHEDULABLE_REASONS

MILLI = 1000
GPU_TYPE = "A100"
STATUSES = {"completed", "unschedulable", "unfinished"}
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
OFFERABLE: tuple[MigProfile, ...] = tuple(
    sorted((p for n, p in PROFILES.items() if not n.endswith("+me")), key=lambda p: p.code)
)
"""Profiles a request can map to where any profile can be made (dynamic MIG, re-layout)."""
PROFILE_INDEX = {p.name: k for k, p in enumerate(OFFERABLE)}
FRACTIONS = (0.1, 0.142, 0.15, 0.3, 0.428, 0.5, 0.6, 0.9, 0.999)
# The amount of a MIG slice: relayout flag << 24 | code << 8 | slot bits (shared_gpus.py).
RELAYOUT_FLAG = 1 << 24


# --- strategies ---------------------------------------------------------------------------------


# Strategies are built once here, not inside the composites: a strategy built per draw is
# validated and labelled again each time, which cost as much as the small replays.
MIG_KINDS = st.sampled_from(["dynamic", "static", "relayout"])
LAYOUT_NAMES = st.sampled_from(sorted(NAMED_LAYOUTS))
RELAYOUT_DELAYS = st.sampled_from([0.0, 30.0, 120.0])
STATIC_OR_DYNAMIC = st.sampled_from(["dynamic", "static"])


@st.composite
def mig_modes(draw: st.DrawFn, *, relayout: bool = True) -> MigConfig:
    kinds = MIG_KINDS if relayout else STATIC_OR_DYNAMIC
    kind = draw(kinds)
    if kind == "dynamic":
        return MigConfig()
    name = draw(LAYOUT_NAMES)
    layout = NAMED_LAYOUTS[name]
    if kind == "relayout":
        return MigConfig(layout=layout, relayout_delay_s=draw(RELAYOUT_DELAYS))
    single = len(set(layout)) == 1 and draw(st.booleans())
    return MigConfig(strategy="single" if single else "mixed", layout=layout)


def time_slicings(slowdowns: st.SearchStrategy[float]) -> st.SearchStrategy[TimeSlicing]:
    return st.builds(
        TimeSlicing,
        replicas=st.integers(2, 7),
        slowdown=slowdowns,
        fail_requests_greater_than_one=st.booleans(),
    )


time_slicing = time_slicings(st.one_of(st.sampled_from([1.0, 1.5, 2.0]), st.floats(1.0, 2.0)))
modes = st.one_of(mig_modes(), time_slicing)
# Modes whose backfill estimates are exact: no re-layout (a GPU keeps the layout a backfilled
# job left), no slowdown (a running job's end cannot foresee who joins its GPU).
exact_modes = st.one_of(mig_modes(relayout=False), time_slicings(st.just(1.0)))


NODE_GPUS = st.integers(1, 4)
NODE_COUNTS = st.integers(1, 3)


@st.composite
def clusters(draw: st.DrawFn) -> list[NodeSpec]:
    return [(f"n{k}", GPU_TYPE, draw(NODE_GPUS), 0.0, 0.0) for k in range(draw(NODE_COUNTS))]


JOB_KINDS = st.sampled_from(["fraction", "fraction", "profile", "profile", "whole"])
FRACTION_GPUS = st.sampled_from(FRACTIONS)
PROFILE_NAMES = st.sampled_from([p.name for p in OFFERABLE])
PROFILE_GPUS = st.sampled_from([1.0, 1.0, 2.0, 0.5])
WHOLE_GPUS = st.integers(1, 4)
WHOLE_TYPES = st.sampled_from([(), (GPU_TYPE,)])
SUBMITS = st.one_of(st.integers(0, 500).map(float), st.floats(0, 500))
DURATIONS = st.one_of(st.integers(1, 300).map(float), st.floats(1, 300))
PODS = st.integers(1, 2)


@st.composite
def jobs_(draw: st.DrawFn) -> Job:
    kind = draw(JOB_KINDS)
    gpu_types: tuple[str, ...] = ()
    if kind == "fraction":
        gpus = draw(FRACTION_GPUS)
    elif kind == "profile":
        name = draw(PROFILE_NAMES)
        gpu_types = (draw(st.sampled_from([name, f"mig-{name}", f"nvidia.com/mig-{name}"])),)
        gpus = draw(PROFILE_GPUS)
    else:
        gpus = float(draw(WHOLE_GPUS))
        gpu_types = draw(WHOLE_TYPES)
    return Job(
        "",
        draw(SUBMITS),
        draw(DURATIONS),
        pods=draw(PODS),
        gpus=gpus,
        gpu_types=gpu_types,
    )


@st.composite
def job_lists(draw: st.DrawFn) -> list[Job]:
    drawn = draw(st.lists(jobs_(), min_size=1, max_size=12))
    return [
        Job(f"j{k}", j.submit_s, j.duration_s, j.pods, j.gpus, gpu_types=j.gpu_types)
        for k, j in enumerate(drawn)
    ]


ADMISSIONS = st.sampled_from(["gang", "gang", "pod"])
GANG_QUEUEINGS = st.sampled_from(["strict-fifo", "fifo", "backfill"])
POD_QUEUEINGS = st.sampled_from(["strict-fifo", "fifo"])
SEEDS = st.integers(0, 3)
POD_TIMEOUTS = st.sampled_from([None, 30.0])
SHARING_KEYS = st.sampled_from([GPU_TYPE, "*", "a100"])


@st.composite
def policies(
    draw: st.DrawFn,
    *,
    admission: str | None = None,
    queueing: str | None = None,
    exact_estimates: bool = False,
) -> Policy:
    """With `exact_estimates`: no random placement and only `exact_modes`."""
    mode = draw(exact_modes if exact_estimates else modes)
    chosen = admission or draw(ADMISSIONS)
    placements = [p for p in PLACEMENTS if not exact_estimates or p != "random"]
    queueings = GANG_QUEUEINGS if chosen == "gang" else POD_QUEUEINGS
    return Policy(
        admission=chosen,  # type: ignore[arg-type]
        placement=draw(st.sampled_from(placements)),
        queueing=queueing or draw(queueings),
        seed=draw(SEEDS),
        pod_timeout_s=draw(POD_TIMEOUTS) if chosen == "pod" else None,
        sharing={draw(SHARING_KEYS): mode},
    )


def mode_of(policy: Policy) -> SharingMode:
    assert policy.sharing is not None
    return next(iter(policy.sharing.values()))


# --- what a request means under a mode, from the reference (A5) -------------------------------


def offered(mode: MigConfig) -> tuple[MigProfile, ...]:
    if mode.dynamic or mode.relayout_delay_s is not None:
        return OFFERABLE
    return tuple(sorted({PROFILES[n] for n in mode.layout}, key=lambda p: p.code))


def explicit_profile(gpu_types: Sequence[str]) -> MigProfile | None:
    return next((p for p in map(find_profile, gpu_types) if p is not None), None)


def pod_request(job: Job) -> tuple[int, int]:
    """(milli per GPU, GPUs) of one pod: a MIG profile is asked for by its code."""
    milli, gpus = (round(job.gpus * MILLI), 1) if job.gpus < 1 else (MILLI, math.ceil(job.gpus))
    prof = explicit_profile(job.gpu_types)
    return (prof.code if prof else milli), gpus


def allowed_here(gpu_types: Sequence[str], mode: SharingMode) -> bool:
    """Whether the cluster's nodes may take the job at all (its GPU type or MIG profile)."""
    if not gpu_types:
        return True
    prof = explicit_profile(gpu_types)
    if prof is None:
        return GPU_TYPE.upper() in {t.upper() for t in gpu_types}
    return isinstance(mode, MigConfig) and any(p.name == prof.name for p in offered(mode))


def devices(mode: SharingMode, milli: int, gpus: int) -> tuple[MigProfile | None, int]:
    """(MIG profile or None for replicas, how many) one pod takes; (None, 0): refused."""
    if isinstance(mode, TimeSlicing):
        if milli < MILLI:
            return None, 1
        return None, 0 if gpus > 1 and mode.fail_requests_greater_than_one else gpus
    if milli >= MILLI:
        if mode.strategy == "single":
            return PROFILES[mode.layout[0]], gpus
        return None, 0
    prof = next((p for p in offered(mode) if p.code >= milli), None)
    return prof, gpus if prof else 0


def layout_of(names: Sequence[str]) -> dict[int, str]:
    return {start: p.name for start, p in place_layout(tuple(names))}


def relayout_of(prof: MigProfile) -> dict[int, str]:
    return layout_of(NAMED_LAYOUTS.get(f"all-{prof.name}", (prof.name,)))


def most_instances(mask: int, prof: MigProfile) -> int:
    """Brute force: most non-overlapping instances of `prof` that still fit around `mask`."""
    best = 0
    for start in prof.starts:
        bits = prof.bits(start)
        if start + prof.size <= MIG_SLOTS and not mask & bits:
            best = max(best, 1 + most_instances(mask | bits, prof))
    return best


def free_in_layout(layout: dict[int, str], mask: int, prof: MigProfile) -> int:
    return sum(
        1 for s, name in layout.items() if name == prof.name and not mask & PROFILES[name].bits(s)
    )


def gpu_room(mode: MigConfig, layout: dict[int, str], mask: int, prof: MigProfile) -> int:
    """Instances of `prof` one GPU can still give: free ones of its layout, anything legal
    for dynamic MIG, or (re-layout, idle GPU without `prof`) those of `all-<prof>`."""
    if mode.dynamic:
        return most_instances(mask, prof)
    free = free_in_layout(layout, mask, prof)
    if free or mask or mode.relayout_delay_s is None:
        return free
    return len(relayout_of(prof))


def pods_on_empty_node(job: Job, gpus: int, mode: SharingMode) -> int:
    if not allowed_here(job.gpu_types, mode):
        return 0
    prof, n = devices(mode, *pod_request(job))
    if not n:
        return 0
    if isinstance(mode, TimeSlicing):
        return gpus * mode.replicas // n
    assert prof is not None
    base = layout_of(mode.layout) if mode.layout else {}
    return gpus * gpu_room(mode, base, 0, prof) // n


# --- packing a node's instances onto its GPUs -----------------------------------------------------

Counts = tuple[int, ...]
"""Instances per profile, in `OFFERABLE` order."""


def counts_of(names: Sequence[str]) -> Counts:
    return tuple(sum(1 for n in names if n == p.name) for p in OFFERABLE)


def _legal_fillings() -> set[Counts]:
    """Every multiset of instances some legal placement puts on one GPU."""
    found: set[Counts] = set()

    def walk(slot: int, counts: list[int]) -> None:
        if slot >= MIG_SLOTS:
            found.add(tuple(counts))
            return
        walk(slot + 1, counts)
        for k, prof in enumerate(OFFERABLE):
            if slot in prof.starts and slot + prof.size <= MIG_SLOTS:
                counts[k] += 1
                walk(slot + prof.size, counts)
                counts[k] -= 1

    walk(0, [0] * len(OFFERABLE))
    return found


@cache
def fillings(mode: MigConfig) -> tuple[Counts, ...]:
    """The maximal multisets of instances one GPU can hold under `mode`."""
    if mode.dynamic:
        every = _legal_fillings()
    else:
        every = {counts_of(mode.layout)}
        if mode.relayout_delay_s is not None:
            every |= {counts_of(list(relayout_of(p).values())) for p in OFFERABLE}
    return tuple(
        f
        for f in every
        if not any(g != f and all(a <= b for a, b in zip(f, g, strict=True)) for g in every)
    )


@cache
def gpus_needed(mode: MigConfig, counts: Counts) -> int:
    """Fewest GPUs whose fillings under `mode` hold these instances."""
    if not any(counts):
        return 0
    return 1 + min(
        gpus_needed(mode, tuple(max(0, c - f) for c, f in zip(counts, filling, strict=True)))
        for filling in fillings(mode)
        if any(c and f for c, f in zip(counts, filling, strict=True))
    )


# --- what a replay says ran -------------------------------------------------------------------------


def run(jobs: list[Job], nodes: list[NodeSpec], policy: Policy) -> ReplayResult:
    return simulate(jobs, nodes, policy)


def pods_placed(job: Job, node_gpus: float) -> int:
    milli, gpus = pod_request(job)
    return round(node_gpus * MILLI / (milli * gpus))


def node_loads(
    result: ReplayResult, mode: SharingMode, active: list[int], nodes: int
) -> list[list[int]]:
    """Per node: instances per profile (MIG) or [replicas taken] (time-slicing)."""
    loads = [[0] * len(OFFERABLE) for _ in range(nodes)]
    for i in active:
        job = result.jobs[i]
        prof, n = devices(mode, *pod_request(job))
        assert n, f"{job} ran although its pods cannot be served"
        for node, gpus in result.placement[i]:
            taken = pods_placed(job, gpus) * n
            loads[node][PROFILE_INDEX[prof.name] if prof else 0] += taken
    return loads


def intervals(result: ReplayResult) -> list[tuple[float, float, list[int]]]:
    """(from, to, jobs running throughout) between consecutive starts and ends."""
    spans: list[tuple[float, float, int]] = []
    for i, (start, end) in enumerate(zip(result.start_s, result.end_s, strict=True)):
        if start is not None:
            assert end is not None, f"{result.jobs[i].job_id} started but has no end"
            spans.append((start, end, i))
    points = sorted({t for start, end, _ in spans for t in (start, end)})
    return [(a, b, [i for s, e, i in spans if s <= a < e]) for a, b in pairwise(points)]


def occupied_bounds(mode: SharingMode, load: list[int], gpus: int) -> tuple[int, int]:
    """(fewest, most) GPUs a node's load can occupy."""
    if isinstance(mode, TimeSlicing):
        return math.ceil(load[0] / mode.replicas), min(gpus, load[0])
    return gpus_needed(mode, tuple(load)), min(gpus, sum(load))


def granted_gpu_s(result: ReplayResult, mode: SharingMode) -> float:
    """Physical GPU-seconds granted: g/7 (the code) per instance, 1/replicas per replica."""
    total = 0.0
    for i, job in enumerate(result.jobs):
        start, end = result.start_s[i], result.end_s[i]
        if start is None or end is None:
            continue
        prof, n = devices(mode, *pod_request(job))
        unit = 1 / mode.replicas if isinstance(mode, TimeSlicing) else prof.code / MILLI  # type: ignore[union-attr]
        pods = sum(pods_placed(job, gpus) for _, gpus in result.placement[i])
        total += pods * n * unit * (end - start)
    return total


# --- replay properties ---------------------------------------------------------------------------


@SETTINGS
@given(jobs=job_lists(), nodes=clusters(), policy=policies())
def test_every_job_is_accounted_for_and_none_starts_before_its_submit(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    result = run(jobs, nodes, policy)

    assert sorted(j.job_id for j in result.jobs) == sorted(j.job_id for j in jobs)
    assert len(result.status) == len(result.start_s) == len(result.end_s) == len(jobs)
    assert set(result.status) <= STATUSES
    for i, job in enumerate(result.jobs):
        start = result.start_s[i]
        if start is not None:
            assert start >= job.submit_s, job
        if result.status[i] == "unschedulable":
            assert (start, result.end_s[i], result.placement[i]) == (None, None, ())
    if policy.admission == "gang":
        assert "unfinished" not in result.status
    assert set(result.unschedulable_reason.values()) <= set(UNSCHEDULABLE_REASONS)


@SETTINGS
@given(jobs=job_lists(), nodes=clusters(), policy=policies())
def test_unschedulable_jobs_are_exactly_those_the_idle_cluster_cannot_serve(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    mode = mode_of(policy)

    result = run(jobs, nodes, policy)

    expected = {
        i
        for i, job in enumerate(result.jobs)
        if sum(pods_on_empty_node(job, node[2], mode) for node in nodes) < job.pods
    }
    assert {i for i, s in enumerate(result.status) if s == "unschedulable"} == expected


@SETTINGS
@given(jobs=job_lists(), nodes=clusters(), policy=policies())
def test_no_node_ever_holds_more_instances_or_replicas_than_its_gpus_can(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    mode = mode_of(policy)

    result = run(jobs, nodes, policy)

    for t, _, active in intervals(result):
        for n, load in enumerate(node_loads(result, mode, active, len(nodes))):
            gpus = nodes[n][2]
            if isinstance(mode, TimeSlicing):
                assert load[0] <= gpus * mode.replicas, f"node {n} at {t}: {load[0]} replicas"
                continue
            compute = sum(c * p.g for c, p in zip(load, OFFERABLE, strict=True))
            assert compute <= MIG_COMPUTE * gpus, f"node {n} at {t}: {compute} compute slices"
            assert gpus_needed(mode, tuple(load)) <= gpus, f"node {n} at {t}: {load} unpackable"


@SETTINGS
@given(jobs=job_lists(), nodes=clusters(), policy=policies(admission="gang"))
def test_the_sharing_report_matches_what_ran(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    mode = mode_of(policy)

    result = run(jobs, nodes, policy)

    report = result.sharing[GPU_TYPE]
    hours = 3600.0
    assert report["gpus"] == sum(node[2] for node in nodes)
    assert report["requested_gpu_hours"] == pytest.approx(result.allocated_gpu_s / hours, abs=1e-9)
    assert report["granted_gpu_hours"] == pytest.approx(
        granted_gpu_s(result, mode) / hours, rel=1e-9, abs=1e-9
    )
    fewest = most = 0.0
    for t0, t1, active in intervals(result):
        for n, load in enumerate(node_loads(result, mode, active, len(nodes))):
            low, high = occupied_bounds(mode, load, nodes[n][2])
            fewest += low * (t1 - t0)
            most += high * (t1 - t0)
    occupied = report["occupied_gpu_hours"] * hours
    assert fewest - 1e-6 <= occupied <= most + 1e-6
    assert report["granted_gpu_hours"] <= report["occupied_gpu_hours"] + 1e-9
    assert report["occupied_gpu_hours"] <= report["capacity_gpu_hours"] + 1e-9


@SETTINGS
@given(jobs=job_lists(), nodes=clusters(), policy=policies())
def test_completed_jobs_run_their_duration_stretched_only_by_slowdown_or_relayout(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    mode = mode_of(policy)

    result = run(jobs, nodes, policy)

    delayed_jobs = delayed_instances = 0
    lost = 0.0
    for i, job in enumerate(result.jobs):
        start, end = result.start_s[i], result.end_s[i]
        if result.status[i] != "completed":
            continue
        assert start is not None
        assert end is not None
        assert end >= start + job.duration_s, job
        if isinstance(mode, TimeSlicing):
            # full speed while alone on its GPUs, `slowdown` slower once it shares one
            assert end <= start + job.duration_s * mode.slowdown * (1 + 1e-12), job
        elif mode.relayout_delay_s:
            delay = mode.relayout_delay_s
            assert end in {start + job.duration_s, start + (job.duration_s + delay)}, job
            if end > start + job.duration_s:
                delayed_jobs += 1
                delayed_instances += job.pods * devices(mode, *pod_request(job))[1]
        else:
            assert end == start + job.duration_s, job
        lost += (end - start - job.duration_s) * job.total_gpus
    report = result.sharing[GPU_TYPE]
    assert report["slowdown_gpu_hours"] * 3600 == pytest.approx(lost, rel=1e-9, abs=1e-6)
    if isinstance(mode, MigConfig) and mode.relayout_delay_s:
        # one per GPU re-partitioned: at least one per delayed job
        assert delayed_jobs <= report["relayouts"]
    elif isinstance(mode, TimeSlicing) or mode.relayout_delay_s is None:
        assert report["relayouts"] == 0


FIELDS = ("admission", "placement", "queueing", "seed", "pod_timeout_s", "sharing")


@SETTINGS
@given(jobs=job_lists(), nodes=clusters(), policy=policies())
def test_same_inputs_and_seed_give_identical_results(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    first = run(jobs, nodes, policy)
    second = run(list(jobs), list(nodes), Policy(**{f: getattr(policy, f) for f in FIELDS}))

    for name in ("status", "start_s", "end_s", "placement", "wait_by_reason", "sharing"):
        assert getattr(first, name) == getattr(second, name), name


@SETTINGS
@given(jobs=job_lists(), nodes=clusters(), policy=policies(admission="gang"))
def test_the_cluster_is_idle_again_after_a_replay_that_ended_every_job(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    # _Replay is private, but it is the only way to see the cluster state a replay leaves
    replay = _Replay(jobs, nodes, policy)
    fresh = ClusterState(nodes, policy.placement, seed=policy.seed, sharing=policy.sharing)

    replay.run()

    cluster = replay.cluster
    assert cluster.free_milli_by_class == fresh.free_milli_by_class
    assert all(v == 0 for v in cluster.shared_occupied.values())
    assert all(v == pytest.approx(0, abs=1e-9) for v in cluster.shared_granted.values())
    if isinstance(mode_of(policy), TimeSlicing):
        assert cluster.gpu_free == fresh.gpu_free
    else:
        assert [[v & 0xFF for v in gpus] for gpus in cluster.gpu_free] == fresh.gpu_free


@SETTINGS
@given(jobs=job_lists(), nodes=clusters(), policy=policies(queueing="fifo"))
def test_best_effort_fifo_never_leaves_a_job_waiting_behind_the_head(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    assert policy.queueing == "fifo"

    result = run(jobs, nodes, policy)

    behind_head = REASON_CODES.index("behind_head")
    for i, waited in enumerate(result.wait_by_reason):
        assert waited is None or waited[behind_head] == 0, result.jobs[i]


@settings(SETTINGS, max_examples=40)
@given(
    jobs=job_lists(),
    nodes=clusters(),
    policy=policies(admission="gang", exact_estimates=True),
)
def test_easy_backfill_with_exact_estimates_starts_the_first_blocked_job_when_strict_fifo_does(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    mode = mode_of(policy)
    # drawn so (not filtered, which cost most of the time): random placement draws
    # differently once backfill starts other jobs; a re-layout left behind by a backfilled
    # job may let the head start earlier (GPUs keep their last layout); estimates cannot
    # foresee slowdowns (see the xfail test below)
    assert policy.placement != "random"
    assert not isinstance(mode, MigConfig) or mode.relayout_delay_s is None
    assert not isinstance(mode, TimeSlicing) or mode.slowdown == 1.0
    fields = {f: getattr(policy, f) for f in FIELDS if f != "queueing"}
    strict = run(jobs, nodes, Policy(**fields, queueing="strict-fifo"))
    blocked = [
        i
        for i, start in enumerate(strict.start_s)
        if start is not None and start > strict.jobs[i].submit_s
    ]
    assume(blocked)

    backfill = run(jobs, nodes, Policy(**fields, queueing="backfill"))

    assert backfill.start_s[blocked[0]] == strict.start_s[blocked[0]], strict.jobs[blocked[0]]


def test_backfill_reserves_for_a_pivot_asking_whole_gpus_of_a_single_strategy_layout() -> None:
    mode = MigConfig(strategy="single", layout=NAMED_LAYOUTS["all-3g.40gb"])
    jobs = [Job("a", 0, 10, gpus=1), Job("pivot", 1, 10, gpus=2), Job("long", 2, 100, gpus=1)]
    nodes = [("n0", GPU_TYPE, 1, 0.0, 0.0)]

    result = run(jobs, nodes, Policy(queueing="backfill", sharing={GPU_TYPE: mode}))

    # two 3g instances: `a` holds one until 10; the pivot needs both, so `long` must wait
    assert result.start_s == [0, 10, 20]


@pytest.mark.xfail(
    strict=True,
    reason="a known limit: a running job's estimated end cannot know that a job joining its "
    "time-sliced GPU later slows it down, so with slowdown > 1 the shadow time can be early "
    "(candidates are checked against the worst slowdown, running jobs are not re-estimated)",
)
def test_backfill_estimates_on_time_sliced_gpus_include_the_slowdown() -> None:
    mode = TimeSlicing(replicas=4, slowdown=1.5)
    jobs = [Job(f"short{k}", 0, 1, gpus=0.1) for k in range(4)] + [
        Job("a", 1, 81, gpus=0.1),
        Job("b", 2, 81, gpus=0.1),
        Job("c", 0, 82, pods=2, gpus=2),
        Job("pivot", 1, 1, pods=2, gpus=4),
    ]
    nodes = [(f"n{k}", GPU_TYPE, 1, 0.0, 0.0) for k in range(3)]
    policy = Policy(queueing="strict-fifo", sharing={GPU_TYPE: mode})
    strict = run(jobs, nodes, policy)

    backfill = run(jobs, nodes, Policy(queueing="backfill", sharing={GPU_TYPE: mode}))

    # the pivot needs two whole nodes; strict FIFO starts it when `a` ends at 1 + 81 x 1.5
    assert strict.start_s[-1] == 122.5
    assert backfill.start_s[-1] == strict.start_s[-1]


def test_single_strategy_with_relayout_is_refused() -> None:
    # `single` keeps one profile on every GPU; re-partitioning would change what a whole-GPU
    # request gets, so the combination is refused with the reason
    with pytest.raises(ScenarioError, match="applies to 'mixed' only"):
        MigConfig(strategy="single", layout=NAMED_LAYOUTS["all-3g.40gb"], relayout_delay_s=60)


# --- ClusterState: plan, allocate, release ---------------------------------------------------------


@dataclass(slots=True)
class GpuLedger:
    """What this test believes is on one GPU."""

    layout: dict[int, str]
    instances: dict[int, MigProfile] = field(default_factory=dict)
    replicas: int = 0

    @property
    def mask(self) -> int:
        return sum(p.bits(s) for s, p in self.instances.items())


Request = tuple[tuple[str, ...], int, int]
"""(gpu_types, milli per GPU, GPUs) of a pod."""


@st.composite
def requests(draw: st.DrawFn) -> Request:
    kind = draw(st.sampled_from(["fraction", "profile", "profile", "whole"]))
    if kind == "fraction":
        return (), draw(st.sampled_from([round(f * MILLI) for f in FRACTIONS])), 1
    if kind == "profile":
        prof = draw(st.sampled_from(OFFERABLE))
        return (prof.name,), prof.code, draw(st.integers(1, 2))
    return (), MILLI, draw(st.integers(1, 2))


operations = st.lists(
    st.tuples(st.sampled_from(["plan", "plan", "release"]), requests(), st.integers(1, 2)),
    min_size=4,
    max_size=40,
)


class Checker:
    """Drives a ClusterState and checks every answer against the ledger."""

    def __init__(self, nodes: list[NodeSpec], mode: SharingMode, placement: str, seed: int):
        self.nodes, self.mode = nodes, mode
        self.cluster = ClusterState(nodes, placement, seed=seed, sharing={GPU_TYPE: mode})  # type: ignore[arg-type]
        base = layout_of(mode.layout) if isinstance(mode, MigConfig) and mode.layout else {}
        self.gpus = [[GpuLedger(dict(base)) for _ in range(node[2])] for node in nodes]
        self.initial_free_milli = list(self.cluster.free_milli_by_class)
        self.live: list[tuple[NodeAlloc, PodShape, list[tuple[int, int, int]]]] = []
        self.units = 0

    def room(self, node: int, request: Request) -> int:
        """Pods of `request` node `node` still takes, by brute force over the ledger."""
        gpu_types, milli, gpus = request
        if not allowed_here(gpu_types, self.mode):
            return 0
        prof, n = devices(self.mode, milli, gpus)
        if not n:
            return 0
        if isinstance(self.mode, TimeSlicing):
            return sum(self.mode.replicas - g.replicas for g in self.gpus[node]) // n
        assert prof is not None
        return sum(gpu_room(self.mode, g.layout, g.mask, prof) for g in self.gpus[node]) // n

    def plan_and_allocate(self, request: Request, count: int) -> None:
        gpu_types, milli, gpus = request
        pod: PodShape = (milli, gpus, 0, 0)
        allowed = self.cluster.classes_for(gpu_types)
        rooms = [self.room(n, request) for n in range(len(self.nodes))]

        plan = self.cluster.plan(pod, count, allowed)

        assert (plan is not None) == (sum(rooms) >= count), (request, count, rooms, plan)
        if plan is None:
            return
        assert sum(pods for _, pods in plan) == count
        assert len({node for node, _ in plan}) == len(plan)
        for node, pods in plan:
            assert pods <= rooms[node], (request, node, pods, rooms)
            alloc = self.cluster.allocate(node, pod, pods)
            assert alloc[:2] == (node, pods)
            self.live.append((alloc, pod, self.record(alloc, request)))

    def record(self, alloc: NodeAlloc, request: Request) -> list[tuple[int, int, int]]:
        """Check each (GPU, amount) taken and enter it in the ledger."""
        node, pods, slices = alloc
        prof, n = devices(self.mode, request[1], request[2])
        assert len(slices) == pods * n, (request, slices)
        entered = []
        for gpu, amount in slices:
            ledger = self.gpus[node][gpu]
            if isinstance(self.mode, TimeSlicing):
                assert amount == 1
                ledger.replicas += 1
                assert ledger.replicas <= self.mode.replicas
                self.units += MILLI
                entered.append((node, gpu, -1))
                continue
            assert prof is not None
            start = self.enter_instance(ledger, prof, amount)
            self.units += self.instance_units(prof)
            entered.append((node, gpu, start))
        return entered

    def instance_units(self, prof: MigProfile) -> int:
        """What an instance takes from the class's free milli: under `single` each instance
        can take a whole-GPU request (1000), else its compute code."""
        single = isinstance(self.mode, MigConfig) and self.mode.strategy == "single"
        return MILLI if single else prof.code

    def enter_instance(self, ledger: GpuLedger, prof: MigProfile, amount: int) -> int:
        assert isinstance(self.mode, MigConfig)
        code, bits = (amount >> 8) & 0xFFFF, amount & 0xFF
        assert code == prof.code, (prof, amount)
        legal = [s for s in prof.starts if s + prof.size <= MIG_SLOTS and prof.bits(s) == bits]
        assert legal, f"{prof.name} at slot bits {bits:08b} is not a legal placement"
        start = legal[0]
        assert not ledger.mask & bits, f"{prof.name}@{start} overlaps {ledger.mask:08b}"
        if self.mode.dynamic:
            assert start == best_start(ledger.mask, prof), (prof.name, f"{ledger.mask:08b}")
        elif amount & RELAYOUT_FLAG:
            assert self.mode.relayout_delay_s is not None
            assert not ledger.instances, "re-partitioned a GPU that is in use"
            assert prof.name not in ledger.layout.values(), "re-partitioned needlessly"
            ledger.layout = relayout_of(prof)
        assert self.mode.dynamic or ledger.layout.get(start) == prof.name, (start, ledger.layout)
        ledger.instances[start] = prof
        return start

    def release(self, index: int) -> None:
        alloc, pod, entered = self.live.pop(index % len(self.live))
        self.cluster.release(alloc, pod)
        for node, gpu, start in entered:
            ledger = self.gpus[node][gpu]
            if start < 0:
                ledger.replicas -= 1
                self.units -= MILLI
            else:
                self.units -= self.instance_units(ledger.instances.pop(start))

    def check_state(self) -> None:
        cluster, mode = self.cluster, self.mode
        occupied = granted = 0.0
        for node, ledgers in enumerate(self.gpus):
            for gpu, ledger in enumerate(ledgers):
                value = cluster.gpu_free[node][gpu]
                if isinstance(mode, TimeSlicing):
                    assert value == mode.replicas - ledger.replicas
                    occupied += ledger.replicas > 0
                    granted += ledger.replicas / mode.replicas
                else:
                    assert value & 0xFF == ledger.mask, (node, gpu, value, ledger)
                    occupied += bool(ledger.instances)
                    granted += sum(p.code for p in ledger.instances.values()) / MILLI
        assert sum(cluster.shared_occupied.values()) == occupied
        assert sum(cluster.shared_granted.values()) == pytest.approx(granted, abs=1e-9)
        assert sum(cluster.free_milli_by_class) == sum(self.initial_free_milli) - self.units


@settings(SETTINGS, max_examples=150)
@given(
    nodes=clusters(),
    mode=modes,
    placement=st.sampled_from(PLACEMENTS),
    seed=st.integers(0, 3),
    ops=operations,
)
def test_plan_allocate_release_keep_every_gpu_legal_and_return_to_idle(
    nodes: list[NodeSpec],
    mode: SharingMode,
    placement: str,
    seed: int,
    ops: list[tuple[str, Request, int]],
) -> None:
    checker = Checker(nodes, mode, placement, seed)

    for op, request, count in ops:
        if op == "release" and checker.live:
            checker.release(count)
        else:
            checker.plan_and_allocate(request, count)
        checker.check_state()
    while checker.live:
        checker.release(0)
        checker.check_state()

    cluster = checker.cluster
    assert cluster.free_milli_by_class == checker.initial_free_milli
    assert all(v == 0 for v in cluster.shared_occupied.values())
    assert all(v == pytest.approx(0, abs=1e-9) for v in cluster.shared_granted.values())
    if not (isinstance(mode, MigConfig) and mode.relayout_delay_s is not None):
        fresh = ClusterState(nodes, placement, seed=seed, sharing={GPU_TYPE: mode})  # type: ignore[arg-type]
        for prof in OFFERABLE:
            pod: PodShape = (prof.code, 1, 0, 0)
            allowed = cluster.classes_for([prof.name])
            assert cluster.capacity(pod, allowed) == fresh.capacity(pod, allowed), prof.name
