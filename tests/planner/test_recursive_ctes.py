"""Recursive CTEs PostgreSQL refuses are refused with its SQLSTATEs and
messages before they run (planner.recursive): DuckDB ran a recursive term
that counts its own rows, or reads the CTE twice, until the statement
timeout; well-formed ones answer as PostgreSQL's, SEARCH and CYCLE
clauses too, and a recursive WITH over UPDATE, DELETE and INSERT."""

from __future__ import annotations

import pytest

from tests.planner.helpers import assert_answers_as_postgres

SHAPES = [
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM x) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x ORDER BY 1) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x LIMIT 3) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE n < 3 OFFSET 1) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x FOR UPDATE) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n+1 FROM x, x AS y WHERE x.n < 3) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n+1 FROM (SELECT 1 AS z) s LEFT JOIN x ON true WHERE x.n < 3) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n+1 FROM x LEFT JOIN (SELECT 1 AS z) s ON true WHERE x.n < 3) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE n < 3 UNION ALL SELECT n+2 FROM x WHERE n < 3) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE n < 3 AND n IN (SELECT 1)) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT (SELECT max(n) FROM x)) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 INTERSECT SELECT n+1 FROM x) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT n FROM x) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT n FROM x UNION ALL SELECT 1) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (WITH x1 AS (SELECT 1 FROM x) SELECT 0 UNION SELECT * FROM x1) SELECT * FROM x",
    "WITH x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE n < 3) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE n < 5) SELECT * FROM x",
    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM (SELECT * FROM x) s WHERE n < 3) SELECT * FROM x",
]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_recursive_shapes_as_postgres(db, pg_url):
    session = db.session()
    await session.execute("SET statement_timeout = 20000")  # a check missed fails the test, not the suite
    await assert_answers_as_postgres(session, pg_url, SHAPES)


GRAPH = "WITH RECURSIVE search_graph(f, t, label) AS (SELECT * FROM graph g UNION ALL SELECT g.* FROM graph g, search_graph sg WHERE g.f = sg.t)"
SEARCH_AND_CYCLE = [
    "CREATE TABLE graph (f int, t int, label text)",
    "INSERT INTO graph VALUES (1, 2, 'arc 1 -> 2'), (1, 3, 'arc 1 -> 3'), (2, 3, 'arc 2 -> 3'), (1, 4, 'arc 1 -> 4'), (4, 5, 'arc 4 -> 5')",
    f"{GRAPH} SEARCH DEPTH FIRST BY f, t SET seq SELECT * FROM search_graph ORDER BY seq",
    f"{GRAPH} SEARCH BREADTH FIRST BY f, t SET seq SELECT * FROM search_graph ORDER BY seq",
    "WITH RECURSIVE search_graph(f, t, label) AS (SELECT * FROM graph g UNION DISTINCT SELECT g.* FROM graph g, search_graph sg"
    " WHERE g.f = sg.t) SEARCH DEPTH FIRST BY t SET seq SELECT * FROM search_graph ORDER BY seq",
    "INSERT INTO graph VALUES (5, 1, 'arc 5 -> 1')",
    f"{GRAPH} CYCLE f, t SET is_cycle USING path SELECT * FROM search_graph ORDER BY path",
    f"{GRAPH} CYCLE f, t SET is_cycle TO 'Y' DEFAULT 'N' USING path SELECT f, t, is_cycle, path FROM search_graph ORDER BY path",
    f"{GRAPH} SEARCH DEPTH FIRST BY f, t SET seq CYCLE f, t SET is_cycle USING path SELECT * FROM search_graph ORDER BY seq",
    f"{GRAPH} SEARCH BREADTH FIRST BY f, t SET seq CYCLE f, t SET is_cycle USING path SELECT * FROM search_graph ORDER BY seq",
    "WITH RECURSIVE a AS (SELECT 1 AS b UNION ALL SELECT a.b FROM a) CYCLE b SET c USING p SELECT * FROM a ORDER BY p",
    "WITH RECURSIVE a AS (SELECT 1 AS b UNION ALL SELECT * FROM a) CYCLE b SET c USING p SELECT * FROM a ORDER BY p",
    f"{GRAPH} SEARCH DEPTH FIRST BY foo, tar SET seq SELECT * FROM search_graph",
    f"{GRAPH} SEARCH DEPTH FIRST BY f, t, f SET seq SELECT * FROM search_graph",
    f"{GRAPH} SEARCH DEPTH FIRST BY f, t SET label SELECT * FROM search_graph",
    f"{GRAPH} CYCLE f, t SET label USING path SELECT * FROM search_graph",
    f"{GRAPH} CYCLE f, t SET foo TO true DEFAULT false USING foo SELECT * FROM search_graph",
    f"{GRAPH} SEARCH DEPTH FIRST BY f, t SET foo CYCLE f, t SET foo USING path SELECT * FROM search_graph",
    "WITH search_graph(f, t) AS (SELECT 1, 2 UNION ALL SELECT 1, 2) SEARCH DEPTH FIRST BY f SET seq SELECT * FROM search_graph",
    "WITH RECURSIVE search_graph(f, t, label) AS (SELECT * FROM graph g UNION ALL (SELECT * FROM graph g UNION ALL SELECT g.* FROM graph g,"
    " search_graph sg WHERE g.f = sg.t)) SEARCH DEPTH FIRST BY f, t SET seq SELECT * FROM search_graph",
]

RECURSIVE_WRITES = [
    "CREATE TABLE y (a integer)",
    "INSERT INTO y SELECT generate_series(1, 30)",
    "WITH RECURSIVE t(a) AS (SELECT 11 UNION ALL SELECT a+1 FROM t WHERE a < 20) DELETE FROM y USING t WHERE t.a = y.a RETURNING y.a",
    "WITH RECURSIVE t(a) AS (SELECT 1 UNION ALL SELECT a+1 FROM t WHERE a < 3) UPDATE y SET a = a * 100 FROM t WHERE y.a = t.a RETURNING y.a",
    "WITH RECURSIVE t(a) AS (SELECT 1 UNION ALL SELECT a+1 FROM t WHERE a < 3) INSERT INTO y VALUES ((SELECT max(a) FROM t)) RETURNING a",
    "WITH RECURSIVE t(a) AS (SELECT 1 UNION ALL SELECT a+1 FROM t WHERE a < 3), u AS (SELECT a * 2 AS b FROM t)"
    " DELETE FROM y WHERE a IN (SELECT b FROM u) RETURNING a",
    "SELECT * FROM y ORDER BY a",
]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_search_and_cycle_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, SEARCH_AND_CYCLE, tables=("graph",))


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_recursive_writes_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, RECURSIVE_WRITES, tables=("y",))
