"""planner.tochar: which templates it takes (the corpus compares the
results with PostgreSQL's)."""

from __future__ import annotations

from planner import tochar


def test_number_templates_are_left_alone():
    assert tochar.expression("999.99") is None and tochar.expression("FM0000") is None
    assert tochar.expression('YYYY "9"') is not None  # a 9 in quoted text is text
    assert tochar.expression("HH24:MI 0") is not None  # and beside date patterns, a digit is copied


def test_runs_of_strftime_codes_are_one_call_and_percent_is_literal():
    sql = tochar.expression("YYYY-MM-DD HH24:MI:SS 100%")
    assert sql == "txngate_strftime(_arg1, '%Y-%m-%d %H:%M:%S 100%%')"
    assert tochar.expression("") == "CAST(NULL AS VARCHAR)"


def test_padded_names_and_fill_mode():
    assert tochar.expression("Day") == "rpad(txngate_strftime(_arg1, '%A'), 9, ' ')"
    assert tochar.expression("FMMonth") == "txngate_strftime(_arg1, '%B')"
    assert tochar.expression("MON") == "upper(txngate_strftime(_arg1, '%b'))"
