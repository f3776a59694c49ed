"""Why a row of a price CSV was rejected (pricing/problems.py, pricing/csv_rows.py), in
简体中文.

Like `errors.py`, there is no English half: the English is the importer's own text (what
`planner prices import` prints). `MESSAGES` pairs each English shape (a regular expression
whose groups are the values) with its Chinese; `EXPECTED` says what each column expects, for
"expected ..., got ..." where the English is `pricing.problems.EXPECTED`'s.
"""

_FORMS = "SXM、PCIe 或 NVL"
_LEVELS = "H、M 或 L"
_DATE = "日期（YYYY-MM-DD）"
_PRICE = "大于或等于 0 且低于价格簿上限的价格"
_CURRENCY = "ISO 4217 货币代码之一"

EXPECTED: dict[str, str] = {
    "key": "文本键",
    "provider": "云厂商名称",
    "region": "区域名称",
    "instance_type": "实例类型",
    "gpu_model": "GPU 型号，例如 A100 或 H100",
    "gpu_mem_gb": "以 GB 计的整数显存",
    "gpu_form": _FORMS,
    "gpus_per_instance": "大于 0 的 GPU 数",
    "price_per_instance_hour": _PRICE,
    "price_per_gpu_hour": _PRICE,
    "currency": _CURRENCY,
    "pricing_model": "已知的计价方式之一",
    "term_months": "以月计的整数期限",
    "upfront_fraction": "0 到 1 之间的比例",
    "billing_granularity_s": "整数秒（1 秒到一年）",
    "min_billing_s": "整数秒（0 秒到一年）",
    "as_of": _DATE,
    "source_kind": "已知的来源类型之一",
    "confidence": _LEVELS,
    "power_confidence": _LEVELS,
    "gpus_per_server": "整数 GPU 数",
    "price": _PRICE,
    "max_kw": "大于 0 的 kW",
    "idle_kw": "大于或等于 0 的 kW",
    "load_kw": "大于 0 的 kW",
    "rate_date": _DATE,
    "base": _CURRENCY,
    "quote": _CURRENCY,
    "rate": "大于 0 的汇率（1 基准货币 = 汇率 × 报价货币）",
    "set_name": "由字母、数字、'.'、'_' 或 '-' 组成的名称",
    "name": "由字母、数字、'.'、'_'、'@'、'/' 或 '-' 组成的名称",
    "value": "数字",
    "unit": "单位，例如 USD/kWh",
}

# (English shape, Chinese); {expected} is worded from EXPECTED when the English is its own.
MESSAGES: tuple[tuple[str, str], ...] = (
    (r"missing; expected (?P<expected>.+)", "缺少此项；应为{expected}"),
    (r"unknown field; expected one of (?P<fields>.+)", "未知的列；应为以下之一：{fields}"),
    (r"duplicate of row (?P<row>\d+)", "与第 {row} 行重复"),
    (r"more cells than columns in the header", "单元格比表头的列多"),
    (
        r"(?P<as_of>\S+) is in the future \(today is (?P<today>\S+)\); give the date it was seen",
        "{as_of} 晚于今天（{today}）；请填写看到该价格的日期",
    ),
    (r"(?P<given>.+) contradicts gpu_model (?P<model>.+)", "{given} 与 gpu_model {model} 矛盾"),
    (
        r"(?P<given>\S+) is not price_per_instance_hour / gpus_per_instance = (?P<computed>\S+); "
        r"leave it empty to compute it",
        "{given} 不等于 price_per_instance_hour / gpus_per_instance = {computed}；留空即可自动计算",
    ),
    (
        r"price_per_instance_hour / gpus_per_instance = (?P<computed>\S+) is not below the "
        r"price book's limit of (?P<limit>\S+)",
        "price_per_instance_hour / gpus_per_instance = {computed}，未低于价格簿的上限 {limit}",
    ),
    (
        r"expected a currency other than the base (?P<base>\S+)",
        "应为与基准货币 {base} 不同的货币",
    ),
    (r"expected (?P<expected>.+), got (?P<got>.*)", "应为{expected}，实际为 {got}"),
)
