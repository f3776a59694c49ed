"""The chargeback section's texts (the Compare page); the table's own labels and the rule
statements are the report's (`planner/report/text_chargeback.py`)."""

EN = {
    "chargeback.title": "Chargeback by team",
    "chargeback.rule": "Idle cost",
    "chargeback.rule_use": "shared by use",
    "chargeback.rule_quota": "shared by quota",
    "chargeback.rule_idle": "kept as an idle line",
    "chargeback.rule_help": (
        "How the owned GPUs' idle cost is charged: in proportion to each team's GPU-hours, in "
        "proportion to each team's queue quota, or on a separate idle line (the choices "
        "Kubecost and OpenCost offer). The cost of the GPU-hours used is always split by use. "
        "The Excel download uses the same rule."
    ),
    "chargeback.team": "Team (queue)",
    "chargeback.none": "No chargeback: the demand is a utilization, not a replayed trace.",
    "chargeback.download_chargeback": "Download the chargeback (CSV)",
    "chargeback.download_jobs": "Download the per-job table (CSV)",
}
ZH = {
    "chargeback.title": "按团队分摊成本",
    "chargeback.rule": "闲置成本",
    "chargeback.rule_use": "按使用量分摊",
    "chargeback.rule_quota": "按配额分摊",
    "chargeback.rule_idle": "单列为闲置",
    "chargeback.rule_help": (
        "自有 GPU 闲置成本的分摊方式：按各团队的 GPU 小时、按各团队的队列配额，或单独列为闲置一行"
        "（Kubecost 和 OpenCost 提供的选项）。已使用 GPU 小时的成本总是按使用量分摊。"
        "Excel 下载使用同一规则。"
    ),
    "chargeback.team": "团队（队列）",
    "chargeback.none": "无法分摊：需求是利用率，而不是回放的作业记录。",
    "chargeback.download_chargeback": "下载成本分摊（CSV）",
    "chargeback.download_jobs": "下载逐作业表（CSV）",
}
