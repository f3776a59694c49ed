"""`planner --help`, `planner synth --help` and `planner prices list`: what a new user reads first."""

import subprocess
import sys
from pathlib import Path

import pytest

from planner.cli import main
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


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["synth", "--help"], ["prices", "list", "--help"], ["tco", "--help"]],
)
def test_help_does_not_import_heavy_modules(argv: list[str]) -> None:
    probe = PROBE.format(heavy=HEAVY)
    result = subprocess.run(
        [sys.executable, "-c", probe, *argv], capture_output=True, text=True, check=True
    )

    assert result.stdout.splitlines()[-1] == ""


def test_the_parsers_copies_of_choices_match_their_owners() -> None:
    from planner.cli import choices
    from planner.engine import metrics
    from planner.ingest import CENSORED_CHOICES, FORMATS
    from planner.ingest.columns import FIELDS
    from planner.ingest.limits import MAX_UNPACKED_BYTES
    from pricing import PRICING_MODELS

    assert choices.FORMATS == FORMATS
    assert choices.CENSORED_CHOICES == CENSORED_CHOICES
    assert choices.FIELDS == FIELDS
    assert choices.MAX_UNPACKED_BYTES == MAX_UNPACKED_BYTES
    assert choices.PRICING_MODELS == PRICING_MODELS
    assert (choices.GPU_JOBS, choices.ALL_JOBS) == (metrics.GPU_JOBS, metrics.ALL_JOBS)
    assert choices.WAIT_SCOPE_HELP == metrics.WAIT_SCOPE_HELP
