"""The DuckDB SQL the binder writes (EXPLAIN shows it) for numerics whose
types are known when the statement is bound: no dispatch on the value's
type when it runs. txngate_cast_text names its argument a dozen times,
and the engine plans each copy (TPC-H Q17's avg in a correlated subquery
took 24 ms to plan on empty tables, more than the query on its data); the
answers are PostgreSQL's (tests/planner/corpus.py, tests/tpch)."""

from __future__ import annotations

import psycopg
import pytest


async def duckdb_query(session, sql: str) -> str:
    plan = [row[0] for row in (await session.execute("EXPLAIN " + sql))[-1].rows]
    return next(line for line in plan if line.startswith("DuckDB query: "))


@pytest.mark.parametrize("sql", [
    "SELECT sum(p) / 7.0 FROM li",  # a sum of a numeric(15,2) as text
    "SELECT k FROM li o WHERE q < (SELECT 0.2 * avg(q) FROM li WHERE k = o.k)",  # an exact quotient inside an expression
    "SELECT 100.00 * sum(CASE WHEN k > 1 THEN p * (1 - d) ELSE 0 END) / sum(p * (1 - d)) FROM li",
])
async def test_known_numeric_types_are_not_dispatched_at_run_time(db, sql):
    s = db.session()
    await s.execute("CREATE TABLE li (k int, q numeric(15,2), p numeric(15,2), d numeric(15,2))")
    bound = (await duckdb_query(s, sql)).lower()
    assert "txngate_cast_text" not in bound and "typeof" not in bound, bound


async def test_unconstrained_numeric_text_is_still_stripped(db):
    s = db.session()
    await s.execute("CREATE TABLE u (x numeric)")
    assert "txngate_cast_text" in (await duckdb_query(s, "SELECT sum(x) / 3 FROM u")).lower()


async def test_text_of_a_quotient_keeps_postgres_places(db, pg_url):
    """A quotient's text is PostgreSQL's own: more places than the 20 a
    quotient inside an expression keeps (1.0 / 3000000 has 24)."""
    sql = "SELECT (1.0 / 3000000)::text, (sum(x) / 3)::text, cast(avg(x) AS varchar), (1.0 / 3000000) || '' FROM u"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS u")
        conn.execute("CREATE TABLE u (x numeric)")
        conn.execute("INSERT INTO u VALUES (1.5), (2)")
        expected = conn.execute(sql).fetchall()
    s = db.session()
    await s.execute("CREATE TABLE u (x numeric)")
    await s.execute("INSERT INTO u VALUES (1.5), (2)")
    assert (await s.execute(sql))[-1].rows == expected
