"""The Replay page's "Does the replay match what happened?" section and the error bar of a
calibrated scenario's replay: widgets only; the check, its cache and its tables are in
`planner.ui.twin_view`."""

import streamlit as st

from planner.core.errors import PlannerError
from planner.engine.scenario import Scenario
from planner.service.twin import NoTwinError
from planner.twin.calibrate import FEWEST_REPLAYS, MOST_REPLAYS
from planner.twin.progress import TwinProgress
from planner.ui import charts, scenario_box
from planner.ui import twin_frames as frames
from planner.ui import twin_view as view
from planner.ui.error_text import error_text
from planner.ui.i18n import MISSING, fmt_duration, fmt_number, fmt_percent, t
from planner.ui.safe import md
from planner.ui.widgets import plot


def error_bar(scenario: Scenario) -> None:
    """The one line a replay of a calibrated scenario carries; nothing otherwise."""
    line = frames.scenario_error_bar(scenario)
    if line is not None:
        st.info(md(line), icon=":material/straighten:")


def section(replayed: Scenario, trace_id: str, trace_label: str) -> None:
    """The twin check of the replayed trace and cluster: a button, then its report."""
    st.subheader(t("twin.title"))
    if not view.has_observed_starts(trace_id):
        st.info(t("twin.no_starts"), icon=":material/info:")
        return
    st.caption(_promise(trace_id, trace_label))
    if st.button(t("twin.run"), icon=":material/fact_check:", key="twin_run"):
        view.request_check(replayed)
    scenario = view.requested_for(replayed)
    if scenario is None:
        if view.was_cancelled():
            st.caption(t("twin.cancelled"))
        return
    try:
        checked = _check_with_progress(scenario, trace_label)
    except NoTwinError:
        st.info(t("twin.no_starts"), icon=":material/info:")
        return
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return
    report(checked)


def _promise(trace_id: str, trace_label: str) -> str:
    """What the check does and how long it takes: the sample's time, scaled by jobs."""
    jobs = view.job_count(trace_id)
    low, high = view.expected_s(jobs)
    return t(
        "twin.caption",
        trace=md(trace_label),
        fewest=FEWEST_REPLAYS,
        most=MOST_REPLAYS,
        sample_jobs=fmt_number(view.SAMPLE_JOBS),
        sample_s=_seconds(view.SAMPLE_CHECK_S),
        jobs=fmt_number(jobs),
        low=_seconds(low),
        high=_seconds(high),
    )


def _check_with_progress(scenario: Scenario, trace_label: str) -> view.TwinView:
    """`view.check`, at once when cached; else with a Cancel button and a progress bar
    that counts the replays and the time left."""
    found = view.cached(scenario)
    if found is not None:
        return found
    cancel, bar = st.empty(), st.empty()
    cancel.button(t("twin.cancel"), on_click=view.cancel_check, key="twin_cancel")
    progress = bar.progress(0.0, text=t("twin.running", trace=md(trace_label)))

    def tell(now: TwinProgress) -> None:
        progress.progress(min(max(now.fraction, 0.0), 1.0), text=progress_text(now))

    checked = view.check(scenario, tell)
    cancel.empty()
    bar.empty()
    return checked


def progress_text(now: TwinProgress) -> str:
    """'12 of 31 replays · 1.2 min so far · about 2.0 min left' (the time left once the
    first replay has finished)."""
    left = now.left_s
    if left is None:
        return t("twin.progress_first", total=fmt_number(now.total))
    return t(
        "twin.progress",
        done=fmt_number(now.done),
        total=fmt_number(now.total),
        elapsed=_seconds(now.elapsed_s),
        left=_seconds(left),
    )


def took_text(took: TwinProgress) -> str:
    return t(
        "twin.took",
        done=fmt_number(took.done),
        elapsed=_seconds(took.elapsed_s),
        mean=_seconds(took.mean_replay_s),
    )


def _seconds(seconds: float | None) -> str:
    """As `fmt_duration`, with a tenth of a second below 10 s (a replay of a small trace)."""
    if seconds is not None and 0 <= seconds < 10:
        return f"{fmt_number(seconds, 1)} {t('unit.s')}"
    return fmt_duration(seconds)


def report(checked: view.TwinView) -> None:
    """Verdict, notes, the held-back window's table and chart, the fit, the groups, the
    per-job download and the save form."""
    r = checked.report
    line = md(frames.verdict(r.after))
    if r.after.matches:
        st.success(line, icon=":material/check_circle:")
    else:
        st.warning(line, icon=":material/rule:")
    st.caption(frames.windows_caption(r))
    if checked.took is not None:
        st.caption(took_text(checked.took))
    for note in frames.notes(r):
        st.info(md(note), icon=":material/info:")

    st.markdown(f"**{t('twin.validation')}**")
    st.dataframe(frames.validation_frame(r), hide_index=True, key="twin_table", placeholder=MISSING)
    st.caption(t("twin.table_caption"))
    curves, points = frames.cdf_frames(checked.result.run)
    if curves.empty:
        st.caption(t("twin.no_cdf"))
    else:
        plot(st, charts.wait_cdf(curves, points), key="twin_cdf")
        st.caption(t("twin.cdf_caption"))
    _fit(checked)
    _groups(checked)
    _outputs(checked)


def _fit(checked: view.TwinView) -> None:
    r = checked.report
    cal = r.calibration
    st.markdown(f"**{t('twin.latency')}**")
    st.caption(t("twin.latency_caption"))
    if cal.latency:
        st.dataframe(
            frames.latency_frame(r), hide_index=True, key="twin_latency", placeholder=MISSING
        )
    else:
        st.caption(t("twin.no_latency"))
    st.markdown(
        t(
            "twin.capacity",
            share=fmt_percent(cal.effective_gpu_share),
            gpus=fmt_number(cal.effective_gpus),
            total=fmt_number(r.node_gpus),
        )
    )
    policy = cal.policy
    st.markdown(
        t(
            "twin.policy",
            admission=md(policy.admission),
            queueing=md(policy.queueing),
            score=fmt_number(policy.score, 3),
        )
    )
    note = frames.policy_note(r)
    if note is not None:
        st.caption(note)
    with st.expander(t("twin.scores")):
        left, right = st.columns(2)
        left.dataframe(
            frames.capacity_frame(r), hide_index=True, key="twin_capacity", placeholder=MISSING
        )
        right.dataframe(
            frames.policy_frame(r), hide_index=True, key="twin_policies", placeholder=MISSING
        )


def _groups(checked: view.TwinView) -> None:
    after = checked.report.after
    st.caption(t("twin.groups_caption"))
    left, right = st.columns(2)
    left.markdown(f"**{t('twin.by_size')}**")
    size = frames.groups_frame(after.by_size, t("twin.col_group_size"))
    left.dataframe(size, hide_index=True, key="twin_by_size", placeholder=MISSING)
    right.markdown(f"**{t('twin.by_team')}**")
    team = frames.groups_frame(after.by_team, t("twin.col_group_team"))
    right.dataframe(team, hide_index=True, key="twin_by_team", placeholder=MISSING)


def _outputs(checked: view.TwinView) -> None:
    trace_id = checked.result.trace_id
    st.download_button(
        t("twin.download"),
        checked.rows_csv,
        file_name=f"twin-{trace_id}.csv",
        mime="text/csv",
        on_click="ignore",
        icon=":material/download:",
        key="twin_download",
    )
    st.markdown(f"**{t('twin.save')}**")
    st.caption(t("twin.save_caption"))
    scenario_box.save_form("replay", checked.calibrated_yaml, None, trace_id, "twin_save")
