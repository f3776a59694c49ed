"""TCO scenario files: YAML text or a file on this machine, validated, its `trace:` checked."""

from pathlib import Path

import yaml
from pydantic import ValidationError

from planner.core.errors import ScenarioError
from planner.core.file_access import FileAccess
from planner.cost.scenario import TcoScenario
from planner.service.replay import validation_text


def load_tco_scenario(path: Path) -> TcoScenario:
    """A TCO scenario file on this machine; a relative `trace:` is looked up beside it."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ScenarioError(f"{path}: cannot read the TCO scenario: {err}") from err
    return tco_scenario_from_text(text, str(path), FileAccess.local(path.parent))


def tco_scenario_from_text(text: str, source: str, files: FileAccess) -> TcoScenario:
    """A TCO scenario from YAML text (`source` names it in messages), its `trace:` checked
    against `files`; a local relative one that exists under `files.base` is made absolute."""
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as err:
        raise ScenarioError(f"{source}: cannot read the TCO scenario: {err}") from err
    try:
        scenario = TcoScenario.model_validate(data)
    except ValidationError as err:
        raise ScenarioError(f"{source}: {validation_text(err)}") from err
    if scenario.trace and not files.is_local:
        files.inside(scenario.trace, "trace")
    elif scenario.trace and (found := files.file(scenario.trace, "trace")) is not None:
        scenario = scenario.model_copy(update={"trace": str(found)})
    return scenario
