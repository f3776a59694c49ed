"""The option form's three sections: servers to own, a cloud option, the hybrid's split.

Each shows its widgets, explains inline what the price book cannot price, appends that
message to `problems` (saving waits until there is none) and returns the section's values
as `planner.service.option_forms` takes them.
"""

from collections import Counter

import streamlit as st

from planner.core.errors import PlannerError
from planner.core.file_access import BUNDLED_FILES
from planner.cost.scenario import MAX_SERVERS
from planner.service import option_forms as forms
from planner.service.option_forms import Catalog, CloudForm, HybridForm, OwnForm, PoolForm
from planner.service.replay import cluster_nodes
from planner.ui.cache import cursor
from planner.ui.i18n import fmt_money, fmt_number, t
from planner.ui.safe import md
from planner.ui.state import working_scenario
from pricing import ServerPrice

Shape = tuple[str, int, int]  # GPU type, GPUs per server, servers


def working_pools() -> tuple[list[Shape], str]:
    """The working cluster's GPU servers by (type, GPUs per server), with its name."""
    scenario = working_scenario()
    if scenario.cluster is None:
        return [], t("options.own_cluster_none")
    try:
        _, nodes, _ = cluster_nodes(scenario.cluster, files=BUNDLED_FILES)
    except PlannerError:
        return [], t("options.own_cluster_none")
    counts = Counter((node[1], int(node[2])) for node in nodes if node[2])
    shapes = [(gpu, gpus, n) for (gpu, gpus), n in counts.items()]
    servers = sum(n for _, _, n in shapes)
    return shapes, f"{fmt_number(servers)} × {', '.join(md(g) for g, _, _ in shapes) or '-'}"


# --- own ----------------------------------------------------------------------------------


def own(known: Catalog, currency: str, problems: list[str]) -> OwnForm:
    st.subheader(t("options.own_header"))
    shapes, cluster = working_pools()
    st.caption(t("options.own_caption", cluster=cluster))
    pools = [
        pool
        for k, shape in enumerate(shapes)
        if (pool := _pool_row(known, shape, currency, f"opt_pool_{k}", problems)) is not None
    ]
    extra = _extra_row(known, currency, problems)
    pools += [extra] if extra is not None else []
    lead_col, life_col = st.columns(2)
    lead = known.defaults.get("lead_time_months", 0)
    life = known.defaults.get("life_years", 5)
    lead_months = lead_col.number_input(
        t("options.lead"), min_value=0, max_value=36, value=int(lead), step=1,
        help=t("options.lead_help", default=fmt_number(lead)), key="opt_lead",
    )  # fmt: skip
    life_years = life_col.number_input(
        t("options.life"), min_value=1.0, max_value=15.0, value=float(life), step=0.5,
        help=t("options.life_help", default=fmt_number(life)), key="opt_life",
    )  # fmt: skip
    if not pools and not problems:
        problems.append(t("options.no_servers"))
        st.warning(problems[-1], icon=":material/warning:")
    return OwnForm(tuple(pools), int(lead_months), float(life_years))


def _pool_row(
    known: Catalog, shape: Shape, currency: str, key: str, problems: list[str]
) -> PoolForm | None:
    gpu, gpus, count = shape
    name_col, servers_col, price_col = st.columns([2, 1, 1])
    name_col.markdown(f"**{md(t('options.pool', gpus=gpus, gpu=gpu))}**")
    servers = servers_col.number_input(
        t("options.servers"), min_value=0, max_value=MAX_SERVERS, value=count, step=1,
        help=t("options.servers_help"), key=f"{key}_servers",
    )  # fmt: skip
    price = price_col.number_input(
        t("options.price", currency=currency), min_value=0.0, value=0.0, step=1000.0,
        help=t("options.price_help"), key=f"{key}_price",
    )  # fmt: skip
    server = known.server(gpu, gpus)
    if server is not None:
        name_col.caption(_book_line(server))
    if not servers:
        return None
    own_price = {"price": float(price), "currency": currency} if price else {}
    if server is not None:
        return PoolForm(gpu, int(servers), gpus, **own_price)  # type: ignore[arg-type]
    like = _like(known, shape, name_col, key)
    if like is None:
        message = t("options.no_server", gpu=md(gpu), gpus=gpus)
        name_col.warning(message, icon=":material/warning:")  # the cluster's, not a mistake
        problems.append(message)
        return None
    copied = {"price": like.price, "currency": like.currency} | own_price
    power = (like.idle_kw, like.load_kw, like.max_kw)
    return PoolForm(gpu, int(servers), gpus, power_kw=power, **copied)  # type: ignore[arg-type]


def _like(known: Catalog, shape: Shape, column: object, key: str) -> ServerPrice | None:
    gpu, gpus, _ = shape
    keys = [s.key for s in known.servers]
    by_key = {s.key: s for s in known.servers}
    names = _server_names(by_key, t("options.like_none"))
    picked = column.selectbox(  # type: ignore[attr-defined]
        t("options.like"), [None, *keys], format_func=names.__getitem__,
        help=t("options.like_help", gpu=md(gpu), gpus=gpus), key=f"{key}_like",
    )  # fmt: skip
    return None if picked is None else by_key[picked]


def _server_names(by_key: dict[str, ServerPrice], none: str) -> dict[str | None, str]:
    """Labels made now, in the session's language and currency: Streamlit may call
    format_func later, outside the session."""
    return {None: none} | {k: _server_label(server) for k, server in by_key.items()}


def _server_label(server: ServerPrice) -> str:
    price = fmt_money(server.price, server.currency, 0)
    return f"{server.gpus_per_server} × {server.gpu_model}: {price}"  # options are plain text


def _book_line(server: ServerPrice) -> str:
    as_of = str(server.as_of) if server.as_of else t("options.book_unsourced")
    price = fmt_money(server.price, server.currency, 0)
    return t("options.book_server", price=price, as_of=as_of, kw=fmt_number(server.max_kw, 1))


def _extra_row(known: Catalog, currency: str, problems: list[str]) -> PoolForm | None:
    by_key = {s.key: s for s in known.servers}
    gpu_col, servers_col, price_col = st.columns([2, 1, 1])
    names = _server_names(by_key, t("options.extra_none"))
    picked = gpu_col.selectbox(
        t("options.extra_gpu"), [None, *by_key], format_func=names.__getitem__,
        key="opt_extra_gpu",
    )  # fmt: skip
    if picked is None:
        return None
    server = by_key[picked]
    servers = servers_col.number_input(
        t("options.servers"), min_value=0, max_value=MAX_SERVERS, value=1, step=1,
        key="opt_extra_servers",
    )  # fmt: skip
    price = price_col.number_input(
        t("options.price", currency=currency), min_value=0.0, value=0.0, step=1000.0,
        help=t("options.price_help"), key="opt_extra_price",
    )  # fmt: skip
    gpu_col.caption(_book_line(server))
    if not servers:
        return None
    own_price = {"price": float(price), "currency": currency} if price else {}
    return PoolForm(server.gpu_model, int(servers), server.gpus_per_server, **own_price)  # type: ignore[arg-type]


# --- cloud --------------------------------------------------------------------------------


def cloud(known: Catalog, currency: str, problems: list[str]) -> CloudForm | None:
    st.subheader(t("options.cloud_header"))
    providers = known.providers()
    if not providers:
        problems.append(t("options.no_prices"))
        st.warning(problems[-1], icon=":material/warning:")
        return None
    provider_col, gpu_col, instance_col = st.columns(3)
    provider = provider_col.selectbox(
        t("options.provider"), providers, index=_index(providers, "AWS"), key="opt_provider"
    )
    gpus = known.gpus(provider)
    gpu = gpu_col.selectbox(
        t("options.gpu"), gpus, index=_index(gpus, "H100"), help=t("options.gpu_help"),
        key=f"opt_gpu_{provider}",
    )  # fmt: skip
    instances = known.instances(provider, gpu)
    names = {None: t("options.instance_any")} | {i: i for i in instances}
    instance = instance_col.selectbox(
        t("options.instance"), [None, *instances], format_func=names.__getitem__,
        key=f"opt_instance_{provider}_{gpu}",
    )  # fmt: skip
    form = _payment(known, CloudForm(provider, gpu, instance))
    with cursor() as cur:
        check = forms.check_cloud(cur, form, known, currency)
    _offer_lines(form, check, problems)
    return form


def _index(options: list[str], preferred: str) -> int:
    return options.index(preferred) if preferred in options else 0


def _payment(known: Catalog, base: CloudForm) -> CloudForm:
    pay_col, term_col, commit_col = st.columns(3)
    names = {p: t(f"options.payment.{p}") for p in forms.PAYMENTS}
    payment = pay_col.selectbox(
        t("options.payment"), forms.PAYMENTS, format_func=names.__getitem__, key="opt_payment",
    )  # fmt: skip
    if not forms.is_commitment(payment):
        return CloudForm(base.provider, base.gpu, base.instance, payment)
    terms = known.terms_of(payment)
    listed = ", ".join(str(x) for x in sorted(set(terms))) or t("options.terms_none")
    term = term_col.number_input(
        t("options.term"), min_value=1, max_value=120, value=terms[0] if terms else 12, step=1,
        help=t("options.term_help", payment=t(f"options.payment.{payment}"), terms=listed),
        key="opt_term",
    )  # fmt: skip
    committed = commit_col.number_input(
        t("options.commit"), min_value=0.0, max_value=1e6, value=0.0, step=8.0,
        help=t("options.commit_help"), key="opt_commit",
    )  # fmt: skip
    return CloudForm(base.provider, base.gpu, base.instance, payment, int(term), float(committed))


def _offer_lines(form: CloudForm, check: forms.CloudCheck, problems: list[str]) -> None:
    offer = check.offer
    if offer is not None:
        price = fmt_money(offer.price_per_gpu_hour, offer.currency)
        sku = f"{offer.point.provider} {offer.point.instance_type}"
        st.caption(t("options.offer", price=price, name=md(sku)))
        if offer.discount is not None:
            rule = offer.discount
            st.caption(
                t(
                    "options.derived",
                    rule=md(rule.name),
                    value=fmt_number(rule.value, 2),
                    confidence=rule.confidence,
                )
            )
        return
    message = t(
        f"options.{check.problem or 'no_price'}",
        provider=md(form.provider),
        sku=md(form.instance or form.gpu),
        payment=t(f"options.payment.{form.pricing_model}"),
        term=form.term_months,
        terms=", ".join(str(x) for x in check.terms),
    )
    st.error(message, icon=":material/error:")
    problems.append(message)


# --- hybrid -------------------------------------------------------------------------------


def hybrid(own_form: OwnForm) -> HybridForm:
    st.subheader(t("options.hybrid_header"))
    owned: Counter[str] = Counter()
    for pool in own_form.pools:
        owned[pool.gpu] += pool.servers
    columns = st.columns(len(owned) + 1)
    kept: dict[str, int] = {}
    for column, (gpu, servers) in zip(columns, owned.items(), strict=False):
        kept[gpu] = column.number_input(
            t("options.keep", gpu=md(gpu)), min_value=0, max_value=servers, value=servers,
            step=1, help=t("options.keep_help", servers=fmt_number(servers)),
            key=f"opt_keep_{gpu}_{servers}",  # afresh when the servers above change
        )  # fmt: skip
    burst = columns[-1].number_input(
        t("options.burst"), min_value=0.0, max_value=24.0 * 365, value=1.0, step=0.5,
        help=t("options.burst_help"), key="opt_burst_h",
    )  # fmt: skip
    return HybridForm(kept, float(burst))
