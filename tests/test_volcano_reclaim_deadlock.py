"""A known engine bug, kept visible until it is fixed: Volcano queues with reclaim and preempt
on 1,500 synthetic philly jobs over 40 nodes end with jobs waiting on an idle cluster (the
loop's own check, `Replay._stuck`, raises). Found by the speed work of issue 16; the engine
before that work fails the same way. Strict: when a fix lands, this fails and must go."""

import pytest

from planner.engine import simulate
from tests.test_engine_golden import nodes_plain, philly, volcano_policy


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="jobs wait on an idle cluster")
def test_volcano_reclaim_and_preempt_finish_every_job() -> None:
    nodes = nodes_plain(40)
    result = simulate(philly(1500, 7, 0.05), nodes, volcano_policy(nodes))
    assert "unfinished" not in result.status
