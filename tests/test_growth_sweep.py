"""`planner sweep --vary` over a list-valued growth key: one list in brackets per point, each
point priced as `planner tco` prices that growth, and malformed lists refused with the
nearest reading."""

import json
import re
from pathlib import Path

import pytest

from planner.cli.main import main
from planner.core.errors import ScenarioError
from planner.cost.scenario import TcoScenario
from planner.service.sweep_keys import apply, is_list_key, parse_vary, shown

RENT = {"name": "rent", "gpu": "A100", "price_per_gpu_hour": 2.0, "packing": "per-job"}
BASE = TcoScenario.model_validate({"horizons_years": [2], "cloud": [RENT]})


def test_a_list_key_takes_one_bracketed_list_per_point() -> None:
    varied = parse_vary(["growth.arrival_rate=[1,1.5], [1,2,4]", "growth.seed=1,2"], BASE)

    assert varied == [("growth.arrival_rate", [(1, 1.5), (1, 2, 4)]), ("growth.seed", [1, 2])]
    grown = apply(BASE, (("growth.arrival_rate", (1, 2, 4)),))
    assert grown.growth is not None
    assert [grown.growth.factor(k) for k in (1, 2, 3, 4)] == [1.0, 2.0, 4.0, 4.0]
    assert parse_vary(["growth.time_warp=[1,2]"], BASE) == [("growth.time_warp", [(1, 2)])]
    assert shown((1, 1.5)) == "[1,1.5]"
    assert shown([1, 2]) == "[1,2]"  # as read back from a stored point's JSON
    assert is_list_key(BASE, "growth.arrival_rate")
    assert not is_list_key(BASE, "growth.arrival_rate_per_year")
    assert not is_list_key(BASE, "servers")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        # scalars for a list key: the nearest reading, split at ';' or '|' if given
        (
            "growth.arrival_rate=1,1.5",
            "did you mean growth.arrival_rate='[1,1.5]' (quoted for the shell), or "
            "growth.arrival_rate_per_year=1,1.5 (one factor per point)?",
        ),
        ("growth.time_warp=1,2", "did you mean growth.time_warp='[1,2]' (quoted for the shell)?"),
        ("growth.arrival_rate=1,1.5;1,2", "did you mean growth.arrival_rate='[1,1.5],[1,2]'"),
        ("growth.arrival_rate=1|2", "did you mean growth.arrival_rate='[1],[2]'"),
        ("growth.arrival_rate=[1,1.5", "a '[' is not closed by ']'"),
        ("growth.arrival_rate=[1,[2]]", "a '[' is not closed by ']'"),
        ("growth.arrival_rate=[1,2]]", "a ']' has no '['"),
        ("growth.arrival_rate=[1,2][3]", "lists are separated by commas"),
        ("growth.arrival_rate=[]", "a list needs values"),
        ("growth.arrival_rate=[1,,2]", "a list needs values"),
        ("growth.arrival_rate=[1,-2]", "growth.arrival_rate=[1,-2]: Input should be greater"),
        ("growth.arival_rate=[1,2]", "did you mean growth.arrival_rate"),
        ("growth.arrival_rate_per_year=[1.2,1.5]", "one value per point, not a list; did you"),
    ],
)
def test_a_malformed_list_is_refused_with_how_to_write_it(given: str, expected: str) -> None:
    with pytest.raises(ScenarioError, match=re.escape(expected)):
        parse_vary([given], BASE)


def test_the_command_sweeps_per_year_factors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 24 jobs of 8 GPUs x 2 h an hour apart: 384 GPU-h over a 25 h span, 2.00 a GPU-hour
    rows = [f"j{i},{i * 3600},7200,8,A100" for i in range(24)]
    (tmp_path / "t.csv").write_text(
        "job_id,submit_s,duration_s,gpus,gpu_type\n" + "\n".join(rows) + "\n"
    )
    data = BASE.model_dump(mode="json", exclude_unset=True) | {"trace": "t.csv"}
    scenario = tmp_path / "s.yaml"
    scenario.write_text(json.dumps(data), encoding="utf-8")
    command = ["sweep", "--scenario", str(scenario), "--db", str(tmp_path / "p.duckdb")]
    vary = ["--vary", "growth.arrival_rate=[1,2],[1,3]", "--workers", "1"]

    assert main([*command, *vary, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert main([*command, *vary]) == 0
    text = capsys.readouterr().out

    year = 12 * 384 * 730 / 25 * 2.0  # 269,107.20
    totals = [p["options"][0]["total"] for p in printed]
    assert [p["point"] for p in printed] == [
        {"growth.arrival_rate": [1, 2]},
        {"growth.arrival_rate": [1, 3]},
    ]
    assert totals == pytest.approx([year * 3, year * 4])
    assert "growth.arrival_rate=[1,3]" in text
    assert main([*command, "--vary", "growth.arrival_rate=1,2"]) == 2
    assert "takes a list per point" in capsys.readouterr().err
