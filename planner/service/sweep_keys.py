"""What a sweep varies: `--vary KEY=V1,V2,...` read into keys and values, and a point (one value
per key) applied to a TCO scenario.

A key is a path into the scenario as written in YAML (`policy.placement`,
`self_hosted[1].servers`, `cloud[0].committed_gpus`, `hybrid.burst_after_s`) or one of the
short names in `ALIASES`. `servers` (the first pool) and `servers.GPU` (the pool of that GPU)
also set the servers the hybrid keeps of that pool, as the Capacity page does. An unknown
key is refused with the nearest known ones; a value the scenario refuses is refused with
pydantic's reason, naming the key.

A list-valued key (`growth.arrival_rate`, `growth.time_warp`: one factor per year) takes one
list in brackets per point, the points separated by commas as scalars are:
`--vary 'growth.arrival_rate=[1,1.5],[1,2,4]'` is two points. Brackets are YAML's own list
syntax, need no other separator, and are unambiguous (a comma inside brackets belongs to the
list); quote the option so the shell does not read the brackets as a pattern.
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

Scalar = int | float | str | None
Value = Scalar | tuple[Scalar, ...]
"""A key's value at one point: a list-valued key's is a tuple (one list in brackets)."""
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
        if not sep or not key or not rest.strip():
            raise ScenarioError(f"--vary '{text}': write KEY=V1,V2,... (e.g. servers=4,8,16)")
        if key in (k for k, _ in varied):
            raise ScenarioError(f"--vary {key} is given twice; give all its values in one --vary")
        check_key(scenario, key)
        scalar = f"{key}_per_year"  # a list key's one-factor form, if it has one
        also = scalar if scalar in known_keys(scenario) else None
        values = values_of(key, rest, listed=is_list_key(scenario, key), also=also)
        values = list(dict.fromkeys(values))
        for value in values:  # a refused value stops the sweep before any point is priced
            apply(scenario, ((key, value),))
        varied.append((key, values))
    return varied


def values_of(key: str, text: str, *, listed: bool, also: str | None = None) -> list[Value]:
    """The values after `KEY=`: scalars split at commas, or (`listed`) one `[...]` list per
    point; a ScenarioError says how to write them, with the nearest reading of what was given
    (and `also`, a scalar key taking such values, e.g. growth.arrival_rate_per_year)."""
    groups = _groups(key, text)
    lists = [g for g in groups if isinstance(g, tuple)]
    if listed and len(lists) < len(groups):
        scalars = also is not None and not re.search(r"[;|\[\]]", text)  # maybe meant `also`
        other = f", or {also}={text} (one factor per point)" if scalars else ""
        raise ScenarioError(
            f"--vary {key}={text}: {key} takes a list per point, in brackets; "
            f"did you mean {key}='{_bracketed(text)}' (quoted for the shell){other}?"
        )
    if not listed and lists:
        plain = ",".join(str(v) for g in groups for v in (g if isinstance(g, tuple) else (g,)))
        raise ScenarioError(
            f"--vary {key}={text}: {key} takes one value per point, not a list; "
            f"did you mean {key}={plain}?"
        )
    return groups


def is_list_key(scenario: TcoScenario, key: str) -> bool:
    """Whether the key's field holds a list of plain values (one per year, ...)."""
    if key in (SERVERS, BURST_H) or key.startswith(f"{SERVERS}."):
        return False
    model: type[BaseModel] | None = type(scenario)
    annotation: object = None
    for name, _ in _steps(ALIASES.get(key, key)):
        if model is None or name not in model.model_fields:
            return False
        annotation = model.model_fields[name].annotation
        model = _model_in(annotation)
    return model is None and _is_tuple(annotation)


def _is_tuple(annotation: object) -> bool:
    origin = typing.get_origin(annotation)
    if origin is tuple:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_is_tuple(a) for a in typing.get_args(annotation))
    return False


def _groups(key: str, text: str) -> list[Value]:
    """`1,2` -> [1, 2]; `[1,2],[3]` -> [(1, 2), (3,)]; malformed brackets refused."""
    out: list[Value] = []
    rest = text.strip()
    while rest:
        if rest.startswith("["):
            end = rest.find("]")
            inner = rest[1:end] if end > 0 else ""
            if end < 0 or "[" in inner:
                raise ScenarioError(_malformed(key, text, "a '[' is not closed by ']'"))
            items = [value_of(v) for v in inner.split(",")]
            if not inner.strip() or any(v is None or v == "" for v in items):
                raise ScenarioError(_malformed(key, text, "a list needs values, comma-separated"))
            out.append(tuple(items))
            rest = rest[end + 1 :].strip()
            if rest.startswith("]"):
                raise ScenarioError(_malformed(key, text, "a ']' has no '['"))
            if rest and not rest.startswith(","):
                raise ScenarioError(_malformed(key, text, "lists are separated by commas"))
        else:
            item, _, _ = rest.partition(",")
            if "[" in item or "]" in item:
                raise ScenarioError(_malformed(key, text, "a ']' has no '['"))
            if item.strip():
                out.append(value_of(item))
            rest = rest[len(item) :]
        rest = rest.removeprefix(",").strip()
    return out


def _malformed(key: str, text: str, why: str) -> str:
    return (
        f"--vary {key}={text}: {why}; write one list in brackets per point, e.g. "
        f"{key}='{_bracketed(text)}'"
    )


def _bracketed(text: str) -> str:
    """The nearest bracketed reading of `text`: its groups (split at ';', '|' or existing
    brackets) each one list; without any, all its values as one list."""
    parts = [p for p in re.split(r"[;|\[\]]", text) if p.strip(" ,")]
    lists = ["[" + ",".join(v.strip() for v in p.split(",") if v.strip()) + "]" for p in parts]
    return ",".join(lists) or "[V1,V2]"


def value_of(text: str) -> Scalar:
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
        raise ScenarioError(f"--vary {key}={shown(value)}: {problems}") from None


def shown(value: object) -> str:
    """A value as `--vary` takes it: a list in brackets (`[1,1.5]`, also one read back from
    JSON), a scalar as itself."""
    if isinstance(value, tuple | list):
        return "[" + ",".join(str(v) for v in value) + "]"
    return str(value)


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
