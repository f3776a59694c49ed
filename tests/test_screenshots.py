"""The docs' screenshots are accounted for (issue 31, item 16), without a browser: every
picture under docs/screenshots is shown by README.md or a file of docs/ and has an entry in
the screenshots' manifest (docs/screenshots/menus.json), whose menus are the app's; the
manifest's rules checked on hand-made cases. The live menu is read in a real browser by
tests/e2e/test_screenshot_menus.py."""

from pathlib import Path

import pytest

from planner.ui.frame import PAGES
from planner.ui.i18n import t
from tests.screenshots import (
    MANIFEST,
    REFRESH_ALL,
    SCREENSHOTS,
    Entry,
    ManifestError,
    Menu,
    dump,
    load,
    parse,
    record,
    refresh_command,
    shown,
    stale,
)

PICTURES = sorted(path.name for path in SCREENSHOTS.glob("*.png"))
EN = Menu("en", ("Overview", "Job history", "Replay"))
ZH = Menu("zh", ("概览", "作业历史", "回放"))


def test_every_picture_is_shown_by_a_document_and_every_shown_one_exists() -> None:
    documents = shown()

    assert PICTURES, "no picture under docs/screenshots"
    assert [name for name in PICTURES if name not in documents] == []
    assert [name for name in documents if name not in PICTURES] == []


def test_every_picture_has_a_manifest_entry_and_every_entry_a_picture() -> None:
    entries = load()

    missing = [name for name in PICTURES if name not in entries]
    assert missing == [], f"no entry in {MANIFEST}; take them again with: {REFRESH_ALL}"
    assert sorted(entries) == PICTURES


def test_the_manifest_is_kept_in_its_written_form() -> None:
    """Sorted and indented as `record` writes it: a refresh that changes nothing is no diff."""
    text = MANIFEST.read_text(encoding="utf-8")

    assert dump(parse(text)) == text


def test_the_recorded_menus_are_the_apps_menu() -> None:
    """Without a browser, the menu the app's texts make (planner.ui.frame.PAGES in the
    recorded language); the browser test holds the same against the live page."""
    for name, entry in load().items():
        if entry.menu is not None:
            language = "zh" if entry.menu.language == "zh" else "en"
            titles = tuple(t(f"nav.{page}", language) for page, _icon in PAGES)
            assert entry.menu.titles == titles, name


def test_a_picture_is_stale_when_its_menu_differs_in_its_language() -> None:
    entries = {
        "same.png": Entry(EN, "tests/e2e/test_a.py::test_a"),
        "renamed.png": Entry(Menu("en", ("Overview", "Jobs", "Replay")), "t.py::b"),
        "reordered.png": Entry(Menu("en", ("Job history", "Overview", "Replay")), "t.py::c"),
        "chinese.png": Entry(ZH, "t.py::d"),
        "pdf.png": Entry(not_the_app="a PDF page"),
    }
    live = {"en": EN.titles, "zh": ZH.titles}
    names = [*entries, "unrecorded.png"]

    reasons = stale(names, entries, live)

    assert sorted(reasons) == ["renamed.png", "reordered.png", "unrecorded.png"]
    assert "Jobs" in reasons["renamed.png"]
    assert "t.py::b" in reasons["renamed.png"]
    assert "no entry" in reasons["unrecorded.png"]
    # the Chinese picture is held against the Chinese menu: without it, it is stale
    assert sorted(stale(["chinese.png"], entries, {"en": EN.titles})) == ["chinese.png"]
    assert stale(["chinese.png"], entries, {"en": EN.titles, "zh": ZH.titles}) == {}


def test_the_refresh_command_names_the_tests_or_all_of_them() -> None:
    entries = {
        "a.png": Entry(EN, "tests/e2e/test_p.py::test_page[Cluster & policy]"),
        "b.png": Entry(EN, "tests/e2e/test_j.py::test_journey"),
        "c.png": Entry(EN, "tests/e2e/test_j.py::test_journey"),
    }

    command = refresh_command(["a.png", "b.png", "c.png"], entries)

    assert command.startswith("UPDATE_SCREENSHOTS=1 ")
    # each test once, sorted, quoted where the shell would split it
    assert command.endswith(
        " tests/e2e/test_j.py::test_journey 'tests/e2e/test_p.py::test_page[Cluster & policy]'"
    )
    assert refresh_command(["a.png", "new.png"], entries) == REFRESH_ALL


def test_record_sets_one_entry_and_keeps_the_others(tmp_path: Path) -> None:
    manifest = tmp_path / "menus.json"
    record("b.png", Entry(ZH, "t.py::zh"), manifest)
    record("a.png", Entry(not_the_app="a PDF page"), manifest)
    record("b.png", Entry(EN, "t.py::en"), manifest)  # taken again

    assert load(manifest) == {
        "a.png": Entry(not_the_app="a PDF page"),
        "b.png": Entry(EN, "t.py::en"),
    }
    text = manifest.read_text(encoding="utf-8")
    assert text.index('"a.png"') < text.index('"b.png"')  # sorted
    assert dump(load(manifest)) == text


def test_an_entry_without_its_menu_or_reason_is_refused() -> None:
    with pytest.raises(ManifestError, match=r"x\.png needs 'language', 'menu' and 'test'"):
        parse('{"x.png": {"menu": ["Overview"]}}')
