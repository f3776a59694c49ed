"""简体中文 covers what a user sees: every page run in Chinese on a fresh database with the
bundled sample (the Replay page after a run, the Compare page on its worked example and on the
sample's own-vs-rent-vs-hybrid comparison) shows no English word in its charts (titles, axis
and legend titles, trace names, hover text, annotations), table headers, headings, captions,
notes, buttons, labels and options.

What may stay in Latin letters, and why:
- the data's own names: team and queue names from the trace, scenario and option names from
  the scenario files, providers, instances, regions and GPU models from the price book, file
  names and trace ids (the user typed or uploaded them; translating them would hide them);
  the price book's stored keys hold its pricing models' codes ("aws/.../on_demand");
- technical tokens a Chinese reader of this tool uses as they are (`TECHNICAL`: units, currency
  codes, file formats, finance acronyms, the Kubernetes schedulers' own names);
- command lines and YAML/CSV field names quoted as inline code (`planner replay`), typed as
  they are written;
- a code after its Chinese reading, "集群已满 (cluster_full)": the identifier the CSV and YAML
  use, shown so the reader can match them.

The pages run once per module (a fixture); each test reads their collected texts.
"""

import functools
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml
from streamlit.testing.v1 import AppTest

from tests.pages.app import RUN_CEILING_S, open_app_page

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = RUN_CEILING_S
PAGES = ("overview", "history", "cluster", "fill", "replay", "prices", "compare", "capacity")
RUN_BUTTONS = {"fill": "fill_run", "replay": "replay_run"}  # pages whose results need a run
_TECHNICAL_WORDS = """
    GPU CPU MIG FGD GiB KiB MB GB TB kW kWh PUE UTC ATC NPV IRR EAC TCO SKU FX BI SXM
    CSV TSV TXT XLSX xlsx YAML YML GZ PDF Excel JSON json gzip API URL
    kubectl Kubernetes Kueue Volcano ClusterQueue WorkloadPriorityClass Pod EASY FIFO
    Koordinator Slurm openb Kubecost OpenCost DCGM Prometheus
    USD CNY EUR GBP JPY HKD SGD KRW TWD INR AUD CAD CHF
    FinOps FOCUS
"""
TECHNICAL = frozenset(_TECHNICAL_WORDS.split())
# The language switch names each language in its own script.
BILINGUAL = ("Language / 语言", "English")
_CODE_SPAN = re.compile(r"`[^`]*`")
_CSS_CONTENT = re.compile(r'content: "([^"]*)"')  # the words a style puts on the page
_GLOSS = re.compile(r"(?<=[\u3000-\u9fff\uff00-\uffef])\s*[(（][A-Za-z0-9_.\-]+[)）]")
_PLOTLY = re.compile(r"%\{[^}]*\}|<extra>.*?</extra>|</?[a-z]+>|&[a-z]+;")
_ICON = re.compile(r":material/[a-z_]+:")
_TRACE_ID = re.compile(r"\b(?=[a-f]*\d)[0-9a-f]{12}\b")  # a stored trace's id
_SERVER = re.compile(r"(?<=\d)x(?=[A-Z])")  # "8xA100": a server of 8 GPUs of a model
_WORD = re.compile(r"[A-Za-z]{2,}")
Names = list[str]


# --- what the pages show -----------------------------------------------------------------


def _open(page: str, **state: Any) -> AppTest:
    # "lang" before the first run, as the sidebar switch does
    return open_app_page(f"pages/{page}.py", TIMEOUT_S, lang="zh", **state)


def _chart_texts(spec: dict[str, Any]) -> Iterator[tuple[str, str]]:
    layout = spec.get("layout", {})
    for name, part in layout.items():
        title = part.get("title") if isinstance(part, dict) else None
        if name == "title":
            title = part
        text = title.get("text") if isinstance(title, dict) else title
        if isinstance(text, str):
            yield f"chart {name} title", text
    for note in layout.get("annotations") or ():
        yield "chart annotation", str(note.get("text", ""))
    for trace in spec.get("data", ()):
        for field in ("name", "hovertemplate", "text", "x", "y"):
            value = trace.get(field)
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, str):
                    yield f"chart trace {field}", item


def _table_headers(node: Any) -> Iterator[str]:
    config = json.loads(node.proto.columns or "{}")
    frame = node.value
    for column in frame.columns:
        shown = config.get(str(column), {})
        if shown.get("hidden"):
            continue
        yield str(shown.get("label") or column)


def _texts(node: Any) -> Iterator[tuple[str, str]]:
    """(where, text) for `node` and everything under it."""
    kind = getattr(node, "type", type(node).__name__)
    proto: Any = getattr(node, "proto", None)
    if kind == "plotly_chart":
        yield from _chart_texts(json.loads(proto.spec))
    elif kind == "html" and proto.body.startswith("<style>"):  # the frame's dropzone style:
        yield from ((f"{kind} style", t) for t in _CSS_CONTENT.findall(proto.body))  # its words
    elif kind in ("dataframe", "arrow_data_frame"):
        yield from ((f"{kind} header", h) for h in _table_headers(node))
    else:
        for field in ("label", "body", "help", "placeholder"):
            value = getattr(proto, field, None) if proto is not None else None
            if isinstance(value, str) and value:
                yield f"{kind} {field}", value
        if proto is not None and kind == "metric":
            yield "metric value", proto.body
        for option in getattr(proto, "options", ()) or ():
            yield f"{kind} option", getattr(option, "content", None) or str(option)
    for child in getattr(node, "children", {}).values():
        yield from _texts(child)


@pytest.fixture(scope="module")
def toured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every page's element tree in Chinese, by page (each page run once for the module)."""
    patch = pytest.MonkeyPatch()
    patch.setenv("PLANNER_DB", str(tmp_path_factory.mktemp("zh") / "planner.duckdb"))
    try:
        found: dict[str, Any] = {}
        for page in PAGES:
            at = _open(page)
            if page in RUN_BUTTONS:
                at = at.button(key=RUN_BUTTONS[page]).click().run()
            assert not at.exception, f"{page}: {at.exception}"
            found[page] = at._tree
        at = _open("compare", compare_scenario="sample-tco.yaml")
        assert not at.exception
        found["compare sample-tco.yaml"] = at._tree
        answer = at.session_state["compare_last_report"]  # what Overview answers from
        at = _open("overview", compare_last_report=answer)
        found["overview after compare"] = at._tree
    finally:
        patch.undo()
    return found


@pytest.fixture(scope="module")
def shown(toured: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """Every page's texts in Chinese, by page."""
    return {page: list(_texts(tree)) for page, tree in toured.items()}


# --- what may stay in Latin letters ------------------------------------------------------


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@pytest.fixture(scope="module")
def data_names() -> Names:
    """The names the data brings."""
    names: set[str] = set()
    for path in (ROOT / "data" / "scenarios").glob("*.yaml"):
        names.add(path.name)
        names |= set(_strings(yaml.safe_load(path.read_text(encoding="utf-8"))))
    for path in (ROOT / "data" / "traces").glob("*.csv"):
        names |= {path.name, path.stem}  # the stem names the stored trace
        names |= _cells(pd.read_csv(path))
    names |= _price_book_names()
    return named(n for n in names if re.search("[A-Za-z]", n))


def named(names: Iterable[str]) -> Names:
    """The names, longest first ("AWS China" goes before "AWS"; a queue "M" must not hide
    "MIG")."""
    return sorted(names, key=len, reverse=True)


@functools.cache
def _whole(name: str) -> re.Pattern[str]:
    """`name` as a whole word. Compiled only for a name some text contains: the data bring
    tens of thousands (job ids, times), compiling each up front took about 12 s of CPU."""
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])")


def _price_book_names() -> set[str]:
    from planner.ui import prices_view

    book = prices_view.read_book("USD")
    return _cells(book.prices, book.fx, book.servers, book.assumptions)


def _cells(*frames: pd.DataFrame) -> set[str]:
    """The text values in `frames`."""
    return {v for f in frames for c in f.columns for v in f[c].unique() if isinstance(v, str)}


def english_words(text: str, names: Names) -> list[str]:
    """The English words left in `text` once the allowed parts are taken out."""
    if text in BILINGUAL:
        return []
    rest = _ICON.sub(" ", _PLOTLY.sub(" ", _CODE_SPAN.sub(" ", text.replace("\u2060", ""))))
    rest = _GLOSS.sub(" ", _TRACE_ID.sub(" ", rest))
    for name in names:
        if name in rest:  # a cheap test first: the pattern is slower
            rest = _whole(name).sub(" ", rest)
    rest = _SERVER.sub(" ", rest)
    return [word for word in _WORD.findall(rest) if word not in TECHNICAL]


def _leftovers(
    shown: dict[str, list[tuple[str, str]]], names: Names, kinds: tuple[str, ...]
) -> list[str]:
    found, said = [], {}  # the same text on several pages is checked once
    for page, texts in shown.items():
        for where, text in texts:
            if not where.startswith(kinds):
                continue
            if text not in said:
                said[text] = english_words(text, names)
            words = said[text]
            if words:
                found.append(f"{page} | {where} | {' '.join(words)} | {text[:60]!r}")
    return sorted(set(found))


def test_the_charts_speak_chinese(
    shown: dict[str, list[tuple[str, str]]], data_names: Names
) -> None:
    assert sum(where.startswith("chart") for t in shown.values() for where, _ in t) > 50
    left = _leftovers(shown, data_names, ("chart",))
    assert left == [], "\n".join(left)


def test_the_table_headers_speak_chinese(
    shown: dict[str, list[tuple[str, str]]], data_names: Names
) -> None:
    kinds = ("dataframe", "arrow_data_frame")
    assert sum(where.startswith(kinds) for t in shown.values() for where, _ in t) > 50
    left = _leftovers(shown, data_names, kinds)
    assert left == [], "\n".join(left)


def test_everything_else_speaks_chinese(
    shown: dict[str, list[tuple[str, str]]], data_names: Names
) -> None:
    others = tuple({where.split()[0] for t in shown.values() for where, _ in t} - {"chart"})
    others = tuple(k for k in others if k not in ("dataframe", "arrow_data_frame"))
    left = _leftovers(shown, data_names, others)
    assert left == [], "\n".join(left)


def test_the_check_catches_english() -> None:
    # The filter must not be so loose that it lets English through.
    names = named(["team-a", "AWS H100 on-demand", "M"])
    assert english_words("Cumulative cash out, by option", names) == [
        "Cumulative",
        "cash",
        "out",
        "by",
        "option",
    ]
    assert english_words("AWS H100 on-demand 的每有效 GPU 小时", names) == []
    assert english_words("集群已满 (cluster_full)", names) == []
    assert english_words("%{y:,.2f} USD<extra>self-hosted</extra>", names) == []
    assert english_words("用 `planner replay` 运行", names) == []
    assert english_words("MIG 布局", names) == []
    assert english_words("break-even with %{customdata[0]}", names) == ["break", "even", "with"]


# --- no "None" and no empty chart, on the same tour (neither depends on the language) ------


def _elements(node: Any) -> Iterator[Any]:
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _elements(child)


def _of_kind(toured: dict[str, Any], *kinds: str) -> Iterator[tuple[str, Any]]:
    for page, tree in toured.items():
        for node in _elements(tree):
            if getattr(node, "type", None) in kinds:
                yield page, node


def test_no_table_shows_none_for_a_missing_value(toured: dict[str, Any]) -> None:
    """Streamlit writes "None" in a table cell with no value unless the table names a
    placeholder; every table sets one (the missing values are there: cloud options have no
    allocation, a team no quota)."""
    tables = list(_of_kind(toured, "dataframe", "arrow_data_frame"))
    assert len(tables) > 10
    unset = [page for page, node in tables if not node.proto.placeholder]
    assert unset == []
    missing = sum(int(node.value.isna().to_numpy().sum()) for _, node in tables)
    assert missing > 0  # the tour does show tables with missing values


def test_no_chart_is_drawn_empty(toured: dict[str, Any]) -> None:
    """A chart with nothing to draw is replaced by a sentence saying why."""
    charts = list(_of_kind(toured, "plotly_chart"))
    assert len(charts) > 10
    empty = []
    for page, node in charts:
        spec = json.loads(node.proto.spec)
        points = sum(len(t.get("x") or t.get("y") or t.get("values") or ()) for t in spec["data"])
        if points == 0:
            empty.append(f"{page}: {spec['layout'].get('title')}")
    assert empty == []
