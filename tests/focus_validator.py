"""The FinOps Foundation's `focus-validator` as the tests' judge of a FOCUS export.

It cannot live in our environment: 1.0.0 (the newest for Python 3.11; 2.x needs 3.12) pins
pandas<3 and numpy<2 and needs `multimethod<2` beside it. So, as tests/libreoffice.py
installs LibreOffice, the first use builds it a venv of its own with `python -m venv` and pip
(which reaches the package registry) under ~/.cache (or $PLANNER_TEST_CACHE), once; a lock
keeps parallel test workers from building it twice, and a marker file says it is whole.
"""

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

VERSION = "1.0.0"
REQUIREMENTS = (f"focus-validator=={VERSION}", "multimethod<2")
PASSED = "Validation succeeded."


def _home() -> Path:
    base = os.environ.get("PLANNER_TEST_CACHE") or Path.home() / ".cache" / "gpu-planner"
    return Path(base) / f"focus-validator-{VERSION}"


def _run(command: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(command, capture_output=True, text=True, cwd=cwd, check=False)
    except OSError as err:
        pytest.fail(f"`{' '.join(command)}` could not run: {err}")


def _venv() -> Path:
    """The validator's venv, built on first use."""
    home = _home()
    home.mkdir(parents=True, exist_ok=True)
    venv, ready = home / "venv", home / "ready"
    with (home / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready.is_file():
            for command in (
                [sys.executable, "-m", "venv", "--clear", str(venv)],
                [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *REQUIREMENTS],
            ):
                done = _run(command)
                if done.returncode != 0:
                    pytest.fail(
                        f"cannot build the FOCUS validator's venv: `{' '.join(command)}` "
                        f"exited with {done.returncode}:\n{done.stderr[-2000:]}"
                    )
            ready.write_text(VERSION)
    return venv


def validate(export: Path) -> str:
    """The validator's report on `export` (FOCUS 1.0); fails the test with it unless valid."""
    python = _venv() / "bin" / "python"
    found = _run([str(python), "-c", "import focus_validator, os; print(os.path.dirname(focus_validator.__file__))"])  # fmt: skip
    # It reads its currency codes from the relative path focus_validator/utils/..., so it
    # runs from the folder that holds the package.
    site = Path(found.stdout.strip()).parent
    done = _run(
        [str(python), "-m", "focus_validator.main", "--data-file", str(export.resolve())],
        cwd=site,
    )
    said = f"{done.stdout}\n{done.stderr}"
    # It exits 0 on a failed validation too: its words are the verdict.
    if done.returncode != 0 or PASSED not in done.stdout or "failed" in done.stdout:
        pytest.fail(f"focus-validator {VERSION} rejects {export.name}:\n{said[-4000:]}")
    return said
