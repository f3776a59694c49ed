"""The cheapest mix under growing demand (`planner sweep --target ... --mix` with `growth:`):
each year's commitment sized from that year's burst curve, every year meeting the target,
checked against a brute-force grid over (servers, year 1's and year 2's committed GPUs)
priced by `planner tco`'s code, on the hand-made trace of tests/test_sweep_mix.py.

Year 2 doubles the arrival rate: the trace is shorter than a week, so each job's copy
arrives with it (`planner.synth.growth`): two of a, two of c, and the short jobs in pairs.
With n servers the hybrid runs n of the four long jobs and bursts the rest after an hour
(8 GPUs each, all of the 100 h), and the short jobs a server cannot take. Reserved costs
0.64 of on demand, so a year commits the level held all the time and no more. At 1 server:
year 1 commits 8 (c), year 2 24 (a, c and c'); both years' short jobs (8 then 16 GPUs for
10 h) go on demand: 80 and 160 GPU-hours, x 730 / 100.1 a month. Owning alone needs 5
servers in year 2 (the four long jobs and one of each pair; its twin waits an hour).
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from planner.cli.sweep_mix import mix_json, mix_lines
from planner.core.file_access import LOCAL_FILES
from planner.cost.scenario import TcoScenario
from planner.service.sweep_keys import apply
from planner.service.sweep_mix import Mix, cheapest_mix, committed_point, mix_scenario, mix_terms
from planner.service.sweep_mix_price import Pricer
from planner.service.sweep_run import Sweep
from planner.service.sweep_search import parse_target
from planner.service.tco_files import tco_scenario_from_text
from planner.service.tco_run import tco_of_jobs
from planner.store import Connection, connect
from tests.test_sweep_mix import JOBS, SCENARIO, TODAY

H = 3600.0
MONTH = 730 / 100.1
GROWING = TcoScenario.model_validate(
    {
        **SCENARIO.model_dump(mode="json", exclude_unset=True),
        "horizons_years": [2],
        "growth": {"arrival_rate": [1, 2]},
    }
)
LEVELS = {
    1: ((8, 16), (24, 40)),
    2: ((8,), (16, 32)),
    3: ((), (8, 24)),
    4: ((), (16,)),
    5: ((), (8,)),
}
"""Burst GPUs held at once, year 1 and year 2, by servers kept (from the story above)."""


@pytest.fixture(scope="module")
def searched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Connection, Mix]]:
    with connect(tmp_path_factory.mktemp("growth-mix") / "planner.duckdb") as con:
        sweep = Sweep(GROWING, JOBS, "mix-by-hand", TODAY)
        yield con, cheapest_mix(con, sweep, "servers", parse_target("p95_wait=2h"))


def _priced(con: Connection, scenario: TcoScenario) -> tuple[float, float | None]:
    """The hybrid's total over the 2 years and its p95 wait (the worst year's), as
    `planner tco` prices the scenario."""
    report = tco_of_jobs(con, scenario, JOBS, today=TODAY)
    hybrid = next(o for o in report.horizons[0].options if o.name == "hybrid")
    return hybrid.total, hybrid.wait_p95_s


def test_each_year_commits_its_own_level_and_names_its_figures(
    searched: tuple[Connection, Mix],
) -> None:
    _, mix = searched
    at = {p.servers: p for p in mix.frontier}

    assert mix.ceiling == 5
    one = at[1]
    assert [y.committed_gpus for y in one.by_year] == [8, 24]
    assert [y.arrival_rate for y in one.by_year] == [1.0, 2.0]
    assert [y.on_demand_gpu_hours for y in one.by_year] == pytest.approx([80 * MONTH, 160 * MONTH])
    assert one.result.point[-1] == ("cloud[1].committed_gpus_by_year", (8, 24))
    assert [y.committed_gpus for y in at[4].by_year] == [0, 0]  # only the short pairs burst
    assert all(p.hybrid.wait_p95_s == pytest.approx(H) for p in mix.frontier)


def test_the_answer_is_the_cheapest_of_a_brute_force_grid(
    searched: tuple[Connection, Mix],
) -> None:
    """Every count up to owning alone's, each year's commitment 0 or one of its burst
    levels: a bill is linear in the commitment between the demand's levels, so its minimum
    is at one of them. The search's answer is the cheapest point meeting the target in both
    years."""
    con, mix = searched
    grid: dict[tuple[int, int, int], float] = {}
    for n, (year_1, year_2) in LEVELS.items():
        for c1 in (0, *year_1):
            for c2 in (0, *year_2):
                point = committed_point(mix.terms, n, (c1, c2))
                total, wait = _priced(con, apply(mix.terms.scenario, point))
                if wait is not None and wait <= 2 * H:
                    grid[(n, c1, c2)] = total

    best = min(grid, key=lambda k: (grid[k], k))

    assert mix.answer is not None
    found = (mix.answer.servers, *(y.committed_gpus for y in mix.answer.by_year))
    assert found == best
    assert mix.answer.total == pytest.approx(grid[best], rel=1e-12)


def test_the_grown_mix_written_as_a_scenario_costs_what_planner_tco_says(
    searched: tuple[Connection, Mix],
) -> None:
    con, mix = searched
    one = next(p for p in mix.frontier if p.servers == 1)
    text = yaml.safe_dump(mix_scenario(mix.terms, one).model_dump(mode="json", exclude_unset=True))

    written = tco_scenario_from_text(text, "mix.yaml", LOCAL_FILES)

    assert written.cloud[-1].committed_gpus_by_year == (8, 24)
    assert _priced(con, written)[0] == one.total


def test_one_commitment_for_every_year_when_the_term_outlasts_a_year(tmp_path: Path) -> None:
    """A 36-month reserved term holds one level through both years: the cheapest for the two
    curves merged. At 1 server the GPUs held are 8 (year 1, 90 % of the time), 16 (10 %),
    24 (year 2, 90 %) and 40 (10 %): at least 24 in half of the two years, at least 40 in
    5 %. Three years cost 0.45 of on demand (the price book's 55 % off), under the half: 24
    for both years (year 1 alone would commit 8)."""
    burst = {**SCENARIO.cloud[0].model_dump(mode="json", exclude_unset=True)}
    burst |= {"pricing_model": "reserved", "term_months": 36, "committed_gpus": 1}
    scenario = GROWING.model_copy(update={"cloud": (type(SCENARIO.cloud[0])(**burst),)})
    terms = mix_terms(scenario, "servers")
    with connect(tmp_path / "planner.duckdb") as con:
        sweep = Sweep(terms.scenario, JOBS, "mix-by-hand", TODAY)
        decided = Pricer(con, sweep, terms).decision(1)

    assert terms.term_months == 36
    assert decided.committed == 24
    assert [b.committed_gpus for b in decided.year_bills(decided.committed)] == [24, 24]


def test_commitments_by_year_need_growth_and_exclude_one_level() -> None:
    data = SCENARIO.model_dump(mode="json", exclude_unset=True)
    cloud = {**data["cloud"][0], "pricing_model": "reserved", "committed_gpus_by_year": [8, 24]}

    with pytest.raises(ValidationError, match="needs `growth:`"):
        TcoScenario.model_validate({**data, "cloud": [cloud]})
    with pytest.raises(ValidationError, match="not both"):
        TcoScenario.model_validate({**data, "cloud": [{**cloud, "committed_gpus": 8}]})


def test_the_command_names_each_years_commitment_and_cloud(
    searched: tuple[Connection, Mix],
) -> None:
    _, mix = searched
    assert mix.answer is not None
    a = mix.answer
    lines = mix_lines(mix, "p95_wait=2h")
    found = mix_json(mix, "p95_wait=2h")

    assert lines[0].startswith(f"cheapest mix meeting p95_wait=2h: keep {a.servers} x A100")
    assert "every year meets the target (the waits are the worst year's):" in lines
    y2 = a.by_year[1]
    assert (
        f"  year 2 (arrivals x2): {y2.committed_gpus} GPUs committed, "
        f"{y2.committed_gpu_hours:,.0f} GPU-h a month on them, "
        f"{y2.on_demand_gpu_hours:,.0f} on demand, 0 on spot"
    ) in lines
    assert [y["year"] for y in found["answer"]["by_year"]] == [1, 2]
    assert found["answer"]["by_year"][1]["on_demand_gpu_hours_per_month"] == y2.on_demand_gpu_hours
    one = next(p for p in found["frontier"] if p["servers"] == 1)
    assert [y["committed_gpus"] for y in one["by_year"]] == [8, 24]
    assert "  8/24  " in "\n".join(lines)  # the frontier's committed column, year by year
