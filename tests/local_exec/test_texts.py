"""local_exec.texts: PostgreSQL's text of DuckDB lists, from the list's
JSON and DuckDB type name, through the engine as the planner calls it."""

from __future__ import annotations

from local_exec import LocalEngine
from local_exec.texts import array_flat_text, array_text


def test_element_texts_and_quoting():
    assert array_text('[1,null,3]', "INTEGER[]") == "{1,NULL,3}"
    assert array_text('[true,false]', "BOOLEAN[]") == "{t,f}"
    assert array_text('[1.5000000000,2.0000000000]', "DECIMAL(38,10)[]") == "{1.5,2}", "an unconstrained numeric keeps its significant digits"
    assert array_text('[1.50,2.00]', "DECIMAL(5,2)[]") == "{1.50,2.00}"
    assert array_text('[100000000000000000000.0,2.0,-Infinity]', "DOUBLE[]") == "{1e+20,2,-Infinity}"
    assert array_text('["a b","",null,"NULL","q\\"r"]', "VARCHAR[]") == '{"a b","",NULL,"NULL","q\\"r"}'
    assert array_text('[[1,2],[3,4]]', "INTEGER[][]") == "{{1,2},{3,4}}"
    assert array_flat_text('[[true],[false,null]]', "BOOLEAN[][]", "-") == "t-f"


async def test_through_the_engine():
    engine = LocalEngine()
    out = await engine.run("SELECT txngate_list_text(to_json(l), typeof(l)) AS t, txngate_list_join_or(to_json(l), typeof(l), ',', '*') AS j"
                           " FROM (VALUES ([[1.5, NULL], [2.25, 3]])) v(l)")
    assert out.column("t").to_pylist() == ["{{1.50,NULL},{2.25,3.00}}"] and out.column("j").to_pylist() == ["1.50,*,2.25,3.00"]
