"""Bare-metal servers: price and power (max, idle, full load in kW) per GPU model.

Power follows the reference's linear model P(u) = idle + (load - idle) x u; `max_kw` is
what a colocation contract is sized on. Prices stay in their native currency.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from planner.store import Connection, doing, fetch_all, transaction
from pricing.errors import PricingError
from pricing.freshness import Freshness, freshness
from pricing.gpus import gpu_matches, parse_gpu
from pricing.models import ServerQuote
from pricing.problems import refuse_future, validated
from pricing.rows import SERVER_COLUMNS, SERVERS, Change, row_values, select_list, write_user_row
from pricing.seed import ensure_seeded


@dataclass(frozen=True, slots=True)
class ServerPrice:
    key: str
    origin: str
    gpu_model: str
    gpu_mem_gb: int | None
    gpu_form: str | None
    gpus_per_server: int
    price: float
    currency: str
    max_kw: float
    idle_kw: float
    load_kw: float
    as_of: date | None
    """None: an estimate without a source date (`unsourced`), never counted as fresh."""
    source: str
    confidence: str
    power_source: str
    power_confidence: str
    notes: str
    age_days: int | None
    is_stale: bool

    @property
    def unsourced(self) -> bool:
        return self.as_of is None


def list_servers(
    con: Connection,
    gpu: str | None = None,
    *,
    today: date | None = None,
    stale_days: int | None = None,
) -> list[ServerPrice]:
    """Stored servers (of one GPU model if `gpu` is given), by model and GPU count."""
    ensure_seeded(con)
    fresh = freshness(con, today=today, stale_days=stale_days)
    with doing("read the server prices", invalid=PricingError):
        rows = fetch_all(
            con,
            f"SELECT {select_list(SERVERS)} FROM server_prices "
            "ORDER BY gpu_model, gpus_per_server, key",
        )
    servers = [_server(row, fresh) for row in rows]
    if gpu:
        wanted = parse_gpu(gpu)
        servers = [s for s in servers if gpu_matches(wanted, s.gpu_model, s.gpu_mem_gb)]
    return servers


def _server(row: tuple[Any, ...], fresh: Freshness) -> ServerPrice:
    fields = dict(zip(("key", "origin", *SERVER_COLUMNS), row, strict=True))
    as_of = fields["as_of"]
    if as_of is None:
        return ServerPrice(**fields, age_days=None, is_stale=False)
    return ServerPrice(**fields, age_days=fresh.age_days(as_of), is_stale=fresh.is_stale(as_of))


def server_for(
    con: Connection,
    gpu: str,
    *,
    gpus_per_server: int | None = None,
    today: date | None = None,
) -> ServerPrice:
    """The server for a GPU model (the user's row before a seed row, then the newest; one
    without a source date comes last)."""
    found = [
        s
        for s in list_servers(con, gpu, today=today)
        if gpus_per_server is None or s.gpus_per_server == gpus_per_server
    ]
    if not found:
        size = f"{gpus_per_server}x" if gpus_per_server else ""
        raise PricingError(
            f"No bare-metal server price for {size}{gpu}; add one with `planner prices servers "
            f"add --gpu {gpu} --gpus {gpus_per_server or 8} --price P --currency C --as-of DATE "
            "--max-kw M --idle-kw I --load-kw L`."
        )
    return max(found, key=lambda s: (s.origin == "user", s.as_of or date.min))


def add_server(con: Connection, server: ServerQuote | Mapping[str, object]) -> tuple[str, Change]:
    """Store a server price as the user's: (key, change). Key defaults to e.g. "8xh100"."""
    ensure_seeded(con)
    if not isinstance(server, ServerQuote):
        server = validated(ServerQuote, server, "server")
    refuse_future(server, "server")
    with doing(f"save the server price {server.key}", invalid=PricingError), transaction(con):
        change = write_user_row(con, SERVERS, server.key, row_values(SERVERS, server))
    return server.key, change


def edit_servers(con: Connection, changes: Mapping[str, Mapping[str, object]]) -> list[ServerPrice]:
    """Change fields of stored servers (key -> field -> value), all or none; the edited rows
    become the user's, so a re-seed keeps them. A bad value raises `PricingError` naming the
    server and the field, and nothing is written."""
    ensure_seeded(con)
    current = {s.key: s for s in list_servers(con)}
    quotes = []
    for key, fields in changes.items():
        if key not in current:
            raise PricingError(f"No server with key {key!r}; `planner prices servers list`.")
        stored = {name: getattr(current[key], name) for name in SERVER_COLUMNS}
        quote = validated(ServerQuote, {**stored, **fields, "key": key}, f"server {key}")
        refuse_future(quote, f"server {key}")
        quotes.append(quote)
    keys = ", ".join(quote.key for quote in quotes)
    with doing(f"save the server prices {keys}", invalid=PricingError), transaction(con):
        for quote in quotes:
            write_user_row(con, SERVERS, quote.key, row_values(SERVERS, quote))
    edited = {s.key: s for s in list_servers(con)}
    return [edited[q.key] for q in quotes]
