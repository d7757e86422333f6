"""PostgreSQL's ``format()`` for the local engine.

DuckDB's ``format`` is fmt's (``{}``); PostgreSQL's reads
``%[position$][flags][width]type`` with the types ``s`` (the value as
text, NULL as nothing), ``I`` (a quoted identifier; NULL is 22004) and
``L`` (a quoted literal, NULL as ``NULL``), and ``%%``. The planner
rewrites ``format(f, a, b, ...)`` to ``txngate_format(f, [a, b, ...])``
with each argument as PostgreSQL prints it (``txngate_text``: booleans as
``t``/``f``). Errors are PostgreSQL's (22023, 22004).

Invariant: the text returned is PostgreSQL's for the same arguments.
"""

from __future__ import annotations

import re

from pglast.keywords import RESERVED_KEYWORDS, TYPE_FUNC_NAME_KEYWORDS, COL_NAME_KEYWORDS

from local_exec import udf
from local_exec.udf import FunctionError

__all__ = ["FUNCTIONS", "MACROS", "pg_format", "quote_ident", "quote_literal", "register"]

_SPEC = re.compile(r"%(?:(\d+)\$)?(-)?(?:(\d+)|(\*)(?:(\d+)\$)?)?(.)?", re.DOTALL)
_PLAIN = re.compile(r"[a-z_][a-z0-9_$]*")
_KEYWORDS = set(RESERVED_KEYWORDS) | set(TYPE_FUNC_NAME_KEYWORDS) | set(COL_NAME_KEYWORDS)


def quote_ident(name: str) -> str:
    """PostgreSQL's quote_ident: as it is when it reads back the same unquoted."""
    if _PLAIN.fullmatch(name) and name not in _KEYWORDS:
        return name
    return '"' + name.replace('"', '""') + '"'


def quote_literal(text: str) -> str:
    """PostgreSQL's quote_literal: E'' form, backslashes doubled, when it has one."""
    quoted = text.replace("'", "''")
    return "E'" + quoted.replace("\\", "\\\\") + "'" if "\\" in text else "'" + quoted + "'"


def pg_format(fmt: str, args: list) -> str:
    out, i, next_arg = [], 0, 0
    while True:
        j = fmt.find("%", i)
        if j < 0:
            out.append(fmt[i:])
            return "".join(out)
        out.append(fmt[i:j])
        m = _SPEC.match(fmt, j)
        position, left, width, star, star_position, kind = m.groups()
        if kind is None:
            raise FunctionError("22023", "unterminated format() type specifier", "For a single \"%\" use \"%%\".")
        i = m.end()
        if kind == "%" and m.end() - j == 2:
            out.append("%")
            continue
        if star:  # the width is an argument: the next one, or the one numbered
            at = int(star_position) - 1 if star_position else next_arg
            if at >= len(args):
                raise FunctionError("22023", "too few arguments for format()")
            next_arg = at + 1
            width = args[at] or "0"
            if int(width) < 0:
                left, width = "-", str(-int(width))
        if kind not in "sIL":
            raise FunctionError("22023", f'unrecognized format() type specifier "{kind}"',
                                "For a single \"%\" use \"%%\".")
        index = int(position) - 1 if position is not None else next_arg
        if position is not None and int(position) == 0:
            raise FunctionError("22023", "format specifies argument 0, but arguments are numbered from 1")
        if index >= len(args):
            raise FunctionError("22023", "too few arguments for format()")
        next_arg = index + 1
        value = args[index]
        if kind == "I":
            if value is None:
                raise FunctionError("22004", "null values cannot be formatted as an SQL identifier")
            text = quote_ident(value)
        elif kind == "L":
            text = "NULL" if value is None else quote_literal(value)
        else:
            text = "" if value is None else value
        n = int(width) if width else 0
        out.append(text.ljust(n) if left else text.rjust(n))


def _format(fmt: str, args: list) -> str:
    return pg_format(fmt, list(args))


FUNCTIONS = {"txngate_format": (_format, ["VARCHAR", "VARCHAR[]"], "VARCHAR")}

#: an "any" argument as PostgreSQL's output function prints it (where DuckDB's cast differs)
MACROS = ("CREATE OR REPLACE MACRO txngate_text(x) AS "
          "CASE WHEN typeof(x) = 'BOOLEAN' THEN left(CAST(x AS VARCHAR), 1) ELSE CAST(x AS VARCHAR) END",)


def register(con) -> None:
    udf.register(con, FUNCTIONS)
    for sql in MACROS:
        con.execute(sql)
