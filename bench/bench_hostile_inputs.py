"""Time and peak memory of the CLI on issue 17's hostile-input table: YAML bombs, tags,
10^9 nodes, NaN and negative prices, a typo, a gzip bomb, a 5 MB line, 10,000 columns.

Usage: python bench/bench_hostile_inputs.py [--only NAME ...] [--code DIR] [--mem-gib N]
       [--timeout S]

Each case runs `python -m planner ...` in its own process on a fresh database, so the peak
RSS printed is that command's alone; the interpreter and its imports are included (the
baseline row, a valid 5-job import, shows what they cost on this machine).
Processes are capped at --mem-gib of address space and --timeout seconds, so a case that
would allocate the world ends as "MemoryError"/"timeout" instead of swapping the machine.
`--code DIR` runs another checkout's planner (e.g. `git archive 4a9bdcf | tar -x -C DIR`,
the commit before the fixes) for the "before" column. Files go to bench/out/hostile-inputs/.
"""

import argparse
import gzip
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out" / "hostile-inputs"
ROOT = Path(__file__).resolve().parent.parent
HEADER = "job_id,submit_time,duration_s,gpus,queue\n"
ROWS = "".join(f"j{i},2024-01-05 10:00:{i:02d},60,1,q\n" for i in range(5))
POOL = "{gpu_type: A100, gpus_per_node: 8, count: 2}"
OWNED = "self_hosted: [{gpu: H100, servers: 1}]\n"
# Runs a command under an address-space cap; prints its peak RSS (KiB) on the last stderr line.
WRAPPER = (
    "import resource, subprocess, sys; cap = int(sys.argv[1]); "
    "limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (cap, cap)); "
    "done = subprocess.run(sys.argv[2:], preexec_fn=limit); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
    "sys.exit(done.returncode)"
)


def laughs(key: str, levels: int = 9) -> str:
    """9**levels values in a few lines, nested under `key`."""
    lines = ["l0: &l0 [" + ", ".join(["lol"] * 9) + "]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return f"{key}:\n  values:\n" + "".join(f"    {line}\n" for line in lines)


def text(name: str, body: str) -> Callable[[Path], Path]:
    def write(folder: Path) -> Path:
        path = folder / name
        path.write_text(body.replace("TRACE", str(folder / "jobs.csv")), encoding="utf-8")
        return path

    return write


def gzip_bomb(folder: Path) -> Path:
    """8 GiB of valid rows in ~20 MB: one 64 MiB gzip member repeated 128 times."""
    path = folder / "bomb.csv.gz"
    if not path.exists():
        row = "j1,2024-01-05 10:00:00,60,1,q\n"
        member = gzip.compress((row * ((64 << 20) // len(row))).encode(), 9)
        path.write_bytes(gzip.compress(HEADER.encode()) + member * 128)
    return path


def wide(folder: Path) -> Path:
    path = folder / "wide.csv"
    names = [f"c{i}" for i in range(9_995)]
    row = "j{},2024-01-05 10:00:00,60,1,q" + ",0" * 9_995 + "\n"
    body = "".join(row.format(i) for i in range(300))
    path.write_text(HEADER.rstrip("\n") + "," + ",".join(names) + "\n" + body)
    return path


def binary(folder: Path) -> Path:
    path = folder / "binary.yaml"
    path.write_bytes(b"name: \xff\xfe\x00\x01\n")
    return path


TRACE = "name: x\ntrace: TRACE\n"
ALIASED_POOLS = "[&p {gpu_type: A100, gpus_per_node: 8, count: 100000}, " + ", ".join(
    ["*p"] * 9_999
)
ALIASED_SERVERS = "[&p {gpu: H100, servers: 100000}, " + ", ".join(["*p"] * 9_999)
CLUSTER = f"cluster: {{pools: [{POOL}]}}\n"
# name: (the file's writer, the planner's arguments after the file)
CASES: dict[str, tuple[Callable[[Path], Path], list[str]]] = {
    "baseline: a valid 5-job ingest": (text("jobs5.csv", HEADER + ROWS), ["ingest"]),
    "yaml bomb, replay scenario": (
        text("lol.yaml", TRACE + CLUSTER + laughs("priorities")),
        ["replay", "--scenario"],
    ),
    "yaml bomb, tco scenario": (
        text("lol-tco.yaml", OWNED + laughs("overrides")),
        ["tco", "--scenario"],
    ),
    "yaml bomb, Kueue --queues": (
        text("kueue.yaml", "kind: ClusterQueue\nmetadata: {name: q}\n" + laughs("spec")),
        ["replay", "--scenario", "SCENARIO", "--queues"],
    ),
    "!!python/object tag": (
        text("tag.yaml", OWNED + 'name: !!python/object/apply:os.system ["echo owned"]\n'),
        ["tco", "--scenario"],
    ),
    "10^9 nodes (10,000 aliased pools)": (
        text("world.yaml", TRACE + f"cluster:\n  pools: {ALIASED_POOLS}]\n"),
        ["replay", "--scenario"],
    ),
    "10^9 owned servers (tco)": (
        text("servers.yaml", f"name: x\nself_hosted: {ALIASED_SERVERS}]\n"),
        ["tco", "--scenario"],
    ),
    "NaN cloud price": (
        text("nan.yaml", OWNED + "cloud: [{gpu: H100, price_per_gpu_hour: .nan}]\n"),
        ["tco", "--scenario"],
    ),
    "negative server price": (
        text("neg.yaml", "self_hosted:\n  - {gpu: H100, servers: 2, price: -300000}\n"),
        ["tco", "--scenario"],
    ),
    "unknown key (typo)": (
        text("typo.yaml", OWNED + "horizon_years: [3]\n"),
        ["tco", "--scenario"],
    ),
    "5 MB YAML on one line": (
        text("huge.yaml", OWNED + "name: " + "x" * (5 << 20) + "\n"),
        ["tco", "--scenario"],
    ),
    "YAML that is not UTF-8": (binary, ["replay", "--scenario"]),
    "gzip bomb (8 GiB in 20 MB)": (gzip_bomb, ["ingest"]),
    "5 MB single line CSV": (
        text("oneline.csv", "job_id,submit," + ",".join(["x"] * (5 << 19))),
        ["ingest"],
    ),
    "5 MB data line CSV": (
        text("longrow.csv", HEADER + "j1,2024-01-05," + "x" * (5 << 20) + "\n" + ROWS),
        ["ingest"],
    ),
    "10,000 columns x 300 rows": (wide, ["ingest"]),
}


def run_case(
    name: str, code: Path, cap_bytes: int, timeout_s: float
) -> tuple[int | str, float, float, str]:
    write, args = CASES[name]
    folder = OUT / name.replace(" ", "_").replace("/", "_")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "jobs.csv").write_text(HEADER + ROWS)
    (folder / "ok.yaml").write_text(f"name: ok\ntrace: {folder / 'jobs.csv'}\n{CLUSTER}")
    target = write(folder).name  # relative: the command runs in `folder`
    db = folder / "planner.duckdb"
    db.unlink(missing_ok=True)
    argv = [a.replace("SCENARIO", str(folder / "ok.yaml")) for a in args]
    command = [sys.executable, "-m", "planner", *argv, target, "--db", str(db)]
    env = {**os.environ, "PYTHONPATH": str(code)}
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", WRAPPER, str(cap_bytes), *command],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return (
            "timeout",
            time.perf_counter() - started,
            float("nan"),
            f"killed after {timeout_s:.0f} s",
        )
    seconds = time.perf_counter() - started
    *lines, peak = done.stderr.strip().splitlines() or ["0"]
    out = done.stdout.strip().splitlines()
    errors = [line for line in lines if line.startswith("error:")]
    # the CLI's one line, else a traceback's last line, else what it printed (it ran)
    message = (errors or lines[-1:] or out[:1] or [""])[0]
    return done.returncode, seconds, int(peak) / 1024, message


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="case names (substrings)")
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout whose planner runs")
    parser.add_argument("--mem-gib", type=float, default=4.0, help="address-space cap per case")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per case")
    args = parser.parse_args()
    names = [n for n in CASES if not args.only or any(o.lower() in n.lower() for o in args.only)]
    print(f"planner from {args.code}; cap {args.mem_gib:g} GiB, {args.timeout:g} s per case")
    print(f"{'case':<36} {'rc':>7} {'time s':>7} {'peak MiB':>8}  message")
    for name in names:
        rc, seconds, peak, message = run_case(
            name, args.code, int(args.mem_gib * (1 << 30)), args.timeout
        )
        shown = message if len(message) <= 150 else message[:150] + "…"
        print(f"{name:<36} {rc!s:>7} {seconds:7.1f} {peak:8.0f}  {shown}", flush=True)


if __name__ == "__main__":
    main()
