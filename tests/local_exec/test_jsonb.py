"""local_exec.jsonb against simple models: canonical text is stable and
means the same value; containment, concatenation and deletion follow
their definitions on Python values. (Exact agreement with PostgreSQL is
checked by the differential corpus, tests/planner/test_differential.py.)"""

from __future__ import annotations

import json
from decimal import Decimal

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from local_exec import jsonb
from local_exec.engine import EngineError, LocalEngine

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.text(max_size=6),
                    st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-1000, max_value=1000))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
                      max_leaves=12)


def _plain(v):
    """``v`` with Decimals as numbers a comparison can use."""
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return Decimal(v) if isinstance(v, (int, Decimal)) and not isinstance(v, bool) else v


@settings(max_examples=300, deadline=None)
@given(values)
def test_canonical_is_stable_and_keeps_the_value(v):
    text = json.dumps(_plain(v), default=str)
    once = jsonb.canonical(text)
    assert jsonb.canonical(once) == once
    assert _plain(jsonb.parse(once)) == _plain(jsonb.parse(text))
    if isinstance(v, dict):
        keys = list(jsonb.parse(once))
        assert keys == sorted(keys, key=lambda k: (len(k.encode()), k.encode()))


@settings(max_examples=300, deadline=None)
@given(values, values)
def test_containment_and_concatenation(a, b):
    ta, tb = jsonb.canonical(json.dumps(_plain(a), default=str)), jsonb.canonical(json.dumps(_plain(b), default=str))
    assert jsonb.contains(ta, ta), "every value contains itself"
    both = jsonb.concat(ta, tb)
    if isinstance(a, dict) and isinstance(b, dict):
        assert jsonb.contains(both, tb), "the right object's keys win"
        assert set(jsonb.parse(both)) == set(a) | set(b)
    else:
        merged = jsonb.parse(both)
        assert isinstance(merged, list)
        assert len(merged) == (len(a) if isinstance(a, list) else 1) + (len(b) if isinstance(b, list) else 1)
    if isinstance(a, dict):
        for k in a:
            assert jsonb.exists(ta, k) and not jsonb.exists(jsonb.delete(ta, json.dumps(k)), k)


def test_postgresql_rules():
    assert jsonb.canonical('{"b": 1, "a": 2, "b": 3, "aa": [1e2, 1.50, -0.0]}') == '{"a": 2, "b": 3, "aa": [100, 1.50, 0.0]}'
    assert jsonb.contains('[1, [2, 3]]', '[[3]]') and not jsonb.contains('{"a": [1]}', '{"a": 1}')
    assert jsonb.contains('["x", 1]', '"x"') and not jsonb.contains('[["x"]]', '"x"'), "a primitive is contained at the top level only"
    assert jsonb.contains('{"n": 1.0}', '{"n": 1}') and not jsonb.contains('[true]', '[1]')
    assert jsonb.get('"s"', "0") == '"s"' and jsonb.get("[1, 2]", "-1") == "2" and jsonb.get('{"a": 1}', "0") is None
    assert jsonb.set_path('{"a": [1, 2]}', '["a", "-1"]', '"z"', True) == '{"a": [1, "z"]}'
    assert jsonb.set_path('{"a": [1]}', '["a", "9"]', "0", True) == '{"a": [1, 0]}'
    assert jsonb.set_path('{"a": {}}', '["x", "y"]', "0", True) == '{"a": {}}', "a missing step before the last changes nothing"
    assert jsonb.delete_path('{"a": [1, {"b": 2}]}', '["a", "1", "b"]') == '{"a": [1, {}]}'
    assert jsonb.pretty(jsonb.parse('{"a": [], "b": {}}')) == '{\n    "a": [\n    ],\n    "b": {\n    }\n}'
    for call, state in ((lambda: jsonb.delete("5", '"a"'), "22023"), (lambda: jsonb.delete("{}", "0"), "22023"),
                        (lambda: jsonb.array_length("{}"), "22023"), (lambda: jsonb.canonical("{"), "22P02"),
                        (lambda: jsonb.canonical("NaN"), "22P02"), (lambda: jsonb.set_path("[1]", '["x"]', "1", True), "22P02")):
        with pytest.raises(jsonb.JsonError) as info:
            call()
        assert info.value.sqlstate == state


async def test_engine_functions_and_errors():
    engine = LocalEngine()
    out = await engine.run("SELECT txngate_jsonb_get(d, to_json('a')) AS g, txngate_jsonb_exists(d, 'b') AS e FROM (VALUES ('{\"a\": 1.50}'), (NULL)) t(d)")
    assert out.column("g").to_pylist() == ["1.50", None] and out.column("e").to_pylist() == [False, None]
    with pytest.raises(EngineError) as info:
        await engine.run("SELECT txngate_jsonb_delete('5', to_json('a'))")
    assert (info.value.sqlstate, info.value.message) == ("22023", "cannot delete from scalar")
    with pytest.raises(duckdb.Error):
        duckdb.connect().sql("SELECT txngate_jsonb('{}')")  # registered on the engine's database only


#: arguments (DuckDB SQL) for one call of each registered function
_SAMPLES = {
    "txngate_jsonb": "'{\"b\": 1, \"a\": NaN}'", "txngate_typed_json": "'{\"a\":\"2020-01-01 10:00:00\",\"b\":[1.50]}', 'STRUCT(a TIMESTAMP, b DECIMAL(3,2)[])'", "txngate_typed_json_row": "'{\"d\":\"{\\\"k\\\":  1}\",\"n\":2}', 'STRUCT(d VARCHAR, n INTEGER)', '[\"d\"]'", "txngate_json": "'{\"b\":  \"NaN\", \"a\": [-Infinity]}'", "txngate_jsonb_get": "'{\"a\": [1]}', '\"a\"'", "txngate_jsonb_get_text": "'[\"x\"]', '0'",
    "txngate_jsonb_path": "'{\"a\": [1]}', '[\"a\", \"0\"]'", "txngate_jsonb_path_text": "'{\"a\": \"s\"}', '[\"a\"]'",
    "txngate_jsonb_contains": "'[1, 2]', '[2]'", "txngate_jsonb_exists": "'{\"a\": 1}', 'a'", "txngate_jsonb_exists_any": "'[\"a\"]', '[\"a\", \"b\"]'",
    "txngate_jsonb_exists_all": "'[\"a\"]', '[\"a\", \"b\"]'", "txngate_jsonb_concat": "'[1]', '{\"a\": 2}'", "txngate_jsonb_delete": "'{\"a\": 1}', '\"a\"'",
    "txngate_jsonb_delete_path": "'{\"a\": [1, 2]}', '[\"a\", \"0\"]'", "txngate_jsonb_set": "'{\"a\": 1}', '[\"a\"]', '[2]', true",
    "txngate_jsonb_insert": "'{\"a\": [1]}', '[\"a\", \"0\"]', '2', false",
    "txngate_jsonb_assign": "'{\"a\": 1}', '[\"b\", 1]', '[2]'",
    "txngate_jsonb_strip_nulls": "'{\"a\": null}'", "txngate_jsonb_pretty": "'[1]'", "txngate_jsonb_typeof": "'1.5'",
    "txngate_jsonb_array_length": "'[1, 2]'", "txngate_jsonb_object_keys": "'{\"b\": 1, \"a\": 2}'", "txngate_jsonb_array_elements": "'[1, {\"a\": 1.50}]'",
    "txngate_jsonb_array_elements_text": "'[\"x\", 2]'", "txngate_json_array_texts2": "'[[1, \"a\"], [null, true]]'",
    "txngate_json_array_texts3": "'[[[1]], [[2]]]'", "txngate_jsonb_each": "'{\"a\": [1]}'", "txngate_jsonb_each_text": "'{\"a\": \"s\"}'",
    "txngate_jsonb_scalar_text": "'2.5', 'integer'",
    "txngate_json_input": "'[1, {\"a\": 2.50}]'",
    "txngate_jsonb_sortkey": "'{\"a\": [1, -2.50, \"x\", null, true]}'",
    "txngate_json_object": "['a', 'b'], ['1', NULL]", "txngate_jsonb_object": "['b', 'a'], ['1', '2']",
    "txngate_json_object_pairs": "['a', '1']", "txngate_jsonb_object_pairs": "['a', '1', 'b', NULL]",
}


async def test_every_function_runs_in_the_engine():
    """Each registered function returns what its Python function does, in
    the Arrow type it declares to DuckDB (a mismatch fails the query)."""
    assert set(_SAMPLES) == set(jsonb.FUNCTIONS)
    engine = LocalEngine()
    for name, args in _SAMPLES.items():
        out = await engine.run(f"SELECT {name}({args}) AS v")
        values = duckdb.connect().execute(f"SELECT {args}").fetchone()
        expected = jsonb.FUNCTIONS[name][0](*values)
        assert out.column("v").to_pylist() == [expected], name


def test_computed_json_quotes_float_specials_outside_strings():
    # DuckDB's JSON of a double writes NaN and the infinities bare; PostgreSQL's to_json gives strings
    assert jsonb.computed_json('{"a":NaN,"b":[Infinity, -Infinity],"c":"NaN Infinity"}') == \
        '{"a":"NaN","b":["Infinity", "-Infinity"],"c":"NaN Infinity"}'
    assert jsonb.computed_json('{"s":"say \\"NaN\\""}') == '{"s":"say \\"NaN\\""}'
    assert jsonb.computed_jsonb('{"b": NaN, "a": 1}') == '{"a": 1, "b": "NaN"}'
    with pytest.raises(jsonb.JsonError):
        jsonb.parse('{"a": NaN}')  # typed input stays refused, as PostgreSQL's
