-- A server price may have no source date: an estimate nobody quoted is stored without one
-- (and flagged as an unsourced estimate) rather than dated the day it was typed in.
ALTER TABLE server_prices ALTER COLUMN as_of DROP NOT NULL;
