"""The SQL slice at the Session API: DDL, INSERT, SELECT, errors with
SQLSTATEs, uniqueness under concurrency."""

from __future__ import annotations

import asyncio
import datetime as dt
import decimal

import pytest

from planner.errors import SqlError
from tests.planner.helpers import error, one as run


async def test_ddl_insert_select_roundtrip(db):
    s = db.session()
    assert (await run(s, "CREATE TABLE t (id bigint PRIMARY KEY, v text NOT NULL DEFAULT 'x', n numeric(10,2), d date, ts timestamptz, ok boolean)")).tag == "CREATE TABLE"
    r = await run(s, "INSERT INTO t (id, n, d, ts, ok) VALUES (1, 2.5, '1969-12-31', '2024-01-02 03:04:05+00', true), (2, NULL, NULL, NULL, false)")
    assert r.tag == "INSERT 0 2"
    r = await run(s, "SELECT id, v, n, d, ts, ok FROM t ORDER BY id")
    assert r.tag == "SELECT 2"
    assert r.columns == [("id", "bigint"), ("v", "text"), ("n", "numeric(10,2)"), ("d", "date"), ("ts", "timestamptz"), ("ok", "boolean")]
    assert r.rows[0] == (1, "x", decimal.Decimal("2.50"), dt.date(1969, 12, 31), dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc), True)
    assert r.rows[1] == (2, "x", None, None, None, False)
    r = await run(s, "SELECT count(*) AS c, sum(n) AS total FROM t WHERE id >= $1", [1])
    assert r.rows == [(2, decimal.Decimal("2.50"))]
    assert (await run(s, "DROP TABLE t")).tag == "DROP TABLE"
    assert (await error(s, "SELECT * FROM t")).sqlstate == "42P01"


async def test_multi_statement_strings_and_settings(db):
    s = db.session()
    results = await s.execute("CREATE TABLE a (x integer); INSERT INTO a VALUES (1), (2); SELECT sum(x) AS s FROM a; SHOW timezone")
    assert [r.tag for r in results] == ["CREATE TABLE", "INSERT 0 2", "SELECT 1", "SHOW"]
    assert results[2].rows == [(3,)]
    await s.execute("SET application_name = 'probe'")
    assert (await run(s, "SHOW application_name")).rows == [("probe",)]
    await s.execute("RESET application_name")
    assert (await run(s, "SHOW application_name")).rows == [("",)]


@pytest.mark.parametrize(
    "sql, sqlstate",
    [
        ("SELEC 1", "42601"),
        ("SELECT * FROM missing", "42P01"),
        ("SELECT nope FROM e", "42703"),
        ("SELECT no_such_function(1)", "42883"),
        ("SELECT to_char(1.5, 'S9.9EEEE')", "42601"),
        ("SELECT '34.5'::int2", "22P02"),  # DuckDB's cast rounded it
        ("SELECT int4 '3000000000'", "22003"),
        ("SELECT '10e400'::float8", "22003"),  # DuckDB's was infinity
        ("SELECT date '13/13/13'", "22008"),
        ("SELECT '12_000'::numeric", "22P02"),  # DuckDB's cast took it
        ("SELECT 0 ^ -1", "2201F"),  # DuckDB's was infinity
        ("SELECT log(1, 10)", "22012"),
        ("SELECT 'abc' SIMILAR TO label FROM e", "0A000"),
        ("CREATE TABLE e (y int)", "42P07"),
        ("INSERT INTO e VALUES (1, 'dup')", "23505"),
        ("INSERT INTO e (label) VALUES ('no key')", "23502"),
        ("INSERT INTO e VALUES ('abc', 'x')", "22P02"),
        ("INSERT INTO e (nope) VALUES (1)", "42703"),
        ("CREATE TABLE f (z geometry)", "42704"),
        ("CREATE TABLE g (a int, a int)", "42701"),
        ("CREATE TRIGGER tr BEFORE INSERT ON e FOR EACH ROW EXECUTE FUNCTION f()", "0A000"),
        ("INSERT INTO e VALUES (2, NULL), (2, NULL)", "23505"),
        ("INSERT INTO e VALUES (3, $$x$$); INSERT INTO e VALUES (1, $$y$$)", "23505"),
        ("UPDATE e SET id = 'abc'", "22P02"),
        ("SAVEPOINT s", "25P01"),
        ("PREPARE TRANSACTION 'x'", "0A000"),
        ("SHOW no_such_setting", "42704"),
        ("WITH d AS (DELETE FROM e RETURNING *) SELECT * INTO TEMP x FROM d", "0A000"),  # SELECT INTO under data-modifying CTEs
        ("SET timezone = 'Nowhere/City'", "22023"),
        ("SET TIME ZONE '+25:00'", "0A000"),  # an offset of a day or more would be printed as UTC
        ("SET TIME ZONE 'XST5XDT'", "0A000"),  # and a POSIX zone's daylight rules ignored
        ("SET datestyle = 'German'", "0A000"),  # dates are printed in ISO only
        ("SET intervalstyle = 'bogus'", "22023"),
        ("SELECT 12345678901234567890123456789012345678901234 * 2", "0A000"),  # past numeric's 38 digits: never a double
        ("SELECT 1e400", "0A000"),
        ("SELECT 'NaN'::numeric", "0A000"),  # numeric NaN and infinity: refused by name, not as bad syntax
        ("INSERT INTO e VALUES (5, 'x'), (6, 'y'); SELECT 'Infinity'::numeric(10,2)", "0A000"),
        ("SET bytea_output = 'octal'", "22023"),
        ("SET extra_float_digits = 4", "22023"),
    ],
)
async def test_errors_carry_sqlstates(db, sql, sqlstate):
    s = db.session()
    await s.execute("CREATE TABLE e (id integer PRIMARY KEY, label text); INSERT INTO e VALUES (1, 'one')")
    err = await error(s, sql)
    assert err.sqlstate == sqlstate, (err.sqlstate, err.message)
    # Nothing half-written: the table still holds exactly its one row.
    assert (await run(s, "SELECT count(*) AS c FROM e")).rows == [(1,)]


async def test_syntax_error_reports_position(db):
    err = await error(db.session(), "SELECT 1 FRO x")
    assert err.sqlstate == "42601" and err.position == 14


async def test_concurrent_unique_inserts_exactly_one_wins(db):
    await db.session().execute("CREATE TABLE u (id integer PRIMARY KEY, who text)")

    async def insert(who: int):
        try:
            await db.session().execute(f"INSERT INTO u VALUES (7, 'w{who}')")
            return "ok"
        except SqlError as e:
            return e.sqlstate

    outcomes = await asyncio.gather(*(insert(i) for i in range(6)))
    assert outcomes.count("ok") == 1 and outcomes.count("23505") == 5, outcomes
    assert (await run(db.session(), "SELECT count(*) FROM u")).rows == [(1,)]


async def test_concurrent_create_table_exactly_one_wins(db):
    async def create():
        try:
            await db.session().execute("CREATE TABLE same (x integer)")
            return "ok"
        except SqlError as e:
            return e.sqlstate

    outcomes = await asyncio.gather(*(create() for _ in range(4)))
    assert outcomes.count("ok") == 1 and outcomes.count("42P07") == 3, outcomes


async def test_insert_select_between_tables(db):
    s = db.session()
    await s.execute("CREATE TABLE src (a integer, b text); INSERT INTO src VALUES (1, 'x'), (2, 'y'), (3, NULL)")
    await s.execute("CREATE TABLE dst (a integer, b text)")
    assert (await run(s, "INSERT INTO dst SELECT a * 10, upper(b) FROM src WHERE a > 1")).tag == "INSERT 0 2"
    assert (await run(s, "SELECT a, b FROM dst ORDER BY a")).rows == [(20, "Y"), (30, None)]


async def test_division_by_zero_is_22012(db):
    err = await error(db.session(), "SELECT 1 / 0")
    assert err.sqlstate == "22012" and err.message == "division by zero"
