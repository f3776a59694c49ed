"""The report's texts in English and 简体中文 (sheet names, headers, the conclusion), and
their lookup with an explicit language.

They live here, outside `planner/ui`, because the report writers run without Streamlit (the
CLI); `planner/ui/text/report.py` registers the same dicts in the app's catalogs so
tests/pages/test_i18n.py checks both languages have every key.
"""

from planner.core.i18n import Language, lookup
from planner.report.text_chargeback import CHARGEBACK_EN, CHARGEBACK_ZH
from planner.report.text_service import SERVICE_EN, SERVICE_ZH
from planner.report.text_verdict import VERDICT_EN, VERDICT_ZH
from planner.report.text_workbook import WORKBOOK_EN, WORKBOOK_ZH

EN = {
    "report.title": "Own, rent or both: GPU cost report",
    "report.generated": "Generated {date}",
    "report.na": "n/a",
    "report.yes": "yes",
    "report.no": "no",
    "report.sheet.summary": "Summary",
    "report.sheet.options": "Options",
    "report.sheet.cash": "Monthly cash flow",
    "report.sheet.sensitivity": "Sensitivity",
    "report.sheet.prices": "Prices used",
    "report.sheet.notes": "Notes",
    "report.sheet.ledger": "Ledger",
    "report.col.unit": "Unit",
    "report.ledger.gpu_hours": "GPU-hours",
    "report.ledger.cpu_hours": "CPU-hours (CPU-only jobs)",
    "report.ledger.demanded": "Demanded",
    "report.ledger.owned": "Served on owned servers",
    "report.ledger.bridge": "Cloud: lead-time bridge",
    "report.ledger.burst": "Cloud: burst",
    "report.ledger.rented": "Cloud: rented",
    "report.ledger.lead_time": "Unserved: lead time not bridged",
    "report.ledger.unschedulable": "Unserved: unschedulable",
    "report.ledger.unpriced": "Unserved: no cloud price (SKU)",
    "report.ledger.withdrawn": "Unserved: withdrawn",
    "report.ledger.unfinished": "Unserved: unfinished",
    "report.ledger.carried": "Unserved: carried past the trace's window (backlog)",
    "report.ledger.imbalance": "Imbalance (demanded - accounted)",
    "report.ledger.cloud_per_job_sum": "Cloud bill: sum of instances x billed hours x price",
    "report.col.scenario": "Scenario",
    "report.col.horizon": "Horizon (years)",
    "report.col.option": "Option",
    "report.col.total": "Total (P&L)",
    "report.col.per_useful": "Per useful GPU-hour",
    "report.col.per_busy": "Per busy GPU-hour",
    "report.col.per_installed": "Per installed GPU-hour",
    "report.col.per_allocated": "Per allocated GPU-hour",
    "report.col.useful_hours": "Useful GPU-hours",
    "report.col.eac": "Equivalent annual cost",
    "report.col.idle": "Idle cost",
    "report.col.wait_mean": "Mean wait (h)",
    "report.col.wait_p95": "p95 wait (h)",
    "report.col.served_share": "Served share",
    "report.col.month": "Month",
    "report.col.driver": "Driver",
    "report.col.low": "NPV, driver low",
    "report.col.high": "NPV, driver high",
    "report.col.swing": "Swing",
    "report.col.base": "Base NPV",
    "report.col.output": "Output",
    "report.col.price": "Price",
    "report.col.per_gpu_hour": "Per GPU-hour",
    "report.col.per_server": "Per server",
    "report.col.currency": "Currency",
    "report.col.source": "Source",
    "report.col.as_of": "As of",
    "report.col.confidence": "Confidence",
    "report.col.stale": "Stale",
    "report.no_source_date": "no source date",
    "report.col.item": "Item",
    "report.col.value": "Value",
    "report.col.note": "Note",
    "report.fact.scenario": "Scenario",
    "report.fact.generated": "Date generated",
    "report.fact.currency": "Currency",
    "report.fact.scope": "Jobs priced (scope)",
    "report.fact.left_out_jobs": "CPU-only jobs left out of every option",
    "report.fact.left_out_cpu_hours": "Their CPU-hours over the trace",
    "report.scope.gpu-jobs": "GPU jobs (CPU-only jobs left out of every option)",
    "report.scope.all-jobs": "All jobs (CPU-only jobs on CPU instances and owned CPUs)",
    "report.fact.horizon": "Horizon (years)",
    "report.fact.cheapest": "Cheapest option",
    "report.fact.cheapest_cost": "Cheapest option, per useful GPU-hour",
    "report.fact.installed_gpus": "Owned GPUs",
    "report.fact.allocation": "Allocation",
    "report.fact.useful_per_month": "Useful GPU-hours per month",
    "report.fact.per_useful": "Self-hosted, per useful GPU-hour",
    "report.fact.per_installed": "Self-hosted, per installed GPU-hour",
    "report.fact.per_allocated": "Self-hosted, per allocated GPU-hour",
    "report.fact.break_even": "Break-even utilization vs {name}",
    "report.fact.npv": "NPV of buying vs {name}",
    "report.fact.conclusion": "Conclusion",
    "report.cat.capex": "CapEx (cash)",
    "report.cat.refresh": "Refresh (replacement servers at the end of their life, cash)",
    "report.cat.depreciation": "Depreciation",
    "report.cat.energy": "Energy",
    "report.cat.bridge": "Bridge (cloud while servers are on order)",
    "report.cat.cloud_burst": "Cloud burst",
    "report.cat.served_elsewhere": "Served elsewhere (unserved demand bought)",
    "report.cat.waiting": "Cost of waiting",
    "report.cat.tax_shield": "Tax shield",
    "report.cat.resale": "Resale value (cash in when sold)",
    "report.cat.disposal_tax": "Disposal tax",
    "report.cat.cloud_compute": "Cloud compute",
    "report.cat.cloud_cpu": "Cloud CPU instances (CPU-only jobs)",
    "report.cat.commitment": "Commitment",
    "report.cat.overflow": "Overflow (on-demand above commitment)",
    "report.cat.spot_overhead": "Spot overhead",
    "report.cat.storage": "Storage",
    "report.cat.egress": "Egress",
    "report.driver.cloud_price": "Cloud price",
    "report.driver.commit_price": "Commitment price",
    "report.driver.utilization": "Demand (utilization)",
    "report.driver.server_price": "Server price",
    "report.driver.life": "Server life",
    "report.driver.electricity": "Electricity price",
    "report.driver.pue": "PUE",
    "report.driver.staff": "Staff cost",
    "report.driver.rate": "Discount rate",
    "report.driver.fx": "FX rate",
    "report.driver.resale_share": "Resale value",
    "report.sentence.owning": (
        "At {allocation} allocation, owning costs {cost} per useful GPU-hour over {years} years."
    ),
    "report.sentence.cheapest": (
        "The cheapest option is {name} at {cost} per useful GPU-hour ({total} in total{wait})."
    ),
    "report.sentence.wait": ", p95 wait {hours} h",
    "report.sentence.never": (
        "Owning never pays against {name}: its price does not cover a busy GPU's energy."
    ),
    "report.sentence.not_even_full": (
        "Owning does not pay against {name} even at full allocation (it needs {share})."
    ),
    "report.sentence.pays_now": (
        "Owning pays above {share} allocation against {name}, and the demand is there."
    ),
    "report.sentence.pays_above": "Owning pays only above {share} allocation against {name}.",
    "report.sentence.npv_gain": "Over {years} years buying gains {amount} in NPV against it.",
    "report.sentence.npv_loss": "Over {years} years buying loses {amount} in NPV against it.",
    "report.note.pnl": (
        "Totals are P&L: owned options count depreciation, not CapEx; the CapEx column is the "
        "cash paid for the servers, shown for reference. The monthly cash flow pays CapEx up "
        "front and gets the servers' resale value back in the last month, less the tax on the "
        "gain on disposal (or plus the tax a loss saves)."
    ),
    "report.note.currencies": (
        "The scenarios report in different currencies ({currencies}); amounts are not converted."
    ),
    "report.note.horizon": (
        "{scenario} has no horizon {wanted}; its last horizon ({years} years) is shown."
    ),
    "report.note.none": "No notes.",
    "report.pdf.summary": "Executive summary",
    "report.pdf.option.self-hosted": "self-hosted",
    "report.pdf.option.hybrid": "hybrid",
    "report.pdf.subtitle": "{scenario} · {years} years · {currency} · generated {date}",
    "report.pdf.tile.decision": "Decision",
    "report.pdf.decision.buy": "Buy servers ({name})",
    "report.pdf.decision.rent": "Rent: {name}",
    "report.pdf.decision.none": "No option is priced",
    "report.pdf.decision.why": (
        "The lowest cost per useful GPU-hour of the {count} options over {years} years."
    ),
    "report.pdf.decision.only": "The only option priced over {years} years.",
    "report.pdf.tile.npv": "NPV of buying",
    "report.pdf.tile.npv_sub": "vs {name}, discounted at {rate} a year",
    "report.pdf.tile.break_even": "Break-even month",
    "report.pdf.tile.no_comparison": "no owned servers to weigh against renting",
    "report.pdf.tile.no_cloud": "no cloud option to weigh buying against",
    "report.pdf.tile.break_even_sub": "buying vs {name}, discounted",
    "report.pdf.break_even.month": "month {month}",
    "report.pdf.break_even.never": "never in {months} months",
    "report.pdf.tile.per_useful": "Cost per useful GPU-hour",
    "report.pdf.tile.per_useful_sub": "{name}; {owned} {cost}",
    "report.pdf.summary_cash_chart": "Cumulative cash paid by option ({years} years)",
    "report.pdf.key_assumptions": "Key assumptions",
    "report.pdf.assume.horizon": "Horizon and discount rate",
    "report.pdf.assume.horizon_value": "{years} years at {rate} a year",
    "report.pdf.assume.owned": "Owned GPUs and allocation",
    "report.pdf.assume.owned_value": "{gpus} GPUs, {share} allocated",
    "report.pdf.assume.fixed": "Owned: fixed cost per installed GPU-hour",
    "report.pdf.assume.variable": "Owned: extra energy per busy GPU-hour",
    "report.pdf.assume.busy": "GPU busy share (measured)",
    "report.pdf.assume.busy_value": (
        "{share} of allocated GPU-hours (known for {known} of {jobs} jobs, {hours} of the "
        "GPU-hours)"
    ),
    "report.pdf.assume.per_busy": "Per busy GPU-hour (per useful / busy share)",
    "report.pdf.assume.resale": "Owned: resale value at the horizon's end",
    "report.pdf.assume.resale_value": "{share} of CapEx, {amount} cash in before tax",
    "report.pdf.assume.resale_none": "none assumed (book value is not cash)",
    "report.pdf.assume.packing": "Cloud ({option}): how pods rent instances",
    "report.pdf.assume.packing_pool": (
        "node pool: pods share instances, ready {up} s after launch, released {down} s "
        "after emptying; billed {overhead} GPU-hours per GPU-hour held"
    ),
    "report.pdf.assume.packing_per_job": (
        "per job: each job on instances of its own; billed {overhead} GPU-hours per GPU-hour held"
    ),
    "report.pdf.assume.refresh": "Owned: servers replaced at the end of their life",
    "report.pdf.assume.refresh_value": (
        "every {life} years, bought again in month {month}: {amount} more CapEx"
    ),
    "report.pdf.assume.escalation": "Prices rising a year (from month 13)",
    "report.pdf.assume.escalation.power": "power {rate}",
    "report.pdf.assume.escalation.staff": "salaries {rate}",
    "report.pdf.assume.escalation.colo": "colocation {rate}",
    "report.pdf.assume.escalation.cloud": "cloud {rate}",
    "report.pdf.assume.escalation.sep": ", ",
    "report.pdf.price.per_gpu_hour": "{amount} {currency} per GPU-hour, {as_of}{stale}",
    "report.pdf.price.per_server": "{amount} {currency} per server, {as_of}{stale}",
    "report.pdf.stale": " (stale)",
    "report.pdf.all_scenarios": "Every scenario",
    "report.pdf.scenarios": "{count} scenarios",
    "report.pdf.more_scenarios": "{count} more in the appendix (A2, A3).",
    "report.pdf.see_appendix": (
        "Where to find these figures: decision and cost per useful GPU-hour in A2; NPV and "
        "break-even month in A3 and A4; assumptions in A1 and A6; sensitivity in A5."
    ),
    "report.pdf.appendix": "Appendix",
    "report.pdf.a1": "A1 Inputs and headline facts",
    "report.pdf.a2": "A2 Options (cost per useful GPU-hour = total / useful GPU-hours)",
    "report.pdf.a2_categories": (
        "{scenario}, {years} years, by cost category (P&L; CapEx and the tax shield are cash)"
    ),
    "report.col.category": "Category",
    "report.pdf.a3": "A3 Buying against each cloud option",
    "report.pdf.a3_formula": (
        "NPV of buying = sum over months m of (rent cash - own cash in month m) x "
        "(1 + r)^(-(m - 1)/12), r = {rate} a year. The break-even month is the first month in "
        "which this discounted sum reaches zero."
    ),
    "report.pdf.a4": "A4 Monthly cash flow, {scenario}, {years} years",
    "report.pdf.a4_saving": "Buy vs {name}: discounted cumulative saving",
    "report.pdf.a5": "A5 Sensitivity: {output}",
    "report.pdf.a6": "A6 Prices used (each once)",
    "report.pdf.a7": "A7 Ledger: where each option serves the demand (GPU-hours)",
    "report.pdf.a8": "A8 Notes",
    "report.pdf.col.against": "Against",
    "report.pdf.col.irr": "IRR",
    "report.pdf.col.payback": "Payback month",
    "report.pdf.col.break_even_month": "Break-even month",
    "report.pdf.col.break_even_share": "Break-even allocation",
    "report.pdf.col.cloud": "Cloud",
    "report.pdf.col.unserved": "Unserved",
    "report.pdf.no_rate": (
        "The discount rate is not in this report, so the discounted savings are not listed."
    ),
    "report.pdf.headline": "Headline",
    "report.pdf.options": "Options over {years} years",
    "report.pdf.cash_chart": "Cumulative cash paid",
    "report.pdf.break_even_chart": "Break-even utilization against each cloud option",
    "report.pdf.allocation": "allocation now: {share}",
    "report.pdf.tornado_chart": "Sensitivity: {output}",
    "report.pdf.notes": "Notes",
    "report.pdf.prices": "Prices used",
    "report.pdf.font_fallback": (
        "No Unicode font was found, so the PDF uses Helvetica and characters outside "
        "Latin-1 are replaced by '?'."
    ),
    "report.pdf.no_cjk": (
        "No Chinese font (Noto Sans CJK, Source Han Sans, WenQuanYi, ...) was found on "
        "this machine, so the PDF is written in English."
    ),
}

ZH = {
    "report.title": "自建、租用还是混合：GPU 成本报告",
    "report.generated": "生成于 {date}",
    "report.na": "无",
    "report.yes": "是",
    "report.no": "否",
    "report.sheet.summary": "摘要",
    "report.sheet.options": "方案",
    "report.sheet.cash": "月度现金流",
    "report.sheet.sensitivity": "敏感性",
    "report.sheet.prices": "所用价格",
    "report.sheet.notes": "说明",
    "report.sheet.ledger": "需求台账",
    "report.col.unit": "单位",
    "report.ledger.gpu_hours": "GPU 小时",
    "report.ledger.cpu_hours": "CPU 小时（纯 CPU 作业）",
    "report.ledger.demanded": "需求",
    "report.ledger.owned": "自有服务器完成",
    "report.ledger.bridge": "云：交付期过渡",
    "report.ledger.burst": "云：溢出",
    "report.ledger.rented": "云：租用",
    "report.ledger.lead_time": "未满足：交付期无过渡",
    "report.ledger.unschedulable": "未满足：无法调度",
    "report.ledger.unpriced": "未满足：无云端价格（SKU）",
    "report.ledger.withdrawn": "未满足：已撤回",
    "report.ledger.unfinished": "未满足：未完成",
    "report.ledger.carried": "未满足：拖到作业轨迹时间窗之后（积压）",
    "report.ledger.imbalance": "差额（需求 - 已计）",
    "report.ledger.cloud_per_job_sum": "云账单：实例数 x 计费小时 x 单价之和",
    "report.col.scenario": "场景",
    "report.col.horizon": "期限（年）",
    "report.col.option": "方案",
    "report.col.total": "总成本（损益）",
    "report.col.per_useful": "每有效 GPU 小时成本",
    "report.col.per_busy": "每繁忙 GPU 小时成本",
    "report.col.per_installed": "每已装 GPU 小时成本",
    "report.col.per_allocated": "每已分配 GPU 小时成本",
    "report.col.useful_hours": "有效 GPU 小时",
    "report.col.eac": "等额年成本",
    "report.col.idle": "闲置成本",
    "report.col.wait_mean": "平均等待（小时）",
    "report.col.wait_p95": "p95 等待（小时）",
    "report.col.served_share": "满足率",
    "report.col.month": "月份",
    "report.col.driver": "驱动因素",
    "report.col.low": "因素取低值时的 NPV",
    "report.col.high": "因素取高值时的 NPV",
    "report.col.swing": "波动幅度",
    "report.col.base": "基准 NPV",
    "report.col.output": "输出",
    "report.col.price": "价格",
    "report.col.per_gpu_hour": "每 GPU 小时",
    "report.col.per_server": "每台服务器",
    "report.col.currency": "币种",
    "report.col.source": "来源",
    "report.col.as_of": "日期",
    "report.col.confidence": "可信度",
    "report.col.stale": "已过期",
    "report.no_source_date": "无来源日期",
    "report.col.item": "项目",
    "report.col.value": "数值",
    "report.col.note": "说明",
    "report.fact.scenario": "场景",
    "report.fact.generated": "生成日期",
    "report.fact.currency": "币种",
    "report.fact.scope": "计价作业范围",
    "report.fact.left_out_jobs": "不计入任何方案的纯 CPU 作业数",
    "report.fact.left_out_cpu_hours": "这些作业在轨迹中的 CPU 小时",
    "report.scope.gpu-jobs": "GPU 作业（纯 CPU 作业不计入任何方案）",
    "report.scope.all-jobs": "全部作业（纯 CPU 作业按 CPU 实例与自有 CPU 计价）",
    "report.fact.horizon": "期限（年）",
    "report.fact.cheapest": "最便宜的方案",
    "report.fact.cheapest_cost": "最便宜方案的每有效 GPU 小时成本",
    "report.fact.installed_gpus": "自有 GPU 数",
    "report.fact.allocation": "分配率",
    "report.fact.useful_per_month": "每月有效 GPU 小时",
    "report.fact.per_useful": "自建：每有效 GPU 小时成本",
    "report.fact.per_installed": "自建：每已装 GPU 小时成本",
    "report.fact.per_allocated": "自建：每已分配 GPU 小时成本",
    "report.fact.break_even": "相对 {name} 的盈亏平衡利用率",
    "report.fact.npv": "相对 {name} 购买的 NPV",
    "report.fact.conclusion": "结论",
    "report.cat.capex": "资本支出（现金）",
    "report.cat.refresh": "更新换代（服务器寿命到期后的替换，现金）",
    "report.cat.depreciation": "折旧",
    "report.cat.energy": "电费",
    "report.cat.bridge": "过渡期云费用（服务器到货前）",
    "report.cat.cloud_burst": "云端突发",
    "report.cat.served_elsewhere": "在别处满足（购买未满足的需求）",
    "report.cat.waiting": "等待成本",
    "report.cat.tax_shield": "税盾",
    "report.cat.resale": "转售价值（出售时现金流入）",
    "report.cat.disposal_tax": "处置税",
    "report.cat.cloud_compute": "云计算费用",
    "report.cat.cloud_cpu": "云端 CPU 实例（纯 CPU 作业）",
    "report.cat.commitment": "承诺用量",
    "report.cat.overflow": "超出承诺的按需费用",
    "report.cat.spot_overhead": "竞价实例额外开销",
    "report.cat.storage": "存储",
    "report.cat.egress": "出网流量",
    "report.driver.cloud_price": "云价格",
    "report.driver.commit_price": "承诺价格",
    "report.driver.utilization": "需求（利用率）",
    "report.driver.server_price": "服务器价格",
    "report.driver.life": "服务器寿命",
    "report.driver.electricity": "电价",
    "report.driver.pue": "PUE（能效比）",
    "report.driver.staff": "人员成本",
    "report.driver.rate": "折现率",
    "report.driver.fx": "汇率",
    "report.driver.resale_share": "转售价值",
    "report.sentence.owning": (
        "在 {allocation} 的分配率下，{years} 年内自建每有效 GPU 小时成本为 {cost}。"
    ),
    "report.sentence.cheapest": (
        "最便宜的方案是 {name}，每有效 GPU 小时 {cost}（总计 {total}{wait}）。"
    ),
    "report.sentence.wait": "，p95 等待 {hours} 小时",
    "report.sentence.never": "相对 {name}，自建永远不划算：其价格不足以覆盖繁忙 GPU 的电费。",
    "report.sentence.not_even_full": "即使满分配，自建相对 {name} 也不划算（需要 {share}）。",
    "report.sentence.pays_now": "分配率高于 {share} 时自建比 {name} 划算，而当前需求已达到。",
    "report.sentence.pays_above": "只有分配率高于 {share} 时，自建才比 {name} 划算。",
    "report.sentence.npv_gain": "{years} 年内，购买相对它的 NPV 收益为 {amount}。",
    "report.sentence.npv_loss": "{years} 年内，购买相对它的 NPV 损失为 {amount}。",
    "report.note.pnl": (
        "总成本按损益口径：自有方案计入折旧而非资本支出；资本支出一列为购买服务器支付的现金，"
        "仅供参考。月度现金流在首期支付资本支出，并在最后一个月收回服务器的转售价值，"
        "扣除处置收益应缴的税（处置损失则计入节省的税）。"
    ),
    "report.note.currencies": "各场景的报告币种不同（{currencies}）；金额未做换算。",
    "report.note.horizon": "{scenario} 没有第 {wanted} 个期限；显示其最后一个期限（{years} 年）。",
    "report.note.none": "无说明。",
    "report.pdf.summary": "决策摘要",
    "report.pdf.option.self-hosted": "自建",
    "report.pdf.option.hybrid": "混合",
    "report.pdf.subtitle": "{scenario} · {years} 年 · {currency} · 生成于 {date}",
    "report.pdf.tile.decision": "决策",
    "report.pdf.decision.buy": "购买服务器（{name}）",
    "report.pdf.decision.rent": "租用：{name}",
    "report.pdf.decision.none": "没有可计价的方案",
    "report.pdf.decision.why": "{years} 年内 {count} 个方案中每有效 GPU 小时成本最低。",
    "report.pdf.decision.only": "{years} 年内唯一计价的方案。",
    "report.pdf.tile.npv": "购买的 NPV",
    "report.pdf.tile.npv_sub": "相对 {name}，年折现率 {rate}",
    "report.pdf.tile.break_even": "盈亏平衡月份",
    "report.pdf.tile.no_comparison": "没有自有服务器可与租用对比",
    "report.pdf.tile.no_cloud": "没有云方案可与购买对比",
    "report.pdf.tile.break_even_sub": "购买相对 {name}，按折现计",
    "report.pdf.break_even.month": "第 {month} 个月",
    "report.pdf.break_even.never": "{months} 个月内不会达到",
    "report.pdf.tile.per_useful": "每有效 GPU 小时成本",
    "report.pdf.tile.per_useful_sub": "{name}；{owned} {cost}",
    "report.pdf.summary_cash_chart": "各方案累计现金支出（{years} 年）",
    "report.pdf.key_assumptions": "关键假设",
    "report.pdf.assume.horizon": "期限与折现率",
    "report.pdf.assume.horizon_value": "{years} 年，年折现率 {rate}",
    "report.pdf.assume.owned": "自有 GPU 数与分配率",
    "report.pdf.assume.owned_value": "{gpus} 块 GPU，分配率 {share}",
    "report.pdf.assume.fixed": "自建：每已装 GPU 小时固定成本",
    "report.pdf.assume.variable": "自建：每繁忙 GPU 小时额外电费",
    "report.pdf.assume.busy": "GPU 繁忙占比（实测）",
    "report.pdf.assume.busy_value": (
        "已分配 GPU 小时的 {share}（{jobs} 个作业中 {known} 个已知，占 GPU 小时的 {hours}）"
    ),
    "report.pdf.assume.per_busy": "每繁忙 GPU 小时成本（每有效 GPU 小时成本 / 繁忙占比）",
    "report.pdf.assume.resale": "自建：期末转售价值",
    "report.pdf.assume.resale_value": "资本支出的 {share}，税前现金流入 {amount}",
    "report.pdf.assume.resale_none": "不计（账面价值不是现金）",
    "report.pdf.assume.packing": "云（{option}）：Pod 如何租用实例",
    "report.pdf.assume.packing_pool": (
        "节点池：Pod 共享实例，启动后 {up} 秒就绪，空闲 {down} 秒后释放；"
        "每占用 1 GPU 小时计费 {overhead} GPU 小时"
    ),
    "report.pdf.assume.packing_per_job": (
        "按作业：每个作业独占自己的实例；每占用 1 GPU 小时计费 {overhead} GPU 小时"
    ),
    "report.pdf.assume.refresh": "自建：服务器寿命到期后更换",
    "report.pdf.assume.refresh_value": (
        "每 {life} 年更换，第 {month} 月再次购买：资本支出增加 {amount}"
    ),
    "report.pdf.assume.escalation": "价格年涨幅（自第 13 月起）",
    "report.pdf.assume.escalation.power": "电价 {rate}",
    "report.pdf.assume.escalation.staff": "薪资 {rate}",
    "report.pdf.assume.escalation.colo": "托管费 {rate}",
    "report.pdf.assume.escalation.cloud": "云价格 {rate}",
    "report.pdf.assume.escalation.sep": "，",
    "report.pdf.price.per_gpu_hour": "每 GPU 小时 {amount} {currency}，{as_of}{stale}",
    "report.pdf.price.per_server": "每台服务器 {amount} {currency}，{as_of}{stale}",
    "report.pdf.stale": "（已过期）",
    "report.pdf.all_scenarios": "全部场景",
    "report.pdf.scenarios": "{count} 个场景",
    "report.pdf.more_scenarios": "另有 {count} 个场景见附录（A2、A3）。",
    "report.pdf.see_appendix": (
        "数据出处：决策与每有效 GPU 小时成本见 A2；NPV 与盈亏平衡月份见 A3 和 A4；"
        "假设见 A1 和 A6；敏感性见 A5。"
    ),
    "report.pdf.appendix": "附录",
    "report.pdf.a1": "A1 输入与要点",
    "report.pdf.a2": "A2 各方案（每有效 GPU 小时成本 = 总成本 / 有效 GPU 小时）",
    "report.pdf.a2_categories": "{scenario}，{years} 年，按成本类别（损益；资本支出与税盾为现金）",
    "report.col.category": "类别",
    "report.pdf.a3": "A3 购买相对各云方案",
    "report.pdf.a3_formula": (
        "购买的 NPV = 各月（租用现金 - 自建现金）x (1 + r)^(-(m - 1)/12) 之和，r = 年 {rate}。"
        "盈亏平衡月份是该折现累计值首次达到零的月份。"
    ),
    "report.pdf.a4": "A4 月度现金流，{scenario}，{years} 年",
    "report.pdf.a4_saving": "购买相对 {name}：折现累计节省",
    "report.pdf.a5": "A5 敏感性：{output}",
    "report.pdf.a6": "A6 所用价格（各列一次）",
    "report.pdf.a7": "A7 需求台账：各方案如何满足需求（GPU 小时）",
    "report.pdf.a8": "A8 说明",
    "report.pdf.col.against": "对比方案",
    "report.pdf.col.irr": "内部收益率",
    "report.pdf.col.payback": "回本月份",
    "report.pdf.col.break_even_month": "盈亏平衡月份",
    "report.pdf.col.break_even_share": "盈亏平衡分配率",
    "report.pdf.col.cloud": "云",
    "report.pdf.col.unserved": "未满足",
    "report.pdf.no_rate": "本报告不含折现率，因此未列出折现后的节省。",
    "report.pdf.headline": "要点",
    "report.pdf.options": "{years} 年内各方案",
    "report.pdf.cash_chart": "累计现金支出",
    "report.pdf.break_even_chart": "相对各云方案的盈亏平衡利用率",
    "report.pdf.allocation": "当前分配率：{share}",
    "report.pdf.tornado_chart": "敏感性：{output}",
    "report.pdf.notes": "说明",
    "report.pdf.prices": "所用价格",
    "report.pdf.font_fallback": (
        "未找到 Unicode 字体，PDF 使用 Helvetica，Latin-1 以外的字符以“?”代替。"
    ),
    "report.pdf.no_cjk": (
        "本机未找到中文字体（Noto Sans CJK、思源黑体、文泉驿等），因此 PDF 以英文输出。"
    ),
}

EN |= CHARGEBACK_EN
ZH |= CHARGEBACK_ZH
EN |= WORKBOOK_EN
ZH |= WORKBOOK_ZH
EN |= VERDICT_EN
ZH |= VERDICT_ZH
EN |= SERVICE_EN
ZH |= SERVICE_ZH
CATALOGS: dict[str, dict[str, str]] = {"en": EN, "zh": ZH}


def text(key: str, lang: Language, **values: object) -> str:
    """The report text `key` in `lang` with `{name}` filled from `values`."""
    return lookup(CATALOGS, key, lang, **values)
