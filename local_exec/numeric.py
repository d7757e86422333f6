"""PostgreSQL's numeric division (and input) for the local engine.

DuckDB divides decimals in double precision; PostgreSQL divides numerics
exactly and rounds the quotient (half away from zero) to a scale chosen
per value by ``select_div_scale``: at least 16 significant digits, at
least either operand's scale. ``avg`` of numerics and integers is that
division of the sum by the count. ``txngate_numeric_div(a, b)`` takes both
operands as their exact text (a decimal cast to text keeps its scale) and
returns the quotient's text, which the planner reports as numeric
(planner.bind rewrites output columns of ``avg`` and ``/`` to it).
``txngate_numeric_variance`` is var_pop, var_samp, stddev_pop and
stddev_samp of numerics and integers the same way, from exact sums;
sqrt, exp, ln, log and power of numerics are computed to the scale
PostgreSQL's numeric.c picks for each (its estimates of the result's
weight included) and rounded half away from zero; ``txngate_numeric_add``,
``_sub`` and ``_mul`` carry such a result through + - * exactly.
``txngate_fixed_quotient`` is the division of fixed-point columns
(BIGINTs and their scales) over whole columns, for quotients read for
every row (planner.bind._fixed_quotient); ``txngate_numeric_quotient``
the same of unconstrained numerics (DECIMAL(38,10), each value its own
scale).
``txngate_numeric_input(text, places)`` reads a number's text as
PostgreSQL's numeric input does, refusing what DuckDB's cast would round
or misread (planner.bind's casts to numeric of text, doubles and reals).

Invariant: the text returned is PostgreSQL's output for the same
operands, digit for digit.
"""

from __future__ import annotations

import decimal
import math
import operator
import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from local_exec import udf
from local_exec.udf import FunctionError
from values import TOO_MANY_PLACES

__all__ = ["FUNCTIONS", "fixed_quotient", "ln_dweight", "numeric_div", "numeric_exp", "numeric_input", "numeric_input_column", "numeric_ln",
           "numeric_log", "numeric_power", "numeric_quotient", "numeric_sqrt", "numeric_variance", "register", "significant_places"]

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
    return format(_divided(x, y, div_scale(x, y) if not y.is_zero() else 0), "f")


def _divided(x: decimal.Decimal, y: decimal.Decimal, scale: int) -> decimal.Decimal:
    """``x / y`` rounded half away from zero at ``scale`` places (22012 for a zero ``y``)."""
    if y.is_zero():
        raise FunctionError("22012", "division by zero")
    with decimal.localcontext() as ctx:
        ctx.prec = max(x.adjusted() - y.adjusted(), 0) + scale + 10
        ctx.rounding = decimal.ROUND_HALF_UP
        return (x / y).quantize(decimal.Decimal(1).scaleb(-scale))


def _exactly(op, a: str, b: str) -> str:
    """``op`` of two numerics' texts, exactly: the scale of a sum or
    difference is the larger operand scale, of a product their sum, as
    PostgreSQL's add_var, sub_var and mul_var keep them."""
    x, y = decimal.Decimal(a), decimal.Decimal(b)
    with decimal.localcontext() as ctx:
        ctx.prec = len(x.as_tuple().digits) + len(y.as_tuple().digits) + max(abs(x.adjusted()), abs(y.adjusted())) + 10
        return format(op(x, y), "f")


def numeric_add(a: str, b: str) -> str:
    return _exactly(operator.add, a, b)


def numeric_sub(a: str, b: str) -> str:
    return _exactly(operator.sub, a, b)


def numeric_mul(a: str, b: str) -> str:
    return _exactly(operator.mul, a, b)


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


#: NUMERIC_MAX_RESULT_SCALE of numeric.c
MAX_RESULT_SCALE = 2000


def _rounded(value: decimal.Decimal, scale: int) -> str:
    with decimal.localcontext() as ctx:
        ctx.prec = max(value.adjusted(), 0) + scale + 10
        ctx.rounding = decimal.ROUND_HALF_UP
        return format(value.quantize(decimal.Decimal(1).scaleb(-scale)), "f")


def _rounded_surely(compute, digits: int, scale: int) -> str:
    """``compute()`` (a transcendental value, rounded to the context's
    ``digits``) rounded to ``scale`` places as ``_rounded`` does, computed
    again with twice the digits while what lies past the scale is within a
    last digit of a half: rounding a rounded value there could cross it
    (x.99999...9|7 to the context, then up to the scale)."""
    for _ in range(4):
        with _precise(digits):
            value = compute()
        if not value:
            break
        with _precise(len(value.as_tuple().digits) + abs(scale) + 10):
            past = (abs(value).scaleb(scale) % 1) - decimal.Decimal("0.5")
            if abs(past) > decimal.Decimal(1).scaleb(value.adjusted() + 1 - max(digits, 30) + scale + 1):
                break
        digits *= 2
    return _rounded(value, scale)


def _bounded(scale: int, *dscales: int) -> int:
    return min(max(scale, *dscales, 0), MAX_DISPLAY_SCALE)


def ln_dweight(v: decimal.Decimal) -> int:
    """estimate_ln_dweight: the decimal weight of ln(v), estimated as
    PostgreSQL does (it picks the scale of ln, log and power)."""
    if v <= 0:
        return 0
    if decimal.Decimal("0.9") <= v <= decimal.Decimal("1.1"):
        x = v - 1
        return 0 if x.is_zero() else x.adjusted()
    weight, first = _weight(v)  # the first one or two base-10000 digits: v ~= digits * 10^dweight
    digits, dweight = first, weight * 4
    rest = abs(v).scaleb(-4 * weight) - first
    if rest:
        digits, dweight = digits * 10000 + int(rest.scaleb(4)), dweight - 4
    estimate = math.log(digits) + dweight * 2.302585092994046
    return int(math.log10(abs(estimate))) if estimate else 0


def _precise(digits: int):
    ctx = decimal.Context(prec=max(digits, 30), Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
    return decimal.localcontext(ctx)


def numeric_sqrt(a: str) -> str:
    x = decimal.Decimal(a)
    if x < 0:
        raise FunctionError("2201F", "cannot take square root of a negative number")
    weight, _ = _weight(x)
    scale = _bounded(MIN_SIG_DIGITS - ((weight + 1) * 2 - 1), _dscale(x))
    with _precise(x.adjusted() // 2 + scale + 12):
        root = decimal.Decimal(_rounded(x.sqrt(), scale))
    # The root was rounded twice (to the context's digits, then to the scale), which can cross a half: the
    # square root of 1.000000000000003 is 1.00000000000000149999..., whose 30 digits round to ...1500...
    # and then up. The rounded root r is right when (r - half)^2 <= x < (r + half)^2, squared exactly.
    ulp = decimal.Decimal(1).scaleb(-scale)
    half = ulp / 2
    with decimal.localcontext(decimal.Context(prec=2 * len(root.as_tuple().digits) + 10, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)):
        if root > 0 and (root - half) ** 2 > x:
            root -= ulp
        elif (root + half) ** 2 <= x:
            root += ulp
    return format(root, "f")


def numeric_exp(a: str) -> str:
    x = decimal.Decimal(a)
    weight = max(min(float(x) * 0.434294481903252, MAX_RESULT_SCALE), -MAX_RESULT_SCALE)
    if weight > MAX_RESULT_SCALE * 3 / 2:  # past numeric's range
        raise FunctionError("22003", "value overflows numeric format")
    scale = _bounded(MIN_SIG_DIGITS - int(weight), _dscale(x))
    return _rounded_surely(x.exp, max(int(weight), 0) + scale + 12, scale)


def _ln_checked(x: decimal.Decimal) -> None:
    if x.is_zero():
        raise FunctionError("2201E", "cannot take logarithm of zero")
    if x < 0:
        raise FunctionError("2201E", "cannot take logarithm of a negative number")


def numeric_ln(a: str) -> str:
    x = decimal.Decimal(a)
    _ln_checked(x)
    scale = _bounded(MIN_SIG_DIGITS - ln_dweight(x), _dscale(x))
    return _rounded_surely(x.ln, abs(x.adjusted()) + scale + 20, scale)


def numeric_log(base: str, a: str) -> str:
    """log(base, x) (and log(x), log10(x): base 10), log_var's scale."""
    b, x = decimal.Decimal(base), decimal.Decimal(a)
    _ln_checked(b)
    _ln_checked(x)
    if b == 1:
        raise FunctionError("22012", "division by zero")
    scale = _bounded(MIN_SIG_DIGITS - (ln_dweight(x) - ln_dweight(b)), _dscale(b), _dscale(x))
    return _rounded_surely(lambda: x.ln() / b.ln(), abs(x.adjusted()) + abs(b.adjusted()) + scale + 20, scale)


def numeric_power(base: str, exponent: str) -> str:
    """power(numeric, numeric) and ^: an integral exponent multiplies (the
    result rounded to 16 places, or the base's scale); any other is
    exp(exponent * ln(base)), to the scale power_var picks."""
    b, e = decimal.Decimal(base), decimal.Decimal(exponent)
    if b.is_zero() and e < 0:
        raise FunctionError("2201F", "zero raised to a negative power is undefined")
    integral = e == e.to_integral_value()
    if b < 0 and not integral:
        raise FunctionError("2201F", "a negative number raised to a non-integer power yields a complex result")
    if integral and -(1 << 31) <= e < (1 << 31):
        n, scale = int(e), _bounded(MIN_SIG_DIGITS, _dscale(b))
        if b.is_zero() or n == 0:
            return _rounded(decimal.Decimal(int(n == 0)), scale)
        estimate = n * (math.log10(abs(float(b.scaleb(-b.adjusted())))) + b.adjusted())
        if estimate > 3 * 32767 * 4:
            raise FunctionError("22003", "value overflows numeric format")
        if estimate + 1 < -scale:
            return _rounded(decimal.Decimal(0), scale)
        with _precise(int(abs(estimate)) + scale + 20):
            return _rounded(b ** n, scale)
    if b.is_zero():
        return _rounded(decimal.Decimal(0), MIN_SIG_DIGITS)
    with _precise(abs(b.adjusted()) + abs(e.adjusted()) + 40):
        exponent_ln = e * abs(b).ln()
    weight = float(exponent_ln)
    if abs(weight) > MAX_RESULT_SCALE * 3.01:
        if weight > 0:
            raise FunctionError("22003", "value overflows numeric format")
        return _rounded(decimal.Decimal(0), MAX_DISPLAY_SCALE)
    weight *= 0.434294481903252
    scale = _bounded(MIN_SIG_DIGITS - int(weight), _dscale(b), _dscale(e))
    sign = -1 if b < 0 and integral and int(e) % 2 else 1  # an odd integral exponent beyond int32 keeps a negative base's sign
    return _rounded_surely(lambda: sign * (e * abs(b).ln()).exp(), abs(int(weight)) + scale + abs(e.adjusted()) + abs(b.adjusted()) + 20, scale)


_NUMBER = re.compile(r"\s*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*")
_SPECIAL = re.compile(r"\s*[+-]?(?:nan|inf|infinity)\s*", re.IGNORECASE)


def numeric_input(text: str, places: int) -> str:
    """PostgreSQL's numeric of ``text`` (a number's text, exponents too:
    ``1e-12`` has 12 places) as a plain decimal DuckDB's cast reads
    exactly; NaN and the infinities are refused (0A000: DuckDB's decimal
    has none), text that is not a number too (22P02: DuckDB's cast reads
    ``1_000``), and, when ``places`` is not negative, a value with more
    digits after the point (22003: the cast would round them away)."""
    if _SPECIAL.fullmatch(text):
        raise FunctionError("0A000", f'numeric value "{text.strip()}" (NaN and infinity) is not supported')
    if not _NUMBER.fullmatch(text):
        raise FunctionError("22P02", f'invalid input syntax for type numeric: "{text}"')
    value = decimal.Decimal(text.strip())  # (exact: no context rounds a constructed Decimal)
    if places >= 0 and significant_places(value) > places:
        raise FunctionError("22003", TOO_MANY_PLACES)
    return f"{value:f}"


#: the places a column read by ``numeric_input_column`` keeps when its caller sets no limit (more: read a row at a time)
_UNLIMITED_PLACES = 30


def numeric_input_column(texts: pa.Array, places: pa.Array) -> pa.Array:
    """``numeric_input`` over a whole column (``places`` one constant): read
    by Arrow's decimal parser, which accepts what PostgreSQL's numeric
    input accepts but for the refusals (0A000, 22P02, 22003: the column
    is then read a row at a time, to raise each as ``numeric_input``
    does) and returns text DuckDB's cast reads (a plain decimal, or one
    with an exponent): 0.1 s a million rows, where a row at a time took 2."""
    texts = texts.combine_chunks() if isinstance(texts, pa.ChunkedArray) else texts
    limits = places.unique()
    if len(limits) == 1 and limits[0].is_valid:
        limit = limits[0].as_py()
        try:
            # (PostgreSQL trims ASCII white space only)
            parsed = pc.cast(pc.utf8_trim(texts, characters=" \t\n\r\v\f"), pa.decimal256(76, limit if limit >= 0 else _UNLIMITED_PLACES))
            # without the zeros the parse's scale added (DuckDB's cast of 30 places to 2 took it 30 times as long)
            text = pc.replace_substring_regex(pc.cast(parsed, pa.string()), r"^(-?[0-9]*\.[0-9]*?)0+$", r"\1")
            return pc.replace_substring_regex(text, r"\.$", "")
        except pa.ArrowInvalid:
            pass
    return _numeric_input_rows(texts, places)


_numeric_input_rows = udf.vectorized(numeric_input, pa.string())


def significant_places(value: decimal.Decimal) -> int:
    """The digits after the point of ``value`` without its trailing zeros
    (exactly: normalize() would round to the context's 28 digits)."""
    _, digits, exponent = value.as_tuple()
    zeros = len(digits) - len("".join(map(str, digits)).rstrip("0"))
    return max(0, -(exponent + zeros)) if any(digits) else 0


#: 10^0 .. 10^19 as uint64s, and 10^0 .. 10^38 as Arrow decimals, taken per row
_POW10_U64 = np.array([10 ** i for i in range(20)], dtype=np.uint64)
_POW10 = pa.array([decimal.Decimal(10 ** i) for i in range(39)], pa.decimal256(39, 0))


def _base_digits(m, scale: int):
    """numeric.c's (weight, first digit) in base 10000 of ``m * 10^-scale``
    for a numpy uint64 array ``m`` ((0, 0) where ``m`` is 0): the leading
    digit's exponent e makes the weight floor(e / 4), the first digit the
    leading e mod 4 + 1 digits."""
    safe = np.maximum(m, 1)
    n = np.clip(np.floor(np.log10(safe.astype(np.float64))).astype(np.int64) + 1, 1, 20)
    # (a double's logarithm is off by one next to a power of ten)
    n = n + ((n <= 19) & (safe >= _POW10_U64[np.minimum(n, 19)])) - (safe < _POW10_U64[n - 1])
    e = n - 1 - scale
    weight = np.floor_divide(e, 4)
    shift = n - 1 - (e - 4 * weight)
    first = np.where(shift >= 0, safe // _POW10_U64[np.clip(shift, 0, 19)], safe * _POW10_U64[np.clip(-shift, 0, 19)])
    zero = m == 0
    return np.where(zero, 0, weight), np.where(zero, 0, first)


def _quotients(x, x_unit: int, x_scale, y, y_unit: int, y_scale, places: int) -> pa.Array:
    """The quotients of ``x * 10^-x_unit`` by ``y * 10^-y_unit`` (numpy
    int64 arrays of unscaled values; ``y`` has no zero), each rounded half
    away from zero at its ``select_div_scale`` from the display scales
    ``x_scale`` and ``y_scale`` (numbers or arrays), at most ``places``:
    unscaled there, as decimal128(38, 0); 22003 past 38 digits."""
    ax, ay = np.abs(x).view(np.uint64), np.abs(y).view(np.uint64)  # (|-2^63| wraps to 2^63 as a uint64)
    (w1, f1), (w2, f2) = _base_digits(ax, x_unit), _base_digits(ay, y_unit)
    scale = np.minimum(np.maximum(MIN_SIG_DIGITS - 4 * (w1 - w2 - (f1 <= f2)), np.maximum(np.maximum(x_scale, y_scale), 0)), places)
    shift = scale - x_unit + y_unit  # x 10^shift / y, rounded, is the quotient unscaled at its scale
    dividend = pa.array(ax, pa.uint64()).cast(pa.decimal256(20, 0))
    dividend = pc.if_else(pa.array((x < 0) != (y < 0)), pc.negate(dividend), dividend)
    divisor = pa.array(ay, pa.uint64()).cast(pa.decimal256(20, 0))
    try:
        shifted = pc.multiply(dividend, _POW10.take(pa.array(np.maximum(shift, 0)))).cast(pa.decimal256(39, 0))
        divisor = pc.multiply(divisor, _POW10.take(pa.array(np.maximum(-shift, 0))).cast(pa.decimal256(11, 0))).cast(pa.decimal256(31, 0))
        quotient = pc.round(pc.divide(shifted, divisor), 0, round_mode="half_towards_infinity")
        out = pc.multiply(quotient.cast(pa.decimal256(39, 0)), _POW10.take(pa.array(places - scale)).cast(pa.decimal256(21, 0)))
        return out.cast(pa.decimal128(38, 0))
    except pa.ArrowInvalid as e:  # a value past the digits a DECIMAL holds
        raise FunctionError("22003", "value overflows numeric format") from e


def fixed_quotient(a: pa.Array, a_scale: pa.Array, b: pa.Array, b_scale: pa.Array, places: pa.Array) -> pa.Array:
    """PostgreSQL's quotients of ``a * 10^-a_scale`` by ``b * 10^-b_scale``
    (BIGINT columns of unscaled values; the scales and ``places`` constant
    columns) to at most ``places`` places, unscaled there (DECIMAL(38,0):
    planner.bind scales it): each rounded half away from zero at its
    ``select_div_scale``, as ``numeric_div`` computes one, over whole
    columns (numpy for the scales, Arrow's decimal division for the
    quotients: 0.4 s a million rows, where a row at a time took 3.7 s).
    NULL in either gives NULL; a zero divisor is 22012. The caller
    (planner.bind._fixed_quotient) keeps ``|a| * 10^(places - a_scale +
    b_scale)`` below 10^38."""
    sa, sb, p = a_scale[0].as_py(), b_scale[0].as_py(), places[0].as_py()
    valid = pc.and_(pc.is_valid(a), pc.is_valid(b))
    x = a.fill_null(0).to_numpy(zero_copy_only=False)
    y = b.fill_null(1).to_numpy(zero_copy_only=False)
    if (y == 0).any():
        raise FunctionError("22012", "division by zero")
    return pc.if_else(valid, _quotients(x, sa, sa, y, sb, sb, p), pa.scalar(None, pa.decimal128(38, 0)))


def _unscaled(values: pa.Array):
    """The unscaled int64s of a decimal128 array, or None when one does
    not fit (NULLs read as 0)."""
    values = values.fill_null(0)
    words = np.frombuffer(values.buffers()[1], dtype=np.int64)[2 * values.offset:2 * (values.offset + len(values))].reshape(-1, 2)
    low, high = words[:, 0], words[:, 1]
    return low if (high == (low >> 63)).all() else None


def _stripped_scale(m, unit: int):
    """The places of ``m * 10^-unit`` without trailing zeros (numpy)."""
    zeros = np.zeros(len(m), dtype=np.int64)
    still = m != 0
    for k in range(1, unit + 1):
        still &= m % (10 ** k) == 0
        zeros += still
    return np.where(m == 0, 0, unit - zeros)


def numeric_quotient(a: pa.Array, a_scale: pa.Array, b: pa.Array, b_scale: pa.Array, places: pa.Array) -> pa.Array:
    """``fixed_quotient`` of DECIMAL(38,10) columns, an unconstrained
    numeric's (a scale of -1: each value's own, its places without
    trailing zeros, as txngate keeps no display scale) or a fixed-point
    one's; a column whose values pass 18 digits unscaled is divided a row
    at a time (``numeric_div``)."""
    sa, sb, p = a_scale[0].as_py(), b_scale[0].as_py(), places[0].as_py()
    a, b = (c.combine_chunks() if isinstance(c, pa.ChunkedArray) else c for c in (a, b))
    valid = pc.and_(pc.is_valid(a), pc.is_valid(b))
    unit = a.type.scale
    x, y = _unscaled(a), _unscaled(b)
    valid_rows = np.asarray(valid.fill_null(False))
    if y is not None and (y[valid_rows] == 0).any():
        raise FunctionError("22012", "division by zero")
    if x is None or y is None:
        return pa.array([None if u is None or v is None else _one_quotient(u, sa, v, sb, p)
                         for u, v in zip(a.to_pylist(), b.to_pylist())], pa.decimal128(38, 0))
    y = np.where(valid_rows, y, 1)
    x_scale = _stripped_scale(x, unit) if sa < 0 else sa
    y_scale = _stripped_scale(y, unit) if sb < 0 else sb
    return pc.if_else(valid, _quotients(x, unit, x_scale, y, unit, y_scale, p), pa.scalar(None, pa.decimal128(38, 0)))


def _one_quotient(u: decimal.Decimal, u_scale: int, v: decimal.Decimal, v_scale: int, places: int) -> decimal.Decimal:
    """One quotient as ``_quotients`` gives it (unscaled at ``places``), from Decimals."""
    x, y = decimal.Decimal(_plain(u, u_scale)), decimal.Decimal(_plain(v, v_scale))
    q = _divided(x, y, min(div_scale(x, y), places) if not y.is_zero() else 0)
    sign, digits, exponent = q.as_tuple()
    unscaled = int("".join(map(str, digits))) * 10 ** (exponent + places)  # (exponent >= -places: exact)
    if unscaled >= 10 ** 38:
        raise FunctionError("22003", "value overflows numeric format")
    return decimal.Decimal(-unscaled if sign else unscaled)


def _plain(value: decimal.Decimal, scale: int) -> str:
    """A value's text at its display scale (-1: without trailing zeros)."""
    if scale >= 0:
        return f"{value.quantize(decimal.Decimal(1).scaleb(-scale)):f}"
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


FUNCTIONS = {
    "txngate_numeric_div": (numeric_div, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_mod": (numeric_mod, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_add": (numeric_add, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_sub": (numeric_sub, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_mul": (numeric_mul, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_trunc_div": (numeric_trunc_div, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_variance": (numeric_variance, ["VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "INTEGER"], "VARCHAR"),
    "txngate_numeric_sqrt": (numeric_sqrt, ["VARCHAR"], "VARCHAR"),
    "txngate_numeric_exp": (numeric_exp, ["VARCHAR"], "VARCHAR"),
    "txngate_numeric_ln": (numeric_ln, ["VARCHAR"], "VARCHAR"),
    "txngate_numeric_log": (numeric_log, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_numeric_power": (numeric_power, ["VARCHAR", "VARCHAR"], "VARCHAR"),
}


def register(con) -> None:
    udf.register(con, FUNCTIONS)
    con.create_function("txngate_numeric_input", numeric_input_column, ["VARCHAR", "INTEGER"], "VARCHAR", type="arrow", null_handling="special")
    con.create_function("txngate_fixed_quotient", fixed_quotient, ["BIGINT", "INTEGER", "BIGINT", "INTEGER", "INTEGER"], "DECIMAL(38,0)",
                        type="arrow", null_handling="special")
    con.create_function("txngate_numeric_quotient", numeric_quotient, ["DECIMAL(38,10)", "INTEGER", "DECIMAL(38,10)", "INTEGER", "INTEGER"],
                        "DECIMAL(38,0)", type="arrow", null_handling="special")
