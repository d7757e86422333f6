"""PostgreSQL's float8 functions the engine lacks: the trigonometric
functions in degrees (sind, cosd, tand, cotd, asind, acosd, atand, atan2d).

PostgreSQL computes them so that the angles whose values are exact in
decimal are exact (sind(30) is 0.5, tand(45) is 1, acosd(0.5) is 60): each
argument is reduced to the first quadrant and the C library's sine, cosine
and arc functions are scaled by their own values at 30, 45 and 60 degrees
(float.c's sind_q1, cosd_q1, asind_q1, acosd_q1). Python's math module
calls the same C library, so the results are PostgreSQL's bit for bit.

Invariant: an infinite argument of sind/cosd/tand/cotd, or one outside
[-1, 1] of asind/acosd, is 22003 "input is out of range"; NaN gives NaN.
"""

from __future__ import annotations

import math

from local_exec import udf
from local_exec.udf import FunctionError

__all__ = ["FUNCTIONS", "register"]

_RADIANS_PER_DEGREE = 0.0174532925199432957692


def _sind_0_to_30(x: float) -> float:
    return (math.sin(x * _RADIANS_PER_DEGREE) / _SIN_30) / 2.0


def _cosd_0_to_60(x: float) -> float:
    return 1.0 - ((1.0 - math.cos(x * _RADIANS_PER_DEGREE)) / _ONE_MINUS_COS_60) / 2.0


def _sind_q1(x: float) -> float:
    return _sind_0_to_30(x) if x <= 30.0 else _cosd_0_to_60(90.0 - x)


def _cosd_q1(x: float) -> float:
    return _cosd_0_to_60(x) if x <= 60.0 else _sind_0_to_30(90.0 - x)


def _asind_q1(x: float) -> float:
    return math.asin(x) / _ASIN_0_5 * 30.0 if x <= 0.5 else 90.0 - math.acos(x) / _ACOS_0_5 * 60.0


def _acosd_q1(x: float) -> float:
    return 90.0 - math.asin(x) / _ASIN_0_5 * 30.0 if x <= 0.5 else math.acos(x) / _ACOS_0_5 * 60.0


_SIN_30 = math.sin(30.0 * _RADIANS_PER_DEGREE)
_ONE_MINUS_COS_60 = 1.0 - math.cos(60.0 * _RADIANS_PER_DEGREE)
_ASIN_0_5, _ACOS_0_5, _ATAN_1_0 = math.asin(0.5), math.acos(0.5), math.atan(1.0)
_TAN_45 = _sind_q1(45.0) / _cosd_q1(45.0)
_COT_45 = _cosd_q1(45.0) / _sind_q1(45.0)


def _in_range(x: float) -> None:
    if math.isinf(x):
        raise FunctionError("22003", "input is out of range")


def _divided(a: float, b: float) -> float:
    """``a / b`` as C divides doubles: by a zero, an infinity of the signs' product."""
    return a / b if b else math.copysign(math.inf, a) * math.copysign(1.0, b)


def _quadrant(x: float, sign: float) -> tuple[float, float]:
    """tand's and cotd's reduction of ``x`` to [0, 90] degrees, with the sign."""
    x = math.fmod(x, 360.0)
    if x < 0.0:
        x, sign = -x, -sign
    if x > 180.0:
        x, sign = 360.0 - x, -sign
    if x > 90.0:
        x, sign = 180.0 - x, -sign
    return x, sign


def sind(x: float) -> float:
    if math.isnan(x):
        return x
    _in_range(x)
    x, sign = math.fmod(x, 360.0), 1.0
    if x < 0.0:
        x, sign = -x, -sign
    if x > 180.0:
        x, sign = 360.0 - x, -sign
    if x > 90.0:
        x = 180.0 - x
    return sign * _sind_q1(x)


def cosd(x: float) -> float:
    if math.isnan(x):
        return x
    _in_range(x)
    x, sign = abs(math.fmod(x, 360.0)), 1.0
    if x > 180.0:
        x = 360.0 - x
    if x > 90.0:
        x, sign = 180.0 - x, -sign
    return sign * _cosd_q1(x)


def _tangent(x: float, cotangent: bool) -> float:
    """tand, or cotd: of ``x`` reduced to the first quadrant, scaled by its value at 45."""
    if math.isnan(x):
        return x
    _in_range(x)
    x, sign = _quadrant(x, 1.0)
    sine, cosine = _sind_q1(x), _cosd_q1(x)
    result = sign * (_divided(cosine, sine) / _COT_45 if cotangent else _divided(sine, cosine) / _TAN_45)
    return 0.0 if result == 0.0 else result  # never minus zero


def tand(x: float) -> float:
    return _tangent(x, False)


def cotd(x: float) -> float:
    return _tangent(x, True)


def asind(x: float) -> float:
    if math.isnan(x):
        return x
    if x < -1.0 or x > 1.0:
        raise FunctionError("22003", "input is out of range")
    return _asind_q1(x) if x >= 0.0 else -_asind_q1(-x)


def acosd(x: float) -> float:
    if math.isnan(x):
        return x
    if x < -1.0 or x > 1.0:
        raise FunctionError("22003", "input is out of range")
    return _acosd_q1(x) if x >= 0.0 else 90.0 + _asind_q1(-x)


def atand(x: float) -> float:
    return x if math.isnan(x) else math.atan(x) / _ATAN_1_0 * 45.0


def atan2d(y: float, x: float) -> float:
    return math.nan if math.isnan(x) or math.isnan(y) else math.atan2(y, x) / _ATAN_1_0 * 45.0


#: DuckDB name -> (function, parameter types, return type)
FUNCTIONS = {
    **{f"txngate_{fn.__name__}": (fn, ["DOUBLE"], "DOUBLE") for fn in (sind, cosd, tand, cotd, asind, acosd, atand)},
    "txngate_atan2d": (atan2d, ["DOUBLE", "DOUBLE"], "DOUBLE"),
}


def register(con) -> None:
    udf.register(con, FUNCTIONS)
