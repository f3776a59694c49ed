"""What the readers tell a user beside what they read, by code: notes and warnings (a
repeated column, lines in another encoding, a kubectl item or a Kueue/Volcano key not
modelled) and why one row was rejected.

The English here is what the CLI prints and the ingest report keeps; each text is a
`planner.core.notes.Note`, so it also carries its code and values and the app words it in
the reader's language (planner/ui/text/ingest_notes.py). A text that lost its code on the
way (the ingest report is a pydantic model, rejected rows live in the database) is
`recognised` by its template: values are filled in as given strings (numbers formatted by
the caller), so a template read backwards gives the same values.
"""

import re
from collections.abc import Mapping
from functools import cache

from planner.core.notes import Note

_IGNORED = "not modelled, ignored"

NOTES: dict[str, str] = {
    # reading the text (planner/ingest/source.py, header.py, columns.py)
    "mixed_encodings": (
        "mixed encodings: the file is not UTF-8 as a whole (invalid byte on line {line}), so "
        "it was read as GBK/GB18030, but {count} lines are UTF-8 (lines {lines}) and their "
        "non-ASCII text (Chinese names, queues, ...) is garbled; re-save the file in one "
        "encoding (UTF-8) and import it again"
    ),
    "mixed_encodings_end": (
        "mixed encodings: the file is not UTF-8 as a whole (the file ends in the middle of a "
        "character), so it was read as GBK/GB18030, but {count} lines are UTF-8 (lines "
        "{lines}) and their non-ASCII text (Chinese names, queues, ...) is garbled; re-save "
        "the file in one encoding (UTF-8) and import it again"
    ),
    "duplicate_column": (
        "duplicate column name: columns {first} and {second} are both '{name}'; the first is "
        "the one matched by name, the other is read as '{renamed}' (--map FIELD='{renamed}' "
        "picks it)"
    ),
    "trace_renamed": (
        "a trace named '{name}' is already stored (this one differs in: {differs}); this one "
        "is named '{renamed}' so that each name finds one trace"
    ),
    "same_name_columns": (
        "columns {columns} all name the field '{field}'; the first is used "
        "(--map {field}=COLUMN picks another)"
    ),
    "other_columns": (
        "'{column}' is read as '{field}'; {others} could be too "
        "(--map {field}=COLUMN or the mapping table picks another)"
    ),
    # a node list's rows (planner/service/replay.py read_nodes)
    "node_row_skipped": "{file} row {row}: {reason}, {message}; node skipped",
    "node_rows_skipped": "{file}: {count} rows skipped in all",
    # kubectl get nodes -o json (planner/ingest/kubectl.py)
    "kubectl_not_node": "item {index}: kind {kind} is not a Node, skipped",
    "kubectl_cordoned": "{name}: cordoned (unschedulable), kept as capacity",
    # Prometheus (planner/ingest/prometheus_pods.py, prometheus_jobs.py)
    "pods_grouped": (
        "{pods} pods grouped by their owner (kube_pod_owner or a job-name label) into {jobs} "
        "jobs of several pods each, which start when all their pods run"
    ),
    "gang_mixed_gpus": (
        "{count} owners' pods ask for different GPU counts ({owners}): their pods are kept "
        "as one job each, not grouped"
    ),
    "dcgm_gpu_util_fallback": (
        "GPU busy share from DCGM_FI_DEV_GPU_UTIL (the share of time any kernel ran): the "
        "server has no DCGM_FI_PROF_GR_ENGINE_ACTIVE, which counts the graphics engine's "
        "active time and reads lower for small kernels"
    ),
    "dcgm_missing": (
        "no dcgm-exporter series (DCGM_FI_PROF_GR_ENGINE_ACTIVE, DCGM_FI_DEV_GPU_UTIL) with "
        "pod labels in the window: the jobs' GPU busy share is unknown"
    ),
    "kubectl_bad_quantity": "{name}: skipped, unreadable resource quantity '{value}'",
    "kubectl_no_product": "{name}: {gpus} GPUs without a GPU product label; GPU type 'GPU'",
    "kubectl_unknown_mig": "{name}: unknown MIG profiles {profiles}; whole GPUs only",
    "kubectl_whole_beside_mig": "{name}: {gpus} whole GPUs beside MIG GPUs; all modelled as MIG",
    "kubectl_single_unknown": (
        "{name}: MIG single strategy without a known profile; whole GPUs only"
    ),
    "kubectl_gpus_inferred": "{name}: no nvidia.com/gpu.count label; {gpus} GPUs inferred",
    "kubectl_mig_gpus_inferred": (
        "{name}: no nvidia.com/gpu.count label; {gpus} MIG GPUs inferred"
    ),
    "kubectl_mig_uneven": (
        "{name}: MIG instances {instances} do not split evenly into a legal layout per GPU; "
        "modelled as dynamic MIG"
    ),
    "kubectl_mig_differs": (
        "{gpu_type}: nodes differ in MIG layout; all modelled as that of {count} nodes "
        "({strategy}, {layout})"
    ),
    "kubectl_mig_differs_dynamic": (
        "{gpu_type}: nodes differ in MIG layout; all modelled as that of {count} nodes "
        "({strategy}, dynamic)"
    ),
    # Kueue and Volcano YAML (planner/ingest/kueue_yaml.py, volcano_yaml.py)
    "yaml_not_mapping": "{file}: skipped a document that is not a mapping",
    "yaml_kind_skipped": "{kind} {name}: kind not modelled, skipped",
    "yaml_document_skipped": "a document {name}: kind not modelled, skipped",
    "yaml_key_ignored": "{where}: spec.{key} " + _IGNORED,
    "kueue_priority": "{where}: priority {value} noted; use the trace's priority column",
    "kueue_preemption_ignored": "{where}: spec.preemption.{key} " + _IGNORED,
    "kueue_quota_ignored": (
        "{where}: quota on {resource} (flavor {flavor}) not modelled: GPU, CPU and memory "
        "quotas are"
    ),
    "volcano_root_skipped": "Queue root: Volcano sizes the root queue from the cluster; skipped",
    "volcano_guarantee_ignored": "{where}: spec.guarantee.{key} " + _IGNORED,
    "volcano_cpu_memory_ignored": (
        "{where}: {field} of {resource} not modelled (only a CPU or memory capability is, as "
        "a hard cap)"
    ),
    "volcano_resource_ignored": "{where}: {field} of {resource} " + _IGNORED,
    "volcano_action_ignored": "{where}: action {action} " + _IGNORED,
    "volcano_plugin_ignored": "{where}: plugin {plugin} " + _IGNORED,
    "volcano_no_conf": (
        "{file}: no {conf} ConfigMap: Volcano's default actions assumed (enqueue, allocate, "
        "backfill: no preempt, no reclaim)"
    ),
    "volcano_both_plugins": "both proportion and capacity are enabled: capacity used",
    "volcano_no_plugin": "neither proportion nor capacity is enabled: proportion used",
    "volcano_deserved": "{file}: queues set deserved: the capacity plugin assumed",
}

ROWS: dict[str, str] = {
    # why a row was rejected: the ingest report's examples and the rejected rows' file
    "value_too_long": (
        "longer than {limit} characters: no date, duration or number is that long (is the "
        "right column mapped?)"
    ),
    "job_id_empty": "the job id is empty",
    "node_id_empty": "the node id is empty",
    "value_empty": "the value is empty",
    "pods_not_whole": "the pod count must be whole",
    "too_many_gpus": "more than {limit} GPUs for one job; check the column and its unit",
    "fractional_gpus": (
        "GPUs above one must be whole; a fraction is only allowed for a shared GPU (<1)"
    ),
    "gpus_not_divisible": (
        "the job's total GPUs cannot be split evenly over its pods; give GPUs per pod with "
        "--map gpus_per_pod=COLUMN"
    ),
    "expected_number": "expected a number",
    "expected_zero_or_more": "expected a number >= 0",
    "busy_over_100": "a GPU busy share above 100 %: write it as 0-1 or as a percentage",
    "expected_one_or_more": "expected a number >= 1",
    "expected_gpus": "expected a whole number of GPUs >= 0",
    "expected_status": "expected a status such as {known}",
    "expected_priority": "expected a whole number or one of low, normal, high, critical",
    "nonexistent_time": (
        "this local time does not exist in {tz}: the clocks skipped it when daylight saving "
        "began; fix the value or write it with its UTC offset"
    ),
    "ambiguous_time": (
        "this local time happens twice in {tz} (daylight saving ended), so the instant is "
        "unknown; write it with its UTC offset (e.g. +01:00)"
    ),
    "bad_time": (
        "expected a date/time (ISO 8601, '2024-01-05 10:00:00', epoch seconds) or seconds "
        "from the trace start"
    ),
    "end_before_start": "the end time is before the start time",
    "run_over_100_years": (
        "a run time over 100 years: is the duration in milliseconds, or the end year wrong?"
    ),
    "never_started": "the job never started and has no submit time: there is nothing to replay",
    "deleted_before_submit": "deleted before submit",
    "ends_before_submit": "ends before submit",
    "no_start_censored": "the job has no start time or run time (--censored reject)",
    "bad_duration": "expected seconds, HH:MM:SS or D-HH:MM:SS",
    "negative_run_time": "a run time cannot be negative",
    "mixed_time_bases": "one time is a date, another seconds-from-start",
    # pandas' own words for a line with too many fields (on_bad_lines="warn")
    "field_count": "Expected {expected} fields in line {line}, saw {saw}",
}


REPLAY: dict[str, str] = {
    # notes a replay writes on the Volcano queues and GPU sharing it read; the engine writes
    # them as plain text (planner/engine/volcano_queues.py), so they are only `recognised`
    "volcano_guarantees_over": "Volcano guarantees {guaranteed} {what} but the cluster has {gpus}",
    "volcano_deserved_over": (
        "Volcano deserved shares add up to {shared} {what}, more than the cluster's {gpus} "
        "(guarantees above weighted shares): quotas promise more than exists"
    ),
    "volcano_default_missing": (
        "Volcano default queue '{queue}' is not declared: jobs whose queue names no Volcano "
        "queue are unschedulable"
    ),
    "volcano_queue_priority": (
        "Volcano queue {queue}: priority {priority} not modelled (Volcano orders queues by it; "
        "the replay orders jobs by their own priority)"
    ),
    "volcano_parent_ignored": (
        "Volcano queue {queue}: parent ignored (the proportion plugin has no hierarchy)"
    ),
    "volcano_deserved_ignored": (
        "Volcano queue {queue}: deserved ignored (the proportion plugin water-fills by weight)"
    ),
    "volcano_capability_flavors": (
        "Volcano queue {queue}: CPU and memory capability not modelled with a flavor per GPU type"
    ),
    "volcano_capability_parent": (
        "Volcano queue {queue}: CPU and memory capability of a parent queue not modelled"
    ),
    "volcano_types_missing": (
        "Volcano queue {queue}: GPU types {types} are not installed, ignored"
    ),
    "sharing_no_gpu": "sharing for {gpu_type}: the cluster has no such GPU, ignored",
    "sharing_read": "{gpu_type}: {mode}, read from the node list",
}


def ingest_note(code: str, **values: object) -> Note:
    """The note `code` in English, filled from `values` (given as the strings to show)."""
    return Note({**NOTES, **REPLAY}[code].format(**values), code, values)


def row_message(code: str, **values: object) -> Note:
    """Why a row was rejected, in English, with its code and values."""
    return Note(ROWS[code].format(**values), code, values)


def recognised(text: str) -> tuple[str, Mapping[str, str]] | None:
    """(code, values) of a note or row message: its own when it is a `Note` with a code
    here, else of the template it matches (longest templates first); None when none does."""
    if isinstance(text, Note) and any(text.code in c for c in (NOTES, ROWS, REPLAY)):
        return text.code, {k: str(v) for k, v in text.values.items()}
    for code, pattern in _patterns():
        found = pattern.fullmatch(text)
        if found:
            return code, found.groupdict()
    return None


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    catalog = {**NOTES, **ROWS, **REPLAY}
    literal = {code: len(re.sub(r"\{\w+\}", "", text)) for code, text in catalog.items()}
    ordered = sorted(catalog, key=lambda code: -literal[code])
    return tuple((code, _pattern(catalog[code])) for code in ordered)


def _pattern(template: str) -> re.Pattern[str]:
    """`template` as a regular expression: each placeholder a group (a repeated one must
    repeat the same text)."""
    parts: list[str] = []
    seen: set[str] = set()
    for literal, name in re.findall(r"([^{]*)(?:\{(\w+)\})?", template):
        parts.append(re.escape(literal))
        if name:
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
    return re.compile("".join(parts), re.DOTALL)
