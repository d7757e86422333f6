"""planner.tochar: which function a template goes to (the corpus, and
tests/local_exec/test_tochar.py, compare the results with PostgreSQL's)."""

from __future__ import annotations

from planner import tochar


def test_number_templates_format_numbers():
    assert tochar.is_number_template("999.99") and tochar.is_number_template("FM0000")
    assert not tochar.is_number_template('YYYY "9"')  # a 9 in quoted text is text
    assert not tochar.is_number_template("HH24:MI 0")  # and beside date patterns, a digit is copied
    assert tochar.expression("FM990.00").startswith("txngate_to_char_number(CAST(_arg1 AS VARCHAR), 'FM990.00')")
    assert "epoch_us" in tochar.expression("YYYY-MM-DD") and "it''s" in tochar.expression("\"it's\" YYYY")
