"""``to_char(value, 'template')`` as a call of local_exec.tochar's functions.

A constant template decides which: one with the number patterns ``9`` or
``0`` and no date pattern (outside quoted text) formats a number, given as
its exact text (``txngate_to_char_number``); any other formats a date or a
timestamp, given as microseconds since 1970 (NULL for infinity, which
PostgreSQL formats as NULL: ``txngate_to_char``). The templates themselves
are read there, as PostgreSQL reads them.

Invariant: the expression reads the value through ``_arg1`` only, so the
caller substitutes the argument once per use (planner.pgcatalog.expand).
"""

from __future__ import annotations

import re

__all__ = ["expression", "is_number_template"]

_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"?')
_DATE_PATTERNS = re.compile(r"YY|MM|DD|HH|SS|MON|Mon|mon|DAY|Day|day|IW|AM|PM|am|pm")


def is_number_template(template: str) -> bool:
    """A template with a 9 or 0 and no date pattern (outside quoted text)."""
    bare = _QUOTED.sub("", template)
    return bool(re.search(r"[90]", bare)) and not _DATE_PATTERNS.search(bare)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def expression(template: str) -> str:
    """DuckDB SQL for ``to_char(_arg1, template)``."""
    if is_number_template(template):
        return f"txngate_to_char_number(CAST(_arg1 AS VARCHAR), {_quote(template)})"
    stamp = "CAST(_arg1 AS TIMESTAMP)"
    return f"txngate_to_char(CASE WHEN isinf({stamp}) THEN NULL ELSE epoch_us({stamp}) END, {_quote(template)})"
