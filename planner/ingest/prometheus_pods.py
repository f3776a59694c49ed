"""What kube-state-metrics and dcgm-exporter series in Prometheus say of each pod.

`planner.ingest.prometheus_jobs` makes the pods a generic job history (one row per pod, or
per gang of an owner's pods) that the file importer reads like any export, so the censoring
rules, rejections and the ingest report are a file's. What each column is taken from:

- submit: `kube_pod_created`; start: `kube_pod_start_time` (none: the pod never started);
- end: `kube_pod_completion_time`, else `kube_pod_deletion_timestamp`, else the last step
  the pod was seen Running when its series stop before the window's end; a pod still there
  at the end has no end (running-at-end, or pending-at-end if it never started);
- a time before the window's start is left blank, as an export of the window would: the pod
  was already there when the window opened (running_at_start);
- GPUs, CPU and memory: `kube_pod_container_resource_requests` of resource `nvidia_com_gpu`
  (also `nvidia_com_gpu_shared`; a MIG instance `nvidia_com_mig_3g_40gb` is 3/7 of a GPU),
  `cpu` and `memory`, summed over the pod's containers;
- status: the last `kube_pod_status_phase` at 1 (Succeeded completed, Failed failed,
  Running running, Pending pending);
- owner: the job a pod belongs to, when it is of a job kind (`GANG_KINDS`): a JobSet or
  job-name label of `kube_pod_labels` (`OWNER_LABELS`, exported when allow-listed), else
  `kube_pod_owner`'s owner_name; ReplicaSet, StatefulSet... owners and no owner leave it empty;
- queue: the Kueue queue label (`label_kueue_x_k8s_io_queue_name` of `kube_pod_labels`,
  exported when kube-state-metrics allow-lists it), else the namespace;
- gpu_util: dcgm-exporter's `DCGM_FI_PROF_GR_ENGINE_ACTIVE` (else `DCGM_FI_DEV_GPU_UTIL` /
  100, with a note) averaged over the samples of the pod's GPUs (`read_busy`).
"""

import datetime as dt
import re
from dataclasses import dataclass, field

from planner.core.errors import TraceError
from planner.core.notes import Note
from planner.ingest.limits import shorten
from planner.ingest.notes import ingest_note
from planner.ingest.prometheus import Client, Sample, Window

QUEUE_LABEL = "label_kueue_x_k8s_io_queue_name"
GPU_RESOURCES = ("nvidia_com_gpu", "nvidia_com_gpu_shared")
MIG_SLICES = 7
"""Compute slices of a MIG-capable GPU (A100, H100, H200): a 3g instance is 3/7 of one."""
GANG_KINDS = (
    "Job",
    "PyTorchJob",
    "MPIJob",
    "TFJob",
    "XGBoostJob",
    "PaddleJob",
    "JAXJob",
    "TrainJob",
    "JobSet",
    "RayJob",
)
"""Owner kinds whose pods are one job that starts together (not ReplicaSet, StatefulSet...)."""
OWNER_LABELS = (
    "label_jobset_sigs_k8s_io_jobset_name",
    "label_training_kubeflow_org_job_name",
    "label_batch_kubernetes_io_job_name",
)
"""Pod labels naming a pod's job, first found first: a JobSet's name covers its child Jobs."""
_MIG_RESOURCE = re.compile(r"nvidia_com_mig_(\d+)g_\d+gb")
_MIG_PROFILE = re.compile(r"(\d+)g\.")
REQUIRED = ("kube_pod_created", "kube_pod_status_phase", "kube_pod_container_resource_requests")
"""Series without which no job history can be built (each is refused by name if absent)."""

PodKey = tuple[str, str, str]
"""(namespace, pod, uid)."""


@dataclass(slots=True)
class Pod:
    """What the series say of one pod."""

    key: PodKey
    created: float | None = None
    started: float | None = None
    completed: float | None = None
    deleted: float | None = None
    last_seen: float = float("-inf")
    last_running: float | None = None
    phase: str = ""
    phase_at: float = float("-inf")
    gpus: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    mem: dict[str, float] = field(default_factory=dict)
    queue: str = ""
    owner: str = ""
    """Name of the job (of a `GANG_KINDS` kind) whose pods run as one gang; empty if none."""
    busy: float | None = None
    """Mean busy fraction of the pod's GPUs over its samples (dcgm-exporter), 0-1."""


def selector(metric: str, namespace: str | None, extra: str = "") -> str:
    """`metric{namespace="...",extra}`: the series a query asks for."""
    matchers = [m for m in (_namespace_matcher(namespace), extra) if m]
    return f"{metric}{{{','.join(matchers)}}}" if matchers else metric


def _namespace_matcher(namespace: str | None) -> str:
    if not namespace:
        return ""
    quoted = namespace.replace("\\", "\\\\").replace('"', '\\"')
    return f'namespace="{quoted}"'


def read_pods(client: Client, window: Window, namespace: str | None) -> dict[PodKey, Pod]:
    """Every pod the window's series know of, with what they say of it. When a pod was last
    seen (running) is read at the window's step; what does not change in a pod's life at
    the coarse step (`Window.coarse`)."""
    pods: dict[PodKey, Pod] = {}
    for sample in _fetch(client, window, "kube_pod_created", namespace):
        pod = _pod(pods, sample)
        pod.created = sample.points[-1][1]
        pod.last_seen = max(pod.last_seen, sample.points[-1][0])
    coarse = window.coarse()
    for sample in _fetch(client, coarse, "kube_pod_status_phase", namespace):
        _phase(pods, sample)
    running = selector("kube_pod_status_phase", namespace, 'phase="Running"')
    for sample in client.series(running, window, "max_over_time", " == 1"):
        if _key(sample) in pods:
            pods[_key(sample)].last_running = sample.points[-1][0]
    requests = _fetch(client, coarse, "kube_pod_container_resource_requests", namespace)
    for sample in requests:
        _request(pods, sample)
    for name, setter in _TIMES.items():
        for sample in client.series(selector(name, namespace), coarse):
            if _key(sample) in pods:
                setter(pods[_key(sample)], sample.points[-1][1])
    kinds = f'owner_kind=~"{"|".join(GANG_KINDS)}"'
    for sample in client.series(selector("kube_pod_owner", namespace, kinds), coarse):
        if _key(sample) in pods:
            pods[_key(sample)].owner = sample.label("owner_name")
    for sample in client.series(selector("kube_pod_labels", namespace), coarse):
        if (labelled := pods.get(_key(sample))) is not None:
            labelled.queue = sample.label(QUEUE_LABEL)
            named = filter(None, map(sample.label, OWNER_LABELS))
            labelled.owner = next(named, labelled.owner)
    return pods


BUSY_SERIES = (("DCGM_FI_PROF_GR_ENGINE_ACTIVE", 1.0), ("DCGM_FI_DEV_GPU_UTIL", 100.0))
"""dcgm-exporter's busy series, preferred first, with the value that means fully busy."""


def read_busy(
    client: Client, window: Window, namespace: str | None, pods: dict[PodKey, Pod]
) -> list[Note]:
    """Each pod's mean GPU busy fraction from dcgm-exporter (matched by its `namespace`
    and `pod` labels): the sum of its GPUs' samples over their count, every sample weighed
    by its GPU's size (`_slices`: a MIG instance by its compute slices). Notes: the
    fallback series used, or no series at all."""
    coarse = window.coarse()
    by_name = {(p.key[0], p.key[1]): p for p in pods.values()}
    fallback = ingest_note("dcgm_gpu_util_fallback")
    for (metric, full), note in zip(BUSY_SERIES, (None, fallback), strict=True):
        wanted = selector(metric, namespace, 'pod!=""')
        sums = client.series(wanted, coarse, "sum_over_time")
        if not sums:
            continue
        counts = client.series(wanted, coarse, "count_over_time")
        totals: dict[tuple[str, str], list[float]] = {}
        for sample in sums:
            total = totals.setdefault((sample.label("namespace"), sample.label("pod")), [0, 0])
            total[0] += sum(v for _, v in sample.points) / full * _slices(sample)
        for sample in counts:
            total = totals.setdefault((sample.label("namespace"), sample.label("pod")), [0, 0])
            total[1] += sum(v for _, v in sample.points) * _slices(sample)
        for name, (busy, samples) in totals.items():
            if name in by_name and samples > 0:
                by_name[name].busy = min(max(busy / samples, 0.0), 1.0)
        return [note] if note else []
    return [ingest_note("dcgm_missing")]


def _slices(sample: Sample) -> float:
    """A series' weight in its pod's mean: a whole GPU 1, a MIG instance its share of the
    GPU's seven compute slices (`GPU_I_PROFILE` 3g.40gb: 3/7)."""
    found = _MIG_PROFILE.match(sample.label("GPU_I_PROFILE"))
    return int(found.group(1)) / MIG_SLICES if found else 1.0


def _mig_gpus(resource: str) -> float | None:
    """GPUs a MIG resource is a share of (nvidia_com_mig_3g_40gb: 3/7), else None."""
    found = _MIG_RESOURCE.fullmatch(resource)
    return int(found.group(1)) / MIG_SLICES if found else None


def _fetch(client: Client, window: Window, metric: str, namespace: str | None) -> list[Sample]:
    wanted = selector(metric, namespace)
    over = "max_over_time" if metric == "kube_pod_container_resource_requests" else ""
    found = client.series(wanted, window, over or "last_over_time")
    if not found:
        where = f" in namespace {shorten(namespace)}" if namespace else ""
        raise TraceError(
            f"Prometheus at {shorten(client.url)} has no {metric} series{where} between "
            f"{_utc(window.start)} and {_utc(window.end)}; the import needs kube-state-metrics' "
            f"{', '.join(REQUIRED)} (is kube-state-metrics scraped, and is the window right?)"
        )
    return found


def _utc(epoch: float) -> str:
    return dt.datetime.fromtimestamp(epoch, tz=dt.UTC).isoformat(timespec="seconds")


def _key(sample: Sample) -> PodKey:
    return sample.label("namespace"), sample.label("pod"), sample.label("uid")


def _pod(pods: dict[PodKey, Pod], sample: Sample) -> Pod:
    key = _key(sample)
    if key not in pods:
        pods[key] = Pod(key)
    return pods[key]


def _set_started(pod: Pod, value: float) -> None:
    pod.started = value


def _set_completed(pod: Pod, value: float) -> None:
    pod.completed = value


def _set_deleted(pod: Pod, value: float) -> None:
    pod.deleted = value


_TIMES = {
    "kube_pod_start_time": _set_started,
    "kube_pod_completion_time": _set_completed,
    "kube_pod_deletion_timestamp": _set_deleted,
}


def _phase(pods: dict[PodKey, Pod], sample: Sample) -> None:
    pod = pods.get(_key(sample))
    if pod is None:
        return
    on = [at for at, value in sample.points if value == 1]
    if on and on[-1] > pod.phase_at:
        pod.phase, pod.phase_at = sample.label("phase"), on[-1]


def _request(pods: dict[PodKey, Pod], sample: Sample) -> None:
    pod = pods.get(_key(sample))
    if pod is None:
        return
    resource, container = sample.label("resource"), sample.label("container")
    value = max(v for _, v in sample.points)
    if resource in GPU_RESOURCES:
        pod.gpus[f"{container}/{resource}"] = value
    elif (share := _mig_gpus(resource)) is not None:  # MIG instances: a share of a GPU
        pod.gpus[f"{container}/{resource}"] = value * share
    elif resource == "cpu":
        pod.cpu[container] = value
    elif resource == "memory":
        pod.mem[container] = value
