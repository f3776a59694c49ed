"""The Replay page's texts: the run, its results, the charts and the per-job table."""

EN = {
    "replay.title": "Replay",
    "replay.caption": (
        "Replay a job history through the scheduler on the working cluster and policy: how "
        "busy the GPUs are, how long jobs wait, and why. The same run as `planner replay`."
    ),
    "replay.no_traces": "No job history is stored yet. Import one on the Job history page.",
    "replay.trace": "Trace",
    "replay.trace_label": "{name} · {jobs} jobs · {trace_id}",
    "replay.edit_cluster": "Edit the cluster and policy",
    "replay.run": "Run",
    "replay.cancel": "Cancel",
    "replay.running": "Replaying {trace}… {percent}",
    "replay.cancelled": "Replay cancelled. Press **Run** to start it again.",
    "replay.press_run": "Pick a trace and press **Run**.",
    "replay.cpu_jobs_scope": (
        "This replay runs {jobs} CPU-only jobs beside the GPU jobs: they take the nodes' CPUs "
        "and memory, so GPU jobs may wait for them. Compare and Capacity price GPU jobs only "
        "(a TCO scenario's `scope: gpu-jobs`, the default) and replay without them, so their "
        "waits can be shorter than these."
    ),
    "replay.stale": (
        "The working scenario or the trace changed since this run; press **Run** to replay it."
    ),
    "replay.results": "Results",
    "replay.deadlock": (
        "Deadlock after {at}: {jobs} jobs wait for ever while {gpus} GPUs are held idle by "
        "partly placed jobs. Use gang admission or set a pod timeout."
    ),
    "replay.livelock": (
        "Livelock: from {since} on, preemptions kept undoing all work and nothing completed. "
        "The replay stopped after {at} with {waiting} jobs waiting and {running} running. "
        "Checkpoint jobs, set a minimum run time, or preempt less."
    ),
    "replay.run_caption": (
        "{trace} on {gpus} GPUs: {admission} admission, {placement} placement, "
        "{queueing} queueing, seed {seed}"
    ),
    "replay.note": "note: {note}",
    "replay.utilization": "GPU allocation",
    "replay.utilization_help": (
        "Share of the cluster's GPU-hours that jobs held over the replay (allocation). It is "
        "not the GPUs' measured busy time: a job that holds a GPU counts it as used."
    ),
    "replay.completed": "Completed",
    "replay.completed_help": (
        "of {jobs} jobs; their useful work is {useful} GPU-hours: every job that ran, "
        "failed and cancelled ones included (the same count the TCO prices per useful "
        "GPU-hour)"
    ),
    "replay.unschedulable": "Unschedulable",
    "replay.unschedulable_help": "can never fit the cluster",
    "replay.withdrawn": (
        "**Withdrawn** (created, then deleted by their users before they ran): {replayed} "
        "jobs in this replay; the export had {observed}. {after_start} of them started here "
        "sooner than in reality and were stopped when their user deleted them. Withdrawn "
        "jobs did no useful work."
    ),
    "replay.mean_wait": "Mean wait",
    "replay.p95_wait": "p95 wait",
    "replay.wait_scope": "Waits of",
    "replay.wait_scope_help": (
        "Whose waits the headline shows. GPU jobs by default: CPU-only jobs usually start at "
        "once, and counting them would hide how long GPU jobs wait. The TCO comparison and the "
        "capacity target use GPU jobs' waits."
    ),
    "replay.wait_scope_gpu_jobs": "GPU jobs",
    "replay.wait_scope_all_jobs": "All jobs",
    "replay.wait_scope_team": "Team {team}",
    "replay.wait_scope_started": "{jobs} started jobs",
    "replay.no_wait": "No job waited.",
    "replay.waits": "Waits",
    "replay.why": "Why jobs waited",
    "replay.queues": "Preemptions and borrowing per queue",
    "replay.no_queues": (
        "No queues configured: nothing is preempted or borrowed. Add ClusterQueues on the "
        "Cluster & policy page."
    ),
    "replay.no_preemptions": "No job was preempted.",
    "replay.no_borrowing": "No ClusterQueues: nothing is borrowed or lent.",
    "replay.jobs": "Jobs",
    "replay.filter_queue": "Team / queue",
    "replay.filter_status": "Status",
    "replay.filter_min_wait": "Waited at least (minutes)",
    "replay.filter_all": "all",
    "replay.rows": "{shown} of {total} rows",
    "replay.download_full": "Download the full schedule (CSV)",
    "replay.download_filtered": "Download the {rows} filtered rows (CSV)",
    # charts
    "replay.hours_axis": "Time since trace start (hours)",
    "replay.allocated_title": "Allocated GPUs over time, by pool",
    "replay.allocated_axis": "Allocated GPUs",
    "replay.installed": "installed: {gpus} GPUs",
    "replay.gpus_hover": "GPUs",
    "replay.queue_title": "Queue length over time",
    "replay.queue_axis": "Waiting jobs (mean per bin)",
    "replay.queue_trace": "waiting jobs",
    "replay.queue_hover": "jobs waiting for {gpus} GPUs",
    "replay.size_title": "Wait by job size (median and 95th percentile)",
    "replay.size_axis": "GPUs per job",
    "replay.wait_axis": "Wait (minutes)",
    "replay.minutes": "min",
    "replay.jobs_hover": "jobs",
    "replay.team_title": "Wait by team (median and 95th percentile)",
    "replay.team_axis": "Team / queue",
    "replay.reasons_title": "Why jobs waited",
    "replay.reasons_team_title": "GPU-hours waiting by reason, per team",
    "replay.gpu_hours_axis": "GPU-hours waiting",
    "replay.reason_axis": "Reason",
    "replay.frag_title": "Fragmentation over time",
    "replay.frag_axis": "Idle GPUs (sampled per bin)",
    "replay.frag_unusable": "idle, no waiting job fits",
    "replay.frag_fgd": "fragmented (FGD measure)",
    "replay.frag_caption": (
        "**Idle, no waiting job fits**: free GPUs on nodes where no pod of any waiting job "
        "fits (0 when nobody waits). **Fragmented (FGD)**: free GPUs that the trace's typical "
        "requests could not use, weighted by how often each request occurs (ATC'23). Both "
        "sampled at the start of each time bin."
    ),
    "replay.preempt_title": "Preemptions per queue",
    "replay.preempt_axis": "Evictions (preemptions and online reclaims)",
    "replay.queue_axis_name": "Queue",
    "replay.borrow_title": "Borrowing per queue",
    "replay.borrow_axis": "GPU-hours",
    "replay.borrowed": "borrowed",
    "replay.lent": "lent",
    # wait reasons in plain words, with the code the schedule CSV and `--json` use
    "replay.reason.cluster_full": "Cluster full (cluster_full)",
    "replay.reason.gpu_type_busy": "GPU type busy (gpu_type_busy)",
    "replay.reason.fragmented": "Fragmented",
    "replay.reason.cpu_mem_short": "CPU or memory short (cpu_mem_short)",
    "replay.reason.behind_head": "Held by queue order (behind_head)",
    "replay.reason.partial_gang": "Gang partly placed (partial_gang)",
    "replay.reason.backoff": "Requeue backoff (backoff)",
    "replay.reason.quota": "Quota full (quota)",
    "replay.reason.preempted": "Preempted",
    "replay.reason.over_budget": "Over budget (over_budget)",
    "replay.reason.evicted_online": "Evicted by online load (evicted_online)",
    "replay.reason.start_latency": "Start latency (start_latency)",
    "replay.meaning.cluster_full": "not enough free GPUs in the whole cluster for the job",
    "replay.meaning.gpu_type_busy": (
        "enough GPUs free in total, but not of the GPU type the job requires"
    ),
    "replay.meaning.fragmented": (
        "enough GPUs of the right type free in total, but no set of nodes fits the job's pods"
    ),
    "replay.meaning.cpu_mem_short": "GPUs fit, but CPU or memory is short on those nodes",
    "replay.meaning.behind_head": (
        "the job would fit now, but the queue order holds it (strict FIFO or backfill)"
    ),
    "replay.meaning.partial_gang": (
        "some pods are placed (pod admission) and hold their GPUs idle while the rest wait"
    ),
    "replay.meaning.backoff": "released after a pod timeout, waiting out the requeue backoff",
    "replay.meaning.quota": "its ClusterQueue is at its quota and there is nothing to borrow",
    "replay.meaning.preempted": "evicted by a preemption and waiting to run again",
    "replay.meaning.over_budget": "its ClusterQueue has used its GPU-hour budget for the month",
    "replay.meaning.evicted_online": (
        "evicted when online services took their GPUs back, waiting to run again"
    ),
    "replay.meaning.start_latency": (
        "between submission and entering the queue: admission, the scheduling cycle and its "
        "retries while the rest of the cluster is busy (fitted by planner twin)"
    ),
    "replay.save": "Save this scenario",
    "replay.save_caption": (
        "Saved with these results under a name: compare it with others on the Compare page, "
        "load it on Cluster & policy, or run it with `planner scenarios run NAME`."
    ),
}

ZH = {
    "replay.title": "回放",
    "replay.caption": (
        "在当前的集群与策略上，用调度器回放一段作业历史：GPU 有多忙、作业等待多久、为什么等待。"
        "与 `planner replay` 的运行结果相同。"
    ),
    "replay.no_traces": "尚未存储任何作业历史。请在“作业历史”页面导入。",
    "replay.trace": "作业轨迹",
    "replay.trace_label": "{name} · {jobs} 个作业 · {trace_id}",
    "replay.edit_cluster": "编辑集群与策略",
    "replay.run": "运行",
    "replay.cancel": "取消",
    "replay.running": "正在回放 {trace}… {percent}",
    "replay.cancelled": "回放已取消。按 **运行** 重新开始。",
    "replay.press_run": "选择作业轨迹，然后按 **运行**。",
    "replay.cpu_jobs_scope": (
        "本次回放在 GPU 作业之外还运行了 {jobs} 个纯 CPU 作业：它们占用节点的 CPU 和内存，"
        "GPU 作业可能因此等待。“比较”和“容量”页只为 GPU 作业计价（TCO 场景的 `scope: gpu-jobs`，"
        "默认），回放时不含这些作业，因此那里的等待可能比这里短。"
    ),
    "replay.stale": "自本次运行以来，当前场景或作业轨迹已更改；按 **运行** 重新回放。",
    "replay.results": "结果",
    "replay.deadlock": (
        "死锁：{at} 之后，{jobs} 个作业将永远等待，而 {gpus} 块 GPU 被部分放置的作业空占。"
        "请使用成组（gang）准入或设置 Pod 超时。"
    ),
    "replay.livelock": (
        "活锁：从 {since} 起，抢占不断抵消所有工作，没有作业完成。回放在 {at} 之后停止，"
        "仍有 {waiting} 个作业在等待、{running} 个在运行。请为作业设置检查点、设置最短运行时间，"
        "或减少抢占。"
    ),
    "replay.run_caption": (
        "{trace}，共 {gpus} 块 GPU：{admission} · {placement} · {queueing}，随机种子 {seed}"
    ),
    "replay.note": "注意：{note}",
    "replay.utilization": "GPU 分配率",
    "replay.utilization_help": (
        "回放期间作业占用的集群 GPU 小时占比（分配率），并非 GPU 实测忙碌时间："
        "作业占用的 GPU 即计为已用。"
    ),
    "replay.completed": "已完成",
    "replay.completed_help": (
        "共 {jobs} 个作业；有效工作量 {useful} GPU 小时：所有运行过的作业，"
        "包括失败和取消的作业（与 TCO 中“每有效 GPU 小时”使用同一口径）"
    ),
    "replay.unschedulable": "无法调度",
    "replay.unschedulable_help": "在该集群上永远放不下",
    "replay.withdrawn": (
        "**撤回**（创建后、运行前被用户删除）：本次回放中 {replayed} 个作业；导出数据中有 "
        "{observed} 个。其中 {after_start} 个在回放中比实际更早开始，并在用户删除它们时停止。"
        "撤回的作业没有产生有效工作。"
    ),
    "replay.mean_wait": "平均等待",
    "replay.p95_wait": "p95 等待",
    "replay.wait_scope": "等待统计范围",
    "replay.wait_scope_help": (
        "标题中的等待时间统计哪些作业。默认只看 GPU 作业：纯 CPU 作业通常立即开始，"
        "把它们算进来会掩盖 GPU 作业的等待。TCO 对比和容量目标都使用 GPU 作业的等待时间。"
    ),
    "replay.wait_scope_gpu_jobs": "GPU 作业",
    "replay.wait_scope_all_jobs": "全部作业",
    "replay.wait_scope_team": "团队 {team}",
    "replay.wait_scope_started": "{jobs} 个已开始的作业",
    "replay.no_wait": "没有作业需要等待。",
    "replay.waits": "等待时间",
    "replay.why": "作业为什么等待",
    "replay.queues": "各队列的抢占与借用",
    "replay.no_queues": (
        "未配置队列：没有抢占，也没有借用。可在“集群与策略”页面添加 ClusterQueue 队列。"
    ),
    "replay.no_preemptions": "没有作业被抢占。",
    "replay.no_borrowing": "没有 ClusterQueue 队列：没有借入或借出。",
    "replay.jobs": "作业",
    "replay.filter_queue": "团队 / 队列",
    "replay.filter_status": "状态",
    "replay.filter_min_wait": "至少等待（分钟）",
    "replay.filter_all": "全部",
    "replay.rows": "显示 {shown} 行，共 {total} 行",
    "replay.download_full": "下载完整调度表（CSV）",
    "replay.download_filtered": "下载筛选后的 {rows} 行（CSV）",
    "replay.hours_axis": "自轨迹开始的时间（小时）",
    "replay.allocated_title": "已分配 GPU 随时间变化（按资源池）",
    "replay.allocated_axis": "已分配 GPU 数",
    "replay.installed": "已安装：{gpus} 块 GPU",
    "replay.gpus_hover": "块 GPU",
    "replay.queue_title": "队列长度随时间变化",
    "replay.queue_axis": "等待中的作业数（每个时间段的平均值）",
    "replay.queue_trace": "等待中的作业",
    "replay.queue_hover": "个作业在等待 {gpus} 块 GPU",
    "replay.size_title": "按作业规模的等待时间（中位数与第 95 百分位）",
    "replay.size_axis": "每个作业的 GPU 数",
    "replay.wait_axis": "等待时间（分钟）",
    "replay.minutes": "分钟",
    "replay.jobs_hover": "个作业",
    "replay.team_title": "按团队的等待时间（中位数与第 95 百分位）",
    "replay.team_axis": "团队 / 队列",
    "replay.reasons_title": "作业为什么等待",
    "replay.reasons_team_title": "各团队按原因的等待 GPU 小时数",
    "replay.gpu_hours_axis": "等待的 GPU 小时数",
    "replay.reason_axis": "原因",
    "replay.frag_title": "碎片化随时间变化",
    "replay.frag_axis": "空闲 GPU 数（每个时间段采样）",
    "replay.frag_unusable": "空闲但放不下任何等待作业",
    "replay.frag_fgd": "碎片化（FGD 度量）",
    "replay.frag_caption": (
        "**空闲但放不下任何等待作业**：所在节点放不下任何等待作业的任一 Pod 的空闲 GPU"
        "（无人等待时为 0）。**碎片化（FGD）**：按轨迹中各类典型请求出现的频率加权，"
        "这些请求无法使用的空闲 GPU（ATC'23）。两者都在每个时间段开始时采样。"
    ),
    "replay.preempt_title": "各队列的抢占次数",
    "replay.preempt_axis": "驱逐次数（抢占与在线业务回收）",
    "replay.queue_axis_name": "队列",
    "replay.borrow_title": "各队列的借用",
    "replay.borrow_axis": "GPU 小时",
    "replay.borrowed": "借入",
    "replay.lent": "借出",
    "replay.reason.cluster_full": "集群已满 (cluster_full)",
    "replay.reason.gpu_type_busy": "所需 GPU 型号繁忙 (gpu_type_busy)",
    "replay.reason.fragmented": "碎片化 (fragmented)",
    "replay.reason.cpu_mem_short": "CPU 或内存不足 (cpu_mem_short)",
    "replay.reason.behind_head": "排在队首之后 (behind_head)",
    "replay.reason.partial_gang": "部分 Pod 已放置 (partial_gang)",
    "replay.reason.backoff": "重新排队退避 (backoff)",
    "replay.reason.quota": "配额已满 (quota)",
    "replay.reason.preempted": "被抢占 (preempted)",
    "replay.reason.over_budget": "超出预算 (over_budget)",
    "replay.reason.evicted_online": "被在线业务驱逐 (evicted_online)",
    "replay.reason.start_latency": "启动延迟 (start_latency)",
    "replay.meaning.cluster_full": "整个集群的空闲 GPU 不足以运行该作业",
    "replay.meaning.gpu_type_busy": "空闲 GPU 总数足够，但不是作业所需的 GPU 型号",
    "replay.meaning.fragmented": "所需型号的空闲 GPU 总数足够，但没有一组节点能放下作业的所有 Pod",
    "replay.meaning.cpu_mem_short": "GPU 放得下，但这些节点上的 CPU 或内存不足",
    "replay.meaning.behind_head": "作业现在放得下，但队列顺序使其等待（严格 FIFO 或回填）",
    "replay.meaning.partial_gang": (
        "部分 Pod 已放置（逐 Pod 准入），在其余 Pod 等待期间占用 GPU 空转"
    ),
    "replay.meaning.backoff": "Pod 超时后被释放，正在等待重新排队的退避时间",
    "replay.meaning.quota": "所属 ClusterQueue 已达配额，且没有可借用的资源",
    "replay.meaning.preempted": "被抢占后等待重新运行",
    "replay.meaning.over_budget": "所属 ClusterQueue 已用完本月的 GPU 小时预算",
    "replay.meaning.evicted_online": "在线业务收回 GPU 时被驱逐，等待重新运行",
    "replay.meaning.start_latency": (
        "从提交到进入队列之间：准入、调度周期及集群其余部分繁忙时的重试（由 planner twin 拟合）"
    ),
    "replay.save": "保存此场景",
    "replay.save_caption": (
        "以名称连同这些结果一起保存：可在“比较”页面与其他场景对比，在“集群与策略”页面载入，"
        "或用 `planner scenarios run NAME` 运行。"
    ),
}
