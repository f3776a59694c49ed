"""Words exports use for a job's status and priority, in English and Chinese (a string table)."""

STATUS_WORDS: dict[str, str] = {
    **dict.fromkeys(
        (
            "completed",
            "complete",
            "succeeded",
            "success",
            "successful",
            "done",
            "finished",
            "ok",
            "pass",
            "passed",
            "成功",
            "完成",
            "已完成",
        ),
        "completed",
    ),
    **dict.fromkeys(
        (
            "failed",
            "fail",
            "failure",
            "error",
            "timeout",
            "node_fail",
            "out_of_memory",
            "oom",
            "boot_fail",
            "deadline",
            "失败",
            "超时",
        ),
        "failed",
    ),
    **dict.fromkeys(
        (
            "cancelled",
            "canceled",
            "cancel",
            "killed",
            "terminated",
            "stopped",
            "preempted",
            "revoked",
            "取消",
            "已取消",
            "终止",
            "已终止",
        ),
        "cancelled",
    ),
    **dict.fromkeys(
        ("running", "run", "active", "in_progress", "运行中", "running-at-end"), "running-at-end"
    ),
    **dict.fromkeys(
        ("pending", "queued", "waiting", "requeued", "排队", "等待", "排队中"), "pending"
    ),
}
PRIORITY_WORDS: dict[str, int] = {
    "lowest": -2,
    "low": -1,
    "normal": 0,
    "medium": 0,
    "default": 0,
    "high": 1,
    "highest": 2,
    "critical": 3,
    "urgent": 3,
    "低": -1,
    "中": 0,
    "普通": 0,
    "高": 1,
    "紧急": 3,
}
