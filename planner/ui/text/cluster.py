"""Cluster & policy page: labels, help, messages and the scenario summary.

The English explanations of the scheduler's choices and of the overhead classes are the
CLI's own (`planner replay --help`), so the page and the command line say the same thing.
"""

from planner.engine.overhead import NETWORK_HELP, STORAGE_HELP
from planner.engine.policy import ADMISSION_HELP, PLACEMENT_HELP, QUEUEING_HELP


def _prefixed(prefix: str, texts: dict[str, str]) -> dict[str, str]:
    return {f"cluster.{prefix}.{name}": text for name, text in texts.items()}


EN = {
    "cluster.title": "Cluster & policy",
    "cluster.intro": (
        "Describe the cluster and how it is scheduled: node pools, the scheduler's policy, "
        "queues, priorities, GPU sharing and colocation. **Apply** makes it the working "
        "scenario that the Replay page runs, the same as `planner replay --scenario`."
    ),
    "cluster.tab.pools": "Node pools",
    "cluster.tab.policy": "Scheduler policy",
    "cluster.tab.queues": "Queues",
    "cluster.tab.priorities": "Priorities & preemption",
    "cluster.tab.sharing": "GPU sharing",
    "cluster.tab.colocation": "Colocation & overhead",
    "cluster.section.cluster": "Node pools",
    "cluster.section.nodes": "Node pools, individual nodes",
    "cluster.section.policy": "Scheduler policy",
    "cluster.section.queues": "Queues",
    "cluster.section.priorities": "Priorities",
    "cluster.section.preemption": "Preemption costs",
    "cluster.section.sharing": "GPU sharing",
    "cluster.section.colocation": "Colocation",
    "cluster.section.overhead": "Container overhead",
    "cluster.section.scenario": "Scenario as a whole",
    "cluster.note": "note: {note}",
    "cluster.apply": "Apply",
    "cluster.applied": "Applied: the Replay page now runs this scenario.",
    "cluster.reset": "Reset to the bundled sample",
    "cluster.reset_done": "The working scenario is the bundled sample again.",
    "cluster.yaml.title": "Scenario as YAML",
    "cluster.yaml.caption": (
        "The working scenario as a file: `planner replay --scenario scenario.yaml` runs it."
    ),
    "cluster.yaml.download": "Download the scenario (YAML)",
    # node pools
    "cluster.pools.caption": (
        "Pools of identical nodes. CPU and memory 0 mean not limited. Rows can be added "
        "and deleted; edits take effect on Apply."
    ),
    "cluster.pools.node_list": "The cluster is read from the node list file {file}; pools "
    "or nodes added here replace it on Apply.",
    "cluster.pools.name": "Pool name",
    "cluster.pools.name_help": (
        "optional; node ids are <pool name>-0001, ... (default: the GPU type)"
    ),
    "cluster.pools.gpu_type": "GPU type",
    "cluster.pools.gpus_per_node": "GPUs per node",
    "cluster.pools.cpu": "CPU cores per node",
    "cluster.pools.mem_gib": "Memory per node (GiB)",
    "cluster.pools.not_limited": "0 = not limited",
    "cluster.pools.count": "Nodes",
    "cluster.nodes.title": "Individual nodes ({nodes})",
    "cluster.nodes.node_id": "Node",
    "cluster.nodes.gpus": "GPUs",
    "cluster.nodes.cpu": "CPU cores",
    "cluster.nodes.mem_gib": "Memory (GiB)",
    "cluster.import.title": "Import nodes from kubectl or a node list",
    "cluster.import.upload": "`kubectl get nodes -o json` or a node list",
    "cluster.import.upload_help": (
        "kubectl JSON: allocatable GPUs, CPU and memory, the GPU model from the "
        "nvidia.com/gpu.product label and MIG layouts. A node list: the openb node list or "
        "any table with a node id and a GPU count column (CSV, TSV, XLSX, gzipped too); "
        "its columns are shown in a table where a column read wrongly, or not found, can be "
        "picked before the nodes are used."
    ),
    "cluster.import.read": "**{file}**: {nodes} nodes, {gpus} GPUs",
    "cluster.import.gpus": "GPUs",
    "cluster.import.as": "Use them as",
    "cluster.import.as_pools": "pools of identical nodes ({shapes} node shapes; memory "
    "rounded down to whole GiB)",
    "cluster.import.as_nodes": "individual nodes, each with its name and resources",
    "cluster.import.use": "Use these nodes",
    "cluster.import.used": "The cluster is now the nodes of {file}.",
    "cluster.import.mig_found": "{gpu_type}: {mode}, read from the node list",
    "cluster.import.gang": "Admission set to gang: queues admit whole jobs.",
    "cluster.import.fifo": "Queueing set to fifo: queues have no backfill.",
    # policy
    "cluster.policy.admission": "Admission",
    "cluster.policy.placement": "Placement",
    "cluster.policy.queueing": "Queueing",
    "cluster.policy.seed": "Seed",
    "cluster.policy.seed_help": "random placement and backoff jitter draw from this seed",
    "cluster.policy.depth": "Backfill depth",
    "cluster.policy.depth_help": "jobs tested behind the head per pass (Slurm's bf_max_job_test)",
    "cluster.policy.estimate": "Run-time estimate factor",
    "cluster.policy.estimate_help": (
        "backfill estimates a job's run time as its real run time times this (users "
        "over-estimate: 1 or more)"
    ),
    "cluster.policy.timeout": "Pod timeout (s)",
    "cluster.policy.timeout_help": (
        "release a partly placed job after this long and requeue it (waitForPodsReady); 0 = never"
    ),
    **_prefixed("admission", ADMISSION_HELP),
    **_prefixed("placement", PLACEMENT_HELP),
    **_prefixed("queueing", QUEUEING_HELP),
    "cluster.admission_name.gang": "gang",
    "cluster.admission_name.pod": "pod by pod",
    "cluster.placement_name.best-fit": "best-fit",
    "cluster.placement_name.binpack": "binpack",
    "cluster.placement_name.spread": "spread",
    "cluster.placement_name.random": "random",
    "cluster.placement_name.fgd": "FGD",
    "cluster.queueing_name.strict-fifo": "strict FIFO",
    "cluster.queueing_name.fifo": "FIFO",
    "cluster.queueing_name.backfill": "EASY backfill",
    # queues
    "cluster.queues.mode": "Queues",
    "cluster.queues.mode_none": "None",
    "cluster.queues.mode_kueue": "Kueue",
    "cluster.queues.mode_volcano": "Volcano",
    "cluster.queues.mode_none_help": "one queue for everybody, no quotas",
    "cluster.queues.mode_kueue_help": "ClusterQueues with quotas, borrowing in cohorts",
    "cluster.queues.mode_volcano_help": "weighted queues sharing the cluster",
    "cluster.queues.needs_gang": (
        "Queues admit whole jobs and have no backfill: choose gang admission and fifo or "
        "strict-fifo queueing under Scheduler policy before applying."
    ),
    "cluster.queues.editor_caption": (
        "One row per ClusterQueue and flavor (GPU type); several rows with the same name "
        "give one queue several flavors, tried in order. Queues in the same cohort lend and "
        "borrow unused quota. What the table does not show (strategy, budgets, CPU and "
        "memory quotas, cohorts' own quotas) is kept from the imported queues."
    ),
    "cluster.queues.name": "ClusterQueue",
    "cluster.queues.cohort": "Cohort",
    "cluster.queues.cohort_help": "queues of one cohort borrow each other's unused quota; "
    "empty: the queue never borrows nor lends",
    "cluster.queues.flavor": "Flavor",
    "cluster.queues.flavor_help": "the ResourceFlavor: the nodes of one GPU type",
    "cluster.queues.gpus": "GPU quota",
    "cluster.queues.borrowing": "Borrowing limit",
    "cluster.queues.lending": "Lending limit",
    "cluster.queues.limit_help": "GPUs; empty: no limit",
    "cluster.queues.within": "Preempt within queue",
    "cluster.queues.within_help": (
        "withinClusterQueue: Never; LowerPriority: evict lower-priority jobs of the same "
        "queue; LowerOrNewerEqualPriority: also newer jobs of equal priority"
    ),
    "cluster.queues.reclaim": "Reclaim in cohort",
    "cluster.queues.reclaim_help": (
        "reclaimWithinCohort: Never; LowerPriority: evict lower-priority jobs of queues "
        "borrowing its quota; Any: any job of queues borrowing it"
    ),
    "cluster.queues.default": "Default ClusterQueue",
    "cluster.queues.default_help": (
        "for jobs whose queue value names no LocalQueue or ClusterQueue; none: those jobs "
        "are unschedulable"
    ),
    "cluster.queues.no_default": "(none: unmapped jobs are unschedulable)",
    "cluster.queues.local": "**LocalQueues**: a trace's queue value → ClusterQueue",
    "cluster.queues.trace_queue": "Queue in the trace",
    "cluster.queues.target": "ClusterQueue",
    "cluster.queues.full": "All queue settings, as read",
    "cluster.queues.local_read": "LocalQueues: {mapping}",
    "cluster.queues.volcano_caption": (
        "One row per Volcano queue and GPU type ('' = any type); several rows with the same "
        "name give one queue amounts for several GPU types. The replay runs them as "
        "ClusterQueues sized to this cluster. What the table does not show (the preempt and "
        "reclaim actions, the trace queue mapping, CPU and memory caps, priority) is kept "
        "from the imported queues."
    ),
    "cluster.queues.volcano_missing": (
        "No Volcano queues yet: edit the example row below, or import a Volcano YAML."
    ),
    "cluster.queues.plugin": "Plugin",
    "cluster.queues.plugin_proportion": "proportion (deserved by weight)",
    "cluster.queues.plugin_capacity": "capacity (deserved as given)",
    "cluster.queues.plugin_help": (
        "proportion, Volcano's default: GPUs are water-filled by weight; capacity: each "
        "queue's deserved is given, and queues may have a parent"
    ),
    "cluster.queues.overcommit": "Overcommit factor",
    "cluster.queues.overcommit_help": (
        "enqueue: jobs wait to be enqueued while pending requests exceed this x the free "
        "cluster; empty: no enqueue gate"
    ),
    "cluster.queues.volcano_name": "Queue",
    "cluster.queues.parent": "Parent",
    "cluster.queues.parent_help": "capacity plugin only: the parent queue; empty: root",
    "cluster.queues.weight": "Weight",
    "cluster.queues.weight_help": "proportion plugin: the queue's share of the GPUs, 1 or more",
    "cluster.queues.reclaimable": "Reclaimable",
    "cluster.queues.reclaimable_help": "other queues may reclaim GPUs it uses beyond its share",
    "cluster.queues.type_help": "GPU type of the amounts; empty: any GPU type",
    "cluster.queues.deserved": "Deserved GPUs",
    "cluster.queues.deserved_help": "capacity plugin: the queue's share; empty: 0",
    "cluster.queues.capability": "Capability GPUs",
    "cluster.queues.capability_help": "hard cap; empty: no cap",
    "cluster.queues.guarantee": "Guarantee GPUs",
    "cluster.queues.guarantee_help": "reserved, never lent; at most the capability; empty: 0",
    "cluster.queues.volcano_full": "The queues and their shares on this cluster",
    "cluster.queues.import": "Import Kueue or Volcano YAML",
    "cluster.queues.upload": "Kueue or Volcano YAML",
    "cluster.queues.upload_help": (
        "the YAML you kubectl apply: Kueue ResourceFlavor, ClusterQueue, Cohort and "
        "LocalQueue documents, or Volcano Queues with the scheduler's ConfigMap; the same "
        "reader as `planner replay --queues`"
    ),
    "cluster.queues.read_kueue": "**{file}**: Kueue, {queues} ClusterQueues",
    "cluster.queues.read_volcano": "**{file}**: Volcano, {queues} queues",
    "cluster.queues.use": "Use these queues",
    "cluster.queues.used": "The queues are now those of {file}.",
    "cluster.table.kind": "Kind",
    "cluster.table.name": "Name",
    "cluster.table.cohort": "Cohort / parent",
    "cluster.table.flavor": "Flavor",
    "cluster.table.gpu_type": "GPU type",
    "cluster.table.gpus": "Nominal GPUs",
    "cluster.table.borrowing_limit": "Borrowing limit",
    "cluster.table.lending_limit": "Lending limit",
    "cluster.table.cpu": "CPU quota",
    "cluster.table.mem_gib": "Memory quota (GiB)",
    "cluster.table.strategy": "Strategy",
    "cluster.table.within_cluster_queue": "Preempt within queue",
    "cluster.table.reclaim_within_cohort": "Reclaim in cohort",
    "cluster.table.borrow_within_cohort": "Preempt to borrow",
    "cluster.table.weight": "Weight",
    "cluster.table.capability": "Capability",
    "cluster.table.deserved": "Deserved",
    "cluster.table.guarantee": "Guarantee",
    "cluster.table.on_this_cluster": "Deserved on this cluster",
    "cluster.table.reclaimable": "Reclaimable",
    "cluster.table.priority": "Priority",
    "cluster.table.parent": "Parent",
    # priorities and preemption
    "cluster.priorities.caption": (
        "Priority classes (Kueue WorkloadPriorityClasses) and the priority of each trace "
        "queue's jobs, which overrides the trace's own priority. Needs queues."
    ),
    "cluster.priorities.class": "Priority class",
    "cluster.priorities.value": "Value",
    "cluster.priorities.priority": "Priority or class",
    "cluster.priorities.priority_help": "a number, or the name of a priority class",
    "cluster.preemption.title": "Preemption costs",
    "cluster.preemption.caption": (
        "What a preemption costs the evicted job, and when it may happen (every queue alike)."
    ),
    "cluster.preemption.checkpoint_interval_s": "Checkpoint interval (s)",
    "cluster.preemption.checkpoint_interval_s_help": (
        "a preempted job keeps its work up to its last checkpoint; 0 = no checkpoints, it "
        "restarts from zero"
    ),
    "cluster.preemption.restart_overhead_s": "Restart overhead (s)",
    "cluster.preemption.restart_overhead_s_help": "added to the remaining run time on each restart",
    "cluster.preemption.min_run_s": "Minimum run (s)",
    "cluster.preemption.min_run_s_help": "a job that has run less than this is not preempted",
    "cluster.preemption.termination_grace_s": "Termination grace (s)",
    "cluster.preemption.termination_grace_s_help": (
        "preempted pods hold their GPUs and quota this long (Kubernetes' default is 30 s)"
    ),
    # sharing
    "cluster.sharing.caption": (
        "How each GPU type is shared: whole GPUs (none), MIG partitions, or time-slicing. "
        "Named MIG layouts: {layouts}; or list profiles, e.g. 3g.40gb, 2g.20gb, 1g.10gb, "
        "1g.10gb; empty or dynamic: instances created where requests land."
    ),
    "cluster.sharing.type_help": "a GPU type of the cluster, or * for every type not listed",
    "cluster.sharing.mode": "Sharing",
    "cluster.sharing.strategy": "MIG strategy",
    "cluster.sharing.strategy_help": (
        "single: one profile on every GPU, advertised as nvidia.com/gpu; mixed: profiles "
        "are separate resources"
    ),
    "cluster.sharing.layout": "MIG layout",
    "cluster.sharing.layout_help": "a named layout, a list of profiles, or dynamic",
    "cluster.sharing.relayout": "Re-layout delay (s)",
    "cluster.sharing.relayout_help": (
        "mixed MIG with a layout: re-partition an idle GPU on demand, taking this long; "
        "empty: never"
    ),
    "cluster.sharing.replicas": "Time-slicing replicas",
    "cluster.sharing.replicas_help": "each GPU is advertised this many times (2-64)",
    "cluster.sharing.slowdown": "Slowdown",
    "cluster.sharing.slowdown_help": "run-time factor of jobs on a time-sliced GPU (1 or more)",
    "cluster.sharing.fail": "Fail requests > 1",
    "cluster.sharing.fail_help": "failRequestsGreaterThanOne: pods asking for more than one "
    "replica are refused",
    # colocation and overhead
    "cluster.colocation.on": "Colocate online services",
    "cluster.colocation.help": (
        "online services hold GPUs by hour of day (Koordinator-style); batch jobs use what "
        "they leave and are evicted when the services grow"
    ),
    "cluster.colocation.caption": "GPUs the online services hold in each hour of the day "
    "(00 = midnight to 1 am, trace time).",
    "cluster.colocation.types": "GPU types hosting online services",
    "cluster.colocation.types_help": "none chosen: any GPU type",
    "cluster.overhead.on": "Model container overhead",
    "cluster.overhead.help": (
        "multi-pod jobs run slower on ordinary networks and storage: 1 + penalty × "
        "(1 − 1/pods); single-pod jobs pay nothing"
    ),
    "cluster.overhead.network": "Network",
    "cluster.overhead.storage": "Storage",
    **_prefixed("network", NETWORK_HELP),
    **_prefixed("storage", STORAGE_HELP),
    # errors
    "cluster.error.problem": "**{section}**: {problem}",
    "cluster.error.no_pools": "the cluster has no node pool; add a row to the node pools table",
    "cluster.error.no_gpus": (
        "the cluster has no GPUs; give at least one pool a GPU count per node above 0"
    ),
    "cluster.error.pool_names": (
        "two pools are both named '{name}'; give them different pool names"
    ),
    "cluster.error.empty_cell": "row {row}: {column} is empty",
    "cluster.error.row": "row {row}: {problem}",
    "cluster.error.no_queues": "add at least one ClusterQueue, or choose no queues",
    "cluster.error.unknown_flavor": (
        "flavor '{flavor}' is neither a GPU type of the cluster nor an imported flavor "
        "(known: {known})"
    ),
    "cluster.error.no_volcano": "add at least one Volcano queue, or choose another queue model",
    "cluster.error.volcano_type_twice": (
        "queue '{queue}' has two rows for GPU type '{gpu_type}'; merge them into one"
    ),
    "cluster.error.local_row": "LocalQueue row {row}: give both the queue and its ClusterQueue",
    "cluster.error.class_row": "priority class row {row}: give both the name and the value",
    "cluster.error.by_queue_row": "row {row}: give both the queue and its priority",
    "cluster.error.sharing_mode": "row {row}: unknown sharing '{mode}'",
    "cluster.error.hours": "give a number of online GPUs for each of the 24 hours",
    "cluster.error.too_big": (
        "{file} is {size} MB; the page reads files up to {limit} MB. Use "
        "`planner replay --nodes FILE` or `--queues FILE` for bigger ones."
    ),
    # summary
    "cluster.summary.cluster": "{pools} ({gpus} GPUs)",
    "cluster.summary.pool": "{nodes} × {gpus} {gpu_type}",
    "cluster.summary.cpu_pool": "{nodes} CPU-only",
    "cluster.summary.listed": "{nodes} listed",
    "cluster.summary.node_list": "nodes of {file}",
    "cluster.summary.no_cluster": "no cluster yet",
    "cluster.summary.nodes.one": "1 node",
    "cluster.summary.nodes.many": "{n} nodes",
    "cluster.summary.kueue": "Kueue: {queues} in {cohorts}",
    "cluster.summary.kueue_alone": "Kueue: {queues}, no cohort",
    "cluster.summary.queues.one": "1 ClusterQueue",
    "cluster.summary.queues.many": "{n} ClusterQueues",
    "cluster.summary.cohorts.one": "1 cohort",
    "cluster.summary.cohorts.many": "{n} cohorts",
    "cluster.summary.volcano": "Volcano: {queues} queues ({plugin})",
    "cluster.summary.mig": "MIG on {gpu_type}",
    "cluster.summary.time_slicing": "time-slicing ×{replicas} on {gpu_type}",
    "cluster.summary.colocation": "colocation (online services up to {peak} GPUs)",
    "cluster.summary.overhead": "overhead: {network} network, {storage} storage",
    "cluster.saved.title": "Saved scenarios",
    "cluster.saved.caption": (
        "Save the working scenario under a name (the Replay page saves it with its results), "
        "load a saved one to edit it here, or upload and download scenario YAML."
    ),
}

ZH = {
    "cluster.title": "集群与策略",
    "cluster.intro": (
        "描述集群及其调度方式：节点池、调度策略、队列、优先级、GPU 共享与混部。"
        "点击**应用**后，它成为回放页运行的工作场景，与 `planner replay --scenario` 相同。"
    ),
    "cluster.tab.pools": "节点池",
    "cluster.tab.policy": "调度策略",
    "cluster.tab.queues": "队列",
    "cluster.tab.priorities": "优先级与抢占",
    "cluster.tab.sharing": "GPU 共享",
    "cluster.tab.colocation": "混部与开销",
    "cluster.section.cluster": "节点池",
    "cluster.section.nodes": "节点池（单个节点）",
    "cluster.section.policy": "调度策略",
    "cluster.section.queues": "队列",
    "cluster.section.priorities": "优先级",
    "cluster.section.preemption": "抢占代价",
    "cluster.section.sharing": "GPU 共享",
    "cluster.section.colocation": "混部",
    "cluster.section.overhead": "容器开销",
    "cluster.section.scenario": "场景整体",
    "cluster.note": "注：{note}",
    "cluster.apply": "应用",
    "cluster.applied": "已应用：回放页现在运行此场景。",
    "cluster.reset": "恢复为内置示例",
    "cluster.reset_done": "工作场景已恢复为内置示例。",
    "cluster.yaml.title": "场景 YAML",
    "cluster.yaml.caption": (
        "工作场景的文件形式：`planner replay --scenario scenario.yaml` 可直接运行。"
    ),
    "cluster.yaml.download": "下载场景（YAML）",
    "cluster.pools.caption": (
        "由相同节点组成的节点池。CPU 和内存为 0 表示不限制。可增删行；点击应用后生效。"
    ),
    "cluster.pools.node_list": (
        "集群读取自节点列表文件 {file}；在此添加的节点池或节点将在应用时替换它。"
    ),
    "cluster.pools.name": "节点池名称",
    "cluster.pools.name_help": "可选；节点编号为 <节点池名称>-0001 等（默认取 GPU 型号）",
    "cluster.pools.gpu_type": "GPU 型号",
    "cluster.pools.gpus_per_node": "每节点 GPU 数",
    "cluster.pools.cpu": "每节点 CPU 核数",
    "cluster.pools.mem_gib": "每节点内存（GiB）",
    "cluster.pools.not_limited": "0 = 不限制",
    "cluster.pools.count": "节点数",
    "cluster.nodes.title": "单个节点（{nodes}）",
    "cluster.nodes.node_id": "节点",
    "cluster.nodes.gpus": "GPU 数",
    "cluster.nodes.cpu": "CPU 核数",
    "cluster.nodes.mem_gib": "内存（GiB）",
    "cluster.import.title": "从 kubectl 或节点列表导入节点",
    "cluster.import.upload": "`kubectl get nodes -o json` 输出或节点列表",
    "cluster.import.upload_help": (
        "kubectl JSON：读取可分配的 GPU、CPU 与内存，"
        "从 `nvidia.com/gpu.product` 标签读取 GPU 型号，"
        "并读取 MIG 布局。节点列表：openb 节点列表，或任何含节点编号列和 GPU 数列的表格"
        "（CSV、TSV、XLSX，也可 gzip 压缩）；其列显示在一张表中，"
        "读错或未找到的列可在使用这些节点之前重新选择。"
    ),
    "cluster.import.read": "**{file}**：{nodes} 个节点，{gpus} 块 GPU",
    "cluster.import.gpus": "GPU 数",
    "cluster.import.as": "导入方式",
    "cluster.import.as_pools": "合并为相同节点的节点池（{shapes} 种节点规格；内存向下取整到 GiB）",
    "cluster.import.as_nodes": "逐个节点，保留各自的名称与资源",
    "cluster.import.use": "使用这些节点",
    "cluster.import.used": "集群现为 {file} 中的节点。",
    "cluster.import.mig_found": "{gpu_type}：{mode}，读取自节点列表",
    "cluster.import.gang": "准入方式已改为整组（gang）：队列按整个作业准入。",
    "cluster.import.fifo": "排队方式已改为 fifo：队列不支持回填。",
    "cluster.policy.admission": "准入",
    "cluster.policy.placement": "放置",
    "cluster.policy.queueing": "排队",
    "cluster.policy.seed": "随机种子",
    "cluster.policy.seed_help": "随机放置和退避抖动使用此种子",
    "cluster.policy.depth": "回填深度",
    "cluster.policy.depth_help": "每轮在队首之后检查的作业数（Slurm 的 `bf_max_job_test`）",
    "cluster.policy.estimate": "运行时间估计系数",
    "cluster.policy.estimate_help": (
        "回填按实际运行时间乘以此系数估计作业运行时间（用户通常高估：不小于 1）"
    ),
    "cluster.policy.timeout": "Pod 超时（秒）",
    "cluster.policy.timeout_help": (
        "部分放置的作业在此时长后被释放并重新排队（waitForPodsReady）；0 = 从不"
    ),
    "cluster.admission.gang": "作业的所有 Pod 同时启动，否则都不启动（Kueue、Volcano、协同调度）",
    "cluster.admission.pod": (
        "有空间时逐个放置 Pod（默认 `kube-scheduler`）；部分放置的作业会让已占的 GPU "
        "空闲，直到最后一个 Pod 落地"
    ),
    "cluster.placement.best-fit": "选择放置后剩余容量最少的节点（GPU 与 CPU 占比等权）",
    "cluster.placement.binpack": "`kube-scheduler` 的 `MostAllocated` 打分（GPU、CPU、内存）",
    "cluster.placement.spread": (
        "`kube-scheduler` 的 `LeastAllocated` 打分（GPU、CPU、内存，Kubernetes 默认）"
    ),
    "cluster.placement.random": "在能放下的节点中均匀随机选择（使用种子）",
    "cluster.placement.fgd": (
        "碎片梯度下降（ATC'23）：按作业的 GPU 请求分布衡量，选择碎片增长最少的节点"
    ),
    "cluster.queueing.strict-fifo": "按提交顺序启动；队首阻塞其后所有作业",
    "cluster.queueing.fifo": "尽力而为的 FIFO：按提交顺序，跳过放不下的作业（Kueue 默认）",
    "cluster.queueing.backfill": "EASY 回填：后面的作业只要不推迟队首的预留即可先启动",
    "cluster.admission_name.gang": "整组准入",
    "cluster.admission_name.pod": "逐 Pod 准入",
    "cluster.placement_name.best-fit": "最佳适配",
    "cluster.placement_name.binpack": "装箱",
    "cluster.placement_name.spread": "分散",
    "cluster.placement_name.random": "随机",
    "cluster.placement_name.fgd": "碎片梯度下降",
    "cluster.queueing_name.strict-fifo": "严格先进先出",
    "cluster.queueing_name.fifo": "先进先出",
    "cluster.queueing_name.backfill": "EASY 回填",
    "cluster.queues.mode": "队列",
    "cluster.queues.mode_none": "无",
    "cluster.queues.mode_kueue": "Kueue 队列",
    "cluster.queues.mode_volcano": "Volcano 队列",
    "cluster.queues.mode_none_help": "所有人共用一个队列，无配额",
    "cluster.queues.mode_kueue_help": "带配额的 ClusterQueue，在 cohort 内借用",
    "cluster.queues.mode_volcano_help": "按权重共享集群的队列",
    "cluster.queues.needs_gang": (
        "队列按整个作业准入且不支持回填：应用前请在“调度策略”中选择整组（gang）准入"
        "和 fifo 或 strict-fifo 排队。"
    ),
    "cluster.queues.editor_caption": (
        "每行是一个 ClusterQueue 的一个 flavor（GPU 型号）；同名多行表示一个队列有多个 "
        "flavor，按顺序尝试。"
        "同一 cohort 中的队列相互借出和借用未用的配额。表中未显示的设置（策略、预算、"
        "CPU 与内存配额、"
        "cohort 自身的配额）沿用导入的队列。"
    ),
    "cluster.queues.name": "ClusterQueue 名称",
    "cluster.queues.cohort": "Cohort（队列组）",
    "cluster.queues.cohort_help": (
        "同一 cohort 的队列相互借用未用的配额；留空：该队列既不借入也不借出"
    ),
    "cluster.queues.flavor": "Flavor（资源规格）",
    "cluster.queues.flavor_help": "ResourceFlavor：某一 GPU 型号的节点",
    "cluster.queues.gpus": "GPU 配额",
    "cluster.queues.borrowing": "借入上限",
    "cluster.queues.lending": "借出上限",
    "cluster.queues.limit_help": "GPU 数；留空：不限",
    "cluster.queues.within": "队列内抢占",
    "cluster.queues.within_help": (
        "withinClusterQueue：Never 不抢占；LowerPriority 抢占同队列中优先级更低的作业；"
        "LowerOrNewerEqualPriority 还抢占同优先级中更新的作业"
    ),
    "cluster.queues.reclaim": "在 cohort 内收回",
    "cluster.queues.reclaim_help": (
        "reclaimWithinCohort：Never 不收回；LowerPriority 驱逐借用其配额的队列中优先级更低的作业；"
        "Any 驱逐借用其配额的队列中的任意作业"
    ),
    "cluster.queues.default": "默认 ClusterQueue",
    "cluster.queues.default_help": (
        "用于队列值未对应任何 LocalQueue 或 ClusterQueue 的作业；不设：这些作业无法调度"
    ),
    "cluster.queues.no_default": "（不设：未映射的作业无法调度）",
    "cluster.queues.local": "**LocalQueue**：作业记录中的队列值 → ClusterQueue",
    "cluster.queues.trace_queue": "作业记录中的队列",
    "cluster.queues.target": "ClusterQueue 名称",
    "cluster.queues.full": "读取到的全部队列设置",
    "cluster.queues.local_read": "LocalQueue 映射：{mapping}",
    "cluster.queues.volcano_caption": (
        "每行对应一个 Volcano 队列和一种 GPU 型号（留空 = 任意型号）；同名的多行为同一队列"
        "设置多种 GPU 型号的数量。回放时按本集群规模转换为 ClusterQueue 运行。表中未显示的"
        "设置（preempt 与 reclaim 动作、作业记录队列映射、CPU 与内存上限、优先级）沿用导入的队列。"
    ),
    "cluster.queues.volcano_missing": (
        "还没有 Volcano 队列：请编辑下方的示例行，或导入 Volcano YAML。"
    ),
    "cluster.queues.plugin": "插件",
    "cluster.queues.plugin_proportion": "proportion（按权重分配应得份额）",
    "cluster.queues.plugin_capacity": "capacity（按给定值分配应得份额）",
    "cluster.queues.plugin_help": (
        "proportion 为 Volcano 默认插件：GPU 按权重水位填充分配；capacity：直接给定每个队列的"
        "应得份额，队列可以有上级队列"
    ),
    "cluster.queues.overcommit": "超售系数",
    "cluster.queues.overcommit_help": (
        "enqueue 动作：待处理请求超过空闲集群的该倍数时，作业等待入队；留空：不设入队限制"
    ),
    "cluster.queues.volcano_name": "队列",
    "cluster.queues.parent": "上级队列",
    "cluster.queues.parent_help": "仅 capacity 插件：上级队列；留空：root",
    "cluster.queues.weight": "权重",
    "cluster.queues.weight_help": "proportion 插件：队列分得 GPU 的份额，至少为 1",
    "cluster.queues.reclaimable": "可回收",
    "cluster.queues.reclaimable_help": "其他队列可回收它超出份额使用的 GPU",
    "cluster.queues.type_help": "数量对应的 GPU 型号；留空：任意型号",
    "cluster.queues.deserved": "应得 GPU",
    "cluster.queues.deserved_help": "capacity 插件：队列的份额；留空：0",
    "cluster.queues.capability": "上限 GPU",
    "cluster.queues.capability_help": "硬上限；留空：不设上限",
    "cluster.queues.guarantee": "保障 GPU",
    "cluster.queues.guarantee_help": "预留且从不出借；不超过上限；留空：0",
    "cluster.queues.volcano_full": "各队列及其在本集群上的份额",
    "cluster.queues.import": "导入 Kueue 或 Volcano YAML",
    "cluster.queues.upload": "Kueue 或 Volcano YAML",
    "cluster.queues.upload_help": (
        "即用 `kubectl apply` 的 YAML：Kueue 的 `ResourceFlavor`、`ClusterQueue`、`Cohort` "
        "与 `LocalQueue` 文档，"
        "或 Volcano 队列及调度器 `ConfigMap`；与 `planner replay --queues` 使用同一读取器"
    ),
    "cluster.queues.read_kueue": "**{file}**：Kueue 配置，{queues} 个 ClusterQueue",
    "cluster.queues.read_volcano": "**{file}**：Volcano 配置，{queues} 个队列",
    "cluster.queues.use": "使用这些队列",
    "cluster.queues.used": "队列已替换为 {file} 中的队列。",
    "cluster.table.kind": "类型",
    "cluster.table.name": "名称",
    "cluster.table.cohort": "Cohort / 上级",
    "cluster.table.flavor": "资源规格",
    "cluster.table.gpu_type": "GPU 型号",
    "cluster.table.gpus": "名义 GPU 配额",
    "cluster.table.borrowing_limit": "借入上限",
    "cluster.table.lending_limit": "借出上限",
    "cluster.table.cpu": "CPU 配额",
    "cluster.table.mem_gib": "内存配额（GiB）",
    "cluster.table.strategy": "排队策略",
    "cluster.table.within_cluster_queue": "队列内抢占",
    "cluster.table.reclaim_within_cohort": "在 cohort 内收回",
    "cluster.table.borrow_within_cohort": "为借用而抢占",
    "cluster.table.weight": "权重",
    "cluster.table.capability": "容量上限",
    "cluster.table.deserved": "应得份额",
    "cluster.table.guarantee": "保证份额",
    "cluster.table.on_this_cluster": "本集群上的应得份额",
    "cluster.table.reclaimable": "可被收回",
    "cluster.table.priority": "优先级",
    "cluster.table.parent": "上级队列",
    "cluster.priorities.caption": (
        "优先级类（Kueue 的 WorkloadPriorityClass）以及各队列作业的优先级，"
        "它会覆盖作业记录中的优先级。需要启用队列。"
    ),
    "cluster.priorities.class": "优先级类",
    "cluster.priorities.value": "数值",
    "cluster.priorities.priority": "优先级或类名",
    "cluster.priorities.priority_help": "一个数字，或某个优先级类的名称",
    "cluster.preemption.title": "抢占代价",
    "cluster.preemption.caption": "被抢占作业付出的代价，以及何时允许抢占（所有队列相同）。",
    "cluster.preemption.checkpoint_interval_s": "检查点间隔（秒）",
    "cluster.preemption.checkpoint_interval_s_help": (
        "被抢占的作业保留到最近一次检查点的进度；0 = 无检查点，从头重跑"
    ),
    "cluster.preemption.restart_overhead_s": "重启开销（秒）",
    "cluster.preemption.restart_overhead_s_help": "每次重启时加到剩余运行时间上",
    "cluster.preemption.min_run_s": "最短运行时间（秒）",
    "cluster.preemption.min_run_s_help": "运行时间不足此值的作业不会被抢占",
    "cluster.preemption.termination_grace_s": "终止宽限期（秒）",
    "cluster.preemption.termination_grace_s_help": (
        "被抢占的 Pod 在此时长内继续占用 GPU 和配额（Kubernetes 默认 30 秒）"
    ),
    "cluster.sharing.caption": (
        "各 GPU 型号的共享方式：整卡（无）、MIG 切分或时间片。预定义 MIG 布局：`{layouts}`；"
        "也可列出实例规格，如 `3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb`；留空或 `dynamic`："
        "在请求落地处动态创建实例。"
    ),
    "cluster.sharing.type_help": "集群中的某个 GPU 型号，或用 * 表示未列出的所有型号",
    "cluster.sharing.mode": "共享方式",
    "cluster.sharing.strategy": "MIG 策略",
    "cluster.sharing.strategy_help": (
        "`single`：每块 GPU 使用同一规格，以 `nvidia.com/gpu` 暴露；`mixed`：各规格为独立资源"
    ),
    "cluster.sharing.layout": "MIG 布局",
    "cluster.sharing.layout_help": "预定义布局名、实例规格列表，或 `dynamic`（动态）",
    "cluster.sharing.relayout": "重新切分耗时（秒）",
    "cluster.sharing.relayout_help": (
        "有布局的 mixed MIG：按需重新切分空闲 GPU，耗时如此；留空：从不"
    ),
    "cluster.sharing.replicas": "时间片副本数",
    "cluster.sharing.replicas_help": "每块 GPU 被暴露的份数（2-64）",
    "cluster.sharing.slowdown": "减速系数",
    "cluster.sharing.slowdown_help": "作业在时间片 GPU 上的运行时间倍数（不小于 1）",
    "cluster.sharing.fail": "拒绝大于 1 的请求",
    "cluster.sharing.fail_help": "failRequestsGreaterThanOne：请求多于一个副本的 Pod 被拒绝",
    "cluster.colocation.on": "与在线服务混部",
    "cluster.colocation.help": (
        "在线服务按一天中的小时占用 GPU（类似 Koordinator）；"
        "批处理作业使用剩余部分，在线服务扩张时被驱逐"
    ),
    "cluster.colocation.caption": (
        "在线服务在一天中每个小时占用的 GPU 数（00 = 午夜至凌晨 1 点，按作业记录时间）。"
    ),
    "cluster.colocation.types": "承载在线服务的 GPU 型号",
    "cluster.colocation.types_help": "不选：任意 GPU 型号",
    "cluster.overhead.on": "计入容器开销",
    "cluster.overhead.help": (
        "多 Pod 作业在普通网络和存储上运行更慢：1 + 惩罚 × (1 − 1/Pod 数)；单 Pod 作业无开销"
    ),
    "cluster.overhead.network": "网络",
    "cluster.overhead.storage": "存储",
    "cluster.network.rdma": "RDMA / GPUDirect（InfiniBand、RoCE）：无惩罚",
    "cluster.network.ipvs": "kube-proxy 为 IPVS 模式的 Pod 网络：+8%",
    "cluster.network.iptables": "kube-proxy 为 iptables 模式的覆盖网络：+12%",
    "cluster.network.tcp": "无 RDMA 的普通 TCP：+20%",
    "cluster.storage.local-nvme": "数据预置在本地 NVMe：无惩罚",
    "cluster.storage.parallel-fs": "并行文件系统（Lustre、GPFS）：+3%",
    "cluster.storage.nfs": "NFS 网络存储：+15%",
    "cluster.error.problem": "在 **{section}** 中：{problem}",
    "cluster.error.no_pools": "集群没有节点池；请在节点池表中添加一行",
    "cluster.error.no_gpus": "集群没有 GPU；请至少让一个节点池的每节点 GPU 数大于 0",
    "cluster.error.pool_names": "有两个节点池都叫 '{name}'；请为它们取不同的名称",
    "cluster.error.empty_cell": "第 {row} 行：{column} 为空",
    "cluster.error.row": "第 {row} 行：{problem}",
    "cluster.error.no_queues": "请至少添加一个 ClusterQueue，或选择不使用队列",
    "cluster.error.unknown_flavor": (
        "资源规格 '{flavor}' 既不是集群中的 GPU 型号，也不是导入的规格（已知：{known}）"
    ),
    "cluster.error.no_volcano": "请至少添加一个 Volcano 队列，或选择其他队列模式",
    "cluster.error.volcano_type_twice": (
        "队列 '{queue}' 中 GPU 型号 '{gpu_type}' 出现了两行；请合并为一行"
    ),
    "cluster.error.local_row": "LocalQueue 第 {row} 行：请同时填写队列及其 ClusterQueue",
    "cluster.error.class_row": "优先级类第 {row} 行：请同时填写名称和数值",
    "cluster.error.by_queue_row": "第 {row} 行：请同时填写队列及其优先级",
    "cluster.error.sharing_mode": "第 {row} 行：未知的共享方式 '{mode}'",
    "cluster.error.hours": "请为 24 个小时分别填写在线 GPU 数",
    "cluster.error.too_big": (
        "{file} 大小为 {size} MB；本页最多读取 {limit} MB 的文件。更大的文件请使用 "
        "`planner replay --nodes FILE` 或 `--queues FILE`。"
    ),
    "cluster.summary.cluster": "{pools}（共 {gpus} 块 GPU）",
    "cluster.summary.pool": "{nodes} × {gpus} 块 {gpu_type}",
    "cluster.summary.cpu_pool": "{nodes}（仅 CPU）",
    "cluster.summary.listed": "另列 {nodes}",
    "cluster.summary.node_list": "{file} 中的节点",
    "cluster.summary.no_cluster": "尚无集群",
    "cluster.summary.nodes.one": "1 个节点",
    "cluster.summary.nodes.many": "{n} 个节点",
    "cluster.summary.kueue": "Kueue：{queues}，分属 {cohorts}",
    "cluster.summary.kueue_alone": "Kueue：{queues}，无 cohort",
    "cluster.summary.queues.one": "1 个 ClusterQueue 队列",
    "cluster.summary.queues.many": "{n} 个 ClusterQueue 队列",
    "cluster.summary.cohorts.one": "1 个 cohort 组",
    "cluster.summary.cohorts.many": "{n} 个 cohort 组",
    "cluster.summary.volcano": "Volcano：{queues} 个队列（{plugin}）",
    "cluster.summary.mig": "{gpu_type} 启用 MIG",
    "cluster.summary.time_slicing": "{gpu_type} 时间片 ×{replicas}",
    "cluster.summary.colocation": "混部（在线服务最多占 {peak} 块 GPU）",
    "cluster.summary.overhead": "开销：{network} 网络，{storage} 存储",
    "cluster.saved.title": "已保存的场景",
    "cluster.saved.caption": (
        "以名称保存当前场景（回放页面会连同结果一起保存），载入已保存的场景在此编辑，"
        "或上传、下载场景 YAML。"
    ),
}
