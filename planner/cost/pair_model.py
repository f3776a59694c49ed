"""The NPV of buying for the headline pair, re-priced with drivers moved: what the tornado
and the flip values evaluate. No re-replay: the demand's shape is kept and the drivers
scale what was priced (`Drivers` names them).

Drivers, each a multiplier of today's value unless said otherwise: `utilization` (the
demand: the owned allocation by hour, at most 1, the useful GPU-hours, every cloud bill and
the hybrid's bursts), `cloud_price` (every cloud bill but commitments, the bursts and the
bridge), `commit_price`, `server_price`, `life` (whole months, whole years for the declining
methods), `electricity`, `pue` (at least 1), `staff`, `fx` (the converted prices), and
absolute: `rate` (a year), `resale_share` (of CapEx).
"""

from dataclasses import dataclass, replace

from planner.cost import finance, tco
from planner.cost.baremetal import BareMetal
from planner.cost.elsewhere import Unserved

Drivers = dict[str, float]


@dataclass(frozen=True, slots=True)
class PairModel:
    """What re-pricing one pair needs: the owned option's servers and demand, the cloud
    option weighed, and the cloud option that bridges the lead time (the first listed)."""

    owned: str
    servers: BareMetal
    demand: tco.Demand
    cloud: tco.Rented
    bridge: tco.Rented | None
    months: int
    rate: float
    converted: frozenset[str] = frozenset()
    """Which prices were converted from another currency ("cloud", "server")."""
    unserved: Unserved | None = None
    """The owned option's served-elsewhere and waiting lines, kept at the base's."""
    cloud_escalation_year: float = 0.0
    """The yearly rate cloud bills escalate at (the scenario's)."""

    def base(self) -> Drivers:
        """Every driver at today's value (commitment and FX only where they apply)."""
        drivers = {
            "cloud_price": 1.0,
            "utilization": 1.0,
            "server_price": 1.0,
            "life": 1.0,
            "electricity": 1.0,
            "pue": 1.0,
            "staff": 1.0,
            "rate": self.rate,
            "resale_share": self.servers.resale_share,
        }
        if self.cloud.per_month.get("commitment"):
            drivers["commit_price"] = 1.0
        if self.converted:
            drivers["fx"] = 1.0
        return drivers

    def npv(self, d: Drivers) -> float:
        """The NPV of buying (renting's cash less owning's, discounted) with `d` applied;
        drivers left out of `d` stay at today's value."""
        d = self.base() | d
        fx = d.get("fx", 1.0)
        scale = d["utilization"]
        demand = replace(
            self.demand,
            useful_gpu_hours=self.demand.useful_gpu_hours * scale,
            utilization_by_hour=tuple(min(1.0, u * scale) for u in self.demand.utilization_by_hour),
            burst_per_month=self.demand.burst_per_month * scale * self._cloud_factor(d),
        )
        cloud = self._moved_cloud(self.cloud, d)
        bridge = tco.NO_BRIDGE
        if self.bridge is not None:
            bridge = bridge_of(demand, self._moved_cloud(self.bridge, d))
        tax = self.servers.tax_rate
        rent = tco.rented_option(
            cloud,
            demand,
            self.months,
            d["rate"],
            tax_rate=tax,
            escalation_year=self.cloud_escalation_year,
        )
        servers = moved(self.servers, d, fx if "server" in self.converted else 1.0)
        own = tco.owned_option(
            self.owned,
            servers,
            demand,
            self.months,
            d["rate"],
            bridge=bridge,
            unserved=self.unserved,
        )
        savings = [r - o for r, o in zip(rent.monthly_cash, own.monthly_cash, strict=True)]
        return finance.npv(savings, d["rate"])

    def _cloud_factor(self, d: Drivers) -> float:
        return d["cloud_price"] * (d.get("fx", 1.0) if "cloud" in self.converted else 1.0)

    def _moved_cloud(self, cloud: tco.Rented, d: Drivers) -> tco.Rented:
        fx = d.get("fx", 1.0) if "cloud" in self.converted else 1.0
        per_month = {
            k: v
            * d["utilization"]
            * fx
            * d.get("commit_price" if k == "commitment" else "cloud_price", 1.0)
            for k, v in cloud.per_month.items()
        }
        return replace(cloud, per_month=per_month)


def moved(bm: BareMetal, d: Drivers, fx: float) -> BareMetal:
    """The owned servers with the drivers applied; lives stay whole months (whole years for
    the declining methods)."""
    return replace(
        tco.scaled(bm, server_price=d["server_price"] * fx),
        life_years=life_years(bm, d["life"]),
        pue=max(1.0, bm.pue * d["pue"]),
        fte_cost_year=bm.fte_cost_year * d["staff"],
        kwh_price=tuple(p * d["electricity"] for p in bm.kwh_price),
        resale_share=d.get("resale_share", bm.resale_share),
    )


def life_years(bm: BareMetal, multiplier: float) -> float:
    """The servers' life times `multiplier`, as the model rounds it."""
    unit = life_unit(bm)
    return max(1, round(bm.life_years * multiplier * 12 / unit)) * unit / 12


def life_unit(bm: BareMetal) -> int:
    """Months a life is counted in: 1 for straight line, 12 for the declining methods."""
    return 12 if bm.depreciation_method != "straight_line" else 1


def bridge_of(demand: tco.Demand, first: tco.Rented) -> tco.Bridge:
    """The first cloud option serves the demand while the servers are on order."""
    useful = demand.useful_gpu_hours if first.useful_gpu_hours is None else first.useful_gpu_hours
    return tco.Bridge(first.monthly_total, useful)
