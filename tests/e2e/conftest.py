"""Real-browser fixtures: Debian's Chromium, and the app served by `streamlit run`.

Browsers are never downloaded (`playwright install` is not used): Playwright drives the
`chromium` binary from the Debian package, installed here on first use if it is missing.
"""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEALTH_TIMEOUT_S = 60
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# The health check must not go through an HTTP proxy set in the environment.
_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _run(command: list[str]) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        result = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    except OSError as err:
        pytest.fail(f"cannot install Debian's chromium: `{' '.join(command)}` failed: {err}")
    if result.returncode != 0:
        pytest.fail(
            f"cannot install Debian's chromium: `{' '.join(command)}` exited with "
            f"{result.returncode}:\n{result.stderr[-2000:]}\nInstall it (apt-get install chromium) "
            "or run the quick loop with -m 'not e2e'."
        )


@pytest.fixture(scope="session")
def chromium() -> str:
    """Path of Debian's Chromium, installing the package with apt-get if it is absent."""
    path = shutil.which("chromium")
    if path is None:
        _run(["apt-get", "update"])
        _run(["apt-get", "install", "-y", "chromium"])
        path = shutil.which("chromium")
    if path is None:
        pytest.fail("apt-get installed chromium but no `chromium` binary is on PATH")
    return path


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], chromium: str
) -> dict[str, Any]:
    """pytest-playwright's launch arguments, pointed at Debian's Chromium, kept offline."""
    return {**browser_type_launch_args, "executable_path": chromium, "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 1100}}


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


def _wait_until_healthy(server: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + HEALTH_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"streamlit exited with {server.returncode}:\n{log.read_text()[-3000:]}")
        if _healthy(url):
            return
        time.sleep(0.25)
    pytest.fail(f"{url} not healthy after {HEALTH_TIMEOUT_S} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`streamlit run streamlit_app.py` on a free port with a fresh database; its URL."""
    work = tmp_path_factory.mktemp("e2e-app")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = work / "streamlit.log"
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
    ]
    env = {**os.environ, "PLANNER_DB": str(work / "planner.duckdb")}
    with log.open("wb") as out:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_until_healthy(server, url, log)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
