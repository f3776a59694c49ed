"""Pod resource requests only, for the fill protocol: times are not needed.

An openb pod list is read row by row for its requests, so pods that never started (and the
study's resampled variants) count; any other job history goes through normal ingestion and
each job contributes its pods. Rows whose requests cannot be read are reported, not dropped
silently.
"""

from pathlib import Path

import pandas as pd

from planner.core.errors import TraceError
from planner.ingest.columns import normalise_name
from planner.ingest.notes import row_message
from planner.ingest.options import NODE_FORMATS, IngestOptions
from planner.ingest.read import jobs_from, sniff
from planner.ingest.rejections import Rejections
from planner.ingest.report import IngestReport, ReportBuilder
from planner.ingest.source import LineProblems, describe, iter_frames, open_source
from planner.ingest.values import cleaned, parse_numbers

PodRequest = tuple[float, float, float, tuple[str, ...]]


_REQUEST_COLUMNS = {"cpu_milli", "memory_mib", "num_gpu", "gpu_milli"}


def read_pod_requests(path: Path, options: IngestOptions) -> tuple[list[PodRequest], IngestReport]:
    """Every pod's request; openb pod lists need no time columns (resampled variants)."""
    source = open_source(path, options.limits)
    openb_requests = {normalise_name(c) for c in source.header} >= _REQUEST_COLUMNS
    if not openb_requests or options.format is not None:
        source, fmt = sniff(path, options)
        if fmt in NODE_FORMATS:
            raise TraceError(
                f"this is a node list ({fmt}), not a pod or job list", file=source.name
            ).coded("node_list_not_pods", file=source.name, format=fmt)
        if fmt != "openb-pods":
            return _from_jobs(path, options)
    fmt = "openb-pods"
    report = IngestReport(
        file=source.name,
        format=fmt,
        read_as=describe(source),
        sha256=source.sha256,
        warnings=list(source.notes),
    )
    builder = ReportBuilder(report)
    pods: list[PodRequest] = []
    problems = LineProblems()
    for frame in iter_frames(source, problems):
        rej = Rejections(frame)
        columns = {}
        for name in ("num_gpu", "gpu_milli", "cpu_milli", "memory_mib"):
            parsed = parse_numbers(frame[name].replace("", "0"))
            rej.add(parsed.bad, "not_a_number", name, row_message("expected_number"))
            rej.add(parsed.values < 0, "negative_value", name, row_message("expected_zero_or_more"))
            columns[name] = parsed.values.fillna(0.0)
        num, milli = columns["num_gpu"], columns["gpu_milli"]
        gpus = (num * milli.where(num > 0, 1000.0).where(milli > 0, 1000.0) / 1000.0).round(6)
        specs = (
            cleaned(frame["gpu_spec"]).fillna("")
            if "gpu_spec" in frame
            else pd.Series("", frame.index)
        )
        keep = rej.alive
        pods.extend(
            (float(g), c / 1000.0, m / 1024.0, tuple(t for t in str(s).split("|") if t))
            for g, c, m, s in zip(
                gpus[keep],
                columns["cpu_milli"][keep],
                columns["memory_mib"][keep],
                specs[keep],
                strict=True,
            )
        )
        builder.add_rejected(rej.result())
    return pods, builder.finish(accepted=len(pods))


def _from_jobs(path: Path, options: IngestOptions) -> tuple[list[PodRequest], IngestReport]:
    stream = jobs_from(*sniff(path, options), options)
    report = stream.new_report()
    builder = ReportBuilder(report)
    pods: list[PodRequest] = []
    accepted = 0
    for result, _ in stream.chunks():
        jobs = result.jobs
        accepted += len(jobs)
        for n, g, c, m, types in zip(
            jobs["pods"], jobs["gpus"], jobs["cpu"], jobs["mem_gib"], jobs["gpu_types"], strict=True
        ):
            request = (float(g), float(c), float(m), tuple(t for t in str(types).split("|") if t))
            pods.extend([request] * int(n))
        builder.add_rejected(result.rejected)
    return pods, builder.finish(accepted=accepted)
