"""The TCO report's texts (xlsx, PDF, CSV and the download buttons), registered here so the
catalog checks cover them; they are defined in `planner/report/text.py` because the report
writers run without Streamlit."""

from planner.report.text import EN as REPORT_EN
from planner.report.text import ZH as REPORT_ZH

EN = REPORT_EN | {
    "report.download.xlsx": "Download Excel (xlsx)",
    "report.download.pdf": "Download PDF",
    "report.download.csv": "Download CSV",
    "report.download.focus": "Download FOCUS (CSV)",
    "report.download.help": "The comparison as Finance receives it: {what}.",
    "report.download.what_xlsx": (
        "live formulas over named assumptions: each option's monthly cash flow, NPV and "
        "break-even, depreciation, sensitivity, ledger, replay, chargeback"
    ),
    "report.download.what_pdf": "a short A4 report with the charts",
    "report.download.what_csv": (
        "tidy cost rows for BI tools (month x category x option, to the cent); the chargeback "
        "and per-job tables are offered under the chargeback"
    ),
    "report.download.what_focus": (
        "the plan as FinOps FOCUS 1.0 cost-and-usage rows, month 1 being next month "
        "(`BilledCost` is the cash, `EffectiveCost` the P&L with the CapEx amortized); "
        "`planner report --out FILE.focus.csv --start-month YYYY-MM` picks another month"
    ),
}
ZH = REPORT_ZH | {
    "report.download.xlsx": "下载 Excel（xlsx）",
    "report.download.pdf": "下载 PDF",
    "report.download.csv": "下载 CSV",
    "report.download.focus": "下载 FOCUS（CSV）",
    "report.download.help": "交给财务的比较结果：{what}。",
    "report.download.what_xlsx": (
        "基于命名假设的实时公式：各方案月度现金流、NPV 与盈亏平衡、"
        "折旧、敏感性、需求台账、回放、分摊"
    ),
    "report.download.what_pdf": "带图表的简短 A4 报告",
    "report.download.what_csv": (
        "供 BI 工具使用的整洁成本行（月 x 类别 x 方案，精确到分）；"
        "成本分摊表和逐作业表在成本分摊下方提供"
    ),
    "report.download.what_focus": (
        "以 FinOps FOCUS 1.0 成本与用量行表示的计划，第 1 个月为下个月"
        "（`BilledCost` 为现金，`EffectiveCost` 为资本支出摊销后的损益）；"
        "`planner report --out FILE.focus.csv --start-month YYYY-MM` 可选其他月份"
    ),
}
