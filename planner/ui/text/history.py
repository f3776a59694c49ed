"""The Job history page's texts: upload, column mapping, ingest report, stored traces, charts."""

EN = {
    "history.title": "Job history",
    "history.caption": (
        "Upload a job history (CSV, TSV, TXT, XLSX, or any of them gzipped), check how its "
        "columns were read, import it, and look at the stored traces. The same import as "
        "`planner ingest`."
    ),
    "history.upload": "Job history or node list",
    "history.upload_help": (
        "A job history needs each job's submit (or start) time. A pod list without times can "
        "still show how full a cluster gets: use the Fill test page."
    ),
    "history.file_error": "{name}: {error}",
    "history.too_big": (
        "{name} is {size} MB; the page imports files up to {max} MB. Import bigger files with "
        "`planner ingest FILE`."
    ),
    "history.prom.title": "From Prometheus (kube-state-metrics)",
    "history.prom.caption": (
        "Build the job history from the `kube-state-metrics` series a Prometheus server keeps "
        "(one job per pod; GPU busy shares from `dcgm-exporter` where it runs), over a window "
        "in UTC. The same import as `planner ingest --prometheus URL --window START..END`."
    ),
    "history.prom.url": "Prometheus URL",
    "history.prom.url_help": "the server's address, e.g. `http://prometheus.monitoring:9090`",
    "history.prom.start_date": "Start date (UTC)",
    "history.prom.start_time": "Start time (UTC)",
    "history.prom.end_date": "End date (UTC)",
    "history.prom.end_time": "End time (UTC)",
    "history.prom.namespace": "Namespace (optional)",
    "history.prom.namespace_help": "only this namespace's pods; empty: every namespace",
    "history.prom.name": "Trace name (optional)",
    "history.prom.name_help": "empty: `prometheus HOST START..END`",
    "history.prom.step": "Query step in seconds (0: automatic)",
    "history.prom.step_help": (
        "how closely a pod's end is placed when no series records it; 0 takes the window / "
        "5,000, at least 60 s (`--step`). Use at least the server's scrape interval."
    ),
    "history.prom.reading": "Reading the series from {start} to {end}...",
    "history.prom.imported": "Imported from {file}: {jobs} jobs, trace `{trace_id}`.",
    "history.prom.already": (
        "This server, window and namespace were imported before with the same pods."
    ),
    "history.prom.error": "Nothing was imported from Prometheus: {error}",
    "history.prom.bad_window": (
        "the window's end ({end}) must come after its start ({start}); change the dates or times"
    ),
    "history.prom.no_url": (
        "give the Prometheus server's address, e.g. http://prometheus.monitoring:9090"
    ),
    "history.prom.bad_url": "'{url}' is not an address ({error}); write e.g. http://prometheus:9090",
    "history.detected": "**Detected format:** `{format}` · {columns} columns",
    "history.node_list": "A node list: importing stores it as a cluster, not a job history.",
    "history.mapping_caption": (
        "Which column holds each field, with the first row's value. Change a column if it was "
        "read wrongly; fields left empty are not in the file."
    ),
    "history.col.field": "Field",
    "history.col.column": "Column in the file",
    "history.col.preview": "First row",
    "history.tz": "Time zone of dates without one",
    "history.tz_help": "an IANA name such as UTC, Asia/Shanghai or America/Los_Angeles",
    "history.import": "Import",
    "history.report": "Ingest report",
    "history.already": "This file was imported before with the same options.",
    "history.rows": "Rows",
    "history.accepted": "Accepted",
    "history.rejected": "Rejected",
    "history.gpu_hours": "GPU-hours",
    "history.by_reason": "**Rejected rows by reason**",
    "history.examples": "**Examples** (row numbers as in a spreadsheet, header = row 1)",
    "history.col.reason": "Reason",
    "history.col.rows": "Rows",
    "history.col.meaning": "Meaning",
    "history.col.row": "Row",
    "history.col.value": "Value",
    "history.col.why": "Why",
    "history.download_rejected": "Download the rejected rows (CSV)",
    "history.flagged": "{count} rows: {flag}",
    "history.flag.running_at_end": (
        "still running when the history was exported; counted up to the window's end, or "
        "for its run time so far where the file gives one (sacct's Elapsed)"
    ),
    "history.unused_columns": (
        "Columns not read: {columns}. Map one to a field in the table above if it holds one."
    ),
    "history.steps_folded": (
        "{count} Slurm step lines (.batch, .extern, .0, ...) were folded into their jobs' "
        "lines: a step is part of its job, not a job of its own, and is not counted in the rows"
    ),
    "history.flag.running_at_start": (
        "already running when the window opened (no start, submit or run time); counted "
        "from the window's start"
    ),
    "history.flag.start_from_submit": (
        "no start or run time but a submit time: taken as started when submitted"
    ),
    "history.flag.pending_at_end": (
        "still waiting when the history was exported: withdrawn at the window's end "
        "unless the replay starts it"
    ),
    "history.flag.ended_while_running": (
        "marked running but ended before the window's end: taken as completed"
    ),
    "history.flag.pods_inferred": "no pod count: split into pods of at most the per-pod GPU limit",
    "history.flag.no_submit_time": "no submit time: taken as submitted when it started",
    "history.flag.start_before_submit": (
        "starts before its submit time (the source's clocks disagree)"
    ),
    "history.flag.status_derived": (
        "no status column: completed if it has an end time, else still running at the export"
    ),
    "history.flag.job_id_generated": "no job id column: named row-N after the row number",
    "history.flag.queue_missing": "no queue: put in queue 'default'",
    "history.flag.control_chars_removed": (
        "control characters (NUL, line breaks, ...) removed from an id or name"
    ),
    "history.censored": "**Jobs cut off by the export window, and jobs that never ran**",
    "history.censored_help": (
        "An export is a window on a running cluster. These jobs are kept, not dropped: jobs "
        "running when the window opened or closed count as demand for their hours inside the "
        "window, so every cost option pays for them. Withdrawn jobs did no work: they count "
        "no GPU-hours, are not billed in the cloud, and in the replay they wait as long as "
        "they did in reality, then leave."
    ),
    "history.censored.start": (
        "Already running when the export began: **{count}** (their start is taken as the "
        "export's start)"
    ),
    "history.censored.end": "Still running when it ended: **{count}** (they run to its end)",
    "history.censored.withdrawn": (
        "Created and deleted without ever running (withdrawn): **{count}**"
    ),
    "history.censored.pending": (
        "Still waiting at the end (also withdrawn: they never ran): **{count}**"
    ),
    "history.censored_none": "No job was cut off by the export window, and none was withdrawn.",
    "history.stored": "Stored traces",
    "history.no_traces": "No job history is stored yet. Upload one above.",
    "history.trace_label": "{name} · {jobs} jobs · {trace_id}",
    "history.trace": "Trace",
    "history.starts": "starts {start}",
    "history.relative": "times relative to the trace start",
    "history.jobs": "Jobs",
    "history.span": "Span",
    "history.rows_read": "Rows read",
    "history.rows_read_help": "accepted jobs plus rejected rows",
    "history.chart.arrivals": "Arrivals over time",
    "history.axis.date": "Submit date (UTC)",
    "history.axis.day": "Day since trace start",
    "history.axis.jobs_per_day": "Jobs submitted per day",
    "history.hover.arrivals": "%{x}: %{y:,} jobs",
    "history.chart.mix": "GPU-count mix",
    "history.axis.gpus_per_job": "GPUs per job",
    "history.axis.jobs": "Jobs",
    "history.hover.mix": "%{y:,} jobs, %{customdata[0]:,.0f} GPU-hours",
    "history.chart.duration": "Job duration (percentiles)",
    "history.axis.percentile": "Percentile of jobs",
    "history.axis.run_time": "Run time ({unit})",
    "history.unit.hours": "hours",
    "history.unit.minutes": "minutes",
    "history.hover.duration": "%{x}: %{y:,.1f}",
    "history.chart.demand": "Demand by team / queue",
    "history.axis.gpu_hours": "GPU-hours requested",
    "history.axis.queue": "Team / queue",
    "history.hover.demand": "%{y}: %{x:,.0f} GPU-hours (%{customdata[0]:,} jobs)",
    "history.mapping_changed": "Changed: **{field}** from column {column}, first row: {value}",
    "history.node_mapping_caption": (
        "Which column holds each field of a node, with the first row's value. Change a column "
        "if it was read wrongly. CPU in a column named like `cpu_milli` is read as "
        "milli-cores; memory in a column named like `memory_mib` or `mem_mb` as MiB, "
        "any other as GiB."
    ),
    "history.col.about": "Meaning",
    "history.node_field.node_id": "node id (required)",
    "history.node_field.gpu_type": "GPU type",
    "history.node_field.gpus": "GPUs per node (required)",
    "history.node_field.cpu": "CPU cores",
    "history.node_field.mem": "memory",
    "history.node_missing": (
        "No column was found for **{field}** (`{name}`). Pick it in the table's column "
        "list to import this node list."
    ),
    "history.nodes_stored": (
        "Stored as a cluster: {nodes} nodes, {gpus} GPUs. Use them in the working scenario "
        "to replay and size on them."
    ),
    "history.use_nodes": "Use these nodes as the working cluster",
    "history.nodes_used": "The cluster is now the nodes of {file}.",
}

ZH = {
    "history.title": "作业历史",
    "history.caption": (
        "上传作业历史（CSV、TSV、TXT、XLSX 或它们的 gzip 压缩文件），检查各列的识别结果，"
        "导入并查看已存储的作业轨迹。与 `planner ingest` 的导入相同。"
    ),
    "history.upload": "作业历史或节点清单",
    "history.upload_help": (
        "作业历史需要每个作业的提交（或开始）时间。没有时间的 Pod 列表仍可用于查看集群能装多满："
        "请使用“装满测试”页面。"
    ),
    "history.file_error": "文件 {name}：{error}",
    "history.too_big": (
        "{name} 大小为 {size} MB；本页面最多导入 {max} MB 的文件。更大的文件请使用 "
        "`planner ingest FILE` 导入。"
    ),
    "history.prom.title": "从 Prometheus 导入（kube-state-metrics）",
    "history.prom.caption": (
        "根据 Prometheus 服务器保存的 `kube-state-metrics` 序列构建作业历史（每个 Pod 一个作业；"
        "若运行了 `dcgm-exporter`，还会读取 GPU 繁忙占比），时间窗口以 UTC 计。"
        "与 `planner ingest --prometheus URL --window START..END` 的导入相同。"
    ),
    "history.prom.url": "Prometheus 地址",
    "history.prom.url_help": "服务器地址，例如 `http://prometheus.monitoring:9090`",
    "history.prom.start_date": "开始日期（UTC）",
    "history.prom.start_time": "开始时间（UTC）",
    "history.prom.end_date": "结束日期（UTC）",
    "history.prom.end_time": "结束时间（UTC）",
    "history.prom.namespace": "命名空间（可选）",
    "history.prom.namespace_help": "只导入该命名空间的 Pod；留空则导入所有命名空间",
    "history.prom.name": "轨迹名称（可选）",
    "history.prom.name_help": "留空则为 `prometheus 主机 开始..结束`",
    "history.prom.step": "查询步长（秒，0 为自动）",
    "history.prom.step_help": (
        "没有序列记录 Pod 结束时，结束时间的定位精度；0 表示窗口长度 / 5,000，至少 60 秒"
        "（`--step`）。请至少设为服务器的抓取间隔。"
    ),
    "history.prom.reading": "正在读取 {start} 至 {end} 的序列……",
    "history.prom.imported": "已从 {file} 导入：{jobs} 个作业，轨迹 `{trace_id}`。",
    "history.prom.already": "此服务器、时间窗口和命名空间以前已导入过，Pod 相同。",
    "history.prom.error": "未从 Prometheus 导入任何数据：{error}",
    "history.prom.bad_window": "时间窗口的结束（{end}）必须晚于开始（{start}）；请修改日期或时间",
    "history.prom.no_url": "请填写 Prometheus 服务器地址，例如 http://prometheus.monitoring:9090",
    "history.prom.bad_url": "“{url}”不是有效地址（{error}）；请写成例如 http://prometheus:9090",
    "history.detected": "**识别的格式：** `{format}` · 共 {columns} 列",
    "history.node_list": "这是一份节点清单：导入后将存储为集群，而不是作业历史。",
    "history.mapping_caption": (
        "每个字段对应哪一列，以及第一行的值。如果某列识别有误请修改；留空的字段表示文件中没有。"
    ),
    "history.col.field": "字段",
    "history.col.column": "文件中的列",
    "history.col.preview": "第一行",
    "history.tz": "不带时区的日期所用时区",
    "history.tz_help": "IANA 时区名，例如 UTC、Asia/Shanghai 或 America/Los_Angeles",
    "history.import": "导入",
    "history.report": "导入报告",
    "history.already": "此文件以前已用相同选项导入过。",
    "history.rows": "行数",
    "history.accepted": "已接受",
    "history.rejected": "已拒绝",
    "history.gpu_hours": "GPU 小时",
    "history.by_reason": "**按原因统计的被拒绝行**",
    "history.examples": "**示例**（行号与电子表格一致，表头为第 1 行）",
    "history.col.reason": "原因",
    "history.col.rows": "行数",
    "history.col.meaning": "含义",
    "history.col.row": "行",
    "history.col.value": "值",
    "history.col.why": "说明",
    "history.download_rejected": "下载被拒绝的行（CSV）",
    "history.flagged": "{count} 行：{flag}",
    "history.flag.running_at_end": (
        "导出时仍在运行；计算到窗口结束，文件给出已运行时长时（如 sacct 的 Elapsed）按该时长计算"
    ),
    "history.unused_columns": "未读取的列：{columns}。如其中某列对应某个字段，请在上方表格中映射。",
    "history.steps_folded": (
        "{count} 行 Slurm 作业步（.batch、.extern、.0 等）已并入其作业行：作业步是作业的一部分，"
        "不是单独的作业，不计入行数"
    ),
    "history.flag.running_at_start": "窗口开始时已在运行（无开始、提交或运行时间）；从窗口开始计算",
    "history.flag.start_from_submit": "无开始或运行时间但有提交时间：视为提交时即开始",
    "history.flag.pending_at_end": "导出时仍在等待：除非回放启动它，否则在窗口结束时撤回",
    "history.flag.ended_while_running": "标记为运行中但在窗口结束前已结束：视为已完成",
    "history.flag.pods_inferred": "无 Pod 数：按每个 Pod 的 GPU 上限拆分",
    "history.flag.no_submit_time": "无提交时间：视为开始时提交",
    "history.flag.start_before_submit": "开始时间早于提交时间（数据源的时钟不一致）",
    "history.flag.status_derived": "无状态列：有结束时间则为已完成，否则视为导出时仍在运行",
    "history.flag.job_id_generated": "无作业 ID 列：按行号命名为 row-N",
    "history.flag.queue_missing": "无队列：放入队列 default",
    "history.flag.control_chars_removed": "已从 ID 或名称中移除控制字符（NUL、换行等）",
    "history.censored": "**被导出时间窗口截断的作业，以及从未运行的作业**",
    "history.censored_help": (
        "导出文件只是运行中集群的一个时间窗口。这些作业会被保留而不是丢弃：窗口开始或结束时仍在运行的"
        "作业，其在窗口内的小时数计入需求，因此每个成本方案都要为它们付费。撤回的作业没有做任何工作："
        "不计 GPU 小时，云端不计费；在回放中它们按实际等待的时长排队，然后离开。"
    ),
    "history.censored.start": "导出开始时已在运行：**{count}** 个（其开始时间记为导出的开始时间）",
    "history.censored.end": "导出结束时仍在运行：**{count}** 个（运行到导出结束）",
    "history.censored.withdrawn": "被创建后未曾运行即被删除（撤回）：**{count}** 个",
    "history.censored.pending": "导出结束时仍在等待（同样算作撤回：从未运行）：**{count}** 个",
    "history.censored_none": "没有作业被导出时间窗口截断，也没有作业被撤回。",
    "history.stored": "已存储的作业轨迹",
    "history.no_traces": "尚未存储任何作业历史。请在上方上传。",
    "history.trace_label": "{name} · {jobs} 个作业 · {trace_id}",
    "history.trace": "作业轨迹",
    "history.starts": "开始于 {start}",
    "history.relative": "时间相对于轨迹开始",
    "history.jobs": "作业数",
    "history.span": "时间跨度",
    "history.rows_read": "读取行数",
    "history.rows_read_help": "已接受的作业加上被拒绝的行",
    "history.chart.arrivals": "作业到达随时间变化",
    "history.axis.date": "提交日期（UTC）",
    "history.axis.day": "自轨迹开始的天数",
    "history.axis.jobs_per_day": "每天提交的作业数",
    "history.hover.arrivals": "%{x}：%{y:,} 个作业",
    "history.chart.mix": "GPU 数量分布",
    "history.axis.gpus_per_job": "每作业 GPU 数",
    "history.axis.jobs": "作业数",
    "history.hover.mix": "%{y:,} 个作业，%{customdata[0]:,.0f} GPU 小时",
    "history.chart.duration": "作业时长（百分位）",
    "history.axis.percentile": "作业百分位",
    "history.axis.run_time": "运行时间（{unit}）",
    "history.unit.hours": "小时",
    "history.unit.minutes": "分钟",
    "history.hover.duration": "%{x}：%{y:,.1f}",
    "history.chart.demand": "按团队 / 队列的需求",
    "history.axis.gpu_hours": "申请的 GPU 小时",
    "history.axis.queue": "团队 / 队列",
    "history.hover.demand": "%{y}：%{x:,.0f} GPU 小时（%{customdata[0]:,} 个作业）",
    "history.mapping_changed": "已更改：**{field}** 取自列 {column}，第一行：{value}",
    "history.node_mapping_caption": (
        "节点的每个字段对应哪一列，以及第一行的值。如果某列识别有误请修改。列名类似 `cpu_milli` 的 "
        "CPU 按毫核读取；列名类似 `memory_mib` 或 `mem_mb` 的内存按 MiB 读取，其余按 GiB。"
    ),
    "history.col.about": "含义",
    "history.node_field.node_id": "节点 ID（必需）",
    "history.node_field.gpu_type": "GPU 型号",
    "history.node_field.gpus": "每节点 GPU 数（必需）",
    "history.node_field.cpu": "CPU 核数",
    "history.node_field.mem": "内存",
    "history.node_missing": (
        "未找到 **{field}**（`{name}`）对应的列。请在表格的列选项中选择，才能导入此节点清单。"
    ),
    "history.nodes_stored": (
        "已存储为集群：{nodes} 个节点，{gpus} 个 GPU。将其用于工作场景即可在其上回放和规划容量。"
    ),
    "history.use_nodes": "将这些节点用作工作集群",
    "history.nodes_used": "集群现为 {file} 中的节点。",
}
