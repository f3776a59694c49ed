"""A sweep's jobs shipped once to its worker processes, as columns in files they memory-map.

The parent writes each column of `planner.store.traces.JOB_COLUMNS` into a folder: numbers as
NumPy `.npy` arrays (a missing time as NaN), texts as codes into their distinct values, and
job ids as one UTF-8 blob with offsets. Each worker maps the files and builds its jobs chunk
by chunk with `job_chunks.jobs_from_columns`, so at no time does it hold more than its jobs and
one chunk's lists: the pickle every worker used to receive (9 MB per 100,000 jobs), and the
tuples it unpickled to, are gone. The files are the parent's folder's (`sweep_run._Pool`),
removed when the pool ends. NumPy stops here: the engine gets plain `Job`s.
"""

import json
import operator
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path

import numpy as np

from planner.core.model import Job
from planner.service.job_chunks import Sharing, jobs_from_columns

CHUNK = 65_536
"""Jobs built at a time in a worker: each column's chunk is a list of plain values while its
jobs are built (about 10 MB for this many)."""

_NUMBERS: tuple[tuple[str, str, type], ...] = (
    ("submit_s", "submit_s", np.float64),
    ("duration_s", "duration_s", np.float64),
    ("pods", "pods", np.int64),
    ("gpus", "gpus", np.float64),
    ("cpu", "cpu", np.float64),
    ("mem_gib", "mem_gib", np.float64),
    ("priority", "priority", np.int64),
    ("start_s", "start_s", np.float64),
    ("end_s", "end_s", np.float64),
    ("withdraw_after_s", "withdraw_after_s", np.float64),
    ("running_at_start", "running_at_start", np.bool_),
)
"""(column, `Job` field, type) of every number; a float column's None is written as NaN,
which `jobs_from_columns` reads back as None."""

_TEXTS: tuple[tuple[str, Callable[[Job], str]], ...] = (
    ("gpu_types", lambda job: "|".join(job.gpu_types)),  # as the store keeps them
    ("queue", operator.attrgetter("queue")),
    ("user_name", operator.attrgetter("user")),
    ("status", operator.attrgetter("status")),
)
_OBSERVED = ("start_s", "end_s")
_TEXT_VALUES = "texts.json"
_IDS, _ID_ENDS = "job_id.bin", "job_id_ends.npy"


def write_jobs(jobs: Sequence[Job], folder: Path) -> None:
    """Write `jobs` as columns into `folder` (which exists), for `read_jobs`."""
    for column, name, kind in _NUMBERS:
        values: np.ndarray = np.array([getattr(job, name) for job in jobs], dtype=kind)  # None: NaN
        np.save(folder / f"{column}.npy", values)
    distinct: dict[str, list[str]] = {}
    for column, text in _TEXTS:
        codes: dict[str, int] = {}
        found = (codes.setdefault(text(job), len(codes)) for job in jobs)
        np.save(folder / f"{column}.npy", np.fromiter(found, dtype=np.int32, count=len(jobs)))
        distinct[column] = list(codes)
    (folder / _TEXT_VALUES).write_text(json.dumps(distinct), encoding="utf-8")
    # surrogatepass: any str a job id can hold goes through unchanged
    encoded = [job.job_id.encode("utf-8", "surrogatepass") for job in jobs]
    (folder / _IDS).write_bytes(b"".join(encoded))
    ends = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)).cumsum()
    np.save(folder / _ID_ENDS, ends)


def read_jobs(folder: Path, chunk: int = CHUNK, *, observed: bool = True) -> list[Job]:
    """The jobs `write_jobs` wrote into `folder`, equal to them, in their order.

    `observed=False`: without their observed start and end (None), which no sweep point
    reads (the replay makes its own, the cloud bills jobs by submit and run time): two
    floats a job, 48 bytes, a worker held for its life (issue 33).
    """
    maps = {column: _mapped(folder / f"{column}.npy") for column, _, _ in _NUMBERS}
    left_out = () if observed else _OBSERVED
    maps |= {column: _mapped(folder / f"{column}.npy") for column, _ in _TEXTS}
    distinct: dict[str, list[str]] = json.loads((folder / _TEXT_VALUES).read_text("utf-8"))
    ends = _mapped(folder / _ID_ENDS)
    ids = _mapped(folder / _IDS, raw=True)
    texts = {column: np.array(distinct[column], dtype=object) for column, _ in _TEXTS}
    sharing = Sharing()
    jobs: list[Job] = []
    for begin in range(0, len(ends), chunk):
        stop = min(begin + chunk, len(ends))
        columns = {
            column: np.full(stop - begin, np.nan)  # NaN: None
            if column in left_out
            else np.array(maps[column][begin:stop])
            for column, _, _ in _NUMBERS
        }
        for column, _ in _TEXTS:
            columns[column] = texts[column][maps[column][begin:stop]]
        columns["job_id"] = np.array(_ids(ids, ends, begin, stop), dtype=object)
        jobs += jobs_from_columns(columns, sharing)
    return jobs


def _mapped(path: Path, *, raw: bool = False) -> np.ndarray:
    """The file's array, memory-mapped (a zero-length blob cannot be mapped: read it)."""
    if raw:
        size = path.stat().st_size
        return np.memmap(path, dtype=np.uint8, mode="r") if size else np.zeros(0, np.uint8)
    mapped: np.ndarray = np.load(path, mmap_mode="r")
    return mapped


def _ids(blob: np.ndarray, ends: np.ndarray, begin: int, stop: int) -> list[str]:
    """Job ids `begin` to `stop` (exclusive), decoded from their bytes in the blob."""
    first = int(ends[begin - 1]) if begin else 0
    bounds = [first, *ends[begin:stop].tolist()]
    data = blob[first : bounds[-1]].tobytes()
    ids = (data[a - first : b - first] for a, b in pairwise(bounds))
    return [text.decode("utf-8", "surrogatepass") for text in ids]
