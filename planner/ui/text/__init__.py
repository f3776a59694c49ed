"""Every page's texts in English and 简体中文, merged into one catalog per language.

Each module here holds one page's (or the shared) texts as `EN` and `ZH` dicts whose keys
start with the module's name ("replay.run"); adding a page means adding a module and naming
it below.
"""

from planner.ui.text import (
    capacity,
    chargeback,
    cluster,
    common,
    compare,
    fill,
    history,
    labels,
    notes,
    options,
    overview,
    prices,
    replay,
    report,
    scenarios,
    twin,
)

_MODULES = (
    common,
    cluster,
    fill,
    overview,
    history,
    prices,
    capacity,
    report,
    replay,
    compare,
    scenarios,
    twin,
    options,
    labels,
    notes,
    chargeback,
)

CATALOGS: dict[str, dict[str, str]] = {
    "en": {k: v for m in _MODULES for k, v in m.EN.items()},
    "zh": {k: v for m in _MODULES for k, v in m.ZH.items()},
}
