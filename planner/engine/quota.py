"""Kueue quotas: ClusterQueues and (hierarchical) Cohorts, per resource flavor, on GPUs.

The arithmetic is Kueue's (`pkg/cache/scheduler/resource_node.go`, see
`../shared/reference/scheduler-semantics.md` A1), per flavor f, in milli-GPUs:

* SubtreeQuota(CQ) = nominal; SubtreeQuota(Cohort) = its own nominal + sum over children of
  (SubtreeQuota(child) - localQuota(child)).
* localQuota(n) = max(0, SubtreeQuota(n) - lendingLimit(n)) if n has a lending limit, else 0:
  capacity its parent never sees.
* Usage(Cohort) = sum over children of max(0, Usage(child) - localQuota(child)).
* available(root) = SubtreeQuota - Usage; otherwise available(n) = max(0, localQuota - Usage)
  + available(parent), the parent's share capped, with a borrowing limit, at
  (SubtreeQuota - localQuota) - max(0, Usage - localQuota) + borrowingLimit.

A request fits a CQ's flavor when it is at most `available`; it borrows when the CQ's usage
would exceed its nominal quota. One `Quotas` keeps one resource: GPUs (milli-GPUs), CPU
(milli-cores) or memory (MiB). A flavor a ClusterQueue lists always has a GPU quota (0 if not
given); CPU and memory are under quota only where a quota is given for them.
"""

from dataclasses import dataclass, field

from planner.engine.preemption import PreemptionPolicy


@dataclass(frozen=True, slots=True)
class FlavorQuota:
    nominal: int
    """milli-GPUs"""
    borrowing_limit: int | None = None
    lending_limit: int | None = None


@dataclass(frozen=True, slots=True)
class QuotaNode:
    """A ClusterQueue (`queue=True`) or a Cohort; `parent` is an index, -1 for none."""

    name: str
    parent: int = -1
    queue: bool = True
    quotas: dict[int, FlavorQuota] = field(default_factory=dict)
    """By flavor index; a ClusterQueue may only use the flavors it lists (even at 0)."""
    strict_fifo: bool = False
    preemption: PreemptionPolicy = field(default_factory=PreemptionPolicy)
    budget_gpu_s: float | None = None
    """GPU-seconds the queue may consume per budget month (None: no budget)."""
    cpu_quotas: dict[int, FlavorQuota] = field(default_factory=dict)
    """milli-cores, by flavor index; a flavor missing here does not limit CPU."""
    mem_quotas: dict[int, FlavorQuota] = field(default_factory=dict)
    """MiB, by flavor index; a flavor missing here does not limit memory."""
    reclaimable: bool = True
    """Whether other queues may reclaim what it borrows (Volcano's `reclaimable`)."""


BUDGET_MONTH_S = 30 * 86_400
"""Budgets run over 30-day months counted from the trace start (traces may have no dates)."""


@dataclass(frozen=True, slots=True)
class QueueSetup:
    """Everything the engine needs to run jobs through ClusterQueues."""

    flavors: tuple[tuple[str, str], ...]
    """(flavor name, GPU type of its nodes); flavors are tried in each queue's listed order."""
    nodes: tuple[QuotaNode, ...]
    queue_of: dict[str, int]
    """A trace's queue value -> the ClusterQueue's node index."""
    default_queue: int | None = None
    flavor_order: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """ClusterQueue node index -> its flavors in the order listed."""
    queue_priority: dict[str, int] = field(default_factory=dict)
    """A trace's queue value -> the priority of all its jobs (overrides the trace's)."""

    def cluster_queue(self, trace_queue: str, user: str = "") -> int | None:
        """The ClusterQueue of a job: its queue value names a LocalQueue or ClusterQueue,
        else its user does, else the default (None: no ClusterQueue)."""
        found = self.queue_of.get(trace_queue)
        if found is None and user:
            found = self.queue_of.get(user)
        return self.default_queue if found is None else found

    def mapped(self, trace_queue: str, user: str = "") -> bool:
        return trace_queue in self.queue_of or (bool(user) and user in self.queue_of)

    @property
    def queue_indices(self) -> list[int]:
        return [i for i, node in enumerate(self.nodes) if node.queue]


class Quotas:
    """Usage of every node per flavor, kept current as jobs start and end."""

    def __init__(self, setup: QueueSetup, resource: str = "gpu") -> None:
        self.setup = setup
        flavors = len(setup.flavors)
        nodes = setup.nodes
        table = [_table(node, resource) for node in nodes]
        self.covered = [[f in t for f in range(flavors)] for t in table]
        quota = [[t.get(f, FlavorQuota(0)) for f in range(flavors)] for t in table]
        self.parent = [node.parent for node in nodes]
        self.nominal = [[q.nominal for q in row] for row in quota]
        self.borrowing = [[q.borrowing_limit for q in row] for row in quota]
        self.lending = [[q.lending_limit for q in row] for row in quota]
        self.subtree = [[0] * flavors for _ in nodes]
        self.local = [[0] * flavors for _ in nodes]
        self.usage = [[0] * flavors for _ in nodes]
        self.borrowed_by = [0] * len(nodes)
        self.total_borrowed = 0
        for n in _children_first(self.parent):
            for f in range(flavors):
                self.subtree[n][f] += self.nominal[n][f]
                limit = self.lending[n][f]
                if limit is not None:
                    self.local[n][f] = max(0, self.subtree[n][f] - limit)
                p = self.parent[n]
                if p >= 0:
                    self.subtree[p][f] += self.subtree[n][f] - self.local[n][f]

    def available(self, n: int, f: int) -> int:
        parent = self.parent[n]
        usage, local = self.usage[n][f], self.local[n][f]
        if parent < 0:
            return self.subtree[n][f] - usage
        from_parent = self.available(parent, f)
        limit = self.borrowing[n][f]
        if limit is not None:
            cap = (self.subtree[n][f] - local) - max(0, usage - local) + limit
            from_parent = min(from_parent, cap)
        return max(0, local - usage) + from_parent

    def fits(self, n: int, f: int, milli: int) -> bool:
        return milli <= self.available(n, f)

    def borrows(self, n: int, f: int, milli: int) -> bool:
        return self.usage[n][f] + milli > self.subtree[n][f]

    def add(self, n: int, f: int, milli: int) -> None:
        """Change a ClusterQueue's usage; the cohorts above see what passes their local quota."""
        nominal, usage = self.nominal[n][f], self.usage[n][f]
        change = max(0, usage + milli - nominal) - max(0, usage - nominal)
        self.borrowed_by[n] += change
        self.total_borrowed += change
        while n >= 0:
            before = max(0, self.usage[n][f] - self.local[n][f])
            self.usage[n][f] += milli
            after = max(0, self.usage[n][f] - self.local[n][f])
            milli = after - before
            n = self.parent[n]
            if not milli:
                return

    def borrowed(self, n: int) -> int:
        """milli-GPUs the ClusterQueue uses above its nominal quota, all flavors."""
        return self.borrowed_by[n]

    def unused_nominal(self, n: int) -> int:
        return sum(max(0, q - u) for u, q in zip(self.usage[n], self.nominal[n], strict=True))


def _table(node: QuotaNode, resource: str) -> dict[int, FlavorQuota]:
    return {"gpu": node.quotas, "cpu": node.cpu_quotas, "mem": node.mem_quotas}[resource]


def limits_cpu_or_memory(setup: QueueSetup) -> tuple[bool, bool]:
    return (
        any(node.cpu_quotas for node in setup.nodes),
        any(node.mem_quotas for node in setup.nodes),
    )


def _children_first(parent: list[int]) -> list[int]:
    """Node indices ordered so that every child comes before its parent."""
    depth = []
    for n in range(len(parent)):
        d, p = 0, parent[n]
        while p >= 0:
            d, p = d + 1, parent[p]
        depth.append(d)
    return sorted(range(len(parent)), key=lambda n: -depth[n])
