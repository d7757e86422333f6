"""INSERT, UPDATE and DELETE with a WITH clause answer as PostgreSQL's
(they were refused): an INSERT's CTEs (recursive ones too) read by its
SELECT, an UPDATE's or DELETE's read in FROM / USING and in subqueries
of its WHERE, a CTE reading the one before it; the same rows after each
statement, the same command tag or SQLSTATE."""

from __future__ import annotations

import pytest

from tests.planner.helpers import assert_answers_as_postgres

STATEMENTS = [
    "CREATE TABLE w1 (id int PRIMARY KEY, v text)",
    "CREATE TABLE w2 (id int, x int)",
    "INSERT INTO w2 VALUES (1, 10), (2, 20), (3, 30)",
    "WITH s AS (SELECT id, x FROM w2 WHERE x > 10) INSERT INTO w1 SELECT id, 'v' || x FROM s",
    "WITH s(a) AS (VALUES (7)) INSERT INTO w1 VALUES ((SELECT a FROM s), 'seven')",
    "SELECT * FROM w1 ORDER BY id",
    "WITH big AS (SELECT id FROM w2 WHERE x >= 30), other AS (SELECT id FROM big) UPDATE w1 SET v = 'big' WHERE id IN (SELECT id FROM other)",
    "WITH s AS (SELECT id, x FROM w2) UPDATE w1 SET v = s.x::text FROM s WHERE w1.id = s.id AND s.x = 20",
    "WITH d AS (SELECT 7 AS id) DELETE FROM w1 USING d WHERE w1.id = d.id",
    "SELECT * FROM w1 ORDER BY id",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) INSERT INTO w1 SELECT n + 100, 'r' FROM r",
    "WITH s AS (SELECT 2 AS id) INSERT INTO w1 SELECT id, 'again' FROM s",
    "WITH s AS (SELECT 2 AS id) INSERT INTO w1 SELECT id, 'again' FROM s ON CONFLICT (id) DO UPDATE SET v = excluded.v",
    "SELECT * FROM w1 ORDER BY id",
    "DROP TABLE w1, w2",
]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_with_in_insert_update_delete_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, STATEMENTS, tables=("w1", "w2"))
