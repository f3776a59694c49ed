"""The twin check's texts (the Replay page's "Does the replay match what happened?" section)
and the error bar every replay of a calibrated scenario carries."""

EN = {
    "twin.title": "Does the replay match what happened?",
    "twin.caption": (
        "Replays {trace} on this cluster and compares it with the starts the history "
        "recorded. Start latency, the effective capacity and the policy are fitted on the "
        "first 60% of the jobs and checked on the rest, held back from the fit, in {fewest} "
        "to {most} replays of the whole history. The bundled sample's {sample_jobs} jobs take "
        "about {sample_s} on one free CPU core; at that pace this trace's {jobs} jobs take "
        "{low} to {high}, and longer on a busy machine, a busy history or a long node list "
        "(a 24,000-job serving export on 440 nodes needs 14 to 16 s of CPU with the compiled "
        "engine: 21 to 44 s on a 2-core machine shared with other work at load average 8 to "
        "10). The bar "
        "counts the replays and the "
        "time left. The same check as `planner twin`."
    ),
    "twin.no_starts": (
        "This history has no start times, so the replay cannot be checked against what "
        "happened. Export each job's start time to get the check."
    ),
    "twin.run": "Check the replay against what happened",
    "twin.cancel": "Cancel the check",
    "twin.cancelled": "Check cancelled.",
    "twin.running": "Checking {trace} against what happened…",
    "twin.progress_first": "Replay 1 of {total} running; the time left shows once it is done",
    "twin.progress": "{done} of {total} replays · {elapsed} so far · about {left} left",
    "twin.took": "Checked in {elapsed}: {done} replays, {mean} each.",
    "twin.rule": (
        "p50, p90 and p99 waits within a factor of {factor} and withdrawn jobs within {share}"
    ),
    "twin.matches": "The replay matches what happened ({rule}).",
    "twin.no_match": "The replay does not match what happened ({rule}): {misses}.",
    "twin.miss_wait": "{name} {replayed} s vs {observed} s observed",
    "twin.miss_withdrawn": "withdrawn {replayed} vs {observed} observed",
    "twin.miss_sep": "; ",
    "twin.windows": (
        "Fitted on the {fit_jobs} jobs submitted in the trace's first {fit_until}; checked "
        "on the {jobs} jobs submitted after it. {started} of {total} jobs have an "
        "observed start; the history's own jobs held {share} of the {gpus} GPUs on average."
    ),
    "twin.note_given_load": (
        "The scenario gives the background load (online services' GPUs by hour of day): "
        "the check replays with it on the whole node list instead of fitting a smaller "
        "capacity."
    ),
    "twin.note_closed": (
        "The history's own jobs held {share} of the node list's GPUs on average (below "
        "{limit}): the cluster was busy with work this history does not show, so a replay "
        "on the whole node list meets an idle cluster. The calibration fits that missing "
        "load as a smaller effective capacity and as start latency."
    ),
    "twin.note_floor": (
        "The effective capacity is never set below {peak} GPUs, the most the history's own "
        "jobs held at once{pools}: a smaller cluster could not have run the history."
    ),
    "twin.note_floor_pools": " (by GPU type: {pools})",
    "twin.note_floored": "The fit would have gone lower: it stops at that floor.",
    "twin.note_floor_over": (
        "The history's own jobs held {peak} GPUs at once{pools}, more than the node list's "
        "{gpus}: the node list is not all of the cluster the history ran on."
    ),
    "twin.note_policies": (
        "The history cannot tell the scheduling policies apart (their scores are within "
        "1%): the calibrated scenario keeps the first one tried."
    ),
    "twin.note_arrivals": (
        "Arrivals in the held-back window went from {before} a day before day {day} to "
        "{after} a day from it; observed waits p50 / p90 {b50} / {b90} before, {a50} / {a90} "
        "after. A calibration fitted on the earlier jobs cannot know load that comes later."
    ),
    "twin.validation": "The held-back window",
    "twin.col_measure": "Measure",
    "twin.col_observed": "Observed",
    "twin.col_before": "Plain replay (before calibration)",
    "twin.col_after": "Calibrated replay",
    "twin.col_naive": "Naive: the fit window's own waits",
    "twin.row_p50": "Wait p50",
    "twin.row_p90": "Wait p90",
    "twin.row_p99": "Wait p99",
    "twin.row_mean": "Wait mean",
    "twin.row_waited": "Share of jobs that waited",
    "twin.row_gpu_hours": "Waiting GPU-hours",
    "twin.row_withdrawn": "Withdrawn jobs",
    "twin.row_ks": "KS distance of the waits (0 to 1)",
    "twin.row_wasserstein": "Wasserstein distance of the waits",
    "twin.row_correlation": "Allocated GPUs: correlation ({bin} bins)",
    "twin.row_error": "Allocated GPUs: mean error / mean ({bin} bins)",
    "twin.row_level_error": "Allocated GPU-hours over the window: error",
    "twin.no_distance": "—",
    "twin.table_caption": (
        "The plain replay is the trace on the whole node list without start latency; the "
        "calibrated one adds what was fitted. The naive baseline replays nothing: it takes "
        "the fit window's own observed waits as the forecast, so the calibrated column shows "
        "what calibration adds beyond it. Distances compare a replay with what happened, "
        "so the observed and naive columns have none (—); n/a: not measurable on this window."
    ),
    "twin.cdf_title": "Wait distribution on the held-back window",
    "twin.cdf_x": "Wait (s, log scale; waits under 1 s drawn at 1 s)",
    "twin.cdf_y": "Share of jobs waiting at most this long",
    "twin.series_observed": "observed",
    "twin.series_after": "calibrated replay",
    "twin.series_before": "plain replay (p50, p90, p99)",
    "twin.cdf_caption": (
        "The plain replay's per-job waits are not kept, so it shows as its three quantiles."
    ),
    "twin.no_cdf": "No job of the held-back window started in both the history and the replay.",
    "twin.latency": "Start latency by pod-size class",
    "twin.latency_caption": (
        "Start latency is the time between a job's submission and its entering the queue: "
        "admission, the scheduling cycle, and retries while the rest of the cluster is busy. "
        "It is fitted from the jobs of the fit window that met no contention in the replay, "
        "and added at start in every replay of the calibrated scenario."
    ),
    "twin.col_class": "Pod-size class",
    "twin.col_jobs": "Jobs",
    "twin.col_p50": "p50",
    "twin.col_p90": "p90",
    "twin.col_never": "Never placed",
    "twin.no_latency": "No job of the fit window started uncontended: no latency was fitted.",
    "twin.capacity": (
        "Effective capacity: {share} of the node list ({gpus} of {total} GPUs) best "
        "reproduces the fit window's waits; the rest was work this history does not show."
    ),
    "twin.policy": (
        "The policy that best explains the observed order: {admission} admission, "
        "{queueing} queueing (score {score}; 0 is a perfect fit)."
    ),
    "twin.scores": "Scores of every capacity and policy tried",
    "twin.col_share": "Share of the node list",
    "twin.col_gpus": "GPUs",
    "twin.col_score": "Score (0: perfect)",
    "twin.col_policy": "Admission / queueing",
    "twin.by_size": "By GPU-size class",
    "twin.by_team": "By team",
    "twin.groups_caption": "The held-back window: observed and calibrated waits.",
    "twin.col_group_size": "GPUs per job",
    "twin.col_group_team": "Team",
    "twin.col_obs_q": "Observed {q}",
    "twin.col_cal_q": "Calibrated {q}",
    "twin.download": "Download the per-job table (CSV)",
    "twin.save": "Save the calibrated scenario",
    "twin.save_caption": (
        "The scenario with the fitted start latency and policy and a `calibration:` block: "
        "every replay of it, on this page or on Compare, carries the held-back window's "
        "error as its error bar."
    ),
    "twin.error_bar": (
        "Calibrated on {fitted_on}: on the held-back window the replay's p50/p90/p99 waits "
        "were ×{p50}/×{p90}/×{p99} of observed, withdrawn ×{withdrawn}"
    ),
    "twin.error_bar_named": "{name}: {line}",
    "twin.a_history": "a history",
}

ZH = {
    "twin.title": "回放是否重现了实际情况？",
    "twin.caption": (
        "在此集群上回放 {trace}，并与历史记录的启动时间比较。启动延迟、有效容量和策略在前 60% "
        "的作业上拟合，在其余（拟合时留出的）作业上检验，共对整段历史回放 {fewest} 至 {most} 次。"
        "随附示例的 {sample_jobs} 个作业在一个空闲 CPU 核上约需 {sample_s}；按此速度，此作业轨迹的 "
        "{jobs} 个作业需 {low} 至 {high}，机器繁忙、历史繁忙或节点列表较长时更久"
        "（一个 24,000 个作业、440 个节点的服务类导出，使用编译引擎需 14 至 16 秒 CPU 时间："
        "在与其他工作共用、平均负载为 8 至 10 的 2 核机器上用了 21 至 44 秒）。"
        "进度条显示已完成的回放次数和剩余时间。"
        "与 `planner twin` 的检验相同。"
    ),
    "twin.no_starts": (
        "此历史记录没有启动时间，因此无法将回放与实际情况比较。导出每个作业的启动时间即可进行检验。"
    ),
    "twin.run": "将回放与实际情况比较",
    "twin.cancel": "取消检验",
    "twin.cancelled": "检验已取消。",
    "twin.running": "正在将 {trace} 与实际情况比较…",
    "twin.progress_first": "正在进行第 1 次回放（共 {total} 次）；完成后显示剩余时间",
    "twin.progress": "已完成 {done} / {total} 次回放 · 已用 {elapsed} · 约剩 {left}",
    "twin.took": "检验用时 {elapsed}：{done} 次回放，每次 {mean}。",
    "twin.rule": "p50、p90 和 p99 等待时间相差不超过 {factor} 倍，撤回作业数相差不超过 {share}",
    "twin.matches": "回放与实际情况相符（{rule}）。",
    "twin.no_match": "回放与实际情况不符（{rule}）：{misses}。",
    "twin.miss_wait": "{name} 回放 {replayed} 秒，实际 {observed} 秒",
    "twin.miss_withdrawn": "撤回作业 回放 {replayed} 个，实际 {observed} 个",
    "twin.miss_sep": "；",
    "twin.windows": (
        "在跟踪开始后 {fit_until} 内提交的 {fit_jobs} 个作业上拟合；"
        "在其后提交的 {jobs} 个作业上检验。{total} 个作业中有 {started} 个有实际启动时间；"
        "历史自身的作业平均占用 {gpus} 个 GPU 的 {share}。"
    ),
    "twin.note_given_load": (
        "场景已给出背景负载（在线服务按小时占用的 GPU）：检查在整个节点列表上按此回放，"
        "不再拟合更小的有效容量。"
    ),
    "twin.note_closed": (
        "历史自身的作业平均只占用节点列表 GPU 的 {share}（低于 {limit}）："
        "集群当时忙于此历史未记录的工作，因此在整个节点列表上回放会遇到一个空闲的集群。校准把这部分缺失的负载拟合为更小的"
        "有效容量和启动延迟。"
    ),
    "twin.note_floor": (
        "有效容量从不低于 {peak} 个 GPU，即历史自身的作业同时占用的最多 GPU{pools}："
        "更小的集群无法运行这段历史。"
    ),
    "twin.note_floor_pools": "（按 GPU 型号：{pools}）",
    "twin.note_floored": "拟合本会取得更低：它停在这个下限。",
    "twin.note_floor_over": (
        "历史自身的作业曾同时占用 {peak} 个 GPU{pools}，多于节点列表的 {gpus} 个："
        "节点列表并不是这段历史所运行的整个集群。"
    ),
    "twin.note_policies": (
        "此历史无法区分各调度策略（它们的得分相差不超过 1%）：校准后的场景保留最先尝试的策略。"
    ),
    "twin.note_arrivals": (
        "留出窗口的到达量从第 {day} 天之前的每天 {before} 个变为此后的每天 {after} 个；"
        "实际等待 p50 / p90 之前为 {b50} / {b90}，之后为 {a50} / {a90}。"
        "在较早作业上拟合的校准无法预知之后才到来的负载。"
    ),
    "twin.validation": "留出的检验窗口",
    "twin.col_measure": "指标",
    "twin.col_observed": "实际",
    "twin.col_before": "普通回放（校准前）",
    "twin.col_after": "校准后的回放",
    "twin.col_naive": "朴素基线：拟合窗口自身的等待",
    "twin.row_p50": "等待 p50",
    "twin.row_p90": "等待 p90",
    "twin.row_p99": "等待 p99",
    "twin.row_mean": "平均等待",
    "twin.row_waited": "等待过的作业占比",
    "twin.row_gpu_hours": "等待 GPU 小时",
    "twin.row_withdrawn": "撤回的作业",
    "twin.row_ks": "等待时间的 KS 距离（0 到 1）",
    "twin.row_wasserstein": "等待时间的 Wasserstein 距离",
    "twin.row_correlation": "已分配 GPU：相关系数（{bin} 分箱）",
    "twin.row_error": "已分配 GPU：平均误差 / 平均值（{bin} 分箱）",
    "twin.row_level_error": "窗口内已分配 GPU 小时：误差",
    "twin.no_distance": "—",
    "twin.table_caption": (
        "普通回放是在整个节点列表上、不加启动延迟的回放；校准后的回放加上拟合的结果。"
        "朴素基线不做任何回放：它把拟合窗口自身实测的等待当作预测，因此校准后的一列显示校准在它之外"
        "带来了什么。距离衡量回放与实际情况的差异，因此“实际”和朴素基线列没有距离（—）；"
        "n/a：此窗口无法测量。"
    ),
    "twin.cdf_title": "留出窗口的等待时间分布",
    "twin.cdf_x": "等待时间（秒，对数刻度；不足 1 秒的画在 1 秒处）",
    "twin.cdf_y": "等待不超过此时长的作业占比",
    "twin.series_observed": "实际",
    "twin.series_after": "校准后的回放",
    "twin.series_before": "普通回放（p50、p90、p99）",
    "twin.cdf_caption": "普通回放未保留每个作业的等待时间，因此只画出其三个分位数。",
    "twin.no_cdf": "留出窗口中没有在历史和回放中都启动过的作业。",
    "twin.latency": "按 Pod 规格分类的启动延迟",
    "twin.latency_caption": (
        "启动延迟是作业从提交到进入队列之间的时间：准入、调度周期，以及集群其余部分繁忙时的重试。"
        "它由拟合窗口中在回放里没有遇到争用的作业拟合而来，并在校准后场景的每次回放中加在启动时。"
    ),
    "twin.col_class": "Pod 规格分类",
    "twin.col_jobs": "作业数",
    "twin.col_p50": "p50",
    "twin.col_p90": "p90",
    "twin.col_never": "从未被放置",
    "twin.no_latency": "拟合窗口中没有无争用启动的作业：未拟合启动延迟。",
    "twin.capacity": (
        "有效容量：节点列表的 {share}（{total} 个 GPU 中的 {gpus} 个）最能重现拟合窗口的等待时间；"
        "其余部分被此历史未记录的工作占用。"
    ),
    "twin.policy": (
        "最能解释实际启动顺序的策略：{admission} 准入，{queueing} 排队"
        "（得分 {score}；0 表示完全吻合）。"
    ),
    "twin.scores": "尝试过的每个容量和策略的得分",
    "twin.col_share": "占节点列表的比例",
    "twin.col_gpus": "GPU 数",
    "twin.col_score": "得分（0：完全吻合）",
    "twin.col_policy": "准入 / 排队",
    "twin.by_size": "按 GPU 规格",
    "twin.by_team": "按团队",
    "twin.groups_caption": "留出窗口：实际与校准后的等待时间。",
    "twin.col_group_size": "每个作业的 GPU 数",
    "twin.col_group_team": "团队",
    "twin.col_obs_q": "实际 {q}",
    "twin.col_cal_q": "校准后 {q}",
    "twin.download": "下载每个作业的对比表（CSV）",
    "twin.save": "保存校准后的场景",
    "twin.save_caption": (
        "带有拟合的启动延迟、策略和 `calibration:` 块的场景：在本页或“比较”页面对它的每次回放，"
        "都以留出窗口的误差作为误差范围。"
    ),
    "twin.error_bar": (
        "在 {fitted_on} 上校准：在留出窗口中，回放的 p50/p90/p99 等待时间为实际的 "
        "×{p50}/×{p90}/×{p99}，撤回作业为 ×{withdrawn}"
    ),
    "twin.error_bar_named": "场景 {name}：{line}",
    "twin.a_history": "某个历史记录",
}
