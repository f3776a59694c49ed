"""`planner scenarios ...`: list, show, save, export, delete and run saved scenarios."""

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.cli.db import database
from planner.cli.replay import replay_lines
from planner.cli.tco import tco_lines
from planner.core import atomic_file
from planner.core.errors import ScenarioError
from planner.core.file_access import SCENARIOS, FileAccess
from planner.core.serialize import from_json
from planner.cost.results import TcoReport
from planner.engine.summary import ReplayReport

if TYPE_CHECKING:
    from planner.service.scenario_store import SavedScenario


def add_scenario_commands(sub: Any) -> None:
    scenarios = sub.add_parser(
        "scenarios", help="saved scenarios: list, show, save, export, delete, run"
    )
    verbs = scenarios.add_subparsers(required=True, metavar="ACTION")

    listing = verbs.add_parser("list", help="the saved scenarios, most recently updated first")
    _common(listing, json_flag=True)
    listing.set_defaults(run=_list)

    show = verbs.add_parser("show", help="a saved scenario: its YAML and its results' state")
    show.add_argument("name")
    _common(show, json_flag=True)
    show.set_defaults(run=_show)

    save = verbs.add_parser("save", help="save a scenario file (replay or TCO) under a name")
    save.add_argument("file", type=Path, metavar="FILE.yaml")
    save.add_argument("--name", help="default: the file's `name:`, else the file name")
    save.add_argument("--replace", action="store_true", help="overwrite a scenario of that name")
    _common(save, json_flag=False)
    save.set_defaults(run=_save)

    export = verbs.add_parser("export", help="write a saved scenario's YAML (runs as --scenario)")
    export.add_argument("name")
    export.add_argument("-o", "--out", type=Path, metavar="FILE.yaml", help="default: stdout")
    _common(export, json_flag=False)
    export.set_defaults(run=_export)

    delete = verbs.add_parser("delete", help="delete a saved scenario")
    delete.add_argument("name")
    _common(delete, json_flag=False)
    delete.set_defaults(run=_delete)

    run = verbs.add_parser(
        "run", help="run a saved scenario as `planner replay/tco --scenario` would; keep results"
    )
    run.add_argument("name")
    _common(run, json_flag=True)
    run.set_defaults(run=_run)


def _common(parser: argparse.ArgumentParser, *, json_flag: bool) -> None:
    parser.add_argument("--db", help="database file (default: $PLANNER_DB or data/planner.duckdb)")
    if json_flag:
        parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def _row(saved: "SavedScenario") -> dict[str, Any]:
    return {
        "name": saved.name,
        "kind": saved.kind,
        "trace_id": saved.trace_id,
        "created_at": saved.created_at.isoformat(sep=" ", timespec="seconds"),
        "updated_at": saved.updated_at.isoformat(sep=" ", timespec="seconds"),
        "results": "not run" if saved.state == "none" else saved.state,
    }


def _list(args: argparse.Namespace) -> int:
    from planner.service import scenario_store

    with database(args.db) as con:
        saved = scenario_store.list_saved(con)
    rows = [_row(s) for s in saved]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        print(
            f"{row['updated_at']}  {row['kind']:<6}  {row['results']:<8}  "
            f"{row['trace_id'] or '-':<16}  {row['name']}"
        )
    if not rows:
        print("no saved scenarios yet: `planner scenarios save FILE.yaml` saves one")
    return 0


def _show(args: argparse.Namespace) -> int:
    from planner.service import scenario_store

    with database(args.db) as con:
        saved = scenario_store.load(con, args.name)
    if args.json:
        print(
            json.dumps(
                {**_row(saved), "yaml": saved.yaml_text, "results_data": saved.results},
                indent=2,
                default=str,
            )
        )
        return 0
    row = _row(saved)
    print(f"{saved.name} ({saved.kind}), trace {saved.trace_id or '-'}")
    print(f"created {row['created_at']}, updated {row['updated_at']}, results: {row['results']}")
    print(saved.yaml_text.rstrip())
    return 0


def _save(args: argparse.Namespace) -> int:
    from planner.service import scenario_store

    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError(f"{args.file}: cannot read the scenario: {err}") from err
    with database(args.db, writes=True) as con:
        files = FileAccess.local(args.file.parent)
        prepared = scenario_store.prepare(con, text, str(args.file), files)
        name = args.name or _default_name(text, args.file)
        saved = scenario_store.save(con, name, prepared, replace=args.replace)
    print(f"saved '{saved.name}' ({saved.kind}, trace {saved.trace_id or '-'})")
    return 0


def _default_name(text: str, path: Path) -> str:
    from planner.service import scenario_store

    scenario = scenario_store.parse(text, str(path), FileAccess.local(path.parent))
    return scenario.name.strip()[: scenario_store.MAX_NAME_CHARS] or path.stem


def _export(args: argparse.Namespace) -> int:
    from planner.service import scenario_store

    with database(args.db) as con:
        text = scenario_store.export_yaml(con, args.name)
    if args.out is None:
        print(text, end="")
        return 0
    try:
        atomic_file.write_text(args.out, text)
    except OSError as err:
        raise ScenarioError(f"cannot write {args.out}: {err.strerror}") from err
    print(f"wrote {args.out}")
    return 0


def _delete(args: argparse.Namespace) -> int:
    from planner.service import scenario_store

    with database(args.db, writes=True) as con:
        scenario_store.delete(con, args.name)
    print(f"deleted '{args.name}'")
    return 0


def _run(args: argparse.Namespace) -> int:
    from planner.service import scenario_store

    with database(args.db, writes=True) as con:
        # saved from the app, relative paths are relative to the bundled scenarios
        saved = scenario_store.run_and_store(con, args.name, files=FileAccess.local(SCENARIOS))
    results = saved.results or {}
    if args.json:
        print(json.dumps(results, indent=2, default=str))
    elif saved.kind == "tco":
        print("\n".join(tco_lines(from_json(TcoReport, results))))
    else:
        print("\n".join(replay_lines(from_json(ReplayReport, results))))
    return 0
