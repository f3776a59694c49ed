-- Jobs may be withdrawn (created, never scheduled, deleted while waiting, or still waiting at
-- the export) and censored on the left (already running when the export's window opened).
-- DuckDB cannot change a CHECK constraint in place, so the table is rebuilt with its rows.
ALTER TABLE jobs RENAME TO jobs_002;

CREATE TABLE jobs (
    trace_id         VARCHAR NOT NULL,
    row_number       BIGINT NOT NULL,
    job_id           VARCHAR NOT NULL,
    submit_s         DOUBLE NOT NULL,
    duration_s       DOUBLE NOT NULL CHECK (duration_s >= 0),
    pods             INTEGER NOT NULL CHECK (pods >= 1),
    gpus             DOUBLE NOT NULL CHECK (gpus >= 0),
    cpu              DOUBLE NOT NULL CHECK (cpu >= 0),
    mem_gib          DOUBLE NOT NULL CHECK (mem_gib >= 0),
    gpu_types        VARCHAR NOT NULL,
    queue            VARCHAR NOT NULL,
    user_name        VARCHAR NOT NULL,
    priority         BIGINT NOT NULL,
    status           VARCHAR NOT NULL
        CHECK (status IN ('completed', 'failed', 'cancelled', 'running-at-end', 'withdrawn')),
    start_s          DOUBLE,
    end_s            DOUBLE,
    flags            VARCHAR NOT NULL,
    withdraw_after_s DOUBLE CHECK (withdraw_after_s >= 0),
    running_at_start BOOLEAN NOT NULL DEFAULT false
);

INSERT INTO jobs
SELECT *, NULL, false FROM jobs_002;

DROP TABLE jobs_002;
