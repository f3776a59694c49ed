"""`planner sweep --target`'s lines on what binds the answer: the floor the largest gang sets
(the job named, with its GPUs), the answer without the few largest jobs (those needing the
floor's count, listed with their GPU-hours) and that search's points; `--json` the same."""

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from planner.service.sweep_bound import Bound
    from planner.service.sweep_floor import Floor, Gang
    from planner.service.sweep_point import PointResult

Table = Callable[[Sequence["PointResult"]], list[str]]
LISTED = 10
"""Jobs set aside listed by name in the text (all of them in --json)."""


def bound_lines(bound: "Bound", target: str, table: Table) -> list[str]:
    """What binds the answer in a sentence, the floor's job, then the answer without the
    largest jobs with the jobs set aside and the points that search tried."""
    from planner.service.sweep_bound import count_of

    floor = bound.floor
    lines = [f"what binds it: {_binds(bound)}", f"floor: {floor_sentence(floor)}"]
    if bound.rest is None:
        return lines
    rest = count_of(bound.rest.answer)
    share = bound.aside_gpu_hours / bound.gpu_hours if bound.gpu_hours else 0.0
    shown = f"{rest:,} servers" if rest is not None else f"no count up to {bound.rest.ceiling:,}"
    lines.append(
        f"without the {_jobs(len(bound.aside))} needing {floor.servers:,} servers "
        f"({bound.aside_gpu_hours:,.1f} GPU-hours, {share:.1%} of all jobs' GPU-hours; "
        f"to be served elsewhere, not priced here): {shown} meet {target}"
    )
    if rest is not None:
        lines.append(f"jobs needing more than {rest:,} servers: {floor.jobs_above(rest):,}")
    nxt = bound.rest_floor
    if nxt is not None and rest is not None and nxt.servers == rest:
        lines.append(f"that {rest:,} is itself a floor: {floor_sentence(nxt)}")
    lines.append("set aside: " + aside_text(bound.aside))
    return [*lines, "without the largest jobs:", *table(bound.rest.tried)]


def _binds(bound: "Bound") -> str:
    if bound.binds == "floor":
        return "the largest job, not the wait target"
    if bound.binds == "none":
        return "nothing: no count tried meets the target"
    return "the wait target"


def floor_sentence(floor: "Floor") -> str:
    """'job j7 asks for 64 A100 GPUs (8 pods x 8), so no count below 8 servers of 8 A100
    runs it; 1 job needs 8'."""
    job = floor.job
    if job is None:
        return f"no job needs a server of the {floor.gpu} pool to itself"
    return (
        f"job {job.job_id} asks for {_gpus(job, floor.gpu)}, so no count below {floor.servers:,} "
        f"servers of {floor.gpus_per_server} {floor.gpu} runs it; "
        f"{_jobs(len(floor.largest))} need{'s' if len(floor.largest) == 1 else ''} "
        f"{floor.servers:,}"
    )


def _gpus(job: "Gang", gpu: str) -> str:
    per_pod = job.gpus / job.pods
    pods = f"{job.pods:,} pod{'' if job.pods == 1 else 's'}"
    return f"{job.gpus:,g} {gpu} GPUs ({pods} x {per_pod:g})"


def aside_text(aside: Sequence["Gang"]) -> str:
    shown = [f"{g.job_id} ({g.gpus:,g} GPUs, {g.gpu_hours:,.1f} GPU-h)" for g in aside[:LISTED]]
    more = len(aside) - LISTED
    return ", ".join(shown) + (f" and {more:,} more (--json lists all)" if more > 0 else "")


def _jobs(n: int) -> str:
    return f"{n:,} job{'' if n == 1 else 's'}"


def bound_json(bound: "Bound", point: Callable[["PointResult"], dict[str, Any]]) -> dict[str, Any]:
    """The same as a dict: the floor, what binds, the jobs set aside and the search without
    them (`point` writes a point as the search's own points are written)."""
    from planner.service.sweep_bound import count_of

    rest = bound.rest
    return {
        "binds": bound.binds,
        "floor": floor_json(bound.floor),
        "gpu_hours": bound.gpu_hours,
        "set_aside": [_gang(g) for g in bound.aside],
        "set_aside_gpu_hours": bound.aside_gpu_hours,
        "without_largest": None
        if rest is None
        else {
            "answer": count_of(rest.answer),
            "jobs_needing_more": None
            if rest.answer is None
            else bound.floor.jobs_above(count_of(rest.answer) or 0),
            "floor": None if bound.rest_floor is None else floor_json(bound.rest_floor),
            "tried": [point(r) for r in rest.tried],
        },
    }


def floor_json(floor: "Floor") -> dict[str, Any]:
    return {
        "gpu": floor.gpu,
        "gpus_per_server": floor.gpus_per_server,
        "servers": floor.servers,
        "job": None if floor.job is None else _gang(floor.job),
        "jobs_needing_it": len(floor.largest),
    }


def _gang(gang: "Gang") -> dict[str, Any]:
    return {
        "job_id": gang.job_id,
        "pods": gang.pods,
        "gpus": gang.gpus,
        "servers": gang.servers,
        "gpu_hours": gang.gpu_hours,
    }
