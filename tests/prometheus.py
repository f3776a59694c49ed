"""A real Prometheus for the import tests: Debian's `prometheus` package (it brings
`promtool`), installed on first use like chromium; series written as OpenMetrics text with
timestamps, backfilled into TSDB blocks by `promtool tsdb create-blocks-from openmetrics`,
and served on a free loopback port until the test module ends."""

import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.debian import program

WHY = "the Prometheus import tests"


@dataclass(frozen=True, slots=True)
class Series:
    """One time series: metric name, labels, and (epoch seconds, value) samples in order."""

    metric: str
    labels: Mapping[str, str]
    samples: Sequence[tuple[float, float]]


@dataclass(slots=True)
class Exposition:
    """Series grouped by metric family, as OpenMetrics wants them (a family's lines together)."""

    families: dict[str, list[Series]] = field(default_factory=dict)

    def add(self, metric: str, labels: Mapping[str, str], samples: Iterable[tuple[float, float]]):
        self.families.setdefault(metric, []).append(Series(metric, dict(labels), list(samples)))

    def lines(self) -> Iterator[str]:
        for metric, series in self.families.items():
            yield f"# TYPE {metric} gauge\n"
            for one in series:
                labels = ",".join(f'{k}="{_escaped(v)}"' for k, v in sorted(one.labels.items()))
                for at, value in one.samples:
                    yield f"{metric}{{{labels}}} {value!r} {at:.3f}\n"
        yield "# EOF\n"


def _escaped(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def tools() -> tuple[str, str]:
    """(prometheus, promtool), installing Debian's package first if they are missing."""
    server = program(("prometheus",), "prometheus", WHY)
    promtool = program(("promtool",), "prometheus", WHY)
    return server, promtool


def backfill(exposition: Exposition, folder: Path) -> Path:
    """The series as TSDB blocks in `folder`/data (the text file is kept beside it)."""
    _, promtool = tools()
    text = folder / "series.om.txt"
    with text.open("w", encoding="utf-8") as out:
        out.writelines(exposition.lines())
    data = folder / "data"
    data.mkdir()
    done = subprocess.run(
        # long blocks: a months-long history in a handful of blocks, not one per 2 hours
        [
            promtool,
            "tsdb",
            "create-blocks-from",
            "openmetrics",
            "-q",
            "--max-block-duration=1458h",
            str(text),
            str(data),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"promtool could not backfill {text}: {done.stderr[-3000:]}")
    return data


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(data: Path, *flags: str) -> Iterator[str]:
    """Prometheus over the blocks in `data` on a loopback port (with more command-line
    `flags`); yields its base URL."""
    server, _ = tools()
    config = data.parent / "prometheus.yml"
    config.write_text("global: {}\nscrape_configs: []\n", encoding="utf-8")
    port = _free_port()
    log = (data.parent / "prometheus.log").open("w", encoding="utf-8")
    process = subprocess.Popen(
        [
            server,
            f"--config.file={config}",
            f"--storage.tsdb.path={data}",
            # backfilled blocks are old: a short retention would delete them on start
            "--storage.tsdb.retention.time=100y",
            f"--web.listen-address=127.0.0.1:{port}",
            *flags,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, process, data.parent / "prometheus.log")
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def _wait_ready(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until /-/ready answers 200 (or the server exits: then fail with its log)."""
    while True:
        if process.poll() is not None:
            pytest.fail(f"prometheus exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/-/ready", timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)  # a poll interval, not a wait for a guessed time


@dataclass(frozen=True, slots=True)
class PodSeries:
    """One pod as kube-state-metrics exports it while the pod object exists (`seen`)."""

    namespace: str
    pod: str
    uid: str
    created: float
    seen: tuple[float, float]
    phases: Sequence[tuple[float, str]]
    """(from when, phase), in order."""
    requests: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    """container -> resource (nvidia_com_gpu, cpu, memory) -> amount."""
    started: float | None = None
    completed: float | None = None
    deleted: float | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    owner: tuple[str, str] | None = None
    """(owner_kind, owner_name) of kube_pod_owner; None: no such series (as in openb)."""


_UNITS = {"cpu": "core", "memory": "byte"}


def add_pod(exposition: Exposition, pod: PodSeries, every: float) -> None:
    """The pod's kube-state-metrics series, sampled every `every` seconds while it exists
    and at both ends of that time (a scrape interval coarser than a real one, to keep a
    months-long history small; the import's step must be at least `every`)."""
    first, last = pod.seen
    times = [first + k * every for k in range(int((last - first) // every) + 1)]
    if times[-1] < last:
        times.append(last)
    ids = {"namespace": pod.namespace, "pod": pod.pod, "uid": pod.uid}
    exposition.add("kube_pod_created", ids, [(t, pod.created) for t in times])
    for metric, value in (
        ("kube_pod_start_time", pod.started),
        ("kube_pod_completion_time", pod.completed),
        ("kube_pod_deletion_timestamp", pod.deleted),
    ):
        if value is not None:
            exposition.add(metric, ids, [(t, value) for t in times if t >= value])
    for phase in dict.fromkeys(p for _, p in pod.phases):
        samples = [(t, 1.0 if _phase_at(pod.phases, t) == phase else 0.0) for t in times]
        exposition.add("kube_pod_status_phase", {**ids, "phase": phase}, samples)
    for container, resources in pod.requests.items():
        for resource, amount in resources.items():
            labels = {**ids, "container": container, "resource": resource}
            labels["unit"] = _UNITS.get(resource, "integer")
            exposition.add(
                "kube_pod_container_resource_requests", labels, [(t, amount) for t in times]
            )
    exposition.add("kube_pod_labels", {**ids, **pod.labels}, [(t, 1.0) for t in times])
    if pod.owner is not None:  # kube-state-metrics writes "<none>" for a pod without owner
        kind, name = pod.owner
        controller = "<none>" if kind == "<none>" else "true"
        owner = {"owner_kind": kind, "owner_name": name, "owner_is_controller": controller}
        exposition.add("kube_pod_owner", {**ids, **owner}, [(t, 1.0) for t in times])


def _phase_at(phases: Sequence[tuple[float, str]], at: float) -> str:
    current = phases[0][1]
    for since, phase in phases:
        if since <= at:
            current = phase
    return current
