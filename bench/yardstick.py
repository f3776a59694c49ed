"""The speed yardstick for plain Python: strict-FIFO gang placement and nothing else.

A heap of finish events, the waiting jobs in a deque, nodes indexed by their free GPUs
(`buckets[f]` = ids of the nodes with `f` free GPUs). At each instant every finish of that
instant is applied, then arrivals join the queue, then jobs start from the head while the
head's whole gang fits; each pod goes to the node with the fewest free GPUs that still fits
it (best fit; pods of one gang may share a node). No policy, no CPU or memory, no records
beyond counts: whatever an engine does more is what it costs over this figure.
"""

import heapq
import math
import time
from collections import deque

NODES, GPUS_PER_NODE = 1000, 8
"""The benches' cluster: 1,000 nodes of 8 GPUs (here, so a bench can name it without NumPy)."""

# A running job on the finish heap: (end_s, job index = seq, node of each pod).
_Finish = tuple[float, int, list[int]]


def yardstick(
    submit_s: list[float],
    duration_s: list[float],
    pods: list[int],
    gpus_per_pod: list[int],
    *,
    nodes: int,
    gpus_per_node: int,
) -> dict[str, float]:
    """Replay jobs (in submit order, per-pod GPUs >= 1) on `nodes` x `gpus_per_node` GPUs.

    Jobs that can never fit (more GPUs than the cluster, or a pod larger than a node) are
    dropped up front and counted. Times are seconds; the clock covers the whole replay.
    """
    started = time.perf_counter()
    free = [gpus_per_node] * nodes
    buckets: list[set[int]] = [set() for _ in range(gpus_per_node + 1)]
    buckets[gpus_per_node].update(range(nodes))
    capacity = free_total = nodes * gpus_per_node
    running: list[_Finish] = []
    waiting: deque[int] = deque()
    total = len(submit_s)
    arrived = completed = dropped = 0
    makespan_s = 0.0
    while arrived < total or running or waiting:
        now = min(
            running[0][0] if running else math.inf,
            submit_s[arrived] if arrived < total else math.inf,
        )
        if now == math.inf:  # only jobs that can never start are left (impossible here)
            break
        while running and running[0][0] <= now:
            makespan_s, job, placed = heapq.heappop(running)
            free_total += _release(placed, gpus_per_pod[job], free, buckets)
            completed += 1
        while arrived < total and submit_s[arrived] <= now:
            need = pods[arrived] * gpus_per_pod[arrived]
            if need > capacity or gpus_per_pod[arrived] > gpus_per_node:
                dropped += 1
            else:
                waiting.append(arrived)
            arrived += 1
        while waiting:
            job = waiting[0]
            gpus, count = gpus_per_pod[job], pods[job]
            if gpus * count > free_total:
                break
            gang = _place(gpus, count, free, buckets)
            if gang is None:
                break
            waiting.popleft()
            free_total -= gpus * count
            heapq.heappush(running, (now + duration_s[job], job, gang))
    seconds = time.perf_counter() - started
    return {
        "jobs": float(total),
        "seconds": seconds,
        "jobs_per_s": total / seconds,
        "completed": float(completed),
        "dropped": float(dropped),
        "makespan_s": float(makespan_s),
    }


def _place(gpus: int, count: int, free: list[int], buckets: list[set[int]]) -> list[int] | None:
    """Best-fit `count` pods of `gpus` GPUs each, all or none; the nodes used, one per pod."""
    # Pods are equal, so a node with f free GPUs holds f // gpus of them and placing one
    # pod removes exactly one slot: the gang fits iff there are `count` slots in all.
    slots = 0
    for f in range(gpus, len(buckets)):
        slots += len(buckets[f]) * (f // gpus)
    if slots < count:
        return None
    placed: list[int] = []
    f = gpus
    for _ in range(count):
        while not buckets[f]:
            f += 1
        node = buckets[f].pop()
        left = f - gpus
        buckets[left].add(node)
        free[node] = left
        placed.append(node)
        if left >= gpus:  # that node is now the tightest fit for the next pod
            f = left
    return placed


def _release(placed: list[int], gpus: int, free: list[int], buckets: list[set[int]]) -> int:
    """Give back `gpus` GPUs on each node in `placed`; the number of GPUs freed."""
    for node in placed:
        f = free[node]
        buckets[f].remove(node)
        free[node] = f + gpus
        buckets[f + gpus].add(node)
    return gpus * len(placed)
