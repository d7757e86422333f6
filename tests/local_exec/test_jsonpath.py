"""local_exec.jsonpath on its own: the grammar's refusals, lazy evaluation
(exists in lax mode stops at its first item, as PostgreSQL's does), the
operators' missing variables, and each registered function through the
engine in the Arrow type it declares. Answers against the real PostgreSQL
are tests/planner/test_jsonpath.py's."""

from __future__ import annotations

import duckdb
import pytest

from local_exec import jsonpath
from local_exec.engine import LocalEngine
from local_exec.jsonb import JsonError


@pytest.mark.parametrize("path, sqlstate", [
    ("$.a ?", "42601"), ("@.a", "42601"), ("last", "42601"), ("$.a.nosuch()", "42601"), ("$ ? (1)", "42601"),
    ("$ == 1 == 2", "42601"), ("!$.a", "42601"), ('$ ? (@ like_regex "a" flag "z")', "42601"),
    ('$ ? (@ like_regex "a" flag "x")', "0A000"),
])
def test_paths_postgres_refuses_are_refused(path, sqlstate):
    with pytest.raises(JsonError) as e:
        jsonpath.path_query("{}", path, "{}", False)
    assert e.value.sqlstate == sqlstate, path


def test_lax_exists_stops_at_the_first_item():
    # the second subscript is not a number: an error, but only reached after the first item
    assert jsonpath.path_exists("[1, 2]", '$[0, "x"]', "{}", False) is True
    with pytest.raises(JsonError):
        jsonpath.path_query("[1, 2]", '$[0, "x"]', "{}", False)
    assert jsonpath.path_exists("[1, 2]", 'strict $[0, "x"]', "{}", True) is None


def test_variables_of_the_operators_are_null_and_of_the_functions_required():
    assert jsonpath.path_exists("[1]", "$v", jsonpath.NO_VARIABLES, True) is True
    assert jsonpath.path_query("[1]", "$v", jsonpath.NO_VARIABLES, True) == ["null"]
    with pytest.raises(JsonError) as e:
        jsonpath.path_exists("[1]", "$v", "{}", True)  # even silent
    assert e.value.sqlstate == "42704"
    assert jsonpath.path_query("[1, 5]", "$[*] ? (@ > $m)", '{"m": 2}', False) == ["5"]


def test_parse_is_cached_per_text():
    assert jsonpath.parse("$.a ? (@ > 1)") is jsonpath.parse("$.a ? (@ > 1)")


_SAMPLES = {name: "'{\"a\": [1, 2.50]}', '$.a[*] ? (@ > 1)', '{}', false" for name in jsonpath.FUNCTIONS}
_SAMPLES["txngate_jsonb_path_match"] = "'{\"a\": [1, 2.50]}', '$.a[*] > 2', '{}', false"


async def test_every_function_runs_in_the_engine():
    engine = LocalEngine()
    for name, args in _SAMPLES.items():
        out = await engine.run(f"SELECT {name}({args}) AS v")
        expected = jsonpath.FUNCTIONS[name][0](*duckdb.connect().execute(f"SELECT {args}").fetchone())
        assert out.column("v").to_pylist() == [expected], name
