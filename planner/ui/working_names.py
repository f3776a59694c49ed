"""The working scenario named for what is in use: the session's chosen trace and the cluster
on the Cluster & policy page, not the bundled sample's names once either is the user's own.

The sample scenario is named "sample on 128 nodes" and reads `../traces/sample.csv`; after a
manager picks their own job history or imports their nodes, the label on every page and the
YAML they download or save say so: `trace:` is the stored trace's id, and the name (if it is
still the sample's) becomes "<trace> on <N nodes>".
"""

from pathlib import Path

import streamlit as st

from planner.core.errors import PlannerError
from planner.engine.scenario import ClusterSpec, Scenario
from planner.ui import cache, trace_choice
from planner.ui.i18n import t
from planner.ui.replay_view import default_scenario


def in_use(scenario: Scenario, trace_id: str | None = None) -> Scenario:
    """`scenario` on `trace_id` (default: the session's chosen trace), renamed for it and
    its cluster when it still carries the sample's name but no longer is the sample."""
    chosen = trace_id or st.session_state.get(trace_choice.CHOSEN_KEY)
    if not chosen:
        return scenario
    try:
        sample_id = cache.sample_trace()
        names = {row["trace_id"]: row["name"] for row in cache.stored_traces()}
    except PlannerError:
        return scenario  # the page itself says what is wrong with the store
    if chosen not in names:
        return scenario
    sample = default_scenario()
    own_trace = chosen != sample_id
    update: dict[str, object] = {"trace": chosen} if own_trace else {}
    if scenario.name == sample.name and (own_trace or scenario.cluster != sample.cluster):
        trace = Path(str(names[chosen])).stem or chosen
        update["name"] = t("options.working_name", trace=trace, cluster=_nodes(scenario.cluster))
    return scenario.model_copy(update=update) if update else scenario


def _nodes(cluster: ClusterSpec | None) -> str:
    if cluster is None:
        return t("cluster.summary.no_cluster")
    if cluster.node_list:
        return Path(cluster.node_list).stem
    count = sum(pool.count for pool in cluster.pools) + len(cluster.nodes)
    if count == 1:
        return t("cluster.summary.nodes.one")
    return t("cluster.summary.nodes.many", n=count)
