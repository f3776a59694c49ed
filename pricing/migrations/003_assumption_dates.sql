-- An assumption that is a price (electricity, colocation, staff, CPU instances) may carry the
-- date it was seen, so a TCO can flag it when it is older than the staleness limit; rules and
-- ratios (PUE, shares, discounts) leave it empty.
ALTER TABLE assumptions ADD COLUMN as_of DATE;
