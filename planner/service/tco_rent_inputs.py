"""What renting reads besides the kept bills (`planner.service.tco_rent`): the jobs as the
cloud bills them, and a node pool's provisioning and scale-down delays with a note for each
one the option does not give itself.
"""

from planner.core.model import Job, is_useful
from planner.core.notes import note
from planner.cost.cloud import CloudJob
from planner.cost.pool_defaults import POOL_DEFAULTS
from planner.cost.scenario import CloudSpec
from planner.service.tco_inputs import Inputs, SetValue
from planner.service.tco_trail import Trail, said
from pricing import DEFAULT_SET


def pool_delays(spec: CloudSpec, inputs: Inputs) -> tuple[tuple[float, SetValue | None], ...]:
    """The pool's provisioning and scale-down delays: as the option gives them, else the
    assumption set's (with the item they came from), else the model's defaults."""
    given = (spec.provisioning_s, spec.scale_down_s)
    found: list[tuple[float, SetValue | None]] = []
    for value, book, default in zip(given, inputs.pool_delays, POOL_DEFAULTS, strict=True):
        if value is not None:
            found.append((value, None))
        else:
            found.append((default.value, None) if book is None else (book.value, book))
    return tuple(found)


def delays_noted(spec: CloudSpec, inputs: Inputs) -> Trail:
    """A note for each delay a pooled option takes from the assumption set or the model."""
    trail = Trail()
    given = (spec.provisioning_s, spec.scale_down_s)
    delays = pool_delays(spec, inputs)
    for (value, book), default, own in zip(delays, POOL_DEFAULTS, given, strict=True):
        if own is not None:
            continue
        source = book.item if book is not None else default
        trail += said(
            note(
                f"{default.name.replace('.', '_')}_assumed",
                option=spec.label(),
                seconds=f"{value:g}",
                # the model's defaults are reference-defaults' rows (a test holds them equal)
                set=inputs.set_name if book is not None else DEFAULT_SET,
                confidence=source.confidence,
            )
        )
    return trail


def gpu_model(job: Job) -> str:
    """The GPU the job's run time was measured on ('' = the reference GPU)."""
    return job.gpu_types[0] if job.gpu_types else ""


def cloud_jobs(jobs: list[Job], exclude_failed: bool) -> list[CloudJob]:
    """Jobs as the cloud bills them (failed ones useful unless `exclude_failed`)."""
    return [
        CloudJob(
            j.job_id,
            j.submit_s,
            j.duration_s,
            j.pods,
            j.gpus,
            gpu_model(j),
            useful=is_useful(j, exclude_failed=exclude_failed),
            cpu=j.cpu,
            mem_gib=j.mem_gib,
        )
        for j in jobs
    ]
