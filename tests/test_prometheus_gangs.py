"""Pods of one job imported from a real Prometheus as ONE gang job of N pods.

A hand-made namespace: a 4-pod PyTorchJob of 8 GPUs each, a JobSet's two child Jobs, a
ReplicaSet's two serving pods, an unowned pod, a Job whose pods ask for different GPU
counts, a Job retried after a failure, and a PyTorchJob one of whose pods never started;
each job checked with its arithmetic written out.
"""

import csv
import io
import math
import time
from collections.abc import Iterator

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.ingest import IngestOptions
from planner.ingest.prometheus import Window
from planner.ingest.prometheus_jobs import history_csv
from planner.ingest.prometheus_pods import Pod
from planner.service.prometheus_import import import_prometheus
from tests.conftest import jobs_of
from tests.prometheus import Exposition, PodSeries, add_pod, backfill, serving

H = 3600.0
GIB = 2.0**30
STEP = 600.0
# Backfilled samples must be older than the server's head: the window ends a day ago.
END = math.floor(time.time() / H) * H - 24 * H
START = END - 10 * H
WINDOW = Window(START, END, STEP)
KUEUE = {"label_kueue_x_k8s_io_queue_name": "team-a-queue"}


def _pod(
    name: str,
    gpus: float,
    hours: tuple[float, float | None, float | None],
    owner: tuple[str, str],
    *,
    labels: dict[str, str] | None = None,
    phase: str = "Succeeded",
) -> PodSeries:
    """A pod of namespace dist created at hours[0] after START, started at hours[1] (None:
    never), ended in `phase` at hours[2] (None: still there at the window's end)."""
    created = START + hours[0] * H
    started, done = (None if t is None else START + t * H for t in hours[1:])
    phases = [(created, "Pending")]
    if started is not None:
        phases.append((started, "Running"))
    if done is not None:
        phases.append((done, phase))
    return PodSeries(
        "dist",
        name,
        f"uid-{name}",
        created=created,
        seen=(created, END if done is None else done),
        phases=phases,
        requests={"main": {"nvidia_com_gpu": gpus, "cpu": 16, "memory": 100 * GIB}},
        started=started,
        completed=done,
        labels=labels or {},
        owner=owner,
    )


BERT_LABELS = {**KUEUE, "label_training_kubeflow_org_job_name": "bert"}
# (pod, hours created / started / succeeded, busy share)
BERT_PODS = (
    ("bert-master-0", (1.0, 1.5, 6.0), 0.5),
    ("bert-worker-0", (1.0, 2.0, 6.0), 0.5),
    ("bert-worker-1", (1.25, 2.0, 6.0), 0.7),
    ("bert-worker-2", (1.5, 2.5, 6.5), 0.9),
)


def _pods() -> list[PodSeries]:
    jobset = {"label_jobset_sigs_k8s_io_jobset_name": "llm"}
    return [
        *(
            _pod(name, 8, times, ("PyTorchJob", "bert"), labels=BERT_LABELS)
            for name, times, _ in BERT_PODS
        ),
        _pod("serve-7d9f-a", 1, (0.5, 0.5, None), ("ReplicaSet", "serve-7d9f")),
        _pod("serve-7d9f-b", 1, (0.5, 0.5, None), ("ReplicaSet", "serve-7d9f")),
        _pod("notebook", 1, (3.0, 3.0, 5.0), ("<none>", "<none>")),
        _pod("mixed-a", 2, (7.0, 7.0, 8.0), ("Job", "mixed")),
        _pod("mixed-b", 1, (7.0, 7.0, 8.0), ("Job", "mixed")),
        _pod("llm-workers-0-0", 4, (7.0, 7.5, None), ("Job", "llm-workers-0"), labels=jobset),
        _pod("llm-workers-1-0", 4, (7.0, 7.25, None), ("Job", "llm-workers-1"), labels=jobset),
        _pod("retry-1", 1, (1.0, 1.0, 2.0), ("Job", "retry"), phase="Failed"),
        _pod("retry-2", 1, (2.5, 2.5, 3.5), ("Job", "retry")),
        _pod("stuck-0", 2, (8.0, 8.0, None), ("PyTorchJob", "stuck")),
        _pod("stuck-1", 2, (8.0, None, None), ("PyTorchJob", "stuck")),
    ]


@pytest.fixture(scope="module")
def gang_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    exposition = Exposition()
    for pod in _pods():
        add_pod(exposition, pod, every=STEP / 2)
    # each bert pod's 8 GPUs at its busy share while it runs
    for name, (_, started, done), busy in BERT_PODS:
        first, last = START + started * H, START + done * H
        times = [first + k * STEP / 2 for k in range(int((last - first) // (STEP / 2)) + 1)]
        for gpu in range(8):
            labels = {"gpu": str(gpu), "UUID": f"GPU-{name}-{gpu}", "Hostname": name}
            labels |= {"namespace": "dist", "pod": name, "container": "main"}
            exposition.add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", labels, [(t, busy) for t in times])
    data = backfill(exposition, tmp_path_factory.mktemp("prometheus-gangs"))
    with serving(data) as url:
        yield url


def test_an_owners_pods_are_one_gang_job_and_serving_pods_stay_one_job_each(
    gang_url: str, con: duckdb.DuckDBPyConnection
) -> None:
    report = import_prometheus(con, gang_url, WINDOW, IngestOptions())
    jobs = {str(j["job_id"]): j for j in jobs_of(con, report.trace_id)}

    # 14 pods: bert 4 -> 1, serve 2 -> 2, notebook 1, mixed 2 -> 2, llm 2 -> 1,
    # retry 2 -> 2 (one after the other), stuck 2 -> 1: 10 jobs
    assert sorted(jobs) == sorted(
        [
            "dist/bert",
            "dist/serve-7d9f-a",
            "dist/serve-7d9f-b",
            "dist/notebook",
            "dist/mixed-a",
            "dist/mixed-b",
            "dist/llm",
            "dist/retry",
            "dist/retry#2",
            "dist/stuck",
        ]
    )
    assert (report.rows, report.accepted, report.rejected) == (10, 10, 0)
    # 4 pods x 8 GPUs x 4 h (bert) + 2 x 1 x 9.5 h (serve) + 2 (notebook) + 2 x 1 h + 1 x 1 h
    # (mixed) + 2 pods x 4 x 2.5 h (llm) + 1 + 1 (retry) + 0 (stuck never started as a gang)
    assert report.gpu_hours == pytest.approx(128 + 19 + 2 + 3 + 20 + 2 + 0)
    assert report.running_at_end == 3  # serve-7d9f-a, serve-7d9f-b, llm
    assert (report.withdrawn, report.pending_at_end) == (1, 1)  # stuck
    assert "8 pods grouped by their owner" in " ".join(report.warnings)
    assert "into 3 jobs" in " ".join(report.warnings)  # bert, llm, stuck
    assert "1 owners' pods ask for different GPU counts (dist/mixed)" in " ".join(report.warnings)

    bert = jobs["dist/bert"]
    # submitted with its first pod (1 h), started with its last (2.5 h), ended with its
    # last (6.5 h): 4 h
    assert (bert["submit_s"], bert["start_s"], bert["end_s"]) == (1 * H, 2.5 * H, 6.5 * H)
    assert (bert["pods"], bert["gpus"], bert["duration_s"]) == (4, 8.0, 4 * H)
    assert (bert["cpu"], bert["mem_gib"]) == (16, 100)  # per pod: 4 x 16 / 4
    assert (bert["status"], bert["queue"]) == ("completed", "team-a-queue")
    # pods' GPU-hours 8 x 4.5, 8 x 4, 8 x 4, 8 x 4 weigh their shares 0.5, 0.5, 0.7, 0.9
    weighted = (4.5 * 0.5 + 4 * 0.5 + 4 * 0.7 + 4 * 0.9) / (4.5 + 4 + 4 + 4)
    assert bert["gpu_util"] == pytest.approx(weighted)
    assert weighted == pytest.approx(10.65 / 16.5)

    for name in ("dist/serve-7d9f-a", "dist/serve-7d9f-b"):
        serve = jobs[name]
        assert (serve["pods"], serve["gpus"], serve["status"]) == (1, 1.0, "running-at-end")
        assert serve["duration_s"] == 10 * H - 0.5 * H
    notebook = jobs["dist/notebook"]
    assert (notebook["pods"], notebook["duration_s"], notebook["status"]) == (1, 2 * H, "completed")
    assert (jobs["dist/mixed-a"]["gpus"], jobs["dist/mixed-b"]["gpus"]) == (2.0, 1.0)

    llm = jobs["dist/llm"]  # a JobSet: its label joins its two child Jobs' pods
    assert (llm["pods"], llm["gpus"], llm["start_s"]) == (2, 4.0, 7.5 * H)
    assert (llm["status"], llm["duration_s"]) == ("running-at-end", 10 * H - 7.5 * H)

    retry, again = jobs["dist/retry"], jobs["dist/retry#2"]
    assert (retry["pods"], retry["status"], retry["duration_s"]) == (1, "failed", 1 * H)
    assert (again["pods"], again["status"], again["submit_s"]) == (1, "completed", 2.5 * H)

    stuck = jobs["dist/stuck"]  # stuck-1 never started, so neither did the gang
    assert (stuck["pods"], stuck["gpus"], stuck["status"]) == (2, 2.0, "withdrawn")
    assert (stuck["duration_s"], stuck["withdraw_after_s"]) == (0.0, 10 * H - 8 * H)


def test_a_namespace_query_groups_its_pods_the_same(
    gang_url: str, con: duckdb.DuckDBPyConnection
) -> None:
    whole = import_prometheus(con, gang_url, WINDOW, IngestOptions(), name="whole")
    one = import_prometheus(con, gang_url, WINDOW, IngestOptions(), namespace="dist")

    # the owner query carries the namespace matcher beside its owner_kind matcher
    assert (one.accepted, one.gpu_hours) == (whole.accepted, whole.gpu_hours) == (10, 174)
    assert {str(j["job_id"]): j["pods"] for j in jobs_of(con, one.trace_id)}["dist/bert"] == 4


@st.composite
def _some_pods(draw: st.DrawFn) -> list[Pod]:
    pods = []
    for i in range(draw(st.integers(1, 12))):
        created = START + draw(st.integers(0, 9)) * H
        started = draw(st.one_of(st.none(), st.integers(0, 2)))
        pod = Pod(("n", f"p{i}", f"u{i}"), created=created, last_seen=END, busy=0.25)
        pod.phase = "Pending" if started is None else draw(st.sampled_from(["Running", "Failed"]))
        pod.started = None if started is None else created + started * H
        if pod.phase == "Failed":
            pod.completed = created + 3 * H
        pod.gpus = {"main/nvidia_com_gpu": draw(st.sampled_from([1.0, 8.0]))}
        pod.owner = draw(st.sampled_from(["", "a", "b"]))
        pods.append(pod)
    return pods


@given(pods=_some_pods())
def test_every_pod_is_in_one_job_and_only_an_owners_pods_share_one(pods: list[Pod]) -> None:
    text, _ = history_csv(pods, WINDOW)
    rows = list(csv.DictReader(io.StringIO(text)))

    assert sum(int(row["pods"]) for row in rows) == len(pods)
    assert len({row["job_id"] for row in rows}) == len(rows)
    for row in rows:
        if int(row["pods"]) > 1:
            assert row["job_id"].split("#")[0] in ("n/a", "n/b")
        # every pod is busy 0.25, so any weighing of them is 0.25
        assert float(row["gpu_util"]) == pytest.approx(0.25)
