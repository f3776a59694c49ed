"""Our own cloud option names in the report's language, once, before any writer reads them.

A cloud option the scenario did not name is called by our code ("AWS H100 on_demand", the
option form's "AWS H100 reserved 36m"): a coded note (`planner.core.notes.cloud_label`)
that says its pricing model in words in Chinese. The name is a key as well as a label (the
comparisons, the break-even table, the option sheets and the inputs find an option by it),
so it is worded everywhere in the report at once, and every writer shows and matches the
same text. A name the user gave is plain text and stays as given.
"""

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from planner.core.i18n import Language
from planner.core.notes import Note, worded

T = TypeVar("T")

OPTION_NAME_CODES = frozenset({"cloud_label", "cloud_label_term"})


def in_language(value: T, lang: Language) -> T:
    """`value` with every option name of ours worded in `lang` (as it is in English, where
    the name is its own text)."""
    if lang == "en":
        return value
    return cast("T", _walk(value, lang))


def _walk(value: Any, lang: Language) -> Any:  # noqa: PLR0911 -- one case per kind
    if isinstance(value, Note):
        return worded(value, lang) if value.code in OPTION_NAME_CODES else value
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            if f.init:
                old = getattr(value, f.name)
                new = _walk(old, lang)
                if new is not old:
                    changes[f.name] = new
        return dataclasses.replace(value, **changes) if changes else value
    if isinstance(value, Mapping):
        items = [(_walk(k, lang), _walk(v, lang)) for k, v in value.items()]
        same = all(a is k and b is v for (a, b), (k, v) in zip(items, value.items(), strict=True))
        return value if same else dict(items)
    if isinstance(value, tuple | list):
        walked = [_walk(item, lang) for item in value]
        if all(a is b for a, b in zip(walked, value, strict=True)):
            return value
        if isinstance(value, list):
            return walked
        return type(value)(*walked) if hasattr(value, "_fields") else tuple(walked)
    return value
