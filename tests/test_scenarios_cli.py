"""`planner scenarios ...`: a saved scenario, exported, runs on `planner replay/tco
--scenario` with the same numbers as `planner scenarios run` and as the page's saved run."""

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from planner.cli import main
from planner.core.file_access import FileAccess
from planner.service import scenario_store
from planner.store import connect

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "data" / "scenarios"
TRACE_CSV = "job_id,submit_time,duration,num_gpu\n" + "".join(
    f"j{i},{i * 300},{1800 + 97 * i},{1 + i % 8}\n" for i in range(60)
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "planner.duckdb"


@pytest.fixture
def replay_file(tmp_path: Path) -> Path:
    (tmp_path / "jobs.csv").write_text(TRACE_CSV, encoding="utf-8")
    path = tmp_path / "small.yaml"
    path.write_text(
        "name: two nodes\ntrace: jobs.csv\n"
        "cluster: {pools: [{gpu_type: A100, gpus_per_node: 8, count: 2}]}\n"
        "policy: {queueing: backfill, seed: 7}\n",
        encoding="utf-8",
    )
    return path


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = cli(capsys, *argv)
    assert code == 0, err
    return json.loads(out)


def test_a_saved_replay_exported_runs_on_the_cli_with_the_same_numbers(
    capsys: pytest.CaptureFixture[str], db: Path, replay_file: Path, tmp_path: Path
) -> None:
    assert cli(capsys, "scenarios", "save", str(replay_file), "--db", str(db))[0] == 0
    exported = tmp_path / "exported.yaml"
    assert (
        cli(capsys, "scenarios", "export", "two nodes", "-o", str(exported), "--db", str(db))[0]
        == 0
    )

    stored = cli_json(capsys, "scenarios", "run", "two nodes", "--json", "--db", str(db))
    direct = cli_json(capsys, "replay", "--scenario", str(exported), "--json", "--db", str(db))
    original = cli_json(capsys, "replay", "--scenario", str(replay_file), "--json", "--db", str(db))

    assert stored == direct == original
    assert stored["jobs"] == 60
    assert stored["wait_s"]["p95"] > 0  # a busy cluster: the numbers compared are not zeros
    assert yaml.safe_load(exported.read_text())["trace"] == stored["trace_id"]


@pytest.mark.parametrize("name", ["worked-example-h100.yaml", "cloud-on-demand.yaml"])
def test_a_saved_tco_scenario_exported_runs_on_the_cli_with_the_same_numbers(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path, name: str
) -> None:
    source = SCENARIOS / name
    assert cli(capsys, "scenarios", "save", str(source), "--name", "t", "--db", str(db))[0] == 0
    exported = tmp_path / "t.yaml"
    cli(capsys, "scenarios", "export", "t", "-o", str(exported), "--db", str(db))

    stored = cli_json(capsys, "scenarios", "run", "t", "--json", "--db", str(db))
    direct = cli_json(capsys, "tco", "--scenario", str(exported), "--json", "--db", str(db))
    original = cli_json(capsys, "tco", "--scenario", str(source), "--json", "--db", str(db))

    assert stored == direct
    assert stored["horizons"] == original["horizons"]
    assert stored["horizons"][0]["options"][0]["total"] > 0


def test_a_scenario_saved_from_code_runs_on_the_cli_as_stored(
    capsys: pytest.CaptureFixture[str], db: Path, replay_file: Path, tmp_path: Path
) -> None:
    """What a page does: prepare, run, save with its results; the CLI then reproduces them."""
    with connect(db) as con:
        files = FileAccess.local(replay_file.parent)
        prepared = scenario_store.prepare(con, replay_file.read_text(), "upload.yaml", files)
        results = scenario_store.run_yaml(con, prepared.yaml_text, "upload.yaml", files=files)
        scenario_store.save(con, "from page", prepared, results=results)
    exported = tmp_path / "page.yaml"
    cli(capsys, "scenarios", "export", "from page", "-o", str(exported), "--db", str(db))

    direct = cli_json(capsys, "replay", "--scenario", str(exported), "--json", "--db", str(db))
    shown = cli_json(capsys, "scenarios", "show", "from page", "--json", "--db", str(db))

    assert shown["results"] == "current"
    assert shown["results_data"] == direct


def test_saving_a_taken_name_fails_clearly_unless_replaced(
    capsys: pytest.CaptureFixture[str], db: Path, replay_file: Path
) -> None:
    cli(capsys, "scenarios", "save", str(replay_file), "--db", str(db))

    code, _, err = cli(capsys, "scenarios", "save", str(replay_file), "--db", str(db))

    assert code == 2
    assert "error: a scenario named 'two nodes' exists already" in err
    code, out, _ = cli(capsys, "scenarios", "save", str(replay_file), "--replace", "--db", str(db))
    assert code == 0
    assert "saved 'two nodes'" in out


def test_list_shows_whether_results_are_current(
    capsys: pytest.CaptureFixture[str], db: Path, replay_file: Path
) -> None:
    cli(capsys, "scenarios", "save", str(replay_file), "--db", str(db))
    before = cli_json(capsys, "scenarios", "list", "--json", "--db", str(db))
    cli(capsys, "scenarios", "run", "two nodes", "--db", str(db))
    after = cli_json(capsys, "scenarios", "list", "--json", "--db", str(db))
    replay_file.write_text(replay_file.read_text().replace("count: 2", "count: 3"))
    cli(capsys, "scenarios", "save", str(replay_file), "--replace", "--db", str(db))
    changed = cli_json(capsys, "scenarios", "list", "--json", "--db", str(db))

    assert [(r["name"], r["kind"], r["results"]) for r in before] == [
        ("two nodes", "replay", "not run")
    ]
    assert after[0]["results"] == "current"
    assert changed[0]["results"] == "stale"


def test_delete_and_unknown_names(
    capsys: pytest.CaptureFixture[str], db: Path, replay_file: Path
) -> None:
    cli(capsys, "scenarios", "save", str(replay_file), "--name", "gone", "--db", str(db))

    assert cli(capsys, "scenarios", "delete", "gone", "--db", str(db))[0] == 0

    code, _, err = cli(capsys, "scenarios", "show", "gone", "--db", str(db))
    assert code == 2
    assert "no saved scenario named 'gone'" in err
    _, out, _ = cli(capsys, "scenarios", "list", "--db", str(db))
    assert "no saved scenarios yet" in out


def test_text_output_of_run_and_show(
    capsys: pytest.CaptureFixture[str], db: Path, replay_file: Path
) -> None:
    cli(capsys, "scenarios", "save", str(replay_file), "--db", str(db))

    _, run_text, _ = cli(capsys, "scenarios", "run", "two nodes", "--db", str(db))
    _, show_text, _ = cli(capsys, "scenarios", "show", "two nodes", "--db", str(db))

    assert "jobs 60: completed 60" in run_text
    assert show_text.startswith("two nodes (replay), trace ")
    assert "results: current" in show_text
    assert "policy: {queueing: backfill, seed: 7}" in show_text
