"""The twin error bar of a sweep point: what a calibrated replay's measured error means for
the figures the replay drives.

A twin check (`planner twin`) measures e, the calibrated replay's |replayed - observed|
allocated GPU-hours over the validation window as a share of the observed
(`calibration.validation.allocation_level_error`). The bar reads e as the uncertainty of every
figure an owned option takes from its replay, the same share either way:

    low = value x (1 - e)   (never below 0)      high = value x (1 + e)

for the cost per useful GPU-hour and the p95 wait. A cloud option's figures come from its
price list, not a replay: no bar. Without a twin check there is no bar ("not calibrated").
Pure: numbers in, numbers out; the Monte Carlo reads e too (`demand_from_twin`).
"""

from planner.cost.scenario import TcoScenario


def twin_error(scenario: TcoScenario) -> float | None:
    """The scenario's twin check error e (a share), None when it was not calibrated."""
    calibration = scenario.scheduling.calibration if scenario.scheduling else None
    validation = calibration.validation if calibration else None
    return validation.allocation_level_error if validation else None


def bar(value: float | None, error: float | None) -> tuple[float | None, float | None]:
    """(low, high) of `value` under a twin error `error`; (None, None) without either."""
    if value is None or error is None:
        return None, None
    return max(0.0, value * (1 - error)), value * (1 + error)
