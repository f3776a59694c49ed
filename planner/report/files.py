"""Write the report files `planner tco --xlsx/--pdf/--csv` asks for."""

from dataclasses import dataclass
from pathlib import Path

from planner.core import atomic_file
from planner.core.errors import PlannerError
from planner.core.i18n import Language
from planner.cost.results import TcoReport
from planner.report.csv_table import write_csv
from planner.report.excel import write_xlsx
from planner.report.model import build_report
from planner.report.pdf import write_pdf


@dataclass(frozen=True, slots=True)
class ReportFiles:
    """Where to write each file (None: not asked for)."""

    xlsx: Path | None = None
    pdf: Path | None = None
    csv: Path | None = None

    def __bool__(self) -> bool:
        return any((self.xlsx, self.pdf, self.csv))


def write_report_files(
    name: str,
    tco_report: TcoReport,
    files: ReportFiles,
    lang: Language = "en",
    horizon_index: int = 0,
) -> list[str]:
    """Write the asked files for one scenario; lines to print (paths written, notes).

    Raises:
        PlannerError: a file cannot be written.
    """
    report = build_report([(name, tco_report)], horizon_index, lang)
    lines: list[str] = []
    if files.xlsx is not None:
        lines.append(_save(files.xlsx, write_xlsx(report)))
    if files.pdf is not None:
        pdf = write_pdf(report)
        lines.append(_save(files.pdf, pdf.data))
        lines += [f"note: {n}" for n in pdf.notes]
    if files.csv is not None:
        lines.append(_save(files.csv, write_csv(report)))
    return lines


def _save(path: Path, data: bytes) -> str:
    try:
        atomic_file.write_bytes(path, data)
    except OSError as err:
        raise PlannerError(f"cannot write the report to {path}: {err.strerror or err}") from err
    return f"wrote {path}"
