"""FGD's typical pods are chosen by coverage, however many shapes that takes (issue 31,
item 5): the FGD simulator's experiments keep shapes by popularity until they cover 95 % of
the pods (`podPopularityThreshold: 95`, `podIncreaseStep: 1`), with no cap on the count."""

import pytest

from planner.engine.cluster_types import PodShape
from planner.engine.fragmentation import typical_pods


def test_shapes_are_taken_until_they_cover_95_percent_of_the_pods_not_64() -> None:
    """200 pods: 100 of one 1-GPU shape and 100 single pods of 100 distinct shapes. 95 % is
    190 pods: the big shape and 90 singles, 91 shapes (a cap of 64 covered 163, 81.5 %).
    Weights are each shape's pods over the 190 covered."""
    common = PodShape(1000, 1, 0, 0)
    rare = [PodShape(1000, 1, 100 * (k + 1), 0) for k in range(100)]
    pods = [(common, None)] * 100 + [(shape, None) for shape in rare]

    mix = typical_pods(pods)

    assert len(mix) == 91
    assert mix[0].pod == common
    assert mix[0].weight == pytest.approx(100 / 190)
    assert all(t.weight == pytest.approx(1 / 190) for t in mix[1:])
    assert sum(t.weight for t in mix) == pytest.approx(1.0)


def test_a_mix_stops_at_the_first_shape_that_reaches_the_coverage() -> None:
    """95 of one shape, 5 of another: 95 pods already cover 95 %."""
    big, small = PodShape(1000, 1, 0, 0), PodShape(500, 1, 0, 0)

    mix = typical_pods([(big, None)] * 95 + [(small, None)] * 5)

    assert [(t.pod, t.weight) for t in mix] == [(big, 1.0)]
