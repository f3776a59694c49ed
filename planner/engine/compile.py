"""Compile the engine's hot modules with mypyc into the folder `planner.engine.compiled` loads
them from: `python -m planner.engine.compile [--out DIR] [--if-stale] [--best-effort]`.

The sources are copied to a scratch folder and built there (`setup.py build_ext --inplace` in
a child process, so this module needs neither setuptools nor mypyc to import); the extensions
and a manifest with the sources' hash then replace the folder's contents. Needs a C compiler,
the interpreter's headers, mypy and setuptools (the `fast` extra). With `--best-effort` a
failed build prints why and exits 0: the engine then runs as plain Python.
"""

import argparse
import json
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from planner.engine.compiled import (
    HASHED,
    MANIFEST,
    MODULES,
    default_folder,
    find_build,
    sources_hash,
)

_SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="planner-engine-compiled",
    packages=[],
    py_modules=[],
    ext_modules=mypycify({paths!r}, opt_level="3", debug_level="0"),
)
"""


class CompileError(RuntimeError):
    """The build failed; the message ends with the compiler's last lines."""


def build(out: Path) -> float:
    """Compile `MODULES` into `out` (replacing what it held); returns the seconds it took."""
    started = time.perf_counter()
    expected = sources_hash()
    with tempfile.TemporaryDirectory(prefix="planner-compile-") as scratch:
        root = Path(scratch)
        for source in HASHED:
            target = root / "planner" / source.name
            target.mkdir(parents=True)
            for path in source.glob("*.py"):
                shutil.copy2(path, target / path.name)
        (root / "planner" / "__init__.py").write_text("", encoding="utf-8")
        paths = [f"planner/engine/{name}.py" for name in MODULES]
        (root / "setup.py").write_text(_SETUP.format(paths=paths), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--inplace"],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-12:])
            raise CompileError(
                "mypyc could not compile the engine (it needs a C compiler and Python's "
                f"headers: gcc and python3-dev on Debian); its last lines:\n{tail}"
            )
        _install(root, out, expected)
    return time.perf_counter() - started


def _install(root: Path, out: Path, expected: str) -> None:
    """Move the built extensions into `out` and write the manifest last, so a build cut
    short leaves no manifest and is never loaded."""
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX"))
    built = {f"planner.engine.{name}": root / "planner" / "engine" / name for name in MODULES}
    # the modules' shared library (one per build, named by a hash) is a top-level module
    for path in root.glob(f"*__mypyc{suffix}"):
        built[path.name.removesuffix(suffix)] = root / path.name.removesuffix(suffix)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    extensions: dict[str, str] = {}
    for module, stem in built.items():
        extensions[module] = f"{module}{suffix}"
        shutil.copy2(f"{stem}{suffix}", out / extensions[module])
    manifest = {"sources": expected, "extensions": extensions}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="default: <venv>/planner-compiled")
    parser.add_argument("--best-effort", action="store_true", help="a failed build exits 0")
    parser.add_argument(
        "--if-stale", action="store_true", help="do nothing if a build of these sources exists"
    )
    args = parser.parse_args()
    out = args.out or default_folder()
    if args.if_stale and not isinstance(find_build(out, sources_hash()), str):
        return 0
    try:
        seconds = build(out)
    except (CompileError, OSError) as err:
        print(f"planner: the engine runs as plain Python: {err}", file=sys.stderr)  # noqa: T201
        return 0 if args.best_effort else 1
    print(f"planner: engine compiled with mypyc into {out} in {seconds:.0f} s")  # noqa: T201
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
