"""A failed internal check reaches the app's reader as an error box that says how to report it,
never a traceback (issue 31, item 1). Admission is broken on purpose, as in
tests/test_internal_check.py: the replay's own check then fires for real. The working scenario
queues FIFO, the queueing the fault replaces."""

from pathlib import Path

import pytest

from planner.engine import registry
from tests.pages.test_replay import open_page, run, sample
from tests.test_internal_check import NeverAdmits


@pytest.fixture
def admission_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GANG_QUEUEINGS, "fifo", NeverAdmits)


@pytest.mark.usefixtures("admission_broken")
@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "this is a bug in the planner"), ("zh", "这是规划器的缺陷")],
)
def test_the_replay_page_says_it_is_a_bug_and_how_to_report_it(
    db: Path, lang: str, words: str
) -> None:
    working = sample()
    fifo = working.model_copy(
        update={"policy": working.policy.model_copy(update={"queueing": "fifo"})}
    )
    at = run(open_page(fifo, lang=lang))

    assert not at.exception
    [error] = at.error
    assert words in error.value
    assert "waiting on an idle cluster" in error.value
