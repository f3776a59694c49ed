"""What each stored sweep point was priced from (`sweep_point_inputs`): the JSON text of its
report's inputs, kept so a Monte Carlo re-prices the point without replaying it. This module
stores and reads text only; `planner.service.montecarlo` makes and reads the JSON.
"""

from planner.store.db import transaction
from planner.store.sql import Connection, doing, fetch_all, run


def save_inputs(con: Connection, point_key: str, text: str) -> None:
    """Keep `text` as the inputs of the point `point_key` (replacing any kept before)."""
    with doing("store a sweep point's inputs"), transaction(con):
        run(con, "DELETE FROM sweep_point_inputs WHERE point_key = ?", [point_key])
        run(con, "INSERT INTO sweep_point_inputs VALUES (?, ?)", [point_key, text])


def sweep_point_keys(con: Connection, sweep_key: str) -> list[tuple[str, str]]:
    """Every stored point of the sweep `sweep_key`: (point key, the point's values as JSON),
    in the order they were computed."""
    with doing("read the sweep's stored points"):
        rows = fetch_all(
            con,
            "SELECT point_key, point_json FROM sweep_points WHERE sweep_key = ? "
            "ORDER BY computed_at, point_key",
            [sweep_key],
        )
    return [(str(key), str(values)) for key, values in rows]


def load_inputs(con: Connection, keys: list[str]) -> dict[str, str]:
    """By point key: its inputs' JSON text (points without inputs are left out)."""
    if not keys:
        return {}
    with doing("read the sweep points' inputs"):
        rows = fetch_all(
            con,
            "SELECT point_key, inputs_json FROM sweep_point_inputs "
            "WHERE list_contains(?, point_key)",
            [keys],
        )
    return {str(key): str(text) for key, text in rows}
