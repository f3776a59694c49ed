"""Test files ordered longest first, so that parallel workers finish together.

`make test` hands whole files to workers (`--dist loadfile`) in collection order
(`--no-loadscope-reorder`): when the longest files start first, the last ones to start are
short and no worker is left running a long file alone at the end (the 1 GiB import, a
browser journey). A file's cost is its seconds in `file_costs.json`, measured by

    pytest --junitxml=junit.xml ... && python -m tests.file_costs junit.xml > tests/file_costs.json

A file not listed yet (a new one) counts as a middling file. Only the order changes.
The table (2026-12-06, at f8c32fc, the compiled engine) is a whole `make test` with two CPU
hogs running beside it (wall seconds, so every file is slowed alike).
"""

import json
import statistics
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

COSTS = Path(__file__).with_name("file_costs.json")


def load_costs(path: Path = COSTS) -> dict[str, float]:
    if not path.is_file():
        return {}
    return {str(name): float(seconds) for name, seconds in json.loads(path.read_text()).items()}


def longest_first(items: list[pytest.Item], costs: dict[str, float]) -> list[pytest.Item]:
    """`items` with whole files in decreasing cost; tests keep their order within a file."""
    default = statistics.median(costs.values()) if costs else 0.0

    def cost(item: pytest.Item) -> float:
        return -costs.get(item.nodeid.split("::", 1)[0], default)

    return sorted(items, key=cost)  # stable: a file's tests stay together and in order


def costs_from_junit(junit: Path) -> dict[str, float]:
    """Seconds per test file from a pytest junit XML (each case's setup, call and teardown)."""
    seconds: dict[str, float] = defaultdict(float)
    for case in ET.parse(junit).getroot().iter("testcase"):
        module = case.get("classname", "").split("::")[0]
        path = [part for part in module.split(".") if part]
        # classname is dotted: tests.pages.test_x or tests.pages.test_x.TestClass
        while path and not Path(*path).with_suffix(".py").is_file():
            path.pop()
        if path:
            seconds["/".join(path) + ".py"] += float(case.get("time", 0.0))
    return {name: round(s, 1) for name, s in sorted(seconds.items(), key=lambda kv: -kv[1])}


if __name__ == "__main__":
    json.dump(costs_from_junit(Path(sys.argv[1])), sys.stdout, indent=1)
    sys.stdout.write("\n")
