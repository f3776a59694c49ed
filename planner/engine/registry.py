"""Which queueing and plugins a replay runs, from its policy: the one place to register them.

A new queueing policy is a module with a `Queueing` and a line in `GANG_QUEUEINGS`; a new
concern is a `Plugin` and a line in `plugins`. Plugins are listed in the order their hooks
run; a plugin that does not apply to the policy is left out, so its checks cost nothing.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING

from planner.engine.backfill import Backfill
from planner.engine.burst import Burst
from planner.engine.hooks import Plugin, Queueing
from planner.engine.kueue import Kueue
from planner.engine.online import OnlineServices
from planner.engine.pods import PodAdmission
from planner.engine.queueing import fifo, strict_fifo
from planner.engine.slowdown import Slowdowns
from planner.engine.withdrawals import Withdrawals

if TYPE_CHECKING:
    from planner.engine.loop import Replay

GANG_QUEUEINGS: dict[str, Callable[["Replay"], Queueing]] = {
    "strict-fifo": strict_fifo,
    "fifo": fifo,
}
"""Gang admission without queues, by `Policy.queueing` (backfill is also a plugin, below)."""


def queue_admission(replay: "Replay") -> Kueue | None:
    """Kueue, when the policy has queues: built first, since queues group jobs into shapes."""
    setup = replay.policy.queues
    return None if setup is None else Kueue(replay, setup)


def plugins(replay: "Replay", kueue: Kueue | None) -> tuple[Queueing, list[Plugin]]:
    """The replay's queueing and its plugins, in hook order."""
    policy = replay.policy
    found: list[Plugin] = []
    queueing: Queueing
    if kueue is not None:
        found.append(kueue)
        queueing = kueue
    slowdowns = Slowdowns(replay) if replay.cluster.shared else None
    if policy.queueing == "backfill":
        backfill = Backfill(replay, slowdowns.stretch_bound if slowdowns else (1.0, 0.0))
        found.append(backfill)
        queueing = backfill
    if slowdowns is not None:
        found.append(slowdowns)
    found.append(replay.evictions)
    if policy.colocation is not None:
        found.append(OnlineServices(replay, policy.colocation))
    if policy.burst_after_s is not None:
        found.append(Burst(replay, policy.burst_after_s))
    if policy.admission == "pod":
        pods = PodAdmission(replay)
        found.append(pods)
        queueing = pods
    elif kueue is None and policy.queueing != "backfill":
        queueing = GANG_QUEUEINGS[policy.queueing](replay)
    found.append(Withdrawals(replay))
    return queueing, found
