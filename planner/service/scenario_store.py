"""Saved scenarios: validating scenario YAML for saving, and the one way to run them (the
CLI's and the pages').

The rows (a scenario's YAML, its trace, the results of its last run and the key they were
computed for) are `planner.store.scenarios`'; its names are re-exported here, so callers
keep one module to import. Nothing here knows about Streamlit or runs SQL.
"""

from collections.abc import Mapping
from typing import Any

import yaml

from planner.core.errors import ScenarioError
from planner.core.file_access import FileAccess
from planner.core.serialize import json_dict
from planner.core.validation import validated
from planner.core.yaml_text import YamlDocument, load_yaml
from planner.cost.scenario import TcoScenario
from planner.engine.metrics import summarize
from planner.engine.scenario import Scenario
from planner.engine.summary import ReplayReport
from planner.service.replay import resolve_trace, run_scenario, with_files
from planner.service.tco_files import tco_scenario_from_text
from planner.service.tco_run import run_tco
from planner.store import Connection
from planner.store.scenarios import (
    KINDS,
    MAX_NAME_CHARS,
    Kind,
    Prepared,
    SavedScenario,
    check_name,
    control_character,
    delete,
    export_yaml,
    list_saved,
    load,
    price_book_key,
    results_key,
    save,
    store_results,
)

__all__ = [
    "KINDS",
    "MAX_NAME_CHARS",
    "MAX_YAML_BYTES",
    "Kind",
    "Prepared",
    "SavedScenario",
    "check_name",
    "control_character",
    "delete",
    "export_yaml",
    "kind_of",
    "list_saved",
    "load",
    "parse",
    "prepare",
    "price_book_key",
    "results_key",
    "run_and_store",
    "run_saved",
    "run_yaml",
    "save",
    "store_results",
    "to_yaml",
]

MAX_YAML_BYTES = 256 * 1024


def kind_of(data: Mapping[str, Any]) -> Kind:
    """'tco' for files with `self_hosted:` or `cloud:`, else 'replay'."""
    return "tco" if "self_hosted" in data or "cloud" in data else "replay"


def parse(yaml_text: str, source: str, files: FileAccess) -> Scenario | TcoScenario:
    """The scenario the YAML describes, validated as its kind, its file references checked
    against `files` (local ones looked up under `files.base`, the file's folder)."""
    document = _document(yaml_text, source)
    if kind_of(document.data) == "tco":
        return tco_scenario_from_text(yaml_text, source, files)
    return with_files(validated(Scenario, document), files)


def prepare(con: Connection, yaml_text: str, source: str, files: FileAccess) -> Prepared:
    """Validate YAML for saving and make it self-contained in this database: a trace file is
    imported and `trace:` becomes its stored id; a relative local node list becomes
    absolute (the app's stay as written, relative to the bundled scenarios)."""
    if len(yaml_text.encode()) > MAX_YAML_BYTES:
        raise ScenarioError(f"{source} is larger than {MAX_YAML_BYTES // 1024} KiB")
    data = dict(_mapping(yaml_text, source))
    scenario = parse(yaml_text, source, files)
    trace_id = resolve_trace(con, scenario.trace, files=files) if scenario.trace else None
    if trace_id is not None:
        data["trace"] = trace_id
    if isinstance(scenario, Scenario) and scenario.cluster and scenario.cluster.node_list:
        data["cluster"] = {**data["cluster"], "node_list": scenario.cluster.node_list}
    header = "".join(line + "\n" for line in _header(yaml_text))
    return Prepared(kind_of(data), header + _dump(data), trace_id)


def to_yaml(model: Scenario | TcoScenario, trace_id: str | None = None) -> str:
    """A scenario built in code as the YAML a user would write (defaults left out)."""
    data = model.model_dump(mode="json", exclude_defaults=True)
    if trace_id is not None:
        data["trace"] = trace_id
    return _dump(data)


def run_saved(con: Connection, saved: SavedScenario, *, files: FileAccess) -> dict[str, Any]:
    """What `planner replay --scenario FILE --json` (a replay scenario) or `planner tco
    --scenario FILE --json` (a TCO scenario) prints for the exported file."""
    return run_yaml(con, saved.yaml_text, saved.name, files=files)


def run_yaml(con: Connection, yaml_text: str, source: str, *, files: FileAccess) -> dict[str, Any]:
    """Run prepared YAML (see `prepare`) as `run_saved` runs a saved scenario."""
    scenario = parse(yaml_text, source, files)
    if isinstance(scenario, TcoScenario):
        return json_dict(run_tco(con, scenario, files=files))
    run = run_scenario(con, scenario, files=files)
    bar = scenario.calibration.error_bar() if scenario.calibration else None
    return json_dict(ReplayReport(run.trace_id, run.cluster_name, summarize(run.result), bar))


def run_and_store(con: Connection, name: str, *, files: FileAccess) -> SavedScenario:
    saved = load(con, name)
    return store_results(con, saved, run_saved(con, saved, files=files))


# --- helpers -----------------------------------------------------------------------------------


def _mapping(yaml_text: str, source: str) -> dict[str, Any]:
    return dict(_document(yaml_text, source).data)


def _document(yaml_text: str, source: str) -> YamlDocument:
    """The YAML, bounded (planner.core.yaml_text); an empty file is an empty mapping."""
    document = load_yaml(yaml_text, source)
    if document.data is None:
        return YamlDocument({}, document.node, source)
    if not isinstance(document.data, dict):
        raise ScenarioError(f"{source}: a scenario file is a mapping (name:, trace:, ...)")
    return document


def _header(yaml_text: str) -> list[str]:
    """The comment lines the file starts with (kept on the saved copy)."""
    lines = []
    for line in yaml_text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return lines


def _dump(data: Mapping[str, Any]) -> str:
    return yaml.safe_dump(
        dict(data), sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )
