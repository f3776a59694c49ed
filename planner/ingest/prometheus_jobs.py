"""Pods as job-history rows: one job per pod, or one gang job for the pods of one owner.

Distributed training runs as several pods of one job (a Kubernetes Job with parallelism, a
PyTorchJob, MPIJob, JobSet...), and the gang scheduler must see them as ONE job of N pods.
Pods whose owner is of a job kind (`Pod.owner`, from `kube_pod_owner` or a job-name label)
become one row `NAMESPACE/OWNER` with `pods` = their count and `gpus_per_pod` = their GPUs,
by these rules:

- submit: the earliest pod's creation; start: the LATEST pod's start (a gang starts when
  all its pods run); if one pod never started, the gang never started (pending);
- end: the latest pod's end (none while one pod still runs at the window's end);
- status: pending if the gang never started, else failed if any pod failed, completed if
  every pod succeeded, else running;
- cpu, mem_gib: the pods' sums (the job's totals); queue: the first Kueue queue label of
  its pods, else the namespace;
- gpu_util: the GPU-hour-weighted mean of the pods' busy shares (pods without one left out);
- pods of one owner that did not live at one time (a retry created after the pod before it
  ended, a Job's completions beyond its parallelism) are separate gangs, the later ones
  `NAMESPACE/OWNER#2`, `#3`...;
- pods of one owner asking for different GPU counts stay one job per pod, with a note: they
  are never silently made alike.

Pods of a ReplicaSet, Deployment or StatefulSet (serving: not gangs) and pods without an
owner stay one job each, as `history_csv` always wrote them.
"""

import csv
import io
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from planner.core.notes import Note
from planner.ingest.notes import ingest_note
from planner.ingest.prometheus import Window
from planner.ingest.prometheus_pods import Pod

HEADER = (
    "job_id",
    "submit",
    "start",
    "end",
    "pods",
    "gpus_per_pod",
    "cpu",
    "mem_gib",
    "queue",
    "status",
    "gpu_util",
)
_PHASE_STATUS = {
    "Succeeded": "completed",
    "Failed": "failed",
    "Running": "running",
    "Pending": "pending",
    "Unknown": "running",
}
_EXAMPLES = 3


@dataclass(frozen=True, slots=True)
class _Run:
    """One pod's part in a job: when it started and ended (None: never / not yet)."""

    pod: Pod
    started: float | None
    end: float | None


@dataclass(frozen=True, slots=True)
class _Job:
    """The pods of one job row and its id before ids used twice are told apart."""

    name: str
    runs: tuple[_Run, ...]


def history_csv(pods: Iterable[Pod], window: Window) -> tuple[str, list[Note]]:
    """The pods as a generic job history, in order of submission, and the notes on how
    pods were grouped into jobs."""
    jobs, notes = _jobs([_run(p, window) for p in pods])
    jobs.sort(key=lambda job: (min(r.pod.created or window.start for r in job.runs), job.name))
    uses = Counter(job.name for job in jobs)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for job in jobs:
        # a pod name used again (a StatefulSet's pod re-created) is told apart by its uid
        uid = job.runs[0].pod.key[2][:8]
        writer.writerow(_row(job, f"{job.name}#{uid}" if uses[job.name] > 1 else job.name, window))
    return out.getvalue(), notes


def _jobs(runs: list[_Run]) -> tuple[list[_Job], list[Note]]:
    """The runs cut into jobs: each owner's pods into gangs, every other pod alone."""
    owners: dict[tuple[str, str], list[_Run]] = {}
    jobs: list[_Job] = []
    for run in runs:
        if run.pod.owner:
            owners.setdefault((run.pod.key[0], run.pod.owner), []).append(run)
        else:
            jobs.append(_alone(run))
    mixed: list[str] = []
    grouped = gangs = 0
    for (namespace, owner), members in owners.items():
        if len({sum(r.pod.gpus.values()) for r in members}) > 1:
            mixed.append(f"{namespace}/{owner}")
            jobs.extend(_alone(r) for r in members)
            continue
        for number, wave in enumerate(_waves(members), start=1):
            jobs.append(_Job(f"{namespace}/{owner}" + (f"#{number}" if number > 1 else ""), wave))
            if len(wave) > 1:
                grouped, gangs = grouped + len(wave), gangs + 1
    notes = []
    if gangs:
        notes.append(ingest_note("pods_grouped", pods=f"{grouped:,}", jobs=f"{gangs:,}"))
    if mixed:
        shown = ", ".join(sorted(mixed)[:_EXAMPLES])
        notes.append(ingest_note("gang_mixed_gpus", count=f"{len(mixed):,}", owners=shown))
    return jobs, notes


def _alone(run: _Run) -> _Job:
    namespace, pod, _ = run.pod.key
    return _Job(f"{namespace}/{pod}", (run,))


def _waves(members: Sequence[_Run]) -> list[tuple[_Run, ...]]:
    """An owner's pods in groups that lived at one time: a pod created after every pod of
    the group before it had ended starts a new group."""
    waves: list[list[_Run]] = []
    last_end = float("-inf")
    for run in sorted(members, key=lambda r: (r.pod.created or 0.0, r.pod.key)):
        if not waves or (run.pod.created or 0.0) > last_end:
            waves.append([])
            last_end = float("-inf")
        waves[-1].append(run)
        last_end = max(last_end, float("inf") if run.end is None else run.end)
    return [tuple(wave) for wave in waves]


def _run(pod: Pod, window: Window) -> _Run:
    if pod.phase == "Pending":  # never started: gone when deleted, else waits at the end
        return _Run(pod, None, _gone(pod, window))
    return _Run(pod, pod.started, _end(pod, window))


def _row(job: _Job, job_id: str, window: Window) -> list[str]:
    runs, first = job.runs, job.runs[0].pod
    starts, ends = [r.started for r in runs], [r.end for r in runs]
    started = None if None in starts else max(s for s in starts if s is not None)
    end = None if None in ends else max(e for e in ends if e is not None)
    busy = _busy(runs, window)
    return [
        job_id,
        _time(min(r.pod.created or window.start for r in runs), window),
        _time(started, window),
        _time(end, window),
        str(len(runs)),
        _number(sum(first.gpus.values())),
        _number(sum(sum(r.pod.cpu.values()) for r in runs)),
        _number(sum(sum(r.pod.mem.values()) for r in runs) / 2**30),
        next((r.pod.queue for r in runs if r.pod.queue), first.key[0]),
        _PHASE_STATUS.get(first.phase, "running") if len(runs) == 1 else _status(runs, started),
        "" if busy is None else _number(busy),
    ]


def _status(runs: Sequence[_Run], started: float | None) -> str:
    """A gang's status: pending until all its pods ran, failed if one failed, completed
    when all succeeded, else running."""
    phases = {r.pod.phase for r in runs}
    if started is None:
        return "pending"
    if "Failed" in phases:
        return "failed"
    return "completed" if phases == {"Succeeded"} else "running"


def _busy(runs: Sequence[_Run], window: Window) -> float | None:
    """The GPU-hour-weighted mean of the pods' busy shares (a pod's GPUs times its run
    inside the window); the plain mean when none ran for a measurable time."""
    known = [r for r in runs if r.pod.busy is not None]
    if not known:
        return None
    weights = [_gpu_seconds(r, window) for r in known]
    total = sum(weights)
    if total <= 0:
        return sum(r.pod.busy or 0.0 for r in known) / len(known)
    return sum(w * (r.pod.busy or 0.0) for w, r in zip(weights, known, strict=True)) / total


def _gpu_seconds(run: _Run, window: Window) -> float:
    if run.started is None:
        return 0.0
    begin = max(run.started, window.start)
    end = window.end if run.end is None else min(run.end, window.end)
    return sum(run.pod.gpus.values()) * max(end - begin, 0.0)


def _end(pod: Pod, window: Window) -> float | None:
    """When the pod stopped running, or None while it runs at the window's end."""
    for known in (pod.completed, pod.deleted):
        if known is not None and known <= window.end:
            return known
    if not _at_end(pod, window):  # its series stopped inside the window
        return min(pod.last_running or pod.last_seen, window.end)
    return None


def _gone(pod: Pod, window: Window) -> float | None:
    """When a pod that never started was deleted, or None while it waits at the end."""
    if pod.deleted is not None and pod.deleted <= window.end:
        return pod.deleted
    return None if _at_end(pod, window) else pod.last_seen


def _at_end(pod: Pod, window: Window) -> bool:
    """Whether the pod was seen at the window's last step (still there at its end)."""
    return pod.last_seen > window.end - window.step / 2


def _time(epoch: float | None, window: Window) -> str:
    if epoch is None or epoch < window.start:
        return ""
    return f"{epoch:.3f}".rstrip("0").rstrip(".")


def _number(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")
