"""Debian packages the tests need and install themselves on first use (chromium for the
browser tests, LibreOffice to recalculate workbooks, poppler to read PDFs back, a CJK font for
the Chinese PDF): as root with apt-get, or a failure that says what to install."""

import os
import shutil
import subprocess

import pytest


def apt_install(package: str, why: str) -> None:
    """Install `package` with apt-get (as root), or fail saying how to get it."""
    if os.geteuid() != 0:
        pytest.fail(f"{why} needs the Debian package {package}: run `apt-get install {package}`")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (
        ["apt-get", "update"],
        # Several test modules may install at once: wait for dpkg's lock instead of failing.
        ["apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y", package],
    ):
        try:
            done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        except OSError as err:
            pytest.fail(f"cannot install {package} for {why}: `{' '.join(command)}`: {err}")
        if done.returncode != 0:
            pytest.fail(
                f"cannot install {package} for {why}: `{' '.join(command)}` exited with "
                f"{done.returncode}:\n{done.stderr[-2000:]}\nInstall it with apt-get."
            )


def program(names: tuple[str, ...], package: str, why: str) -> str:
    """Path of the first of `names` on PATH, installing `package` first if none is."""
    found = next(filter(None, map(shutil.which, names)), None)
    if found is None:
        apt_install(package, why)
        found = next(filter(None, map(shutil.which, names)), None)
    if found is None:
        pytest.fail(f"apt-get installed {package} but none of {', '.join(names)} is on PATH")
    return found
