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
