"""`planner tco` flags the price-book entries it uses that are stale (with their date, age and
the limit) or have no source date (an unsourced estimate), once each, as the app does; fresh
prices are not flagged; a dated assumption that is a price (electricity) is flagged when stale
(issue 17)."""

import contextlib
import io
import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from planner.cli import main
from planner.store import open_store
from pricing import Freshness, assumption_set, list_servers, set_assumption
from pricing.rows import ASSUMPTIONS

WORKED = Path(__file__).parent.parent / "data" / "scenarios" / "worked-example-h100.yaml"
TODAY = date.today()
STALE = TODAY - timedelta(days=200)
FRESH = TODAY - timedelta(days=10)


@pytest.fixture(autouse=True)
def _default_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seeded limit (90 days), whatever the environment says."""
    monkeypatch.delenv("PLANNER_PRICE_STALE_DAYS", raising=False)


def cli(*args: str) -> str:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(list(args)) == 0
    return buffer.getvalue()


def add_server(db: Path, gpu: str, gpus: int, as_of: date | None) -> None:
    dated = ["--as-of", as_of.isoformat()] if as_of else []
    cli(
        "prices", "servers", "add", "--gpu", gpu, "--gpus", str(gpus), "--price", "100000",
        "--currency", "USD", "--max-kw", "6", "--idle-kw", "1", "--load-kw", "5",
        "--source", "hand-made test book", *dated, "--db", str(db),
    )  # fmt: skip


def add_cloud(db: Path, instance: str, as_of: date) -> None:
    cli(
        "prices", "add", "--provider", "Example", "--instance", instance, "--gpu", "H100",
        "--gpus", "8", "--price-per-hour", "24", "--currency", "USD", "--model", "on_demand",
        "--as-of", as_of.isoformat(), "--db", str(db),
    )  # fmt: skip


def tco_notes(tmp_path: Path, db: Path, scenario: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    report: dict[str, Any] = json.loads(
        cli("tco", "--scenario", str(path), "--db", str(db), "--json")
    )
    return report


@pytest.fixture
def hand_made_book(tmp_path: Path) -> Path:
    """One stale H100 server, one fresh A100 server, one L40S server without a date; a stale
    and a fresh cloud price."""
    db = tmp_path / "p.duckdb"
    add_server(db, "H100", 8, STALE)
    add_server(db, "A100", 8, FRESH)
    add_server(db, "L40S", 4, None)
    add_cloud(db, "old-8xh100", STALE)
    add_cloud(db, "new-8xh100", FRESH)
    return db


def scenario_of(*clouds: str) -> dict[str, Any]:
    return {
        "name": "hand-made book",
        "currency": "USD",
        "horizons_years": [3],
        "utilization": 0.5,
        "self_hosted": [
            {"gpu": "H100", "servers": 1, "gpus_per_server": 8},
            {"gpu": "A100", "servers": 1, "gpus_per_server": 8},
            {"gpu": "L40S", "servers": 1, "gpus_per_server": 4},
        ],
        "cloud": [
            {"name": name, "provider": "Example", "gpu": "H100", "instance": name}
            for name in clouds
        ],
    }


def test_tco_notes_name_the_stale_and_unsourced_prices_not_the_fresh_ones(
    tmp_path: Path, hand_made_book: Path
) -> None:
    report = tco_notes(tmp_path, hand_made_book, scenario_of("old-8xh100", "new-8xh100"))
    notes = report["notes"]

    age = (TODAY - STALE).days
    stale_server = [n for n in notes if n.startswith("server 8xH100:")]
    assert stale_server == [
        f"server 8xH100: price as of {STALE} is stale ({age} days old, over the limit of 90 "
        "days); update it on the Prices page or with `planner prices`"
    ]
    assert [n for n in notes if n.startswith("server 4xL40S:")] == [
        "server 4xL40S: unsourced estimate (no source date); replace it with a dated quote"
    ]
    stale_cloud = [n for n in notes if n.startswith("Example old-8xh100")]
    assert len(stale_cloud) == 1
    assert f"as of {STALE}" in stale_cloud[0]
    assert f"{age} days old" in stale_cloud[0]
    assert "limit of 90 days" in stale_cloud[0]
    assert not [n for n in notes if "A100" in n or "new-8xh100" in n]


def test_the_json_lists_each_price_once_with_its_date_or_none(
    tmp_path: Path, hand_made_book: Path
) -> None:
    report = tco_notes(tmp_path, hand_made_book, scenario_of("old-8xh100"))

    used = {p["price"]: (p["as_of"], p["stale"]) for p in report["prices_used"]}
    assert len(used) == len(report["prices_used"])
    assert used["server 8xH100"] == (STALE.isoformat(), True)
    assert used["server 8xA100"] == (FRESH.isoformat(), False)
    assert used["server 4xL40S"] == ("", False)
    assert len(report["notes"]) == len(set(report["notes"]))


def test_a_lower_limit_in_the_environment_flags_the_fresh_price_with_that_limit(
    tmp_path: Path, hand_made_book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLANNER_PRICE_STALE_DAYS", "5")
    report = tco_notes(tmp_path, hand_made_book, scenario_of("new-8xh100"))

    a100 = [n for n in report["notes"] if n.startswith("server 8xA100:")]
    assert a100 == [
        f"server 8xA100: price as of {FRESH} is stale (10 days old, over the limit of 5 "
        "days); update it on the Prices page or with `planner prices`"
    ]


def test_the_worked_example_flags_its_stale_server_price(tmp_path: Path) -> None:
    report = json.loads(
        cli("tco", "--scenario", str(WORKED), "--db", str(tmp_path / "p.duckdb"), "--json")
    )

    age = (TODAY - date(2024, 8, 1)).days
    assert report["notes"] == [
        f"server 8xH100: price as of 2024-08-01 is stale ({age} days old, over the limit of "
        "90 days); update it on the Prices page or with `planner prices`"
    ]


def test_seeded_estimates_have_no_source_date_and_say_so(tmp_path: Path) -> None:
    con = open_store(tmp_path / "p.duckdb")
    try:
        servers = {s.key: s for s in list_servers(con)}
    finally:
        con.close()
    assert servers["8xh200"].as_of is None
    assert servers["8xh200"].unsourced
    assert not servers["8xh200"].is_stale
    assert servers["8xh200"].age_days is None
    listing = cli("prices", "servers", "list", "--db", str(tmp_path / "p.duckdb"))
    h200 = next(line for line in listing.splitlines() if line.startswith("8xh200"))
    assert "no source date" in h200
    assert "UNSOURCED" in h200
    assert "None" not in listing


def test_a_future_date_is_flagged_as_such() -> None:
    fresh = Freshness(today=date(2026, 1, 10), stale_days=90)

    assert fresh.warning("x", date(2026, 1, 1)) is None
    assert fresh.warning("x", None) == (
        "x: unsourced estimate (no source date); replace it with a dated quote"
    )
    assert fresh.warning("x", date(2026, 3, 1)) == (
        "x: price as of 2026-03-01 is dated in the future (today is 2026-01-10)"
    )


def date_kwh_price(db: Path, as_of: date) -> None:
    """Give the default set's US electricity price a date (what a user's quote would carry)."""
    con = open_store(db)
    try:
        kwh = assumption_set(con)["kwh_price.us"]
        fields = {name: getattr(kwh, name) for name in ASSUMPTIONS.columns}
        set_assumption(con, {**fields, "as_of": as_of})
    finally:
        con.close()


def test_a_stale_dated_power_price_is_noted_unless_overridden(tmp_path: Path) -> None:
    db = tmp_path / "p.duckdb"
    date_kwh_price(db, STALE)
    scenario = yaml.safe_load(WORKED.read_text(encoding="utf-8"))

    noted = tco_notes(tmp_path, db, scenario)["notes"]
    scenario["overrides"]["kwh_price"] = 0.12
    overridden = tco_notes(tmp_path, db, scenario)["notes"]

    age = (TODAY - STALE).days
    assert (
        f"assumption kwh_price.us (reference-defaults): price as of {STALE} is stale ({age} "
        "days old, over the limit of 90 days); update it on the Prices page or with "
        "`planner prices`"
    ) in noted
    assert not [n for n in overridden if "kwh_price" in n]


def test_a_fresh_dated_power_price_is_not_noted(tmp_path: Path) -> None:
    db = tmp_path / "p.duckdb"
    date_kwh_price(db, FRESH)

    report = json.loads(cli("tco", "--scenario", str(WORKED), "--db", str(db), "--json"))

    assert not [n for n in report["notes"] if "kwh_price" in n]
    con = open_store(db)
    try:
        assert assumption_set(con)["kwh_price.us"].as_of == FRESH
        assert assumption_set(con)["pue"].as_of is None
    finally:
        con.close()
