"""Choices the app keeps between sessions (the comparison being made on Compare), as JSON
under a key; one row per key, the last write wins."""

import json
from datetime import datetime

from planner.store.sql import Connection, doing, fetch_one, run


def load_choice(con: Connection, key: str) -> object | None:
    """The value kept under `key`, or None (never kept, or unreadable)."""
    with doing(f"read the kept choice '{key}'"):
        row = fetch_one(con, "SELECT value_json FROM ui_choices WHERE key = ?", [key])
    if row is None:
        return None
    try:
        value: object = json.loads(str(row[0]))
    except json.JSONDecodeError:
        return None  # written by a future version, or damaged: start afresh
    return value


def save_choice(con: Connection, key: str, value: object) -> None:
    """Keep `value` (JSON-able) under `key`."""
    with doing(f"keep the choice '{key}'"):
        run(
            con,
            "INSERT OR REPLACE INTO ui_choices VALUES (?, ?, ?)",
            [key, json.dumps(value), datetime.now()],
        )
