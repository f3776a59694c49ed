"""Open an export whatever its wrapping: gzip, Excel, encoding, delimiter.

`open_source` looks at the bytes once (hash, compression, encoding, delimiter, header) and
`iter_frames` then streams the records as string DataFrames of bounded size, each with a
`__row__` column holding the spreadsheet row number (the header is row 1). Nothing is
converted here: every cell stays text.
"""

import codecs
import csv
import datetime as dt
import gzip
import hashlib
import re
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Literal, cast

import pandas as pd

from planner.errors import TraceError

ROW = "__row__"
CHUNK_ROWS = 100_000
CHUNK_BYTES = 16 << 20
SAMPLE_BYTES = 1 << 16
DELIMITERS = (",", ";", "\t", "|")

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
    line_bytes: float = 100.0

    @property
    def name(self) -> str:
        return self.path.name

    def chunk_rows(self, limit: int) -> int:
        """Rows per chunk: `limit`, fewer for wide rows, so a chunk stays near CHUNK_BYTES."""
        return min(limit, max(1_000, int(CHUNK_BYTES / max(self.line_bytes, 1.0))))


@dataclass(slots=True)
class LineProblems:
    """Lines the CSV parser could not split into the header's columns, and blank lines."""

    bad_lines: list[tuple[int, str]] = field(default_factory=list)
    blank_lines: int = 0


def open_source(path: Path) -> Source:
    """Inspect `path`; raise TraceError if it is empty, binary or undecodable."""
    if not path.is_file():
        raise TraceError("no such file", file=str(path))
    size, digest, head = _hash_and_head(path)
    if size == 0:
        raise TraceError("the file is empty; export the job history again", file=path.name)
    if head.startswith(_ZIP_MAGIC):
        return _open_xlsx(path, digest, size)
    compression: Literal["gzip"] | None = "gzip" if head.startswith(_GZIP_MAGIC) else None
    sample = _sample(path, compression)
    encoding = _detect_encoding(path, compression, sample)
    text = sample.decode(encoding, errors="ignore")
    if not text.strip():
        raise TraceError("the file holds no text (only blank lines)", file=path.name)
    delimiter = _detect_delimiter(text)
    header = _header(text, delimiter)
    line_bytes = len(sample) / max(sample.count(b"\n"), 1)
    return Source(path, digest, size, "text", compression, encoding, delimiter, header, line_bytes)


def iter_frames(
    source: Source, problems: LineProblems, chunk_rows: int = CHUNK_ROWS
) -> Iterator[pd.DataFrame]:
    """Stream records as all-string frames with a `__row__` column; blank lines dropped."""
    if source.kind == "xlsx":
        yield from _iter_xlsx(source, problems, chunk_rows)
        return
    yield from _iter_text(source, problems, chunk_rows)


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


def _open_binary(path: Path, compression: Literal["gzip"] | None) -> IO[bytes]:
    if compression == "gzip":
        return cast("IO[bytes]", gzip.open(path, "rb"))
    return path.open("rb")


def _sample(path: Path, compression: Literal["gzip"] | None) -> bytes:
    try:
        with _open_binary(path, compression) as handle:
            sample = handle.read(SAMPLE_BYTES)
    except (OSError, EOFError) as err:
        raise TraceError(f"the gzip data is damaged ({err})", file=path.name) from err
    if not sample:
        raise TraceError("the compressed file is empty", file=path.name)
    if sample.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return sample
    if b"\x00" in sample or _control_share(sample) > 0.05:
        raise TraceError(
            "this is a binary file, not a CSV/TSV text export or an .xlsx workbook; "
            "export the job history as CSV, TSV or Excel",
            file=path.name,
        )
    return sample


def _control_share(sample: bytes) -> float:
    controls = sum(1 for byte in sample if byte < 32 and byte not in (9, 10, 13))
    return controls / len(sample)


def _detect_encoding(path: Path, compression: Literal["gzip"] | None, sample: bytes) -> str:
    """UTF-16 by BOM, else UTF-8 (with or without BOM), else GB18030; checked on every byte."""
    if sample.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    first_error = ""
    for encoding in ("utf-8-sig", "gb18030"):
        problem = _decode_all(path, compression, encoding)
        if problem is None:
            return encoding
        first_error = first_error or problem
    raise TraceError(
        f"the text is neither UTF-8 nor GBK/GB18030 ({first_error}); re-save the file as "
        "UTF-8 (in Excel: Save As, 'CSV UTF-8')",
        file=path.name,
    )


def _decode_all(path: Path, compression: Literal["gzip"] | None, encoding: str) -> str | None:
    """None if the whole stream decodes, else where it first fails."""
    decoder = codecs.getincrementaldecoder(encoding)()
    line = 1
    try:
        with _open_binary(path, compression) as handle:
            while block := handle.read(1 << 22):
                try:
                    decoder.decode(block)
                except UnicodeDecodeError as err:
                    bad_line = line + block[: err.start].count(b"\n")
                    return f"invalid byte on line {bad_line}"
                line += block.count(b"\n")
            decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return "the file ends in the middle of a character"
    except (OSError, EOFError) as err:
        raise TraceError(f"the gzip data is damaged ({err})", file=path.name) from err
    return None


def _detect_delimiter(text: str) -> str:
    """The candidate splitting the first lines into the same, largest number of fields."""
    lines = [line for line in text.splitlines()[:20] if line.strip()][:10]
    best, best_score = ",", 0
    for delimiter in DELIMITERS:
        counts = [len(next(csv.reader([line], delimiter=delimiter))) for line in lines]
        consistent = sum(1 for c in counts if c == counts[0])
        score = (counts[0] - 1) * consistent if counts else 0
        if score > best_score:
            best, best_score = delimiter, score
    return best


def _header(text: str, delimiter: str) -> tuple[str, ...]:
    first = next(line for line in text.splitlines() if line.strip())
    names = [
        name.strip().lstrip("\ufeff") for name in next(csv.reader([first], delimiter=delimiter))
    ]
    return tuple(names)


def _iter_text(source: Source, problems: LineProblems, chunk_rows: int) -> Iterator[pd.DataFrame]:
    next_line = 2
    chunks = _read_csv_chunks(source, chunk_rows)
    while True:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                frame = next(chunks)
            except StopIteration:
                return
            except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as err:
                raise TraceError(_parser_message(err), file=source.name) from err
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


def _parser_message(err: Exception) -> str:
    text = str(err)
    if "EOF inside string" in text:
        row = text.rsplit("row", 1)[-1].strip()
        return (
            f'a quote (") opened on row {row} is never closed, so the rest of the file '
            "would be one cell; fix or remove that quote and export again"
        )
    return f"cannot be read as a table: {text}"


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


def _open_xlsx(path: Path, digest: str, size: int) -> Source:
    header = next(_xlsx_rows(path), None)
    if header is None:
        raise TraceError("the workbook's first sheet is empty", file=path.name)
    names = tuple("" if value is None else str(value).strip() for value in header[1])
    return Source(path, digest, size, "xlsx", None, "xlsx", "", names)


def _xlsx_rows(path: Path) -> Iterator[tuple[int, tuple[object, ...]]]:
    """(spreadsheet row, values) of the first sheet's non-empty rows."""
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
        ) from err
    try:
        sheet = book.worksheets[0]
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            if any(value is not None and str(value).strip() for value in values):
                yield number, tuple(values)
    finally:
        book.close()
        handle.close()


def _iter_xlsx(source: Source, problems: LineProblems, chunk_rows: int) -> Iterator[pd.DataFrame]:
    width = len(source.header)
    rows = _xlsx_rows(source.path)
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
