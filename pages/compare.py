"""Compare: several saved scenarios side by side, or one TCO scenario file."""

import streamlit as st

from planner.ui import compare_panels, frame, option_forms, scenario_box
from planner.ui.i18n import t

frame.require_menu()

st.title(t("compare.title"))
st.caption(t("compare.caption"))
modes = {"saved": t("compare.mode_saved"), "file": t("compare.mode_file")}
saved = scenario_box.has_saved()
if "compare_mode" not in st.session_state or option_forms.just_saved():
    # with nothing saved yet, open on a bundled file so the page shows an answer at once
    st.session_state["compare_mode"] = "saved" if saved else "file"
option_forms.builder(expanded=not saved)
mode = st.radio(
    t("compare.mode"), list(modes), format_func=modes.__getitem__, horizontal=True,
    key="compare_mode",
)  # fmt: skip
if mode == "saved":
    compare_panels.saved_panel()
else:
    compare_panels.file_panel()
