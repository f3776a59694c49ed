"""Hostile names on the pages: scenario, option, file and queue names are shown as the text
they are, never as live Markdown links, images, directives or plotly HTML; names with line
breaks or terminal escapes are refused when saved; downloads quote formula-like cells.

Each test runs a real page on a fresh database (AppTest), with names an attacker would
choose: a fake "session expired" link, an image that fetches from the network, Streamlit's
:color[...] and :material/...: directives, LaTeX and an HTML anchor for plotly."""

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from planner.cli import main
from planner.ui import scenario_box
from planner.ui.safe import chart_text, md
from tests.pages.app import RUN_CEILING_S, open_app_page

SCENARIOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"
TIMEOUT_S = RUN_CEILING_S
LINK = "[Sign in](http://evil.example/login) ![t](http://127.0.0.1:9/p.png)"
DIRECTIVES = ":red[Warning] :material/lock: $x^2$ **bold**"
ANCHOR = "<a href='http://evil.example/a'>team</a>"
OPTION = f"{LINK} {DIRECTIVES}"
# What would render live: a link or image "[...](", a URL, an e-mail address, a directive
# or icon, LaTeX, bold, an HTML tag. Escaped text has "\[", "http:\u2060//", "\:", "\$"...
LIVE = re.compile(
    r"(?<!\\)\[[^\]]*(?<!\\)\]\(|https?://|www\.|\w@\w|(?<!\\):(?:red|material)|(?<!\\)\$x"
    r"|(?<!\\)\*\*bold|(?<!\\)<a "
)


def bodies(at: AppTest) -> list[str]:
    """Every Markdown body the page rendered: texts, alerts, headers, metric labels and
    values, expander and checkbox labels."""
    texts = [
        e.value for kind in ("markdown", "caption", "header", "subheader") for e in at.get(kind)
    ]
    texts += [e.value for kind in ("info", "success", "warning", "error") for e in at.get(kind)]
    texts += [str(m.label) for m in at.metric] + [str(m.value) for m in at.metric]
    texts += [e.label for e in at.expander] + [c.label for c in at.checkbox]
    return texts


def live(at: AppTest) -> list[str]:
    return [text for text in bodies(at) if LIVE.search(text)]


def figures(at: AppTest) -> list[str]:
    return [chart.proto.spec for chart in at.get("plotly_chart")]


def tco_yaml(name: str, cloud: str, *, owned: bool) -> str:
    """The worked example (owned servers) or cloud-on-demand (renting only), renamed."""
    source = "worked-example-h100.yaml" if owned else "cloud-on-demand.yaml"
    text = (SCENARIOS / source).read_text(encoding="utf-8")
    first = "RunPod Community H100" if owned else "AWS H100 on-demand"  # the cheapest
    text = text.replace(f"name: {first},", f"name: {json.dumps(cloud)},")
    return re.sub(r"(?m)^name: .*$", f"name: {json.dumps(name)}", text)


# --- Compare, one uploaded file: the header, the cheapest option, the conclusion, the charts


def test_an_uploaded_scenarios_names_render_as_text_in_markdown_and_charts(db: Path) -> None:
    text = tco_yaml(LINK, f"{OPTION} {ANCHOR}", owned=True)
    text = text.replace("name: AWS p5.48xlarge on-demand,", f"name: {json.dumps(ANCHOR)},")
    at = open_app_page("pages/compare.py", TIMEOUT_S)
    at.selectbox(key="compare_scenario").set_value("Upload a scenario (YAML)…").run()

    upload = at.file_uploader(key="compare_upload")
    at = upload.set_value(("hostile.yaml", text.encode(), "text/yaml")).run()

    assert not at.exception
    assert not at.error
    assert at.header[0].value == md(LINK)
    assert str(at.metric[-1].value) == md(f"{OPTION} {ANCHOR}")  # the cheapest option
    assert md(f"{OPTION} {ANCHOR}") in at.info[0].value  # the conclusion names it
    assert live(at) == []
    specs = figures(at)
    assert len(specs) == 3
    assert all("<a " not in spec for spec in specs)
    assert "&lt;a href=" in specs[0]  # the cumulative cash legend
    # the tornado: the headline pair's, buying against the cheapest cloud option
    title = json.loads(specs[2])["layout"]["title"]["text"]
    assert title.startswith(f"Sensitivity: NPV of buying vs {chart_text(f'{OPTION} {ANCHOR}')}")


# --- Compare, saved scenarios: the saved name and option names in the conclusion


def test_saved_scenario_and_option_names_render_as_text_in_the_conclusion(db: Path) -> None:
    rent = tco_yaml("rent", OPTION, owned=False)
    assert scenario_box.upload_scenario(LINK, rent, "rent.yaml") is None
    at = open_app_page("pages/compare.py", TIMEOUT_S)

    at.radio(key="compare_mode").set_value("saved").run()

    assert not at.exception
    assert not at.error
    conclusion = at.info[0].value
    assert md(OPTION) in conclusion
    assert f"({md(LINK)})" in conclusion  # "the cheapest is <option> (<scenario>)"
    assert live(at) == []


def test_the_library_names_a_hostile_scenario_as_text(db: Path) -> None:
    assert scenario_box.upload_scenario(LINK, tco_yaml("x", "y", owned=False), "x.yaml") is None
    at = open_app_page("pages/compare.py", TIMEOUT_S)
    at.radio(key="compare_mode").set_value("saved").run()

    at.button(key="compare_library_load").click().run()

    assert not at.exception
    assert any(md(LINK) in info.value for info in at.info)  # "'<name>' is a TCO scenario..."
    assert f"'{md(LINK)}'" in at.checkbox(key="compare_library_sure").label
    assert live(at) == []


# --- Replay: queue names in the charts and the schedule download -------------------------


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The bytes of every file the app offered for download, in order."""
    offered: list[bytes] = []
    keep = MemoryMediaFileStorage.load_and_get_id

    def load_and_get_id(self: Any, data: str | bytes, *args: Any, **kwargs: Any) -> str:
        offered.append(data.encode() if isinstance(data, str) else data)
        return keep(self, data, *args, **kwargs)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", load_and_get_id)
    return offered


def test_queue_names_are_text_in_charts_and_quoted_in_the_schedule(
    db: Path, tmp_path: Path, downloads: list[bytes], capsys: pytest.CaptureFixture[str]
) -> None:
    trace = tmp_path / "hostile-queues.csv"
    trace.write_text(
        "job_id,submit_time,duration_s,gpus,queue\n"
        f"a,0,600,8,{ANCHOR}\n"
        "b,0,600,8,=HYPERLINK(1)\n"
        "c,60,600,8,plain\n",
        encoding="utf-8",
    )
    assert main(["ingest", str(trace), "--db", str(db)]) == 0
    capsys.readouterr()
    at = open_app_page("pages/replay.py", TIMEOUT_S)
    select = at.selectbox(key="replay_trace")
    at = select.select_index(next(i for i, o in enumerate(select.options) if "hostile" in o)).run()

    at = at.button(key="replay_run").click().run()

    assert not at.exception
    specs = figures(at)
    assert specs
    assert all("<a " not in spec for spec in specs)
    assert any("&lt;a href=" in spec for spec in specs)
    schedule = next(d.decode() for d in downloads if d.startswith(b"job_id,queue"))
    queues = {row["queue"] for row in csv.DictReader(io.StringIO(schedule))}
    assert queues == {ANCHOR, "'=HYPERLINK(1)", "plain"}


# --- Job history: the rejected rows download ----------------------------------------------


def test_the_rejected_rows_download_quotes_formula_like_cells(
    db: Path, downloads: list[bytes]
) -> None:
    text = "job_id,submit_time,duration_s,gpus\nok,0,60,1\n=cmd,0,=1+1,1\n"
    at = open_app_page("pages/history.py", TIMEOUT_S)
    upload = at.file_uploader(key="history_upload")
    at = upload.set_value(("jobs.csv", text.encode(), "text/csv")).run()

    at = at.button(key="history_import").click().run()

    assert not at.exception
    rejected = next(d.decode() for d in downloads if d.startswith(b"row_number"))
    (row,) = csv.DictReader(io.StringIO(rejected))
    assert row["value"] == "'=1+1"


# --- Saving: names with line breaks or terminal escapes are refused -----------------------


def save_form_app() -> None:
    from planner.ui import scenario_box

    text = "trace: t0\ncluster: {pools: [{gpu_type: A100, gpus_per_node: 8, count: 2}]}\n"
    scenario_box.save_form("replay", text, None, "t0", "box")


@pytest.mark.parametrize(
    "name", ["two\nlines", "car\rriage", "red \x1b[31mALERT\x1b[0m", "bell\x07", "tab\tname"]
)
def test_the_save_box_refuses_control_characters_in_a_name(db: Path, name: str) -> None:
    at = AppTest.from_function(save_form_app, default_timeout=TIMEOUT_S).run()

    at.text_input(key="box_name").set_value(name)
    at.button(key="FormSubmitter:box_save_form-Save").click().run()

    assert not at.exception
    assert "control character" in at.error[0].value
    assert scenario_box.saved_scenarios() == []
