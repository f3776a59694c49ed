"""The bundled sample trace is ours: regenerated from its seed, byte for byte."""

from pathlib import Path

from planner.synth import write_trace

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "traces" / "sample.csv"
# Keep in step with README.md ("The bundled sample").
SAMPLE_ARGS = {"profile": "llm", "jobs": 4000, "seed": 42}


def test_bundled_sample_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    regenerated = tmp_path / "sample.csv"

    summary = write_trace(regenerated, **SAMPLE_ARGS)  # type: ignore[arg-type]

    assert summary.jobs == 4000
    assert regenerated.read_bytes() == SAMPLE.read_bytes()
