"""Column references typed by what they read, scoped as PostgreSQL scopes
them (planner.resolve), compared with PostgreSQL: a FROM subquery's or
CTE's output that reuses the name of a table column is typed as the
subquery computes it, not as the table declares the name. Each query here
answered wrongly or failed when the binder typed columns by name alone:
``i / 2`` over ``avg(i) AS i`` divided as integers (1 for 1.25), a
``count(*) AS c`` beside a char(4) ``c`` was trimmed as text (an error),
``upper(c) AS c`` was compared padded (no row) and reported as char(4).
Also the operand types the binder works out: array lengths and elements and
days between dates are integers (their sum a bigint, not a numeric), and
extract is a numeric (divided exactly, not as a double)."""

from __future__ import annotations

from tests.planner.helpers import assert_answers_as_postgres

SETUP = [
    "CREATE TABLE sc (id integer PRIMARY KEY, i integer, b bigint, c char(4), n numeric(8,2), v varchar(6), a integer[], d date)",
    "INSERT INTO sc VALUES (1, 1, 10, 'ab', 1.50, 'x', '{1,2}', '2000-01-01'), (2, 2, 20, 'cd', 2.25, 'yy', '{3}', '2000-03-01'),"
    " (3, 3, 30, 'ab', NULL, NULL, NULL, NULL), (4, 4, NULL, NULL, 4.00, 'zzz', '{}', '1999-12-31')",
]

QUERIES = [
    # a numeric output named as an integer column: numeric division
    "SELECT (i / 2)::numeric(10,3) FROM (SELECT avg(i) AS i FROM sc) q",
    "WITH t(i) AS (SELECT avg(i) FROM sc) SELECT (i / 2)::numeric(10,3) FROM t",
    "WITH t AS (SELECT id, b::numeric / 3 AS b FROM sc) SELECT id, (b / 2)::numeric(20,4) FROM t ORDER BY id",
    "SELECT (x.n / 4)::numeric(10,4) FROM (SELECT sum(i) * 1.5 AS n FROM sc) x",
    # the same name read in two scopes of one statement: each as its own
    "SELECT id, i / 2, (SELECT (i / 2)::numeric(10,3) FROM (SELECT avg(i) AS i FROM sc) q) FROM sc ORDER BY id",
    "SELECT id, (SELECT (q.i / 2)::numeric(10,3) FROM (SELECT avg(i) AS i FROM sc s2 WHERE s2.id <= sc.id) q) FROM sc ORDER BY id",
    "SELECT sc.id, (l.i / 2)::numeric(10,3) FROM sc, LATERAL (SELECT avg(i) AS i FROM sc s2 WHERE s2.id <= sc.id) l ORDER BY 1",
    # a count named as a char(n) column: a bigint, summed as one
    "SELECT sum(c) FROM (SELECT count(*) AS c FROM sc GROUP BY i) q",
    "WITH t AS (SELECT c, count(*) AS n FROM sc GROUP BY c) SELECT sum(n), max(c) FROM t",
    "SELECT q.c, sc.c FROM sc JOIN (SELECT id, count(*) AS c FROM sc GROUP BY id) q USING (id) ORDER BY 1, 2",
    "SELECT j.c FROM (sc JOIN (SELECT id, count(*) AS k FROM sc GROUP BY id) q USING (id)) AS j ORDER BY 1",
    # text computed from a char(n) column under its name: text, unpadded
    "SELECT c, length(c) FROM (SELECT upper(c) AS c FROM sc) q WHERE c = 'AB' ORDER BY 1",
    "SELECT c || '|' FROM (SELECT lower(c) AS c FROM sc WHERE c = 'ab') q ORDER BY 1",
    # the table's own column still typed as declared beside such a subquery
    "SELECT sc.c || '|', q.c FROM sc, (SELECT max(id) AS c FROM sc) q WHERE sc.c = 'ab' ORDER BY 1",
    "SELECT id FROM sc WHERE c = 'ab' AND id IN (SELECT count(*) AS c FROM sc GROUP BY c) ORDER BY id",
    # a varchar(n) column passed on under another name: varchar(n) where read (a self-join of a CTE, LATERAL)
    "WITH t AS (SELECT id, v AS x FROM sc) SELECT t.id, t.x, u.x FROM t LEFT JOIN t u ON u.id = t.id + 1 ORDER BY 1",
    "SELECT s.id, l.x FROM sc s LEFT JOIN LATERAL (SELECT b.v AS x FROM sc b WHERE b.id > s.id ORDER BY b.id LIMIT 1) l ON true ORDER BY 1",
    # integers the binder now types: array lengths and elements, days between dates (sum is a bigint, / divides integers)
    "SELECT sum(array_length(a, 1)), sum(cardinality(a)), sum(a[1]), sum(d - date '2000-01-01'), sum(array_upper(a, 1)) FROM sc",
    "SELECT id, a[1] / 2, (d - date '1999-01-01') / 7, cardinality(a) / 2 FROM sc ORDER BY id",
    "SELECT id, extract(day FROM d) / 4, extract(epoch FROM d) / 7, date_part('day', d) / 4 FROM sc ORDER BY id",
    "SELECT id, round(extract(day FROM d) / 3, 2), CASE WHEN id > 2 THEN 1 ELSE extract(month FROM d) END / 8 FROM sc ORDER BY id",
    # an UPDATE reading a subquery whose output shares a column's name
    "UPDATE sc SET n = q.i / 4 FROM (SELECT avg(i) AS i FROM sc) q WHERE sc.id = 1",
    "SELECT id, n FROM sc ORDER BY id",
]


async def test_references_typed_by_scope_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, SETUP + QUERIES, tables=("sc",))
