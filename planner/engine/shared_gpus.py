"""The GPUs of one MIG or time-sliced node class: what a pod takes from them, and back.

`ClusterState` keeps one integer per GPU and delegates its meaning here for these classes:

* MIG: `layout id << 8 | occupied-slot mask`. Layout 0 is the pool's configured layout (none
  for dynamic MIG); re-partitioning an idle GPU to `all-<profile>` gives it another id.
* time-slicing: the GPU's free replicas.

An allocation is recorded per GPU as `(GPU index, amount)`; for MIG the amount is
`relayout flag | code << 8 | slot bits`, for time-slicing the replicas taken.
"""

import random
from collections.abc import Callable, Sequence
from typing import Literal

from planner.engine.sharing import (
    NAMED_LAYOUTS,
    PROFILES,
    MigConfig,
    MigProfile,
    Placed,
    SharingMode,
    TimeSlicing,
    best_start,
    place_layout,
    room,
)

Choice = Literal["pack", "spread", "random"]

MILLI = 1000
MIG_MASK = 0xFF
MIG_RELAYOUT = 1 << 24
_CODE_MASK = 0xFFFF


class SharedGpus:
    """Per-GPU values of one shared node class, under one placement policy."""

    def __init__(self, mode: SharingMode, gpus: int, choice: Choice, rng: random.Random) -> None:
        self.mode = mode
        self.gpus = gpus
        self.choice = choice
        self.rng = rng
        self.layouts: list[Placed] = [()]
        self._layout_id: dict[Placed, int] = {}
        self.offered: tuple[MigProfile, ...] = ()
        if isinstance(mode, MigConfig):
            if mode.layout:
                self.layouts = [place_layout(mode.layout)]
            self._layout_id[self.layouts[0]] = 0
            names = {p.name: p for _, p in self.layouts[0]} if mode.layout else {}
            if mode.dynamic or mode.relayout_delay_s is not None:
                names = {n: p for n, p in PROFILES.items() if not n.endswith("+me")}
            self.offered = tuple(sorted(names.values(), key=lambda p: p.code))
        self._counts: dict[tuple[int, str], int] = {}
        self._single = isinstance(mode, MigConfig) and mode.strategy == "single"

    # --- what a pod asks for -------------------------------------------------------------

    @property
    def mig(self) -> MigConfig | None:
        return self.mode if isinstance(self.mode, MigConfig) else None

    def initial(self) -> int:
        return self.mode.replicas if isinstance(self.mode, TimeSlicing) else 0

    def capacity_milli(self) -> int:
        """Free milli of an idle node, in the units `units` charges: an upper bound on the
        milli-GPUs of requests it can still take (the engine prunes with it)."""
        if isinstance(self.mode, TimeSlicing):
            return self.gpus * self.mode.replicas * MILLI
        if self._single:
            return self.gpus * len(self.layouts[0]) * MILLI
        return self.gpus * MILLI

    def advertised(self) -> int:
        """Devices the node advertises: replicas, or MIG instances (at most 7 if dynamic)."""
        if isinstance(self.mode, TimeSlicing):
            return self.gpus * self.mode.replicas
        return self.gpus * (len(self.layouts[0]) or 7)

    def request(self, milli: int, gpus: int) -> tuple[MigProfile | None, int]:
        """(MIG profile or None for a replica, how many) one pod takes; (None, 0): cannot."""
        mig = self.mig
        if mig is None:
            assert isinstance(self.mode, TimeSlicing)
            if milli < MILLI:
                return None, 1
            refused = gpus > 1 and self.mode.fail_requests_greater_than_one
            return None, 0 if refused else gpus
        if milli >= MILLI:
            # only `single` advertises instances as whole GPUs
            single = mig.strategy == "single" and self.offered
            return (self.offered[0], gpus) if single else (None, 0)
        smallest = next((p for p in self.offered if p.code >= milli), None)
        return smallest, gpus if smallest else 0

    def fit(self, values: Sequence[int], milli: int, gpus: int) -> int:
        """How many such pods the GPUs take."""
        prof, n = self.request(milli, gpus)
        if not n:
            return 0
        if prof is None:
            return sum(values) // n
        return sum(self._count(v, prof) for v in values) // n

    def take(self, values: list[int], milli: int, gpus: int) -> list[tuple[int, int]]:
        """Take one pod's share from `values` (it fits); the (GPU, amount) taken."""
        prof, n = self.request(milli, gpus)
        taken: list[tuple[int, int]] = []
        for _ in range(n):
            if prof is None:
                # a replica goes to the least shared GPU of the node: sharing is what slows
                # time-sliced jobs down (the node itself was chosen by the placement policy)
                usable = [i for i, v in enumerate(values) if v]
                i = max(usable, key=lambda i: (values[i], -i))
                values[i] -= 1
                taken.append((i, 1))
            else:
                taken.append(self._take_instance(values, prof))
        return taken

    def give_back(self, values: list[int], i: int, amount: int) -> None:
        if self.mig is None:
            values[i] += amount
        else:
            values[i] &= ~(amount & MIG_MASK)

    def retake(self, values: list[int], i: int, amount: int) -> None:
        if self.mig is None:
            values[i] -= amount
        else:
            values[i] |= amount & MIG_MASK

    def units(self, amount: int) -> int:
        """Milli charged to the class's free milli: whole replicas and `single` instances
        (each can take a request of a whole GPU), else the instance's compute."""
        if self.mig is None:
            return amount * MILLI
        if self._single:
            return MILLI
        return (amount >> 8) & _CODE_MASK

    def granted(self, amount: int) -> float:
        """Physical GPUs granted: g/7 of a GPU per MIG instance, 1/replicas per replica."""
        if isinstance(self.mode, TimeSlicing):
            return amount / self.mode.replicas
        return ((amount >> 8) & _CODE_MASK) / MILLI

    def free_share(self, values: Sequence[int]) -> float:
        """Free fraction of the GPUs (memory slots for MIG), for scores and fragmentation."""
        if not self.gpus:
            return 0.0
        if isinstance(self.mode, TimeSlicing):
            return sum(values) / (self.gpus * self.mode.replicas)
        free = sum(8 - (v & MIG_MASK).bit_count() for v in values)
        return free / (self.gpus * 8)

    def occupied(self, value: int) -> bool:
        if isinstance(self.mode, TimeSlicing):
            return value < self.mode.replicas
        return bool(value & MIG_MASK)

    # --- MIG --------------------------------------------------------------------------------

    def _count(self, value: int, prof: MigProfile) -> int:
        key = (value, prof.name)
        cached = self._counts.get(key)
        if cached is None:
            cached = self._counts[key] = self._instances(value, prof)
        return cached

    def _instances(self, value: int, prof: MigProfile) -> int:
        """Instances of `prof` this GPU can still give (re-partitioning it if idle)."""
        mig = self.mig
        assert mig is not None
        layout, mask = self.layouts[value >> 8], value & MIG_MASK
        if not mig.dynamic:
            free = sum(1 for s, p in layout if p.name == prof.name and not mask & p.bits(s))
            if free or mask or mig.relayout_delay_s is None:
                return free
            return len(self._relayout(prof))
        count = 0
        start = best_start(mask, prof)
        while start is not None:
            count += 1
            mask |= prof.bits(start)
            start = best_start(mask, prof)
        return count

    def _take_instance(self, values: list[int], prof: MigProfile) -> tuple[int, int]:
        usable = [i for i, v in enumerate(values) if self._count(v, prof)]
        i = self._pick(usable, lambda i: room(values[i] & MIG_MASK))
        value = values[i]
        mig = self.mig
        assert mig is not None
        layout, mask = self.layouts[value >> 8], value & MIG_MASK
        flag = 0
        if mig.dynamic:
            start = best_start(mask, prof)
            assert start is not None
        else:
            starts = [s for s, p in layout if p.name == prof.name and not mask & p.bits(s)]
            if not starts:
                layout, flag = self._relayout(prof), MIG_RELAYOUT
                value = self._id_of(layout) << 8
                starts = [s for s, _ in layout]
            start = starts[0]
        bits = prof.bits(start)
        values[i] = value | bits
        return i, flag | prof.code << 8 | bits

    def _relayout(self, prof: MigProfile) -> Placed:
        return place_layout(NAMED_LAYOUTS.get(f"all-{prof.name}", (prof.name,)))

    def _id_of(self, layout: Placed) -> int:
        found = self._layout_id.get(layout)
        if found is None:
            found = self._layout_id[layout] = len(self.layouts)
            self.layouts.append(layout)
        return found

    def _pick(self, usable: list[int], room_of: Callable[[int], int]) -> int:
        """Spread: the GPU with the most room left; pack: the fullest that fits."""
        assert usable, "take() called for a pod that does not fit"
        if self.choice == "random":
            return usable[self.rng.randrange(len(usable))]
        if self.choice == "spread":
            return max(usable, key=lambda i: (room_of(i), -i))
        return min(usable, key=lambda i: (room_of(i), i))
