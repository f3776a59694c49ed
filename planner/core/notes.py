"""Notes the core writes for people: English text that also carries a code and its values.

A report's notes are printed by the CLI in English, and worded in the reader's language by
the app's pages and the xlsx and PDF reports. A `Note` is both: it *is* its English text (a
`str`, so every writer, JSON file and comparison keeps working unchanged), and it carries
`code` and `values`, so `worded` says it in Chinese from `CHINESE` instead of parsing
English. `planner.core.serialize` keeps code and values through a JSON file; a plain `str`
(a note without a code, or read from a file saved before codes were kept) stays as written.
"""

from collections.abc import Mapping
from typing import Any, get_args

from planner.core.i18n import Language
from planner.core.pricing_model import PricingModel

# The English wording of each code; `{name}` placeholders are filled from the values.
ENGLISH: dict[str, str] = {
    "default_allocation": "no trace and no utilization: the default {share} allocation",
    "busy_share_unknown": "busy share unknown: add a gpu_util column or import DCGM",
    "unpriced_jobs": "{option}: {count} jobs cannot run on its SKUs ({first})",
    "speed_default": (
        "{option}: jobs measured on other GPUs are priced at speed 1.0 (no `speed` given)"
    ),
    "pool_provisioning_s_assumed": (
        "{option}: a node pool instance is ready {seconds} s after launch, the assumption set "
        "`{set}`'s `pool.provisioning_s` (confidence {confidence}); give `provisioning_s` to "
        "change it"
    ),
    "pool_scale_down_s_assumed": (
        "{option}: a node pool instance is released after standing empty {seconds} s, the "
        "assumption set `{set}`'s `pool.scale_down_s` (confidence {confidence}); give "
        "`scale_down_s` to change it"
    ),
    "bridge_cloud": (
        "servers are paid at order and cost to run and depreciate from delivery, {months} "
        "months later; meanwhile the demand runs on {option} (the bridge category, left out "
        "of the cost per installed GPU-hour)"
    ),
    "bridge_none": (
        "servers are paid at order and cost to run and depreciate from delivery, {months} "
        "months later; nothing bridges the lead time (no cloud option): the demand of those "
        "months is unserved (see the ledger)"
    ),
    "served_elsewhere": (
        "equal service: demand an owned option leaves unserved (lead time without a bridge, "
        "unschedulable, unfinished, carried past the window) is served elsewhere at {source}, "
        "{rate} per GPU-hour, a line of its total, NPV and cost per useful GPU-hour; a GPU-hour "
        "waited costs {wait_rate}"
    ),
    "served_elsewhere_other_gpu": (
        "no on-demand cloud option rents the owned servers' GPU ({owned}): their unserved "
        "demand is priced at {gpu} instead (add an on-demand {owned} option, or set "
        "`served_elsewhere.rate`)"
    ),
    "served_elsewhere_off": (
        "the served-elsewhere line is off (`served_elsewhere.enabled: false`): the options "
        "serve different demand, so their costs are not for the same work (see each option's "
        "served share)"
    ),
    "served_elsewhere_none": (
        "no on-demand cloud option prices the demand an owned option leaves unserved: the "
        "options serve different demand (set `served_elsewhere.rate` to price it)"
    ),
    "useful_differ": (
        "useful GPU-hours differ: self-hosted {owned}/month, hybrid {hybrid}/month (jobs "
        "unfinished, unschedulable or carried past the trace's window on prem)"
    ),
    "carried_past_window": (
        "{option}: {hours} GPU-hours a month of the trace's work were still waiting or running "
        "on its servers when the trace's window closed: they count as unserved, carried past "
        "the window (see the ledger), not as useful work"
    ),
    "option_self_hosted": "self-hosted",
    "option_hybrid": "hybrid",
    "growth_applied": (
        "demand grows by year ({factors} the trace's arrival rate, seed {seed}): each year's "
        "months are priced from that year's replay and cloud bills; break-even utilization, "
        "the headline pair, the sensitivity, what would flip the verdict and the chargeback "
        "are year 1's"
    ),
    "growth_warp": (
        "each year's clock runs faster than the trace's ({factors}): the same jobs arrive in "
        "a shorter span, so a month holds more of them"
    ),
    "growth_team": (
        "team {team} ({profile} profile) joins in year {year} with {share} of each year's "
        "GPU-hours on top: {jobs} synthetic jobs in all"
    ),
    "growth_year_note": "year {year}: {text}",
    "sensitivity_output": "NPV of buying vs {option}, {years} years",
    "sensitivity_output_hybrid": "NPV of the hybrid (owning) vs {option}, {years} years",
    "server": "server {name}",
    "assumption": "assumption {name}",
    "assumption_in_set": "assumption {name} ({set})",
    "placeholder_fx": (
        "{price}: converted {base}->{quote} at a placeholder FX rate; add the real one with "
        "`planner prices fx add`"
    ),
    "cpu_rate": (
        "{option}: CPU-only jobs on CPU instances at {vcpu} a vCPU-hour and {gib} a GiB-hour "
        "({source})"
    ),
    "derived_discount": (
        "{price}: derived from on-demand with the rule of thumb {rule} = {value} (confidence "
        "{confidence})"
    ),
    "offer": "{provider} {instance} ({plan})",
    "offer_derived": "{provider} {instance} ({plan} from {base})",
    "cloud_label": "{head} {plan}",
    "cloud_label_term": "{head} {plan} {months}m",
    "scenario_option": "{scenario} · {option}",
    **{f"plan_{model}": model for model in get_args(PricingModel)},
    "calibrated": (
        "calibrated on {fitted_on}: validation window p50 {p50}, p90 {p90}, p99 {p99} of "
        "observed; withdrawn {withdrawn}"
    ),
    "calibrated_verdict": (
        "calibrated on {fitted_on}: validation window p50 {p50}, p90 {p90}, p99 {p99} of "
        "observed; withdrawn {withdrawn}; {verdict}"
    ),
    "a_history": "a history",
    "not_available": "n/a",
    "source_override": "scenario override",
    "source_default": "model default (reference 2.1)",
    "source_book": "{set}: {source}",
    "unsourced_price": (
        "{price}: unsourced estimate (no source date); replace it with a dated quote"
    ),
    "future_price": "{price}: price as of {as_of} is dated in the future (today is {today})",
    "stale_price": (
        "{price}: price as of {as_of} is stale ({age} days old, over the limit of {limit} "
        "days); update it on the Prices page or with `planner prices`"
    ),
    "mc_method": (
        "Monte Carlo: {draws} draws, seed {seed}; cloud prices {cloud}, electricity "
        "{electricity}, server price spread {server}, demand spread {demand}; each draw "
        "re-prices the replay's quantities (waits are the replay's, not re-run)"
    ),
    "mc_without_inputs": (
        "{count} stored points keep no inputs to re-price (stored before inputs were kept) "
        "and are left out"
    ),
    "mc_demand_twin": (
        "demand spread {sd}: from the twin check of {fitted_on}, whose calibrated replay's "
        "allocated GPU-hours over its validation window missed the observed by {error} "
        "(spread = {error} x sqrt(pi/2), the standard deviation of a normal error with that "
        "mean absolute size)"
    ),
    "mc_demand_default": (
        "demand spread {sd}: a default, confidence L (the scenario's replay has no twin check "
        "measuring its allocation error: `planner twin --save-scenario` measures it); a "
        "calibrated twin of the Alibaba openb export missed its allocated GPU-hours by "
        "1.6% (docs/twin.md), so {sd} is the cautious planning case"
    ),
    "mc_demand_given": "demand spread {sd}: as given",
    "short_trace": (
        "the trace spans {days} days ({jobs} jobs), {share} of the {years}-year horizon: every "
        "figure is that span scaled to a month and repeated over the horizon, so the verdict "
        "rests on very little; price an export of a month or more, and at least 5% of the "
        "horizon, before acting on it"
    ),
}

# The same codes in 简体中文 (tests/test_core_notes.py checks both name the same codes).
CHINESE: dict[str, str] = {
    "default_allocation": "没有作业轨迹也没有给出利用率：按默认分配率 {share} 计算",
    "busy_share_unknown": "GPU 繁忙占比未知：请在作业历史中加入 `gpu_util` 列，或导入 DCGM 指标",
    "unpriced_jobs": "{option}：{count} 个作业无法在其实例规格上运行（{first}）",
    "speed_default": "{option}：在其他 GPU 上测得的作业按速度 1.0 计价（未给出 `speed`）",
    "pool_provisioning_s_assumed": (
        "{option}：节点池实例在启动后 {seconds} 秒就绪，取自假设集 `{set}` 的 `pool.provisioning_s`"
        "（可信度 {confidence}）；给出 `provisioning_s` 可修改"
    ),
    "pool_scale_down_s_assumed": (
        "{option}：节点池实例空闲 {seconds} 秒后释放，取自假设集 `{set}` 的 `pool.scale_down_s`"
        "（可信度 {confidence}）；给出 `scale_down_s` 可修改"
    ),
    "bridge_cloud": (
        "服务器在下单时付款，从交付（{months} 个月后）起计运行成本和折旧；"
        "在此期间需求由 {option} 承担（过渡类别，不计入每装机 GPU 小时成本）"
    ),
    "bridge_none": (
        "服务器在下单时付款，从交付（{months} 个月后）起计运行成本和折旧；"
        "交付期内没有方案过渡（没有云方案）：这几个月的需求无法满足（见“各方案如何满足需求”表）"
    ),
    "served_elsewhere": (
        "同等服务：自有方案未满足的需求（无过渡的交付期、无法调度、未完成、拖到时间窗之后）"
        "按 {source} 每 GPU 小时 {rate} 在别处满足，计入其总成本、NPV 和每有效 GPU 小时成本；"
        "每等待一个 GPU 小时成本为 {wait_rate}"
    ),
    "served_elsewhere_other_gpu": (
        "没有按需云方案租用自有服务器的 GPU（{owned}）：其未满足的需求改按 {gpu} 定价"
        "（添加按需 {owned} 云方案，或设置 `served_elsewhere.rate`）"
    ),
    "served_elsewhere_off": (
        "“在别处满足”成本行已关闭（`served_elsewhere.enabled: false`）：各方案满足的需求不同，"
        "其成本并非针对同样的工作（见各方案的满足率）"
    ),
    "served_elsewhere_none": (
        "没有按需云方案可为自有方案未满足的需求定价：各方案满足的需求不同"
        "（设置 `served_elsewhere.rate` 为其定价）"
    ),
    "useful_differ": (
        "有效 GPU 小时不同：自建每月 {owned}，混合每月 {hybrid}"
        "（部分作业在自有集群上未完成、无法调度或拖到作业轨迹时间窗之后）"
    ),
    "carried_past_window": (
        "{option}：作业轨迹时间窗结束时，其服务器上仍有每月 {hours} GPU 小时的作业在排队或运行："
        "这部分计为未满足（拖到时间窗之后，见“各方案如何满足需求”表），不计为有效工作"
    ),
    "option_self_hosted": "自建",
    "option_hybrid": "混合",
    "growth_applied": (
        "需求逐年增长（到达率为作业轨迹的 {factors}，随机种子 {seed}）：每年各月按当年的"
        "重放和云账单计价；盈亏平衡利用率、主比较对、敏感性分析、结论翻转点和费用分摊按第 1 年计算"
    ),
    "growth_warp": (
        "每年的时钟比作业轨迹快（{factors}）：同样的作业在更短的时间跨度内到达，"
        "因此每月包含更多作业"
    ),
    "growth_team": (
        "团队 {team}（{profile} 画像）从第 {year} 年起加入，每年在原有基础上增加 {share} 的 "
        "GPU 小时：共 {jobs} 个合成作业"
    ),
    "growth_year_note": "第 {year} 年：{text}",
    "sensitivity_output": "相对 {option} 购买的 NPV（{years} 年）",
    "sensitivity_output_hybrid": "混合方案（购买其服务器）相对 {option} 的 NPV（{years} 年）",
    "server": "服务器 {name}",
    "assumption": "假设 {name}",
    "assumption_in_set": "假设 {name}（{set}）",
    "placeholder_fx": (
        "{price}：按占位汇率把 {base} 换算为 {quote}；请用 `planner prices fx add` 添加真实汇率"
    ),
    "cpu_rate": (
        "{option}：纯 CPU 作业按 CPU 实例计价，每 vCPU 小时 {vcpu}、每 GiB 小时 {gib}（{source}）"
    ),
    "derived_discount": (
        "{price}：由按需价格按经验规则 {rule} = {value} 推算（可信度 {confidence}）"
    ),
    "offer": "{provider} {instance}（{plan}）",
    "offer_derived": "{provider} {instance}（{plan}，由{base}推算）",
    "cloud_label": "{head} {plan}",
    "cloud_label_term": "{head} {plan} {months} 个月",
    "scenario_option": "{scenario} · {option}",
    "plan_on_demand": "按需",
    "plan_spot": "竞价",
    "plan_reserved": "预留",
    "plan_savings_plan": "节省计划",
    "plan_cud": "承诺使用折扣",
    "plan_subscription": "包年包月",
    "plan_capacity_block": "容量块",
    "plan_quote": "报价",
    "calibrated": (
        "已按 {fitted_on} 校准：验证窗口内 p50 为实测的 {p50}、p90 为 {p90}、p99 为 {p99}；"
        "撤回为 {withdrawn}"
    ),
    "calibrated_verdict": (
        "已按 {fitted_on} 校准：验证窗口内 p50 为实测的 {p50}、p90 为 {p90}、p99 为 {p99}；"
        "撤回为 {withdrawn}；{verdict}"
    ),
    "a_history": "一段作业历史",
    "not_available": "无",
    "source_override": "场景覆盖值",
    "source_default": "模型默认值（参考资料 2.1）",
    "source_book": "{set}：{source}",
    "unsourced_price": "{price}：未注明来源日期的估计值；请换成注明日期的报价",
    "future_price": "{price}：价格日期 {as_of} 晚于今天（{today}）",
    "stale_price": (
        "{price}：价格日期为 {as_of}，已过时（{age} 天，超过 {limit} 天的期限）；"
        "请在“价格”页面或用 `planner prices` 更新"
    ),
    "mc_method": (
        "蒙特卡洛：{draws} 次抽样，随机种子 {seed}；云价格 {cloud}，电价 {electricity}，"
        "服务器价格离散度 {server}，需求离散度 {demand}；每次抽样对重放得到的用量重新计价"
        "（等待时间取自重放，不重新运行）"
    ),
    "mc_without_inputs": "{count} 个已存储的点没有可重新计价的输入（在保存输入之前存储），已略去",
    "mc_demand_twin": (
        "需求离散度 {sd}：取自 {fitted_on} 的孪生校验，其校准后重放在验证窗口内的已分配 GPU "
        "小时偏离实际 {error}（离散度 = {error} x sqrt(pi/2)，即平均绝对误差为该值的"
        "正态误差的标准差）"
    ),
    "mc_demand_default": (
        "需求离散度 {sd}：默认值，置信度低（该场景的重放没有测得分配误差的孪生校验："
        "`planner twin --save-scenario` 可测得）；阿里巴巴 openb 导出数据的校准孪生的已分配 "
        "GPU 小时偏差 1.6%（docs/twin.md），故 {sd} 为审慎的规划取值"
    ),
    "mc_demand_given": "需求离散度 {sd}：按给定值",
    "short_trace": (
        "作业轨迹只覆盖 {days} 天（{jobs} 个作业），仅为 {years} 年期限的 {share}："
        "所有数字都是把这段时间按比例放大到一个月、再重复到整个期限得出的，结论依据很少；"
        "请先用覆盖一个月以上、且不少于期限 5% 的导出重新计价，再据此决策"
    ),
}

CATALOGS: Mapping[Language, Mapping[str, str]] = {"en": ENGLISH, "zh": CHINESE}


class Note(str):
    """English text with the code and values it was written from."""

    code: str
    values: Mapping[str, Any]

    def __new__(cls, text: str, code: str = "", values: Mapping[str, Any] | None = None) -> "Note":
        note = super().__new__(cls, text)
        note.code = code
        note.values = dict(values or {})
        return note


def note(code: str, **values: Any) -> Note:
    """The note `code` in English, filled from `values` (which it keeps)."""
    return Note(ENGLISH[code].format(**values), code, values)


def offer_name(provider: str, instance: str, plan: str, base: str | None = None) -> Note:
    """A cloud price's name, "AWS p5.48xlarge (on_demand)": `plan` is how it is paid, `base`
    the price it was derived from (a discount rule on on-demand), if any."""
    said = {"provider": provider, "instance": instance, "plan": _plan(plan)}
    if base is None:
        return note("offer", **said)
    return note("offer_derived", **said, base=_plan(base))


def cloud_label(provider: str, sku: str, plan: str, term_months: int | None = None) -> Note:
    """The name our code gives a cloud option, "AWS H100 reserved 36m": in English its
    pricing model's code, in Chinese in words ("AWS H100 预留 36 个月")."""
    head = " ".join(part for part in (provider, sku) if part)
    if term_months:
        return note("cloud_label_term", head=head, plan=_plan(plan), months=term_months)
    return note("cloud_label", head=head, plan=_plan(plan))


def scenario_option(scenario: str, option: str) -> Note:
    """ "<scenario> · <option>", an option of one of several scenarios compared (a coded
    option name stays coded inside it)."""
    return note("scenario_option", scenario=scenario, option=option)


def _plan(model: str) -> str:
    return note(f"plan_{model}") if f"plan_{model}" in ENGLISH else model


def worded(text: str, lang: Language) -> str:
    """`text` in `lang` when it is a coded `Note` (its values worded too); as written when
    it is plain text or its code is unknown."""
    if not isinstance(text, Note) or text.code not in ENGLISH:
        return str(text)
    values = {k: worded(v, lang) if isinstance(v, Note) else v for k, v in text.values.items()}
    return CATALOGS[lang][text.code].format(**values)
