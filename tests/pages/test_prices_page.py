"""The prices page, run headlessly through the app's entrypoint with AppTest."""

import io
import json
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from planner.core.file_access import LOCAL_FILES
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.ui import prices_view
from planner.ui.cache import cursor
from pricing import (
    PRICING_MODELS,
    PricePoint,
    SeedSet,
    assumption_set,
    ensure_seeded,
    list_servers,
    price_point,
    shipped_seeds,
)
from tests.pages.app import RUN_CEILING_S, open_app_page

PAGE = "pages/prices.py"
QUOTES = Path(__file__).resolve().parents[1] / "data" / "prices_quotes.csv"
TIMEOUT_S = RUN_CEILING_S


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
    p5 = shown[(shown["instance_type"] == "p5.48xlarge") & (shown["pricing_model"] == "on demand")]
    assert p5["provider"].tolist() == ["AWS"]
    assert p5["price_per_instance_hour"].tolist() == [55.04]
    assert p5["confidence"].tolist() == ["H"]
    # Capacity-block prices are dated 2024-12-31: older than 90 days on any later day.
    blocks = shown[shown["pricing_model"] == "capacity block"]
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


def test_the_pricing_model_filter_says_each_model_in_words_in_chinese(db: Path) -> None:
    at = open_app_page(PAGE, TIMEOUT_S, lang="zh")

    assert not at.exception
    offered = at.multiselect(key="prices_model").options
    assert {"按需（on_demand）", "竞价（spot）"} <= set(offered)  # the seeded rows' models
    assert "on_demand" not in offered  # never the bare code


# The seeded book's pricing models: 63 on-demand prices, 3 capacity blocks, 1 spot price
# (pricing/seeds/cloud_prices.csv), as the table says them in each language.
SEEDED_MODELS = {"on_demand": 63, "capacity_block": 3, "spot": 1}
WORDS = {
    "en": {"on demand": 63, "capacity block": 3, "spot": 1},
    "zh": {"按需": 63, "容量块": 3, "竞价": 1},
}
# Codes that are not English words: neither language's table may show one. In Chinese no
# code at all ("spot" is the English word as well as the code).
NOT_WORDS = {"on_demand", "savings_plan", "capacity_block", "cud"}


def _cells(shown: pd.DataFrame) -> set[str]:
    """Every cell's text but the stored key's (an identifier `planner prices` takes)."""
    return {str(value) for column in shown.columns if column != "key" for value in shown[column]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_table_says_each_pricing_model_in_words(read_db: Path, lang: str) -> None:
    at = open_app_page(PAGE, TIMEOUT_S, lang=lang)

    assert not at.exception
    shown = prices(at)
    assert shown["pricing_model"].value_counts().to_dict() == WORDS[lang]
    codes = NOT_WORDS | (set(PRICING_MODELS) if lang == "zh" else set())
    assert not _cells(shown) & codes
    # the stored rows behind them: the same models, as codes
    assert shown["key"].str.rsplit("/", n=1).str[1].value_counts().to_dict() == SEEDED_MODELS


def test_a_filtered_table_is_in_words_and_the_download_keeps_the_codes(read_db: Path) -> None:
    at = open_in_chinese()

    at.multiselect(key="prices_model").set_value(["capacity_block", "spot"]).run()

    assert not at.exception
    assert sorted(prices(at)["pricing_model"]) == ["容量块", "容量块", "容量块", "竞价"]
    exported = pd.read_csv(io.BytesIO(prices_view.export_csv()))  # what the button downloads
    assert exported["pricing_model"].value_counts().to_dict() == SEEDED_MODELS


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
    assert len(assumptions) == 45


def open_in_chinese() -> AppTest:
    return open_app_page(PAGE, TIMEOUT_S, lang="zh")


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


# --- editing ------------------------------------------------------------------------------------

P5 = "aws/us-east-1/p5.48xlarge/on_demand"
WORKED_EXAMPLE = Path(__file__).resolve().parents[2] / "data/scenarios/worked-example-h100.yaml"


def edit_price(at: AppTest, key: str, **fields: object) -> AppTest:
    """Pick the price `key`, change the form's fields and press Save."""
    at.selectbox(key="prices_edit_key").set_value(key).run()
    for field, value in fields.items():
        widget = f"prices_edit_{field}"
        element = {
            "price_per_instance_hour": at.number_input,
            "currency": at.selectbox,
            "confidence": at.selectbox,
            "as_of": at.date_input,
        }.get(field, at.text_input)(key=widget)
        element.set_value(value)
    return at.button(key="prices_edit_submit").click().run()


def edit_table(
    at: AppTest, editor: str, column: str, row_key: str, cells: dict[str, object]
) -> AppTest:
    """Edit cells of the row of `row_key` (in `column`) of an editor and press its Save."""
    rows = at.data_editor(key=f"prices_{editor}_editor").value[column].tolist()
    edits = {"edited_rows": {rows.index(row_key): cells}, "added_rows": [], "deleted_rows": []}
    at.session_state[f"prices_{editor}_editor"] = edits
    return at.button(key=f"prices_{editor}_save").click().run()


def stored_price(db: Path, key: str) -> PricePoint:
    with cursor(str(db)) as cur:
        return price_point(cur, key)


def reseed(db: Path) -> None:
    """A price-book update: newer shipped seeds put into the database."""
    seeds = shipped_seeds()
    with cursor(str(db)) as cur:
        assert ensure_seeded(cur, SeedSet(seeds.version + 1, seeds.rows)) is not None


def installed_gpu_hour(db: Path) -> float:
    """What `planner tco` computes for the worked example: cost per installed GPU-hour."""
    scenario = load_tco_scenario(WORKED_EXAMPLE)
    with cursor(str(db)) as cur:
        report = run_tco(cur, scenario, files=LOCAL_FILES)
    return float(report.cost_per_installed_gpu_hour or 0.0)


def test_the_edit_form_is_filled_from_the_chosen_price(db: Path) -> None:
    at = open_page()

    at.selectbox(key="prices_edit_key").set_value(P5).run()

    assert not at.exception
    assert at.number_input(key="prices_edit_price_per_instance_hour").value == 55.04
    assert at.selectbox(key="prices_edit_currency").value == "USD"
    assert at.selectbox(key="prices_edit_confidence").value == "H"
    label = at.selectbox(key="prices_edit_key").format_func(P5)
    assert label == "AWS · p5.48xlarge · on demand · us-east-1 · USD 55.04"


def test_editing_a_price_shows_it_stores_it_as_the_users_and_a_reseed_keeps_it(db: Path) -> None:
    at = open_page()

    at = edit_price(at, P5, price_per_instance_hour=50.0, source_url="our AWS EDP quote")

    assert not at.exception
    assert not at.error
    assert at.success[0].value == f"Price {P5} saved: 50.0000 USD per instance-hour."
    shown = prices(at).set_index("key")
    assert shown.loc[P5, "price_per_instance_hour"] == 50.0
    assert shown.loc[P5, "price_per_gpu_hour"] == 6.25
    assert shown.loc[P5, "origin"] == "user"
    point = stored_price(db, P5)
    assert (point.price_per_instance_hour, point.source_url) == (50.0, "our AWS EDP quote")
    assert point.confidence == "H"  # fields not changed are kept

    reseed(db)

    assert stored_price(db, P5).price_per_instance_hour == 50.0
    assert prices(at.run()).set_index("key").loc[P5, "price_per_instance_hour"] == 50.0


def test_a_negative_price_is_refused_and_changes_nothing(db: Path) -> None:
    at = open_page()

    at = edit_price(at, P5, price_per_instance_hour=-5.0)

    assert not at.exception
    assert not at.success
    assert at.error[0].value.startswith("Nothing was saved: Invalid price")
    assert "price_per_instance_hour: expected a price >= 0" in at.error[0].value
    assert prices(at).set_index("key").loc[P5, "price_per_instance_hour"] == 55.04
    assert (stored_price(db, P5).price_per_instance_hour, stored_price(db, P5).origin) == (
        55.04,
        "seed",
    )
    # the form keeps what was typed, to be corrected
    assert at.number_input(key="prices_edit_price_per_instance_hour").value == -5.0


def test_a_higher_pue_raises_what_tco_computes_and_survives_a_reseed(db: Path) -> None:
    at = open_page()
    before = installed_gpu_hour(db)

    at = edit_table(at, "assumptions", "name", "pue", {"value": 2.0})

    assert not at.exception
    assert not at.error
    assert at.success[0].value == "Saved assumptions: pue."
    shown = at.data_editor(key="prices_assumptions_editor").value.set_index("name")
    assert shown.loc["pue", "value"] == 2.0
    after = installed_gpu_hour(db)
    assert after > before
    reseed(db)
    assert installed_gpu_hour(db) == after


def test_a_non_numeric_assumption_is_refused_with_its_name(db: Path) -> None:
    at = open_page()
    before = installed_gpu_hour(db)

    at = edit_table(at, "assumptions", "name", "kwh_price.us", {"value": "cheap"})

    assert not at.exception
    assert not at.success
    message = at.error[0].value
    assert message.startswith("Nothing was saved: Invalid assumption kwh_price.us")
    assert "value: expected a number, got 'cheap'" in message
    with cursor(str(db)) as cur:
        assert assumption_set(cur)["kwh_price.us"].value == 0.09
    assert installed_gpu_hour(db) == before


def test_a_fraction_above_one_is_refused(db: Path) -> None:
    at = open_page()

    at = edit_table(at, "assumptions", "name", "availability", {"value": 4})

    assert not at.exception
    assert "availability: value: expected a fraction from 0 to 1, got 4" in at.error[0].value
    with cursor(str(db)) as cur:
        assert assumption_set(cur)["availability"].value == 0.95


def test_editing_a_server_price_and_power_is_stored_and_used_by_tco(db: Path) -> None:
    at = open_page()
    before = installed_gpu_hour(db)

    at = edit_table(at, "servers", "server", "8xh100", {"price": 360_000.0, "max_kw": 11.0})

    assert not at.exception
    assert not at.error
    assert at.success[0].value == "Saved servers: 8xh100."
    shown = at.data_editor(key="prices_servers_editor").value.set_index("server")
    assert (shown.loc["8xh100", "price"], shown.loc["8xh100", "max_kw"]) == (360_000.0, 11.0)
    with cursor(str(db)) as cur:
        h100 = next(s for s in list_servers(cur) if s.key == "8xh100")
    assert (h100.price, h100.max_kw, h100.idle_kw, h100.origin) == (360_000.0, 11.0, 2.5, "user")
    assert installed_gpu_hour(db) > before


def test_an_impossible_server_power_is_refused(db: Path) -> None:
    at = open_page()

    at = edit_table(at, "servers", "server", "8xh100", {"idle_kw": 12.0})

    assert not at.exception
    assert "server 8xh100: idle_kw: expected idle_kw <= load_kw <= max_kw" in at.error[0].value
    with cursor(str(db)) as cur:
        h100 = next(s for s in list_servers(cur) if s.key == "8xh100")
    assert (h100.idle_kw, h100.origin) == (2.5, "seed")


def test_editing_is_in_chinese(db: Path) -> None:
    at = open_in_chinese()

    assert at.selectbox(key="prices_edit_key").label == "要编辑的价格"
    assert at.button(key="prices_edit_submit").label == "保存价格"
    assert at.button(key="prices_assumptions_save").label == "保存假设"
    assert at.button(key="prices_servers_save").label == "保存服务器"
    assert headers(at, "unit")["value"] == "数值"

    at = edit_price(at, P5, price_per_instance_hour=50.0)

    assert not at.exception
    assert at.success[0].value == f"价格 {P5} 已保存：每实例小时 50.0000 USD。"

    at = edit_table(at, "assumptions", "name", "pue", {"value": "高"})

    assert at.error[0].value.startswith("未保存任何更改：")
