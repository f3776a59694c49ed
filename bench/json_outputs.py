"""Golden outputs of the command line: record them for a checkout, then compare two records.

Use it to show that a change to the code (a refactor of the cost model, say) changes nothing
the planner prints or stores. It has two subcommands.

`run --out DIR [--checkout PATH]` runs a fixed list of `python -m planner ...` commands
against the source tree at PATH (default: the repository this script lives in) and records
what they print:

* `DIR/NN-name.json` is command NN's standard output (`.txt` or `.yaml` where the command
  prints text), and `DIR/NN-name*.csv` any file it writes (report CSVs, a schedule, a sweep);
* `DIR/commands.txt` lists the exact commands and the environment they ran in;
* `DIR/exit_codes.txt` gives each command's exit status;
* `DIR/inputs.sha256` hashes every input file (the checkout's bundled scenarios and traces,
  and the scenario variants this script writes), so a changed input shows up as such;
* `DIR/meta/` holds what is expected to vary and is not compared: each command's standard
  error (progress lines with timings), the variant scenarios, and `run.json` (checkout, its
  commit, where `planner` was imported from, the date, the run's length). `diff` compares the
  files at the top of DIR only.

The commands run one after another in a temporary folder holding copies of the checkout's
`data/` folder and of the test files they read, with relative paths only, so no path of the
machine shows in an output. Each gets a new, empty DuckDB file through `$PLANNER_DB`, except
that commands building on each other (saving a scenario, then running and showing it; a sweep,
then a Monte Carlo over its stored points) share one.

The planner is imported from the checkout only: `PYTHONPATH` is the checkout,
`PYTHONSAFEPATH=1` keeps the current folder off the import path, and the run stops if
`planner` or `pricing` would be imported from anywhere else (the editable install of the
main work tree in the virtual environment included). `PLANNER_PURE_PYTHON=1` turns the
compiled engine off, so a stale or missing build cannot matter; seeds are fixed, time zone,
hash seed and text encoding are pinned, and every other `PLANNER_*` variable is removed.

Timestamps of saved scenarios and imported traces (`created_at`, `updated_at`, `imported`)
change from run to run and are replaced by `<masked>` in the recorded output. Today's date
is not pinned: the FX date defaults to today, and stale-price notes give a price's age in days
on today's date. Compare two records made on the same day (`diff` warns when they were not).

`diff DIR_A DIR_B [--allow-keys K1,K2,...]` compares two records file by file and prints one
line per file: `identical`, `identical-but-for-allowed-keys`, or `DIFFERS` with the first
difference (for JSON its path and both values), then a count. JSON files that differ in bytes
are loaded, every dictionary key in the allow list is dropped from both at any depth (and
every list item that is an allowed key, or a dictionary with a value equal to one, as a
price-book row named insurance_share_year), and the rest is compared as re-written text, so
the remaining keys must also keep their order. In CSV
files the columns whose header is an allowed key (as written, or lower-cased with spaces as
underscores: "Property tax" is property_tax) and the rows with a cell equal to an allowed key
are dropped; a column headed in Chinese (`--lang zh`) is dropped once its header is added to
the list. The allow list defaults to the cost lines and assumptions the cost model is
about to gain: insurance, property_tax, insurance_share_year, property_tax_share_year. The
exit status is 1 when any file differs, else 0.

Typical use, the baseline from a clean clone of the commit before the change:

    git clone /work/main /work/golden_base && git -C /work/golden_base checkout 91e4c5f
    .venv/bin/python bench/json_outputs.py run --out /work/golden/before \\
        --checkout /work/golden_base
    .venv/bin/python bench/json_outputs.py run --out /work/golden/after
    .venv/bin/python bench/json_outputs.py diff /work/golden/before /work/golden/after

A run takes three to five minutes on a two-core machine (51 commands; the sizing search
with --mix is a minute of it).
"""

import argparse
import csv
import hashlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ALLOWED = ("insurance", "property_tax", "insurance_share_year", "property_tax_share_year")
MASKED_KEYS = ("created_at", "updated_at", "imported")
MASK = "<masked>"
META = "meta"
OUT = "out"
"""The folder, in each command's working folder, where the commands write their files."""
COMMAND_TIMEOUT_S = 900.0

SC = "data/scenarios"
TR = "data/traces/sample.csv"
VAR = "variants"
TEST_FILES = ("tests/data/kueue.yaml",)
"""Files of the checkout's tests that commands read, copied beside data/."""

# ----------------------------------------------------------------------------------------
# The scenario variants: each exercises cost paths the bundled scenarios leave at defaults.
# Written to the working folder's variants/ (their traces are relative to it).

_WORKED_CLOUD = """\
cloud:
  - {name: AWS p5.48xlarge on-demand, provider: AWS, gpu: H100, instance: p5.48xlarge}
  - {name: CoreWeave HGX H100, provider: CoreWeave, gpu: H100}
  - {name: Lambda 8x H100, provider: Lambda, gpu: H100, instance: 8x H100 SXM}
"""

VARIANTS: dict[str, str] = {
    "horizons": f"""\
name: horizons 1, 2.5, 7 and 10 years, 12% discount
currency: USD
horizons_years: [1, 2.5, 7, 10]
discount_rate: 0.12
utilization: 0.5
self_hosted:
  - {{gpu: H100, servers: 2, gpus_per_server: 8}}
overrides: {{availability: 1.0, lead_time_months: 0}}
{_WORKED_CLOUD}""",
    "tax-declining": f"""\
name: 25% tax, double-declining book, sum-of-years tax over 3 years
currency: USD
horizons_years: [3, 5]
discount_rate: 0.08
utilization: 0.35
self_hosted:
  - {{gpu: H100, servers: 1, gpus_per_server: 8}}
overrides:
  availability: 1.0
  lead_time_months: 0
  tax_rate: 0.25
  depreciation_method: double_declining
  tax_method: sum_of_years_digits
  tax_life_years: 3
  life_years: 4
  residual_share: 0.1
  installation: 5000
  software_per_gpu_year: 1200
  spares_share_year: 0.02
{_WORKED_CLOUD}""",
    "tax-sum-of-years": f"""\
name: 30% tax, sum-of-years book, straight-line tax
currency: USD
horizons_years: [2, 6]
discount_rate: 0.1
utilization: 0.7
self_hosted:
  - {{gpu: H100, servers: 3, gpus_per_server: 8, price: 280000}}
overrides:
  tax_rate: 0.3
  depreciation_method: sum_of_years_digits
  tax_method: straight_line
  life_years: 6
  residual_share: 0.05
  support_share_year: 0.08
  fte: 0.5
{_WORKED_CLOUD}""",
    "lead-time": f"""\
name: six months' lead time bridged in the cloud
currency: USD
horizons_years: [3, 5]
discount_rate: 0.08
utilization: 0.6
self_hosted:
  - {{gpu: H100, servers: 2, gpus_per_server: 8}}
overrides: {{availability: 0.95, lead_time_months: 6}}
{_WORKED_CLOUD}""",
    "lead-time-no-cloud": """\
name: three months' lead time, nothing bridges it
currency: USD
horizons_years: [3]
utilization: 0.4
self_hosted:
  - {gpu: A100, servers: 4, gpus_per_server: 8}
overrides: {lead_time_months: 3}
""",
    "rack-fee": f"""\
name: rack fee, time-of-use tariff, staff per server
currency: USD
horizons_years: [3, 5]
utilization: 0.45
self_hosted:
  - {{gpu: H100, servers: 6, gpus_per_server: 8}}
  - {{gpu: A100, servers: 3, gpus_per_server: 8}}
overrides:
  rack_fee_month: 2500
  servers_per_rack: 2
  fte_per_server: 0.1
  fte_cost_year: 150000
  pue: 1.3
  kwh_price: [0.06, 0.06, 0.06, 0.06, 0.06, 0.06, 0.08, 0.1, 0.14, 0.14, 0.14, 0.14,
              0.14, 0.14, 0.14, 0.14, 0.14, 0.14, 0.12, 0.1, 0.08, 0.08, 0.06, 0.06]
{_WORKED_CLOUD}""",
    "cny": """\
name: CNY reporting, a CNY server price, China tax
currency: CNY
fx_date: 2026-06-01
horizons_years: [3, 5]
discount_rate: 0.06
utilization: 0.5
self_hosted:
  - {gpu: H100, servers: 2, gpus_per_server: 8, price: 2200000, currency: CNY}
  - {gpu: A100, servers: 1, gpus_per_server: 8}
overrides: {tax_rate: 0.25, lead_time_months: 2}
cloud:
  - {name: AWS H100 on-demand, provider: AWS, gpu: H100}
  - {name: flat CNY price, gpu: H100, price_per_gpu_hour: 40}
""",
    "hybrid": """\
name: sample on a small cluster, commitment, spot, hybrid
currency: USD
trace: ../data/traces/sample.csv
horizons_years: [3, 5]
discount_rate: 0.08
policy: {queueing: backfill, placement: best-fit, admission: gang}
self_hosted:
  - {gpu: A100, servers: 16, gpus_per_server: 8, cpu: 128, mem_gib: 1024}
  - {gpu: H800, servers: 8, gpus_per_server: 8, price: 300000,
     idle_kw: 2.5, load_kw: 8.0, max_kw: 10.2}
overrides: {lead_time_months: 2, tax_rate: 0.2}
speed: {H100/A100: 2.0}
cloud:
  - {name: AWS H100 on-demand, provider: AWS, gpu: H100, startup_s: 120}
  - name: AWS H100 reserved 1y
    provider: AWS
    gpu: H100
    pricing_model: reserved
    term_months: 12
    committed_gpus: 16
    overflow: AWS H100 spot
    storage_gb: 5000
    storage_price_gb_month: 0.08
    egress_gb_month: 200
    egress_price_gb: 0.09
  - name: AWS H100 spot
    provider: AWS
    gpu: H100
    pricing_model: spot
    spot: {interruptions_per_hour: 0.1, restart_s: 600, checkpoint_interval_s: 1800}
hybrid:
  burst_after_s: 1800
  cloud: AWS H100 on-demand
  servers: {A100: 8, H800: 4}
""",
    "growth": """\
name: sample with growth and a new team
currency: USD
trace: ../data/traces/sample.csv
horizons_years: [3]
self_hosted:
  - {gpu: A100, servers: 16, gpus_per_server: 8}
  - {gpu: H800, servers: 8, gpus_per_server: 8, price: 300000,
     idle_kw: 2.5, load_kw: 8.0, max_kw: 10.2}
cloud:
  - {name: AWS H100 on-demand, provider: AWS, gpu: H100}
  - name: AWS H100 reserved 1y
    provider: AWS
    gpu: H100
    pricing_model: reserved
    term_months: 12
    committed_gpus_by_year: [8, 16]
hybrid: {burst_after_s: 3600, servers: {A100: 8, H800: 8}}
growth:
  arrival_rate: [1.0, 1.5, 2.0]
  time_warp: [1.0, 1.0, 1.2]
  add_team: {name: vision, profile: philly, from_year: 2, share: 0.25, gpu: A100}
  seed: 7
""",
    "all-jobs": """\
name: sample, CPU-only jobs priced too, failed jobs not useful
currency: USD
trace: ../data/traces/sample.csv
horizons_years: [3]
scope: all-jobs
exclude_failed: true
wait_scope: all-jobs
self_hosted:
  - {gpu: A100, servers: 16, gpus_per_server: 8}
  - {gpu: H800, servers: 8, gpus_per_server: 8, price: 300000,
     idle_kw: 2.5, load_kw: 8.0, max_kw: 10.2}
cpu_servers: {count: 4, price: 20000, power_kw: 0.8, cpu: 128, mem_gib: 1024}
cloud:
  - {name: AWS H100 on-demand, provider: AWS, gpu: H100,
     price_per_vcpu_hour: 0.04, price_per_gib_hour: 0.005}
""",
}


# ----------------------------------------------------------------------------------------
# The commands.


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    args: tuple[str, ...]
    """After `python -m planner`; `{out}` is `out/NN-name` (files the command writes)."""
    db: str = ""
    """Commands with the same non-empty `db` share one database, in order; else a fresh one."""
    stdout: str = "json"
    """The extension of the recorded standard output."""


def _c(name: str, line: str, db: str = "", stdout: str = "json") -> Command:
    """A command from its arguments as a shell would split them; {sc} is data/scenarios,
    {v} variants, {trace} the bundled sample trace."""
    text = line.replace("{sc}", SC).replace("{v}", VAR).replace("{trace}", TR)
    return Command(name, tuple(shlex.split(text)), db, stdout)


COMMANDS: tuple[Command, ...] = (
    # planner tco on every bundled TCO scenario, and on the bundled trace
    _c("tco-worked-example", "tco --scenario {sc}/worked-example-h100.yaml --json"),
    _c("tco-sample-tco", "tco --scenario {sc}/sample-tco.yaml --json"),
    _c("tco-cloud-on-demand", "tco --scenario {sc}/cloud-on-demand.yaml --json"),
    _c(
        "tco-worked-example-on-sample-trace",
        "tco --scenario {sc}/worked-example-h100.yaml --trace {trace} --json",
    ),
    # planner tco on the variants: horizons, tax and depreciation, lead time, rack fee and
    # time-of-use tariff, CNY, commitment / spot / storage / hybrid, growth, all jobs
    _c("tco-horizons", "tco --scenario {v}/horizons.yaml --json"),
    _c("tco-tax-declining", "tco --scenario {v}/tax-declining.yaml --json"),
    _c("tco-tax-sum-of-years", "tco --scenario {v}/tax-sum-of-years.yaml --json"),
    _c("tco-lead-time", "tco --scenario {v}/lead-time.yaml --json"),
    _c("tco-lead-time-no-cloud", "tco --scenario {v}/lead-time-no-cloud.yaml --json"),
    _c("tco-rack-fee-tou", "tco --scenario {v}/rack-fee.yaml --json"),
    _c("tco-cny", "tco --scenario {v}/cny.yaml --json"),
    _c("tco-hybrid-commitment-spot", "tco --scenario {v}/hybrid.yaml --json --csv {out}.csv"),
    _c("tco-growth", "tco --scenario {v}/growth.yaml --json"),
    _c("tco-all-jobs", "tco --scenario {v}/all-jobs.yaml --json"),
    _c("tco-hybrid-text", "tco --scenario {v}/hybrid.yaml", stdout="txt"),
    # a synthetic trace (`synth --json` fails at this commit, so its text is kept), priced
    _c("synth-llm", "synth --profile llm --jobs 300 --seed 5 --out {out}.csv", stdout="txt"),
    _c("tco-hybrid-on-synth", "tco --scenario {v}/hybrid.yaml --trace {out:synth-llm}.csv --json"),
    _c(
        "tco-worked-example-zh",
        "tco --scenario {sc}/worked-example-h100.yaml --lang zh --json --csv {out}.csv",
    ),
    # reports: FILE.csv (cost rows), FILE-jobs.csv, FILE-chargeback.csv
    _c("report-sample-tco", "report --scenario {sc}/sample-tco.yaml --out {out}.csv --json"),
    _c(
        "report-hybrid-cloud-quota-zh",
        "report --scenario {v}/hybrid.yaml --scenario {sc}/cloud-on-demand.yaml "
        "--out {out}.csv --horizon 5 --chargeback quota --lang zh --json",
    ),
    _c(
        "report-worked-example-cny-trace-idle",
        "report --scenario {sc}/worked-example-h100.yaml --scenario {v}/cny.yaml "
        "--trace {trace} --out {out}.csv --chargeback idle --json",
    ),
    # sweeps and Monte Carlo (the Monte Carlo over the sweep reads the sweep's database)
    _c(
        "sweep-vary",
        "sweep --scenario {v}/hybrid.yaml --vary servers=8,16 --vary discount_rate=0.05,0.1 "
        "--workers 1 --out {out}.csv --json",
        db="sweep",
    ),
    _c(
        "montecarlo-over-sweep",
        "montecarlo --scenario {v}/hybrid.yaml --sweep --draws 20 --seed 7 --json",
        db="sweep",
    ),
    _c(
        "sweep-target",
        "sweep --scenario {v}/lead-time-no-cloud.yaml --trace {trace} --target p95_wait=1h "
        "--workers 1 --json",
    ),
    _c(
        "montecarlo-sample-tco",
        "montecarlo --scenario {sc}/sample-tco.yaml --draws 50 --seed 7 --json",
    ),
    _c(
        "montecarlo-worked-example-moved",
        "montecarlo --scenario {sc}/worked-example-h100.yaml --draws 40 --seed 3 "
        "--cloud-trend -0.1 --cloud-vol 0.2 --electricity-trend 0.05 --electricity-vol 0.2 "
        "--server-sd 0.05 --demand-sd 0.2 --json",
    ),
    _c("montecarlo-flat", "montecarlo --scenario {v}/tax-declining.yaml --flat --json"),
    _c(
        "sweep-option-hybrid",
        "sweep --scenario {v}/hybrid.yaml --vary burst_after_h=0.5,2 --option hybrid "
        "--workers 1 --json",
    ),
    _c(
        "sweep-target-mix",
        "sweep --scenario {v}/hybrid.yaml --target p95_wait=1h --mix --size servers.A100 "
        "--workers 1 --json",
    ),
    # saved scenarios (one database): save, run (stores the results), show, list, export
    _c(
        "scenarios-save-worked",
        "scenarios save {sc}/worked-example-h100.yaml --name worked",
        db="store",
        stdout="txt",
    ),
    _c("scenarios-save-hybrid", "scenarios save {v}/hybrid.yaml --name hybrid", "store", "txt"),
    _c("scenarios-save-replay", "scenarios save {sc}/sample.yaml --name lab", "store", "txt"),
    _c("scenarios-run-worked", "scenarios run worked --json", db="store"),
    _c("scenarios-run-hybrid", "scenarios run hybrid --json", db="store"),
    _c("scenarios-run-lab", "scenarios run lab --json", db="store"),
    _c("scenarios-show-worked", "scenarios show worked --json", db="store"),
    _c("scenarios-show-hybrid", "scenarios show hybrid --json", db="store"),
    _c("scenarios-list", "scenarios list --json", db="store"),
    _c("scenarios-export-hybrid", "scenarios export hybrid", db="store", stdout="yaml"),
    _c("traces", "traces --json", db="store"),
    # replay and the rest of the command line
    _c("replay-sample", "replay --scenario {sc}/sample.yaml --json"),
    _c(
        "replay-flags-timeline",
        "replay {trace} --nodes 16 --gpus-per-node 8 --gpu-type A100 --admission pod "
        "--placement spread --queueing fifo --pod-timeout-s 600 --seed 3 --timeline 1d "
        "--schedule-out {out}.csv --json",
    ),
    _c(
        "replay-kueue-overhead",
        "replay {trace} --scenario {sc}/sample.yaml --queues tests/data/kueue.yaml "
        "--queueing fifo --network tcp --storage nfs --waits all-jobs --json",
    ),
    _c("twin-sample", "twin {trace} --scenario {sc}/sample.yaml --json"),
    _c("replay-borrowing", "replay --scenario {sc}/sample-borrowing.yaml --json"),
    _c("ingest-sample", "ingest {trace} --json"),
    _c("inspect-sample", "inspect {trace} --json"),
    _c("prices-assumptions", "prices assumptions --json"),
    _c("prices-servers", "prices servers list --json"),
    _c("prices-fx", "prices fx list --json"),
    _c("schema", "schema"),
)


# ----------------------------------------------------------------------------------------
# run


def _environment(checkout: Path, db: str) -> dict[str, str]:
    """The parent's environment without PLANNER_* and PYTHON* variables, then ours."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PLANNER_", "PYTHON", "LC_"))}
    env.update(_pinned(str(checkout), db))
    return env


def _pinned(checkout: str, db: str) -> dict[str, str]:
    return {
        "PYTHONPATH": checkout,
        "PYTHONSAFEPATH": "1",
        "PYTHONHASHSEED": "0",
        "PYTHONUTF8": "1",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PLANNER_PURE_PYTHON": "1",
        "PLANNER_DB": db,
        "TZ": "UTC",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
    }


def _check_imports(checkout: Path, work: Path) -> dict[str, str]:
    """Where `planner` and `pricing` are imported from with the run's environment."""
    code = "import json, planner, pricing; print(json.dumps([planner.__file__, pricing.__file__]))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=work,
        env=_environment(checkout, "db/check.duckdb"),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"cannot import planner from {checkout}:\n{done.stderr}")
    found = dict(zip(("planner", "pricing"), json.loads(done.stdout), strict=True))
    for name, path in found.items():
        if not Path(path).resolve().is_relative_to(checkout):
            raise SystemExit(f"{name} is imported from {path}, not from the checkout {checkout}")
    return found


def _prepare(checkout: Path, work: Path) -> list[Path]:
    """The checkout's data/ and the variants in `work`; returns every input file."""
    shutil.copytree(checkout / "data", work / "data", ignore=shutil.ignore_patterns("*.duckdb*"))
    for name in TEST_FILES:
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(checkout / name, work / name)
    (work / VAR).mkdir()
    for name, text in VARIANTS.items():
        (work / VAR / f"{name}.yaml").write_text(text, encoding="utf-8")
    (work / OUT).mkdir()
    (work / "db").mkdir()
    found = [p for d in ("data", "tests", VAR) for p in (work / d).rglob("*") if p.is_file()]
    return sorted(found)


def _placed(arg: str, tag: str, tags: dict[str, str]) -> str:
    """`arg` with {out} as out/NN-name and {out:NAME} as an earlier command's out/NN-NAME."""
    arg = re.sub(r"\{out:([\w-]+)\}", lambda m: f"{OUT}/{tags[m[1]]}", arg)
    return arg.replace("{out}", f"{OUT}/{tag}")


def _mask(text: str) -> str:
    keys = "|".join(MASKED_KEYS)
    return re.sub(rf'("(?:{keys})": )"[^"]*"', rf'\1"{MASK}"', text)


def _shown(args: Sequence[str]) -> str:
    return " ".join(_quote(a) for a in args)


def _quote(arg: str) -> str:
    return arg if re.fullmatch(r"[\w./=:,{}+-]+", arg) else "'" + arg.replace("'", "'\\''") + "'"


def _git_commit(checkout: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(checkout), "describe", "--always", "--dirty", "--abbrev=40"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or "unknown"


def run(out: Path, checkout: Path) -> int:
    checkout = checkout.resolve()
    if not (checkout / "planner" / "__main__.py").is_file():
        raise SystemExit(f"{checkout} is not a planner checkout (no planner/__main__.py)")
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"{out} exists and is not empty; give a new folder")
    (out / META / "stderr").mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    day = _today()
    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="json-outputs-") as tmp:
        work = Path(tmp)
        inputs = _prepare(checkout, work)
        imported = _check_imports(checkout, work)
        shutil.copytree(work / VAR, out / META / VAR)
        (out / "inputs.sha256").write_text(
            "".join(f"{_sha256(p)}  {p.relative_to(work)}\n" for p in inputs), encoding="utf-8"
        )
        listing = [
            "# Each command runs in a new folder holding copies of the checkout's data/ and",
            f"# {', '.join(TEST_FILES)}, and variants/ (the scenario variants this script",
            "# writes, also in meta/variants/), with this environment:",
            *(f"#   {k}={v}" for k, v in _pinned("<checkout>", "db/<group>.duckdb").items()),
            "# db/<group>.duckdb is new for each command, except that commands of one group",
            "# (db=NAME) share theirs. {out} is out/NN-name: files a command writes, recorded",
            f"# as NN-name*.EXT. JSON values of {', '.join(MASKED_KEYS)} are masked.",
        ]
        codes: list[str] = []
        tags: dict[str, str] = {}
        for index, command in enumerate(COMMANDS, start=1):
            tag = f"{index:02d}-{command.name}"
            group = command.db or tag
            tags[command.name] = tag
            args = [_placed(a, tag, tags) for a in command.args]
            listing.append(f"{tag}  [db={group}]  python -m planner {_shown(args)}")
            began = time.monotonic()
            try:
                done = subprocess.run(
                    [sys.executable, "-m", "planner", *args],
                    cwd=work,
                    env=_environment(checkout, f"db/{group}.duckdb"),
                    capture_output=True,
                    timeout=COMMAND_TIMEOUT_S,
                    check=False,
                )
                code, stdout, stderr = done.returncode, done.stdout, done.stderr
            except subprocess.TimeoutExpired as err:
                code, stdout = -1, err.stdout or b""
                stderr = (err.stderr or b"") + f"\ntimed out after {err.timeout} s\n".encode()
            took = time.monotonic() - began
            text = stdout.decode("utf-8", errors="surrogateescape")
            (out / f"{tag}.{command.stdout}").write_bytes(
                _mask(text).encode("utf-8", errors="surrogateescape")
            )
            (out / META / "stderr" / f"{tag}.txt").write_bytes(stderr)
            for written in sorted((work / OUT).glob(f"{tag}*")):
                shutil.copyfile(written, out / written.name)
            codes.append(f"{tag} {code}")
            state = "ok" if code == 0 else f"FAILED (exit {code})"
            print(f"{tag}: {state}, {took:.1f} s", flush=True)
            if code != 0:
                failed.append(tag)
                print(stderr.decode(errors="replace").rstrip()[-2000:], file=sys.stderr)
    elapsed = time.monotonic() - started
    (out / "commands.txt").write_text("\n".join(listing) + "\n", encoding="utf-8")
    (out / "exit_codes.txt").write_text("\n".join(codes) + "\n", encoding="utf-8")
    meta = {
        "checkout": str(checkout),
        "commit": _git_commit(checkout),
        "imported_from": imported,
        "python": sys.executable,
        "date": day,
        "date_at_end": _today(),
        "finished_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(elapsed, 1),
        "commands": len(COMMANDS),
        "failed": failed,
    }
    (out / META / "run.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(f"{len(COMMANDS)} commands in {elapsed:.0f} s, {len(failed)} failed; wrote {out}")
    return 1 if failed else 0


def _today() -> str:
    """Today in UTC, the time zone the commands run in."""
    return datetime.now(UTC).date().isoformat()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ----------------------------------------------------------------------------------------
# diff


@dataclass(frozen=True, slots=True)
class Verdict:
    state: str
    """identical, identical-but-for-allowed-keys or DIFFERS"""
    detail: str = ""


IDENTICAL = "identical"
ALLOWED = "identical-but-for-allowed-keys"
DIFFERS = "DIFFERS"
_SHOWN = 200


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def _drop(value: Any, allowed: frozenset[str], dropped: list[Any]) -> Any:
    """`value` without the dict keys in `allowed`, at any depth, nor the list items that are
    an allowed key or a dict naming one (a value equal to it: a price-book row whose `name` is
    insurance_share_year, say); what was dropped is appended to `dropped`."""
    if isinstance(value, dict):
        kept = {}
        for key, item in value.items():
            if key in allowed:
                dropped.append(item)
            else:
                kept[key] = _drop(item, allowed, dropped)
        return kept
    if isinstance(value, list):
        items = []
        for item in value:
            if _names_allowed(item, allowed):
                dropped.append(item)
            else:
                items.append(_drop(item, allowed, dropped))
        return items
    return value


def _names_allowed(item: Any, allowed: frozenset[str]) -> bool:
    if isinstance(item, str):
        return item in allowed
    return isinstance(item, dict) and any(
        isinstance(v, str) and v in allowed for v in item.values()
    )


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _first_difference(a: Any, b: Any, path: str = "$") -> str:
    """The first JSON path where `a` and `b` differ (as written), with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            only_a = [k for k in a if k not in b]
            only_b = [k for k in b if k not in a]
            if only_a or only_b:
                return f"{path}: keys only in A {only_a[:5]}, only in B {only_b[:5]}"
            order = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
            first_a, first_b = list(a)[order], list(b)[order]
            return f"{path}: key order differs at key {order}: A {first_a!r}, B {first_b!r}"
        for key in a:
            if _dump(a[key]) != _dump(b[key]):
                return _first_difference(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            if _dump(x) != _dump(y):
                return _first_difference(x, y, f"{path}[{index}]")
        if len(a) != len(b):
            return f"{path}: length A {len(a)}, B {len(b)}"
    return f"{path}: A {_short(a)}, B {_short(b)}"


def _nonzero(values: list[Any]) -> int:
    """How many of the dropped values hold a number other than 0 somewhere."""

    def numbers(value: Any) -> Iterator[float]:
        if isinstance(value, bool):
            return
        if isinstance(value, int | float):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from numbers(item)
        elif isinstance(value, list):
            for item in value:
                yield from numbers(item)

    return sum(1 for v in values if any(n != 0 for n in numbers(v)))


def _compare_json(a: bytes, b: bytes, allowed: frozenset[str]) -> Verdict:
    try:
        left, right = json.loads(a), json.loads(b)
    except (ValueError, UnicodeDecodeError):
        return _compare_text(a, b)
    dropped_a: list[Any] = []
    dropped_b: list[Any] = []
    left, right = _drop(left, allowed, dropped_a), _drop(right, allowed, dropped_b)
    if _dump(left) == _dump(right):
        nonzero = _nonzero(dropped_a) + _nonzero(dropped_b)
        extra = f"; {nonzero} of them hold a number other than 0" if nonzero else ""
        return Verdict(ALLOWED, f"dropped {len(dropped_a)} + {len(dropped_b)} values{extra}")
    return Verdict(DIFFERS, _first_difference(left, right))


def _normal(header: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", header.strip().lower()).strip("_")


def _csv_rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def _strip_csv(rows: list[list[str]], allowed: frozenset[str]) -> tuple[list[list[str]], int]:
    """The rows without allowed columns (by header) and rows (by any cell); how many went."""
    if not rows:
        return rows, 0
    keep = [i for i, h in enumerate(rows[0]) if h not in allowed and _normal(h) not in allowed]
    dropped = (len(rows[0]) - len(keep)) * len(rows)
    kept = [rows[0]]
    for row in rows[1:]:
        if any(cell in allowed for cell in row):
            dropped += 1
        else:
            kept.append(row)
    return [[row[i] if i < len(row) else "" for i in keep] for row in kept], dropped


def _compare_csv(a: bytes, b: bytes, allowed: frozenset[str]) -> Verdict:
    try:
        left, gone_a = _strip_csv(_csv_rows(a), allowed)
        right, gone_b = _strip_csv(_csv_rows(b), allowed)
    except (csv.Error, UnicodeDecodeError):
        return _compare_text(a, b)
    if left == right:
        return Verdict(ALLOWED, f"dropped {gone_a} + {gone_b} cells or rows")
    header = left[0] if left else []
    if left[:1] != right[:1]:
        only_a = [h for h in header if h not in (right[0] if right else [])]
        only_b = [h for h in (right[0] if right else []) if h not in header]
        return Verdict(DIFFERS, f"header: columns only in A {only_a[:5]}, only in B {only_b[:5]}")
    for number, (x, y) in enumerate(zip(left, right, strict=False), start=1):
        if x != y:
            column = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), len(x))
            name = header[column] if column < len(header) else f"#{column + 1}"
            show_a = x[column] if column < len(x) else "<none>"
            show_b = y[column] if column < len(y) else "<none>"
            return Verdict(
                DIFFERS, f"row {number} (after drops), column {name}: A {show_a!r}, B {show_b!r}"
            )
    return Verdict(DIFFERS, f"rows (after drops): A {len(left)}, B {len(right)}")


def _compare_text(a: bytes, b: bytes) -> Verdict:
    left = a.decode(errors="replace").splitlines()
    right = b.decode(errors="replace").splitlines()
    for number, (x, y) in enumerate(zip(left, right, strict=False), start=1):
        if x != y:
            return Verdict(DIFFERS, f"line {number}: A {_short(x)}, B {_short(y)}")
    if len(left) != len(right):
        return Verdict(DIFFERS, f"lines: A {len(left)}, B {len(right)}")
    return Verdict(DIFFERS, "bytes differ (line endings or a final newline)")


def compare(a: Path, b: Path, allowed: frozenset[str]) -> Verdict:
    if not a.is_file():
        return Verdict(DIFFERS, "only in B")
    if not b.is_file():
        return Verdict(DIFFERS, "only in A")
    left, right = a.read_bytes(), b.read_bytes()
    if left == right:
        return Verdict(IDENTICAL)
    suffix = a.suffix.lower()
    if suffix == ".json":
        return _compare_json(left, right, allowed)
    if suffix == ".csv":
        return _compare_csv(left, right, allowed)
    return _compare_text(left, right)


def _days(folder: Path) -> set[str]:
    """The days (UTC) the record was made on, from its meta/run.json (none if unreadable)."""
    try:
        found = json.loads((folder / META / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    if not isinstance(found, dict):
        return set()
    return {str(found[k]) for k in ("date", "date_at_end") if found.get(k)}


def diff(a: Path, b: Path, allowed: frozenset[str]) -> int:
    for folder in (a, b):
        if not folder.is_dir():
            raise SystemExit(f"{folder}: no such folder")
    names = sorted({p.name for d in (a, b) for p in d.iterdir() if p.is_file()})
    counts = dict.fromkeys((IDENTICAL, ALLOWED, DIFFERS), 0)
    for name in names:
        verdict = compare(a / name, b / name, allowed)
        counts[verdict.state] += 1
        detail = f": {verdict.detail}" if verdict.detail else ""
        print(f"{name}: {verdict.state}{detail}")
    days_a, days_b = _days(a), _days(b)
    if days_a and days_b and len(days_a | days_b) > 1:
        print(
            f"warning: A was recorded on {', '.join(sorted(days_a))} and B on "
            f"{', '.join(sorted(days_b))}; the FX date and stale-price ages follow today's "
            "date, so record both on the same day"
        )
    print(
        f"{len(names)} files: {counts[IDENTICAL]} identical, {counts[ALLOWED]} identical but "
        f"for allowed keys, {counts[DIFFERS]} differ"
    )
    return 1 if counts[DIFFERS] else 0


# ----------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Record the planner's command-line outputs, or compare two records."
    )
    sub = parser.add_subparsers(dest="action", required=True)
    record = sub.add_parser("run", help="run the commands and record their outputs in DIR")
    record.add_argument("--out", type=Path, required=True, metavar="DIR")
    record.add_argument(
        "--checkout", type=Path, default=REPO, help=f"source tree to run (default {REPO})"
    )
    compared = sub.add_parser("diff", help="compare two records")
    compared.add_argument("dir_a", type=Path, metavar="DIR_A")
    compared.add_argument("dir_b", type=Path, metavar="DIR_B")
    compared.add_argument(
        "--allow-keys",
        default=",".join(DEFAULT_ALLOWED),
        metavar="K1,K2,...",
        help=f"keys that may appear or go (default {','.join(DEFAULT_ALLOWED)})",
    )
    args = parser.parse_args(argv)
    if args.action == "run":
        return run(args.out, args.checkout)
    allowed = frozenset(k.strip() for k in args.allow_keys.split(",") if k.strip())
    return diff(args.dir_a, args.dir_b, allowed)


if __name__ == "__main__":
    raise SystemExit(main())
