-- Saved scenarios: a unique name, the YAML as it is downloaded, the trace it ran on, and the
-- results of its last run with the key (hash of YAML and trace id) they were computed for.
CREATE TABLE scenarios (
    name         VARCHAR PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 80),
    kind         VARCHAR NOT NULL CHECK (kind IN ('replay', 'tco')),
    yaml_text    VARCHAR NOT NULL,
    trace_id     VARCHAR,
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL,
    results_json VARCHAR,
    results_key  VARCHAR
);
