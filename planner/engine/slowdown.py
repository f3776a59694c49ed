"""Shared GPUs at run time: time-slicing slows tenants down, a MIG re-layout delays a start.

Present only when some nodes share their GPUs (`Policy.sharing`). Placement on MIG and
time-sliced GPUs is the cluster's (`planner.engine.shared_gpus`); this plugin stretches the
run of a job placed there, and reports per shared pool what its GPUs were asked for,
granted and occupied, and what slowdowns and re-layouts cost.
"""

from typing import TYPE_CHECKING, Any

from planner.engine.cluster import MILLI
from planner.engine.events import FINISH
from planner.engine.hooks import Plugin
from planner.engine.shared_gpus import MIG_RELAYOUT
from planner.engine.sharing import MigConfig, TimeSlicing, mode_label

if TYPE_CHECKING:
    from planner.engine.loop import Replay


class Slowdowns(Plugin):
    def __init__(self, replay: "Replay") -> None:
        super().__init__()
        self.replay = replay
        cluster = self.cluster = replay.cluster
        self.pool_index = replay.pool_index
        self.shared_pools = sorted({self.pool_index[c] for c in cluster.shared})
        self.shared_s = {p: [0.0, 0.0, 0.0, 0.0, 0.0] for p in self.shared_pools}
        """Per shared pool: requested, granted, occupied GPU-seconds; GPU-seconds lost to
        slowdown and re-layouts; re-layouts."""
        modes = [cluster.classes[c].sharing for c in cluster.shared]
        self.stretch_bound = (
            max([m.slowdown for m in modes if isinstance(m, TimeSlicing)], default=1.0),
            max(
                [m.relayout_delay_s or 0.0 for m in modes if isinstance(m, MigConfig)], default=0.0
            ),
        )
        """(slowest time-slicing factor, longest re-layout delay) a job could meet."""
        self.stretched: dict[int, tuple[float, float, int, float, float]] = {}
        """Running jobs slowed by time-slicing or delayed by a MIG re-layout: (factor, delay,
        pool, seconds at full speed before the slowdown, work to do from the start)."""
        self.tenants: dict[tuple[int, int], set[int]] = {}
        """Running jobs on each time-sliced GPU (node, GPU index)."""

    def run_time(self, i: int) -> float:
        """Wall time the job's remaining work takes where it was placed: a time-sliced GPU
        it shares slows it down (and slows down a lone tenant it joins, from now on), a MIG
        re-layout of its GPU delays it."""
        replay = self.replay
        work = replay.remaining_s[i]
        factor, delay, pool = 1.0, 0.0, -1
        for node, _, slices in replay.allocs[i]:
            cls = self.cluster.node_class[node]
            mode = self.cluster.classes[cls].sharing
            if isinstance(mode, TimeSlicing):
                if self._join_time_sliced(i, node, slices, mode) and mode.slowdown > factor:
                    factor, pool = mode.slowdown, self.pool_index[cls]
            elif isinstance(mode, MigConfig):
                relayouts = sum(1 for _, a in slices if a & MIG_RELAYOUT)
                if relayouts:
                    pool = self.pool_index[cls]
                    self.shared_s[pool][4] += relayouts
                    delay = max(delay, mode.relayout_delay_s or 0.0)
        if pool < 0:
            return work
        self.stretched[i] = (factor, delay, pool, 0.0, work)
        return work * factor + delay

    def _join_time_sliced(
        self, i: int, node: int, slices: tuple[tuple[int, int], ...], mode: TimeSlicing
    ) -> bool:
        """Record `i` on its time-sliced GPUs; whether it shares one (with another job, or
        with itself: two replicas of one GPU). Lone tenants it joins slow down from now."""
        shared = False
        for gpu, _ in slices:
            tenants = self.tenants.setdefault((node, gpu), set())
            for j in tenants - {i}:
                self._slow_down(j, mode.slowdown, self.pool_index[self.cluster.node_class[node]])
            tenants.add(i)
            shared = shared or self.cluster.gpu_free[node][gpu] < mode.replicas - 1
        return shared

    def _slow_down(self, j: int, factor: float, pool: int) -> None:
        """A running job that had its GPU alone gets company: the rest of its work runs
        `factor` slower (it does not speed up again when the company leaves)."""
        if j in self.stretched:
            return
        replay = self.replay
        start = replay.start[j]
        assert start is not None
        ran = replay.now - start
        work = replay.remaining_s[j]
        self.stretched[j] = (factor, 0.0, pool, ran, work)
        replay.finish_at[j] = replay.now + (work - ran) * factor
        replay.push(replay.finish_at[j], FINISH, j)

    def work_done(self, i: int, ran: float) -> float:
        """Work done in `ran` wall seconds; the wall time beyond it is lost to slowdown."""
        if self.tenants:
            for node, _, slices in self.replay.allocs[i]:
                for gpu, _ in slices:
                    self.tenants.get((node, gpu), set()).discard(i)
        found = self.stretched.pop(i, None)
        if found is None:
            return ran
        factor, delay, pool, full_speed, work_total = found
        # full speed for `full_speed` s (after any delay), then `factor` slower
        fast = min(max(0.0, ran - delay), full_speed)
        work = min(work_total, fast + max(0.0, ran - delay - full_speed) / factor)
        self.shared_s[pool][3] += (ran - work) * self.replay.jobs[i].total_gpus
        return work

    def finished(self, i: int) -> None:
        if i in self.stretched or self.tenants:
            start = self.replay.start[i]
            assert start is not None
            self.work_done(i, self.replay.now - start)

    def advance(self, t0: float, t1: float) -> None:
        dt = t1 - t0
        cluster = self.cluster
        alloc_by_pool = self.replay.alloc_by_pool
        for p in self.shared_pools:
            self.shared_s[p][0] += alloc_by_pool[p] / MILLI * dt
        for c in cluster.shared:
            totals = self.shared_s[self.pool_index[c]]
            totals[1] += cluster.shared_granted[c] * dt
            totals[2] += cluster.shared_occupied[c] * dt

    def report(self, end: float) -> dict[str, Any]:
        report: dict[str, dict[str, Any]] = {}
        cluster = self.cluster
        pools = self.replay.pools
        for c, shared in cluster.shared.items():
            pool = self.replay.pool_of_class[c]
            nodes = cluster.node_class.count(c)
            entry = report.setdefault(
                pool,
                {"mode": mode_label(shared.mode), "gpus": 0, "advertised": 0},
            )
            entry["gpus"] += shared.gpus * nodes
            entry["advertised"] += shared.advertised() * nodes
        for pool, entry in report.items():
            requested, granted, occupied, lost, relayouts = self.shared_s[pools.index(pool)]
            capacity = entry["gpus"] * end
            entry.update(
                requested_gpu_hours=requested / 3600.0,
                granted_gpu_hours=granted / 3600.0,
                occupied_gpu_hours=occupied / 3600.0,
                capacity_gpu_hours=capacity / 3600.0,
                requested_share=requested / capacity if capacity else 0.0,
                occupied_share=occupied / capacity if capacity else 0.0,
                slowdown_gpu_hours=lost / 3600.0,
                relayouts=int(relayouts),
            )
        return {"sharing": report}
