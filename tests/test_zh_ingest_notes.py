"""The readers' notes and row messages in 简体中文 (issue 17): every code has English and
Chinese text with the same placeholders, the notes real odd files produce are worded in
Chinese with no English phrase and the user's names kept, and English stays the CLI's text.
"""

import ast
import json
import re
from pathlib import Path

import pytest

from planner.core.notes import Note
from planner.engine.sharing import MigConfig, TimeSlicing, mode_label
from planner.engine.volcano import VolcanoSpec
from planner.engine.volcano_queues import volcano_notes
from planner.ingest import IngestOptions, jobs_from, sniff
from planner.ingest.kubectl import kubectl_sharing, read_kubectl_nodes
from planner.ingest.kueue_yaml import read_kueue
from planner.ingest.notes import NOTES, REPLAY, ROWS, ingest_note, recognised, row_message
from planner.ingest.reasons import REJECTION_REASONS
from planner.ingest.volcano_yaml import read_volcano
from planner.service.replay import read_nodes
from planner.ui.error_text import mode_words, note_md, note_words, reason_words
from planner.ui.safe import md
from planner.ui.text import ingest_notes as zh
from tests.conftest import write
from tests.pages.test_hostile_uploads_zh import KUBECTL, KUEUE, VOLCANO, english_phrases

ROOT = Path(__file__).parent.parent
PLACEHOLDER = re.compile(r"\{(\w+)[^}]*\}")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@pytest.mark.parametrize(
    ("english", "chinese"),
    [
        (NOTES, zh.NOTES),
        (ROWS, zh.ROWS),
        (REPLAY, zh.REPLAY),
        (REJECTION_REASONS, zh.REASONS),
    ],
)
def test_every_code_has_chinese_text_with_the_same_placeholders(
    english: dict[str, str], chinese: dict[str, str]
) -> None:
    assert sorted(chinese) == sorted(english)
    for code, text in english.items():
        assert placeholders(chinese[code]) == placeholders(text), code
        assert re.search(r"[\u4e00-\u9fff]", chinese[code]), code


def test_notes_row_messages_and_replay_notes_share_no_code() -> None:
    assert len({*NOTES, *ROWS, *REPLAY}) == len(NOTES) + len(ROWS) + len(REPLAY)


def _used_codes() -> set[str]:
    """Codes given as literals to `ingest_note` or `row_message` anywhere in the planner."""
    found: set[str] = set()
    for path in (ROOT / "planner").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id in ("ingest_note", "row_message"):
                found |= {
                    n.value
                    for n in ast.walk(node)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)
                }
    return found


def test_every_code_is_written_somewhere_and_every_code_written_is_known() -> None:
    used = _used_codes()

    # pandas writes field_count's text, the engine the Volcano notes
    ours = {*NOTES, *ROWS, "sharing_no_gpu", "sharing_read"} - {"field_count"}

    assert {c for c in used if c in NOTES or c in ROWS or c in REPLAY} == ours


@pytest.mark.parametrize("code", [*NOTES, *ROWS, *REPLAY])
def test_a_note_that_lost_its_code_is_recognised_by_its_template(code: str) -> None:
    template = {**NOTES, **ROWS, **REPLAY}[code]
    values = {name: f"v{i}" for i, name in enumerate(sorted(placeholders(template)))}
    make = row_message if code in ROWS else ingest_note

    found = recognised(str(make(code, **values)))

    assert found == (code, values)


def test_unknown_text_is_not_recognised_and_stays_english() -> None:
    text = "something the readers never write"

    assert recognised(text) is None
    assert note_md(text, "zh") == md(text)
    assert note_words(text, "zh") == text


def chinese(note: str, *kept: str) -> str:
    """`note` worded in Chinese: different from its English, no English phrase, `kept`
    (the user's names and numbers) as given."""
    worded = note_words(note, "zh")
    assert worded != note
    assert not english_phrases(worded), worded
    for value in kept:
        assert value in worded, (value, worded)
    assert note_words(note, "en") == str(note)
    return worded


def _read_notes(tmp_path: Path, name: str, text: str) -> list[str]:
    path = write(tmp_path, name, text)
    return list(sniff(path, IngestOptions())[0].notes)


def test_a_repeated_column_and_lines_in_another_encoding_are_worded(tmp_path: Path) -> None:
    repeated = _read_notes(tmp_path, "dup.csv", "job_id,submit,gpus,gpus,duration_s\nj1,0,1,2,60\n")
    path = tmp_path / "mixed.csv"
    gbk = "job_id,submit,gpus,duration_s,queue\nj1,0,1,60,训练\n".encode("gb18030")
    path.write_bytes(gbk + "j2,1,1,60,推理\n".encode())
    mixed = list(sniff(path, IngestOptions())[0].notes)

    assert chinese(repeated[0], "gpus", "gpus.1").startswith("列名重复：第 3 列和第 4 列")
    assert "编码混用" in chinese(mixed[0], "第 3 行")


def test_columns_naming_one_field_are_worded(tmp_path: Path) -> None:
    jobs = "job_id,submit,gpus,GPUs,duration_s\nj1,0,1,2,60\n"
    source, fmt = sniff(write(tmp_path, "same.csv", jobs), IngestOptions())
    nodes = "node_name,gpu_model,gpu_num,gpu_capacity_num\nn1,A100,8,8\n"
    node_source, _ = sniff(write(tmp_path, "nodes.csv", nodes), IngestOptions())
    from planner.ingest.nodes import node_columns

    [same] = jobs_from(source, fmt, IngestOptions()).new_report().warnings
    [other] = node_columns(node_source.header, {}, file="nodes.csv")[1]

    assert "都对应字段" in chinese(same, "gpus", "GPUs")
    assert "读作字段" in chinese(other, "gpu_num", "gpu_capacity_num")


def test_kubectl_items_skipped_and_nodes_noted_are_worded(tmp_path: Path) -> None:
    path = write(tmp_path, "nodes.json", json.dumps(KUBECTL))

    _, notes = read_kubectl_nodes(path)
    worded = {n.code: chinese(n) for n in notes if isinstance(n, Note)}

    assert len(worded) == 6
    assert len(notes) == 7  # two nodes without a product label
    assert worded["kubectl_not_node"] == "第 0 项：类型 Pod 不是 Node，已跳过"
    assert worded["kubectl_cordoned"].startswith("cordoned-1：已封锁")
    assert (
        worded["kubectl_no_product"] == "single：有 7 个 GPU 但没有 GPU 型号标签；GPU 类型记为 GPU"
    )
    assert worded["kubectl_bad_quantity"] == "bad-q：资源数量“x”无法读取，已跳过"
    assert worded["kubectl_unknown_mig"].startswith("mig-odd：未知的 MIG 配置 9g.99gb")
    assert worded["kubectl_single_unknown"].startswith("single：MIG single 策略")
    assert kubectl_sharing(path)[1] == []


def test_kueue_documents_not_modelled_are_worded(tmp_path: Path) -> None:
    _, notes = read_kueue(write(tmp_path, "kueue.yaml", KUEUE))
    worded = [chinese(n) for n in notes]

    assert sorted(n.code for n in notes if isinstance(n, Note)) == sorted(
        [
            "yaml_key_ignored",
            "kueue_preemption_ignored",
            "kueue_quota_ignored",
            "kueue_priority",
            "yaml_kind_skipped",
            "yaml_not_mapping",
        ]
    )
    assert worded[0] == "ClusterQueue team-a：spec.namespaceSelector 未建模，已忽略"
    assert "Workload w1：此类型未建模，已跳过" in worded


def test_volcano_documents_not_modelled_are_worded(tmp_path: Path) -> None:
    _, notes = read_volcano(write(tmp_path, "volcano.yaml", VOLCANO))
    codes = {n.code: chinese(n) for n in notes if isinstance(n, Note)}
    _, plain = read_volcano(write(tmp_path, "plain.yaml", "kind: Queue\nmetadata: {name: q}\n"))
    deserved = "kind: Queue\nmetadata: {name: q}\nspec: {deserved: {nvidia.com/gpu: 1}}\n"
    _, capacity = read_volcano(write(tmp_path, "deserved.yaml", deserved))

    assert len(codes) == len(notes)
    assert set(codes) == {
        "volcano_action_ignored",
        "volcano_plugin_ignored",
        "volcano_root_skipped",
        "yaml_key_ignored",
        "volcano_guarantee_ignored",
        "volcano_cpu_memory_ignored",
        "volcano_resource_ignored",
        "yaml_kind_skipped",
        "yaml_document_skipped",
        "volcano_both_plugins",
    }
    assert codes["volcano_action_ignored"].endswith("：动作 shuffle 未建模，已忽略")
    assert "没有 volcano-scheduler.conf ConfigMap" in chinese(plain[0], "plain.yaml")
    assert chinese(capacity[0]) == "deserved.yaml：有队列设置了 deserved：按 capacity 插件计算"
    plugins = "{name: proportion}, {name: capacity}"
    _, neither = read_volcano(write(tmp_path, "n.yaml", VOLCANO.replace(plugins, "{name: gang}")))
    assert "proportion 和 capacity 插件都未启用：使用 proportion" in map(chinese, neither)


def test_a_node_lists_skipped_rows_are_worded_with_their_reason(tmp_path: Path) -> None:
    path = write(tmp_path, "n.csv", "node_name,gpu_model,gpu_num\nn1,A100,8\nn2,A100,x\n")

    _, notes = read_nodes(path)

    assert (
        chinese(notes[0], "n.csv") == "n.csv 第 3 行：应为数字的值不是数字，应为数字；已跳过该节点"
    )
    assert note_md(notes[0], "zh").startswith("n.csv 第 3 行")


def test_row_messages_of_an_import_are_worded(tmp_path: Path) -> None:
    rows = "job_id,submit,gpus,duration_s\n,0,1,60\nj2,x,1,60\nj3,0,1.5,60\nj4,0,1,-5\n"
    source, fmt = sniff(write(tmp_path, "rows.csv", rows), IngestOptions())
    stream = jobs_from(source, fmt, IngestOptions())

    rejected = [result.rejected for result, _ in stream.chunks()]
    messages = rejected[0].sort_values("row")["message"]

    assert [chinese(m) for m in messages] == [
        "作业 ID 为空",
        "应为日期时间（ISO 8601、'2024-01-05 10:00:00'、Unix 时间戳秒数）或距作业轨迹开始的秒数",
        "大于 1 的 GPU 数必须是整数；只有共享一块 GPU（小于 1）时才允许小数",
        "运行时间不能为负数",
    ]
    assert chinese("Expected 4 fields in line 7, saw 5") == "应有 4 个字段，第 7 行却有 5 个"


def test_reasons_are_worded_in_both_languages() -> None:
    assert reason_words("not_a_number", "zh") == "应为数字的值不是数字"
    assert reason_words("not_a_number", "en") == REJECTION_REASONS["not_a_number"]
    assert reason_words("no_such_reason", "zh") == "no_such_reason"


def test_values_are_escaped_one_by_one_in_markdown() -> None:
    note = ingest_note("kubectl_cordoned", name="**evil** [a](javascript:x)")

    shown = note_md(note, "zh")

    assert shown.startswith(md("**evil** [a](javascript:x)"))
    assert shown.endswith("：已封锁（不可调度），仍计入容量")
    assert note_md(note, "en") == md(note)


def test_the_replays_volcano_notes_are_worded() -> None:
    over = VolcanoSpec.model_validate(
        {"queues": [{"name": "a", "guarantee": {"": 40}, "capability": {"": 40}}, {"name": "b"}]}
    )
    typed = VolcanoSpec.model_validate(
        {
            "queues": [
                {"name": "a", "guarantee": {"A100": 12}, "priority": 5, "parent": "p"},
                {"name": "b", "deserved": {"A100": 3}, "capability": {"H100": 2}},
                {"name": "c", "cpu_capability": 4},
                {"name": "p"},
            ]
        }
    )

    notes = volcano_notes(over, {"": 32}) + volcano_notes(typed, {"A100": 30, "T4": 8})
    worded = [chinese(note) for note in notes]

    assert {found[0] for n in notes if (found := recognised(n))} >= {
        "volcano_guarantees_over",
        "volcano_default_missing",
        "volcano_queue_priority",
        "volcano_parent_ignored",
        "volcano_deserved_ignored",
        "volcano_capability_flavors",
        "volcano_types_missing",
    }
    assert "Volcano 保证 40 块 GPU，但集群只有 32 块" in worded
    assert "Volcano 队列 b：GPU 类型 H100 未安装，已忽略" in worded
    assert chinese(ingest_note("sharing_no_gpu", gpu_type="T4"), "T4").startswith("T4 的共享设置")


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        (
            MigConfig("mixed", ("3g.40gb", "2g.20gb", "2g.20gb")),
            "MIG mixed（每块 GPU：3g.40gb + 2 x 2g.20gb）",
        ),
        (
            MigConfig("mixed", ("1g.10gb",), relayout_delay_s=60.0),
            "MIG mixed（每块 GPU：1g.10gb），60 秒后重新布局",
        ),
        (MigConfig("mixed", ()), "动态 MIG（按需创建实例）"),
        (TimeSlicing(4, 1.2), "时间切片 ×4，减速系数 1.2"),
    ],
)
def test_a_sharing_mode_read_from_a_node_list_is_worded(
    mode: MigConfig | TimeSlicing, expected: str
) -> None:
    label = mode_label(mode)
    note = ingest_note("sharing_read", gpu_type="A100", mode=label)

    assert mode_words(label, "zh") == expected
    assert mode_words(label, "en") == label
    assert chinese(note, "A100") == f"A100：{expected}，读取自节点列表"
