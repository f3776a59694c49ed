"""A price CSV's rejected rows in 简体中文 (issue 17): the Prices page's reasons are worded
from the importer's English shapes, the values as given; English stays the CLI's text."""

from pathlib import Path

import pytest

from planner.store import connect
from planner.ui.error_text import error_text, price_row_words
from pricing.errors import PricingError
from pricing.models import future_date
from pricing.points import add_price
from pricing.prices_csv import quotes_from_csv
from pricing.servers import add_server
from tests.pages.test_hostile_uploads_zh import english_phrases

QUOTES = Path(__file__).parent / "data" / "prices_quotes.csv"


def test_every_rejected_cell_of_a_bad_price_file_is_worded_in_chinese() -> None:
    header, good, *_ = QUOTES.read_text(encoding="utf-8").splitlines()
    cells = good.split(",")
    bad_price = [*cells[:5], "lots", *cells[6:]]
    future = ["Future Broker", *cells[1:10], "2999-01-01", *cells[11:]]
    no_model = [*cells[:3], "", *cells[4:]]
    text = "\n".join(
        [header, good, good, ",".join(bad_price), ",".join(future), ",".join(no_model)]
    )

    quotes, errors = quotes_from_csv(text + "\n" + good + ",extra,cell\n")
    [(field, message)] = [found for q in quotes if (found := future_date(q))]
    worded = {e.message: price_row_words(e.column, e.message, "zh") for e in errors}
    worded[message] = price_row_words(field, message, "zh")

    assert len(worded) == 5
    for english, chinese in worded.items():
        assert chinese != english
        assert not english_phrases(chinese), chinese
        assert price_row_words("x", english, "en") == english
    assert "与第 2 行重复" in worded.values()
    assert "单元格比表头的列多" in worded.values()
    assert "应为大于或等于 0 且低于价格簿上限的价格，实际为 'lots'" in worded.values()
    assert any(c.startswith("2999-01-01 晚于今天（") for c in worded.values())
    assert any(c.startswith("缺少此项；应为GPU 型号") for c in worded.values())


def test_a_message_of_an_unknown_shape_stays_english() -> None:
    assert price_row_words("rate", "something new", "zh") == "something new"


def test_a_price_or_server_added_by_hand_is_refused_in_chinese_problem_by_problem(
    tmp_path: Path,
) -> None:
    """The add and edit forms show the price book's refusal: every field's problem, in
    Chinese as a price CSV's rejected cell is worded; English stays the CLI's."""
    price = {
        "provider": "Acme", "instance_type": "x8", "gpu_model": "---", "gpus_per_instance": 8,
        "price_per_instance_hour": -1, "currency": "USD", "pricing_model": "on_demand",
        "as_of": "2026-11-01",
    }  # fmt: skip
    server = {
        "gpu_model": "H100", "gpus_per_server": 8, "price": 250000, "currency": "USD",
        "max_kw": 10.0, "idle_kw": 3.0, "load_kw": 12.0, "as_of": "2999-01-01",
    }  # fmt: skip
    with connect(tmp_path / "p.duckdb") as con:
        refusals = []
        cases = (
            (add_price, price),
            (add_price, {**price, "price_per_instance_hour": 20.0}),
            (add_server, server),
            (add_server, {**server, "load_kw": 9.0}),
        )
        for add, row in cases:
            with pytest.raises(PricingError) as caught:
                add(con, row)
            refusals.append(caught.value)

    zh = [error_text(err, "zh") for err in refusals]
    assert [error_text(err, "en") for err in refusals] == [str(err) for err in refusals]
    assert str(refusals[0]).startswith("Invalid price: price_per_instance_hour: expected")
    for text in zh:
        assert not english_phrases(text), text
    assert (
        zh[0]
        == "价格无效：price_per_instance_hour：应为大于或等于 0 且低于价格簿上限的价格，实际为 -1。"
    )
    assert zh[1].startswith("价格无效：gpu_model：应为GPU 型号，例如 A100 或 H100，实际为")
    assert zh[2].startswith("服务器无效：idle_kw：应为")
    assert zh[3].startswith("服务器无效：as_of：2999-01-01 晚于今天（")
