"""A file the user asked for is written whole or not at all, and its text cells are safe.

A full disk is played by a file-size limit (RLIMIT_FSIZE) in a child process: a write past it
fails with EFBIG as a write past a full disk fails with ENOSPC, through the same code path.
"""

import json
import re
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from planner.cli.main import main
from planner.service.sweep_keys import apply
from planner.service.tco_files import load_tco_scenario

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 64 * 1024
"""Bytes any file of the child may grow to: more than the good copy, less than the new one."""
WRITE_CALL = re.compile(r"\.(write_bytes|write_text|to_csv|to_parquet|to_excel)\(|\.open\(\s*\"w")
IN_PLACE_ALLOWED = {
    # not a user's file: the build folder of the compiled engine, rebuilt whole on failure
    "planner/engine/compile.py",
    # an upload's bytes to a private temporary folder, read back at once
    "planner/ui/uploads.py",
    "planner/ui/prices_view.py",
    # the Prometheus import writes the rows it read to a private temporary folder, read back at once
    "planner/service/prometheus_import.py",
    # Dask ships the price book to its workers through a temporary file of its own
    "planner/service/sweep_dask.py",
    # the process pool's job columns go to a temporary folder of the sweep's own, removed after it
    "planner/service/sweep_ship.py",
    # and the bills its parent made once, beside the columns in that folder
    "planner/service/sweep_bills.py",
    # to_csv() with no path returns text; the callers write that text
    "planner/report/csv_table.py",
    "planner/ui/fill_view.py",
}


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a killed process


def _child(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        preexec_fn=_limited,
        check=False,
    )


def test_a_failed_write_leaves_the_old_file_and_no_part(tmp_path: Path) -> None:
    target = tmp_path / "report.xlsx"
    target.write_bytes(b"the good copy")
    code = (
        "from pathlib import Path\n"
        "from planner.core import atomic_file\n"
        f"atomic_file.write_bytes(Path({str(target)!r}), b'x' * {4 * LIMIT})\n"
    )
    done = _child(code, tmp_path)

    assert done.returncode != 0
    assert "File too large" in done.stderr
    assert target.read_bytes() == b"the good copy"
    assert [p.name for p in tmp_path.iterdir()] == ["report.xlsx"]


def test_a_whole_write_replaces_the_file_and_keeps_its_mode(tmp_path: Path) -> None:
    from planner.core import atomic_file

    target = tmp_path / "out.csv"
    target.write_text("old")
    target.chmod(0o640)
    atomic_file.write_text(target, "new,text\n")

    assert target.read_text() == "new,text\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_the_cli_on_a_full_disk_says_one_line_and_keeps_the_good_file(tmp_path: Path) -> None:
    target = tmp_path / "trace.csv"
    assert main(["synth", "--profile", "philly", "--jobs", "20", "--out", str(target)]) == 0
    good = target.read_bytes()
    code = (
        "import sys\n"
        "from planner.cli.main import main\n"
        "sys.exit(main(['synth', '--profile', 'philly', '--jobs', '5000', "
        f"'--out', {str(target)!r}]))\n"
    )
    done = _child(code, tmp_path)

    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: --out ")
    assert "cannot write (File too large): the disk" in lines[0]
    assert "file-size limit is full" in lines[0]
    assert target.read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == ["trace.csv"]


def test_no_writer_of_a_users_file_writes_in_place() -> None:
    """Every writer goes through `planner.core.atomic_file` (a new one must too)."""
    offenders = []
    for path in sorted([*ROOT.glob("planner/**/*.py"), *ROOT.glob("pricing/**/*.py")]):
        name = path.relative_to(ROOT).as_posix()
        if name in IN_PLACE_ALLOWED or name == "planner/core/atomic_file.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if WRITE_CALL.search(line) and "atomic_file" not in line and "(part" not in line:
                offenders.append(f"{name}:{number}: {line.strip()}")
    assert offenders == []


def test_a_sweep_csv_makes_option_names_safe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = load_tco_scenario(ROOT / "data" / "scenarios" / "sample-tco.yaml")
    trace = str(ROOT / "data" / "traces" / "sample.csv")
    small = apply(sample, (("servers", 8),)).model_copy(update={"hybrid": None, "trace": trace})
    risky = small.cloud[0].model_copy(update={"name": "=1+1 cloud"})
    scenario = small.model_copy(update={"cloud": (risky,)})
    path = tmp_path / "risky.yaml"
    path.write_text(json.dumps(scenario.model_dump(mode="json", exclude_unset=True)))
    out = tmp_path / "points.csv"
    argv = ["sweep", "--scenario", str(path), "--db", str(tmp_path / "db.duckdb")]

    assert main([*argv, "--vary", "servers=8", "--workers", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    options = pd.read_csv(out)["option"].tolist()
    assert "'=1+1 cloud" in options
    assert not any(str(o).startswith("=") for o in options)
