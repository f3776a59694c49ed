-- A job's GPU busy share: the mean fraction of time its GPUs were busy (0-1), from a file's
-- gpu_util column or dcgm-exporter's series in Prometheus; NULL where it is not known.
ALTER TABLE jobs ADD COLUMN gpu_util DOUBLE;
