"""The chargeback's and the CSV files' report texts in English and 简体中文 (merged into
`planner.report.text`'s catalogs)."""

CHARGEBACK_EN = {
    "report.sheet.chargeback": "Chargeback",
    "report.chargeback.title": "Chargeback by team: each option's cost over the horizon",
    "report.chargeback.team": "Team (queue)",
    "report.chargeback.busy_title": (
        "GPU-hours allocated and busy by team (busy = GPU-hours x the job's measured busy share)"
    ),
    "report.chargeback.busy_team": "Team (queue)",
    "report.chargeback.busy_allocated": "GPU-hours allocated",
    "report.chargeback.busy_known": "GPU-hours with a busy share",
    "report.chargeback.busy_busy": "GPU-hours busy",
    "report.chargeback.busy_share": "Busy share (busy / with a share)",
    "report.chargeback.idle_line": "Idle (not charged to a team)",
    "report.chargeback.total": "Total (sum of the rows above)",
    "report.chargeback.option_total": "Option total (the model's)",
    "report.chargeback.difference": "Difference",
    "report.chargeback.weights": (
        "What splits each option (each amount above is a formula over these and the option's "
        "sheet, unrounded: the CSV and the app show whole cents): the GPU-hours a month each "
        "team used on it (the replay's, fixed), each team's quota and the option's idle cost"
    ),
    "report.chargeback.quota": "Quota (GPUs)",
    "report.chargeback.idle_cost": "Idle cost (the option's sheet)",
    "report.chargeback.none": (
        "No per-team data: the demand is a utilization, not a replayed trace."
    ),
    "report.chargeback.rule.use": (
        "Rule: idle cost shared in proportion to use. Every option's whole cost is split by "
        "the GPU-hours each team's jobs used on it."
    ),
    "report.chargeback.rule.quota": (
        "Rule: idle cost shared in proportion to quota. The cost of the GPU-hours used is "
        "split by use; the idle owned GPUs' cost by each team's quota ({source})."
    ),
    "report.chargeback.rule.idle": (
        "Rule: idle cost kept apart. The cost of the GPU-hours used is split by use; the idle "
        "owned GPUs' cost stays on its own line, charged to no team."
    ),
    "report.chargeback.fallback": (
        "The scenario sets no queue quotas, so idle cost is shared in proportion to use."
    ),
    "report.chargeback.rounding": (
        "Amounts are in whole cents; rounding remainders go to the largest fractions, so each "
        "column adds up to the option's total to the cent."
    ),
    "report.chargeback.rounding_live": (
        "Each amount is a formula over its option's sheet and the weights under the table "
        "(exact shares, within a cent of the whole cents the CSV and the app show), so each "
        "column adds up to the option's total."
    ),
    "report.chargeback.source.kueue": "Kueue ClusterQueue nominal GPUs",
    "report.chargeback.source.volcano": "Volcano queues' deserved GPUs",
    "report.chargeback.source.none": "no quotas set",
    "report.tidy.net_cash": "Net cash",
    "report.focus.start": (
        "FOCUS rows start in {month} (month 1 of the plan; --start-month or the next month)"
    ),
    "report.focus.owned_service": "Self-hosted GPU servers",
    "report.focus.amortized": "CapEx amortized: the servers' depreciation this month",
    "report.focus.cash_only": "Cash only (not in the P&L): {categories}",
    "report.focus.commitment_used": "Commitment: the share the demand used",
    "report.focus.commitment_unused": "Commitment: the share left unused",
    "report.focus.tax_saved": "Tax saved on this month's bill",
    "report.chargeback.rule_name.use": "proportional to use",
    "report.chargeback.rule_name.quota": "proportional to quota",
    "report.chargeback.rule_name.idle": "separate idle line",
    "report.chargeback.col.team": "Team",
    "report.chargeback.col.rule": "Rule",
    "report.chargeback.col.used_cost": "Cost of use",
    "report.chargeback.col.idle_share": "Share of idle cost",
    "report.chargeback.col.charge": "Charge",
    "report.chargeback.col.gpu_hours_month": "GPU-hours per month",
    "report.tidy.col.category": "Category",
    "report.tidy.col.amount": "Amount",
    "report.jobs.col.job": "Job",
    "report.jobs.col.user": "User",
    "report.jobs.col.gpus": "GPUs",
    "report.jobs.col.gpu_hours": "GPU-hours",
    "report.jobs.col.status": "Self-hosted status",
    "report.jobs.col.wait_s": "Self-hosted wait (s)",
    "report.jobs.col.hybrid_status": "Hybrid status",
    "report.jobs.col.hybrid_wait_s": "Hybrid wait (s)",
    "report.jobs.col.gpu_hours_in_window": "Self-hosted GPU-hours in the window",
    "report.jobs.col.hybrid_gpu_hours_in_window": "Hybrid GPU-hours in the window",
}

CHARGEBACK_ZH = {
    "report.sheet.chargeback": "成本分摊",
    "report.chargeback.title": "按团队分摊：各方案在期限内的成本",
    "report.chargeback.team": "团队（队列）",
    "report.chargeback.busy_title": (
        "各团队已分配与繁忙的 GPU 小时（繁忙 = GPU 小时 × 作业实测繁忙占比）"
    ),
    "report.chargeback.busy_team": "团队（队列）",
    "report.chargeback.busy_allocated": "已分配 GPU 小时",
    "report.chargeback.busy_known": "有繁忙占比的 GPU 小时",
    "report.chargeback.busy_busy": "繁忙 GPU 小时",
    "report.chargeback.busy_share": "繁忙占比（繁忙 / 有占比）",
    "report.chargeback.idle_line": "闲置（不分摊给团队）",
    "report.chargeback.total": "合计（以上各行之和）",
    "report.chargeback.option_total": "方案总额（模型）",
    "report.chargeback.difference": "差额",
    "report.chargeback.weights": (
        "各方案的分摊依据（上方每个金额都是基于这些数据和方案工作表的公式，未取整；"
        "CSV 和应用显示到分）：各团队每月在该方案上使用的 GPU 小时（回放结果，固定）、"
        "各团队配额和方案的闲置成本"
    ),
    "report.chargeback.quota": "配额（GPU）",
    "report.chargeback.idle_cost": "闲置成本（方案工作表）",
    "report.chargeback.none": "没有按团队的数据：需求是利用率，而不是回放的作业记录。",
    "report.chargeback.rule.use": (
        "规则：闲置成本按使用量分摊。各方案的全部成本按各团队作业在该方案上使用的 GPU 小时分摊。"
    ),
    "report.chargeback.rule.quota": (
        "规则：闲置成本按配额分摊。已使用 GPU 小时的成本按使用量分摊；"
        "闲置自有 GPU 的成本按各团队的配额（{source}）分摊。"
    ),
    "report.chargeback.rule.idle": (
        "规则：闲置成本单列。已使用 GPU 小时的成本按使用量分摊；"
        "闲置自有 GPU 的成本单独列为一行，不分摊给任何团队。"
    ),
    "report.chargeback.fallback": "该场景未设置队列配额，因此闲置成本按使用量分摊。",
    "report.chargeback.rounding": (
        "金额以分为单位取整；舍入余数分给小数部分最大的行，因此每列合计与方案总额精确到分一致。"
    ),
    "report.chargeback.rounding_live": (
        "每个金额都是基于方案工作表和表下权重的公式（精确份额，"
        "与 CSV 和应用显示的分相差不到一分），因此每列合计等于方案总额。"
    ),
    "report.chargeback.source.kueue": "Kueue ClusterQueue 的名义 GPU 配额",
    "report.chargeback.source.volcano": "Volcano 队列的应得 GPU",
    "report.chargeback.source.none": "未设置配额",
    "report.tidy.net_cash": "净现金",
    "report.focus.start": "FOCUS 行从 {month} 开始（计划的第 1 个月；--start-month 或下个月）",
    "report.focus.owned_service": "自建 GPU 服务器",
    "report.focus.amortized": "资本支出摊销：本月服务器折旧",
    "report.focus.cash_only": "仅现金（不计入损益）：{categories}",
    "report.focus.commitment_used": "承诺用量：需求已使用的部分",
    "report.focus.commitment_unused": "承诺用量：未使用的部分",
    "report.focus.tax_saved": "本月账单节省的税款",
    "report.chargeback.rule_name.use": "按使用量",
    "report.chargeback.rule_name.quota": "按配额",
    "report.chargeback.rule_name.idle": "闲置单列",
    "report.chargeback.col.team": "团队",
    "report.chargeback.col.rule": "规则",
    "report.chargeback.col.used_cost": "使用成本",
    "report.chargeback.col.idle_share": "分摊的闲置成本",
    "report.chargeback.col.charge": "分摊金额",
    "report.chargeback.col.gpu_hours_month": "每月 GPU 小时",
    "report.tidy.col.category": "类别",
    "report.tidy.col.amount": "金额",
    "report.jobs.col.job": "作业",
    "report.jobs.col.user": "用户",
    "report.jobs.col.gpus": "GPU 数",
    "report.jobs.col.gpu_hours": "GPU 小时",
    "report.jobs.col.status": "自建状态",
    "report.jobs.col.wait_s": "自建等待（秒）",
    "report.jobs.col.hybrid_status": "混合状态",
    "report.jobs.col.hybrid_wait_s": "混合等待（秒）",
    "report.jobs.col.gpu_hours_in_window": "自建窗口内 GPU 小时",
    "report.jobs.col.hybrid_gpu_hours_in_window": "混合窗口内 GPU 小时",
}
