-- Sweeps: one row per computed point (keyed by a hash of the scenario, the trace, the price
-- book and the point, so a re-run finds the points it has already), and one row per option and
-- horizon of that point's TCO. A point's rows are written in one transaction with it.
CREATE TABLE sweep_points (
    point_key   VARCHAR PRIMARY KEY,
    sweep_key   VARCHAR NOT NULL,
    point_json  VARCHAR NOT NULL,
    currency    VARCHAR NOT NULL,
    computed_at TIMESTAMP NOT NULL
);
CREATE TABLE sweep_options (
    point_key            VARCHAR NOT NULL,
    position             INTEGER NOT NULL,
    option               VARCHAR NOT NULL,
    years                DOUBLE NOT NULL,
    total                DOUBLE NOT NULL,
    per_useful_gpu_hour  DOUBLE,
    utilization          DOUBLE,
    wait_mean_s          DOUBLE,
    wait_p50_s           DOUBLE,
    wait_p95_s           DOUBLE,
    wait_p99_s           DOUBLE,
    npv_vs_cloud         DOUBLE,
    PRIMARY KEY (point_key, position)
);
