"""The core's notes (`planner.core.notes`), worded for the page: English is the core's own
wording, so the CLI, the reports and the page say the same."""

from planner.core.notes import ENGLISH

EN = {f"notes.{code}": text for code, text in ENGLISH.items()}

ZH = {
    "notes.default_allocation": "没有作业轨迹也没有给出利用率：按默认分配率 {share} 计算",
    "notes.unpriced_jobs": "{option}：{count} 个作业无法在其实例规格上运行（{first}）",
    "notes.speed_default": ("{option}：在其他 GPU 上测得的作业按速度 1.0 计价（未给出 `speed`）"),
    "notes.bridge_cloud": (
        "服务器在下单时付款，从交付（{months} 个月后）起计运行成本和折旧；"
        "在此期间需求由 {option} 承担（过渡类别，不计入每装机 GPU 小时成本）"
    ),
    "notes.bridge_none": (
        "服务器在下单时付款，从交付（{months} 个月后）起计运行成本和折旧；"
        "交付期内没有方案过渡（没有云方案）：这几个月的需求无法满足（见“各方案如何满足需求”表）"
    ),
    "notes.useful_differ": (
        "有效 GPU 小时不同：自建每月 {owned}，混合每月 {hybrid}"
        "（部分作业在自有集群上未完成或无法调度）"
    ),
    "notes.sensitivity_output": "购买相对 {option} 的净现值（{years} 年）",
    "notes.server": "服务器 {name}",
    "notes.placeholder_fx": (
        "{price}：按占位汇率把 {base} 换算为 {quote}；请用 `planner prices fx add` 添加真实汇率"
    ),
    "notes.cpu_rate": (
        "{option}：纯 CPU 作业按 CPU 实例计价，每 vCPU 小时 {vcpu}、每 GiB 小时 {gib}（{source}）"
    ),
    "notes.derived_discount": (
        "{price}：由按需价格按经验规则 {rule} = {value} 推算（可信度 {confidence}）"
    ),
}
