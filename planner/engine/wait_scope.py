"""Whose waits a replay's headline counts: GPU jobs, all jobs, or one team's.

Plain strings, no numpy: the command line's `--waits` help and check come from here and must
answer without loading the engine's arithmetic (`planner.engine.metrics` does the counting).
"""

GPU_JOBS = "gpu-jobs"
ALL_JOBS = "all-jobs"
TEAM_PREFIX = "team:"
WAIT_SCOPE_HELP = (
    "whose waits the headline, the capacity target and the sizing sentence use: gpu-jobs "
    "(jobs asking for GPUs, the default), all-jobs (CPU-only jobs too) or team:NAME (one "
    "queue's jobs)"
)


def check_wait_scope(scope: str) -> str:
    """`scope` if it names a wait scope; a ValueError saying what is expected otherwise."""
    if scope in (GPU_JOBS, ALL_JOBS) or (scope.startswith(TEAM_PREFIX) and scope[5:]):
        return scope
    raise ValueError(f"unknown wait scope '{scope}': {WAIT_SCOPE_HELP}")


def scope_team(scope: str) -> str:
    """The team (queue) a `team:NAME` wait scope names."""
    return scope.removeprefix(TEAM_PREFIX)
