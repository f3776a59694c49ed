"""The app served by `streamlit run` on a free local port, for the browser tests.

Several servers may start at once (pytest-xdist workers, other test runs on the machine): a
port found free can be taken before streamlit binds it. A server that exits before it is
healthy is therefore started again on another port, a few times, before the test fails.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEALTH_TIMEOUT_S = 120  # a ceiling on a busy machine, not a pause
HEALTH_PROBE_S = 0.25  # the longest a probe waits on the process before asking again
START_ATTEMPTS = 3  # a port lost to another process between the probe and the bind
# The health check must not go through an HTTP proxy set in the environment.
_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _healthy(url: str) -> bool:
    try:
        with _LOCAL.open(f"{url}/_stcore/health", timeout=2) as response:
            return bool(response.read().decode().strip() == "ok")
    except OSError:
        return False


def _wait_until_healthy(server: subprocess.Popen[bytes], url: str, log: Path) -> bool:
    """Until the health endpoint answers "ok" (True) or the server exits (False, at once)."""
    deadline = time.monotonic() + HEALTH_TIMEOUT_S
    while not _healthy(url):
        if time.monotonic() > deadline:
            pytest.fail(f"{url} not healthy after {HEALTH_TIMEOUT_S} s:\n{log.read_text()[-3000:]}")
        try:  # between two probes, wait on the process: its exit ends the wait at once
            server.wait(timeout=HEALTH_PROBE_S)
        except subprocess.TimeoutExpired:
            continue
        return False
    # "ok" from another process that holds the port while ours failed to bind it
    return server.poll() is None


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def _start(work: Path, options: tuple[str, ...]) -> tuple[subprocess.Popen[bytes], str]:
    """A healthy server on a free port; started again on another port if it exits first."""
    log = work / "streamlit.log"
    healthy = False
    for _ in range(START_ATTEMPTS):
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        command = [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(ROOT / "streamlit_app.py"),
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--server.fileWatcherType",
            "none",
            *options,
        ]
        env = {**os.environ, "PLANNER_DB": str(work / "planner.duckdb")}
        with log.open("wb") as out:
            server = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            )
        try:
            healthy = _wait_until_healthy(server, url, log)
        finally:  # a timeout fails the test: the server must not outlive it
            if not healthy:
                _stop(server)
        if healthy:
            return server, url
    pytest.fail(f"streamlit exited with {server.returncode}:\n{log.read_text()[-3000:]}")


@contextmanager
def serve_app(work: Path, *options: str) -> Iterator[str]:
    """`streamlit run streamlit_app.py` on a free port with a fresh database in `work`, extra
    `--config.option value` pairs in `options`; yields its URL and stops it afterwards."""
    server, url = _start(work, options)
    try:
        yield url
    finally:
        _stop(server)
