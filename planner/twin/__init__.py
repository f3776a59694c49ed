"""The twin check: does a replay reproduce what happened? Compare a history's observed
starts with its replay, and calibrate start latency, effective capacity and policy on one
window, validated on a later one (`planner.twin.calibrate` has the method)."""
