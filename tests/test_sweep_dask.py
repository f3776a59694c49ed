"""`planner sweep --cluster`: points priced on a real Dask cluster (two worker processes on
loopback) equal one process's and the local pool's bit for bit, as results and as stored rows;
the CLI reaches the same cluster by address; the workers are gone once the cluster closes.

The priced scenario is the bundled sample with 4 A100 servers and no hybrid (one replay per
point), on the sample trace's first 1,000 jobs (a quarter of it: the engines' agreement does
not need more, and each point costs a quarter), swept over a few server counts. One cluster
serves the whole module.
"""

import csv
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import psutil
import pytest
from distributed import Client

from planner.cli.main import main
from planner.core.errors import PlannerError
from planner.core.file_access import LOCAL_FILES
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep_dask import local_cluster, parse_cluster, plain_remote
from planner.service.sweep_keys import apply
from planner.service.sweep_run import Sweep, SweepOutcome, point_key, run_sweep, sweep_key
from planner.service.tco_files import load_tco_scenario
from planner.store import Connection, connect
from planner.store.sweeps import load_points

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "scenarios" / "sample-tco.yaml"
POINTS = [(("servers", n),) for n in (1, 2, 3)]
JOBS = 1_000


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample's first `JOBS` jobs."""
    lines = (ROOT / "data" / "traces" / "sample.csv").read_text().splitlines(keepends=True)
    path = tmp_path_factory.mktemp("trace") / "sample-head.csv"
    path.write_text("".join(lines[: JOBS + 1]))
    return path


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A real two-worker cluster; after it closes, none of its worker processes is left."""
    with local_cluster(2) as local, Client(local) as client:
        pids = list(client.run(os.getpid).values())
        assert len(set(pids)) == 2  # two processes of their own
        assert os.getpid() not in pids
        yield local.scheduler_address
    assert not [p for p in pids if psutil.pid_exists(p) and _alive(p)]


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory, trace: Path) -> Sweep:
    scenario = apply(load_tco_scenario(SAMPLE), (("servers", 4),))
    scenario = scenario.model_copy(update={"hybrid": None, "trace": str(trace)})
    with connect(tmp_path_factory.mktemp("dask") / "jobs.duckdb") as con:
        trace_id = resolve_trace(con, str(trace), files=LOCAL_FILES)
        return Sweep(scenario, load_jobs(con, trace_id), trace_id, date(2026, 12, 1))


@contextmanager
def _fresh(path: Path, sweep: Sweep) -> Iterator[Connection]:
    with connect(path) as con:
        resolve_trace(con, str(sweep.scenario.trace), files=LOCAL_FILES)
        yield con


def _stored(con: Connection, sweep: Sweep) -> list[object]:
    base = sweep_key(con, sweep)
    keys = [point_key(base, p) for p in POINTS]
    rows = load_points(con, keys)
    return [rows[k] for k in keys]


def _swept(path: Path, sweep: Sweep, **how: object) -> tuple[SweepOutcome, list[object]]:
    with _fresh(path, sweep) as con:
        outcome = run_sweep(con, sweep, POINTS, **how)  # type: ignore[arg-type]
        return outcome, _stored(con, sweep)


def test_the_cluster_gives_the_local_pools_results_bit_for_bit(
    tmp_path: Path, cluster: str, sweep: Sweep
) -> None:
    one, one_rows = _swept(tmp_path / "one.duckdb", sweep)
    pool, pool_rows = _swept(tmp_path / "pool.duckdb", sweep, workers=2)
    dask, dask_rows = _swept(tmp_path / "dask.duckdb", sweep, cluster=cluster)

    assert dask.computed == len(POINTS)
    assert dask.results == pool.results == one.results
    assert dask_rows == pool_rows == one_rows
    # bit for bit: floats compared by their bytes, not within a tolerance
    figures = [(o.total, o.wait_p95_s, o.npv_vs_cloud) for r in dask.results for o in r.options]
    expected = [(o.total, o.wait_p95_s, o.npv_vs_cloud) for r in one.results for o in r.options]
    assert repr(figures) == repr(expected)
    assert len({r.option("self-hosted").total for r in one.results}) == len(POINTS)  # type: ignore[union-attr]


def test_a_resumed_cluster_sweep_prices_only_the_new_points(
    tmp_path: Path, cluster: str, sweep: Sweep
) -> None:
    with _fresh(tmp_path / "resume.duckdb", sweep) as con:
        first = run_sweep(con, sweep, POINTS[:2], cluster=cluster)
        again = run_sweep(con, sweep, POINTS, cluster=cluster)

    assert (first.computed, again.computed) == (2, 1)
    assert again.results[:2] == first.results


def test_an_interrupted_cluster_sweep_keeps_its_finished_points_and_cleans_up(
    tmp_path: Path, cluster: str, sweep: Sweep
) -> None:
    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with _fresh(tmp_path / "stop.duckdb", sweep) as con:
        with pytest.raises(KeyboardInterrupt):
            run_sweep(con, sweep, POINTS, cluster=cluster, on_point=stop)
        resumed = run_sweep(con, sweep, POINTS)
    with Client(cluster) as client:
        plugins = client.run(lambda dask_worker: list(dask_worker.plugins))

    assert resumed.computed == len(POINTS) - 1  # the first point was stored before Ctrl-C
    left = [n for names in plugins.values() for n in names if n.startswith("planner-sweep")]
    assert left == []  # the workers' copies of the sweep and price book are gone


def test_the_cli_sweeps_on_the_cluster_at_an_address(
    tmp_path: Path, cluster: str, trace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sample as bundled (its hybrid too: a burst's bill is priced on the workers)."""
    args = ["sweep", "--scenario", str(SAMPLE), "--trace", str(trace)]
    args += ["--vary", "servers.A100=1,2", "--json"]
    assert main([*args, "--db", str(tmp_path / "a.duckdb"), "--cluster", cluster]) == 0
    on_cluster = json.loads(capsys.readouterr().out)
    assert main([*args, "--db", str(tmp_path / "b.duckdb"), "--workers", "1"]) == 0
    in_process = json.loads(capsys.readouterr().out)

    assert [p["point"] for p in on_cluster] == [{"servers.A100": 1}, {"servers.A100": 2}]
    assert on_cluster == in_process


def test_cluster_addresses_read_as_local_or_a_scheduler() -> None:
    assert parse_cluster("local") == ("local", None)
    assert parse_cluster("local:3") == ("local", 3)
    assert parse_cluster("tcp://10.0.0.5:8786") == ("tcp://10.0.0.5:8786", None)
    with pytest.raises(PlannerError, match="local:N with N 1 or more"):
        parse_cluster("local:0")


def test_plain_tcp_to_another_host_is_named_and_tls_needs_its_certificates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert plain_remote("tcp://10.0.0.5:8786")
    assert not plain_remote("tcp://127.0.0.1:8786")
    assert not plain_remote("tls://10.0.0.5:8786")
    assert not plain_remote("local:2")
    for name in ("CA_FILE", "CLIENT__CERT", "CLIENT__KEY"):
        monkeypatch.delenv(f"DASK_DISTRIBUTED__COMM__TLS__{name}", raising=False)
    args = ["sweep", "--scenario", str(SAMPLE), "--vary", "servers.A100=1"]

    code = main([*args, "--db", str(tmp_path / "a.duckdb"), "--cluster", "tls://10.0.0.5:1"])

    said = capsys.readouterr().err
    assert code == 2
    assert (
        "a TLS scheduler needs its certificates; set DASK_DISTRIBUTED__COMM__TLS__CA_FILE" in said
    )


def test_a_search_on_the_cluster_finds_the_serial_searchs_answer(
    tmp_path: Path, cluster: str, sweep: Sweep, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two counts a round on the cluster (one client, the sweep shipped once): the answer and
    every point priced equal the one-worker bisection's, where both priced a count. On the
    jobs of at most 8 GPUs: no gang sets a floor above one server (the 1,024-GPU jobs would
    make the floor, 128, the answer at once), so both searches bisect."""
    assert sweep.scenario.trace is not None
    with Path(sweep.scenario.trace).open(newline="", encoding="utf-8") as rows:
        table = list(csv.reader(rows))
    gpus = table[0].index("gpus")
    small = tmp_path / "small-jobs.csv"
    with small.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([table[0], *(r for r in table[1:] if float(r[gpus]) <= 8)])
    scenario = tmp_path / "four.yaml"
    data = sweep.scenario.model_dump(mode="json", exclude_unset=True) | {"trace": str(small)}
    scenario.write_text(json.dumps(data), encoding="utf-8")
    args = ["sweep", "--scenario", str(scenario), "--target", "p95_wait=0.5h", "--json"]
    assert main([*args, "--db", str(tmp_path / "a.duckdb"), "--cluster", cluster]) == 0
    [wide] = json.loads(capsys.readouterr().out)
    assert main([*args, "--db", str(tmp_path / "b.duckdb"), "--workers", "1"]) == 0
    [serial] = json.loads(capsys.readouterr().out)

    assert wide["answer"] is not None
    assert wide["answer"] == serial["answer"]
    assert wide["bound"]["binds"] == serial["bound"]["binds"] == "target"
    assert wide["bound"]["floor"]["servers"] == 1
    both = [p for p in wide["tried"] if p in serial["tried"]]
    assert len(both) >= 2  # the same figures for the counts both priced
    assert {p["point"]["servers"] for p in both} == {
        p["point"]["servers"] for p in wide["tried"]
    } & {p["point"]["servers"] for p in serial["tried"]}
