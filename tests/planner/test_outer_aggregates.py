"""An aggregate in a subquery that PostgreSQL computes in an outer query
(its arguments read only the outer query's columns, through a subquery of
their own) is refused with 0A000: DuckDB computed it where it is written,
one value per outer row (``SELECT (SELECT max((SELECT i.b FROM t i WHERE
i.a = o.a))) FROM t o`` gave two rows where PostgreSQL gives one, a wrong
answer found by PostgreSQL's aggregates.sql). The shapes DuckDB places as
PostgreSQL does still answer as PostgreSQL."""

from __future__ import annotations

import pytest

from tests.planner.helpers import assert_answers_as_postgres, sqlstate

SETUP = ["CREATE TABLE oa (a integer, b integer)", "INSERT INTO oa VALUES (1, 10), (2, 20), (3, NULL)"]


@pytest.mark.parametrize("sql", [
    "SELECT (SELECT max((SELECT i.b FROM oa i WHERE i.a = o.a))) FROM oa o",
    "SELECT (SELECT max((SELECT i.b FROM oa i WHERE i.a = o.a)) FROM oa x WHERE x.a = 1) FROM oa o",
    "SELECT (SELECT sum((SELECT o.a))) FROM oa o",
    "SELECT a, (SELECT count((SELECT o.b WHERE o.a > 1))) FROM oa o",
])
async def test_an_outer_aggregate_read_through_a_subquery_is_refused(db, sql):
    s = db.session()
    for q in SETUP:
        await s.execute(q)
    assert await sqlstate(s, sql) == "0A000"


async def test_aggregates_placed_alike_answer_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, SETUP + [
        "SELECT (SELECT max(o.a + (SELECT 1))) FROM oa o",  # read directly: the outer query's, in both
        "SELECT (SELECT count((SELECT 1))) FROM oa o",  # reads no column: its own level's
        "SELECT (SELECT max((SELECT i.b FROM oa i WHERE i.a = o.a + x.a)) FROM oa x) FROM oa o ORDER BY 1",  # x: its own level
        "SELECT a, (SELECT max((SELECT i.b FROM oa i WHERE i.a = x.a)) FROM oa x WHERE x.a <= o.a) FROM oa o ORDER BY a",
        "SELECT a, (SELECT max(b) FROM oa i WHERE i.a < o.a) FROM oa o ORDER BY a",
    ], tables=("oa",))
