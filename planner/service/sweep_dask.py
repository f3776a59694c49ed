"""A sweep's points priced on a Dask distributed cluster (`planner sweep --cluster ADDRESS`).

The same pure `price_point` as the local pool, so a point's result is the same on any machine.
What every point shares travels once per worker, not once per point: a worker plugin carries
the sweep (scenario and jobs) and the price book as bytes; its setup writes the book to the
worker's own temporary DuckDB file and opens it once (DuckDB lets one process at a time use a
file). Then one task per point; results come back as they finish, so the caller stores each
at once and Ctrl-C keeps them (the outstanding tasks are cancelled). Unregistering the plugin
closes and deletes the workers' copies.

Imported only when a sweep names a cluster: the CLI and the app never load Dask otherwise.
"""

import os
import shutil
import tempfile
import threading
import uuid
from collections.abc import Generator, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path

from distributed import Client, LocalCluster, Security, WorkerPlugin, as_completed, get_worker

from planner.core.errors import PlannerError
from planner.service.sweep_keys import Point
from planner.service.sweep_point import PointResult, price_point
from planner.service.sweep_run import Price, Sweep, pack, unpack
from planner.service.tco_rent import bills_kept
from planner.store import Connection, open_store
from planner.store.sweeps import copy_price_book

LOCAL = "local"
"""`--cluster local` or `local:N`: a cluster of N worker processes on this machine's loopback."""


@contextmanager
def dask_pricing(con: Connection, sweep: Sweep, address: str) -> Iterator[Price]:
    """A function pricing points on the cluster at `address` (in the order they finish), for
    as many calls as the block makes: the cluster is reached, and the sweep shipped to its
    workers, at the first call with points, once; the workers' copies go when the block ends."""
    with ExitStack() as stack:
        shipped: list[tuple[Client, str]] = []

        def price(todo: Sequence[Point]) -> Generator[PointResult]:
            if not todo:
                return
            if not shipped:
                client = stack.enter_context(_client(address))
                name = f"planner-sweep-{uuid.uuid4().hex}"
                client.register_plugin(SweepPlugin(pack(sweep), _price_book(con)), name=name)
                stack.callback(_unregister, client, name)
                shipped.append((client, name))
            yield from _priced(*shipped[0], todo)

        yield price


def _priced(client: Client, name: str, todo: Sequence[Point]) -> Iterator[PointResult]:
    futures = [client.submit(_price, name, point, pure=False) for point in todo]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:  # Ctrl-C, an error, or the caller stopped: nothing of this call left to run
        with suppress(Exception):
            client.cancel(futures)


def _unregister(client: Client, name: str) -> None:
    """The workers' copies of the sweep and price book gone."""
    with suppress(Exception):
        client.unregister_worker_plugin(name)


def parse_cluster(address: str) -> tuple[str, int | None]:
    """(`local`, N or None for all cores) or (a scheduler address, None)."""
    if address != LOCAL and not address.startswith(f"{LOCAL}:"):
        return address, None
    count = address.removeprefix(LOCAL).removeprefix(":")
    if not count:
        return LOCAL, None
    if not count.isdigit() or int(count) < 1:
        raise PlannerError(f"--cluster {address}: write local or local:N with N 1 or more")
    return LOCAL, int(count)


@contextmanager
def _client(address: str) -> Iterator[Client]:
    where, workers = parse_cluster(address)
    if where == LOCAL:
        with local_cluster(workers or os.cpu_count() or 1) as cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(where, timeout="30s", security=_security(where))
    except (OSError, ValueError) as err:
        raise PlannerError(
            f"--cluster {where}: cannot reach a Dask scheduler there ({err}); start one with "
            "`dask scheduler` and workers with `dask worker ADDRESS`, or use --cluster local"
        ) from err
    with client:
        yield client


def _security(where: str) -> Security:
    """Dask's own TLS settings (its configuration, or DASK_DISTRIBUTED__COMM__TLS__CA_FILE,
    ..._CLIENT__CERT and ..._CLIENT__KEY); a tls:// address without them is refused."""
    security = Security()
    if where.startswith("tls://") and getattr(security, "tls_ca_file", None) is None:
        raise PlannerError(
            f"--cluster {where}: a TLS scheduler needs its certificates; set "
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE, DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT "
            "and DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY (or Dask's configuration file)"
        )
    return security


def plain_remote(address: str) -> bool:
    """Whether `address` is a scheduler on another host over plain tcp:// (no encryption, no
    authentication: whoever reaches it can run code on its workers)."""
    if not address.startswith("tcp://"):
        return False
    host = address.removeprefix("tcp://").rsplit(":", 1)[0].strip("[]")
    return host not in ("127.0.0.1", "localhost", "::1")


def local_cluster(workers: int) -> LocalCluster:
    """`workers` processes of one thread each on loopback (points are pure Python: threads
    would share one GIL)."""
    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        # its HTTP server (health, metrics; the dashboard too if bokeh is installed) on a free
        # loopback port: the default 8787 may be another cluster's, and then start-up fails
        dashboard_address="127.0.0.1:0",
    )


def _price_book(con: Connection) -> bytes:
    with tempfile.TemporaryDirectory(prefix="planner-sweep-") as folder:
        path = Path(folder) / "prices.duckdb"
        copy_price_book(con, path)
        return path.read_bytes()


# --- on a worker -----------------------------------------------------------------------------


class SweepPlugin(WorkerPlugin):
    """The sweep and a private copy of the price book, set up once on each worker."""

    def __init__(self, sweep: bytes, book: bytes) -> None:
        self.packed = sweep  # `sweep_run.pack`: unpacked once on each worker
        self.book = book

    def setup(self, worker: object) -> None:
        self.sweep = unpack(self.packed)
        self.folder = tempfile.mkdtemp(prefix="planner-sweep-worker-")
        path = Path(self.folder) / "prices.duckdb"
        path.write_bytes(self.book)
        self.con = open_store(path)
        self.bills = ExitStack()  # cloud bills reused from point to point, until teardown
        self.bills.enter_context(bills_kept())
        # a connection is not for two threads at once; points are pure Python (the GIL),
        # so a worker's threads would not price faster side by side anyway
        self.lock = threading.Lock()

    def teardown(self, worker: object) -> None:
        with self.lock:  # a point cancelled while running finishes first
            self.con.close()
            self.bills.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def _price(name: str, point: Point) -> PointResult:
    plugin = get_worker().plugins[name]
    assert isinstance(plugin, SweepPlugin)
    sweep = plugin.sweep
    with plugin.lock:
        return price_point(plugin.con, sweep.scenario, sweep.jobs, point, sweep.today)
