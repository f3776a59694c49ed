"""Peak memory and time of `planner ingest` on issue 31's bombs under the limits.

Usage: python bench/bench_ingest_bombs.py [--mib N] [--code DIR]

Cases: a gzip of one short row repeated to N MiB (every row a duplicate job id), a gzip of
the same rows with unique ids, and a 0.3 MB workbook whose sheet states 8,000,000 rows.
Files go to bench/out/bombs/ and are deleted after; each import runs in its own process
against a fresh database, so the peak RSS printed is that import's. `--code DIR` runs
another checkout's planner (e.g. main before this change) for a before/after table.

Measured (2 cores shared with other sessions, so times are loose), --mib 64, before -> after:
one row repeated (0.16 MiB file, 2.34M rows): 99.6 s, 1,812 MiB -> 50.5 s, 1,060 MiB;
unique rows (4.3 MiB, 1.92M rows): 71.7 s, 947 MiB -> 25.2 s, 966 MiB (unchanged: the
DuckDB staging tables still grow about 0.4 KiB per row); the workbook stating 8,000,000
rows: streamed and imported in 22.3 s, 199 MiB -> refused in 3.4 s, 180 MiB.

Then each chunk was found kept alive until the import's commit (a frame registered as a
view inside a transaction stays referenced by DuckDB 2.0.1); chunks are now appended with
`from_df().insert_into`, and DuckDB's staging spills to disk past its 384 MB limit. Before
-> after (load 9-11 on the 2 cores): --mib 64, one row repeated: 1,089 -> 656 MiB; unique
rows (1.92M): 979 -> 615 MiB; --mib 256 unique (17 MiB file, 7.5M rows): 2,176 -> 697 MiB
(313.8 s -> 420.8 s, the load varying). What is left grows only until DuckDB reaches its
limit (with PLANNER_DB_MEMORY=64MB: 305 MiB at 200,000 rows, 330 MiB at 800,000).
"""

import argparse
import zipfile
import zlib
from pathlib import Path

# the peak RSS of `planner ingest` alone, measured in a child process
from bench_hostile_ingest import HEADER, MIB
from bench_hostile_ingest import run as measured_ingest

OUT = Path(__file__).resolve().parent / "out" / "bombs"
ROOT = Path(__file__).resolve().parent.parent


def rows_gzip(path: Path, mib: int, *, unique: bool) -> None:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip wrapping
    with path.open("wb") as handle:
        handle.write(packer.compress(HEADER))
        written = n = 0
        while written < mib * MIB:
            ids = [b"j%d" % (n + i) if unique else b"r" for i in range(30_000)]
            block = b"".join(b"%s,2024-01-05 10:00:00,60,1,q\n" % job for job in ids)
            handle.write(packer.compress(block))
            written, n = written + len(block), n + len(ids)
        handle.write(packer.flush())


def long_sheet(path: Path) -> None:
    """A sheet stating A1:D8000000 with a header and one row (openpyxl writes at most
    1,048,576 rows, so the XML is written by hand)."""
    sheet = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<dimension ref="A1:D8000000"/><sheetData>'
        f'<row r="1">{_cells(1, "job_id", "submit_s", "duration_s", "gpus")}</row>'
        f'<row r="8000000">{_cells(8_000_000, "j", "0", "60", "1")}</row>'
        "</sheetData></worksheet>"
    )
    import openpyxl  # noqa: PLC0415 -- only this case needs it

    book = openpyxl.Workbook()
    book.save(path)
    with zipfile.ZipFile(path) as source:
        members = {m.filename: source.read(m) for m in source.infolist()}
    members["xl/worksheets/sheet1.xml"] = sheet.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in members.items():
            target.writestr(name, data)


def _cells(row: int, *texts: str) -> str:
    return "".join(
        f'<c r="{col}{row}" t="inlineStr"><is><t>{text}</t></is></c>'
        for col, text in zip("ABCD", texts, strict=True)
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mib", type=int, default=64, help="unpacked size of the gzip cases")
    parser.add_argument("--only", choices=["repeated", "unique", "xlsx"], nargs="*")
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout whose planner runs")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    cases = {
        f"gzip, one row repeated to {args.mib} MiB": (
            "repeated.csv.gz",
            lambda p: rows_gzip(p, args.mib, unique=False),
        ),
        f"gzip, {args.mib} MiB of unique rows": (
            "unique.csv.gz",
            lambda p: rows_gzip(p, args.mib, unique=True),
        ),
        "xlsx stating 8,000,000 rows": ("xlsx_long.xlsx", long_sheet),
    }
    for title, (name, write) in cases.items():
        if args.only and not any(name.startswith(only[:4]) for only in args.only):
            continue
        path = OUT / name
        write(path)
        seconds, peak, _, outcome = measured_ingest(path, [], args.code.resolve())
        size = path.stat().st_size / MIB
        print(f"{title} ({size:,.2f} MiB file): {seconds:.1f} s, peak RSS {peak:,.0f} MiB")
        print(f"    {outcome}")
        path.unlink()


if __name__ == "__main__":
    main()
