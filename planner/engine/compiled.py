"""The engine's hot modules as mypyc-compiled extensions, where a build matches the sources.

`make app` and `make test` compile `MODULES` (`python -m planner.engine.compile`) into
`<venv>/planner-compiled/`, beside a manifest naming each extension and a hash of the sources
it was built from. Importing `planner.engine` calls `use_compiled()`, which puts a finder in
front of the import system that loads those extensions instead of the `.py` files, but only
while the hash still matches the sources on disk: a build older than an edit is never run
(the engine is then plain Python, and `status()` says why). The results are the same either
way, to the bit (`tests/test_compiled_engine.py` runs the golden replays both ways);
compiled, the loop runs about twice as fast. `PLANNER_PURE_PYTHON=1` turns the build off.
"""

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

MODULES = (
    "arrivals",
    "backfill",
    "by_end",
    "cluster",
    "events",
    "event_heap",
    "evictions",
    "fill",
    "fragmentation",
    "gang",
    "hooks",
    "loop",
    "node_states",
    "outcome",
    "placement",
    "placement_best_fit",
    "placement_fgd",
    "placement_plugin",
    "placement_random",
    "placement_resource_fit",
    "placements",
    "pod_fit",
    "queueing",
    "reasons",
    "selection",
    "shapes",
    "single_pod",
    "states",
    "timeline",
    "withdrawals",
)
"""The engine modules compiled (the loop and what it calls per event; the fill protocol)."""

PURE_ENV = "PLANNER_PURE_PYTHON"
FOLDER_ENV = "PLANNER_COMPILED_DIR"
MANIFEST = "manifest.json"
PACKAGE = Path(__file__).resolve().parent
HASHED = (PACKAGE, PACKAGE.parent / "core")
"""Compiled code checks the types it is handed, so a change to the core's types it uses, not
only to the compiled modules, makes a build stale."""


@dataclass(frozen=True, slots=True)
class Build:
    folder: Path
    extensions: dict[str, str]
    """Module name -> extension file, relative to `folder` (the compiled modules and the
    shared library they are linked in)."""


def default_folder() -> Path:
    """`$PLANNER_COMPILED_DIR`, else `planner-compiled` in the running environment (the venv)."""
    return Path(os.environ.get(FOLDER_ENV) or Path(sys.prefix) / "planner-compiled")


def sources_hash(roots: Sequence[Path] = HASHED) -> str:
    """A hash of every `.py` file under `roots` and of this interpreter's extension ABI."""
    digest = hashlib.sha256(str(sysconfig.get_config_var("EXT_SUFFIX")).encode())
    for root in roots:
        for path in sorted(root.glob("*.py")):
            digest.update(f"{root.name}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def find_build(folder: Path, expected: str) -> Build | str:
    """The build in `folder` if it was made from sources hashing to `expected`, else why not."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"no compiled engine in {folder} (make app or make test builds it)"
    except (OSError, ValueError) as err:
        return f"the compiled engine's manifest in {folder} cannot be read ({err})"
    if manifest.get("sources") != expected:
        return f"the compiled engine in {folder} is older than the sources (make rebuilds it)"
    extensions = dict(manifest.get("extensions", {}))
    missing = [name for name, file in extensions.items() if not (folder / file).is_file()]
    if missing or not extensions:
        return f"the compiled engine in {folder} is incomplete (missing {', '.join(missing)})"
    return Build(folder, extensions)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the build's modules in its folder; every other name is left to the usual finders."""

    def __init__(self, build: Build) -> None:
        self.build = build

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.build.extensions.get(fullname)
        if file is None:
            return None
        location = str(self.build.folder / file)
        loader = importlib.machinery.ExtensionFileLoader(fullname, location)
        return importlib.util.spec_from_file_location(fullname, location, loader=loader)


_state = {"status": "not looked for yet"}


def use_compiled() -> None:
    """Load the compiled modules from now on if a current build exists (once per process)."""
    if in_use():
        return
    if os.environ.get(PURE_ENV) == "1":
        _state["status"] = f"plain Python ({PURE_ENV}=1)"
        return
    found = find_build(default_folder(), sources_hash())
    if isinstance(found, str):
        _state["status"] = f"plain Python: {found}"
        return
    sys.meta_path.insert(0, _Finder(found))
    _state["status"] = f"compiled ({len(MODULES)} modules, {found.folder})"


def in_use() -> bool:
    return any(isinstance(f, _Finder) for f in sys.meta_path)


def status() -> str:
    """What runs: the compiled engine and where it is, or plain Python and why."""
    return _state["status"]
