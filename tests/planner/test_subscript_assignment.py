"""UPDATE's subscript and multiple-column assignments, beside PostgreSQL:
``SET a[i] = v`` and ``SET a[lo:hi] = ARRAY[...]`` on arrays (extended with
NULLs past the end), ``SET j['k'][0] = v`` on jsonb (members and containers
created along the path, arrays filled with nulls, negative subscripts from
the end, PostgreSQL's errors where the path meets a scalar), several
subscripts of one column in one SET, and ``SET (a, b) = (x, y)`` or
``= (SELECT x, y)``. Each statement answers as on PostgreSQL (the rows'
text and types, or the SQLSTATE).

Not as PostgreSQL: an assignment that would give an array a lower bound
other than 1 (``a[0] = x``, or ``a[3] = x`` on a NULL array) is refused
with 0A000; PostgreSQL keeps the bound (``[0:3]={...}``)."""

from __future__ import annotations

import pytest

from tests.planner.helpers import assert_answers_as_postgres, text_answer

JSONB = [
    "CREATE TABLE docs (id integer PRIMARY KEY, v jsonb)",
    "INSERT INTO docs VALUES (1, NULL), (2, '{}'), (3, '[]'), (4, '1'), (5, '{\"a\": 1}'), (6, '[1,2]'), (7, 'null'), (8, NULL)",
    "UPDATE docs SET v['a'] = '\"x\"'",  # 22P02: a text subscript into an array
    "UPDATE docs SET v['a'] = '\"x\"' WHERE id IN (1, 2)",
    "UPDATE docs SET v[0] = '5' WHERE id IN (3, 6, 8)",
    "UPDATE docs SET v[-1] = '7' WHERE id = 6",
    "UPDATE docs SET v[-5] = '7' WHERE id = 6",
    "UPDATE docs SET v[5] = '9' WHERE id = 6",
    "UPDATE docs SET v['a']['b'] = '1' WHERE id = 5",
    "UPDATE docs SET v['q']['1']['r'] = '2' WHERE id = 5",
    "UPDATE docs SET v['a'] = '1' WHERE id IN (4, 7)",
    "UPDATE docs SET v['x'] = NULL WHERE id = 2",
    "UPDATE docs SET v[NULL] = '1' WHERE id = 6",
    "UPDATE docs SET v['1'] = '1' WHERE id = 6",
    "UPDATE docs SET v[2]['a'] = '1' WHERE id = 6",
    "UPDATE docs SET v['a'][0]['b'][2]['c'] = '1', v['z'] = '[true]' WHERE id = 2",
    "SELECT id, v FROM docs ORDER BY id",
    "SELECT id FROM docs WHERE v['a'] = '\"x\"' ORDER BY id",
]

ARRAYS = [
    "CREATE TABLE lists (id integer PRIMARY KEY, x int[], t text[])",
    "INSERT INTO lists VALUES (1, NULL, NULL), (2, '{}', '{}'), (3, '{1,2,3}', '{a}'), (4, '{1,2,3,4,5}', '{a,b}')",
    "UPDATE lists SET x[1] = 9, t[1] = 'z' WHERE id IN (1, 2)",
    "UPDATE lists SET x[5] = 9, t[3] = 'c d' WHERE id = 3",
    "UPDATE lists SET x[2] = '7', x[3] = 8 WHERE id = 3",
    "UPDATE lists SET x[NULL] = 1 WHERE id = 3",
    "UPDATE lists SET x[1] = 'a' WHERE id = 3",
    "UPDATE lists SET x[1] = 1, x = '{1}' WHERE id = 3",
    "UPDATE lists SET x[1][2] = 1 WHERE id = 3",
    "UPDATE lists SET x[4:6] = '{20,21,22}' WHERE id = 4",
    "UPDATE lists SET x[:2] = '{40,41}', t[2:] = ARRAY['q'] WHERE id = 4",
    "UPDATE lists SET x[1:3] = '{1}' WHERE id = 3",
    "UPDATE lists SET x[1:2] = '{10,11,12}' WHERE id = 2",
    "SELECT id, x, t FROM lists ORDER BY id",
    "UPDATE lists SET (id, x) = (10, '{1}') WHERE id = 1",
    "UPDATE lists SET (x, t) = (SELECT ARRAY[2], ARRAY['two']) WHERE id = 2",
    "UPDATE lists SET (id, x) = (30) WHERE id = 3",
    "UPDATE lists SET (x, t) = (ARRAY[1]) WHERE id = 3",
    "SELECT id, x, t FROM lists ORDER BY id",
]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_jsonb_subscript_assignment_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, JSONB, tables=("docs",))


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_array_and_multiple_column_assignment_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, ARRAYS, tables=("lists",))


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_lower_bounds_other_than_one_are_refused_and_nothing_changes(db):
    s = db.session()
    await s.execute("CREATE TABLE bounded (id integer PRIMARY KEY, x int[])")
    await s.execute("INSERT INTO bounded VALUES (1, '{1,2}'), (2, NULL)")
    assert await text_answer(s, "UPDATE bounded SET x[0] = 5") == "0A000"
    assert await text_answer(s, "UPDATE bounded SET x[3] = 5 WHERE id = 2") == "0A000"
    assert await text_answer(s, "UPDATE bounded SET x[2:3] = '{5,6}' WHERE id = 2") == "0A000"
    assert await text_answer(s, "SELECT x FROM bounded ORDER BY id") == ([1007], [("{1,2}",), (None,)])
