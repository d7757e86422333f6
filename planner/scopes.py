"""What a subquery in FROM may read: PostgreSQL's scoping of FROM items.

A subquery in FROM without LATERAL sees the query levels around its
statement but not the other items of its own FROM list; DuckDB lets it
read them, as if LATERAL had been written. So ``FROM t a, (SELECT a.x)
s`` answered, and ``DELETE FROM t USING (SELECT * FROM u WHERE u.k = t.k)
s`` deleted rows by a correlation PostgreSQL refuses (42P01, "invalid
reference to FROM-clause entry"). The table an UPDATE or DELETE writes is
not visible to its FROM / USING subqueries even with LATERAL (42P10).

``check(node)`` refuses such a qualified reference (``a.x``) before the
statement runs. Unqualified names are the engine's to resolve (a name a
subquery cannot resolve inside is left to DuckDB).

Invariant: only references whose qualifier is the name of another item of
the same FROM list, and of no FROM item or CTE inside the subquery, are
refused; everything else is untouched.
"""

from __future__ import annotations

from pglast import ast

from planner.errors import SqlError
from planner.parse import walk


def check(node: ast.Node) -> None:
    """Refuse a reference from a FROM subquery to another item of its FROM
    list (see the module docstring)."""
    for n in walk(node):
        if isinstance(n, ast.SelectStmt) and n.fromClause:
            _check_items(_leaves(n.fromClause), target=None)
        elif isinstance(n, ast.UpdateStmt) and n.fromClause:
            _check_items([n.relation, *_leaves(n.fromClause)], target=n.relation)
        elif isinstance(n, ast.DeleteStmt) and n.usingClause:
            _check_items([n.relation, *_leaves(n.usingClause)], target=n.relation)


def _leaves(items) -> list[ast.Node]:
    """The FROM items of a FROM list, joins opened."""
    out, stack = [], list(reversed(items or ()))
    while stack:
        item = stack.pop()
        if isinstance(item, ast.JoinExpr):
            stack += [item.rarg, item.larg]
        else:
            out.append(item)
    return out


def _name(item: ast.Node) -> str | None:
    alias = getattr(item, "alias", None)
    if alias is not None:
        return alias.aliasname
    return item.relname if isinstance(item, ast.RangeVar) else None


def _check_items(items: list[ast.Node], target: ast.RangeVar | None) -> None:
    for sub in items:
        if not isinstance(sub, ast.RangeSubselect):
            continue
        siblings = {_name(i): i for i in items if i is not sub and _name(i) is not None}
        if sub.lateral:
            siblings = {name: i for name, i in siblings.items() if i is target}  # LATERAL sees all but the written table
        if not siblings:
            continue
        inside = _names_inside(sub.subquery)
        for n in walk(sub.subquery):
            if isinstance(n, ast.ColumnRef) and len(n.fields) >= 2 and isinstance(n.fields[0], ast.String):
                name = n.fields[0].sval
                if name in siblings and name not in inside:
                    raise SqlError("42P10" if sub.lateral else "42P01", f'invalid reference to FROM-clause entry for table "{name}"',
                                   hint=f'There is an entry for table "{name}", but it cannot be referenced from this part of the query.')


def _names_inside(query: ast.Node) -> set[str]:
    """The names FROM items and CTEs inside ``query`` go by."""
    names = set()
    for n in walk(query):
        if isinstance(n, (ast.RangeVar, ast.RangeSubselect, ast.RangeFunction)) and _name(n) is not None:
            names.add(_name(n))
        elif isinstance(n, ast.CommonTableExpr):
            names.add(n.ctename)
    return names
