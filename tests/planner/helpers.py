"""Shorthands the Session API tests share."""

from __future__ import annotations

import contextlib

import asyncpg
import psycopg
import pytest

from planner.errors import SqlError
from values import type_oid
from values import format_column


async def one(session, sql, params=None):
    """The last statement's Result."""
    return (await session.execute(sql, params))[-1]


async def rows(session, sql, params=None):
    return (await one(session, sql, params)).rows


async def error(session, sql) -> SqlError:
    with pytest.raises(SqlError) as info:
        await session.execute(sql)
    return info.value


async def sqlstate(session, sql) -> str:
    return (await error(session, sql)).sqlstate


async def outcome(session, sql, params=()):
    """What a statement ends with on txngate: its command tag (its rows
    with RETURNING), or (SQLSTATE, message)."""
    try:
        result = (await session.execute(sql, list(params) or None))[-1]
        return result.rows if "RETURNING" in sql else result.tag
    except SqlError as e:
        return (e.sqlstate, e.message)


async def pg_outcome(conn, sql, params=()):
    """``outcome`` on PostgreSQL (an asyncpg connection)."""
    try:
        if "RETURNING" in sql:
            return [tuple(r.values()) for r in await conn.fetch(sql, *params)]
        return await conn.execute(sql, *params)
    except Exception as e:  # asyncpg.PostgresError
        return (e.sqlstate, e.args[0])


async def assert_same_outcomes(session, conn, statements, check: str) -> None:
    """Each of ``statements`` ((sql, params) pairs) ends alike on txngate
    and on PostgreSQL, and ``check`` (a query) then answers alike."""
    for sql, params in statements:
        got, expected = await outcome(session, sql, params), await pg_outcome(conn, sql, params)
        assert got == expected, f"{sql}: {got} != {expected}"
        assert (await session.execute(check))[-1].rows == [tuple(r.values()) for r in await conn.fetch(check)], sql


@contextlib.asynccontextmanager
async def beside_postgres(db, pg_url: str, setup, tables=()):
    """A txngate session and an asyncpg connection to the real PostgreSQL,
    each having run ``setup`` (after dropping ``tables`` on PostgreSQL,
    whose database outlives one backend's run)."""
    session, conn = db.session(), await asyncpg.connect(pg_url)
    try:
        for table in tables:
            await conn.execute(f"DROP TABLE IF EXISTS {table}")
        for sql in setup:
            await session.execute(sql)
            await conn.execute(sql)
        yield session, conn
    finally:
        await conn.close()


async def text_answer(session, sql, *, names: bool = False):
    """(type OIDs, rows as text), the command tag of a statement without
    rows, or the SQLSTATE, as a client sees them (``pg_text_answer``:
    PostgreSQL's); ``names``: the column names first."""
    try:
        result = (await session.execute(sql))[-1]
    except SqlError as e:
        return e.sqlstate
    if result.table is None:
        return result.command_tag()
    cols = [format_column(result.table.column(i), t, session.text_style()).to_pylist() for i, (_n, t) in enumerate(result.columns)]
    answer = [type_oid(t)[0] for _n, t in result.columns], [tuple(r) for r in zip(*cols)] if cols else [()] * result.table.num_rows
    return ([name for name, _t in result.columns], *answer) if names else answer


def pg_text_answer(conn: psycopg.Connection, sql: str, *, names: bool = False):
    res = conn.pgconn.exec_(sql.encode())
    if res.status == psycopg.pq.ExecStatus.COMMAND_OK:
        return res.command_status.decode()
    if res.status != psycopg.pq.ExecStatus.TUPLES_OK:
        return res.error_field(psycopg.pq.DiagnosticField.SQLSTATE).decode()
    values = [tuple(None if (v := res.get_value(r, c)) is None else v.decode() for c in range(res.nfields)) for r in range(res.ntuples)]
    answer = [res.ftype(c) for c in range(res.nfields)], values
    return ([res.fname(c).decode() for c in range(res.nfields)], *answer) if names else answer


async def assert_answers_as_postgres(session, pg_url: str, statements, *, tables=(), settings=()) -> None:
    """Each of ``statements`` answers on ``session`` as on PostgreSQL
    (``text_answer``, with the column names), in order, after dropping
    ``tables`` there and setting each (name, value) of ``settings`` on
    both."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        if tables:
            conn.execute(f"DROP TABLE IF EXISTS {', '.join(tables)}")
        for name, value in settings:
            await session.execute(f"SET {name} = '{value}'")
            conn.execute(f"SET {name} = '{value}'")
        for sql in statements:
            mine, theirs = await text_answer(session, sql, names=True), pg_text_answer(conn, sql, names=True)
            assert mine == theirs, (settings, sql, mine, theirs)
