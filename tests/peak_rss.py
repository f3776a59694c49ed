"""`planner ingest` in a process of its own, with that process's peak memory."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

# Runs a command and reports the peak RSS (KiB) of that command alone on its last stderr line.
PEAK_RSS_WRAPPER = (
    "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
    "sys.exit(done.returncode)"
)


def ingest_with_peak(path: Path, **more_env: str) -> tuple[dict[str, Any], float]:
    """The `--json` report and the peak RSS (MiB) of importing `path` into a fresh database
    beside it (`more_env`: PLANNER_DB_MEMORY and the like)."""
    env = {**os.environ, "PLANNER_DB": str(path.with_suffix(".duckdb")), **more_env}
    command = [sys.executable, "-c", PEAK_RSS_WRAPPER, sys.executable, "-m", "planner"]
    done = subprocess.run(
        [*command, "ingest", str(path), "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), int(done.stderr.strip().splitlines()[-1]) / 1024
