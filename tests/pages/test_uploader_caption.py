"""Every uploader says its file types and its limit under itself, in the page's language
(Streamlit's own "200MB per file • CSV" is English and hidden by the frame's style), and the
limit it says is the one the widget enforces: the page's own limit, within the server's
`server.maxUploadSize`.

The server's limit is set to 3 MB here, below the pages' own limits of 200 MB (Job history,
Fill), 50 MB (Cluster & policy's node lists and queue files) and 5 MB (Prices), above
Compare's 1 MB scenario file and the scenario library's 256 KiB; the default config's
1024 MB leaves Job history its own 200 MB.
"""

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from planner.ui.i18n import t
from tests.pages.app import open_app_page

ROOT = Path(__file__).resolve().parents[2]
CONFIG_MB = 3
TABLES = "CSV, TSV, TXT, XLSX, GZ"
NODES = "JSON, CSV, TSV, TXT, XLSX, GZ"
YAML = "YAML, YML"


@pytest.fixture
def server_limit() -> Iterator[int]:
    """The server's `server.maxUploadSize` set to `CONFIG_MB` for the test, as the config
    file would set it (AppTest runs the app in this process)."""
    before = config.get_option("server.maxUploadSize")
    config.set_option("server.maxUploadSize", CONFIG_MB)
    yield CONFIG_MB
    config.set_option("server.maxUploadSize", before)


def _compare_file(at: AppTest, lang: str) -> None:
    at.radio(key="compare_mode").set_value("file").run()
    at.selectbox(key="compare_scenario").set_value(t("compare.upload_choice", lang)).run()


def _compare_library(at: AppTest, lang: str) -> None:
    at.radio(key="compare_mode").set_value("saved").run()


def _fill_file(at: AppTest, lang: str) -> None:
    at.radio(key="fill_source").set_value("file").run()


@dataclass(frozen=True)
class Uploader:
    page: str
    key: str
    types: str
    limit: str
    """What it says, MB or KiB."""
    opening: Callable[[AppTest, str], None] | None = None
    """What opens it on its page, if it is not there at first."""


UPLOADERS = [
    Uploader("history", "history_upload", TABLES, "3 MB"),  # min(200 MB, 3 MB)
    Uploader("fill", "fill_upload", TABLES, "3 MB", _fill_file),  # min(200 MB, 3 MB)
    Uploader("prices", "prices_import", "CSV", "3 MB"),  # min(5 MB, 3 MB)
    Uploader("cluster", "cluster_node_upload_0", NODES, "3 MB"),  # min(50 MB, 3 MB)
    Uploader("cluster", "cluster_queue_upload_0", YAML, "3 MB"),  # min(50 MB, 3 MB)
    Uploader("cluster", "cluster_library_upload", YAML, "256 KiB"),  # 256 x 1024 B < 3 MB
    Uploader("compare", "compare_upload", YAML, "1 MB", _compare_file),  # min(1 MB, 3 MB)
    Uploader("compare", "compare_library_upload", YAML, "256 KiB", _compare_library),
]
CAPTIONS = {
    "en": "File types: {types} · up to {limit} per file",
    "zh": "文件类型：{types} · 单个文件最大 {limit}",
}


def _said(lang: str, types: str, limit: str) -> str:
    listed = types.replace(", ", "、") if lang == "zh" else types
    return CAPTIONS[lang].format(types=listed, limit=limit)


def _browser_limit_mb(limit: str) -> int:
    """What the widget tells the browser: whole MB, at least 1 (256 KiB is checked by the
    page on the bytes)."""
    size, unit = limit.split()
    return int(size) if unit == "MB" else 1


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("uploader", UPLOADERS, ids=[u.key for u in UPLOADERS])
def test_each_uploader_says_the_limit_it_enforces_in_the_pages_language(
    read_db: Path, server_limit: int, lang: str, uploader: Uploader
) -> None:
    at = open_app_page(f"pages/{uploader.page}.py", 120, lang=lang)
    if uploader.opening is not None:
        uploader.opening(at, lang)

    assert not at.exception
    widget = at.file_uploader(key=uploader.key)
    assert widget.proto.max_upload_size_mb == _browser_limit_mb(uploader.limit)
    said = _said(lang, uploader.types, uploader.limit)
    assert said in [caption.value for caption in at.caption]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", f"File types: {TABLES} · up to 200 MB per file"),
        ("zh", "文件类型：CSV、TSV、TXT、XLSX、GZ · 单个文件最大 200 MB"),
    ],
)
def test_the_default_config_leaves_job_history_its_own_200_mb(
    read_db: Path, lang: str, said: str
) -> None:
    at = open_app_page("pages/history.py", 120, lang=lang)  # maxUploadSize = 1024 MB

    assert not at.exception
    assert at.file_uploader(key="history_upload").proto.max_upload_size_mb == 200
    assert said in [caption.value for caption in at.caption]


def test_every_uploader_goes_through_the_one_helper() -> None:
    streamlits = re.compile(r"\bst\.file_uploader\(")
    sources = [*(ROOT / "planner").rglob("*.py"), *(ROOT / "pages").glob("*.py")]

    calling = [p.relative_to(ROOT) for p in sources if streamlits.search(p.read_text("utf-8"))]

    assert calling == [Path("planner/ui/uploader.py")]
