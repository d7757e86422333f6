"""Shorthands the Session API tests share."""

from __future__ import annotations

import pytest

from planner.errors import SqlError


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
