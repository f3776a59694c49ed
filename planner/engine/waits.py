"""Why jobs waited, and why some never ran: the fixed taxonomies the replay reports.

Every second a job spends waiting is attributed to exactly one `WAIT_REASONS` code. The
engine decides the code for a waiting job from the cluster's state after each scheduling
pass, in this order of precedence: a job-level state (its own partial gang, a requeue
backoff) first; then whether it would fit now (if it would, the queue order held it back);
then which resource is short. Quota and preemption codes of the multi-tenant queues slot in
as further entries; the engine indexes reasons by position, so new codes are appended.
"""

WAIT_REASONS: dict[str, str] = {
    "cluster_full": "not enough free GPUs in the whole cluster for the job",
    "gpu_type_busy": "enough GPUs free in total, but not of the GPU type the job requires",
    "fragmented": "enough GPUs of the right type free in total, but no set of nodes fits "
    "the job's pods (capacity split into pieces too small)",
    "cpu_mem_short": "GPUs fit, but CPU or memory is short on those nodes",
    "behind_head": "the job would fit now, but the queue order holds it: strict FIFO behind "
    "the head, or backfill protecting the head's reservation",
    "partial_gang": "some of the job's pods are placed (pod admission) and hold their GPUs "
    "idle while the rest wait",
    "backoff": "released after its pods were not all placed within the timeout, and waiting "
    "out the requeue backoff",
    "quota": "its ClusterQueue is at its quota and there is nothing it may borrow in its cohort",
    "preempted": "evicted by a preemption and waiting to run again",
    "over_budget": "its ClusterQueue has used its GPU-hour budget for the month",
    "evicted_online": "evicted when online services took their GPUs back, waiting to run again",
    "start_latency": "between submission and entering the queue: admission, the scheduling "
    "cycle and its retries while the rest of the cluster is busy (fitted by planner twin)",
}
REASON_CODES: tuple[str, ...] = tuple(WAIT_REASONS)
(
    CLUSTER_FULL,
    GPU_TYPE_BUSY,
    FRAGMENTED,
    CPU_MEM_SHORT,
    BEHIND_HEAD,
    PARTIAL_GANG,
    BACKOFF,
    QUOTA,
    PREEMPTED,
    OVER_BUDGET,
    EVICTED_ONLINE,
    START_LATENCY,
) = range(len(REASON_CODES))

UNSCHEDULABLE_REASONS: dict[str, str] = {
    "gpu_type_not_installed": "the job requires a GPU type the cluster does not have",
    "more_gpus_than_installed": "the job asks for more GPUs (of its type) than are installed",
    "pod_larger_than_any_node": "one pod asks for more GPUs, CPU or memory than any single "
    "node has",
    "gang_does_not_fit_nodes": "enough GPUs in total, but the job's pods cannot all be placed "
    "on the cluster's nodes even when it is empty",
    "no_such_shared_device": "its request has no device to go to on the MIG or time-sliced "
    "GPUs it may use (whole GPUs on MIG 'mixed', a profile the layout lacks, more than one "
    "replica with failRequestsGreaterThanOne)",
    "no_cluster_queue": "the job's queue maps to no ClusterQueue and there is no default",
    "no_flavor_for_gpu_type": "its ClusterQueue has no flavor with the GPU type the job requires",
    "more_than_queue_quota": "the job asks for more GPUs than its ClusterQueue could ever get, "
    "borrowing included",
}
