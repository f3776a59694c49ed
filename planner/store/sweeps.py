"""Sweep points in the planner database: which points of a sweep are computed, and each one's
options (money, utilization, waits), so `planner sweep` resumes where it stopped.

A point is keyed by a hash its caller makes of everything its result depends on (scenario,
trace, price book, the point's values); this module stores and reads rows only. A point and
its options are written in one transaction: an interrupted sweep leaves whole points or none.
Also here: a copy of the price book in a file of its own, which worker processes open instead
of the shared database (DuckDB lets one process at a time write a file).
"""

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path

from planner.store.db import open_store, transaction
from planner.store.sql import Connection, Row, doing, fetch_all, run

OPTION_COLUMNS = (
    "option",
    "years",
    "total",
    "per_useful_gpu_hour",
    "utilization",
    "wait_mean_s",
    "wait_p50_s",
    "wait_p95_s",
    "wait_p99_s",
    "npv_vs_cloud",
    "never_ran",
    "demanded_gpu_h",
    "served_gpu_h",
    "left_out_gpu_h",
    "carried_gpu_h",
    "twin_error",
    "per_hour_low",
    "per_hour_high",
    "wait_p95_low_s",
    "wait_p95_high_s",
)
"""The columns of a point's option rows, in the order `save_point` takes and `load_points`
gives them."""
# the price book's tables (`planner.store.scenarios`' price tables) and the record of its
# seedings (without it, a copy would seed itself again)
_COPIED = ("price_points", "server_prices", "fx_rates", "assumptions", "price_book_seedings")


def done_keys(con: Connection, keys: Iterable[str]) -> set[str]:
    """The point keys among `keys` that are stored."""
    wanted = list(dict.fromkeys(keys))
    if not wanted:
        return set()
    with doing("read the sweep's stored points"):
        rows = fetch_all(
            con, "SELECT point_key FROM sweep_points WHERE list_contains(?, point_key)", [wanted]
        )
    return {str(r[0]) for r in rows}


def save_point(
    con: Connection,
    keys: tuple[str, str],
    point: Sequence[tuple[str, object]],
    currency: str,
    options: Sequence[Row],
) -> None:
    """Store one computed point (`keys`: point key, sweep key) with its option rows (values in
    `OPTION_COLUMNS` order); a point stored already is left as it is."""
    point_key, sweep_key = keys
    marks = ", ".join("?" * (len(OPTION_COLUMNS) + 2))
    with doing("store a sweep point"), transaction(con):
        run(con, "DELETE FROM sweep_options WHERE point_key = ?", [point_key])
        run(con, "DELETE FROM sweep_points WHERE point_key = ?", [point_key])
        run(
            con,
            "INSERT INTO sweep_points VALUES (?, ?, ?, ?, ?)",
            [point_key, sweep_key, json.dumps(list(point)), currency, datetime.now()],
        )
        for position, option in enumerate(options):
            run(
                con,
                f"INSERT INTO sweep_options (point_key, position, {', '.join(OPTION_COLUMNS)}) "
                f"VALUES ({marks})",
                [point_key, position, *option],
            )


def load_points(con: Connection, keys: Sequence[str]) -> dict[str, tuple[str, list[Row]]]:
    """By point key: its currency and option rows (`OPTION_COLUMNS`, in the order stored:
    in the order they were saved)."""
    found: dict[str, tuple[str, list[Row]]] = {}
    if not keys:
        return found
    with doing("read the sweep's stored points"):
        points = fetch_all(
            con,
            "SELECT point_key, currency FROM sweep_points WHERE list_contains(?, point_key)",
            [list(keys)],
        )
        rows = fetch_all(
            con,
            f"SELECT point_key, {', '.join(OPTION_COLUMNS)} FROM sweep_options "
            "WHERE list_contains(?, point_key) ORDER BY point_key, position",
            [list(keys)],
        )
    for key, currency in points:
        found[str(key)] = (str(currency), [])
    for row in rows:
        found[str(row[0])][1].append(tuple(row[1:]))
    return found


def copy_price_book(con: Connection, path: Path) -> None:
    """A new database at `path` holding the price book of `con` (and no traces or sweeps)."""
    open_store(path).close()
    with doing(f"copy the price book to {path}"):
        run(con, "ATTACH ? AS price_copy", [str(path)])
        try:
            with transaction(con):
                for table in _COPIED:  # constants, never input
                    run(con, f"DELETE FROM price_copy.{table}")
                    run(con, f"INSERT INTO price_copy.{table} SELECT * FROM main.{table}")
        finally:
            run(con, "DETACH price_copy")
