"""Why jobs wait: every waiting second booked to exactly one reason of `REASON_CODES`.

Waiting jobs accrue their shape's reason, decided at the end of each instant in which the
cluster changed (`decide`). A job-level state overrides it while it lasts (its own partial
gang, a requeue backoff, an eviction): `open_override` / `close_override`. Shapes that
differ only in CPU and memory share a GPU part, decided once when GPUs are short. The
reasons themselves are listed in `planner.engine.waits`.
"""

from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING

from planner.engine.cluster import Allowed, PodShape
from planner.engine.job_waits import Waits
from planner.engine.waits import (
    BEHIND_HEAD,
    CLUSTER_FULL,
    CPU_MEM_SHORT,
    FRAGMENTED,
    GPU_TYPE_BUSY,
    REASON_CODES,
)

if TYPE_CHECKING:
    from planner.engine.loop import Replay
    from planner.engine.shapes import Shape

NO_REASON = -1
GPUS_FIT = -2
QuotaReason = Callable[[int, PodShape, int], int]
"""(shape, GPU pod, pods) -> the reason, when queues have quotas (`Kueue.gpu_reason`)."""


class WaitReasons:
    """Per-shape reason clocks and per-job waits, booked as `Waits` reads them: job i's
    (reason, seconds) entries are a block of `log_reason`/`log_seconds` at `block[i]`."""

    def __init__(self, replay: "Replay", jobs: int) -> None:
        self.replay = replay
        self.cluster = replay.cluster
        self.shapes = replay.shapes
        self.shape_of = replay.shape_of
        self.quota_reason: QuotaReason | None = None
        count = len(self.shapes)
        # a list of every reason's seconds per job that waited held ~170 bytes a job for the
        # whole replay, and its tuple as much again in the result (issue 33)
        self.block = array("q", [-1]) * jobs
        self.block_size = bytearray(jobs)
        self.log_reason = bytearray()
        self.log_seconds: array[float] = array("d")
        # a waiting job's copy of its shape's clocks, as a row of `rows`: `snapshot_at[i]` is
        # the row's start << 4 | its width, -1 if the job accrues none. A list per waiting job
        # (and the float it shared) held ~240 bytes a job in a deep backlog, a replay's peak
        # (issue 33); a row holds only the clocks up to the shape's highest reason so far
        # (`width`), the others are 0.0, and rows of jobs that left are reused.
        self.snapshot_at = array("q", [-1]) * jobs
        self.rows: array[float] = array("d")
        self.free_rows = [array("q") for _ in range(len(REASON_CODES) + 1)]  # by width
        self.width = [0] * count  # per shape: 1 + the highest reason its clocks ever ran
        # by job, only while it waits on an override
        self.override_since: dict[int, float] = {}
        self.members = [0] * count
        self.shape_reason = [NO_REASON] * count
        self.cum = [[0.0] * len(REASON_CODES) for _ in range(count)]
        self.cum_t = [0.0] * count
        self.waiting_shapes: set[int] = set()  # shapes with jobs accruing shape reasons
        self.undecided = False  # a shape started waiting and has no reason yet
        # GPU parts: shapes with CPU and memory left out (see `decide`)
        part_ids: dict[tuple[Shape, int], int] = {}
        self.part_of = [
            part_ids.setdefault(
                ((PodShape(pod.milli, pod.gpus, 0, 0), n, allowed), cq), len(part_ids)
            )
            for (pod, n, allowed), cq in zip(self.shapes, replay.shape_cq, strict=True)
        ]
        self.parts = [shape for shape, _ in part_ids]
        self.part_sample = [0] * len(self.parts)  # a shape of each part, for its quota request
        self.part_shapes: list[set[int]] = [set() for _ in self.parts]
        self.part_reason = [NO_REASON] * len(self.parts)
        self.part_headroom: list[tuple[tuple[int, int], ...]] = [()] * len(self.parts)
        self.waiting_parts: set[int] = set()

    def join(self, i: int) -> None:
        """`i` starts accruing its shape's reasons."""
        sid = self.shape_of[i]
        self.touch(sid)
        self._snapshot(i, sid)
        self.members[sid] += 1
        if self.members[sid] == 1:
            # decided at the end of the instant (most arrivals start at once and never wait)
            self.waiting_shapes.add(sid)
            part = self.part_of[sid]
            self.part_sample[part] = sid
            if not self.part_shapes[part]:
                self.waiting_parts.add(part)
            self.part_shapes[part].add(sid)
            self.part_reason[part] = NO_REASON
            self.undecided = True

    def leave(self, i: int) -> None:
        """Stop accruing the shape's reasons for `i`; fold what it accrued into its total."""
        at = self.snapshot_at[i]
        if at < 0:
            return
        self.snapshot_at[i] = -1
        row, width = at >> 4, at & 15
        if width:
            self.free_rows[width].append(row)
        sid = self.shape_of[i]
        self.touch(sid)
        rows = self.rows
        for r, value in enumerate(self.cum[sid]):
            was = rows[row + r] if r < width else 0.0  # past the width, the clock was 0.0
            if value != was:  # a reason whose clock did not move books nothing
                self.add(i, r, value - was)
        self.members[sid] -= 1
        if not self.members[sid]:
            self.waiting_shapes.discard(sid)
            self.shape_reason[sid] = NO_REASON
            part = self.part_of[sid]
            self.part_shapes[part].discard(sid)
            if not self.part_shapes[part]:
                self.waiting_parts.discard(part)

    def _snapshot(self, i: int, sid: int) -> None:
        """Copy the shape's clocks up to its width into a free row, for job `i`."""
        width = self.width[sid]
        row = 0
        if width:
            cum, rows, free = self.cum[sid], self.rows, self.free_rows[width]
            if free:
                row = free.pop()
                for r in range(width):
                    rows[row + r] = cum[r]
            else:
                row = len(rows)
                rows.extend(cum[:width])
        self.snapshot_at[i] = row << 4 | width

    def open_override(self, i: int) -> None:
        self.override_since[i] = self.replay.now

    def close_override(self, i: int, reason: int) -> None:
        now = self.replay.now
        self.add(i, reason, now - self.override_since.get(i, 0.0))
        self.override_since[i] = now

    def add(self, i: int, reason: int, seconds: float) -> None:
        """Book `seconds` more to job i's `reason`: the same sum, to the bit, as adding to a
        list of every reason's seconds that started at 0.0, in the same order."""
        first, size = self.block[i], self.block_size[i]
        log_reason, log_seconds = self.log_reason, self.log_seconds
        if first < 0 or first + size != len(log_reason):
            first = self._move_to_end(i, first, size)
        for k in range(first, first + size):
            if log_reason[k] == reason:
                log_seconds[k] += seconds
                return
        log_reason.append(reason)
        log_seconds.append(0.0 + seconds)  # 0.0 + -0.0 is 0.0, as the list's sum gave
        self.block_size[i] = size + 1

    def _move_to_end(self, i: int, first: int, size: int) -> int:
        """Job i's block copied to the end of the log (where it can grow); returns where.
        Most jobs book all their waits at once, as they start: few blocks ever move."""
        end = len(self.log_reason)
        if size:
            self.log_reason += self.log_reason[first : first + size]
            self.log_seconds += self.log_seconds[first : first + size]
        self.block[i] = end
        return end

    def touch(self, sid: int) -> None:
        now = self.replay.now
        reason = self.shape_reason[sid]
        if reason != NO_REASON:
            self.cum[sid][reason] += now - self.cum_t[sid]
            if reason >= self.width[sid]:
                self.width[sid] = reason + 1
        self.cum_t[sid] = now

    def decide(self) -> None:
        """Decide each waiting shape's reason, GPU part first.

        Shapes that differ only in CPU and memory share a GPU part; when the GPUs are
        short the whole part has one reason and, if it did not change, nothing is touched.
        Only shapes whose GPUs fit are checked one by one.
        """
        cluster = self.cluster
        for part in self.waiting_parts:
            reason = self._gpu_reason(part)
            shapes = self.part_shapes[part]
            if reason != GPUS_FIT:
                if reason != self.part_reason[part]:
                    for sid in shapes:
                        self._set_reason(sid, reason)
            elif self.parts[part][1] == 1:
                self._decide_single_pods(part)
            else:
                for sid in shapes:
                    pod, count, allowed = self.shapes[sid]
                    fits = cluster.fits(pod, count, allowed)
                    self._set_reason(sid, BEHIND_HEAD if fits else CPU_MEM_SHORT)
            self.part_reason[part] = reason
        self.undecided = False

    def _decide_single_pods(self, part: int) -> None:
        """One-pod shapes whose GPUs fit: compare CPU and memory with the free headroom."""
        gpu_pod, _, allowed = self.parts[part]
        headroom = self.cluster.headroom(gpu_pod, allowed)
        if self.part_reason[part] == GPUS_FIT and headroom == self.part_headroom[part]:
            return  # nothing these shapes could see has changed
        self.part_headroom[part] = headroom
        for sid in self.part_shapes[part]:
            _, _, cpu, mem = self.shapes[sid][0]
            fits = any(c >= cpu and m >= mem for c, m in headroom)
            self._set_reason(sid, BEHIND_HEAD if fits else CPU_MEM_SHORT)

    def _gpu_reason(self, part: int) -> int:
        """The part's reason if its GPUs are short, else GPUS_FIT; with quotas, they decide."""
        pod, count, allowed = self.parts[part]
        if self.quota_reason is None:
            return self.hardware_reason(pod, count, allowed)
        return self.quota_reason(self.part_sample[part], pod, count)

    def hardware_reason(self, pod: PodShape, count: int, allowed: Allowed) -> int:
        need = pod.milli * pod.gpus * count
        if not need:
            return GPUS_FIT
        cluster = self.cluster
        if cluster.free_milli(allowed) < need:
            if allowed is not None and cluster.free_milli(None) >= need:
                return GPU_TYPE_BUSY
            return CLUSTER_FULL
        return GPUS_FIT if cluster.fits(pod, count, allowed) else FRAGMENTED

    def _set_reason(self, sid: int, reason: int) -> None:
        if reason != self.shape_reason[sid]:
            self.touch(sid)
            self.shape_reason[sid] = reason

    def waits(self) -> Waits:
        """Seconds waited per reason, per job (None: it never waited), as the result holds
        them: the log itself, read through `Waits`, no copy. Every job has left its shape
        by now: the snapshots' rows go."""
        self.rows = array("d")
        self.free_rows = []
        return Waits(self.block, self.block_size, self.log_reason, self.log_seconds)
