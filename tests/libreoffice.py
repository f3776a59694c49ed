"""LibreOffice headless as the tests' spreadsheet engine: it opens workbooks openpyxl wrote
(formulas without cached values), recalculates every formula and saves them again, so the
tests read what Excel or LibreOffice would show.

Debian's `libreoffice-calc-nogui` is installed with apt-get on first use when no `soffice` is on
PATH (as tests/e2e/conftest.py installs chromium); without root or apt the test fails saying how
to install it. One `soffice` run converts every workbook given (start-up takes seconds).
"""

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.debian import program

PACKAGE = "libreoffice-calc-nogui"


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ}
    try:
        return subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    except OSError as err:
        pytest.fail(f"`{' '.join(command)}` could not run: {err}")


def soffice() -> str:
    """Path of LibreOffice's `soffice`, installing Debian's package if it is absent."""
    return program(("soffice", "libreoffice"), PACKAGE, "recalculating the workbook")


def recalculate(workbooks: Sequence[Path], out_dir: Path) -> list[Path]:
    """Each workbook opened, recalculated and saved by LibreOffice into `out_dir` (same
    file names, so give distinct ones); one LibreOffice run for all of them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    profile = out_dir / "profile"
    command = [
        soffice(),
        f"-env:UserInstallation={profile.resolve().as_uri()}",
        "--headless",
        "--norestore",
        "--convert-to",
        "xlsx",
        "--outdir",
        str(out_dir),
        *(str(p) for p in workbooks),
    ]
    result = _run(command)
    out = [out_dir / p.name for p in workbooks]
    missing = [p.name for p in out if not p.is_file()]
    if result.returncode != 0 or missing:
        pytest.fail(
            f"LibreOffice did not recalculate {missing or 'the workbooks'} (exit "
            f"{result.returncode}):\n{result.stdout[-1000:]}\n{result.stderr[-2000:]}"
        )
    return out
