"""What the Capacity page can sweep: the bundled cost scenarios and the user's saved scenarios
that own servers (a cost scenario with `self_hosted:`, or a replay scenario priced as owning
its cluster, as the Compare page prices it), each put on the trace the user chose.

A choice is a string: a bundled file's name as it is, a saved scenario's name after `SAVED`
(a file name cannot start with it, so the two never collide). Nothing here draws a widget.
"""

from collections.abc import Iterable, Sequence

from planner.core.errors import PlannerError, ScenarioError
from planner.core.file_access import BUNDLED_FILES
from planner.cost.scenario import TcoScenario, tco_from_replay
from planner.service import scenario_store
from planner.service.replay import cluster_nodes
from planner.service.scenario_store import SavedScenario
from planner.ui import capacity_view, compare_view
from planner.ui.i18n import Language, t

SAVED = "saved:"


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


def choices(saved: Iterable[SavedScenario]) -> list[str]:
    """The user's saved scenarios that own servers (their order), then the bundled ones (the
    sample with a trace and a hybrid first)."""
    mine = [SAVED + s.name for s in saved if owns_servers(s)]
    return mine + capacity_view.scenarios()


def labels(options: Sequence[str], lang: Language) -> dict[str, str]:
    """Each choice as the picker shows it, its kind (saved or bundled) after its name."""
    return {
        choice: t("capacity.source_saved", lang, name=choice.removeprefix(SAVED))
        if is_saved(choice)
        else t("capacity.source_bundled", lang, name=choice)
        for choice in options
    }


def load(choice: str, saved: Iterable[SavedScenario], trace_id: str) -> TcoScenario:
    """The cost scenario `choice` names, replaying `trace_id` (whatever trace it was saved
    with); ScenarioError when a saved one is gone or cannot be priced as owning servers."""
    if not is_saved(choice):
        return compare_view.load_bundled(choice).model_copy(update={"trace": trace_id})
    name = choice.removeprefix(SAVED)
    found = next((s for s in saved if s.name == name), None)
    if found is None:
        raise ScenarioError(t("capacity.saved_gone", name=name))
    parsed = scenario_store.parse(found.yaml_text, found.name, BUNDLED_FILES)
    if isinstance(parsed, TcoScenario):
        return parsed.model_copy(update={"name": found.name, "trace": trace_id})
    if parsed.cluster is None:
        raise ScenarioError(t("capacity.no_cluster", name=found.name))
    _, nodes, _ = cluster_nodes(parsed.cluster, files=BUNDLED_FILES)
    renamed = parsed.model_copy(update={"name": found.name})
    return tco_from_replay(renamed, nodes, trace=trace_id)
