"""Notes the core writes for people: English text that also carries a code and its values.

A report's notes are printed by the CLI and written to reports as English text, and shown by
the app in the reader's language. A `Note` is both: it *is* its English text (a `str`, so
every writer, JSON file and comparison keeps working unchanged), and it carries `code` and
`values`, so the app words it from its own catalog (`planner/ui/text/notes.py`, key
"notes.<code>") instead of parsing English. A note read back from a saved JSON file is a
plain `str` again and is shown as written.
"""

from collections.abc import Mapping
from typing import Any

# The English wording of each code; `{name}` placeholders are filled from the values.
ENGLISH: dict[str, str] = {
    "default_allocation": "no trace and no utilization: the default {share} allocation",
    "unpriced_jobs": "{option}: {count} jobs cannot run on its SKUs ({first})",
    "speed_default": (
        "{option}: jobs measured on other GPUs are priced at speed 1.0 (no `speed` given)"
    ),
    "bridge_cloud": (
        "servers are paid at order and cost to run and depreciate from delivery, {months} "
        "months later; meanwhile the demand runs on {option} (the bridge category, left out "
        "of the cost per installed GPU-hour)"
    ),
    "bridge_none": (
        "servers are paid at order and cost to run and depreciate from delivery, {months} "
        "months later; nothing bridges the lead time (no cloud option): the demand of those "
        "months is unserved (see the ledger)"
    ),
    "useful_differ": (
        "useful GPU-hours differ: self-hosted {owned}/month, hybrid {hybrid}/month (jobs "
        "unfinished or unschedulable on prem)"
    ),
    "sensitivity_output": "NPV of buying vs {option}, {years} years",
    "server": "server {name}",
    "placeholder_fx": (
        "{price}: converted {base}->{quote} at a placeholder FX rate; add the real one with "
        "`planner prices fx add`"
    ),
    "cpu_rate": (
        "{option}: CPU-only jobs on CPU instances at {vcpu} a vCPU-hour and {gib} a GiB-hour "
        "({source})"
    ),
    "derived_discount": (
        "{price}: derived from on-demand with the rule of thumb {rule} = {value} (confidence "
        "{confidence})"
    ),
}


class Note(str):
    """English text with the code and values it was written from."""

    code: str
    values: Mapping[str, Any]

    def __new__(cls, text: str, code: str = "", values: Mapping[str, Any] | None = None) -> "Note":
        note = super().__new__(cls, text)
        note.code = code
        note.values = dict(values or {})
        return note


def note(code: str, **values: Any) -> Note:
    """The note `code` in English, filled from `values` (which it keeps)."""
    return Note(ENGLISH[code].format(**values), code, values)
