"""Errors a user can fix by changing their input or settings.

* PlannerError            base; ``str(err)`` is a complete sentence fit to show a user
  - TraceError            an uploaded job history or node list cannot be read at all
    - UnknownFormatError  the file's columns match no format we know
    - MissingColumnError  a required column is absent (names close matches)
  - StoreError            the planner database cannot be opened or written
  - ScenarioError         a scenario or cluster description is invalid

Row-level problems are not exceptions: they become rejected rows with reasons in the
ingest report, and the rest of the file is kept.
"""


class PlannerError(Exception):
    """Base class of every error the CLI and the app show to a user."""


class TraceError(PlannerError):
    """The file as a whole cannot be used; the message says which file and why."""

    def __init__(self, problem: str, *, file: str = "") -> None:
        prefix = f"{file}: " if file else ""
        super().__init__(f"{prefix}{problem}")
        self.file = file


class UnknownFormatError(TraceError):
    """No recognised format matches the file's columns."""


class MissingColumnError(TraceError):
    """A column the format needs is absent."""


class StoreError(PlannerError):
    """The DuckDB file cannot be opened, migrated or written."""


class ScenarioError(PlannerError):
    """A scenario, cluster or policy description cannot be used."""
