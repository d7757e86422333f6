"""SQL/JSON paths answer as PostgreSQL's: jsonb_path_query (in the select
list and in FROM), _query_array, _query_first, _exists and _match, the
``@?`` and ``@@`` operators, each path over documents of every shape, in
lax and strict mode, with variables, silent or not — the rows' text, the
result types, or the SQLSTATE, compared with the real PostgreSQL.

The paths cover accessors (``.key``, ``."key"``, ``.*``, ``.**{m to
n}``, ``[*]``, ``[i, j to k]``, ``last``), filters with comparisons of
every type pair, three-valued ``&&``/``||``/``!``/``is unknown``,
``exists``, ``like_regex`` and ``starts with``, arithmetic with numeric's
scales, the methods, and the errors PostgreSQL raises (strict mode's
structural ones, arithmetic on non-numbers, missing variables, syntax)."""

from __future__ import annotations

import pytest

from tests.planner.helpers import assert_answers_as_postgres, text_answer

DOCS = [
    '{"a": 1, "b": [1, 2, 3], "c": {"d": "x", "e": null}, "s": "abc", "t": true}',
    '{"a": "1", "b": [], "c": [{"d": 1}, {"d": "y"}, 7], "s": "ABx\\ny", "f": 1.50}',
    '[1, "a", null, true, {}, [], [1, [2]], 2.5, -3]',
    '"scalar"',
    "42",
    "null",
    '{"wait": null, "age": 25, "array": ["foo", "bar"], "public": true, "disabled": false}',
]

PATHS = [
    "$", "$.a", '$."a"', "$.*", "$[*]", "$.b[*]", "$.b[1]", "$.b[last]", "$.b[0 to 1]", "$.b[1, last - 1 to last]", "$.b[2 to 1]",
    "$.b[-1 to 1]", "$.b[1.7]", "$[0]", "$[1]", "$.**", "$.**{1}", "$.**{2 to last}", "$.**{last}", "$.**.d", "$.c.d", "$.c[*].d",
    "$.a.b", "$.x", "strict $.x", "strict $.a.b", "strict $.*", "strict $[*]", "strict $.b[5]", "strict $.b[2 to 1]", "strict $.**.d",
    "strict $.c.d", "lax $.c.d", "$.b.size()", "strict $.a.size()", "$.a.size()", "$.type()", "$.*.type()", "$[*].type()",
    "$.a.double()", "$.f.double()", "$.s.double()", '"1.5e2".double()', "$.f.floor()", "$.f.ceiling()", "-$.f.abs()", "$.f.abs()",
    "$.a + 1", "$.a * $.f", "$.f / 7", "$.a / 0", "$.f % 0.4", "-$.a", "+$.b", "-$.s", "$.b + 1", "$.a + $.s", "$.b[*] + 1",
    "1e3", ".5", "1.", "2 * 3 + 4", "2 * (3 + 4)", "-2 - -2", "$.x + 1",
    "$ ? (@.a == 1)", "$.b ? (@ > 1)", "$.b[*] ? (@ > 1 && @ < 3)", "$.b[*] ? (@ == 1 || @ == 3)", "$.b[*] ? (!(@ == 2))",
    "$[*] ? (@ == null)", "$[*] ? (@ != null)", '$[*] ? (@ < "b")', "$[*] ? (@ > 0)", "$[*] ? ((@ > 0) is unknown)",
    "$[*] ? (@ == true)", "$[*] ? (@ == @)", "$[*] ? (@ >= 2.5)", '$ ? (@.s starts with "ab")', '$ ? (@.s like_regex "^a")',
    '$.s ? (@ like_regex "ab" flag "i")', '$.s ? (@ like_regex "x.y")', '$.s ? (@ like_regex "x.y" flag "s")',
    '$.s ? (@ like_regex "^y" flag "m")', '$.s ? (@ like_regex "a.c" flag "q")', "$ ? (exists (@.c))", "$ ? (exists (@.zz))",
    "strict $ ? (exists (@.zz))", "strict $ ? (@.zz == 1)", "$ ? (@.c.* == \"x\")", "$ ? ($.a == @.a)",
    "$.a == 1", "$.b == 2", "$.b[*] > 2", '$.a == "1"', "$ == $", "$.c == $.c", "$.x == 1", "!($.a == 1)", "($.a == 1) is unknown",
    "$.wait == null", '"CC" == $.wait', '$.wait == "CC" && true == $.public', "$.age == 25", "$.age == 25.0",
    '$.array[*] == "foo"', 'exists($ ? (@.array[*] == "bar"))', "exists($.public) || exists($.disabled)",
    "exists($.public) && exists($.disabled)", "$.wait ? (@ == null)", '$ ? (@.wait == "CC" && true == @.public)',
    "$.age ? (@ == 25)", "$ ? (@.age == 25.0)", "$.public", "$.bar", "$var", "$.a ?", "@.a", "last", "$.a.nosuch()",
    "$.keyvalue()", "strict $.b[*] ? (@ > 1)", "$.b ? (@ > $min)",
]

TABLE = ["CREATE TABLE jp (id integer, j jsonb)",
         "INSERT INTO jp VALUES " + ", ".join(f"({i}, '{d}')" for i, d in enumerate(DOCS))]


def _quoted(path: str) -> str:
    return path.replace("'", "''")


QUERIES = [
    *(f"SELECT id, jsonb_path_query(j, '{_quoted(p)}', '{{\"min\": 1}}')::text AS v FROM jp ORDER BY id, v" for p in PATHS),
    *(f"SELECT id, j @? '{_quoted(p)}' AS e, j @@ '{_quoted(p)}' AS m FROM jp ORDER BY id" for p in PATHS),
    *(f"SELECT id, jsonb_path_exists(j, '{_quoted(p)}') AS e FROM jp ORDER BY id" for p in PATHS[:40]),
    "SELECT id, jsonb_path_query_array(j, '$.b[*]'), jsonb_path_query_first(j, '$.b[*]'), jsonb_path_query_first(j, '$.zz') FROM jp ORDER BY id",
    "SELECT id, jsonb_path_match(j, '$.a == 1') FROM jp ORDER BY id",
    "SELECT jsonb_path_match('{\"a\": 1}', '$.a')",
    "SELECT jsonb_path_match('{\"a\": 1}', '$.a', '{}', true)",
    "SELECT jsonb_path_exists('{\"a\": 1}', 'strict $.b', '{}', true), jsonb_path_exists('{\"a\": 1}', 'strict $.b', NULL)",
    "SELECT jsonb_path_query('{\"a\": 1}', '$.a', '[]')",
    "SELECT * FROM jsonb_path_query('[1, 2, 3]', '$[*] ? (@ > $m)', '{\"m\": 1}') ORDER BY 1",
    "SELECT t FROM jsonb_path_query('[1, 2, 3]', '$[*]') AS t ORDER BY 1",
    "SELECT count(*) FROM jp WHERE j @? '$.b[*] ? (@ == 2)'",
    "SELECT count(*) FROM jp WHERE j @@ '$.a == 1'",
    "SELECT jsonb_path_query('{\"a\": [1, 2]}', '$.a[*] ? (@ >= $x)'::jsonpath, '{\"x\": 2}')::text",
    "SELECT jsonb '{\"a\": 1}' @? '$.a'::jsonpath",
    "SELECT pg_typeof(jsonb_path_exists('{}', '$')), pg_typeof(jsonb '{}' @? '$'), pg_typeof(jsonb_path_query_first('{\"a\": 1}', '$.a')),"
    " pg_typeof('{}'::jsonb), pg_typeof(jsonb_set('{}', '{a}', '1')), pg_typeof(to_json(1))",
]


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_paths_answer_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, TABLE + QUERIES, tables=("jp",))


@pytest.mark.parametrize("db", ["embedded"], indirect=True)
async def test_keyvalue_of_a_nested_object_is_refused(db):
    """PostgreSQL numbers a nested object's keyvalue() items by its offset
    in the binary jsonb: txngate refuses (0A000) rather than answer another id."""
    s = db.session()
    assert await text_answer(s, "SELECT jsonb_path_query('{\"c\": {\"d\": 1}}', '$.c.keyvalue()')") == "0A000"
    assert await text_answer(s, "SELECT jsonb_path_query('{\"d\": 1}', '$.keyvalue()')::text") == ([25], [('{"id": 0, "key": "d", "value": 1}',)])
