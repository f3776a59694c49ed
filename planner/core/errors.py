"""Errors a user can fix by changing their input or settings.

* PlannerError            base; ``str(err)`` is a complete sentence fit to show a user
  - TraceError            an uploaded job history or node list cannot be read at all
    - UnknownFormatError  the file's columns match no format we know
    - MissingColumnError  a required column is absent (names close matches)
  - StoreError            the planner database cannot be opened or written
  - ScenarioError         a scenario or cluster description is invalid
  - InternalCheckError    not the user's doing: one of the planner's own checks failed (a bug)

Row-level problems are not exceptions: they become rejected rows with reasons in the
ingest report, and the rest of the file is kept.

`str(err)` is English, as the CLI prints it. An error may also carry a `code` and the
`values` it was written from (like `planner.core.notes.Note`), so the app words it in the
reader's language (planner/ui/error_text.py) instead of showing English to a Chinese reader.
"""

import traceback
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Self

_NO_VALUES: Mapping[str, object] = MappingProxyType({})


class PlannerError(Exception):
    """Base class of every error the CLI and the app show to a user."""

    code: str = ""
    values: Mapping[str, object] = _NO_VALUES

    def coded(self, code: str, **values: object) -> Self:
        """This error, with the code and values another language words it from."""
        self.code, self.values = code, values
        return self


class CodedValueError(ValueError):
    """A value a pydantic validator refuses, with a code and values like `PlannerError`'s
    (pydantic keeps the exception in the problem's context, where the app finds them)."""

    def __init__(self, text: str, code: str, **values: object) -> None:
        super().__init__(text)
        self.code, self.values = code, values


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


class InternalCheckError(PlannerError):
    """One of the planner's own checks failed (an `assert`): a bug, never the input's fault.

    The CLI and the app show it as one message that says how to report it, not a traceback.
    """

    @classmethod
    def from_assertion(cls, err: AssertionError) -> "InternalCheckError":
        check = str(err) or _where(err)
        return cls(
            f"an internal check failed ({check}): this is a bug in the planner, not a problem "
            "with your data. Please report it to the planner's maintainers with this message, "
            "the command or scenario you ran and the job history (or the smallest part of it "
            "that still fails)"
        ).coded("internal_check", check=check)


def _where(err: BaseException) -> str:
    """The file and line an assertion without a message failed at."""
    frames = traceback.extract_tb(err.__traceback__)
    if not frames:
        return "no message"
    return f"{Path(frames[-1].filename).name}:{frames[-1].lineno}"
