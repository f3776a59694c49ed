"""Placement policies by name: the registration table.

Adding a policy: a `placement_<name>.py` module defining a `PlacementPolicy` (see
`placement_plugin`), its name in `Placement` and one line in `_POLICIES` below (and its help
text in `planner.engine.policy.PLACEMENT_HELP`).
"""

from typing import Literal, get_args

from planner.engine.placement_best_fit import BEST_FIT
from planner.engine.placement_fgd import FGD
from planner.engine.placement_plugin import PlacementPolicy
from planner.engine.placement_random import RANDOM
from planner.engine.placement_resource_fit import BINPACK, SPREAD

Placement = Literal["best-fit", "binpack", "spread", "random", "fgd"]

_POLICIES: dict[Placement, PlacementPolicy] = {
    "best-fit": BEST_FIT,
    "binpack": BINPACK,
    "spread": SPREAD,
    "random": RANDOM,
    "fgd": FGD,
}
PLACEMENTS: tuple[Placement, ...] = tuple(_POLICIES)
assert set(PLACEMENTS) == set(get_args(Placement)), "register every Placement name"


def placement_policy(name: Placement) -> PlacementPolicy:
    return _POLICIES[name]
