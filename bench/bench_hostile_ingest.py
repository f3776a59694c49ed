"""Time and peak memory of `planner ingest` on hostile files that are small to upload.

Usage: python bench/bench_hostile_ingest.py [--only NAME ...] [--code DIR] [--keep]

Cases: a 0.5 MB, 1.28 MB and 5 MB value in a time column; a 6-7 MB gzip holding one
1.5 GB line; a gzip of ordinary short rows unpacking to 1.5 GiB, imported with
`--max-unpacked-gib 1`. The files are written under bench/out/hostile/ (the gzip files
streamed through zlib, so this script stays light). Each import runs in its own process
against a fresh database, so the peak RSS printed is that import's alone. `--code DIR` runs
another checkout's planner (e.g. the commit before the limits) for a before/after table.
"""

import argparse
import os
import subprocess
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out" / "hostile"
ROOT = Path(__file__).resolve().parent.parent
HEADER = b"job_id,submit_time,duration_s,gpus,queue\n"
MIB = 1 << 20
# Runs a command and reports the peak RSS (KiB) of that command alone on its last stderr line.
PEAK_RSS_WRAPPER = (
    "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
    "sys.exit(done.returncode)"
)


def time_value(value_bytes: int) -> Callable[[Path], None]:
    """A few good rows around one row whose submit time is `value_bytes` of digits."""

    def write(path: Path) -> None:
        rows = b"".join(b"j%d,2024-01-05 10:00:%02d,60,1,q\n" % (i, i) for i in range(5))
        hostile = b"jx,2024-01-05 " + b"1" * value_bytes + b",60,1,q\n"
        path.write_bytes(HEADER + rows + hostile + rows.replace(b"j", b"k"))

    return write


def gzip_stream(path: Path, blocks: Callable[[], list[bytes]], repeat: int) -> None:
    """Write a gzip of HEADER, then `repeat` times the blocks, then a line break."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip wrapping
    with path.open("wb") as handle:
        handle.write(packer.compress(HEADER))
        for _ in range(repeat):
            for block in blocks():
                handle.write(packer.compress(block))
        handle.write(packer.compress(b"\n") + packer.flush())


def one_long_line(path: Path) -> None:
    gzip_stream(path, lambda: [b"9" * MIB], repeat=1_430)  # 1.5 GB


def many_short_rows(path: Path) -> None:
    rows = b"".join(b"r,2024-01-05 10:00:00,60,1,q\n" for _ in range(MIB // 28))
    gzip_stream(path, lambda: [rows], repeat=1_536)  # 1.5 GiB; ids repeat, that is fine


CASES: dict[str, tuple[str, str, Callable[[Path], None], list[str]]] = {
    "time-0.5MB": ("0.5 MB value in a time column", "time_500k.csv", time_value(500_000), []),
    "time-1.28MB": ("1.28 MB value in a time column", "time_1m.csv", time_value(1_280_000), []),
    "time-5MB": ("5 MB value in a time column", "time_5m.csv", time_value(5_000_000), []),
    "gzip-line": ("gzip, one 1.5 GB line", "line_bomb.csv.gz", one_long_line, []),
    "gzip-size": (
        "gzip, 1.5 GiB of short rows, --max-unpacked-gib 1",
        "size_bomb.csv.gz",
        many_short_rows,
        ["--max-unpacked-gib", "1"],
    ),
}


def run(path: Path, extra: list[str], code: Path) -> tuple[float, float, int, str]:
    OUT.mkdir(parents=True, exist_ok=True)
    db = OUT / "bench.duckdb"
    db.unlink(missing_ok=True)
    env = {**os.environ, "PLANNER_DB": str(db), "PYTHONPATH": str(code)}
    command = [sys.executable, "-m", "planner", "ingest", str(path), *extra]
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PEAK_RSS_WRAPPER, *command],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=code,
    )
    seconds = time.perf_counter() - started
    err_lines = done.stderr.strip().splitlines()
    peak_mib = int(err_lines[-1]) / 1024
    if done.returncode == 0:
        lines = done.stdout.splitlines()
        outcome = " | ".join(line.strip() for line in lines[1:4])
    else:
        outcome = (err_lines[-2] if len(err_lines) > 1 else "(no message)")[:300]
    db.unlink(missing_ok=True)
    return seconds, peak_mib, done.returncode, outcome


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", choices=list(CASES), help="run only these cases")
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout whose planner runs")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.only or list(CASES):
        title, file_name, write, extra = CASES[name]
        path = OUT / file_name
        if not path.exists():
            write(path)
        seconds, peak_mib, code, outcome = run(path, extra, args.code.resolve())
        size = path.stat().st_size / MIB
        print(f"{title} ({size:,.1f} MiB file): {seconds:.1f} s, peak RSS {peak_mib:,.0f} MiB")
        print(f"    exit {code}: {outcome}")
        if not args.keep:
            path.unlink()


if __name__ == "__main__":
    main()
