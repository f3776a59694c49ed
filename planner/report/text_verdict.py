"""The report texts of the verdict in English and 简体中文 (merged into `planner.report.text`'s
catalogs): the headline pair, what would flip its verdict, and the workbook's Verdict flips
sheet (`docs/verdict.md`)."""

VERDICT_EN = {
    "report.fact.pair": "Headline pair (owned as built vs cheapest cloud)",
    "report.fact.pair_value": "{owned} vs {rented}",
    "report.fact.pair_npv": "NPV of buying, headline pair",
    "report.fact.flip": "Verdict flips at: {driver}",
    "report.flip.title": "What would flip the verdict ({owned} vs {rented}, {years} years)",
    "report.flip.driver": "Driver",
    "report.flip.today": "Today",
    "report.flip.at": "Verdict flips at",
    "report.flip.never": "never within {low} to {high}",
    "report.flip.years": "{value} years",
    "report.flip.allocation": "{value} (allocation {share})",
    "report.flip.how": (
        "Each driver moved alone until the NPV of buying is 0 (the pair re-priced, not "
        "re-replayed); a multiplier of today's value unless a share, a rate or years."
    ),
    "report.sentence.hybrid": (
        "The hybrid (its own servers, bursting to the cloud) costs {cost} per useful GPU-hour "
        "over {years} years."
    ),
    "report.sentence.hybrid_gain": (
        "Over {years} years the hybrid gains {amount} in NPV against {name}."
    ),
    "report.sentence.hybrid_loss": (
        "Over {years} years the hybrid loses {amount} in NPV against {name}."
    ),
    "report.sentence.flip": "The verdict flips at {driver} {value} (today {base}).",
    "report.wb.sheet.flips": "Verdict flips",
    "report.wb.sheet.comparison_hybrid": "Comparison (hybrid)",
    "report.wb.cover.part_of": "the hybrid's owned part (not ranked; see its sheet)",
    "report.wb.compare_hybrid_title": (
        "Buying the hybrid (its servers, bursting to the cloud) against the headline pair's "
        "cloud option: live formulas"
    ),
    "report.wb.flip.scenario": "Scenario",
    "report.wb.flip.pair": "Headline pair",
    "report.wb.flip.driver": "Driver",
    "report.wb.flip.today": "Today (x base, share, rate or years)",
    "report.wb.flip.at": "Verdict flips at (NPV of buying = 0)",
    "report.wb.flip.low": "Searched from",
    "report.wb.flip.high": "Searched to",
    "report.wb.flip.how": "How computed",
    "report.wb.flip.live": (
        "live: the line through the Sensitivity sheet's low and high case (the NPV is linear "
        "in this driver)"
    ),
    "report.wb.flip.model": (
        "computed by the model (the pair re-priced with this driver alone moved), not live"
    ),
}

VERDICT_ZH = {
    "report.fact.pair": "主比较对（建成的自有方案对最便宜的云方案）",
    "report.fact.pair_value": "{owned} 对 {rented}",
    "report.fact.pair_npv": "主比较对的购买 NPV",
    "report.fact.flip": "结论翻转点：{driver}",
    "report.flip.title": "什么会改变结论（{owned} 对 {rented}，{years} 年）",
    "report.flip.driver": "因素",
    "report.flip.today": "当前",
    "report.flip.at": "结论翻转于",
    "report.flip.never": "在 {low} 至 {high} 之间不会翻转",
    "report.flip.years": "{value} 年",
    "report.flip.allocation": "{value}（分配率 {share}）",
    "report.flip.how": (
        "每个因素单独变动，直到购买的 NPV 为 0（对该比较对重新计价，不重新回放）；"
        "除份额、利率或年数外，均为当前值的倍数。"
    ),
    "report.sentence.hybrid": (
        "混合方案（自有服务器，溢出到云）{years} 年内每有效 GPU 小时成本为 {cost}。"
    ),
    "report.sentence.hybrid_gain": "{years} 年内，混合方案相对 {name} 的 NPV 收益为 {amount}。",
    "report.sentence.hybrid_loss": "{years} 年内，混合方案相对 {name} 的 NPV 损失为 {amount}。",
    "report.sentence.flip": "当{driver}变为 {value}（当前 {base}）时，结论翻转。",
    "report.wb.sheet.flips": "结论翻转点",
    "report.wb.sheet.comparison_hybrid": "比较（混合）",
    "report.wb.cover.part_of": "混合方案的自有部分（不参与排名；见其工作表）",
    "report.wb.compare_hybrid_title": (
        "购买混合方案（其服务器，溢出到云）相对主比较对的云方案：实时公式"
    ),
    "report.wb.flip.scenario": "场景",
    "report.wb.flip.pair": "主比较对",
    "report.wb.flip.driver": "驱动因素",
    "report.wb.flip.today": "当前（基准倍数、份额、利率或年数）",
    "report.wb.flip.at": "结论翻转于（购买的 NPV = 0）",
    "report.wb.flip.low": "搜索下限",
    "report.wb.flip.high": "搜索上限",
    "report.wb.flip.how": "计算方式",
    "report.wb.flip.live": "实时：穿过敏感性表低值与高值情景的直线（NPV 对该因素为线性）",
    "report.wb.flip.model": "由模型计算（仅移动该因素重新计价该比较对），非实时",
}
