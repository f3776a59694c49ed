"""What the Capacity page says binds a sizing answer (`planner.service.sweep_bound`): the
wait target or the floor the largest job sets (the job named, with its GPUs), and how many
servers meet the target without the few largest jobs, which are listed in a table. As
`planner sweep --target` prints it. Nothing here draws a widget."""

import pandas as pd

from planner.service.sweep_bound import Bound, count_of
from planner.service.sweep_floor import Floor
from planner.ui.i18n import Language, t


def sentence(bound: Bound, lang: Language) -> str:
    """What binds the answer, the floor's job, then the answer without the largest jobs;
    job ids and GPU names as they are (escape the whole before Markdown)."""
    text = t(f"capacity.bound.{bound.binds}", lang) + floor_words(bound.floor, lang)
    rest = bound.rest
    if rest is None:
        return text
    floor = bound.floor
    aside = {
        "jobs": f"{len(bound.aside):,}",
        "floor": f"{floor.servers:,}",
        "hours": f"{bound.aside_gpu_hours:,.1f}",
        "share": f"{bound.aside_gpu_hours / bound.gpu_hours:.1%}" if bound.gpu_hours else "–",
        "points": f"{len(rest.tried):,}",
    }
    servers = count_of(rest.answer)
    if servers is None:
        return text + t("capacity.bound_rest_none", lang, ceiling=f"{rest.ceiling:,}", **aside)
    above = f"{floor.jobs_above(servers):,}"
    text += t("capacity.bound_rest", lang, servers=f"{servers:,}", above=above, **aside)
    nxt = bound.rest_floor
    if nxt is not None and nxt.job is not None and nxt.servers == servers:
        text += t("capacity.bound_rest_floor", lang, servers=f"{servers:,}", **_job(nxt))
    return text


def floor_words(floor: Floor, lang: Language) -> str:
    """'Job j7 asks for 64 A100 GPUs (8 pods × 8), so no count below 8 servers of 8 A100
    runs it; 1 job needs 8.' in `lang`."""
    if floor.job is None:
        return t("capacity.floor_none", lang, gpu=floor.gpu)
    return t("capacity.floor", lang, floor=f"{floor.servers:,}", **_job(floor))


def _job(floor: Floor) -> dict[str, str]:
    job = floor.job
    assert job is not None
    return {
        "job": job.job_id,
        "gpus": f"{job.gpus:,g}",
        "gpu": floor.gpu,
        "pods": f"{job.pods:,}",
        "per_pod": f"{job.gpus / job.pods:g}",
        "per_server": str(floor.gpus_per_server),
        "jobs": f"{len(floor.largest):,}",
    }


def aside_table(bound: Bound, lang: Language) -> pd.DataFrame:
    """One row per job set aside: its id, GPUs, the servers it needs and its GPU-hours."""
    gpu = bound.floor.gpu
    return pd.DataFrame(
        {
            t("capacity.aside_col.job", lang): [g.job_id for g in bound.aside],
            t("capacity.aside_col.gpus", lang): [g.gpus for g in bound.aside],
            t("capacity.aside_col.servers", lang, gpu=gpu): [g.servers for g in bound.aside],
            t("capacity.aside_col.gpu_hours", lang): [round(g.gpu_hours, 1) for g in bound.aside],
        }
    )
