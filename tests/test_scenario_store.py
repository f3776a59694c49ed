"""Saved scenarios: round trips, duplicate names, stale results, running, the TCO extensions
(cloud-only scenarios, a replay scenario priced as owning its cluster)."""

from pathlib import Path

import duckdb
import pytest
import yaml

from planner.core.config import ClusterConfig
from planner.core.errors import PlannerError, ScenarioError
from planner.core.file_access import LOCAL_FILES, FileAccess
from planner.core.serialize import to_json
from planner.cost.scenario import TcoScenario, tco_from_replay
from planner.engine.metrics import summarize
from planner.engine.scenario import Scenario
from planner.service import scenario_store as store
from planner.service.replay import load_scenario, run_scenario
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from pricing.assumptions import edit_assumptions

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "data" / "scenarios"
TRACE_CSV = "job_id,submit_time,duration,num_gpu\n" + "".join(
    f"j{i},{i * 600},{3600 + 60 * i},{1 + i % 8}\n" for i in range(40)
)


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    path = tmp_path / "small.csv"
    path.write_text(TRACE_CSV, encoding="utf-8")
    return path


def replay_yaml(trace: Path, nodes: int = 2) -> str:
    return (
        "# a small replay\n"
        f"name: small\ntrace: {trace.name}\n"
        f"cluster:\n  pools:\n    - {{gpu_type: A100, gpus_per_node: 8, count: {nodes}}}\n"
        "policy: {queueing: backfill}\n"
    )


def prepared_replay(con: duckdb.DuckDBPyConnection, trace: Path, nodes: int = 2) -> store.Prepared:
    return store.prepare(
        con, replay_yaml(trace, nodes), "small.yaml", FileAccess.local(trace.parent)
    )


def test_a_saved_scenario_loads_back_with_its_trace_id_and_comments(
    con: duckdb.DuckDBPyConnection, trace: Path
) -> None:
    prepared = prepared_replay(con, trace)

    saved = store.save(con, "  mine  ", prepared, results={"utilization": 0.5})
    loaded = store.load(con, "mine")

    assert loaded == saved
    assert loaded.name == "mine"
    assert loaded.kind == "replay"
    assert loaded.trace_id is not None
    assert loaded.yaml_text.startswith("# a small replay\n")
    assert yaml.safe_load(loaded.yaml_text)["trace"] == loaded.trace_id  # self-contained
    assert loaded.results == {"utilization": 0.5}
    assert not loaded.is_stale
    assert store.export_yaml(con, "mine") == prepared.yaml_text


def test_saving_over_an_existing_name_needs_replace(
    con: duckdb.DuckDBPyConnection, trace: Path
) -> None:
    store.save(con, "mine", prepared_replay(con, trace, 2))

    with pytest.raises(ScenarioError, match="named 'mine' exists already"):
        store.save(con, "mine", prepared_replay(con, trace, 3))

    assert "count: 2" in store.load(con, "mine").yaml_text
    store.save(con, "mine", prepared_replay(con, trace, 3), replace=True)
    assert "count: 3" in store.load(con, "mine").yaml_text
    assert len(store.list_saved(con)) == 1


def test_results_of_an_older_version_are_recognised_as_stale(
    con: duckdb.DuckDBPyConnection, trace: Path
) -> None:
    first = store.save(con, "mine", prepared_replay(con, trace, 2), results={"n": 1})
    assert not first.is_stale

    changed = store.save(con, "mine", prepared_replay(con, trace, 3), replace=True)

    assert changed.results == {"n": 1}  # kept, but for the old YAML
    assert changed.is_stale
    fresh = store.store_results(con, changed, {"n": 2})
    assert not fresh.is_stale
    assert fresh.results == {"n": 2}


def test_the_key_depends_on_the_trace_too() -> None:
    assert store.results_key("a: 1\n", "t1") != store.results_key("a: 1\n", "t2")
    assert store.results_key("a: 1\n", "t1") == store.results_key("a: 1\n", "t1")


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "give the scenario a name"), ("   ", "give the scenario a name"), ("x" * 81, "81")],
)
def test_names_are_checked(
    con: duckdb.DuckDBPyConnection, trace: Path, name: str, message: str
) -> None:
    with pytest.raises(ScenarioError, match=message):
        store.save(con, name, prepared_replay(con, trace))

    assert store.list_saved(con) == []


def test_eighty_characters_are_allowed(con: duckdb.DuckDBPyConnection, trace: Path) -> None:
    assert store.save(con, "é" * 80, prepared_replay(con, trace)).name == "é" * 80


def test_list_is_newest_first_and_delete_removes(
    con: duckdb.DuckDBPyConnection, trace: Path
) -> None:
    for name in ("a", "b", "c"):
        store.save(con, name, prepared_replay(con, trace))
    store.save(con, "a", prepared_replay(con, trace, 4), replace=True)

    assert [s.name for s in store.list_saved(con)] == ["a", "c", "b"]
    store.delete(con, "c")
    assert [s.name for s in store.list_saved(con)] == ["a", "b"]
    with pytest.raises(ScenarioError, match="no saved scenario named 'c'"):
        store.delete(con, "c")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cluster: [\n", "cannot read the scenario"),
        ("- a\n", "a scenario file is a mapping"),
        ("self_hosted: [{gpu: H100, servers: 0}]\n", "greater than or equal to 1"),
        ("cluster: {pools: [{gpu_type: A100, count: 1}]}\n", "gpus_per_node"),
        ("name: x\ncloud: []\n", "give servers to own"),
    ],
)
def test_invalid_yaml_is_refused_with_the_reason(
    con: duckdb.DuckDBPyConnection, text: str, message: str
) -> None:
    with pytest.raises(ScenarioError, match=message):
        store.prepare(con, text, "up.yaml", LOCAL_FILES)


def test_a_file_too_large_is_refused(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(ScenarioError, match="larger than 256 KiB"):
        store.prepare(con, "#" * (store.MAX_YAML_BYTES + 1), "big.yaml", LOCAL_FILES)


def test_an_unknown_trace_is_refused_at_save_time(con: duckdb.DuckDBPyConnection) -> None:
    text = "trace: nowhere.csv\ncluster: {pools: [{gpu_type: A100, gpus_per_node: 8, count: 1}]}\n"

    with pytest.raises(PlannerError, match="no stored trace has the id or name 'nowhere.csv'"):
        store.prepare(con, text, "up.yaml", LOCAL_FILES)


def test_running_a_saved_replay_gives_the_replay_summary(
    con: duckdb.DuckDBPyConnection, trace: Path
) -> None:
    store.save(con, "mine", prepared_replay(con, trace))
    (trace.parent / "small.yaml").write_text(replay_yaml(trace), encoding="utf-8")
    direct = run_scenario(con, load_scenario(trace.parent / "small.yaml"), files=LOCAL_FILES)

    saved = store.run_and_store(con, "mine", files=LOCAL_FILES)

    assert saved.results is not None
    assert saved.results["trace_id"] == direct.trace_id
    assert saved.results["utilization"] == summarize(direct.result).utilization
    assert saved.results["wait_s"] == to_json(summarize(direct.result).wait_s)
    assert not saved.is_stale


def test_to_yaml_round_trips_a_scenario_built_in_code() -> None:
    scenario = Scenario.model_validate(
        {
            "name": "built",
            "cluster": {"pools": [{"gpu_type": "H100", "gpus_per_node": 8, "count": 3}]},
        }
    )

    text = store.to_yaml(scenario, "abc123")

    assert store.parse(text, "built.yaml", LOCAL_FILES) == scenario.model_copy(
        update={"trace": "abc123"}
    )


# --- the TCO extensions -------------------------------------------------------------------------


def test_a_cloud_only_scenario_is_valid_and_priced_without_break_even(
    con: duckdb.DuckDBPyConnection, trace: Path
) -> None:
    scenario = TcoScenario.model_validate(
        {
            "trace": str(trace),
            "cloud": [{"gpu": "H100", "price_per_gpu_hour": 2.0, "packing": "per-job"}],
        }
    )

    report = run_tco(con, scenario, files=LOCAL_FILES)

    assert report.allocation is None
    assert report.break_even_utilization == {}
    assert report.sensitivity is None
    option = report.horizons[0].options[0]
    assert option.cost_per_useful_gpu_hour == pytest.approx(2.0)  # one GPU per SKU
    assert len(option.monthly_cash) == 36
    assert report.horizons[0].comparisons == ()


def test_a_cloud_only_scenario_needs_a_trace(con: duckdb.DuckDBPyConnection) -> None:
    scenario = TcoScenario.model_validate({"cloud": [{"gpu": "H100", "price_per_gpu_hour": 2.0}]})

    with pytest.raises(ScenarioError, match="cloud-only scenario needs a trace"):
        run_tco(con, scenario, files=LOCAL_FILES)


def test_nothing_to_own_nor_rent_is_invalid() -> None:
    with pytest.raises(ValueError, match="give servers to own"):
        TcoScenario.model_validate({"name": "empty"})


def test_the_bundled_cloud_scenario_is_cloud_only_with_a_commitment() -> None:
    scenario = load_tco_scenario(SCENARIOS / "cloud-on-demand.yaml")

    assert scenario.self_hosted == ()
    assert [c.pricing_model for c in scenario.cloud] == ["on_demand", "reserved"]
    assert scenario.cloud[1].committed_gpus
    assert scenario.trace is not None
    assert Path(scenario.trace).is_file()


def test_a_replay_scenario_priced_as_owning_waits_as_the_replay_does(
    con: duckdb.DuckDBPyConnection, trace: Path
) -> None:
    """The TCO replay of the owned cluster uses the replay scenario's whole set-up: the same
    nodes (with CPU and memory), policy and queues, so the same waits."""
    text = replay_yaml(trace, 1).replace("backfill", "fifo") + (
        "queues:\n"
        "  flavors: [{name: a100, gpu_type: A100}]\n"
        "  cluster_queues: [{name: q, quotas: [{flavor: a100, gpus: 4}]}]\n"
        "  default_cluster_queue: q\n"
    )
    (trace.parent / "q.yaml").write_text(text, encoding="utf-8")
    replay = load_scenario(trace.parent / "q.yaml")
    run = run_scenario(con, replay, files=LOCAL_FILES)
    assert replay.cluster is not None
    nodes = ClusterConfig(pools=replay.cluster.pools).node_specs()

    priced = tco_from_replay(
        replay, nodes, cloud=[{"gpu": "H100", "price_per_gpu_hour": 3.0}], horizons_years=[1]
    )
    report = run_tco(con, priced, files=LOCAL_FILES)

    assert priced.scheduling is not None
    assert priced.scheduling.queues is not None
    assert [(p.gpu, p.servers, p.gpus_per_server) for p in priced.self_hosted] == [("A100", 1, 8)]
    own = report.horizons[0].options[0]
    wait = summarize(run.result).wait_s
    assert wait.p95 > 0  # the quota of 4 GPUs makes jobs wait
    assert own.wait_p95_s == pytest.approx(wait.p95)
    assert own.wait_mean_s == pytest.approx(wait.mean)


def test_a_replay_scenario_without_queues_keeps_tco_yaml_minimal(trace: Path) -> None:
    replay = Scenario.model_validate(yaml.safe_load(replay_yaml(trace)))
    nodes = [("a-0", "A100", 8, 0.0, 0.0), ("a-1", "A100", 8, 0.0, 0.0), ("c", "", 0, 64.0, 0.0)]

    priced = tco_from_replay(replay, nodes)

    assert priced.scheduling is None
    assert [(p.gpu, p.servers) for p in priced.self_hosted] == [("A100", 2)]
    assert priced.policy.queueing == "backfill"


def test_a_price_edit_makes_tco_results_stale_but_not_replay_results(
    con: duckdb.DuckDBPyConnection, trace: Path
) -> None:
    tco_text = (SCENARIOS / "worked-example-h100.yaml").read_text(encoding="utf-8")
    files = FileAccess.local(SCENARIOS)
    tco = store.prepare(con, tco_text, "worked-example-h100.yaml", files)
    store.save(con, "owned", tco, results=store.run_yaml(con, tco.yaml_text, "owned", files=files))
    store.save(con, "replayed", prepared_replay(con, trace), results={"utilization": 0.5})
    fresh = {s.name: s.is_stale for s in store.list_saved(con)}

    edit_assumptions(con, "reference-defaults", {"pue": 1.6})
    after = {s.name: s.is_stale for s in store.list_saved(con)}
    rerun = store.run_and_store(con, "owned", files=files)

    assert fresh == {"owned": False, "replayed": False}
    assert after == {"owned": True, "replayed": False}  # a replay reads no prices
    assert not rerun.is_stale
    assert rerun.results is not None
    assert rerun.results["cost_per_installed_gpu_hour"] > 2.50  # the higher PUE costs more
