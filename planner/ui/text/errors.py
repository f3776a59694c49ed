"""Errors from the core, readers and validators in 简体中文, by the code they carry.

Unlike the page catalogs, this one has no English half: an error's English is its own text
(`str(err)`, what the CLI prints), and `planner/ui/error_text.py` uses these only for a
Chinese reader. Keys are `PlannerError.code` values, "problem.<kind>" for one problem of a
file pydantic refused (its error type, or a `CodedValueError`'s code) and "what.<what>" for
the kind of file a message names. Placeholders are the error's own values; a problem's
numbers arrive with their thousands marks already ("100,000").
"""

ZH: dict[str, str] = {
    # the bounded YAML reader (planner/core/yaml_text.py)
    "yaml_unreadable": "{source}：无法读取{what}：{reason}",
    "yaml_not_utf8": (
        "{source}：{what}不是 UTF-8 文本（第 {byte:,} 个字节不是）；是否选错了文件？"
        "请将它另存为 UTF-8 编码的 YAML"
    ),
    "yaml_too_large": (
        "{source}：{what}有 {mib} MiB，超过{what}文件最多 {limit} MiB 的上限；是否选错了文件？"
        "大量节点可以写成节点池（`count: N`）或节点列表文件（`cluster.node_list`）"
    ),
    "yaml_syntax": (
        "{source}：第 {line} 行第 {column} 列：此处不是有效的 YAML，无法读取{what}；"
        "请检查这里的缩进、冒号和引号"
    ),
    "yaml_syntax_nowhere": "{source}：无法读取{what}：文件不是有效的 YAML",
    "yaml_self_alias": (
        "{source}：第 {line} 行第 {column} 列：锚点（&名称）在它自身内部被引用，这个值永无"
        "尽头；请去掉该别名（*名称）后再写{what}"
    ),
    "yaml_too_many": (
        "{source}：第 {line} 行第 {column} 列：这个值经层层嵌套的锚点和别名（&名称、*名称）"
        "展开后超过 {limit:,} 个值（“十亿笑声”式文件）；任何{what}都用不了这么多值：请直接写出"
        "这些值"
    ),
    "yaml_tag": (
        "{source}：第 {line} 行第 {column} 列：不允许使用标签 {tag}；{what}只能包含普通值"
        "（文本、数字、true/false、日期、列表和映射）：请删除该标签"
    ),
    # a file pydantic refused (planner/core/validation.py): the problems joined by "；"
    "validation": "{source}：{problems}",
    "problem.where": "`{where}`：{message}",
    "problem.where_line": "`{where}`：{message}（第 {line} 行）",
    "problem.whole": "整个文件：{message}",
    "problem.unknown_key": "未知的键",
    "problem.unknown_key_close": "未知的键；您是否想写 `{close}`？",
    "problem.unknown_key_allowed": "未知的键；此处允许的键有 {allowed}",
    "problem.missing": "缺少此项，必须填写",
    "problem.greater_than": "应大于 {gt}",
    "problem.greater_than_equal": "应大于或等于 {ge}",
    "problem.less_than": "应小于 {lt}",
    "problem.less_than_equal": "应小于或等于 {le}",
    "problem.int_parsing": "应为整数",
    "problem.int_type": "应为整数",
    "problem.int_from_float": "应为整数，不能带小数",
    "problem.float_parsing": "应为数字",
    "problem.float_type": "应为数字",
    "problem.finite_number": "应为有限的数字（不能是 NaN 或无穷大）",
    "problem.bool_parsing": "应为 true 或 false",
    "problem.bool_type": "应为 true 或 false",
    "problem.string_type": "应为文本",
    "problem.string_pattern_mismatch": "格式不符，应匹配 {pattern}",
    "problem.string_too_short": "至少应有 {min_length} 个字符",
    "problem.string_too_long": "最多只能有 {max_length} 个字符",
    "problem.too_short": "至少应有 {min_length} 项",
    "problem.too_long": "最多只能有 {max_length} 项",
    "problem.literal_error": "应为以下之一：{expected}",
    "problem.enum": "应为以下之一：{expected}",
    "problem.dict_type": "应为映射（键: 值）",
    "problem.model_type": "应为映射（键: 值）",
    "problem.model_attributes_type": "应为映射（键: 值）",
    "problem.list_type": "应为列表",
    "problem.tuple_type": "应为列表",
    "problem.date_parsing": "应为日期（YYYY-MM-DD）",
    "problem.date_from_datetime_parsing": "应为日期（YYYY-MM-DD）",
    "problem.datetime_parsing": "应为日期和时间（YYYY-MM-DD hh:mm）",
    "problem.too_many_nodes": (
        "集群共有 {total} 个节点（{pools} 个节点池、{nodes} 个单列节点），超过规划器可回放"
        "的 {limit} 个；请描述不超过这一规模的集群（取机群的一部分，或用更少、更大的节点）"
    ),
    "problem.too_many_servers": (
        "共 {servers} 台服务器（{pools} 个池），超过规划器可回放和定价的 {limit} 台；"
        "最多描述这么多台"
    ),
    "problem.boolean_count": "应为整数，而不是 {value}",
    "problem.pool_without_gpu_type": "有 GPU 的节点池需要写明 `gpu_type`",
    "problem.empty_cluster": "集群至少需要一个节点池或一个节点",
    "problem.duplicate_node_ids": "节点 ID 不能重复",
    "problem.no_options": "请给出自有服务器（`self_hosted`）、云方案（`cloud`）或两者",
    "problem.hybrid_no_owned": "混合方案需要保留的自有服务器",
    "problem.hybrid_no_cloud": "混合方案需要一个用于突发的云方案",
    "problem.hybrid_unknown_cloud": "`hybrid.cloud` 的 '{cloud}' 不是任何一个云方案",
    "problem.duplicate_cloud_names": "两个云方案同名：请用 `name` 为它们命名",
    "problem.hybrid_servers_not_owned": (
        "`hybrid.servers` 中的 `{gpu}: {count}` 不是自有服务器池：应写某个自有池的 GPU 型号"
        "（`self_hosted` 中的 `gpu`）和不小于 0 的台数"
    ),
    "problem.speed_format": (
        "`speed` 中的 `{key}: {value}` 写法不对：应写成 `快/慢: 倍数`（倍数大于 0），"
        "例如 `H100/A100: 2.5`"
    ),
    "problem.commitment_two_sizes": (
        "请给出 `committed_gpus` 或 `committed_gpus_by_year`（逐年承诺的 GPU 数）之一，不能两者都给"
    ),
    "problem.per_job_cap": (
        "云方案 '{option}'：`max_instances` 限制的是节点池的实例数：请同时给出 `packing: pool`，"
        "或去掉 `max_instances`"
    ),
    # the price book's refusals of a row a user adds or edits (pricing/problems.py)
    "price_row_invalid": "{kind}{name}无效：{problems}。",
    "price_kind.price": "价格",
    "price_kind.server": "服务器",
    "price_kind.FX rate": "汇率",
    "price_kind.assumption": "假设",
    "problem.overflow_without_commitment": (
        "云方案 '{option}'：`overflow` 为超出承诺 GPU 的需求计价，请同时给出 `committed_gpus`，"
        "或去掉 `overflow`"
    ),
    "problem.overflow_unknown_cloud": (
        "云方案 '{option}'：overflow 的 '{overflow}' 不是另一个云方案"
    ),
    "problem.overflow_committed": (
        "云方案 '{option}'：overflow 的 '{overflow}' 自己也有承诺：请写一个按需或竞价（spot）方案"
    ),
    "problem.commitment_by_year_no_growth": (
        "`committed_gpus_by_year` 需要 `growth:`（每年按当年的回放计价）；没有增长时请给出 "
        "`committed_gpus`"
    ),
    "problem.growth_two_rates": (
        "请给出 `arrival_rate`（逐年的倍数）或 `arrival_rate_per_year`（每年复合的倍数）之一，"
        "不能两者都给"
    ),
    # replay scenarios, Kueue and Volcano queues (planner/engine/scenario.py, volcano.py)
    "problem.cluster_two_sources": "请给出 `node_list` 或 `pools`/`nodes` 之一，不能两者都给",
    "problem.cluster_no_source": "集群需要 `node_list`、`pools` 或 `nodes`",
    "problem.sharing_one_mode": "`{gpu}`：请在 `mig` 和 `time_slicing` 中恰好给出一个",
    "problem.unknown_priority_class": (
        "队列 `{queue}`：未知的优先级类 `{value}`（已定义：{classes}）"
    ),
    "problem.no_priority_classes": (
        "队列 `{queue}`：未知的优先级类 `{value}`（尚未定义任何优先级类）"
    ),
    "problem.queues_and_volcano": "请给出 `queues`（Kueue）或 `volcano` 之一，不能两者都给",
    "problem.priorities_no_queues": "`priorities.by_queue` 需要 `queues`（Kueue）或 `volcano`",
    "problem.kueue_unknown_flavor": "`{owner}`：未知的 ResourceFlavor `{flavor}`",
    "problem.kueue_local_unknown": "LocalQueue `{local}` 指向不存在的 ClusterQueue `{target}`",
    "problem.kueue_default_unknown": "`default_cluster_queue` 的 `{queue}` 不是 ClusterQueue",
    "problem.kueue_cohort_clash": "`{name}` 既是 cohort 的名称又是 ClusterQueue 的名称",
    "problem.kueue_cohort_cycle": "cohort `{name}` 是它自己的上级",
    "problem.name_used_twice": "{what}名称 `{name}` 用了两次",
    "problem.volcano_guarantee_over": "队列 `{queue}`：`guarantee` 超过了 `capability`",
    "problem.volcano_name_twice": "有一个 Volcano 队列名称用了两次",
    "problem.volcano_root_named": "`root` 是 Volcano 的根队列，其大小由集群决定",
    "problem.volcano_gpu_types_mixed": ('请按任意类型（""）或按 GPU 型号给出 GPU 数，不能两者混用'),
    "problem.volcano_unknown_parent": "队列 `{queue}`：未知的上级队列 `{parent}`",
    "problem.volcano_not_a_queue": "`{target}` 不是 Volcano 队列",
    "problem.volcano_not_leaf": "`{target}` 有子队列；只有叶子队列接收作业",
    "problem.volcano_children_over": (
        "队列 `{queue}`：子队列的 `{field}` 之和（{below}）超过了它自己的"
    ),
    "problem.volcano_cycle": "队列 `{queue}` 是它自己的上级",
    # job history and node list files (planner/ingest)
    "header_too_long": (
        "{file}：第一行（表头）超过 {limit}；作业历史的表头列出列名远用不了这么长：是否选错了文件？"
    ),
    "too_many_columns": (
        "{file}：表头有 {columns:,} 列，超过作业历史或节点列表最多 {limit:,} 列的上限（尚未读取"
        "任何行）；是否选错了文件？如果没错，请只保留规划器读取的列（作业 ID、提交、开始、结束"
        "或时长、GPU 数、队列、用户、状态；节点：名称、GPU 型号和数量、CPU、内存）后重新导入"
    ),
    "unpacked_too_big": (
        "{file}：{compression} 数据解压后超过 {limit}（在第 {line:,} 行停止读取），远超任何"
        "作业历史的规模。如果文件确实如此，请拆分文件或提高上限（命令行："
        "`planner ingest --max-unpacked-gib N`；本应用：在运行它的环境中设置 `{variable}=N`）"
    ),
    "workbook_too_big": (
        "{file}：工作簿解压后有 {unpacked}，超过 {limit}，远超任何作业历史的规模。"
        "如果文件确实如此，请导出为 CSV（或提高上限，命令行："
        "`planner ingest --max-unpacked-gib N`；本应用：在运行它的环境中设置 `{variable}=N`）"
    ),
    "sheet_too_many_rows": (
        "{file}：工作表“{sheet}”声明有 {rows:,} 行；一个工作表最多 {limit:,} 行（Excel 的上限），"
        "所以这个工作簿不是 Excel 保存的。请将作业历史导出为 CSV（.csv.gz 可以让文件保持很小）"
    ),
    "sheet_rows_past_limit": (
        "{file}：工作表“{sheet}”超过 {limit:,} 行（在第 {limit:,} 行之后停止读取）；一个工作表"
        "最多 {limit:,} 行，所以这个工作簿不是 Excel 保存的。请将作业历史导出为 CSV"
        "（.csv.gz 可以让文件保持很小）"
    ),
    "empty_file": "{file}：文件是空的；请重新导出作业历史",
    "compressed_empty": "{file}：压缩文件是空的",
    "no_text": "{file}：文件中没有文字（只有空行）",
    "binary_file": (
        "{file}：这是一个二进制文件，不是 CSV/TSV 文本导出，也不是 .xlsx 工作簿；"
        "请将作业历史导出为 CSV、TSV 或 Excel"
    ),
    "line_too_long": (
        "{file}：第 {line:,} 行超过 {limit}，即作业历史一行的上限（已在此停止读取）；"
        "是否选错了文件，或者文件的换行符丢失了？"
    ),
    "row_too_long": (
        "{file}：从第 {line:,} 行开始的一行超过 {limit}：那里有一个带引号的单元格延续了很多行；"
        '是否缺少闭合的引号（"）？'
    ),
    "not_utf8_or_gbk": (
        "{file}：文本既不是 UTF-8 也不是 GBK/GB18030（第 {line:,} 行有无效的字节）；"
        "请将文件另存为 UTF-8（Excel：“另存为”，选择“CSV UTF-8”）"
    ),
    "not_utf8_or_gbk_end": (
        "{file}：文本既不是 UTF-8 也不是 GBK/GB18030（文件在一个字符的中间结束）；"
        "请将文件另存为 UTF-8（Excel：“另存为”，选择“CSV UTF-8”）"
    ),
    "gzip_damaged": (
        "{file}：gzip 数据已损坏，无法解压；文件可能在复制或下载时被截断：请重新压缩或重新导出"
    ),
    "quote_never_closed": (
        '{file}：第 {row} 行的引号（"）没有闭合，文件其余部分都会成为一个单元格；'
        "请修正或删除该引号后重新导出"
    ),
    "not_a_table": "{file}：无法作为表格读取（解析器提示：`{reason}`）",
    "workbook_empty": (
        "{file}：工作簿的第一个工作表是空的；请把作业历史放在第一个工作表中，或导出为 CSV"
    ),
    "zip_not_xlsx": (
        "{file}：这是 zip 压缩包，但不是 Excel .xlsx 工作簿；请将作业历史导出为 CSV、TSV 或 .xlsx"
    ),
    "no_such_file": "{file}：没有这个文件",
    "cannot_open": "{file}：无法打开（系统提示：{reason}）",
    "is_directory": "{file}：这是一个文件夹；请给出 CSV、TSV 或 .xlsx 文件的路径",
    "not_regular_file": (
        "{file}：不是普通文件（而是管道、套接字或设备）；请将导出内容保存为文件，再给出该文件的路径"
    ),
    # formats and columns (planner/ingest/formats.py, columns.py, nodes.py); lists of names
    # ({columns}, {fields}, {close}) arrive as inline code joined by "、"
    "unknown_format": (
        "{file}：文件的列（共 {count:,} 列）：{columns}，不符合任何已知格式。可识别的格式有："
        "阿里巴巴 openb 的 Pod 列表和节点列表、Slurm `sacct --parsable2` 的输出、通用作业历史"
        "（CSV/TSV/XLSX，含作业 ID、提交时间、时长、GPU 数等列，如 `job_id`、`submit_time`、"
        "`duration`、`gpus`）以及节点列表。命令行可用 `--format generic` 配合 "
        "`--map 字段=列名`，例如 `--map gpus=卡数 --map submit=提交时间 --map duration=运行时长`"
    ),
    "unknown_format_option": (
        "{file}：未知的 `--format` 值 `{format}`；请从以下格式中选择：{choices}"
    ),
    "node_list_not_jobs": "{file}：这是节点列表（`{format}`），不是作业历史；请选择作业历史文件",
    "jobs_not_node_list": "{file}：这是作业历史（`{format}`），不是节点列表；请选择节点列表文件",
    "no_usable_node": "{file}：节点列表中没有可用的节点（{rejected:,} 行被拒绝）",
    "node_list_not_trace": "{file}：这是节点列表，不是作业历史",
    "node_list_missing": "`cluster.node_list`：节点列表 `{file}` 不存在",
    "unreadable_trace_or_nodes": "{file}：无法作为作业历史或节点列表读取",
    "volcano_no_gpus": "集群没有可在 Volcano 队列之间分配的 GPU",
    # one of the planner's own checks failed (planner/core/errors.py InternalCheckError)
    "internal_check": (
        "一项内部检查未通过（{check}）：这是规划器的缺陷，不是您数据的问题。请把这条消息、您运行"
        "的命令或情景，以及作业历史（或仍能复现问题的最小部分）报告给规划器的维护者"
    ),
    "volcano_untyped_gpus": (
        "Volcano 队列按 GPU 型号给出 GPU 数，但有些节点的 GPU 没有已知型号；请写明每个节点的 GPU"
        " 型号，或按任意类型给出队列的 GPU 数"
    ),
    "node_list_not_pods": "{file}：这是节点列表（`{format}`），不是 Pod 或作业列表",
    "unknown_time_zone": (
        "未知的时区 `{tz}`；请使用 IANA 时区名称，例如 UTC、Asia/Shanghai 或 America/Los_Angeles"
    ),
    "map_unknown_field": "{file}：`--map` 指定了未知的字段 `{field}`；可用的字段有：{fields}",
    "map_no_column": "{file}：`--map {field}={column}`：文件中没有名为 `{column}` 的列",
    "map_no_column_close": (
        "{file}：`--map {field}={column}`：文件中没有名为 `{column}` 的列；文件中相近的列：{close}"
    ),
    "missing_column": (
        "{file}：找不到字段 {fields}（任一即可）对应的列。文件中的列（共 {count:,} 列）："
        "{columns}。请在列映射表中为它选择一列（命令行：`--map {field}=列名`）"
    ),
    "missing_column_close": (
        "{file}：找不到字段 {fields}（任一即可）对应的列；文件中相近的列：{close}。"
        "文件中的列（共 {count:,} 列）：{columns}。请在列映射表中为它选择一列"
        "（命令行：`--map {field}=列名`）"
    ),
    "node_missing_column": (
        "{file}：节点列表需要一列表示 `{field}`（{field_words}），但没有列的名称与之相符"
        "（例如 {names}）。文件中的列（共 {count:,} 列）：{columns}。请在列映射表中为它选择"
        "一列（命令行：`--map {field}=列名`）"
    ),
    "field.node_id": "节点 ID",
    "field.gpu_type": "GPU 型号",
    "field.gpus": "每节点 GPU 数",
    "field.cpu": "CPU 核数",
    "field.mem": "内存",
    # kubectl node lists and Kueue / Volcano queue files (planner/ingest/kubectl.py, ...)
    "kubectl_not_json": (
        "{file}：第 {line} 行第 {column} 列：此处不是有效的 JSON；"
        "请上传 `kubectl get nodes -o json` 的输出"
    ),
    "kubectl_not_utf8": (
        "{file}：不是 UTF-8 文本（第 {byte:,} 个字节不是）；"
        "请上传 `kubectl get nodes -o json` 的输出"
    ),
    "kubectl_unreadable": "{file}：无法读取（系统提示：{reason}）",
    "kubectl_not_nodes": (
        "{file}：应为 `kubectl get nodes -o json` 的输出：顶层应是带有 `items` 列表的 JSON 对象"
    ),
    "kubectl_no_nodes": "{file}：kubectl 输出的 {items:,} 项中没有一个可用的节点",
    "kueue_shape": (
        "{file}：`{kind} {name}` 的结构与 Kueue 写出的不同（应为映射的地方是列表，或者相反）；"
        "请与 `{command}` 的输出对照"
    ),
    "kueue_no_name": "{file}：有一个 `{kind}` 没有 `metadata.name`；请为它命名",
    "kueue_no_queue": "{file}：没有找到 ClusterQueue；至少需要一个 `kind: ClusterQueue` 文档",
    "not_a_quantity": (
        "`{where}`：`{value}` 不是资源数量；应为 8、500m、512Gi 或 1Ti 这样的 Kubernetes 数量"
    ),
    "volcano_no_name": "{file}：有一个 Queue 没有 `metadata.name`；请为它命名",
    "volcano_no_queue": "{file}：没有找到 Volcano Queue；至少需要一个 `kind: Queue` 文档",
    # the kinds of file a message names ("what"); a kind not listed is shown as it is
    "what.scenario": "场景",
    "what.TCO scenario": "TCO 场景",
    "what.flavor": "ResourceFlavor",
    "what.cohort or ClusterQueue": "cohort 或 ClusterQueue",
    "what.sharing gpu_type": "GPU 共享（`sharing`）的 `gpu_type`",
}
