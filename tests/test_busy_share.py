"""The busy share of the priced jobs' GPUs (`gpu_util`) and each option's cost per busy
GPU-hour (`planner.cost.busy`, `docs/tco.md`): a hand case through the real store and
`planner tco`, a trace without shares, and a synthetic trace whose shares average 35 %."""

import json
import subprocess
from io import BytesIO
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import yaml
from openpyxl import load_workbook

from planner.cli.main import main
from planner.core.model import Job
from planner.cost.busy import UNKNOWN_NOTE, busy_share
from planner.report.text import text
from tests.debian import program
from tests.libreoffice import recalculate

# Three jobs of team-a/team-b: 2 GPUs x 1 h at 50 %, 4 GPUs x 1 h at 25 %, 1 GPU x 1 h with
# no share. Busy: 2 x 0.50 + 4 x 0.25 = 1 + 1 = 2 GPU-h of the 2 + 4 = 6 GPU-h with a share:
# busy share 2 / 6 = 1/3 (33.3 %); known for 2 of 3 jobs, 6 of 7 GPU-h (85.7 %).
HAND = """job_id,submit_time,duration,gpus,gpu_type,queue,status,gpu_util
half,0,3600,2,A100,team-a,completed,50%
quarter,600,3600,4,A100,team-b,completed,0.25
unknown,1200,3600,1,A100,team-b,completed,
"""
TEAMS = ("team-a", "team-b")
SERVER = {
    "gpu": "A100",
    "servers": 1,
    "gpus_per_server": 8,
    "price": 100_000,
    "idle_kw": 1,
    "load_kw": 5,
    "max_kw": 6,
}
CLOUD = {"name": "rent", "gpu": "A100", "price_per_gpu_hour": 2.0, "packing": "per-job"}


def _scenario(tmp_path: Path, trace: str, csv: str) -> Path:
    (tmp_path / "jobs.csv").write_text(csv, encoding="utf-8")
    data = {
        "name": "busy",
        "trace": trace,
        "horizons_years": [1],
        "self_hosted": [SERVER],
        "cloud": [CLOUD],
        "overrides": {"lead_time_months": 0},
    }
    path = tmp_path / "busy.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _tco(capsys: pytest.CaptureFixture[str], tmp_path: Path, *extra: str) -> str:
    code = main(["tco", "--db", str(tmp_path / "p.duckdb"), "--scenario", *extra])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _tco_json(capsys: pytest.CaptureFixture[str], tmp_path: Path, scenario: Path) -> Any:
    return json.loads(_tco(capsys, tmp_path, str(scenario), "--json"))


def test_the_hand_case_busy_share_is_two_of_six_gpu_hours(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = _tco_json(capsys, tmp_path, _scenario(tmp_path, "jobs.csv", HAND))
    busy = report["busy"]

    assert busy["share"] == pytest.approx(2 / 6)
    assert (busy["jobs"], busy["jobs_known"]) == (3, 2)
    assert busy["hours"] == pytest.approx(
        {"allocated_gpu_hours": 7.0, "known_gpu_hours": 6.0, "busy_gpu_hours": 2.0}
    )
    teams = {t["team"]: t["hours"] for t in busy["teams"]}
    # team-a: 2 GPU-h at 50 % = 1 busy; team-b: 4 x 0.25 = 1 busy of 4 known, 5 allocated
    assert teams["team-a"] == pytest.approx(
        {"allocated_gpu_hours": 2.0, "known_gpu_hours": 2.0, "busy_gpu_hours": 1.0}
    )
    assert teams["team-b"] == pytest.approx(
        {"allocated_gpu_hours": 5.0, "known_gpu_hours": 4.0, "busy_gpu_hours": 1.0}
    )
    options = {o["name"]: o for o in report["horizons"][0]["options"]}
    assert {c["option"] for c in busy["costs"]} == set(options)
    for cost in busy["costs"]:
        option = options[cost["option"]]
        # cost per busy GPU-hour = total / (useful GPU-h x busy share) = total / (useful / 3)
        by_hand = option["total"] / (option["useful_gpu_hours"] * (2 / 6))
        assert cost["cost_per_busy_gpu_hour"] == pytest.approx(by_hand)
        assert cost["cost_per_busy_gpu_hour"] == pytest.approx(
            3 * option["cost_per_useful_gpu_hour"]
        )
    assert UNKNOWN_NOTE not in report["notes"]


def test_the_hand_case_text_shows_the_share_its_coverage_and_the_cost_per_busy_gpu_hour(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = _tco(capsys, tmp_path, str(_scenario(tmp_path, "jobs.csv", HAND)))

    assert (
        "busy share 33.3%: 2.0 GPU-h busy of the 6.0 GPU-h with a share "
        "(known for 2 of 3 jobs, 85.7% of 7.0 GPU-h allocated)"
    ) in out
    assert "  team-b: allocated 5.0 GPU-h, busy 1.0 GPU-h, busy share 25.0%" in out
    assert out.count("per busy GPU-hour (per useful / busy share 33.3%)") == 2  # self-hosted, rent


def test_a_trace_without_busy_shares_shows_no_busy_figure_and_says_how_to_add_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plain = "\n".join(line.rsplit(",", 1)[0] for line in HAND.splitlines()) + "\n"
    scenario = _scenario(tmp_path, "jobs.csv", plain)
    report = _tco_json(capsys, tmp_path, scenario)
    out = _tco(capsys, tmp_path, str(scenario))

    assert "busy" not in report
    assert UNKNOWN_NOTE in report["notes"]
    assert "per busy GPU-hour" not in out
    assert "busy share" not in out.replace(UNKNOWN_NOTE, "")
    assert f"note: {UNKNOWN_NOTE}" in out


def test_jobs_without_gpus_and_unknown_shares_are_left_out_of_the_share() -> None:
    jobs = [
        Job("a", 0, 3600, gpus=2, queue="x"),
        Job("cpu", 0, 3600, gpus=0, cpu=4),
        Job("b", 0, 7200, gpus=1, queue="x"),
    ]
    # a: 2 GPU-h at 0.9 = 1.8 busy; b: 2 GPU-h unknown; the CPU-only job has no GPU-hours
    busy = busy_share(jobs, {"a": 0.9, "cpu": 0.0})
    assert busy is not None
    assert (busy.share, busy.jobs, busy.jobs_known) == (pytest.approx(0.9), 2, 1)
    assert busy.known_hours_share == pytest.approx(2 / 4)
    assert busy_share(jobs, {}) is None


def test_the_workbook_recalculated_by_libreoffice_divides_by_the_named_busy_share(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    scenario = _scenario(tmp_path, "jobs.csv", HAND)
    report = _tco_json(capsys, tmp_path, scenario)
    _tco(capsys, tmp_path, str(scenario), "--xlsx", str(tmp_path / "busy.xlsx"))
    (out,) = recalculate([tmp_path / "busy.xlsx"], tmp_path / "out")
    book = load_workbook(BytesIO(out.read_bytes()), data_only=True)
    formulas = load_workbook(tmp_path / "busy.xlsx")

    sheet, cell = next(iter(book.defined_names["BusyShare"].destinations))
    assert book[sheet][cell.replace("$", "")].value == pytest.approx(2 / 6)
    row = next(r for r in book[sheet].iter_rows() if r[1].coordinate == cell.replace("$", ""))
    assert row[3].value == "measured from the trace, 2 jobs (85.7% of the GPU-hours allocated)"

    options = book[text("report.wb.sheet.options", "en")]
    header = [c.value for c in options[1]]
    per_busy = header.index(text("report.col.per_busy", "en"))
    by_name = {c["option"]: c["cost_per_busy_gpu_hour"] for c in report["busy"]["costs"]}
    rows = list(options.iter_rows(min_row=2, values_only=True))
    assert len(rows) == len(by_name) == 2
    for values, formula_row in zip(rows, formulas[options.title].iter_rows(min_row=2), strict=True):
        # the model's total / (useful x 1/3), and in the sheet a formula over BusyShare
        assert values[per_busy] == pytest.approx(by_name[values[header.index("Option")]])
        assert str(formula_row[per_busy].value).endswith("/BusyShare")
    # the Chargeback sheet: each team's GPU-hours allocated, with a share, busy, and the
    # share as a formula; team-b: 5 allocated, 4 with a share, 1 busy -> 1 / 4 = 25 %
    charged = book[text("report.sheet.chargeback", "en")]
    teams = {r[0]: r[1:5] for r in charged.iter_rows(values_only=True) if r[0] in TEAMS}
    assert teams["team-a"] == pytest.approx((2.0, 2.0, 1.0, 0.5))
    assert teams["team-b"] == pytest.approx((5.0, 4.0, 1.0, 0.25))


def _page_one(path: Path) -> str:
    reader = program(("pdftotext",), "poppler-utils", "reading the PDF back")
    said = subprocess.run(
        [reader, "-l", "1", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    )
    return " ".join(said.stdout.split())


def test_pdf_page_one_names_the_busy_share_as_an_assumption_in_both_languages(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    scenario = _scenario(tmp_path, "jobs.csv", HAND)
    report = _tco_json(capsys, tmp_path, scenario)
    costs = {c["option"]: c["cost_per_busy_gpu_hour"] for c in report["busy"]["costs"]}
    for lang in ("en", "zh"):
        _tco(
            capsys, tmp_path, str(scenario), "--pdf", str(tmp_path / f"{lang}.pdf"), "--lang", lang
        )
    english, chinese = _page_one(tmp_path / "en.pdf"), _page_one(tmp_path / "zh.pdf")

    assert "GPU busy share (measured)" in english
    assert "33.3% of allocated GPU-hours (known for 2 of 3 jobs, 85.7% of the GPU-hours)" in (
        english
    )
    # the owned option and the chosen (cheapest) one: total / (useful x 1/3)
    said = f"self-hosted ${costs['self-hosted']:,.2f}, rent ${costs['rent']:,.2f}"
    assert f"Per busy GPU-hour (per useful / busy share) {said}" in english
    assert "GPU 繁忙占比（实测）" in chinese
    plain = _scenario(
        tmp_path, "jobs.csv", "\n".join(x.rsplit(",", 1)[0] for x in HAND.splitlines())
    )
    _tco(capsys, tmp_path, str(plain), "--pdf", str(tmp_path / "plain.pdf"))
    assert "busy share (measured)" not in _page_one(tmp_path / "plain.pdf")


SAMPLE = Path(__file__).parents[1] / "data"


def _sample_with_shares(tmp_path: Path) -> tuple[Path, pd.DataFrame]:
    """The bundled sample trace with a busy share per job drawn around 35 % (Beta(35, 65):
    mean 35 / 100, sd 4.7 points; seeded), and the sample TCO scenario pointed at it."""
    jobs = pd.read_csv(SAMPLE / "traces" / "sample.csv")
    rng = np.random.default_rng(35)
    jobs["gpu_util"] = rng.beta(35, 65, len(jobs)).round(4)
    jobs.to_csv(tmp_path / "sample-busy.csv", index=False)
    scenario = yaml.safe_load((SAMPLE / "scenarios" / "sample-tco.yaml").read_text("utf-8"))
    scenario["trace"] = "sample-busy.csv"
    path = tmp_path / "sample-busy.yaml"
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    return path, jobs


def test_a_synthetic_trace_around_35_percent_busy_prices_its_busy_gpu_hours(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    scenario, jobs = _sample_with_shares(tmp_path)
    report = _tco_json(capsys, tmp_path, scenario)
    busy = report["busy"]

    # The share recomputed from the file: the mean of gpu_util weighted by GPU-hours (the
    # job's GPUs, all pods, x run time); every job of the sample ran and has GPUs
    ran = jobs[jobs["gpus"] > 0]
    assert len(ran) == len(jobs) == busy["jobs_known"] == busy["jobs"]
    hours = ran["gpus"] * ran["duration_s"] / 3600
    assert busy["share"] == pytest.approx((hours * ran["gpu_util"]).sum() / hours.sum())
    assert 0.33 < busy["share"] < 0.37
    assert jobs["gpu_util"].mean() == pytest.approx(0.35, abs=0.01)
    for horizon in report["horizons"]:
        for option in horizon["options"]:
            cost = next(
                c
                for c in busy["costs"]
                if c["option"] == option["name"] and c["years"] == horizon["years"]
            )
            # useful GPU-hours as the cost per useful GPU-hour counts them: the demand it
            # served plus what it left unserved and bought elsewhere
            useful = option["useful_gpu_hours"] + option["served_elsewhere_gpu_hours"]
            by_hand = option["total"] / (useful * busy["share"])
            assert cost["cost_per_busy_gpu_hour"] == pytest.approx(by_hand)
