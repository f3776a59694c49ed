"""A job history imported from a real Prometheus: kube-state-metrics series written as
OpenMetrics, backfilled with promtool, served on a loopback port, imported over HTTP.

The hand case is checked job by job with the arithmetic written out; the openb pod list,
exported as kube-state-metrics series, must import with the job count, GPU-hours and
censored counts of the openb file itself.
"""

import itertools
import json
import math
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.cli import main
from planner.core.errors import TraceError
from planner.ingest import IngestOptions
from planner.ingest.prometheus import MAX_POINTS, Window, parse_window
from planner.service.prometheus_import import import_prometheus
from tests.conftest import ingest, jobs_of
from tests.prometheus import Exposition, PodSeries, add_pod, backfill, serving

H = 3600.0
GIB = 2.0**30
STEP = 600.0
# Backfilled samples must be older than the server's head: the window ends a day ago.
END = math.floor(time.time() / H) * H - 24 * H
START = END - 10 * H
WINDOW = Window(START, END, STEP)
QUEUE = {"label_kueue_x_k8s_io_queue_name": "team-a-queue"}


def _hand_pods() -> list[PodSeries]:
    s = START
    return [
        # 2 GPUs from 1.5 h to 5.5 h: 2 x 4 h = 8 GPU-hours; Kueue queue label
        PodSeries(
            "team-a",
            "train-2gpu",
            "uid-a",
            created=s + 1 * H,
            seen=(s + 1 * H, s + 6 * H),
            phases=[(s + 1 * H, "Pending"), (s + 1.5 * H, "Running"), (s + 5.5 * H, "Succeeded")],
            requests={
                "trainer": {"nvidia_com_gpu": 2, "cpu": 8, "memory": 64 * GIB},
                "sidecar": {"cpu": 0.5, "memory": 1 * GIB},
            },
            started=s + 1.5 * H,
            completed=s + 5.5 * H,
            labels=QUEUE,
        ),
        # CPU only, 2 h to 3 h: 0 GPU-hours
        PodSeries(
            "team-b",
            "prep-cpu",
            "uid-b",
            created=s + 2 * H,
            seen=(s + 2 * H, s + 3 * H),
            phases=[(s + 2 * H, "Running"), (s + 3 * H, "Succeeded")],
            requests={"main": {"cpu": 4, "memory": 8 * GIB}},
            started=s + 2 * H,
            completed=s + 3 * H,
        ),
        # never started: Pending from 6 h to the window end (withdrawn after 10 - 6 = 4 h)
        PodSeries(
            "team-b",
            "waits",
            "uid-c",
            created=s + 6 * H,
            seen=(s + 6 * H, END),
            phases=[(s + 6 * H, "Pending")],
            requests={"main": {"nvidia_com_gpu": 1}},
        ),
        # 4 GPUs from 7.25 h, still running at 10 h: 4 x 2.75 h = 11 GPU-hours
        PodSeries(
            "team-a",
            "long",
            "uid-d",
            created=s + 7 * H,
            seen=(s + 7 * H, END),
            phases=[(s + 7 * H, "Pending"), (s + 7.25 * H, "Running")],
            requests={"main": {"nvidia_com_gpu": 4}},
            started=s + 7.25 * H,
        ),
        # created 3 h before the window, failed at 2 h: 1 GPU x (2 - 0) h = 2 GPU-hours
        PodSeries(
            "team-b",
            "early",
            "uid-e",
            created=s - 3 * H,
            seen=(s - 3 * H, s + 2.5 * H),
            phases=[(s - 3 * H, "Pending"), (s - 2.5 * H, "Running"), (s + 2 * H, "Failed")],
            requests={"main": {"nvidia_com_gpu": 1}},
            started=s - 2.5 * H,
            completed=s + 2 * H,
        ),
        # series stop at 9 h with no completion time: ended at its last step, 9 h;
        # 1 GPU x (9 - 8) h = 1 GPU-hour
        PodSeries(
            "team-b",
            "vanished",
            "uid-f",
            created=s + 8 * H,
            seen=(s + 8 * H, s + 9 * H),
            phases=[(s + 8 * H, "Running")],
            requests={"main": {"nvidia_com_gpu": 1}},
            started=s + 8 * H,
        ),
        # dcgm-exporter without the profiling series: busy from DCGM_FI_DEV_GPU_UTIL;
        # 1 GPU x (4 - 3) h = 1 GPU-hour
        PodSeries(
            "legacy",
            "old-exporter",
            "uid-h",
            created=s + 3 * H,
            seen=(s + 3 * H, s + 4 * H),
            phases=[(s + 3 * H, "Running"), (s + 4 * H, "Succeeded")],
            requests={"main": {"nvidia_com_gpu": 1}},
            started=s + 3 * H,
            completed=s + 4 * H,
        ),
        # two MIG instances, 1g.10gb and 3g.40gb: 1/7 + 3/7 = 4/7 of a GPU from 2 h to 4 h:
        # 4/7 x 2 h = 8/7 GPU-hours
        PodSeries(
            "mig",
            "mig-two",
            "uid-i",
            created=s + 2 * H,
            seen=(s + 2 * H, s + 4 * H),
            phases=[(s + 2 * H, "Running"), (s + 4 * H, "Succeeded")],
            requests={"main": {"nvidia_com_mig_1g_10gb": 1, "nvidia_com_mig_3g_40gb": 1}},
            started=s + 2 * H,
            completed=s + 4 * H,
        ),
        # a namespace whose pods have no resource-request series
        PodSeries("bare", "nothing", "uid-g", s + 1 * H, (s + 1 * H, s + 2 * H), [(s, "Running")]),
    ]


def _busy(
    exposition: Exposition, metric: str, pod: str, gpus: dict[str, float], seen: tuple[float, float]
) -> None:
    """dcgm-exporter's series of one pod's GPUs, at a constant value each while it runs."""
    namespace, name = pod.split("/")
    times = [seen[0] + k * STEP / 2 for k in range(int((seen[1] - seen[0]) // (STEP / 2)) + 1)]
    for gpu, value in gpus.items():
        labels = {"gpu": gpu, "UUID": f"GPU-{name}-{gpu}", "Hostname": "node-1"}
        labels |= {"namespace": namespace, "pod": name, "container": "main"}
        exposition.add(metric, labels, [(t, value) for t in times])


@pytest.fixture(scope="module")
def hand_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    exposition = Exposition()
    for pod in _hand_pods():
        add_pod(exposition, pod, every=STEP / 2)
    active, util = "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_DEV_GPU_UTIL"
    # train-2gpu: GPU 0 busy 0.6, GPU 1 0.2, as many samples each: (0.6 + 0.2) / 2 = 0.4
    _busy(
        exposition,
        active,
        "team-a/train-2gpu",
        {"0": 0.6, "1": 0.2},
        (START + 1.5 * H, START + 5.5 * H),
    )
    # long: its 4 GPUs at 0.9: 0.9
    _busy(exposition, active, "team-a/long", dict.fromkeys("0123", 0.9), (START + 7.25 * H, END))
    # mig-two: 1g.10gb at 0.8, 3g.40gb at 0.4, weighed by slices: (1 x 0.8 + 3 x 0.4) / 4
    for profile, value in (("1g.10gb", 0.8), ("3g.40gb", 0.4)):
        labels = {"gpu": "0", "GPU_I_PROFILE": profile, "GPU_I_ID": profile[0]}
        labels |= {"namespace": "mig", "pod": "mig-two", "container": "main"}
        times = [START + 2 * H + k * STEP / 2 for k in range(int(2 * H // (STEP / 2)) + 1)]
        exposition.add(active, labels, [(t, value) for t in times])
    # old-exporter: 35 (%) from the fallback series: 0.35
    _busy(exposition, util, "legacy/old-exporter", {"0": 35.0}, (START + 3 * H, START + 4 * H))
    return backfill(exposition, tmp_path_factory.mktemp("prometheus-hand"))


@pytest.fixture(scope="module")
def hand_url(hand_data: Path) -> Iterator[str]:
    with serving(hand_data) as url:
        yield url


def _jobs(con: duckdb.DuckDBPyConnection, trace_id: str) -> dict[str, dict[str, object]]:
    return {str(j["job_id"]): j for j in jobs_of(con, trace_id)}


def test_every_hand_made_pod_is_a_job_with_its_gpu_hours_and_censoring(
    hand_url: str, con: duckdb.DuckDBPyConnection
) -> None:
    report = import_prometheus(con, hand_url, WINDOW, IngestOptions(), namespace=None)
    jobs = _jobs(con, report.trace_id)

    assert report.file == hand_url
    assert (report.rows, report.accepted, report.rejected) == (9, 9, 0)
    assert report.start_utc is not None
    assert pd.Timestamp(report.start_utc).timestamp() == START
    assert report.horizon_s == 10 * H  # the queried window, not the rows' span
    # 8 (train-2gpu) + 0 (prep-cpu) + 0 (waits) + 11 (long) + 2 (early) + 1 (vanished)
    # + 1 (old-exporter) + 8/7 (mig-two) + 0 (nothing)
    assert report.gpu_hours == pytest.approx(23 + 8 / 7)
    assert report.running_at_start == 1  # early
    assert report.running_at_end == 1  # long
    assert (report.withdrawn, report.pending_at_end) == (1, 1)  # waits

    train = jobs["team-a/train-2gpu"]
    assert (train["submit_s"], train["start_s"], train["end_s"]) == (1 * H, 1.5 * H, 5.5 * H)
    assert (train["duration_s"], train["gpus"], train["pods"]) == (4 * H, 2.0, 1)
    assert (train["cpu"], train["mem_gib"]) == (8 + 0.5, 64 + 1)  # summed over containers
    assert (train["queue"], train["status"]) == ("team-a-queue", "completed")
    assert train["gpu_util"] == pytest.approx((0.6 + 0.2) / 2)
    # busy: 8 x 0.4 (train-2gpu) + 11 x 0.9 (long) + 8/7 x 0.5 (mig-two) of their
    # 8 + 11 + 8/7 GPU-hours
    assert report.busy_gpu_hours == pytest.approx(8 * 0.4 + 11 * 0.9 + 8 / 7 * 0.5)
    assert report.busy_known_gpu_hours == pytest.approx(8 + 11 + 8 / 7)
    mig = jobs["mig/mig-two"]
    assert (mig["gpus"], mig["duration_s"]) == (pytest.approx(4 / 7), 2 * H)
    assert mig["gpu_util"] == pytest.approx((1 * 0.8 + 3 * 0.4) / (1 + 3))
    assert jobs["team-a/long"]["gpu_util"] == pytest.approx(0.9)
    # the profiling series exist here, so the fallback series is not read: no busy share
    assert pd.isna(jobs["legacy/old-exporter"]["gpu_util"])
    assert pd.isna(jobs["team-b/prep-cpu"]["gpu_util"])  # no dcgm series: unknown

    cpu = jobs["team-b/prep-cpu"]
    assert (cpu["gpus"], cpu["duration_s"], cpu["cpu"], cpu["mem_gib"]) == (0.0, 1 * H, 4, 8)
    assert cpu["queue"] == "team-b"  # no Kueue label: the namespace

    waits = jobs["team-b/waits"]
    assert (waits["status"], waits["duration_s"]) == ("withdrawn", 0.0)
    assert waits["withdraw_after_s"] == 10 * H - 6 * H

    long = jobs["team-a/long"]
    assert (long["status"], long["duration_s"]) == ("running-at-end", 10 * H - 7.25 * H)

    early = jobs["team-b/early"]
    assert early["running_at_start"]
    assert early["status"] == "failed"
    assert (early["submit_s"], early["start_s"], early["duration_s"]) == (0.0, 0.0, 2 * H)

    vanished = jobs["team-b/vanished"]
    assert (vanished["status"], vanished["end_s"], vanished["duration_s"]) == (
        "completed",
        9 * H,
        9 * H - 8 * H,
    )


def test_a_namespace_imports_its_own_pods_only(
    hand_url: str, con: duckdb.DuckDBPyConnection
) -> None:
    report = import_prometheus(con, hand_url, WINDOW, IngestOptions(), namespace="team-a")

    assert set(_jobs(con, report.trace_id)) == {"team-a/train-2gpu", "team-a/long"}
    assert report.gpu_hours == pytest.approx(8 + 11)
    assert report.file == f"{hand_url} (namespace team-a)"


def test_the_command_line_imports_and_recognises_the_same_window_again(
    hand_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["ingest", "--prometheus", hand_url, "--window", f"{START:.0f}..{END:.0f}"]
    argv += ["--step", f"{STEP:.0f}", "--db", str(tmp_path / "p.duckdb"), "--json"]

    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)

    assert (first["accepted"], first["already_imported"]) == (9, False)
    assert first["gpu_hours"] == pytest.approx(23 + 8 / 7)
    assert (again["trace_id"], again["already_imported"]) == (first["trace_id"], True)


def test_busy_share_falls_back_to_gpu_util_with_a_note(
    hand_url: str, con: duckdb.DuckDBPyConnection
) -> None:
    report = import_prometheus(con, hand_url, WINDOW, IngestOptions(), namespace="legacy")

    job = _jobs(con, report.trace_id)["legacy/old-exporter"]
    assert job["gpu_util"] == pytest.approx(35 / 100)
    assert any("DCGM_FI_DEV_GPU_UTIL" in note for note in report.warnings)

    report = import_prometheus(con, hand_url, WINDOW, IngestOptions(), namespace="team-b")
    assert any("GPU busy share is unknown" in note for note in report.warnings)


def test_a_server_that_limits_samples_is_asked_in_smaller_spans(
    hand_data: Path, hand_url: str, con: duckdb.DuckDBPyConnection
) -> None:
    whole = import_prometheus(con, hand_url, WINDOW, IngestOptions(), name="whole")
    # 150 samples at once: too few for some queries over the whole window, enough for halves
    with serving(hand_data, "--query.max-samples=150") as url:
        running = 'max_over_time(kube_pod_status_phase{phase="Running"}[599999ms]) == 1'
        first, _ = WINDOW.grid()
        query = {"query": running, "start": first, "end": END, "step": STEP}
        with pytest.raises(urllib.error.HTTPError) as refused:  # the whole window at once
            urllib.request.urlopen(f"{url}/api/v1/query_range?{urllib.parse.urlencode(query)}")
        assert refused.value.code == 422
        halves = import_prometheus(con, url, WINDOW, IngestOptions(), name="halves")
    assert (halves.accepted, halves.gpu_hours) == (whole.accepted, whole.gpu_hours)
    assert halves.running_at_end == whole.running_at_end
    with (
        serving(hand_data, "--query.max-samples=20") as url,
        pytest.raises(TraceError, match="import one namespace at a time"),
    ):
        import_prometheus(con, url, WINDOW, IngestOptions())


def test_a_window_without_pods_is_refused_by_series_name_and_nothing_is_stored(
    hand_url: str, con: duckdb.DuckDBPyConnection
) -> None:
    empty = Window(START - 30 * 24 * H, START - 29 * 24 * H, STEP)
    with pytest.raises(TraceError, match="has no kube_pod_created series between"):
        import_prometheus(con, hand_url, empty, IngestOptions())

    with pytest.raises(TraceError, match="no kube_pod_container_resource_requests series in"):
        import_prometheus(con, hand_url, WINDOW, IngestOptions(), namespace="bare")
    assert con.execute("SELECT count(*) FROM traces").fetchone() == (0,)


def test_an_unreachable_server_and_a_bad_window_each_say_what_to_fix(
    con: duckdb.DuckDBPyConnection,
) -> None:
    with pytest.raises(TraceError, match=r"cannot reach Prometheus at http://127\.0\.0\.1:9/"):
        import_prometheus(con, "http://127.0.0.1:9/", WINDOW, IngestOptions())
    with pytest.raises(TraceError, match="expects an http:// or https:// address"):
        import_prometheus(con, "prometheus:9090", WINDOW, IngestOptions())
    with pytest.raises(TraceError, match="the end must come after the start"):
        parse_window("2026-12-01..2026-11-01")
    with pytest.raises(TraceError, match="'last week' is not a date"):
        parse_window("last week..2026-11-01")
    with pytest.raises(TraceError, match="expects START..END"):
        parse_window("2026-11-01")


def test_a_window_is_cut_into_queries_below_prometheus_points_limit() -> None:
    # 30 days at 60 s = 43,200 steps, 43,201 points: 5 queries of at most 10,001 points
    window = parse_window("2026-11-01..2026-12-01", 60)
    chunks = list(window.chunks())

    points = [round((last - first) / 60) + 1 for first, last in chunks]
    assert points == [MAX_POINTS + 1] * 4 + [43_201 - 4 * (MAX_POINTS + 1)]
    assert chunks[0][0] == window.start
    assert chunks[-1][1] == window.end
    assert all(b[0] - a[1] == 60 for a, b in itertools.pairwise(chunks))
    # default step: 30 days / 5,000 = 518.4 s, rounded up to whole minutes: 540 s
    assert parse_window("2026-11-01..2026-12-01").step == 540


@given(
    start=st.integers(0, 10**9),
    length=st.integers(1, 10**8),
    step=st.integers(1, 10**5),
)
def test_chunks_cover_every_step_once_within_the_points_limit(
    start: int, length: int, step: int
) -> None:
    window = Window(float(start), float(start + length), float(step))
    first, steps = window.grid()
    chunks = list(window.chunks())

    # the grid ends at the window's end and its first step reaches back to the start
    assert first <= window.start < first + step
    counts = [round((last - begin) / step) + 1 for begin, last in chunks]
    assert sum(counts) == steps + 1  # every point once
    assert max(counts) <= MAX_POINTS + 1 < 11_000
    assert chunks[-1][1] == pytest.approx(window.end)


# ---- the openb pod list, exported as kube-state-metrics series ----

OPENB_STEP = H


def _openb_pods(raw: pd.DataFrame, shift: float, end: float) -> Iterator[PodSeries]:
    """Each openb pod as kube-state-metrics would show it: created at creation_time,
    started at scheduled_time; a pod deleted before the window end has a completion time
    (Succeeded, Failed) or a deletion timestamp (Running, Pending); a Running pod deleted
    at the window end is still running there."""
    for pod in raw.itertuples():
        created = pod.creation_time + shift
        deleted = pod.deletion_time + shift
        started = None if pd.isna(pod.scheduled_time) else pod.scheduled_time + shift
        gpus = pod.num_gpu * (pod.gpu_milli if pod.num_gpu > 0 else 1000) / 1000
        requests = {"cpu": pod.cpu_milli / 1000, "memory": pod.memory_mib * 2**20}
        if gpus:
            requests["nvidia_com_gpu"] = round(gpus, 6)
        ended = pod.pod_phase in ("Succeeded", "Failed")
        phases = [(created, "Pending")]
        if started is not None:
            phases.append((started, "Running"))
        if ended:
            phases.append((deleted, pod.pod_phase))
        yield PodSeries(
            "openb",
            pod.name,
            f"uid-{pod.Index}",
            created=created,
            seen=(created, deleted),
            phases=phases,
            requests={"main": requests},
            started=started,
            completed=deleted if ended else None,
            deleted=None if ended or (pod.pod_phase == "Running" and deleted >= end) else deleted,
        )


def test_openb_from_prometheus_matches_the_openb_file(
    shared_traces: Path, tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    path = shared_traces / "alibaba-openb-2023" / "openb_pod_list_default.csv.gz"
    raw = pd.read_csv(path)
    span = float(raw["deletion_time"].max())  # the file's window: 0 to the last deletion
    end = END
    shift = end - span
    exposition = Exposition()
    for pod in _openb_pods(raw, shift, end):
        add_pod(exposition, pod, every=OPENB_STEP)
    data = backfill(exposition, tmp_path)

    from_file = ingest(con, path)
    with serving(data) as url:
        window = Window(shift, end, OPENB_STEP)
        from_prometheus = import_prometheus(con, url, window, IngestOptions())

    assert from_prometheus.accepted == from_file.accepted == 8152
    assert from_prometheus.rejected == from_file.rejected == 0
    assert from_prometheus.gpu_hours == pytest.approx(from_file.gpu_hours, abs=1e-6)
    for count in ("running_at_start", "running_at_end", "withdrawn", "pending_at_end"):
        assert getattr(from_prometheus, count) == getattr(from_file, count), count
    assert from_prometheus.horizon_s == from_file.horizon_s == span
    by_file = pd.DataFrame(jobs_of(con, from_file.trace_id)).set_index("job_id")
    by_prometheus = pd.DataFrame(jobs_of(con, from_prometheus.trace_id))
    by_prometheus = by_prometheus.assign(job_id=by_prometheus["job_id"].str.removeprefix("openb/"))
    by_prometheus = by_prometheus.set_index("job_id").loc[by_file.index]
    for column in ("submit_s", "duration_s", "gpus", "status", "withdraw_after_s"):
        pd.testing.assert_series_equal(by_prometheus[column], by_file[column], check_names=False)


def test_the_command_line_wants_a_file_or_prometheus_with_a_window(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--db", str(tmp_path / "p.duckdb")]
    for argv, said in (
        (["ingest", *db], "give the file to import, or --prometheus URL --window START..END"),
        (["ingest", "--prometheus", "http://127.0.0.1:9", *db], "--prometheus needs --window"),
        (["ingest", "jobs.csv", "--prometheus", "http://p:9090", *db], "not both"),
        (["ingest", "jobs.csv", "--window", "2026-11-01..2026-12-01", *db], "--window goes with"),
        (
            ["ingest", "--prometheus", "http://p:9090", "--window", "1..2", "--map", "a=b", *db],
            "--prometheus has none",
        ),
    ):
        assert main(argv) == 2
        assert said in capsys.readouterr().err
