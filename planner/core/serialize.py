"""The one place typed results become JSON-ready values, and JSON becomes typed results again.

Results that cross layers (the replay summary, the TCO report, its options, comparisons and
ledgers) are frozen dataclasses read by attribute. `to_json` walks any of them over their
fields, in declaration order, so a field's name is its JSON key and the field order is the
key order of `planner replay --json`, `planner tco --json` and the results the scenario store
keeps. `from_json` reads such JSON back into the type (saved results, tests' round trips).

Two field markers (`dataclasses.field(metadata=...)`) cover the JSON's irregular shapes, so
no type writes its own `to_dict`:

* `OMIT`: a key present only when it has a value (`None` leaves it out);
* `FLATTEN`: a nested dataclass whose keys sit at its parent's level (`None`, or in JSON none
  of its keys, leaves them all out).

Values are never converted: an `int` stays an `int` in a `float` field, so the JSON text is the
same as it was when the results were plain dicts. Only the standard library is used here.
"""

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")

_OMIT = "serialize.omit_if_none"
_FLAT = "serialize.flatten"


OMIT: Mapping[str, bool] = {_OMIT: True}
"""Field metadata: the key is left out of the JSON when the value is None."""
FLATTEN: Mapping[str, bool] = {_OMIT: True, _FLAT: True}
"""Field metadata: a nested dataclass whose keys are written at its parent's level."""


def to_json(value: Any) -> Any:
    """`value` as dicts, lists, strings, numbers, booleans and None (dataclasses by field)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if item is None and f.metadata.get(_OMIT):
                continue
            if f.metadata.get(_FLAT):
                out.update(to_json(item))
            else:
                out[f.name] = to_json(item)
        return out
    if isinstance(value, Mapping):
        return {key: to_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    return value


def json_dict(value: object) -> dict[str, Any]:
    """A dataclass instance as its JSON object (`to_json`, typed as the dict it is)."""
    data = to_json(value)
    if not isinstance(data, dict):
        raise TypeError(f"{type(value).__name__} is not written as a JSON object")
    return data


def from_json(cls: type[T], data: Any) -> T:
    """`data` (as `to_json` writes it, or `json.loads` reads it) as an instance of `cls`."""
    return typing.cast("T", _read(cls, data))


def _read(hint: Any, data: Any) -> Any:  # noqa: PLR0911 -- one case per kind of type
    if data is None:
        return None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _read_dataclass(hint, data)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        return _read(real[0], data) if len(real) == 1 else data
    if origin is tuple:
        return tuple(_read(args[0], item) for item in data)
    if origin is list:
        return [_read(args[0], item) for item in data]
    if origin in (dict, Mapping) or (origin is not None and _is_mapping(origin)):
        return {key: _read(args[1], item) for key, item in data.items()}
    return data


def _is_mapping(origin: Any) -> bool:
    return isinstance(origin, type) and issubclass(origin, Mapping)


def _read_dataclass(cls: type[Any], data: Mapping[str, Any]) -> Any:
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if f.metadata.get(_FLAT):
            nested = _flat_type(hint)
            names = {g.name for g in dataclasses.fields(nested)}
            if any(name in data for name in names):
                values[f.name] = _read_dataclass(nested, data)
        elif f.name in data:
            values[f.name] = _read(hint, data[f.name])
    return cls(**values)


def _flat_type(hint: Any) -> type[Any]:
    for arg in (hint, *typing.get_args(hint)):
        if isinstance(arg, type) and dataclasses.is_dataclass(arg):
            return arg
    raise TypeError(f"a flattened field must hold a dataclass, not {hint}")
