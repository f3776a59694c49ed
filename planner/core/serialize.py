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
same as it was when the results were plain dicts. Only the standard library and the core's
notes are used here.

Coded notes (`planner.core.notes.Note`, in `notes`, price names, the sensitivity's output)
are written as their English text where they stand, so readers of the JSON see strings as
before, and once each under the top-level key `NOTE_CODES`: text -> {"code", "values"}.
`from_json` turns every string found there back into its `Note`; a file without that key
(saved before codes were kept) reads its notes as plain strings, and so does a text two
different notes happen to share.

Fields marked `IN_MEMORY` are never written: data a run keeps for the files it renders
(the per-job table) but that would make every saved result grow with the trace.
"""

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from planner.core.notes import Note

T = TypeVar("T")

_OMIT = "serialize.omit_if_none"
_FLAT = "serialize.flatten"
_SKIP = "serialize.in_memory"
NOTE_CODES = "note_codes"
"""Top-level key of the coded notes a dataclass's JSON holds (text -> code and values)."""


OMIT: Mapping[str, bool] = {_OMIT: True}
"""Field metadata: the key is left out of the JSON when the value is None."""
FLATTEN: Mapping[str, bool] = {_OMIT: True, _FLAT: True}
"""Field metadata: a nested dataclass whose keys are written at its parent's level."""
IN_MEMORY: Mapping[str, bool] = {_SKIP: True}
"""Field metadata: never written (reading JSON leaves the field at its default)."""

Codes = dict[str, dict[str, Any]]


def to_json(value: Any) -> Any:
    """`value` as dicts, lists, strings, numbers, booleans and None (dataclasses by field);
    a dataclass with coded notes in it also gets their codes under `NOTE_CODES`."""
    codes: Codes = {}
    out = _write(value, codes)
    kept = {text: said for text, said in codes.items() if said is not _AMBIGUOUS}
    if kept and dataclasses.is_dataclass(value) and not isinstance(value, type):
        out[NOTE_CODES] = kept
    return out


_AMBIGUOUS: dict[str, Any] = {}
"""Marks a text two different notes wrote: it is read back as plain text, never misworded."""


def _write(value: Any, codes: Codes) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.metadata.get(_SKIP) or (item is None and f.metadata.get(_OMIT)):
                continue
            if f.metadata.get(_FLAT):
                out.update(_write(item, codes))
            else:
                out[f.name] = _write(item, codes)
        return out
    if isinstance(value, Mapping):  # a key may be a coded note too (an option's name)
        return {_write(key, codes): _write(item, codes) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_write(item, codes) for item in value]
    if isinstance(value, Note) and value.code:
        said = {"code": value.code, "values": _write(value.values, codes)}
        text = str(value)
        codes[text] = said if codes.get(text, said) == said else _AMBIGUOUS
        return text
    return value


def json_dict(value: object) -> dict[str, Any]:
    """A dataclass instance as its JSON object (`to_json`, typed as the dict it is)."""
    data = to_json(value)
    if not isinstance(data, dict):
        raise TypeError(f"{type(value).__name__} is not written as a JSON object")
    return data


def from_json(cls: type[T], data: Any) -> T:
    """`data` (as `to_json` writes it, or `json.loads` reads it) as an instance of `cls`."""
    found = data.get(NOTE_CODES) if isinstance(data, Mapping) else None
    notes = _Notes(found if isinstance(found, Mapping) else {})
    return typing.cast("T", _read(cls, data, notes))


class _Notes:
    """The coded notes of one JSON document, rebuilt on demand (their values may be notes)."""

    def __init__(self, codes: Mapping[str, Any]) -> None:
        self.codes = codes
        self.made: dict[str, Note] = {}

    def __call__(self, text: str) -> str:
        found = self.codes.get(text)
        if not isinstance(found, Mapping) or not isinstance(found.get("code"), str):
            return text
        if text not in self.made:
            raw = found.get("values")
            values = raw if isinstance(raw, Mapping) else {}
            kept = {k: self(v) if isinstance(v, str) else v for k, v in values.items()}
            self.made[text] = Note(text, found["code"], kept)
        return self.made[text]


def _read(hint: Any, data: Any, notes: _Notes) -> Any:  # noqa: PLR0911 -- one case per kind
    if data is None:
        return None
    if isinstance(data, str):
        return notes(data)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _read_dataclass(hint, data, notes)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        return _read(real[0], data, notes) if len(real) == 1 else data
    if origin is tuple:
        return tuple(_read(args[0], item, notes) for item in data)
    if origin is list:
        return [_read(args[0], item, notes) for item in data]
    if origin in (dict, Mapping) or (origin is not None and _is_mapping(origin)):
        return {
            notes(key) if isinstance(key, str) else key: _read(args[1], item, notes)
            for key, item in data.items()
        }
    return data


def _is_mapping(origin: Any) -> bool:
    return isinstance(origin, type) and issubclass(origin, Mapping)


def _read_dataclass(cls: type[Any], data: Mapping[str, Any], notes: _Notes) -> Any:
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if f.metadata.get(_FLAT):
            nested = _flat_type(hint)
            names = {g.name for g in dataclasses.fields(nested)}
            if any(name in data for name in names):
                values[f.name] = _read_dataclass(nested, data, notes)
        elif f.name in data and not f.metadata.get(_SKIP):
            values[f.name] = _read(hint, data[f.name], notes)
    return cls(**values)


def _flat_type(hint: Any) -> type[Any]:
    for arg in (hint, *typing.get_args(hint)):
        if isinstance(arg, type) and dataclasses.is_dataclass(arg):
            return arg
    raise TypeError(f"a flattened field must hold a dataclass, not {hint}")
