"""The workbook's texts in English and 简体中文 (merged into `planner.report.text`'s catalogs):
sheet names, the Assumptions sheet's rows and units, the option sheets' columns and key
figures, the comparison, the charts and the Replay sheet."""

_LINES = {
    "colocation": ("Colocation", "机房托管"),
    "support": ("Support", "维保"),
    "staff": ("Staff", "人员"),
    "software": ("Software", "软件"),
    "spares": ("Spares", "备件"),
    "insurance": ("Insurance", "保险"),
    "property_tax": ("Property tax", "财产税"),
}
"""Each running line of owning (`planner.cost.lines.LINES`): its category, the owned sheet's
column, and "... per month" for its key figure."""
_PER_MONTH = ("{} per month", "每月{}")

_OWN_COLUMNS = {
    "month": ("Month", "月份"),
    "in_service": ("In service (1 = yes)", "在用（1 = 是）"),
    "capex": ("CapEx (cash)", "资本支出（现金）"),
    "refresh": ("Refresh: replacement CapEx (cash)", "更新换代：替换资本支出（现金）"),
    "depreciation": ("Depreciation (book)", "折旧（账面）"),
    "energy": ("Energy", "电费"),
    "bridge": ("Bridge (cloud before delivery)", "过渡期云费用（到货前）"),
    "cloud_burst": ("Cloud burst", "云端突发"),
    "tax_depreciation": ("Tax depreciation", "税务折旧"),
    "tax_shield": ("Tax shield (cash)", "税盾（现金）"),
    "resale": ("Resale value (cash in when sold)", "转售价值（出售时现金流入）"),
    "disposal_tax": (
        "Disposal tax (on resale less tax book value)",
        "处置税（转售价值减税务账面净值）",
    ),
    "pnl": ("P&L total", "损益合计"),
    "cash": ("Cash flow", "现金流"),
    "cumulative": ("Cumulative cash", "累计现金"),
}
_OWN_FIGURES = {
    "servers": ("Servers", "服务器数"),
    "gpus": ("Installed GPUs", "已装 GPU 数"),
    "capex": ("CapEx", "资本支出"),
    "lead": (
        "Months before delivery (lead time within the horizon)",
        "到货前月数（期限内的交付期）",
    ),
    "energy_per_hour": ("Energy per hour (mean over the day)", "每小时电费（全天平均）"),
    "bridge": ("Bridge per month (first cloud option)", "每月过渡期云费用（第一个云方案）"),
    "burst": ("Cloud burst per month", "每月云端突发"),
    "total_pnl": ("Total (P&L)", "总成本（损益）"),
    "total_cash": ("Total cash", "现金合计"),
    "useful": ("Useful GPU-hours over the horizon", "期限内有效 GPU 小时"),
    "per_useful": ("Per useful GPU-hour", "每有效 GPU 小时成本"),
    "per_installed": (
        "Per installed GPU-hour (without the bridge)",
        "每已装 GPU 小时成本（不含过渡）",
    ),
    "allocation": ("Allocation (mean over the day)", "分配率（全天平均）"),
    "per_allocated": (
        "Per allocated GPU-hour (without the bridge)",
        "每已分配 GPU 小时成本（不含过渡）",
    ),
    "fixed": ("Fixed cost per installed GPU-hour (F)", "每已装 GPU 小时固定成本（F）"),
    "variable": ("Energy per busy GPU-hour (V)", "每繁忙 GPU 小时电费（V）"),
    "idle": ("Idle cost", "闲置成本"),
    "npv_cash": ("NPV of the cash flow", "现金流的 NPV"),
    "eac": ("Equivalent annual cost", "等额年成本"),
    "book_life": ("Book life (months)", "账面折旧年限（月）"),
    "book_residual": ("Book residual value", "账面残值"),
    "tax_life": ("Tax life (months)", "税务折旧年限（月）"),
    "tax_residual": ("Tax residual value", "税务残值"),
}
_CLOUD_FIGURES = {
    "monthly_total": ("Bill per month (P&L)", "每月账单（损益）"),
    "monthly_cash": ("Cash per month (after tax)", "每月现金（税后）"),
    "useful_month": ("Useful GPU-hours per month", "每月有效 GPU 小时"),
    "cloud_compute": (
        "Cloud compute per month (instance-hours x price)",
        "每月云计算费用（实例小时 x 单价）",
    ),
    "commitment": (
        "Commitment per month (committed GPUs x hours x price)",
        "每月承诺用量费用（承诺 GPU 数 x 小时 x 单价）",
    ),
    "overflow": (
        "Overflow per month (instance-hours above the commitment x on-demand price)",
        "每月超额费用（超出承诺的实例小时 x 按需单价）",
    ),
    "spot_overhead": (
        "Spot overhead per month (instance-hours x re-run share x price)",
        "每月竞价实例额外费用（实例小时 x 重跑比例 x 单价）",
    ),
    "cloud_cpu": (
        "CPU instances per month (vCPU-hours and GiB-hours x rates)",
        "每月 CPU 实例费用（vCPU 小时与 GiB 小时 x 费率）",
    ),
    "storage": ("Storage per month (GB x price)", "每月存储费用（GB x 单价）"),
    "egress": ("Egress per month (GB x price)", "每月出网流量费用（GB x 单价）"),
    "other": ("Other per month (stated by the model)", "每月其他费用（模型给定）"),
    "total_pnl": ("Total (P&L)", "总成本（损益）"),
    "total_cash": ("Total cash", "现金合计"),
    "useful": ("Useful GPU-hours over the horizon", "期限内有效 GPU 小时"),
    "per_useful": ("Per useful GPU-hour", "每有效 GPU 小时成本"),
    "per_gpu_hour": ("Effective price per useful GPU-hour (C)", "每有效 GPU 小时实际价格（C）"),
    "npv_cash": ("NPV of the cash flow", "现金流的 NPV"),
    "eac": ("Equivalent annual cost", "等额年成本"),
}
_CLOUD_COLUMNS = {
    "month": ("Month", "月份"),
    "cloud_compute": ("Cloud compute", "云计算费用"),
    "commitment": ("Commitment", "承诺用量"),
    "overflow": ("Overflow (on demand above the commitment)", "超额（超出承诺部分按需计费）"),
    "spot_overhead": ("Spot overhead (re-runs)", "竞价实例额外费用（重跑）"),
    "cloud_cpu": ("CPU instances (CPU-only jobs)", "CPU 实例（纯 CPU 作业）"),
    "storage": ("Storage", "存储"),
    "egress": ("Egress", "出网流量"),
    "other": ("Other (stated)", "其他（给定）"),
    "pnl": ("P&L total", "损益合计"),
    "cash": ("Cash flow", "现金流"),
    "cumulative": ("Cumulative cash", "累计现金"),
}
_BARE_METAL = {
    "network_share": ("Network (fabric) share of server price", "网络占服务器价格比例"),
    "storage_share": ("Storage share of server price", "存储占服务器价格比例"),
    "installation": ("Installation", "安装费用"),
    "life_years": ("Book life", "账面折旧年限"),
    "residual_share": (
        "Book residual at end of life (depreciation only, not cash)",
        "寿命结束时账面残值比例（仅用于折旧，非现金）",
    ),
    "resale_share": (
        "Resale value at the horizon's end, share of CapEx (cash)",
        "期末转售价值占资本支出比例（现金）",
    ),
    "tax_life_years": ("Tax depreciation life", "税务折旧年限"),
    "pue": ("PUE", "PUE（能效比）"),
    "colo_per_kw_month": ("Colocation per contracted kW", "每合同千瓦托管费"),
    "rack_fee_month": ("Rack fee", "机柜费"),
    "servers_per_rack": ("Servers per rack", "每机柜服务器数"),
    "support_share_year": (
        "Support contract, share of server price a year",
        "维保合同（每年占服务器价格比例）",
    ),
    "fte": ("Staff (FTE for all servers)", "人员（全部服务器的全职人数）"),
    "fte_per_server": ("Staff per server", "每台服务器人员"),
    "fte_cost_year": ("Staff cost per FTE", "每全职人员成本"),
    "software_per_gpu_year": ("Software per GPU", "每 GPU 软件费"),
    "spares_share_year": ("Spares, share of CapEx a year", "备件（每年占资本支出比例）"),
    "insurance_share_year": (
        "Insurance of the equipment, share of CapEx a year",
        "设备保险（每年占资本支出比例）",
    ),
    "property_tax_share_year": (
        "Property tax on equipment, share of book value a year",
        "设备财产税（每年占账面价值比例）",
    ),
    "lead_time_months": ("Lead time (order to delivery)", "交付期（下单到交付）"),
    "availability": ("Availability (share of hours schedulable)", "可用率（可调度小时比例）"),
    "power_escalation_year": ("Electricity price escalation", "电价年涨幅"),
    "staff_escalation_year": ("Staff salary escalation", "人员薪资年涨幅"),
    "colo_escalation_year": ("Colocation fee escalation", "托管费年涨幅"),
    "depreciation_method": ("Book depreciation method", "账面折旧方法"),
    "tax_method": ("Tax depreciation method", "税务折旧方法"),
    "kwh_price": ("Electricity price (tariff)", "电价"),
    "kwh_price_hour": ("Electricity price, hour {hour}", "电价（{hour} 时）"),
}
_UNITS = {
    "per_year": ("a year", "每年"),
    "months": ("months", "月"),
    "hours": ("hours", "小时"),
    "share": ("share (0-1)", "比例（0-1）"),
    "share_of_servers": ("share of server price", "占服务器价格比例"),
    "money": ("{currency}", "{currency}"),
    "years": ("years", "年"),
    "share_of_capex": ("share of CapEx", "占资本支出比例"),
    "ratio": ("ratio", "比值"),
    "per_kw_month": ("{currency} per kW-month", "{currency}/千瓦·月"),
    "per_rack_month": ("{currency} per rack-month", "{currency}/机柜·月"),
    "servers": ("servers", "台"),
    "share_per_year": ("share a year", "每年比例"),
    "fte": ("FTE", "全职人数"),
    "fte_per_server": ("FTE per server", "每台全职人数"),
    "per_fte_year": ("{currency} per FTE-year", "{currency}/人·年"),
    "per_gpu_year": ("{currency} per GPU-year", "{currency}/GPU·年"),
    "share_of_capex_year": ("share of CapEx a year", "每年占资本支出比例"),
    "share_of_book_value_year": ("share of book value a year", "每年占账面价值比例"),
    "share_of_hours": ("share of hours", "小时比例"),
    "per_kwh": ("{currency} per kWh", "{currency}/千瓦时"),
    "per_instance_hour": ("{currency} per instance-hour", "{currency}/实例小时"),
    "per_gpu_hour": ("{currency} per GPU-hour", "{currency}/GPU 小时"),
    "per_month": ("{currency} a month", "{currency}/月"),
    "per_gb_month": ("{currency} per GB-month", "{currency}/GB·月"),
    "per_gb": ("{currency} per GB", "{currency}/GB"),
}
_PAIRS = {
    "report.wb.sheet.cover": ("Cover", "封面"),
    "report.wb.sheet.assumptions": ("Assumptions", "假设"),
    "report.wb.sheet.comparison": ("Comparison", "比较"),
    "report.wb.sheet.depreciation": ("Depreciation", "折旧"),
    "report.wb.sheet.replay": ("Replay", "回放"),
    "report.wb.sheet.options": ("Options (all horizons)", "方案（全部期限）"),
    "report.wb.sheet.horizon_tag": ("{years}y ", "{years}年 "),
    "report.wb.question": (
        "Should we buy GPU servers, rent cloud GPUs, or both, for this workload?",
        "对于这一工作负载，应购买 GPU 服务器、租用云 GPU，还是两者结合？",
    ),
    "report.wb.cover.question": ("Question", "问题"),
    "report.wb.cover.scenarios": ("Scenarios", "场景"),
    "report.wb.cover.twin": ("Twin check (replay vs history)", "孪生校验（回放对比历史）"),
    "report.wb.cover.no_twin": (
        "none: the scenario is not calibrated (`planner twin`)",
        "无：场景未校准（`planner twin`）",
    ),
    "report.wb.cover.opt.option": ("Option", "方案"),
    "report.wb.cover.opt.per_useful": ("Per useful GPU-hour", "每有效 GPU 小时成本"),
    "report.wb.cover.opt.total": ("Total (P&L)", "合计（损益）"),
    "report.wb.cover.opt.cloud_per_useful": (
        "Cloud options, per useful GPU-hour",
        "云方案每有效 GPU 小时成本",
    ),
    "report.wb.cover.page_one": (
        "The PDF's first page, recalculated from Assumptions",
        "PDF 首页数字（按假设重新计算）",
    ),
    "report.wb.page_one.decision": (
        "Decision (lowest cost per useful GPU-hour)",
        "决策（每有效 GPU 小时成本最低）",
    ),
    "report.wb.page_one.priced": (
        "Options priced (with a cost per useful GPU-hour)",
        "已计价方案数（有每有效 GPU 小时成本）",
    ),
    "report.wb.page_one.against": ("Buying weighed against", "购买的对比对象"),
    "report.wb.page_one.npv": ("NPV of buying against it", "相对其购买的 NPV"),
    "report.wb.page_one.break_even_month": ("Break-even month against it", "相对其盈亏平衡月份"),
    "report.wb.page_one.per_useful": (
        "Decision's cost per useful GPU-hour",
        "所选方案每有效 GPU 小时成本",
    ),
    "report.wb.page_one.owned_per_useful": (
        "Self-hosted, per useful GPU-hour",
        "自建：每有效 GPU 小时成本",
    ),
    "report.wb.page_one.decision_total": ("Decision's total (P&L)", "所选方案合计（损益）"),
    "report.wb.page_one.break_even_allocation": (
        "Break-even allocation against it (first horizon)",
        "相对其盈亏平衡分配率（首个期限）",
    ),
    "report.wb.page_one.years": ("Horizon (years)", "期限（年）"),
    "report.wb.page_one.rate": ("Discount rate", "折现率"),
    "report.wb.page_one.useful_per_month": ("Useful GPU-hours per month", "每月有效 GPU 小时"),
    "report.wb.page_one.installed_gpus": ("Owned GPUs", "自有 GPU 数"),
    "report.wb.page_one.allocation": ("Allocation of the owned GPUs", "自有 GPU 分配率"),
    "report.wb.page_one.fixed": (
        "Owned: fixed cost per installed GPU-hour",
        "自有：每已装 GPU 小时固定成本",
    ),
    "report.wb.page_one.variable": (
        "Owned: extra energy per busy GPU-hour",
        "自有：每繁忙 GPU 小时额外电费",
    ),
    "report.wb.page_one.resale": (
        "Owned: resale value at the horizon's end (cash in)",
        "自有：期末转售价值（现金流入）",
    ),
    "report.wb.assumptions_title": (
        "Assumptions: change a blue value and every sheet recalculates",
        "假设：修改蓝色数值，所有工作表将重新计算",
    ),
    "report.wb.col.input": ("Input", "输入"),
    "report.wb.col.value": ("Value", "数值"),
    "report.wb.col.unit": ("Unit", "单位"),
    "report.wb.col.source": ("Source", "来源"),
    "report.wb.col.as_of": ("As of", "日期"),
    "report.wb.col.confidence": ("Confidence", "可信度"),
    "report.wb.col.name": ("Defined name", "定义名称"),
    "report.wb.source.model": ("model constant", "模型常量"),
    "report.wb.source.scenario": ("scenario", "场景"),
    "report.wb.source.busy": (
        "measured from the trace, {jobs} jobs ({share} of the GPU-hours allocated)",
        "由作业轨迹实测，{jobs} 个作业（占已分配 GPU 小时的 {share}）",
    ),
    "report.wb.source.replay": ("replay of the trace (per month)", "轨迹回放（每月）"),
    "report.wb.source.cloud_terms": (
        "scenario or price book (see Prices used and Notes)",
        "场景或价格库（见“所用价格”与“说明”）",
    ),
    "report.wb.source.model_amount": (
        "computed by the model (not a formula here)",
        "由模型计算（此处不是公式）",
    ),
    "report.wb.in.discount_rate": ("Discount rate (nominal)", "折现率（名义）"),
    "report.wb.in.months": ("Horizon", "期限"),
    "report.wb.in.hours": ("Hours in a month", "每月小时数"),
    "report.wb.in.tax_rate": ("Income tax rate", "所得税率"),
    "report.wb.in.cloud_escalation": ("Cloud price escalation", "云价格年涨幅"),
    "report.wb.in.busy_share": (
        "Busy share (busy / allocated GPU-hours; cost per busy GPU-hour = per useful / it)",
        "GPU 繁忙占比（繁忙 / 已分配 GPU 小时；"
        "每繁忙 GPU 小时成本 = 每有效 GPU 小时成本 / 该占比）",
    ),
    "report.wb.in.swing": (
        "Sensitivity swing (each driver low and high)",
        "敏感性波动幅度（各因素低值与高值）",
    ),
    "report.wb.in.committed": ("{name}: committed GPUs", "{name}：承诺 GPU 数"),
    "report.wb.in.commit_price": (
        "{name}: price per committed GPU-hour",
        "{name}：每承诺 GPU 小时价格",
    ),
    "report.wb.in.useful": ("{name}: useful GPU-hours a month", "{name}：每月有效 GPU 小时"),
    "report.wb.in.allocation": ("{name}: allocation of the owned GPUs", "{name}：自有 GPU 分配率"),
    "report.wb.in.allocation_hour": (
        "{name}: allocation at hour {hour}",
        "{name}：{hour} 时的分配率",
    ),
    "report.wb.in.quantity": ("{name}: {sku}, {units} a month", "{name}：{sku}，每月{units}数"),
    "report.wb.in.stated": ("{name}: {what} a month", "{name}：每月{what}"),
    "report.wb.in.rerun": (
        "{name}: {sku}, share re-run after spot interruptions",
        "{name}：{sku}，竞价实例中断后重跑比例",
    ),
    "report.wb.in.commit_hours": (
        "{name}: hours a month the commitment is paid",
        "{name}：每月承诺计费小时数",
    ),
    "report.wb.in.cpu_qty": (
        "{name}: CPU-only jobs, {units} a month",
        "{name}：纯 CPU 作业，每月{units}数",
    ),
    "report.wb.in.cpu_price": (
        "{name}: CPU instances, price per {unit}",
        "{name}：CPU 实例，每{unit}价格",
    ),
    "report.wb.in.storage_qty": ("{name}: storage kept (GB)", "{name}：存储容量（GB）"),
    "report.wb.in.storage_price": (
        "{name}: storage, price per GB-month",
        "{name}：存储，每 GB·月价格",
    ),
    "report.wb.in.egress_qty": ("{name}: egress a month (GB)", "{name}：每月出网流量（GB）"),
    "report.wb.in.egress_price": ("{name}: egress, price per GB", "{name}：出网流量，每 GB 价格"),
    "report.wb.section.levels": (
        "{name}: demand by level (the replay's instance-hours a month while the jobs hold "
        "that many GPUs at once; the share above the commitment is billed on demand)",
        "{name}：按需求水平（作业同时占用该数量 GPU 时，回放得到的每月实例小时；"
        "超出承诺的比例按需计费）",
    ),
    "report.wb.level.gpus": ("GPUs held at once", "同时占用的 GPU 数"),
    "report.wb.level.hours": ("{sku}: {units} a month", "{sku}：每月{units}数"),
    "report.wb.level.above": ("Share above the commitment", "超出承诺的比例"),
    "report.wb.section.owned": ("Owned servers", "自有服务器"),
    "report.wb.section.pools": ("Server pools", "服务器池"),
    "report.wb.section.cloud": ("Cloud prices (each once)", "云价格（每个一次）"),
    "report.wb.section.replay": (
        "The replay's quantities a month, and each cloud bill's rates and commitment",
        "回放得到的每月数量，以及各云账单的费率与承诺",
    ),
    "report.wb.section.replay_year": (
        "Year {year} (demand grown): the replay's quantities a month, and each cloud bill's "
        "rates and commitment",
        "第 {year} 年（需求增长后）：回放得到的每月数量，以及各云账单的费率与承诺",
    ),
    "report.wb.in.year_tag": ("{name}, year {year}", "{name}，第 {year} 年"),
    "report.wb.year.allocation": ("Allocation, year {year}", "第 {year} 年分配率"),
    "report.wb.year.kw": ("kW drawn, year {year}", "第 {year} 年用电功率（千瓦）"),
    "report.wb.year.figures": ("Year {year}", "第 {year} 年"),
    "report.wb.pool.pool": ("Pool (GPU)", "服务器池（GPU）"),
    "report.wb.pool.servers": ("Servers", "服务器数"),
    "report.wb.pool.gpus": ("GPUs per server", "每台 GPU 数"),
    "report.wb.pool.price": ("Price per server", "每台价格"),
    "report.wb.pool.idle": ("Idle kW", "空闲功率（千瓦）"),
    "report.wb.pool.load": ("Full-load kW", "满载功率（千瓦）"),
    "report.wb.pool.max": ("Contracted max kW", "合同最大功率（千瓦）"),
    "report.wb.pool.hybrid": ("Servers the hybrid keeps", "混合方案保留的服务器数"),
    "report.wb.pool.count_note_replay": (
        "Server counts: change one and CapEx, energy, the running costs, depreciation and the "
        "cost per installed GPU-hour follow, but the replay's quantities do not: the useful "
        "GPU-hours, allocation by hour of day, bridge and hybrid's bursts below and the waits "
        "on the Replay sheet stay those replayed on {counts} servers. Another count needs a "
        "new replay (`planner sweep`, or the Capacity page).",
        "服务器数：修改后资本支出、电费、运行成本、折旧和每已装 GPU 小时成本随之变化，"
        "但回放得出的数量不变：下方的有效 GPU 小时、按小时的分配率、过渡期云服务"
        "和混合方案的突发，以及回放表中的等待，仍是按 {counts} 台服务器回放的结果。"
        "其他服务器数需要重新回放（`planner sweep` 或容量页面）。",
    ),
    "report.wb.pool.count_note_given": (
        "Server counts: change one and CapEx, energy, the running costs, depreciation and the "
        "cost per installed GPU-hour follow, but the demand below does not: its useful "
        "GPU-hours and allocation stay those priced for {counts} servers; set them for the "
        "new count too (the same work on more GPUs is a lower allocation).",
        "服务器数：修改后资本支出、电费、运行成本、折旧和每已装 GPU 小时成本随之变化，"
        "但下方的需求不变：其有效 GPU 小时和分配率仍是按 {counts} 台服务器计价的数值；"
        "请一并按新的服务器数设置（同样的工作量在更多 GPU 上分配率更低）。",
    ),
    "report.wb.key_figures": ("Key figures (formulas)", "关键数据（公式）"),
    "report.wb.energy.hour": ("Hour of day", "时段"),
    "report.wb.energy.allocation": ("Allocation", "分配率"),
    "report.wb.energy.tariff": ("Tariff", "电价"),
    "report.wb.energy.kw": ("kW drawn", "用电功率（千瓦）"),
    "report.wb.dep.month": ("{option}: month", "{option}：月份"),
    "report.wb.dep.book": ("{option}: book charge", "{option}：账面折旧"),
    "report.wb.dep.book_acc": (
        "{option}: book accumulated, this life",
        "{option}：本代账面累计折旧",
    ),
    "report.wb.dep.book_nbv": ("{option}: net book value", "{option}：账面净值"),
    "report.wb.dep.tax": ("{option}: tax charge", "{option}：税务折旧"),
    "report.wb.dep.tax_acc": ("{option}: tax accumulated, this life", "{option}：本代税务累计折旧"),
    "report.wb.dep.tax_nbv": ("{option}: tax written-down value", "{option}：税务净值"),
    "report.wb.compare_title": (
        "Buying (self-hosted) against each cloud option: live formulas",
        "购买（自建）相对各云方案：实时公式",
    ),
    "report.wb.cmp.option": ("Cloud option", "云方案"),
    "report.wb.cmp.npv": ("NPV of buying", "购买的 NPV"),
    "report.wb.cmp.irr": ("IRR (a year)", "内部收益率（年）"),
    "report.wb.cmp.payback": ("Payback month (1 = month of purchase)", "回收月（1 = 购买当月）"),
    "report.wb.cmp.break_even": (
        "Break-even month, discounted (1 = month of purchase)",
        "折现盈亏平衡月（1 = 购买当月）",
    ),
    "report.wb.cmp.utilization": (
        "Break-even utilization F / (C - V)",
        "盈亏平衡利用率 F / (C - V)",
    ),
    "report.wb.cmp.npv_model": ("NPV as the planner computed it", "规划器计算的 NPV"),
    "report.wb.cmp.month": ("Month", "月份"),
    "report.wb.cmp.factor": ("Discount factor", "折现系数"),
    "report.wb.cmp.saving": ("{name}: saving of buying", "{name}：购买节省"),
    "report.wb.cmp.cumulative": ("{name}: cumulative", "{name}：累计"),
    "report.wb.cmp.discounted": ("{name}: discounted cumulative", "{name}：折现累计"),
    "report.wb.cmp.started": ("{name}: started (1 = yes)", "{name}：已开始（1 = 是）"),
    "report.wb.cmp.paid": ("{name}: paid back (1 = yes)", "{name}：已回收（1 = 是）"),
    "report.wb.cmp.even": ("{name}: broke even (1 = yes)", "{name}：已盈亏平衡（1 = 是）"),
    "report.wb.never": ("never", "从不"),
    "report.wb.cumulative": ("cumulative", "累计"),
    "report.wb.chart.break_even": (
        "Discounted cumulative saving of buying (break-even where it crosses 0)",
        "购买的折现累计节省（过零处即盈亏平衡）",
    ),
    "report.wb.chart.saving_axis": ("Saving", "节省"),
    "report.wb.chart.month_axis": ("Month", "月份"),
    "report.wb.chart.cumulative": ("Cumulative cash paid by option", "各方案累计现金支出"),
    "report.wb.chart.cash_axis": ("Cumulative cash", "累计现金"),
    "report.wb.chart.tornado": (
        "NPV of buying, each driver low and high",
        "购买的 NPV：各因素取低值与高值",
    ),
    "report.wb.sens.scenario": ("Scenario", "场景"),
    "report.wb.sens.output": ("Output", "输出"),
    "report.wb.sens.driver": ("Driver", "驱动因素"),
    "report.wb.sens.input": ("Input the case sets", "情景设定的输入"),
    "report.wb.sens.multiplier_low": ("Low (x base, or rate)", "低值（基准倍数或利率）"),
    "report.wb.sens.multiplier_high": ("High (x base, or rate)", "高值（基准倍数或利率）"),
    "report.wb.sens.input_low": ("Input, low case", "低值情景的输入"),
    "report.wb.sens.input_high": ("Input, high case", "高值情景的输入"),
    "report.wb.sens.low": ("NPV, driver low", "因素取低值时的 NPV"),
    "report.wb.sens.high": ("NPV, driver high", "因素取高值时的 NPV"),
    "report.wb.sens.swing": ("Swing", "波动幅度"),
    "report.wb.sens.base": ("Base NPV", "基准 NPV"),
    "report.wb.sens.how": ("How computed", "计算方式"),
    "report.wb.sens.live": (
        "live: formulas (the case's column below)",
        "实时：公式（见下方该情景列）",
    ),
    "report.wb.sens.model": (
        "computed by the model, not live",
        "由模型计算，非实时",
    ),
    "report.wb.sens.block": (
        "{name}: each case a column, the monthly saving of buying re-evaluated with one input "
        "moved, and its NPV (live formulas)",
        "{name}：每个情景一列，移动单一输入后重新计算的每月购买节省及其 NPV（实时公式）",
    ),
    "report.wb.sens.case_low": ("{driver}: low", "{driver}：低值"),
    "report.wb.sens.case_high": ("{driver}: high", "{driver}：高值"),
    "report.wb.sens.factor": (
        "Factor (change per unit of the column it scales)",
        "系数（对所乘列的每单位变化）",
    ),
    "report.wb.sens.npv": ("NPV of buying", "购买的 NPV"),
    "report.wb.sens.kw_low": ("kW drawn, demand low", "用电功率（千瓦），需求低值"),
    "report.wb.sens.kw_high": ("kW drawn, demand high", "用电功率（千瓦），需求高值"),
    "report.wb.sens_input.cloud_price": (
        "First cloud option's bill a month, without commitment",
        "第一个云方案每月账单（不含承诺）",
    ),
    "report.wb.sens_input.commit_price": (
        "First cloud option's commitment a month",
        "第一个云方案每月承诺费用",
    ),
    "report.wb.sens_input.utilization": (
        "Allocation of the owned GPUs (mean; demand scaled alike)",
        "自有 GPU 分配率（平均；需求同比例缩放）",
    ),
    "report.wb.sens_input.server_price": (
        "CapEx (server prices moved)",
        "资本支出（服务器价格变动）",
    ),
    "report.wb.sens_input.life": ("Book life (years)", "账面折旧年限（年）"),
    "report.wb.sens_input.electricity": ("Electricity price (mean)", "电价（平均）"),
    "report.wb.sens_input.pue": ("PUE", "PUE（能效比）"),
    "report.wb.sens_input.staff": ("Staff cost per FTE", "每全职人员成本"),
    "report.wb.sens_input.rate": ("Discount rate", "折现率"),
    "report.wb.sens_input.fx": ("FX rate (x base)", "汇率（基准倍数）"),
    "report.wb.sens_input.resale_share": (
        "Resale value, share of CapEx (base -/+ 30 points)",
        "转售价值占资本支出比例（基准 -/+ 30 个百分点）",
    ),
    "report.wb.replay.scenario": ("Scenario", "场景"),
    "report.wb.replay.option": ("Option", "方案"),
    "report.wb.replay.item": ("Item", "项目"),
    "report.wb.replay.value": ("Value", "数值"),
    "report.wb.replay.none": (
        "No replay: the demand is a utilization, not a trace.",
        "无回放：需求为给定利用率，而非轨迹。",
    ),
    "report.wb.replay.jobs": ("Jobs", "作业数"),
    "report.wb.replay.completed": ("Completed", "已完成"),
    "report.wb.replay.unschedulable": ("Unschedulable", "无法调度"),
    "report.wb.replay.unfinished": ("Unfinished at the end", "结束时未完成"),
    "report.wb.replay.utilization": ("Utilization of the owned GPUs", "自有 GPU 利用率"),
    "report.wb.replay.wait_mean": ("Mean wait (h)", "平均等待（小时）"),
    "report.wb.replay.wait_p95": ("p95 wait (h)", "p95 等待（小时）"),
    "report.wb.replay.waited": (
        "GPU-hours waited because: {reason}",
        "等待的 GPU 小时，原因：{reason}",
    ),
    "report.wb.replay.never_ran": (
        "Jobs never run because: {reason}",
        "从未运行的作业，原因：{reason}",
    ),
}


_QUANTITY_UNITS = {
    # a bill's quantity unit (planner.cost.inputs.PricedQuantity.unit): one, many, Chinese
    "GPU-hour": ("GPU-hour", "GPU-hours", "GPU 小时"),
    "instance-hour": ("instance-hour", "instance-hours", "实例小时"),
    "vCPU-hour": ("vCPU-hour", "vCPU-hours", "vCPU 小时"),
    "GiB-hour": ("GiB-hour", "GiB-hours", "GiB 小时"),
}
_METHODS = {
    # planner.cost.depreciation.Method
    "straight_line": ("straight line", "直线法"),
    "double_declining": ("double declining balance", "双倍余额递减法"),
    "sum_of_years_digits": ("sum of the years' digits", "年数总和法"),
}


def _units(index: int) -> dict[str, str]:
    one, many = (0, 1) if index == 0 else (2, 2)
    words = {f"report.wb.qty.{k}": v[one] for k, v in _QUANTITY_UNITS.items()}
    return words | {f"report.wb.qtys.{k}": v[many] for k, v in _QUANTITY_UNITS.items()}


def _catalog(index: int) -> dict[str, str]:
    out = {key: pair[index] for key, pair in _PAIRS.items()}
    groups = (
        ("report.wb.own.", _OWN_COLUMNS),
        ("report.wb.fig.", _OWN_FIGURES),
        ("report.wb.cfig.", _CLOUD_FIGURES),
        ("report.wb.cloud.", _CLOUD_COLUMNS),
        ("report.wb.bm.", _BARE_METAL),
        ("report.wb.unit.", _UNITS),
    )
    for prefix, group in groups:
        out |= {prefix + key: pair[index] for key, pair in group.items()}
    out |= {f"report.wb.method.{k}": pair[index] for k, pair in _METHODS.items()}
    for key, pair in _LINES.items():
        out |= {f"report.cat.{key}": pair[index], f"report.wb.own.{key}": pair[index]}
        out[f"report.wb.fig.{key}"] = _PER_MONTH[index].format(pair[index])
    return out | _units(index)


WORKBOOK_EN = _catalog(0)
WORKBOOK_ZH = _catalog(1)
