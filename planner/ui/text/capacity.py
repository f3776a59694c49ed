"""The Capacity page's texts: the server-count (and burst-threshold) sweep, its chart, table
and conclusion."""

EN = {
    "capacity.title": "Capacity",
    "capacity.caption": (
        "Sweep the servers of one self-hosted pool of a scenario (yours or a bundled one), "
        "replay your job history at each size and price it: total cost against the "
        "95th-percentile wait, with the cloud options beside. A size meets the wait target "
        "only if it runs every job the most servers swept run: jobs too large for a size "
        'never start and are in no wait (the table\'s "Never run" column).'
    ),
    "capacity.scenario": "Scenario",
    "capacity.scenario_help": (
        "Your saved scenarios that own servers (build and save one on the Compare page, or "
        "save a cluster on the Cluster & policy page), the cluster you are editing there, then "
        "the bundled examples. The chosen trace replaces the one the scenario was saved with."
    ),
    "capacity.source_saved": "{name} (saved)",
    "capacity.source_bundled": "{name} (bundled example)",
    "capacity.source_working": "{name} (working scenario, Cluster & policy)",
    "capacity.trace": "Job history to replay",
    "capacity.trace_help": (
        "The trace chosen on any page stays chosen here; every point of the sweep replays it."
    ),
    "capacity.trace_label": "{name} · {jobs} jobs · {trace_id}",
    "capacity.no_traces": "No job history is stored yet: import one on the Job history page.",
    "capacity.no_jobs": (
        "The job history {trace} holds no jobs: there is nothing to replay. Import another "
        "on the Job history page or choose another trace."
    ),
    "capacity.no_gpu_jobs": (
        "The job history {trace} holds no GPU jobs (no job asks for a GPU): the number of "
        "GPU servers does not change its waits. Choose a trace with GPU jobs."
    ),
    "capacity.saved_gone": (
        "The saved scenario '{name}' is no longer stored; choose another scenario."
    ),
    "capacity.no_cluster": (
        "The saved scenario '{name}' has no cluster, so it owns no servers to sweep: give it "
        "one on the Cluster & policy page, or choose another scenario."
    ),
    "capacity.cannot_load": "The scenario {source} cannot be swept: {error}",
    "capacity.no_servers": (
        "{source} owns no servers: there is no self-hosted pool to sweep. Choose a scenario "
        "with servers of its own (`self_hosted:`), e.g. sample-tco.yaml."
    ),
    "capacity.held": "Held as they are in every point: {fixed}.",
    "capacity.swept_from": "Swept: {scenario}, replaying {trace} ({jobs} jobs).",
    "capacity.counts": "{gpu} servers to try (the scenario has {servers})",
    "capacity.counts_help": "Up to {max} whole numbers, separated by commas.",
    "capacity.target": "p95 wait target (hours)",
    "capacity.target_help": (
        "Of GPU jobs (jobs asking for GPUs): CPU-only jobs usually start at once and would "
        "hide how long GPU jobs wait. A scenario's `wait_scope` (all-jobs, team:NAME) changes it."
    ),
    "capacity.horizon": "Horizon",
    "capacity.years": "{years} years",
    "capacity.burst": "Hybrid: burst thresholds to try (hours waited before a job bursts)",
    "capacity.burst_help": (
        "Up to {max} numbers of hours (0 or more, decimals with a point), separated by commas: "
        "the hybrid is priced for every server count at every threshold."
    ),
    "capacity.err_not_numbers": "Server counts: '{text}' is not a list of whole numbers.",
    "capacity.err_empty": "Server counts: give at least one, e.g. 4, 8, 16.",
    "capacity.err_below_one": "Server counts: every count must be at least 1.",
    "capacity.err_too_many": "Server counts: at most {max} points ({given} given).",
    "capacity.err_thresholds_not_numbers": (
        "Burst thresholds: '{text}' is not a list of numbers of hours; write e.g. 0.5, 1, 4."
    ),
    "capacity.err_thresholds_empty": "Burst thresholds: give at least one, e.g. 0.5, 1, 4.",
    "capacity.err_thresholds_negative": (
        "Burst thresholds: every threshold must be a finite number of hours, 0 or more."
    ),
    "capacity.err_thresholds_too_many": "Burst thresholds: at most {max} ({given} given).",
    "capacity.err_too_many_runs": (
        "The sweep would make {runs} runs ({counts} server counts × {thresholds} burst "
        "thresholds), more than {max}: drop some server counts or thresholds."
    ),
    "capacity.runs": "Runs in this sweep: {runs}, one per server count.",
    "capacity.runs_hybrid": (
        "Runs in this sweep: {runs} (server counts: {counts} × burst thresholds: "
        "{thresholds}; at most {max})."
    ),
    "capacity.run": "Run sweep",
    "capacity.progress_start": "Pricing the first run…",
    "capacity.progress": "{done} of {total} runs priced",
    "capacity.sweep_failed": "The sweep could not be priced: {error}",
    "capacity.press_run": "Press **Run sweep** to price each size.",
    "capacity.converted": "Amounts converted from {source} to {target} at the stored FX rate.",
    "capacity.not_converted": (
        "No {source}/{target} FX rate is stored; amounts are shown in {source}. Add one on "
        "the Prices page."
    ),
    "capacity.servers_one": "{n} server",
    "capacity.servers_many": "{n} servers",
    "capacity.list_sep": ", ",
    "capacity.pool": "Pool to size",
    "capacity.pool_help": (
        "The scenario owns several pools: the sweep counts this pool's servers and keeps the "
        "others as they are."
    ),
    "capacity.pool_label": "{gpu}: {servers} of {gpus} GPUs",
    "capacity.pool_servers_one": "{n} {gpu} server",
    "capacity.pool_servers_many": "{n} {gpu} servers",
    "capacity.held_fixed": (" Only the {gpu} pool was sized; held fixed in every point: {fixed}."),
    "capacity.label_burst": "{option} with {servers} bursting after {hours} h",
    "capacity.series_burst": "{option}, burst after {hours} h",
    "capacity.smallest": (
        "The smallest self-hosted cluster meeting a p95 wait of {target} h is {servers} "
        "(cost {total} over {years} years, {per_hour} per useful GPU-hour)"
    ),
    "capacity.none_meets": "No self-hosted cluster in the sweep meets a p95 wait of {target} h",
    "capacity.and_cheapest": (
        "{first}; the cheapest option overall is {label} at {per_hour} per useful GPU-hour "
        "({total} in total)."
    ),
    "capacity.full_stop": ".",
    "capacity.col.option": "Option",
    "capacity.col.servers": "Servers",
    "capacity.col.burst": "Burst after (h)",
    "capacity.col.total": "Total over {years} years",
    "capacity.col.per_hour": "Per useful GPU-hour",
    "capacity.col.wait": "p95 wait (h)",
    "capacity.col.left_out": "Never run (GPU-h over the horizon)",
    "capacity.chart_title": "Total cost over {years} years against p95 wait, by server count",
    "capacity.x_title": "p95 wait (hours)",
    "capacity.y_title": "Total cost over {years} years ({currency})",
    "capacity.mark_smallest": "smallest meeting the target",
    "capacity.mark_cheapest": "cheapest option",
    "capacity.target_note": "target: {target} h",
    "capacity.hover": ("{label}<br>p95 wait {wait} h<br>{total} ({per_hour} per useful GPU-hour)"),
}

ZH = {
    "capacity.title": "容量",
    "capacity.caption": (
        "对场景（您自己的或内置的）中一个自建资源池的服务器数量进行扫描，在每个规模下重放"
        "您的作业历史并计算成本：总成本与第 95 百分位等待时间的对比，并列出云方案作参照。"
        "只有能运行扫描中最大规模所能运行的全部作业时，某一规模才算满足等待目标："
        "对该规模过大的作业从未启动，也不计入任何等待（见表中“从未运行”列）。"
    ),
    "capacity.scenario": "场景",
    "capacity.scenario_help": (
        "先列出您保存的、拥有服务器的场景（可在“比较”页面构建并保存，或在“集群与策略”页面"
        "保存集群），以及您在该页面正在编辑的集群，然后是内置示例。所选作业轨迹会替换场景保存"
        "时所用的轨迹。"
    ),
    "capacity.source_saved": "{name}（已保存）",
    "capacity.source_bundled": "{name}（内置示例）",
    "capacity.source_working": "{name}（工作场景，集群与策略）",
    "capacity.trace": "要重放的作业历史",
    "capacity.trace_help": "在任一页面选择的作业轨迹在此保持选中；扫描的每个点都重放它。",
    "capacity.trace_label": "{name} · {jobs} 个作业 · {trace_id}",
    "capacity.no_traces": "尚未存储作业历史：请在“作业历史”页面导入。",
    "capacity.no_jobs": (
        "作业历史 {trace} 中没有作业：无可重放。请在“作业历史”页面导入其他作业历史，或选择"
        "其他轨迹。"
    ),
    "capacity.no_gpu_jobs": (
        "作业历史 {trace} 中没有 GPU 作业（没有作业申请 GPU）：GPU 服务器数量不会改变其等待"
        "时间。请选择含有 GPU 作业的轨迹。"
    ),
    "capacity.saved_gone": "已保存的场景“{name}”已不存在，请选择其他场景。",
    "capacity.no_cluster": (
        "已保存的场景“{name}”没有集群，因此没有可扫描的自有服务器：请在“集群与策略”页面为其"
        "设置集群，或选择其他场景。"
    ),
    "capacity.cannot_load": "无法扫描场景 {source}：{error}",
    "capacity.no_servers": (
        "{source} 没有自有服务器：没有可扫描的自建资源池。请选择拥有服务器的场景"
        "（`self_hosted:`），例如 sample-tco.yaml。"
    ),
    "capacity.held": "每个点都保持不变：{fixed}。",
    "capacity.swept_from": "扫描来源：{scenario}，重放 {trace}（{jobs} 个作业）。",
    "capacity.counts": "要尝试的 {gpu} 服务器数量（场景中为 {servers} 台）",
    "capacity.counts_help": "最多 {max} 个整数，用逗号分隔。",
    "capacity.target": "p95 等待目标（小时）",
    "capacity.target_help": (
        "按 GPU 作业统计：纯 CPU 作业通常立即开始，会掩盖 GPU 作业的等待。"
        "场景中的 `wait_scope`（`all-jobs`、`team:名称`）可以改变统计范围。"
    ),
    "capacity.horizon": "期限",
    "capacity.years": "{years} 年",
    "capacity.burst": "混合：要尝试的溢出阈值（作业等待多少小时后溢出到云端）",
    "capacity.burst_help": (
        "最多 {max} 个小时数（0 或以上，小数用小数点），用逗号分隔：混合方案会在每个服务器数量"
        "下按每个阈值分别计算成本。"
    ),
    "capacity.err_not_numbers": "服务器数量：“{text}”不是整数列表。",
    "capacity.err_empty": "服务器数量：请至少给出一个，例如 4, 8, 16。",
    "capacity.err_below_one": "服务器数量：每个数量都必须至少为 1。",
    "capacity.err_too_many": "服务器数量：最多 {max} 个点（给出了 {given} 个）。",
    "capacity.err_thresholds_not_numbers": (
        "溢出阈值：“{text}”不是小时数列表；请写成例如 0.5, 1, 4。"
    ),
    "capacity.err_thresholds_empty": "溢出阈值：请至少给出一个，例如 0.5, 1, 4。",
    "capacity.err_thresholds_negative": "溢出阈值：每个阈值都必须是 0 或以上的有限小时数。",
    "capacity.err_thresholds_too_many": "溢出阈值：最多 {max} 个（给出了 {given} 个）。",
    "capacity.err_too_many_runs": (
        "此扫描需要运行 {runs} 次（{counts} 个服务器数量 × {thresholds} 个溢出阈值），"
        "超过上限 {max} 次：请减少服务器数量或阈值。"
    ),
    "capacity.runs": "本次扫描的运行次数：{runs}，每个服务器数量一次。",
    "capacity.runs_hybrid": (
        "本次扫描的运行次数：{runs}（服务器数量 {counts} 个 × 溢出阈值 {thresholds} 个；"
        "最多 {max} 次）。"
    ),
    "capacity.run": "运行扫描",
    "capacity.progress_start": "正在计算第一次运行的成本…",
    "capacity.progress": "已计算 {done} / {total} 次运行",
    "capacity.sweep_failed": "无法计算扫描成本：{error}",
    "capacity.press_run": "点击**运行扫描**以计算每个规模的成本。",
    "capacity.converted": "金额已按存储的汇率从 {source} 换算为 {target}。",
    "capacity.not_converted": (
        "未存储 {source}/{target} 汇率，金额以 {source} 显示。请在“价格”页面添加汇率。"
    ),
    "capacity.servers_one": "{n} 台服务器",
    "capacity.servers_many": "{n} 台服务器",
    "capacity.list_sep": "，",
    "capacity.pool": "要测算的服务器池",
    "capacity.pool_help": "场景中有多个服务器池：扫描只改变这个池的服务器数量，其余池保持不变。",
    "capacity.pool_label": "{gpu}：{servers}，每台 {gpus} 块 GPU",
    "capacity.pool_servers_one": "{n} 台 {gpu} 服务器",
    "capacity.pool_servers_many": "{n} 台 {gpu} 服务器",
    "capacity.held_fixed": "只测算了 {gpu} 池；每个点都保持不变的是：{fixed}。",
    "capacity.label_burst": "{option}，{servers}，等待 {hours} 小时后溢出到云端",
    "capacity.series_burst": "{option}，等待 {hours} 小时后溢出",
    "capacity.smallest": (
        "满足 p95 等待 {target} 小时的最小自建集群为 {servers}（{years} 年成本 {total}，"
        "每有效 GPU 小时 {per_hour}）"
    ),
    "capacity.none_meets": "扫描中没有任何自建集群能满足 p95 等待 {target} 小时",
    "capacity.and_cheapest": (
        "{first}；总体最便宜的方案是 {label}，每有效 GPU 小时 {per_hour}（总计 {total}）。"
    ),
    "capacity.full_stop": "。",
    "capacity.col.option": "方案",
    "capacity.col.servers": "服务器数",
    "capacity.col.burst": "溢出阈值（小时）",
    "capacity.col.total": "{years} 年总成本",
    "capacity.col.per_hour": "每有效 GPU 小时",
    "capacity.col.wait": "p95 等待（小时）",
    "capacity.col.left_out": "从未运行（期限内 GPU 小时）",
    "capacity.chart_title": "按服务器数量：{years} 年总成本与 p95 等待时间",
    "capacity.x_title": "p95 等待（小时）",
    "capacity.y_title": "{years} 年总成本（{currency}）",
    "capacity.mark_smallest": "满足目标的最小规模",
    "capacity.mark_cheapest": "最便宜的方案",
    "capacity.target_note": "目标：{target} 小时",
    "capacity.hover": "{label}<br>p95 等待 {wait} 小时<br>{total}（每有效 GPU 小时 {per_hour}）",
}
