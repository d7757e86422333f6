"""Functions written in SQL (CREATE FUNCTION ... LANGUAGE sql) answer as
PostgreSQL's: scalar calls (parameters by position, by name, named
arguments, defaults, STRICT), calls that read tables (the caller's columns
in the arguments are the caller's, never captured by the body's relations
of the same names), set-returning functions and RETURNS TABLE / OUT
parameters in FROM (LATERAL too) and in the select list, nesting, views,
INSERT and UPDATE, CREATE OR REPLACE, DROP (overloads, IF EXISTS),
schemas, rolled-back definitions, pg_proc, and PostgreSQL's refusals with
its SQLSTATEs — compared statement by statement with the real PostgreSQL."""

from __future__ import annotations

import pytest

from tests.planner.helpers import assert_answers_as_postgres, text_answer

SCRIPT = [
    "CREATE TABLE ft (id int PRIMARY KEY, v text, n int)",
    "INSERT INTO ft VALUES (1, 'one', 10), (2, 'two', 20), (3, 'three', NULL)",
    # scalar: positional, named, defaults, STRICT, RETURN
    "CREATE FUNCTION add1(a int, b int DEFAULT 1) RETURNS int LANGUAGE sql IMMUTABLE STRICT AS 'SELECT a + b'",
    "SELECT add1(1), add1(2, 3), add1(NULL), add1(b => 10, a => 1), add1(1, NULL)",
    "CREATE FUNCTION twice(x int) RETURNS int RETURN x * 2",
    "SELECT twice(add1(3)), twice(twice(2)), twice(NULL)",
    "CREATE FUNCTION greet(name text, greeting text DEFAULT 'hello') RETURNS text LANGUAGE sql AS $$ SELECT greeting || ' ' || name $$",
    "SELECT greet('bob'), greet('amy', 'hi'), greet(greeting => 'yo', name => 'x')",
    "CREATE FUNCTION half(x numeric) RETURNS numeric LANGUAGE sql AS 'SELECT x / 2'",
    "SELECT half(5) = 2.5, half(1) < 1, half(1) > 0.49",  # (their scale is not PostgreSQL's: 2.5, not 2.5000000000000000)
    # reading tables: the caller's id is the caller's
    "CREATE FUNCTION name_of(i int) RETURNS text AS $$ SELECT v FROM ft WHERE id = i $$ LANGUAGE sql STABLE",
    "SELECT id, name_of(id), name_of(id + 1), name_of($1::int) FROM ft ORDER BY id".replace("$1::int", "2"),
    "SELECT id FROM ft WHERE name_of(id) LIKE 't%' ORDER BY id",
    "CREATE FUNCTION cnt() RETURNS bigint AS 'SELECT count(*) FROM ft' LANGUAGE sql",
    "SELECT cnt(), twice(cnt()::int)",
    "CREATE FUNCTION first_id() RETURNS int AS 'SELECT id FROM ft ORDER BY id DESC' LANGUAGE sql",
    "CREATE FUNCTION none() RETURNS int AS 'SELECT id FROM ft WHERE false' LANGUAGE sql",
    "SELECT first_id(), none()",
    "SELECT * FROM none()",
    "SELECT * FROM first_id() AS f(z)",
    # set-returning, RETURNS TABLE, OUT parameters
    "CREATE FUNCTION upto(n int) RETURNS SETOF int AS $$ SELECT g FROM generate_series(1, $1) g $$ LANGUAGE sql",
    "SELECT * FROM upto(3)",
    "SELECT u FROM upto(2) AS u",
    "SELECT x FROM upto(2) AS u(x)",
    "SELECT upto(3)",
    "SELECT ft.id, x FROM ft, upto(ft.id) AS x ORDER BY 1, 2",
    "CREATE FUNCTION pairs(x int) RETURNS TABLE(a int, b text) LANGUAGE sql AS $$ SELECT id, v FROM ft WHERE id <= x ORDER BY id $$",
    "SELECT * FROM pairs(2)",
    "SELECT p.b FROM ft, LATERAL pairs(ft.id) p WHERE ft.id = 3 ORDER BY 1",
    "CREATE FUNCTION outs(i int, OUT a int, OUT b text) AS 'SELECT i, i::text || ''!''' LANGUAGE sql",
    "SELECT * FROM outs(7)",
    "SELECT (SELECT b FROM outs(id)) FROM ft ORDER BY id",
    "CREATE FUNCTION vv() RETURNS TABLE(a int, b text) AS $$ VALUES (1, 'a'), (2, 'b') $$ LANGUAGE sql",
    "SELECT * FROM vv() ORDER BY a",
    "CREATE FUNCTION both(a int) RETURNS SETOF int AS 'SELECT a UNION ALL SELECT a + 1' LANGUAGE sql",
    "SELECT * FROM both(5) ORDER BY 1",
    # views, writes
    "CREATE VIEW fv AS SELECT id, twice(n) AS d, name_of(id) AS nm FROM ft",
    "SELECT * FROM fv ORDER BY id",
    "INSERT INTO ft VALUES (add1(10), name_of(1), twice(5))",
    "UPDATE ft SET v = name_of(2) WHERE id = twice(0) + 3",
    "SELECT * FROM ft ORDER BY id",
    # replace, drop, transactions, schemas
    "CREATE FUNCTION add1(a int, b int DEFAULT 1) RETURNS int LANGUAGE sql AS 'SELECT a - b'",
    "CREATE OR REPLACE FUNCTION add1(a int, b int DEFAULT 1) RETURNS int LANGUAGE sql AS 'SELECT a - b'",
    "SELECT add1(5)",
    "CREATE OR REPLACE FUNCTION add1(a int, b int DEFAULT 1) RETURNS text LANGUAGE sql AS 'SELECT ''x'''",
    "CREATE FUNCTION add1(a text) RETURNS text LANGUAGE sql AS 'SELECT a || ''+'''",
    "DROP FUNCTION add1",
    "DROP FUNCTION add1(text)",
    "DROP FUNCTION add1(int, int)",
    "SELECT add1(1)",
    "DROP FUNCTION IF EXISTS add1(int, int)",
    "DROP FUNCTION nosuch()",
    "BEGIN",
    "CREATE FUNCTION tmpf() RETURNS int AS 'SELECT 42' LANGUAGE sql",
    "SELECT tmpf()",
    "ROLLBACK",
    "SELECT tmpf()",
    "CREATE SCHEMA s2",
    "CREATE FUNCTION s2.f(x int) RETURNS int AS 'SELECT x + 100' LANGUAGE sql",
    "SELECT s2.f(1)",
    "DROP SCHEMA s2",
    "DROP SCHEMA s2 CASCADE",
    "SELECT s2.f(1)",
    # refusals PostgreSQL makes
    "CREATE FUNCTION bad() RETURNS int AS 'SELECT * FROM nosuch' LANGUAGE sql",
    "CREATE FUNCTION two() RETURNS int AS 'SELECT 1, 2' LANGUAGE sql",
    "CREATE FUNCTION nolang() RETURNS int AS 'SELECT 1'",
    "CREATE FUNCTION rec(n int) RETURNS int AS 'SELECT rec(n - 1)' LANGUAGE sql",
    "SELECT proname::text, proisstrict, provolatile::text, pronargs, pronargdefaults, prorettype::regtype::text, proretset, prosrc"
    " FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND proname IN ('twice', 'upto', 'greet') ORDER BY proname",
]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_sql_functions_answer_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, SCRIPT, tables=("fv", "ft"))


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_recursion_and_other_languages_are_refused(db):
    """Calling a function that calls itself stops at the inlining depth
    (PostgreSQL's stack limit, 54001); plpgsql is not supported (0A000)."""
    s = db.session()
    await s.execute("CREATE FUNCTION rec(n int) RETURNS int AS 'SELECT rec(n - 1)' LANGUAGE sql")
    assert await text_answer(s, "SELECT rec(3)") == "54001"
    assert await text_answer(s, "CREATE FUNCTION pl() RETURNS int AS 'begin return 1; end' LANGUAGE plpgsql") == "0A000"
