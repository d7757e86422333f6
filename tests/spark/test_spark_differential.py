"""The Spark corpus (tests/spark/corpus.py) on the local engine and on
Spark at the same timestamp (a read-only transaction per query): the same column
names and PostgreSQL types, and the same rows (as a multiset unless the
query orders them; floats to 12 significant digits, as summation order
differs; numerics with places to 15, as Spark's avg of integers is a
double where the local engine's is PostgreSQL's exact numeric)."""

from __future__ import annotations

import decimal
import math

import pglast
import pytest

from planner.errors import SqlError
from tests.spark.corpus import PARAMS, QUERIES, SETUP

pytestmark = pytest.mark.asyncio(loop_scope="package")


def _norm(v):
    if isinstance(v, float) and not math.isnan(v) and v != 0 and not math.isinf(v):
        return float(f"{v:.12g}")
    if isinstance(v, decimal.Decimal) and v.is_finite() and v != v.to_integral_value():
        # a numeric with places to 15 significant digits: Spark computes avg of integers in double
        # precision, where the local engine is exact (PostgreSQL's numeric avg)
        return float(f"{v:.15g}")
    return v


def _rows(result, ordered: bool) -> list[tuple]:
    rows = [tuple(_norm(v) for v in r) for r in result.rows]
    return rows if ordered else sorted(rows, key=repr)


async def test_corpus_same_on_both_engines(sdb):
    assert len(QUERIES) >= 50
    s = sdb.session()
    for sql in SETUP:
        await s.execute(sql)
    jobs = sdb.spark.runtime.jobs_started
    failures = []
    for sql in QUERIES:
        params = PARAMS.get(sql)
        answers = {}
        await s.execute("BEGIN READ ONLY")
        for engine in ("local", "spark"):
            await s.execute(f"SET txngate.engine = {engine}")
            try:
                answers[engine] = (await s.execute(sql, params))[-1]
            except SqlError as e:
                answers[engine] = e
                await s.execute("ROLLBACK")
                await s.execute("BEGIN READ ONLY")
        await s.execute("COMMIT")
        local, spark = answers["local"], answers["spark"]
        if isinstance(local, SqlError) or isinstance(spark, SqlError):
            failures.append(f"{sql}\n  local: {local!r}\n  spark: {spark!r}")
            continue
        ordered = bool(pglast.parse_sql(sql)[0].stmt.sortClause)
        if local.columns != spark.columns:
            failures.append(f"{sql}\n  columns local {local.columns}\n  spark {spark.columns}")
        elif _rows(local, ordered) != _rows(spark, ordered):
            failures.append(f"{sql}\n  local {_rows(local, ordered)[:5]}\n  spark {_rows(spark, ordered)[:5]}")
    assert not failures, f"{len(failures)} of {len(QUERIES)} differ:\n" + "\n".join(failures)
    # every query with a table really ran on Spark
    assert sdb.spark.runtime.jobs_started - jobs >= len([q for q in QUERIES if "items" in q or "groups" in q])


async def test_timestamptz_in_the_session_zone_on_both_engines(sdb):
    """Spark computes timestamptz in the session's TimeZone, as the local
    engine does (its session zone was always UTC)."""
    s = sdb.session()
    await s.execute("CREATE TABLE zoned (id integer PRIMARY KEY, t timestamptz)")
    await s.execute("INSERT INTO zoned VALUES (1, '2024-01-01 03:00+00'), (2, '2024-07-01 23:30+00'), (3, '2024-03-10 06:59+00')")
    await s.execute("SET timezone = 'America/New_York'")
    sql = "SELECT id, t::date, date_trunc('day', t), CAST(t AS timestamp) FROM zoned ORDER BY id"
    answers, jobs = {}, sdb.spark.runtime.jobs_started
    for engine in ("local", "spark"):
        await s.execute(f"SET txngate.engine = {engine}")
        answers[engine] = (await s.execute(sql))[-1].rows
    assert sdb.spark.runtime.jobs_started == jobs + 1
    assert answers["spark"] == answers["local"]
    assert [r[1].isoformat() for r in answers["local"]] == ["2023-12-31", "2024-07-01", "2024-03-10"]
