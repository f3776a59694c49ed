"""How a scheduling concern hooks into the replay loop: the `Plugin` base and `Queueing`.

Modelled on kube-scheduler's framework and Volcano's session. `Queueing` is the allocate
action (queue sort, filter, reserve): it decides, once per instant, which waiting jobs start.
A `Plugin` owns one concern's state and hears of each job's life-cycle (the loop's event
handlers, like Volcano's `AddEventHandler`), of time advancing, and adds its figures to the
result. Plugins never advance time: only `planner.engine.loop` does.

The loop binds each hook once, when the replay starts: a hook no plugin overrides costs
nothing (`bind` returns None), one overridden hook is called directly, several in turn, in
registration order (`planner.engine.registry`).
"""

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from mypy_extensions import mypyc_attr


# plugins outside the compiled modules (Kueue, pod admission, bursting...) subclass it
@mypyc_attr(allow_interpreted_subclasses=True)
class Plugin:
    """A concern of the replay; override only the hooks it needs (each default does nothing)."""

    events: dict[int, Callable[[int], None]]
    """Event kinds (`planner.engine.events`) this plugin handles, with the handler."""
    stale: dict[int, Callable[[int], bool]]
    """For deadline kinds (`BURST` on): whether such an event for job `i` went stale."""

    def __init__(self) -> None:
        self.events = {}
        self.stale = {}

    def begin(self) -> None:
        """The replay starts (jobs that can never run are settled already)."""

    def enqueued(self, i: int, requeue: bool) -> None:
        """Job `i` joined the waiting queue (`requeue`: again, after an eviction or backoff)."""

    def started(self, i: int) -> None:
        """Job `i` started running: its pods are placed and its finish event is pushed."""

    def finished(self, i: int) -> None:
        """Job `i` completed (or was deleted while running); its GPUs are released next."""

    def evicted(self, i: int) -> None:
        """Job `i` was preempted; its pods may still hold their GPUs (terminating)."""

    def terminated(self, i: int) -> None:
        """An evicted job's pods are gone, before its GPUs are released."""

    def withdrawn(self, i: int) -> None:
        """Waiting job `i` left the queue at its deadline."""

    def bursted(self, i: int) -> None:
        """Waiting job `i` left the queue to run in the cloud."""

    def advance(self, t0: float, t1: float) -> None:
        """Simulated time moves from `t0` to `t1` (> t0) with nothing changing between."""

    def report(self, end: float) -> dict[str, Any]:
        """The `ReplayResult` fields this plugin fills, by name."""
        del end
        return {}


class Queueing(Protocol):
    """The allocate action: offers free capacity to waiting jobs in the policy's order."""

    def starts_arrivals(self, count: int) -> bool:
        """Whether `count` jobs arriving at one instant, with nobody waiting, may start at
        once in submit order (gang admission), without joining the queue first."""
        ...

    def never_runs(self, sid: int) -> str:
        """Why jobs of shape `sid` can never start, even on the idle cluster ('' if they can)."""
        ...

    def try_start(self, i: int, *, queued: bool = True) -> bool:
        """Start job `i` now if admission allows and its pods fit; whether it started."""
        ...

    def allocate(self, arrivals: list[int], full: bool) -> None:
        """One scheduling pass: `full` when capacity was freed since the last one, else
        only the instant's arrivals are new."""
        ...


def bind(plugins: Sequence[Plugin], hook: str) -> Callable[..., None] | None:
    """The hook of every plugin that overrides it, as one callable (None if none does)."""
    found: list[Callable[..., None]] = [
        getattr(plugin, hook)
        for plugin in plugins
        if getattr(type(plugin), hook) is not getattr(Plugin, hook)
    ]
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    if len(found) == 2:  # the common case (backfill or queues, plus evictions): no loop
        first, second = found

        def both(*args: Any) -> None:
            first(*args)
            second(*args)

        return both

    def each(*args: Any) -> None:
        for call in found:
            call(*args)

    return each
