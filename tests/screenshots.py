"""The screenshots' manifest, docs/screenshots/menus.json: for each picture under
docs/screenshots, the sidebar menu the app showed when a browser test took it (the page titles
in order and the language), and the test that took it.

A browser test saving a picture with UPDATE_SCREENSHOTS=1 records its entry
(tests/e2e/shots.py); tests/e2e/test_screenshot_menus.py holds each recorded menu against the
live app's and names the pictures that are stale. A picture that is not of the app (the PDF's
summary page) has an entry saying what it is instead of a menu.

Plain JSON, keys sorted and indented, so that a refresh that changes nothing leaves the file as
it was and a change reads as a small diff.
"""

import fcntl
import json
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "docs" / "screenshots"
MANIFEST = SCREENSHOTS / "menus.json"
DOCUMENTS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
_SHOWN = re.compile(r"screenshots/([\w.-]+\.png)")
_REFRESH = "UPDATE_SCREENSHOTS=1 nice .venv/bin/pytest -n 1"
REFRESH_ALL = f"{_REFRESH} -m e2e tests/e2e"
"""Every browser test: each saves its pictures, and records their menus, as it goes."""


class ManifestError(ValueError):
    """menus.json is not what the tests write: an entry lacks its menu or its reason."""


@dataclass(frozen=True)
class Menu:
    """The sidebar menu as a viewer sees it: the page titles, in order, in `language`."""

    language: str
    titles: tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    """One picture's record: the app's menu and the test that took it, or, for a picture
    that is not of the app, what it is (`not_the_app`)."""

    menu: Menu | None = None
    test: str = ""
    not_the_app: str = ""


def _entry(name: str, raw: Mapping[str, Any]) -> Entry:
    if "not_the_app" in raw:
        return Entry(not_the_app=str(raw["not_the_app"]))
    if not {"language", "menu", "test"} <= raw.keys():
        raise ManifestError(
            f"{MANIFEST.name}: {name} needs 'language', 'menu' and 'test' (saved by a browser "
            f"test) or 'not_the_app' (what the picture is); refresh it: {REFRESH_ALL}"
        )
    return Entry(Menu(str(raw["language"]), tuple(map(str, raw["menu"]))), str(raw["test"]))


def parse(text: str) -> dict[str, Entry]:
    """The manifest's entries by picture name."""
    return {name: _entry(name, raw) for name, raw in json.loads(text).items()}


def load(path: Path = MANIFEST) -> dict[str, Entry]:
    """The manifest at `path`; empty when there is none yet."""
    return parse(path.read_text(encoding="utf-8")) if path.exists() else {}


def dump(entries: Mapping[str, Entry]) -> str:
    """The manifest's text: sorted, indented, Chinese titles as they read."""
    raw: dict[str, dict[str, Any]] = {}
    for name, entry in entries.items():
        if entry.menu is None:
            raw[name] = {"not_the_app": entry.not_the_app}
        else:
            menu = entry.menu
            raw[name] = {"language": menu.language, "menu": list(menu.titles), "test": entry.test}
    return json.dumps(raw, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def record(name: str, entry: Entry, path: Path = MANIFEST) -> None:
    """Set picture `name`'s entry, keeping every other one. Browser tests run in parallel
    workers: the read and the write happen under one lock on the file."""
    with path.open("a+", encoding="utf-8") as file:
        fcntl.flock(file, fcntl.LOCK_EX)  # released when the file is closed
        file.seek(0)
        text = file.read()
        entries = parse(text) if text.strip() else {}
        entries[name] = entry
        file.seek(0)
        file.truncate()
        file.write(dump(entries))


def shown(documents: Iterable[Path] = DOCUMENTS) -> dict[str, list[str]]:
    """The pictures of docs/screenshots the documents show, each with the documents (paths
    from the repository's root) that show it."""
    found: dict[str, list[str]] = {}
    for document in documents:
        for name in sorted(set(_SHOWN.findall(document.read_text(encoding="utf-8")))):
            found.setdefault(name, []).append(document.relative_to(ROOT).as_posix())
    return found


def stale(
    names: Iterable[str], entries: Mapping[str, Entry], live: Mapping[str, tuple[str, ...]]
) -> dict[str, str]:
    """Why each of the pictures `names` no longer shows the app's menu, by picture: no
    entry, or a recorded menu other than `live`'s titles in the entry's language. Pictures
    that are not of the app are never stale here."""
    reasons = {}
    for name in sorted(names):
        entry = entries.get(name)
        if entry is None:
            reasons[name] = f"no entry in {MANIFEST.name}"
        elif entry.menu is not None and entry.menu.titles != live.get(entry.menu.language):
            now = live.get(entry.menu.language, ("(no live menu in this language)",))
            reasons[name] = (
                f"taken by {entry.test} in {entry.menu.language!r} with the menu "
                f"{list(entry.menu.titles)}; the app shows {list(now)}"
            )
    return reasons


def refresh_command(names: Iterable[str], entries: Mapping[str, Entry]) -> str:
    """The command that takes `names` again: their tests, or every browser test when one of
    them has no entry (nothing says which test takes it)."""
    tests = set()
    for name in names:
        entry = entries.get(name)
        if entry is None or not entry.test:
            return REFRESH_ALL
        tests.add(entry.test)
    return " ".join([_REFRESH, *map(shlex.quote, sorted(tests))])
