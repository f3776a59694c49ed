"""The report's texts in English and 简体中文 (sheet names, headers, the conclusion), and
their lookup with an explicit language.

They live here, outside `planner/ui`, because the report writers run without Streamlit (the
CLI); `planner/ui/text/report.py` registers the same dicts in the app's catalogs so
tests/pages/test_i18n.py checks both languages have every key.
"""

from planner.i18n_core import Language, lookup

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
    "report.col.scenario": "Scenario",
    "report.col.horizon": "Horizon (years)",
    "report.col.option": "Option",
    "report.col.total": "Total (P&L)",
    "report.col.per_useful": "Per useful GPU-hour",
    "report.col.per_installed": "Per installed GPU-hour",
    "report.col.per_allocated": "Per allocated GPU-hour",
    "report.col.useful_hours": "Useful GPU-hours",
    "report.col.eac": "Equivalent annual cost",
    "report.col.idle": "Idle cost",
    "report.col.wait_mean": "Mean wait (h)",
    "report.col.wait_p95": "p95 wait (h)",
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
    "report.col.item": "Item",
    "report.col.value": "Value",
    "report.col.note": "Note",
    "report.fact.scenario": "Scenario",
    "report.fact.generated": "Date generated",
    "report.fact.currency": "Currency",
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
    "report.cat.depreciation": "Depreciation",
    "report.cat.energy": "Energy",
    "report.cat.colocation": "Colocation",
    "report.cat.support": "Support",
    "report.cat.staff": "Staff",
    "report.cat.software": "Software",
    "report.cat.spares": "Spares",
    "report.cat.bridge": "Bridge (cloud while servers are on order)",
    "report.cat.cloud_burst": "Cloud burst",
    "report.cat.tax_shield": "Tax shield",
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
        "front and gets the salvage value back in the last month."
    ),
    "report.note.currencies": (
        "The scenarios report in different currencies ({currencies}); amounts are not converted."
    ),
    "report.note.horizon": (
        "{scenario} has no horizon {wanted}; its last horizon ({years} years) is shown."
    ),
    "report.note.none": "No notes.",
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
    "report.col.scenario": "场景",
    "report.col.horizon": "期限（年）",
    "report.col.option": "方案",
    "report.col.total": "总成本（损益）",
    "report.col.per_useful": "每有效 GPU 小时成本",
    "report.col.per_installed": "每已装 GPU 小时成本",
    "report.col.per_allocated": "每已分配 GPU 小时成本",
    "report.col.useful_hours": "有效 GPU 小时",
    "report.col.eac": "等额年成本",
    "report.col.idle": "闲置成本",
    "report.col.wait_mean": "平均等待（小时）",
    "report.col.wait_p95": "p95 等待（小时）",
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
    "report.col.item": "项目",
    "report.col.value": "数值",
    "report.col.note": "说明",
    "report.fact.scenario": "场景",
    "report.fact.generated": "生成日期",
    "report.fact.currency": "币种",
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
    "report.cat.depreciation": "折旧",
    "report.cat.energy": "电费",
    "report.cat.colocation": "机房托管",
    "report.cat.support": "维保",
    "report.cat.staff": "人员",
    "report.cat.software": "软件",
    "report.cat.spares": "备件",
    "report.cat.bridge": "过渡期云费用（服务器到货前）",
    "report.cat.cloud_burst": "云端突发",
    "report.cat.tax_shield": "税盾",
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
        "仅供参考。月度现金流在首期支付资本支出，并在最后一个月收回残值。"
    ),
    "report.note.currencies": "各场景的报告币种不同（{currencies}）；金额未做换算。",
    "report.note.horizon": "{scenario} 没有第 {wanted} 个期限；显示其最后一个期限（{years} 年）。",
    "report.note.none": "无说明。",
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

CATALOGS: dict[str, dict[str, str]] = {"en": EN, "zh": ZH}


def text(key: str, lang: Language, **values: object) -> str:
    """The report text `key` in `lang` with `{name}` filled from `values`."""
    return lookup(CATALOGS, key, lang, **values)
