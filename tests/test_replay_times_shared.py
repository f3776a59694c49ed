"""A replay's start and end times are float objects it already holds where the values are the
same (issue 33): compiled, every time stored in a list was a new 32-byte float, a start and an
end for each job (64 MiB a million jobs). Values never change: only which object holds them."""

from planner.core.model import Job
from planner.engine import simulate
from planner.engine.policy import Policy

ONE_8 = [("n1", "A100", 8, 0.0, 0.0)]


def test_a_job_started_on_arrival_keeps_its_submit_time_as_its_start() -> None:
    # one 8-GPU node: `a` runs on arrival, 0-100 s; `b` arrives at 10 s and waits for the
    # node: it starts when `a` ends, 100 s, and runs 50 s, to 150 s
    jobs = [Job("a", float("0"), 100.0, gpus=8.0), Job("b", float("10"), 50.0, gpus=8.0)]

    result = simulate(jobs, ONE_8, Policy())

    assert [job.job_id for job in result.jobs] == ["a", "b"]
    assert result.start_s == [0.0, 100.0]
    assert result.end_s == [100.0, 150.0]
    assert result.start_s[0] is jobs[0].submit_s
    assert result.start_s[1] is not jobs[1].submit_s


def test_minus_zero_is_not_taken_for_zero() -> None:
    # both arrive at the instant 0 (-0.0 == 0.0), which the first job's 0.0 opened: both start
    # then, at 0.0; the second keeps the instant's sign, not its own submit time's
    jobs = [Job("plus", 0.0, 60.0, gpus=1.0), Job("minus", -0.0, 60.0, gpus=1.0)]

    result = simulate(jobs, ONE_8, Policy())

    assert [job.job_id for job in result.jobs] == ["plus", "minus"]
    assert [str(start) for start in result.start_s] == ["0.0", "0.0"]
    assert [str(end) for end in result.end_s] == ["60.0", "60.0"]
