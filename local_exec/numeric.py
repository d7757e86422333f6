"""PostgreSQL's numeric division for the local engine.

DuckDB divides decimals in double precision; PostgreSQL divides numerics
exactly and rounds the quotient (half away from zero) to a scale chosen
per value by ``select_div_scale``: at least 16 significant digits, at
least either operand's scale. ``avg`` of numerics and integers is that
division of the sum by the count. ``txngate_numeric_div(a, b)`` takes both
operands as their exact text (a decimal cast to text keeps its scale) and
returns the quotient's text, which the planner reports as numeric
(planner.bind rewrites output columns of ``avg`` and ``/`` to it).

Invariant: the text returned is PostgreSQL's output for the same
operands, digit for digit.
"""

from __future__ import annotations

import decimal

from local_exec import udf
from local_exec.udf import FunctionError

__all__ = ["FUNCTIONS", "numeric_div", "register"]

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


FUNCTIONS = {
    "txngate_numeric_div": (numeric_div, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_mod": (numeric_mod, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_trunc_div": (numeric_trunc_div, ["VARCHAR", "VARCHAR"], "VARCHAR"),
}


def register(con) -> None:
    udf.register(con, FUNCTIONS)
