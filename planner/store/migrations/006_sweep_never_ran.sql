-- Jobs a point's owned GPUs never started (too large for the cluster, or still waiting at the
-- end): the sizing search counts them, so a cluster cannot meet a wait target by leaving jobs
-- out. Points stored before have none and are priced again (the sweep key changed with it).
ALTER TABLE sweep_options ADD COLUMN never_ran INTEGER;
