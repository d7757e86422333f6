"""``to_char(value, 'template')`` as a call of local_exec.tochar's functions.

A constant template decides which: one with the number patterns ``9`` or
``0`` and no date pattern (outside quoted text) formats a number, given as
its exact text (``txngate_to_char_number``); any other formats a date or a
timestamp, given as microseconds since 1970 (NULL for infinity, which
PostgreSQL formats as NULL: ``txngate_to_char``); an interval's, its
fields (``txngate_to_char_interval``). The templates themselves
are read there, as PostgreSQL reads them.

Invariant: the expression reads the value through ``_arg1`` only, so the
caller substitutes the argument once per use (planner.pgcatalog.expand).
"""

from __future__ import annotations

import re

__all__ = ["expression", "is_number_template"]

_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"?')
_ZONE_PATTERNS = re.compile(r"TZ|OF|tz|of")
_DATE_PATTERNS = re.compile(r"YY|MM|DD|HH|SS|MON|Mon|mon|DAY|Day|day|IW|AM|PM|am|pm")


def is_number_template(template: str) -> bool:
    """A template with a 9 or 0 and no date pattern (outside quoted text)."""
    bare = _QUOTED.sub("", template)
    return bool(re.search(r"[90]", bare)) and not _DATE_PATTERNS.search(bare)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def expression(template: str, *, interval: bool = False) -> str:
    """DuckDB SQL for ``to_char(_arg1, template)`` (of an interval's fields when ``interval``)."""
    if interval:
        span = "CAST(_arg1 AS INTERVAL)"
        months = f"datepart('year', {span}) * 12 + datepart('month', {span})"
        micros = f"(datepart('hour', {span}) * 60 + datepart('minute', {span})) * 60000000 + datepart('microseconds', {span})"
        fields = ", ".join(f"CAST({x} AS BIGINT)" for x in (months, f"datepart('day', {span})", micros))
        return f"txngate_to_char_interval({fields}, {_quote(template)})"
    if is_number_template(template):
        return f"txngate_to_char_number(CAST(_arg1 AS VARCHAR), {_quote(template)})"
    stamp = "CAST(_arg1 AS TIMESTAMP)"
    micros = f"CASE WHEN isinf({stamp}) THEN NULL ELSE epoch_us({stamp}) END"
    if _ZONE_PATTERNS.search(_QUOTED.sub("", template)):  # the zone's name and the value's offset in it (a timestamp has neither)
        return f"txngate_to_char_zoned({micros}, {_quote(template)}, strftime(_arg1, '%Z'), strftime(_arg1, '%z'))"
    return f"txngate_to_char({micros}, {_quote(template)})"
