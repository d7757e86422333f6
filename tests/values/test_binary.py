"""values.binary: PostgreSQL's binary format, value by value. Each value
decodes to what was encoded (the parameters' direction is what clients
send; results are checked against real clients in tests/gateway)."""

from __future__ import annotations

import datetime as dt
import decimal

import psycopg
from hypothesis import given
from hypothesis import strategies as st

from values import decode_binary, encode_binary, type_oid

_VALUES = {
    "smallint": st.integers(-(1 << 15), (1 << 15) - 1),
    "integer": st.integers(-(1 << 31), (1 << 31) - 1),
    "bigint": st.integers(-(1 << 63), (1 << 63) - 1),
    "double precision": st.floats(allow_nan=False),
    "boolean": st.booleans(),
    "text": st.text(),
    "bytea": st.binary(),
    "numeric": st.decimals(allow_nan=False, allow_infinity=False, places=6, min_value=-10**20, max_value=10**20),
    "date": st.dates(),
    "timestamp": st.datetimes(),
    "timestamptz": st.datetimes(timezones=st.just(dt.timezone.utc)),
}


@given(st.sampled_from(sorted(_VALUES)).flatmap(lambda t: st.tuples(st.just(t), _VALUES[t])))
def test_each_value_round_trips(typed):
    sql_type, value = typed
    assert decode_binary(encode_binary(value, sql_type), type_oid(sql_type)[0]) == value


@given(st.lists(st.one_of(st.none(), st.integers(-(1 << 31), (1 << 31) - 1)), max_size=5))
def test_arrays_round_trip_with_nulls(values):
    assert decode_binary(encode_binary(values, "integer[]"), type_oid("integer[]")[0]) == values


def test_numeric_digits_and_scale():
    data = encode_binary(decimal.Decimal("-12345.0500"), "numeric")
    assert data[:8] == b"\x00\x03\x00\x01\x40\x00\x00\x04", "3 base-10000 digits, weight 1, negative, scale 4"
    assert str(decode_binary(data, 1700)) == "-12345.0500"


def test_numerics_are_the_bytes_postgresql_sends(pg_server):
    """0.001000 was sent as 10.000000 (its digits grouped before the point
    when the scale exceeded the digit count): each value's bytes are
    PostgreSQL's own for it."""
    texts = ["0.001000", "0.001", "0.0010", "1.5", "0.0001", "0.00001", "123.000001", "1000", "0", "0.000", "-12345.0500",
             "99999999.99999999", "1E-20", "12345678901234567890.123", "100000000.0001", "0.00000001", "-0.5", "NaN"]
    with psycopg.connect(pg_server.url()) as conn:
        for text in texts:
            theirs = conn.pgconn.exec_params(b"SELECT $1::numeric", [text.encode()], result_format=1).get_value(0, 0)
            assert encode_binary(decimal.Decimal(text), "numeric") == theirs, text
