"""Hostile and odd uploads: time and memory stay bounded, and every decision is reported.

Limits are made small here (ReadLimits) so the hostile files stay small; nothing asserts a
wall-clock time: a test shows reading stopped early by giving a file whose end is damaged.
"""

import gzip
import json
import os
import random
import re
import tracemalloc
import zipfile
import zlib
from pathlib import Path

import duckdb
import numpy as np
import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.errors import MissingColumnError, TraceError, UnknownFormatError
from planner.ingest import IngestOptions, ReadLimits, open_jobs
from planner.ingest.limits import MAX_VALUE_CHARS, shorten
from planner.ingest.scan import ChunkSizer, RecordMeter
from planner.ingest.source import open_source
from planner.service.importer import import_file, rejected_rows
from tests.conftest import ingest, write

HEADER = "job_id,submit_time,duration_s,gpus,queue\n"
ROWS = "".join(f"j{i},2024-01-05 10:00:{i:02d},60,1,q\n" for i in range(3))
KIB = 1 << 10
MIB = 1 << 20


def long_line_gzip(path: Path, line_bytes: int, *, keep_fraction: float = 1.0) -> Path:
    """A gzip holding a header and one line of `line_bytes` x's, streamed through zlib;
    `keep_fraction` < 1 cuts the compressed data short, damaging its end."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip wrapping
    parts = [packer.compress(HEADER.encode())]
    block = b"x" * MIB
    parts.extend(packer.compress(block) for _ in range(line_bytes // MIB))
    parts.append(packer.compress(b"\n") + packer.flush())
    data = b"".join(parts)
    path.write_bytes(data[: int(len(data) * keep_fraction)])
    return path


# --- lines and unpacked size -------------------------------------------------------------


def test_a_long_line_in_a_small_gzip_stops_the_read_naming_line_and_limit(tmp_path: Path) -> None:
    path = long_line_gzip(tmp_path / "bomb.csv.gz", 32 * MIB)

    with pytest.raises(TraceError) as err:
        open_source(path, ReadLimits(max_line_bytes=64 * KIB))

    assert str(err.value).startswith("bomb.csv.gz: line 2 is longer than 64 KiB")


def test_reading_stops_at_the_long_line_before_the_end_of_the_file(tmp_path: Path) -> None:
    # The gzip's end is cut off: a reader that went on to the end would call it damaged.
    path = long_line_gzip(tmp_path / "cut.csv.gz", 32 * MIB, keep_fraction=0.5)

    with pytest.raises(TraceError, match="line 2 is longer than 64 KiB"):
        open_source(path, ReadLimits(max_line_bytes=64 * KIB))


def test_importing_a_long_line_never_holds_the_line_in_memory(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    path = long_line_gzip(tmp_path / "bomb.csv.gz", 32 * MIB)
    options = IngestOptions(limits=ReadLimits(max_line_bytes=64 * KIB))

    tracemalloc.start()
    try:
        with pytest.raises(TraceError, match="longer than 64 KiB"):
            import_file(con, path, options)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert peak < 16 * MIB  # the line is 32 MiB


def test_a_line_within_the_default_limit_is_read(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    note = "n" * (256 * KIB)
    path = write(tmp_path, "wide.csv", HEADER.strip() + ",comment\n" + f"j1,0,60,1,q,{note}\n")

    report = ingest(con, path)

    assert (report.rows, report.accepted) == (1, 1)


def test_a_gzip_that_unpacks_beyond_the_limit_stops_with_the_limit_named(
    tmp_path: Path,
) -> None:
    rows = "".join(f"j{i},{i},60,1,q\n" for i in range(200_000))
    path = tmp_path / "big.csv.gz"
    path.write_bytes(gzip.compress((HEADER + rows).encode()))

    with pytest.raises(TraceError) as err:
        open_source(path, ReadLimits(max_unpacked_bytes=1 * MIB))

    message = str(err.value)
    assert "unpacks to more than 1 MiB" in message
    assert "--max-unpacked-gib" in message


def test_the_unpacked_limit_does_not_apply_to_a_plain_file(tmp_path: Path) -> None:
    rows = "".join(f"j{i},{i},60,1,q\n" for i in range(200_000))
    path = write(tmp_path, "big.csv", HEADER + rows)

    source = open_source(path, ReadLimits(max_unpacked_bytes=1 * MIB))

    assert source.header == ("job_id", "submit_time", "duration_s", "gpus", "queue")


def test_a_workbook_that_unpacks_beyond_the_limit_is_refused(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["job_id", "submit_s", "duration_s", "gpus"])
    for i in range(2_000):
        sheet.append([f"j{i}", i, 60, 1])
    path = tmp_path / "jobs.xlsx"
    book.save(path)

    with pytest.raises(
        TraceError, match=r"jobs\.xlsx: the workbook unpacks to .* more than 64 KiB"
    ):
        open_source(path, ReadLimits(max_unpacked_bytes=64 * KIB))


def hand_made_workbook(path: Path, rows: int, *, past_excel: bool = False, sized: bool) -> Path:
    """A workbook of a header and `rows` job rows, as a hand-made or hostile file may be:
    `past_excel` adds a cell on row 1,048,577 (openpyxl refuses to write one, so the sheet's
    XML is edited), and an unsized sheet states no size, so only counting rows can stop it."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["job_id", "submit_s", "duration_s", "gpus"])
    for i in range(rows):
        sheet.append([f"j{i}", i, 60, 1])
    if past_excel:
        sheet.cell(row=1_048_576, column=1, value="late")
    tmp = path.with_suffix(".tmp.xlsx")
    book.save(tmp)
    with zipfile.ZipFile(tmp) as source, zipfile.ZipFile(path, "w") as target:
        for member in source.infolist():
            data = source.read(member)
            if member.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"1048576", b"1048577")
                data = data if sized else re.sub(rb"<dimension [^>]*/>", b"", data)
            target.writestr(member, data)
    tmp.unlink()
    return path


def test_a_sheet_stating_more_rows_than_excel_allows_is_refused_before_reading(
    tmp_path: Path,
) -> None:
    path = hand_made_workbook(tmp_path / "long.xlsx", 2, past_excel=True, sized=True)

    with pytest.raises(TraceError) as err:
        open_source(path)

    assert str(err.value) == (
        "long.xlsx: sheet 'Sheet' says it has 1,048,577 rows; a sheet may hold at most "
        "1,048,576 rows (Excel's limit), so this workbook was not saved by Excel. Export the "
        "job history as CSV (a .csv.gz keeps it small)"
    )


def test_a_sheet_that_states_no_size_stops_at_excels_row_limit(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    # Two job rows, then a cell on row 1,048,577: the reader must count, not trust a size.
    path = hand_made_workbook(tmp_path / "nosize.xlsx", 2, past_excel=True, sized=False)

    with pytest.raises(TraceError) as err:
        import_file(con, path, IngestOptions())

    assert "sheet 'Sheet' has more than 1,048,576 rows (reading stopped at row 1,048,577)" in (
        str(err.value)
    )
    assert con.execute("SELECT count(*) FROM traces").fetchone() == (0,)


def test_the_sheet_row_limit_counts_rows_as_they_stream(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    # A header and 150 rows are 151 sheet rows: 150 fit a limit of 151, not one of 150.
    path = hand_made_workbook(tmp_path / "jobs.xlsx", 150, sized=False)

    fits = import_file(con, path, IngestOptions(limits=ReadLimits(max_sheet_rows=151)))
    with pytest.raises(TraceError, match=r"more than 150 rows \(reading stopped at row 151\)"):
        open_jobs(path, IngestOptions(limits=ReadLimits(max_sheet_rows=150))).chunks().__next__()

    assert (fits.rows, fits.accepted) == (150, 150)


def test_an_unclosed_quote_running_past_the_limit_is_named(tmp_path: Path) -> None:
    body = 'j1,0,60,1,"starts here\n' + ("more text\n" * 20_000)
    path = write(tmp_path, "quote.csv", HEADER + body)

    with pytest.raises(TraceError) as err:
        open_source(path, ReadLimits(max_line_bytes=64 * KIB))

    assert "the row starting on line 2 is longer than 64 KiB" in str(err.value)
    assert "closing quote" in str(err.value)


def test_stray_quotes_inside_cells_do_not_count_as_quoted_lines(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    # A quote inside an unquoted cell is a plain character to the parser (27" monitor).
    rows = "".join(f'j{i},{i},60,1,27" screen {i}\n' for i in range(5_000))
    path = write(tmp_path, "inches.csv", HEADER + rows)

    report = import_file(con, path, IngestOptions(limits=ReadLimits(max_line_bytes=4 * KIB)))

    assert (report.rows, report.accepted) == (5_000, 5_000)


def reference_records(data: bytes, delimiter: int) -> list[int]:
    """Record lengths by a byte-at-a-time model of pandas' C tokenizer."""
    lengths: list[int] = []
    state, size = "start", 0
    for i, byte in enumerate(data):
        size += 1
        is_break = byte == 10 or (byte == 13 and data[i + 1 : i + 2] != b"\n")
        if state == "quoted":
            state = "quote_in_quoted" if byte == 34 else "quoted"
            continue
        if state == "quote_in_quoted" and byte == 34:
            state = "quoted"
        elif is_break:
            lengths.append(size)
            state, size = "start", 0
        elif byte == delimiter:
            state = "start"
        elif state == "start" and byte == 34:
            state = "quoted"
        else:
            state = "field"
    return [*lengths, size] if size else lengths


@settings(max_examples=300, deadline=None)
@given(
    data=st.lists(st.sampled_from(list(b'"",;\n\rab')), max_size=60).map(bytes),
    cuts=st.lists(st.integers(1, 7), min_size=1, max_size=20),
    delimiter=st.sampled_from([",", ";"]),
)
def test_record_meter_splits_records_as_the_tokenizer_does(
    data: bytes, cuts: list[int], delimiter: str
) -> None:
    meter = RecordMeter(delimiter, max_record_bytes=1 << 30, file="x.csv")
    got: list[int] = []
    at, turn = 0, 0
    while at < len(data):
        step = cuts[turn % len(cuts)]
        got.extend(meter.feed(data[at : at + step]).tolist())
        at, turn = at + step, turn + 1
    got.extend(meter.finish().tolist())

    assert got == reference_records(data, ord(delimiter))


def test_chunks_shrink_where_rows_are_wide() -> None:
    sizer = ChunkSizer()
    sizer.add(np.full(10_000, 100, dtype=np.int64))
    sizer.add(np.full(50, MIB, dtype=np.int64))

    rows = sizer.rows(16 * MIB)

    assert rows * MIB <= 16 * MIB
    assert rows >= 6


# --- long cells ----------------------------------------------------------------------------


def test_a_long_time_value_rejects_its_row_naming_row_and_column(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    hostile = "2024-01-05 " + "1" * (200 * KIB)
    after = ROWS.replace("j", "k")
    path = write(tmp_path, "t.csv", HEADER + ROWS + f"jx,{hostile},60,1,q\n" + after)

    report = ingest(con, path)

    assert (report.accepted, report.rejected_by_reason) == (6, {"value_too_long": 1})
    example = report.examples["value_too_long"][0]
    assert (example.row, example.column) == (5, "submit_time")
    assert f"longer than {MAX_VALUE_CHARS} characters" in example.message
    assert len(example.value) < 120
    stored = rejected_rows(con, report.trace_id)
    assert len(stored.loc[0, "value"]) < 120
    assert json.loads(stored.loc[0, "raw_json"])["submit_time"] == hostile


def test_a_megabyte_time_value_stops_at_the_line_limit(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    hostile = "1" * 1_280_000
    path = write(tmp_path, "t.csv", HEADER + f"j1,{hostile},60,1,q\n")

    with pytest.raises(TraceError, match="t.csv: line 2 is longer than 1 MiB"):
        ingest(con, path)


@pytest.mark.parametrize(
    ("column", "row"),
    [
        ("duration_s", "jx,2024-01-05 10:00:00,{long},1,q\n"),
        ("gpus", "jx,2024-01-05 10:00:00,60,{long},q\n"),
    ],
)
def test_long_numbers_reject_their_row(
    tmp_path: Path, con: duckdb.DuckDBPyConnection, column: str, row: str
) -> None:
    path = write(tmp_path, "n.csv", HEADER + ROWS + row.format(long="9" * 5_000))

    report = ingest(con, path)

    assert report.rejected_by_reason == {"value_too_long": 1}
    assert report.examples["value_too_long"][0].column == column


# --- time zones ------------------------------------------------------------------------------


def test_local_times_skipped_or_repeated_by_dst_say_so_with_the_zone(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = (
        HEADER
        + "gap,2024-03-10 02:30:00,60,1,q\n"
        + "twice,2024-11-03 01:30:00,60,1,q\n"
        + "fine,2024-11-03 03:30:00,60,1,q\n"
    )

    report = ingest(con, write(tmp_path, "dst.csv", text), tz="America/New_York")

    assert report.rejected_by_reason == {"nonexistent_time": 1, "ambiguous_time": 1}
    gap = report.examples["nonexistent_time"][0]
    twice = report.examples["ambiguous_time"][0]
    assert (gap.row, gap.column, twice.row, twice.column) == (2, "submit_time", 3, "submit_time")
    assert "does not exist in America/New_York" in gap.message
    assert "happens twice in America/New_York" in twice.message


# --- encodings, headers, ids -----------------------------------------------------------------


def test_utf8_lines_in_a_gbk_file_are_reported(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    gbk = (HEADER + "j1,0,60,1,训练\n").encode("gb18030")
    utf8 = "j2,1,60,1,推理\nj3,2,60,1,推理\n".encode()
    path = tmp_path / "mixed.csv"
    path.write_bytes(gbk + utf8)

    report = ingest(con, path)

    assert report.accepted == 3
    assert len(report.warnings) == 1
    assert "2 lines are UTF-8 (lines 3, 4)" in report.warnings[0]
    assert "garbled" in report.warnings[0]
    assert any("warning: mixed encodings" in line for line in report.summary_lines())


def test_a_pure_gbk_file_has_no_warning(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    path = write(tmp_path, "gbk.csv", HEADER + "j1,0,60,1,训练\n", encoding="gb18030")

    report = ingest(con, path)

    assert report.warnings == []


def test_a_megabyte_header_gives_a_short_message(tmp_path: Path) -> None:
    path = write(tmp_path, "wide.csv", "x" * (5 * MIB) + "\n1\n")

    with pytest.raises(TraceError) as err:
        open_source(path)

    assert "header) is longer than 64 KiB" in str(err.value)
    assert len(str(err.value)) < 300


def test_long_column_names_are_cut_short_in_messages(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    header = ",".join(f"{c}{'y' * 5_000}" for c in "abcdefgh")
    path = write(tmp_path, "odd.csv", header + "\n1,2,3,4,5,6,7,8\n")

    with pytest.raises(UnknownFormatError) as err:
        ingest(con, path)

    assert "(5,001 characters)" in str(err.value)
    assert len(str(err.value)) < 2_000


def test_a_long_map_column_is_cut_short(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    path = write(tmp_path, "j.csv", HEADER + ROWS)

    with pytest.raises(MissingColumnError) as err:
        ingest(con, path, mapping={"gpus": "z" * 100_000})

    assert len(str(err.value)) < 1_000


def test_shorten_escapes_controls_and_states_the_length() -> None:
    assert shorten("a\x00b") == "a\\x00b"
    assert shorten("x" * 100, 10) == "xxxxxxxxxx…(100 characters)"


def test_duplicate_column_names_are_reported_and_the_second_can_be_mapped(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = "job_id,submit_time,duration_s,gpus,gpus\nj1,2024-01-05 10:00:00,60,1,4\n"
    path = write(tmp_path, "dup.csv", text)

    first = ingest(con, path)
    second = ingest(con, path, mapping={"gpus": "gpus.1"})

    assert first.column_mapping["gpus"] == "gpus"
    assert "columns 4 and 5 are both 'gpus'" in first.warnings[0]
    assert "'gpus.1'" in first.warnings[0]
    assert (first.gpu_total, second.gpu_total) == (1.0, 4.0)


def test_columns_that_spell_one_name_differently_are_reported(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = "job_id,Submit Time,submit_time,duration_s,gpus\nj1,0,5,60,1\n"

    report = ingest(con, write(tmp_path, "spell.csv", text))

    assert report.column_mapping["submit"] == "Submit Time"
    assert report.warnings == [
        "columns 'Submit Time', 'submit_time' all name the field 'submit'; the first is used "
        "(--map submit=COLUMN picks another)"
    ]


def test_duplicate_column_names_in_a_workbook_are_read(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["job_id", "submit_s", "duration_s", "gpus", "gpus"])
    sheet.append(["j1", 0, 60, 2, 4])
    path = tmp_path / "dup.xlsx"
    book.save(path)

    report = ingest(con, path)

    assert (report.accepted, report.gpu_total) == (1, 2.0)
    assert "are both 'gpus'" in report.warnings[0]


def test_header_names_with_spaces_and_leading_blank_lines_are_read(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = "\n\njob_id, submit_s , duration_s,gpus\nj1,0,60,2\n\nj2,5,60,1\n"

    report = ingest(con, write(tmp_path, "spaces.csv", text))

    assert (report.rows, report.accepted, report.gpu_total) == (2, 2, 3.0)
    rows = con.execute(
        "SELECT row_number FROM jobs WHERE trace_id = ? ORDER BY row_number", [report.trace_id]
    ).fetchall()
    assert rows == [(4,), (6,)]


def test_control_characters_are_removed_from_ids_and_names_and_counted(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    filler = "".join(f"f{i},{i},60,1,q\n" for i in range(5_000))  # NUL past the first 64 KiB
    text = HEADER + filler + "a\x00b,1,60,1,q\x07x\nc\x1bd,2,60,1,ok\n"

    report = ingest(con, write(tmp_path, "ctl.csv", text))

    assert report.flagged["control_chars_removed"] == 2
    stored = con.execute(
        "SELECT job_id, queue FROM jobs WHERE trace_id = ? AND job_id IN ('ab', 'cd') "
        "ORDER BY job_id",
        [report.trace_id],
    ).fetchall()
    assert stored == [("ab", "qx"), ("cd", "ok")]


def test_a_trace_name_with_control_characters_is_refused(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    path = write(tmp_path, "j.csv", HEADER + ROWS)

    with pytest.raises(TraceError, match=r"the name 'bad\\x00name' holds control characters"):
        import_file(con, path, IngestOptions(), "bad\x00name")

    assert con.execute("SELECT count(*) FROM traces").fetchone() == (0,)


# --- what the path is ------------------------------------------------------------------------


def test_a_directory_is_named_as_one(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match="is a directory"):
        open_source(tmp_path)


def test_a_fifo_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)

    with pytest.raises(TraceError, match="is not a regular file"):
        open_source(fifo)


def test_a_missing_file_is_still_no_such_file(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match="no such file"):
        open_source(tmp_path / "absent.csv")


def test_random_quote_heavy_files_import_or_fail_cleanly(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    rng = random.Random(7)
    lines = [HEADER.strip()]
    for i in range(3_000):
        note = "".join(rng.choice('ab"",\n') for _ in range(rng.randint(0, 12)))
        lines.append(f'j{i},{i},60,1,"{note.replace(chr(34), chr(34) * 2)}"')
    path = write(tmp_path, "quotes.csv", "\n".join(lines) + "\n")

    report = import_file(con, path, IngestOptions(limits=ReadLimits(max_line_bytes=1 * KIB)))

    assert report.accepted == 3_000


def test_a_run_time_over_a_century_is_rejected_naming_its_column(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    # milliseconds given as seconds: 1.7e12 s would make the replay simulate 54,000 years
    path = write(tmp_path, "ms.csv", HEADER + ROWS + "jx,2024-01-05 10:00:09,1700000000000,1,q\n")

    report = ingest(con, path)

    assert (report.accepted, report.rejected_by_reason) == (3, {"implausible_value": 1})
    example = report.examples["implausible_value"][0]
    assert (example.row, example.column) == (5, "duration_s")
    assert "over 100 years" in example.message
