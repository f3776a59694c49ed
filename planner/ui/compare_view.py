"""The compare page's glue: a TCO scenario from a bundled file or an upload, a cached
`run_tco`, plot-ready tables and the plain-language conclusion.

The report is `planner tco --json`'s, so the page and the CLI show the same numbers. The
break-even chart needs the two numbers of the break-even formula, F (fixed cost per
installed GPU-hour) and V (energy per busy GPU-hour), which the report does not carry; they
are computed here from the same price book and assumptions `run_tco` uses.
"""

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from planner.cli_tco import load_tco_scenario, tco_scenario_from_text
from planner.store import database_path
from planner.tco_run import run_tco
from planner.tco_scenario import TcoScenario
from planner.ui.cache import cursor

SCENARIOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"
DEFAULT_SCENARIO = "worked-example-h100.yaml"
MAX_UPLOAD_MB = 1
OWNED = ("self-hosted", "hybrid")  # the report's names of the options that own servers
DRIVERS = {
    "cloud_price": "Cloud price",
    "commit_price": "Commitment price",
    "utilization": "Demand (utilization)",
    "server_price": "Server price",
    "life": "Server life",
    "electricity": "Electricity price",
    "pue": "PUE",
    "staff": "Staff cost",
    "rate": "Discount rate",
    "fx": "FX rate",
}


@dataclass(frozen=True, slots=True)
class CompareRun:
    """A TCO report and the break-even formula's F and V (reporting currency)."""

    report: dict[str, Any]
    fixed_per_gpu_hour: float
    variable_per_gpu_hour: float


def bundled_scenarios(folder: Path = SCENARIOS) -> list[str]:
    """File names of the bundled TCO scenarios (those with `self_hosted:`), default first."""
    names = sorted(
        p.name for p in folder.glob("*.yaml") if "\nself_hosted:" in p.read_text(encoding="utf-8")
    )
    return sorted(names, key=lambda name: name != DEFAULT_SCENARIO)


def load_bundled(name: str, folder: Path = SCENARIOS) -> TcoScenario:
    """A bundled scenario, read exactly as `planner tco --scenario` reads it."""
    return load_tco_scenario(folder / name)


def parse_scenario(text: str, source: str, base: Path = SCENARIOS) -> TcoScenario:
    """A TCO scenario from YAML text, read as `planner tco --scenario` reads a file; a
    relative trace path is looked up beside the bundled scenarios (`base`)."""
    return tco_scenario_from_text(text, source, base)


def run(scenario: TcoScenario) -> CompareRun:
    """`run_tco` on the app's database, cached by the scenario's value, the trace file's
    content (a stored trace id is a content hash already) and today's date (prices age)."""
    return _run(str(database_path()), scenario, _trace_key(scenario.trace), date.today())


def _trace_key(trace: str | None) -> str:
    if trace and Path(trace).is_file():
        return hashlib.sha256(Path(trace).read_bytes()).hexdigest()
    return trace or ""


@st.cache_data(show_spinner=False, max_entries=16)
def _run(db_path: str, scenario: TcoScenario, trace_key: str, today: date) -> CompareRun:
    del trace_key  # part of the cache key only
    with cursor(db_path) as cur:
        report = run_tco(cur, scenario, today=today)
    fixed, variable = report["fixed_per_installed_gpu_hour"], report["variable_per_busy_gpu_hour"]
    return CompareRun(report, fixed, variable)


def options_frame(report: Mapping[str, Any], horizon: int) -> pd.DataFrame:
    """One row per option over the horizon: total, per useful GPU-hour, waits (hours), EAC."""
    rows = [
        {
            "Option": o["name"],
            "Total": o["total"],
            "Per useful GPU-hour": o["cost_per_useful_gpu_hour"],
            "Mean wait (h)": _hours(o["wait_mean_s"]),
            "p95 wait (h)": _hours(o["wait_p95_s"]),
            "EAC (per year)": o["equivalent_annual_cost"],
        }
        for o in report["horizons"][horizon]["options"]
    ]
    return pd.DataFrame(rows)


def _hours(seconds: float | None) -> float | None:
    return None if seconds is None else seconds / 3600


def cash_frame(report: Mapping[str, Any], horizon: int) -> pd.DataFrame:
    """Cumulative cash paid by the end of each month, per option: option, month, cumulative."""
    rows = []
    for o in report["horizons"][horizon]["options"]:
        total = 0.0
        for month, cash in enumerate(o["monthly_cash"], start=1):
            total += cash
            rows.append({"option": o["name"], "month": month, "cumulative": total})
    return pd.DataFrame(rows, columns=["option", "month", "cumulative"])


def break_even_frames(run: CompareRun, horizon: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The self-hosted cost per allocated GPU-hour F/u + V for u in 2..100% (u, cost), and
    each cloud option's price with its break-even allocation from the report (option,
    price, break_even, cost_at_break_even; the last two empty when owning never pays)."""
    f, v = run.fixed_per_gpu_hour, run.variable_per_gpu_hour
    u = [k / 100 for k in range(2, 101)]
    curve = pd.DataFrame({"u": u, "cost": [f / x + v for x in u]})
    prices = {o["name"]: o["cost_per_useful_gpu_hour"] for o in _rented(run.report, horizon)}
    rows = []
    for name, price in prices.items():
        be = run.report["break_even_utilization"].get(name)
        shown = be if be is not None and 0 < be <= 1 else None
        cost = None if shown is None else f / shown + v
        rows.append({"option": name, "price": price, "break_even": shown, "cost": cost})
    return curve, pd.DataFrame(rows, columns=["option", "price", "break_even", "cost"])


def tornado_frame(report: Mapping[str, Any]) -> pd.DataFrame:
    """The sensitivity bars, widest first: driver (readable), low, high (NPV), swing."""
    sensitivity = report.get("sensitivity") or {"bars": []}
    rows = [
        {"driver": DRIVERS.get(b["driver"], b["driver"]), **{k: b[k] for k in ("low", "high")}}
        | {"swing": b["swing"]}
        for b in sensitivity["bars"]
    ]
    return pd.DataFrame(rows, columns=["driver", "low", "high", "swing"])


def notes(report: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """(warnings, remarks): stale prices and placeholder rates are warnings."""
    warnings = [
        f"{p['price']}: price as of {p['as_of']} is stale; check it on the Prices page"
        for p in report.get("prices_used", [])
        if p.get("stale")
    ]
    remarks: list[str] = []
    for note in report.get("notes", []):
        serious = "stale" in note or "placeholder" in note
        (warnings if serious else remarks).append(note)
    return list(dict.fromkeys(warnings)), remarks


def _rented(report: Mapping[str, Any], horizon: int) -> list[dict[str, Any]]:
    names = {c["rented"] for c in report["horizons"][horizon]["comparisons"]}
    return [o for o in report["horizons"][horizon]["options"] if o["name"] in names]


def cheapest(options: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The option with the lowest cost per useful GPU-hour (None if none has one)."""
    priced = [o for o in options if o["cost_per_useful_gpu_hour"] is not None]
    return min(priced, key=lambda o: o["cost_per_useful_gpu_hour"], default=None)


def money(value: float | None, currency: str, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f} {currency}"


def conclusion(report: Mapping[str, Any], horizon: int = 0) -> str:
    """A few plain sentences from the numbers: what owning costs, the cheapest option, and
    when owning pays against the best cloud option (break-even allocation and NPV)."""
    cur, h = report["currency"], report["horizons"][horizon]
    years, options = h["years"], h["options"]
    own = options[0]
    best = cheapest(options)
    text = [
        f"At {report['allocation']:.0%} allocation, owning costs "
        f"{money(own['cost_per_useful_gpu_hour'], cur)} per useful GPU-hour over {years:g} years."
    ]
    if best is not None:
        text.append(
            f"The cheapest option is {best['name']} at "
            f"{money(best['cost_per_useful_gpu_hour'], cur)} per useful GPU-hour "
            f"({money(best['total'], cur, 0)} in total{_wait(best)})."
        )
    owning_wins = best is None or best["name"] in OWNED
    rival = cheapest(_rented(report, horizon)) if owning_wins else best
    if rival is not None:
        text += _against(report, horizon, rival)
    return " ".join(text)


def _wait(option: Mapping[str, Any]) -> str:
    p95 = option["wait_p95_s"]
    return f", p95 wait {p95 / 3600:,.1f} h" if p95 else ""


def _against(report: Mapping[str, Any], horizon: int, rival: Mapping[str, Any]) -> list[str]:
    cur, h, name = report["currency"], report["horizons"][horizon], rival["name"]
    be = report["break_even_utilization"].get(name)
    allocation = report["allocation"]
    if be is None:
        text = [f"Owning never pays against {name}: its price does not cover a busy GPU's energy."]
    elif be > 1:
        text = [f"Owning does not pay against {name} even at full allocation (it needs {be:.0%})."]
    elif allocation >= be:
        text = [f"Owning pays above {be:.0%} allocation against {name}, and the demand is there."]
    else:
        text = [f"Owning pays only above {be:.0%} allocation against {name}."]
    comparison = next((c for c in h["comparisons"] if c["rented"] == name), None)
    if comparison is not None:
        npv = comparison["npv_of_buying"]
        verb = "gains" if npv >= 0 else "loses"
        text.append(
            f"Over {h['years']:g} years buying {verb} {money(abs(npv), cur, 0)} in NPV against it."
        )
    return text
