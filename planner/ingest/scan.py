"""One streaming pass over a text export, before pandas sees it, bounding what it may cost.

pandas' parser holds a whole record in memory however long it is, and a small gzip file can
unpack to gigabytes. So this pass reads the (unpacked) file in 1 MiB blocks and stops at
the first record longer than the line limit, or once the unpacked text passes its limit:
time and memory stay bounded by the blocks, never by the file. Records are split as pandas'
tokenizer splits them (a quoted cell may hold line breaks), vectorised with numpy over each
block's quote runs and line breaks. The same pass checks that the whole file decodes,
measures how many rows a parser chunk may hold, and, in a file read as GB18030, finds the
lines that were really UTF-8. It reports; it never changes the text.
"""

import codecs
import gzip
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Literal, cast

import numpy as np
import numpy.typing as npt

from planner.core.errors import TraceError
from planner.ingest.limits import UNPACKED_ENV, ReadLimits, size_text

BLOCK_BYTES = 1 << 20
# Candidate rows per parser chunk, largest first; the largest is the reader's default.
WINDOWS = (100_000, 25_000, 6_000, 1_500, 400, 100, 25, 6, 1)
EXAMPLE_LINES = 5

_QUOTE, _LF, _CR = ord('"'), ord("\n"), ord("\r")
_QUOTE_BYTE, _CR_BYTE = b'"', b"\r"
_Ints = npt.NDArray[np.int64]
_NO_RECORDS: _Ints = np.zeros(0, dtype=np.int64)


class UndecodableError(ValueError):
    """The text is not in the encoding tried; `problem` says where it first fails, `line`
    on which line (0: the file ends in the middle of a character)."""

    def __init__(self, problem: str, line: int = 0) -> None:
        super().__init__(problem)
        self.problem, self.line = problem, line


@dataclass(frozen=True, slots=True)
class TextScan:
    """What the pass learned: enough to size the parser's chunks and warn about the text."""

    rows_per_chunk: int
    lines: int
    utf8_lines: tuple[int, ...] = ()
    utf8_line_count: int = 0


def open_binary(path: Path, compression: Literal["gzip"] | None) -> IO[bytes]:
    if compression == "gzip":
        return cast("IO[bytes]", gzip.open(path, "rb"))
    return path.open("rb")


def scan_text(
    path: Path,
    *,
    compression: Literal["gzip"] | None,
    encoding: str,
    delimiter: str,
    limits: ReadLimits,
    chunk_bytes: int,
) -> TextScan:
    """Stream `path` once; raise UndecodableError if it is not `encoding`, TraceError at a
    limit or for damaged gzip data."""
    decoder = codecs.getincrementaldecoder(encoding)()
    meter = RecordMeter(delimiter, max_record_bytes=limits.max_line_bytes, file=path.name)
    sizer = ChunkSizer()
    mixed = Utf8Lines() if encoding == "gb18030" else None
    unpacked = 0
    try:
        with open_binary(path, compression) as handle:
            while block := handle.read(BLOCK_BYTES):
                unpacked += len(block)
                if compression and unpacked > limits.max_unpacked_bytes:
                    raise _too_big(path, compression, limits.max_unpacked_bytes, meter.lines)
                text = _decode(decoder, block, meter.lines)
                units = block if encoding == "utf-8-sig" else text.encode("utf-8")
                if unpacked == len(block) and units.startswith(codecs.BOM_UTF8):
                    units = units[len(codecs.BOM_UTF8) :]
                sizer.add(meter.feed(units))
                if mixed is not None:
                    mixed.feed(block)
            decoder.decode(b"", final=True)
    except UnicodeDecodeError as err:
        raise UndecodableError("the file ends in the middle of a character") from err
    except (OSError, EOFError) as err:
        raise TraceError(f"the gzip data is damaged ({err})", file=path.name).coded(
            "gzip_damaged", file=path.name
        ) from err
    sizer.add(meter.finish())
    utf8 = mixed.finish() if mixed is not None else Utf8Lines()
    return TextScan(sizer.rows(chunk_bytes), meter.lines, tuple(utf8.first), utf8.count)


def _decode(decoder: codecs.IncrementalDecoder, block: bytes, lines_before: int) -> str:
    try:
        return str(decoder.decode(block))
    except UnicodeDecodeError as err:
        bad_line = lines_before + 1 + block[: err.start].count(b"\n")
        raise UndecodableError(f"invalid byte on line {bad_line:,}", bad_line) from err


def _too_big(
    path: Path, compression: str, limit: int, lines: int
) -> TraceError:  # a factory, so the raise stays visible at the call site
    return TraceError(
        f"the {compression} data unpacks to more than {size_text(limit)} (reading stopped "
        f"at line {lines + 1:,}); that is far beyond any job history we support. If the "
        "file is real, split it or raise the limit (planner ingest --max-unpacked-gib N; for "
        f"the app, set {UNPACKED_ENV}=N where it runs)",
        file=path.name,
    ).coded(
        "unpacked_too_big",
        file=path.name,
        compression=compression,
        limit=size_text(limit),
        line=lines + 1,
        variable=UNPACKED_ENV,
    )


class RecordMeter:
    """Byte lengths of CSV records, split as pandas' C tokenizer splits them.

    A quote opens a quoted cell only at the start of a field (after the delimiter or a line
    break); inside one, `""` is a quote and a single `"` closes it. So only runs of quotes
    change state: a run of odd length at a field start toggles it, an odd run elsewhere
    leaves (or stays) outside, an even run changes nothing. Composing those three functions
    over a block is a cumulative sum, so no Python loop runs per byte or per quote.
    """

    def __init__(self, delimiter: str, *, max_record_bytes: int, file: str) -> None:
        self.field_start = np.zeros(256, dtype=bool)
        self.field_start[[ord(delimiter), _LF, _CR]] = True
        self.max_record_bytes = max_record_bytes
        self.file = file
        self.lines = 0  # line breaks seen so far
        self.in_quote = False
        self.prev_byte = _LF  # the file starts as if after a line break
        self.carry: tuple[bool, bool] | None = None  # (odd, at field start) of a cut quote run
        self.open_bytes = 0  # bytes of the record not yet ended
        self.open_breaks = 0  # quoted line breaks inside it
        self.open_line = 1  # the line it starts on
        self.pending = b""  # a block's last `\r`: a line break only if no `\n` follows

    def feed(self, units: bytes) -> _Ints:
        """Lengths (bytes, with the line break) of the records this block completes."""
        if self.pending:
            units, self.pending = self.pending + units, b""
        if units.endswith(b"\r"):
            units, self.pending = units[:-1], b"\r"
        return self._measure(units)

    def finish(self) -> _Ints:
        """The records still open at the end of the file."""
        lengths = self._measure(self.pending) if self.pending else _NO_RECORDS
        self.pending = b""
        if self.open_bytes:
            lengths = np.append(lengths, self.open_bytes).astype(np.int64)
            self.open_bytes = 0
        return lengths

    def _measure(self, units: bytes) -> _Ints:
        data = np.frombuffer(units, dtype=np.uint8)
        if data.size == 0:
            return _NO_RECORDS
        breaks = _line_breaks(data, units)
        quoted = self._quoted_at(data, units, breaks)
        ends = breaks[~quoted]
        lengths = self._lengths(ends, breaks, data.size)
        self.prev_byte = int(data[-1])
        self.lines += int(breaks.size)
        return lengths

    def _quoted_at(
        self, data: npt.NDArray[np.uint8], units: bytes, breaks: _Ints
    ) -> npt.NDArray[np.bool_]:
        """Whether each line break lies inside a quoted cell; carries the state onwards."""
        if self.carry is None and _QUOTE_BYTE not in units:  # most blocks: no quotes
            return np.full(breaks.size, self.in_quote)
        runs = self._quote_runs(data)
        if runs.pos.size == 0:
            return np.full(breaks.size, self.in_quote)
        swap = runs.start & runs.odd
        reset = ~runs.start & runs.odd
        swaps = np.cumsum(swap)
        last_reset = np.maximum.accumulate(np.where(reset, np.arange(swap.size), -1))
        since_reset: _Ints = swaps - swaps[np.maximum(last_reset, 0)]
        after = np.where(last_reset >= 0, since_reset, swaps + int(self.in_quote)) % 2 == 1
        which = np.searchsorted(runs.pos, breaks) - 1
        quoted = np.where(which >= 0, after[np.maximum(which, 0)], self.in_quote)
        self.in_quote = bool(after[-1])
        return quoted

    def _quote_runs(self, data: npt.NDArray[np.uint8]) -> "_Runs":
        quotes = np.flatnonzero(data == _QUOTE)
        runs = _Runs.of(quotes, data, self.prev_byte, self.field_start)
        if self.carry is not None:
            runs = runs.joined_to(self.carry)
            self.carry = None
        if quotes.size and quotes[-1] == data.size - 1:  # the run may go on in the next block
            self.carry = (bool(runs.odd[-1]), bool(runs.start[-1]))
            runs = runs.without_last()
        return runs

    def _lengths(self, ends: _Ints, breaks: _Ints, size: int) -> _Ints:
        if ends.size == 0:
            self.open_bytes += size
            self.open_breaks += int(breaks.size)
            self._check_open()
            return _NO_RECORDS
        lengths = np.diff(ends, prepend=-1)
        lengths[0] += self.open_bytes
        at = np.searchsorted(breaks, ends)
        over = np.flatnonzero(lengths > self.max_record_bytes + 1)
        if over.size:
            i = int(over[0])
            line = self.open_line if i == 0 else self.lines + int(at[i - 1]) + 2
            inner = int(at[0]) + self.open_breaks if i == 0 else int(at[i] - at[i - 1] - 1)
            raise self._too_long(line, spans_lines=inner > 0)
        self.open_bytes = size - 1 - int(ends[-1])
        self.open_breaks = int(breaks.size - at[-1] - 1)
        self.open_line = self.lines + int(at[-1]) + 2
        self._check_open()
        return lengths

    def _check_open(self) -> None:
        if self.open_bytes > self.max_record_bytes:
            raise self._too_long(self.open_line, spans_lines=self.open_breaks > 0)

    def _too_long(self, line: int, *, spans_lines: bool) -> TraceError:
        limit = size_text(self.max_record_bytes)
        values = {"file": self.file, "line": line, "limit": limit}
        if spans_lines:
            problem = (
                f"the row starting on line {line:,} is longer than {limit}: a quoted cell "
                'opened there runs on over many lines; is its closing quote (") missing?'
            )
        else:
            problem = (
                f"line {line:,} is longer than {limit}, the most a job-history line may "
                "hold (reading stopped there); is this the right file, or were its line "
                "breaks lost?"
            )
        code = "row_too_long" if spans_lines else "line_too_long"
        return TraceError(problem, file=self.file).coded(code, **values)


def _line_breaks(data: npt.NDArray[np.uint8], units: bytes) -> _Ints:
    """Positions of `\\n`, and of `\\r` not followed by `\\n` (old Mac files)."""
    lf = data == _LF
    if _CR_BYTE not in units:  # most files: skip the second pass
        return np.flatnonzero(lf)
    cr = data == _CR
    cr[:-1] &= ~lf[1:]
    return np.flatnonzero(lf | cr)


@dataclass(frozen=True, slots=True)
class _Runs:
    """Maximal runs of quotes: where each starts, whether its length is odd, and whether
    it starts a field. A run cut by the block's start has position -1."""

    pos: _Ints
    odd: npt.NDArray[np.bool_]
    start: npt.NDArray[np.bool_]

    @classmethod
    def of(
        cls,
        quotes: _Ints,
        data: npt.NDArray[np.uint8],
        prev_byte: int,
        field_start: npt.NDArray[np.bool_],
    ) -> "_Runs":
        if quotes.size == 0:
            empty = np.zeros(0, dtype=bool)
            return cls(_NO_RECORDS, empty, empty)
        first = np.ones(quotes.size, dtype=bool)
        first[1:] = np.diff(quotes) != 1
        index = np.flatnonzero(first)
        pos = quotes[index].astype(np.int64)
        odd = np.diff(np.append(index, quotes.size)) % 2 == 1
        before = np.where(pos > 0, data[np.maximum(pos - 1, 0)], prev_byte)
        return cls(pos, odd, field_start[before])

    def joined_to(self, carry: tuple[bool, bool]) -> "_Runs":
        """Continue the run cut at the previous block's end."""
        odd, start = carry
        if self.pos.size and self.pos[0] == 0:
            merged_odd = self.odd.copy()
            merged_odd[0] ^= odd
            merged_start = self.start.copy()
            merged_start[0] = start
            return _Runs(self.pos, merged_odd, merged_start)
        return _Runs(
            np.insert(self.pos, 0, -1), np.insert(self.odd, 0, odd), np.insert(self.start, 0, start)
        )

    def without_last(self) -> "_Runs":
        return _Runs(self.pos[:-1], self.odd[:-1], self.start[:-1])


class ChunkSizer:
    """The most rows (of WINDOWS) that never add up to more than a chunk's bytes.

    For each candidate it keeps the largest byte total of any run of that many consecutive
    records, so one block of megabyte rows in a file of short ones shrinks the chunks
    everywhere (pandas reads a fixed number of rows per chunk).
    """

    def __init__(self) -> None:
        self.sums: _Ints = np.zeros(1, dtype=np.int64)  # cumulative bytes of the last records
        self.widest = dict.fromkeys(WINDOWS, 0)

    def add(self, lengths: _Ints) -> None:
        if lengths.size == 0:
            return
        sums = np.concatenate([self.sums, self.sums[-1] + np.cumsum(lengths)])
        old = self.sums.size
        for rows in WINDOWS:
            if old > rows:  # the usual case, without an index array
                spans = sums[old:] - sums[old - rows : sums.size - rows]
            else:
                new = np.arange(old, sums.size)
                spans = sums[new] - sums[np.maximum(new - rows, 0)]
            self.widest[rows] = max(self.widest[rows], int(spans.max()))
        self.sums = sums[-(WINDOWS[0] + 1) :]

    def rows(self, chunk_bytes: int) -> int:
        return next((rows for rows in WINDOWS if self.widest[rows] <= chunk_bytes), 1)


@dataclass(slots=True)
class Utf8Lines:
    """Lines of a file read as GB18030 that are valid UTF-8 with non-ASCII text.

    Such a file mixes encodings (often two exports pasted together): those lines decode
    without error but their text comes out garbled, so the report must say which.
    """

    carry: bytes = b""
    line: int = 1
    count: int = 0
    first: list[int] = field(default_factory=list)

    def feed(self, raw: bytes) -> None:
        lines = (self.carry + raw).split(b"\n")
        self.carry = lines.pop()
        for offset, line in enumerate(lines):
            self._check(line, self.line + offset)
        self.line += len(lines)

    def finish(self) -> "Utf8Lines":
        self._check(self.carry, self.line)
        self.carry = b""
        return self

    def _check(self, line: bytes, number: int) -> None:
        if line.isascii():
            return
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            return
        self.count += 1
        if len(self.first) < EXAMPLE_LINES:
            self.first.append(number)
