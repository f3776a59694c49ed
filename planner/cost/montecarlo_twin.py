"""The twin error bar of a sweep point: what a calibrated replay's measured error means for
the figures the replay drives.

A twin check (`planner twin`) measures e, the calibrated replay's |replayed - observed|
allocated GPU-hours over the validation window as a share of the observed
(`calibration.validation.allocation_level_error`). The bar reads e as the uncertainty of every
figure an owned option takes from its replay, the same share either way:

    low = value x (1 - e)   (never below 0)      high = value x (1 + e)

for the cost per useful GPU-hour. A cloud option's figures come from its price list, not a
replay: no bar. Without a twin check there is no bar ("not calibrated"). The Monte Carlo
reads e too (`demand_from_twin`).

Waits get their bar from the waits the same check measured, not from GPU-hours (a replay can
hold its GPU-hours to 1.6 % and still miss the p90 wait by a factor of 2.5): the validation
window's replayed / observed ratio r at p90 and at p99, the quantiles either side of p95.
Where the replay said v the history would have shown v / r, so

    low = v x min(1, 1 / r90, 1 / r99)      high = v x max(1, 1 / r90, 1 / r99)

(a ratio not measured, or 0, is left out; none left: no wait bar). Pure: numbers in, numbers
out.
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


def wait_factors(scenario: TcoScenario) -> tuple[float, float] | None:
    """(low, high) multipliers of a replayed p95 wait, from the twin check's p90 and p99
    wait ratios; None when not calibrated or neither ratio was measured."""
    calibration = scenario.scheduling.calibration if scenario.scheduling else None
    validation = calibration.validation if calibration else None
    if validation is None:
        return None
    inverse = [1 / r for r in (validation.p90_ratio, validation.p99_ratio) if r]
    if not inverse:
        return None
    return min(1.0, *inverse), max(1.0, *inverse)


def wait_bar(
    value: float | None, factors: tuple[float, float] | None
) -> tuple[float | None, float | None]:
    """(low, high) of a replayed wait under the twin check's wait `factors`."""
    if value is None or factors is None:
        return None, None
    return value * factors[0], value * factors[1]
