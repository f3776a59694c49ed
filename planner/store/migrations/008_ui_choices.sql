-- What a user chose on a page that should outlast the page and the browser session: the
-- scenarios being compared, their trace and horizon (Compare), as JSON under a key.
CREATE TABLE ui_choices (
    key        VARCHAR PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 80),
    value_json VARCHAR NOT NULL,
    saved_at   TIMESTAMP NOT NULL
);
