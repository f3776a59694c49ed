"""Renting only (no owned servers): every cloud option priced on the trace's jobs, laid over
the horizons with each option's ledger; no break-even and no sensitivity (both measure
buying).
"""

from dataclasses import replace

from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.cost import tco
from planner.cost.chargeback_usage import chargeback_data
from planner.cost.comparison import Runs
from planner.cost.elsewhere import served_share
from planner.cost.ledger import Hours, Ledger, demanded, rented_ledger
from planner.cost.results import Horizon, TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.scope import LeftOut
from planner.service.tco_inputs import Inputs
from planner.service.tco_priced import PricedOptions
from planner.service.tco_rent import rent_all
from planner.service.tco_window import short_span, window
from planner.store import Connection


def rented_only(
    con: Connection, scenario: TcoScenario, inputs: Inputs, jobs: list[Job] | None
) -> PricedOptions:
    """Every cloud option renting the trace's jobs, a month each (no owned option)."""
    if jobs is None:
        raise ScenarioError(
            "a cloud-only scenario needs a trace (`trace:` or --trace): without owned servers "
            "there is no utilization to size the demand"
        )
    scale = window(jobs).scale
    rentals = rent_all(con, scenario, inputs, jobs, scale)
    runs = Runs(demanded(jobs).scaled(scale), Hours(), rentals.runs)
    charged = chargeback_data(rentals.usage, None, "")
    trail = short_span(jobs, scenario.horizons_years) + rentals.trail
    return PricedOptions((), rentals.clouds, runs, charged, {}, trail)


def cloud_report(scenario: TcoScenario, options: PricedOptions, left_out: LeftOut) -> TcoReport:
    """The report of renting only; its notes, prices and inputs are the caller's to add."""
    rented = [c.rented for c in options.clouds]
    tax_rate = scenario.overrides.get("tax_rate", 0.0)
    tax = tax_rate if isinstance(tax_rate, float | int) else 0.0
    rising = scenario.overrides.get("cloud_escalation_year", 0.0)
    escalation = rising if isinstance(rising, float | int) else 0.0
    demand = tco.Demand(useful_gpu_hours=rented[0].useful_gpu_hours or 0.0)
    horizons = tuple(
        Horizon(
            years=months / 12,
            options=tuple(
                _with_ledger(
                    tco.rented_option(
                        r,
                        demand,
                        months,
                        scenario.discount_rate,
                        tax_rate=tax,
                        escalation_year=escalation,
                    ),
                    rented_ledger(options.runs.demand, run, months),
                )
                for r, run in zip(rented, options.runs.rented, strict=True)
            ),
            comparisons=(),
        )
        for months in tco.horizons_months(scenario.horizons_years)
    )
    return TcoReport(
        scope=scenario.scope,
        left_out=left_out,
        scenario=scenario.name,
        currency=scenario.currency.upper(),
        installed_gpus=0,
        allocation=None,
        useful_gpu_hours_per_month=demand.useful_gpu_hours,
        cost_per_installed_gpu_hour=None,
        cost_per_allocated_gpu_hour=None,
        cost_per_useful_gpu_hour=horizons[0].options[0].cost_per_useful_gpu_hour,
        fixed_per_installed_gpu_hour=None,
        variable_per_busy_gpu_hour=None,
        break_even_utilization={},
        horizons=horizons,
        sensitivity=None,
        notes=(),
    )


def _with_ledger(option: tco.OptionReport, ledger: Ledger) -> tco.OptionReport:
    return replace(option, ledger=ledger, served_share=served_share(ledger))
