"""PostgreSQL's text output format: txngate's formatting of its own results
compared with what the real PostgreSQL sends for the same expressions (its
text output, read through psql)."""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from values import format_column, format_value

EXPRESSIONS = [
    "true", "false", "42", "(-7)::smallint", "9223372036854775807::bigint",
    "1.5e20::float8", "0.1::float8", "1e-5::float8", "123456789::float8", "1e15::float8", "1e14::float8",
    "(1.0/3)::float8", "'NaN'::float8", "'Infinity'::float8", "'-Infinity'::float8", "2.5::float8",
    "1.5::real", "0.1::real", "1e6::real", "123456::real", "3.14159::real",
    "12.50::numeric(10,2)", "0.000123::numeric", "100::numeric(8,3)", "(-5.5)::numeric",
    "'hello'::text", "''::text", "'ab'::varchar(5)",
    "date '2024-01-02'", "date '0099-03-04'",
    "'2024-01-02 03:04:05'::timestamp", "'2024-01-02 03:04:05.5'::timestamp", "'2024-01-02 03:04:05.123456'::timestamp",
    "'2024-01-02 03:04:05+00'::timestamptz", "'2024-06-02 23:59:59.25+02'::timestamptz",
    "'12:34:56'::time", "'12:34:56.789'::time",
    "interval '1 year 2 months 3 days 04:05:06.5'", "interval '-1 day'", "interval '0'", "interval '90 minutes'",
"interval '2 years'", "interval '1 mon'", "interval '-3 hours'",
    "'\\x0102ff'::bytea", "''::bytea",
    "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid",
]


#: the settings that change the text: TimeZone, IntervalStyle, bytea_output, extra_float_digits
SETTINGS = [
    ("UTC", "postgres", "hex", "1"), ("Asia/Kolkata", "postgres", "hex", "3"), ("-04:30", "postgres", "hex", "1"),
    ("UTC", "sql_standard", "escape", "0"), ("UTC", "iso_8601", "hex", "-3"), ("UTC", "postgres_verbose", "escape", "-15"),
]
#: ... and the values they print differently
STYLED = [
    "interval '-1 year -2 mons -3 days -04:05:06.789'", "interval '1 year 2 mons -3 days 04:05:06.789'", "interval '-1 days +02:03'",
    "interval '-0.000001 sec'", "interval '1 mon -1 sec'", "interval '-23 hours 45 min 12.34 sec'", "interval '1 sec'",
    "'\\x615c6201'::bytea", "'\\x00ff41'::bytea", "123456789.123456789::float8", "1e100::float8", "(-0.0)::float8", "3.14159::real",
]


@pytest.mark.parametrize("timezone, intervalstyle, bytea_output, float_digits", SETTINGS)
async def test_text_output_matches_postgres(db, pg_server, timezone, intervalstyle, bytea_output, float_digits):
    s = db.session()
    settings_sql = (f"SET timezone = '{timezone}'; SET intervalstyle = '{intervalstyle}'; SET bytea_output = '{bytea_output}'; "
                    f"SET extra_float_digits = {float_digits};")
    await s.execute(settings_sql)
    expressions = EXPRESSIONS + STYLED
    out = pg_server.psql(settings_sql + " SELECT " + ", ".join(expressions))
    texts = out.rstrip("\n").split("|")
    assert len(texts) == len(expressions)
    style = s.text_style()
    mismatches = []
    for expr, expected in zip(expressions, texts):
        result = (await s.execute(f"SELECT {expr}"))[-1]
        (value,), sql_type = result.rows[0], result.columns[0][1]
        got = format_value(value, sql_type, style)  # from Python values
        vector = format_column(result.table.column(0), sql_type, style)[0].as_py()  # from Arrow
        if got != expected or vector != expected:
            mismatches.append((expr, sql_type, got, vector, expected))
    assert not mismatches, "\n".join(map(repr, mismatches))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True)), max_size=50))
def test_float_columns_format_like_single_values(values):
    """The column-at-a-time float formatting (Arrow's cast where it agrees
    with PostgreSQL) gives exactly the value-by-value text, for float8 and float4."""
    for sql_type, arrow_type in (("double precision", pa.float64()), ("real", pa.float32())):
        arr = pa.array(values, arrow_type)
        expected = [format_value(v, sql_type) for v in arr.to_pylist()]
        assert format_column(arr, sql_type).to_pylist() == expected
