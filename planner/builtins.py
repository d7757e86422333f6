"""PostgreSQL's built-in functions: which names exist, and how many
arguments each takes.

The engine under us has functions of its own, many named as PostgreSQL's
are not (``array_sort``, ``list_sum``, ``gamma``) or taking arguments
PostgreSQL's do not (``jsonb_strip_nulls(x, true)``); a call that reached
it by such a name ran the engine's function where PostgreSQL refuses the
statement. ``check_call`` refuses it first, with PostgreSQL's 42883,
unless ``pg_functions.txt`` (PostgreSQL 15's ``pg_proc`` of the
pg_catalog and information_schema schemas: one line per name, the
argument counts its overloads take, ``n+`` for a variadic one) has the
name with that count. Calls are checked in the statement as its client wrote it
(``unknown_calls``), not after rewrites that call the engine's own
functions; a name PostgreSQL has not built in may be a user's SQL
function (``refuse_unknown`` asks the catalog; ``planner.functions``
inlines it), and a call of another schema's is left to the catalog.

Invariant: the table is PostgreSQL's own (tests/planner/test_builtins.py
compares it with the test server's ``pg_proc``; ``python -m
tests.planner.test_builtins`` writes it again, from a PostgreSQL it
starts).
"""

from __future__ import annotations

import functools
import os
from typing import Callable

from pglast import ast
from pglast.enums import CoercionForm

from planner.errors import SqlError, undefined
from planner.parse import Statement, walk

__all__ = ["FILE", "accepts", "check_call", "refuse_unknown", "table", "unknown_calls"]

#: the table of PostgreSQL 15's functions (name, argument counts)
FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pg_functions.txt")

#: schemas whose functions are PostgreSQL's own
_BUILTIN_SCHEMAS = ("pg_catalog", "information_schema")


@functools.cache
def table() -> dict[str, tuple[frozenset[int], int | None]]:
    """name -> (the argument counts it takes, the fewest of a variadic
    overload or None)."""
    out = {}
    with open(FILE, encoding="utf-8") as f:
        for line in f:
            name, _, counts = line.rstrip("\n").partition("\t")
            fixed, variadic = set(), None
            for c in counts.split(","):
                if c.endswith("+"):
                    variadic = int(c[:-1]) if variadic is None else min(variadic, int(c[:-1]))
                else:
                    fixed.add(int(c))
            out[name] = (frozenset(fixed), variadic)
    return out


def accepts(name: str, count: int) -> bool:
    """A built-in function ``name`` takes ``count`` arguments."""
    entry = table().get(name)
    if entry is None:
        return False
    fixed, variadic = entry
    return count in fixed or variadic is not None and count >= variadic


def unknown_calls(stmt: Statement) -> tuple[ast.FuncCall, ...]:
    """The calls in a statement as its client wrote it (before any rewrite
    adds calls of the engine's functions) of functions PostgreSQL has not
    built in: each a user's function (``refuse_unknown``) or refused.
    Found once per statement, however often a cached one runs."""
    if stmt.unknown_calls is None:
        stmt.unknown_calls = tuple(n for n in walk(stmt.node) if isinstance(n, ast.FuncCall) and not _builtin(n))
    return stmt.unknown_calls


def refuse_unknown(calls: tuple[ast.FuncCall, ...], defined: Callable[[list[str]], bool]) -> None:
    """42883 for the first of ``calls`` (``unknown_calls``) that calls no
    function the catalog has (``defined(names)``, its qualified name)."""
    for fc in calls:
        names = [n.sval for n in fc.funcname]
        if not defined(names):
            check_call(fc)


def check_call(fc: ast.FuncCall) -> None:
    """42883 for a call of a function PostgreSQL has not (by name and
    number of arguments); txngate's own functions (``txngate_*``) pass."""
    if _builtin(fc):
        return
    names, count = [n.sval for n in fc.funcname], _count(fc)
    name = names[-1]
    if name == "timezone" and count == 1 and fc.funcformat == CoercionForm.COERCE_SQL_SYNTAX:
        raise SqlError("42601", 'syntax error at or near "LOCAL"')  # x AT LOCAL: PostgreSQL 17's grammar
    shown = ".".join(names)
    raise undefined("function", f"function {shown} does not exist" if name not in table() else
                    f"function {shown} with {count} arguments does not exist", position=_position(fc))


def _count(fc: ast.FuncCall) -> int:
    """The arguments a call passes (WITHIN GROUP's ordering columns too)."""
    return len(fc.args or ()) + (len(fc.agg_order or ()) if fc.agg_within_group else 0)


def _builtin(fc: ast.FuncCall) -> bool:
    """``fc`` calls a built-in function, or one of another schema than
    PostgreSQL's (the catalog's), or txngate's own."""
    names = [n.sval for n in fc.funcname]
    if len(names) > 1 and names[0] not in _BUILTIN_SCHEMAS:
        return True
    name = names[-1]
    # (unnest of several arrays is ROWS FROM of each's, in FROM; elsewhere the engine refuses it)
    return name.startswith("txngate_") or accepts(name, _count(fc)) or name == "unnest" and bool(fc.args)


def _position(fc: ast.FuncCall) -> int | None:
    return fc.location + 1 if isinstance(fc.location, int) and fc.location >= 0 else None
