"""User text (scenario, option, file, queue and column names, values from uploads, error
messages quoting them) shown literally where Streamlit renders Markdown or plotly renders its
HTML subset.

Streamlit renders Markdown in `st.markdown`, `st.info`/`st.error`/..., `st.caption`, headers,
metric labels and values, widget labels and help, radio options and expander titles, plus
its own `:color[...]`, `:material/...:` and emoji directives and `$...$` LaTeX. A scenario
named `[Sign in](http://evil.example)` must read as that text, not be a link. Use `md` for
user text inside Markdown (a whole message or a template's value), `code` for a value shown
as inline code. Plotly renders `<a href>`, `<b>`, `<br>`... in names, ticks and hover text:
`plot` (planner/ui/widgets.py) passes every figure through `safe_figure`.
"""

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
# Inline constructs, wherever they are: escapes, emphasis, strikethrough, links and images
# ([), entities (&: "&#58;" would rebuild "http://"), LaTeX ($), tables (|), and a "<" that
# starts a tag or autolink ("<=" stays). `!` and `(` only act next to `[`/`]`, so escaping
# the brackets is enough; `_` between letters or digits (gpus_per_node) cannot start
# emphasis and is kept. Backticks are kept: nothing renders inside a code span, and
# messages name commands in them (`planner ingest FILE`).
_INLINE = re.compile(r"([\\*~\[\]&$|]|<(?=[A-Za-z/!?])|(?<![^\W_])_|_(?![^\W_]))")
# Streamlit and GFM also rewrite the *text* after escapes are resolved: URLs (http://...,
# www.x), e-mail addresses, emoji (:smile:) and icons (:material/home:). A backslash does not
# stop those, an invisible word joiner between the characters does: after a colon that
# touches a word or "/", before "@", after "www".
JOINER = "\u2060"
_TEXT_LINKS = re.compile(r"(?i)(:)(?=[\w/])|(?<=www)(?=\.)|(?=@)")
# Block markers at the start: headings, quotes, lists, setext underlines, ordered lists.
_LEADING = re.compile(r"^(\s*)([#>+\-=]|\d+(?=[.)]))")


def md(text: object) -> str:
    """`text` escaped so Markdown shows it as it is, on one line (control characters and
    line breaks become spaces). Letters, digits, spaces, `.`, `-`, `'`, `_` inside a word and
    a colon before a space are kept: "Saved 'cloud-on-demand'." and "a.csv: row 3, gpus_per_node"
    read the same escaped."""
    one_line = _CONTROL.sub(" ", str(text))
    escaped = _TEXT_LINKS.sub(_join, _INLINE.sub(r"\\\1", one_line))
    return _LEADING.sub(_escape_leading, escaped)


def _join(match: re.Match[str]) -> str:
    return (match.group(1) or "") + JOINER


def _escape_leading(match: re.Match[str]) -> str:
    space, marker = match.group(1), match.group(2)
    return f"{space}{marker}\\" if marker[0].isdigit() else f"{space}\\{marker}"


def code(text: object) -> str:
    """`text` as inline code: a backtick fence longer than any run of backticks inside it,
    so the value cannot close the span (Markdown inside code is not rendered)."""
    one_line = _CONTROL.sub(" ", str(text))
    longest = max((len(run) for run in re.findall(r"`+", one_line)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if one_line.startswith("`") or one_line.endswith("`") else ""
    return f"{fence}{pad}{one_line}{pad}{fence}"


_BREAK = re.compile(r"&lt;br\s*/?&gt;", re.IGNORECASE)


def chart_text(text: str) -> str:
    """`text` for plotly: its tags (<a href>, <b>, <span style>, ...) and entities shown as
    text; only a line break <br> still breaks the line (hover texts are built with it)."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _BREAK.sub("<br>", escaped)


# Trace properties that hold data plotly draws as text (legend, ticks, hover, labels).
# Templates (hovertemplate, texttemplate) are ours and keep their tags.
_TRACE_TEXT = ("name", "x", "y", "z", "text", "hovertext", "customdata", "labels", "parents")


def safe_figure(fig: go.Figure) -> go.Figure:
    """A copy of `fig` whose data strings (trace names, categories, text, hover text and
    custom data), titles, annotations and category orders cannot be read as plotly's HTML."""
    safe = go.Figure(fig)
    for trace in safe.data:
        for prop in _TRACE_TEXT:
            if prop in trace and trace[prop] is not None:
                trace[prop] = _escaped(trace[prop])
    safe.for_each_xaxis(_safe_axis)
    safe.for_each_yaxis(_safe_axis)
    layout = safe.layout
    for titled in (layout, layout.legend):
        if titled.title.text is not None:
            titled.title.text = chart_text(titled.title.text)
    for note in layout.annotations:
        if note.text is not None:
            note.text = chart_text(note.text)
    return safe


def _safe_axis(axis: Any) -> None:
    if axis.title.text is not None:
        axis.title.text = chart_text(axis.title.text)
    for prop in ("categoryarray", "ticktext"):
        if axis[prop] is not None:
            axis[prop] = _escaped(axis[prop])


def _escaped(value: Any) -> Any:
    """Strings in `value` (a string, a sequence or an array, nested) escaped; numbers kept."""
    if isinstance(value, str):
        return chart_text(value)
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "biufcmM":
            return value
        return np.vectorize(_escaped, otypes=[object])(value) if value.size else value
    if isinstance(value, Sequence):
        return [_escaped(v) for v in value]
    return value
