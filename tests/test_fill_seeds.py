"""`planner fill --seeds` is bounded: a huge range is refused by its size before any list of
seeds is built (the probe's `1-1000000000` was OOM-killed at 22.9 GB)."""

import itertools
import tracemalloc
from pathlib import Path

import pytest

from planner.cli import main
from planner.core.errors import ScenarioError
from planner.engine.fill import MAX_SEEDS, fill

PODS = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1000,1024,1,1000\n"
NODES = "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,262144,4,T4\n"
MiB = 1 << 20


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "pods.csv").write_text(PODS)
    (tmp_path / "nodes.csv").write_text(NODES)
    return str(tmp_path / "pods.csv"), str(tmp_path / "nodes.csv")


def fill_cli(files: tuple[str, str], seeds: str) -> int:
    """`planner fill` on a trace that is not stored: only the seeds are checked before it."""
    _, nodes = files
    db = str(Path(nodes).with_name("p.duckdb"))
    args = ["fill", "not-stored", "--nodes", nodes, "--placement", "best-fit", "--db", db]
    return main([*args, f"--seeds={seeds}"])


@pytest.mark.parametrize("seeds", ["1-5000000", "0-1000", "-5000000-1", "1,2,3," * 400])
def test_too_many_seeds_are_refused_before_a_list_is_built(
    files: tuple[str, str], capsys: pytest.CaptureFixture[str], seeds: str
) -> None:
    tracemalloc.start()
    try:
        code = fill_cli(files, seeds)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert code == 2
    err = capsys.readouterr().err
    assert f"--seeds gives more than {MAX_SEEDS} seeds" in err
    assert peak < 20 * MiB  # 5 million seeds as a list would take ~180 MiB


def test_an_empty_or_reversed_range_says_so(
    files: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert fill_cli(files, "51-42") == 2
    assert "--seeds 51-42 is empty" in capsys.readouterr().err


def test_the_largest_allowed_range_is_accepted_by_the_parser(files: tuple[str, str]) -> None:
    from planner.cli.replay import parse_seeds

    assert parse_seeds(f"1-{MAX_SEEDS}") == range(1, MAX_SEEDS + 1)
    assert parse_seeds("7,3") == (7, 3)


def test_the_library_stops_reading_seeds_past_the_limit() -> None:
    endless = itertools.count()

    with pytest.raises(ScenarioError, match=f"at most {MAX_SEEDS} seeds"):
        fill(
            [(1.0, 1.0, 1.0, ())],
            [("n1", "T4", 4, 64.0, 256.0)],
            placement="best-fit",
            seeds=endless,
        )

    assert next(endless) == MAX_SEEDS + 1  # it read one past the limit, no more
