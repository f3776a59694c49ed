"""pydantic's problems with a user's file as one line a user can act on.

Each problem names its key path (`cloud.0.price_per_gpu_hour`), what was expected, and the
line of the file it is on when the YAML is known (last, so `file: key: message` reads as
before). An unknown key (a typo) names the closest key the model accepts at that place,
found by walking the model's field types along the path.
"""

import difflib
import types
from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from planner.core.errors import ScenarioError
from planner.core.yaml_text import YamlDocument

Loc = Sequence[str | int]
M = TypeVar("M", bound=BaseModel)
_SHOWN_KEYS = 12


def validated(model: type[M], document: YamlDocument) -> M:
    """`document` as `model`.

    Raises:
        ScenarioError: naming the file, and for each problem its line, key and what was
            expected (for an unknown key, the closest valid one).
    """
    try:
        return model.model_validate(document.data if document.data is not None else {})
    except ValidationError as err:
        text = problems_text(err, model, document.line_of)
        raise ScenarioError(f"{document.source}: {text}") from err


def problems_text(
    err: ValidationError,
    model: type[BaseModel] | None = None,
    line_of: Callable[[Loc], int | None] | None = None,
) -> str:
    """`key.path: message (line N); ...` (the line when `line_of` finds it; the closest
    valid key of an unknown one when `model` is given)."""
    parts = []
    for problem in err.errors():
        loc = problem["loc"]
        where = ".".join(str(p) for p in loc) or "scenario"
        message = problem["msg"].removeprefix("Value error, ")
        if problem["type"] == "extra_forbidden" and model is not None:
            message = unknown_key_text(model, loc)
        line = line_of(loc) if line_of is not None else None
        parts.append(f"{where}: {message}" + (f" (line {line})" if line else ""))
    return "; ".join(parts)


def unknown_key_text(model: type[BaseModel], loc: Loc) -> str:
    """'unknown key; did you mean X?' (or the keys allowed there) for the key at `loc`."""
    owner = _model_at(model, loc[:-1])
    if owner is None or not loc:
        return "unknown key"
    keys = [field.alias or name for name, field in owner.model_fields.items()]
    close = difflib.get_close_matches(str(loc[-1]), keys, n=1, cutoff=0.6)
    if close:
        return f"unknown key; did you mean '{close[0]}'?"
    shown = ", ".join(keys[:_SHOWN_KEYS]) + (", ..." if len(keys) > _SHOWN_KEYS else "")
    return f"unknown key; the keys allowed here are {shown}"


def _model_at(model: type[BaseModel], loc: Loc) -> type[BaseModel] | None:
    """The model class that validates the mapping at `loc` under `model`, if one does."""
    current: Any = model
    for key in loc:
        if isinstance(current, _ItemsOf):
            current = current.item
        elif _is_model(current):
            field = current.model_fields.get(str(key))
            current = _model_in(field.annotation) if field is not None else None
        else:
            return None
    return current if _is_model(current) else None


def _model_in(annotation: Any) -> Any:
    """The model a field's value is (or holds: `X | None`, `tuple[X, ...]`, `dict[str, X]`),
    unwrapping containers until a model; container items skip their index in the path."""
    origin = get_origin(annotation)
    if _is_model(annotation) or origin is None:
        return annotation if _is_model(annotation) else None
    args = [a for a in get_args(annotation) if a is not type(None) and a is not Ellipsis]
    if origin is Annotated:
        return _model_in(args[0])
    if origin in (Union, types.UnionType):
        models = [found for a in args if (found := _model_in(a)) is not None]
        return models[0] if len(models) == 1 else None
    return _ItemsOf(_model_in(args[-1])) if args else None


class _ItemsOf:
    """A container of `item` models: the next key in a path is its index or dict key."""

    def __init__(self, item: Any) -> None:
        self.item = item


def _is_model(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, BaseModel)
