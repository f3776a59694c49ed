"""The hostile-input table of issue 17, on the command line: YAML bombs, tags, 10^9 nodes,
NaN and negative prices, typos in keys, a gzip bomb, a 5 MB line and 10,000 columns.

Each case ends in one message that names the file, the line or row, the key or column and
the limit or what was expected, with exit status 2 and the database as it was. Files stay
small: a "billion laughs" is a few hundred bytes, the gzip bomb meets a limit lowered with
`--max-unpacked-gib`. The figures (time, peak memory) are in bench/bench_hostile_inputs.py;
nothing here times anything.
"""

import gzip
from pathlib import Path

import duckdb
import pytest

from planner.cli import main
from planner.core.config import ClusterConfig, NodePool
from planner.core.errors import ScenarioError, TraceError
from planner.core.file_access import LOCAL_FILES
from planner.core.yaml_text import MAX_YAML_BYTES, load_yaml
from planner.ingest import IngestOptions, sniff
from planner.ingest.kueue_yaml import read_kueue
from planner.service.replay import load_scenario
from planner.service.scenario_store import parse

HEADER = "job_id,submit_time,duration_s,gpus,queue\n"
ROWS = "".join(f"j{i},2024-01-05 10:00:{i:02d},60,1,q\n" for i in range(5))
POOL = "{gpu_type: A100, gpus_per_node: 8, count: 2}"
OWNED = "self_hosted: [{gpu: H100, servers: 1}]\n"


def laughs(levels: int = 9, width: int = 9) -> str:
    """Anchors of `width` aliases to the previous one: width**levels values, a few lines."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * width)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def bomb_under(key: str, levels: int = 9) -> str:
    """The bomb nested in a mapping under `key` (its anchors are defined where they are used)."""
    body = "".join(f"    {line}\n" for line in laughs(levels).splitlines())
    return f"{key}:\n  values:\n{body}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def stored_traces(db: Path) -> int:
    """Traces in the database file (0 when the command never created it)."""
    if not db.exists():
        return 0
    with duckdb.connect(str(db), read_only=True) as con:
        row = con.execute("SELECT count(*) FROM traces").fetchone()
    return int(row[0]) if row else 0


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    path = tmp_path / "jobs.csv"
    path.write_text(HEADER + ROWS, encoding="utf-8")
    return path


# --- YAML: anchors and aliases ------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["replay", "tco"])
def test_a_billion_laughs_scenario_is_refused_by_line_and_nothing_is_imported(
    kind: str, tmp_path: Path, trace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: the aliases reached pydantic, which listed nine unknown keys and never said why
    # the file is dangerous; any reader that walked the values would have walked 9^9 of them.
    head = f"name: lol\ntrace: {trace}\n" + (
        OWNED if kind == "tco" else f"cluster: {{pools: [{POOL}]}}\n"
    )
    path = tmp_path / "lol.yaml"
    path.write_text(head + bomb_under("overrides" if kind == "tco" else "priorities"))
    db = tmp_path / "p.duckdb"

    code, err = run(capsys, kind, "--scenario", str(path), "--db", str(db))

    assert code == 2
    assert err.startswith(f"error: {path}: line ")
    assert "expands to more than 1,000,000 values through anchors and aliases" in err
    assert stored_traces(db) == 0  # refused before the trace was imported


def test_an_alias_bomb_is_refused_wherever_yaml_is_read(tmp_path: Path) -> None:
    # The app's saved and uploaded scenarios (parse) and the Kueue reader share the reader.
    text = "name: lol\n" + bomb_under("priorities")
    with pytest.raises(ScenarioError, match=r"up\.yaml: line 10, column 9: this value expands"):
        parse(text, "up.yaml", LOCAL_FILES)
    kueue = tmp_path / "kueue.yaml"
    kueue.write_text("kind: ClusterQueue\nmetadata: {name: q}\n" + bomb_under("spec"))
    with pytest.raises(ScenarioError, match="Kueue YAML needs that many"):
        read_kueue(kueue)


def test_aliases_within_the_limit_still_read() -> None:
    # Anchors are fine YAML: a pool reused, or 10^5 values, are read as written.
    text = f"name: x\ncluster:\n  pools: [&p {POOL}, *p]\n" + bomb_under("priorities", 5)

    document = load_yaml(text, "ok.yaml")

    assert document.data["cluster"]["pools"][1]["count"] == 2
    assert len(document.data["priorities"]["values"]["l4"]) == 9


def test_an_anchor_inside_itself_is_refused_naming_its_line(tmp_path: Path) -> None:
    # Before: a list that contains itself went on to pydantic ("Recursion error").
    path = tmp_path / "loop.yaml"
    path.write_text(f"name: loop\ncluster: {{pools: [{POOL}]}}\npriorities: &a {{classes: *a}}\n")

    with pytest.raises(ScenarioError, match=r"loop\.yaml: line 3, column \d+: an anchor .* inside"):
        load_scenario(path)


# --- YAML: tags, size, encoding ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "tag"),
    [
        ('!!python/object/apply:os.system ["touch {marker}"]', "!!python/object/apply:os.system"),
        ("!!python/name:os.system", "!!python/name:os.system"),
        ("!!binary aGVsbG8=", "!!binary"),  # before: read as the text 'hello'
        ("!custom x", "!custom"),
    ],
)
def test_a_tag_beyond_plain_yaml_is_refused_by_line_and_column(
    value: str, tag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "ran"
    path = tmp_path / "tagged.yaml"
    path.write_text(f"{OWNED}name: {value.format(marker=marker)}\n")

    code, err = run(capsys, "tco", "--scenario", str(path), "--db", str(tmp_path / "p.duckdb"))

    assert code == 2
    assert f"tagged.yaml: line 2, column 7: the tag {tag} is not allowed" in err
    assert not marker.exists()


def test_a_scenario_over_the_size_limit_is_refused_before_it_is_parsed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Five megabytes on one line: before, PyYAML parsed all of it (a comment, then a name).
    path = tmp_path / "huge.yaml"
    path.write_text(f"{OWNED}name: {'x' * (5 << 20)}\n")

    code, err = run(capsys, "tco", "--scenario", str(path), "--db", str(tmp_path / "p.duckdb"))

    assert code == 2
    assert (
        f"huge.yaml: the TCO scenario is 5.0 MiB, more than the {MAX_YAML_BYTES >> 20} MiB" in err
    )


def test_a_scenario_that_is_not_utf8_is_a_message_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: UnicodeDecodeError escaped the CLI as a traceback.
    path = tmp_path / "binary.yaml"
    path.write_bytes(b"name: \xff\xfe\x00\x01\n")

    code, err = run(capsys, "replay", "--scenario", str(path), "--db", str(tmp_path / "p.duckdb"))

    assert code == 2
    assert "binary.yaml: the scenario is not UTF-8 text (byte 7 is not)" in err


def test_a_kueue_part_of_the_wrong_shape_is_named(tmp_path: Path) -> None:
    # Before: AttributeError ('list' object has no attribute 'get') from deep in the reader.
    path = tmp_path / "kueue.yaml"
    path.write_text(
        "kind: ClusterQueue\nmetadata: {name: team-a}\nspec:\n  resourceGroups:\n"
        "    - flavors: [[{name: a100}]]\n"
    )

    with pytest.raises(ScenarioError, match="ClusterQueue team-a is not shaped as Kueue writes"):
        read_kueue(path)


# --- 10^9 nodes ----------------------------------------------------------------------------------


def many_pools(tmp_path: Path, trace: Path) -> Path:
    """10,000 aliases of a 100,000-node pool: 10^9 nodes in 40 KB of YAML."""
    aliases = ", ".join(["*p"] * 9_999)
    pool = "{gpu_type: A100, gpus_per_node: 8, count: 100000}"
    path = tmp_path / "world.yaml"
    path.write_text(f"name: world\ntrace: {trace}\ncluster:\n  pools: [&p {pool}, {aliases}]\n")
    return path


def test_a_billion_nodes_are_refused_with_the_limit_before_any_node_is_built(
    tmp_path: Path, trace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: the scenario validated, then building its node list raised MemoryError.
    path = many_pools(tmp_path, trace)
    db = tmp_path / "p.duckdb"

    code, err = run(capsys, "replay", "--scenario", str(path), "--db", str(db))

    assert code == 2
    assert (
        "world.yaml: cluster: the cluster has 1,000,000,000 nodes (10,000 pools, 0 "
        "explicit nodes), more than the 100,000 the planner replays" in err
    )
    assert err.rstrip().endswith("(line 3)")
    assert stored_traces(db) == 0


def test_the_node_limit_counts_pools_and_explicit_nodes_together() -> None:
    pools = (NodePool(gpu_type="A100", gpus_per_node=8, count=100_000),)

    with pytest.raises(ValueError, match="100,001 nodes"):
        ClusterConfig(pools=pools, nodes=({"node_id": "n1", "gpus": 8},))  # type: ignore[arg-type]
    assert ClusterConfig(pools=pools).node_count == 100_000


def test_one_pool_of_a_billion_is_refused_by_its_field(tmp_path: Path, trace: Path) -> None:
    text = f"name: x\ntrace: {trace}\ncluster:\n  pools:\n    - {{gpu_type: A100, gpus_per_node: 8, count: 1000000000}}\n"

    with pytest.raises(ScenarioError, match=r"cluster\.pools\.0\.count: .* 100000 \(line 5\)"):
        parse(text, "one.yaml", LOCAL_FILES)


def test_a_billion_owned_servers_are_refused_with_the_limit() -> None:
    aliases = ", ".join(["*p"] * 9_999)
    text = f"name: x\nself_hosted: [&p {{gpu: H100, servers: 100000}}, {aliases}]\n"

    with pytest.raises(
        ScenarioError, match=r"self_hosted: 1,000,000,000 servers in all .*\(line 2\)"
    ):
        parse(text, "own.yaml", LOCAL_FILES)


# --- prices and typos ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (
            "cloud: [{gpu: H100, price_per_gpu_hour: .nan}]\n",
            "cloud.0.price_per_gpu_hour: Input should be a finite number (line 3)",
        ),
        (
            "cloud: [{gpu: H100, price_per_gpu_hour: -2.5}]\n",
            "cloud.0.price_per_gpu_hour: Input should be greater than or equal to 0 (line 3)",
        ),
        (
            "cloud: [{gpu: H100, price_per_gpu_hour: .inf}]\n",
            "cloud.0.price_per_gpu_hour: Input should be a finite number (line 3)",
        ),
        (
            "cloud: [{gpu: H100}]\nhybrid: {burst_after_s: -1}\n",
            "hybrid.burst_after_s: Input should be greater than or equal to 0 (line 4)",
        ),
    ],
)
def test_nan_infinite_and_negative_prices_name_their_line_and_key(extra: str, problem: str) -> None:
    # Before: the key and the expectation, but no line.
    with pytest.raises(ScenarioError) as err:
        parse(f"name: p\n{OWNED}{extra}", "prices.yaml", LOCAL_FILES)

    assert f"prices.yaml: {problem}" in str(err.value)


def test_a_negative_server_price_names_its_line() -> None:
    text = "name: p\nself_hosted:\n  - gpu: H100\n    servers: 2\n    price: -300000\n"

    with pytest.raises(
        ScenarioError, match=r"self_hosted\.0\.price: .*greater than or equal to 0 \(line 5\)"
    ):
        parse(text, "own.yaml", LOCAL_FILES)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            f"name: t\n{OWNED}horizon_years: [3]\n",
            "horizon_years: unknown key; did you mean 'horizons_years'? (line 3)",
        ),
        (
            "name: t\nself_hosted:\n  - {gpu: H100, servers: 1, gpu_per_server: 4}\n",
            "self_hosted.0.gpu_per_server: unknown key; did you mean 'gpus_per_server'? (line 3)",
        ),
        (
            f"name: t\n{OWNED}cloud: [{{gpu: H100, pricing: spot}}]\n",
            "cloud.0.pricing: unknown key; did you mean 'pricing_model'? (line 3)",
        ),
        (
            f"name: t\ncluster: {{pools: [{POOL}]}}\npolicy: {{queuing: fifo}}\n",
            "policy.queuing: unknown key; did you mean 'queueing'? (line 3)",
        ),
        (
            "name: t\ncluster:\n  pools:\n    - {gpu_type: A100, gpus_per_node: 8, count: 2, cuont: 3}\n",
            "cluster.pools.0.cuont: unknown key; did you mean 'count'? (line 4)",
        ),
        (
            f"name: t\ncluster: {{pools: [{POOL}]}}\nzzz: 1\n",
            "zzz: unknown key; the keys allowed here are name, trace, cluster, policy",
        ),
    ],
)
def test_a_typo_in_a_key_names_the_key_its_line_and_the_closest_valid_key(
    text: str, problem: str
) -> None:
    # Before: "horizon_years: Extra inputs are not permitted", with no line and no suggestion.
    with pytest.raises(ScenarioError) as err:
        parse(text, "typo.yaml", LOCAL_FILES)

    assert f"typo.yaml: {problem}" in str(err.value)


# --- CSV: gzip bomb, a 5 MB line, 10,000 columns ------------------------------------------------


def gzip_bomb(path: Path, unpacked_mib: int) -> Path:
    """Valid rows, one 1 MiB gzip member repeated: about 1,000 times smaller than it unpacks."""
    block = (ROWS * ((1 << 20) // len(ROWS))).encode()
    member = gzip.compress(block, 9)
    path.write_bytes(gzip.compress(HEADER.encode()) + member * unpacked_mib)
    return path


def test_a_gzip_bomb_stops_at_the_limit_naming_it_and_how_to_raise_it(
    tmp_path: Path, trace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Already refused before issue 17; fails if the limit is not applied to unpacked bytes or
    # the message stops naming it or the way to raise it (here and in the app), or if the
    # refused import leaves anything behind that blocks the next one.
    bomb = gzip_bomb(tmp_path / "bomb.csv.gz", 8)
    db = tmp_path / "p.duckdb"

    code, err = run(capsys, "ingest", str(bomb), "--db", str(db), "--max-unpacked-gib", "0.004")

    assert code == 2
    assert "bomb.csv.gz: the gzip data unpacks to more than 4.1 MiB (reading stopped at line" in err
    assert "--max-unpacked-gib N" in err
    assert "PLANNER_MAX_UNPACKED_GIB=N" in err
    assert stored_traces(db) == 0
    assert run(capsys, "ingest", str(trace), "--db", str(db))[0] == 0
    assert stored_traces(db) == 1


def test_the_app_limit_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The app has no flag: it reads files with the default limits, which take the variable.
    bomb = gzip_bomb(tmp_path / "bomb.csv.gz", 3)
    monkeypatch.setenv("PLANNER_MAX_UNPACKED_GIB", "0.001")

    with pytest.raises(TraceError, match="unpacks to more than 1.0 MiB"):
        sniff(bomb, IngestOptions())


def test_a_five_megabyte_line_without_line_breaks_is_refused_as_a_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Already refused before issue 17 (the header must fit 64 KiB); fails if the whole line
    # were read as a header, or the message stopped naming the file, the line and the limit.
    path = tmp_path / "oneline.csv"
    path.write_text("job_id,submit," + ",".join(["x"] * (5 << 19)), encoding="utf-8")

    code, err = run(capsys, "ingest", str(path), "--db", str(tmp_path / "p.duckdb"))

    assert code == 2
    assert err.startswith("error: oneline.csv: the first line (the header) is longer than 64 KiB")


def test_a_five_megabyte_data_line_is_refused_at_the_line_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Already refused before issue 17; fails if the default line limit stops applying.
    path = tmp_path / "longrow.csv"
    path.write_text(HEADER + "j1,2024-01-05," + "x" * (5 << 20) + "\n" + ROWS, encoding="utf-8")
    db = tmp_path / "p.duckdb"

    code, err = run(capsys, "ingest", str(path), "--db", str(db))

    assert code == 2
    assert "longrow.csv: line 2 is longer than 1 MiB, the most a job-history line may hold" in err
    assert stored_traces(db) == 0


def test_ten_thousand_columns_are_refused_before_any_row_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: imported, at about 1.4 ms per column and chunk (25 s for 300 rows).
    names = ["job_id", "submit_time", "duration_s", "gpus", "queue"] + [
        f"c{i}" for i in range(9_995)
    ]
    path = tmp_path / "wide.csv"
    path.write_text(",".join(names) + "\n" + "j1,2024-01-05,60,1,q" + ",0" * 9_995 + "\n")
    db = tmp_path / "p.duckdb"

    code, err = run(capsys, "ingest", str(path), "--db", str(db))

    assert code == 2
    assert "wide.csv: the header has 10,000 columns, more than the 1,000 a job history" in err
    assert stored_traces(db) == 0


def test_a_thousand_columns_still_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["job_id", "submit_time", "duration_s", "gpus", "queue"] + [f"c{i}" for i in range(995)]
    path = tmp_path / "wide.csv"
    path.write_text(",".join(names) + "\n" + "j1,2024-01-05,60,1,q" + ",0" * 995 + "\n")
    db = tmp_path / "p.duckdb"

    assert run(capsys, "ingest", str(path), "--db", str(db))[0] == 0
    assert stored_traces(db) == 1
