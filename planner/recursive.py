"""WITH RECURSIVE as PostgreSQL accepts it: its shape checks, and its
SEARCH and CYCLE clauses written out as columns.

``prepare(node)`` refuses, before anything runs, the recursive queries
PostgreSQL refuses when it analyses them (parse_cte.c), with its SQLSTATEs
and messages: a recursive CTE must be ``non-recursive term UNION [ALL]
recursive term`` (42P19) without ORDER BY, LIMIT, OFFSET or FOR UPDATE
on top (0A000); the non-recursive term must not read the CTE, the
recursive term must read it exactly once, and not inside a subquery
(SubLink), on the nullable side of an outer join, or under INTERSECT ALL /
EXCEPT (42P19); the recursive term has no aggregates (42P19). DuckDB
would run most of these until the statement timeout (a recursive term
that counts its own rows never ends).

It then rewrites each CTE with a SEARCH or CYCLE clause into the plain
recursive query PostgreSQL's rewriter makes of it (rewriteSearchCycle.c),
so the engines never see the clauses:

- ``SEARCH DEPTH FIRST BY a, b SET seq``: seq is the array of ROW(a, b)
  of the path to the row (``ARRAY[ROW(a, b)]`` in the non-recursive term,
  the parent's seq ``|| ROW(a, b)`` in the recursive one);
- ``SEARCH BREADTH FIRST BY a, b SET seq``: seq is ROW(depth, a, b);
- ``CYCLE a, b SET mark [TO v DEFAULT d] USING path``: path as depth-first
  seq, mark v when ROW(a, b) is already on the parent's path (else d), and
  a row whose parent is marked is not extended.

The rewritten CTE is two: the recursive query under a name of its own
(``<name>_txngate``, carrying a breadth-first search's depth in a column
of its own) and, under the CTE's name, its columns without the helpers.

Invariant: both leave a statement without SEARCH, CYCLE or recursive CTEs
untouched; the rewritten CTE has the clause's columns in PostgreSQL's
order (the CTE's columns, then seq, then mark and path).
"""

from __future__ import annotations

import copy

import pglast
from pglast import ast
from pglast.enums import BoolExprType, JoinType, SetOperation

from planner.errors import SqlError, not_supported
from planner.parse import is_aggregate_call, pg_sql, walk

INVALID_RECURSION, SYNTAX_ERROR, DUPLICATE_COLUMN = "42P19", "42601", "42701"

#: where a recursive reference sits, as PostgreSQL's RecursionContext names it
_OK, _NON_RECURSIVE, _SUBLINK, _OUTER_JOIN, _INTERSECT, _EXCEPT = range(6)
_WHERE = {_NON_RECURSIVE: "within its non-recursive term", _SUBLINK: "within a subquery", _OUTER_JOIN: "within an outer join",
          _INTERSECT: "within INTERSECT", _EXCEPT: "within EXCEPT"}


def prepare(node: ast.Node) -> None:
    """Refuse a recursive CTE in ``node`` that PostgreSQL refuses, then
    write out its SEARCH and CYCLE clauses, in place (see the module
    docstring)."""
    withs = [w for w in walk(node) if isinstance(w, ast.WithClause)]
    for w in withs:
        if w.recursive:
            for cte in w.ctes:
                if isinstance(cte.ctequery, ast.SelectStmt) and _reads(cte.ctequery, cte.ctename):
                    _check_cte(cte)
    for w in withs:
        if any(c.search_clause is not None or c.cycle_clause is not None for c in w.ctes):
            ctes = []
            for cte in w.ctes:
                ctes.extend(_written_out(cte, w.recursive) if cte.search_clause is not None or cte.cycle_clause is not None else [cte])
            w.ctes = tuple(ctes)


def _reads(node: ast.Node, name: str) -> bool:
    return any(isinstance(n, ast.RangeVar) and n.schemaname is None and n.relname == name for n in walk(node))


def _check_cte(cte: ast.CommonTableExpr) -> None:
    stmt, name = cte.ctequery, cte.ctename
    if stmt.op != SetOperation.SETOP_UNION:
        raise SqlError(INVALID_RECURSION, f'recursive query "{name}" does not have the form non-recursive-term UNION [ALL] recursive-term')
    _Walker(name, _NON_RECURSIVE).visit(stmt.larg)
    recursive = _Walker(name, _OK)
    recursive.visit(stmt.rarg)
    if stmt.withClause is not None:
        _Walker(name, _SUBLINK).visit(stmt.withClause)
    for clause, what in ((stmt.sortClause, "ORDER BY"), (stmt.limitOffset, "OFFSET"), (stmt.limitCount, "LIMIT"),
                         (stmt.lockingClause, "FOR UPDATE/SHARE")):
        if clause:
            raise SqlError("0A000", f"{what} in a recursive query is not implemented")
    if isinstance(stmt.rarg, ast.SelectStmt) and stmt.rarg.op == SetOperation.SETOP_NONE and _aggregates(stmt.rarg):
        raise SqlError(INVALID_RECURSION, "aggregate functions are not allowed in a recursive query's recursive term")


class _Walker:
    """checkWellFormedRecursionWalker: where the references to one CTE sit."""

    def __init__(self, name: str, context: int):
        self.name, self.context, self.count = name, context, 0

    def visit(self, n) -> None:
        if isinstance(n, (list, tuple)):
            for x in n:
                self.visit(x)
        elif isinstance(n, ast.RangeVar):
            if n.schemaname is None and n.relname == self.name:
                self._reference()
        elif isinstance(n, ast.SelectStmt):
            self._select(n)
        elif isinstance(n, ast.JoinExpr):
            self._join(n)
        elif isinstance(n, ast.SubLink):
            self._within(_SUBLINK, n.subselect, force=True)
            self.visit(n.testexpr)
        elif isinstance(n, ast.Node):
            for field in n:
                self.visit(getattr(n, field))

    def _reference(self) -> None:
        if self.context != _OK:
            raise SqlError(INVALID_RECURSION, f'recursive reference to query "{self.name}" must not appear {_WHERE[self.context]}')
        self.count += 1
        if self.count > 1:
            raise SqlError(INVALID_RECURSION, f'recursive reference to query "{self.name}" must not appear more than once')

    def _within(self, context: int, n, *, force: bool = False) -> None:
        saved = self.context
        if force or saved == _OK:
            self.context = context
        self.visit(n)
        self.context = saved

    def _select(self, s: ast.SelectStmt) -> None:
        if s.withClause is not None:
            if any(c.ctename == self.name for c in s.withClause.ctes):
                return  # an inner CTE of the same name hides this one
            for c in s.withClause.ctes:
                self.visit(c.ctequery)
        if s.op == SetOperation.SETOP_INTERSECT and s.all:
            self._within(_INTERSECT, [s.larg, s.rarg])
        elif s.op == SetOperation.SETOP_EXCEPT:
            self._within(_EXCEPT, s.rarg)
            (self._within(_EXCEPT, s.larg) if s.all else self.visit(s.larg))
        elif s.op != SetOperation.SETOP_NONE:
            self.visit([s.larg, s.rarg])
        for field in s:
            if field not in ("withClause", "larg", "rarg"):
                self.visit(getattr(s, field))

    def _join(self, j: ast.JoinExpr) -> None:
        left_outer = j.jointype in (JoinType.JOIN_RIGHT, JoinType.JOIN_FULL)
        right_outer = j.jointype in (JoinType.JOIN_LEFT, JoinType.JOIN_FULL)
        (self._within(_OUTER_JOIN, j.larg) if left_outer else self.visit(j.larg))
        (self._within(_OUTER_JOIN, j.rarg) if right_outer else self.visit(j.rarg))
        self.visit(j.quals)


def _aggregates(s: ast.SelectStmt) -> bool:
    """``s`` aggregates at its own level (not in a subquery)."""
    stack = [s.targetList, s.havingClause]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, ast.FuncCall) and n.over is None and is_aggregate_call(n):
            return True
        elif isinstance(n, ast.Node) and not isinstance(n, (ast.SubLink, ast.SelectStmt)):
            stack.extend(getattr(n, f) for f in n)
    return False



def _written_out(cte: ast.CommonTableExpr, recursive: bool) -> list[ast.CommonTableExpr]:
    """The recursive CTE with helper columns (``<name>_txngate``) and the
    CTE itself, its columns and the clauses' (see the module docstring)."""
    stmt, name = cte.ctequery, cte.ctename
    _check_shape(stmt, name, recursive)
    columns = _columns(cte)
    search, cycle = cte.search_clause, cte.cycle_clause
    extra = _checked_names(columns, search, cycle)
    breadth = search is not None and search.search_breadth_first
    helpers = [h for h in ("seq", "depth", "mark", "path") if h in extra or (h == "depth" and breadth)]
    hidden, stored = f"{name}_txngate", [extra.get(h, f"_txngate_{h}") for h in helpers]
    first, after = _helper_values(search, cycle)
    names = ", ".join(_quoted(c) for c in columns)
    left = f"SELECT _t.*, {', '.join(first[h] for h in helpers)} FROM ({pg_sql(stmt.larg)}) AS _t({names})"
    inner = _recursive_term(stmt.rarg, name, hidden, columns, stored, cycle and (extra["mark"], pg_sql(cycle.cycle_mark_value)))
    right = f"SELECT {', '.join('_r.' + _quoted(c) for c in columns)}, {', '.join(after[h] for h in helpers)}" \
            f" FROM ({inner}) AS _r({names}, {', '.join(f'_txngate_{h}' for h in helpers)})"
    query = pglast.parse_sql(f"{left} {'UNION ALL' if stmt.all else 'UNION'} {right}")[0].stmt
    shown = ", ".join(_quoted(c) for c in columns + [extra[h] for h in helpers if h in extra])
    return [ast.CommonTableExpr(ctename=hidden, aliascolnames=tuple(ast.String(sval=c) for c in columns + stored), ctequery=query,
                                ctematerialized=cte.ctematerialized),
            ast.CommonTableExpr(ctename=name, ctequery=pglast.parse_sql(f"SELECT {shown} FROM {_quoted(hidden)}")[0].stmt)]


def _check_shape(stmt: ast.Node, name: str, recursive: bool) -> None:
    """Refuse a CTE whose shape SEARCH and CYCLE cannot apply to."""
    if not recursive or not isinstance(stmt, ast.SelectStmt) or not _reads(stmt, name):
        raise SqlError(SYNTAX_ERROR, "WITH query is not recursive")
    if stmt.op != SetOperation.SETOP_UNION:
        raise SqlError(INVALID_RECURSION, f'recursive query "{name}" does not have the form non-recursive-term UNION [ALL] recursive-term')
    for side, term in (("left", stmt.larg), ("right", stmt.rarg)):
        if term.op != SetOperation.SETOP_NONE:
            raise SqlError(SYNTAX_ERROR, f"with a SEARCH or CYCLE clause, the {side} side of the UNION must be a SELECT")


def _helper_values(search: ast.CTESearchClause | None, cycle: ast.CTECycleClause | None) -> tuple[dict, dict]:
    """Each helper column's value in the non-recursive term (of its row
    ``_t``) and in the recursive one (of its row ``_r`` and the parent's
    helpers, ``_r._txngate_<helper>``)."""
    first, after = {"depth": "0"}, {"depth": "_r._txngate_depth + 1"}
    if search is not None and search.search_breadth_first:
        first["seq"], after["seq"] = _row(search, "_t", "0"), _row(search, "_r", "_r._txngate_depth + 1")
    elif search is not None:
        first["seq"], after["seq"] = _row_list(search, "_t"), f"_r._txngate_seq || {_row_list(search, '_r')}"
    if cycle is not None:
        mark, default = pg_sql(cycle.cycle_mark_value), pg_sql(cycle.cycle_mark_default)
        first["mark"] = default
        after["mark"] = f"CASE WHEN array_position(_r._txngate_path, {_row(cycle, '_r')}) IS NOT NULL THEN {mark} ELSE {default} END"
        first["path"], after["path"] = _row_list(cycle, "_t"), f"_r._txngate_path || {_row_list(cycle, '_r')}"
    return first, after


def _columns(cte: ast.CommonTableExpr) -> list[str]:
    """The CTE's column names: its column list, else its non-recursive
    term's output names."""
    if cte.aliascolnames:
        return [c.sval for c in cte.aliascolnames]
    names = []
    for t in cte.ctequery.larg.targetList or ():
        if t.name:
            names.append(t.name)
        elif isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.String):
            names.append(t.val.fields[-1].sval)
        else:
            raise not_supported("SEARCH or CYCLE of a WITH query whose columns are not named (give it a column list)")
    return names


def _checked_names(columns: list[str], search: ast.CTESearchClause | None, cycle: ast.CTECycleClause | None) -> dict[str, str]:
    """The helper columns' names by role (seq, mark, path), refused as
    PostgreSQL refuses them (parse_cte.c)."""
    extra = {}
    for clause, by, what in ((search, "search_col_list", "search"), (cycle, "cycle_col_list", "cycle")):
        if clause is None:
            continue
        seen = set()
        for c in getattr(clause, by):
            if c.sval not in columns:
                raise SqlError(SYNTAX_ERROR, f'{what} column "{c.sval}" not in WITH query column list')
            if c.sval in seen:
                raise SqlError(DUPLICATE_COLUMN, f'{what} column "{c.sval}" specified more than once')
            seen.add(c.sval)
    if search is not None:
        extra["seq"] = search.search_seq_column
        if extra["seq"] in columns:
            raise SqlError(SYNTAX_ERROR, f'search sequence column name "{extra["seq"]}" already used in WITH query column list')
    if cycle is not None:
        extra["mark"], extra["path"] = cycle.cycle_mark_column, cycle.cycle_path_column
        for role, what in (("mark", "cycle mark"), ("path", "cycle path")):
            if extra[role] in columns:
                raise SqlError(SYNTAX_ERROR, f'{what} column name "{extra[role]}" already used in WITH query column list')
        if extra["mark"] == extra["path"]:
            raise SqlError(SYNTAX_ERROR, "cycle mark column name and cycle path column name are the same")
        kinds = [_constant_kind(cycle.cycle_mark_value), _constant_kind(cycle.cycle_mark_default)]
        if "boolean" in kinds and any(k in ("integer", "numeric") for k in kinds):  # as CASE resolves them: no common type
            raise SqlError("42804", f"CYCLE types {kinds[0]} and {kinds[1]} cannot be matched")
    for role, what in (("mark", "cycle mark"), ("path", "cycle path")):
        if "seq" in extra and extra["seq"] == extra.get(role):
            raise SqlError(SYNTAX_ERROR, f"search sequence column name and {what} column name are the same")
    return extra


def _constant_kind(n: ast.Node | None) -> str | None:
    """The type of a boolean or number constant (a mark's value), else None."""
    if isinstance(n, ast.TypeCast) and n.typeName.names[-1].sval == "bool" and isinstance(n.arg, ast.A_Const):
        return "boolean"  # (TRUE and FALSE are written 't'::bool)
    if isinstance(n, ast.A_Const) and not n.isnull:
        return {ast.Boolean: "boolean", ast.Integer: "integer", ast.Float: "numeric"}.get(type(n.val))
    return None


def _recursive_term(rarg: ast.SelectStmt, name: str, hidden: str, columns: list[str], helpers: list[str],
                    marked: tuple[str, str] | None) -> str:
    """The recursive term reading ``hidden`` (under the alias it read the
    CTE as) with its helper columns passed on, and rows whose parent is
    marked a cycle left out; * of the CTE alone is its ``columns``."""
    term = copy.deepcopy(rarg)
    ref = None
    if len(term.fromClause or ()) == 1 and isinstance(term.fromClause[0], ast.RangeVar) and term.fromClause[0].relname == name:
        term.targetList = tuple(t2 for t in term.targetList for t2 in (_spelled_out(columns) if _is_star(t) else [t]))
    for n in walk(term):
        if isinstance(n, ast.RangeVar) and n.schemaname is None and n.relname == name:
            ref = n.alias.aliasname if n.alias is not None else name
            n.relname, n.alias = hidden, n.alias or ast.Alias(aliasname=name)
        elif isinstance(n, ast.ResTarget) and _is_star(n):
            raise not_supported("SEARCH or CYCLE over a recursive term selecting * (name the columns or the table)")
    targets = pglast.parse_sql(f"SELECT {', '.join(f'{_quoted(ref)}.{_quoted(h)}' for h in helpers)}")[0].stmt.targetList
    term.targetList = tuple(term.targetList) + tuple(targets)
    if marked is not None:
        mark, value = marked
        keep = pglast.parse_sql(f"SELECT 1 WHERE {_quoted(ref)}.{_quoted(mark)} <> {value}")[0].stmt.whereClause
        term.whereClause = keep if term.whereClause is None else ast.BoolExpr(boolop=BoolExprType.AND_EXPR, args=(term.whereClause, keep))
    return pg_sql(term)


def _is_star(t: ast.ResTarget) -> bool:
    return isinstance(t.val, ast.ColumnRef) and len(t.val.fields) == 1 and isinstance(t.val.fields[0], ast.A_Star)


def _spelled_out(columns: list[str]) -> list[ast.ResTarget]:
    return [ast.ResTarget(val=ast.ColumnRef(fields=(ast.String(sval=c),))) for c in columns]


def _row(clause, alias: str, first: str | None = None) -> str:
    columns = [f"{alias}.{_quoted(c.sval)}" for c in (clause.search_col_list if isinstance(clause, ast.CTESearchClause) else clause.cycle_col_list)]
    return f"ROW({', '.join(([first] if first is not None else []) + columns)})"


def _row_list(clause, alias: str) -> str:
    return f"ARRAY[{_row(clause, alias)}]"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
