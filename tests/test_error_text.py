"""Errors worded for the page (planner/ui/error_text.py): English is the CLI's own text, and
in 简体中文 every coded error and every common validation problem reads in Chinese, with its
line and column, its values filled in (never the English fallback)."""

import ast
import gzip
import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from planner.core.errors import PlannerError
from planner.core.validation import validated
from planner.core.yaml_text import load_yaml, read_yaml_text
from planner.cost.scenario import TcoScenario
from planner.engine.scenario import Scenario
from planner.engine.volcano import VolcanoSpec
from planner.engine.volcano_queues import gpu_total
from planner.ingest import IngestOptions, open_jobs
from planner.ingest.kubectl import read_kubectl_nodes
from planner.ingest.kueue_yaml import read_kueue
from planner.ingest.limits import ReadLimits
from planner.ingest.source import open_source
from planner.ingest.volcano_yaml import read_volcano
from planner.ui.error_text import error_text
from planner.ui.text.errors import ZH
from tests.pages.test_hostile_uploads_zh import english_phrases
from tests.test_hostile_inputs import bomb_under

ROOT = Path(__file__).resolve().parents[1]


def _codes(tree: ast.AST) -> set[str]:
    """The codes a module raises: `.coded("x", ...)`, `CodedValueError(text, "x", ...)` and
    `code = "x" if ... else "y"` (a code chosen, then passed on)."""
    found = set()
    for node in ast.walk(tree):
        parts: list[ast.expr] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            parts = node.args[:1] if node.func.attr == "coded" else []
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            parts = node.args[1:2] if node.func.id == "CodedValueError" else []
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            parts = [node.value.body, node.value.orelse] if names == ["code"] else []
        found |= {
            p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str)
        }
    return found


def refusal(text: str, what: str = "scenario") -> PlannerError:
    with pytest.raises(PlannerError) as caught:
        load_yaml(text, "f.yaml", what)
    return caught.value


def invalid(text: str) -> PlannerError:
    with pytest.raises(PlannerError) as caught:
        validated(TcoScenario, load_yaml(text, "t.yaml", "TCO scenario"))
    return caught.value


def chinese(err: BaseException) -> str:
    text = error_text(err, "zh")
    assert text != str(err)
    assert not english_phrases(text), text
    return text


def test_every_code_the_planner_raises_has_a_chinese_text() -> None:
    found = set()
    for path in (ROOT / "planner").rglob("*.py"):
        found |= _codes(ast.parse(path.read_text(encoding="utf-8")))

    assert {
        "yaml_tag",
        "too_many_nodes",
        "unpacked_too_big",
        "line_too_long",
        "no_options",
        "unknown_format",
        "missing_column",
        "not_utf8_or_gbk",
        "kubectl_not_json",
        "volcano_no_queue",
    } <= found
    assert sorted(c for c in found if c not in ZH and f"problem.{c}" not in ZH) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: &x [*x]\n", "f.yaml：第 1 行第 4 列：锚点（&名称）在它自身内部被引用"),
        (
            "a: !!python/object:os.system x\n",
            "f.yaml：第 1 行第 4 列：不允许使用标签 !!python/object",
        ),
        ("a: 1\nb: c: d\n", "f.yaml：第 2 行第 5 列：此处不是有效的 YAML，无法读取场景"),
        ("a: [1, 2\n", "f.yaml：第 2 行第 1 列：此处不是有效的 YAML"),
        ("a: b\x00\n", "f.yaml：第 1 行第 5 列：此处不是有效的 YAML"),
        (bomb_under("x"), "f.yaml：第 9 行第 9 列：这个值经层层嵌套的锚点和别名"),
    ],
)
def test_yaml_refusals_name_the_line_and_column_in_chinese(text: str, expected: str) -> None:
    err = refusal(text)

    assert chinese(err).startswith(expected)
    assert error_text(err, "en") == str(err)


def test_a_kind_of_file_not_translated_is_spaced_from_the_chinese() -> None:
    err = refusal("a: !!binary aGk=\n", "Kueue YAML")

    assert "；Kueue YAML 只能包含普通值" in chinese(err)


def test_a_large_or_undecodable_file_is_refused_in_chinese(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: " + b"x" * (5 << 20))
    with pytest.raises(PlannerError) as big:
        read_yaml_text(path)
    path.write_bytes(b"a: \xff\n")
    with pytest.raises(PlannerError) as latin:
        read_yaml_text(path)

    assert "场景有 5.0 MiB，超过场景文件最多 4 MiB 的上限" in chinese(big.value)
    assert "场景不是 UTF-8 文本（第 4 个字节不是）" in chinese(latin.value)


def test_validation_problems_are_worded_one_by_one_with_their_lines() -> None:
    err = invalid(
        "name: t\nself_hosted: [{gpu: H100, servers: 0}]\nhorizons_years: [x]\n"
        "discount_rate: .inf\nhorizon_years: [3]\n"
    )

    text = chinese(err)
    assert text.startswith("t.yaml：`")
    assert "`self_hosted.0.servers`：应大于或等于 1（第 2 行）" in text
    assert "`horizons_years.0`：应为数字（第 3 行）" in text
    assert "`discount_rate`：应为有限的数字（不能是 NaN 或无穷大）（第 4 行）" in text
    assert "`horizon_years`：未知的键；您是否想写 `horizons_years`？（第 5 行）" in text
    assert "self_hosted.0.servers: Input should be greater than or equal to 1 (line 2)" in str(err)


def test_a_missing_key_and_an_unknown_one_with_nothing_close() -> None:
    err = invalid("self_hosted: [{servers: 1}]\nzzz: 1\n")

    text = chinese(err)
    assert "`self_hosted.0.gpu`：缺少此项，必须填写（第 1 行）" in text
    assert "`zzz`：未知的键；此处允许的键有 `name`、`currency`" in text


class _Form(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field(pattern=r"^[a-z]+$")
    mode: bool = False
    tags: list[str] = Field(default_factory=list, max_length=1)


def test_a_pydantic_error_from_a_form_is_worded_in_chinese() -> None:
    with pytest.raises(ValidationError) as caught:
        _Form.model_validate({"kind": "A!", "mode": "perhaps", "tags": ["a", "b"]})

    text = chinese(caught.value)
    assert "`kind`：格式不符，应匹配 ^[a-z]+$" in text
    assert "`mode`：应为 true 或 false" in text
    assert "`tags`：最多只能有 1 项" in text
    assert error_text(caught.value, "en").startswith("kind: String should match pattern")


def test_an_error_without_a_code_keeps_its_english() -> None:
    err = PlannerError("something new")

    assert error_text(err, "zh") == "something new"


def _refused_file(path: Path, limits: ReadLimits | None = None) -> PlannerError:
    with pytest.raises(PlannerError) as caught:
        open_source(path, limits)
    return caught.value


def test_file_refusals_of_the_reader_are_worded_in_chinese(tmp_path: Path) -> None:
    empty, binary, book = tmp_path / "e.csv", tmp_path / "b.csv", tmp_path / "w.xlsx"
    empty.write_bytes(b"")
    binary.write_bytes(b"\x00\x01\x02" * 100)
    with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"0" * (2 << 20))
    small = ReadLimits(max_unpacked_bytes=1 << 20)

    assert chinese(_refused_file(empty)) == "e.csv：文件是空的；请重新导出作业历史"
    assert chinese(_refused_file(binary)).startswith("b.csv：这是一个二进制文件")
    assert chinese(_refused_file(book, small)).startswith(
        "w.xlsx：工作簿解压后有 2 MiB，超过 1 MiB"
    )


def test_a_long_line_and_an_unclosed_quote_name_their_line_in_chinese(tmp_path: Path) -> None:
    long_line, open_quote = tmp_path / "long.csv", tmp_path / "quote.csv"
    long_line.write_text("job_id,gpus\nj1,1\nj2," + "9" * 5000 + "\n")
    open_quote.write_text('job_id,note\nj1,"opened\n' + "x\n" * 3000)
    small = ReadLimits(max_line_bytes=1 << 10)

    assert chinese(_refused_file(long_line, small)).startswith(
        "long.csv：第 3 行超过 1 KiB，即作业历史一行的上限"
    )
    assert chinese(_refused_file(open_quote, small)).startswith(
        "quote.csv：从第 2 行开始的一行超过 1 KiB"
    )


def test_the_scenario_validators_own_refusals_are_worded_in_chinese() -> None:
    empty = invalid("name: t\n")
    hybrid = invalid("name: t\nself_hosted: [{gpu: H100, servers: true}]\nhybrid: {cloud: x}\n")

    assert chinese(empty) == (
        "t.yaml：整个文件：请给出自有服务器（`self_hosted`）、云方案（`cloud`）或两者"
    )
    assert "`self_hosted.0.servers`：应为整数，而不是 true（第 2 行）" in chinese(hybrid)


HEADER = "job_id,submit_time,duration_s,gpus\n"
ROW = "j1,2024-01-01,60,1\n"


def _zip_of_text() -> bytes:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("a.txt", "hi")
    return packed.getvalue()


def _read_jobs(path: Path, **options: str) -> None:
    for _ in open_jobs(path, IngestOptions(**options)).chunks():
        pass


@pytest.mark.parametrize(
    ("name", "data", "options", "expected"),
    [
        (
            "odd.csv",
            b"alpha,beta,gamma\n1,2,3\n",
            {},
            "odd.csv：文件的列（共 3 列）：`alpha`、`beta`、`gamma`，不符合任何已知格式",
        ),
        (
            "nosubmit.csv",
            b"job_id,gpus,queue\nj1,1,a\n",
            {},
            "nosubmit.csv：找不到字段 `submit`、`start`（任一即可）对应的列；文件中相近的列："
            "`queue`。文件中的列（共 3 列）：`job_id`、`gpus`、`queue`。请在列映射表中为它选择一列"
            "（命令行：`--map submit=列名`）",
        ),
        (
            "latin.csv",
            (HEADER + ROW).encode() + b"j2,2024-01-01,60,\xff\x80\n",
            {},
            "latin.csv：文本既不是 UTF-8 也不是 GBK/GB18030（第 3 行有无效的字节）",
        ),
        (
            "cut.csv.gz",
            gzip.compress((HEADER + ROW * 1000).encode())[:-30],
            {},
            "cut.csv.gz：gzip 数据已损坏，无法解压",
        ),
        ("book.xlsx", _zip_of_text(), {}, "book.xlsx：这是 zip 压缩包，但不是 Excel .xlsx 工作簿"),
        ("ok.csv", (HEADER + ROW).encode(), {"tz": "Mars/Olympus"}, "未知的时区 `Mars/Olympus`"),
        (
            "ok.csv",
            (HEADER + ROW).encode(),
            {"format": "sacct"},
            "ok.csv：未知的 `--format` 值 `sacct`；请从以下格式中选择：`generic`、",
        ),
        (
            "nodes.csv",
            b"node_name,gpu_model,gpu_num\nn1,A100,8\n",
            {},
            "nodes.csv：这是节点列表（`nodes`），不是作业历史",
        ),
    ],
)
def test_the_job_history_readers_refusals_are_worded_in_chinese(
    tmp_path: Path, name: str, data: bytes, options: dict[str, str], expected: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(PlannerError) as caught:
        _read_jobs(path, **options)

    assert chinese(caught.value).startswith(expected)
    assert error_text(caught.value, "en") == str(caught.value)


def test_a_map_to_a_missing_column_names_the_close_ones_in_chinese(tmp_path: Path) -> None:
    path = tmp_path / "jobs.csv"
    path.write_text(HEADER + ROW)
    with pytest.raises(PlannerError) as wrong_column:
        _read_jobs_mapped(path, {"gpus": "gpu"})
    with pytest.raises(PlannerError) as wrong_field:
        _read_jobs_mapped(path, {"cards": "gpus"})

    assert chinese(wrong_column.value) == (
        "jobs.csv：`--map gpus=gpu`：文件中没有名为 `gpu` 的列；文件中相近的列：`gpus`"
    )
    assert chinese(wrong_field.value).startswith(
        "jobs.csv：`--map` 指定了未知的字段 `cards`；可用的字段有：`job_id`、"
    )


def _read_jobs_mapped(path: Path, mapping: dict[str, str]) -> None:
    for _ in open_jobs(path, IngestOptions(mapping=mapping)).chunks():
        pass


KUEUE_GPU = "      resources:\n      - {name: nvidia.com/gpu, nominalQuota: lots}\n"
VOLCANO = "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n"


@pytest.mark.parametrize(
    ("name", "text", "read", "expected"),
    [
        (
            "n.json",
            '{"items": [ {"kind": "Node",\n "x": }',
            read_kubectl_nodes,
            "n.json：第 2 行第 7 列：此处不是有效的 JSON；请上传 `kubectl get nodes -o json` 的输出",
        ),
        (
            "n.json",
            '{"kind": "NodeList", "items": {}}',
            read_kubectl_nodes,
            "n.json：应为 `kubectl get nodes -o json` 的输出：顶层应是带有 `items` 列表的 JSON 对象",
        ),
        (
            "n.json",
            '{"items": [{"kind": "Pod"}, {"kind": "Pod"}]}',
            read_kubectl_nodes,
            "n.json：kubectl 输出的 2 项中没有一个可用的节点",
        ),
        (
            "q.yaml",
            "kind: ResourceFlavor\nmetadata: {name: f}\n",
            read_kueue,
            "q.yaml：没有找到 ClusterQueue；至少需要一个 `kind: ClusterQueue` 文档",
        ),
        (
            "q.yaml",
            "kind: ClusterQueue\nmetadata: {}\n",
            read_kueue,
            "q.yaml：有一个 `ClusterQueue` 没有 `metadata.name`；请为它命名",
        ),
        (
            "q.yaml",
            "kind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  resourceGroups: {a: 1}\n",
            read_kueue,
            "q.yaml：`ClusterQueue cq` 的结构与 Kueue 写出的不同",
        ),
        (
            "q.yaml",
            "kind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  resourceGroups:\n"
            "  - flavors:\n    - name: f\n" + KUEUE_GPU,
            read_kueue,
            "`ClusterQueue cq`：`lots` 不是资源数量；应为 8、500m、512Gi 或 1Ti",
        ),
        ("v.yaml", VOLCANO + "metadata: {}\n", read_volcano, "v.yaml：有一个 Queue 没有"),
        (
            "v.yaml",
            VOLCANO + "metadata: {name: root}\n",
            read_volcano,
            "v.yaml：没有找到 Volcano Queue；至少需要一个 `kind: Queue` 文档",
        ),
    ],
)
def test_kubectl_kueue_and_volcano_refusals_are_worded_in_chinese(
    tmp_path: Path, name: str, text: str, read: Callable[[Path], object], expected: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(PlannerError) as caught:
        read(path)

    assert chinese(caught.value).startswith(expected)
    assert error_text(caught.value, "en") == str(caught.value)


def test_hybrid_servers_speed_and_growth_refusals_are_worded_in_chinese() -> None:
    owned = "name: t\nself_hosted: [{gpu: H100, servers: 2}]\ncloud: [{gpu: H100}]\n"
    hybrid = invalid(owned + "hybrid: {burst_after_s: 60, servers: {A100: 1}}\n")
    speed = invalid(owned + "speed: {H100: 2}\n")
    growth = invalid(owned + "growth: {arrival_rate: [1, 2], arrival_rate_per_year: 1.5}\n")

    assert chinese(hybrid) == (
        "t.yaml：整个文件：`hybrid.servers` 中的 `A100: 1` 不是自有服务器池：应写某个自有池的"
        " GPU 型号（`self_hosted` 中的 `gpu`）和不小于 0 的台数"
    )
    assert chinese(speed).startswith("t.yaml：整个文件：`speed` 中的 `H100: 2.0` 写法不对")
    assert "`growth`：请给出 `arrival_rate`（逐年的倍数）或 `arrival_rate_per_year`" in chinese(
        growth
    )
    assert "hybrid.servers: 'A100: 1' is not a self-hosted pool" in str(hybrid)
    assert "speed 'H100: 2.0': write 'FAST/SLOW: factor > 0'" in str(speed)
    assert "give `arrival_rate` (per year) or `arrival_rate_per_year`, not both" in str(growth)


VOLCANO_QUEUES = (
    "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: a}\n"
    "spec: {capability: {nvidia.com/gpu: 2}, guarantee: {resource: {nvidia.com/gpu: 4}}}\n"
)
KUEUE_QUEUES = (
    "kind: ResourceFlavor\nmetadata: {name: f}\n---\nkind: ResourceFlavor\nmetadata: {name: f}\n"
    "---\nkind: ClusterQueue\nmetadata: {name: cq}\nspec: {}\n"
)


@pytest.mark.parametrize(
    ("text", "read", "expected"),
    [
        (
            VOLCANO_QUEUES,
            read_volcano,
            "q.yaml：`queues.0`：队列 `a`：`guarantee` 超过了 `capability`",
        ),
        (KUEUE_QUEUES, read_kueue, "q.yaml：整个文件：ResourceFlavor 名称 `f` 用了两次"),
    ],
)
def test_kueue_and_volcano_queue_checks_are_worded_in_chinese(
    tmp_path: Path, text: str, read: Callable[[Path], object], expected: str
) -> None:
    path = tmp_path / "q.yaml"
    path.write_text(text)
    with pytest.raises(PlannerError) as caught:
        read(path)

    assert chinese(caught.value).startswith(expected)
    assert error_text(caught.value, "en") == str(caught.value)


def _replay_refusal(text: str) -> PlannerError:
    with pytest.raises(PlannerError) as caught:
        validated(Scenario, load_yaml(text, "s.yaml", "scenario"))
    return caught.value


def test_replay_scenario_checks_are_worded_in_chinese() -> None:
    pools = "cluster: {pools: [{gpu_type: A100, gpus_per_node: 8, count: 1}]}\n"
    both = _replay_refusal("cluster: {node_list: n.csv, nodes: [{node_id: a, gpus: 0}]}\n")
    priority = _replay_refusal(pools + "priorities: {classes: {high: 9}, by_queue: {q: low}}\n")
    sharing = _replay_refusal(pools + "sharing: [{gpu_type: A100}]\n")

    assert "`cluster`：请给出 `node_list` 或 `pools`/`nodes` 之一，不能两者都给" in chinese(both)
    assert "队列 `q`：未知的优先级类 `low`（已定义：`high`）" in chinese(priority)
    assert "`A100`：请在 `mig` 和 `time_slicing` 中恰好给出一个" in chinese(sharing)


def test_volcano_queues_on_a_cluster_without_gpus_are_refused_in_chinese() -> None:
    spec = VolcanoSpec.model_validate({"queues": [{"name": "a"}]})
    with pytest.raises(PlannerError) as caught:
        gpu_total(spec, {"A100": 0})

    assert chinese(caught.value) == "集群没有可在 Volcano 队列之间分配的 GPU"
