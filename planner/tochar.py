"""``to_char(value, 'template')`` as a call of local_exec.tochar's functions.

A value of a number type formats as a number whatever the template (as
PostgreSQL picks to_char by the value's type), as does one of a type the
binder does not know whose template has the number patterns ``9``,
``0`` or ``RN`` and no date pattern (outside quoted text): given as its exact text
(``txngate_to_char_number``; a float's, ``txngate_to_char_float``); any other formats a date or a
timestamp, given as microseconds since 1970 (NULL for infinity, which
PostgreSQL formats as NULL: ``txngate_to_char``); an interval's, its
fields (``txngate_to_char_interval``). The templates themselves
are read there, as PostgreSQL reads them.

Invariant: the expression reads the value through ``_arg1`` only (and a
template known only as the statement runs through ``_arg2``), so the
caller substitutes the arguments once per use (planner.pgcatalog.expand).
"""

from __future__ import annotations

import re

__all__ = ["expression", "is_number_template"]

_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"?')
_ZONE_PATTERNS = re.compile(r"TZ|OF|tz|of")
_DATE_PATTERNS = re.compile(r"YY|MM|DD|HH|SS|MON|Mon|mon|DAY|Day|day|IW|AM|PM|am|pm")


def is_number_template(template: str) -> bool:
    """A template with a 9 or 0, or roman numerals (RN: a date's are RM),
    and no date pattern (outside quoted text)."""
    bare = _QUOTED.sub("", template)
    return bool(re.search(r"[90]|RN|rn", bare)) and not _DATE_PATTERNS.search(bare)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def expression(template: str | None, *, interval: bool = False, number: str | None = None) -> str:
    """DuckDB SQL for ``to_char(_arg1, template)`` (of an interval's fields
    when ``interval``; of a number, formatted as one whatever the template,
    when ``number`` names its type, as PostgreSQL picks to_char by the
    value's type). ``template`` None: the template is ``_arg2``, known only
    as the statement runs (a column, a parameter), of a value whose type
    the caller knows (a date or timestamp's otherwise)."""
    quoted = "_arg2" if template is None else _quote(template)
    if interval:
        span = "CAST(_arg1 AS INTERVAL)"
        months = f"datepart('year', {span}) * 12 + datepart('month', {span})"
        micros = f"(datepart('hour', {span}) * 60 + datepart('minute', {span})) * 60000000 + datepart('microseconds', {span})"
        fields = ", ".join(f"CAST({x} AS BIGINT)" for x in (months, f"datepart('day', {span})", micros))
        return f"txngate_to_char_interval({fields}, {quoted})"
    floats = {digits: f"txngate_to_char_float(CAST(_arg1 AS VARCHAR), {quoted}, {digits})" for digits in (15, 6)}
    if number in ("real", "double precision"):  # printed with at most the float's digits (DBL_DIG, FLT_DIG)
        return floats[15 if number == "double precision" else 6]
    exact = f"txngate_to_char_number(CAST(_arg1 AS VARCHAR), {quoted})"
    if number is not None:
        return exact
    if template is not None and is_number_template(template):  # of a type the binder does not know: the engine's names it
        return f"CASE typeof(_arg1) WHEN 'DOUBLE' THEN {floats[15]} WHEN 'FLOAT' THEN {floats[6]} ELSE {exact} END"
    stamp = "CAST(_arg1 AS TIMESTAMP)"
    micros = f"CASE WHEN isinf({stamp}) THEN NULL ELSE epoch_us({stamp}) END"
    if template is None or _ZONE_PATTERNS.search(_QUOTED.sub("", template)):  # the zone's name and the value's offset in it (a timestamp has neither)
        return f"txngate_to_char_zoned({micros}, {quoted}, strftime(_arg1, '%Z'), strftime(_arg1, '%z'))"
    return f"txngate_to_char({micros}, {quoted})"
