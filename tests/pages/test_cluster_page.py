"""The Cluster & policy page (AppTest through the app's entrypoint) and its glue."""

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml
from streamlit.testing.v1 import AppTest

from planner.core.config import NodePool
from planner.core.file_access import FileAccess
from planner.engine.scenario import ClusterSpec, PolicySpec, QueuesSpec, Scenario
from planner.service.replay import load_scenario
from planner.ui import cluster_build, cluster_import, cluster_view
from planner.ui.cluster_build import build_scenario
from planner.ui.replay_view import default_scenario
from planner.ui.state import REVISION_KEY
from tests.pages.app import open_app_page

PAGE = "pages/cluster.py"
DATA = Path(__file__).parents[1] / "data"
KUBECTL = DATA / "kubectl_nodes.json"
MIG_NODES = DATA / "kubectl_mig_nodes.json"
KUEUE = DATA / "kueue.yaml"
VOLCANO = DATA / "volcano.yaml"


def open_page(lang: str | None = None) -> AppTest:
    return open_app_page(PAGE, 60, **({} if lang is None else {"lang": lang}))


def key(at: AppTest, name: str) -> str:
    """A widget's key in the page's current revision (it goes up on every replacement)."""
    rev = at.session_state[REVISION_KEY] if REVISION_KEY in at.session_state else 0  # noqa: SIM401
    return f"cluster_{name}_{rev}"


def edit_table(at: AppTest, name: str, edited: dict[int, dict[str, Any]]) -> None:
    """Seed a data editor's edit state, as a user's cell edits would."""
    edits = {"edited_rows": edited, "added_rows": [], "deleted_rows": []}
    at.session_state[key(at, name)] = edits


def upload(at: AppTest, name: str, path: Path, as_name: str | None = None) -> AppTest:
    data = path.read_bytes()
    at.file_uploader(key=key(at, name)).set_value((as_name or path.name, data, "text/plain"))
    return at.run()


def apply(at: AppTest) -> AppTest:
    return at.button(key="cluster_apply").click().run()


def working(at: AppTest) -> Scenario:
    scenario = at.session_state["working_scenario"]
    assert isinstance(scenario, Scenario)
    return scenario


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    """The first table (not editor) on the page that has this column."""
    found = [df.value for df in at.dataframe if column in df.value.columns]
    assert found, f"no table with a {column} column"
    return found[0]


def summary(at: AppTest) -> str:
    return str(at.info[0].value)


def test_the_page_opens_on_the_sample_with_its_pools_and_policy(db: Path) -> None:
    sample = default_scenario()
    assert sample.cluster is not None

    at = open_page()

    assert not at.exception
    assert not at.error
    assert at.title[0].value == "Cluster & policy"
    assert summary(at).startswith("96 nodes × 8 A100 + 32 nodes × 8 H800 (1,024 GPUs)")
    pools = at.data_editor[0].value
    assert pools["count"].tolist() == [p.count for p in sample.cluster.pools]
    assert pools["name"].tolist() == [p.name for p in sample.cluster.pools]
    assert at.selectbox(key=key(at, "queueing")).value == sample.policy.queueing
    # the chosen option's explanation is on the page, not only in the tooltip
    captions = [c.value for c in at.caption]
    assert any(c.startswith("EASY backfill: later jobs may start") for c in captions)
    assert at.number_input(key=key(at, "depth")).value == sample.policy.backfill_depth
    assert yaml.safe_load(at.code[0].value)["policy"]["queueing"] == "backfill"


def test_editing_a_pool_count_and_applying_changes_the_working_scenario(db: Path) -> None:
    at = open_page()
    edit_table(at, "pools", {0: {"count": 4}})

    at = apply(at)

    assert not at.exception
    assert not at.error
    scenario = working(at)
    assert scenario.cluster is not None
    assert [p.count for p in scenario.cluster.pools] == [4, 32]
    assert [p.name for p in scenario.cluster.pools] == ["a100", "h800"]  # names kept
    assert at.success[0].value == "Applied: the Replay page now runs this scenario."
    assert summary(at).startswith("4 nodes × 8 A100 + 32 nodes × 8 H800 (288 GPUs)")
    # the editors start again from the applied scenario (no edit applied twice)
    assert at.data_editor[0].value["count"].tolist() == [4, 32]


def test_policy_choices_apply_with_their_knobs(db: Path) -> None:
    at = open_page()
    at.selectbox(key=key(at, "placement")).set_value("fgd")
    at.number_input(key=key(at, "estimate")).set_value(2.0)
    at.number_input(key=key(at, "seed")).set_value(7)

    at = apply(at)

    assert not at.error
    policy = working(at).policy
    assert (policy.placement, policy.estimate_factor, policy.seed) == ("fgd", 2.0, 7)
    assert "FGD" in summary(at)


def test_a_combination_the_scheduler_refuses_is_an_error_and_changes_nothing(db: Path) -> None:
    at = open_page()
    before = working(at)
    at.selectbox(key=key(at, "admission")).set_value("pod")  # the sample queues by backfill

    at = apply(at)

    assert not at.exception
    assert "backfill needs gang admission" in at.error[0].value
    assert "Scenario as a whole" in at.error[0].value
    assert working(at) == before


def test_time_slicing_with_one_replica_is_an_error_naming_the_section(db: Path) -> None:
    at = open_page()
    before = working(at)
    edit_table(at, "sharing", {0: {"mode": "time-slicing", "replicas": 1}})

    at = apply(at)

    assert not at.exception
    assert len(at.error) == 1
    message = at.error[0].value
    assert message.startswith("**GPU sharing**: row 1: ")
    assert "replicas" in message
    assert working(at) == before
    assert not at.success


def test_time_slicing_and_mig_apply_per_gpu_type(db: Path) -> None:
    at = open_page()
    edit_table(
        at,
        "sharing",
        {
            0: {"mode": "mig", "mig_layout": "all-balanced", "relayout_delay_s": 30.0},
            1: {"mode": "time-slicing", "replicas": 4, "slowdown": 1.2},
        },
    )

    at = apply(at)

    assert not at.error
    a100, h800 = working(at).sharing
    assert a100.mig is not None
    assert (a100.gpu_type, a100.mig.layout, a100.mig.relayout_delay_s) == (
        "A100",
        "all-balanced",
        30.0,
    )
    assert h800.time_slicing is not None
    assert (h800.time_slicing.replicas, h800.time_slicing.slowdown) == (4, 1.2)
    assert "MIG on A100 · time-slicing ×4 on H800" in summary(at)


def test_a_kubectl_node_list_import_becomes_pools(db: Path) -> None:
    at = upload(open_page(), "node_upload", KUBECTL)

    assert not at.exception
    assert not at.error
    read = frame_with(at, "nodes")
    assert read[["gpu_type", "gpus_per_node", "nodes"]].values.tolist() == [
        ["A100", 8, 1],
        ["H100", 8, 1],
        ["", 0, 1],
    ]
    assert "note: gpu-h: cordoned (unschedulable), kept as capacity" in [
        c.value for c in at.caption
    ]

    at = at.button(key=key(at, "use_nodes")).click().run()

    assert not at.exception
    cluster = working(at).cluster
    assert cluster is not None
    assert [
        (p.name, p.gpu_type, p.gpus_per_node, p.cpu, p.mem_gib, p.count) for p in cluster.pools
    ] == [
        ("a100", "A100", 8, 127.5, 1966.0, 1),
        ("h100", "H100", 8, 96.0, 1024.0, 1),
        ("cpu", "", 0, 64.0, 256.0, 1),
    ]
    assert at.success[0].value == "The cluster is now the nodes of kubectl_nodes.json."
    assert summary(at).startswith("1 node × 8 A100 + 1 node × 8 H100 + 1 node CPU-only (16 GPUs)")


def test_a_node_import_can_keep_every_node(db: Path) -> None:
    at = upload(open_page(), "node_upload", KUBECTL)
    at.radio(key=key(at, "node_as")).set_value("nodes")

    at = at.button(key=key(at, "use_nodes")).click().run()

    cluster = working(at).cluster
    assert cluster is not None
    assert not cluster.pools
    assert [(n.node_id, n.gpu_type, n.gpus) for n in cluster.nodes] == [
        ("gpu-a", "A100", 8),
        ("gpu-h", "H100", 8),
        ("cpu-1", "", 0),
    ]


def test_an_oversized_upload_is_refused_with_its_size(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster_import, "MAX_UPLOAD_MB", 0.0001)

    at = upload(open_page(), "node_upload", KUBECTL)

    assert not at.exception
    assert at.error[0].value.startswith(
        "kubectl_nodes.json is 0.0 MB; the page reads files up to 0.0001 MB"
    )
    assert "cluster_use_nodes_0" not in [b.key for b in at.button]


def test_a_kueue_yaml_import_gives_the_queues_and_applies_unchanged(
    db: Path, tmp_path: Path
) -> None:
    at = upload(open_page(), "queue_upload", KUEUE)

    assert not at.exception
    assert not at.error
    table = frame_with(at, "borrow_within_cohort")
    assert table[["name", "cohort", "gpus", "borrowing_limit"]].values.tolist()[0] == [
        "team-a",
        "org",
        8.0,
        8.0,
    ]
    assert "note: ClusterQueue team-a: spec.namespaceSelector not modelled, ignored" in [
        c.value for c in at.caption
    ]

    at = at.button(key=key(at, "use_queues")).click().run()

    imported = working(at)
    assert imported.queues is not None
    assert [q.name for q in imported.queues.cluster_queues] == ["team-a", "team-b"]
    assert imported.queues.local_queues == {"research": "team-a", "team-a/research": "team-a"}
    assert imported.policy.queueing == "fifo"  # Kueue has no backfill: said, and changed
    assert "Queueing set to fifo: queues have no backfill." in [s.value for s in at.success]
    assert "Kueue: 2 ClusterQueues in 1 cohort" in summary(at)
    assert at.radio(key=key(at, "queue_mode")).value == "kueue"

    at = apply(at)  # the editor shows the queues; applying them as shown changes nothing

    assert not at.error
    assert working(at) == imported
    path = tmp_path / "scenario.yaml"
    path.write_text(at.code[0].value, encoding="utf-8")  # the page's YAML preview
    assert load_scenario(path) == imported


def test_the_queue_editor_makes_cluster_queues(db: Path) -> None:
    at = open_page()
    at = at.radio(key=key(at, "queue_mode")).set_value("kueue").run()
    # the sample queues by backfill, which Kueue does not have: said before Apply
    assert "Queues admit whole jobs and have no backfill" in at.warning[0].value
    # a fresh editor: one queue with every GPU, a flavor per GPU type
    rows = next(e.value for e in at.data_editor if "reclaim_within_cohort" in e.value.columns)
    assert rows[["name", "flavor", "gpus"]].values.tolist() == [
        ["default", "a100", 768.0],
        ["default", "h800", 256.0],
    ]
    at.selectbox(key=key(at, "queueing")).set_value("fifo")
    at.session_state[key(at, "kueue")] = {
        "edited_rows": {
            0: {"name": "prod", "cohort": "org", "gpus": 512.0},
            1: {"name": "prod", "cohort": "org", "gpus": 128.0},
        },
        "added_rows": [
            {"name": "research", "cohort": "org", "flavor": "a100", "gpus": 256.0},
            {"name": "research", "cohort": "org", "flavor": "h800", "gpus": 128.0},
        ],
        "deleted_rows": [],
    }

    at = apply(at)

    assert not at.exception
    assert not at.error
    queues = working(at).queues
    assert queues is not None
    assert [(f.name, f.gpu_type) for f in queues.flavors] == [("a100", "A100"), ("h800", "H800")]
    assert [(q.name, q.cohort, [x.gpus for x in q.quotas]) for q in queues.cluster_queues] == [
        ("prod", "org", [512.0, 128.0]),
        ("research", "org", [256.0, 128.0]),
    ]
    assert queues.default_cluster_queue == "prod"
    assert "Kueue: 2 ClusterQueues in 1 cohort" in summary(at)
    assert not at.warning


def test_a_cohort_named_like_a_queue_is_an_error(db: Path) -> None:
    at = upload(open_page(), "queue_upload", KUEUE)
    at = at.button(key=key(at, "use_queues")).click().run()
    before = working(at)
    edit_table(at, "kueue", {1: {"cohort": "team-a"}})

    at = apply(at)

    assert "names both a cohort and a ClusterQueue" in at.error[0].value
    assert at.error[0].value.startswith("**Queues**")
    assert working(at) == before


def test_a_volcano_yaml_import_shows_the_queues_and_their_shares(db: Path) -> None:
    at = upload(open_page(), "queue_upload", VOLCANO)

    assert not at.exception
    assert not at.error
    table = frame_with(at, "weight")
    assert table["name"].tolist() == ["team-a", "team-b"]
    assert table["weight"].tolist() == [1, 3]
    captions = [c.value for c in at.caption]
    assert any("plugin drf not modelled" in c for c in captions)

    at = at.button(key=key(at, "use_queues")).click().run()

    assert not at.error
    scenario = working(at)
    assert scenario.volcano is not None
    assert scenario.queues is None
    assert "Volcano: 2 queues (capacity)" in summary(at)


def test_reset_brings_back_the_bundled_sample(db: Path) -> None:
    at = open_page()
    edit_table(at, "pools", {0: {"count": 4}})
    at = apply(at)

    at = at.button(key="cluster_reset").click().run()

    assert working(at) == default_scenario()
    assert at.data_editor[0].value["count"].tolist() == [96, 32]


def test_the_page_speaks_chinese(db: Path) -> None:
    at = open_page("zh")

    assert not at.exception
    assert at.title[0].value == "集群与策略"
    assert [tab.label for tab in at.tabs][:3] == ["节点池", "调度策略", "队列"]
    assert "96 个节点 × 8 块 A100" in summary(at)
    assert "EASY 回填" in summary(at)


# ---------------------------------------------------------------- the glue, without a page


def tables(scenario: Scenario) -> dict[str, Any]:
    """The editor tables a page would start from (no edits)."""
    return {
        "pools": cluster_view.pool_frame(scenario.cluster),
        "nodes": cluster_view.node_frame(scenario.cluster.nodes if scenario.cluster else ()),
        "policy": {},
    }


def test_a_scenario_with_every_section_round_trips_through_yaml(tmp_path: Path) -> None:
    base = default_scenario().model_copy(update={"policy": PolicySpec(queueing="fifo")})
    start = tables(base)
    queues = cluster_import.read_queue_upload(KUEUE.read_bytes(), "kueue.yaml")
    kueue = cluster_view.kueue_frame(queues.kueue, {"A100": 768.0})
    sharing = cluster_view.sharing_frame((), ["A100", "H800"])
    sharing.loc[0, ["mode", "mig_layout"]] = ["mig", "3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb"]
    sharing.loc[1, ["mode", "replicas"]] = ["time-slicing", 3]
    edits = cluster_view.Edits(
        **start,
        queue_mode="kueue",
        kueue=kueue,
        local_queues=cluster_view.mapping_frame({"research": "team-a"}, ("queue", "target")),
        default_queue="team-b",
        priority_classes=pd.DataFrame({"name": ["high"], "value": [1000]}),
        priority_by_queue=pd.DataFrame({"queue": ["research", "batch"], "priority": ["high", "5"]}),
        preemption={"checkpoint_interval_s": 1800.0, "termination_grace_s": 30.0},
        sharing=sharing,
        colocation={"online_gpus_by_hour": [8] * 12 + [16] * 12, "gpu_types": ["A100"]},
        overhead={"network": "tcp", "storage": "nfs"},
    )

    scenario, problems = build_scenario(base, edits)

    assert problems == []
    assert scenario is not None
    assert scenario.priorities is not None
    assert scenario.priorities.by_queue == {"research": "high", "batch": 5}
    assert scenario.preemption.checkpoint_interval_s == 1800.0
    assert scenario.sharing[0].mig is not None
    assert scenario.sharing[0].mig.layout == ("3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb")
    path = tmp_path / "scenario.yaml"
    path.write_text(cluster_view.scenario_yaml(scenario), encoding="utf-8")
    assert load_scenario(path) == scenario


def test_a_quota_on_an_unknown_flavor_is_a_queues_problem() -> None:
    base = default_scenario().model_copy(update={"policy": PolicySpec(queueing="fifo")})
    kueue = cluster_view.kueue_frame(None, {"A100": 768.0})
    kueue.loc[0, "flavor"] = "b200"

    scenario, problems = build_scenario(
        base, cluster_view.Edits(**tables(base), queue_mode="kueue", kueue=kueue)
    )

    assert scenario is None
    assert problems == [
        "**Queues**: row 1: flavor 'b200' is neither a GPU type of the cluster nor an "
        "imported flavor (known: a100, h800)"
    ]


def test_a_node_list_file_stays_until_pools_replace_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the app reads node lists only from its own folder: tmp_path stands in for data/traces
    monkeypatch.setattr(cluster_build, "BUNDLED_FILES", FileAccess(tmp_path, tmp_path))
    nodes = tmp_path / "nodes.csv"
    nodes.write_text("node,gpus,gpu_type\nn1,8,A100\nn2,8,A100\n", encoding="utf-8")
    base = Scenario(cluster=ClusterSpec(node_list="nodes.csv"))
    empty = cluster_view.Edits(**tables(base))

    kept, problems = build_scenario(base, empty)
    replaced, _ = build_scenario(
        base,
        cluster_view.Edits(
            pools=cluster_view.pool_frame(default_scenario().cluster),
            nodes=cluster_view.node_frame(()),
            policy={},
        ),
    )

    assert problems == []
    assert kept is not None
    assert kept.cluster == base.cluster
    assert cluster_view.scenario_summary(kept, "en").startswith("nodes of nodes.csv · gang")
    assert replaced is not None
    assert replaced.cluster is not None
    assert replaced.cluster.node_list is None
    assert len(replaced.cluster.pools) == 2


def test_problems_in_several_sections_are_all_reported() -> None:
    base = default_scenario()
    start = tables(base)
    start["pools"].loc[0, "gpus_per_node"] = 99
    hours = {"online_gpus_by_hour": [None] * 24, "gpu_types": []}

    scenario, problems = build_scenario(base, cluster_view.Edits(**start, colocation=hours))

    assert scenario is None
    assert len(problems) == 2
    assert problems[0].startswith("**Node pools**: row 1: gpus_per_node: ")
    assert problems[1] == "**Colocation**: give a number of online GPUs for each of the 24 hours"


def test_problems_are_reported_in_chinese(db: Path) -> None:
    at = open_page("zh")
    edit_table(at, "sharing", {0: {"mode": "time-slicing", "replicas": 1}})

    at = apply(at)

    assert at.error[0].value.startswith("在 **GPU 共享** 中：第 1 行：")


def test_mig_layouts_read_from_kubectl_nodes_come_with_the_import() -> None:
    imported = cluster_import.read_node_upload(MIG_NODES.read_bytes(), MIG_NODES.name)
    base = default_scenario()

    scenario = cluster_import.with_nodes(base, imported, as_pools=True)

    modes = {s.gpu_type: s.mig for s in scenario.sharing}
    assert modes["A100"] is not None
    assert modes["H100"] is not None
    assert modes["A100"].layout == ("1g.10gb", "1g.10gb", "2g.20gb", "3g.40gb")
    assert modes["H100"].strategy == "single"
    assert any(note.startswith("A100: MIG mixed") for note in imported.notes)


def test_the_summary_names_cluster_policy_and_queues() -> None:
    queues = QueuesSpec.model_validate(
        {
            "flavors": [{"name": "a100", "gpu_type": "A100"}],
            "cluster_queues": [
                {"name": n, "cohort": "org", "quotas": [{"flavor": "a100", "gpus": 32}]}
                for n in ("a", "b", "c")
            ],
        }
    )
    scenario = Scenario(
        cluster=ClusterSpec(pools=(NodePool(gpu_type="A100", gpus_per_node=8, count=16),)),
        queues=queues,
    )

    assert cluster_view.scenario_summary(scenario, "en") == (
        "16 nodes × 8 A100 (128 GPUs) · gang · best-fit · FIFO · Kueue: 3 ClusterQueues in 1 cohort"
    )
    assert cluster_view.scenario_summary(scenario, "zh") == (
        "16 个节点 × 8 块 A100（共 128 块 GPU） · 整组准入 · 最佳适配 · 先进先出 · "
        "Kueue：3 个 ClusterQueue 队列，分属 1 个 cohort 组"
    )


def test_a_saved_scenario_is_saved_then_loaded_back_into_the_editor(db: Path) -> None:
    at = open_page()
    edit_table(at, "pools", {0: {"count": 3}})
    apply(at)
    at.text_input(key="cluster_save_name").set_value("three nodes")
    at.button(key="FormSubmitter:cluster_save_save_form-Save").click().run()
    assert any("three nodes" in s.value for s in at.success)

    at.button(key="cluster_reset").click().run()
    assert working(at).cluster is not None
    assert working(at).cluster.pools[0].count != 3
    at.selectbox(key="cluster_library_pick").set_value("three nodes").run()
    at.button(key="cluster_library_load").click().run()

    assert not at.exception
    assert at.session_state["working_scenario_name"] == "three nodes"
    assert working(at).cluster is not None
    assert working(at).cluster.pools[0].count == 3
    pools = at.data_editor(key=key(at, "pools")).value  # the editor starts from the loaded one
    assert int(pools["count"].iloc[0]) == 3
    assert any("Loaded 'three nodes'" in s.value for s in at.success)


# ---------------------------------------------------------------- the Volcano queue editor


def volcano_rows(at: AppTest) -> pd.DataFrame:
    return next(e.value for e in at.data_editor if "guarantee" in e.value.columns)


def to_volcano(at: AppTest) -> AppTest:
    at = at.radio(key=key(at, "queue_mode")).set_value("volcano").run()
    at.selectbox(key=key(at, "queueing")).set_value("fifo")
    return at


def test_the_volcano_editor_makes_weighted_queues(db: Path, tmp_path: Path) -> None:
    at = to_volcano(open_page())
    # no Volcano queues yet: one example row
    assert volcano_rows(at)["name"].tolist() == ["default"]
    at.session_state[key(at, "volcano")] = {
        "edited_rows": {0: {"name": "team-a", "weight": 1, "capability": 512.0}},
        "added_rows": [{"name": "team-b", "weight": 3, "guarantee": 64.0}],
        "deleted_rows": [],
    }

    at = apply(at)

    assert not at.exception
    assert not at.error
    volcano = working(at).volcano
    assert volcano is not None
    assert working(at).queues is None
    assert [(q.name, q.weight) for q in volcano.queues] == [("team-a", 1), ("team-b", 3)]
    assert volcano.queues[0].capability == {"": 512.0}
    assert volcano.queues[1].guarantee == {"": 64.0}
    assert volcano.overcommit_factor == 1.2
    assert "Volcano: 2 queues (proportion)" in summary(at)
    path = tmp_path / "scenario.yaml"
    path.write_text(cluster_view.scenario_yaml(working(at)), encoding="utf-8")
    assert load_scenario(path) == working(at)
    # the editor now starts from the applied queues
    assert volcano_rows(at)["weight"].tolist() == [1, 3]


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        ({"weight": -2}, "greater than or equal to 1"),
        ({"guarantee": 600.0}, "queue 'team-b': guarantee exceeds capability"),
    ],
)
def test_a_bad_volcano_row_is_named_and_changes_nothing(
    db: Path, edit: dict[str, Any], problem: str
) -> None:
    at = to_volcano(open_page())
    before = working(at)
    at.session_state[key(at, "volcano")] = {
        "edited_rows": {0: {"name": "team-a"}},
        "added_rows": [{"name": "team-b", "weight": 3, "capability": 512.0} | edit],
        "deleted_rows": [],
    }

    at = apply(at)

    assert not at.exception
    assert at.error[0].value.startswith("**Queues**: row 2: ")
    assert problem in at.error[0].value
    assert working(at) == before


def test_imported_volcano_queues_show_in_the_editor_and_apply_unchanged(db: Path) -> None:
    at = upload(open_page(), "queue_upload", VOLCANO)
    at = at.button(key=key(at, "use_queues")).click().run()
    before = working(at)
    assert before.volcano is not None

    rows = volcano_rows(at)
    assert rows["name"].tolist() == ["team-a", "team-b"]
    assert rows["weight"].tolist() == [1, 3]
    assert rows["deserved"].tolist() == [8.0, 24.0]
    assert at.number_input(key=key(at, "volcano_overcommit")).value == 1.5
    at.selectbox(key=key(at, "queueing")).set_value("fifo")
    at = apply(at)

    assert not at.exception
    assert not at.error
    after = working(at)
    assert after.volcano == before.volcano
    assert after.model_copy(update={"policy": before.policy}) == before


def test_the_volcano_editor_keeps_what_it_does_not_show(db: Path) -> None:
    at = upload(open_page(), "queue_upload", VOLCANO)
    at = at.button(key=key(at, "use_queues")).click().run()
    before = working(at).volcano
    assert before is not None
    at.selectbox(key=key(at, "queueing")).set_value("fifo")
    edit_table(at, "volcano", {1: {"weight": 5}})
    at.number_input(key=key(at, "volcano_overcommit")).set_value(2.0)

    at = apply(at)

    assert not at.error
    after = working(at).volcano
    assert after is not None
    assert [q.weight for q in after.queues] == [1, 5]
    assert after.overcommit_factor == 2.0
    assert (after.plugin, after.preempt, after.reclaim) == (before.plugin, True, True)
    assert after.queues[1].priority == 10
    assert after.queues[0].cpu_capability == before.queues[0].cpu_capability


def test_the_volcano_editor_speaks_chinese(db: Path) -> None:
    at = open_page("zh")
    at = at.radio(key=key(at, "queue_mode")).set_value("volcano").run()

    assert not at.exception
    assert at.number_input(key=key(at, "volcano_overcommit")).label == "超售系数"
    assert any("示例行" in i.value for i in at.info)
