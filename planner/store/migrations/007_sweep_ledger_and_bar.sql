-- A sweep point's option rows gain its ledger over the horizon (GPU-hours demanded, served
-- within the trace's window, left out, carried past the window: they add up) and the twin
-- error bar (the twin check's error e, and cost per useful GPU-hour and p95 wait x (1 - e)
-- and x (1 + e)). Points stored before are priced again (point format 4).
ALTER TABLE sweep_options ADD COLUMN demanded_gpu_h DOUBLE;
ALTER TABLE sweep_options ADD COLUMN served_gpu_h DOUBLE;
ALTER TABLE sweep_options ADD COLUMN left_out_gpu_h DOUBLE;
ALTER TABLE sweep_options ADD COLUMN carried_gpu_h DOUBLE;
ALTER TABLE sweep_options ADD COLUMN twin_error DOUBLE;
ALTER TABLE sweep_options ADD COLUMN per_hour_low DOUBLE;
ALTER TABLE sweep_options ADD COLUMN per_hour_high DOUBLE;
ALTER TABLE sweep_options ADD COLUMN wait_p95_low_s DOUBLE;
ALTER TABLE sweep_options ADD COLUMN wait_p95_high_s DOUBLE;
