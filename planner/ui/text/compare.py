"""The Compare page's texts: one scenario file, or several saved scenarios side by side, and
the conclusions generated from their numbers."""

EN = {
    "compare.title": "Compare",
    "compare.caption": (
        "Own, rent or both: every option priced on the same demand. The same numbers as "
        "`planner tco --scenario FILE`."
    ),
    "compare.mode": "Compare",
    "compare.mode_saved": "Saved scenarios",
    "compare.mode_file": "One scenario file",
    "compare.scenario": "Scenario",
    "compare.upload_choice": "Upload a scenario (YAML)…",
    "compare.upload": "TCO scenario",
    "compare.upload_help": "A relative `trace:` path is looked up beside the bundled scenarios.",
    "compare.upload_info": "Upload a TCO scenario (`self_hosted:`, `cloud:`, ...).",
    "compare.too_large": "{name} is larger than {mb} MB.",
    "compare.pricing": "Pricing the options…",
    "compare.horizon": "Horizon",
    "compare.years": "{years} years",
    "compare.owned_caption": (
        "{gpus} owned GPUs at {allocation} allocation, {useful} useful GPU-hours a month."
    ),
    "compare.cloud_caption": "Renting only: {useful} useful GPU-hours a month.",
    "compare.per_installed": "Per installed GPU-hour",
    "compare.per_allocated": "Per allocated GPU-hour",
    "compare.per_useful": "Per useful GPU-hour",
    "compare.cheapest": "Cheapest option",
    "compare.col_scenario": "Scenario",
    "compare.col_option": "Option",
    "compare.col_total": "Total ({currency})",
    "compare.col_per_useful": "Per useful GPU-hour ({currency})",
    "compare.col_per_busy": "Per busy GPU-hour ({currency})",
    "compare.col_per_busy_help": (
        "Per useful GPU-hour / the measured GPU busy share: total / (useful GPU-hours x busy "
        "share)."
    ),
    "compare.busy_caption": (
        "GPU busy share {share}: {busy} GPU-hours busy of the {known} GPU-hours with a busy "
        "share (known for {jobs_known} of {jobs} jobs, {hours} of the GPU-hours allocated)."
    ),
    "compare.busy_teams": "GPU-hours allocated and busy by team",
    "compare.busy_col_team": "Team",
    "compare.busy_col_allocated": "GPU-hours allocated",
    "compare.busy_col_busy": "GPU-hours busy",
    "compare.busy_col_share": "Busy share",
    "compare.col_mean_wait": "Mean wait (h)",
    "compare.col_p95_wait": "p95 wait (h)",
    "compare.col_served_share": "Served share",
    "compare.col_served_share_help": (
        "GPU-hours the option served itself (owned, bridge, burst or rented) / GPU-hours "
        "demanded, from its ledger."
    ),
    "compare.col_served_elsewhere": "Served elsewhere ({currency})",
    "compare.col_served_elsewhere_help": (
        "Demand the option left unserved (lead time without a bridge, unschedulable, "
        "unfinished, carried past the window), bought at the served-elsewhere rate and part "
        "of its total, NPV and cost per useful GPU-hour."
    ),
    "compare.col_packing_overhead": "Packing overhead",
    "compare.col_packing_overhead_help": (
        "A cloud option's billed GPU-hours / the GPU-hours its pods held (1.00x: every GPU "
        "paid for was used)."
    ),
    "compare.col_price_floor": "Price floor a month ({currency})",
    "compare.col_price_floor_help": (
        "The GPU-hours its pods held x the option's cheapest price per GPU-hour: what a "
        "perfect packer with no delays would pay a month."
    ),
    "compare.assumption": "Assumption · {label}: {value}",
    "compare.col_eac": "Equivalent annual cost ({currency} a year)",
    "compare.categories": "Cost by category over the horizon ({currency})",
    "compare.col_category": "Category",
    "compare.col_eac_help": (
        "The option's cost as an equal yearly payment over its life at the discount rate "
        "(equivalent annual cost, EAC): compares options whose lives differ."
    ),
    "compare.col_utilization": "GPU allocation",
    "compare.col_utilization_help": (
        "Share of the owned GPUs' hours that jobs held (allocation). It is not the GPUs' "
        "measured busy time: a job that holds a GPU counts it as used."
    ),
    "compare.col_currency": "Currency",
    "compare.no_cloud": "No cloud option: no break-even to draw.",
    "compare.tornado_title": "Sensitivity: {output} (each driver ±{swing})",
    "compare.note": "note: {note}",
    "compare.scope.gpu-jobs": "**Priced: GPU jobs only** (no CPU-only job was left out).",
    "compare.scope.all-jobs": (
        "**Priced: all jobs.** CPU-only jobs (no GPUs) run on CPU instances in the cloud and "
        "on owned CPUs, in every option."
    ),
    "compare.scope.gpu_jobs_left_out": (
        "**Priced: GPU jobs only.** CPU-only jobs left out of every option: {jobs} "
        "({hours} CPU-hours)."
    ),
    "compare.scope.no_owned_home": (
        "**Priced: GPU jobs only**, although the scenario asks for all jobs. CPU-only jobs "
        "left out of every option: {jobs} ({hours} CPU-hours), because the owned servers "
        "give them no CPUs (set `cpu` and `mem_gib` on the self-hosted pools, or add "
        "`cpu_servers`)."
    ),
    "compare.scope_help": (
        "Which jobs of the trace every option pays for. CPU-only jobs need no GPU; they are "
        "priced on both sides (cloud CPU instances and owned CPUs) or on neither, never on "
        "one side only. The scenario's `scope:` setting chooses (gpu-jobs or all-jobs)."
    ),
    "compare.ledger_title.gpu_hours": "**Where each option serves the demand (GPU-hours)**",
    "compare.ledger_title.cpu_hours": "**Where each option serves the CPU-only jobs (CPU-hours)**",
    "compare.ledger_caption": (
        "Every option prices the same demand: each row splits it into where it ran and what "
        "was not served, and the parts add up to the demand."
    ),
    "compare.ledger_help": (
        "Demanded: the hours the jobs in scope asked for over the horizon (GPUs x run time). "
        "Bridge: cloud hours while bought servers are on order. Burst: the hybrid's overflow "
        "sent to the cloud. Rented: a cloud option's hours. Not served: waiting for delivery "
        "with no bridge, never fits the servers, no cloud price for the job, deleted by its "
        "user before it ran (withdrawn), or still waiting at the end of the replay."
    ),
    "compare.ledger.option": "Option",
    "compare.ledger.demanded": "Demanded",
    "compare.ledger.owned": "On owned servers",
    "compare.ledger.bridge": "Cloud: bridge",
    "compare.ledger.burst": "Cloud: burst",
    "compare.ledger.rented": "Cloud: rented",
    "compare.ledger.unserved": "Not served",
    "compare.ledger.lead_time": "Not served: servers on order",
    "compare.ledger.unschedulable": "Not served: never fits",
    "compare.ledger.unpriced": "Not served: no cloud price",
    "compare.ledger.withdrawn": "Not served: withdrawn",
    "compare.ledger.unfinished": "Not served: unfinished",
    "compare.ledger.carried": "Not served: backlog past the trace's window",
    "compare.ledger_unbalanced": (
        "The ledger of {option} does not balance: its lines miss the demand ({demanded}) by "
        "{imbalance}. Its costs cannot be compared with the others'; please report this."
    ),
    "compare.stale_price": "{price}: price as of {as_of} is stale; check it on the Prices page",
    "compare.download_yaml": "Download the scenario (YAML)",
    "compare.download_yamls": "Download the scenarios (YAML)",
    "compare.download_table": "Download the table (CSV)",
    # conclusion of one scenario
    "compare.c_own": (
        "At {allocation} allocation, owning costs {cost} per useful GPU-hour over {years} years."
    ),
    "compare.c_cloud_only": "Renting only, over {years} years.",
    "compare.c_cheapest": (
        "The cheapest option is {name} at {cost} per useful GPU-hour ({total} in total{wait})."
    ),
    "compare.c_wait": ", p95 wait {hours} h",
    "compare.c_never": (
        "Owning never pays against {name}: its price does not cover a busy GPU's energy."
    ),
    "compare.c_over_full": (
        "Owning does not pay against {name} even at full allocation (it needs {share})."
    ),
    "compare.c_pays": (
        "Owning pays above {share} allocation against {name}, and the demand is there."
    ),
    "compare.c_pays_only": "Owning pays only above {share} allocation against {name}.",
    "compare.c_npv_gains": "Over {years} years buying gains {amount} in NPV against it.",
    "compare.c_npv_loses": "Over {years} years buying loses {amount} in NPV against it.",
    "compare.c_hybrid": (
        "The hybrid (its own servers, bursting to the cloud) costs {cost} per useful GPU-hour "
        "over {years} years."
    ),
    "compare.c_hybrid_gains": "Over {years} years the hybrid gains {amount} in NPV against {name}.",
    "compare.c_hybrid_loses": "Over {years} years the hybrid loses {amount} in NPV against {name}.",
    "compare.c_flip": "The verdict flips at {driver} {value} (today {base}).",
    "compare.flips_title": "What would flip the verdict",
    # several saved scenarios
    "compare.saved_pick": "Saved scenarios to compare",
    "compare.saved_none": (
        "No saved scenario yet: save a bundled or uploaded scenario below (or a replay "
        "scenario on the Replay page), then pick it here."
    ),
    "compare.saved_pick_info": "Choose one or more saved scenarios to compare.",
    "compare.saved_trace": "Price them all on the trace",
    "compare.saved_trace_help": "Every scenario is replayed and priced on this job history.",
    "compare.saved_years": "Horizon (years)",
    "compare.no_trace": (
        "No job history is stored: import one on the Job history page, then compare."
    ),
    "compare.add_title": "Save a scenario file under a name",
    "compare.add_source": "Scenario file",
    "compare.currencies": (
        "These scenarios report in different currencies ({currencies}): each row is in its "
        "scenario's currency."
    ),
    "compare.break_even_of": "Break-even and sensitivity of the owned servers of {name}.",
    "compare.no_owned": (
        "None of these scenarios owns servers: there is no break-even nor sensitivity to draw."
    ),
    "compare.no_tornado": "No cloud option to measure buying against: no sensitivity to draw.",
    "compare.m_cheapest": (
        "Over {years} years the cheapest is {name} ({scenario}) at {cost} per useful GPU-hour, "
        "{total} in total."
    ),
    "compare.m_next": (
        "That is {gap} ({share}) less per useful GPU-hour than the next, {name} ({scenario}) "
        "at {cost}."
    ),
    "compare.m_wait_worse": "In exchange, its jobs wait longer: p95 {wait} against {other}.",
    "compare.m_wait_better": "Its jobs also wait less: p95 {wait} against {other}.",
    "compare.m_alone": "It is the only option priced.",
    "compare.m_break_even": (
        "Owning the servers of {owner} pays above {share} allocation against {name}; they run "
        "at {allocation}."
    ),
    "compare.m_break_even_never": "Owning the servers of {owner} never pays against {name}.",
    "compare.driver.cloud_price": "Cloud price",
    "compare.driver.commit_price": "Commitment price",
    "compare.driver.utilization": "Demand (utilization)",
    "compare.driver.server_price": "Server price",
    "compare.driver.life": "Server life",
    "compare.driver.electricity": "Electricity price",
    "compare.driver.pue": "PUE",
    "compare.driver.staff": "Staff cost",
    "compare.driver.rate": "Discount rate",
    "compare.driver.fx": "FX rate",
    "compare.driver.resale_share": "Resale value",
}

ZH = {
    "compare.title": "比较",
    "compare.caption": (
        "自建、租用或混合:所有方案按同一需求计价。与 `planner tco --scenario FILE` 的数字相同。"
    ),
    "compare.mode": "比较",
    "compare.mode_saved": "已保存的场景",
    "compare.mode_file": "单个场景文件",
    "compare.scenario": "场景",
    "compare.upload_choice": "上传场景(YAML)…",
    "compare.upload": "TCO 场景",
    "compare.upload_help": "相对路径的 `trace:` 在内置场景所在目录中查找。",
    "compare.upload_info": "请上传一个 TCO 场景(`self_hosted:`、`cloud:` 等)。",
    "compare.too_large": "{name} 超过 {mb} MB。",
    "compare.pricing": "正在为各方案计价…",
    "compare.horizon": "期限",
    "compare.years": "{years} 年",
    "compare.owned_caption": "自有 {gpus} 块 GPU,分配率 {allocation},每月有效 GPU 小时 {useful}。",
    "compare.cloud_caption": "仅租用:每月有效 GPU 小时 {useful}。",
    "compare.per_installed": "每装机 GPU 小时",
    "compare.per_allocated": "每已分配 GPU 小时",
    "compare.per_useful": "每有效 GPU 小时",
    "compare.cheapest": "最便宜的方案",
    "compare.col_scenario": "场景",
    "compare.col_option": "方案",
    "compare.col_total": "总计({currency})",
    "compare.col_per_useful": "每有效 GPU 小时({currency})",
    "compare.col_per_busy": "每繁忙 GPU 小时({currency})",
    "compare.col_per_busy_help": (
        "每有效 GPU 小时成本 / 实测 GPU 繁忙占比：总成本 / (有效 GPU 小时 × 繁忙占比)。"
    ),
    "compare.busy_caption": (
        "GPU 繁忙占比 {share}：有繁忙占比的 {known} GPU 小时中繁忙 {busy} GPU 小时"
        "（{jobs} 个作业中 {jobs_known} 个已知，占已分配 GPU 小时的 {hours}）。"
    ),
    "compare.busy_teams": "各团队已分配与繁忙的 GPU 小时",
    "compare.busy_col_team": "团队",
    "compare.busy_col_allocated": "已分配 GPU 小时",
    "compare.busy_col_busy": "繁忙 GPU 小时",
    "compare.busy_col_share": "繁忙占比",
    "compare.col_mean_wait": "平均等待(小时)",
    "compare.col_p95_wait": "p95 等待(小时)",
    "compare.col_served_share": "满足率",
    "compare.col_served_share_help": (
        "方案自身满足的 GPU 小时（自有、过渡、突发或租用）/ 需求的 GPU 小时，取自其需求台账。"
    ),
    "compare.col_served_elsewhere": "在别处满足({currency})",
    "compare.col_served_elsewhere_help": (
        "方案未满足的需求（无过渡的交付期、无法调度、未完成、拖到时间窗之后），"
        "按“在别处满足”费率购买，计入其总成本、NPV 和每有效 GPU 小时成本。"
    ),
    "compare.col_packing_overhead": "装箱开销",
    "compare.col_packing_overhead_help": (
        "云方案计费的 GPU 小时 / 其 Pod 占用的 GPU 小时（1.00x：付费的每个 GPU 都被使用）。"
    ),
    "compare.col_price_floor": "每月价格下限({currency})",
    "compare.col_price_floor_help": (
        "Pod 占用的 GPU 小时 x 该方案最便宜的每 GPU 小时价格：完美装箱且无延迟时每月应付的金额。"
    ),
    "compare.assumption": "假设 · {label}：{value}",
    "compare.col_eac": "等额年成本({currency}/年)",
    "compare.categories": "期限内按类别的成本（{currency}）",
    "compare.col_category": "类别",
    "compare.col_eac_help": (
        "按折现率把方案成本折算为寿命期内每年相等的支付额（等额年成本）：用于比较寿命不同的方案。"
    ),
    "compare.col_utilization": "GPU 分配率",
    "compare.col_utilization_help": (
        "作业占用的自有 GPU 小时占比（分配率），并非 GPU 实测忙碌时间：作业占用的 GPU 即计为已用。"
    ),
    "compare.col_currency": "币种",
    "compare.no_cloud": "没有云方案:无盈亏平衡图可画。",
    "compare.tornado_title": "敏感性:{output}(每个因素各变动 ±{swing})",
    "compare.note": "注:{note}",
    "compare.scope.gpu-jobs": "**计价范围：仅 GPU 作业**（没有纯 CPU 作业被排除）。",
    "compare.scope.all-jobs": (
        "**计价范围：全部作业**。纯 CPU 作业（不用 GPU）在每个方案中都按云端 CPU 实例"
        "和自有 CPU 计价。"
    ),
    "compare.scope.gpu_jobs_left_out": (
        "**计价范围：仅 GPU 作业**。{jobs} 个纯 CPU 作业（{hours} CPU 小时）不计入任何方案。"
    ),
    "compare.scope.no_owned_home": (
        "**计价范围：仅 GPU 作业**，尽管场景要求计入全部作业：{jobs} 个纯 CPU 作业（{hours} CPU "
        "小时）不计入任何方案，因为自有服务器没有为它们提供 CPU（请为自建资源池设置 `cpu` 和 "
        "`mem_gib`，或添加 `cpu_servers`）。"
    ),
    "compare.scope_help": (
        "每个方案为作业轨迹中的哪些作业付费。纯 CPU 作业不需要 GPU；它们要么两边都计价（云端 CPU "
        "实例和自有 CPU），要么两边都不计，绝不只计一边。由场景的 `scope:` 设置选择（`gpu-jobs` 或 "
        "`all-jobs`）。"
    ),
    "compare.ledger_title.gpu_hours": "**各方案如何满足需求（GPU 小时）**",
    "compare.ledger_title.cpu_hours": "**各方案如何满足纯 CPU 作业（CPU 小时）**",
    "compare.ledger_caption": (
        "每个方案为相同的需求计价：每一行把需求分为在哪里运行和未被满足的部分，各部分之和等于需求。"
    ),
    "compare.ledger_help": (
        "需求：范围内作业在整个期限内申请的小时数（GPU 数 × 运行时间）。过渡：购买的服务器交付前在"
        "云端运行的小时数。突发：混合方案溢出到云端的部分。租用：云方案的小时数。未满足：等待交付且无"
        "过渡、服务器永远放不下、作业没有云端价格、运行前被用户删除（撤回），或回放结束时仍在等待。"
    ),
    "compare.ledger.option": "方案",
    "compare.ledger.demanded": "需求",
    "compare.ledger.owned": "自有服务器",
    "compare.ledger.bridge": "云端：过渡",
    "compare.ledger.burst": "云端：突发",
    "compare.ledger.rented": "云端：租用",
    "compare.ledger.unserved": "未满足",
    "compare.ledger.lead_time": "未满足：服务器交付中",
    "compare.ledger.unschedulable": "未满足：永远放不下",
    "compare.ledger.unpriced": "未满足：无云端价格",
    "compare.ledger.withdrawn": "未满足：撤回",
    "compare.ledger.unfinished": "未满足：未完成",
    "compare.ledger.carried": "未满足：积压到作业轨迹时间窗之后",
    "compare.ledger_unbalanced": (
        "{option} 的账目不平衡：各项之和与需求（{demanded}）相差 {imbalance}。其成本无法与其他方案"
        "比较；请报告此问题。"
    ),
    "compare.stale_price": "{price}:价格截至 {as_of},已过期;请在价格页面核对",
    "compare.download_yaml": "下载场景(YAML)",
    "compare.download_yamls": "下载这些场景(YAML)",
    "compare.download_table": "下载表格(CSV)",
    "compare.c_own": "在 {allocation} 的分配率下,{years} 年内自建每有效 GPU 小时成本为 {cost}。",
    "compare.c_cloud_only": "仅租用,期限 {years} 年。",
    "compare.c_cheapest": "最便宜的方案是 {name},每有效 GPU 小时 {cost}(总计 {total}{wait})。",
    "compare.c_wait": ",p95 等待 {hours} 小时",
    "compare.c_never": "自建永远比不过 {name}:其价格不足以覆盖忙碌 GPU 的电费。",
    "compare.c_over_full": "即使满负荷分配,自建也比不过 {name}(需要 {share})。",
    "compare.c_pays": "分配率高于 {share} 时自建比 {name} 划算,而实际需求已达到。",
    "compare.c_pays_only": "只有分配率高于 {share} 时自建才比 {name} 划算。",
    "compare.c_npv_gains": "{years} 年内,相对于它,购买的净现值多出 {amount}。",
    "compare.c_npv_loses": "{years} 年内,相对于它,购买的净现值少了 {amount}。",
    "compare.c_hybrid": "混合方案(自有服务器,溢出到云){years} 年内每有效 GPU 小时成本为 {cost}。",
    "compare.c_hybrid_gains": "{years} 年内,混合方案相对 {name} 的净现值多出 {amount}。",
    "compare.c_hybrid_loses": "{years} 年内,混合方案相对 {name} 的净现值少了 {amount}。",
    "compare.c_flip": "当{driver}变为 {value}(当前 {base})时,结论翻转。",
    "compare.flips_title": "什么会改变结论",
    "compare.saved_pick": "要比较的已保存场景",
    "compare.saved_none": (
        "还没有已保存的场景:请在下方保存一个内置或上传的场景(或在回放页面保存回放场景),再在此选择。"
    ),
    "compare.saved_pick_info": "请选择一个或多个已保存的场景进行比较。",
    "compare.saved_trace": "全部按此作业轨迹计价",
    "compare.saved_trace_help": "每个场景都在这份作业历史上回放并计价。",
    "compare.saved_years": "期限(年)",
    "compare.no_trace": "尚未存储作业历史:请先在作业历史页面导入,再进行比较。",
    "compare.add_title": "将场景文件以名称保存",
    "compare.add_source": "场景文件",
    "compare.currencies": "这些场景使用不同的币种({currencies}):每一行按其场景的币种计。",
    "compare.break_even_of": "{name} 自有服务器的盈亏平衡与敏感性。",
    "compare.no_owned": "这些场景都没有自有服务器:没有盈亏平衡或敏感性可画。",
    "compare.no_tornado": "没有可用来比较购买的云方案:无敏感性可画。",
    "compare.m_cheapest": (
        "{years} 年内最便宜的是 {name}({scenario}),每有效 GPU 小时 {cost},总计 {total}。"
    ),
    "compare.m_next": "每有效 GPU 小时比第二名 {name}({scenario},{cost})便宜 {gap}({share})。",
    "compare.m_wait_worse": "代价是作业等待更久:p95 为 {wait},对方为 {other}。",
    "compare.m_wait_better": "其作业等待也更短:p95 为 {wait},对方为 {other}。",
    "compare.m_alone": "这是唯一计价的方案。",
    "compare.m_break_even": (
        "{owner} 的自有服务器在分配率高于 {share} 时比 {name} 划算;当前分配率为 {allocation}。"
    ),
    "compare.m_break_even_never": "{owner} 的自有服务器永远比不过 {name}。",
    "compare.driver.cloud_price": "云价格",
    "compare.driver.commit_price": "承诺用量价格",
    "compare.driver.utilization": "需求(利用率)",
    "compare.driver.server_price": "服务器价格",
    "compare.driver.life": "服务器寿命",
    "compare.driver.electricity": "电价",
    "compare.driver.pue": "PUE 值",
    "compare.driver.staff": "人员成本",
    "compare.driver.rate": "折现率",
    "compare.driver.fx": "汇率",
    "compare.driver.resale_share": "转售价值",
}
