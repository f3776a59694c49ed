"""The bundled traces are ours: regenerated from their seeds, byte for byte."""

from pathlib import Path

import pytest

from planner.synth import write_trace

TRACES = Path(__file__).resolve().parents[1] / "data" / "traces"
# Keep in step with README.md ("The bundled sample") and docs/queues.md (for teams.csv).
BUNDLED = {
    "sample.csv": {"profile": "llm", "jobs": 4000, "seed": 42},
    "teams.csv": {"profile": "teams", "jobs": 12_320, "seed": 42},
}


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_bundled_trace_is_reproducible_from_its_seed(name: str, tmp_path: Path) -> None:
    regenerated = tmp_path / name
    args = BUNDLED[name]

    summary = write_trace(regenerated, **args)  # type: ignore[arg-type]

    assert summary.jobs == args["jobs"]
    assert regenerated.read_bytes() == (TRACES / name).read_bytes()
