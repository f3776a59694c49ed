"""Import N generated cloud prices (`planner prices import`) and print rows/s.

Usage: python bench/bench_prices_import.py [--rows 5000]
Three imports into a fresh DuckDB file under bench/out/: every row new, the same file again
(every row unchanged), then every price changed (every row updated). Each is timed alone.
"""

import argparse
import time
from pathlib import Path

import duckdb

from planner.store import open_store
from pricing.prices_csv import CSV_COLUMNS, import_prices
from pricing.seed import ensure_seeded

OUT = Path(__file__).resolve().parent / "out"


def prices_csv(rows: int, price: float) -> str:
    """`rows` distinct offers (one instance type each) at `price` per instance-hour."""
    header = ",".join(c for c in CSV_COLUMNS if c != "origin")
    lines = [header]
    for i in range(rows):
        cells = {
            "provider": "BenchCloud",
            "region": f"r{i % 7}",
            "instance_type": f"gpu-{i}",
            "gpu_model": "H100",
            "gpus_per_instance": "8",
            "price_per_instance_hour": f"{price + i / 1000:.3f}",
            "currency": "USD",
            "pricing_model": "on_demand",
            "as_of": "2026-11-01",
            "source_kind": "estimate",
        }
        lines.append(",".join(cells.get(c, "") for c in CSV_COLUMNS if c != "origin"))
    return "\n".join(lines) + "\n"


def timed(label: str, con: duckdb.DuckDBPyConnection, path: Path) -> None:
    started = time.perf_counter()
    report = import_prices(con, path)
    seconds = time.perf_counter() - started
    print(
        f"{label:<10} {report.rows:>7,} rows in {seconds:6.2f} s = {report.rows / seconds:>9,.0f} "
        f"rows/s ({report.added} added, {report.updated} updated, {report.unchanged} unchanged)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=5000)
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    db = OUT / "bench_prices.duckdb"
    db.unlink(missing_ok=True)
    first, second = OUT / "prices_a.csv", OUT / "prices_b.csv"
    first.write_text(prices_csv(args.rows, 20.0), encoding="utf-8")
    second.write_text(prices_csv(args.rows, 21.0), encoding="utf-8")
    con = open_store(db)
    try:
        ensure_seeded(con)  # the seeds are loaded once, not timed
        timed("new", con, first)
        timed("unchanged", con, first)
        timed("updated", con, second)
    finally:
        con.close()


if __name__ == "__main__":
    main()
