"""What ClusterQueues used over a replay: borrowing, lending and monthly GPU-hour budgets.

Integrated between instants from the quota usage `planner.engine.kueue` keeps current;
a queue over its month's budget admits nothing until the next month starts.
"""

from typing import TYPE_CHECKING

from planner.engine.cluster import MILLI
from planner.engine.quota import BUDGET_MONTH_S

if TYPE_CHECKING:
    from planner.engine.kueue import Kueue


class QueueUsage:
    def __init__(self, kueue: "Kueue") -> None:
        self.kueue = kueue
        self.quotas = quotas = kueue.quotas
        setup = quotas.setup
        trees: dict[int, list[int]] = {}
        for cq in setup.queue_indices:
            root = cq
            while setup.nodes[root].parent >= 0:
                root = setup.nodes[root].parent
            trees.setdefault(root, []).append(cq)
        self.cohort_trees = list(trees.values())
        self.budgets: dict[int, float] = {}
        self.budget_used: dict[int, list[float]] = {}
        """Per ClusterQueue with a budget: milli-GPU-seconds used in each month."""
        for cq in setup.queue_indices:
            budget = setup.nodes[cq].budget_gpu_s
            if budget is not None:
                self.budgets[cq] = budget * MILLI
                self.budget_used[cq] = []
        self.borrowed_milli_s = dict.fromkeys(setup.queue_indices, 0.0)
        self.lent_milli_s = dict.fromkeys(setup.queue_indices, 0.0)

    def over_budget(self, cq: int) -> bool:
        """The queue used its month's budget; look again when the next month starts."""
        budget = self.budgets.get(cq)
        if budget is None:
            return False
        replay = self.kueue.replay
        month = int(replay.now // BUDGET_MONTH_S)
        used = self.budget_used[cq]
        if month < len(used) and used[month] >= budget:
            replay.retry_at((month + 1) * BUDGET_MONTH_S)
            return True
        return False

    def advance(self, t0: float, t1: float) -> None:
        self._integrate_borrowing(t1 - t0)
        if self.budgets:
            self._integrate_budgets(t0, t1)

    def _integrate_budgets(self, t0: float, t1: float) -> None:
        quotas = self.quotas
        while t0 < t1:
            month = int(t0 // BUDGET_MONTH_S)
            stop = min(t1, (month + 1) * BUDGET_MONTH_S)
            for cq, used in self.budget_used.items():
                while len(used) <= month:
                    used.append(0.0)
                used[month] += sum(quotas.usage[cq]) * (stop - t0)
            t0 = stop

    def _integrate_borrowing(self, dt: float) -> None:
        """Borrowed: use above nominal quota. Lent: each ClusterQueue's unused nominal quota
        lends, pro rata, what its cohort tree's members borrow."""
        quotas = self.quotas
        if not quotas.total_borrowed:
            return
        flavors = range(len(quotas.setup.flavors))
        for members in self.cohort_trees:
            for cq in members:
                self.borrowed_milli_s[cq] += quotas.borrowed(cq) * dt
            for f in flavors:
                usage = [(cq, quotas.usage[cq][f], quotas.nominal[cq][f]) for cq in members]
                total = sum(max(0, used - nominal) for _, used, nominal in usage)
                spare = sum(max(0, nominal - used) for _, used, nominal in usage)
                if not total or not spare:
                    continue
                lent = min(total, spare) * dt / spare
                for cq, used, nominal in usage:
                    if nominal > used:
                        self.lent_milli_s[cq] += (nominal - used) * lent

    def report(self, names: list[str]) -> dict[str, dict[str, float] | dict[str, list[float]]]:
        return {
            "borrowed_gpu_s": {names[c]: v / MILLI for c, v in self.borrowed_milli_s.items()},
            "lent_gpu_s": {names[c]: v / MILLI for c, v in self.lent_milli_s.items()},
            "budget_used_gpu_s": {
                names[c]: [v / MILLI for v in used] for c, used in self.budget_used.items()
            },
        }
