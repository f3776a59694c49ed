"""Open an export whatever its wrapping: gzip, Excel, encoding, delimiter.

`open_source` looks at the bytes (hash, compression, encoding, delimiter, header) and
streams them once through `scan`, which stops at a line or unpacked size beyond the limits;
`iter_frames` then streams the records as string DataFrames of bounded size, each with a
`__row__` column holding the spreadsheet row number (the header is row 1; blank lines
before it count). Nothing is converted here: every cell stays text.
"""

import codecs
import datetime as dt
import hashlib
import re
import stat
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pandas as pd

from planner.core.errors import TraceError
from planner.ingest.header import (
    MAX_HEADER_BYTES,
    check_width,
    detect_delimiter,
    header_line,
    unique_header,
)
from planner.ingest.limits import (
    CHUNK_BYTES,
    CHUNK_ROWS,
    EXCEL_MAX_ROWS,
    UNPACKED_ENV,
    ReadLimits,
    shorten,
    size_text,
)
from planner.ingest.notes import ingest_note
from planner.ingest.scan import TextScan, UndecodableError, open_binary, scan_text

ROW = "__row__"
SAMPLE_BYTES = MAX_HEADER_BYTES

_GZIP_MAGIC = b"\x1f\x8b"
_ZIP_MAGIC = b"PK\x03\x04"
_BAD_LINE = re.compile(r"Skipping line (\d+): (.*)")


@dataclass(frozen=True, slots=True)
class Source:
    """What a file is, learned from its bytes; enough to stream it."""

    path: Path
    sha256: str
    size_bytes: int
    kind: Literal["text", "xlsx"]
    compression: Literal["gzip"] | None
    encoding: str
    delimiter: str
    header: tuple[str, ...]
    header_row: int = 0
    """Blank lines before the header."""
    rows_per_chunk: int = CHUNK_ROWS
    """Most rows a parser chunk may hold and stay near CHUNK_BYTES, measured on the file."""
    notes: tuple[str, ...] = ()
    """What the reader had to decide that the user should know (duplicate column names,
    lines in another encoding)."""
    max_sheet_rows: int = EXCEL_MAX_ROWS
    """A workbook's sheet past this many rows is refused as it streams (ReadLimits')."""

    @property
    def name(self) -> str:
        return self.path.name

    def chunk_rows(self, limit: int) -> int:
        """Rows per chunk: `limit`, fewer where rows are wide."""
        return min(limit, self.rows_per_chunk)


@dataclass(slots=True)
class LineProblems:
    """Lines the CSV parser could not split into the header's columns, and blank lines."""

    bad_lines: list[tuple[int, str]] = field(default_factory=list)
    blank_lines: int = 0


def open_source(path: Path, limits: ReadLimits | None = None) -> Source:
    """Inspect `path`; raise TraceError if it is empty, binary, undecodable or beyond
    `limits` (a line too long, too much unpacked data)."""
    limits = limits or ReadLimits()
    _check_regular_file(path)
    size, digest, head = _hash_and_head(path)
    if size == 0:
        raise TraceError("the file is empty; export the job history again", file=path.name).coded(
            "empty_file", file=path.name
        )
    if head.startswith(_ZIP_MAGIC):
        return _open_xlsx(path, digest, size, limits)
    compression: Literal["gzip"] | None = "gzip" if head.startswith(_GZIP_MAGIC) else None
    layout = _read_layout(path, compression, _sample(path, compression), limits)
    header, renamed = unique_header(layout.names)
    return Source(
        path,
        digest,
        size,
        "text",
        compression,
        layout.encoding,
        layout.delimiter,
        header,
        layout.header_row,
        layout.scan.rows_per_chunk,
        (*renamed, *layout.notes),
    )


def iter_frames(
    source: Source, problems: LineProblems, chunk_rows: int = CHUNK_ROWS
) -> Iterator[pd.DataFrame]:
    """Stream records as all-string frames with a `__row__` column; blank lines dropped."""
    if source.kind == "xlsx":
        yield from _iter_xlsx(source, problems, chunk_rows)
        return
    yield from _iter_text(source, problems, chunk_rows)


def _check_regular_file(path: Path) -> None:
    """TraceError saying what `path` is when it is not a file we can read."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise TraceError("no such file", file=str(path)).coded(
            "no_such_file", file=str(path)
        ) from None
    except OSError as err:
        raise TraceError(f"cannot be opened ({err.strerror})", file=str(path)).coded(
            "cannot_open", file=str(path), reason=str(err.strerror)
        ) from err
    if stat.S_ISDIR(mode):
        raise TraceError(
            "is a directory; give the path of a CSV, TSV or .xlsx file", file=str(path)
        ).coded("is_directory", file=str(path))
    if not stat.S_ISREG(mode):
        raise TraceError(
            "is not a regular file (a pipe, socket or device); save the export to a file "
            "and give that file's path",
            file=str(path),
        ).coded("not_regular_file", file=str(path))


def _hash_and_head(path: Path) -> tuple[int, str, bytes]:
    digest = hashlib.sha256()
    size = 0
    head = b""
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            if not head:
                head = block[:16]
            digest.update(block)
            size += len(block)
    return size, digest.hexdigest(), head


def _sample(path: Path, compression: Literal["gzip"] | None) -> bytes:
    try:
        with open_binary(path, compression) as handle:
            sample = handle.read(SAMPLE_BYTES)
    except (OSError, EOFError) as err:
        raise TraceError(f"the gzip data is damaged ({err})", file=path.name).coded(
            "gzip_damaged", file=path.name
        ) from err
    if not sample:
        raise TraceError("the compressed file is empty", file=path.name).coded(
            "compressed_empty", file=path.name
        )
    if sample.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return sample
    if b"\x00" in sample or _control_share(sample) > 0.05:
        raise TraceError(
            "this is a binary file, not a CSV/TSV text export or an .xlsx workbook; "
            "export the job history as CSV, TSV or Excel",
            file=path.name,
        ).coded("binary_file", file=path.name)
    return sample


def _control_share(sample: bytes) -> float:
    controls = sum(1 for byte in sample if byte < 32 and byte not in (9, 10, 13))
    return controls / len(sample)


@dataclass(frozen=True, slots=True)
class _Layout:
    encoding: str
    delimiter: str
    header_row: int
    names: list[str]
    scan: TextScan
    notes: tuple[str, ...]


def _read_layout(
    path: Path, compression: Literal["gzip"] | None, sample: bytes, limits: ReadLimits
) -> _Layout:
    """Encoding (UTF-16 by BOM, else UTF-8 with or without BOM, else GB18030, checked on
    every byte), delimiter and header of a text file, and its scan within `limits`."""
    if sample.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        candidates: tuple[str, ...] = ("utf-16",)
    else:
        candidates = ("utf-8-sig", "gb18030")
    first_error: UndecodableError | None = None
    for encoding in candidates:
        text = sample.decode(encoding, errors="ignore")
        if not text.strip():
            raise TraceError("the file holds no text (only blank lines)", file=path.name).coded(
                "no_text", file=path.name
            )
        delimiter = detect_delimiter(text)
        whole = len(sample) < SAMPLE_BYTES
        header_row, names = header_line(text, delimiter, whole=whole, file=path.name)
        check_width(names, file=path.name)
        try:
            scan = scan_text(
                path,
                compression=compression,
                encoding=encoding,
                delimiter=delimiter,
                limits=limits,
                chunk_bytes=CHUNK_BYTES,
            )
        except UndecodableError as err:
            first_error = first_error or err
            continue
        notes = _encoding_notes(scan, first_error.line if first_error else 0)
        return _Layout(encoding, delimiter, header_row, names, scan, notes)
    raise _undecodable(path.name, first_error or UndecodableError(""))


def _undecodable(file: str, first: UndecodableError) -> TraceError:
    """Neither encoding fits; `first` is where UTF-8 failed (the first encoding tried)."""
    code = "not_utf8_or_gbk" if first.line else "not_utf8_or_gbk_end"
    return TraceError(
        f"the text is neither UTF-8 nor GBK/GB18030 ({first.problem}); re-save the file as "
        "UTF-8 (in Excel: Save As, 'CSV UTF-8')",
        file=file,
    ).coded(code, file=file, line=first.line)


def _encoding_notes(scan: TextScan, utf8_line: int) -> tuple[str, ...]:
    """The warning of a file read as GBK that has UTF-8 lines; `utf8_line` is where UTF-8
    failed (0: the file ends in the middle of a character)."""
    if not scan.utf8_line_count:
        return ()
    shown = ", ".join(f"{n:,}" for n in scan.utf8_lines)
    more = ", ..." if scan.utf8_line_count > len(scan.utf8_lines) else ""
    said = {"count": f"{scan.utf8_line_count:,}", "lines": f"{shown}{more}"}
    if not utf8_line:
        return (ingest_note("mixed_encodings_end", **said),)
    return (ingest_note("mixed_encodings", line=f"{utf8_line:,}", **said),)


def _iter_text(source: Source, problems: LineProblems, chunk_rows: int) -> Iterator[pd.DataFrame]:
    next_line = source.header_row + 2
    chunks = _read_csv_chunks(source, chunk_rows)
    while True:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                frame = next(chunks)
            except StopIteration:
                return
            except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as err:
                raise _parser_error(source.name, err) from err
        skipped = _record_bad_lines(caught, problems)
        frame, next_line = _number_rows(frame, next_line, skipped, problems)
        if not frame.empty:
            yield frame


def _read_csv_chunks(source: Source, chunk_rows: int) -> Iterator[pd.DataFrame]:
    """pandas' C parser in chunks; it reads the first chunk already when it is built."""
    reader = pd.read_csv(
        source.path,
        sep=source.delimiter,
        encoding=source.encoding,
        compression=source.compression,
        skiprows=source.header_row,
        header=0,
        names=list(source.header),
        index_col=False,
        dtype=str,
        keep_default_na=False,
        na_filter=False,
        skip_blank_lines=False,
        on_bad_lines="warn",
        chunksize=chunk_rows,
        engine="c",
    )
    with reader:
        yield from reader


def _parser_error(file: str, err: Exception) -> TraceError:
    text = str(err)
    if "EOF inside string" in text:
        row = text.rsplit("row", 1)[-1].strip()
        return TraceError(
            f'a quote (") opened on row {row} is never closed, so the rest of the file '
            "would be one cell; fix or remove that quote and export again",
            file=file,
        ).coded("quote_never_closed", file=file, row=row)
    reason = shorten(text, 200)
    return TraceError(f"cannot be read as a table: {reason}", file=file).coded(
        "not_a_table", file=file, reason=reason
    )


def _record_bad_lines(caught: list[warnings.WarningMessage], problems: LineProblems) -> list[int]:
    skipped: list[int] = []
    for warning in caught:
        for match in _BAD_LINE.finditer(str(warning.message)):
            skipped.append(int(match.group(1)))
            problems.bad_lines.append((int(match.group(1)), match.group(2).strip()))
    return sorted(skipped)


def _number_rows(
    frame: pd.DataFrame, next_line: int, skipped: list[int], problems: LineProblems
) -> tuple[pd.DataFrame, int]:
    """Give each record its spreadsheet row, stepping over lines the parser skipped."""
    rows: list[int] = []
    pending = iter(skipped)
    skip = next(pending, None)
    line = next_line
    for _ in range(len(frame)):
        while skip is not None and skip <= line:
            line += 1 if skip == line else 0
            skip = next(pending, None)
        rows.append(line)
        line += 1
    frame = frame.assign(**{ROW: rows})
    cells = frame.drop(columns=[ROW])
    blank = (cells == "").all(axis=1)
    problems.blank_lines += int(blank.sum())
    return frame.loc[~blank].reset_index(drop=True), line


def _open_xlsx(path: Path, digest: str, size: int, limits: ReadLimits) -> Source:
    _check_unpacked_size(path, limits.max_unpacked_bytes)
    header = next(_xlsx_rows(path, limits.max_sheet_rows), None)
    if header is None:
        raise TraceError("the workbook's first sheet is empty", file=path.name).coded(
            "workbook_empty", file=path.name
        )
    check_width(header[1], file=path.name)
    names, notes = unique_header(["" if v is None else str(v).strip() for v in header[1]])
    return Source(
        path,
        digest,
        size,
        "xlsx",
        None,
        "xlsx",
        "",
        names,
        notes=notes,
        max_sheet_rows=limits.max_sheet_rows,
    )


def _check_unpacked_size(path: Path, limit: int) -> None:
    """A workbook is a zip archive: refuse one whose members unpack beyond `limit`.

    The sizes are the archive's own; zipfile stops reading a member at its stated size.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, OSError):
        return  # openpyxl reports it as no workbook
    if unpacked > limit:
        raise TraceError(
            f"the workbook unpacks to {size_text(unpacked)}, more than {size_text(limit)}; "
            "that is far beyond any job history we support. If it is real, export it as "
            f"CSV (or raise the limit: planner ingest --max-unpacked-gib N; for the app, set "
            f"{UNPACKED_ENV}=N where it runs)",
            file=path.name,
        ).coded(
            "workbook_too_big",
            file=path.name,
            unpacked=size_text(unpacked),
            limit=size_text(limit),
            variable=UNPACKED_ENV,
        )


def _xlsx_rows(path: Path, max_rows: int) -> Iterator[tuple[int, tuple[object, ...]]]:
    """(spreadsheet row, values) of the first sheet's non-empty rows; TraceError once the
    sheet's stated size or its rows as they stream pass `max_rows`."""
    import openpyxl  # noqa: PLC0415 -- only Excel uploads pay for loading it
    from openpyxl.utils.exceptions import InvalidFileException  # noqa: PLC0415

    handle = path.open("rb")  # a file object, so a workbook renamed .csv still opens
    try:
        book = openpyxl.load_workbook(handle, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, InvalidFileException) as err:
        handle.close()
        raise TraceError(
            "this is a zip archive but not an Excel .xlsx workbook; export the job history "
            "as CSV, TSV or .xlsx",
            file=path.name,
        ).coded("zip_not_xlsx", file=path.name) from err
    try:
        sheet = book.worksheets[0]
        if (sheet.max_row or 0) > max_rows:  # the size the sheet states (it may be absent)
            raise _too_many_rows(path.name, sheet.title, max_rows, stated=sheet.max_row)
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            if number > max_rows:  # a sheet may state no size, or a false one
                raise _too_many_rows(path.name, sheet.title, max_rows)
            if any(value is not None and str(value).strip() for value in values):
                yield number, tuple(values)
    finally:
        book.close()
        handle.close()


def _too_many_rows(file: str, sheet: str, limit: int, stated: int | None = None) -> TraceError:
    """A sheet longer than Excel allows (a factory, so the raise stays at the call site)."""
    found = (
        f"says it has {stated:,} rows"
        if stated
        else f"has more than {limit:,} rows (reading stopped at row {limit + 1:,})"
    )
    excel = " (Excel's limit)" if limit == EXCEL_MAX_ROWS else ""
    return TraceError(
        f"sheet '{shorten(sheet)}' {found}; a sheet may hold at most {limit:,} rows{excel}, "
        "so this workbook was not saved by Excel. Export the job history as CSV (a .csv.gz "
        "keeps it small)",
        file=file,
    ).coded(
        "sheet_too_many_rows" if stated else "sheet_rows_past_limit",
        file=file,
        sheet=shorten(sheet),
        rows=stated or 0,
        limit=limit,
    )


def _iter_xlsx(source: Source, problems: LineProblems, chunk_rows: int) -> Iterator[pd.DataFrame]:
    width = len(source.header)
    rows = _xlsx_rows(source.path, source.max_sheet_rows)
    next(rows, None)  # the header
    batch: list[list[str]] = []
    numbers: list[int] = []
    for number, values in rows:
        cells = [_cell_text(value) for value in values[:width]]
        batch.append(cells + [""] * (width - len(cells)))
        numbers.append(number)
        if len(batch) >= chunk_rows:
            yield _frame(batch, numbers, source.header)
            batch, numbers = [], []
    if batch:
        yield _frame(batch, numbers, source.header)


def _frame(batch: list[list[str]], numbers: list[int], header: tuple[str, ...]) -> pd.DataFrame:
    frame = pd.DataFrame(batch, columns=list(header), dtype=str)
    return frame.assign(**{ROW: numbers})


def _cell_text(value: object) -> str:
    """Excel cells as the text a CSV export would hold (dates as ISO 8601)."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value.total_seconds())
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def describe(source: Source) -> str:
    """One line for reports: how the file was read."""
    parts: list[str] = [source.kind]
    if source.compression:
        parts.append(source.compression)
    if source.kind == "text":
        parts.append(source.encoding)
        parts.append({"\t": "tab", ",": "comma", ";": "semicolon", "|": "pipe"}[source.delimiter])
    return ", ".join(parts)
