"""The differential corpus (tests/planner/corpus.py) on txngate and on the
real PostgreSQL, with the same data, compared exactly: rows (as a multiset
when the query does not order them) and column names. Floats may differ in
the last bits (summation order); nothing else may differ unless
``KNOWN_DIFFERENCES`` says why. The corpus's refused statements must be
refused alike (SQLSTATE and message), and its typed queries must give
PostgreSQL's result types."""

from __future__ import annotations

import math

import asyncpg
import pytest

from planner.errors import SqlError
from values import type_oid
from tests.planner.corpus import ERRORS, KNOWN_DIFFERENCES, MESSAGE_DIFFERENCES, QUERIES, SETUP, TYPED


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


async def test_corpus_matches_postgres(db, pg_url):
    assert len(QUERIES) >= 200
    s = db.session()
    for stmt in SETUP:
        await s.execute(stmt)
    conn = await asyncpg.connect(pg_url)
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


async def _setup(s, conn) -> None:
    for stmt in SETUP:
        await s.execute(stmt)
        await conn.execute(stmt)


#: errors whose position (the token or name they are about) must be
#: PostgreSQL's; any other position txngate gives must be PostgreSQL's too
POSITIONED = ("42601", "42703", "42702")


async def test_errors_match_postgres(db, pg_url):
    s = db.session()
    conn = await asyncpg.connect(pg_url)
    differences: dict[str, str] = {}
    try:
        async with conn.transaction():
            await _setup(s, conn)
            for query in ERRORS:
                with pytest.raises(asyncpg.PostgresError) as expected:
                    async with conn.transaction():  # a savepoint: the error leaves the setup
                        await conn.fetch(query)
                try:
                    await s.execute(query)
                    differences[query] = "no error"
                    continue
                except SqlError as e:
                    got = (e.sqlstate, e.message, e.position)
                pg = expected.value
                want = (pg.sqlstate, pg.args[0], int(pg.position) if pg.position else None)
                if got[0] != want[0] or (got[1] != want[1] and query not in MESSAGE_DIFFERENCES):
                    differences[query] = f"{got} != {want}"
                elif (want[0] in POSITIONED or got[2] is not None) and got[2] != want[2]:
                    differences[query] = f"position {got[2]} != {want[2]}"
            raise asyncpg.exceptions.TransactionRollbackError("leave nothing behind")
    except asyncpg.exceptions.TransactionRollbackError:
        pass
    finally:
        await conn.close()
    assert not differences, "\n".join(f"{q}\n    {d}" for q, d in differences.items())
    assert all(q in ERRORS for q in MESSAGE_DIFFERENCES)


async def test_result_types_match_postgres(db, pg_url):
    s = db.session()
    conn = await asyncpg.connect(pg_url)
    differences: dict[str, str] = {}
    try:
        tr = conn.transaction()
        await tr.start()
        await _setup(s, conn)
        for query in TYPED:
            expected = [(a.name, a.type.oid) for a in (await conn.prepare(query)).get_attributes()]
            result = (await s.execute(query))[-1]
            got = [(name, type_oid(sql_type)[0]) for name, sql_type in result.columns]
            rows = [tuple(r.values()) for r in await conn.fetch(query)]
            if got != expected or not _compare(query, result.rows, rows):
                differences[query] = f"{got} {result.rows[:3]} != {expected} {rows[:3]}"
        await tr.rollback()
    finally:
        await conn.close()
    assert not differences, "\n".join(f"{q}\n    {d}" for q, d in differences.items())
