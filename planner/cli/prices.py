"""`planner prices ...`: the price book on the command line; parsing and printing only.

Flags map one to one onto the fields of `pricing`'s input models; a bad value is reported
with its flag and field in one line (exit 2, like every planner error).
"""

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from planner.cli.db import database
from planner.core.pricing_model import PRICING_MODELS

if TYPE_CHECKING:
    from pricing import PriceFilter, PricePoint

M = TypeVar("M", bound=BaseModel)
Run = Callable[[argparse.Namespace], int]

# flag -> field of PriceQuote, in the order `--help` shows them.
PRICE_FLAGS = {
    "provider": "provider",
    "region": "region",
    "instance": "instance_type",
    "gpu": "gpu_model",
    "gpu-mem-gb": "gpu_mem_gb",
    "gpu-form": "gpu_form",
    "gpus": "gpus_per_instance",
    "price-per-hour": "price_per_instance_hour",
    "price-per-gpu-hour": "price_per_gpu_hour",
    "currency": "currency",
    "model": "pricing_model",
    "term-months": "term_months",
    "upfront-fraction": "upfront_fraction",
    "billing-granularity-s": "billing_granularity_s",
    "min-billing-s": "min_billing_s",
    "includes": "includes",
    "as-of": "as_of",
    "source": "source_url",
    "source-kind": "source_kind",
    "confidence": "confidence",
    "notes": "notes",
    "key": "key",
}
SERVER_FLAGS = {
    "gpu": "gpu_model",
    "gpu-mem-gb": "gpu_mem_gb",
    "gpu-form": "gpu_form",
    "gpus": "gpus_per_server",
    "price": "price",
    "currency": "currency",
    "max-kw": "max_kw",
    "idle-kw": "idle_kw",
    "load-kw": "load_kw",
    "as-of": "as_of",
    "source": "source",
    "confidence": "confidence",
    "power-source": "power_source",
    "power-confidence": "power_confidence",
    "notes": "notes",
    "key": "key",
}
FX_FLAGS = {"date": "rate_date", "source": "source", "confidence": "confidence", "notes": "notes"}


def add_price_commands(sub: Any) -> None:
    """Register `planner prices list|add|import|export|fx|servers|assumptions`."""
    prices = sub.add_parser("prices", help="the price book: cloud prices, servers, FX rates")
    actions = prices.add_subparsers(required=True, metavar="ACTION")
    _list_command(actions)
    add = _command(actions, "add", "add or replace a price (a quote)", _add)
    _flags(add, PRICE_FLAGS)
    edit = _command(actions, "edit", "change fields of a stored price (it becomes yours)", _edit)
    edit.add_argument("key", metavar="KEY", help="the price's key (`planner prices list --json`)")
    _flags(edit, {flag: field for flag, field in PRICE_FLAGS.items() if field != "key"})
    imports = _command(actions, "import", "add or update prices from a CSV file", _import)
    imports.add_argument("file", type=Path, metavar="FILE.csv")
    exports = _command(actions, "export", "write prices to a CSV file", _export)
    exports.add_argument("file", type=Path, metavar="FILE.csv")
    _filter_flags(exports)
    _fx_commands(actions)
    _server_commands(actions)
    listed = _command(actions, "assumptions", "list (or edit) an assumption set", _assumptions)
    listed.add_argument("--set", default="reference-defaults", dest="set_name")
    listed.add_argument(
        "--edit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change an assumption's value first (repeatable; all or none are saved)",
    )


def _command(actions: Any, name: str, text: str, run: Run) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = actions.add_parser(name, help=text, description=text)
    parser.add_argument("--db", help="database file (default: $PLANNER_DB or data/planner.duckdb)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(run=run)
    return parser


def _flags(parser: argparse.ArgumentParser, flags: Mapping[str, str]) -> None:
    for flag, field in flags.items():
        parser.add_argument(f"--{flag}", dest=field, metavar=field.upper())


def _filter_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--provider")
    parser.add_argument("--gpu", help='GPU model, optionally with memory: "A100 80GB"')
    parser.add_argument("--model", choices=PRICING_MODELS, help="pricing model")
    parser.add_argument("--currency")
    parser.add_argument("--region")


def _list_command(actions: Any) -> None:
    listing = _command(actions, "list", "list prices; stale ones are flagged", _list)
    _filter_flags(listing)
    listing.add_argument(
        "--stale-days", type=int, help="flag prices older than this (default: 90, or the env)"
    )
    listing.add_argument("--stale-only", action="store_true", help="list only stale prices")


def _fx_commands(actions: Any) -> None:
    fx = actions.add_parser("fx", help="FX rates")
    fx_actions = fx.add_subparsers(required=True, metavar="ACTION")
    _command(fx_actions, "list", "list the stored FX rates", _fx_list)
    add = _command(fx_actions, "add", "add a dated rate: 1 BASE = RATE QUOTE", _fx_add)
    for name in ("base", "quote", "rate"):
        add.add_argument(name, metavar=name.upper())
    _flags(add, FX_FLAGS)


def _server_commands(actions: Any) -> None:
    servers = actions.add_parser("servers", help="bare-metal server prices and power")
    server_actions = servers.add_subparsers(required=True, metavar="ACTION")
    listing = _command(server_actions, "list", "list server prices and power", _servers_list)
    listing.add_argument("--gpu")
    listing.add_argument("--stale-days", type=int)
    _flags(
        _command(server_actions, "add", "add or replace a server price", _servers_add), SERVER_FLAGS
    )
    edit = _command(
        server_actions, "edit", "change fields of a stored server (it becomes yours)", _servers_edit
    )
    edit.add_argument("key", metavar="KEY", help="the server's key (`planner prices servers list`)")
    _flags(edit, {flag: field for flag, field in SERVER_FLAGS.items() if field != "key"})


def _model(model: type[M], args: argparse.Namespace, flags: Mapping[str, str], what: str) -> M:
    """The model from the flags (and positional arguments) given; problems name the flag."""
    from pricing import PricingError
    from pricing.problems import problems

    fields = [*flags.values(), *(f for f in ("base", "quote", "rate") if f in model.model_fields)]
    data = {field: getattr(args, field) for field in fields if getattr(args, field, None)}
    try:
        return model.model_validate(data)
    except ValidationError as err:
        flag_of = {field: flag for flag, field in flags.items()}
        shown = "; ".join(
            f"--{flag_of[p.field]} ({p.field}): {p.message}"
            if p.field in flag_of
            else f"{p.field}: {p.message}"
            for p in problems(err)
        )
        raise PricingError(f"Invalid {what}: {shown}.") from None


def _out(*lines: str) -> None:
    sys.stdout.write("".join(f"{line}\n" for line in lines))


def _json(items: Sequence[Any]) -> None:
    _out(json.dumps([dataclasses.asdict(item) for item in items], indent=2, default=str))


def _where(args: argparse.Namespace) -> "PriceFilter":
    from pricing import PriceFilter

    return PriceFilter(args.provider, args.gpu, args.model, args.currency, args.region)


def _list(args: argparse.Namespace) -> int:
    from pricing import list_prices

    with database(args.db) as con:
        points = list_prices(con, _where(args), stale_days=args.stale_days)
    if args.stale_only:
        points = [p for p in points if p.is_stale]
    if args.json:
        _json(points)
        return 0
    if points:
        _out(_PRICE_HEADER)
    _out(*(_price_line(p) for p in points))
    stale = sum(p.is_stale for p in points)
    _out(f"{len(points)} prices, {stale} stale (as_of older than the limit; see --stale-days)")
    return 0


# Column titles padded exactly as `_price_line` pads its values, so the two stay aligned.
_PRICE_HEADER = (
    f"{'PROVIDER':<14} {'REGION':<16} {'INSTANCE TYPE':<26} {'GPUS':<15} "
    f"{'PER INST-H':>11} {'PER GPU-H':>9} CUR "
    f"{'PRICING MODEL':<14} {'AS OF':<10} {'AGE':>6} CONFIDENCE"
)


def _price_line(p: "PricePoint") -> str:
    memory = f" {p.gpu_mem_gb}GB" if p.gpu_mem_gb else ""
    gpu = f"{p.gpus_per_instance:g}x {p.gpu_model}{memory}"
    flag = "  STALE" if p.is_stale else ""
    return (
        f"{p.provider[:14]:<14} {p.region[:16]:<16} {p.instance_type[:26]:<26} {gpu:<15} "
        f"{p.price_per_instance_hour:>11,.4f} {p.price_per_gpu_hour:>9,.4f} {p.currency} "
        f"{p.pricing_model:<14} {p.as_of} {p.age_days:>5}d {p.confidence}{flag}"
    )


def _add(args: argparse.Namespace) -> int:
    from pricing import PriceQuote, add_price

    quote = _model(PriceQuote, args, PRICE_FLAGS, "price")
    with database(args.db, writes=True) as con:
        key, change = add_price(con, quote)
    _out(json.dumps({"key": key, "change": change}) if args.json else f"{change}: {key}")
    return 0


def _given(args: argparse.Namespace, flags: Mapping[str, str]) -> dict[str, object]:
    """The fields whose flags were given; at least one, or a usage error naming the flags."""
    from pricing import PricingError

    editable = [field for field in flags.values() if field != "key"]  # KEY names the row
    fields = {f: getattr(args, f) for f in editable if getattr(args, f, None) is not None}
    if not fields:
        names = ", ".join(f"--{flag}" for flag, field in flags.items() if field != "key")
        raise PricingError(f"nothing to change: give at least one of {names}")
    return fields


def _edit(args: argparse.Namespace) -> int:
    from pricing import edit_price

    changes = _given(args, PRICE_FLAGS)
    with database(args.db, writes=True) as con:
        point = edit_price(con, args.key, changes)
    if args.json:
        _json([point])
    else:
        _out(_price_line(point))
    return 0


def _import(args: argparse.Namespace) -> int:
    from pricing import import_prices

    with database(args.db, writes=True) as con:
        report = import_prices(con, args.file)
    if args.json:
        _out(json.dumps(dataclasses.asdict(report), indent=2))
    else:
        _out(*report.summary_lines())
    return 0


def _export(args: argparse.Namespace) -> int:
    from pricing import export_prices

    with database(args.db) as con:
        count = export_prices(con, args.file, _where(args))
    _out(
        json.dumps({"rows": count, "file": str(args.file)})
        if args.json
        else f"{count} prices written to {args.file}"
    )
    return 0


def _fx_list(args: argparse.Namespace) -> int:
    from pricing import list_fx_rates

    with database(args.db) as con:
        rates = list_fx_rates(con)
    if args.json:
        _json(rates)
        return 0
    for r in rates:
        pair = f"1 {r.base} = {r.rate:,.6g} {r.quote}"
        _out(f"{r.rate_date}  {pair:<22} {r.confidence}  {r.origin:<4}  {r.source}")
    return 0


def _fx_add(args: argparse.Namespace) -> int:
    from pricing import FxQuote, add_fx_rate

    rate = _model(FxQuote, args, FX_FLAGS, "FX rate")
    with database(args.db, writes=True) as con:
        key, change = add_fx_rate(con, rate)
    _out(json.dumps({"key": key, "change": change}) if args.json else f"{change}: {key}")
    return 0


def _servers_list(args: argparse.Namespace) -> int:
    from pricing import list_servers

    with database(args.db) as con:
        servers = list_servers(con, args.gpu, stale_days=args.stale_days)
    if args.json:
        _json(servers)
        return 0
    for s in servers:
        flag = "  STALE" if s.is_stale else "  UNSOURCED" if s.as_of is None else ""
        power = f"max {s.max_kw:g} kW, idle {s.idle_kw:g}, load {s.load_kw:g}"
        _out(
            f"{s.key:<12} {s.price:>12,.0f} {s.currency}  {power:<32} "
            f"{s.as_of or 'no source date'}  "
            f"price {s.confidence}, power {s.power_confidence}{flag}"
        )
    return 0


def _servers_add(args: argparse.Namespace) -> int:
    from pricing import ServerQuote, add_server

    server = _model(ServerQuote, args, SERVER_FLAGS, "server")
    with database(args.db, writes=True) as con:
        key, change = add_server(con, server)
    _out(json.dumps({"key": key, "change": change}) if args.json else f"{change}: {key}")
    return 0


def _servers_edit(args: argparse.Namespace) -> int:
    from pricing.servers import edit_servers

    changes = _given(args, SERVER_FLAGS)
    with database(args.db, writes=True) as con:
        edited = edit_servers(con, {args.key: changes})
    if args.json:
        _json(edited)
    else:
        _out(*(f"edited: {s.key} {s.price:,.0f} {s.currency}" for s in edited))
    return 0


def _assumptions(args: argparse.Namespace) -> int:
    from pricing import PricingError, assumption_set
    from pricing.assumptions import edit_assumptions

    values: dict[str, object] = {}
    for item in args.edit:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise PricingError(f"--edit {item!r}: write NAME=VALUE, e.g. --edit pue=1.4")
        values[name.strip()] = value.strip()
    with database(args.db, writes=bool(values)) as con:
        if values:
            edit_assumptions(con, args.set_name, values)
        items = list(assumption_set(con, args.set_name).values())
    if args.json:
        _json(items)
        return 0
    for a in items:
        _out(f"{a.name:<34} {a.value:>12,.6g}  {a.unit:<28} {a.confidence}  {a.source}")
    return 0
