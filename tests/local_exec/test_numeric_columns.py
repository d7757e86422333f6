"""local_exec.numeric's functions over whole columns against its
functions of one value, through DuckDB as planner.bind calls them:

* ``fixed_quotient`` and ``numeric_quotient`` (per-row quotients of
  fixed-point and unconstrained numerics) against ``numeric_div``
  (PostgreSQL's division): the same value, rounded at the same scale,
  for seeded random operands of every size and the edges of BIGINT;
* numeric input (Arrow's decimal parser) against ``numeric_input``: the
  same numbers after DuckDB's cast, and the same refusals (a column
  holding one is read a row at a time, which raises it)."""

from __future__ import annotations

import decimal
import random

import duckdb
import pytest

from local_exec import numeric
from local_exec.udf import FunctionError


@pytest.fixture(scope="module")
def con():
    c = duckdb.connect()
    numeric.register(c)
    yield c
    c.close()


def expected(a: int, sa: int, b: int, sb: int, places: int) -> decimal.Decimal:
    """PostgreSQL's quotient, to at most ``places`` places (where it has more, rounded there)."""
    exact = decimal.Decimal(numeric.numeric_div(str(decimal.Decimal(a).scaleb(-sa)), str(decimal.Decimal(b).scaleb(-sb))))
    scale = min(-exact.as_tuple().exponent, places)
    return exact.quantize(decimal.Decimal(1).scaleb(-scale), context=decimal.Context(prec=100, rounding=decimal.ROUND_HALF_UP))


def quotients(con, rows: list[tuple[int, int]], sa: int, sb: int, places: int) -> list:
    con.execute("CREATE OR REPLACE TEMP TABLE q (i INTEGER, a BIGINT, b BIGINT)")
    con.executemany("INSERT INTO q VALUES (?, ?, ?)", [(i, a, b) for i, (a, b) in enumerate(rows)])
    sql = (f"SELECT txngate_fixed_quotient(a, {sa}, b, {sb}, {places}) * CAST('1e-{places}' AS DECIMAL(38,{places})) "
           "FROM q ORDER BY i")
    return [r[0] for r in con.execute(sql).fetchall()]


@pytest.mark.parametrize("sa, sb, places", [(3, 2, 20), (0, 0, 20), (2, 0, 20), (0, 4, 20), (0, 1, 17)])
def test_random_operands(con, sa, sb, places):
    rng = random.Random(sa * 100 + sb * 10 + places)
    limit = 10 ** (places - 20 + 18) if places < 20 else 10 ** 12
    rows = []
    for _ in range(3000):
        a = rng.randint(-limit, limit) // 10 ** rng.randint(0, 11)
        b = rng.choice([-1, 1]) * max(1, rng.randint(1, 10 ** 9) // 10 ** rng.randint(0, 8))
        rows.append((a, b))
    got = quotients(con, rows, sa, sb, places)
    for (a, b), q in zip(rows, got):
        want = expected(a, sa, b, sb, places)
        assert q == want and -q.as_tuple().exponent == places, (a, b, q, want)


def test_edges(con):
    small = [(0, 7), (5, 3), (-5, 3), (1, 3), (2, 3), (9999, 1), (10000, 3), (1, 9999), (1, 10000), (15, -2)]
    for (a, b), q in zip(small, quotients(con, small, 1, 0, 20)):
        assert q == expected(a, 1, b, 0, 20), (a, b, q)
    wide = [(2 ** 63 - 1, 3), (-2 ** 63, 7), (10 ** 18, 3), (10 ** 18 - 1, 7), (1, 2 ** 63 - 1), (5, -2 ** 63)]
    for (a, b), q in zip(wide, quotients(con, wide, 0, 0, 17)):
        assert q == expected(a, 0, b, 0, 17), (a, b, q)


def test_nulls_and_zero(con):
    assert con.execute("SELECT txngate_fixed_quotient(NULL, 0, 3, 0, 20), txngate_fixed_quotient(3, 0, NULL, 0, 20)").fetchall() == [(None, None)]
    with pytest.raises(duckdb.Error, match=r"\[22012\] division by zero"):
        con.execute("SELECT txngate_fixed_quotient(3, 0, 0, 0, 20)").fetchall()


def unconstrained(con, rows: list[tuple], a_scale: int, b_scale: int) -> list:
    con.execute("CREATE OR REPLACE TEMP TABLE u (i INTEGER, a DECIMAL(38,10), b DECIMAL(38,10))")
    con.executemany("INSERT INTO u VALUES (?, ?, ?)", [(i, a, b) for i, (a, b) in enumerate(rows)])
    return [r[0] for r in con.execute(f"SELECT txngate_numeric_quotient(a, {a_scale}, b, {b_scale}, 20) * CAST('1e-20' AS DECIMAL(38,20)) "
                                      "FROM u ORDER BY i").fetchall()]


@pytest.mark.parametrize("wide", [False, True])
def test_unconstrained_operands(con, wide):
    """Each value's scale is its places without trailing zeros; values past 18
    unscaled digits (wide) are divided a row at a time, to the same answers."""
    rng = random.Random(7 + wide)
    rows = [(decimal.Decimal(rng.randint(-10 ** 12, 10 ** 12)).scaleb(-rng.randint(0, 10)),
             decimal.Decimal(rng.choice([-1, 1]) * rng.randint(1, 10 ** 9)).scaleb(-rng.randint(0, 10))) for _ in range(2000)]
    if wide:
        rows.append((decimal.Decimal("123456789012345678.5"), decimal.Decimal(7)))
    rows.append((None, decimal.Decimal(1)))
    for (a, b), q in zip(rows, unconstrained(con, rows, -1, -1)):
        if a is None:
            assert q is None
            continue
        strip = lambda v: decimal.Decimal(f"{v:f}".rstrip("0").rstrip(".") if "." in f"{v:f}" else f"{v:f}")  # noqa: E731
        sa, sb = max(0, -strip(a).as_tuple().exponent), max(0, -strip(b).as_tuple().exponent)
        assert q == expected(int(a.scaleb(sa)), sa, int(b.scaleb(sb)), sb, 20), (a, b, q)
    with pytest.raises(duckdb.Error, match=r"\[22012\] division by zero"):
        unconstrained(con, [(decimal.Decimal(1), decimal.Decimal(0))], -1, 2)


ACCEPTED = ["0.125", "1e+20", "-3.5e-07", "+1.5", ".5", "5.", " 2.5 ", "\t7\n", "1E5", "-0", "0.10000000000000", "12345678901234567890.5",
            "0.0000000001", "1e-30", "-987654321.0123456789"]
REFUSED = {"": "22P02", "1_000": "22P02", "NaN": "0A000", "-Infinity": "0A000", "0x10": "22P02", "1.2.3": "22P02", "e5": "22P02"}




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
