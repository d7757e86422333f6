"""A numeric column without a declared scale keeps 10 digits after the
point (DuckDB's DECIMAL(38,10)); PostgreSQL keeps them all. A value that
would lose a non-zero digit is refused with 22003 on every way in (INSERT
constants and parameters, INSERT ... SELECT, UPDATE, ON CONFLICT DO
UPDATE, COPY, CREATE TABLE AS) and nothing of the statement is written:
a refusal, never a silently rounded value. Values it keeps exactly (up to
28 integer digits and 10 places, or more places that are zeros) are
stored as given."""

from __future__ import annotations

from decimal import Decimal

import pytest

from planner.copy import BytesSource
from planner.errors import SqlError

REFUSED = [
    "INSERT INTO n VALUES (9, 1.123456789012345678)",
    "INSERT INTO n VALUES (9, '0.000000000001')",
    "INSERT INTO n VALUES (9, 1), (10, 1.000000000000000000001)",  # (the rows' common type had cut it to 1)
    "INSERT INTO n VALUES (9, 1::float8 / 3)",
    "INSERT INTO n SELECT k + 10, v / 3 FROM n WHERE k <> 2",
    "UPDATE n SET v = v / 7 WHERE k <> 2",
    "UPDATE n SET v = '0.55555555555' WHERE k = 1",
    "INSERT INTO n VALUES (1, 0) ON CONFLICT (k) DO UPDATE SET v = 2.00000000001",
    "CREATE TABLE m AS SELECT v / 7 AS v FROM n WHERE k <> 2",
]


async def _stored(s) -> list:
    return (await s.execute("SELECT k, v FROM n ORDER BY k"))[-1].table.to_pylist()


@pytest.fixture
async def n(db):
    s = db.session()
    await s.execute("CREATE TABLE n (k integer PRIMARY KEY, v numeric)")
    await s.execute("INSERT INTO n VALUES (1, 1.5), (2, 12345678901234567890.1234567891), (3, 2.50000000000000000000)")
    await s.execute("INSERT INTO n VALUES (4, 0.1::float8)")
    return s


async def test_exact_values_are_kept(n):
    assert await _stored(n) == [
        {"k": 1, "v": Decimal("1.5")}, {"k": 2, "v": Decimal("12345678901234567890.1234567891")},
        {"k": 3, "v": Decimal("2.5")}, {"k": 4, "v": Decimal("0.1")},
    ]


@pytest.mark.parametrize("sql", REFUSED)
async def test_lost_digits_are_refused(n, sql):
    before = await _stored(n)
    with pytest.raises(SqlError) as e:
        await n.execute(sql)
    assert e.value.sqlstate == "22003", e.value.message
    assert "10 digits after the decimal point" in e.value.message
    assert await _stored(n) == before


async def test_parameters_and_copy_are_refused(n):
    before = await _stored(n)
    with pytest.raises(SqlError) as e:
        await n.execute("INSERT INTO n VALUES ($1, $2)", [9, Decimal("3.14159265358979323846")])
    assert e.value.sqlstate == "22003"
    with pytest.raises(SqlError) as e:
        await n.execute("COPY n FROM STDIN (FORMAT csv)", copy_source=BytesSource("9,1.25\n10,3.14159265358979323846\n"))
    assert e.value.sqlstate == "22003"
    assert await _stored(n) == before
    await n.execute("COPY n FROM STDIN (FORMAT csv)", copy_source=BytesSource("9,1.25\n10,3.1415926536\n"))
    assert (await _stored(n))[-2:] == [{"k": 9, "v": Decimal("1.25")}, {"k": 10, "v": Decimal("3.1415926536")}]


async def test_numerics_of_many_places_meet_others_without_losing_one(n):
    """Where numerics meet (a VALUES column, CASE, COALESCE, GREATEST, ARRAY,
    UNION, IN), DuckDB's common type of a 21-place constant and a numeric
    of 10 places kept 28 integer digits and cut the places: 1 for
    1.000000000000000000001, stored or answered without an error."""
    await n.execute("CREATE TABLE w (k integer, v numeric(30,25))")
    await n.execute("INSERT INTO w VALUES (1, 1.000000000000000000001), (2, 2.5), (3, '0.0000000000000000000000001')")
    wide = Decimal("1.000000000000000000001")
    stored = (await n.execute("SELECT v FROM w ORDER BY k"))[-1].table.column("v").to_pylist()
    assert stored == [wide, Decimal("2.5"), Decimal("1e-25")]
    queries = {
        "SELECT coalesce(NULLIF(v, v), 1.000000000000000000001) FROM n WHERE k = 1": wide,
        "SELECT CASE WHEN k = 1 THEN 1.000000000000000000001::numeric ELSE v END FROM n WHERE k = 1": wide,
        "SELECT greatest(v, 1.000000000000000000001) FROM n WHERE k = 1": Decimal("1.5"),
        "SELECT (ARRAY[v, 1.000000000000000000001])[2] FROM n WHERE k = 1": wide,
        "SELECT x FROM (SELECT v AS x FROM n WHERE k = 1 UNION ALL SELECT 1.000000000000000000001) u ORDER BY x LIMIT 1": wide,
        "SELECT max(x) FROM (VALUES (1.000000000000000000001::numeric), (0.5::numeric)) t(x)": wide,
    }
    for sql, expected in queries.items():
        assert (await n.execute(sql))[-1].table.column(0).to_pylist() == [expected], sql
    assert (await n.execute("SELECT 1.000000000000000000001 IN (1.0, v) FROM n WHERE k = 1"))[-1].table.column(0).to_pylist() == [False]


async def test_a_parameter_of_many_places_keeps_them(n):
    """A decimal parameter is typed by its value; beside a numeric column
    the common type cut it to 10 places (0 for 1e-21): it is written in as
    its constant, which keeps them."""
    tiny = Decimal("0.000000000000000000001")
    for sql in ("SELECT coalesce(NULLIF(v, v), $1) FROM n WHERE k = 1", "SELECT CASE WHEN k > 1 THEN v ELSE $1 END FROM n WHERE k = 1",
                "SELECT $1::numeric", "SELECT x FROM (SELECT $1 AS x UNION ALL SELECT v FROM n WHERE k = 1) u ORDER BY x LIMIT 1"):
        assert (await n.execute(sql, [tiny]))[-1].table.column(0).to_pylist() == [tiny], sql
    assert (await n.execute("SELECT v + $1 FROM n WHERE k = 1", [-tiny]))[-1].table.column(0).to_pylist() == [Decimal("1.5") - tiny]


async def test_many_places_beside_a_numeric_of_unknown_scale_are_refused(n):
    """A column whose type the planner cannot tell (a function's) may be a
    numeric of 10 places: a wider constant beside it is refused (0A000),
    never cut; a VALUES column of one type is known."""
    with pytest.raises(SqlError) as e:
        await n.execute("SELECT coalesce(x, 1e-20) FROM unnest(ARRAY[NULL, 1.5]::numeric[]) t(x)")
    assert e.value.sqlstate == "0A000"
    answer = (await n.execute("SELECT coalesce(x, 1e-20) FROM (VALUES (NULL::numeric), (1.5)) t(x) ORDER BY 1"))[-1]
    assert answer.table.column(0).to_pylist() == [Decimal("1e-20"), Decimal("1.5")]
    # a quotient (computed at 20 places) beside a numeric of unknown scale is not a constant: answered as before
    await n.execute("CREATE TABLE q (id integer, d numeric(12,3))")
    await n.execute("INSERT INTO q VALUES (1, 0.5), (2, NULL)")
    assert (await n.execute("SELECT id FROM q WHERE (round((100.0 * d), 2) / 2) IN (SELECT (COALESCE(y.id, -2.50) / 2) FROM q y)"))[-1].table.num_rows == 0
    answer = (await n.execute("SELECT coalesce(x, 1e-20) FROM (VALUES (NULL::float8), (1.5::float8)) t(x) ORDER BY 1"))[-1]
    assert answer.table.column(0).to_pylist() == [1e-20, 1.5]  # beside a double, a double (PostgreSQL's too)


CAST_REFUSED = [
    "SELECT t::numeric FROM (VALUES ('1.000000000001')) v(t)",  # text: DuckDB's cast gave 1
    "SELECT t::numeric FROM (VALUES ('1e-12')) v(t)",  # an exponent's places (it gave 0)
    "SELECT (j ->> 'a')::numeric FROM (VALUES ('{\"a\": 1.000000000001}'::jsonb)) v(j)",
    "SELECT (j -> 'a')::numeric + 1 FROM (VALUES ('{\"a\": 12345.0000000000000000000000000000000000000000000005}'::jsonb)) v(j)",
    "SELECT f::numeric FROM (VALUES (1::float8 / 3)) v(f)",  # PostgreSQL's 0.333333333333333 (it gave 0.3333333333)
    "SELECT sum(f::numeric) FROM (VALUES (2::float8 / 3)) v(f)",
]


@pytest.mark.parametrize("sql", CAST_REFUSED)
async def test_casts_that_would_lose_digits_are_refused(n, sql):
    """A cast to numeric keeps PostgreSQL's value of its operand (a double's
    15 significant digits, a real's 6, a text's number) or is refused:
    DuckDB's cast to its 10 places rounded them away without a word."""
    with pytest.raises(SqlError) as e:
        await n.execute(sql)
    assert e.value.sqlstate == "22003", e.value.message
    assert "10 digits after the decimal point" in e.value.message


async def test_casts_keep_postgres_values(n):
    """What a cast can hold exactly is PostgreSQL's value: a real's 6 digits
    (0.1, where its binary fraction is 0.100000001), a numeric(20,15)'s 15
    places, and round(x::numeric, k) of a double rounds its 15 digits at
    once (2/3 to 0.67; its 10-place cast would be refused)."""
    r = (await n.execute(
        "SELECT r::numeric AS a, d::numeric AS b, round(f::numeric, 2) AS c, round(f::numeric) AS d, f::numeric(6,2) AS e "
        "FROM (VALUES (0.1::real, 1.000000000000001::numeric(20,15), 2::float8 / 3)) v(r, d, f)"))[-1].table.to_pylist()
    assert list(r[0].values()) == [Decimal("0.1"), Decimal("1.000000000000001"), Decimal("0.67"), Decimal("1"), Decimal("0.67")]
