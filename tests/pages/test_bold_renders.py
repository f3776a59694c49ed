"""Every page text renders its bold as bold: in CommonMark a closing `**` right after
punctuation must be followed by a space or punctuation, which Chinese text (no spaces)
breaks, and the reader then sees the asterisks (`**计价范围：全部作业。**纯 CPU ...`)."""

import re

import pytest
from markdown_it import MarkdownIt

from planner.ui.text import CATALOGS

RENDER = MarkdownIt("commonmark")
FIELD = re.compile(r"\{[a-z_]+\}")


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_no_text_shows_its_asterisks(lang: str) -> None:
    shown = []
    for key, text in CATALOGS[lang].items():
        if "**" not in text:
            continue
        html = RENDER.render(FIELD.sub("1", text))
        if "**" in html:
            shown.append(f"{key}: {text}")
    assert shown == []
