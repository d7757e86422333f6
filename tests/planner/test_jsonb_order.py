"""jsonb comparison and ORDER BY follow PostgreSQL's jsonb order (type
first, then sizes, then contents; numbers numerically; a top-level scalar
before an array of one element): every pair of a set of edge values
compares on txngate as on the real PostgreSQL, for each of = <> < <= > >=,
and ORDER BY sorts them alike."""

from __future__ import annotations

from tests.planner.helpers import beside_postgres

VALUES = [
    "null", "true", "false", "0", "-0.0", "1", "1.0", "1.10", "-1", "-1.5", "2", "10", "1e3", "-1e-3", "12345678901234567890123456789.5",
    '""', '"a"', '"B"', '"ab"', '"é"', "[]", "[null]", "[1]", "[1, 2]", "[2]", "[1, 10]", "[[]]", '["a"]', "{}",
    '{"a": 1}', '{"a": 2}', '{"b": 1}', '{"aa": 1}', '{"a": 1, "b": 2}', '{"a": [1]}', '{"a": {}}',
]

SETUP = ("CREATE TABLE jv (id integer, v jsonb)",
         "INSERT INTO jv VALUES " + ", ".join(f"({i}, '{v}')" for i, v in enumerate(VALUES)))

PAIRS = """SELECT a.id, b.id, a.v = b.v, a.v <> b.v, a.v < b.v, a.v <= b.v, a.v > b.v, a.v >= b.v
           FROM jv AS a, jv AS b ORDER BY 1, 2"""
ORDERED = "SELECT id FROM jv ORDER BY v, id"
LITERAL = """SELECT id FROM jv WHERE v < '[1, 2]' AND v >= '1' ORDER BY id"""


async def test_jsonb_order_is_postgres_order(db, pg_url):
    async with beside_postgres(db, pg_url, SETUP, ["jv"]) as (s, conn):
        for query in (PAIRS, ORDERED, LITERAL):
            got = (await s.execute(query))[-1].rows
            expected = [tuple(r.values()) for r in await conn.fetch(query)]
            wrong = [(VALUES[g[0]], VALUES[g[1]] if len(g) > 1 else "", g[2:], e[2:]) for g, e in zip(got, expected) if g != e]
            assert got == expected, f"{query}: {wrong[:10]}"
