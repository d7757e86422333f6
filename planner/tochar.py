"""PostgreSQL's to_char template patterns for dates and times, as a DuckDB
expression.

``to_char(value, 'template')`` with a constant template becomes DuckDB SQL
(``expression``): runs of patterns DuckDB's strftime knows are one
``txngate_strftime`` call; names PostgreSQL pads to nine characters (``Day``,
``Month``), case variants (``MON``, ``dy``), the weekday number ``D`` and the
quarter ``Q`` are expressions of their own, joined with ``||``. ``FM``
before a pattern drops its padding. Text in double quotes, and anything that
is not a pattern, is copied as it is.

A template with number patterns (``9``, ``0``: to_char of a number) is not
a date template: ``expression`` returns None and the call is left to fail
with 0A000 (local_exec.errors).

Invariant: the expression reads the value through ``_arg1`` only, so the
caller substitutes the argument once per use (planner.pgcatalog.expand).
"""

from __future__ import annotations

import re

# pattern -> (strftime code, strftime code without padding); longest first
_CODES = [
    ("HH24", "%H", "%-H"), ("HH12", "%I", "%-I"), ("IYYY", "%G", "%G"), ("YYYY", "%Y", "%Y"),
    ("DDD", "%j", "%-j"), ("HH", "%I", "%-I"), ("MI", "%M", "%-M"), ("SS", "%S", "%-S"),
    ("MS", "%g", "%g"), ("US", "%f", "%f"), ("YY", "%y", "%-y"), ("MM", "%m", "%-m"),
    ("DD", "%d", "%-d"), ("IW", "%V", "%-V"), ("AM", "%p", "%p"), ("PM", "%p", "%p"),
]
# names: pattern -> (strftime code, case, padded width)
_NAMES = {
    "MONTH": ("%B", "upper", 9), "Month": ("%B", "", 9), "month": ("%B", "lower", 9),
    "DAY": ("%A", "upper", 9), "Day": ("%A", "", 9), "day": ("%A", "lower", 9),
    "MON": ("%b", "upper", 0), "Mon": ("%b", "", 0), "mon": ("%b", "lower", 0),
    "DY": ("%a", "upper", 0), "Dy": ("%a", "", 0), "dy": ("%a", "lower", 0),
    "am": ("%p", "lower", 0), "pm": ("%p", "lower", 0),
}
_OTHERS = {"D": "CAST(dayofweek(_arg1) + 1 AS VARCHAR)", "Q": "CAST(quarter(_arg1) AS VARCHAR)"}
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"?')
_DATE_PATTERNS = re.compile(r"YY|MM|DD|HH|SS|MON|Mon|mon|DAY|Day|day|IW|AM|PM|am|pm")


def _is_number_template(template: str) -> bool:
    """A template with a 9 or 0 and no date pattern (outside quoted text)."""
    bare = _QUOTED.sub("", template)
    return bool(re.search(r"[90]", bare)) and not _DATE_PATTERNS.search(bare)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def expression(template: str) -> str | None:
    """DuckDB SQL for ``to_char(_arg1, template)``, or None for a number template."""
    if _is_number_template(template):
        return None
    parts: list[str] = []
    run: list[str] = []  # strftime codes not yet emitted

    def flush() -> None:
        if run:
            parts.append(f"txngate_strftime(_arg1, {_quote(''.join(run))})")
            run.clear()

    i, n = 0, len(template)
    while i < n:
        fill = template.startswith("FM", i)
        j = i + 2 if fill else i
        if template.startswith('"', j):  # quoted literal text (backslash escapes a character)
            k, text = j + 1, []
            while k < n and template[k] != '"':
                if template[k] == "\\" and k + 1 < n:
                    k += 1
                text.append(template[k])
                k += 1
            run.append("".join(text).replace("%", "%%"))
            i = k + 1
            continue
        name = next((p for p in sorted(_NAMES, key=len, reverse=True) if template.startswith(p, j)), None)
        code = next((c for c in _CODES if template.startswith(c[0], j)), None)
        if name is not None and (code is None or len(name) >= len(code[0])):
            strf, case, width = _NAMES[name]
            flush()
            piece = f"txngate_strftime(_arg1, '{strf}')"
            if width and not fill:
                piece = f"rpad({piece}, {width}, ' ')"
            parts.append(f"{case}({piece})" if case else piece)
            i = j + len(name)
        elif code is not None:
            run.append(code[2] if fill else code[1])
            i = j + len(code[0])
        elif template[j:j + 1] in _OTHERS:
            flush()
            parts.append(_OTHERS[template[j]])
            i = j + 1
        else:
            run.append(template[i:j + 1].replace("%", "%%"))  # not a pattern: copied as it is
            i = j + 1
    flush()
    return " || ".join(parts) if parts else "CAST(NULL AS VARCHAR)"  # an empty template gives NULL
