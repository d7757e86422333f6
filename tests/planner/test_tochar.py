"""planner.tochar: which function a template goes to (the corpus, and
tests/local_exec/test_tochar.py, compare the results with PostgreSQL's)."""

from __future__ import annotations

from planner import tochar


def test_number_templates_format_numbers():
    assert tochar.is_number_template("999.99") and tochar.is_number_template("FM0000")
    assert not tochar.is_number_template('YYYY "9"')  # a 9 in quoted text is text
    assert not tochar.is_number_template("HH24:MI 0")  # and beside date patterns, a digit is copied
    assert tochar.is_number_template("FMRN") and not tochar.is_number_template("RM YYYY")  # roman numerals: a date's are RM
    # of a type the binder knows: as that type (whatever the template); else by the engine's type of the value
    assert tochar.expression("FM990.00", number="numeric") == "txngate_to_char_number(CAST(_arg1 AS VARCHAR), 'FM990.00')"
    assert tochar.expression("YYYY", number="integer") == "txngate_to_char_number(CAST(_arg1 AS VARCHAR), 'YYYY')"
    assert tochar.expression("RN", number="real") == "txngate_to_char_float(CAST(_arg1 AS VARCHAR), 'RN', 6)"
    assert tochar.expression("FM990.00").startswith("CASE typeof(_arg1) WHEN 'DOUBLE' THEN txngate_to_char_float(")
    assert "epoch_us" in tochar.expression("YYYY-MM-DD") and "it''s" in tochar.expression("\"it's\" YYYY")
