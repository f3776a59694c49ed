"""What the cost model asks: SKUs and prices for a GPU model, discounts, servers, assumption sets."""

from datetime import date

import duckdb
import pytest

from pricing import (
    OfferRequest,
    PricingError,
    PricingModel,
    add_price,
    add_server,
    assumption_set,
    assumption_sets,
    copy_assumption_set,
    discount_for,
    offers_for,
    price_for,
    server_for,
)

TODAY = date(2026, 11, 30)


def test_cheapest_h100_of_any_size_is_runpod_community(con: duckdb.DuckDBPyConnection) -> None:
    offer = price_for(con, "H100", today=TODAY)

    assert offer.name == "RunPod H100 SXM (on_demand)"
    assert (offer.price_per_instance_hour, offer.currency) == (2.69, "USD")


def test_a_pod_of_eight_gpus_only_gets_instances_with_eight(
    con: duckdb.DuckDBPyConnection,
) -> None:
    offers = offers_for(con, OfferRequest("H100 80GB", gpus=8), today=TODAY)

    assert [o.point.instance_type for o in offers][:3] == [
        "8x H100 SXM",
        "HGX H100",
        "p5.48xlarge",
    ]
    assert all(o.point.gpus_per_instance >= 8 for o in offers)
    p5 = next(o for o in offers if o.point.instance_type == "p5.48xlarge")
    assert (p5.point.billing_granularity_s, p5.point.min_billing_s, p5.point.is_stale) == (
        1,
        60,
        False,
    )


def test_offers_are_converted_to_the_reporting_currency(con: duckdb.DuckDBPyConnection) -> None:
    offer = price_for(con, "H100", currency="CNY", gpus=8, today=TODAY)

    assert offer.currency == "CNY"
    assert offer.price_per_instance_hour == pytest.approx(31.92 * 7.30)
    assert offer.point.currency == "USD"
    assert offer.conversion.confidence == "L"


def test_offers_in_native_currency_need_no_fx(con: duckdb.DuckDBPyConnection) -> None:
    offers = offers_for(con, OfferRequest("A10G", provider="AWS China"), today=TODAY)

    assert {(o.currency, o.conversion.rate) for o in offers} == {("CNY", 1.0)}


def test_commitments_without_a_quote_are_derived_from_on_demand_with_the_rule(
    con: duckdb.DuckDBPyConnection,
) -> None:
    request = OfferRequest(
        "A100", "reserved", "USD", gpus=8, provider="AWS", term_months=12, derive=True
    )

    offers = offers_for(con, request, today=TODAY)

    p4d = next(o for o in offers if o.point.instance_type == "p4d.24xlarge")
    assert p4d.price_per_instance_hour == pytest.approx(21.957642 * (1 - 0.36))
    assert p4d.discount is not None
    assert (p4d.discount.name, p4d.discount.confidence) == ("discount.reserved.12m@aws", "H")
    assert p4d.name == "AWS p4d.24xlarge (reserved from on_demand)"


def test_a_quoted_commitment_beats_deriving_one(con: duckdb.DuckDBPyConnection) -> None:
    add_price(
        con,
        {
            "provider": "AWS",
            "region": "us-east-1",
            "instance_type": "p5.48xlarge",
            "gpu_model": "H100",
            "gpus_per_instance": 8,
            "price_per_instance_hour": 30,
            "currency": "USD",
            "pricing_model": "reserved",
            "term_months": 12,
            "as_of": "2026-11-20",
        },
    )

    offers = offers_for(con, OfferRequest("H100", "reserved", derive=True), today=TODAY)

    assert [(o.point.instance_type, o.discount) for o in offers] == [("p5.48xlarge", None)]


def test_without_derive_a_missing_model_is_an_empty_list(con: duckdb.DuckDBPyConnection) -> None:
    assert offers_for(con, OfferRequest("H100", "reserved"), today=TODAY) == []


def test_a_gpu_with_no_price_says_which_price_to_add(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(PricingError) as caught:
        price_for(con, "H800", gpus=8, today=TODAY)

    assert str(caught.value) == (
        "No on_demand price for GPU model H800 with at least 8 GPUs per instance in the price "
        "book; add one with `planner prices add --provider P --instance I --gpu H800 --gpus N "
        "--price-per-hour X --currency C --model on_demand --as-of YYYY-MM-DD`."
    )


@pytest.mark.parametrize(
    ("case", "name", "value"),
    [
        (("GCP", "cud", 36, "H100 80GB"), "discount.cud.36m@gcp/H100", 0.56),
        (("GCP", "cud", 36, "L4"), "discount.commit.36m", 0.55),
        (("Azure", "savings_plan", 12, None), "discount.savings_plan.12m@azure", 0.16),
        (("CoreWeave", "spot", None, "A100"), "discount.spot@coreweave/A100", 0.55),
        (("Lambda", "spot", None, "H100"), "discount.spot", 0.60),
        (("Alibaba Cloud", "subscription", 12, "A10"), "discount.subscription.12m", 0.35),
        (("AWS China", "reserved", 36, None), "discount.commit.36m", 0.55),
    ],
)
def test_the_most_specific_discount_rule_wins(
    con: duckdb.DuckDBPyConnection,
    case: tuple[str, PricingModel, int | None, str | None],
    name: str,
    value: float,
) -> None:
    provider, model, term, gpu = case

    rule = discount_for(con, provider, model, term_months=term, gpu=gpu)

    assert (rule.name, rule.value) == (name, value)


def test_a_pricing_model_without_a_rule_is_an_error(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(PricingError, match=r"No discount rule for capacity_block at AWS"):
        discount_for(con, "AWS", "capacity_block")


def test_server_for_a_gpu_model_prefers_the_users_quote(con: duckdb.DuckDBPyConnection) -> None:
    seeded = server_for(con, "NVIDIA H100-SXM5-80GB", today=TODAY)
    add_server(
        con,
        {
            "key": "8xh100-quote",
            "gpu_model": "H100",
            "gpus_per_server": 8,
            "price": 2_100_000,
            "currency": "CNY",
            "max_kw": 10.2,
            "idle_kw": 2.4,
            "load_kw": 7.5,
            "as_of": "2026-11-15",
            "confidence": "H",
        },
    )

    quoted = server_for(con, "H100", gpus_per_server=8, today=TODAY)

    assert (seeded.price, seeded.currency, seeded.is_stale) == (300_000, "USD", True)
    assert (quoted.price, quoted.currency, quoted.origin, quoted.is_stale) == (
        2_100_000,
        "CNY",
        "user",
        False,
    )


def test_a_server_with_inconsistent_power_is_refused(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(PricingError, match=r"idle_kw: expected idle_kw <= load_kw <= max_kw"):
        add_server(
            con,
            {
                "gpu_model": "H20",
                "gpus_per_server": 8,
                "price": 1,
                "currency": "CNY",
                "max_kw": 5,
                "idle_kw": 6,
                "load_kw": 5,
                "as_of": "2026-11-15",
            },
        )


def test_a_gpu_without_a_server_says_what_to_add(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(PricingError, match=r"No bare-metal server price for H800; add one with"):
        server_for(con, "H800")


def test_an_assumption_set_can_be_copied_and_edited_apart(con: duckdb.DuckDBPyConnection) -> None:
    copied = copy_assumption_set(con, "reference-defaults", "shanghai-colo")

    assert copied == 45  # the reference set's 45 rows (the resale value and pool delays among them)
    assert assumption_sets(con) == ["reference-defaults", "shanghai-colo"]
    assert assumption_set(con, "shanghai-colo")["pue"].origin == "user"
    with pytest.raises(PricingError, match=r"exists already"):
        copy_assumption_set(con, "reference-defaults", "shanghai-colo")


def test_an_unknown_assumption_set_lists_the_known_ones(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(PricingError, match=r"No assumption set 'mine'; the sets are: reference"):
        assumption_set(con, "mine")
