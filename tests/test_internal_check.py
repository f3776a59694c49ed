"""A failed internal check (an `assert` in the planner: a bug) reaches the user as one message
that says how to report it: one `error:` line and exit status 2 on the CLI, an error box in the
app, never a traceback (issue 31, item 1).

The engine's only known way to fail its check (Volcano preemption, tests/test_volcano_preempt.py)
is fixed, so these tests break admission on purpose: a queueing that never starts a job leaves
jobs waiting on an idle cluster, and the loop's own check (`Replay._stuck`) fires for real.
"""

from pathlib import Path

import pytest

from planner.cli import main
from planner.core.errors import InternalCheckError, PlannerError
from planner.core.model import Job
from planner.engine import registry, simulate
from planner.engine.policy import Policy
from planner.engine.queueing import GangQueueing
from tests.conftest import write
from tests.test_engine_golden import nodes_plain

TRACE = """job_id,submit_time,duration_s,pods,gpus,queue
a,0,100,1,8,team-x
b,10,50,1,4,team-y
"""


class NeverAdmits(GangQueueing):
    """FIFO queueing that never starts a job (the compiled queueing cannot be patched)."""

    def try_start(self, i: int, *, queued: bool = True) -> bool:
        return False

    def allocate(self, arrivals: list[int], full: bool) -> None:
        pass


@pytest.fixture
def admission_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault injection: no job is ever admitted."""
    monkeypatch.setitem(registry.GANG_QUEUEINGS, "fifo", NeverAdmits)


@pytest.mark.usefixtures("admission_broken")
def test_the_engine_raises_a_planner_error_that_names_the_check() -> None:
    with pytest.raises(InternalCheckError) as caught:
        simulate([Job("a", 0.0, 100.0, gpus=8.0)], nodes_plain(1), Policy(queueing="fifo"))

    assert isinstance(caught.value, PlannerError)
    assert str(caught.value).startswith(
        "an internal check failed (the replay left jobs waiting on an idle cluster): "
        "this is a bug in the planner"
    )


@pytest.mark.usefixtures("admission_broken")
def test_the_cli_prints_one_error_line_with_how_to_report_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write(tmp_path, "t.csv", TRACE)
    db = str(tmp_path / "p.duckdb")

    code = main(["replay", str(trace), "--nodes", "1", "--queueing", "fifo", "--db", db])

    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith("error: an internal check failed (the replay left jobs waiting")
    assert "Please report it" in err
    assert "Traceback" not in err


def test_an_assertion_without_a_message_is_named_by_its_file_and_line() -> None:
    try:
        raise AssertionError  # as a bare `assert` outside pytest's rewriting does  # noqa: TRY301
    except AssertionError as err:
        found = InternalCheckError.from_assertion(err)

    assert str(found).startswith("an internal check failed (test_internal_check.py:")
    assert found.code == "internal_check"
