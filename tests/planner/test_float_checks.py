"""Float arithmetic is checked for PostgreSQL's overflow and underflow
(22003) by one ``txngate_float_checked`` call per tree of arithmetic
(planner.bind ``_float_checked``; the answers themselves are compared with
PostgreSQL's in test_function_answers ``FLOAT_RANGES``). Each check
repeats its operands, so one nested inside another's operands is left
unchecked: the SQL DuckDB gets grows with the statement, never
exponentially (a macro per operator made exp() nested eight deep take
minutes to bind)."""

from __future__ import annotations

import pytest

from planner import bind


def _nested(depth: int) -> str:
    e = "a"
    for _ in range(depth):
        e = f"exp(CAST((({e}) + b) * 0.0001 AS float8))"
    return f"SELECT sum({e}) FROM fl2"


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_nested_checks_grow_with_the_statement(db, monkeypatch):
    s = db.session()
    await s.execute("CREATE TABLE fl2 (a double precision, b double precision)")
    await s.execute("INSERT INTO fl2 VALUES (1, 2), (3, 4)")
    transpiled = []
    original = bind.transpile
    monkeypatch.setattr(bind, "transpile", lambda sql, *a, **k: transpiled.append(original(sql, *a, **k)) or transpiled[-1])
    for depth in (1, 8):
        transpiled.clear()
        sql = _nested(depth)
        (await s.execute(sql))[-1]
        assert any("txngate_float_checked" in t.lower() for t in transpiled)
        assert max(len(t) for t in transpiled) < 12 * len(sql), depth
