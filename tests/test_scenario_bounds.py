"""Numbers in scenario YAML are bounded, finite and of their type: a TCO horizon of 20,000
years, NaN or 1e9 is refused by field name before any work; `count: true` is not 1."""

import pytest

from planner.core.errors import ScenarioError
from planner.core.file_access import LOCAL_FILES
from planner.cost.tco import horizons_months
from planner.service.scenario_store import parse

OWNED = "self_hosted: [{gpu: H100, servers: 1}]\n"
POOLS = "cluster: {pools: [{gpu_type: A100, gpus_per_node: 8, count: 2}]}\n"


def tco(extra: str, owned: str = OWNED) -> str:
    return f"name: probe\n{owned}{extra}"


@pytest.mark.parametrize(
    "horizons", ["[20000]", "[1e9]", "[1.0e+9]", "[.nan]", "[.inf]", "[-1]", "[0]", "[50.5]"]
)
def test_a_horizon_out_of_range_or_not_finite_is_refused_by_field(horizons: str) -> None:
    with pytest.raises(ScenarioError, match=r"horizons_years\.0: .*(50|finite|greater than 0)"):
        parse(tco(f"horizons_years: {horizons}\n"), "h.yaml", LOCAL_FILES)


def test_horizons_up_to_fifty_years_are_priced_month_by_month() -> None:
    scenario = parse(tco("horizons_years: [0.5, 50]\n"), "h.yaml", LOCAL_FILES)

    assert horizons_months(scenario.horizons_years) == [6, 600]  # type: ignore[union-attr]


def test_too_many_horizons_are_refused() -> None:
    many = ", ".join(["1"] * 50)

    with pytest.raises(ScenarioError, match="horizons_years"):
        parse(tco(f"horizons_years: [{many}]\n"), "h.yaml", LOCAL_FILES)


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ("speed: {'H100/A100': .nan}\n", "speed"),
        ("speed: {'H100/A100': .inf}\n", "speed"),
        ("overrides: {pue: .nan}\n", "overrides"),
        ("overrides: {pue: .inf}\n", "overrides"),
        ("overrides: {life_years: [.nan]}\n", "overrides"),
        ("cloud: [{gpu: H100, price_per_gpu_hour: .inf}]\n", "cloud.0.price_per_gpu_hour"),
        ("cloud: [{gpu: H100, committed_gpus: .nan}]\n", "cloud.0.committed_gpus"),
        ("cloud: [{gpu: H100, term_months: 100000000}]\n", "cloud.0.term_months"),
        ("hybrid: {burst_after_s: .inf}\ncloud: [{gpu: H100}]\n", "hybrid.burst_after_s"),
        ("sensitivity_swing: .nan\n", "sensitivity_swing"),
    ],
)
def test_tco_numbers_that_are_not_finite_or_absurd_are_refused(extra: str, field: str) -> None:
    with pytest.raises(ScenarioError, match=rf"{field}"):
        parse(tco(extra), "t.yaml", LOCAL_FILES)


@pytest.mark.parametrize(
    "owned",
    [
        "self_hosted: [{gpu: H100, servers: 1000000000}]\n",
        "self_hosted: [{gpu: H100, servers: 1, price: .inf}]\n",
        "self_hosted: [{gpu: H100, servers: 1, load_kw: .nan}]\n",
    ],
)
def test_owned_servers_are_bounded_and_finite(owned: str) -> None:
    with pytest.raises(ScenarioError, match=r"self_hosted\.0\."):
        parse(tco("", owned), "t.yaml", LOCAL_FILES)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (POOLS.replace("count: 2", "count: true"), "cluster.pools.0.count"),
        (
            POOLS.replace("gpus_per_node: 8", "gpus_per_node: false"),
            "cluster.pools.0.gpus_per_node",
        ),
        ("cluster: {nodes: [{node_id: n1, gpus: true}]}\n", "cluster.nodes.0.gpus"),
        (POOLS + "policy: {backfill_depth: true}\n", "policy.backfill_depth"),
        (POOLS + "policy: {seed: false}\n", "policy.seed"),
    ],
)
def test_a_boolean_is_not_a_count_in_a_replay_scenario(text: str, field: str) -> None:
    with pytest.raises(ScenarioError, match=rf"{field}: .*whole number"):
        parse(text, "r.yaml", LOCAL_FILES)


@pytest.mark.parametrize(
    "owned",
    [
        "self_hosted: [{gpu: H100, servers: true}]\n",
        "self_hosted: [{gpu: H100, servers: 1, gpus_per_server: true}]\n",
    ],
)
def test_a_boolean_is_not_a_count_in_a_tco_scenario(owned: str) -> None:
    with pytest.raises(ScenarioError, match=r"self_hosted\.0\..*whole number"):
        parse(tco("", owned), "t.yaml", LOCAL_FILES)


def test_whole_numbers_still_read_as_counts() -> None:
    scenario = parse(POOLS, "r.yaml", LOCAL_FILES)

    assert scenario.cluster is not None  # type: ignore[union-attr]
    assert scenario.cluster.pools[0].count == 2  # type: ignore[union-attr]
