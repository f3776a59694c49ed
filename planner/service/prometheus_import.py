"""Import a job history from Prometheus (kube-state-metrics) the way a file is imported.

Every series is read before anything is written: the pods become a generic job history
(`planner.ingest.prometheus_pods`; `prometheus_jobs` makes an owner's pods one gang job),
written to a temporary CSV and imported through the same stream, censoring rules, report
and single transaction as a file, with the queried window as the export's window. The same
server, window and namespace giving the same pods is recognised as already imported.
"""

import dataclasses
import datetime as dt
import hashlib
import tempfile
import urllib.parse
from pathlib import Path

from planner.core.errors import TraceError
from planner.ingest import IngestOptions, IngestReport, jobs_from, sniff
from planner.ingest.limits import shorten
from planner.ingest.prometheus import Client, Window
from planner.ingest.prometheus_jobs import history_csv
from planner.ingest.prometheus_pods import read_busy, read_pods
from planner.service.importer import checked_name, import_trace
from planner.store import Connection


def import_prometheus(
    con: Connection,
    url: str,
    window: Window,
    options: IngestOptions,
    *,
    namespace: str | None = None,
    name: str | None = None,
) -> IngestReport:
    """Read the window's pods from the Prometheus at `url` and store them as a trace."""
    name = checked_name(name)
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise TraceError(
            f"--prometheus expects an http:// or https:// address, got '{shorten(url)}'"
        )
    client = Client(url)
    pods = read_pods(client, window, namespace)
    notes = read_busy(client, window, namespace, pods)
    text, grouped = history_csv(pods.values(), window)
    label = f"{url.rstrip('/')}{f' (namespace {namespace})' if namespace else ''}"
    generic = dataclasses.replace(options, format="generic")
    with tempfile.TemporaryDirectory(prefix="planner-prometheus-") as folder:
        path = Path(folder) / "prometheus.csv"
        path.write_text(text, encoding="utf-8")
        source, fmt = sniff(path, generic)
        # the id covers where the rows came from and the window, not only the rows
        origin = f"{source.sha256}\n{label}\n{window.start}\n{window.end}"
        digest = hashlib.sha256(origin.encode()).hexdigest()
        source = dataclasses.replace(source, sha256=digest, notes=(*source.notes, *grouped, *notes))
        stream = jobs_from(source, fmt, generic)
        stream.label, stream.window = label, (window.start, window.end)
        return import_trace(con, stream, name or default_name(url, window, namespace))


def default_name(url: str, window: Window, namespace: str | None) -> str:
    """`prometheus HOST[ NAMESPACE] START..END` (dates in UTC)."""
    host = urllib.parse.urlsplit(url).hostname or url
    days = "..".join(
        dt.datetime.fromtimestamp(t, tz=dt.UTC).strftime("%Y-%m-%d")
        for t in (window.start, window.end)
    )
    return f"prometheus {host}{f' {namespace}' if namespace else ''} {days}"
