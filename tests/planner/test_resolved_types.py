"""PostgreSQL's types of sums, counts, bigints and the constructs whose
type is resolved from their arms, compared with PostgreSQL.

Wrong answers this fixed: ``sum(bigint) / 3`` divided as integers (the sum
of a bigint is a numeric: 2999999999 for 2999999999.66666667), also over a
window and through a scalar subquery; ``sum(integer) / 3`` divided as
numerics (a bigint: -2.0000000000000000 for -2). Types this fixed: sums of
array elements are bigints, CASE / COALESCE / GREATEST / NULLIF whose first
known arm is character or varchar are that type (not text), NULLIF of a
numeric and a double is a double, of an integer and a bigint constant an
integer, lag/lead of a value and a wider default their common type (a wrong
answer: lag(i, 1, 0.5) gave 1), and pg_typeof names character and
character varying."""

from __future__ import annotations

from tests.planner.helpers import assert_answers_as_postgres

SETUP = [
    "CREATE TABLE rt (id integer PRIMARY KEY, i integer, b bigint, s smallint, n numeric(8,2), c char(4), v varchar(6), t text,"
    " a integer[])",
    "INSERT INTO rt VALUES (1, 1, 9000000000, 1, 1.50, 'ab', 'x', 'ab', '{1,2}'), (2, -7, 9, -3, 2.25, 'cd', 'yy', 'Abc', '{3}'),"
    " (3, 3, 30, 7, NULL, NULL, NULL, 'z', NULL), (4, NULL, NULL, NULL, 4.00, 'e', 'zzz', NULL, '{}')",
]

QUERIES = [
    # the sum of a bigint is a numeric: divided exactly (also over a window, through a scalar subquery)
    "SELECT sum(b) / 3, sum(b) % 7, sum(b) / count(*) FROM rt",
    "SELECT id, sum(b) OVER (ORDER BY id) / 7 FROM rt ORDER BY id",
    "SELECT (SELECT sum(b) FROM rt WHERE id < 3) / 7",
    # the sum of an integer or smallint is a bigint: divided as integers
    "SELECT sum(i) / 3, sum(s) / 3, sum(s) / sum(i), sum(i) / count(*), count(*) / 3 FROM rt",
    "SELECT round(sum(i), 2), avg(b), var_pop(b) FROM rt",
    "SELECT id, b * 2 / 3, b / 2.5, (b + i) / 4 FROM rt ORDER BY id",
    # a double less the days between two dates: checked for overflow as a double of its other operands (was 0A000)
    "SELECT id, n::float8 - (date '2000-03-01' - date '2000-01-01'), sqrt(abs((n::float8 - 1) * (date '2000-01-01' - date '1999-01-01'))) FROM rt ORDER BY id",
    # array elements of known types, through array functions and ||: their sums are bigints
    "SELECT sum(-(array_cat(a, ARRAY[1, 2]))[1]), sum((array_remove(a || i, a[2]))[1]), sum(100 * (ARRAY[s, 2147483647])[1]) FROM rt",
    "SELECT sum(NULLIF((NULLIF(a, '{}'::integer[]))[2], s)), sum((a[1:2])[1]) FROM rt",
    # NULLIF answers in the type its equality compares in
    "SELECT id, NULLIF(id, 9000000000) * 2, NULLIF(n, 0.5::float8), NULLIF(c, 'x'), NULLIF(v, 'x') FROM rt ORDER BY id",
    "SELECT sum(NULLIF(0, 0.001)), sum(NULLIF(i, 0.5)), sum(NULLIF(s, 2.5::float8)), sum(NULLIF(i, 9000000000)) FROM rt",
    # the first arm of a known type decides (a CASE's ELSE first); the length stays when every arm has it
    "SELECT id, COALESCE(c, t), COALESCE(c, c), COALESCE(c, 'x'), COALESCE(v, t), COALESCE(t, v), COALESCE(c, v) FROM rt ORDER BY id",
    "SELECT id, CASE WHEN id < 3 THEN t ELSE c END, CASE WHEN id < 3 THEN c END, CASE WHEN id < 2 THEN c ELSE c END FROM rt ORDER BY id",
    "SELECT id, GREATEST(c, t), LEAST(v, v), COALESCE(NULL, c) FROM rt ORDER BY id",
    "SELECT max(COALESCE(c, t)), min(CASE WHEN id > 1 THEN v ELSE t END) FROM rt",
    "SELECT 'a'::bpchar, 'b'::varchar, 'c'::char(3), 'd'::varchar(2)",
    "SELECT pg_typeof(c), pg_typeof(v), pg_typeof(COALESCE(c, t)), pg_typeof(t) FROM rt WHERE id = 1",
    # lag/lead's default and value are of their common type (DuckDB cast the default to the value's: 0.5 became 1)
    "SELECT id, lead(s, 2, -1) OVER (ORDER BY id), lag(s, 1, 9000000000) OVER (ORDER BY id), lag(i, 1, 0.5::float8) OVER (ORDER BY id),"
    " lag(n, 1, 0.12345) OVER (ORDER BY id) = 0.12345 FROM rt ORDER BY id",
    "SELECT id, lag(i, 1, 0.5) OVER (ORDER BY id) * 2 = 1, lag(i, 2, 2.5::numeric(4,1)) OVER (ORDER BY id) > 2 FROM rt ORDER BY id",
]


async def test_resolved_types_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, SETUP + QUERIES, tables=("rt",))


async def test_a_repeated_query_is_described_afresh_after_ddl(db):
    """A result's column types (what RowDescription tells) are made once per
    statement text and catalog version (``BindCache.described``): the same
    text after the table changed is described by the new table."""
    from tests.planner.helpers import text_answer

    s = db.session()
    query = "SELECT c, COALESCE(c, 'x') FROM rd"
    await s.execute("CREATE TABLE rd (c varchar(3)); INSERT INTO rd VALUES ('ab')")
    for _ in range(2):
        assert await text_answer(s, query) == ([1043, 1043], [("ab", "ab")])
    await s.execute("DROP TABLE rd; CREATE TABLE rd (c char(4)); INSERT INTO rd VALUES ('ab')")
    assert await text_answer(s, query) == ([1042, 1042], [("ab  ", "ab  ")])
    await s.execute("DROP TABLE rd; CREATE TABLE rd (c jsonb); INSERT INTO rd VALUES ('[1, 2]')")
    assert (await text_answer(s, "SELECT c FROM rd"))[0] == [3802]
