"""values.text: a numeric column's text, by Arrow's decimal cast at scales
up to MAX_PLAIN_SCALE and value by value past it, is the value's exact
plain text for every precision, scale and value: declared
(``numeric(p,s)``) with its scale, unconstrained (``numeric``) with the
significant digits after the point. (Value by value, an unconstrained
value of more than 28 digits was rounded: 1000000000000000000000000000.1
printed without its .1.)"""

from __future__ import annotations

import decimal

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from values.text import MAX_PLAIN_SCALE, format_column


@st.composite
def _decimal_columns(draw):
    precision = draw(st.integers(1, 38))
    scale = draw(st.integers(0, min(precision, MAX_PLAIN_SCALE + 4)))
    limit = 10**precision - 1
    units = draw(st.lists(st.one_of(st.integers(-limit, limit), st.sampled_from([0, 1, -1, limit, -limit])), min_size=1, max_size=40))
    with decimal.localcontext(decimal.Context(prec=60)):
        values = [decimal.Decimal(u).scaleb(-scale) for u in units]
    return pa.array(values + [None], pa.decimal128(precision, scale))


@settings(max_examples=400, deadline=None)
@given(_decimal_columns(), st.booleans())
def test_numeric_text_is_the_value_by_value_text(column, declared):
    sql_type = f"numeric({column.type.precision},{column.type.scale})" if declared else "numeric"
    expected = [None if v is None else _plain(v, declared) for v in column.to_pylist()]
    assert format_column(column, sql_type).to_pylist() == expected
    if column.type.scale <= MAX_PLAIN_SCALE:  # the value by value path agrees too
        wide = column.cast(pa.decimal256(column.type.precision + 10, column.type.scale + 10))  # past the plain scales
        assert format_column(wide, "numeric").to_pylist() == [None if v is None else _plain(v, False) for v in column.to_pylist()]


def _plain(v: decimal.Decimal, declared: bool) -> str:
    digits = str(abs(v.as_tuple().digits and int("".join(map(str, v.as_tuple().digits))) or 0)).rjust(-v.as_tuple().exponent + 1, "0")
    exponent = -v.as_tuple().exponent
    text = digits[: len(digits) - exponent] + ("." + digits[len(digits) - exponent:] if exponent else "")
    if not declared and exponent:
        text = text.rstrip("0").rstrip(".")
    return ("-" if v.is_signed() and any(v.as_tuple().digits) else "") + text
