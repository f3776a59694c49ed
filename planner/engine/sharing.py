"""GPU sharing: MIG geometry and slot placement, and time-slicing (NVIDIA device plugin).

MIG (`../shared/reference/scheduler-semantics.md` A5). A GPU has 8 memory slots and 7 compute
slices. An instance of a profile occupies `size` consecutive slots from one of the profile's
allowed starts, and instances may not overlap. Whether a set of profiles fits therefore
depends on where each instance goes, not only on how many slots are left: `all-balanced`
(3g + 2g + 1g + 1g) fits only as 3g@4, 2g@0, 1g@2, 1g@3. So layouts are found by search and
a new instance goes to the start that leaves the most room for later ones.

A GPU's MIG state is a bit mask of its occupied slots. A pod's request for a profile is
carried through the engine as a milli-GPU *code*: its compute share, g/7 of a GPU, nudged by
one milli where two profiles have the same compute, so that codes order profiles by size and
a fractional request maps to the smallest profile whose code is at least the request.

Time-slicing: each GPU is advertised `replicas` times. A pod takes whole replicas whatever it
asks (a 0.3-GPU pod takes one), gets no more compute for more replicas, and may run slower
(`slowdown`) for sharing the GPU with others.
"""

from dataclasses import dataclass
from typing import Literal

from planner.core.errors import ScenarioError

MIG_SLOTS = 8
MIG_COMPUTE = 7
MilliCode = int


@dataclass(frozen=True, slots=True)
class MigProfile:
    name: str
    g: int
    size: int
    starts: tuple[int, ...]
    code: MilliCode

    def bits(self, start: int) -> int:
        return ((1 << self.size) - 1) << start


def _profile(name: str, g: int, size: int, starts: tuple[int, ...], nudge: int = 0) -> MigProfile:
    code = min(999, g * 1000 // MIG_COMPUTE) + nudge
    return MigProfile(name, g, size, starts, code)


_GEOMETRY: tuple[tuple[str, str, int, int, tuple[int, ...], int], ...] = (
    # 80 GB name, 40 GB name, g, slots, starts, nudge (same compute: order by memory)
    ("1g.10gb+me", "1g.5gb+me", 1, 1, (0, 1, 2, 3, 4, 5, 6), -1),
    ("1g.10gb", "1g.5gb", 1, 1, (0, 1, 2, 3, 4, 5, 6), 0),
    ("1g.20gb", "1g.10gb", 1, 2, (0, 2, 4, 6), 1),
    ("2g.20gb", "2g.10gb", 2, 2, (0, 2, 4), 0),
    ("3g.40gb", "3g.20gb", 3, 4, (0, 4), 0),
    ("4g.40gb", "4g.20gb", 4, 4, (0,), 0),
    ("7g.80gb", "7g.40gb", 7, 8, (0,), 0),
)
PROFILES: dict[str, MigProfile] = {
    name: _profile(name, g, size, starts, nudge) for name, _, g, size, starts, nudge in _GEOMETRY
}
"""A100-80GB / H100-80GB profiles by name; other memory sizes share the geometry."""
PROFILES_40GB: dict[str, MigProfile] = {
    small: _profile(small, g, size, starts, nudge) for _, small, g, size, starts, nudge in _GEOMETRY
}
"""A100-40GB names (1g.5gb ... 7g.40gb): same slots, half the memory."""

NAMED_LAYOUTS: dict[str, tuple[str, ...]] = {
    "all-1g.10gb": ("1g.10gb",) * 7,
    "all-1g.20gb": ("1g.20gb",) * 4,
    "all-2g.20gb": ("2g.20gb",) * 3,
    "all-3g.40gb": ("3g.40gb",) * 2,
    "all-4g.40gb": ("4g.40gb",),
    "all-7g.80gb": ("7g.80gb",),
    "all-balanced": ("1g.10gb", "1g.10gb", "2g.20gb", "3g.40gb"),
}
"""The GPU Operator's default mig-parted layouts for 80 GB GPUs."""


def profile(name: str) -> MigProfile:
    """A profile by any of its spellings: `3g.40gb`, `mig-3g.40gb`, `nvidia.com/mig-3g.40gb`."""
    found = find_profile(name)
    if found is None:
        known = ", ".join(PROFILES)
        raise ScenarioError(f"unknown MIG profile '{name}'; known profiles: {known}")
    return found


def find_profile(name: str) -> MigProfile | None:
    key = name.strip().lower().removeprefix("nvidia.com/").removeprefix("mig-")
    return PROFILES.get(key) or PROFILES_40GB.get(key)


Placed = tuple[tuple[int, MigProfile], ...]
"""(start slot, profile) of each instance on one GPU."""


def place_layout(names: tuple[str, ...]) -> Placed:
    """Legal starts for every instance of a layout, found by depth-first search.

    Raises ScenarioError when no placement exists (more slots or compute than a GPU has, or
    slots that no order of starts can reach)."""
    wanted = sorted((profile(n) for n in names), key=lambda p: (-p.size, -p.g))
    if sum(p.g for p in wanted) > MIG_COMPUTE:
        raise ScenarioError(
            f"MIG layout {list(names)} needs {sum(p.g for p in wanted)} compute slices; "
            f"a GPU has {MIG_COMPUTE}"
        )
    found = _search(wanted, 0)
    if found is None:
        raise ScenarioError(
            f"MIG layout {list(names)} has no legal placement on one GPU (8 memory slots; "
            "each profile may start only at its allowed slots)"
        )
    return tuple(sorted(found, key=lambda item: item[0]))


def _search(left: list[MigProfile], mask: int) -> list[tuple[int, MigProfile]] | None:
    if not left:
        return []
    first, rest = left[0], left[1:]
    for start in first.starts:
        bits = first.bits(start)
        if start + first.size <= MIG_SLOTS and not mask & bits:
            tail = _search(rest, mask | bits)
            if tail is not None:
                return [(start, first), *tail]
    return None


def free_starts(mask: int, prof: MigProfile) -> list[int]:
    return [s for s in prof.starts if s + prof.size <= MIG_SLOTS and not mask & prof.bits(s)]


def room(mask: int) -> int:
    """How many (profile, start) placements are still open: the future a start leaves."""
    return sum(len(free_starts(mask, p)) for p in PROFILES.values())


def best_start(mask: int, prof: MigProfile) -> int | None:
    """The legal free start that leaves the most room for later instances (lowest on ties)."""
    starts = free_starts(mask, prof)
    if not starts:
        return None
    return max(starts, key=lambda s: (room(mask | prof.bits(s)), -s))


def naive_start(mask: int, prof: MigProfile) -> int | None:
    """The lowest legal free start: what counting slots in order does (for comparison)."""
    starts = free_starts(mask, prof)
    return starts[0] if starts else None


@dataclass(frozen=True, slots=True)
class MigConfig:
    """MIG on one pool's GPUs.

    `layout` set: every GPU is partitioned into these instances (mig-parted); with
    `relayout_delay_s` set, an idle GPU with no free instance of a requested profile is
    re-partitioned to `all-<profile>`, and the job waits that long on its GPU. `layout`
    empty: dynamic MIG (HAMi, Volcano): instances are created where a request lands.
    `single`: one profile for all instances, each advertised as `nvidia.com/gpu`, so a
    request for k GPUs takes k instances; `mixed`: profiles are separate resources.
    """

    strategy: Literal["single", "mixed"] = "mixed"
    layout: tuple[str, ...] = ()
    relayout_delay_s: float | None = None

    def __post_init__(self) -> None:
        if self.layout:
            place_layout(self.layout)
        if self.strategy == "single" and len({profile(n).name for n in self.layout}) != 1:
            raise ScenarioError(
                "MIG strategy 'single' needs a layout of one profile (all-1g.10gb, ...)"
            )
        if self.relayout_delay_s is not None and self.strategy == "single":
            raise ScenarioError(
                "MIG strategy 'single' keeps one profile on every GPU: relayout_delay_s "
                "applies to 'mixed' only"
            )
        if self.relayout_delay_s is not None and not self.layout:
            raise ScenarioError("relayout_delay_s needs a layout to change from")
        if self.relayout_delay_s is not None and self.relayout_delay_s < 0:
            raise ScenarioError(f"relayout_delay_s must be >= 0 (got {self.relayout_delay_s})")

    @property
    def dynamic(self) -> bool:
        return not self.layout


@dataclass(frozen=True, slots=True)
class TimeSlicing:
    """`sharing.timeSlicing` of the device plugin on one pool's GPUs."""

    replicas: int = 2
    slowdown: float = 1.0
    """Run-time factor of a pod on a time-sliced GPU (1.0: jobs did not fill their GPU)."""
    fail_requests_greater_than_one: bool = False

    def __post_init__(self) -> None:
        if not 2 <= self.replicas <= 64:
            raise ScenarioError(f"time-slicing replicas must be 2-64 (got {self.replicas})")
        if not self.slowdown >= 1.0:
            raise ScenarioError(
                f"time-slicing slowdown must be >= 1.0 (got {self.slowdown}): sharing a GPU "
                "never makes a job faster"
            )


SharingMode = MigConfig | TimeSlicing


def layout_names(value: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """A named layout (`all-balanced`) or an explicit list of profiles."""
    if isinstance(value, str):
        named = NAMED_LAYOUTS.get(value.strip().lower())
        if named is None:
            raise ScenarioError(
                f"unknown MIG layout '{value}'; use one of {', '.join(NAMED_LAYOUTS)} "
                "or a list of profiles such as [3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb]"
            )
        return named
    return tuple(value)


def mode_label(mode: SharingMode) -> str:
    if isinstance(mode, TimeSlicing):
        return f"time-slicing x{mode.replicas}, slowdown {mode.slowdown:g}"
    if mode.dynamic:
        return "MIG dynamic (instances created on demand)"
    relayout = (
        f", re-layout after {mode.relayout_delay_s:g} s"
        if mode.relayout_delay_s is not None
        else ""
    )
    counts: dict[str, int] = {}
    for name in mode.layout:
        counts[name] = counts.get(name, 0) + 1
    layout = " + ".join(f"{n} x {name}" if n > 1 else name for name, n in counts.items())
    return f"MIG {mode.strategy} ({layout} per GPU){relayout}"
