"""pydantic's problems with a user's file as one line a user can act on.

Each problem names its key path (`cloud.0.price_per_gpu_hour`), what was expected, and the
line of the file it is on when the YAML is known (last, so `file: key: message` reads as
before). An unknown key (a typo) names the closest key the model accepts at that place,
found by walking the model's field types along the path.

The error also keeps each problem as a `Problem` (pydantic's type and context, or the code
of a `CodedValueError` a validator raised), so the app words it in the reader's language.
"""

import difflib
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from planner.core.errors import CodedValueError, ScenarioError
from planner.core.yaml_text import YamlDocument

Loc = Sequence[str | int]
M = TypeVar("M", bound=BaseModel)
_SHOWN_KEYS = 12


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem with a user's file: where, what was expected (English), and the kind and
    context another language words it from."""

    where: str
    """The key path (`cloud.0.price_per_gpu_hour`); empty for the whole document."""
    kind: str
    """pydantic's error type ("missing", "greater_than", ...) or a `CodedValueError`'s code."""
    context: Mapping[str, object]
    message: str
    line: int | None = None
    close: str = ""
    """For an unknown key: the closest key allowed there."""
    allowed: tuple[str, ...] = ()
    """For an unknown key with no close one: the keys allowed there."""

    def __str__(self) -> str:
        line = f" (line {self.line})" if self.line else ""
        return f"{self.where or 'scenario'}: {self.message}{line}"


def validated(model: type[M], document: YamlDocument) -> M:
    """`document` as `model`.

    Raises:
        ScenarioError: naming the file, and for each problem its line, key and what was
            expected (for an unknown key, the closest valid one).
    """
    try:
        return model.model_validate(document.data if document.data is not None else {})
    except ValidationError as err:
        found = problems(err, model, document.line_of)
        text = "; ".join(map(str, found))
        raise ScenarioError(f"{document.source}: {text}").coded(
            "validation", source=document.source, problems=found
        ) from err


def problems_text(
    err: ValidationError,
    model: type[BaseModel] | None = None,
    line_of: Callable[[Loc], int | None] | None = None,
) -> str:
    """`key.path: message (line N); ...`, as `problems` finds them."""
    return "; ".join(map(str, problems(err, model, line_of)))


def problems(
    err: ValidationError,
    model: type[BaseModel] | None = None,
    line_of: Callable[[Loc], int | None] | None = None,
) -> tuple[Problem, ...]:
    """Each problem of `err`, with its line when `line_of` finds it and, for an unknown key,
    the closest valid key (or those allowed) when `model` is given."""
    return tuple(_problem(problem, model, line_of) for problem in err.errors())


def _problem(
    problem: Any, model: type[BaseModel] | None, line_of: Callable[[Loc], int | None] | None
) -> Problem:
    loc = problem["loc"]
    where = ".".join(str(p) for p in loc)
    line = line_of(loc) if line_of is not None else None
    context = dict(problem.get("ctx") or {})
    coded = context.pop("error", None)
    kind, message = problem["type"], problem["msg"].removeprefix("Value error, ")
    if isinstance(coded, CodedValueError):
        kind, context = coded.code, dict(coded.values)
    if kind == "extra_forbidden" and model is not None:
        close, allowed = _unknown_key(model, loc)
        message = _unknown_key_message(close, allowed)
        return Problem(where, kind, context, message, line, close, allowed)
    return Problem(where, kind, context, message, line)


def unknown_key_text(model: type[BaseModel], loc: Loc) -> str:
    """'unknown key; did you mean X?' (or the keys allowed there) for the key at `loc`."""
    return _unknown_key_message(*_unknown_key(model, loc))


def _unknown_key(model: type[BaseModel], loc: Loc) -> tuple[str, tuple[str, ...]]:
    """(the closest key allowed at `loc`, or "" and the keys allowed there)."""
    owner = _model_at(model, loc[:-1])
    if owner is None or not loc:
        return "", ()
    keys = [field.alias or name for name, field in owner.model_fields.items()]
    typed = str(loc[-1])
    # a key cut short names its whole form ("pricing" is "pricing_model", not "packing")
    longer = [k for k in keys if len(typed) >= 3 and k.startswith(typed)]
    close = longer if len(longer) == 1 else difflib.get_close_matches(typed, keys, 1, 0.6)
    return (close[0], ()) if close else ("", tuple(keys))


def _unknown_key_message(close: str, allowed: Sequence[str]) -> str:
    if close:
        return f"unknown key; did you mean '{close}'?"
    if not allowed:
        return "unknown key"
    return f"unknown key; the keys allowed here are {shown_keys(allowed)}"


def shown_keys(keys: Sequence[str]) -> str:
    """The first keys, comma-separated, "..." when there are more."""
    return ", ".join(keys[:_SHOWN_KEYS]) + (", ..." if len(keys) > _SHOWN_KEYS else "")


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
