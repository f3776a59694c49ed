"""Choices and defaults the argument parser shows, copied so `planner --help` stays fast.

The modules that own these values import pandas, numpy or DuckDB on load, which costs
seconds; the parser needs only the values. tests/test_cli_help.py checks each copy against
its owner, so a change there fails the suite until it is made here too.
"""

FORMATS: tuple[str, ...] = ("generic", "openb-pods", "openb-nodes", "slurm", "nodes")
"""planner.ingest.FORMATS"""
CENSORED_CHOICES: tuple[str, ...] = ("window", "reject")
"""planner.ingest.CENSORED_CHOICES"""
FIELDS: tuple[str, ...] = (
    "job_id", "submit", "start", "end", "duration", "gpus_per_pod", "gpus", "pods", "cpu",
    "mem", "gpu_type", "queue", "user", "priority", "status",
)  # fmt: skip
"""planner.ingest.columns.FIELDS"""
NODE_FIELDS: tuple[str, ...] = ("node_id", "gpu_type", "gpus", "cpu", "mem")
"""planner.ingest.columns.NODE_FIELDS"""
MAX_UNPACKED_BYTES = 4 << 30
"""planner.ingest.limits.MAX_UNPACKED_BYTES"""
PRICING_MODELS: tuple[str, ...] = (
    "on_demand", "spot", "reserved", "savings_plan", "cud", "subscription", "capacity_block",
    "quote",
)  # fmt: skip
"""pricing.PRICING_MODELS"""
GPU_JOBS = "gpu-jobs"
"""planner.engine.metrics.GPU_JOBS"""
ALL_JOBS = "all-jobs"
"""planner.engine.metrics.ALL_JOBS"""
WAIT_SCOPE_HELP = (
    "whose waits the headline, the capacity target and the sizing sentence use: gpu-jobs "
    "(jobs asking for GPUs, the default), all-jobs (CPU-only jobs too) or team:NAME (one "
    "queue's jobs)"
)
"""planner.engine.metrics.WAIT_SCOPE_HELP"""
