"""Charts stay readable in the app's light and dark themes: every text plotly draws (titles,
axis titles, tick labels, legends) meets WCAG AA for text (4.5:1) against the page. Streamlit's
chart theme alone draws axis titles and ticks in a faded grey (3.7:1): planner.ui.charts
.readable asks for the body-text colour instead.

The app follows the viewer's system setting (.streamlit/config.toml has a light and a dark
theme), so the browser is asked for one or the other.
"""

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import menu, wait_for_app

pytestmark = pytest.mark.e2e
MIN_CONTRAST = 4.5  # WCAG AA, normal text
HEADINGS = {"compare": "Compare", "history": "Job history"}


def _rgb(css: str) -> tuple[float, float, float]:
    parts = [float(x) for x in re.findall(r"[\d.]+", css)[:3]]
    assert len(parts) == 3, f"not an rgb colour: {css!r}"
    return parts[0], parts[1], parts[2]


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(_rgb(a)), _luminance(_rgb(b))), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_of_known_colours() -> None:
    assert contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)") == pytest.approx(21.0)
    assert contrast("rgb(119, 119, 119)", "rgb(255, 255, 255)") == pytest.approx(4.48, abs=0.01)


def _chart_text_colours(page: Page) -> list[tuple[bool, str, str]]:
    """(is a tick label, text, fill) of every text plotly drew in the first chart."""
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart.locator(".main-svg").first).to_be_visible()
    expect(chart.locator(".xtick text, .ytick text").first).to_be_visible()
    wait_for_app(page)  # the chart is drawn by a finished run, not redrawn by a later one
    fills: list[tuple[bool, str, str]] = chart.evaluate(
        """el => [...el.querySelectorAll('svg text')]
            .filter(t => t.textContent.trim() !== '')
            .map(t => [t.closest('.xtick, .ytick') !== null, t.textContent,
                       getComputedStyle(t).fill])"""
    )
    return fills


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("where", ["compare", "history"])  # pages with charts on open
def test_chart_text_is_readable(
    app_pages: Callable[[str], Page], tmp_path: Path, theme: str, where: str
) -> None:
    # the session's server, read only: one page per theme (the app follows the viewer's
    # light/dark setting), moved between the pages by the menu
    page = app_pages(theme)
    menu(page, HEADINGS[where])
    expect(page.get_by_test_id("stException")).to_have_count(0)
    background = page.get_by_test_id("stApp").evaluate("el => getComputedStyle(el).backgroundColor")
    fills = _chart_text_colours(page)

    assert any(tick for tick, _, _ in fills), "the chart drew no tick labels"
    assert any(not tick for tick, _, _ in fills), "the chart drew no title or legend"
    poor = [(text, fill) for _, text, fill in fills if contrast(fill, background) < MIN_CONTRAST]
    assert poor == [], (theme, background)
    # kept with the run, never in docs/screenshots: no document shows them
    page.screenshot(path=str(tmp_path / f"{where}-{theme}.png"), full_page=True)
