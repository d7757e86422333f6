"""values.parse_bytea: PostgreSQL's bytea input, hex and escape formats,
and its refusals with PostgreSQL's SQLSTATEs (the answers against the real
PostgreSQL are tests/planner/test_function_answers.py's)."""

from __future__ import annotations

import pytest

from values import ByteaInputError, parse_bytea


@pytest.mark.parametrize("text, expected", [
    ("\\x4142", b"AB"), ("\\x41 42\n", b"AB"), ("\\x", b""), ("", b""), ("abc", b"abc"), ("é", "é".encode()),
    ("De\\000dBeEf", b"De\x00dBeEf"), ("\\123", b"S"), ("a\\\\b", b"a\\b"), ("\\377", b"\xff"),
])
def test_bytea_input(text, expected):
    assert parse_bytea(text) == expected


@pytest.mark.parametrize("text, sqlstate", [
    ("\\x4", "22023"), ("\\xzz", "22023"), ("\\x4 1", "22023"), ("a\\b", "22P02"), ("a\\", "22P02"), ("\\400", "22P02"), ("\\08", "22P02"),
])
def test_bytea_input_refused(text, sqlstate):
    with pytest.raises(ByteaInputError) as e:
        parse_bytea(text)
    assert e.value.sqlstate == sqlstate
