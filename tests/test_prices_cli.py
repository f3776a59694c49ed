"""`planner prices ...` end to end on a real database file, through `planner.cli.main.main`."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from planner.cli import main

DATA = Path(__file__).parent / "data"
H800 = [
    "--provider", "Example Broker", "--instance", "8x H800", "--gpu", "H800 80GB", "--gpus", "8",
    "--price-per-hour", "168", "--currency", "CNY", "--model", "quote", "--as-of", "2026-11-20",
    "--source", "https://example.com/q1", "--confidence", "H",
]  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["prices", *argv, "--db", str(db)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "planner.duckdb"


def test_list_json_carries_prices_and_staleness(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    code, out, _ = run(capsys, db, "list", "--gpu", "H100", "--provider", "aws", "--json")

    rows = json.loads(out)
    assert code == 0
    assert [(r["instance_type"], r["pricing_model"]) for r in rows] == [
        ("p5.4xlarge", "on_demand"),
        ("p5.48xlarge", "capacity_block"),
        ("p5.48xlarge", "on_demand"),
    ]
    p5 = rows[2]
    assert (p5["price_per_instance_hour"], p5["price_per_gpu_hour"], p5["as_of"]) == (
        55.04,
        6.88,
        "2026-11-09",
    )
    assert all(r["is_stale"] == (r["age_days"] > 90) for r in rows)


@pytest.mark.parametrize(("days", "stale"), [("0", 67), ("100000", 0)])
def test_list_stale_days_sets_the_limit(
    capsys: pytest.CaptureFixture[str], db: Path, days: str, stale: int
) -> None:
    code, out, _ = run(capsys, db, "list", "--stale-days", days)

    assert code == 0
    assert out.count("  STALE\n") == stale
    assert out.splitlines()[-1].startswith(f"67 prices, {stale} stale")


def test_stale_only_lists_only_stale_prices(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    _, out, _ = run(capsys, db, "list", "--stale-only", "--stale-days", "0", "--json")

    assert len(json.loads(out)) == 67


def test_add_then_list_shows_the_quote(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(capsys, db, "add", *H800)
    _, listed, _ = run(capsys, db, "list", "--gpu", "H800", "--model", "quote", "--json")

    assert (code, out) == (0, "added: example-broker/-/8x-h800/quote\n")
    [row] = json.loads(listed)
    assert (row["gpu_mem_gb"], row["currency"], row["price_per_gpu_hour"], row["origin"]) == (
        80,
        "CNY",
        21.0,
        "user",
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("--gpus", "0"), "--gpus (gpus_per_instance): expected a number of GPUs > 0, got '0'"),
        (
            ("--price-per-hour", "-3"),
            "--price-per-hour (price_per_instance_hour): expected a price",
        ),
        (("--currency", "RMB"), "--currency (currency): expected one of USD, CNY"),
        (("--as-of", ""), "--as-of (as_of): missing; expected a date YYYY-MM-DD"),
        (("--model", "hourly"), "--model (pricing_model): expected one of on_demand, spot"),
    ],
)
def test_bad_add_is_one_line_on_stderr_and_exit_2(
    capsys: pytest.CaptureFixture[str], db: Path, change: tuple[str, str], message: str
) -> None:
    flag, value = change
    argv = list(H800)
    argv[argv.index(flag) + 1] = value

    code, out, err = run(capsys, db, "add", *argv)

    assert (code, out) == (2, "")
    assert err.startswith("error: Invalid price: ")
    assert message in err
    assert err.count("\n") == 1


def test_export_and_import_round_trip(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path
) -> None:
    run(capsys, db, "add", *H800)
    exported = tmp_path / "prices.csv"

    code, out, _ = run(capsys, db, "export", str(exported))
    again, report, _ = run(capsys, tmp_path / "other.duckdb", "import", str(exported), "--json")

    assert (code, out) == (0, f"68 prices written to {exported}\n")
    assert again == 0
    assert {k: v for k, v in json.loads(report).items() if k != "errors"} == {
        "rows": 68,
        "added": 1,
        "updated": 0,
        "unchanged": 67,
        "rejected": 0,
    }


def test_import_reports_bad_rows_and_keeps_the_good(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    code, out, _ = run(capsys, db, "import", str(DATA / "prices_quotes.csv"))

    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "6 rows: 2 added, 0 updated, 0 unchanged, 4 rejected"
    assert lines[1] == (
        "  row 4, column price_per_instance_hour: expected a price >= 0 and below 100,000,000 "
        "(the price book's limit), got '-5'"
    )


def test_import_of_a_missing_file_is_an_error(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path
) -> None:
    code, _, err = run(capsys, db, "import", str(tmp_path / "nope.csv"))

    assert code == 2
    assert err == f"error: Cannot read {tmp_path / 'nope.csv'}: No such file or directory.\n"


def test_fx_add_and_list(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(capsys, db, "fx", "add", "usd", "cny", "7.12", "--date", "2026-11-28")
    _, listed, _ = run(capsys, db, "fx", "list", "--json")

    assert (code, out) == (0, "added: USD/CNY@2026-11-28\n")
    rates = [
        (r["base"], r["quote"], r["rate_date"], r["rate"], r["origin"]) for r in json.loads(listed)
    ]
    assert ("USD", "CNY", "2026-11-28", 7.12, "user") in rates
    assert len(rates) == 7


def test_fx_add_without_a_date_names_the_flag(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, _, err = run(capsys, db, "fx", "add", "USD", "CNY", "7.1")

    assert code == 2
    assert err == (
        "error: Invalid FX rate: --date (rate_date): missing; expected a date YYYY-MM-DD.\n"
    )


def test_servers_list_and_add(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(
        capsys, db, "servers", "add", "--gpu", "H20", "--gpus", "8", "--price", "1200000",
        "--currency", "CNY", "--max-kw", "8", "--idle-kw", "2", "--load-kw", "6",
        "--as-of", "2026-11-01",
    )  # fmt: skip
    _, listed, _ = run(capsys, db, "servers", "list", "--json")

    assert (code, out) == (0, "added: 8xh20\n")
    assert [s["key"] for s in json.loads(listed)] == [
        "8xa100",
        "8xh100",
        "8xh20",
        "8xh200",
        "8xl40s",
        "8xt4",
    ]


def test_assumptions_lists_the_default_set(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(capsys, db, "assumptions", "--json")

    values = {a["name"]: a["value"] for a in json.loads(out)}
    assert code == 0
    assert (values["pue"], values["colo_per_kw_month"], values["discount.spot"]) == (1.5, 200, 0.6)


def test_edit_changes_only_the_given_fields_and_refuses_bad_values(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    _, out, _ = run(capsys, db, "list", "--gpu", "H100", "--provider", "aws", "--json")
    p5 = next(r for r in json.loads(out) if r["pricing_model"] == "on_demand" and "48x" in r["key"])

    code, _, _ = run(capsys, db, "edit", p5["key"], "--price-per-hour", "48", "--confidence", "H")
    _, out, _ = run(capsys, db, "list", "--gpu", "H100", "--provider", "aws", "--json")
    edited = next(r for r in json.loads(out) if r["key"] == p5["key"])
    bad, _, err = run(capsys, db, "edit", p5["key"], "--price-per-hour", "-1")
    nothing, _, err_nothing = run(capsys, db, "edit", p5["key"])

    assert code == 0
    assert (edited["price_per_instance_hour"], edited["price_per_gpu_hour"]) == (48.0, 6.0)
    assert (edited["confidence"], edited["origin"]) == ("H", "user")
    assert edited["as_of"] == p5["as_of"]  # untouched fields stay
    assert bad == 2
    assert "price_per_instance_hour: expected a price >= 0" in err
    assert nothing == 2
    assert "nothing to change" in err_nothing


def test_servers_and_assumptions_edit(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(capsys, db, "servers", "edit", "8xa100", "--price", "210000", "--json")
    server = json.loads(out)[0]
    pue, out, _ = run(capsys, db, "assumptions", "--edit", "pue=1.5", "--json")
    values = {a["name"]: a["value"] for a in json.loads(out)}
    bad, _, err = run(capsys, db, "assumptions", "--edit", "pue=abc")
    _, out, _ = run(capsys, db, "assumptions", "--json")

    assert (code, server["price"], server["origin"]) == (0, 210000.0, "user")
    assert (pue, values["pue"]) == (0, 1.5)
    assert bad == 2
    assert "pue" in err
    assert "expected a number" in err
    assert {a["name"]: a["value"] for a in json.loads(out)}["pue"] == 1.5  # nothing half-saved


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path: Path) -> None:
    # `planner prices list | head -1`: the pipe closes while the CLI still writes.
    command = [sys.executable, "-m", "planner", "prices", "list", "--db", str(tmp_path / "p.db")]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None
        assert proc.stderr is not None
        proc.stdout.close()
        err = proc.stderr.read().decode()
        code = proc.wait()

    assert code == 141
    assert "Traceback" not in err
