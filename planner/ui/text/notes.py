"""The core's notes (`planner.core.notes`) as catalog keys "notes.<code>": the wording lives in
the core, beside the English, so the CLI, the reports and the page say the same."""

from planner.core.notes import CHINESE, ENGLISH

EN = {f"notes.{code}": text for code, text in ENGLISH.items()}
ZH = {f"notes.{code}": text for code, text in CHINESE.items()}
