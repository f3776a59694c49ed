"""The Capacity page's *Size by search* says what binds its answer, as `planner sweep --target`
does: on the hand trace of `tests/test_sweep_floor.py` (one job of 8 pods x 8 GPUs on 8-GPU
A100 servers, and twenty one-server jobs that 2 servers run without a wait), the answer is 8,
the page names the job and says the floor binds, and without it 2 servers meet the target."""

from collections.abc import Iterator
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from planner.core.file_access import LOCAL_FILES
from planner.service import scenario_store
from planner.service.sweep_bound import count_of
from planner.store import connect
from planner.ui import capacity_search
from tests.pages.test_capacity import open_with_trace
from tests.test_sweep_floor import hand_scenario, hand_trace

NAME = "hand floor"


@pytest.fixture(scope="module")
def hand(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A database holding the hand trace and a saved scenario of 4 A100 servers on it."""
    folder = tmp_path_factory.mktemp("floor")
    with pytest.MonkeyPatch.context() as patch:
        db = folder / "planner.duckdb"
        patch.setenv("PLANNER_DB", str(db))
        scenario = hand_scenario(folder, hand_trace(folder / "hand.csv"))
        with connect(db) as con:
            text = scenario.read_text(encoding="utf-8")
            prepared = scenario_store.prepare(con, text, scenario.name, LOCAL_FILES)
            scenario_store.save(con, NAME, prepared)
        yield {"db": db, "trace": prepared.trace_id}


def searched(hand: dict[str, Any], lang: str) -> AppTest:
    """The search for a p95 wait of at most 1 h (the page's default target) on the pool."""
    at = open_with_trace(hand["trace"], lang, capacity_scenario=f"saved:{NAME}", capacity_pool=0)
    assert at.selectbox(key="capacity_scenario").value == f"saved:{NAME}"
    return at.button(key="capacity_search_run").click().run()


def infos(at: AppTest) -> list[str]:
    return [str(i.value) for i in at.info]


def test_the_page_names_the_job_that_binds_and_the_answer_without_it(
    hand: dict[str, Any],
) -> None:
    at = searched(hand, "en")

    assert not at.exception
    assert not at.error
    _, found = at.session_state[capacity_search.RESULT]
    assert count_of(found.search.answer) == 8
    assert [count_of(r) for r in found.search.tried] == [8]  # from the floor, priced alone
    bound = found.bound
    assert bound is not None
    assert bound.binds == "floor"
    assert count_of(bound.rest.answer) == 2
    said = next(s for s in infos(at) if s.startswith("The largest job"))
    assert said.startswith(
        "The largest job, not the wait target, sets this answer. Job big asks for 64 A100 "
        "GPUs (8 pods × 8), so no count below 8 servers of 8 A100 runs it; jobs needing 8 "
        "servers: 1."
    )
    # 64 of 224 GPU-hours (20 jobs x 8 GPUs x 1 h, and the big job's 64): 28.6 %
    assert (
        "With the jobs needing 8 servers set aside (jobs: 1; 64.0 GPU-hours, 28.6% of all jobs' "
        "GPU-hours; listed below, to be served elsewhere and not priced here), 2 servers meet "
        "the target (3 points priced by the same search); jobs needing more than 2 servers: 1."
    ) in said
    aside = next(d.value for d in at.dataframe if "Job set aside" in d.value.columns)
    assert aside.to_dict("records") == [
        {"Job set aside": "big", "GPUs": 64.0, "A100 servers it needs": 8, "GPU-hours": 64.0}
    ]


def test_the_page_says_it_in_chinese(hand: dict[str, Any]) -> None:
    at = searched(hand, "zh")  # both searches stored already: read back

    assert not at.exception
    said = next(s for s in infos(at) if s.startswith("决定这一答案的是最大的作业"))
    assert "作业 big 申请 64 块 A100 GPU（8 个 Pod × 8），因此少于 8 台" in said
    assert "2 台服务器即可达到目标" in said
    assert any("剔除的作业" in d.value.columns for d in at.dataframe)
