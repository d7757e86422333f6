"""PostgreSQL's numeric division for the local engine.

DuckDB divides decimals in double precision; PostgreSQL divides numerics
exactly and rounds the quotient (half away from zero) to a scale chosen
per value by ``select_div_scale``: at least 16 significant digits, at
least either operand's scale. ``avg`` of numerics and integers is that
division of the sum by the count. ``txngate_numeric_div(a, b)`` takes both
operands as their exact text (a decimal cast to text keeps its scale) and
returns the quotient's text, which the planner reports as numeric
(planner.bind rewrites output columns of ``avg`` and ``/`` to it).
``txngate_numeric_variance`` is var_pop, var_samp, stddev_pop and
stddev_samp of numerics and integers the same way, from exact sums.

Invariant: the text returned is PostgreSQL's output for the same
operands, digit for digit.
"""

from __future__ import annotations

import decimal

from local_exec import udf
from local_exec.udf import FunctionError

__all__ = ["FUNCTIONS", "numeric_div", "numeric_variance", "register"]

#: NUMERIC_MIN_SIG_DIGITS and the display scale bounds of PostgreSQL's numeric.c
MIN_SIG_DIGITS, MAX_DISPLAY_SCALE = 16, 1000


def _weight(v: decimal.Decimal) -> tuple[int, int]:
    """(weight, first digit) of ``v`` in PostgreSQL's base-10000 digits
    ((0, 0) for zero)."""
    if v.is_zero():
        return 0, 0
    weight = v.adjusted() // 4
    return weight, int(abs(v).scaleb(-4 * weight))


def _dscale(v: decimal.Decimal) -> int:
    return max(0, -v.as_tuple().exponent)


def div_scale(a: decimal.Decimal, b: decimal.Decimal) -> int:
    """select_div_scale: the quotient's scale."""
    (w1, d1), (w2, d2) = _weight(a), _weight(b)
    qweight = w1 - w2 - (1 if d1 <= d2 else 0)
    scale = max(MIN_SIG_DIGITS - qweight * 4, _dscale(a), _dscale(b), 0)
    return min(scale, MAX_DISPLAY_SCALE)


def numeric_div(a: str, b: str) -> str:
    x, y = decimal.Decimal(a), decimal.Decimal(b)
    if y.is_zero():
        raise FunctionError("22012", "division by zero")
    scale = div_scale(x, y)
    digits = max(x.adjusted() - y.adjusted(), 0) + scale + 10
    with decimal.localcontext() as ctx:
        ctx.prec = digits
        ctx.rounding = decimal.ROUND_HALF_UP
        q = (x / y).quantize(decimal.Decimal(1).scaleb(-scale))
    return format(q, "f")


def numeric_mod(a: str, b: str) -> str:
    """PostgreSQL's numeric remainder: exact, the sign of the dividend."""
    x, y = decimal.Decimal(a), decimal.Decimal(b)
    if y.is_zero():
        raise FunctionError("22012", "division by zero")
    with decimal.localcontext() as ctx:
        ctx.prec = max(x.adjusted(), y.adjusted(), 0) + max(_dscale(x), _dscale(y)) + 10
        return format(x % y, "f")


def numeric_trunc_div(a: str, b: str) -> str:
    """PostgreSQL's div(numeric, numeric): the quotient truncated toward zero."""
    x, y = decimal.Decimal(a), decimal.Decimal(b)
    if y.is_zero():
        raise FunctionError("22012", "division by zero")
    with decimal.localcontext() as ctx:
        ctx.prec = max(x.adjusted() - y.adjusted(), 0) + 10
        return format(x // y, "f")


def numeric_variance(kind: str, n: str, sum_x: str, sum_xx: str, dscale: int) -> str | None:
    """PostgreSQL's var_pop, var_samp (variance), stddev_pop and stddev_samp
    (stddev) of numerics and integers (numeric_stddev_internal), from the
    count, the sum and the sum of squares of the values and the largest
    scale among them: (N * sumXX - sumX * sumX) / (N * N), or / (N * (N - 1))
    for a sample, divided to ``div_scale`` digits, its square root rounded
    to as many; NULL for no values (or one, for a sample)."""
    count = int(n)
    sample = kind in ("var_samp", "variance", "stddev_samp", "stddev")
    if count == 0 or (sample and count == 1):
        return None
    x, xx = decimal.Decimal(sum_x), decimal.Decimal(sum_xx)
    with decimal.localcontext() as ctx:
        ctx.prec = max(x.adjusted() * 2, xx.adjusted(), 0) + len(n) + 2 * dscale + 10
        numerator = (count * xx - x * x).quantize(decimal.Decimal(1).scaleb(-2 * dscale))
    if numerator <= 0:  # none (or rounding) below zero: PostgreSQL's plain 0
        return "0"
    denominator = decimal.Decimal(count * (count - 1) if sample else count * count)
    scale = div_scale(numerator, denominator)
    quantum = decimal.Decimal(1).scaleb(-scale)
    with decimal.localcontext() as ctx:
        ctx.prec = numerator.adjusted() + scale + 10
        ctx.rounding = decimal.ROUND_HALF_UP
        value = (numerator / denominator).quantize(quantum)
        if kind.startswith("stddev"):
            value = value.sqrt().quantize(quantum)
    return format(value, "f")


FUNCTIONS = {
    "txngate_numeric_div": (numeric_div, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_mod": (numeric_mod, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_trunc_div": (numeric_trunc_div, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_variance": (numeric_variance, ["VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "INTEGER"], "VARCHAR"),
}


def register(con) -> None:
    udf.register(con, FUNCTIONS)
