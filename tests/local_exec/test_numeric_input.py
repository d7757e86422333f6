"""local_exec.numeric's numeric input over whole columns (Arrow's decimal
parser) against ``numeric_input`` a row at a time: the same numbers after
DuckDB's cast, and the same refusals (a column holding one is read a row
at a time, which raises it)."""

from __future__ import annotations

import decimal

import duckdb
import pytest

from local_exec import numeric
from local_exec.udf import FunctionError

ACCEPTED = ["0.125", "1e+20", "-3.5e-07", "+1.5", ".5", "5.", " 2.5 ", "\t7\n", "1E5", "-0", "0.10000000000000", "12345678901234567890.5",
            "0.0000000001", "1e-30", "-987654321.0123456789"]
REFUSED = {"": "22P02", "1_000": "22P02", "NaN": "0A000", "-Infinity": "0A000", "0x10": "22P02", "1.2.3": "22P02", "e5": "22P02"}


@pytest.fixture(scope="module")
def con():
    c = duckdb.connect()
    numeric.register(c)
    yield c
    c.close()


@pytest.mark.parametrize("places", [10, -1])
def test_a_column_reads_as_row_by_row(con, places):
    texts = [t for t in ACCEPTED if places < 0 or numeric.significant_places(decimal.Decimal(t.strip())) <= places]
    column = con.execute(f"SELECT txngate_numeric_input(t, {places}) FROM unnest(?) AS u(t)", [texts]).fetchall()
    for text, (got,) in zip(texts, column):
        want = decimal.Decimal(numeric.numeric_input(text, places))
        assert decimal.Decimal(got) == want, (text, got, want)
        cast = con.execute("SELECT CAST(? AS DECIMAL(38,10))", [got]).fetchone()[0]  # (DuckDB's cast reads it)
        assert cast == want.quantize(decimal.Decimal("1e-10"), context=decimal.Context(prec=60, rounding=decimal.ROUND_HALF_UP)), (text, got, cast)


def test_more_places_than_kept_are_refused(con):
    with pytest.raises(duckdb.Error, match=r"\[22003\]"):
        con.execute("SELECT txngate_numeric_input(t, 10) FROM unnest(['1.5', '1e-12']) AS u(t)").fetchall()
    assert decimal.Decimal(con.execute("SELECT txngate_numeric_input('1e-35', -1)").fetchone()[0]) == decimal.Decimal("1e-35")


@pytest.mark.parametrize("text, sqlstate", sorted(REFUSED.items()))
def test_refusals_keep_their_sqlstate(con, text, sqlstate):
    with pytest.raises(FunctionError) as row:
        numeric.numeric_input(text, 10)
    assert row.value.sqlstate == sqlstate
    with pytest.raises(duckdb.Error, match=rf"\[{sqlstate}\]"):
        con.execute("SELECT txngate_numeric_input(t, 10) FROM unnest(['1', ?]) AS u(t)", [text]).fetchall()
