-- The price book: cloud price points, bare-metal servers, FX rates and assumption sets.
-- Every row has a stable `key` and an `origin`: 'seed' rows come from pricing/seeds/ and are
-- replaced when the shipped seeds change; 'user' rows (added, imported or edited by the
-- user) are never touched by seeding. Prices stay in their native currency.
CREATE TABLE price_points (
    key                     VARCHAR PRIMARY KEY,
    origin                  VARCHAR NOT NULL CHECK (origin IN ('seed', 'user')),
    provider                VARCHAR NOT NULL CHECK (provider <> ''),
    region                  VARCHAR NOT NULL,
    instance_type           VARCHAR NOT NULL CHECK (instance_type <> ''),
    gpu_model               VARCHAR NOT NULL CHECK (gpu_model <> ''),
    gpu_mem_gb              INTEGER CHECK (gpu_mem_gb > 0),
    gpu_form                VARCHAR CHECK (gpu_form IN ('SXM', 'PCIe', 'NVL')),
    gpus_per_instance       DOUBLE NOT NULL CHECK (gpus_per_instance > 0),
    price_per_instance_hour DECIMAL(14, 6) NOT NULL CHECK (price_per_instance_hour >= 0),
    price_per_gpu_hour      DECIMAL(14, 6) NOT NULL CHECK (price_per_gpu_hour >= 0),
    currency                VARCHAR NOT NULL CHECK (length(currency) = 3),
    pricing_model           VARCHAR NOT NULL CHECK (pricing_model IN ('on_demand', 'spot',
                                'reserved', 'savings_plan', 'cud', 'subscription',
                                'capacity_block', 'quote')),
    term_months             INTEGER CHECK (term_months > 0),
    upfront_fraction        DOUBLE CHECK (upfront_fraction BETWEEN 0 AND 1),
    billing_granularity_s   INTEGER NOT NULL CHECK (billing_granularity_s > 0),
    min_billing_s           INTEGER NOT NULL CHECK (min_billing_s >= 0),
    includes                VARCHAR NOT NULL,
    as_of                   DATE NOT NULL,
    source_url              VARCHAR NOT NULL,
    source_kind             VARCHAR NOT NULL CHECK (source_kind IN ('provider_api',
                                'provider_page', 'dataset', 'blog', 'estimate', 'quote')),
    confidence              VARCHAR NOT NULL CHECK (confidence IN ('H', 'M', 'L')),
    notes                   VARCHAR NOT NULL,
    updated_at              TIMESTAMP NOT NULL
);

CREATE TABLE server_prices (
    key              VARCHAR PRIMARY KEY,
    origin           VARCHAR NOT NULL CHECK (origin IN ('seed', 'user')),
    gpu_model        VARCHAR NOT NULL CHECK (gpu_model <> ''),
    gpu_mem_gb       INTEGER CHECK (gpu_mem_gb > 0),
    gpu_form         VARCHAR CHECK (gpu_form IN ('SXM', 'PCIe', 'NVL')),
    gpus_per_server  INTEGER NOT NULL CHECK (gpus_per_server > 0),
    price            DECIMAL(14, 2) NOT NULL CHECK (price >= 0),
    currency         VARCHAR NOT NULL CHECK (length(currency) = 3),
    max_kw           DOUBLE NOT NULL CHECK (max_kw > 0),
    idle_kw          DOUBLE NOT NULL CHECK (idle_kw >= 0),
    load_kw          DOUBLE NOT NULL CHECK (load_kw > 0),
    as_of            DATE NOT NULL,
    source           VARCHAR NOT NULL,
    confidence       VARCHAR NOT NULL CHECK (confidence IN ('H', 'M', 'L')),
    power_source     VARCHAR NOT NULL,
    power_confidence VARCHAR NOT NULL CHECK (power_confidence IN ('H', 'M', 'L')),
    notes            VARCHAR NOT NULL,
    updated_at       TIMESTAMP NOT NULL,
    CHECK (idle_kw <= load_kw AND load_kw <= max_kw)
);

-- 1 base = rate quote on rate_date; conversions use the latest rate on or before a date.
-- key = 'BASE/QUOTE@DATE', so one rate per pair and day.
CREATE TABLE fx_rates (
    key        VARCHAR PRIMARY KEY,
    origin     VARCHAR NOT NULL CHECK (origin IN ('seed', 'user')),
    rate_date  DATE NOT NULL,
    base       VARCHAR NOT NULL CHECK (length(base) = 3),
    quote      VARCHAR NOT NULL CHECK (length(quote) = 3 AND quote <> base),
    rate       DOUBLE NOT NULL CHECK (rate > 0),
    source     VARCHAR NOT NULL,
    confidence VARCHAR NOT NULL CHECK (confidence IN ('H', 'M', 'L')),
    notes      VARCHAR NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- key = 'set_name/name'.
CREATE TABLE assumptions (
    key        VARCHAR PRIMARY KEY,
    origin     VARCHAR NOT NULL CHECK (origin IN ('seed', 'user')),
    set_name   VARCHAR NOT NULL CHECK (set_name <> ''),
    name       VARCHAR NOT NULL CHECK (name <> ''),
    value      DOUBLE NOT NULL,
    unit       VARCHAR NOT NULL,
    currency   VARCHAR CHECK (length(currency) = 3),
    source     VARCHAR NOT NULL,
    confidence VARCHAR NOT NULL CHECK (confidence IN ('H', 'M', 'L')),
    notes      VARCHAR NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- One row per seeding: which version of pricing/seeds/ the seed rows now hold.
CREATE TABLE price_book_seedings (
    version        INTEGER NOT NULL,
    content_sha256 VARCHAR NOT NULL,
    seeded_at      TIMESTAMP NOT NULL,
    added          INTEGER NOT NULL,
    updated        INTEGER NOT NULL,
    removed        INTEGER NOT NULL,
    kept_user      INTEGER NOT NULL
);
