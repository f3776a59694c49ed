"""`planner --help`, `planner synth --help` and `planner prices list`: what a new user reads first."""

import importlib.metadata
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from planner.cli import main
from planner.core.pricing_model import PRICING_MODELS
from planner.engine.wait_scope import WAIT_SCOPE_HELP
from planner.ingest.columns import FIELDS, NODE_FIELDS
from planner.ingest.limits import MAX_UNPACKED_BYTES
from planner.ingest.options import CENSORED_CHOICES, FORMATS
from planner.synth.profiles import PROFILES

HEAVY = ("pandas", "numpy", "duckdb", "plotly", "openpyxl", "xlsxwriter", "reportlab", "fpdf")
# Run `python -m planner ARGS` in this interpreter, then report which heavy modules were loaded.
PROBE = """
import runpy, sys
sys.argv = ["planner", *sys.argv[1:]]
try:
    runpy.run_module("planner", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
heavy = {heavy!r}
print(",".join(name for name in heavy if name in sys.modules))
"""


def help_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


def test_top_level_help_describes_the_tool_not_the_module(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = help_text(capsys)

    assert "argument parsing" not in text
    assert "python -m planner" not in text
    for words in ("job history", "replay", "owning", "renting", "report"):
        assert words in " ".join(text.split())


def test_synth_help_lists_every_profile(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_text(capsys, "synth")

    for name in PROFILES:
        assert any(line.split()[:1] == [name] and "jobs/day" in line for line in text.splitlines())


def test_prices_list_has_a_header_aligned_with_its_rows(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(["prices", "list", "--db", str(tmp_path / "planner.duckdb")])
    header, row, *_ = capsys.readouterr().out.splitlines()

    assert code == 0
    assert header.split()[:2] == ["PROVIDER", "REGION"]
    per_gpu_end = header.index("PER GPU-H") + len("PER GPU-H")
    assert row[per_gpu_end - 1].isdigit()  # right-aligned numbers end under their title
    assert row[per_gpu_end] == " "
    assert row[header.index("CUR") : header.index("CUR") + 3].isalpha()


def test_version_is_the_projects(capsys: pytest.CaptureFixture[str]) -> None:
    # the version pip recorded at install, which is pyproject.toml's (an install older than
    # the checkout's pyproject would show the installed one: `make` reinstalls on a change)
    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]

    with pytest.raises(SystemExit) as exited:
        main(["--version"])

    assert exited.value.code == 0
    assert capsys.readouterr().out == f"planner {project['version']}\n"
    assert importlib.metadata.version(project["name"]) == project["version"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["--version"],
        ["synth", "--help"],
        ["prices", "list", "--help"],
        ["tco", "--help"],
        ["ingest", "--help"],
        ["replay", "--help"],
    ],
)
def test_help_does_not_import_heavy_modules(argv: list[str]) -> None:
    probe = PROBE.format(heavy=HEAVY)
    result = subprocess.run(
        [sys.executable, "-c", probe, *argv], capture_output=True, text=True, check=True
    )

    assert result.stdout.splitlines()[-1] == ""


def test_the_help_lists_the_choices_their_owners_define(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the parser takes these from the modules that own them, which load without pandas (the
    # test above); a copy kept to make the help fast would drift, and this catches it
    ingest = " ".join(help_text(capsys, "ingest").split())
    replay = " ".join(help_text(capsys, "replay").split())
    prices = " ".join(help_text(capsys, "prices", "list").split())

    assert f"--format {{{','.join(FORMATS)}}}" in ingest
    assert f"--censored {{{','.join(CENSORED_CHOICES)}}}" in ingest
    assert (
        f"job history fields: {', '.join(FIELDS)}; node list fields: {', '.join(NODE_FIELDS)}"
        in ingest
    )
    assert f"(default {MAX_UNPACKED_BYTES / (1 << 30):g})" in ingest
    assert f"--format {{{','.join(FORMATS)}}}" in replay
    assert " ".join(WAIT_SCOPE_HELP.split()) in replay
    assert f"--model {{{','.join(PRICING_MODELS)}}}" in prices
