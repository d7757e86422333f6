"""MERGE (planner.merge) answers as PostgreSQL 15's: the same rows after
each statement, the same command tag (``MERGE n``: rows inserted, updated
and deleted) or the same SQLSTATE, for every kind of WHEN clause, their
conditions and order, defaults and sequences of the columns an INSERT
leaves out, a source matching a target row twice (21000), key and
foreign-key violations (nothing written), and inside a transaction that
rolls back."""

from __future__ import annotations

import pytest

from tests.planner.helpers import assert_answers_as_postgres

STATEMENTS = [
    "CREATE TABLE mt (id int PRIMARY KEY, v text, n int DEFAULT 7, s serial)",
    "CREATE TABLE mchild (id int PRIMARY KEY, parent int REFERENCES mt (id))",
    "INSERT INTO mt (id, v) VALUES (1, 'a'), (2, 'b'), (3, 'c')",
    "CREATE TABLE src (id int, v text, op text)",
    "INSERT INTO src VALUES (1, 'A', 'u'), (2, NULL, 'd'), (4, 'D', 'i'), (5, 'E', 'x')",
    "MERGE INTO mt t USING src s ON t.id = s.id WHEN MATCHED AND s.op = 'd' THEN DELETE WHEN MATCHED THEN UPDATE SET v = s.v, n = t.n + 1"
    " WHEN NOT MATCHED AND s.op = 'i' THEN INSERT (id, v) VALUES (s.id, s.v) WHEN NOT MATCHED THEN DO NOTHING",
    "SELECT id, v, n, s FROM mt ORDER BY id",
    "MERGE INTO mt USING (SELECT 3 AS id UNION ALL SELECT 3) s ON mt.id = s.id WHEN MATCHED THEN UPDATE SET v = 'x'",
    "MERGE INTO mt USING (VALUES (9, 'nine'), (1, 'one')) AS s(id, v) ON mt.id = s.id"
    " WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, DEFAULT) WHEN MATCHED THEN UPDATE SET v = s.v",
    "SELECT id, v, n, s FROM mt ORDER BY id",
    "MERGE INTO mt USING src s ON mt.id = s.id + 100 WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)",
    "MERGE INTO mt USING src s ON mt.id = s.id WHEN NOT MATCHED THEN INSERT (id, v) VALUES (1 / 0, 'z') WHEN MATCHED THEN DO NOTHING",
    "MERGE INTO mt USING (SELECT 1 AS id) s ON mt.id = s.id WHEN MATCHED THEN UPDATE SET id = 9",
    "MERGE INTO mt USING (SELECT 1 AS id) s ON mt.id = s.id WHEN MATCHED THEN UPDATE SET nope = 9",
    "MERGE INTO nope USING (SELECT 1 AS id) s ON nope.id = s.id WHEN MATCHED THEN DELETE",
    "INSERT INTO mchild VALUES (1, 3)",
    "MERGE INTO mt USING (SELECT 3 AS id) s ON mt.id = s.id WHEN MATCHED THEN DELETE",
    "MERGE INTO mchild c USING (SELECT 2 AS id, 42 AS parent) s ON c.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.parent)",
    "MERGE INTO mt USING (SELECT 3 AS id) s ON mt.id = s.id AND false WHEN NOT MATCHED THEN DO NOTHING",
    "BEGIN",
    "MERGE INTO mt USING (SELECT g AS id FROM generate_series(20, 24) g) s ON mt.id = s.id WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, 'g')",
    "SELECT count(*) FROM mt",
    "ROLLBACK",
    "SELECT id, v, n FROM mt ORDER BY id",
    "MERGE INTO mt USING (SELECT id - 1 AS id, v FROM mt) s ON mt.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v || '<'"
    " WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)",  # a source reading the target reads all of it
    "SELECT id, v, n FROM mt ORDER BY id",
    "DROP TABLE mchild, mt, src",
]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_merge_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, STATEMENTS, tables=("mchild", "mt", "src"))
