"""planner/ui/safe.py: user text shown literally by Streamlit's Markdown and plotly's HTML.

What renders was measured in Chromium against `streamlit run` (Streamlit 1.67): backslash
escapes stop links, images, emphasis, LaTeX and :color[...] directives, but GFM and
Streamlit rewrite URLs, e-mail addresses, emoji and :material/...: icons in the text after
escapes are resolved, so those get an invisible word joiner instead."""

import plotly.graph_objects as go
import pytest

from planner.ui.safe import JOINER, chart_text, code, md, safe_figure

LINK = "[Session expired - click to sign in](http://evil.example/login)"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (LINK, r"\[Session expired - click to sign in\](http:" + JOINER + "//evil.example/login)"),
        ("![t](http://127.0.0.1:9/p.png)", r"!\[t\](http:" + JOINER + "//127.0.0.1:" + JOINER + "9/p.png)"),
        (":red[x] :material/lock: :smile:", r":" + JOINER + r"red\[x\] :" + JOINER + "material/lock: :" + JOINER + "smile:"),
        ("$x^2$ **b** _i_ ~~s~~", r"\$x^2\$ \*\*b\*\* \_i\_ \~\~s\~\~"),
        ("<b>x</b> &amp; a|b &#58; <= 3", r"\<b>x\</b> \&amp; a\|b \&#58; <= 3"),
        ("www.evil.example a@evil.example", "www" + JOINER + ".evil.example a" + JOINER + "@evil.example"),
        ("# title", r"\# title"),
        ("> quote", r"\> quote"),
        ("- item", r"\- item"),
        ("12. item", r"12\. item"),
        ("line\n\n# two\r\x1b[31m", r"line # two \[31m"),
    ],
)  # fmt: skip
def test_markdown_specials_are_escaped(text: str, shown: str) -> None:
    assert md(text) == shown


@pytest.mark.parametrize(
    "text",
    [
        "Saved 'cloud-on-demand'.",
        "a.csv: row 3, gpus_per_node",
        "8x H100 (SXM), p5.48xlarge",
        "东京",
        "no saved scenario named 'x'; `planner scenarios list` shows them",
    ],
)
def test_ordinary_text_is_unchanged(text: str) -> None:
    assert md(text) == text


def test_code_spans_cannot_be_closed_by_the_value() -> None:
    assert code("col") == "`col`"
    assert code("a`b``c") == "```a`b``c```"
    assert code("`x") == "`` `x ``"
    assert code("two\nlines") == "`two lines`"


def test_plotly_text_has_no_tags_but_line_breaks() -> None:
    assert chart_text("<a href='x'>t</a> & <b>") == "&lt;a href='x'&gt;t&lt;/a&gt; &amp; &lt;b&gt;"
    assert chart_text("label<br>p95 wait 2 h<BR/>x") == "label<br>p95 wait 2 h<br>x"
    assert chart_text("&lt;br&gt;") == "&amp;lt;br&amp;gt;"


def test_a_figures_names_categories_and_hover_text_are_escaped_and_numbers_kept() -> None:
    anchor = "<a href='http://evil.example'>team</a>"
    fig = go.Figure(
        go.Bar(
            x=[anchor, "ok"],
            y=[1.5, 2],
            name=anchor,
            customdata=[[anchor, 3], ["ok", 4]],
            hovertemplate="%{x}<br>%{customdata[0]}<extra></extra>",
        )
    )
    fig.update_xaxes(categoryarray=[anchor, "ok"], title=f"Queue {anchor}")
    fig.update_layout(title=f"Waits vs {anchor}", legend_title_text=anchor)
    fig.add_annotation(x=0, y=1, text=f"now: {anchor}")

    safe = safe_figure(fig)

    trace = safe.data[0]
    assert list(trace.x) == [chart_text(anchor), "ok"]
    assert list(trace.y) == [1.5, 2]
    assert trace.name == chart_text(anchor)
    assert [list(row) for row in trace.customdata] == [[chart_text(anchor), 3], ["ok", 4]]
    assert trace.hovertemplate == "%{x}<br>%{customdata[0]}<extra></extra>"  # ours, kept
    assert list(safe.layout.xaxis.categoryarray) == [chart_text(anchor), "ok"]
    assert safe.layout.xaxis.title.text == f"Queue {chart_text(anchor)}"
    assert safe.layout.title.text == f"Waits vs {chart_text(anchor)}"
    assert safe.layout.legend.title.text == chart_text(anchor)
    assert safe.layout.annotations[0].text == f"now: {chart_text(anchor)}"
    assert "<a " not in safe.to_json()
    assert fig.data[0].name == anchor  # the original figure is not changed
