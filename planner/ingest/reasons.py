"""The fixed taxonomy of why a row was rejected or flagged during ingestion.

Codes are stable (reports, the database and tests use them); descriptions are for people.
"""

REJECTION_REASONS: dict[str, str] = {
    "missing_value": "a value the job needs is empty",
    "not_a_number": "a value that must be a number is not one",
    "negative_value": "a count, size or duration is negative or zero where it must be positive",
    "implausible_value": "a count or run time far beyond any real job (a unit or export mistake)",
    "fractional_gpus": "a job may share one GPU (0-1) but cannot ask for a fraction above one",
    "gpus_not_divisible": "the job's GPUs cannot be spread evenly over its pods",
    "bad_time": "a date/time cannot be read",
    "nonexistent_time": "a local time skipped by a daylight-saving change in the time zone",
    "ambiguous_time": "a local time that happens twice (daylight saving ends) in the time zone",
    "value_too_long": "a date, duration or number cell is far longer than any such value",
    "bad_duration": "a duration cannot be read",
    "end_before_start": "the job ends before it starts",
    "never_started": "the job never ran, so its run time is unknown",
    "unknown_status": "the status is not one we recognise",
    "unknown_priority": "the priority is neither a number nor a known class name",
    "duplicate_job_id": "another row already has this job id",
    "bad_field_count": "the line has more fields than the header",
    "orphan_step": "a Slurm job step whose job line is missing",
    "mixed_time_bases": "times mix absolute dates with seconds-from-start",
}

FLAGS: dict[str, str] = {
    "running_at_end": (
        "still running when the history was exported; runs to the window end, or for its run "
        "time so far where the file gives one (sacct's Elapsed)"
    ),
    "running_at_start": "no start, submit or run time: already running when the window "
    "opened; starts at the window start (--censored reject rejects it instead)",
    "start_from_submit": "no start or run time but a submit time: taken as started when submitted",
    "pending_at_end": "still pending when the history was exported: withdrawn at the window "
    "end unless the replay starts it",
    "ended_while_running": "marked running but ended before the window end (openb: Running "
    "pod with a deletion time): completed",
    "pods_inferred": "no pod count: split into pods of at most the per-pod GPU limit",
    "no_submit_time": "no submit time: taken as submitted when it started",
    "start_before_submit": "starts before its submit time (clock skew in the source)",
    "status_derived": "no status column: completed if it has an end, else running-at-end",
    "job_id_generated": "no job id column: ids are 'row-N' from the row number",
    "queue_missing": "empty queue: put in queue 'default'",
    "control_chars_removed": "control characters (NUL, line breaks, ...) removed from an id "
    "or name",
}
