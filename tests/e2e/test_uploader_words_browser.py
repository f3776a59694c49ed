"""A file uploader in Chinese says nothing in English: Streamlit's own dropzone text
("200MB per file • CSV, ...", the "Upload" button, "Drag and drop a file here" while a file
is dragged over it) is hidden or reworded by the frame's style, and the caption under the
uploader says the file types and the limit in Chinese (tests/pages/test_uploader_caption.py
checks that limit against the config).
"""

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.browser import keyed, menu, rerun, wait_for_app

pytestmark = pytest.mark.e2e

ENGLISH = re.compile(r"per file|Drag and drop|Upload|MB")
HISTORY_EN = "File types: CSV, TSV, TXT, XLSX, GZ · up to 200 MB per file"
HISTORY_ZH = "文件类型：CSV、TSV、TXT、XLSX、GZ · 单个文件最大 200 MB"
PRICES_ZH = "文件类型：CSV · 单个文件最大 5 MB"
_DRAGGED_FILE = """() => {
  const data = new DataTransfer();
  data.items.add(new File(["job_id\\n"], "jobs.csv", {type: "text/csv"}));
  return data;
}"""


def _dragged_over(page: Page, zone: Locator) -> Locator:
    """Drag a file over `zone` (as a browser does when one enters it); the hint it shows."""
    zone.dispatch_event("dragenter", {"dataTransfer": page.evaluate_handle(_DRAGGED_FILE)})
    hint = zone.locator(":scope > div:not([data-testid]) > span")
    expect(hint).to_have_count(1)
    return hint


def _said_in_chinese(zone: Locator) -> None:
    """`zone` shows no English text; its button says 上传."""
    expect(zone).to_be_visible()
    expect(zone).not_to_contain_text(ENGLISH, use_inner_text=True)
    expect(zone.get_by_role("button", name="上传", exact=True)).to_be_visible()


def test_the_uploaders_say_their_instructions_in_chinese(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/history")
    expect(page.get_by_role("heading", name="Job history", exact=True)).to_be_visible()
    wait_for_app(page)
    zone = keyed(page, "history_upload").get_by_test_id("stFileUploaderDropzone")
    expect(zone.get_by_test_id("stFileUploaderDropzoneInstructions")).to_be_hidden()
    expect(page.get_by_text(HISTORY_EN, exact=True)).to_be_visible()  # the same caption
    expect(zone.get_by_role("button", name="Upload", exact=True)).to_be_visible()

    with rerun(page):
        page.locator(".st-key-lang_choice").get_by_text("简体中文").click()
    expect(page.get_by_role("heading", name="作业历史", exact=True)).to_be_visible()

    _said_in_chinese(zone)
    expect(page.get_by_text(HISTORY_ZH, exact=True)).to_be_visible()
    hint = _dragged_over(page, zone)
    expect(hint).to_be_hidden()  # Streamlit's English, its place taken by the style's words
    after = hint.evaluate("el => getComputedStyle(el, '::after').content")
    assert after == '"将文件拖放到此处"'
    expect(zone).not_to_contain_text(ENGLISH, use_inner_text=True)
    zone.dispatch_event("dragleave")

    menu(page, "价格")
    page.get_by_role("tab", name="添加或导入").click()
    zone = keyed(page, "prices_import").get_by_test_id("stFileUploaderDropzone")
    _said_in_chinese(zone)
    expect(page.get_by_text(PRICES_ZH, exact=True)).to_be_visible()
    for each in page.get_by_test_id("stFileUploaderDropzone").all():
        expect(each).not_to_contain_text(ENGLISH, use_inner_text=True)
