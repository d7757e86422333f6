"""local_exec.regex: PostgreSQL's regexp_match and regexp_matches (the
corpus compares them with PostgreSQL; here, their rules one by one and each
registered function through the engine, in the Arrow type it declares)."""

from __future__ import annotations

import pytest

from local_exec import EngineError, LocalEngine, regex
from local_exec.udf import FunctionError


def test_groups_or_whole_match_and_null_for_groups_not_taken():
    assert regex.regexp_match("abc123", "[0-9]+", "") == ["123"]
    assert regex.regexp_match("abc123", "([a-z]+)([0-9]+)", "") == ["abc", "123"]
    assert regex.regexp_match("y", "(x)|(y)", "") == [None, "y"]
    assert regex.regexp_match("abc", "x", "") is None
    assert regex.regexp_matches("abc", "x", "") == []
    assert regex.regexp_matches("a1b2", "[0-9]", "") == [["1"]]
    assert regex.regexp_matches("a1b2", "([a-z])([0-9])", "g") == [["a", "1"], ["b", "2"]]


def test_flags():
    assert regex.regexp_match("ABC", "b", "i") == ["B"]
    assert regex.regexp_match("ABC", "b", "ic") is None  # the last of i and c wins
    assert regex.regexp_match("a\nb", "a.b", "") == ["a\nb"]  # . matches a newline by default
    assert regex.regexp_match("a\nb", "a.b", "n") is None
    assert regex.regexp_match("x\nab", "^a", "n") == ["a"]
    assert regex.regexp_match("x\nab", "^a", "") is None
    assert regex.regexp_match("ab", "a b  # spaced", "x") == ["ab"]
    assert regex.regexp_match("a.b", ".", "q") == ["."] and regex.regexp_match("ab", ".", "q") is None


@pytest.mark.parametrize("call, sqlstate", [
    (lambda: regex.regexp_match("a", "a", "g"), "22023"),
    (lambda: regex.regexp_match("a", "a", "z"), "22023"),
    (lambda: regex.regexp_matches("a", "(", ""), "2201B"),
])
def test_refusals_carry_sqlstates(call, sqlstate):
    with pytest.raises(FunctionError) as info:
        call()
    assert info.value.sqlstate == sqlstate


async def test_registered_functions_run_in_the_engine():
    engine = LocalEngine()
    out = await engine.run("SELECT txngate_regexp_match(s, '(x)|(y)', '') AS m, txngate_regexp_matches(s, '[a-z]', 'g') AS ms "
                           "FROM (VALUES ('y'), ('zx'), (NULL)) t(s)")
    assert out.column("m").to_pylist() == [[None, "y"], ["x", None], None]
    assert out.column("ms").to_pylist() == [[["y"]], [["z"], ["x"]], None]
    assert set(regex.FUNCTIONS) == {"txngate_regexp_match", "txngate_regexp_matches", "txngate_regexp_replace", "txngate_regexp_count",
                                    "txngate_regexp_instr", "txngate_regexp_substr", "txngate_regexp_like", "txngate_regexp_split_to_array"}
    with pytest.raises(EngineError) as info:
        await engine.run("SELECT txngate_regexp_instr('a', 'a', 1, 0, 0, '', 0)")
    assert info.value.sqlstate == "22023"
    out = await engine.run("SELECT txngate_regexp_replace('A PostgreSQL function', 'a|e|i|o|u', 'X', 1, n, 'i') AS r "
                           "FROM (VALUES (0), (3), (-1)) t(n)")
    assert out.column("r").to_pylist() == ["X PXstgrXSQL fXnctXXn", "A PostgrXSQL function", "X PostgreSQL function"]
    with pytest.raises(EngineError) as info:
        await engine.run("SELECT txngate_regexp_replace('a', 'a', 'b', 0, -1, '')")
    assert info.value.sqlstate == "22023"
    with pytest.raises(EngineError) as info:
        await engine.run("SELECT txngate_regexp_match('a', '(', '')")
    assert info.value.sqlstate == "2201B"
