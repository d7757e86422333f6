"""Data-modifying statements in WITH (planner.writable) answer as
PostgreSQL's: the RETURNING rows read by the main query, the main query
and every sub-statement reading the table as it was before the
statement (a DELETE in WITH does not hide rows from the main query), a
sub-statement without RETURNING run though unread, RETURNING rows read
exactly whatever the session's float digits and time zone, a read-only CTE read
by a sub-statement, a failing sub-statement writing nothing, and
PostgREST's insert (json_to_record over a json payload, json_agg of the
inserted rows); and the same over an INSERT, UPDATE or DELETE."""

from __future__ import annotations

import pytest

from planner.errors import SqlError
from tests.planner.helpers import assert_answers_as_postgres

STATEMENTS = [
    "CREATE TABLE todos (id serial PRIMARY KEY, task text, done boolean DEFAULT false)",
    "INSERT INTO todos (task) VALUES ('a'), ('b')",
    "WITH pgrst_source AS (INSERT INTO todos (task) SELECT pgrst_body.task FROM (SELECT '{\"task\": \"c\"}'::json AS json_data) pgrst_payload,"
    " LATERAL (SELECT task FROM json_to_record(pgrst_payload.json_data) AS _(task text)) pgrst_body RETURNING todos.*)"
    " SELECT '' AS total_result_set, pg_catalog.count(_t) AS page_total, array[]::text[] AS header, coalesce(json_agg(_t), '[]') AS body,"
    " nullif(current_setting('response.headers', true), '') AS response_headers FROM (SELECT * FROM pgrst_source) _t",
    "WITH d AS (DELETE FROM todos WHERE id = 1 RETURNING *) SELECT (SELECT count(*) FROM todos) AS before, (SELECT count(*) FROM d) AS deleted",
    "SELECT * FROM todos ORDER BY id",
    "WITH u AS (UPDATE todos SET done = true WHERE task IN ('b', 'c') RETURNING id, task) SELECT * FROM u ORDER BY id",
    "WITH src AS (SELECT 'e' AS t), ins AS (INSERT INTO todos (task) SELECT t FROM src RETURNING id) SELECT count(*) FROM ins",
    "WITH x AS (DELETE FROM todos WHERE task = 'e') SELECT 1",
    "SELECT id, task, done FROM todos ORDER BY id",
    "WITH bad AS (INSERT INTO todos (id, task) VALUES (2, 'dup') RETURNING id), fine AS (INSERT INTO todos (task) VALUES ('f') RETURNING id)"
    " SELECT * FROM bad",
    "SELECT count(*) FROM todos",
    "DROP TABLE todos",
    # RETURNING rows read back exactly, whatever the session prints them as
    "SET extra_float_digits = -3", "SET TimeZone = 'Asia/Kolkata'",
    "CREATE TABLE wf (id serial PRIMARY KEY, f float8, t timestamptz)",
    "WITH i AS (INSERT INTO wf (f, t) VALUES (1.2345678901234567, '2024-01-01 10:00:00.123456+00') RETURNING *)"
    " SELECT f = 1.2345678901234567 AS same_f, t = '2024-01-01 10:00:00.123456+00' AS same_t FROM i",
    "DROP TABLE wf",
    # WITH RECURSIVE: a sub-statement reads one written after it (run first, as PostgreSQL runs it: 42P01 here before),
    # and a plain CTE written after it; without RECURSIVE, a forward reference stays 42P01
    "CREATE TABLE fwd (a int)",
    "INSERT INTO fwd SELECT generate_series(1, 10)",
    "WITH RECURSIVE t AS (INSERT INTO fwd SELECT a + 5 FROM t2 WHERE a > 5 RETURNING *), t2 AS (UPDATE fwd SET a = a - 11 RETURNING *)"
    " SELECT * FROM t UNION ALL SELECT * FROM t2",
    "SELECT * FROM fwd ORDER BY a",
    "WITH RECURSIVE t AS (INSERT INTO fwd SELECT a + 100 FROM t3 RETURNING *), t3 AS (SELECT 1 AS a) SELECT * FROM t",
    "WITH t AS (INSERT INTO fwd SELECT a FROM t2 RETURNING *), t2 AS (DELETE FROM fwd RETURNING *) SELECT * FROM t",
    "SELECT count(*) FROM fwd",
    "DROP TABLE fwd",
]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_data_modifying_ctes_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, STATEMENTS, tables=("todos", "wf", "fwd"))


#: the same over an INSERT, UPDATE or DELETE: moving rows (DELETE ... RETURNING into an INSERT), a main statement reading
#: a CTE's RETURNING rows and the tables as they were before the statement, RETURNING on the main statement
OVER_WRITES = [
    "CREATE TABLE live (id integer PRIMARY KEY, v text)",
    "CREATE TABLE archived (id integer, v text)",
    "INSERT INTO live VALUES (1, 'a'), (2, 'b'), (3, 'c')",
    "WITH moved AS (DELETE FROM live WHERE id < 3 RETURNING *) INSERT INTO archived SELECT * FROM moved",
    "SELECT * FROM live ORDER BY id",
    "SELECT * FROM archived ORDER BY id",
    "WITH t AS (UPDATE live SET v = 'z' RETURNING id) UPDATE archived SET v = 'seen' WHERE id IN (SELECT id + 0 FROM t) OR id = 1",
    "SELECT * FROM archived ORDER BY id",
    "WITH t AS (INSERT INTO live VALUES (10, 'ten') RETURNING id) DELETE FROM archived WHERE id < (SELECT max(id) FROM t) RETURNING *",
    "WITH t AS (INSERT INTO live VALUES (20, 'x') RETURNING *) INSERT INTO archived SELECT id, (SELECT count(*) FROM live)::text FROM t"
    " RETURNING *",
    "WITH t AS (INSERT INTO live VALUES (20, 'again') RETURNING *) INSERT INTO archived SELECT * FROM t",  # 23505: nothing written
    "WITH d AS (DELETE FROM live RETURNING *) INSERT INTO live SELECT * FROM d",  # the same keys back: no 23505
    "WITH d AS (UPDATE live SET v = 'x' RETURNING *) INSERT INTO live SELECT id + 100, v FROM d RETURNING *",
    "SELECT (SELECT count(*) FROM live), (SELECT count(*) FROM archived)",
]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_data_modifying_ctes_over_writes_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, OVER_WRITES, tables=("live", "archived"))


#: MERGE under a data-modifying CTE reads its CTEs; a row the CTE deleted is one MERGE cannot change again (21000)
MERGE_UNDER_WITH = [
    "CREATE TABLE mw (id int PRIMARY KEY, v text)",
    "INSERT INTO mw VALUES (1, 'a'), (2, 'b')",
    "WITH src AS (SELECT 1 AS id, 'A' AS v UNION ALL SELECT 3, 'C') MERGE INTO mw t USING src s ON t.id = s.id"
    " WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)",
    "SELECT * FROM mw ORDER BY id",
    "WITH d AS (DELETE FROM mw RETURNING *) MERGE INTO mw t USING d s ON t.id = s.id WHEN MATCHED THEN DELETE",
    "SELECT * FROM mw ORDER BY id",
    "WITH src AS (SELECT id + 1 AS id FROM mw) MERGE INTO mw t USING src s ON t.id = s.id WHEN MATCHED THEN DELETE",
    "SELECT * FROM mw ORDER BY id",
    # PostgreSQL 15's parser refuses WITH RECURSIVE on MERGE (42601; the engine merged)
    "WITH RECURSIVE src AS (SELECT 5 AS id) MERGE INTO mw t USING src s ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'r')",
    "SELECT * FROM mw ORDER BY id",
]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_merge_under_with_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, MERGE_UNDER_WITH, tables=("mw",))


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_a_row_changed_twice_in_one_statement_is_refused_not_retracted_twice(db):
    """PostgreSQL skips the later of two changes of one row in one
    statement; txngate refuses the statement (it retracted the row twice,
    and every later read of the table failed) and the table is unchanged."""
    s = db.session()
    await s.execute("CREATE TABLE twice (id int PRIMARY KEY, v text); INSERT INTO twice VALUES (1, 'a'), (2, 'b')")
    for sql in ("WITH d AS (DELETE FROM twice WHERE id = 1 RETURNING *) DELETE FROM twice USING d WHERE twice.id = d.id",
                "WITH d AS (UPDATE twice SET v = 'x' WHERE id = 1 RETURNING *) UPDATE twice SET v = 'y' FROM d WHERE twice.id = d.id",
                "WITH a AS (DELETE FROM twice WHERE id = 2 RETURNING *), b AS (UPDATE twice SET v = 'z' WHERE id = 2 RETURNING *) SELECT 1"):
        with pytest.raises(SqlError) as e:
            await s.execute(sql)
        assert e.value.sqlstate == "0A000", sql
        assert (await s.execute("SELECT id, v FROM twice ORDER BY id"))[-1].rows == [(1, "a"), (2, "b")]
    await s.execute("WITH d AS (DELETE FROM twice WHERE id = 2 RETURNING *) UPDATE twice SET v = 'w' WHERE id = 1")  # different rows: fine
    assert (await s.execute("SELECT id, v FROM twice ORDER BY id"))[-1].rows == [(1, "w")]
