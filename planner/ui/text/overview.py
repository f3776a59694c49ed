"""The Overview page's texts: what the tool answers, the working scenario, the headline answer."""

EN = {
    "overview.title": "GPU Capacity Planner",
    "overview.intro": (
        "Should you **buy** GPU servers, **rent** cloud GPUs, or run a **hybrid** of both? "
        "The planner answers from your own job history: it replays the jobs you actually ran on "
        "candidate clusters and prices each option."
    ),
    "overview.scenario_header": "Working scenario",
    "overview.scenario_named": "**{name}**: {summary}",
    "overview.scenario_line": "trace {trace} · {details}",
    "overview.no_trace": "none chosen",
    "overview.answer_header": "Headline answer",
    "overview.no_answer": (
        "No answer for your own data yet. Price owning, renting and a hybrid on your job "
        "history on the Compare page and the answer appears here, named after the comparison."
    ),
    "overview.answer_from": "From your comparison on the Compare page: {names}.",
    "overview.kept_pricing": "Pricing your last comparison…",
    "overview.sample_example": (
        "What an answer looks like: the bundled synthetic sample ({file}), not your data"
    ),
    "overview.verdict_label": "Answer",
    "overview.verdict.buy": "Buy",
    "overview.verdict.rent": "Rent",
    "overview.verdict.hybrid": "Hybrid",
    "overview.per_hour_label": "Cost per useful GPU-hour",
    "overview.break_even_label": "Break-even allocation",
    "overview.break_even_never": "never",
    "overview.allocation_delta": "current allocation {allocation}",
    "overview.answer.buy": (
        "**Buy.** Owning servers is the cheapest option over {years} years: {cost} per "
        "useful GPU-hour ({scenario})."
    ),
    "overview.answer.rent": (
        "**Rent.** {option} is the cheapest option over {years} years and owns no servers: "
        "{cost} per useful GPU-hour ({scenario})."
    ),
    "overview.answer.hybrid": (
        "**Hybrid.** Owning some servers and bursting to the cloud is the cheapest option over "
        "{years} years: {cost} per useful GPU-hour ({scenario})."
    ),
    "overview.be.never": (
        "Owning never pays against {rival}: its price does not cover a busy GPU's energy."
    ),
    "overview.be.above_full": (
        "Owning does not pay against {rival} even at full allocation (it needs {break_even}); "
        "the current allocation is {allocation}."
    ),
    "overview.be.met": (
        "Owning breaks even against {rival} at {break_even} allocation, and the current "
        "allocation is {allocation}: the demand is there."
    ),
    "overview.be.short": (
        "Owning breaks even against {rival} at {break_even} allocation, but the current "
        "allocation is only {allocation}."
    ),
    "overview.converted": "Amounts converted from {source} to {target} at the stored FX rate.",
    "overview.ledger": "Where each option serves the demand (same demand for every option)",
    "overview.not_converted": (
        "No {source}/{target} FX rate is stored; amounts are shown in {source}. Add one on "
        "the Prices page."
    ),
    "overview.next_header": "Next step",
    "overview.next.no_answer": (
        "Check the job history, set the cluster and policy, replay it, then compare the costs."
    ),
    "overview.next.with_answer": (
        "Size the cluster on the Capacity page, or change the scenario and compare again."
    ),
    "overview.link.history": "Upload or inspect the jobs you ran",
    "overview.link.cluster": "Edit the cluster and scheduling policy",
    "overview.link.replay": "Run the trace on the cluster and see the waits",
    "overview.link.compare": "Price buying, renting and a hybrid",
    "overview.link.capacity": "Find how many servers you need",
    "overview.traces_header": "Stored job histories",
    "overview.no_traces": (
        "No job history is stored yet. Import one on the Job history page or with "
        "`planner ingest FILE` (CSV, TSV, XLSX, Slurm sacct or openb exports)."
    ),
    "overview.trace_label": "{name} · {jobs} jobs · {trace_id}",
    "overview.trace": "Trace",
    "overview.sample_caption": (
        "The bundled sample: a synthetic job history, imported on first run."
    ),
    "overview.jobs": "Jobs",
    "overview.gpu_hours": "GPU-hours",
    "overview.span_days": "Span (days)",
    "overview.by_size": "By GPUs per job",
    "overview.by_queue": "By queue",
    "overview.gpus_per_job": "GPUs per job",
    "overview.queue": "Queue",
    "overview.db_error": "The planner's database cannot be read: {error}",
    "overview.sample_pricing": "Pricing the bundled sample…",
    "overview.sample_failed": "The bundled sample could not be priced: {error}",
}

ZH = {
    "overview.title": "GPU 容量规划器",
    "overview.intro": (
        "应该**购买** GPU 服务器、**租用**云 GPU，还是两者**混合**？规划器根据您自己的作业历史"
        "作答：它在候选集群上重放您实际运行过的作业，并为每种方案计算成本。"
    ),
    "overview.scenario_header": "当前工作场景",
    "overview.scenario_named": "场景 **{name}**：{summary}",
    "overview.scenario_line": "作业轨迹 {trace} · {details}",
    "overview.no_trace": "尚未选择",
    "overview.answer_header": "核心结论",
    "overview.no_answer": (
        "尚无针对您自己数据的结论。请在“比较”页面基于您的作业历史计算自建、租用和混合方案的成本，"
        "结论将显示在这里，并注明来自哪次比较。"
    ),
    "overview.answer_from": "来自您在“比较”页面的比较：{names}。",
    "overview.kept_pricing": "正在为您上次的比较计价…",
    "overview.sample_example": "结论示例：内置的合成示例（{file}），并非您的数据",
    "overview.verdict_label": "结论",
    "overview.verdict.buy": "购买",
    "overview.verdict.rent": "租用",
    "overview.verdict.hybrid": "混合",
    "overview.per_hour_label": "每有效 GPU 小时成本",
    "overview.break_even_label": "盈亏平衡分配率",
    "overview.break_even_never": "永不",
    "overview.allocation_delta": "当前分配率 {allocation}",
    "overview.answer.buy": (
        "**购买。** 在 {years} 年内，自建服务器是最便宜的方案：每有效 GPU 小时 {cost}"
        "（{scenario}）。"
    ),
    "overview.answer.rent": (
        "**租用。** 在 {years} 年内，{option} 是最便宜的方案，无需自有服务器：每有效 GPU 小时 "
        "{cost}（{scenario}）。"
    ),
    "overview.answer.hybrid": (
        "**混合。** 在 {years} 年内，自有部分服务器并将溢出作业发往云端是最便宜的方案：每有效 "
        "GPU 小时 {cost}（{scenario}）。"
    ),
    "overview.be.never": "相对于 {rival}，自建永远不划算：其价格不足以覆盖一块繁忙 GPU 的电费。",
    "overview.be.above_full": (
        "相对于 {rival}，即使分配率达到 100% 自建也不划算（需要 {break_even}）；当前分配率为 "
        "{allocation}。"
    ),
    "overview.be.met": (
        "相对于 {rival}，自建在分配率 {break_even} 时达到盈亏平衡；当前分配率为 {allocation}，"
        "需求足够。"
    ),
    "overview.be.short": (
        "相对于 {rival}，自建在分配率 {break_even} 时达到盈亏平衡，但当前分配率仅为 {allocation}。"
    ),
    "overview.converted": "金额已按存储的汇率从 {source} 换算为 {target}。",
    "overview.ledger": "各方案如何满足需求（每个方案的需求相同）",
    "overview.not_converted": (
        "未存储 {source}/{target} 汇率，金额以 {source} 显示。请在“价格”页面添加汇率。"
    ),
    "overview.next_header": "下一步",
    "overview.next.no_answer": "检查作业历史，设置集群与策略，进行回放，然后比较成本。",
    "overview.next.with_answer": "在“容量”页面确定集群规模，或修改场景后重新比较。",
    "overview.link.history": "上传或查看作业历史",
    "overview.link.cluster": "编辑集群与调度策略",
    "overview.link.replay": "在集群上运行作业轨迹并查看等待时间",
    "overview.link.compare": "比较购买、租用与混合方案",
    "overview.link.capacity": "计算需要多少台服务器",
    "overview.traces_header": "已存储的作业历史",
    "overview.no_traces": (
        "尚未存储任何作业历史。请在“作业历史”页面导入，或使用 `planner ingest FILE`"
        "（支持 CSV、TSV、XLSX、Slurm sacct 或 openb 导出文件）。"
    ),
    "overview.trace_label": "{name} · {jobs} 个作业 · {trace_id}",
    "overview.trace": "作业轨迹",
    "overview.sample_caption": "内置示例：一份合成的作业历史，首次运行时导入。",
    "overview.jobs": "作业数",
    "overview.gpu_hours": "GPU 小时",
    "overview.span_days": "时间跨度（天）",
    "overview.by_size": "按每作业 GPU 数",
    "overview.by_queue": "按队列",
    "overview.gpus_per_job": "每作业 GPU 数",
    "overview.queue": "队列",
    "overview.db_error": "无法读取规划器数据库：{error}",
    "overview.sample_pricing": "正在为内置示例定价…",
    "overview.sample_failed": "无法为内置示例定价：{error}",
}
