"""Long integer IN lists (an ORM's list of ids) become one relation before
parsing (planner.parse.relation_lists): the answer is PostgreSQL's, the
parsed statement does not grow with the list, and quoted text or comments
that look like a list are left alone."""

from __future__ import annotations


from planner import parse as p
from planner.parse import walk
from tests.planner.helpers import beside_postgres

N = 5 * p.LIST_RELATION


def _ids(lo: int, hi: int) -> str:
    return ", ".join(str(i) for i in range(lo, hi))


def test_parsed_size_does_not_grow_with_the_list():
    sizes = []
    for n in (p.LIST_RELATION, 20 * p.LIST_RELATION):
        (stmt,) = p.parse(f"SELECT * FROM t WHERE id IN ({_ids(0, n)})")
        sizes.append(sum(1 for _ in walk(stmt.node)))
    assert sizes[0] == sizes[1] < 40
    (short,) = p.parse(f"SELECT * FROM t WHERE id IN ({_ids(0, 10)})")  # short lists stay lists (key probes read them)
    assert sum(1 for _ in walk(short.node)) > 10


async def test_long_lists_answer_as_postgres(db, pg_url):
    setup = ["CREATE TABLE ll (id bigint PRIMARY KEY, v text)",
             f"INSERT INTO ll SELECT i, 'v' || i FROM generate_series(1, {2 * N}) AS g(i)",
             "INSERT INTO ll VALUES (-7, NULL)"]
    queries = [
        f"SELECT count(*), sum(id) FROM ll WHERE id IN ({_ids(-N // 2, N // 2)})",
        f"SELECT count(*) FROM ll WHERE id NOT IN ({_ids(0, N)})",
        f"SELECT count(*) FROM ll WHERE id in(\n{_ids(N, 2 * N).replace(', ', ' ,')}\n) AND v LIKE 'v%'",
        f"SELECT 'x IN ({_ids(0, N)})' AS quoted, count(*) FROM ll WHERE id IN ({_ids(0, N)}) -- IN ({_ids(0, N)})",
        f"SELECT id IN ({_ids(-N, 0)}) AS found FROM ll WHERE id < 3 ORDER BY id",
    ]
    async with beside_postgres(db, pg_url, setup, tables=["ll"]) as (session, conn):
        for q in queries:
            expected = [tuple(r.values()) for r in await conn.fetch(q)]
            assert (await session.execute(q))[-1].rows == expected, q[:80]
        await session.execute(f"DELETE FROM ll WHERE id IN ({_ids(1, N)})")
        await conn.execute(f"DELETE FROM ll WHERE id IN ({_ids(1, N)})")
        check = "SELECT count(*), min(id) FROM ll"
        assert (await session.execute(check))[-1].rows == [tuple(r.values()) for r in await conn.fetch(check)]


BIG = "ab'c" * (p.HUGE_LITERAL // 3)  # over HUGE_LITERAL characters, quotes inside


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def test_huge_literals_are_lifted_out_of_the_text():
    (stmt,) = p.parse(f"SELECT length({_lit(BIG)}) /* it's */ -- '\n, md5({_lit(BIG + 'z')})", lift=True)
    assert stmt.literals == (BIG, BIG + "z") and len(stmt.text) < 200
    assert sum(1 for _ in walk(stmt.node)) < 30
    for kept in (f"SELECT E{_lit(BIG)}", f"SELECT {_lit(BIG)}::bytea", f"INSERT INTO t VALUES ({_lit(BIG)})",
                 f"SELECT $1, {_lit(BIG)}", f"SELECT {_lit('short')}", f"SELECT $x${_lit(BIG)}$x$"):
        (stmt,) = p.parse(kept, lift=True)
        assert stmt.literals == (), kept[:40]  # as written: the parser sees the literal
    (stmt,) = p.parse(f"SELECT length({_lit(BIG)})")  # not asked to lift (a prepared statement's parameters are the client's)
    assert stmt.literals == ()


async def test_huge_literals_answer_as_postgres(db, pg_url):
    queries = [
        f"SELECT length({_lit(BIG)}), md5({_lit(BIG)})",
        f"SELECT {_lit(BIG)} = {_lit(BIG)} AS same, {_lit(BIG)} < {_lit(BIG + 'a')} AS less",
        f"SELECT position('c''' IN {_lit(BIG)}) AS at, left({_lit(BIG)}, 9) AS head",
        f"SELECT length({_lit(BIG)}::text || 'x') /* a comment with ' and $1 */",
        f"SELECT jsonb_array_length(('[' || repeat('1,', 3) || '1]')::jsonb), length({_lit(BIG)}::varchar)",
    ]
    async with beside_postgres(db, pg_url, []) as (session, conn):
        for q in queries:
            expected = [tuple(r.values()) for r in await conn.fetch(q)]
            result = (await session.execute(q))[-1]
            assert result.rows == expected, q[:60]
