"""Which files a scenario's `trace:` and `cluster.node_list:` may name, decided at the edge.

The CLI reads scenarios on the user's own machine, so they may name any local file
(`FileAccess.local`). The app runs on a server for whoever opens it, and a scenario uploaded,
saved or edited there is that user's text: it may name only stored traces (by id or name) and
files under the bundled `data/traces/` (`BUNDLED_FILES`). A reference is resolved with its
symlinks followed and must stay inside that folder: an absolute path, a `..` or a symlink
leading out is refused, with the same message whether or not the file exists, and the
message never quotes a file. The database lives in `data/`, so the app's folder is the
narrower `data/traces/`.
"""

from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Literal

from planner.core.errors import ScenarioError

DATA = Path(__file__).resolve().parents[2] / "data"
SCENARIOS = DATA / "scenarios"
Field = Literal["trace", "cluster.node_list"]
_HINTS: dict[Field, str] = {
    "trace": "import the file on the Job history page, then name its trace id",
    "cluster.node_list": "import the node list on the Cluster & policy page instead",
}


@dataclass(frozen=True, slots=True)
class FileAccess:
    """Where a scenario's file references may point, and what relative ones are relative to."""

    root: Path | None
    """Every file must resolve inside this folder; None: any local file (the CLI)."""
    base: Path | None = None
    """Relative references start here (the scenario's folder); None: the working folder."""

    @classmethod
    def local(cls, base: Path | None = None) -> "FileAccess":
        """Any local file; relative references are looked up under `base` first."""
        return cls(None, base)

    @property
    def is_local(self) -> bool:
        return self.root is None

    def file(self, ref: str, field: Field) -> Path | None:
        """The existing file `ref` names, or None (no such file: maybe a stored trace id).

        Raises:
            ScenarioError: the reference leads outside the allowed folder.
        """
        if self.root is None:
            candidates = [Path(ref)]
            if self.base is not None and not Path(ref).is_absolute():
                candidates.insert(0, self.base / ref)
            return next((p for p in candidates if p.is_file()), None)
        path = self.inside(ref, field)
        return path if path is not None and path.is_file() else None

    def inside(self, ref: str, field: Field) -> Path | None:
        """The resolved path of `ref` inside the allowed folder (not checked to exist); None
        for a bare name that resolves elsewhere (a stored trace's name or id).

        Raises:
            ScenarioError: an absolute path, or a path that leads outside the folder.
        """
        if self.root is None:
            given = Path(ref)
            return given if self.base is None or given.is_absolute() else self.base / given
        if _is_absolute(ref):
            raise self.refusal(ref, field)
        root = self.root.resolve()
        resolved = ((self.base or root) / ref).resolve()
        if resolved.is_relative_to(root):
            return resolved
        if _is_bare_name(ref):
            return None
        raise self.refusal(ref, field)

    def refusal(self, ref: str, field: Field) -> ScenarioError:
        folder = _shown(self.root) if self.root is not None else "the allowed folder"
        return ScenarioError(
            f"{field} '{ref}' is not allowed here: the app reads only stored traces (by id or "
            f"name) and files under {folder}; {_HINTS[field]}"
        )


def _is_absolute(ref: str) -> bool:
    """Absolute on any platform (a Windows drive or UNC path too), or `~` (home)."""
    return (
        PurePosixPath(ref).is_absolute()
        or PureWindowsPath(ref).is_absolute()
        or bool(PureWindowsPath(ref).drive)
        or ref.startswith("~")
    )


def _is_bare_name(ref: str) -> bool:
    """One name with no folder part: a stored trace's name, never a path that climbs out."""
    return ref not in ("", ".", "..") and "/" not in ref and "\\" not in ref


def _shown(folder: Path) -> str:
    """`data/traces/` for the bundled folder, the full path for any other."""
    try:
        return f"{folder.resolve().relative_to(DATA.parent)}/"
    except ValueError:
        return f"{folder}/"


BUNDLED_FILES = FileAccess(root=DATA / "traces", base=SCENARIOS)
"""The app's policy: stored traces, and files under data/traces/ (bundled scenarios write
`../traces/sample.csv`, relative to data/scenarios/)."""
LOCAL_FILES = FileAccess.local()
"""The CLI's policy for references already made relative to their scenario file."""
