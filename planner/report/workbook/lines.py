"""Owning's running lines (`planner.cost.lines.LINES`) as workbook formulas: each line's
cost a month in service (an owned sheet's key figure), its cell in a month's row, and its
part of F, as `planner.cost.baremetal` prices them."""

from collections.abc import Callable
from dataclasses import dataclass

from planner.cost.lines import LINES, Basis, CostLine
from planner.report.workbook.assumptions import Names


@dataclass(frozen=True, slots=True)
class Figures:
    """What the lines' rates multiply on one owned sheet: `scalars` and `pools` are the
    Assumptions' defined names, `servers` the option's server counts, `share` its share of
    all the scenario's servers ("1" unless a hybrid keeps fewer), `capex` its CapEx cell."""

    scalars: dict[str, str]
    pools: dict[str, str]
    servers: str
    share: str
    capex: str

    def basis(self, of: Basis, gpus: str) -> str:
        """`planner.cost.baremetal.basis` as a formula ("book_value": CapEx, the first
        month's)."""
        s, p, servers = self.scalars, self.pools, self.servers
        if of == "staff":
            if "fte_per_server" in s:
                return f"{s['fte_per_server']}*SUM({servers})"
            return f"{s['fte']}*{self.share}"
        formulas: dict[Basis, str] = {
            "server_price": f"SUMPRODUCT({servers},{p['price']})",
            "capex": self.capex,
            "book_value": self.capex,
            "gpus": gpus,
            "contracted_kw": f"SUMPRODUCT({servers},{p['max']})",
            "racks": f"ROUNDUP(SUM({servers})/{s['servers_per_rack']},0)",
        }
        return formulas[of]

    def line(self, line: CostLine, gpus: str) -> str:
        """A line's cost a month in service: rate x basis (/ 12 for a yearly rate), as
        `planner.cost.baremetal.line_amount` (a line on book value: on CapEx)."""
        rate, basis = line.rate, line.basis
        if line.instead is not None and line.instead[0] in self.scalars:
            rate, basis = line.instead
        return f"{self.scalars[rate]}*{self.basis(basis, gpus)}{_per_month(line)}"


def month_cell(line: CostLine, in_service: str, figure: str, names: Names, book: str) -> str:
    """A line in one month's row: its key figure while in service; a line on book value is
    charged on `book`, the book value at the month's start."""
    if line.basis != "book_value":
        return f"{in_service}*{figure}"
    return f"{in_service}*{names.scalars[line.rate]}*{book}{_per_month(line)}"


def fixed_year(f: Callable[[str], str], scalars: dict[str, str]) -> str:
    """The lines a month for F, as `planner.cost.baremetal.fixed_per_installed_gpu_hour`: a
    line on book value at the mean book value over the life, (CapEx + residual) / 2."""
    mean_book_value = f"{f('capex')}*(1+{scalars['residual_share']})/2"
    return "+".join(
        f(line.key)
        if line.basis != "book_value"
        else f"{scalars[line.rate]}*{mean_book_value}{_per_month(line)}"
        for line in LINES
    )


def _per_month(line: CostLine) -> str:
    return "/12" if line.yearly else ""
