"""Renting a trace's jobs: each cloud option's bill (every job on its cheapest SKU), for
`planner.service.tco_run`.

A sweep replays the same jobs at every point against the same cloud options; only the owned
servers change, and the cloud's bill does not depend on them. Billing a 100,000-job trace was a
quarter of a point's time, so inside `bills_kept()` (a sweep's worker, or a sweep priced in
this process) bills are kept and reused. A kept bill is found by everything it is computed
from: the very job objects in their order (jobs are frozen; the kept bill holds them, so their
ids stay theirs), whether failed jobs count as useful, and the exact text (`repr`) of the SKUs
and terms the price book gave; a commitment's share is kept by its size and price the same
way. The price-book look-ups, notes and sources run at every point as before, in the same
order, so a report is the same object as without keeping, to the bit. What is summed from a
kept bill over its jobs (the ledger's hours, the team's hours) and the trace's demand are kept
beside it: at 1,000,000 jobs they were a third of a point's pricing after the replay. Outside
`bills_kept()` nothing is kept (the app's TCO runs hold no memory after they end).
"""

import hashlib
import math
import threading
from array import array
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from planner.core.model import Job
from planner.core.notes import note
from planner.cost import tco
from planner.cost.chargeback_usage import team_hours
from planner.cost.cloud import CloudBill, Sku, Spot, Terms, price_jobs, with_commitment
from planner.cost.inputs import CloudInputs
from planner.cost.ledger import Hours, PricedBill, demanded
from planner.cost.node_pool import Committed, PoolSettings
from planner.cost.node_pool_cloud import PoolPriced, price_on_pool
from planner.cost.packing_facts import PackingFacts, per_job_facts, pool_facts, scaled
from planner.cost.scenario import CloudSpec, TcoScenario
from planner.service.bill_packing import (
    PackedBill,
    PackedPool,
    pack_bill,
    pack_pool,
    unpack_bill,
    unpack_pool,
)
from planner.service.tco_bills import cloud_bill
from planner.service.tco_inputs import Inputs, cpu_rate, per_gpu_hour, skus
from planner.service.tco_rent_inputs import cloud_jobs, delays_noted, gpu_model, pool_delays
from planner.service.tco_trail import Trail, said
from planner.store import Connection

KEPT_BILLS = 4
"""Bills kept at most (least recently used dropped): a sweep uses one per cloud option, or
per option and year with growth."""


@dataclass(frozen=True, slots=True)
class _Jobs:
    """Jobs as the cloud bills them, and what the notes ask of them."""

    billed: list[Job]
    withdrawn: list[Job]
    """Deleted while they waited: no run time, so the cloud rents nothing for them."""
    cpu_only: bool
    """Whether any billed job asks for no GPU (then a CPU rate is looked up)."""
    models: frozenset[str]
    """The GPUs (upper case) the GPU jobs' run times were measured on, where named."""


@dataclass(slots=True)
class _Kept:
    """One bill with the jobs it billed (holding them keeps their ids unique); bills are
    kept packed (`planner.service.bill_packing`) and unpacked at each use."""

    jobs: _Jobs
    bill: PackedBill
    committed: dict[str, PackedBill] = field(default_factory=dict)
    """The bill with a commitment, by the commitment's size and price (`repr`)."""
    pool: PackedPool | None = None
    """`packing: pool`: the node pool's bill (its commitment included)."""
    facts: PackingFacts | None = None
    """Per job: what its packing costs (a pool's come from `pool`)."""


@dataclass(slots=True)
class _Bills:
    kept: OrderedDict[tuple[str, str], _Kept] | None = None
    """None: nothing is kept (outside `bills_kept`)."""
    sums: OrderedDict[tuple[object, ...], tuple[object, Hours, dict[str, float]]] | None = None
    """Sums over a kept bill's jobs (or a trace's demand), with what they were summed from:
    the key names it by `id`s (the bill's, or its jobs' as `_jobs_key`), and holding it
    keeps those ids its own."""
    users: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


_BILLS = _Bills()


@contextmanager
def bills_kept() -> Iterator[None]:
    """Keep cloud bills for reuse while the block runs (blocks may nest, or run in threads:
    the bills go when the last one ends)."""
    with _BILLS.lock:
        _BILLS.users += 1
        if _BILLS.kept is None:
            _BILLS.kept = OrderedDict()
            _BILLS.sums = OrderedDict()
    try:
        yield
    finally:
        with _BILLS.lock:
            _BILLS.users -= 1
            if _BILLS.users == 0:
                _BILLS.kept = None
                _BILLS.sums = None


@dataclass(frozen=True, slots=True)
class Rentals:
    """Every cloud option renting a trace's jobs, a month each (the scenario's order)."""

    clouds: tuple[CloudInputs, ...]
    """Each option's money a month and its bill as quantities at prices."""
    runs: list[Hours]
    """Where each option served the jobs (the ledger's runs)."""
    usage: dict[str, dict[str, float]]
    """GPU-hours by team, by option (the chargeback's)."""
    trail: Trail


def rent_all(
    con: Connection, scenario: TcoScenario, inputs: Inputs, jobs: list[Job], scale: float
) -> Rentals:
    """Every cloud option of `scenario` renting `jobs`; `scale`: months per trace span."""
    clouds: list[CloudInputs] = []
    runs: list[Hours] = []
    usage: dict[str, dict[str, float]] = {}
    trail = Trail()
    for spec in scenario.cloud:
        rented, (priced, source), found = _rent(con, spec, inputs, jobs, scenario, scale=scale)
        facts = None if priced.facts is None else scaled(priced.facts, scale)
        clouds.append(CloudInputs(rented, cloud_bill(spec, priced, scale), facts))
        outcome, by_team = _rented_hours(priced, source, scale)
        runs.append(outcome)
        usage[rented.name] = by_team
        trail += found
    return Rentals(tuple(clouds), runs, usage, trail)


def _rented_hours(
    priced: PricedBill, source: object | None, scale: float
) -> tuple[Hours, dict[str, float]]:
    """The bill's ledger hours and GPU-hours by team, a month; summed once per kept bill.
    `source`: the packed bill it was unpacked from (each point unpacks a new object), or None
    when it is not kept."""
    origin = priced.bill if source is None else source
    key = ("rented", id(origin), repr(priced.cpu), scale)
    found = _summed(key)
    if found is None:
        found = (priced.outcome("rented").scaled(scale), team_hours(priced.jobs, scale))
        _keep_sum(key, origin, found)
    outcome, by_team = found
    return _copy(outcome), dict(by_team)


def demand_of(jobs: list[Job]) -> Hours:
    """`ledger.demanded(jobs)`, summed once per jobs (the same objects in the same order)
    inside `bills_kept()`."""
    key = ("demanded", _jobs_key(jobs, exclude_failed=False))
    found = None if key[1] is None else _summed(key)
    if found is None:
        found = (demanded(jobs), {})
        _keep_sum(key, jobs, found)
    return _copy(found[0])


def _summed(key: tuple[object, ...]) -> tuple[Hours, dict[str, float]] | None:
    with _BILLS.lock:
        entry = None if _BILLS.sums is None else _BILLS.sums.get(key)
        if entry is None:
            return None
        _BILLS.sums.move_to_end(key)  # type: ignore[union-attr]
        return entry[1], entry[2]


def _keep_sum(
    key: tuple[object, ...], source: object, summed: tuple[Hours, dict[str, float]]
) -> None:
    with _BILLS.lock:
        if _BILLS.sums is None:
            return
        _BILLS.sums[key] = (source, *summed)
        while len(_BILLS.sums) > 2 * KEPT_BILLS:
            _BILLS.sums.popitem(last=False)


def _copy(hours: Hours) -> Hours:
    """A kept sum's own copy (an `Hours` is mutable)."""
    return Hours(dict(hours.gpu), dict(hours.cpu), hours.per_job_cost)


def _rent(
    con: Connection,
    spec: CloudSpec,
    inputs: Inputs,
    jobs: list[Job],
    scenario: TcoScenario,
    *,
    scale: float,
) -> tuple[tco.Rented, tuple[PricedBill, object | None], Trail]:
    """The cloud option `spec` renting every job, and the packed bill it is kept as (None
    outside `bills_kept`); money per month (the trace's span x `scale`)."""
    priced, trail, source = _billed(con, spec, inputs, jobs, scenario, keep=True)
    if spec.packing == "pool":
        trail += delays_noted(spec, inputs)
    bill = priced.bill
    if bill.unpriced:
        first = next(iter(bill.unpriced.values()))
        count = len(bill.unpriced)
        trail += said(note("unpriced_jobs", option=spec.label(), count=count, first=first))
    per_month = {
        "cloud_compute": bill.compute * scale,
        "commitment": bill.commitment * scale,
        "overflow": bill.overflow * scale,
        "spot_overhead": bill.spot_overhead * scale,
        **({"cloud_cpu": bill.cpu_compute * scale} if bill.cpu_jobs else {}),
        **spec.data_costs(),
    }
    useful = bill.useful_gpu_hours
    per_gpu_hour = bill.total / useful if useful else 0.0
    mean, p95 = _waits(spec, priced)
    rented = tco.Rented(spec.label(), per_month, per_gpu_hour, useful * scale, mean, p95)
    return rented, (priced, source), trail


def _waits(spec: CloudSpec, priced: PricedBill) -> tuple[float, float]:
    """A job's wait (mean, p95): its start-up, and on a node pool its wait for room under
    the cap and for its instance to be ready."""
    if priced.pool is None:
        return spec.startup_s, spec.startup_s
    waits = priced.pool.waits.total
    return spec.startup_s + (waits.mean or 0.0), spec.startup_s + (waits.p95 or 0.0)


def bill_jobs(
    con: Connection,
    spec: CloudSpec,
    inputs: Inputs,
    jobs: list[Job],
    scenario: TcoScenario,
    *,
    keep: bool = False,
) -> tuple[PricedBill, Trail]:
    """`jobs` billed by the cloud option `spec`; `keep`: reuse and keep the bill inside
    `bills_kept()` (a hybrid's bursts differ at every point: not worth keeping)."""
    priced, trail, _ = _billed(con, spec, inputs, jobs, scenario, keep=keep)
    return priced, trail


def _billed(
    con: Connection,
    spec: CloudSpec,
    inputs: Inputs,
    jobs: list[Job],
    scenario: TcoScenario,
    *,
    keep: bool,
) -> tuple[PricedBill, Trail, object | None]:
    """`bill_jobs`, and the packed bill the bill is kept as (None: not kept)."""
    jobs_key = _jobs_key(jobs, scenario.exclude_failed) if keep else None
    split = _find(jobs_key) or _split(jobs)
    # committed capacity is paid at the option's price; the demand above it as `overflow`
    # bills it (this option on demand unless it names another)
    committed = spec.committed_gpus
    billed_by = scenario.overflow_of(spec) if committed else spec
    cpu, trail = cpu_rate(spec, inputs) if split.cpu_only else (None, Trail())
    found, looked_up = skus(con, billed_by, inputs)
    commit, commit_found = per_gpu_hour(con, spec, inputs) if committed else (None, Trail())
    speed = {tuple(k.upper().split("/", 1)): v for k, v in scenario.speed.items()}
    trail += looked_up + _speed_note(spec, split, found, bool(speed)) + commit_found
    spot = Spot(**billed_by.spot.model_dump()) if billed_by.spot else None
    terms = Terms(speed=speed, startup_s=spec.startup_s, spot=spot, cpu=cpu)  # type: ignore[arg-type]
    if spec.packing == "pool":
        settings = _settings(spec, inputs, (found, committed, commit))
        pool, packed = _pool(split, (found, terms, settings), jobs_key, scenario.exclude_failed)
        delays = (settings.provisioning_s, settings.scale_down_s)
        facts = pool_facts(pool.pool, delays, spot.interruptions_per_hour if spot else None)
        kept = (pool.bill, pool.types, cpu, split.billed, split.withdrawn)
        return PricedBill(*kept, pool=pool.pool, facts=facts), trail, packed
    key = None if jobs_key is None else (jobs_key, repr((found, terms)))
    bill, facts, entry = _per_job(split, (found, terms), key, scenario.exclude_failed)
    source = None if entry is None else entry.bill
    if committed and commit is not None:
        commitment = (committed, commit)
        bill = _committed(entry, bill, split, (found, commitment), scenario.exclude_failed)
        source = None if entry is None else entry.committed[repr(commitment)]
    priced = PricedBill(bill, found, cpu, split.billed, split.withdrawn, facts=facts)
    return priced, trail, source


def _per_job(
    split: _Jobs, inputs: tuple[list[Sku], Terms], key: tuple[str, str] | None, exclude_failed: bool
) -> tuple[CloudBill, PackingFacts, _Kept | None]:
    """Every job on instances of its own: the bill, its packing facts, and the entry it is
    kept in by `key` (None: outside `bills_kept`, not kept)."""
    entry = _lookup(key)
    if entry is not None:
        assert entry.facts is not None  # a per-job entry keeps its facts
        return unpack_bill(entry.bill), entry.facts, entry
    found, terms = inputs
    billed = cloud_jobs(split.billed, exclude_failed)
    bill = price_jobs(billed, found, terms)
    facts = per_job_facts(billed, bill, found, terms)
    if key is None:
        return bill, facts, None
    entry = _Kept(split, pack_bill(bill), facts=facts)  # packed only to be kept: it costs a pass
    _store(key, entry)
    return bill, facts, entry


def _settings(
    spec: CloudSpec, inputs: Inputs, commitment: tuple[list[Sku], float | None, float | None]
) -> PoolSettings:
    """The option's node pool; a commitment as instances of its largest SKU, enough to
    hold the committed GPUs, paid at the committed price per GPU-hour."""
    found, committed, price = commitment
    kept: tuple[Committed, ...] = ()
    if committed and price is not None and found:
        sku = max(found, key=lambda s: (s.gpus_per_instance, -s.price_per_hour))
        count = math.ceil(committed / sku.gpus_per_instance - 1e-9)
        per_hour = price * sku.gpus_per_instance
        kept = (
            Committed(replace(sku, name=f"{sku.name} committed", price_per_hour=per_hour), count),
        )
    provisioning, scale_down = (value for value, _ in pool_delays(spec, inputs))
    return PoolSettings(
        provisioning_s=provisioning,
        scale_down_s=scale_down,
        max_instances=spec.max_instances,
        committed=kept,
    )


def _pool(
    split: _Jobs,
    inputs: tuple[list[Sku], Terms, PoolSettings],
    jobs_key: str | None,
    exclude_failed: bool,
) -> tuple[PoolPriced, PackedPool | None]:
    """The node pool's bill, kept (packed) by its jobs, SKUs, terms and pool settings."""
    key = None if jobs_key is None else (jobs_key, repr(("pool", *inputs)))
    entry = _lookup(key)
    if entry is not None and entry.pool is not None:
        return unpack_pool(entry.pool), entry.pool
    found, terms, settings = inputs
    pool = price_on_pool(cloud_jobs(split.billed, exclude_failed), found, settings, terms)
    if key is None:
        return pool, None
    packed = pack_pool(pool)  # only for a bill kept: packing costs a pass over the jobs
    _store(key, _Kept(split, packed.bill, pool=packed))
    return pool, packed


def _speed_note(spec: CloudSpec, split: _Jobs, found: list[Sku], has_speed: bool) -> Trail:
    """A note when jobs measured on GPUs the option does not rent are priced at speed 1."""
    models = {s.gpu_model for s in found}
    if not has_speed and any(m not in models for m in split.models):
        return said(note("speed_default", option=spec.label()))
    return Trail()


def _split(jobs: list[Job]) -> _Jobs:
    billed = [j for j in jobs if j.status != "withdrawn"]
    return _Jobs(
        billed,
        [j for j in jobs if j.status == "withdrawn"],
        any(j.pods * j.gpus <= 0 for j in billed),  # `CloudJob.is_cpu_only`
        frozenset(gpu_model(j).upper() for j in billed if j.gpus and gpu_model(j)),
    )


def _committed(
    entry: _Kept | None,
    bill: CloudBill,
    split: _Jobs,
    terms: tuple[list[Sku], tuple[float, float]],
    exclude_failed: bool,
) -> CloudBill:
    """`bill` (of the `split` jobs; `entry`'s unpacked, if kept) on the SKUs found with a
    commitment of (GPUs, price per GPU-hour), kept in `entry`."""
    found, commitment = terms
    key = repr(commitment)
    if entry is not None and key in entry.committed:
        return unpack_bill(entry.committed[key])
    gpus, price = commitment
    billed = cloud_jobs(split.billed, exclude_failed)
    out = with_commitment(bill, billed, found, committed_gpus=gpus, commit_price_per_gpu_hour=price)
    if entry is not None:
        entry.committed[key] = pack_bill(out)
    return out


def _jobs_key(jobs: list[Job], exclude_failed: bool) -> str | None:
    """The job objects' identities in order, hashed (None outside `bills_kept`)."""
    if _BILLS.kept is None:
        return None
    ids = array("Q", map(id, jobs)).tobytes()
    return f"{hashlib.blake2b(ids, digest_size=16).hexdigest()}:{len(jobs)}:{exclude_failed}"


RentedSum = tuple[str, tuple[object, ...], Hours, dict[str, float]]
"""A kept bill's rented sums: which of its packed bills, the rest of the key, the sums."""


@dataclass(frozen=True, slots=True)
class ShippedBills:
    """Kept bills without their jobs, and what was summed from them, to keep in another
    process for equal jobs (`keep_shipped`)."""

    bills: list[tuple[bool, str, _Kept, list[RentedSum]]]
    """Per bill: whether failed jobs count as useful, what else keys it (the SKUs' and terms'
    text), the bill, and its rented sums (which packed bill, the rest of the key, the sums)."""
    demanded: Hours | None


def kept_bills(jobs: list[Job]) -> ShippedBills:
    """The bills kept for `jobs` (these objects), without them: a sweep bills its jobs once
    and its workers keep the bills for their own equal jobs (issue 33)."""
    bills: list[tuple[bool, str, _Kept, list[RentedSum]]] = []
    with _BILLS.lock:
        sums = _BILLS.sums or OrderedDict()
        for (jobs_key, rest), entry in (_BILLS.kept or {}).items():
            for exclude_failed in (False, True):
                if jobs_key != _jobs_key(jobs, exclude_failed):
                    continue
                named = {id(packed): name for name, packed in _packed(entry).items()}
                rented = [
                    (named[key[1]], key[2:], hours, by_team)
                    for key, (_, hours, by_team) in sums.items()
                    if key[0] == "rented" and key[1] in named
                ]
                bare = _Jobs([], [], entry.jobs.cpu_only, entry.jobs.models)
                bills.append((exclude_failed, rest, replace(entry, jobs=bare), rented))
        demanded = sums.get(("demanded", _jobs_key(jobs, exclude_failed=False)))
    return ShippedBills(bills, None if demanded is None else demanded[1])


def keep_shipped(shipped: ShippedBills, jobs: list[Job]) -> None:
    """Keep `shipped` bills (`kept_bills`) and their sums as those of `jobs`, which must equal
    the jobs they were billed for in every field a bill reads, in the same order; inside
    `bills_kept()`."""
    split = _split(jobs)
    for exclude_failed, rest, entry, rented in shipped.bills:
        kept = replace(entry, jobs=split)
        _store((_jobs_key(jobs, exclude_failed) or "", rest), kept)
        packed = _packed(kept)
        for name, tail, hours, by_team in rented:
            _keep_sum(("rented", id(packed[name]), *tail), packed[name], (hours, by_team))
    if shipped.demanded is not None:
        _keep_sum(("demanded", _jobs_key(jobs, exclude_failed=False)), jobs, (shipped.demanded, {}))


def _packed(entry: _Kept) -> dict[str, object]:
    """A kept entry's packed bills by name (a point's rented sums are keyed by their ids)."""
    found: dict[str, object] = {"bill": entry.bill}
    if entry.pool is not None:
        found["pool"] = entry.pool
    found |= {f"committed {key}": bill for key, bill in entry.committed.items()}
    return found


def _find(jobs_key: str | None) -> _Jobs | None:
    """These jobs as split for any kept bill of theirs."""
    with _BILLS.lock:
        if jobs_key is None or _BILLS.kept is None:
            return None
        return next((v.jobs for (k, _), v in _BILLS.kept.items() if k == jobs_key), None)


def _lookup(key: tuple[str, str] | None) -> _Kept | None:
    with _BILLS.lock:
        if key is None or _BILLS.kept is None or key not in _BILLS.kept:
            return None
        _BILLS.kept.move_to_end(key)
        return _BILLS.kept[key]


def _store(key: tuple[str, str] | None, entry: _Kept) -> None:
    with _BILLS.lock:
        if key is None or _BILLS.kept is None:
            return
        _BILLS.kept[key] = entry
        while len(_BILLS.kept) > KEPT_BILLS:
            _BILLS.kept.popitem(last=False)
