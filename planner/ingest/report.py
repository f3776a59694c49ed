"""The ingest report: what was read, kept, rejected and why, in a form users and tools read."""

from collections import Counter

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from planner.ingest.limits import shorten
from planner.ingest.reasons import FLAGS, REJECTION_REASONS

EXAMPLES_PER_REASON = 5


class RejectionExample(BaseModel):
    model_config = ConfigDict(frozen=True)

    row: int
    column: str
    value: str
    message: str


class IngestReport(BaseModel):
    """Counts and examples; `accepted + rejected == rows` always."""

    file: str
    format: str
    read_as: str = Field(description="How the bytes were read: kind, compression, encoding.")
    sha256: str
    rows: int = 0
    accepted: int = 0
    rejected: int = 0
    rejected_by_reason: dict[str, int] = Field(default_factory=dict)
    examples: dict[str, list[RejectionExample]] = Field(default_factory=dict)
    flagged: dict[str, int] = Field(default_factory=dict)
    column_mapping: dict[str, str] = Field(default_factory=dict)
    unused_columns: list[str] = Field(
        default_factory=list,
        description="A generic file's columns no field was read from (--map can name one).",
    )
    blank_lines: int = 0
    steps_folded: int = 0
    gpu_hours: float = 0.0
    running_at_start: int = Field(
        default=0, description="Jobs already running when the window opened (no start time)."
    )
    running_at_end: int = Field(default=0, description="Jobs still running at the window end.")
    withdrawn: int = Field(
        default=0, description="Jobs created and never scheduled (deleted, or still pending)."
    )
    pending_at_end: int = Field(
        default=0, description="Withdrawn jobs still pending at the window end."
    )
    gpu_total: float = Field(default=0.0, description="Sum of pods x GPUs over accepted jobs.")
    busy_gpu_hours: float = Field(
        default=0.0,
        description="GPU-hours x busy share (gpu_util), over the jobs that have a busy share.",
    )
    busy_known_gpu_hours: float = Field(
        default=0.0, description="GPU-hours of the jobs that have a busy share."
    )
    trace_id: str = ""
    already_imported: bool = False
    time_base: str = "relative"
    timezone: str = "UTC"
    start_utc: str | None = None
    horizon_s: float = 0.0
    nodes: int | None = None
    gpus_by_type: dict[str, int] | None = None
    warnings: list[str] = Field(
        default_factory=list,
        description="What the reader decided that changes how the file is read (duplicate "
        "column names, lines in another encoding); nothing is dropped silently.",
    )

    def summary_lines(self) -> list[str]:
        """Plain-language lines for the terminal and the app."""
        lines = [
            f"{self.file}: {self.format} ({self.read_as})",
            f"rows {self.rows:,}  accepted {self.accepted:,}  rejected {self.rejected:,}",
            *(f"  warning: {warning}" for warning in self.warnings),
        ]
        if self.unused_columns:
            lines.append(f"  columns not used: {_listed(self.unused_columns)} (--map FIELD=COLUMN)")
        if self.steps_folded:
            lines.append(
                f"  folded {self.steps_folded:,} Slurm step lines (.batch, .extern, .0, ...) "
                "into their jobs' lines (not counted in the rows)"
            )
        if self.nodes is not None:
            lines.append(f"cluster: {self.nodes:,} nodes, GPUs by type {self.gpus_by_type}")
        else:
            lines.append(
                f"GPU-hours {self.gpu_hours:,.1f}  trace id {self.trace_id}"
                + ("  (already imported)" if self.already_imported else "")
            )
            lines.extend(self.busy_lines())
            lines.append(
                f"censored: {self.running_at_start:,} running at start, "
                f"{self.running_at_end:,} running at end; withdrawn {self.withdrawn:,} "
                f"({self.pending_at_end:,} still pending at end)"
            )
        lines.extend(self.rejection_lines())
        for flag, count in sorted(self.flagged.items()):
            lines.append(f"  flagged {count:,}: {flag} - {FLAGS.get(flag, '')}")
        return lines

    def busy_lines(self) -> list[str]:
        """The GPU busy share over the jobs that have one, when any has."""
        known = self.busy_known_gpu_hours
        if not known:
            return []
        share = self.busy_gpu_hours / known
        return [
            f"GPU busy {self.busy_gpu_hours:,.1f} of the {known:,.1f} GPU-hours with a busy "
            f"share ({share:.1%}); {max(self.gpu_hours - known, 0.0):,.1f} GPU-hours without one"
        ]

    def rejection_lines(self) -> list[str]:
        """Each rejection reason with its count and up to three rows (row, column, value)."""
        lines = []
        for reason, count in sorted(self.rejected_by_reason.items(), key=lambda kv: -kv[1]):
            lines.append(f"  rejected {count:,}: {reason} - {REJECTION_REASONS.get(reason, '')}")
            lines.extend(
                f"    row {ex.row}, column '{ex.column}', value '{ex.value}': {ex.message}"
                for ex in self.examples.get(reason, [])[:3]
            )
        return lines


def _listed(columns: list[str], most: int = 12) -> str:
    shown = ", ".join(f"'{shorten(c, 40)}'" for c in columns[:most])
    return shown + (f" and {len(columns) - most:,} more" if len(columns) > most else "")


class ReportBuilder:
    """Accumulates chunk results into an IngestReport without holding the rows."""

    def __init__(self, report: IngestReport) -> None:
        self.report = report
        self.reasons: Counter[str] = Counter()
        self.flags: Counter[str] = Counter()

    def add_rejected(self, rejected: pd.DataFrame) -> None:
        if rejected.empty:
            return
        self.reasons.update({str(k): int(v) for k, v in rejected["reason"].value_counts().items()})
        for reason, group in rejected.groupby("reason", sort=False):
            shown = self.report.examples.setdefault(str(reason), [])
            for rec in group.head(EXAMPLES_PER_REASON - len(shown)).itertuples():
                shown.append(
                    RejectionExample(
                        row=int(str(rec.row)),
                        column=str(rec.column_name),
                        value=shorten(str(rec.value)),
                        message=str(rec.message),
                    )
                )

    def add_counted(self, total: int, examples: pd.DataFrame) -> None:
        """`total` rejected rows of one reason, of which `examples` are the first few."""
        self.add_rejected(examples)
        if total > len(examples):
            self.reasons[str(examples["reason"].iloc[0])] += total - len(examples)

    def add_flags(self, flags: Counter[str]) -> None:
        self.flags.update(flags)

    def finish(self, *, accepted: int) -> IngestReport:
        report = self.report
        report.rejected_by_reason = dict(self.reasons.most_common())
        report.rejected = sum(self.reasons.values())
        report.accepted = accepted
        report.rows = report.accepted + report.rejected
        report.flagged = dict(sorted(self.flags.items()))
        return report
