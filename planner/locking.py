"""FOR UPDATE / FOR SHARE: PostgreSQL's checks of where a row lock may go.

txngate takes no row locks (every transaction commits serializably, so a
locking clause changes nothing and is dropped), but a statement PostgreSQL
refuses for its locking clause is refused here the same way, before it
runs (CheckSelectLocking and transformLockingClause of its analyzer):

* a locking query may not be a set operation, nor have DISTINCT, GROUP BY,
  HAVING, aggregates, window functions or set-returning functions in its
  target list (0A000, "FOR UPDATE is not allowed with ...");
* ``OF name`` names a FROM item of the query, by its alias (else its
  table's name), or a join by its alias or USING alias: a join, function,
  VALUES list or WITH query named there is refused (0A000, "cannot be
  applied to ..."), a name found nowhere is 42P01;
* the clause reaches into the subqueries it covers (all of the query's
  without ``OF``, the named ones with it), which are checked as if they
  had it.

Invariant: only statements PostgreSQL refuses are refused; the check
changes nothing in the tree.
"""

from __future__ import annotations

from pglast import ast

from planner.errors import FEATURE_NOT_SUPPORTED, SqlError
from planner.parse import is_aggregate_call

__all__ = ["check"]

_STRENGTHS = {"LCS_FORUPDATE": "FOR UPDATE", "LCS_FORNOKEYUPDATE": "FOR NO KEY UPDATE", "LCS_FORSHARE": "FOR SHARE",
              "LCS_FORKEYSHARE": "FOR KEY SHARE"}

#: functions that return sets (in a target list they make a locking query refused)
_SET_RETURNING = {"generate_series", "generate_subscripts", "unnest", "regexp_matches", "regexp_split_to_table", "string_to_table",
                  "json_array_elements", "json_array_elements_text", "jsonb_array_elements", "jsonb_array_elements_text", "json_each",
                  "json_each_text", "jsonb_each", "jsonb_each_text", "json_object_keys", "jsonb_object_keys", "jsonb_path_query",
                  "json_populate_recordset", "jsonb_populate_recordset", "json_to_recordset", "jsonb_to_recordset"}


def check(stmt: ast.SelectStmt, ctes: set[str]) -> None:
    """Refuse ``stmt``'s locking clauses where PostgreSQL does; ``ctes``:
    the names of WITH queries in the statement."""
    for clause in stmt.lockingClause or ():
        _check_query(stmt, _STRENGTHS.get(clause.strength.name, "FOR UPDATE"), clause.lockedRels, ctes)


def _check_query(stmt: ast.SelectStmt, strength: str, locked, ctes: set[str]) -> None:
    _check_shape(stmt, strength)
    items = _items(stmt.fromClause or (), ctes)
    if not locked:
        for _name, kind, node in items:
            if kind == "subquery":
                _check_query(node.subquery, strength, None, ctes)
        return
    for rv in locked:
        found = next(((kind, node) for name, kind, node in items if name == rv.relname), None)
        if found is None:
            raise SqlError("42P01", f'relation "{rv.relname}" in {strength} clause not found in FROM clause')
        kind, node = found
        if kind == "subquery":
            _check_query(node.subquery, strength, None, ctes)
        elif kind != "relation":
            raise SqlError(FEATURE_NOT_SUPPORTED, f"{strength} cannot be applied to {kind}")


def _check_shape(stmt: ast.SelectStmt, strength: str) -> None:
    def refuse(what: str):
        raise SqlError(FEATURE_NOT_SUPPORTED, f"{strength} is not allowed with {what}")

    if stmt.op is not None and stmt.op.name != "SETOP_NONE":
        refuse("UNION/INTERSECT/EXCEPT")
    if stmt.distinctClause:
        refuse("DISTINCT clause")
    if stmt.groupClause:
        refuse("GROUP BY clause")
    if stmt.havingClause is not None:
        refuse("HAVING clause")
    calls = [n for n in _this_level(stmt.targetList) if isinstance(n, ast.FuncCall)]
    if any(is_aggregate_call(fc) and fc.over is None for fc in calls):
        refuse("aggregate functions")
    if any(fc.over is not None for fc in calls):
        refuse("window functions")
    if any(fc.funcname[-1].sval in _SET_RETURNING for fc in calls):
        refuse("set-returning functions in the target list")


def _this_level(node):
    """The nodes under ``node`` outside its subqueries."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (tuple, list)):
            stack.extend(n)
            continue
        if not isinstance(n, ast.Node) or isinstance(n, (ast.SubLink, ast.SelectStmt)):
            continue
        yield n
        stack.extend(getattr(n, f) for f in n.__slots__ if isinstance(getattr(n, f, None), (ast.Node, tuple, list)))


def _items(from_clause, ctes: set[str]) -> list[tuple[str | None, str, ast.Node]]:
    """The FROM items a locking clause may name, in PostgreSQL's range
    table order (a join's tables before the join): (name, kind, node)."""
    out = []
    for item in from_clause:
        if isinstance(item, ast.JoinExpr):
            out += _items((item.larg, item.rarg), ctes)
            alias = item.alias.aliasname if item.alias is not None else \
                item.join_using_alias.aliasname if item.join_using_alias is not None else None
            out.append((alias, "a join", item))
        elif isinstance(item, ast.RangeVar):
            kind = "a WITH query" if item.schemaname is None and item.relname in ctes else "relation"
            out.append((item.alias.aliasname if item.alias is not None else item.relname, kind, item))
        elif isinstance(item, ast.RangeSubselect):
            out.append((item.alias.aliasname if item.alias is not None else None, "subquery", item))
        elif isinstance(item, ast.RangeFunction):
            name = item.alias.aliasname if item.alias is not None else None
            if name is None and len(item.functions or ()) == 1 and isinstance(item.functions[0][0], ast.FuncCall):
                name = item.functions[0][0].funcname[-1].sval
            out.append((name, "a function", item))
        else:
            out.append((None, "other", item))
    return out

