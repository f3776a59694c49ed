"""The Prices page's quote form asks a term (1-120 months) for the pricing models that commit
to one, stores it as the price book's `term_months`, and asks none for the others (issue 17)."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.test_prices_page import open_page, prices


def has_term_field(at: AppTest) -> bool:
    return any(widget.key == "prices_add_term" for widget in at.number_input)


def fill_commitment(at: AppTest, model: str, term: int | None) -> AppTest:
    """Choose `model` (the term field shows on the rerun), fill the form and submit it."""
    at.selectbox(key="prices_add_model").set_value(model).run()
    at.text_input(key="prices_add_provider").set_value("Example Cloud")
    at.text_input(key="prices_add_instance").set_value("8x H100 reserved")
    at.text_input(key="prices_add_gpu").set_value("H100")
    at.number_input(key="prices_add_gpus").set_value(8.0)
    at.number_input(key="prices_add_price").set_value(20.0)
    at.selectbox(key="prices_add_currency").set_value("USD")
    at.number_input(key="prices_add_term").set_value(term)
    return at.button(key="prices_add_submit").click().run()


def test_on_demand_quotes_ask_no_term(db: Path) -> None:
    at = open_page()

    assert at.selectbox(key="prices_add_model").value == "on_demand"
    assert not has_term_field(at)
    at.selectbox(key="prices_add_model").set_value("spot").run()
    assert not has_term_field(at)


def test_a_reserved_quote_stores_its_term(db: Path) -> None:
    at = open_page()
    before = len(prices(at))

    at = fill_commitment(at, "reserved", 12)

    assert not at.exception
    assert not at.error
    assert "example-cloud/-/8x-h100-reserved/reserved/12m added" in at.success[0].value
    shown = prices(at)
    assert len(shown) == before + 1
    added = shown[shown["provider"] == "Example Cloud"]
    assert added["pricing_model"].tolist() == ["reserved"]
    assert added["term_months"].tolist() == [12]


@pytest.mark.parametrize(
    ("term", "message"),
    [
        (None, "A reserved price needs its term"),
        (0, "The term must be 1 to 120 months, got 0."),
        (121, "The term must be 1 to 120 months, got 121."),
    ],
)
def test_a_missing_or_out_of_range_term_is_refused(
    db: Path, term: int | None, message: str
) -> None:
    at = open_page()
    before = len(prices(at))

    at = fill_commitment(at, "reserved", term)

    assert not at.exception
    assert message in at.error[0].value
    assert not at.success
    assert len(prices(at)) == before
