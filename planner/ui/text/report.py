"""The TCO report's texts (xlsx, PDF, CSV and the download buttons), registered here so the
catalog checks cover them; they are defined in `planner/report/text.py` because the report
writers run without Streamlit."""

from planner.report.text import EN as REPORT_EN
from planner.report.text import ZH as REPORT_ZH

EN = REPORT_EN | {
    "report.download.xlsx": "Download Excel (xlsx)",
    "report.download.pdf": "Download PDF",
    "report.download.csv": "Download CSV",
    "report.download.help": "The comparison as Finance receives it: {what}.",
    "report.download.what_xlsx": "summary, options, monthly cash flow, sensitivity, prices",
    "report.download.what_pdf": "a short A4 report with the charts",
    "report.download.what_csv": "the options table, one row per option and horizon",
}
ZH = REPORT_ZH | {
    "report.download.xlsx": "下载 Excel（xlsx）",
    "report.download.pdf": "下载 PDF",
    "report.download.csv": "下载 CSV",
    "report.download.help": "交给财务的比较结果：{what}。",
    "report.download.what_xlsx": "摘要、方案、月度现金流、敏感性、所用价格",
    "report.download.what_pdf": "带图表的简短 A4 报告",
    "report.download.what_csv": "方案表，每个方案和期限一行",
}
