"""The differential corpus (tests/planner/corpus.py) on txngate and on the
real PostgreSQL, with the same data, compared exactly: rows (as a multiset
when the query does not order them) and column names. Floats may differ in
the last bits (summation order); nothing else may differ unless
``KNOWN_DIFFERENCES`` says why."""

from __future__ import annotations

import math

import asyncpg
import pytest

from planner.errors import SqlError
from tests.planner.corpus import KNOWN_DIFFERENCES, QUERIES, SETUP


@pytest.fixture(scope="module")
def pg_oracle_url(pg_server):
    pg_server.psql("DROP DATABASE IF EXISTS differential")
    pg_server.psql("CREATE DATABASE differential")
    return pg_server.url(database="differential")


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _compare(query: str, got: list[tuple], expected: list[tuple]) -> bool:
    if _same(got, expected):
        return True
    if "ORDER BY" not in query.upper():
        key = lambda r: repr(r)  # noqa: E731
        return _same(sorted(got, key=key), sorted(expected, key=key))
    return False


async def test_corpus_matches_postgres(db, pg_oracle_url):
    assert len(QUERIES) >= 200
    s = db.session()
    for stmt in SETUP:
        await s.execute(stmt)
    conn = await asyncpg.connect(pg_oracle_url)
    differences: dict[str, str] = {}
    try:
        tr = conn.transaction()
        await tr.start()
        for stmt in SETUP:
            await conn.execute(stmt)
        for query in QUERIES:
            records = await conn.fetch(query)
            expected = [tuple(r.values()) for r in records]
            names = list(records[0].keys()) if records else None
            try:
                result = (await s.execute(query))[-1]
            except SqlError as e:
                differences[query] = f"error {e.sqlstate}: {e.message}"
                continue
            if not _compare(query, result.rows, expected):
                differences[query] = f"rows {result.rows[:5]} != {expected[:5]}"
            elif names is not None and [n for n, _t in result.columns] != names:
                differences[query] = f"names {[n for n, _t in result.columns]} != {names}"
        await tr.rollback()
    finally:
        await conn.close()
    unexplained = {q: d for q, d in differences.items() if q not in KNOWN_DIFFERENCES}
    assert not unexplained, "\n".join(f"{q}\n    {d}" for q, d in unexplained.items())
    stale = [q for q in KNOWN_DIFFERENCES if q not in differences]
    assert not stale, f"listed as different but now matching: {stale}"
