"""The compiled engine (mypyc, `planner.engine.compiled`) is the one that runs, it gives the
plain-Python engine's results to the bit, and a build that no longer matches the sources is
never loaded.

`make test` compiles the engine before the tests, so this run replays on the compiled modules;
`tests/test_engine_golden.py` then checks them against digests recorded from plain Python, and
the test below runs the same golden file again with `PLANNER_PURE_PYTHON=1`.
"""

import gc
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import planner.engine  # noqa: F401 - installs the compiled engine's finder
from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine import compiled, loop, simulate
from planner.engine.compiled import MANIFEST, PURE_ENV, Build, find_build, sources_hash
from planner.engine.policy import Policy

ROOT = Path(__file__).resolve().parents[1]
PURE = os.environ.get(PURE_ENV) == "1"


def test_this_run_replays_on_the_engine_it_says() -> None:
    """Compiled unless PLANNER_PURE_PYTHON=1; `make test` builds it, so a missing or stale build
    fails here rather than quietly testing plain Python only."""
    if PURE:
        assert not compiled.in_use()
        assert loop.__file__ is not None
        assert loop.__file__.endswith(".py"), loop.__file__
        assert PURE_ENV in compiled.status()
        return
    assert compiled.in_use(), compiled.status()
    assert loop.__file__ is not None
    assert loop.__file__.endswith(str(sysconfig.get_config_var("EXT_SUFFIX"))), loop.__file__
    assert compiled.status().startswith("compiled"), compiled.status()


@pytest.mark.skipif(PURE, reason="this run is the plain-Python one")
def test_plain_python_engine_gives_the_golden_results_too() -> None:
    """The golden replays and fill curves, replayed by the plain-Python engine in a child
    process, match the same recorded digests the compiled engine matched in this one."""
    env = {**os.environ, PURE_ENV: "1"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "tests/test_engine_golden.py",
            "tests/test_compiled_engine.py::test_this_run_replays_on_the_engine_it_says",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout


def _manifest(folder: Path, sources: str, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MANIFEST).write_text(json.dumps({"sources": sources, "extensions": files}))


def test_a_build_of_other_sources_is_not_loaded(tmp_path: Path) -> None:
    (tmp_path / "planner.engine.loop.so").write_bytes(b"")
    _manifest(tmp_path, "an older hash", {"planner.engine.loop": "planner.engine.loop.so"})
    found = find_build(tmp_path, sources_hash())
    assert isinstance(found, str)
    assert "older than the sources" in found


def test_a_build_with_a_missing_extension_is_not_loaded(tmp_path: Path) -> None:
    _manifest(tmp_path, "h", {"planner.engine.loop": "planner.engine.loop.so"})
    found = find_build(tmp_path, "h")
    assert isinstance(found, str)
    assert "incomplete" in found
    assert "planner.engine.loop" in found


def test_no_build_and_an_unreadable_manifest_say_why(tmp_path: Path) -> None:
    missing = find_build(tmp_path, "h")
    assert isinstance(missing, str)
    assert "no compiled engine" in missing
    (tmp_path / MANIFEST).write_text("{not json")
    broken = find_build(tmp_path, "h")
    assert isinstance(broken, str)
    assert "cannot be read" in broken


def test_a_current_complete_build_is_found(tmp_path: Path) -> None:
    (tmp_path / "x.so").write_bytes(b"")
    _manifest(tmp_path, "h", {"planner.engine.loop": "x.so"})
    assert find_build(tmp_path, "h") == Build(tmp_path, {"planner.engine.loop": "x.so"})


def test_the_hash_changes_with_any_engine_or_core_source(tmp_path: Path) -> None:
    engine, core = tmp_path / "engine", tmp_path / "core"
    engine.mkdir()
    core.mkdir()
    (engine / "loop.py").write_text("x = 1\n")
    (core / "model.py").write_text("y = 1\n")
    before = sources_hash((engine, core))
    (core / "model.py").write_text("y = 2\n")
    after_core = sources_hash((engine, core))
    (engine / "new.py").write_text("")
    after_new = sources_hash((engine, core))
    assert len({before, after_core, after_new}) == 3


@pytest.mark.parametrize(
    "policy",
    [
        {"queueing": "fifo"},
        {"queueing": "strict-fifo"},
        {"queueing": "backfill"},
        {"queueing": "fifo", "admission": "pod"},
    ],
)
def test_a_finished_replay_leaves_nothing_behind(policy: dict[str, str]) -> None:
    """No replay outlives `simulate` (a sweep worker replays hundreds in a row). mypyc leaked
    a reference to the replay when interpreted code built a compiled queueing."""
    jobs = [Job(f"j{i}", float(i), 100.0, gpus=8.0) for i in range(20)]
    nodes = [NodeSpec(f"n{k}", "A100", 8, 64, 512) for k in range(2)]
    for _ in range(3):
        simulate(jobs, nodes, Policy(**policy))  # type: ignore[arg-type]
    gc.collect()

    assert [o for o in gc.get_objects() if type(o).__name__ == "Replay"] == []
