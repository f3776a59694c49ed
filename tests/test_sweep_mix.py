"""The cheapest mix of owned servers, committed GPUs and on-demand bursts meeting a wait target
(`planner sweep --target ... --mix`), checked against a brute-force grid over (servers,
committed GPUs) priced by the same TCO code, on a small hand-made trace; on the bundled
sample through the command.

The hand-made trace (100 h): job a holds 8 GPUs for all 100 h from 0 h, job c 8 GPUs for
100 h from 0.1 h, and ten 1-hour jobs of 8 GPUs start at 5 h, 15 h, ..., 95 h. One 8-GPU A100
server runs a; c waits an hour and bursts (8 GPUs in the cloud from 1.1 h to 101.1 h) and so
does each short job (16 GPUs for 10 of those hours). AWS H100 reserved costs 0.64 of on
demand, so the rule commits 8 GPUs (held all the time) and not a ninth (held 10 % of it);
the 80 GPU-hours above them (8 GPUs x 10 h) go on demand, 80 x 730 / 100.1 a month.
"""

import contextlib
import io
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml

from planner.cli.main import main
from planner.core.file_access import LOCAL_FILES
from planner.core.model import Job
from planner.cost.scenario import TcoScenario
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep_keys import apply
from planner.service.sweep_mix import (
    Mix,
    MixTerms,
    cheapest_mix,
    committed_point,
    mix_scenario,
    mix_terms,
    spot_point,
)
from planner.service.sweep_mix_price import Pricer
from planner.service.sweep_run import Sweep
from planner.service.sweep_search import parse_target
from planner.service.tco_files import tco_scenario_from_text
from planner.service.tco_run import tco_of_jobs
from planner.store import Connection, connect

if TYPE_CHECKING:
    from planner.engine.summary import ReplaySummary

ROOT = Path(__file__).resolve().parents[1]
TODAY = date(2026, 12, 1)
H = 3600.0
TARGET = 2 * H
JOBS = [
    Job("a", 0.0, 100 * H, gpus=8.0),
    Job("c", 0.1 * H, 100 * H, gpus=8.0),
    *(Job(f"b{k}", (10 * k + 5) * H, H, gpus=8.0) for k in range(10)),
]
SCENARIO = TcoScenario.model_validate(
    {
        "name": "mix by hand",
        "horizons_years": [3],
        "self_hosted": [{"gpu": "A100", "servers": 1}],
        "cloud": [{"name": "AWS H100 on-demand", "provider": "AWS", "gpu": "H100"}],
        "hybrid": {"burst_after_s": 3600, "servers": {"A100": 1}},
    }
)


@pytest.fixture(scope="module")
def searched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Connection, Mix]]:
    with connect(tmp_path_factory.mktemp("mix") / "planner.duckdb") as con:
        sweep = Sweep(SCENARIO, JOBS, "mix-by-hand", TODAY)
        yield con, cheapest_mix(con, sweep, "servers", parse_target("p95_wait=2h"))


def _priced(
    con: Connection, scenario: TcoScenario, jobs: list[Job] = JOBS, today: date = TODAY
) -> tuple[float, float | None, int]:
    """The hybrid's total over 3 years, its p95 wait and jobs never run, by `planner tco`'s
    code."""
    kept: dict[str, ReplaySummary] = {}
    report = tco_of_jobs(con, scenario, jobs, today=today, summaries=kept)
    hybrid = next(o for o in report.horizons[0].options if o.name == "hybrid")
    summary = kept["hybrid"]
    return hybrid.total, hybrid.wait_p95_s, summary.unschedulable + summary.still_waiting


def test_the_hand_made_trace_commits_eight_gpus_and_bursts_eighty_gpu_hours_on_demand(
    searched: tuple[Connection, Mix],
) -> None:
    _, mix = searched
    at = {p.servers: p for p in mix.frontier}

    assert mix.ceiling == 3  # owning alone: a, c and the short jobs each on a server
    assert sorted(at) == [1, 2, 3]  # a single pool: no hybrid without servers
    one = at[1]
    assert one.committed_gpus == 8
    assert one.on_demand_gpu_hours == pytest.approx(80 * 730 / 100.1)
    assert one.hybrid.wait_p95_s == pytest.approx(H)
    assert at[3].committed_gpus == 0  # nothing bursts
    assert at[3].on_demand_gpu_hours == 0.0
    assert all(p.meets for p in mix.frontier)


Priced = Callable[[int, int], tuple[float, float | None, int]]


@pytest.fixture(scope="module")
def priced_at(searched: tuple[Connection, Mix]) -> Priced:
    """The mix at (servers, committed GPUs) priced by `planner tco`'s code, each point once
    for every test of the module."""
    con, mix = searched
    done: dict[tuple[int, int], tuple[float, float | None, int]] = {}

    def price(n: int, c: int) -> tuple[float, float | None, int]:
        if (n, c) not in done:
            done[(n, c)] = _priced(con, apply(mix.terms.scenario, committed_point(mix.terms, n, c)))
        return done[(n, c)]

    return price


def test_the_answer_is_the_cheapest_of_a_brute_force_grid(
    searched: tuple[Connection, Mix], priced_at: Priced
) -> None:
    """Every count with no commitment, each level of its burst demand (16 and 8 GPUs at 1
    server, 8 at 2, none at 3) and the commitments a GPU either side, priced as `planner tco`
    would: a bill is linear in the commitment between levels (`tests/test_commitment.py`
    checks the rule against every whole commitment), so its minimum is at a level. The
    search's answer is the cheapest that meets the target."""
    _, mix = searched
    grid: dict[tuple[int, int], float] = {}
    for n, levels in ((1, (8, 16)), (2, (8,)), (3, ())):
        for c in {0, 1, *(c + d for c in levels for d in (-1, 0, 1))}:
            total, wait, never = priced_at(n, c)
            if wait is not None and wait <= TARGET and never == 0:
                grid[(n, c)] = total

    best = min(grid, key=lambda k: (grid[k], k))

    assert mix.answer is not None
    assert (mix.answer.servers, mix.answer.committed_gpus) == best
    assert math.isclose(mix.answer.total, grid[best], rel_tol=1e-12)


def test_the_mix_written_as_a_scenario_costs_what_planner_tco_says(
    searched: tuple[Connection, Mix],
) -> None:
    con, mix = searched
    assert mix.answer is not None
    text = yaml.safe_dump(
        mix_scenario(mix.terms, mix.answer).model_dump(mode="json", exclude_unset=True)
    )

    written = tco_scenario_from_text(text, "mix.yaml", LOCAL_FILES)

    assert _priced(con, written)[0] == mix.answer.total


def test_a_second_search_prices_and_replays_nothing(searched: tuple[Connection, Mix]) -> None:
    """With no jobs at all, anything priced again would fail: every point and commitment is
    read back from the store."""
    con, mix = searched
    again = cheapest_mix(
        con, Sweep(SCENARIO, [], "mix-by-hand", TODAY), "servers", parse_target("p95_wait=2h")
    )

    assert again.frontier == mix.frontier
    assert again.answer == mix.answer


def test_the_commitment_at_each_count_is_the_brute_force_cheapest(
    searched: tuple[Connection, Mix], priced_at: Priced
) -> None:
    _, mix = searched
    for point in mix.frontier:
        fewer, more = max(point.committed_gpus - 1, 0), point.committed_gpus + 1
        assert priced_at(point.servers, point.committed_gpus)[0] == pytest.approx(point.total)
        assert priced_at(point.servers, fewer)[0] >= point.total
        assert priced_at(point.servers, more)[0] >= point.total


def _with_spot(interruptions: dict[str, float] | None = None) -> MixTerms:
    """The mix of SCENARIO with an AWS H100 spot option (interrupted as given, else never)."""
    spot: dict[str, Any] = {"name": "AWS H100 spot", "provider": "AWS", "gpu": "H100"}
    spot |= {"pricing_model": "spot", **({"spot": interruptions} if interruptions else {})}
    data = SCENARIO.model_dump(mode="json", exclude_unset=True)
    scenario = TcoScenario.model_validate({**data, "cloud": [*data["cloud"], spot]})
    return mix_terms(scenario, "servers")


def test_with_a_spot_option_bursts_go_to_spot_where_it_is_cheaper(tmp_path: Path) -> None:
    """The same trace with an AWS H100 spot option (about 0.4 of on demand, below the 0.64 of
    reserved): the mix at 2 servers, priced as the search prices each count, bursts to spot.
    With 2 servers a and c run owned and only the short jobs burst: 80 spot GPU-hours (80 x
    730 / 100.1 a month), none committed."""
    terms = _with_spot()
    with connect(tmp_path / "planner.duckdb") as con:
        sweep = Sweep(terms.scenario, JOBS, "mix-by-hand", TODAY)
        result, decided = Pricer(con, sweep, terms).priced(2)
        committed = committed_point(terms, 2, decided.committed)
        on_spot = result.option("hybrid")
        assert on_spot is not None

        assert terms.spot == "AWS H100 spot"
        assert result.point == (("hybrid.servers.A100", 2), ("hybrid.cloud", "AWS H100 spot"))
        assert decided.bill(0).on_demand_gpu_hours == pytest.approx(80 * 730 / 100.1)
        assert decided.committed == 0
        assert _priced(con, apply(terms.scenario, committed))[0] > on_spot.total
        assert _priced(con, apply(terms.scenario, result.point))[0] == on_spot.total


def test_a_commitment_overflows_to_spot_where_spots_reruns_cost_more_than_reserving(
    tmp_path: Path,
) -> None:
    """Spot at about 0.4 of on demand, but interrupted 1.5 times an hour (each losing half an
    hour's checkpoint interval and a 5-minute restart: 0.875 of every hour re-run), so an
    hour on spot costs about 0.75 of on demand, above reserved's 0.64 and below on demand.
    At 1 server, c's 8 GPUs burst all the time and the short jobs' 8 more for 10 h: the
    commitment sized at spot's prices is 8 GPUs (held all the time; a ninth is held 10 % of
    it, below 0.64 / 0.75), and the 80 GPU-hours above go to spot, cheaper than on demand
    above the same 8 and than all of it on spot. Priced by `planner tco`'s code, each
    neighbour (7 or 9 committed, still spilling to spot) costs more."""
    terms = _with_spot(
        {"interruptions_per_hour": 1.5, "checkpoint_interval_s": 3600, "restart_s": 300}
    )
    with connect(tmp_path / "planner.duckdb") as con:
        sweep = Sweep(terms.scenario, JOBS, "mix-by-hand", TODAY)
        result, decided = Pricer(con, sweep, terms).priced(1)
        chosen = result.option("hybrid")
        assert chosen is not None
        on_demand_above = _priced(con, apply(terms.scenario, committed_point(terms, 1, 8)))[0]
        all_spot = _priced(con, apply(terms.scenario, spot_point(terms, 1)))[0]
        neighbours = [
            _priced(con, apply(terms.scenario, committed_point(terms, 1, c, "AWS H100 spot")))[0]
            for c in (7, 9)
        ]

        assert dict(result.point)["cloud[2].overflow"] == "AWS H100 spot"
        assert decided.committed == 8
        assert _priced(con, apply(terms.scenario, result.point))[0] == chosen.total
        assert chosen.total < on_demand_above
        assert chosen.total < all_spot
        assert all(chosen.total < n for n in neighbours)
        mix = cheapest_mix(con, sweep, "servers", parse_target("p95_wait=2h"))
    at_one = next(p for p in mix.frontier if p.servers == 1)
    assert (at_one.committed_gpus, at_one.on_demand_gpu_hours) == (8, 0.0)
    assert at_one.spot_gpu_hours == pytest.approx(80 * 730 / 100.1)


def test_each_pool_sized_keeps_its_own_commitments(tmp_path: Path) -> None:
    """Two pools, one store: a and c ask for A100, the short jobs for H800, and the hybrid
    keeps one server of each. With no A100 kept, a and c burst at submission: 16 GPUs all the
    time, all committed. With no H800 kept, c (waiting on a) and the short jobs burst: 8 GPUs
    all the time, 16 a tenth of it, so 8 committed. The second pool's decision must not read
    the first one's, stored under the same sweep."""
    typed = [
        replace(j, gpu_types=("H800",) if j.job_id.startswith("b") else ("A100",)) for j in JOBS
    ]
    data = SCENARIO.model_dump(mode="json", exclude_unset=True)
    h800 = {"price": 300000, "idle_kw": 2.5, "load_kw": 8.0, "max_kw": 10.2}  # as the sample
    pools = [{"gpu": "A100", "servers": 1}, {"gpu": "H800", "servers": 1, **h800}]
    hybrid = {"burst_after_s": 3600, "servers": {"A100": 1, "H800": 1}}
    scenario = TcoScenario.model_validate({**data, "self_hosted": pools, "hybrid": hybrid})
    with connect(tmp_path / "planner.duckdb") as con:
        decided = {}
        for key in ("servers", "servers.H800"):
            terms = mix_terms(scenario, key)
            pricer = Pricer(con, Sweep(terms.scenario, typed, "mix-two-pools", TODAY), terms)
            decided[key] = pricer.decision(0)

    assert decided["servers"].committed == 16
    assert decided["servers.H800"].committed == 8
    on_demand = decided["servers.H800"].bill(8).on_demand_gpu_hours
    assert on_demand == pytest.approx(80 * 730 / 100.1)


# --- the command, on the bundled sample --------------------------------------------------------

SAMPLE = ROOT / "data" / "scenarios" / "sample-tco.yaml"
WEEK_END = "2026-01-12"
"""The sample's first week (5 to 11 January, +08:00): 1,198 of its 4,000 jobs, its 1,024-GPU
A100 gang of 5 January among them, so owning alone still needs all 128 A100 servers; a
third of the replay time of the whole sample for every point."""


def _first_week(folder: Path) -> Path:
    """The bundled sample's rows submitted before `WEEK_END`, as a file of their own."""
    lines = (ROOT / "data" / "traces" / "sample.csv").read_text(encoding="utf-8").splitlines()
    submitted = lines[0].split(",").index("submit_time")
    kept = [row for row in lines[1:] if row.split(",")[submitted] < WEEK_END]
    week = folder / "sample-week.csv"
    week.write_text("\n".join([lines[0], *kept]) + "\n", encoding="utf-8")
    return week


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any], str]:
    """`planner sweep --target p95_wait=1h --mix --json` on the bundled sample's scenario and
    first week, once: the database, the week's file, the JSON printed and the progress."""
    folder = tmp_path_factory.mktemp("sample-mix")
    db, week = folder / "planner.duckdb", _first_week(folder)
    printed, progress = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(progress):
        code = main(
            [
                *("sweep", "--db", str(db), "--scenario", str(SAMPLE), "--trace", str(week)),
                *("--target", "p95_wait=1h", "--mix", "--json"),
            ]
        )
    assert code == 0
    return db, week, json.loads(printed.getvalue()), progress.getvalue()


def test_on_the_sample_the_answer_is_the_cheapest_meeting_count_tried(
    sample_run: tuple[Path, Path, dict[str, Any], str],
) -> None:
    """The answer is the cheapest meeting count of the frontier; its neighbours were tried
    (the refinement stops at adjacent counts), and the meeting counts' totals fall to it and
    rise after it: one valley, where the search's answer is the cheapest of every count."""
    _, _, found, progress = sample_run
    meeting = [p for p in found["frontier"] if p["meets"]]
    answer = found["answer"]
    counts = [p["servers"] for p in found["frontier"]]
    totals = [p["total"] for p in meeting]
    at = totals.index(answer["total"])

    assert found["ceiling"] == 128  # its 1,024-GPU gang needs 128 A100 servers owned alone
    assert found["held_fixed"] == ["16 x H800"]
    assert answer == min(meeting, key=lambda p: (p["total"], p["servers"]))
    assert counts[:2] == [0, 1]  # the hybrid keeps H800 servers: 0 A100 is a mix
    assert {answer["servers"] - 1, answer["servers"] + 1} & set(range(129)) <= set(counts)
    assert totals[:at] == sorted(totals[:at], reverse=True)
    assert totals[at:] == sorted(totals[at:])
    assert answer["point"]["hybrid.servers.A100"] == answer["servers"]
    assert "owning alone: servers=128: meets" in progress
    assert "owning alone: servers=127: misses" in progress  # its gang needs all 128
    assert (
        f"mix: {answer['servers']} servers, {answer['committed_gpus']} GPUs committed" in progress
    )


def test_on_the_sample_no_point_of_a_grid_around_the_answer_is_cheaper(
    sample_run: tuple[Path, Path, dict[str, Any], str],
) -> None:
    """A brute-force grid around the answer on the same week: the counts beside it, each with
    one committed GPU fewer, the same and one more than the answer's, priced by `planner
    tco`'s code. None meeting the target is cheaper, and the answer itself costs the same."""
    db, week, found, _ = sample_run
    answer = found["answer"]
    scenario = tco_scenario_from_text(SAMPLE.read_text(encoding="utf-8"), str(SAMPLE), LOCAL_FILES)
    terms = mix_terms(scenario, "servers")
    n, c = answer["servers"], answer["committed_gpus"]
    grid: dict[tuple[int, int], float] = {}
    with connect(db) as con:
        jobs = load_jobs(con, resolve_trace(con, str(week), files=LOCAL_FILES))
        for servers in {max(n - 1, 0), n, min(n + 1, 128)}:
            for committed in {max(c - 1, 0), c, c + 1}:
                point = apply(terms.scenario, committed_point(terms, servers, committed))
                total, wait, never = _priced(con, point, jobs, date.today())  # the command's
                if wait is not None and wait <= H and never == 0:
                    grid[(servers, committed)] = total

    assert grid[(n, c)] == answer["total"]
    assert min(grid.values()) == answer["total"]


def test_on_the_sample_planner_tco_prices_the_mix_written_as_a_scenario_as_the_search_did(
    sample_run: tuple[Path, Path, dict[str, Any], str], tmp_path: Path
) -> None:
    db, week, found, _ = sample_run
    path = tmp_path / "mix.yaml"
    path.write_text(yaml.safe_dump(found["scenario"]), encoding="utf-8")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(
            ["tco", "--db", str(db), "--scenario", str(path), "--trace", str(week), "--json"]
        )
    report = json.loads(printed.getvalue())
    options = report["horizons"][0]["options"]

    assert code == 0
    assert next(o["total"] for o in options if o["name"] == "hybrid") == found["answer"]["total"]


def test_the_command_refuses_a_mix_it_cannot_price_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "db.duckdb")
    base = ["sweep", "--db", db, "--scenario", str(SAMPLE)]
    no_hybrid = tmp_path / "own.yaml"
    data = yaml.safe_load(SAMPLE.read_text(encoding="utf-8"))
    del data["hybrid"]
    data["trace"] = str(ROOT / "data" / "traces" / "sample.csv")
    no_hybrid.write_text(yaml.safe_dump(data), encoding="utf-8")

    refused = {
        "--mix needs --target": main([*base, "--mix"]),
        "leave out --vary": main(
            [*base, "--mix", "--target", "p95_wait=1h", "--vary", "servers=2"]
        ),
        "--commitment goes with --mix": main(
            [*base, "--target", "p95_wait=1h", "--commitment", "cud"]
        ),
        "--mix sizes the scenario's hybrid": main(
            ["sweep", "--db", db, "--scenario", str(no_hybrid), "--target", "p95_wait=1h", "--mix"]
        ),
    }

    err = capsys.readouterr().err
    assert set(refused.values()) == {2}
    for text in refused:
        assert text in err
    assert "Traceback" not in err
