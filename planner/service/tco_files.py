"""TCO scenario files: YAML text or a file on this machine, validated, its `trace:` checked."""

from pathlib import Path

from planner.core.file_access import FileAccess
from planner.core.validation import validated
from planner.core.yaml_text import load_yaml, read_yaml_text
from planner.cost.scenario import TcoScenario


def load_tco_scenario(path: Path) -> TcoScenario:
    """A TCO scenario file on this machine; a relative `trace:` is looked up beside it."""
    text = read_yaml_text(path, "TCO scenario")
    return tco_scenario_from_text(text, str(path), FileAccess.local(path.parent))


def tco_scenario_from_text(text: str, source: str, files: FileAccess) -> TcoScenario:
    """A TCO scenario from YAML text (`source` names it in messages), its `trace:` checked
    against `files`; a local relative one that exists under `files.base` is made absolute."""
    scenario = validated(TcoScenario, load_yaml(text, source, "TCO scenario"))
    if scenario.trace and not files.is_local:
        files.inside(scenario.trace, "trace")
    elif scenario.trace and (found := files.file(scenario.trace, "trace")) is not None:
        scenario = scenario.model_copy(update={"trace": str(found)})
    return scenario
