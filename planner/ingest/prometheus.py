"""Read series from a Prometheus server's HTTP API (`/api/v1/query_range`), in bounded steps.

Standard library only (urllib). A window is cut into chunks of at most `MAX_POINTS` steps
(Prometheus refuses a query of more than 11,000 points per series), and each metric is a
query of its own, so no answer holds more than one metric's series over one chunk. Every
query asks for `last_over_time(SERIES[STEP])` on a grid ending at the window's end: each
point sees every sample of the step before it, so a pod that lived for less than a step is
still seen, and the step only sets how closely "last seen" places an end (at the first
point after the last sample).
"""

import datetime as dt
import json
import math
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

from planner.core.errors import TraceError
from planner.ingest.limits import shorten

MAX_POINTS = 10_000
"""Steps per query: below Prometheus' 11,000 points per series."""
DEFAULT_POINTS = 5_000
"""Steps over the window when no step is given (a pod's end is placed within one step)."""
MIN_STEP_S = 60.0
COARSE_S = 6 * 3600.0
"""Step of the queries for values that do not change in a pod's life (its requests, start
time): far fewer points, and a step's range still within Prometheus' samples limit."""
TIMEOUT_S = 120.0

Labels = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Window:
    """The import's window in epoch seconds (UTC), and the query step in seconds."""

    start: float
    end: float
    step: float

    def grid(self) -> tuple[float, int]:
        """(first evaluation time, number of steps): a grid ending at `end` whose first
        step reaches back to `start` or before."""
        steps = max(1, math.ceil((self.end - self.start) / self.step))
        return self.end - steps * self.step, steps

    def coarse(self) -> "Window":
        """The window at a whole number of steps of about COARSE_S, on the same grid end."""
        return Window(self.start, self.end, self.step * max(1, math.ceil(COARSE_S / self.step)))

    def chunks(self) -> Iterator[tuple[float, float]]:
        """(first, last) evaluation times of each query, at most MAX_POINTS steps apart."""
        first, steps = self.grid()
        done = 0
        while done <= steps:
            take = min(MAX_POINTS, steps - done)
            yield first + done * self.step, first + (done + take) * self.step
            done += take + 1


@dataclass(frozen=True, slots=True)
class Sample:
    """One series over the window: its labels and (evaluation time, value) points."""

    labels: Labels
    points: tuple[tuple[float, float], ...]

    def label(self, name: str) -> str:
        return dict(self.labels).get(name, "")


def parse_window(text: str, step: float | None = None) -> Window:
    """`START..END` (ISO 8601 dates or times, UTC unless an offset is given, or epoch
    seconds) as a Window; a step in seconds, else one that cuts it into DEFAULT_POINTS."""
    start_text, sep, end_text = text.partition("..")
    if not sep or not start_text.strip() or not end_text.strip():
        raise TraceError(
            f"--window expects START..END (e.g. 2026-11-01..2026-12-01), got '{shorten(text)}'"
        )
    start, end = _instant(start_text), _instant(end_text)
    if end <= start:
        raise TraceError(f"--window {shorten(text)}: the end must come after the start")
    if step is None:
        step = max(MIN_STEP_S, math.ceil((end - start) / DEFAULT_POINTS / 60) * 60)
    if not step > 0:
        raise TraceError(f"--step must be above 0 seconds, got {step:g}")
    return Window(start, end, float(step))


def _instant(text: str) -> float:
    text = text.strip()
    try:
        return float(text)
    except ValueError:
        pass
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        raise TraceError(
            f"--window: '{shorten(text)}' is not a date, a time or epoch seconds; write e.g. "
            "2026-11-01 or 2026-11-01T08:00:00+08:00"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.timestamp()


class TooManySamplesError(TraceError):
    """The server refused a query that would load more samples than it allows at once."""


@dataclass(frozen=True, slots=True)
class Client:
    """One Prometheus server (`url` is its base, as its web page is reached)."""

    url: str

    def series(
        self, selector: str, window: Window, over: str = "last_over_time", keep: str = ""
    ) -> list[Sample]:
        """Every series `selector` matches over the window, its points merged over chunks:
        at each step `over` (a PromQL `*_over_time`) of the samples since the step before,
        the points `keep` (a comparison such as `== 1`) lets through."""
        merged: dict[Labels, list[tuple[float, float]]] = {}
        # one millisecond short of a step: Prometheus 2 includes a range's left end, so a
        # full step would see a sample at both of two neighbouring points
        query = f"{over}({selector}[{round(window.step * 1000) - 1}ms]){keep}"
        for first, last in window.chunks():
            for labels, points in self._range(query, first, last, window.step):
                merged.setdefault(labels, []).extend(points)
        return [Sample(labels, tuple(points)) for labels, points in merged.items()]

    def _range(
        self, query: str, first: float, last: float, step: float
    ) -> Iterator[tuple[Labels, list[tuple[float, float]]]]:
        """The query's series from `first` to `last`; a span the server finds too heavy
        (its --query.max-samples) is asked for again in two halves, down to one step."""
        params = {"query": query, "start": f"{first:.3f}", "end": f"{last:.3f}", "step": step}
        try:
            answer = self._get("/api/v1/query_range", params)
        except TooManySamplesError as err:
            if last <= first:
                raise TraceError(
                    f"{err}, even for one step of {step:g} s: import one namespace at a "
                    "time (--namespace) or raise the server's --query.max-samples"
                ) from err
            middle = first + (last - first) // (2 * step) * step
            yield from self._range(query, first, middle, step)
            yield from self._range(query, middle + step, last, step)
            return
        result = answer.get("result")
        for item in result if isinstance(result, list) else []:
            labels = tuple(sorted((str(k), str(v)) for k, v in item["metric"].items()))
            yield labels, [(float(t), float(v)) for t, v in item["values"]]

    def _get(self, path: str, params: dict[str, object]) -> dict[str, object]:
        address = f"{self.url.rstrip('/')}{path}?{urllib.parse.urlencode(params)}"
        try:
            with urllib.request.urlopen(address, timeout=TIMEOUT_S) as answer:
                body = json.load(answer)
        except urllib.error.HTTPError as err:
            raise self._refused(err) from err
        except (urllib.error.URLError, OSError) as err:
            reason = getattr(err, "reason", err)
            raise TraceError(
                f"cannot reach Prometheus at {shorten(self.url)}: {reason}; check the URL "
                "(e.g. http://prometheus.monitoring:9090) and that this machine can reach it"
            ) from err
        except ValueError as err:
            raise TraceError(
                f"{shorten(self.url)} did not answer with Prometheus' JSON ({err}); is it the "
                "Prometheus server's address (the page with /graph)?"
            ) from err
        if not isinstance(body, dict) or body.get("status") != "success":
            raise TraceError(f"Prometheus at {shorten(self.url)} answered: {shorten(str(body))}")
        data = body.get("data")
        return data if isinstance(data, dict) else {}

    def _refused(self, err: urllib.error.HTTPError) -> TraceError:
        try:
            said = json.loads(err.read().decode("utf-8", "replace")).get("error", "")
        except (ValueError, AttributeError, OSError):
            said = ""
        kind = TooManySamplesError if "too many samples" in str(said) else TraceError
        return kind(
            f"Prometheus at {shorten(self.url)} refused a query (HTTP {err.code}): "
            f"{shorten(str(said or err.reason))}"
        )
