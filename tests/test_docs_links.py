"""The README and docs/ stay navigable: every relative link and #anchor resolves, the docs index
lists every document, and the README's page list is the app's menu (issue 31, item 16).

Anchors are GitHub's: a heading's text, lower-cased, with punctuation other than `-` and `_`
removed and spaces turned into `-`; a repeated heading gets `-1`, `-2`, ...
"""

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from planner.ui.frame import PAGES

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
MARKDOWN = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`[^`]*`")


def prose(path: Path) -> list[str]:
    """The file's lines outside fenced code blocks (a `#` there is a shell comment)."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: Counter[str] = Counter()
    found = set()
    for line in prose(path):
        if match := re.match(r"#{1,6} (.+)", line):
            base = slug(match.group(1))
            found.add(f"{base}-{seen[base]}" if seen[base] else base)
            seen[base] += 1
    return found


def links(path: Path) -> list[str]:
    return [
        target
        for line in prose(path)
        for target in LINK.findall(CODE_SPAN.sub("", line))
        if not re.match(r"[a-z]+:", target)  # https:, mailto:
    ]


def test_the_slug_is_githubs() -> None:
    # headings of this README, slugged by hand as GitHub shows them
    assert slug("Twin check: does the replay match what happened?") == (
        "twin-check-does-the-replay-match-what-happened"
    )
    assert slug("Multi-tenant queues (Kueue ClusterQueues and cohorts)") == (
        "multi-tenant-queues-kueue-clusterqueues-and-cohorts"
    )
    assert slug("Observed statuses (`jobs.status`, `planner.core.model.JobStatus`)") == (
        "observed-statuses-jobsstatus-plannercoremodeljobstatus"
    )


@pytest.mark.parametrize("source", MARKDOWN, ids=lambda path: path.name)
def test_every_relative_link_and_anchor_resolves(source: Path) -> None:
    broken = []
    for target in links(source):
        path, _, anchor = target.partition("#")
        file = (source.parent / path).resolve() if path else source
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT)}")
        elif anchor and (file.suffix != ".md" or anchor not in anchors(file)):
            broken.append(f"{target}: no heading #{anchor} in {file.relative_to(ROOT)}")

    assert broken == []


def test_the_docs_index_lists_every_document() -> None:
    listed = {target.partition("#")[0] for target in links(DOCS / "README.md")}
    documents = {path.name for path in DOCS.iterdir() if path.suffix in (".md", ".json")}

    assert documents - {"README.md"} <= listed


def test_the_readme_reaches_every_document_through_its_contents_or_the_index() -> None:
    readme = {target.partition("#")[0] for target in links(ROOT / "README.md")}

    assert "docs/README.md" in readme
    assert {f"docs/{path.name}" for path in DOCS.glob("*.md")} - {"docs/README.md"} <= readme


def test_the_readme_lists_the_apps_pages_with_their_urls() -> None:
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    # the app's menu (planner/ui/frame.py), Overview at `/`, the others at `/name`
    words = {8: "eight", 9: "nine", 10: "ten"}

    assert f"The menu has {words[len(PAGES)]} pages" in text
    for name, _icon in PAGES[1:]:
        assert f"`/{name}`" in text


def test_the_license_is_stated_in_pyproject_and_the_license_file() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

    assert project["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    assert (ROOT / "LICENSE").name in project["license-files"]
