"""FROM items as PostgreSQL scopes them: what a subquery in FROM may read,
and the names of the columns each FROM item gives.

A subquery in FROM without LATERAL sees the query levels around its
statement but not the other items of its own FROM list; DuckDB lets it
read them, as if LATERAL had been written. So ``FROM t a, (SELECT a.x)
s`` answered, and ``DELETE FROM t USING (SELECT * FROM u WHERE u.k = t.k)
s`` deleted rows by a correlation PostgreSQL refuses (42P01, "invalid
reference to FROM-clause entry"). The table an UPDATE or DELETE writes is
not visible to its FROM / USING subqueries even with LATERAL (42P10).

``check(node)`` refuses such a qualified reference (``a.x``) before the
statement runs. ``check_unqualified(node, columns_of)`` resolves an
unqualified name such a subquery cannot resolve inside but a sibling
item has as a column, as PostgreSQL does: to the query levels around
the FROM list (written qualified, so DuckDB reads it there too), or
42703 where none has it (``FROM t, (SELECT x AS z) s`` answered with
t.x; ``(SELECT q2 AS r) y`` beside ``(SELECT q1 AS q2) x`` read x's q2
where PostgreSQL reads the outer query's).

``check_join_aliases(node, columns_of)`` refuses (42702) a name an aliased
join has twice where its query reads it; DuckDB read the first.
``check_duplicate_names(select, ctes)`` refuses (42712) two FROM items of
one level that go by one name; DuckDB read the first of two tables.

``star_result_names(select, columns_of)`` is the result names of a
``SELECT *`` whose stars read known columns (DuckDB renames a subquery's
repeated name ``a`` to ``a_1``); ``star_result_columns`` the same with the
declared type of each table column a star passes through (json, char(n):
the engine's result says text).

``output_names(item, ctes, columns_of)`` is PostgreSQL's column names of
a FROM item (a join's merged USING columns first, a subquery's ``*``
expanded), which these checks and the binder's ``SELECT *`` over joins
USING columns (planner.bind) read.

Invariants: only references whose qualifier is the name of another item of
the same FROM list, and of no FROM item or CTE inside the subquery, are
refused; an unqualified name is touched only where every FROM item inside
the subquery and on every level around it has known columns; everything
else is untouched.
"""

from __future__ import annotations

from typing import Callable

from pglast import ast

from planner.errors import SqlError
from planner.parse import cte_names, is_aggregate_call, result_names, walk

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


def check_unqualified(node: ast.Node, columns_of: Callable[[ast.RangeVar], list[str] | None]) -> None:
    """Resolve (or refuse, 42703) the unqualified names FROM subqueries
    would read from their siblings (see the module docstring);
    ``columns_of`` names a table's columns, None for no table."""
    ctes = cte_names(node)
    names = lambda item: output_names(item, ctes, columns_of)  # noqa: E731
    if isinstance(node, ast.SelectStmt):
        _visit(node, [], names)
        return
    if isinstance(node, (ast.UpdateStmt, ast.DeleteStmt)):  # the table written is no FROM / USING subquery's, even LATERAL
        items = [node.relation, *_leaves(node.fromClause if isinstance(node, ast.UpdateStmt) else node.usingClause)]
        for at, item in enumerate(items):
            if isinstance(item, ast.RangeSubselect):
                before, after = ([node.relation], []) if item.lateral else (items[:at], items[at + 1:])
                _check_subquery(item.subquery, before, after, [], names, lateral=bool(item.lateral))
    for sub, _sees in _nested_selects(node):  # (the other columns an INSERT, UPDATE or DELETE lets its subqueries read: not modelled)
        _visit(sub, [None], names)


def check_join_aliases(node: ast.Node, columns_of: Callable[[ast.RangeVar], list[str] | None]) -> None:
    """42702 for a name an aliased join gives more than one column
    (``(t x CROSS JOIN t y) j``: two columns f1) where the query reads it,
    as ``f1`` or ``j.f1``, as PostgreSQL does; the engine read the first.
    42P01 for a table the join's alias hides (``x.f1``), with PostgreSQL's
    words (the engine's say it is missing), and for a USING alias of a join
    under it (``(a JOIN b USING (i) AS x) AS j``: no ``x`` there; the
    engine read it).
    Only the expressions of the query level the join is a FROM item of
    are looked at (its own ON clauses see its tables, not it), and only
    where every table under the join has known columns."""
    ctes = cte_names(node)
    for select in walk(node):
        if not isinstance(select, ast.SelectStmt) or not select.fromClause:
            continue
        joins = _aliased_joins(select.fromClause)
        if not joins:
            continue
        ambiguous: dict[str | None, set[str]] = {}
        for join in joins:
            names = output_names(join, ctes, columns_of)
            dupes = {n for n in names or () if names.count(n) > 1}
            if dupes:
                ambiguous[join.alias.aliasname] = dupes
                ambiguous.setdefault(None, set()).update(dupes)
        visible = {_name(item) for item in _leaves_outside(select.fromClause)} | {join.alias.aliasname for join in joins}
        hidden = {_name(leaf) for join in joins for leaf in _leaves([join.larg, join.rarg])} - visible - {None}
        gone = {j.join_using_alias.aliasname for join in joins for j in walk(join)
                if isinstance(j, ast.JoinExpr) and j.join_using_alias is not None} - visible
        for ref in _level_refs(select):
            if len(ref.fields) > 1 and isinstance(ref.fields[0], ast.String) and ref.fields[0].sval in gone:
                # a USING alias under an aliased join: not a name there at all (``x.*`` too)
                raise SqlError("42P01", f'missing FROM-clause entry for table "{ref.fields[0].sval}"', position=ref.location + 1)
            fields = [f.sval for f in ref.fields if isinstance(f, ast.String)]
            if len(fields) != len(ref.fields) or len(fields) > 2:
                continue
            qualifier, name = (None, fields[0]) if len(fields) == 1 else fields
            if qualifier in hidden:  # a table the join's alias hides (the engine could not tell why it is not found)
                raise SqlError("42P01", f'invalid reference to FROM-clause entry for table "{qualifier}"', position=ref.location + 1,
                               hint=f'There is an entry for table "{qualifier}", but it cannot be referenced from this part of the query.')
            if name in ambiguous.get(qualifier, ()):
                raise SqlError("42702", f'column reference "{name}" is ambiguous', position=ref.location + 1)


def check_duplicate_names(select: ast.SelectStmt, ctes: set[str]) -> None:
    """42712 for two FROM items of one query level that go by one name
    (``FROM a x JOIN b x``, ``FROM t, t``), as PostgreSQL's namespace
    check; the engine read the first. Two tables named without an alias
    in different schemas are two names (PostgreSQL compares them by OID).
    A join's alias hides the names under it; its USING alias is a name."""
    seen: dict[str, ast.Node] = {}
    stack = list(reversed(select.fromClause or ()))
    while stack:
        item = stack.pop()
        if isinstance(item, ast.JoinExpr):
            if item.alias is not None:
                name = item.alias.aliasname
            else:
                stack += [item.rarg, item.larg]
                if item.join_using_alias is None:
                    continue
                name = item.join_using_alias.aliasname
        else:
            name = _name(item)
        if name is None:
            continue
        other = seen.setdefault(name, item)
        if other is not item and not _distinct_tables(other, item, ctes):
            raise SqlError("42712", f'table name "{name}" specified more than once')


def _distinct_tables(a: ast.Node, b: ast.Node, ctes: set[str]) -> bool:
    """Two tables named alike without an alias that are not one table
    (of different schemas; a WITH query's name is never one of them)."""
    return all(isinstance(n, ast.RangeVar) and n.alias is None and not (n.schemaname is None and n.relname in ctes) for n in (a, b)) \
        and (a.schemaname or "") != (b.schemaname or "")


def _leaves_outside(items) -> list[ast.Node]:
    """The FROM items of a FROM list outside its aliased joins."""
    out, stack = [], list(items or ())
    while stack:
        item = stack.pop()
        if isinstance(item, ast.JoinExpr):
            if item.alias is None or item.alias.colnames:
                stack += [item.larg, item.rarg]
        else:
            out.append(item)
    return out


def _aliased_joins(items) -> list[ast.JoinExpr]:
    """The joins with an alias a FROM list reads directly (not those inside
    another aliased join, whose names the outer alias hides)."""
    out, stack = [], list(items or ())
    while stack:
        item = stack.pop()
        if isinstance(item, ast.JoinExpr):
            if item.alias is not None and not item.alias.colnames:
                out.append(item)
            else:
                stack += [item.larg, item.rarg]
    return out


def _level_refs(select: ast.SelectStmt) -> list[ast.ColumnRef]:
    """The column references of ``select``'s own level: its target list,
    WHERE, GROUP BY, HAVING, ORDER BY (but a name of an output column),
    and the ON clauses of joins above its aliased joins; not inside
    subqueries or the aliased joins."""
    outputs = set(result_names(select) or ())  # ORDER BY x reads the output column x first
    sorts = [s.node for s in select.sortClause or ()
             if not (isinstance(s.node, ast.ColumnRef) and len(s.node.fields) == 1 and isinstance(s.node.fields[0], ast.String)
                     and s.node.fields[0].sval in outputs)]
    roots: list[ast.Node] = [*(select.targetList or ()), select.whereClause, *(select.groupClause or ()), select.havingClause, *sorts]
    stack = list(select.fromClause or ())
    while stack:
        item = stack.pop()
        if isinstance(item, ast.JoinExpr) and (item.alias is None or item.alias.colnames):
            roots.append(item.quals)
            stack += [item.larg, item.rarg]
    refs, todo = [], [r for r in reversed(roots) if r is not None]
    while todo:  # in the order written (PostgreSQL reports the first bad reference)
        n = todo.pop()
        if isinstance(n, (ast.SubLink, ast.SelectStmt, ast.RangeSubselect)):
            continue
        if isinstance(n, ast.ColumnRef):
            refs.append(n)
            continue
        if isinstance(n, (list, tuple)):
            todo += reversed(n)
        elif isinstance(n, ast.Node):
            todo += reversed([v for v in map(n.__getattribute__, n.__slots__) if isinstance(v, (ast.Node, list, tuple))])
    return refs


def check_outer_aggregates(node: ast.Node, columns_of: Callable[[ast.RangeVar], list[str] | None]) -> None:
    """Refuse (0A000) an aggregate PostgreSQL computes in an outer query
    that DuckDB computes where it is written: one in a subquery whose
    arguments read no column directly but read, through subqueries of
    their own, columns of the levels around it and none of its own.
    PostgreSQL puts an aggregate at the innermost level of the columns it
    reads, so ``SELECT (SELECT max((SELECT i.b FROM t i WHERE i.a = o.a)))
    FROM t o`` aggregates o's rows into one row, where DuckDB answered a
    maximum per row (a wrong answer). A reference not resolved for certain
    refuses nothing."""
    ctes = cte_names(node)
    names = lambda item: output_names(item, ctes, columns_of)  # noqa: E731
    tops = [(node, False)] if isinstance(node, ast.SelectStmt) else list(_nested_selects(node))
    for select, _sees in tops:
        _outer_aggregates(select, [], names)


def _scope(select: ast.SelectStmt, names) -> tuple[set[str], dict | None]:
    """A query level as references resolve in it: its FROM items' names,
    and its columns (None when not all are known)."""
    return {n for n in map(_name, _leaves(select.fromClause)) if n is not None}, _level_columns(select, names)


def _outer_aggregates(select: ast.SelectStmt, enclosing: list[tuple[set[str], dict | None]], names) -> None:
    own = _scope(select, names)
    if enclosing:
        for fc in _own_aggregates(select):
            direct, nested = _references(fc, names)
            if direct or not nested:
                continue  # DuckDB places it as PostgreSQL does (by the columns read directly), or it reads none
            where = [_resolve(ref, chain, own, enclosing) for ref, chain in nested]
            if "outer" in where and None not in where and "own" not in where:
                raise SqlError("0A000", f"an aggregate ({fc.funcname[-1].sval}) reading an outer query's columns only through a "
                                        "subquery of its argument is not supported")
    for sub, sees in _nested_selects(select):
        _outer_aggregates(sub, enclosing + [own] if sees else [], names)


def _own_aggregates(select: ast.SelectStmt):
    """The aggregate calls of ``select``'s own level (not in its subqueries)."""
    stack = [getattr(select, a) for a in ("targetList", "havingClause", "sortClause")]
    while stack:
        value = stack.pop()
        if isinstance(value, tuple):
            stack.extend(value)
        elif isinstance(value, ast.Node) and not isinstance(value, ast.SelectStmt):
            if isinstance(value, ast.FuncCall) and value.over is None and is_aggregate_call(value):
                yield value
                continue
            stack.extend(getattr(value, a) for a in value)


def _references(fc: ast.FuncCall, names):
    """The column references of ``fc``'s arguments read directly, and
    those inside subqueries, each with the scopes of the subquery levels
    around it up to ``fc``'s (innermost last)."""
    direct, nested = [], []

    def visit(value, chain):
        if isinstance(value, ast.SelectStmt):
            inner = chain + [_scope(value, names)]
            for attr in value:
                visit(getattr(value, attr), inner)
        elif isinstance(value, tuple):
            for v in value:
                visit(v, chain)
        elif isinstance(value, ast.ColumnRef):
            (nested.append((value, chain)) if chain else direct.append(value))
        elif isinstance(value, ast.Node):
            for attr in value:
                visit(getattr(value, attr), chain)

    visit(tuple(fc.args or ()) + (fc.agg_filter,), [])
    return direct, nested


def _resolve(ref: ast.ColumnRef, chain, own, enclosing) -> str | None:
    """Where a reference in a subquery of an aggregate's argument reads:
    "inside" that subquery, the aggregate's "own" level, an "outer" one,
    or None when not certain."""
    fields = ref.fields
    if not all(isinstance(f, ast.String) for f in fields) or len(fields) > 2:
        return None  # a star, or schema-qualified
    qualifier, column = (fields[0].sval, fields[1].sval) if len(fields) == 2 else (None, fields[0].sval)
    for place, scopes in (("inside", list(reversed(chain))), ("own", [own]), ("outer", list(reversed(enclosing)))):
        for item_names, columns in scopes:
            if qualifier is not None:
                if qualifier in item_names:
                    return place
            elif columns is None:
                return None
            elif column in columns:
                return place
    return None


def _visit(select: ast.SelectStmt, enclosing: list[dict | None], names) -> None:
    """Check the FROM subqueries of ``select`` and of the queries in it;
    ``enclosing``: the columns of each query level around it, innermost
    last (column -> the FROM item's name, None for a column two have),
    None for a level whose columns are not all known."""
    level = _level_columns(select, names)
    items = _leaves(select.fromClause)
    for item in items:
        if isinstance(item, ast.RangeSubselect) and not item.lateral:
            at = items.index(item)
            _check_subquery(item.subquery, items[:at], items[at + 1:], enclosing, names)
    for sub, sees in _nested_selects(select):
        _visit(sub, enclosing + [level] if sees else enclosing, names)


def _level_columns(select: ast.SelectStmt, names) -> dict | None:
    columns: dict[str, str | None] = {}
    for item in _leaves(select.fromClause):
        item_names = names(item)
        if item_names is None:
            return None
        for c in item_names:
            columns[c] = None if c in columns else _name(item)
    return columns


def _nested_selects(node: ast.Node):
    """The queries directly in ``node`` (a statement or expression), each
    with whether it sees ``node``'s FROM items: a subquery of an
    expression or a LATERAL one does; a FROM subquery, a CTE or a set
    operation's arm does not."""
    if isinstance(node, ast.SelectStmt):
        for arm in (node.larg, node.rarg):
            if arm is not None:
                yield arm, False
        for cte in getattr(node.withClause, "ctes", None) or ():
            yield cte.ctequery, False
        for item in node.fromClause or ():
            yield from _from_selects(item)
        skip = ("larg", "rarg", "withClause", "fromClause")
    else:
        skip = ()
    for attr in node:
        if attr in skip:
            continue
        yield from ((q, True) for q in _queries_in(getattr(node, attr)))


def _from_selects(item: ast.Node):
    if isinstance(item, ast.RangeSubselect):
        yield item.subquery, bool(item.lateral)
    elif isinstance(item, ast.JoinExpr):
        yield from _from_selects(item.larg)
        yield from _from_selects(item.rarg)
        yield from ((q, True) for q in _queries_in(item.quals))
    else:
        yield from ((q, True) for q in _queries_in(item))


def _queries_in(value):
    """The SELECTs in an expression (not those inside them)."""
    if isinstance(value, ast.SelectStmt):
        yield value
    elif isinstance(value, ast.Node):
        for attr in value:
            yield from _queries_in(getattr(value, attr))
    elif isinstance(value, tuple):
        for v in value:
            yield from _queries_in(v)


def _check_subquery(sub: ast.Node, before: list[ast.Node], after: list[ast.Node], enclosing: list[dict | None], names, *,
                    lateral: bool = False) -> None:
    """Resolve or refuse the names ``sub`` would read from the items
    ``before`` and ``after`` it in its FROM list (``lateral``: the table
    an UPDATE or DELETE writes, which a LATERAL one may not read)."""
    siblings = before + after
    sibling_columns = {c for item in siblings for c in (names(item) or ())}
    if not sibling_columns:
        return
    inside = _columns_inside(sub, names)
    if inside is None:
        return
    qualifiers = {_name(i) for i in siblings} | _names_inside(sub)
    for n in walk(sub):
        if not (isinstance(n, ast.ColumnRef) and len(n.fields) == 1 and isinstance(n.fields[0], ast.String)):
            continue
        name = n.fields[0].sval
        if name in inside or name not in sibling_columns:
            continue
        for level in reversed(enclosing):
            if level is None:
                break  # not known: left to the engine
            if name in level:
                if level[name] is not None and level[name] not in qualifiers:
                    n.fields = (ast.String(sval=level[name]), n.fields[0])  # read where PostgreSQL reads it
                break
        else:
            table = next((_name(i) for i in before if name in (names(i) or ())), None)  # (one LATERAL could read)
            if lateral:
                raise SqlError("42P10", f'invalid reference to FROM-clause entry for table "{table}"',
                               hint=f'There is an entry for table "{table}", but it cannot be referenced from this part of the query.',
                               position=n.location + 1 if n.location is not None and n.location >= 0 else None)
            raise SqlError("42703", f'column "{name}" does not exist',
                           hint=None if table is None else
                           f'There is a column named "{name}" in table "{table}", but it cannot be referenced from this part of the query.',
                           position=n.location + 1 if n.location is not None and n.location >= 0 else None)


def _columns_inside(sub: ast.Node, names) -> set[str] | None:
    """Every name a reference inside ``sub`` may resolve to there: the
    columns of its FROM items (at any depth) and its output names; None
    when a FROM item's columns are not known."""
    found: set[str] = set()
    for n in walk(sub):
        if isinstance(n, ast.SelectStmt):
            for item in _leaves(n.fromClause):
                item_names = names(item)
                if item_names is None:
                    return None
                found.update(item_names)
            found.update(t.name for t in n.targetList or () if t.name)
        elif isinstance(n, ast.CommonTableExpr):
            return None
    return found


def _names_inside(query: ast.Node) -> set[str]:
    """The names FROM items and CTEs inside ``query`` go by."""
    names = set()
    for n in walk(query):
        if isinstance(n, (ast.RangeVar, ast.RangeSubselect, ast.RangeFunction)) and _name(n) is not None:
            names.add(_name(n))
        elif isinstance(n, ast.CommonTableExpr):
            names.add(n.ctename)
    return names


def star_result_names(select: ast.SelectStmt, columns_of) -> list[str] | None:
    """PostgreSQL's result column names of a SELECT with a star among its
    targets, when the FROM items the stars read have known columns (a
    subquery's duplicate names stay duplicates: the engine renamed them
    ``a_1``); None otherwise."""
    found = star_result_columns(select, _untyped(columns_of))
    return None if found is None else [name for name, _t in found]


def star_result_columns(select: ast.SelectStmt, columns_of) -> list[tuple[str, str | None]] | None:
    """``star_result_names`` with each column's declared type where a star
    passes a table's column through (None elsewhere: a computed column, a
    USING column its two sides declare differently); ``columns_of(rv)``
    gives a table's (name, type) pairs, or None."""
    if select.op is not None and select.op.name != "SETOP_NONE" or not select.fromClause or not any(
            isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.A_Star) for t in select.targetList or ()):
        return None
    return _star_columns(select, cte_names(select), columns_of)


def _untyped(names_of):
    """A ``columns_of`` of (name, None) pairs from one of names."""
    def columns_of(rv):
        names = names_of(rv)
        return None if names is None else [(n, None) for n in names]
    return columns_of


def _star_columns(sub: ast.SelectStmt, ctes: set[str], columns_of) -> list[tuple[str, str | None]] | None:
    """The result columns of a SELECT whose targets include stars (``*`` or
    ``alias.*``), each star as the columns of the FROM items it reads; None
    when one of those is not known."""
    items = {}

    def name(f) -> None:
        alias = f.alias.aliasname if getattr(f, "alias", None) is not None else f.relname if isinstance(f, ast.RangeVar) else None
        items[alias] = f
        if isinstance(f, ast.JoinExpr) and f.alias is None:  # the tables of an unaliased join go by their own names
            name(f.larg)
            name(f.rarg)

    for f in sub.fromClause:
        name(f)
    columns = []
    for target in sub.targetList or ():
        star = isinstance(target.val, ast.ColumnRef) and isinstance(target.val.fields[-1], ast.A_Star)
        if not star:
            one = result_names(ast.SelectStmt(targetList=(target,)))
            if not one:
                return None
            columns += [(name, None) for name in one]
            continue
        chosen = list(sub.fromClause) if len(target.val.fields) == 1 else [items.get(target.val.fields[-2].sval)]
        for f in chosen:
            if f is None or (star_of := output_columns(f, ctes, columns_of)) is None:
                return None
            columns += star_of
    return columns


def output_names(item: ast.Node, ctes: set[str], columns_of) -> list[str] | None:
    """PostgreSQL's column names of a FROM item (a join's USING columns
    first), None when a table of it is not a known one."""
    found = output_columns(item, ctes, _untyped(columns_of))
    return None if found is None else [name for name, _t in found]


def output_columns(item: ast.Node, ctes: set[str], columns_of) -> list[tuple[str, str | None]] | None:
    """``output_names`` with each column's declared type, where it is one
    table's column passed through (``columns_of(rv)``: its (name, type)
    pairs); a join's USING column has its sides' type when they agree."""
    if isinstance(item, ast.JoinExpr):
        left, right = output_columns(item.larg, ctes, columns_of), output_columns(item.rarg, ctes, columns_of)
        if left is None or right is None:
            return None
        right_names = [n for n, _t in right]
        using = [n for n, _t in left if n in right_names] if item.isNatural else [c.sval for c in item.usingClause or ()]
        merged = []
        for name in using:
            sides = {t for n, t in left + right if n == name}
            merged.append((name, sides.pop() if len(sides) == 1 else None))
        return merged + [(n, t) for n, t in left + right if n not in using]
    if isinstance(item, ast.RangeSubselect) and isinstance(item.subquery, ast.SelectStmt):
        sub = item.subquery
        names = result_names(sub)
        columns = None if names is None else [(name, None) for name in names]
        if names is None and sub.fromClause and (sub.op is None or sub.op.name == "SETOP_NONE"):
            columns = _star_columns(sub, ctes, columns_of)  # SELECT *, x AS y: the FROM items' columns where a star is
    elif isinstance(item, ast.RangeVar) and not (item.schemaname is None and item.relname in ctes):
        columns = columns_of(item)
    else:
        return None
    given = [c.sval for c in (item.alias.colnames or ())] if item.alias is not None else []
    if columns is None:
        return None
    return [(name, columns[i][1] if i < len(columns) else None) for i, name in enumerate(given)] + columns[len(given):]  # renamed, typed alike
