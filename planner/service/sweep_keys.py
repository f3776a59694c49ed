"""What a sweep varies: `--vary KEY=V1,V2,...` read into keys and values, and a point (one value
per key) applied to a TCO scenario.

A key is a path into the scenario as written in YAML (`policy.placement`,
`self_hosted[1].servers`, `cloud[0].committed_gpus`, `hybrid.burst_after_s`) or one of the
short names in `ALIASES`. `servers` (the first pool) and `servers.GPU` (the pool of that GPU)
also set the servers the hybrid keeps of that pool, as the Capacity page does. An unknown
key is refused with the nearest known ones; a value the scenario refuses is refused with
pydantic's reason, naming the key.
"""

import difflib
import re
import types
import typing
from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from planner.core.errors import ScenarioError
from planner.cost.scenario import TcoScenario

Value = int | float | str | None
Point = tuple[tuple[str, Value], ...]
"""One value per varied key, in the order the keys were given."""

ALIASES: dict[str, str] = {
    "placement": "policy.placement",
    "queueing": "policy.queueing",
    "admission": "policy.admission",
    "burst_after_s": "hybrid.burst_after_s",
    "committed_gpus": "cloud[0].committed_gpus",
    "pricing_model": "cloud[0].pricing_model",
    "term_months": "cloud[0].term_months",
    "discount_rate": "discount_rate",
}
"""Short names for the keys swept most; `servers`, `servers.GPU` and `burst_after_h` are
handled on their own (they change more than one field, or convert a unit)."""
SERVERS = "servers"
BURST_H = "burst_after_h"
_STEP = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\])?$")


def parse_vary(texts: Sequence[str], scenario: TcoScenario) -> list[tuple[str, list[Value]]]:
    """`KEY=V1,V2,...` options read into (key, values); keys checked against the scenario,
    values as numbers where they read as numbers, duplicates dropped (order kept)."""
    varied: list[tuple[str, list[Value]]] = []
    for text in texts:
        key, sep, rest = text.partition("=")
        key = key.strip()
        values = [value_of(v) for v in rest.split(",") if v.strip()]
        if not sep or not key or not values:
            raise ScenarioError(f"--vary '{text}': write KEY=V1,V2,... (e.g. servers=4,8,16)")
        if key in (k for k, _ in varied):
            raise ScenarioError(f"--vary {key} is given twice; give all its values in one --vary")
        check_key(scenario, key)
        values = list(dict.fromkeys(values))
        for value in values:  # a refused value stops the sweep before any point is priced
            apply(scenario, ((key, value),))
        varied.append((key, values))
    return varied


def value_of(text: str) -> Value:
    """'8' -> 8, '0.5' -> 0.5, 'none' -> None, anything else the text itself."""
    text = text.strip()
    if text.lower() in {"none", "null"}:
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def apply(scenario: TcoScenario, point: Point) -> TcoScenario:
    """The scenario with every key of `point` set (in order); a ScenarioError names a value
    the scenario refuses."""
    for key, value in point:
        scenario = _apply_one(scenario, key, value)
    return scenario


def _apply_one(scenario: TcoScenario, key: str, value: Value) -> TcoScenario:
    if key == SERVERS or key.startswith(f"{SERVERS}."):
        return with_servers(scenario, _whole(key, value), pool=pool_of(scenario, key))
    if key == BURST_H:
        hours = _number(key, value)
        key, value = "hybrid.burst_after_s", hours * 3600
    path = ALIASES.get(key, key)
    data = scenario.model_dump(exclude_unset=True)
    _set(data, _steps(path), value, key)
    try:
        return TcoScenario.model_validate(data)
    except ValidationError as err:
        problems = "; ".join(e["msg"] for e in err.errors(include_url=False))
        raise ScenarioError(f"--vary {key}={value}: {problems}") from None


def with_servers(scenario: TcoScenario, servers: int, pool: int = 0) -> TcoScenario:
    """The scenario with self-hosted pool number `pool` at `servers`, and the hybrid keeping
    as many of that pool when it names it."""
    pools = list(scenario.self_hosted)
    swept = pools[pool]
    pools[pool] = swept.model_copy(update={"servers": servers})
    update: dict[str, Any] = {"self_hosted": tuple(pools)}
    hybrid = scenario.hybrid
    if hybrid is not None:
        gpu = swept.gpu.upper()
        kept = {k: (servers if k.upper() == gpu else v) for k, v in hybrid.servers.items()}
        update["hybrid"] = hybrid.model_copy(update={"servers": kept})
    return scenario.model_copy(update=update)


def with_burst(scenario: TcoScenario, burst_after_s: float) -> TcoScenario:
    """The scenario with the hybrid's burst threshold replaced (unchanged without a hybrid)."""
    hybrid = scenario.hybrid
    if hybrid is None:
        return scenario
    return scenario.model_copy(
        update={"hybrid": hybrid.model_copy(update={"burst_after_s": burst_after_s})}
    )


def pool_of(scenario: TcoScenario, key: str) -> int:
    """The self-hosted pool a `servers` key sizes (`servers`: the first)."""
    if not scenario.self_hosted:
        raise ScenarioError(f"--vary {key}: the scenario owns no servers (no self_hosted pools)")
    if key == SERVERS:
        return 0
    gpu = key.split(".", 1)[1].upper()
    names = [p.gpu.upper() for p in scenario.self_hosted]
    if gpu not in names:
        raise ScenarioError(
            f"--vary {key}: no self-hosted pool of {gpu}; the pools are {', '.join(names)}"
        )
    return names.index(gpu)


def check_key(scenario: TcoScenario, key: str) -> None:
    """Raise a ScenarioError for a key the scenario has no field for, with the nearest keys."""
    if key == SERVERS or key.startswith(f"{SERVERS}."):
        pool_of(scenario, key)
        return
    known = known_keys(scenario)
    path = ALIASES.get(key, "hybrid.burst_after_s" if key == BURST_H else key)
    if path in known:
        return
    near = difflib.get_close_matches(key, [*known, *ALIASES, SERVERS, BURST_H], n=3)
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    raise ScenarioError(f"--vary {key}: the scenario has no such key{hint}")


def known_keys(scenario: TcoScenario) -> list[str]:
    """Every leaf key path of the scenario's model, list items indexed as the scenario has them
    (`self_hosted[0].servers`), optional sections (hybrid, scheduling) whether given or not."""
    return list(_paths(type(scenario), scenario, ""))


def _paths(model: type[BaseModel], value: BaseModel | None, prefix: str) -> Iterator[str]:
    for name, field in model.model_fields.items():
        path = f"{prefix}{name}"
        inner = _model_in(field.annotation)
        item = getattr(value, name, None) if value is not None else None
        if inner is None:
            yield path
        elif isinstance(item, tuple):
            for k, element in enumerate(item):
                yield from _paths(inner, element, f"{path}[{k}].")
        else:
            yield from _paths(inner, item if isinstance(item, BaseModel) else None, f"{path}.")


def _model_in(annotation: object) -> type[BaseModel] | None:
    """The pydantic model an annotation holds (X, X | None, tuple[X, ...]), if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType, tuple):
        for arg in typing.get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def _steps(path: str) -> list[tuple[str, int | None]]:
    steps = []
    for part in path.split("."):
        match = _STEP.match(part)
        if match is None:
            raise ScenarioError(f"--vary {path}: '{part}' is not a key (write name or name[0])")
        index = match.group(2)
        steps.append((match.group(1), None if index is None else int(index)))
    return steps


def _set(data: dict[str, Any], steps: list[tuple[str, int | None]], value: Value, key: str) -> None:
    node: Any = data
    for depth, (name, index) in enumerate(steps):
        last = depth == len(steps) - 1
        if index is None:
            if last:
                node[name] = value
                return
            node = node.setdefault(name, {})
            continue
        items = list(node.get(name, ()))
        if index >= len(items):
            raise ScenarioError(f"--vary {key}: {name} has {len(items)} entries, no [{index}]")
        node[name] = items
        if last:
            items[index] = value
            return
        node = items[index]


def _number(key: str, value: Value) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise ScenarioError(f"--vary {key}={value}: give a number")


def _whole(key: str, value: Value) -> int:
    if isinstance(value, int) and value >= 1:
        return value
    raise ScenarioError(f"--vary {key}={value}: give a whole number of servers, 1 or more")
