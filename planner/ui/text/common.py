"""Texts every page uses: units, navigation, the sidebar."""

EN = {
    "common.na": "n/a",
    "common.upload_caption": "File types: {types} · up to {limit} per file",
    "common.upload_types_sep": ", ",
    "common.upload_button": "Upload",
    "common.upload_drop": "Drag and drop a file here",
    "unit.s": "s",
    "unit.min": "min",
    "unit.h": "h",
    "unit.d": "days",
    "nav.overview": "Overview",
    "nav.history": "Job history",
    "nav.cluster": "Cluster & policy",
    "nav.replay": "Replay",
    "nav.prices": "Prices",
    "nav.compare": "Compare",
    "nav.capacity": "Capacity",
    "common.db_busy": "The planner's database is busy: {holder} is using it. Retrying until "
    "it is free…",
}

ZH = {
    "common.na": "无",
    "common.upload_caption": "文件类型：{types} · 单个文件最大 {limit}",
    "common.upload_types_sep": "、",
    "common.upload_button": "上传",
    "common.upload_drop": "将文件拖放到此处",
    "unit.s": "秒",
    "unit.min": "分钟",
    "unit.h": "小时",
    "unit.d": "天",
    "nav.overview": "概览",
    "nav.history": "作业历史",
    "nav.cluster": "集群与策略",
    "nav.replay": "回放",
    "nav.prices": "价格",
    "nav.compare": "比较",
    "nav.capacity": "容量",
    "common.db_busy": "规划器的数据库正忙：{holder} 正在使用它。正在重试，直到它空闲…",
}
