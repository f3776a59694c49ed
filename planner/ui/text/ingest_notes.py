"""The readers' notes and row messages (planner/ingest/notes.py) in 简体中文, by code.

Like `errors.py`, this catalog has no English half: a note's English is its own text (what
the CLI prints), and `planner/ui/error_text.py` words a note from here for a Chinese reader.
Placeholders are the note's values as given (names from the user's file, numbers already
formatted); tests/test_zh_ingest_notes.py checks both languages name the same ones.
"""

_IGNORED = "未建模，已忽略"

NOTES: dict[str, str] = {
    "mixed_encodings": (
        "编码混用：文件整体不是 UTF-8（第 {line} 行有无效的字节），因此按 GBK/GB18030 读取，"
        "但其中 {count} 行是 UTF-8（第 {lines} 行），这些行里的非 ASCII 文字（中文名称、队列等）"
        "已成乱码；请把文件另存为单一编码（UTF-8）后重新导入"
    ),
    "mixed_encodings_end": (
        "编码混用：文件整体不是 UTF-8（文件在一个字符的中间结束），因此按 GBK/GB18030 读取，"
        "但其中 {count} 行是 UTF-8（第 {lines} 行），这些行里的非 ASCII 文字（中文名称、队列等）"
        "已成乱码；请把文件另存为单一编码（UTF-8）后重新导入"
    ),
    "duplicate_column": (
        "列名重复：第 {first} 列和第 {second} 列都叫“{name}”；按名称匹配时使用第一列，另一列"
        "读作“{renamed}”（用 --map 字段='{renamed}' 或映射表可改选它）"
    ),
    "trace_renamed": (
        "已存在名为“{name}”的轨迹（本次不同之处：{differs}）；本次导入命名为“{renamed}”，"
        "以便每个名称只对应一条轨迹"
    ),
    "same_name_columns": (
        "列{columns}都对应字段“{field}”；使用第一列（用 --map {field}=列名 或映射表可改选其他列）"
    ),
    "other_columns": (
        "列“{column}”读作字段“{field}”；{others}也可以（用 --map {field}=列名 或映射表可改选）"
    ),
    "node_row_skipped": "{file} 第 {row} 行：{reason}，{message}；已跳过该节点",
    "node_rows_skipped": "{file}：共跳过 {count} 行",
    "kubectl_not_node": "第 {index} 项：类型 {kind} 不是 Node，已跳过",
    "kubectl_cordoned": "{name}：已封锁（不可调度），仍计入容量",
    "pods_grouped": (
        "按所属对象（kube_pod_owner 或 job-name 标签）把 {pods} 个 Pod 归并为 {jobs} 个多 Pod "
        "作业，每个作业在其全部 Pod 运行时才算开始"
    ),
    "gang_mixed_gpus": (
        "{count} 个所属对象的 Pod 申请的 GPU 数不同（{owners}）：其 Pod 各自保留为一个作业，不归并"
    ),
    "dcgm_gpu_util_fallback": (
        "GPU 忙碌占比取自 DCGM_FI_DEV_GPU_UTIL（有内核运行的时间占比）：服务器上没有 "
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE（图形引擎的活跃时间，小内核时读数更低）"
    ),
    "dcgm_missing": (
        "窗口内没有带 Pod 标签的 dcgm-exporter 序列（DCGM_FI_PROF_GR_ENGINE_ACTIVE、"
        "DCGM_FI_DEV_GPU_UTIL）：各作业的 GPU 忙碌占比未知"
    ),
    "kubectl_bad_quantity": "{name}：资源数量“{value}”无法读取，已跳过",
    "kubectl_no_product": "{name}：有 {gpus} 个 GPU 但没有 GPU 型号标签；GPU 类型记为 GPU",
    "kubectl_unknown_mig": "{name}：未知的 MIG 配置 {profiles}；只按整块 GPU 计算",
    "kubectl_whole_beside_mig": "{name}：除 MIG GPU 外还有 {gpus} 块整 GPU；全部按 MIG 建模",
    "kubectl_single_unknown": "{name}：MIG single 策略但没有已知的配置；只按整块 GPU 计算",
    "kubectl_gpus_inferred": "{name}：没有 nvidia.com/gpu.count 标签；推断为 {gpus} 块 GPU",
    "kubectl_mig_gpus_inferred": (
        "{name}：没有 nvidia.com/gpu.count 标签；推断为 {gpus} 块 MIG GPU"
    ),
    "kubectl_mig_uneven": (
        "{name}：MIG 实例 {instances} 无法均分为每块 GPU 的合法布局；按动态 MIG 建模"
    ),
    "kubectl_mig_differs": (
        "{gpu_type}：各节点的 MIG 布局不同；全部按其中 {count} 个节点的布局建模"
        "（{strategy}，{layout}）"
    ),
    "kubectl_mig_differs_dynamic": (
        "{gpu_type}：各节点的 MIG 布局不同；全部按其中 {count} 个节点的布局建模（{strategy}，动态）"
    ),
    "yaml_not_mapping": "{file}：跳过了一个不是映射（键: 值）的文档",
    "yaml_kind_skipped": "{kind} {name}：此类型未建模，已跳过",
    "yaml_document_skipped": "文档 {name}：此类型未建模，已跳过",
    "yaml_key_ignored": "{where}：spec.{key} " + _IGNORED,
    "kueue_priority": "{where}：已记下优先级 {value}；回放使用作业轨迹的优先级列",
    "kueue_preemption_ignored": "{where}：spec.preemption.{key} " + _IGNORED,
    "kueue_quota_ignored": (
        "{where}：{resource} 的配额（资源规格 {flavor}）未建模：只建模 GPU、CPU 和内存配额"
    ),
    "volcano_root_skipped": "Queue root：Volcano 按集群确定根队列的大小；已跳过",
    "volcano_guarantee_ignored": "{where}：spec.guarantee.{key} " + _IGNORED,
    "volcano_cpu_memory_ignored": (
        "{where}：{resource} 的 {field} 未建模（只有 CPU 或内存的 capability 作为硬上限建模）"
    ),
    "volcano_resource_ignored": "{where}：{resource} 的 {field} " + _IGNORED,
    "volcano_action_ignored": "{where}：动作 {action} " + _IGNORED,
    "volcano_plugin_ignored": "{where}：插件 {plugin} " + _IGNORED,
    "volcano_no_conf": (
        "{file}：没有 {conf} ConfigMap：按 Volcano 的默认动作计算（enqueue、allocate、"
        "backfill：不抢占，不回收）"
    ),
    "volcano_both_plugins": "proportion 和 capacity 插件都已启用：使用 capacity",
    "volcano_no_plugin": "proportion 和 capacity 插件都未启用：使用 proportion",
    "volcano_deserved": "{file}：有队列设置了 deserved：按 capacity 插件计算",
}

REPLAY: dict[str, str] = {
    "volcano_guarantees_over": "Volcano 保证 {guaranteed} 块 {what}，但集群只有 {gpus} 块",
    "volcano_deserved_over": (
        "Volcano 应得份额合计 {shared} 块 {what}，超过集群的 {gpus} 块（保证量高于按权重分得的"
        "份额）：配额承诺的多于实际拥有的"
    ),
    "volcano_default_missing": (
        "Volcano 默认队列“{queue}”未声明：队列名不对应任何 Volcano 队列的作业将无法调度"
    ),
    "volcano_queue_priority": (
        "Volcano 队列 {queue}：优先级 {priority} 未建模（Volcano 按它为队列排序；回放按作业"
        "自身的优先级排序）"
    ),
    "volcano_parent_ignored": "Volcano 队列 {queue}：parent 已忽略（proportion 插件没有层级）",
    "volcano_deserved_ignored": (
        "Volcano 队列 {queue}：deserved 已忽略（proportion 插件按权重注水式分配）"
    ),
    "volcano_capability_flavors": (
        "Volcano 队列 {queue}：按 GPU 类型分资源规格时，CPU 和内存的 capability 未建模"
    ),
    "volcano_capability_parent": "Volcano 队列 {queue}：父队列的 CPU 和内存 capability 未建模",
    "volcano_types_missing": "Volcano 队列 {queue}：GPU 类型 {types} 未安装，已忽略",
    "sharing_no_gpu": "{gpu_type} 的共享设置：集群中没有这种 GPU，已忽略",
    "sharing_read": "{gpu_type}：{mode}，读取自节点列表",
}

# A GPU sharing mode as the engine labels it (planner.engine.sharing.mode_label): its English
# shape and the Chinese.
MODES: tuple[tuple[str, str], ...] = (
    (r"MIG dynamic \(instances created on demand\)", "动态 MIG（按需创建实例）"),
    (
        r"MIG (?P<strategy>\w+) \((?P<layout>.+) per GPU\), re-layout after (?P<delay>\S+) s",
        "MIG {strategy}（每块 GPU：{layout}），{delay} 秒后重新布局",
    ),
    (r"MIG (?P<strategy>\w+) \((?P<layout>.+) per GPU\)", "MIG {strategy}（每块 GPU：{layout}）"),
    (
        r"time-slicing x(?P<replicas>\d+), slowdown (?P<slowdown>\S+)",
        "时间切片 ×{replicas}，减速系数 {slowdown}",
    ),
)

ROWS: dict[str, str] = {
    "value_too_long": ("超过 {limit} 个字符：没有这么长的日期、时长或数字（映射的列是否正确？）"),
    "job_id_empty": "作业 ID 为空",
    "node_id_empty": "节点 ID 为空",
    "value_empty": "值为空",
    "pods_not_whole": "Pod 数必须是整数",
    "too_many_gpus": "一个作业超过 {limit} 个 GPU；请检查该列及其单位",
    "fractional_gpus": "大于 1 的 GPU 数必须是整数；只有共享一块 GPU（小于 1）时才允许小数",
    "gpus_not_divisible": (
        "作业的 GPU 总数无法在其各 Pod 间均分；请用 --map gpus_per_pod=列名 给出每个 Pod 的 GPU 数"
    ),
    "expected_number": "应为数字",
    "expected_zero_or_more": "应为大于或等于 0 的数字",
    "busy_over_100": "GPU 忙碌占比超过 100%：请写成 0-1 的小数或百分比",
    "expected_one_or_more": "应为大于或等于 1 的数字",
    "expected_gpus": "应为大于或等于 0 的整数 GPU 数",
    "expected_status": "应为可识别的状态，例如 {known}",
    "expected_priority": "应为整数，或 low、normal、high、critical 之一",
    "nonexistent_time": (
        "此本地时间在 {tz} 中不存在：夏令时开始时时钟跳过了它；请修正该值，或连同 UTC 偏移一起写出"
    ),
    "ambiguous_time": (
        "此本地时间在 {tz} 中出现两次（夏令时结束），无法确定是哪一刻；请连同 UTC 偏移一起写出"
        "（例如 +01:00）"
    ),
    "bad_time": (
        "应为日期时间（ISO 8601、'2024-01-05 10:00:00'、Unix 时间戳秒数）或距作业轨迹开始的秒数"
    ),
    "end_before_start": "结束时间早于开始时间",
    "run_over_100_years": "运行时间超过 100 年：时长是否以毫秒为单位，或结束年份有误？",
    "never_started": "该作业从未开始，也没有提交时间：没有可回放的内容",
    "deleted_before_submit": "在提交之前已被删除",
    "ends_before_submit": "结束时间早于提交时间",
    "no_start_censored": "该作业没有开始时间或运行时间（--censored reject）",
    "bad_duration": "应为秒数、HH:MM:SS 或 D-HH:MM:SS",
    "negative_run_time": "运行时间不能为负数",
    "mixed_time_bases": "一个时间是日期，另一个是距开始的秒数",
    "field_count": "应有 {expected} 个字段，第 {line} 行却有 {saw} 个",
}

REASONS: dict[str, str] = {
    # what each rejection reason (planner/ingest/reasons.py) means
    "missing_value": "作业需要的值为空",
    "not_a_number": "应为数字的值不是数字",
    "negative_value": "数量、大小或时长为负数，或在必须为正数时为零",
    "implausible_value": "数量或运行时间远超任何真实作业（单位或导出有误）",
    "fractional_gpus": "作业可以共享一块 GPU（0 到 1），但不能请求大于 1 的小数块 GPU",
    "gpus_not_divisible": "作业的 GPU 无法在其各 Pod 间均分",
    "bad_time": "日期时间无法读取",
    "nonexistent_time": "该本地时间在时区中因夏令时开始而被跳过",
    "ambiguous_time": "该本地时间在时区中出现两次（夏令时结束）",
    "value_too_long": "日期、时长或数字单元格远长于任何此类值",
    "bad_duration": "时长无法读取",
    "end_before_start": "作业的结束时间早于开始时间",
    "never_started": "作业从未运行，因此运行时间未知",
    "unknown_status": "无法识别的状态",
    "unknown_priority": "优先级既不是数字，也不是已知的等级名称",
    "duplicate_job_id": "另一行已使用此作业 ID",
    "bad_field_count": "该行的字段比表头多",
    "orphan_step": "Slurm 作业步骤所属的作业行缺失",
    "mixed_time_bases": "时间中既有绝对日期，也有距开始的秒数",
}
