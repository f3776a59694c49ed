"""The Fill test page's texts: how full the cluster gets under each placement (the
fragmentation study's protocol, `planner fill`)."""

EN = {
    "nav.fill": "Fill test",
    "fill.title": "Fill test",
    "fill.intro": (
        "How full can this cluster get? A stress test from the fragmentation study "
        "(Weng et al., ATC'23), the same as "
        "`planner fill`: the workload's pods arrive in a random order and never leave; a pod "
        "that fits nowhere is skipped. At every percent of arrived GPU demand the test records "
        "the share of the cluster's GPUs allocated, and the share of GPUs that are free but "
        "too fragmented for a typical pod of this workload. Pod lists without start or end "
        "times work here, as do stored job histories."
    ),
    "fill.source": "Pods from",
    "fill.source.trace": "a stored job history",
    "fill.source.file": "a pod list file (times not needed)",
    "fill.trace": "Job history",
    "fill.trace_label": "{name} · {jobs} jobs · {trace_id}",
    "fill.no_traces": "No job history is stored yet: import one on the Job history page.",
    "fill.upload": "Pod list (CSV, TSV or gzip)",
    "fill.upload_help": (
        "An openb pod list (cpu_milli, memory_mib, num_gpu, gpu_milli, gpu_spec), times "
        "optional, or any job history the Job history page reads."
    ),
    "fill.upload_first": "Upload a pod list to run the test on it.",
    "fill.read": "{file}: {pods} pods read; rows not usable: {rejected}.",
    "fill.rejected": "Row {row}, column {column}: {message} (the row is left out).",
    "fill.cluster": "The working scenario's cluster: {nodes} nodes ({groups}), {gpus} GPUs.",
    "fill.cluster_link": "Change the cluster",
    "fill.no_cluster": (
        "The working scenario has no cluster: describe one on the Cluster & policy page."
    ),
    "fill.placements": "Placements to compare",
    "fill.placements_help": "Each one runs the whole test on the same pods and seeds.",
    "fill.pick_one": "Pick at least one placement.",
    "fill.seeds": "Random orders (seeds)",
    "fill.seeds_help": (
        "Each seed shuffles the pods once; the curves are the mean over seeds (the study "
        "uses 10; `planner fill --seeds`)."
    ),
    "fill.until": "Arrived demand, up to (× the cluster's GPUs)",
    "fill.until_help": (
        "The pods are topped up with random copies of the workload's own pods until their GPU "
        "request reaches this many times the cluster's GPUs."
    ),
    "fill.run": "Run the fill test",
    "fill.running": "Filling the cluster… {percent}",
    "fill.stale": "The settings changed since the last run: run the test again to see them.",
    "fill.peak": "{placement}: peak allocation",
    "fill.peak_help": (
        "The most of the cluster's GPUs allocated at any point; {skipped} pods a run skipped "
        "on average because they fit nowhere."
    ),
    "fill.chart_title": "Allocated and fragmented GPUs as the demand arrives",
    "fill.chart_x": "Arrived GPU demand (% of the cluster's GPUs)",
    "fill.chart_y": "% of the cluster's GPUs",
    "fill.measure.allocated": "allocated",
    "fill.measure.fragmented": "fragmented",
    "fill.series": "{placement}, {measure}",
    "fill.table_caption": (
        "Every 10% of arrived demand. Fragmented: free GPUs a typical pod of this workload "
        "cannot use (the study's FGD measure, CPU-only pods included), as a share of all GPUs "
        "and of the free GPUs."
    ),
    "fill.col.arrived": "Arrived demand (%)",
    "fill.col.allocated": "{placement}: allocated (%)",
    "fill.col.fragmented": "{placement}: fragmented (% of all GPUs)",
    "fill.col.frag_ratio": "{placement}: fragmented (% of free GPUs)",
    "fill.download": "Download the curves (CSV)",
}

ZH = {
    "nav.fill": "装满测试",
    "fill.title": "装满测试",
    "fill.intro": (
        "这个集群最多能装多满？碎片研究（ATC'23 论文）中的压力测试，"
        "与 `planner fill` 相同：工作负载的 Pod "
        "按随机顺序到达且不再离开；放不下的 Pod 被跳过。到达的 GPU 需求每增加 1%，测试记录"
        "已分配 GPU 占集群 GPU 的比例，以及空闲但碎片化、放不下本工作负载典型 Pod 的 GPU "
        "比例。没有开始或结束时间的 Pod 列表也可以使用，已存储的作业历史同样可以。"
    ),
    "fill.source": "Pod 来源",
    "fill.source.trace": "已存储的作业历史",
    "fill.source.file": "Pod 列表文件（无需时间）",
    "fill.trace": "作业历史",
    "fill.trace_label": "{name} · {jobs} 个作业 · {trace_id}",
    "fill.no_traces": "尚未存储作业历史：请在“作业历史”页面导入。",
    "fill.upload": "Pod 列表（CSV、TSV 或 gzip）",
    "fill.upload_help": (
        "openb 格式的 Pod 列表（cpu_milli、memory_mib、num_gpu、gpu_milli、gpu_spec），"
        "时间列可选；或“作业历史”页面能读取的任何作业历史。"
    ),
    "fill.upload_first": "上传 Pod 列表后即可在其上运行测试。",
    "fill.read": "{file}：读取 {pods} 个 Pod，{rejected} 行无法使用。",
    "fill.rejected": "第 {row} 行，列 {column}：{message}（该行未计入）。",
    "fill.cluster": "当前场景的集群：{nodes} 个节点（{groups}），共 {gpus} 块 GPU。",
    "fill.cluster_link": "修改集群",
    "fill.no_cluster": "当前场景没有集群：请在“集群与策略”页面描述集群。",
    "fill.placements": "要比较的放置策略",
    "fill.placements_help": "每种策略都在相同的 Pod 和种子上完整运行一次测试。",
    "fill.pick_one": "请至少选择一种放置策略。",
    "fill.seeds": "随机顺序数（种子）",
    "fill.seeds_help": (
        "每个种子将 Pod 打乱一次；曲线为各种子的平均值（研究中使用 10 个；"
        "`planner fill --seeds`）。"
    ),
    "fill.until": "到达需求上限（集群 GPU 的倍数）",
    "fill.until_help": (
        "用工作负载自身 Pod 的随机副本补足，直到其 GPU 请求达到集群 GPU 的这一倍数。"
    ),
    "fill.run": "运行装满测试",
    "fill.running": "正在装填集群… {percent}",
    "fill.stale": "设置在上次运行后已更改：请重新运行测试以查看结果。",
    "fill.peak": "{placement}：分配峰值",
    "fill.peak_help": (
        "任一时刻已分配的集群 GPU 最大比例；每次运行平均有 {skipped} 个 Pod 因无处可放而被跳过。"
    ),
    "fill.chart_title": "随需求到达的已分配与碎片化 GPU",
    "fill.chart_x": "已到达的 GPU 需求（占集群 GPU 的 %）",
    "fill.chart_y": "占集群 GPU 的 %",
    "fill.measure.allocated": "已分配",
    "fill.measure.fragmented": "碎片化",
    "fill.series": "{placement}，{measure}",
    "fill.table_caption": (
        "到达需求每 10% 一行。碎片化：本工作负载典型 Pod 无法使用的空闲 GPU（研究中的 FGD "
        "度量，含仅 CPU 的 Pod），分别占全部 GPU 和空闲 GPU 的比例。"
    ),
    "fill.col.arrived": "到达需求（%）",
    "fill.col.allocated": "{placement}：已分配（%）",
    "fill.col.fragmented": "{placement}：碎片化（占全部 GPU 的 %）",
    "fill.col.frag_ratio": "{placement}：碎片化（占空闲 GPU 的 %）",
    "fill.download": "下载曲线（CSV）",
}
