"""What the pages share within one session: the working scenario.

The Cluster & policy page edits it, the Replay page runs it on a trace, saved scenarios are
loaded into it. It is a validated `planner.engine.scenario.Scenario` (the same model the CLI reads
from YAML), so whatever a page stores here runs as `planner replay --scenario`.
"""

import streamlit as st

from planner.engine.scenario import Scenario
from planner.ui.replay_view import default_scenario

SCENARIO_KEY = "working_scenario"
SCENARIO_NAME_KEY = "working_scenario_name"  # the saved scenario it came from, if any
REVISION_KEY = "working_scenario_rev"  # goes up whenever the working scenario is replaced
FLASH_KEY = "working_scenario_flash"  # messages for the run after a replacement


def working_scenario() -> Scenario:
    """The session's scenario; the bundled sample's until a page sets one."""
    scenario = st.session_state.get(SCENARIO_KEY)
    if not isinstance(scenario, Scenario):
        scenario = default_scenario()
        st.session_state[SCENARIO_KEY] = scenario
    return scenario


def set_working_scenario(scenario: Scenario, name: str | None = None) -> None:
    """Replace the working scenario; editors keyed by `revision()` start afresh from it."""
    st.session_state[SCENARIO_KEY] = scenario
    st.session_state[REVISION_KEY] = revision() + 1
    if name is not None:
        st.session_state[SCENARIO_NAME_KEY] = name


def working_scenario_name() -> str | None:
    name = st.session_state.get(SCENARIO_NAME_KEY)
    return name if isinstance(name, str) and name else None


def revision() -> int:
    """How many times the working scenario has been replaced in this session."""
    value = st.session_state.get(REVISION_KEY, 0)
    return value if isinstance(value, int) else 0


def replace_and_rerun(scenario: Scenario, *messages: str, name: str | None = None) -> None:
    """Make `scenario` the working scenario and rerun, so every editor on the page starts
    afresh from it; `messages` are shown by `show_flash()` in that next run."""
    set_working_scenario(scenario, name)
    st.session_state[FLASH_KEY] = list(messages)
    st.rerun()


def show_flash() -> None:
    for message in st.session_state.pop(FLASH_KEY, []):
        st.success(message, icon=":material/check_circle:")
