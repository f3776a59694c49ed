"""A price CSV's rejected rows in 简体中文 (issue 17): the Prices page's reasons are worded
from the importer's English shapes, the values as given; English stays the CLI's text."""

from pathlib import Path

from planner.ui.error_text import price_row_words
from pricing.models import future_date
from pricing.prices_csv import quotes_from_csv
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
