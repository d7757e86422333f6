"""Key probes: the keys of a table that a WHERE clause pins down.

A statement whose WHERE requires every column of one of the table's
uniqueness constraints to equal a constant or a parameter (``k = 5``,
``k IN (1, 2)``, ``a = $1 AND b = 'x'``, with any other conjuncts) can only
touch rows with those keys, so it reads them by key search
(``Work.lookup``) instead of scanning: a point SELECT, UPDATE or DELETE
costs the same in a table of any size, and reads only those keys (commits
of other keys do not conflict with it).

Invariant: every row satisfying the WHERE has a key among the probe's keys
(so the probe's rows, filtered by the WHERE, are exactly the matches).
Constants are converted the way PostgreSQL coerces them to the column's
type; anything uncertain (a float against an integer key, char(n) padding,
an expression) gives no probe and the statement scans.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from pglast import ast

from planner.catalog import Relation
from planner.sqltypes import INTEGER_TYPES, integer_fits

#: Most keys one probe carries (a longer IN list scans).
MAX_PROBE_KEYS = 1024

_INTEGER = re.compile(r"\s*[+-]?[0-9]+\s*", re.ASCII)


@dataclass
class Probe:
    """The key columns (one uniqueness constraint's) and the keys pinned,
    as tuples of Python values of the columns' types (``Work.lookup``
    takes them as they are)."""

    cols: list[str]
    keys: list[tuple]


def key_probe(where, rel: Relation, alias: str, params) -> Probe | None:
    """The probe ``where`` (over ``rel`` named ``alias``) allows, preferring
    the primary key; None when no uniqueness constraint is pinned."""
    if where is None or not rel.keys:
        return None
    conjuncts = where.args if isinstance(where, ast.BoolExpr) and where.boolop.name == "AND_EXPR" else (where,)
    pinned: dict[str, list] = {}
    for c in conjuncts:
        found = _pinned(c, rel, alias, params)
        if found is not None:
            col, values = found
            pinned[col] = values if col not in pinned else [v for v in pinned[col] if v in values]
    for _name, cols in rel.keys:
        if not all(c in pinned for c in cols):
            continue
        combos = 1
        for c in cols:
            combos *= len(pinned[c])
        if combos > MAX_PROBE_KEYS:
            continue
        return Probe(list(cols), list(itertools.product(*(pinned[c] for c in cols))))
    return None


def exactly(where, probe: Probe, rel: Relation, alias: str, params) -> bool:
    """Whether ``where`` says no more than ``probe``: each conjunct pins a
    column of the probe's key, so the rows with the probe's keys are
    exactly the rows ``where`` matches (no engine need filter them)."""
    conjuncts = where.args if isinstance(where, ast.BoolExpr) and where.boolop.name == "AND_EXPR" else (where,)
    for c in conjuncts:
        found = _pinned(c, rel, alias, params)
        if found is None or found[0] not in probe.cols:
            return False
    return True


def _pinned(expr, rel: Relation, alias: str, params) -> tuple[str, list] | None:
    """(column, the values it must equal) for ``col = v`` or ``col IN (v, ...)``."""
    if not isinstance(expr, ast.A_Expr) or len(expr.name) != 1 or expr.name[0].sval != "=":
        return None
    kind = expr.kind.name
    if kind == "AEXPR_OP":
        for col, other in ((expr.lexpr, expr.rexpr), (expr.rexpr, expr.lexpr)):
            name = column_of(col, rel, alias)
            if name is not None:
                value = constant(other, rel.column(name).type, params)
                return None if value is None else (name, [value])
        return None
    if kind == "AEXPR_IN" and isinstance(expr.rexpr, (list, tuple)):
        name = column_of(expr.lexpr, rel, alias)
        if name is None:
            return None
        values = [constant(v, rel.column(name).type, params) for v in expr.rexpr]
        return None if any(v is None for v in values) else (name, values)
    return None


def column_of(node, rel: Relation, alias: str) -> str | None:
    """The column of ``rel`` a column reference names (bare or ``alias.``), else None."""
    if not isinstance(node, ast.ColumnRef) or not all(isinstance(f, ast.String) for f in node.fields):
        return None
    fields = [f.sval for f in node.fields]
    if len(fields) > 2 or (len(fields) == 2 and fields[0] != alias) or fields[-1] not in rel.column_set:
        return None
    return fields[-1]


def constant(node, sql_type: str, params):
    """The value of a constant or parameter ``node`` as ``sql_type`` (an
    integer or text type); None when not certain (PostgreSQL would then
    coerce differently, or fail)."""
    if isinstance(node, ast.ParamRef):
        if not params or not 0 < node.number <= len(params):
            return None
        raw = params[node.number - 1]
    elif isinstance(node, ast.A_Const) and not node.isnull:
        raw = node.val.ival if isinstance(node.val, ast.Integer) else node.val.sval if isinstance(node.val, ast.String) else None
    else:
        return None
    if sql_type in INTEGER_TYPES:
        if isinstance(raw, str):
            if not _INTEGER.fullmatch(raw):
                return None
            raw = int(raw)
        return raw if integer_fits(raw, sql_type) else None
    if sql_type == "text" or sql_type.startswith("varchar"):
        return raw if isinstance(raw, str) else None
    return None
