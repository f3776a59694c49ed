"""Texts every page uses: units, navigation, the sidebar."""

EN = {
    "common.na": "n/a",
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
