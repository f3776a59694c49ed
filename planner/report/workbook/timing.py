"""When things happen in an owned sheet's months, as workbook formulas: escalation
factors, the age of the server generation in service, the months one retires, and a month's
depreciation charge (`planner.cost.escalation`, `planner.cost.refresh` and
`planner.cost.depreciation` say the same in Python). Months count from 1, as the sheets do.
"""


def escalation_factor(rate: str, month: str) -> str:
    """Month `month`'s (from 1) factor on year 1's price, as `planner.cost.escalation`:
    (1 + rate) ^ INT((month - 1) / 12)."""
    return f"(1+{rate})^INT(({month}-1)/12)"


def generation_age(month: str, lead: str, life: str) -> str:
    """The month of its life the generation in service is in (0 at delivery, -1 before the
    first), as `planner.cost.refresh.Generations.age`."""
    return f"IF({month}-1-{lead}>=0,MOD({month}-1-{lead},{life}),-1)"


def retired(month: str, lead: str, life: str) -> str:
    """1 in the month a generation reaches the end of its life and is sold, else 0."""
    k = f"({month}-1-{lead})"
    return f"IF(AND({k}>={life},MOD({k},{life})=0),1,0)"


def charge(method: str, cost: str, residual: str, life: str, k: str) -> str:
    """One month's charge: month k of the life (k < 0: not yet in service; a life longer
    than the book life, the tax one's, is cut short when the generation is sold)."""
    inside = f"AND({k}>=0,{k}<{life})"
    if method == "sum_of_years_digits":
        years = f"({life}/12)"
        amount = f"({cost}-{residual})*({years}-INT({k}/12))/({years}*({years}+1)/2)/12"
    elif method == "double_declining":
        amount = f"VDB({cost},{residual},{life}/12,INT({k}/12),INT({k}/12)+1,2,0)/12"
    else:
        amount = f"({cost}-{residual})/{life}"
    return f"IF({inside},{amount},0)"
