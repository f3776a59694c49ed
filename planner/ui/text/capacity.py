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
    "capacity.col.per_hour_bar": "Per useful GPU-hour, twin error bar",
    "capacity.col.wait_bar": "p95 wait (h), twin error bar",
    "capacity.col.util": "Utilization in the window",
    "capacity.col.served": "Served in the window (GPU-h)",
    "capacity.col.carried": "Carried past the window (GPU-h)",
    "capacity.col.demanded": "Demanded (GPU-h)",
    "capacity.bar": "{low} to {high} (±{error})",
    "capacity.wait_bar": "{low} to {high} (x{low_factor} to x{high_factor})",
    "capacity.no_wait_ratio": "no wait ratio measured",
    "capacity.not_calibrated": "not calibrated",
    "capacity.stored_none": "No grid points of this scenario on this trace are stored today.",
    "capacity.stored": "Stored today for this scenario on this trace: servers {counts}.",
    "capacity.stored_hybrid": (
        "Stored today for this scenario on this trace: servers {counts}; burst after {hours} h."
    ),
    "capacity.reopen": "Reopen the stored sweep",
    "capacity.priced_stored": (
        "Points priced now: {computed}; read back from the database: {stored} (stored as "
        "`planner sweep` stores them, by scenario, trace, price book and day)."
    ),
    "capacity.table_note": (
        "Each owned row's GPU-hours add up: demanded = served in the window + never run + "
        "carried past the window (work a backlog does after the trace ends, which no month "
        "pays for). Utilization is the owned GPUs' allocated share within the trace's window, "
        "the share the cost prices. The twin error bar: when the scenario has a twin check, "
        "its calibrated replay missed the observed allocated GPU-hours by a share e over the "
        "validation window; the cost's bar is the value x (1 - e) to x (1 + e). The p95 "
        "wait's bar comes from the waits: where the replay's p90 and p99 waits were r times "
        "the observed ones, the wait is multiplied by 1 / r (and 1), lowest to highest. "
        "Cloud options come from price lists, not a replay: no bar."
    ),
    "capacity.chart_title": "Total cost over {years} years against p95 wait, by server count",
    "capacity.x_title": "p95 wait (hours)",
    "capacity.y_title": "Total cost over {years} years ({currency})",
    "capacity.mark_smallest": "smallest meeting the target",
    "capacity.mark_cheapest": "cheapest option",
    "capacity.target_note": "target: {target} h",
    "capacity.hover": ("{label}<br>p95 wait {wait} h<br>{total} ({per_hour} per useful GPU-hour)"),
    # demand growth (shared by the three tabs)
    "capacity.growth_rate": "Demand growth: arrival rate × a year",
    "capacity.growth_rate_none": "the scenario's",
    "capacity.growth_rate_help": (
        "Year k replays the trace with its arrival rate times this to the power k − 1 (1.5: "
        "×1.5 in year 2, ×2.25 in year 3), and each year's months are priced from that year's "
        "replay. Empty: the scenario's own `growth:` (none if it has none)."
    ),
    "capacity.growth_seed": "Growth seed",
    "capacity.growth_seed_help": (
        "The seed of the resampling that makes each year's jobs: the same seed, the same jobs."
    ),
    "capacity.growth_refused": "This growth cannot be priced: {error}",
    "capacity.growth_none": (
        "No demand growth: each point replays the trace once and every year of the horizon "
        "repeats it."
    ),
    "capacity.growth_year": "year {year} ×{factor}",
    "capacity.growth_years": (
        "Demand grows: each point replays {years} years, one per year of the longest horizon, "
        "at these factors on the trace's arrival rate: {steps} (seed {seed})."
    ),
    "capacity.growth_warp": " Each year's clock runs faster: {warps}.",
    "capacity.growth_team": " A synthetic team of profile {profile} joins from year {year}.",
    "capacity.tab_grid": "Sweep a grid",
    "capacity.tab_search": "Size by search",
    "capacity.tab_mc": "Monte Carlo",
    # sizing by search
    "capacity.search_caption": (
        "The fewest servers of the pool above meeting a wait target, found as `planner sweep "
        "--target` finds it: the scenario's count first, doubled until one meets the target "
        "(at most {growth}×), then the bracket halved, never below the floor the largest job "
        "sets (no fewer servers run it). A count meets the target only if it runs as many "
        "jobs as the most servers tried. Every point tried is stored, so a repeated search "
        "prices nothing."
    ),
    "capacity.search_stat": "Wait statistic",
    "capacity.stat.p95_wait": "p95 wait",
    "capacity.stat.mean_wait": "mean wait",
    "capacity.stat.p99_wait": "p99 wait",
    "capacity.search_value": "At most",
    "capacity.search_unit": "Unit",
    "capacity.unit.m": "minutes",
    "capacity.unit.h": "hours",
    "capacity.unit.d": "days",
    "capacity.unit_short.m": "min",
    "capacity.unit_short.h": "h",
    "capacity.unit_short.d": "d",
    "capacity.search_option": "Option sized",
    "capacity.search_team": "Whose waits",
    "capacity.search_team_help": (
        "The scenario's wait scope (GPU jobs unless its `wait_scope` says otherwise), or one "
        "team's (queue's) jobs of the trace."
    ),
    "capacity.search_team_own": "overall ({scope})",
    "capacity.scope.gpu-jobs": "GPU jobs",
    "capacity.scope.all-jobs": "all jobs",
    "capacity.scope_team": "team {team}'s jobs",
    "capacity.search_run": "Search",
    "capacity.search_progress_start": "Pricing the scenario's own count…",
    "capacity.search_progress": "{points} points tried; {servers} servers: {wait} h, {verdict}",
    "capacity.search_meets": "meets",
    "capacity.search_misses": "misses",
    "capacity.search_failed": "The search could not be priced: {error}",
    "capacity.search_press": "Press **Search** to find the fewest servers meeting the target.",
    "capacity.search_no_chart": (
        "No chart: no point tried has a wait to draw (no job of the scope ran at any count)."
    ),
    "capacity.search_target_text": "a {stat} of at most {value} {unit}",
    "capacity.search_none": (
        "No count of {gpu} servers up to {ceiling} gives {option} {target} for {scope}."
    ),
    "capacity.search_found": (
        "The fewest {gpu} servers giving {option} {target} for {scope}: {servers}."
    ),
    "capacity.search_how": (
        " {points} points priced, from the scenario's {start} (doubled up to {growth}× to "
        "bracket the answer, then bisected)."
    ),
    "capacity.search_held": " Other pools held as the scenario has them: {fixed}.",
    "capacity.search_never": (
        " {jobs} jobs never run even then, as with the most servers tried (too large for the "
        "cluster, or still waiting at the end)."
    ),
    "capacity.bound.floor": "The largest job, not the wait target, sets this answer. ",
    "capacity.bound.target": "The wait target sets this answer. ",
    "capacity.bound.none": "No count tried meets the target. ",
    "capacity.floor": (
        "Job {job} asks for {gpus} {gpu} GPUs ({pods} pods × {per_pod}), so no count below "
        "{floor} servers of {per_server} {gpu} runs it; jobs needing {floor} servers: {jobs}."
    ),
    "capacity.floor_none": (
        "No job sets a floor on the {gpu} servers (every job runs on the other pools or on "
        "shared GPUs)."
    ),
    "capacity.bound_rest": (
        " With the jobs needing {floor} servers set aside (jobs: {jobs}; {hours} GPU-hours, "
        "{share} of all jobs' GPU-hours; listed below, to be served elsewhere and not priced "
        "here), {servers} servers meet the target ({points} points priced by the same search); "
        "jobs needing more than {servers} servers: {above}."
    ),
    "capacity.bound_rest_none": (
        " With the jobs needing {floor} servers set aside (jobs: {jobs}; {hours} GPU-hours, "
        "{share} of all jobs' GPU-hours; listed below), no count up to {ceiling} meets the "
        "target either ({points} points priced)."
    ),
    "capacity.bound_rest_floor": (
        " That {servers} is itself a floor: job {job} asks for {gpus} {gpu} GPUs ({pods} pods "
        "× {per_pod}); jobs needing {servers} servers: {jobs}."
    ),
    "capacity.aside_col.job": "Job set aside",
    "capacity.aside_col.gpus": "GPUs",
    "capacity.aside_col.servers": "{gpu} servers it needs",
    "capacity.aside_col.gpu_hours": "GPU-hours",
    "capacity.search_col.step": "Step",
    "capacity.search_col.servers": "{gpu} servers",
    "capacity.search_col.wait": "{stat} (h)",
    "capacity.search_col.never": "Never run (jobs)",
    "capacity.search_col.meets": "Meets the target",
    "capacity.yes": "yes",
    "capacity.no": "no",
    "capacity.search_chart_title": "{stat} of each count of {gpu} servers tried, in order",
    "capacity.search_y_title": "{stat} (hours)",
    # Monte Carlo over the stored sweep
    "capacity.mc_caption": (
        "Each option's NPV of costs over seeded price paths, as `planner montecarlo --sweep` "
        "gives it: every point stored today for this scenario on this trace (the grid's, the "
        "search's, the command line's) is re-priced, never replayed; the grid's points not "
        "stored yet are priced and stored first. The same seed gives the same figures."
    ),
    "capacity.mc_points": "The grid's points to store first: {points}.",
    "capacity.mc_run": "Run Monte Carlo",
    "capacity.mc_draws": "Draws (price paths)",
    "capacity.mc_seed": "Seed",
    "capacity.mc_cloud_trend": "Cloud prices: trend (% a year)",
    "capacity.mc_cloud_vol": "Cloud prices: volatility (% a year)",
    "capacity.mc_electricity_trend": "Electricity: trend (% a year)",
    "capacity.mc_electricity_vol": "Electricity: volatility (% a year)",
    "capacity.mc_server_sd": "Server price: spread (%)",
    "capacity.mc_demand_sd": "Demand: spread (%)",
    "capacity.mc_demand_default": "the twin check's error, else 10",
    "capacity.mc_bad_driver": "The price paths cannot be drawn: {error}",
    "capacity.mc_progress_start": "Storing the grid's points…",
    "capacity.mc_progress_draws": "Re-pricing every stored point over {draws} price paths…",
    "capacity.mc_failed": "The Monte Carlo could not be priced: {error}",
    "capacity.mc_press": "Press **Run Monte Carlo** to see each option's NPV as a distribution.",
    "capacity.mc_nothing": (
        "No stored point keeps what it was priced from: run the grid or the search again to "
        "store points the Monte Carlo can re-price."
    ),
    "capacity.mc_no_horizon": "No stored point was priced over {years} years.",
    "capacity.mc_no_wins": (
        "No owning-against-renting figures: the scenario has no cloud option to compare with."
    ),
    "capacity.mc_burst": "burst after {hours} h",
    "capacity.mc_point": "Point to draw",
    "capacity.mc_hist_title": "NPV of costs over {years} years: how the draws spread",
    "capacity.mc_hist_y": "Draws",
    "capacity.mc_hist_caption": (
        "Each bar counts the draws (price paths) whose NPV of costs over the horizon falls in "
        "its range, one colour per option; further left is cheaper. Where the colours overlap, "
        "which option is cheaper depends on how prices move."
    ),
    "capacity.mc_wins_sentence": (
        "In {wins} of {draws} draws ({share}), owning ({owned}, {point}) costs less than "
        "renting ({rented}) over {years} years."
    ),
    "capacity.mc_no_draws": "No draws to show for this point over {years} years.",
    "capacity.mc_col.point": "Point",
    "capacity.mc_col.option": "Option",
    "capacity.mc_col.mean": "NPV of costs: mean",
    "capacity.mc_col.p5": "p5",
    "capacity.mc_col.p50": "p50",
    "capacity.mc_col.p95": "p95",
    "capacity.mc_col.owned": "Owning",
    "capacity.mc_col.rented": "Against renting",
    "capacity.mc_col.probability": "Owning costs less (share of draws)",
    "capacity.mc_col.buy_mean": "NPV of buying: mean",
    "capacity.mc_col.buy_p5": "p5",
    "capacity.mc_col.buy_p95": "p95",
    "capacity.mc_chart_title": "NPV of costs over {years} years by point: median, p5 to p95",
    "capacity.mc_y_title": "NPV of costs over {years} years ({currency})",
    # the cheapest mix (under the search)
    "capacity.mix_title": "Cheapest mix: owned, committed and on-demand",
    "capacity.mix_caption": (
        "The hybrid keeping n servers of the pool above and bursting the rest to the cloud, "
        "with a commitment sized from the replay's burst demand and the overflow on demand (or "
        "on spot where the scenario has a spot option): the cheapest n meeting the target "
        "above, as `planner sweep --target ... --mix` finds it. Owning alone is sized first "
        "and bounds n; then 0 (or 1), the powers of two below it, and counts around the "
        "cheapest. Each count costs two replays the first time (a probe and the mix)."
    ),
    "capacity.mix_no_hybrid": (
        "The cheapest mix sizes a hybrid: this scenario has none (build one on the Compare "
        "page with the option form)."
    ),
    "capacity.mix_growth": (
        "Demand grows: every year of the horizon must meet the target (its worst year's "
        "wait counts), and each year's cloud bill comes from that year's replay; a "
        "commitment of a year or less is sized year by year from each year's burst demand, a "
        "longer one holds one size through the years. The answer year by year:"
    ),
    "capacity.mix_year.year": "Year",
    "capacity.mix_year.rate": "Arrival rate ×",
    "capacity.mix_run": "Find the cheapest mix",
    "capacity.mix_progress_start": "Sizing owning alone first…",
    "capacity.mix_progress": (
        "{points} mixes priced; {servers} servers, {committed} GPUs committed: {total}, {verdict}"
    ),
    "capacity.mix_failed": "The cheapest mix could not be priced: {error}",
    "capacity.mix_press": "Press **Find the cheapest mix** to size the hybrid to the target.",
    "capacity.mix_found": (
        "The cheapest mix giving the hybrid {target} for {scope}: keep {kept}, "
        "commit {committed} cloud GPUs ({model}) and burst the rest {overflow}: "
        "{total} over {years} years."
    ),
    "capacity.mix_none": (
        "No mix keeping up to {ceiling} {gpu} servers gives the hybrid {target} for {scope}."
    ),
    "capacity.mix_on_demand": "on demand",
    "capacity.mix_on_spot": "on spot",
    "capacity.mix_alone": " Owning alone needs {kept} ({total}).",
    "capacity.mix_alone_none": (
        " Owning alone meets it with no count up to {ceiling} {gpu} servers."
    ),
    "capacity.mix_best": "cheapest mix",
    "capacity.mix_col.servers": "{gpu} servers kept",
    "capacity.mix_col.committed": "Committed GPUs",
    "capacity.mix_col.committed_h": "Committed GPU-h a month",
    "capacity.mix_col.on_demand_h": "On-demand GPU-h a month",
    "capacity.mix_col.spot_h": "Spot GPU-h a month",
    "capacity.mix_chart_title": (
        "Each mix tried: total over {years} years against the hybrid's wait"
    ),
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
    "capacity.col.per_hour_bar": "每有效 GPU 小时，孪生误差范围",
    "capacity.col.wait_bar": "p95 等待（小时），孪生误差范围",
    "capacity.col.util": "窗口内利用率",
    "capacity.col.served": "窗口内完成（GPU 小时）",
    "capacity.col.carried": "结转到窗口之后（GPU 小时）",
    "capacity.col.demanded": "需求（GPU 小时）",
    "capacity.bar": "{low} 至 {high}（±{error}）",
    "capacity.wait_bar": "{low} 至 {high}（x{low_factor} 至 x{high_factor}）",
    "capacity.no_wait_ratio": "未测得等待比值",
    "capacity.not_calibrated": "未校准",
    "capacity.stored_none": "今天尚未存储此场景在此作业历史上的网格点。",
    "capacity.stored": "今天已为此场景在此作业历史上存储：服务器数 {counts}。",
    "capacity.stored_hybrid": (
        "今天已为此场景在此作业历史上存储：服务器数 {counts}；溢出阈值 {hours} 小时。"
    ),
    "capacity.reopen": "重新打开已存储的扫描",
    "capacity.priced_stored": (
        "本次计价的点：{computed}；从数据库读回：{stored}（与 `planner sweep` 相同方式存储，"
        "按场景、作业历史、价目表和日期）。"
    ),
    "capacity.table_note": (
        "每个自有方案行的 GPU 小时相加一致：需求 = 窗口内完成 + 从未运行 + 结转到窗口之后"
        "（积压在作业历史结束后完成的工作，没有任何月份为其付费）。利用率是自有 GPU 在作业历史"
        "窗口内的分配占比，即成本所计价的占比。孪生误差范围：场景有孪生检验时，其校准后的重放在"
        "验证窗口内与实测分配 GPU 小时相差比例 e；成本的范围为数值 ×(1 - e) 至 ×(1 + e)。p95 "
        "等待的范围来自等待本身：重放的 p90 和 p99 等待是实测的 r 倍时，等待乘以 1 / r（以及 1），"
        "从低到高。云方案来自价目表而非重放：无误差范围。"
    ),
    "capacity.chart_title": "按服务器数量：{years} 年总成本与 p95 等待时间",
    "capacity.x_title": "p95 等待（小时）",
    "capacity.y_title": "{years} 年总成本（{currency}）",
    "capacity.mark_smallest": "满足目标的最小规模",
    "capacity.mark_cheapest": "最便宜的方案",
    "capacity.target_note": "目标：{target} 小时",
    "capacity.hover": "{label}<br>p95 等待 {wait} 小时<br>{total}（每有效 GPU 小时 {per_hour}）",
    "capacity.growth_rate": "需求增长：每年到达率 ×",
    "capacity.growth_rate_none": "按场景设置",
    "capacity.growth_rate_help": (
        "第 k 年按作业轨迹到达率乘以此值的 k − 1 次方重放（1.5：第 2 年 ×1.5，第 3 年 ×2.25），"
        "每年各月的成本按当年的重放计算。留空：使用场景自身的 `growth:`（没有则不增长）。"
    ),
    "capacity.growth_seed": "增长随机种子",
    "capacity.growth_seed_help": "生成每年作业的重采样所用的种子：种子相同，作业相同。",
    "capacity.growth_refused": "无法按此增长计算成本：{error}",
    "capacity.growth_none": "无需求增长：每个点重放一次作业轨迹，期限内每年都重复它。",
    "capacity.growth_year": "第 {year} 年 ×{factor}",
    "capacity.growth_years": (
        "需求增长：每个点重放 {years} 年（最长期限的每年一次），到达率相对作业轨迹的倍数为："
        "{steps}（种子 {seed}）。"
    ),
    "capacity.growth_warp": "每年的时钟加快：{warps}。",
    "capacity.growth_team": "从第 {year} 年起加入一个画像为 {profile} 的合成团队。",
    "capacity.tab_grid": "网格扫描",
    "capacity.tab_search": "搜索规模",
    "capacity.tab_mc": "蒙特卡洛",
    "capacity.search_caption": (
        "按 `planner sweep --target` 的方法，找出上方所选资源池满足等待目标的最少服务器数："
        "先试场景中的数量，不满足则加倍（最多 {growth} 倍），再二分区间。只有运行的作业与所试"
        "最多服务器时一样多，某一数量才算满足目标。低于最大作业所设下限（更少的服务器无法运行"
        "它）的数量不试。所试的每个点都会存储，重复搜索无需重新计算。"
    ),
    "capacity.search_stat": "等待统计量",
    "capacity.stat.p95_wait": "p95 等待",
    "capacity.stat.mean_wait": "平均等待",
    "capacity.stat.p99_wait": "p99 等待",
    "capacity.search_value": "不超过",
    "capacity.search_unit": "单位",
    "capacity.unit.m": "分钟",
    "capacity.unit.h": "小时",
    "capacity.unit.d": "天",
    "capacity.unit_short.m": "分钟",
    "capacity.unit_short.h": "小时",
    "capacity.unit_short.d": "天",
    "capacity.search_option": "要测算的方案",
    "capacity.search_team": "统计谁的等待",
    "capacity.search_team_help": (
        "场景的等待范围（除非其 `wait_scope` 另有规定，否则为 GPU 作业），或作业轨迹中某个团队"
        "（队列）的作业。"
    ),
    "capacity.search_team_own": "总体（{scope}）",
    "capacity.scope.gpu-jobs": "GPU 作业",
    "capacity.scope.all-jobs": "全部作业",
    "capacity.scope_team": "团队 {team} 的作业",
    "capacity.search_run": "搜索",
    "capacity.search_progress_start": "正在计算场景自身数量的成本…",
    "capacity.search_progress": "已试 {points} 个点；{servers} 台服务器：{wait} 小时，{verdict}",
    "capacity.search_meets": "满足",
    "capacity.search_misses": "不满足",
    "capacity.search_failed": "无法计算搜索的成本：{error}",
    "capacity.search_press": "点击**搜索**以找出满足目标的最少服务器数。",
    "capacity.search_no_chart": (
        "无图表：所试的点都没有可绘制的等待时间（任何数量下该范围的作业都未运行）。"
    ),
    "capacity.search_target_text": "{stat}不超过 {value} {unit}",
    "capacity.search_none": (
        "在 {ceiling} 台以内，没有任何 {gpu} 服务器数量能使{option}对{scope}达到{target}。"
    ),
    "capacity.search_found": (
        "使{option}对{scope}达到{target}的最少 {gpu} 服务器数：{servers} 台。"
    ),
    "capacity.search_how": (
        "共计算 {points} 个点，从场景中的 {start} 台开始（最多加倍到 {growth} 倍以确定区间，"
        "再二分）。"
    ),
    "capacity.search_held": "其他资源池按场景保持不变：{fixed}。",
    "capacity.search_never": (
        "即便如此仍有 {jobs} 个作业从未运行，与所试最多服务器时相同（对集群过大，"
        "或结束时仍在等待）。"
    ),
    "capacity.bound.floor": "决定这一答案的是最大的作业，而不是等待目标。",
    "capacity.bound.target": "决定这一答案的是等待目标。",
    "capacity.bound.none": "所试的数量都达不到目标。",
    "capacity.floor": (
        "作业 {job} 申请 {gpus} 块 {gpu} GPU（{pods} 个 Pod × {per_pod}），因此少于 {floor} 台"
        "服务器（每台 {per_server} 块 {gpu}）都无法运行它；需要 {floor} 台的作业：{jobs} 个。"
    ),
    "capacity.floor_none": (
        "没有作业为 {gpu} 服务器数设下限（每个作业都可在其他资源池或共享 GPU 上运行）。"
    ),
    "capacity.bound_rest": (
        "除去需要 {floor} 台服务器的 {jobs} 个作业（{hours} GPU 小时，占全部作业 GPU 小时的 "
        "{share}；列于下表，由别处承担，此处不计价），{servers} 台服务器即可达到目标（同一搜索"
        "共计算 {points} 个点）；需要超过 {servers} 台的作业：{above} 个。"
    ),
    "capacity.bound_rest_none": (
        "除去需要 {floor} 台服务器的 {jobs} 个作业（{hours} GPU 小时，占全部作业 GPU 小时的 "
        "{share}；列于下表），在 {ceiling} 台以内仍没有数量能达到目标（共计算 {points} 个点）。"
    ),
    "capacity.bound_rest_floor": (
        "这 {servers} 台本身也是下限：作业 {job} 申请 {gpus} 块 {gpu} GPU（{pods} 个 Pod × "
        "{per_pod}）；需要 {servers} 台的作业：{jobs} 个。"
    ),
    "capacity.aside_col.job": "剔除的作业",
    "capacity.aside_col.gpus": "GPU 数",
    "capacity.aside_col.servers": "所需 {gpu} 服务器数",
    "capacity.aside_col.gpu_hours": "GPU 小时",
    "capacity.search_col.step": "步骤",
    "capacity.search_col.servers": "{gpu} 服务器数",
    "capacity.search_col.wait": "{stat}（小时）",
    "capacity.search_col.never": "从未运行（作业数）",
    "capacity.search_col.meets": "满足目标",
    "capacity.yes": "是",
    "capacity.no": "否",
    "capacity.search_chart_title": "按尝试顺序：每个 {gpu} 服务器数量的{stat}",
    "capacity.search_y_title": "{stat}（小时）",
    "capacity.mc_caption": (
        "按 `planner montecarlo --sweep` 的方法，在带种子的价格路径上给出每个方案的成本 NPV："
        "今天为此场景和此作业轨迹存储的每个点（网格的、搜索的、命令行的）都会重新计价，而不重放；"
        "尚未存储的网格点会先计算并存储。种子相同，结果相同。"
    ),
    "capacity.mc_points": "需先存储的网格点：{points} 个。",
    "capacity.mc_run": "运行蒙特卡洛",
    "capacity.mc_draws": "抽样次数（价格路径）",
    "capacity.mc_seed": "随机种子",
    "capacity.mc_cloud_trend": "云价格：趋势（每年 %）",
    "capacity.mc_cloud_vol": "云价格：波动率（每年 %）",
    "capacity.mc_electricity_trend": "电价：趋势（每年 %）",
    "capacity.mc_electricity_vol": "电价：波动率（每年 %）",
    "capacity.mc_server_sd": "服务器价格：离散度（%）",
    "capacity.mc_demand_sd": "需求：离散度（%）",
    "capacity.mc_demand_default": "取孪生检验的误差，否则为 10",
    "capacity.mc_bad_driver": "无法生成价格路径：{error}",
    "capacity.mc_progress_start": "正在存储网格点…",
    "capacity.mc_progress_draws": "正在按 {draws} 条价格路径重新计价每个已存储的点…",
    "capacity.mc_failed": "无法计算蒙特卡洛：{error}",
    "capacity.mc_press": "点击**运行蒙特卡洛**以查看每个方案 NPV 的分布。",
    "capacity.mc_nothing": (
        "没有已存储的点保留了计价输入：请重新运行网格或搜索以存储可重新计价的点。"
    ),
    "capacity.mc_no_horizon": "没有已存储的点按 {years} 年计算过成本。",
    "capacity.mc_no_wins": "无自有与租用的对比：场景中没有可比较的云方案。",
    "capacity.mc_burst": "等待 {hours} 小时后溢出",
    "capacity.mc_point": "要绘制的点",
    "capacity.mc_hist_title": "{years} 年成本 NPV：各次抽样的分布",
    "capacity.mc_hist_y": "抽样次数",
    "capacity.mc_hist_caption": (
        "每个柱统计成本 NPV 落在该区间内的抽样（价格路径）次数，每个方案一种颜色；越靠左越便宜。"
        "颜色重叠处，哪个方案更便宜取决于价格如何变动。"
    ),
    "capacity.mc_wins_sentence": (
        "在 {draws} 次抽样中有 {wins} 次（{share}），自有（{owned}，{point}）的成本低于租用"
        "（{rented}），期限 {years} 年。"
    ),
    "capacity.mc_no_draws": "此点在 {years} 年期限内没有可显示的抽样。",
    "capacity.mc_col.point": "点",
    "capacity.mc_col.option": "方案",
    "capacity.mc_col.mean": "成本 NPV：均值",
    "capacity.mc_col.p5": "p5",
    "capacity.mc_col.p50": "p50",
    "capacity.mc_col.p95": "p95",
    "capacity.mc_col.owned": "自有",
    "capacity.mc_col.rented": "对比租用",
    "capacity.mc_col.probability": "自有更便宜（抽样占比）",
    "capacity.mc_col.buy_mean": "购买的 NPV：均值",
    "capacity.mc_col.buy_p5": "p5",
    "capacity.mc_col.buy_p95": "p95",
    "capacity.mc_chart_title": "按点：{years} 年成本 NPV 的中位数及 p5 至 p95",
    "capacity.mc_y_title": "{years} 年成本 NPV（{currency}）",
    "capacity.mix_title": "最便宜的组合：自有、承诺用量与按需",
    "capacity.mix_caption": (
        "混合方案保留上方资源池的 n 台服务器，其余溢出到云端：按重放得到的溢出需求确定承诺用量，"
        "超出部分按需（若场景有竞价方案则用竞价）计费；按 `planner sweep --target ... --mix` "
        "的方法找出满足上方目标的最便宜的 n。先测算仅自有所需的数量作为上限，再试 0（或 1）、"
        "其下的 2 的幂，以及最便宜数量附近的数量。每个数量首次需重放两次"
        "（一次探测、一次组合）。"
    ),
    "capacity.mix_no_hybrid": (
        "最便宜的组合测算的是混合方案：此场景没有混合方案（可在“比较”页面用方案表单构建）。"
    ),
    "capacity.mix_growth": (
        "需求增长：时间范围内的每一年都须达到目标（以等待最长的一年为准），每年的云账单来自当年的"
        "重放；期限不超过一年的承诺按每年的溢出需求逐年确定，更长期限的承诺各年保持同一数量。"
        "逐年的结果："
    ),
    "capacity.mix_year.year": "年份",
    "capacity.mix_year.rate": "到达率 ×",
    "capacity.mix_run": "查找最便宜的组合",
    "capacity.mix_progress_start": "正在先测算仅自有所需的数量…",
    "capacity.mix_progress": (
        "已计算 {points} 个组合；{servers} 台服务器，承诺 {committed} 块 GPU：{total}，{verdict}"
    ),
    "capacity.mix_failed": "无法计算最便宜组合的成本：{error}",
    "capacity.mix_press": "点击**查找最便宜的组合**，按目标测算混合方案。",
    "capacity.mix_found": (
        "使混合方案对{scope}达到{target}的最便宜组合：保留 {kept}，"
        "承诺 {committed} 块云 GPU（{model}），其余{overflow}溢出：{years} 年共 {total}。"
    ),
    "capacity.mix_none": (
        "保留不超过 {ceiling} 台 {gpu} 服务器的组合都无法使混合方案对{scope}达到{target}。"
    ),
    "capacity.mix_on_demand": "按需",
    "capacity.mix_on_spot": "以竞价",
    "capacity.mix_alone": "仅自有需要 {kept}（{total}）。",
    "capacity.mix_alone_none": "仅自有时，不超过 {ceiling} 台 {gpu} 服务器都无法满足。",
    "capacity.mix_best": "最便宜的组合",
    "capacity.mix_col.servers": "保留的 {gpu} 服务器数",
    "capacity.mix_col.committed": "承诺 GPU 数",
    "capacity.mix_col.committed_h": "承诺用量每月 GPU 小时",
    "capacity.mix_col.on_demand_h": "按需每月 GPU 小时",
    "capacity.mix_col.spot_h": "竞价每月 GPU 小时",
    "capacity.mix_chart_title": "所试的每个组合：{years} 年总成本与混合方案的等待时间",
}
