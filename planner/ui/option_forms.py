"""Build an option with a form on the Compare page: own servers, a cloud option or a hybrid,
saved as a cost scenario that joins the comparison, and shown as the YAML it exports.

The form's values go through `planner.service.option_forms.build` (the scenario model YAML
files go through), are saved with `scenario_box.save_scenario` (every page's save path) and
priced by the comparison like any saved scenario, so `planner tco --scenario` on the
exported YAML prints the same numbers.
"""

import streamlit as st

from planner.core.errors import PlannerError
from planner.cost.scenario import TcoScenario
from planner.service import option_forms as forms
from planner.service import scenario_store
from planner.service.option_forms import CloudForm, HybridForm, Kind, OptionForm, OwnForm
from planner.service.scenario_store import Prepared
from planner.ui import cache, option_sections, scenario_box, trace_choice
from planner.ui.cache import cursor
from planner.ui.error_text import error_text
from planner.ui.i18n import fmt_number, note_text, reporting_currency, t
from planner.ui.safe import md
from pricing import CURRENCIES

FLASH = "compare_saved_flash"  # compare_panels' message after the rerun that follows a save
ADDED = "compare_saved_added"  # compare_panels': a scenario saved here joins the comparison
JUST_SAVED = "options_just_saved"  # the page turns to its saved scenarios after a save
OPEN = "opt_open"  # the expander's state: the form is built while it is open
FIRST_OPEN = "opt_first_open"  # whether it opened unfolded, the session's first time


def just_saved() -> bool:
    """Whether the last run saved an option (the page then shows the saved comparison)."""
    return bool(st.session_state.pop(JUST_SAVED, False))


def builder(expanded: bool) -> None:
    """The form in an expander (open at first when `expanded`), built only while it is open:
    it reads the price book, which a page rerun should not pay for when it is folded."""
    # the first value stays: a changed `expanded` would make a new expander, folded again
    expanded = bool(st.session_state.setdefault(FIRST_OPEN, expanded))
    box = st.expander(
        t("options.title"), expanded=expanded, icon=":material/edit_note:", key=OPEN,
        on_change="rerun",
    )  # fmt: skip
    if not box.open:
        return
    with box:
        try:
            with cursor() as cur:
                known = forms.catalog(cur)
            trace_id, trace_name = _trace()
        except PlannerError as err:
            st.error(md(error_text(err)), icon=":material/error:")
            return
        st.caption(t("options.caption"))
        if trace_id is None:
            st.caption(t("options.no_trace"))
        else:
            st.caption(t("options.trace", trace=md(trace_name)))
        _form(known, trace_id)


def _trace() -> tuple[str | None, str]:
    """The session's chosen trace (else the sample) and its name."""
    chosen = st.session_state.get(trace_choice.CHOSEN_KEY) or cache.sample_trace()
    names = {row["trace_id"]: row["name"] for row in cache.stored_traces()}
    if chosen not in names:
        return None, ""
    return str(chosen), f"{names[chosen]} · {chosen}"


_SECTION_INPUTS = (
    *("opt_pool_", "opt_extra_", "opt_lead", "opt_life"),  # owned
    *("opt_provider", "opt_gpu_", "opt_instance_", "opt_payment", "opt_term", "opt_commit"),
    *("opt_keep_", "opt_burst_h"),  # hybrid
)
"""Key prefixes of the inputs of the sections a kind shows or hides."""


def _keep_hidden_inputs() -> None:
    """The inputs of a section the chosen kind hides (the servers, prices and "price and
    power like" of the owned part while "cloud" is picked) keep their values for when it
    shows again: Streamlit drops the state of a widget a run does not draw, unless the
    script writes it back (before the widget is drawn)."""
    for key in [k for k in st.session_state if isinstance(k, str)]:
        if key.startswith(_SECTION_INPUTS) and key in st.session_state:
            st.session_state[key] = st.session_state[key]


def _form(known: forms.Catalog, trace_id: str | None) -> None:
    _keep_hidden_inputs()  # before any of them is drawn: a drawn widget's state is read-only
    currency = reporting_currency() if reporting_currency() in CURRENCIES else "USD"
    # Labels made now, in the session's language: Streamlit may call format_func later.
    names = {k: t(f"options.kind.{k}") for k in forms.KINDS}
    kind: Kind = st.radio(
        t("options.kind"),
        forms.KINDS,
        format_func=names.__getitem__,
        horizontal=True,
        key="opt_kind",
    )
    problems: list[str] = []
    own = option_sections.own(known, currency, problems) if kind != "cloud" else None
    cloud = option_sections.cloud(known, currency, problems) if kind != "own" else None
    hybrid = option_sections.hybrid(own) if kind == "hybrid" and own is not None else None
    default = _default_name(kind, own, cloud, hybrid)
    name = st.text_input(
        t("options.name"), placeholder=default, max_chars=scenario_store.MAX_NAME_CHARS,
        help=t("options.name_help"), key="opt_name",
    )  # fmt: skip
    name = name.strip() or default
    form = OptionForm(name, kind, trace_id, own, cloud, hybrid, currency)
    scenario = _built(form) if not problems else None
    replace = st.checkbox(t("options.replace"), key="opt_replace")
    if problems:
        st.caption(t("options.fix_first"))
    if st.button(
        t("options.save"), type="primary", disabled=scenario is None,
        icon=":material/save:", key="opt_save",
    ):  # fmt: skip
        assert scenario is not None  # the button is disabled otherwise
        _save(name, scenario, trace_id, replace)
    if scenario is not None and st.toggle(t("options.yaml"), key="opt_show_yaml"):
        text = scenario_store.to_yaml(scenario)
        st.code(text, language="yaml")
        st.download_button(
            t("options.download"), text.encode(), file_name=f"{scenario_box.file_stem(name)}.yaml",
            mime="application/x-yaml", on_click="ignore", icon=":material/download:",
            key="opt_download",
        )  # fmt: skip


def _default_name(
    kind: Kind, own: OwnForm | None, cloud: CloudForm | None, hybrid: HybridForm | None
) -> str:
    label = note_text(cloud.label()) if cloud is not None else ""  # its pricing model in words
    servers = sum(p.servers for p in own.pools) if own is not None else 0
    if hybrid is not None:
        servers = sum(hybrid.kept.values())
    return t(f"options.default_name.{kind}", servers=fmt_number(servers), label=label)


def _built(form: OptionForm) -> TcoScenario | None:
    try:
        return forms.build(form)
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return None


def _save(name: str, scenario: TcoScenario, trace_id: str | None, replace: bool) -> None:
    text = scenario_store.to_yaml(scenario)
    problem = scenario_box.save_scenario(name, Prepared("tco", text, trace_id), replace=replace)
    if problem:
        st.error(md(problem), icon=":material/error:")
        return
    st.session_state[FLASH] = t("options.saved", name=md(name))
    st.session_state[ADDED] = name
    st.session_state[JUST_SAVED] = True
    st.rerun()
