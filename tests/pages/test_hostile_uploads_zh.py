"""Hostile uploads in 简体中文: the reader's and the validator's refusals reach the page in
Chinese, with the file, the line (and column) and the limit, and no English sentence.

The same uploads as tests/pages/test_hostile_uploads.py (whose English texts are the CLI's,
unchanged). What may stay in Latin letters is what the page tests for 简体中文 allow: file
names, YAML keys and commands as inline code, technical tokens (gzip, MiB, YAML, Kueue).
"""

import gzip
import io
import json
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from streamlit.testing.v1 import AppTest

from planner.ui.text import CATALOGS
from tests.pages.app import RUN_CEILING_S, open_app_page
from tests.pages.test_cluster_page import key
from tests.test_hostile_inputs import HEADER, ROWS, bomb_under

TIMEOUT_S = RUN_CEILING_S
_CODE_SPAN = re.compile(r"`[^`]*`")
# Three or more Latin words in a row ("is not allowed here") make an English phrase; a file
# name, a key in a code span, "Kueue YAML" or "true/false" do not.
_ENGLISH = re.compile(r"[A-Za-z]{2,}(?:[ ,;']+[A-Za-z]{2,}){2,}")


def english_phrases(text: str) -> list[str]:
    return _ENGLISH.findall(_CODE_SPAN.sub("", text.replace("\\", "")))


def open_in_chinese(page: str) -> AppTest:
    return open_app_page(page, TIMEOUT_S, lang="zh")


def only_error(at: AppTest) -> str:
    assert not at.exception
    [shown] = [e.value for e in at.error]
    assert not english_phrases(shown), shown
    return shown


def test_english_phrases_are_found_outside_code_spans_only() -> None:
    assert english_phrases("a.yaml: line 3: unknown key; did you mean") != []
    assert english_phrases("a.yaml：第 3 行：`horizon_years`：未知的键（Kueue YAML）") == []


def test_the_history_page_words_a_bomb_a_wide_file_and_a_long_line_in_chinese(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLANNER_MAX_UNPACKED_GIB", "0.001")
    member = gzip.compress((ROWS * 40_000).encode(), 9)
    bomb = gzip.compress(HEADER.encode()) + member * 8
    at = open_in_chinese("pages/history.py")

    at = at.file_uploader(key="history_upload").set_value((
        "bomb.csv.gz", bomb, "application/gzip"
    )).run()  # fmt: skip

    shown = only_error(at)
    assert re.search(
        r"bomb\.csv\.gz：gzip 数据解压后超过 1\.0 MiB（在第 [\d,]+ 行停止读取）", shown
    )
    assert "`PLANNER_MAX_UNPACKED_GIB=N`" in shown

    names = "job_id,submit_time,duration_s,gpus,queue,"
    wide = names + ",".join(f"c{i}" for i in range(9_995)) + "\nj1,2024-01-05,60,1,q\n"
    at = at.file_uploader(key="history_upload").set_value((
        "wide.csv", wide.encode(), "text/csv"
    )).run()  # fmt: skip

    assert "wide.csv：表头有 10,000 列，超过作业历史或节点列表最多 1,000 列的上限" in only_error(at)

    at = at.file_uploader(key="history_upload").set_value((
        "oneline.csv", ("job_id," + "x," * (5 << 19)).encode(), "text/csv"
    )).run()  # fmt: skip

    assert "oneline.csv：第一行（表头）超过 64 KiB" in only_error(at)
    assert "history_import" not in [b.key for b in at.button]


def _upload_scenario(at: AppTest, name: str, text: str) -> str:
    at.file_uploader(key="compare_upload").set_value((name, text.encode(), "text/yaml"))
    return only_error(at.run())


def test_compare_words_yaml_bombs_tags_typos_and_limits_in_chinese(db: Path) -> None:
    at = open_in_chinese("pages/compare.py")
    at.selectbox(key="compare_scenario").set_value(CATALOGS["zh"]["compare.upload_choice"]).run()
    owned = "name: t\nself_hosted: [{gpu: H100, servers: 1}]\n"

    bomb = _upload_scenario(at, "lol.yaml", owned + bomb_under("overrides"))
    tag = _upload_scenario(at, "tag.yaml", owned + "overrides: !!python/object:os.system x\n")
    typo = _upload_scenario(at, "typo.yaml", owned + "horizon_years: [3]\n")
    huge = _upload_scenario(
        at, "huge.yaml", "name: t\nself_hosted: [{gpu: H100, servers: 1000000000}]\n"
    )
    many = (
        "name: t\nself_hosted:\n  - {gpu: H100, servers: 60000}\n  - {gpu: A100, servers: 60000}\n"
    )
    too_many = _upload_scenario(at, "many.yaml", many)
    nan = _upload_scenario(at, "nan.yaml", owned + "discount_rate: .nan\n")
    both = owned + "cloud: [{gpu: H100}]\n"
    hybrid = _upload_scenario(
        at, "hybrid.yaml", both + "hybrid: {burst_after_s: 60, servers: {A100: 1}}\n"
    )
    speed = _upload_scenario(at, "speed.yaml", both + "speed: {H100: 2}\n")
    rates = "growth: {arrival_rate: [1, 2], arrival_rate_per_year: 1.5}\n"
    growth = _upload_scenario(at, "growth.yaml", owned + rates)

    assert "lol.yaml：第 11 行第 9 列：这个值经层层嵌套的锚点和别名" in bomb
    assert "超过 1,000,000 个值" in bomb
    assert "任何 TCO 场景都用不了这么多值" in bomb
    assert "tag.yaml：第 3 行第 12 列：不允许使用标签 !!python/object:" in tag
    assert "typo.yaml：`horizon_years`：未知的键；您是否想写 `horizons_years`？（第 3 行）" in typo
    assert "huge.yaml：`self_hosted.0.servers`：应小于或等于 100,000（第 2 行）" in huge
    assert "many.yaml：`self_hosted`：共 120,000 台服务器（2 个池），超过" in too_many
    assert "nan.yaml：`discount_rate`：应为有限的数字（不能是 NaN 或无穷大）（第 3 行）" in nan
    assert "hybrid.yaml：整个文件：`hybrid.servers` 中的 `A100: 1` 不是自有服务器池" in hybrid
    assert "speed.yaml：整个文件：`speed` 中的 `H100: 2.0` 写法不对" in speed
    assert "growth.yaml：`growth`：请给出 `arrival_rate`（逐年的倍数）或" in growth
    assert not at.metric


def test_the_cluster_page_words_a_kueue_bomb_in_chinese(db: Path) -> None:
    at = open_in_chinese("pages/cluster.py")
    kueue = "kind: ClusterQueue\nmetadata: {name: q}\n" + bomb_under("spec")

    at.file_uploader(key=key(at, "queue_upload")).set_value((
        "kueue.yaml", kueue.encode(), "text/yaml"
    ))  # fmt: skip
    shown = only_error(at.run())

    assert "第 11 行第 9 列" in shown
    assert "超过 1,000,000 个值" in shown
    assert "任何 Kueue YAML 都用不了这么多值" in shown


HISTORY_HEADER = "job_id,submit_time,duration_s,gpus\n"
HISTORY_ROW = "j1,2024-01-05,60,1\n"


def _history_upload(at: AppTest, name: str, data: bytes) -> AppTest:
    return at.file_uploader(key="history_upload").set_value((name, data, "text/csv")).run()


def _workbook_that_is_no_workbook() -> bytes:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("notes.txt", "hello")
    return packed.getvalue()


def _empty_workbook() -> bytes:
    packed = io.BytesIO()
    openpyxl.Workbook().save(packed)
    return packed.getvalue()


def test_the_history_page_words_the_readers_older_refusals_in_chinese(db: Path) -> None:
    at = open_in_chinese("pages/history.py")
    latin = (HISTORY_HEADER + HISTORY_ROW).encode() + b"j2,2024-01-05,60,\xff\x80\n"
    cut = gzip.compress((HISTORY_HEADER + HISTORY_ROW * 2000).encode())[:-30]

    odd = only_error(_history_upload(at, "odd.csv", b"alpha,beta,gamma\n1,2,3\n"))
    encoding = only_error(_history_upload(at, "latin.csv", latin))
    damaged = only_error(_history_upload(at, "cut.csv.gz", cut))
    book = only_error(_history_upload(at, "book.xlsx", _workbook_that_is_no_workbook()))
    empty = only_error(_history_upload(at, "empty.xlsx", _empty_workbook()))

    assert odd.startswith(
        "odd.csv：文件的列（共 3 列）：`alpha`、`beta`、`gamma`，不符合任何已知格式"
    )
    assert "第 3 行有无效的字节" in encoding
    assert encoding.startswith("latin.csv：文本既不是 UTF-8 也不是 GBK/GB18030")
    assert damaged.startswith("cut.csv.gz：gzip 数据已损坏，无法解压")
    assert book.startswith("book.xlsx：这是 zip 压缩包，但不是 Excel .xlsx 工作簿")
    assert empty.startswith("empty.xlsx：工作簿的第一个工作表是空的")
    assert "history_import" not in [b.key for b in at.button]


def test_the_history_page_words_import_refusals_in_chinese(db: Path) -> None:
    at = open_in_chinese("pages/history.py")

    at = _history_upload(at, "nosubmit.csv", b"job_id,gpus,queue\nj1,1,a\n")
    missing = only_error(at.button(key="history_import").click().run())
    at = _history_upload(at, "jobs.csv", (HISTORY_HEADER + HISTORY_ROW).encode())
    at.text_input(key="history_tz").set_value("Mars/Olympus")
    zone = only_error(at.button(key="history_import").click().run())
    quote = HISTORY_HEADER + HISTORY_ROW + 'j2,"2024-01-05,60,1\n' + HISTORY_ROW
    at = _history_upload(at, "quote.csv", quote.encode())
    if not at.error:  # the first rows read fine: the parser meets the quote on import
        at = at.button(key="history_import").click().run()
    unclosed = only_error(at)

    assert missing.startswith("nosubmit.csv：找不到字段 `submit`、`start`（任一即可）对应的列")
    assert "文件中的列（共 3 列）：`job_id`、`gpus`、`queue`" in missing
    assert zone.startswith("文件 jobs.csv：未知的时区 `Mars/Olympus`；请使用 IANA 时区名称")
    assert unclosed.startswith("quote.csv：第 ")
    assert '的引号（"）没有闭合' in unclosed


def _cluster_upload(at: AppTest, name: str, field: str, text: str) -> str:
    """The error naming `name` (the other uploader's file stays, with its own error)."""
    at.file_uploader(key=key(at, field)).set_value((name, text.encode(), "text/plain"))
    return only_new_error(at.run(), name)


def only_new_error(at: AppTest, start: str) -> str:
    """The one error starting with `start`, in Chinese with no English phrase."""
    assert not at.exception
    [shown] = [e.value for e in at.error if e.value.startswith(start)]
    assert not english_phrases(shown), shown
    return shown


def test_the_cluster_page_words_kubectl_kueue_and_volcano_refusals_in_chinese(db: Path) -> None:
    at = open_in_chinese("pages/cluster.py")
    volcano = "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n"

    broken = _cluster_upload(
        at, "nodes.json", "node_upload", '{"items": [ {"kind": "Node",\n "x": }'
    )
    pods = _cluster_upload(at, "pods.json", "node_upload", '{"items": [{"kind": "Pod"}]}')
    no_queue = _cluster_upload(
        at, "k.yaml", "queue_upload", "kind: ResourceFlavor\nmetadata: {name: f}\n"
    )
    nameless = _cluster_upload(at, "v.yaml", "queue_upload", volcano + "metadata: {}\n")
    jobs = _cluster_upload(at, "jobs.csv", "node_upload", HISTORY_HEADER + HISTORY_ROW)
    quota = "{name: nvidia.com/gpu, nominalQuota: lots}"
    kueue = f"kind: ClusterQueue\nmetadata: {{name: cq}}\nspec: {{resourceGroups: [{{flavors: [{{name: f, resources: [{quota}]}}]}}]}}\n"
    at.file_uploader(key=key(at, "queue_upload")).set_value(
        ("q.yaml", kueue.encode(), "text/plain")
    )
    lots = only_new_error(at.run(), "`ClusterQueue cq`")
    over = "spec: {capability: {nvidia.com/gpu: 2}, guarantee: {resource: {nvidia.com/gpu: 4}}}\n"
    guarantee = _cluster_upload(
        at, "g.yaml", "queue_upload", volcano + "metadata: {name: a}\n" + over
    )

    assert broken.startswith("nodes.json：第 2 行第 7 列：此处不是有效的 JSON")
    assert pods.startswith("pods.json：kubectl 输出的 1 项中没有一个可用的节点")
    assert no_queue.startswith("k.yaml：没有找到 ClusterQueue")
    assert nameless.startswith("v.yaml：有一个 Queue 没有 `metadata.name`")
    assert jobs.startswith("jobs.csv：这是作业历史（`generic`），不是节点列表")
    assert "`lots` 不是资源数量；应为 8、500m、512Gi 或 1Ti 这样的 Kubernetes 数量" in lots
    assert guarantee.startswith("g.yaml：`queues.0`：队列 `a`：`guarantee` 超过了 `capability`")


# --- notes and warnings (not refusals): the reader's, worded in Chinese too ------------------


# Small files with one of each note their reader writes (tests/test_zh_ingest_notes.py reads
# them without the app).
KUBECTL = {
    "items": [
        {"kind": "Pod", "metadata": {"name": "p"}},
        {
            "kind": "Node",
            "metadata": {"name": "cordoned-1"},
            "spec": {"unschedulable": True},
            "status": {"allocatable": {"nvidia.com/gpu": "4", "cpu": "8"}},
        },
        {"kind": "Node", "metadata": {"name": "bad-q"}, "status": {"allocatable": {"cpu": "x"}}},
        {
            "kind": "Node",
            "metadata": {
                "name": "mig-odd",
                "labels": {"nvidia.com/gpu.product": "A100", "nvidia.com/gpu.count": "1"},
            },
            "status": {"allocatable": {"nvidia.com/mig-9g.99gb": "2"}},
        },
        {
            "kind": "Node",
            "metadata": {"name": "single", "labels": {"nvidia.com/mig.strategy": "single"}},
            "status": {"allocatable": {"nvidia.com/gpu": "7"}},
        },
    ]
}


KUEUE = """\
kind: ResourceFlavor
metadata: {name: a100}
spec: {nodeLabels: {nvidia.com/gpu.product: A100}}
---
kind: ClusterQueue
metadata: {name: team-a}
spec:
  namespaceSelector: {}
  preemption: {withinClusterQueue: LowerPriority, fairSharing: {}}
  resourceGroups:
  - flavors:
    - name: a100
      resources: [{name: nvidia.com/gpu, nominalQuota: 8}, {name: pods, nominalQuota: 9}]
---
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
---
kind: Workload
metadata: {name: w1}
---
just text
"""


VOLCANO = """\
kind: ConfigMap
metadata: {name: volcano-scheduler-configmap}
data:
  volcano-scheduler.conf: |
    actions: "enqueue, allocate, shuffle"
    tiers:
    - plugins: [{name: drf}, {name: proportion}, {name: capacity}]
---
kind: Queue
metadata: {name: root}
---
kind: Queue
metadata: {name: team-a}
spec:
  weight: 1
  affinity: {}
  guarantee: {resource: {nvidia.com/gpu: 1}, extra: 1}
  deserved: {cpu: 4, example.com/fpga: 1}
---
kind: PodGroup
metadata: {name: pg}
---
metadata: {name: nameless}
"""


def _chinese_only(texts: list[str]) -> list[str]:
    """`texts`, each checked to hold Chinese and no English phrase."""
    for text in texts:
        assert re.search(r"[\u4e00-\u9fff]", text), text
        assert not english_phrases(text), text
    return texts


def test_the_history_page_words_an_odd_files_warnings_and_rejections_in_chinese(db: Path) -> None:
    header = "job_id,Submit Time,submit_time,duration_s,gpus,gpus,queue\n"
    gbk = (header + "j1,2026-01-01,x,60,1,1,训练\nj2,2026-01-01,x,soon,1,1,训练\n").encode(
        "gb18030"
    )
    utf8 = "j3,2026-01-01,x,60,1,1,推理\nj4,2026-01-01,x,60,x,1,推理\n".encode()
    at = _history_upload(open_in_chinese("pages/history.py"), "odd.csv", gbk + utf8)

    at = at.button(key="history_import").click().run()

    assert not at.exception
    assert not at.error
    warnings = _chinese_only([w.value for w in at.warning])
    assert len(warnings) == 3
    assert any(w.startswith("编码混用：文件整体不是 UTF-8") for w in warnings)
    assert any("第 5 列和第 6 列都叫“gpus”" in w and "gpus.1" in w for w in warnings)
    assert any("Submit Time" in w and "“Submit Time”、“submit_time”" in w for w in warnings)
    reasons, examples = at.dataframe[-2].value, at.dataframe[-1].value
    assert set(reasons["reason"]) == {"bad_duration", "not_a_number"}
    assert _chinese_only(sorted(reasons["meaning"])) == ["应为数字的值不是数字", "时长无法读取"]
    assert _chinese_only(examples["why"].tolist()) == [
        "应为秒数、HH:MM:SS 或 D-HH:MM:SS",
        "应为数字",
    ]


def test_the_history_page_words_a_node_lists_column_choice_in_chinese(db: Path) -> None:
    nodes = b"node_name,gpu_model,gpu_num,gpu_capacity_num\nn1,A100,8,8\n"

    at = _history_upload(open_in_chinese("pages/history.py"), "nodes.csv", nodes)

    assert not at.exception
    [choice] = [c.value for c in at.caption if "gpu_capacity_num" in c.value]
    assert _chinese_only([choice]) == [
        "列“gpu_num”读作字段“gpus”；“gpu_capacity_num”也可以（用 --map gpus=列名 或映射表可改选）"
    ]


def _captions(at: AppTest, name: str, field: str, data: str) -> list[str]:
    """The notes the Cluster page shows under an upload of `data` as `name`."""
    before = {c.value for c in at.caption}
    at.file_uploader(key=key(at, field)).set_value((name, data.encode(), "text/plain"))
    at.run()
    assert not at.exception
    assert not at.error
    notes = CATALOGS["zh"]["cluster.note"].removesuffix("{note}")
    shown = [c.value for c in at.caption if c.value.startswith(notes) and c.value not in before]
    return _chinese_only(shown)


def test_the_cluster_page_words_kubectl_kueue_volcano_and_node_list_notes_in_chinese(
    db: Path,
) -> None:
    at = open_in_chinese("pages/cluster.py")

    kubectl = _captions(at, "nodes.json", "node_upload", json.dumps(KUBECTL))
    table = _captions(
        at, "n.csv", "node_upload", "node_name,gpu_model,gpu_num\nn1,A100,8\nn2,A100,x\n"
    )
    kueue = _captions(at, "kueue.yaml", "queue_upload", KUEUE)
    volcano = _captions(at, "volcano.yaml", "queue_upload", VOLCANO)

    assert len(kubectl) == 7
    assert "注：第 0 项：类型 Pod 不是 Node，已跳过" in kubectl
    assert table == ["注：n.csv 第 3 行：应为数字的值不是数字，应为数字；已跳过该节点"]
    assert len(kueue) == 6
    assert "注：Workload w1：此类型未建模，已跳过" in kueue
    assert len(volcano) == 10
    assert any(v.endswith("：动作 shuffle 未建模，已忽略") for v in volcano)


def test_the_fill_page_words_a_pod_lists_unusable_row_in_chinese(db: Path) -> None:
    pods = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\np1,1000,1024,1,1000,\n"
    at = open_in_chinese("pages/fill.py")
    at.radio(key="fill_source").set_value("file").run()

    at.file_uploader(key="fill_upload").set_value((
        "pods.csv", (pods + "bad,1000,lots,1,1000,\n").encode(), "text/csv"
    )).run()  # fmt: skip

    assert not at.exception
    [row] = [c.value for c in at.caption if c.value.startswith("第 3 行")]
    assert _chinese_only([row]) == ["第 3 行，列 memory_mib：应为数字（该行未计入）。"]


def test_the_prices_page_words_a_price_files_rejected_rows_in_chinese(db: Path) -> None:
    quotes = Path(__file__).parent.parent / "data" / "prices_quotes.csv"
    at = open_in_chinese("pages/prices.py")

    at.file_uploader(key="prices_import").set_value((
        "prices_quotes.csv", quotes.read_bytes(), "text/csv"
    )).run()  # fmt: skip

    assert not at.exception
    [rejected] = [d.value for d in at.dataframe if "reason" in d.value.columns]
    reasons = _chinese_only(rejected["reason"].tolist())
    assert len(reasons) == 4
    assert reasons[0].startswith("应为大于或等于 0 且低于价格簿上限的价格，实际为 '-5'")
