"""What the cost model asks the price book: which SKUs can run a GPU model, at what price.

An `Offer` is a stored price (native currency, staleness flag, billing granularity and
minimum) converted to the requested currency. Without a stored price for a commitment or
spot, `derive=True` prices it as on-demand less the assumption set's discount rule; such
offers carry the rule (confidence L for rules of thumb) so a report can say so.
"""

from dataclasses import dataclass, replace
from datetime import date

from planner.core.notes import offer_name
from planner.core.pricing_model import PricingModel
from planner.store import Connection
from pricing.assumptions import Assumption, discount_for
from pricing.errors import PricingError
from pricing.freshness import DEFAULT_SET
from pricing.fx import Conversion, FxTable, fx_table
from pricing.models import lowest_confidence
from pricing.points import PriceFilter, PricePoint, list_prices


@dataclass(frozen=True, slots=True)
class OfferRequest:
    """SKUs of `gpu` ("H100", "A100 80GB") under one pricing model.

    `gpus` is the GPUs of one pod: a pod cannot span instances, so smaller SKUs are left
    out. Prices are converted to `currency` (None: native) at the rate of `on_date`
    (default: today).
    """

    gpu: str
    pricing_model: PricingModel = "on_demand"
    currency: str | None = None
    gpus: float = 0.0
    provider: str | None = None
    region: str | None = None
    term_months: int | None = None
    on_date: date | None = None
    derive: bool = False
    assumption_set: str = DEFAULT_SET


@dataclass(frozen=True, slots=True)
class Offer:
    """One SKU able to run the request, priced per instance-hour in `currency`."""

    point: PricePoint
    pricing_model: str
    """The request's model: differs from `point.pricing_model` when derived by a discount."""
    currency: str
    price_per_instance_hour: float
    price_per_gpu_hour: float
    conversion: Conversion
    discount: Assumption | None = None

    @property
    def name(self) -> str:
        """ "AWS p5.48xlarge (on_demand)", a coded note (the reports say it in Chinese)."""
        base = self.point.pricing_model if self.discount else None
        return offer_name(self.point.provider, self.point.instance_type, self.pricing_model, base)

    @property
    def confidence(self) -> str:
        """The price's confidence, or the discount rule's when it derived the price and is lower
        (a spot price 60 % off a quoted on-demand one is no surer than the 60 %)."""
        rule = "" if self.discount is None else self.discount.confidence
        return lowest_confidence(self.point.confidence, rule)


def offers_for(
    con: Connection,
    request: OfferRequest,
    *,
    today: date | None = None,
    stale_days: int | None = None,
) -> list[Offer]:
    """Every SKU that can run the request, cheapest per instance-hour first."""
    where = PriceFilter(request.provider, request.gpu, request.pricing_model, None, request.region)
    points = _fitting(list_prices(con, where, today=today, stale_days=stale_days), request)
    discounts: dict[str, Assumption] = {}
    if not points and request.derive and request.pricing_model != "on_demand":
        on_demand = replace(where, pricing_model="on_demand")
        listed = list_prices(con, on_demand, today=today, stale_days=stale_days)
        points = _fitting(listed, replace(request, term_months=None))
        discounts = {p.key: _discount(con, p, request) for p in points}
    rates = fx_table(con)
    on_date = request.on_date or today or date.today()
    offers = [_offer(p, request, rates, on_date, discounts.get(p.key)) for p in points]
    return sorted(offers, key=lambda o: (o.price_per_instance_hour, o.price_per_gpu_hour))


def price_for(
    con: Connection,
    gpu: str,
    pricing_model: PricingModel = "on_demand",
    currency: str | None = None,
    *,
    gpus: float = 0.0,
    today: date | None = None,
) -> Offer:
    """The cheapest instance-hour for a pod of `gpus` GPUs of `gpu` (any size if 0)."""
    request = OfferRequest(gpu, pricing_model, currency, gpus)
    offers = offers_for(con, request, today=today)
    if not offers:
        raise PricingError(_no_price(request))
    return offers[0]


def _fitting(points: list[PricePoint], request: OfferRequest) -> list[PricePoint]:
    if request.term_months is not None:
        points = [p for p in points if p.term_months == request.term_months]
    return [p for p in points if p.gpus_per_instance >= request.gpus]


def _discount(con: Connection, point: PricePoint, request: OfferRequest) -> Assumption:
    return discount_for(
        con,
        point.provider,
        request.pricing_model,
        term_months=request.term_months,
        gpu=point.gpu_model,
        set_name=request.assumption_set,
    )


def _offer(
    point: PricePoint,
    request: OfferRequest,
    rates: FxTable,
    on_date: date,
    discount: Assumption | None,
) -> Offer:
    currency = (request.currency or point.currency).upper()
    conversion = rates.conversion(point.currency, currency, on_date)
    factor = conversion.rate * (1 - discount.value if discount else 1.0)
    return Offer(
        point=point,
        pricing_model=request.pricing_model,
        currency=currency,
        price_per_instance_hour=point.price_per_instance_hour * factor,
        price_per_gpu_hour=point.price_per_gpu_hour * factor,
        conversion=conversion,
        discount=discount,
    )


def _no_price(request: OfferRequest) -> str:
    size = f" with at least {request.gpus:g} GPUs per instance" if request.gpus else ""
    return (
        f"No {request.pricing_model} price for GPU model {request.gpu}{size} in the price "
        f"book; add one with `planner prices add --provider P --instance I --gpu {request.gpu} "
        f"--gpus N --price-per-hour X --currency C --model {request.pricing_model} "
        "--as-of YYYY-MM-DD`."
    )
