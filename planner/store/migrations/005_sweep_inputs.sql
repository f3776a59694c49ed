-- What each sweep point's options were priced from (`TcoReport.inputs` as JSON, the cloud
-- bills' quantity tables left out), so `planner montecarlo --sweep` re-prices a stored point
-- under other price paths without replaying it. Written with the point; a point stored
-- before this table has none (the Monte Carlo says so and leaves it out).
CREATE TABLE sweep_point_inputs (
    point_key   VARCHAR PRIMARY KEY,
    inputs_json VARCHAR NOT NULL
);
