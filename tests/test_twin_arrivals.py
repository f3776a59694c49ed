"""Where the held-back window's arrival rate changes, said with the waits either side (issue
31, item 4: on openb the p90 rise sits where arrivals double, not where memory rose)."""

from dataclasses import replace

import pytest

from planner.core.model import Job
from planner.twin.arrivals import arrival_shift
from planner.ui.twin_frames import arrivals_note

DAY_S = 86_400.0


def _day(day: int, count: int, wait_s: float) -> list[Job]:
    """`count` jobs submitted evenly over day `day`, each started `wait_s` later."""
    made = []
    for k in range(count):
        submit = day * DAY_S + k * DAY_S / count
        job = Job(f"d{day}-{k}", submit, 60.0)
        made.append(replace(job, start_s=submit + wait_s, end_s=submit + wait_s + 60))
    return made


def test_the_split_is_the_day_the_rate_doubles_with_each_sides_waits() -> None:
    """Days 10-13: 100 jobs a day waiting 5 s; days 14-15: 200 a day waiting 50 s. The last
    job is submitted at 15 d + 199/200 d, so the later side spans 1.995 days: 400 / 1.995 =
    200.5 a day; the earlier side 400 jobs over 4 days, 100 a day."""
    jobs = [j for d in range(10, 14) for j in _day(d, 100, 5.0)]
    jobs += [j for d in (14, 15) for j in _day(d, 200, 50.0)]

    shift = arrival_shift(jobs, (10 * DAY_S, 16 * DAY_S))

    assert shift is not None
    assert shift.at_s == 14 * DAY_S
    assert shift.per_day == (100.0, pytest.approx(400 / 1.995))
    assert (shift.p50_s, shift.p90_s) == ((5.0, 50.0), (5.0, 50.0))
    assert arrivals_note(shift, "en").startswith(
        "Arrivals in the held-back window went from 100 a day before day 14.0 to 201 a day"
    )


def test_a_steady_rate_says_nothing() -> None:
    jobs = [j for d in range(10, 16) for j in _day(d, 100, 5.0)]

    assert arrival_shift(jobs, (10 * DAY_S, 16 * DAY_S)) is None
