"""The texts of equal service (issue 30) in English and 简体中文, merged into
`planner.report.text`'s catalogs: the served-elsewhere and waiting rates, the PDF's
equal-service table and packing lines, and the workbook's rows, columns and figures for them."""

SERVICE = {
    "report.pdf.assume.elsewhere": (
        "Unserved demand: served elsewhere at",
        "未满足的需求：在别处满足，按",
    ),
    "report.pdf.assume.elsewhere_value": (
        "{source}, {rate} per GPU-hour",
        "{source}，每 GPU 小时 {rate}",
    ),
    "report.pdf.assume.elsewhere_scenario": (
        "the scenario's rate",
        "场景给定的费率",
    ),
    "report.pdf.assume.elsewhere_off": (
        "off: the options serve different demand",
        "关闭：各方案满足的需求不同",
    ),
    "report.pdf.assume.waiting": (
        "Cost of waiting",
        "等待成本",
    ),
    "report.pdf.assume.waiting_value": (
        "{rate} per GPU-hour waited",
        "每等待一个 GPU 小时 {rate}",
    ),
    "report.pdf.service.title": (
        "Equal service: what each option serves, and what packing costs",
        "同等服务：各方案满足多少需求，装箱成本多少",
    ),
    "report.pdf.service.per_useful": (
        "Per useful GPU-hour",
        "每有效 GPU 小时",
    ),
    "report.pdf.service.elsewhere": (
        "Served elsewhere",
        "在别处满足",
    ),
    "report.pdf.service.overhead": (
        "Packing overhead",
        "装箱开销",
    ),
    "report.pdf.service.floor": (
        "Price floor / month",
        "每月价格下限",
    ),
    "report.pdf.service.cloud_line": (
        "{name} ({packing}): bills {billed} GPU-hours a month for {held} its pods held "
        "(overhead {overhead}); per-GPU price floor {floor} a month against a bill of "
        "{bill}; waits p95: provisioning {provisioning} h, instance cap {cap} h.",
        "{name}（{packing}）：每月计费 {billed} GPU 小时，其"
        " Pod 占用 {held} GPU 小时（开销 {overhead}）；按每 "
        "GPU 价格的下限每月 {floor}，账单每月 {bill}；p95 等待：实"
        "例就绪 {provisioning} 小时，实例上限 {cap} 小时。",
    ),
    "report.pdf.service.packing.per-job": (
        "each job on instances of its own",
        "每个作业独占实例",
    ),
    "report.pdf.service.packing.pool": (
        "node pool",
        "节点池",
    ),
    "report.pdf.service.off": (
        "The served-elsewhere line is off: the options serve different demand, so their "
        "costs are not for the same work (compare their served shares).",
        "“在别处满足”成本行已关闭：各方案满足的需求不同，其成本并非针对同样的工作（请比较满足率）。",
    ),
    "report.wb.in.unserved": (
        "{name}: GPU-hours a month in service left unserved (bought elsewhere)",
        "{name}：在用期间每月未满足的 GPU 小时（在别处购买）",
    ),
    "report.wb.in.waited": (
        "{name}: GPU-hours waited a month",
        "{name}：每月等待的 GPU 小时",
    ),
    "report.wb.in.elsewhere_rate": (
        "Unserved demand: served elsewhere at, per GPU-hour",
        "未满足的需求：在别处满足的每 GPU 小时费率",
    ),
    "report.wb.in.wait_rate": (
        "Cost of waiting, per GPU-hour waited",
        "等待成本（每等待 GPU 小时）",
    ),
    "report.wb.in.unserved_lead": (
        "GPU-hours a month left unserved while the servers are on order (no bridge: all)",
        "服务器订购期间每月未满足的 GPU 小时（无过渡：全部）",
    ),
    "report.wb.source.elsewhere_off": (
        "off (served_elsewhere.enabled: false or no on-demand cloud option): the options "
        "serve different demand",
        "已关闭（served_elsewhere.enabled: false 或没有按需云方案）：各方案满足的需求不同",
    ),
    "report.wb.source.elsewhere_scenario": (
        "scenario (served_elsewhere)",
        "场景（served_elsewhere）",
    ),
    "report.wb.source.elsewhere_cheapest": (
        "cheapest on-demand cloud list price: {sku}",
        "最便宜的按需云标价：{sku}",
    ),
    "report.wb.section.equal_service": (
        "Equal service: unserved demand bought elsewhere, and waiting",
        "同等服务：在别处购买未满足的需求，以及等待",
    ),
    "report.wb.service.title": (
        "Equal service: each option's cost beside the demand it served (served share and p95 "
        "wait from the replay and the ledger, as the planner computed them)",
        "同等服务：各方案的成本与其满足的需求"
        "（满足率和 p95 等待取自回放和需求台账，为规划器计算值）",
    ),
    "report.wb.service.option": (
        "Option",
        "方案",
    ),
    "report.wb.service.total": (
        "Total (P&L)",
        "合计（损益）",
    ),
    "report.wb.service.per_useful": (
        "Per useful GPU-hour",
        "每有效 GPU 小时成本",
    ),
    "report.wb.service.served_share": (
        "Served share",
        "满足率",
    ),
    "report.wb.service.p95_wait": (
        "p95 wait (h)",
        "p95 等待（小时）",
    ),
    "report.wb.service.elsewhere": (
        "Served elsewhere",
        "在别处满足",
    ),
    "report.wb.packing.title": (
        "Packing, a month",
        "装箱（每月）",
    ),
    "report.wb.packing.packing": (
        "Packing rule",
        "装箱规则",
    ),
    "report.wb.packing.billed": (
        "GPU-hours billed",
        "计费 GPU 小时",
    ),
    "report.wb.packing.held": (
        "GPU-hours its pods held",
        "Pod 占用的 GPU 小时",
    ),
    "report.wb.packing.overhead": (
        "Packing overhead (billed / held)",
        "装箱开销（计费 / 占用）",
    ),
    "report.wb.packing.floor": (
        "Per-GPU price floor (held x cheapest price per GPU-hour)",
        "按每 GPU 价格的下限（占用 x 最低每 GPU 小时价格）",
    ),
    "report.wb.packing.provisioning_p95": (
        "p95 wait for an instance to be ready (h)",
        "p95 实例就绪等待（小时）",
    ),
    "report.wb.packing.cap_p95": (
        "p95 wait under the instance cap (h)",
        "p95 实例上限等待（小时）",
    ),
    "report.wb.own.served_elsewhere": (
        "Served elsewhere (unserved demand bought)",
        "在别处满足（购买未满足的需求）",
    ),
    "report.wb.own.waiting": (
        "Cost of waiting",
        "等待成本",
    ),
    "report.wb.fig.elsewhere": (
        "Served elsewhere per month in service (unserved GPU-hours x rate)",
        "在用期间每月在别处满足（未满足 GPU 小时 x 费率）",
    ),
    "report.wb.fig.elsewhere_lead": (
        "Served elsewhere per month before delivery",
        "到货前每月在别处满足",
    ),
    "report.wb.fig.waiting": (
        "Cost of waiting per month in service (GPU-hours waited x rate)",
        "在用期间每月等待成本（等待 GPU 小时 x 费率）",
    ),
    "report.wb.fig.elsewhere_hours": (
        "GPU-hours bought elsewhere over the horizon (counted as served)",
        "期限内在别处购买的 GPU 小时（计为已满足）",
    ),
}

SERVICE_EN = {key: pair[0] for key, pair in SERVICE.items()}
SERVICE_ZH = {key: pair[1] for key, pair in SERVICE.items()}
