"""The twin check's report as the Replay page shows it: the verdict and notes in the
session's language, and the tables and curves of `planner.ui.twin_page` (display text:
durations, shares and counts formatted, "n/a" where a value cannot be measured)."""

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from planner.engine.scenario import Scenario
from planner.engine.summary import CalibrationNote
from planner.twin.calibrate import TwinRun
from planner.twin.compare import QUANTILES
from planner.twin.report import (
    CLOSED_SYSTEM_SHARE,
    WAIT_RATIO_LIMIT,
    WITHDRAWN_LIMIT,
    ArrivalShift,
    Comparison,
    GroupWaits,
    TwinReport,
)
from planner.ui.i18n import Language, fmt_duration, fmt_number, fmt_percent, t

_CDF_POINTS = 400  # per curve: enough for a smooth line, small for the browser


# --- texts -----------------------------------------------------------------------------------


def verdict(c: Comparison, lang: Language | None = None) -> str:
    """The one-line verdict with its thresholds, from the comparison's misses (the rule is
    `planner.twin.compare.judge`'s), in the session's language."""
    rule = t(
        "twin.rule",
        lang,
        factor=f"{WAIT_RATIO_LIMIT:g}",
        share=fmt_percent(WITHDRAWN_LIMIT, 0),
    )
    if not c.misses:
        return t("twin.matches", lang, rule=rule)
    said = [
        t(
            "twin.miss_withdrawn" if m.quantity == "withdrawn" else "twin.miss_wait",
            lang,
            name=m.quantity,
            replayed=fmt_number(m.replayed),
            observed=fmt_number(m.observed),
        )
        for m in c.misses
    ]
    return t("twin.no_match", lang, rule=rule, misses=t("twin.miss_sep", lang).join(said))


def notes(report: TwinReport, lang: Language | None = None) -> list[str]:
    """The closed-system warning, the given background load and the capacity's floor, in the
    session's language (the policies' note is `policy_note`)."""
    shown = []
    if report.closed_system_warning:
        shown.append(
            t(
                "twin.note_closed",
                lang,
                share=fmt_percent(report.history_gpu_share, 1),
                limit=fmt_percent(CLOSED_SYSTEM_SHARE, 0),
            )
        )
    if report.calibration.background_given:
        shown.append(t("twin.note_given_load", lang))
    shown.append(floor_note(report, lang))
    if report.arrival_shift is not None:
        shown.append(arrivals_note(report.arrival_shift, lang))
    return shown


def arrivals_note(shift: ArrivalShift, lang: Language | None = None) -> str:
    """Where the held-back window's arrival rate changed, and the waits either side."""
    return t(
        "twin.note_arrivals",
        lang,
        day=fmt_number(shift.at_s / 86_400, 1),
        before=fmt_number(shift.per_day[0]),
        after=fmt_number(shift.per_day[1]),
        b50=fmt_duration(shift.p50_s[0]),
        b90=fmt_duration(shift.p90_s[0]),
        a50=fmt_duration(shift.p50_s[1]),
        a90=fmt_duration(shift.p90_s[1]),
    )


def floor_note(report: TwinReport, lang: Language | None = None) -> str:
    """The capacity fit's floor: what the history held at once, in all and per GPU type."""
    cal = report.calibration
    by_pool = ", ".join(f"{p} {fmt_number(g)}" for p, g in sorted(cal.peak_gpus_by_pool.items()))
    pools = t("twin.note_floor_pools", lang, pools=by_pool) if by_pool else ""
    peak = fmt_number(cal.peak_gpus)
    if cal.peak_gpus > report.node_gpus:
        gpus = fmt_number(report.node_gpus)
        return t("twin.note_floor_over", lang, peak=peak, pools=pools, gpus=gpus)
    said = t("twin.note_floor", lang, peak=peak, pools=pools)
    return f"{said} {t('twin.note_floored', lang)}" if cal.floored else said


def policy_note(report: TwinReport, lang: Language | None = None) -> str | None:
    """Said when the history cannot tell the policies apart."""
    return t("twin.note_policies", lang) if report.calibration.policies_alike else None


def windows_caption(report: TwinReport) -> str:
    cal = report.calibration
    return t(
        "twin.windows",
        fit_jobs=fmt_number(report.fit.jobs),
        fit_until=fmt_duration(cal.fit_until_s),
        jobs=fmt_number(report.after.jobs),
        started=fmt_number(report.jobs_with_observed_start),
        total=fmt_number(report.jobs),
        share=fmt_percent(report.history_gpu_share, 2),
        gpus=fmt_number(report.node_gpus),
    )


def error_bar(note: CalibrationNote | None, lang: Language | None = None) -> str | None:
    """The one line a replay of a calibrated scenario carries (None when not calibrated)."""
    if note is None:
        return None
    v = note.validation

    def times(ratio: float | None) -> str:
        return fmt_number(ratio, 2)

    return t(
        "twin.error_bar",
        lang,
        fitted_on=note.fitted_on or t("twin.a_history", lang),
        p50=times(v.p50_ratio),
        p90=times(v.p90_ratio),
        p99=times(v.p99_ratio),
        withdrawn=times(v.withdrawn_ratio),
    )


def scenario_error_bar(scenario: Scenario, lang: Language | None = None) -> str | None:
    """`error_bar` of a scenario's own calibration, if it has one."""
    calibration = scenario.calibration
    return error_bar(calibration.error_bar() if calibration else None, lang)


# --- tables ----------------------------------------------------------------------------------


def validation_frame(report: TwinReport) -> pd.DataFrame:
    """The held-back window: observed | plain replay | calibrated | the naive baseline (the
    fit window's own observed waits), as display text."""
    before, after = report.before, report.after
    dash = t("twin.no_distance")
    rows = [
        (
            t(f"twin.row_{name}"),
            fmt_duration(getattr(after.observed, name)),
            fmt_duration(getattr(before.replayed, name)),
            fmt_duration(getattr(after.replayed, name)),
        )
        for name in (*QUANTILES, "mean")
    ]
    rows += [
        (t("twin.row_waited"), *_pair(before.waited_share, after.waited_share, fmt_percent)),
        (
            t("twin.row_gpu_hours"),
            *_pair(before.waiting_gpu_hours, after.waiting_gpu_hours, _one_decimal),
        ),
        (t("twin.row_withdrawn"), *_pair(before.withdrawn, after.withdrawn, fmt_number)),
        (t("twin.row_ks"), dash, _three(before.ks_distance), _three(after.ks_distance)),
        (
            t("twin.row_wasserstein"),
            dash,
            fmt_duration(before.wasserstein_s),
            fmt_duration(after.wasserstein_s),
        ),
    ]
    width = fmt_duration(after.allocation_bin_s)
    rows += [
        (
            t("twin.row_correlation", bin=width),
            dash,
            _three(before.allocation_correlation),
            _three(after.allocation_correlation),
        ),
        (
            t("twin.row_error", bin=width),
            dash,
            fmt_percent(before.allocation_error),
            fmt_percent(after.allocation_error),
        ),
        (
            t("twin.row_level_error"),
            dash,
            fmt_percent(before.allocation_level_error),
            fmt_percent(after.allocation_level_error),
        ),
    ]
    # the naive baseline: the fit window's own waits taken as the forecast (no replay at all)
    fit = report.fit.observed
    naive = [fmt_duration(getattr(fit, name)) for name in (*QUANTILES, "mean")]
    naive += [fmt_percent(report.fit.waited_share[0])]
    naive += [dash] * (len(rows) - len(naive))
    columns = [t(f"twin.col_{c}") for c in ("measure", "observed", "before", "after", "naive")]
    return pd.DataFrame([(*row, n) for row, n in zip(rows, naive, strict=True)], columns=columns)


def _pair(
    before: tuple[float, float], after: tuple[float, float], show: Callable[[float], str]
) -> tuple[str, str, str]:
    """(observed, plain replayed, calibrated) of a measure kept as (observed, replayed)."""
    return show(after[0]), show(before[1]), show(after[1])


def _one_decimal(value: float | None) -> str:
    return fmt_number(value, 1)


def _three(value: float | None) -> str:
    return fmt_number(value, 3)


def latency_frame(report: TwinReport) -> pd.DataFrame:
    rows = [
        (
            c.description,
            fmt_number(c.jobs),
            fmt_duration(c.p50_s),
            fmt_duration(c.p90_s),
            fmt_percent(c.never_placed_share),
        )
        for c in report.calibration.latency
    ]
    columns = [t(f"twin.col_{c}") for c in ("class", "jobs", "p50", "p90", "never")]
    return pd.DataFrame(rows, columns=columns)


def capacity_frame(report: TwinReport) -> pd.DataFrame:
    rows = [
        (fmt_percent(c.share), fmt_number(c.gpus), fmt_number(c.score, 3))
        for c in report.calibration.capacity_scores
    ]
    columns = [t(f"twin.col_{c}") for c in ("share", "gpus", "score")]
    return pd.DataFrame(rows, columns=columns)


def policy_frame(report: TwinReport) -> pd.DataFrame:
    rows = [
        (f"{p.admission} / {p.queueing}", fmt_number(p.score, 3))
        for p in report.calibration.policy_scores
    ]
    return pd.DataFrame(rows, columns=[t("twin.col_policy"), t("twin.col_score")])


def groups_frame(groups: Sequence[GroupWaits], label: str) -> pd.DataFrame:
    """Observed and calibrated wait quantiles per group (a GPU-size class or a team)."""
    rows = [
        (
            g.group,
            fmt_number(g.observed.jobs),
            *(fmt_duration(getattr(g.observed, q)) for q in QUANTILES),
            *(fmt_duration(getattr(g.replayed, q)) for q in QUANTILES),
        )
        for g in groups
    ]
    columns = [
        label,
        t("twin.col_jobs"),
        *(t("twin.col_obs_q", q=q) for q in QUANTILES),
        *(t("twin.col_cal_q", q=q) for q in QUANTILES),
    ]
    return pd.DataFrame(rows, columns=columns)


def cdf_frames(run: TwinRun) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The held-back window's wait distributions (series, wait_s, share), observed and
    calibrated from the per-job rows, and the plain replay's quantiles as points. Waits
    under 1 s are drawn at 1 s (a log axis). Empty curves when nothing started."""
    rows = [r for r in run.rows if r.window == "validation"]
    curves = [
        _cdf(t("twin.series_observed"), [r.observed_wait_s for r in rows]),
        _cdf(t("twin.series_after"), [r.replayed_wait_s for r in rows]),
    ]
    curve = pd.concat(curves, ignore_index=True)
    if curve.empty or curve["series"].nunique() < len(curves):
        curve = curve.iloc[0:0]
    replayed = run.report.before.replayed
    points = [
        (t("twin.series_before"), max(float(value), 1.0), share)
        for name, share in zip(QUANTILES, (0.5, 0.9, 0.99), strict=True)
        if (value := getattr(replayed, name)) is not None
    ]
    return curve, pd.DataFrame(points, columns=["series", "wait_s", "share"])


def _cdf(series: str, waits: Sequence[float | None]) -> pd.DataFrame:
    known = np.sort(np.array([w for w in waits if w is not None], dtype=float))
    if not known.size:
        return pd.DataFrame(columns=["series", "wait_s", "share"])
    shares = np.linspace(0.0, 1.0, min(known.size, _CDF_POINTS))
    values = np.maximum(np.quantile(known, shares), 1.0)
    return pd.DataFrame({"series": series, "wait_s": values, "share": shares})
