"""Open a job history for streaming: sniff its format, resolve its columns, and yield
normalised chunks (`JobStream`).

Reads files and uses pandas; never touches the database (`planner.service.importer` streams
the chunks into the store).
"""

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pandas as pd

from planner.core.errors import TraceError
from planner.ingest import formats
from planner.ingest.columns import ColumnMap, require, resolve_columns
from planner.ingest.formats import detect_format
from planner.ingest.limits import shorten
from planner.ingest.normalize import ChunkResult, NormalizeOptions, normalize
from planner.ingest.options import FORMATS, NODE_FORMATS, Format, IngestOptions
from planner.ingest.report import IngestReport
from planner.ingest.source import LineProblems, Source, describe, iter_frames, open_source

_JOB_NEEDS = (("gpus", "gpus_per_pod"), ("submit", "start"), ("duration", "end", "start"))


@dataclass(slots=True)
class JobStream:
    """A job history ready to stream: the file, its format and the column mapping."""

    source: Source
    format: Format
    columns: ColumnMap
    options: IngestOptions
    normalize_options: NormalizeOptions
    problems: LineProblems = field(default_factory=LineProblems)
    label: str = ""
    """What the report names as the file when the rows came from elsewhere (a Prometheus URL)."""
    window: tuple[float, float] | None = None
    """The export's window when it is known (a Prometheus query's), else the rows' span."""

    @property
    def name(self) -> str:
        return self.label or self.source.name

    def new_report(self) -> IngestReport:
        return IngestReport(
            file=self.name,
            format=self.format,
            read_as=describe(self.source),
            sha256=self.source.sha256,
            column_mapping=dict(self.columns.columns),
            unused_columns=self._unused(),
            timezone=self.options.tz,
            warnings=[*self.source.notes, *self.columns.notes],
        )

    def _unused(self) -> list[str]:
        """A generic file's columns that no field reads (a special format's are its own)."""
        if self.format != "generic":
            return []
        used = {*self.columns.columns.values(), *self.options.mapping.values()}
        return [c for c in self.source.header if c not in used]

    def chunks(self) -> Iterator[tuple[ChunkResult, pd.DataFrame]]:
        """(normalised chunk, Slurm step lines as row/parent) for each slice of the file."""
        no_steps = pd.DataFrame({"row": pd.Series(dtype="int64"), "parent": pd.Series(dtype=str)})
        rows = self.source.chunk_rows(self.options.chunk_rows)
        for raw in iter_frames(self.source, self.problems, rows):
            frame, steps, columns = raw, no_steps, self.columns
            if self.format == "openb-pods":
                frame, columns = formats.openb_pods(raw)
            elif self.format == "slurm":
                frame, steps, columns = formats.slurm(raw)
            result = normalize(frame, self._with_user_mapping(columns), self.normalize_options)
            result.rejected = pd.concat([result.rejected, self._bad_lines()], ignore_index=True)
            yield result, steps

    def _with_user_mapping(self, columns: ColumnMap) -> ColumnMap:
        """A format's own column choices, except where the user mapped a field (--map, the
        app's mapping table): the user's column wins, as the report says it does."""
        mapped = {f: c for f, c in self.columns.columns.items() if f in self.options.mapping}
        return ColumnMap({**columns.columns, **mapped}) if mapped else columns

    def _bad_lines(self) -> pd.DataFrame:
        lines, self.problems.bad_lines = self.problems.bad_lines, []
        return pd.DataFrame(
            {
                "row": pd.Series([n for n, _ in lines], dtype="int64"),
                "reason": "bad_field_count",
                "column_name": "",
                "value": "",
                "raw_json": "",
                "message": pd.Series([m for _, m in lines], dtype=str),
            }
        )


def sniff(path: Path, options: IngestOptions) -> tuple[Source, Format]:
    """Open `path` and decide its format (the user's --format wins)."""
    _check_timezone(options.tz)
    source = open_source(path, options.limits)
    if options.format is not None:
        if options.format not in FORMATS:
            raise TraceError(
                f"unknown --format '{shorten(options.format)}'; choose one of {', '.join(FORMATS)}",
                file=source.name,
            ).coded(
                "unknown_format_option",
                file=source.name,
                format=shorten(options.format),
                choices=tuple(FORMATS),
            )
        return source, options.format  # type: ignore[return-value]
    return source, detect_format(source.header, file=source.name)


def open_jobs(path: Path, options: IngestOptions) -> JobStream:
    """Prepare a job history for streaming; raise TraceError if it cannot be a job list."""
    return jobs_from(*sniff(path, options), options)


def jobs_from(source: Source, fmt: Format, options: IngestOptions) -> JobStream:
    """A job stream over an already sniffed source (hashing a big file twice is slow)."""
    if fmt in NODE_FORMATS:
        raise TraceError(f"this is a node list ({fmt}), not a job history", file=source.name).coded(
            "node_list_not_jobs", file=source.name, format=fmt
        )
    columns = resolve_columns(source.header, options.mapping, file=source.name)
    if fmt == "generic":
        require(columns, _JOB_NEEDS, source.header, file=source.name)
    normalize_options = NormalizeOptions(
        tz=options.tz,
        decimal_comma=source.delimiter == ";",
        max_gpus_per_pod=options.max_gpus_per_pod,
        gpu_totals=fmt != "openb-pods",
        censored=options.censored,
    )
    return JobStream(source, fmt, columns, options, normalize_options)


def _check_timezone(tz: str) -> None:
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as err:
        raise TraceError(
            f"unknown time zone '{shorten(tz)}'; use an IANA name such as UTC, "
            "Asia/Shanghai or America/Los_Angeles"
        ).coded("unknown_time_zone", tz=shorten(tz)) from err
