"""Texts of the option forms on the Compare page: own servers, a cloud option, a hybrid."""

EN = {
    "options.title": "Build an option with a form (own, cloud or hybrid)",
    "options.caption": (
        "Build an option without writing YAML: it is saved as a cost scenario, joins the "
        "comparison below and exports as the YAML `planner tco --scenario` runs to the same "
        "numbers. Choices come from the price book (Prices page)."
    ),
    "options.trace": "Priced on the trace {trace} (the one chosen on Job history and Replay).",
    "options.no_trace": "No trace is chosen yet: the option is saved without one.",
    "options.kind": "Kind of option",
    "options.kind.own": "Own servers",
    "options.kind.cloud": "Rent in the cloud",
    "options.kind.hybrid": "Hybrid: keep servers, burst to the cloud",
    "options.name": "Option name",
    "options.name_help": "The name the comparison, the reports and the exported file use.",
    "options.default_name.own": "own {servers} servers",
    "options.default_name.cloud": "{label}",
    "options.default_name.hybrid": "hybrid: keep {servers} servers + {label}",
    # own servers
    "options.own_header": "Servers to own",
    "options.own_caption": (
        "One row per GPU type of the working cluster ({cluster}); 0 servers leaves a type "
        "out. Price and power come from the price book's server unless you give a price."
    ),
    "options.own_cluster_none": "none readable",
    "options.pool": "{gpus} × {gpu} servers",
    "options.servers": "Servers",
    "options.servers_help": "How many servers of this type to buy (0: none).",
    "options.price": "Price per server ({currency}, 0 = price book)",
    "options.price_help": "A quote of your own; 0 takes the price book's server price.",
    "options.book_server": "Price book: {price} per server (as of {as_of}, {kw} kW max).",
    "options.book_unsourced": "no source date",
    "options.like": "Price and power like",
    "options.like_help": (
        "The price book has no {gpus} × {gpu} server: copy the price and power of one it has."
    ),
    "options.like_none": "(choose a server)",
    "options.no_server": (
        "{gpu}: the price book has no {gpus}-GPU server for it. Choose a server to take its "
        "price and power from (a price you give replaces its price), add one on the Prices "
        "page, or set 0 servers."
    ),
    "options.extra_gpu": "Another GPU type",
    "options.extra_none": "(none)",
    "options.extra_gpus": "GPUs per server",
    "options.no_servers": "Give at least one server to own.",
    "options.lead": "Lead time (months)",
    "options.lead_help": (
        "From order to production; meanwhile the demand runs on the cloud option, if there "
        "is one (price book default: {default})."
    ),
    "options.life": "Life (years)",
    "options.life_help": "Depreciation life of the servers (price book default: {default}).",
    # cloud
    "options.cloud_header": "Cloud option",
    "options.provider": "Provider",
    "options.gpu": "GPU",
    "options.gpu_help": "Jobs measured on other GPUs are priced on it at speed 1.0.",
    "options.instance": "Instance type (SKU)",
    "options.instance_any": "(the cheapest that fits each job)",
    "options.payment": "How it is paid",
    "options.payment.on_demand": "on demand",
    "options.payment.reserved": "reserved",
    "options.payment.savings_plan": "savings plan",
    "options.payment.cud": "committed-use discount (CUD)",
    "options.payment.subscription": "subscription (monthly/yearly)",
    "options.payment.spot": "spot (interruptible)",
    "options.payment.capacity_block": "capacity block",
    "options.term": "Term (months)",
    "options.term_help": "Terms the price book has for {payment}: {terms}.",
    "options.terms_none": "none",
    "options.commit": "Committed GPUs",
    "options.commit_help": (
        "GPUs paid every hour of the term whether used or not; demand above them is paid "
        "on demand. 0: every GPU-hour at the committed price, nothing committed."
    ),
    "options.offer": "Priced at {price} per GPU-hour ({name}).",
    "options.derived": (
        "Derived from on-demand with the price book's rule {rule} = {value} off "
        "(confidence {confidence}): a rule of thumb, not a quote."
    ),
    "options.no_term": (
        "{provider} {sku}: no {payment} price for a {term}-month term in the price book, "
        "stored or derived. Terms it can price: {terms} months."
    ),
    "options.no_price": (
        "{provider} {sku}: the price book cannot price {payment} (no stored price and no "
        "discount rule to derive one from on-demand). Choose another way to pay, or add a "
        "price on the Prices page."
    ),
    "options.no_prices": "The price book has no cloud prices: add some on the Prices page.",
    # hybrid
    "options.hybrid_header": "Hybrid",
    "options.keep": "{gpu} servers kept",
    "options.keep_help": "Of the {servers} above; the rest of the demand bursts to the cloud.",
    "options.burst": "Burst a job after it has waited (hours)",
    "options.burst_help": "A job waiting this long on the owned servers runs in the cloud.",
    # saving
    "options.replace": "Replace a saved scenario of that name",
    "options.save": "Save and compare",
    "options.fix_first": "Fix the problems above to save.",
    "options.saved": "Saved '{name}': it joins the comparison below.",
    "options.yaml": "As YAML (for `planner tco --scenario`)",
    "options.download": "Download the YAML",
    # the working scenario's name once its trace or cluster is the user's own
    "options.working_name": "{trace} on {cluster}",
}

ZH = {
    "options.title": "用表单构建方案（自建、云或混合）",
    "options.caption": (
        "无需编写 YAML 即可构建方案：它保存为成本场景，加入下方的比较，并可导出为 YAML，"
        "`planner tco --scenario` 运行它得到相同的数字。选项来自价格库（价格页）。"
    ),
    "options.trace": "按作业轨迹 {trace} 计价（作业历史和回放页所选的那条）。",
    "options.no_trace": "尚未选择作业轨迹：方案将不带轨迹保存。",
    "options.kind": "方案类型",
    "options.kind.own": "自建服务器",
    "options.kind.cloud": "租用云",
    "options.kind.hybrid": "混合：保留服务器，溢出到云",
    "options.name": "方案名称",
    "options.name_help": "比较、报告和导出文件中使用的名称。",
    "options.default_name.own": "自建 {servers} 台服务器",
    "options.default_name.cloud": "云方案 {label}",
    "options.default_name.hybrid": "混合：保留 {servers} 台服务器 + {label}",
    "options.own_header": "自建服务器",
    "options.own_caption": (
        "工作集群（{cluster}）的每种 GPU 一行；填 0 台表示不采购该类型。"
        "未填价格时，价格和功耗取自价格库中的服务器。"
    ),
    "options.own_cluster_none": "无法读取",
    "options.pool": "{gpus} × {gpu} 服务器",
    "options.servers": "服务器数量",
    "options.servers_help": "要购买的该类型服务器台数（0：不购买）。",
    "options.price": "每台价格（{currency}，0 = 价格库）",
    "options.price_help": "您自己的报价；0 表示采用价格库中的服务器价格。",
    "options.book_server": "价格库：每台 {price}（日期 {as_of}，最大 {kw} kW）。",
    "options.book_unsourced": "无来源日期",
    "options.like": "价格和功耗参照",
    "options.like_help": "价格库中没有 {gpus} × {gpu} 服务器：参照库中已有服务器的价格和功耗。",
    "options.like_none": "（选择服务器）",
    "options.no_server": (
        "{gpu}：价格库中没有它的 {gpus} 卡服务器。请选择一台服务器参照其价格和功耗"
        "（您填写的价格会替代其价格）、在价格页添加，或填 0 台。"
    ),
    "options.extra_gpu": "其他 GPU 类型",
    "options.extra_none": "（无）",
    "options.extra_gpus": "每台 GPU 数",
    "options.no_servers": "请至少填写一台自建服务器。",
    "options.lead": "交付周期（月）",
    "options.lead_help": "从下单到投产；期间需求在云方案上运行（如有）（价格库默认：{default}）。",
    "options.life": "使用寿命（年）",
    "options.life_help": "服务器的折旧年限（价格库默认：{default}）。",
    "options.cloud_header": "云方案",
    "options.provider": "云厂商",
    "options.gpu": "GPU",
    "options.gpu_help": "在其他 GPU 上测得的作业按 1.0 倍速度在它上面计价。",
    "options.instance": "实例类型（SKU）",
    "options.instance_any": "（每个作业取能运行的最便宜实例）",
    "options.payment": "付费方式",
    "options.payment.on_demand": "按需",
    "options.payment.reserved": "预留实例",
    "options.payment.savings_plan": "节省计划",
    "options.payment.cud": "承诺使用折扣（CUD）",
    "options.payment.subscription": "包年包月",
    "options.payment.spot": "竞价（可中断）",
    "options.payment.capacity_block": "容量块",
    "options.term": "期限（月）",
    "options.term_help": "价格库中{payment}的期限：{terms}。",
    "options.terms_none": "无",
    "options.commit": "承诺 GPU 数",
    "options.commit_help": (
        "期限内每小时都付费的 GPU（无论是否使用）；超出部分按需付费。"
        "0：所有 GPU 小时按承诺价格计，不承诺固定数量。"
    ),
    "options.offer": "每 GPU 小时 {price}（{name}）。",
    "options.derived": (
        "由按需价格按价格库规则 {rule} = {value} 折扣推算（可信度 {confidence}）："
        "经验值，并非报价。"
    ),
    "options.no_term": (
        "{provider} {sku}：价格库中没有 {term} 个月期限的{payment}价格（既无存储价格也无法推算）。"
        "可计价的期限：{terms} 个月。"
    ),
    "options.no_price": (
        "{provider} {sku}：价格库无法为{payment}计价（没有存储价格，也没有从按需价格推算的"
        "折扣规则）。请换一种付费方式，或在价格页添加价格。"
    ),
    "options.no_prices": "价格库中没有云价格：请在价格页添加。",
    "options.hybrid_header": "混合",
    "options.keep": "保留的 {gpu} 服务器",
    "options.keep_help": "上面 {servers} 台中保留的台数；其余需求溢出到云。",
    "options.burst": "作业等待多久后溢出到云（小时）",
    "options.burst_help": "在自建服务器上等待这么久的作业改在云上运行。",
    "options.replace": "替换同名的已保存场景",
    "options.save": "保存并比较",
    "options.fix_first": "请先修正上面的问题再保存。",
    "options.saved": "已保存「{name}」：它已加入下方的比较。",
    "options.yaml": "YAML 形式（供 `planner tco --scenario` 使用）",
    "options.download": "下载 YAML",
    "options.working_name": "{trace}，集群 {cluster}",
}
