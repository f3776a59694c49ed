"""The end of a replay: close every open wait and gather the figures into a `ReplayResult`.

The loop's own figures (states, times, placements, integrals) are read here; each plugin
adds the fields it owns (`Plugin.report`).
"""

from array import array
from typing import TYPE_CHECKING, Any

from planner.engine.arrivals import book_start_latency
from planner.engine.cluster import MILLI
from planner.engine.result import ReplayResult
from planner.engine.states import BACKING_OFF, DONE, RUNNING, STATUS_TEXT, WAITING
from planner.engine.waits import BACKOFF, PARTIAL_GANG

if TYPE_CHECKING:
    from planner.engine.loop import Replay


def build_result(replay: "Replay") -> ReplayResult:
    """Close every open wait, then gather the core's figures and each plugin's."""
    end = replay.now
    reasons, preempted = replay.reasons, replay.evictions.preempted_waiting
    for i in range(len(replay.jobs)):
        reasons.leave(i)  # a job still waiting on its shape (nothing for the others)
        state = replay.state[i]
        if state == WAITING and replay.placed[i]:
            reasons.close_override(i, PARTIAL_GANG)
        elif state == BACKING_OFF:
            reasons.close_override(i, BACKOFF)
        if i in preempted:
            reasons.close_override(i, preempted.pop(i))
        elif state == RUNNING:
            replay.end[i] = end
    if replay.latency:
        book_start_latency(replay, end)
    replay.recorder.finish()
    cluster = replay.cluster
    capacity: dict[str, int] = {}
    for c in cluster.node_class:
        pool = replay.pool_of_class[c]
        capacity[pool] = capacity.get(pool, 0) + cluster.classes[c].gpus
    fields: dict[str, Any] = {}
    for plugin in replay.plugins:
        fields.update(plugin.report(end))
    jobs, states = replay.jobs, replay.state
    placement = replay.ran_on.of  # finished jobs' are recorded; the others' are read here
    for i, allocs in enumerate(replay.allocs):
        if allocs:
            placement[i] = replay.placement_of(i)
    result = ReplayResult(
        jobs=jobs,
        policy=replay.policy,
        node_ids=cluster.node_ids,
        capacity_gpus=capacity,
        status=[STATUS_TEXT[s] for s in states],
        start_s=replay.start,
        end_s=replay.end,
        placement=placement,
        wait_by_reason=reasons.waits(),
        unschedulable_reason=replay.unschedulable,
        horizon_s=end,
        allocated_gpu_s=replay.allocated_milli_s / MILLI,
        held_idle_gpu_s=replay.held_milli_s / MILLI,
        deadlock=replay.deadlock,
        timeline=replay.timeline,
        rounded_up_pods=replay.rounded_up,
        distinct_states_max=replay.distinct_max,
        overhead_gpu_s=sum(
            (replay.run_s[i] - job.duration_s) * job.total_gpus
            for i, job in enumerate(jobs)
            if states[i] == DONE
        ),
        **fields,
    )
    _drop_state(replay)
    return result


def _drop_state(replay: "Replay") -> None:
    """Empty the replay's per-job lists the result does not hold. Its plugins point back at
    it, so the replay goes only when the cycle collector next runs, which in a sweep worker
    was well into the next point, with about 100 bytes a job still held (issue 33)."""
    for per_job in (replay.state, replay.placed, replay.allocs, replay.deadline):
        per_job.clear()
    for times in (replay.finish_at, replay.arrive, replay.run_s, replay.remaining_s):
        times.clear()
    replay.shape_of.clear()
    replay.priority.clear()
    replay.in_play.clear()
    replay.reasons.snapshot_at = array("q")
