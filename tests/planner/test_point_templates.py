"""Point queries written with their keys as constants (the simple protocol:
pgbench -S, psql, an ORM that inlines values) parse once per shape
(planner.parse.point_template) and answer as PostgreSQL does: keys that
fit and keys that do not, IN lists, and a template cached before the
table or column it names was dropped or retyped, when the key search
declines and the query runs as written. A string compared with a number
is PostgreSQL's 42883 on every path (the engine compared the string read
as a number). A statement that reads its table by key and again in a
subquery (SELECT, UPDATE, DELETE, MERGE, ON CONFLICT) reads all of it
there: the rows found by key stood for the whole table in the subquery
(``SELECT (SELECT max(k) FROM t) FROM t WHERE k = 1`` answered 1)."""

from __future__ import annotations

import pytest

from planner import SqlError
from planner import parse as p
from tests.planner.helpers import assert_answers_as_postgres, rows

POINTS = [
    "CREATE TABLE pt (id integer PRIMARY KEY, v text, s smallint UNIQUE, b bigint UNIQUE)",
    "INSERT INTO pt VALUES (1, 'x', 1, 10), (2, 'y', 2, 20), (3, 'z', 3, 5000000000), (0, 'zero', 0, 0)",
    "SELECT v FROM pt WHERE id = 2",
    "SELECT v FROM pt WHERE id = 3",
    "SELECT v FROM pt WHERE id = 7",
    "SELECT v FROM pt WHERE id = 0",
    "SELECT * FROM pt WHERE id IN (1, 3)",
    "SELECT * FROM pt WHERE id IN (3, 1, 3)",
    "SELECT v FROM pt WHERE s = 40000",
    "SELECT v FROM pt WHERE s = 2",
    "SELECT v FROM pt WHERE b = 20",
    "SELECT v FROM pt WHERE b = 5000000000",
    "SELECT v FROM pt WHERE id = 2147483647",
    "SELECT v FROM pt WHERE id = 2147483648",
    "SELECT pt.v, id FROM pt WHERE pt.id = 1",
    "SELECT x.v FROM pt AS x WHERE x.id = 1",
    "SELECT v FROM pt WHERE id = 2 -- 3",
    "SELECT id FROM pt WHERE id=1",
    "SELECT v FROM pt WHERE id = 1 ORDER BY 1",
    "SELECT v FROM pt WHERE v = 5",
    "SELECT v FROM pt WHERE id = 2 FOR UPDATE",
    "ALTER TABLE pt DROP COLUMN v",
    "SELECT v FROM pt WHERE id = 1",
    "SELECT * FROM pt WHERE id = 1",
    "DROP TABLE pt",
    "SELECT id FROM pt WHERE id = 1",
    "CREATE TABLE pt (id text PRIMARY KEY, n integer)",
    "INSERT INTO pt VALUES ('1', 1)",
    "SELECT id FROM pt WHERE id = 1",
    "SELECT id FROM pt WHERE id = '1'",
    "SELECT n FROM pt WHERE id IN (1, 2)",
]

COMPARISONS = [
    "CREATE TABLE sn (id integer PRIMARY KEY, v text, w varchar(5), c char(2), n numeric(5,1), f float8)",
    "INSERT INTO sn VALUES (1, '5', '5', '5', 1, 1.5)",
    "SELECT v FROM sn WHERE v = 5",
    "SELECT v FROM sn WHERE v = 5 AND id > 0",
    "SELECT v FROM sn WHERE w = 5",
    "SELECT v FROM sn WHERE v = id",
    "SELECT v FROM sn WHERE v < 6",
    "SELECT v FROM sn WHERE c <> n",
    "SELECT v FROM sn WHERE 5000000000 = v",
    "SELECT v FROM sn WHERE v != 5.5",
    "SELECT v FROM sn WHERE f >= w",
    "SELECT s.v FROM (SELECT 'x'::text AS v) s WHERE s.v = 1",
    "SELECT s.v FROM (SELECT 1 AS v) s, sn WHERE s.v = 1",
    "SELECT v FROM sn WHERE v::int = 5",
    "SELECT v FROM sn WHERE v = 5::text",
    "SELECT v FROM sn WHERE id = '1'",
    "SELECT v FROM sn WHERE v = '5'",
    "SELECT v FROM sn WHERE v IN (5, 6)",
    "SELECT v FROM sn WHERE w IN ('5', '6') AND n IN (1, 2.5)",
    "SELECT v FROM sn WHERE n NOT IN ('1', 'x')",
]


SAME_TABLE = [
    "CREATE TABLE st2 (k int PRIMARY KEY, v int)",
    "INSERT INTO st2 VALUES (1, 0), (2, 0), (3, 0)",
    "SELECT k, (SELECT max(k) FROM st2) FROM st2 WHERE k = 1",
    "SELECT k, (SELECT max(k) FROM st2 m2) FROM st2 WHERE k = 1",
    "SELECT k FROM st2 WHERE k = 1 AND v = (SELECT max(v) FROM st2)",
    "SELECT * FROM st2 WHERE k = 2 AND k IN (SELECT k FROM st2 WHERE v >= 0)",
    "UPDATE st2 SET v = (SELECT max(k) FROM st2) WHERE k = 1 RETURNING k, v",
    "WITH u AS (UPDATE st2 SET v = (SELECT count(*) FROM st2) WHERE k IN (1, 2) RETURNING k, v) SELECT * FROM u ORDER BY k",
    "UPDATE st2 SET v = (SELECT max(v) FROM st2 x WHERE x.k < st2.k) WHERE k = 3 RETURNING k, v",
    "DELETE FROM st2 WHERE k = 3 AND EXISTS (SELECT 1 FROM st2 WHERE k = 2) RETURNING k",
    "INSERT INTO st2 VALUES (1, 5) ON CONFLICT (k) DO UPDATE SET v = (SELECT max(k) FROM st2) RETURNING k, v",
    "INSERT INTO st2 VALUES (4, (SELECT count(*) FROM st2)) RETURNING k, v",
    "INSERT INTO st2 SELECT k + 10, v FROM st2 WHERE k = 1 RETURNING k, v",
    "MERGE INTO st2 USING (VALUES (2)) s(k) ON st2.k = s.k WHEN MATCHED THEN UPDATE SET v = (SELECT sum(k) FROM st2)",
    "SELECT k, v FROM st2 ORDER BY k",
    "SELECT a.k, b.k FROM st2 a JOIN st2 b ON b.k = a.k + 1 WHERE a.k = 1",
]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_a_table_read_by_key_and_in_a_subquery_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, SAME_TABLE, tables=("st2",))


async def test_returning_a_subquery_of_the_written_table_is_refused(db):
    s = db.session()
    await s.execute("CREATE TABLE rt (k int PRIMARY KEY)")
    await s.execute("INSERT INTO rt VALUES (1), (2)")
    with pytest.raises(SqlError) as e:
        await s.execute("DELETE FROM rt WHERE k = 1 RETURNING (SELECT count(*) FROM rt)")
    assert e.value.sqlstate == "0A000"  # never the count of the rows returned
    assert await rows(s, "SELECT count(*) FROM rt") == [(2,)]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_point_queries_answer_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, POINTS, tables=("pt",))


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_strings_compared_with_numbers_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, COMPARISONS, tables=("sn",))


def test_one_shape_parses_once():
    first, second = p.point_template("SELECT v FROM t WHERE id = 17"), p.point_template("SELECT v FROM t WHERE id = 90210")
    assert first is not None and second is not None and first.node is second.node
    assert (first.literals, second.literals) == ((17,), (90210,))
    assert second.text == "SELECT v FROM t WHERE id = 90210" and p.untemplated(second).literals == ()
    listed = p.point_template("select * from t where id in (4, 5)")
    assert listed is not None and listed.literals == (4, 5)


@pytest.mark.parametrize("sql", [
    "SELECT v FROM t WHERE id = 1 ORDER BY 1",  # a position, not a value
    "SELECT v FROM t WHERE id = 1 LIMIT 1",
    "SELECT v FROM t WHERE id = -1",
    "SELECT v FROM t WHERE id = 2147483648",  # bigint in PostgreSQL
    "SELECT v FROM t WHERE id = 0x1F",
    "SELECT v FROM t WHERE id = 1.5",
    "SELECT v FROM t WHERE id = 1 AND w = 2",
    "SELECT v FROM t WHERE id = $1",
    "SELECT v FROM t WHERE id = 1; SELECT 2",
    "SELECT v, 1 FROM t WHERE id = 1",
    "SELECT v::varchar(3) FROM t WHERE id = 1",
    "SELECT v FROM t WHERE id = 1 FOR UPDATE",
    "SELECT v FROM t, u WHERE id = 1",
    "SELECT abs(v) FROM t WHERE id = 1",
    "SELECT v FROM t WHERE id < 1",
    "SELECT 1",
    "INSERT INTO t VALUES (1)",
])
def test_other_shapes_are_parsed_as_written(sql):
    assert p.point_template(sql) is None
