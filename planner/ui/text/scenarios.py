"""Texts of the saved-scenario widgets (save form and library) every page can show."""

EN = {
    "scenarios.save_title": "Save this scenario",
    "scenarios.name": "Name",
    "scenarios.name_help": "Up to {max} characters; a new name, unless you tick Replace.",
    "scenarios.save": "Save",
    "scenarios.replace": "Replace the saved scenario of that name",
    "scenarios.saved": "Saved '{name}'.",
    "scenarios.err_empty": "Give the scenario a name.",
    "scenarios.err_long": "The name has {chars} characters; use at most {max}.",
    "scenarios.err_control": (
        "The name has a control character ({char}: a line break, tab or terminal escape); "
        "use letters, digits, spaces and punctuation."
    ),
    "scenarios.err_exists": (
        "A scenario named '{name}' is saved already: choose another name, or tick Replace."
    ),
    "scenarios.library": "Saved scenarios",
    "scenarios.empty": "No saved scenario yet.",
    "scenarios.col_name": "Name",
    "scenarios.col_kind": "Kind",
    "scenarios.col_trace": "Trace",
    "scenarios.col_updated": "Updated",
    "scenarios.col_results": "Results",
    "scenarios.kind_replay": "replay",
    "scenarios.kind_tco": "cost (TCO)",
    "scenarios.state_current": "current",
    "scenarios.state_stale": "stale: the scenario changed since its last run",
    "scenarios.state_none": "not run yet",
    "scenarios.pick": "Saved scenario",
    "scenarios.load": "Load into the working scenario",
    "scenarios.loaded": "Loaded '{name}' as the working scenario (Cluster & policy, Replay).",
    "scenarios.load_tco": (
        "'{name}' is a cost (TCO) scenario: compare it on the Compare page; the working "
        "scenario is a replay scenario."
    ),
    "scenarios.download": "Download YAML",
    "scenarios.delete": "Delete",
    "scenarios.confirm_delete": "Yes, delete '{name}'",
    "scenarios.deleted": "Deleted '{name}'.",
    "scenarios.upload": "Upload a scenario (YAML) to save",
    "scenarios.upload_help": (
        "A replay scenario (`cluster:`) or a TCO scenario (`self_hosted:`, `cloud:`), at most "
        "{kib} KiB; its trace must be stored or beside the bundled scenarios."
    ),
    "scenarios.upload_save": "Save the uploaded scenario",
    "scenarios.too_large": "{name} is larger than {kib} KiB.",
    "scenarios.not_text": "{name} is not UTF-8 text.",
}

ZH = {
    "scenarios.save_title": "保存此场景",
    "scenarios.name": "名称",
    "scenarios.name_help": "最多 {max} 个字符;除非勾选“替换”,名称必须是新的。",
    "scenarios.save": "保存",
    "scenarios.replace": "替换同名的已保存场景",
    "scenarios.saved": "已保存“{name}”。",
    "scenarios.err_empty": "请为场景命名。",
    "scenarios.err_long": "名称有 {chars} 个字符;最多 {max} 个。",
    "scenarios.err_control": (
        "名称含有控制字符（{char}：换行、制表符或终端转义序列）；请只用字母、数字、空格和标点。"
    ),
    "scenarios.err_exists": "已存在名为“{name}”的场景:请换一个名称,或勾选“替换”。",
    "scenarios.library": "已保存的场景",
    "scenarios.empty": "还没有已保存的场景。",
    "scenarios.col_name": "名称",
    "scenarios.col_kind": "类型",
    "scenarios.col_trace": "作业轨迹",
    "scenarios.col_updated": "更新时间",
    "scenarios.col_results": "结果",
    "scenarios.kind_replay": "回放",
    "scenarios.kind_tco": "成本(TCO)",
    "scenarios.state_current": "最新",
    "scenarios.state_stale": "已过期:场景在上次运行后有改动",
    "scenarios.state_none": "尚未运行",
    "scenarios.pick": "已保存的场景",
    "scenarios.load": "载入为工作场景",
    "scenarios.loaded": "已将“{name}”载入为工作场景(集群与策略、回放)。",
    "scenarios.load_tco": "“{name}”是成本(TCO)场景:请在比较页面比较它;工作场景是回放场景。",
    "scenarios.download": "下载 YAML",
    "scenarios.delete": "删除",
    "scenarios.confirm_delete": "确认删除“{name}”",
    "scenarios.deleted": "已删除“{name}”。",
    "scenarios.upload": "上传要保存的场景(YAML)",
    "scenarios.upload_help": (
        "回放场景(`cluster:`)或 TCO 场景(`self_hosted:`、`cloud:`),最大 {kib} KiB;"
        "其作业轨迹须已存储或位于内置场景目录旁。"
    ),
    "scenarios.upload_save": "保存上传的场景",
    "scenarios.too_large": "{name} 超过 {kib} KiB。",
    "scenarios.not_text": "{name} 不是 UTF-8 文本。",
}
