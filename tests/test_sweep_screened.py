"""The screened sizing search (`planner.service.sweep_screen`, `planner sweep --search
screened`): every candidate replayed on a time slice, the frontier confirmed by full replays.

The pure planner of which candidates to replay fully is driven by synthetic verdicts (any
screen, right or wrong, against a full verdict that meets from some candidate on): it always
ends on the first meeting candidate, fully replayed, with the candidate below it fully
replayed too. The priced search runs on small random traces (a real DuckDB file, real
replays): its answer equals the full grid's over the same candidates, and the screening error
it reports is the difference between the slice's and the full replay's figures.
"""

import csv
import itertools
import json
import math
import random
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from planner.cli.main import main
from planner.core.errors import ScenarioError
from planner.core.file_access import LOCAL_FILES
from planner.core.model import Job
from planner.cost.scenario import TcoScenario
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep_estimate import between, estimated_waits
from planner.service.sweep_point import PointResult
from planner.service.sweep_run import Sweep, run_sweep
from planner.service.sweep_screen import (
    GUIDED_ROUNDS,
    floor_for,
    next_full,
    predicted_meets,
    screened_smallest,
    time_slice,
)
from planner.service.sweep_search import Target
from planner.store import connect

TODAY = date(2026, 12, 1)
COUNTS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16]
TARGET = Target("p95_wait", 3600.0)


def driven(
    predicted: list[bool], met_from: int, width: int
) -> tuple[int | None, list[tuple[int, ...]], dict[int, bool]]:
    """The planner run to its answer against full verdicts meeting from `met_from` on."""
    full: dict[int, bool] = {}
    rounds: list[tuple[int, ...]] = []
    step = next_full(predicted, full, width)
    while step.indices:
        rounds.append(step.indices)
        assert not set(step.indices) & set(full)  # never replayed twice
        full.update((i, i >= met_from) for i in step.indices)
        step = next_full(predicted, full, width, guided=len(rounds) < GUIDED_ROUNDS)
    return step.answer, rounds, full


def test_a_right_screen_is_confirmed_by_its_answer_and_the_count_below() -> None:
    """Five candidates; the screen says the third (position 2) is the first to meet, the full
    replays say the second (position 1). Round 1 replays the screen's answer and the one
    below (2, 1): both meet, so the bracket is below 1; round 2 replays position 0, which
    misses: the answer is position 1, and 0 and 1 are both fully replayed."""
    answer, rounds, full = driven([False, False, True, True, True], met_from=1, width=2)

    assert rounds == [(1, 2), (0,)]
    assert answer == 1
    assert full == {0: False, 1: True, 2: True}


@given(
    predicted=st.lists(st.booleans(), min_size=1, max_size=40),
    met_from=st.integers(0, 40),
    width=st.integers(1, 4),
)
def test_whatever_the_screen_says_the_answer_is_the_first_meeting_candidate_fully_replayed(
    predicted: list[bool], met_from: int, width: int
) -> None:
    met_from = min(met_from, len(predicted))  # len: no candidate meets
    answer, rounds, full = driven(predicted, met_from, width)

    assert answer == (met_from if met_from < len(predicted) else None)
    if answer is not None:
        assert full[answer] is True
    below = (len(predicted) if answer is None else answer) - 1
    if below >= 0:
        assert full[below] is False  # the next smaller candidate was replayed and misses
    assert all(1 <= len(r) <= width for r in rounds)
    # a wrong screen costs a bisection's rounds at most, after the guided ones
    assert len(rounds) <= GUIDED_ROUNDS + len(predicted).bit_length()


def test_the_full_wait_is_estimated_from_the_screens_shape_through_the_replayed_counts() -> None:
    """The 3.4M-job helios search's spread placement (target 1 h = 3,600 s; waits compared as
    log(wait + 36 s)): screened p95 waits at 300, 320, 340, 360 servers of 3,715.2, 2,012.4,
    1,234.8 and 885.6 s; full replays at 300 and 320 waited 24,768 and 9,972 s.
    Logs: screened 8.2299, 7.6248, 7.1474, 6.8260; full 10.1187, 9.2111. The slope through
    the two replayed counts: (9.2111 - 10.1187) / (7.6248 - 8.2299) = 1.4999, so at 340
    log = 9.2111 + 1.4999 x (7.1474 - 7.6248) = 8.4950: e^8.4950 - 36 = 4,854 s (misses);
    at 360 9.2111 + 1.4999 x (6.8260 - 7.6248) = 8.0130: 2,984 s (meets). The full replays
    found 4,896 s and 3,586 s: the next round replays 360 and 340, and the search ends.
    (A fixed margin of the worst under-estimate, 5.84 h, read every count up to 620 as
    uncertain: that search replayed 8 counts fully.)"""
    screened = [3715.2, 2012.4, 1234.8, 885.6, None]
    full = {0: 24768.0, 1: 9972.0}

    found = estimated_waits(screened, full, 3600.0)

    assert found[:2] == [24768.0, 9972.0]  # replayed counts keep their measured waits
    assert found[2] == pytest.approx(4854.0, abs=1.0)
    assert found[3] == pytest.approx(2984.0, abs=1.0)
    assert found[4] is None  # no screened wait, no estimate
    assert predicted_meets(found, 3600.0) == [False, False, False, True, False]
    assert next_full(predicted_meets(found, 3600.0), {0: False, 1: False}, 2).indices == (2, 3)


def test_a_count_not_screened_is_read_off_its_screened_neighbours() -> None:
    """Counts 300, 320, 340 with 300 and 340 screened at 3,564 and 864 s (target 3,600 s, so
    waits are compared as log(wait + 36 s)): 320 lies halfway, so its log is the mean of
    log 3,600 and log 900: e^((8.1887 + 6.8024) / 2) = sqrt(3,600 x 900) = 1,800, less 36:
    1,764 s. A count with a screened neighbour on one side only, or one without waits, has
    none."""
    found = between([300, 320, 340], {0: 3564.0, 2: 864.0}, 3600.0)

    assert found[0] == 3564.0
    assert found[1] == pytest.approx(1764.0)
    assert found[2] == 864.0
    assert between([300, 320, 340], {0: 3564.0, 1: 10.0}, 3600.0)[2] is None
    assert between([300, 320, 340], {0: None, 2: 864.0}, 3600.0)[1] is None


def test_one_replayed_count_carries_its_ratio_and_two_around_a_count_bracket_it() -> None:
    # one count replayed: the full wait is (screened + 36) x the ratio measured there, - 36:
    # (2,012.4 + 36) x (9,972 + 36) / (2,012.4 + 36) at 320 itself; at 340
    # (1,234.8 + 36) x 10,008 / 2,048.4 - 36 = 6,172.8 s
    one = estimated_waits([3715.2, 2012.4, 1234.8], {1: 9972.0}, 3600.0)
    assert one[2] == pytest.approx(1270.8 * 10008.0 / 2048.4 - 36.0)
    # a count between two replayed ones lies between their full waits
    between = estimated_waits([3715.2, 2012.4, 885.6], {0: 24768.0, 2: 3585.6}, 3600.0)
    assert 3585.6 < between[1] < 24768.0  # type: ignore[operator]
    # screened waits that barely differ do not give any slope: it is held to 4 at most
    steep = estimated_waits([1000.1, 1000.0, 500.0], {0: 7200.0, 1: 3600.0}, 3600.0)
    slope = 4.0  # (log 3,636 - log 7,236) / (log 1,036 - log 1,036.1) is about 7,100: held to 4
    assert steep[2] == pytest.approx(
        math.exp(math.log(3636.0) + slope * (math.log(536.0) - math.log(1036.0))) - 36.0
    )
    # a screen rising where the full replay falls: the slope is held to 0.25 at least
    rising = estimated_waits([1000.0, 1000.1, 500.0], {0: 7200.0, 1: 3600.0}, 3600.0)
    assert rising[2] == pytest.approx(
        math.exp(math.log(3636.0) + 0.25 * (math.log(536.0) - math.log(1036.1))) - 36.0
    )


def test_the_slice_is_the_jobs_submitted_in_the_first_share_of_the_span() -> None:
    jobs = [Job(f"j{k}", s, 60.0) for k, s in enumerate([0.0, 10.0, 50.0, 100.0])]
    sweep = Sweep(TcoScenario.model_validate(_scenario_data()), jobs, "t", TODAY)

    part = time_slice(sweep, 0.5)  # submitted by 0 + 100 x 0.5 = 50 s

    assert [j.job_id for j in part.jobs] == ["j0", "j1", "j2"]
    assert part.trace_id != sweep.trace_id  # its points are stored apart
    with pytest.raises(ScenarioError, match="share above 0"):
        time_slice(sweep, 0.0)


# --- priced on real replays --------------------------------------------------------------------


def _scenario_data(trace: str | None = None) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "screened",
        "horizons_years": [3],
        "self_hosted": [
            {
                "gpu": "V100",
                "servers": 4,
                "gpus_per_server": 8,
                "price": 120_000,
                "idle_kw": 1.0,
                "load_kw": 3.0,
                "max_kw": 3.5,
            }
        ],
        "cloud": [{"name": "cloud V100", "gpu": "V100", "price_per_gpu_hour": 3.06}],
    }
    if trace is not None:
        data["trace"] = trace
    return data


def write_trace(path: Path, seed: int, jobs: int = 100) -> None:
    """Random single-pod V100 jobs over 24 hours, a burst in the middle (so waits fall as
    servers are added and a slice sees less of the load than the whole)."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 5, tzinfo=UTC)
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["job_id", "submit_time", "duration_s", "pods", "gpus", "gpu_type", "status"])
        for k in range(jobs):
            hour = rng.uniform(0, 24) if k % 3 else rng.uniform(10, 14)
            submit = start + timedelta(hours=hour)
            duration = int(rng.uniform(0.2, 3.0) * 3600)
            gpus = rng.choice([1, 1, 2, 4, 8])
            out.writerow([f"j{k:04d}", submit.isoformat(), duration, 1, gpus, "V100", "completed"])


@pytest.fixture
def store(tmp_path: Path) -> tuple[Path, Path]:
    return tmp_path, tmp_path / "planner.duckdb"


def _loaded(folder: Path, db: Path, seed: int) -> tuple[Sweep, Path]:
    trace = folder / f"random-{seed}.csv"
    write_trace(trace, seed)
    scenario = TcoScenario.model_validate(_scenario_data(str(trace)))
    with connect(db) as con:
        trace_id = resolve_trace(con, str(trace), files=LOCAL_FILES)
        return Sweep(scenario, load_jobs(con, trace_id), trace_id, TODAY), trace


def grid_answer(results: list[PointResult]) -> int | None:
    """Brute force over every candidate replayed fully: the fewest servers meeting the target
    that leave out no more jobs than the most servers (tests/test_sweep_search.py's rule)."""
    least = _never_ran(results[-1])
    meeting = [r for r in results if TARGET.met_by(r) and _never_ran(r) <= least]
    return int(meeting[0].point[0][1]) if meeting else None  # type: ignore[arg-type]


def _never_ran(result: PointResult) -> int:
    found = result.option("self-hosted")
    assert found is not None
    return found.never_ran or 0


@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 10_000),
    fraction=st.sampled_from([0.25, 0.5]),
    every=st.sampled_from([1, 2, 3]),
)
def test_the_screened_answer_is_the_full_grids_and_its_error_is_the_replays_difference(
    store: tuple[Path, Path], seed: int, fraction: float, every: int
) -> None:
    folder, _ = store
    db = folder / f"planner-{seed}-{fraction}.duckdb"
    sweep, _ = _loaded(folder, db, seed)
    with connect(db) as con:
        grid = list(run_sweep(con, sweep, [(("servers", n),) for n in COUNTS]).results)
        waits = [TARGET.wait_of(r) for r in grid]
        # the search's promise holds when full waits fall as servers are added
        assume(
            all(a is not None and b is not None and b <= a for a, b in itertools.pairwise(waits))
        )
        found = screened_smallest(
            con,
            sweep,
            "servers",
            TARGET,
            candidates=COUNTS,
            fraction=fraction,
            workers=1,
            every=every,
        )
        part = time_slice(sweep, fraction)
        sliced = run_sweep(con, part, [r.point for r in found.full]).results
        every_slice = run_sweep(con, part, [(("servers", n),) for n in COUNTS]).results

    answer = None if found.answer is None else int(found.answer.point[0][1])  # type: ignore[arg-type]
    assert answer == grid_answer(grid)
    by_point = {r.point: r for r in grid}
    if found.answer is not None:
        assert found.answer in found.full  # a fully replayed point, the grid's own figures
        assert found.answer == by_point[found.answer.point]
    # every `every`-th count screened, and the largest, and any the first round of full
    # replays took between them: the slice's own points, in server order
    positions = [COUNTS.index(int(r.point[0][1])) for r in found.screened]  # type: ignore[arg-type]
    assert positions == sorted(positions)
    assert {*range(0, len(COUNTS), every), len(COUNTS) - 1} <= set(positions)
    assert list(found.screened) == [every_slice[i] for i in positions]
    sampled = positions
    assert len(found.full) <= len(COUNTS)
    # the error reported at each fully replayed count: the full replay's figures less the slice's
    assert [e.servers for e in found.errors] == [r.point[0][1] for r in found.full]
    for e, full, sliced_point in zip(found.errors, found.full, sliced, strict=True):
        assert e.full_wait_s == TARGET.wait_of(full)
        f = full.option("self-hosted")
        assert f is not None
        assert e.full_utilization == f.utilization
        assert e.screened == (COUNTS.index(e.servers) in sampled)
        if e.screened:
            s = sliced_point.option("self-hosted")
            assert s is not None
            assert e.screened_wait_s == TARGET.wait_of(sliced_point)
            assert e.screened_utilization == s.utilization
        else:  # read off the screened counts beside it: between their waits
            assert e.screened_utilization is None
            k = COUNTS.index(e.servers)
            low = TARGET.wait_of(every_slice[max(i for i in sampled if i < k)])
            high = TARGET.wait_of(every_slice[min(i for i in sampled if i > k)])
            if low is None or high is None:
                assert e.screened_wait_s is None
            else:
                assert min(low, high) - 1e-6 <= e.screened_wait_s <= max(low, high) + 1e-6  # type: ignore[operator]
        if e.wait_s is not None:
            assert e.wait_s == pytest.approx(e.full_wait_s - e.screened_wait_s)  # type: ignore[operator]


def test_the_command_reports_the_answer_the_points_and_the_screening_error(
    store: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, db = store
    sweep, trace = _loaded(folder, db, seed=7)
    scenario = folder / "screened.yaml"
    scenario.write_text(json.dumps(_scenario_data(str(trace))), encoding="utf-8")
    counts = ",".join(str(n) for n in COUNTS)
    base = ["sweep", "--scenario", str(scenario), "--db", str(db), "--workers", "1"]
    args = [*base, "--target", "p95_wait=1h", "--search", "screened", "--vary", f"servers={counts}"]

    assert main([*args, "--screen-fraction", "0.25", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    with connect(db) as con:
        grid = list(run_sweep(con, sweep, [(("servers", n),) for n in COUNTS]).results)

    (found,) = printed
    assert found["answer"]["point"] == {"servers": grid_answer(grid)}
    # positions 0, 2, 4, 6, 8 and the largest, 9, and at most the first round's two between
    screened = found["screen"]["points_screened"]
    assert 6 <= screened <= 8
    assert found["screen"]["every"] == 2
    replayed = [p["point"]["servers"] for p in found["fully_replayed"]]
    assert found["screen"]["points_fully_replayed"] == len(replayed) >= 1
    assert [e["servers"] for e in found["screening_error"]] == replayed
    assert found["answer"]["point"]["servers"] in replayed

    assert main([*args, "--screen-fraction", "0.25"]) == 0  # stored: nothing replayed again
    text = capsys.readouterr().out
    assert text.startswith(
        f"smallest servers meeting p95_wait=1h for self-hosted: {grid_answer(grid)}"
    )
    assert f"{screened} counts screened (every 2nd given and the largest), {len(replayed)}" in text
    assert "screening error (full - screened) at the fully replayed counts:" in text

    assert main([*base, "--target", "p95_wait=1h", "--search", "screened"]) == 2
    assert "add --vary servers=N1,N2,..." in capsys.readouterr().err


def test_candidates_below_the_largest_jobs_floor_are_not_replayed(
    store: tuple[Path, Path],
) -> None:
    """A 32-GPU job on 8-GPU servers needs 4: candidates 1 to 3 are listed, not replayed."""
    folder, db = store
    sweep, _ = _loaded(folder, db, seed=3)
    wide = replace(sweep.jobs[0], job_id="wide", pods=4, gpus=8.0)
    sweep = Sweep(sweep.scenario, [wide, *sweep.jobs[1:]], sweep.trace_id + " wide", TODAY)

    floor = floor_for(sweep, "servers", "self-hosted")
    with connect(db) as con:
        found = screened_smallest(
            con, sweep, "servers", TARGET, candidates=COUNTS, workers=1, floor=floor
        )

    assert floor == 4
    assert found.below_floor == (1, 2, 3)
    with connect(db) as con, pytest.raises(ScenarioError, match="--screen-every 0"):
        screened_smallest(con, sweep, "servers", TARGET, candidates=COUNTS, every=0)
    assert all(int(r.point[0][1]) >= 4 for r in [*found.screened, *found.full])  # type: ignore[arg-type]
