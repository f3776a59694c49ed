"""A price derived from another by a discount rule is no surer than the rule: "Prices used"
lists it with the lowest of the two confidences (H > M > L), so a spot or reserved price
derived from a rule of thumb (confidence L) is L, and an observed provider rule (H) applied to
an H price stays H (issue 30)."""

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import yaml

from planner.cli import main
from pricing.models import lowest_confidence

WORKED = Path(__file__).parent.parent / "data" / "scenarios" / "worked-example-h100.yaml"
RESERVED = {"pricing_model": "reserved", "term_months": 12}
CLOUD = (
    {"name": "Lambda spot", "provider": "Lambda", "gpu": "H100", "pricing_model": "spot"},
    {"name": "Lambda 1-year", "provider": "Lambda", "gpu": "H100", **RESERVED},
    {"name": "AWS 1-year", "provider": "AWS", "gpu": "H100", **RESERVED},
)


def _prices_used(tmp_path: Path) -> dict[str, str]:
    scenario = {**yaml.safe_load(WORKED.read_text()), "cloud": list(CLOUD)}
    path = tmp_path / "derived.yaml"
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    buffer = io.StringIO()
    db = tmp_path / "p.duckdb"
    with contextlib.redirect_stdout(buffer):
        assert main(["tco", "--scenario", str(path), "--db", str(db), "--json"]) == 0
    report: dict[str, Any] = json.loads(buffer.getvalue())
    return {p["price"]: p["confidence"] for p in report["prices_used"]}


def test_the_lowest_confidence_wins_and_blanks_are_not_counted() -> None:
    assert lowest_confidence("H", "L") == "L"
    assert lowest_confidence("M", "H") == "M"
    assert lowest_confidence("H", "") == "H"


def test_a_price_derived_by_a_rule_of_thumb_is_listed_at_the_rules_confidence(
    tmp_path: Path,
) -> None:
    used = _prices_used(tmp_path)

    lambda_spot = [v for k, v in used.items() if k.startswith("Lambda") and "spot" in k]
    lambda_reserved = [v for k, v in used.items() if k.startswith("Lambda") and "reserved" in k]
    aws_reserved = [v for k, v in used.items() if k.startswith("AWS") and "reserved" in k]
    assert (lambda_spot, lambda_reserved, aws_reserved) == (["L"], ["L"], ["H"]), used
