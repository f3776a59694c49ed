"""The Prices page's texts: the price book, quotes, CSV import, FX rates, bare metal."""

EN = {
    "prices.title": "Prices",
    "prices.caption": (
        "The price book the cost pages use: cloud prices in their native currency with their "
        "date, source and confidence, FX rates, and bare-metal servers. The same data as "
        "`planner prices`."
    ),
    "prices.reporting": "Reporting currency",
    "prices.reporting_help": "Money on every page is shown in this currency and its number style.",
    "prices.tab.book": "Cloud prices",
    "prices.tab.add": "Add or import",
    "prices.tab.fx": "FX",
    "prices.tab.metal": "Bare metal",
    "prices.add_heading": "**Add a quote** (same key as a stored price: it replaces that price)",
    "prices.provider": "Provider",
    "prices.region_optional": "Region (optional)",
    "prices.instance": "Instance",
    "prices.gpu": "GPU",
    "prices.gpus_per_instance": "GPUs per instance",
    "prices.price_per_instance_hour": "Price per instance-hour",
    "prices.currency": "Currency",
    "prices.pricing_model": "Pricing model",
    "prices.as_of": "As of",
    "prices.no_source_date": "no source date",
    "prices.term_months": "Term (months)",
    "prices.term_help": (
        "For reserved, savings-plan, CUD and subscription prices: the commitment in months "
        "(1-120). Leave it empty for other pricing models."
    ),
    "prices.term_needed": (
        "A {model} price needs its term: give the term in months (1-120), e.g. 12 or 36."
    ),
    "prices.term_not_taken": (
        "A {model} price has no term: leave the term empty (terms are for {models})."
    ),
    "prices.term_range": "The term must be 1 to 120 months, got {term}.",
    "prices.source": "Source",
    "prices.confidence": "Confidence",
    "prices.confidence_help": (
        "H = provider API or official list price; M = reputable secondary source or a "
        "derivation; L = blog, single source or estimate (a placeholder to override)"
    ),
    "prices.add_quote": "Add quote",
    "prices.quote_stored": "Quote {quote} {change}.",
    "prices.fx_stored": "FX rate {rate} {change}.",
    "prices.change.added": "added",
    "prices.change.updated": "updated",
    "prices.change.unchanged": "unchanged",
    "prices.import": "Import prices (CSV as `planner prices export` writes it)",
    "prices.import_summary": (
        "{rows} rows: {added} added, {updated} updated, {unchanged} unchanged, {rejected} rejected"
    ),
    "prices.too_big": (
        "{name} is {size} MB; the page imports price files up to {max} MB. Split it, or "
        "import it with `planner prices import FILE`."
    ),
    "prices.not_utf8": "{name} is not UTF-8 text; save it as UTF-8 CSV.",
    "prices.fx_base": "Base",
    "prices.fx_quote": "Quote",
    "prices.fx_rate": "Rate",
    "prices.fx_date": "Date",
    "prices.add_fx": "Add FX rate",
    "prices.book_error": "The price book cannot be read: {error}",
    "prices.shown": "{shown} of {total} prices; {stale} stale.",
    "prices.download": "Download the price book (CSV)",
    "prices.fx_note": "1 **base** = **rate** **quote** on the date. Replace placeholder rates.",
    "prices.servers_heading": (
        "**Servers**: price, and power at maximum, idle and full load (kW). Edit the price, "
        "currency or kW values and save; an edited server is yours and a price-book update "
        "keeps it."
    ),
    "prices.assumptions_heading": (
        "**Assumptions** (set `{set}`, used by `planner tco` and the cost pages). Edit a value "
        "and save; an edited value is yours and a price-book update keeps it."
    ),
    "prices.value_help": "A number in the row's unit (fractions as 0.12, not 12 %)",
    "prices.save_servers": "Save servers",
    "prices.save_assumptions": "Save assumptions",
    "prices.servers_saved": "Saved servers: {servers}.",
    "prices.assumptions_saved": "Saved assumptions: {names}.",
    "prices.nothing_changed": "Nothing changed: edit a cell first.",
    "prices.edit_refused": "Nothing was saved: {error}",
    "prices.edit_heading": (
        "**Edit a price** (of the rows shown above; an edited price is yours and a price-book "
        "update keeps it)"
    ),
    "prices.edit_pick": "Price to edit",
    "prices.nothing_to_edit": "No price matches the filters: nothing to edit.",
    "prices.notes": "Notes",
    "prices.save_price": "Save price",
    "prices.edit_saved": "Price {quote} saved: {price} {currency} per instance-hour.",
    "prices.col.stale": "Stale",
    "prices.col.stale_help": (
        "as of more than the staleness limit ago ({days} days unless `price_stale_days` or "
        "$PLANNER_PRICE_STALE_DAYS says otherwise)"
    ),
    "prices.col.provider": "Provider",
    "prices.col.region": "Region",
    "prices.col.instance_type": "Instance",
    "prices.col.gpu_model": "GPU",
    "prices.col.gpus_per_instance": "GPUs per instance",
    "prices.col.price_per_instance_hour": "Per instance-hour",
    "prices.col.price_per_gpu_hour": "Per GPU-hour",
    "prices.col.currency": "Currency",
    "prices.col.reporting_per_gpu_hour": "Per GPU-hour in {currency}",
    "prices.col.reporting_help": (
        "converted at the latest FX rate on or before today; empty without a rate"
    ),
    "prices.col.pricing_model": "Pricing model",
    "prices.col.term_months": "Term (months)",
    "prices.col.as_of": "As of",
    "prices.col.age_days": "Age (days)",
    "prices.col.confidence": "Confidence",
    "prices.col.source_url": "Source",
    "prices.col.notes": "Notes",
    "prices.col.origin": "Origin",
    "prices.col.key": "Key",
    "prices.col.placeholder": "Placeholder",
    "prices.col.placeholder_help": "low confidence or a labelled placeholder: replace it",
    "prices.col.base": "Base",
    "prices.col.quote": "Quote",
    "prices.col.rate": "Rate",
    "prices.col.rate_date": "Date",
    "prices.col.source": "Source",
    "prices.col.server": "Server",
    "prices.col.gpus_per_server": "GPUs per server",
    "prices.col.price": "Price",
    "prices.col.max_kw": "Max (kW)",
    "prices.col.idle_kw": "Idle (kW)",
    "prices.col.load_kw": "Full load (kW)",
    "prices.col.power_confidence": "Power confidence",
    "prices.col.name": "Name",
    "prices.col.value": "Value",
    "prices.col.unit": "Unit",
    "prices.col.row": "Row",
    "prices.col.column": "Column",
    "prices.col.reason": "Reason",
}

ZH = {
    "prices.title": "价格",
    "prices.caption": (
        "成本页面使用的价格簿：以原始币种计价的云价格（附日期、来源和可信度）、汇率以及裸金属"
        "服务器。与 `planner prices` 的数据相同。"
    ),
    "prices.reporting": "报告币种",
    "prices.reporting_help": "所有页面上的金额都以此币种及其数字格式显示。",
    "prices.tab.book": "云价格",
    "prices.tab.add": "添加或导入",
    "prices.tab.fx": "汇率",
    "prices.tab.metal": "裸金属",
    "prices.add_heading": "**添加报价**（与已存储价格键相同时将替换该价格）",
    "prices.provider": "供应商",
    "prices.region_optional": "区域（可选）",
    "prices.instance": "实例",
    "prices.gpu": "GPU 型号",
    "prices.gpus_per_instance": "每实例 GPU 数",
    "prices.price_per_instance_hour": "每实例小时价格",
    "prices.currency": "币种",
    "prices.pricing_model": "计价模式",
    "prices.as_of": "日期",
    "prices.no_source_date": "无来源日期",
    "prices.term_months": "期限（月）",
    "prices.term_help": (
        "预留实例、节省计划、CUD 和包年包月价格需填写承诺期限（1-120 个月）；其他计费模式请留空。"
    ),
    "prices.term_needed": "{model} 价格需要期限：请填写月数（1-120），例如 12 或 36。",
    "prices.term_not_taken": "{model} 价格没有期限：请留空期限（期限仅适用于 {models}）。",
    "prices.term_range": "期限必须为 1 到 120 个月，当前为 {term}。",
    "prices.source": "来源",
    "prices.confidence": "可信度",
    "prices.confidence_help": (
        "H = 供应商 API 或官方价目表；M = 可靠的二手来源或推算；L = 博客、单一来源或估算"
        "（需替换的占位值）"
    ),
    "prices.add_quote": "添加报价",
    "prices.quote_stored": "报价 {quote} {change}。",
    "prices.fx_stored": "汇率 {rate} {change}。",
    "prices.change.added": "已添加",
    "prices.change.updated": "已更新",
    "prices.change.unchanged": "未变化",
    "prices.import": "导入价格（`planner prices export` 格式的 CSV）",
    "prices.import_summary": (
        "共 {rows} 行：{added} 行已添加，{updated} 行已更新，{unchanged} 行未变化，"
        "{rejected} 行被拒绝"
    ),
    "prices.too_big": (
        "{name} 大小为 {size} MB；本页面最多导入 {max} MB 的价格文件。请拆分文件，或使用 "
        "`planner prices import FILE` 导入。"
    ),
    "prices.not_utf8": "{name} 不是 UTF-8 文本；请另存为 UTF-8 CSV。",
    "prices.fx_base": "基准币种",
    "prices.fx_quote": "报价币种",
    "prices.fx_rate": "汇率",
    "prices.fx_date": "日期",
    "prices.add_fx": "添加汇率",
    "prices.book_error": "无法读取价格簿：{error}",
    "prices.shown": "显示 {shown} / {total} 条价格；{stale} 条已过期。",
    "prices.download": "下载价格簿（CSV）",
    "prices.fx_note": "在该日期，1 **基准币种** = **汇率** **报价币种**。请替换占位汇率。",
    "prices.servers_heading": (
        "**服务器**：价格，以及最大、空闲和满载功率（kW）。可修改价格、币种或功率后保存；"
        "修改过的服务器归您所有，价格簿更新时会保留。"
    ),
    "prices.assumptions_heading": (
        "**假设**（参数集 `{set}`，供 `planner tco` 和成本页面使用）。修改数值后保存；"
        "修改过的数值归您所有，价格簿更新时会保留。"
    ),
    "prices.value_help": "以该行单位表示的数字（比例写作 0.12，而不是 12 %）",
    "prices.save_servers": "保存服务器",
    "prices.save_assumptions": "保存假设",
    "prices.servers_saved": "已保存服务器：{servers}。",
    "prices.assumptions_saved": "已保存假设：{names}。",
    "prices.nothing_changed": "没有任何更改：请先编辑单元格。",
    "prices.edit_refused": "未保存任何更改：{error}",
    "prices.edit_heading": "**编辑价格**（上表所示的行；修改过的价格归您所有，价格簿更新时会保留）",
    "prices.edit_pick": "要编辑的价格",
    "prices.nothing_to_edit": "没有符合筛选条件的价格，无可编辑。",
    "prices.notes": "备注",
    "prices.save_price": "保存价格",
    "prices.edit_saved": "价格 {quote} 已保存：每实例小时 {price} {currency}。",
    "prices.col.stale": "已过期",
    "prices.col.stale_help": (
        "日期早于过期期限（默认 {days} 天，可通过 `price_stale_days` 或 "
        "$PLANNER_PRICE_STALE_DAYS 修改）"
    ),
    "prices.col.provider": "供应商",
    "prices.col.region": "区域",
    "prices.col.instance_type": "实例",
    "prices.col.gpu_model": "GPU 型号",
    "prices.col.gpus_per_instance": "每实例 GPU 数",
    "prices.col.price_per_instance_hour": "每实例小时",
    "prices.col.price_per_gpu_hour": "每 GPU 小时",
    "prices.col.currency": "币种",
    "prices.col.reporting_per_gpu_hour": "每 GPU 小时（{currency}）",
    "prices.col.reporting_help": "按今天或之前最新的汇率换算；没有汇率时为空",
    "prices.col.pricing_model": "计价模式",
    "prices.col.term_months": "期限（月）",
    "prices.col.as_of": "日期",
    "prices.col.age_days": "已过天数",
    "prices.col.confidence": "可信度",
    "prices.col.source_url": "来源",
    "prices.col.notes": "备注",
    "prices.col.origin": "出处",
    "prices.col.key": "键",
    "prices.col.placeholder": "占位值",
    "prices.col.placeholder_help": "可信度低或标记为占位值：请替换",
    "prices.col.base": "基准币种",
    "prices.col.quote": "报价币种",
    "prices.col.rate": "汇率",
    "prices.col.rate_date": "日期",
    "prices.col.source": "来源",
    "prices.col.server": "服务器",
    "prices.col.gpus_per_server": "每服务器 GPU 数",
    "prices.col.price": "价格",
    "prices.col.max_kw": "最大功率（kW）",
    "prices.col.idle_kw": "空闲功率（kW）",
    "prices.col.load_kw": "满载功率（kW）",
    "prices.col.power_confidence": "功率可信度",
    "prices.col.name": "名称",
    "prices.col.value": "数值",
    "prices.col.unit": "单位",
    "prices.col.row": "行",
    "prices.col.column": "列",
    "prices.col.reason": "原因",
}
