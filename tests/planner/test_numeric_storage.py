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
