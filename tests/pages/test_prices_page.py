"""The prices page, run headlessly through the app's entrypoint with AppTest."""

import json
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from planner.ui import prices_view
from tests.pages.app import APP, open_app_page

PAGE = "pages/prices.py"
QUOTES = Path(__file__).resolve().parents[1] / "data" / "prices_quotes.csv"
TIMEOUT_S = 60  # the first run seeds the price book


def open_page() -> AppTest:
    return open_app_page(PAGE, TIMEOUT_S)


def table(at: AppTest, column: str) -> pd.DataFrame:
    """The first table on the page with `column` (tables are not looked up by key)."""
    for frame in at.dataframe:
        if column in frame.value.columns:
            return frame.value
    raise AssertionError(f"no table with a {column!r} column")


def prices(at: AppTest) -> pd.DataFrame:
    return table(at, "price_per_instance_hour")


def fill_quote(at: AppTest, **changes: object) -> AppTest:
    values: dict[str, object] = {
        "provider": "Example Broker",
        "instance": "8x H800",
        "gpu": "H800 80GB SXM",
        "gpus": 8.0,
        "price": 168.0,
        "currency": "CNY",
        "model": "quote",
    } | changes
    for name in ("provider", "instance", "gpu"):
        at.text_input(key=f"prices_add_{name}").set_value(values[name])
    for name in ("gpus", "price"):
        at.number_input(key=f"prices_add_{name}").set_value(values[name])
    for name in ("currency", "model"):
        at.selectbox(key=f"prices_add_{name}").set_value(values[name])
    return at.button(key="prices_add_submit").click().run()


def test_the_page_shows_the_seeded_prices_with_stale_flags(db: Path) -> None:
    at = open_page()

    assert not at.exception
    assert not at.error
    assert at.title[0].value == "Prices"
    shown = prices(at)
    p5 = shown[(shown["instance_type"] == "p5.48xlarge") & (shown["pricing_model"] == "on_demand")]
    assert p5["provider"].tolist() == ["AWS"]
    assert p5["price_per_instance_hour"].tolist() == [55.04]
    assert p5["confidence"].tolist() == ["H"]
    # Capacity-block prices are dated 2024-12-31: older than 90 days on any later day.
    blocks = shown[shown["pricing_model"] == "capacity_block"]
    assert len(blocks) == 3
    assert blocks["stale"].all()
    assert not shown["stale"].all()
    assert at.session_state["reporting_currency"] == "USD"


def test_filtering_by_provider_narrows_the_table(db: Path) -> None:
    at = open_page()
    everything = prices(at)

    at.multiselect(key="prices_provider").set_value(["Lambda"]).run()

    assert not at.exception
    shown = prices(at)
    assert set(shown["provider"]) == {"Lambda"}
    assert len(shown) == (everything["provider"] == "Lambda").sum()
    assert len(shown) < len(everything)


def test_filters_combine_gpu_and_pricing_model(db: Path) -> None:
    at = open_page()

    at.multiselect(key="prices_gpu").set_value(["H100"])
    at.multiselect(key="prices_model").set_value(["capacity_block"]).run()

    assert not at.exception
    shown = prices(at)
    assert shown["instance_type"].tolist() == ["p5.48xlarge"]


def test_adding_a_valid_quote_adds_a_row_that_survives_a_rerun(db: Path) -> None:
    at = open_page()
    before = len(prices(at))

    at = fill_quote(at)

    assert not at.exception
    assert not at.error
    assert "example-broker/-/8x-h800/quote added" in at.success[0].value
    shown = prices(at)
    assert len(shown) == before + 1
    added = shown[shown["provider"] == "Example Broker"]
    assert added["price_per_instance_hour"].tolist() == [168.0]
    assert added["price_per_gpu_hour"].tolist() == [21.0]
    assert added["currency"].tolist() == ["CNY"]
    assert added["gpu_model"].tolist() == ["H800"]

    at.run()

    assert len(prices(at)) == before + 1


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"price": -5.0}, "price_per_instance_hour: expected a price >= 0"),
        ({"gpus": 0.0}, "gpus_per_instance: expected a number of GPUs > 0"),
        ({"provider": ""}, "provider: expected a provider name"),
        ({"gpu": ""}, "gpu_model: expected a GPU model"),
    ],
)
def test_an_invalid_quote_is_reported_not_stored(
    db: Path, changes: dict[str, object], message: str
) -> None:
    at = open_page()
    before = len(prices(at))

    at = fill_quote(at, **changes)

    assert not at.exception
    assert message in at.error[0].value
    assert not at.success
    assert len(prices(at)) == before


def test_importing_a_csv_reports_imported_and_rejected_rows(db: Path) -> None:
    at = open_page()
    before = len(prices(at))

    upload = ("prices_quotes.csv", QUOTES.read_bytes(), "text/csv")
    at.file_uploader(key="prices_import").set_value(upload).run()

    assert not at.exception
    assert at.warning[0].value == "6 rows: 2 added, 0 updated, 0 unchanged, 4 rejected"
    rejected = table(at, "reason")
    assert rejected["row"].tolist() == [4, 5, 6, 7]
    assert rejected["column"].tolist() == [
        "price_per_instance_hour",
        "currency",
        "gpus_per_instance",
        "as_of",
    ]
    assert "got '-5'" in rejected["reason"].iloc[0]
    assert len(prices(at)) == before + 2

    at.run()  # the same upload is not imported again

    assert at.warning[0].value == "6 rows: 2 added, 0 updated, 0 unchanged, 4 rejected"
    assert len(prices(at)) == before + 2


def test_an_oversized_upload_is_refused_with_its_size(db: Path) -> None:
    at = open_page()
    big = b"x" * (prices_view.MAX_UPLOAD_MB * 1024 * 1024 + 1)

    at.file_uploader(key="prices_import").set_value(("big.csv", big, "text/csv")).run()

    assert not at.exception
    assert "big.csv is 5.0 MB; the page imports price files up to 5 MB" in at.error[0].value


def test_a_file_that_is_not_utf8_is_reported_by_its_name(db: Path) -> None:
    at = open_page()

    at.file_uploader(key="prices_import").set_value(("bad.csv", b"\xff\xfe\x00x", "text/csv")).run()

    assert not at.exception
    assert at.error[0].value == "bad.csv is not UTF-8 text; save it as UTF-8 CSV."


def test_the_export_button_offers_the_price_book(db: Path) -> None:
    at = open_page()

    button = at.download_button(key="prices_export")

    assert button.proto.label == "Download the price book (CSV)"
    assert prices_view.export_csv().decode().startswith("key,provider,region,instance_type")


def test_the_fx_table_flags_the_placeholder_rates(db: Path) -> None:
    at = open_page()

    fx = table(at, "placeholder")

    assert not at.exception
    assert len(fx) == 6
    assert fx["placeholder"].all()
    assert set(fx["quote"]) == {"CNY", "EUR", "GBP", "JPY", "HKD", "SGD"}


def test_an_added_fx_rate_is_shown_and_not_a_placeholder(db: Path) -> None:
    at = open_page()
    at.selectbox(key="prices_fx_quote").set_value("CNY")
    at.number_input(key="prices_fx_rate").set_value(7.12)
    at.text_input(key="prices_fx_source").set_value("PBOC central parity")

    at = at.button(key="prices_fx_submit").click().run()

    assert not at.exception
    assert not at.error
    fx = table(at, "placeholder")
    added = fx[fx["source"] == "PBOC central parity"]
    assert added["rate"].tolist() == [7.12]
    assert not added["placeholder"].any()


def test_an_fx_rate_of_a_currency_to_itself_is_reported(db: Path) -> None:
    at = open_page()
    at.selectbox(key="prices_fx_quote").set_value("USD")

    at = at.button(key="prices_fx_submit").click().run()

    assert not at.exception
    assert "expected a currency other than the base USD" in at.error[0].value


def test_the_reporting_currency_converts_prices_and_is_remembered(db: Path) -> None:
    at = open_page()

    at.selectbox(key="prices_reporting_currency").set_value("CNY").run()

    assert not at.exception
    assert at.session_state["reporting_currency"] == "CNY"
    shown = prices(at)
    usd = shown[shown["currency"] == "USD"]
    ratio = usd["reporting_per_gpu_hour"] / usd["price_per_gpu_hour"]
    assert ratio.round(6).eq(7.3).all()  # the seeded placeholder USD/CNY rate
    at.switch_page("pages/overview.py").run()
    at.switch_page(PAGE).run()
    assert at.selectbox(key="prices_reporting_currency").value == "CNY"


def test_bare_metal_servers_and_assumptions_are_shown_with_confidence(db: Path) -> None:
    at = open_page()

    servers = table(at, "max_kw")
    assumptions = table(at, "unit")

    assert not at.exception
    assert "8xh100" in servers["server"].tolist()
    assert {"source", "confidence"} <= set(servers.columns)
    pue = assumptions[assumptions["name"] == "pue"]
    assert pue["value"].tolist() == [1.5]
    assert pue["confidence"].notna().all()
    assert len(assumptions) == 38


def open_in_chinese() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.session_state["lang"] = "zh"
    return at.run().switch_page(PAGE).run()


def headers(at: AppTest, column: str) -> dict[str, str]:
    """The shown header of each configured column of the first table with `column`."""
    frame = next(f for f in at.dataframe if column in f.value.columns)
    config = json.loads(frame.proto.columns)
    return {name: c.get("label") for name, c in config.items()}


def test_the_page_is_in_chinese(db: Path) -> None:
    at = open_in_chinese()

    assert not at.exception
    assert at.title[0].value == "价格"
    assert [tab.label for tab in at.tabs] == ["云价格", "添加或导入", "汇率", "裸金属"]
    assert at.selectbox(key="prices_reporting_currency").label == "报告币种"
    shown = headers(at, "price_per_instance_hour")
    assert shown["provider"] == "供应商"
    assert shown["reporting_per_gpu_hour"] == "每 GPU 小时（USD）"
    assert at.button(key="prices_add_submit").label == "添加报价"


def test_an_import_summary_and_a_stored_quote_are_reported_in_chinese(db: Path) -> None:
    at = open_in_chinese()
    upload = ("prices_quotes.csv", QUOTES.read_bytes(), "text/csv")
    at.file_uploader(key="prices_import").set_value(upload).run()

    assert at.warning[0].value == "共 6 行：2 行已添加，0 行已更新，0 行未变化，4 行被拒绝"
    assert headers(at, "reason")["reason"] == "原因"

    at = fill_quote(at)

    assert not at.exception
    assert at.success[0].value == "报价 example-broker/-/8x-h800/quote 已添加。"
