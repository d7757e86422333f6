"""local_exec.jsontext: json's operators return pieces of the text as
written (exact agreement with PostgreSQL is checked beside it in
tests/planner/test_function_answers.py), every registered function runs in
the engine in the type it declares, and a random document's pieces are
the text of the values they name."""

from __future__ import annotations

import json

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from local_exec import jsontext
from local_exec.engine import LocalEngine
from local_exec.jsonb import JsonError

_SAMPLES = {
    "txngate_json_get": "'{\"a\": [1,2]}', '\"a\"'", "txngate_json_get_text": "'[\"x\" , 2]', '0'",
    "txngate_json_path": "'{\"a\": [1, {\"b\" :2}]}', '[\"a\", \"1\"]'", "txngate_json_path_text": "'{\"a\": \"s\"}', '[\"a\"]'",
    "txngate_json_array_elements": "'[1, {\"a\": 1.50}]'", "txngate_json_array_elements_text": "'[\"x\", 2, null]'",
    "txngate_json_each": "'{\"a\": [1], \"a\": 2}'", "txngate_json_each_text": "'{\"a\": \"s\", \"b\": null}'",
    "txngate_json_strip_nulls": "'{\"a\": null, \"b\": [1, null]}'",
    "txngate_json_pretty_top": "'{\"a\": [1, 2],\"b\" :{\"c\":1}}'",
}


async def test_every_function_runs_in_the_engine():
    assert set(_SAMPLES) == set(jsontext.FUNCTIONS)
    engine = LocalEngine()
    for name, args in _SAMPLES.items():
        out = await engine.run(f"SELECT {name}({args}) AS v")
        values = duckdb.connect().execute(f"SELECT {args}").fetchone()
        assert out.column("v").to_pylist() == [jsontext.FUNCTIONS[name][0](*values)], name


def test_pretty_puts_top_level_members_on_lines():
    assert jsontext.pretty_top('{"a": [1, 2],"b" :{"c":1}}') == '{"a":[1, 2],\n "b":{"c":1}}'
    assert jsontext.pretty_top('[1, {"x": 2} ,3]') == '[1,\n {"x": 2},\n 3]'
    assert jsontext.pretty_top('[]') == '[]' and jsontext.pretty_top('"s"') == '"s"'


def test_pieces_keep_their_text():
    doc = '{"a": [1, 2 ,3], "b" : {"c":  "x\\ny"}, "a": {"last" : true}, "n": null}'
    assert jsontext.get(doc, '"a"') == '{"last" : true}'  # the last member of a name
    assert jsontext.get(doc, '"b"') == '{"c":  "x\\ny"}'
    assert jsontext.path_text(doc, '["b", "c"]') == "x\ny"
    assert jsontext.get_text(doc, '"n"') is None and jsontext.get(doc, '"n"') == "null"
    assert jsontext.get("123", "0") is None  # json's scalar is no array (jsonb's is)
    assert [e["key"] for e in jsontext.each(doc)] == ["a", "b", "a", "n"]
    assert jsontext.strip_nulls(doc) == '{"a":[1,2,3],"b":{"c":"x\\ny"},"a":{"last":true}}'
    with pytest.raises(JsonError) as info:
        jsontext.array_elements('{"a": 1}')
    assert info.value.sqlstate == "22023"
    with pytest.raises(JsonError) as info:
        jsontext.get('{"a": 1', '"a"')
    assert info.value.sqlstate == "22P02"


values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.text(max_size=4)),
                      lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
                      max_leaves=8)
spacing = st.sampled_from([(", ", ": "), (",", ":"), (" ,  ", " : ")])


@settings(max_examples=200, deadline=None)
@given(values, spacing)
def test_each_piece_is_the_text_of_its_value(value, separators):
    doc = json.dumps(value, separators=separators, ensure_ascii=False)
    if isinstance(value, dict):
        for key, member in value.items():
            assert json.loads(jsontext.get(doc, json.dumps(key))) == member
            assert jsontext.get(doc, json.dumps(key)) in doc
    if isinstance(value, list):
        assert [json.loads(e) for e in jsontext.array_elements(doc)] == value
        assert all(e in doc for e in jsontext.array_elements(doc))
