"""The CLI's text output shows control characters from names as escapes: a scenario or
option name holding ESC sequences cannot clear, recolour or retitle the terminal."""

import json
from datetime import datetime
from pathlib import Path

import pytest

from planner.cli import main
from planner.cli.output import visible

SCENARIOS = Path(__file__).parent.parent / "data" / "scenarios"
CLEAR = "\x1b[2J\x1b[H"  # clear the screen, cursor home
TITLE = "\x1b]0;pwned\x07"  # set the window title
CSI = "\x9b31m"  # C1 control: one-byte CSI, red


def test_control_characters_become_escapes_and_text_stays() -> None:
    assert visible(f"a{CLEAR}b") == "a\\x1b[2J\\x1b[Hb"
    assert visible(TITLE) == "\\x1b]0;pwned\\x07"
    assert visible(CSI) == "\\x9b31m"
    assert visible("right-to-left \u202eevil") == "right-to-left \\u202eevil"
    assert visible("tab\tand\nnewline, 东京 ×") == "tab\tand\nnewline, 东京 ×"


def test_tco_text_output_shows_escapes_from_the_scenario_and_option_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (SCENARIOS / "worked-example-h100.yaml").read_text(encoding="utf-8")
    text = text.replace("name: worked example, one 8xH100 server", f"name: {json.dumps(CLEAR)}")
    text = text.replace("name: RunPod Community H100", f"name: {json.dumps(TITLE + CSI)}")
    scenario = tmp_path / "hostile.yaml"
    scenario.write_text(text, encoding="utf-8")

    code = main(["tco", "--scenario", str(scenario), "--db", str(tmp_path / "p.duckdb")])

    out = capsys.readouterr().out
    assert code == 0
    assert "\x1b" not in out
    assert "\x9b" not in out
    assert out.startswith("\\x1b[2J\\x1b[H: ")
    assert "\\x1b]0;pwned\\x07\\x9b31m" in out


def test_json_output_is_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (SCENARIOS / "worked-example-h100.yaml").read_text(encoding="utf-8")
    text = text.replace("name: worked example, one 8xH100 server", f"name: {json.dumps(CLEAR)}")
    scenario = tmp_path / "hostile.yaml"
    scenario.write_text(text, encoding="utf-8")
    args = ["tco", "--scenario", str(scenario), "--db", str(tmp_path / "p.duckdb"), "--json"]

    assert main(args) == 0

    assert json.loads(capsys.readouterr().out)["scenario"] == CLEAR


@pytest.mark.parametrize("name", ["red \x1b[31malert", "two\nlines", "car\rriage", "\u202eevil"])
def test_scenarios_save_refuses_a_name_with_a_control_character(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    db = str(tmp_path / "p.duckdb")
    source = str(SCENARIOS / "worked-example-h100.yaml")

    code = main(["scenarios", "save", source, "--name", name, "--db", db])

    err = capsys.readouterr().err
    assert code == 2
    assert "the name has a control character (U+" in err
    assert "\x1b" not in err
    assert main(["scenarios", "list", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_a_files_name_with_a_line_break_is_refused_as_the_saved_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (SCENARIOS / "worked-example-h100.yaml").read_text(encoding="utf-8")
    scenario = tmp_path / "two-lines.yaml"
    two_lines = text.replace("name: worked example, one 8xH100 server", 'name: "worked\\nexample"')
    scenario.write_text(two_lines, encoding="utf-8")

    code = main(["scenarios", "save", str(scenario), "--db", str(tmp_path / "p.duckdb")])

    assert code == 2
    assert "control character (U+000A" in capsys.readouterr().err


def test_synth_json_is_json_with_iso_times(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s.csv"
    args = ["synth", "--profile", "llm", "--jobs", "20", "--seed", "5", "--out", str(out)]

    assert main([*args, "--json"]) == 0

    data = json.loads(capsys.readouterr().out)
    assert data["path"] == str(out)
    assert data["jobs"] == 20
    first = datetime.fromisoformat(data["first_submit"])
    assert first.utcoffset() is not None
    assert "T" in data["first_submit"]
