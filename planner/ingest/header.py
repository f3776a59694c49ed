"""Find a text export's delimiter and header line, and make its column names unique.

Works on the first MAX_HEADER_BYTES of a file, decoded; a header that does not fit is
refused. Repeated names are renamed as pandas renames them and reported, never dropped.
"""

import csv
import re
from collections.abc import Sequence

from planner.core.errors import TraceError
from planner.ingest.limits import MAX_COLUMNS, shorten, size_text
from planner.ingest.notes import ingest_note

DELIMITERS = (",", ";", "\t", "|")
MAX_HEADER_BYTES = 1 << 16  # the sample a file's layout is read from
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def detect_delimiter(text: str) -> str:
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


def header_line(text: str, delimiter: str, *, whole: bool, file: str) -> tuple[int, list[str]]:
    """(blank lines before the header, the header's names); the header must fit the sample."""
    lines = _LINE_BREAK.split(text)
    blank = next(i for i, line in enumerate(lines) if line.strip())
    if blank == len(lines) - 1 and not whole:
        raise TraceError(
            f"the first line (the header) is longer than {size_text(MAX_HEADER_BYTES)}; a job "
            "history's header names its columns in far less: is this the right file?",
            file=file,
        ).coded("header_too_long", file=file, limit=size_text(MAX_HEADER_BYTES))
    names = next(csv.reader([lines[blank]], delimiter=delimiter))
    return blank, [name.strip().lstrip("\ufeff") for name in names]


def check_width(names: Sequence[object], *, file: str) -> None:
    """Refuse a header of more than MAX_COLUMNS columns before any row is read."""
    if len(names) > MAX_COLUMNS:
        raise TraceError(
            f"the header has {len(names):,} columns, more than the {MAX_COLUMNS:,} a job "
            "history or node list may have (no row was read); is this the right file? If it "
            "is, keep only the columns the planner reads (job id, submit, start, end or "
            "duration, GPUs, queue, user, status; for nodes: name, GPU type and count, CPU, "
            "memory) and import it again",
            file=file,
        ).coded("too_many_columns", file=file, columns=len(names), limit=MAX_COLUMNS)


def unique_header(names: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(names made unique, notes): a repeated name gets `.1`, `.2`, an empty one
    `Unnamed: N` (as pandas names them), and each repeat is reported, not dropped."""
    taken = set(names)
    seen: dict[str, int] = {}
    unique: list[str] = []
    notes: list[str] = []
    for number, given in enumerate(names):
        name = given or f"Unnamed: {number}"
        if name not in seen:
            seen[name] = number
            unique.append(name)
            continue
        suffix = 1
        while f"{name}.{suffix}" in taken or f"{name}.{suffix}" in seen:
            suffix += 1
        renamed = f"{name}.{suffix}"
        seen[renamed] = number
        unique.append(renamed)
        notes.append(
            ingest_note(
                "duplicate_column",
                first=seen[name] + 1,
                second=number + 1,
                name=shorten(name),
                renamed=shorten(renamed),
            )
        )
    return tuple(unique), tuple(notes)
