"""The price book in a real DuckDB file: seeding, listing, staleness, quotes and bad input."""

import re
from collections import Counter
from datetime import date, timedelta

import duckdb
import pytest

from planner.core.errors import PlannerError
from pricing import (
    STALE_DAYS_ENV,
    PriceFilter,
    PricingError,
    add_price,
    assumption_set,
    edit_price,
    ensure_seeded,
    list_fx_rates,
    list_prices,
    list_servers,
    parse_gpu,
    price_point,
    set_assumption,
)
from pricing.assumptions import edit_assumptions
from pricing.seed import SeedSet, shipped_seeds
from pricing.servers import edit_servers

TODAY = date(2026, 11, 30)
P5 = "aws/us-east-1/p5.48xlarge/on_demand"
QUOTE = {
    "provider": "Example Broker",
    "region": "cn-east",
    "instance_type": "8x H800 SXM",
    "gpu_model": "NVIDIA H800-SXM5-80GB",
    "gpus_per_instance": 8,
    "price_per_instance_hour": 180,
    "currency": "cny",
    "pricing_model": "quote",
    "as_of": "2026-11-20",
    "confidence": "H",
}


def test_first_use_seeds_every_priced_row_of_the_reference(con: duckdb.DuckDBPyConnection) -> None:
    points = list_prices(con, today=TODAY)

    # Table 1.1 has 62 rows; the retired Azure NCv3 has no price. Plus 3 AWS capacity blocks.
    assert len(points) == 67
    assert Counter(p.pricing_model for p in points) == {
        "on_demand": 63,
        "spot": 1,
        "capacity_block": 3,
    }
    assert Counter(p.currency for p in points) == {"USD": 59, "CNY": 8}
    assert {p.origin for p in points} == {"seed"}
    assert len(list_servers(con, today=TODAY)) == 5
    assert len(list_fx_rates(con)) == 6
    # 38 from the reference, 2 CPU instance prices, 2 typical rates offered (not applied),
    # the resale value at the horizon's end (0 applied; the reference's range in its notes)
    assert len(assumption_set(con)) == 45


def test_p5_48xlarge_is_seeded_as_the_reference_quotes_it(con: duckdb.DuckDBPyConnection) -> None:
    p5 = price_point(con, P5, today=TODAY)

    assert (p5.price_per_instance_hour, p5.price_per_gpu_hour, p5.gpus_per_instance) == (
        55.04,
        6.88,
        8,
    )
    assert (p5.currency, p5.as_of, p5.confidence) == ("USD", date(2026, 11, 9), "H")
    assert (p5.gpu_model, p5.gpu_mem_gb, p5.gpu_form) == ("H100", 80, "SXM")
    assert (p5.billing_granularity_s, p5.min_billing_s) == (1, 60)
    assert "github.com/tsaol/aws-gpu" in p5.source_url
    assert (p5.age_days, p5.is_stale) == (21, False)


def test_china_region_prices_stay_in_cny(con: duckdb.DuckDBPyConnection) -> None:
    china = list_prices(con, PriceFilter(provider="AWS China", gpu="A100"), today=TODAY)

    assert [(p.instance_type, p.price_per_instance_hour, p.currency) for p in china] == [
        ("p4d.24xlarge", 172.873412, "CNY")
    ]


def test_every_seeded_price_has_a_source_a_date_and_a_confidence(
    con: duckdb.DuckDBPyConnection,
) -> None:
    for p in list_prices(con, today=TODAY):
        assert p.source_url, p.key
        assert p.confidence in {"H", "M", "L"}, p.key
        assert date(2020, 1, 1) <= p.as_of <= TODAY, p.key
        assert p.price_per_gpu_hour == pytest.approx(
            p.price_per_instance_hour / p.gpus_per_instance, rel=0.01
        ), p.key


def test_discount_rules_of_thumb_are_low_confidence_assumptions_not_prices(
    con: duckdb.DuckDBPyConnection,
) -> None:
    rules = assumption_set(con)

    assert {
        name: (rules[name].value, rules[name].confidence)
        for name in (
            "discount.commit.12m",
            "discount.commit.36m",
            "discount.spot",
            "discount.subscription.12m",
        )
    } == {
        "discount.commit.12m": (0.35, "L"),
        "discount.commit.36m": (0.55, "L"),
        "discount.spot": (0.60, "L"),
        "discount.subscription.12m": (0.35, "L"),
    }
    models = {p.pricing_model for p in list_prices(con, today=TODAY)}
    assert not models & {"reserved", "savings_plan", "cud", "subscription"}


def test_reference_defaults_are_seeded(con: duckdb.DuckDBPyConnection) -> None:
    rules = assumption_set(con, "reference-defaults")

    assert {
        name: rules[name].value
        for name in (
            "pue",
            "kwh_price.us",
            "kwh_price.cn",
            "colo_per_kw_month",
            "support_share_year",
            "fte_cost_year.us",
            "life_years",
            "residual_share",
            "resale_share",
            "network_share",
            "storage_share",
            "price_stale_days",
        )
    } == {
        "pue": 1.5,
        "kwh_price.us": 0.09,
        "kwh_price.cn": 0.65,
        "colo_per_kw_month": 200,
        "support_share_year": 0.10,
        "fte_cost_year.us": 180_000,
        "life_years": 5,
        "residual_share": 0,
        "resale_share": 0,
        "network_share": 0.12,
        "storage_share": 0.05,
        "price_stale_days": 90,
    }
    assert (rules["kwh_price.cn"].currency, rules["kwh_price.us"].currency) == ("CNY", "USD")


def test_servers_carry_the_reference_power_figures(con: duckdb.DuckDBPyConnection) -> None:
    servers = {s.key: s for s in list_servers(con, today=TODAY)}

    assert set(servers) == {"8xa100", "8xh100", "8xh200", "8xl40s", "8xt4"}
    a100, h100 = servers["8xa100"], servers["8xh100"]
    assert (a100.max_kw, a100.idle_kw, a100.load_kw) == (6.5, 1.5, 5.5)
    assert (h100.price, h100.currency, h100.max_kw, h100.idle_kw, h100.load_kw) == (
        300_000,
        "USD",
        10.2,
        2.5,
        8.0,
    )
    assert (servers["8xl40s"].idle_kw, servers["8xt4"].load_kw) == (0.8, 1.0)


def test_seeding_runs_once(con: duckdb.DuckDBPyConnection) -> None:
    list_prices(con)

    assert ensure_seeded(con) is None
    assert con.execute("SELECT count(*) FROM price_book_seedings").fetchone() == (1,)


@pytest.mark.parametrize(
    ("today", "stale"),
    [
        (TODAY, False),
        (date(2026, 11, 9) + timedelta(days=90), False),
        (date(2026, 11, 9) + timedelta(days=91), True),
    ],
)
def test_prices_older_than_90_days_are_stale(
    con: duckdb.DuckDBPyConnection, today: date, stale: bool
) -> None:
    assert price_point(con, P5, today=today).is_stale is stale


def test_staleness_limit_comes_from_argument_env_then_assumption(
    con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    def p5_is_stale(stale_days: int | None = None) -> bool:
        [p5] = [p for p in list_prices(con, today=TODAY, stale_days=stale_days) if p.key == P5]
        return p5.is_stale

    monkeypatch.setenv(STALE_DAYS_ENV, "10")
    assert p5_is_stale()
    assert not p5_is_stale(stale_days=30)
    monkeypatch.delenv(STALE_DAYS_ENV)
    assert not p5_is_stale()
    set_assumption(
        con,
        {"set_name": "reference-defaults", "name": "price_stale_days", "value": 7, "unit": "days"},
    )
    assert p5_is_stale()


def test_a_bad_staleness_setting_is_a_clear_error(
    con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(STALE_DAYS_ENV, "ninety")

    with pytest.raises(PricingError, match=r"PLANNER_PRICE_STALE_DAYS must be a whole number"):
        list_prices(con)


def test_today_is_the_system_clock_unless_injected(con: duckdb.DuckDBPyConnection) -> None:
    p5 = price_point(con, P5)

    assert p5.age_days == (date.today() - date(2026, 11, 9)).days


def test_a_quote_is_normalised_stored_as_the_users_and_listed(
    con: duckdb.DuckDBPyConnection,
) -> None:
    key, change = add_price(con, QUOTE)
    [h800] = list_prices(con, PriceFilter(gpu="H800"), today=TODAY)

    assert (key, change) == ("example-broker/cn-east/8x-h800-sxm/quote", "added")
    assert (h800.gpu_model, h800.gpu_mem_gb, h800.gpu_form) == ("H800", 80, "SXM")
    assert (h800.currency, h800.price_per_gpu_hour, h800.origin) == ("CNY", 22.5, "user")
    assert add_price(con, QUOTE) == (key, "unchanged")


@pytest.mark.parametrize(
    ("query", "memories"),
    [
        ("A100", {None, 40, 80}),
        ("a100", {None, 40, 80}),
        ("A100 80GB", {None, 80}),
        ("A100-80GB", {None, 80}),
        ("nvidia-a100-sxm4-80gb", {None, 80}),
        ("A100 40GB", {None, 40}),
    ],
)
def test_gpu_filter_matches_model_names_however_written(
    con: duckdb.DuckDBPyConnection, query: str, memories: set[int | None]
) -> None:
    found = list_prices(con, PriceFilter(gpu=query), today=TODAY)

    assert {p.gpu_model for p in found} == {"A100"}
    assert {p.gpu_mem_gb for p in found} == memories


def test_a10_a10g_and_a100_are_different_gpus(con: duckdb.DuckDBPyConnection) -> None:
    models = {
        g: {p.gpu_model for p in list_prices(con, PriceFilter(gpu=g))} for g in ("A10", "A10G")
    }

    assert models == {"A10": {"A10"}, "A10G": {"A10G"}}


def test_editing_a_seed_row_makes_it_the_users(con: duckdb.DuckDBPyConnection) -> None:
    edited = edit_price(con, P5, {"price_per_instance_hour": 50.0, "as_of": "2026-11-25"})

    assert (edited.price_per_instance_hour, edited.price_per_gpu_hour) == (50.0, 6.25)
    assert (edited.origin, edited.as_of) == ("user", date(2026, 11, 25))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"price_per_instance_hour": -1},
            r"price_per_instance_hour: expected a price >= 0 and below 100,000,000 \(the price "
            r"book's limit\), got -1",
        ),
        ({"currency": "XYZ"}, r"currency: expected one of USD, CNY, EUR, GBP, JPY, HKD, SGD"),
        ({"as_of": None}, r"as_of: expected a date YYYY-MM-DD, got None"),
        ({"as_of": "30/11/2026"}, r"as_of: expected a date YYYY-MM-DD, got '30/11/2026'"),
        ({"gpus_per_instance": 0}, r"gpus_per_instance: expected a number of GPUs > 0, got 0"),
        ({"gpus_per_instance": -8}, r"gpus_per_instance: expected a number of GPUs > 0"),
        ({"pricing_model": "hourly"}, r"pricing_model: expected one of on_demand, spot, reserved"),
        ({"price_per_gpu_hour": 1.0}, r"price_per_gpu_hour: 1.0 is not price_per_instance_hour"),
        ({"gpu_mem_gb": 40}, r"gpu_mem_gb: 40 contradicts gpu_model 'NVIDIA H800-SXM5-80GB'"),
        ({"upfront_fraction": 1.5}, r"upfront_fraction: expected a fraction from 0 to 1"),
        ({"colour": "blue"}, r"colour: unknown field"),
    ],
)
def test_bad_quotes_are_refused_with_the_field_named(
    con: duckdb.DuckDBPyConnection, changes: dict[str, object], message: str
) -> None:
    with pytest.raises(PlannerError, match=message):
        add_price(con, {**QUOTE, **changes})

    assert len(list_prices(con)) == 67


def test_a_missing_as_of_is_named(con: duckdb.DuckDBPyConnection) -> None:
    quote = {k: v for k, v in QUOTE.items() if k != "as_of"}

    with pytest.raises(PricingError, match=r"as_of: missing; expected a date YYYY-MM-DD"):
        add_price(con, quote)


def test_an_unknown_key_is_a_clear_error(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(PricingError, match=r"No price with key 'aws/nowhere'; `planner prices"):
        price_point(con, "aws/nowhere")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("A100 80GB SXM", ("A100", 80, "SXM")),
        ("NVIDIA-A100-SXM4-80GB", ("A100", 80, "SXM")),
        ("a100_80g", ("A100", 80, None)),
        ("A100-80GB", ("A100", 80, None)),
        ("H100 NVL 94GB", ("H100", 94, "NVL")),
        ("A10G", ("A10G", None, None)),
        ("H20 96GB", ("H20", 96, None)),
        ("H200 141GB", ("H200", 141, None)),
        ("nvidia-tesla-t4", ("T4", None, None)),
        ("Tesla V100-PCIE-32GB", ("V100", 32, "PCIe")),
        ("L40S", ("L40S", None, None)),
        ("RTX 4090", ("RTX4090", None, None)),
        ("Ascend 910B", ("ASCEND-910B", None, None)),
    ],
)
def test_gpu_names_are_split_into_model_memory_and_form(
    text: str, name: tuple[str, int | None, str | None]
) -> None:
    assert parse_gpu(text) == name


def test_edited_assumptions_become_the_users_and_survive_a_reseed(
    con: duckdb.DuckDBPyConnection,
) -> None:
    edited = edit_assumptions(con, "reference-defaults", {"pue": "1.3", "life_years": 4})

    assert [(a.name, a.value, a.origin) for a in edited] == [
        ("pue", 1.3, "user"),
        ("life_years", 4.0, "user"),
    ]
    seeds = shipped_seeds()
    ensure_seeded(con, SeedSet(seeds.version + 1, seeds.rows))
    book = assumption_set(con)
    assert (book["pue"].value, book["pue"].origin) == (1.3, "user")
    assert (book["kwh_price.us"].value, book["kwh_price.us"].origin) == (0.09, "seed")


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            {"pue": 1.2, "kwh_price.us": "cheap"},
            "assumption kwh_price.us: value: expected a number",
        ),
        ({"pue": None}, "assumption pue: value: expected a number, got None"),
        ({"pue": float("nan")}, "assumption pue: value: expected a number"),
        ({"no_such_thing": 1.0}, "No assumption 'no_such_thing' in set 'reference-defaults'"),
        ({"pue": 0.9}, "assumption pue: value: expected a PUE >= 1, got 0.9."),
        ({"discount.spot": 1.5}, "discount.spot: value: expected a fraction from 0 to 1, got 1.5"),
        ({"life_years": -1}, "life_years: value: expected a number >= 0 (years), got -1."),
    ],
)
def test_a_bad_assumption_edit_changes_nothing(
    con: duckdb.DuckDBPyConnection, values: dict[str, object], message: str
) -> None:
    with pytest.raises(PricingError, match=re.escape(message)):
        edit_assumptions(con, "reference-defaults", values)

    assert (assumption_set(con)["pue"].value, assumption_set(con)["pue"].origin) == (1.5, "seed")


def test_edited_servers_become_the_users_and_survive_a_reseed(
    con: duckdb.DuckDBPyConnection,
) -> None:
    changes = {"price": 2_100_000, "currency": "CNY", "max_kw": 10.5, "load_kw": 8.5}
    [edited] = edit_servers(con, {"8xh100": changes})

    assert (edited.price, edited.currency, edited.max_kw, edited.load_kw) == (
        2_100_000,
        "CNY",
        10.5,
        8.5,
    )
    assert (edited.idle_kw, edited.origin) == (2.5, "user")
    seeds = shipped_seeds()
    ensure_seeded(con, SeedSet(seeds.version + 1, seeds.rows))
    servers = {s.key: s for s in list_servers(con)}
    assert (servers["8xh100"].price, servers["8xh100"].origin) == (2_100_000, "user")
    assert servers["8xa100"].origin == "seed"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"8xh100": {"price": -1}}, "server 8xh100: price: expected a price >= 0"),
        ({"8xh100": {"idle_kw": 9.0}}, "server 8xh100: idle_kw: expected idle_kw <= load_kw"),
        ({"8xh100": {"max_kw": "lots"}}, "server 8xh100: max_kw: expected kW > 0, got 'lots'"),
        ({"8xh100": {"price": 1.0}, "8xnope": {"price": 1.0}}, "No server with key '8xnope'"),
    ],
)
def test_a_bad_server_edit_changes_nothing(
    con: duckdb.DuckDBPyConnection, changes: dict[str, dict[str, object]], message: str
) -> None:
    with pytest.raises(PricingError, match=re.escape(message)):
        edit_servers(con, changes)

    h100 = next(s for s in list_servers(con) if s.key == "8xh100")
    assert (h100.price, h100.idle_kw, h100.origin) == (300_000, 2.5, "seed")
