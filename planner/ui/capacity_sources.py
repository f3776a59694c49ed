"""What the Capacity page can sweep: the user's saved scenarios that own servers (a cost
scenario with `self_hosted:`, or a replay scenario priced as owning its cluster, as the
Compare page prices it), the working scenario of the Cluster & policy page once it is the
user's own, and the bundled cost scenarios; each put on the trace the user chose.

A choice is a string: a bundled file's name as it is (it ends in .yaml), a saved scenario's
name after `SAVED`, or `WORKING`, so they never collide. Nothing here draws a widget.
"""

from collections.abc import Iterable, Sequence

from planner.core.errors import PlannerError, ScenarioError
from planner.core.file_access import BUNDLED_FILES
from planner.cost.scenario import TcoScenario, tco_from_replay
from planner.engine.scenario import Scenario
from planner.service import scenario_store
from planner.service.replay import cluster_nodes
from planner.service.scenario_store import SavedScenario
from planner.ui import capacity_view, compare_view
from planner.ui.i18n import Language, t

SAVED = "saved:"
WORKING = "working:"


def is_saved(choice: str) -> bool:
    return choice.startswith(SAVED)


def owns_servers(saved: SavedScenario) -> bool:
    """Whether a saved scenario has servers to sweep (cloud-only ones have none). One that
    cannot be read counts as owning: picking it shows what is wrong with it."""
    try:
        parsed = scenario_store.parse(saved.yaml_text, saved.name, BUNDLED_FILES)
    except PlannerError:
        return True
    if isinstance(parsed, TcoScenario):
        return bool(parsed.self_hosted)
    return parsed.cluster is not None


def choices(saved: Iterable[SavedScenario], working: Scenario | None) -> list[str]:
    """The user's saved scenarios that own servers (their order), the working scenario when
    given, then the bundled ones (the sample with a trace and a hybrid first)."""
    mine = [SAVED + s.name for s in saved if owns_servers(s)]
    return mine + [WORKING] * (working is not None) + capacity_view.scenarios()


def labels(options: Sequence[str], lang: Language, working: str = "") -> dict[str, str]:
    """Each choice as the picker shows it, its kind (saved, working, bundled) with its name;
    `working` names the working scenario."""
    return {choice: _label(choice, lang, working) for choice in options}


def _label(choice: str, lang: Language, working: str) -> str:
    if choice == WORKING:
        return t("capacity.source_working", lang, name=working)
    if is_saved(choice):
        return t("capacity.source_saved", lang, name=choice.removeprefix(SAVED))
    return t("capacity.source_bundled", lang, name=choice)


def load(
    choice: str, saved: Iterable[SavedScenario], trace_id: str, working: Scenario | None = None
) -> TcoScenario:
    """The cost scenario `choice` names, replaying `trace_id` (whatever trace it was saved
    with); ScenarioError when a saved one is gone or cannot be priced as owning servers."""
    if choice == WORKING and working is not None:
        return _owning(working, working.name, trace_id)
    if not is_saved(choice):
        return compare_view.load_bundled(choice).model_copy(update={"trace": trace_id})
    name = choice.removeprefix(SAVED)
    found = next((s for s in saved if s.name == name), None)
    if found is None:
        raise ScenarioError(t("capacity.saved_gone", name=name))
    parsed = scenario_store.parse(found.yaml_text, found.name, BUNDLED_FILES)
    if isinstance(parsed, TcoScenario):
        return parsed.model_copy(update={"name": found.name, "trace": trace_id})
    return _owning(parsed, found.name, trace_id)


def _owning(scenario: Scenario, name: str, trace_id: str) -> TcoScenario:
    """A replay scenario priced as owning its cluster's GPU nodes."""
    if scenario.cluster is None:
        raise ScenarioError(t("capacity.no_cluster", name=name))
    _, nodes, _ = cluster_nodes(scenario.cluster, files=BUNDLED_FILES)
    renamed = scenario.model_copy(update={"name": name})
    return tco_from_replay(renamed, nodes, trace=trace_id)
