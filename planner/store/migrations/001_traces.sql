-- Traces: one row per imported job history, its jobs, and the rows we could not use.
CREATE TABLE traces (
    trace_id       VARCHAR PRIMARY KEY,
    name           VARCHAR NOT NULL,
    source_file    VARCHAR NOT NULL,
    source_format  VARCHAR NOT NULL,
    content_sha256 VARCHAR NOT NULL,
    options_json   VARCHAR NOT NULL,
    imported_at    TIMESTAMP NOT NULL,
    time_base      VARCHAR NOT NULL CHECK (time_base IN ('absolute', 'relative')),
    start_utc      TIMESTAMP,
    timezone       VARCHAR NOT NULL,
    horizon_s      DOUBLE NOT NULL CHECK (horizon_s >= 0),
    jobs           BIGINT NOT NULL CHECK (jobs >= 0),
    rows_read      BIGINT NOT NULL CHECK (rows_read >= jobs),
    gpu_hours      DOUBLE NOT NULL CHECK (gpu_hours >= 0),
    report_json    VARCHAR NOT NULL
);

CREATE TABLE jobs (
    trace_id   VARCHAR NOT NULL,
    row_number BIGINT NOT NULL,
    job_id     VARCHAR NOT NULL,
    submit_s   DOUBLE NOT NULL,
    duration_s DOUBLE NOT NULL CHECK (duration_s >= 0),
    pods       INTEGER NOT NULL CHECK (pods >= 1),
    gpus       DOUBLE NOT NULL CHECK (gpus >= 0),
    cpu        DOUBLE NOT NULL CHECK (cpu >= 0),
    mem_gib    DOUBLE NOT NULL CHECK (mem_gib >= 0),
    gpu_types  VARCHAR NOT NULL,
    queue      VARCHAR NOT NULL,
    user_name  VARCHAR NOT NULL,
    priority   BIGINT NOT NULL,
    status     VARCHAR NOT NULL
        CHECK (status IN ('completed', 'failed', 'cancelled', 'running-at-end')),
    start_s    DOUBLE,
    end_s      DOUBLE,
    flags      VARCHAR NOT NULL
);

CREATE TABLE rejected_rows (
    trace_id    VARCHAR NOT NULL,
    row_number  BIGINT NOT NULL,
    reason      VARCHAR NOT NULL,
    column_name VARCHAR NOT NULL,
    value       VARCHAR NOT NULL,
    message     VARCHAR NOT NULL,
    raw_json    VARCHAR NOT NULL
);

CREATE TABLE clusters (
    cluster_id     VARCHAR PRIMARY KEY,
    name           VARCHAR NOT NULL,
    source_file    VARCHAR NOT NULL,
    content_sha256 VARCHAR NOT NULL,
    imported_at    TIMESTAMP NOT NULL,
    nodes          INTEGER NOT NULL CHECK (nodes >= 1),
    gpus           INTEGER NOT NULL CHECK (gpus >= 0),
    config_json    VARCHAR NOT NULL,
    report_json    VARCHAR NOT NULL
);
