"""Column references resolved as PostgreSQL scopes them, to the type of
what each reads.

The binder types a statement's expressions by its columns' declared
types. Looked up by name alone, a name the statement uses twice reads the
wrong one: in ``SELECT i / 2 FROM (SELECT avg(i) AS i FROM t) q`` the
outer ``i`` is the subquery's numeric average, not t's integer ``i``, and
dividing it as integers answered 2 where PostgreSQL answers 2.44...
(``count(*) AS c`` over a table with a char(n) ``c`` was trimmed as text:
an error). ``resolve(node, ...)`` walks the statement's query levels as
PostgreSQL does (CTEs, FROM items with their aliases and column aliases,
joins, LATERAL, subqueries in expressions seeing the levels around them)
and records, per column reference, the type of the column it reads: a
table's declared type, or the type of a FROM subquery's or CTE's output
as ``output_type`` (the binder's inference) works it out (a VALUES
column's when all its values but NULLs have that one type).

``ColumnTypes`` is the name -> type dict the binder used before (the
fallback for every reference not recorded, and for copies of nodes made
while rewriting) with those records; ``column_type(ref, columns)`` is the
one lookup every typing rule uses.

Invariants: a reference is recorded only when its resolution is certain:
every FROM item on the way has known column names (a table, view, CTE or
subquery whose outputs are all named; a function only with a column alias
list), exactly one column (or several of one type, as a join's USING
columns) answers it, and the type is known; anything else (ORDER BY and
GROUP BY names, which may be output names, stars, unknown items) is left
to the name dict, as before. Records hold their nodes, so an id is never
reused by another node while the records live.
"""

from __future__ import annotations

from typing import Callable

from pglast import ast

from planner.catalog import Catalog
from planner.errors import SqlError
from planner.parse import figure_name
from planner.sqltypes import INTEGER_TYPES
from values import PG_TYPE_BY_SQL, PgType

__all__ = ["ColumnTypes", "column_type", "pg_type_of", "resolve", "row_columns", "scalar_in_from", "scoped", "scoped_type"]

#: the type of a FROM item's column that is known to exist but whose type is not (never recorded)
_UNTYPED = None


class ColumnTypes(dict):
    """Declared types by column name (names of one type only), with the
    types of the column references resolved by scope (``refs``: id ->
    (reference, type))."""

    def __init__(self, by_name=(), refs: dict[int, tuple[ast.Node, str]] | None = None, rows: dict | None = None):
        super().__init__(by_name)
        self.refs: dict[int, tuple[ast.Node, str | None]] = {} if refs is None else refs
        #: whole-row references (``row_to_json(t)``): id -> (reference, the row's (column, type or None) in order,
        #: a column never NULL in a row it has, if one is known)
        self.rows: dict[int, tuple[ast.Node, tuple[tuple[str, str | None], ...], str | None]] = {} if rows is None else rows

    def derived(self, by_name: dict[str, str], keep: Callable[[str], bool] = lambda t: True) -> ColumnTypes:
        """Another name dict with these records (a reference to a type ``keep``
        refuses is recorded as of no type there, not looked up by name)."""
        return ColumnTypes(by_name, {k: (n, t if t is not None and t != COMPUTED and keep(t) else COMPUTED) for k, (n, t) in self.refs.items()},
                           self.rows)


def row_columns(n: ast.Node, columns: dict) -> tuple[tuple[tuple[str, str | None], ...], str | None] | None:
    """The columns (name, type or None), in order, of the FROM item a
    whole-row reference ``n`` reads (``t`` in ``row_to_json(t)``), and a
    column of it never NULL but in an outer join's missing row (None if
    none is known), if ``columns`` recorded ``n`` as one."""
    rows = getattr(columns, "rows", None)
    found = rows.get(id(n)) if rows else None
    return found[1:] if found is not None and found[0] is n else None


def scoped_type(n: ast.ColumnRef, columns: dict) -> str | None:
    """The type recorded for the column ``n`` reads, if ``columns`` has one."""
    refs = getattr(columns, "refs", None)
    found = refs.get(id(n)) if refs else None
    return found[1] if found is not None and found[0] is n and found[1] != COMPUTED else None


def scoped(n: ast.ColumnRef, columns: dict) -> bool:
    """Whether ``columns`` recorded the column ``n`` reads (its type may
    still be unknown: a subquery's computed output)."""
    refs = getattr(columns, "refs", None)
    found = refs.get(id(n)) if refs else None
    return found is not None and found[0] is n


#: functions whose value is text (substring, trim and the few others with a
#: bytea form too are read as their text one)
TEXT_FUNCTIONS = {"array_to_string", "btrim", "chr", "concat", "concat_ws", "current_schema", "current_user", "encode", "format",
                  "initcap", "json_typeof", "jsonb_pretty", "jsonb_typeof", "left", "lower", "lpad", "ltrim", "md5", "overlay",
                  "quote_ident", "quote_literal", "regexp_replace", "repeat", "replace", "reverse", "right", "rpad", "rtrim",
                  "split_part", "string_agg", "substr", "substring", "textcat", "to_char", "to_hex", "translate", "trim",
                  "txngate_unpad", "txngate_initcap", "upper", "version"}


#: number types in PostgreSQL's order of implicit casts: values of several are of the last one's
_NUMBER_RANKS = {"smallint": 0, "integer": 1, "bigint": 2, "numeric": 3, "real": 4, "double precision": 5}


def common_number_type(types) -> str | None:
    """PostgreSQL's common type of number types (as UNION and a USING
    join's merged column resolve them: int4 and int8 are bigint, an
    integer and a numeric(10,2) numeric); None unless all are numbers."""
    bases = [(t or "").split("(")[0] for t in types]
    if not bases or any(b not in _NUMBER_RANKS for b in bases):
        return None
    return max(bases, key=_NUMBER_RANKS.__getitem__)


def text_function(n: ast.Node | None) -> bool:
    """``n`` is a call of a function whose value is text (not as a window function)."""
    return isinstance(n, ast.FuncCall) and len(n.funcname) == 1 and n.funcname[0].sval in TEXT_FUNCTIONS and n.over is None


def typed_text(n: ast.Node | None, columns: dict[str, str]) -> bool:
    """``n`` is a text or varchar column, or a cast to text or varchar (a
    value PostgreSQL types text, unlike an untyped string constant)."""
    if isinstance(n, ast.ColumnRef):
        declared = column_type(n, columns, "") if isinstance(n.fields[-1], ast.String) else ""
        return declared in ("text", "varchar") or declared.startswith("varchar(") and not declared.endswith("[]")
    return isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds and n.typeName.names[-1].sval.lower() in ("text", "varchar")


def column_type(n: ast.ColumnRef, columns: dict[str, str], default=None):
    """The type of the column ``n`` reads: its scoped record, else by its
    name; ``default`` when neither knows it."""
    refs = getattr(columns, "refs", None)
    if refs:
        found = refs.get(id(n))
        if found is not None and found[0] is n:
            return default if found[1] in (None, COMPUTED) else found[1]
    last = n.fields[-1]
    return columns.get(last.sval, default) if isinstance(last, ast.String) else default


class _Item:
    """A FROM item: the name it is read by and its columns (name -> type or
    None), or ``columns`` None when its column names are not known;
    ``bare``: an unqualified name may read it (not a join's alias, whose
    columns its tables answer); ``present``: a column of it that is never
    NULL in a row it has (NULL: the row is an outer join's missing one)."""

    __slots__ = ("alias", "columns", "bare", "present")

    def __init__(self, alias: str | None, columns: dict[str, str | None] | None, bare: bool = True, present: str | None = None):
        self.alias, self.columns, self.bare, self.present = alias, columns, bare, present


Outputs = list  # [(name or None, type or None)] of a query level, or None when its names are not known


def resolve(node: ast.Node, catalog: Catalog, search_path: tuple[str, ...], by_name: dict[str, str],
            output_type: Callable[[ast.Node, ColumnTypes], str | None], *, check_set_operations: bool = True) -> ColumnTypes:
    """``by_name`` with the column references of ``node`` resolved by scope;
    a set operation whose arms' types do not match raises PostgreSQL's
    error (``check_set_operations``: ``_set_operation_clash``)."""
    out = ColumnTypes(by_name)
    _Resolver(catalog, search_path, out, output_type, check_set_operations).statement(node)
    return out


class _Resolver:
    def __init__(self, catalog, search_path, out: ColumnTypes, output_type, check_set_operations: bool = True):
        self.catalog, self.search_path, self.out, self.output_type = catalog, search_path, out, output_type
        self.check_set_operations = check_set_operations
        #: per FROM list (by id): the columns its USING and NATURAL joins merge from two number types -> their common type
        self.merged: dict[int, dict[str, str]] = {}

    def statement(self, node: ast.Node) -> None:
        if isinstance(node, ast.SelectStmt):
            self.select(node, [], {})
        elif isinstance(node, (ast.InsertStmt, ast.UpdateStmt, ast.DeleteStmt)):
            ctes = self.ctes(node.withClause, [], {})
            target = self.table_item(node.relation, ctes)
            if isinstance(node, ast.InsertStmt):
                if isinstance(node.selectStmt, ast.SelectStmt):
                    self.select(node.selectStmt, [], ctes)
                self.expressions(node.returningList, [[target]], ctes)
                return
            items = [target]
            for f in (node.fromClause if isinstance(node, ast.UpdateStmt) else node.usingClause) or ():
                self.from_item(f, items, [], ctes)
            scope = [items]
            for clause in ((node.targetList if isinstance(node, ast.UpdateStmt) else None), node.whereClause, node.returningList):
                self.expressions(clause, scope, ctes)

    # -- query levels --------------------------------------------------------

    def ctes(self, with_clause, outer, ctes: dict) -> dict:
        ctes = dict(ctes)
        for cte in (with_clause.ctes if with_clause is not None else ()) or ():
            query = cte.ctequery
            if not isinstance(query, ast.SelectStmt):
                ctes[cte.ctename] = None  # a data-modifying CTE: its RETURNING columns are not followed
                continue
            if with_clause.recursive and query.op is not None and query.op.name != "SETOP_NONE":
                ctes[cte.ctename] = _renamed(self.select(query.larg, outer, ctes), cte.aliascolnames)  # the seed names it
            ctes[cte.ctename] = _renamed(self.select(query, outer, ctes), cte.aliascolnames)
        return ctes

    def select(self, sel: ast.SelectStmt, outer: list, ctes: dict) -> Outputs | None:
        ctes = self.ctes(sel.withClause, outer, ctes)
        if sel.op is not None and sel.op.name != "SETOP_NONE":
            left, right = self.select(sel.larg, outer, ctes), self.select(sel.rarg, outer, ctes)
            if left is None or right is None or len(left) != len(right):
                return None
            for (_name, lt), (_n, rt) in zip(left, right) if self.check_set_operations else ():
                if (clash := _set_operation_clash(sel.op.name.removeprefix("SETOP_"), _known(lt), _known(rt))) is not None:
                    raise clash
            return [(name, _set_operation_type(lt, rt)) for (name, lt), (_n, rt) in zip(left, right)]
        if sel.valuesLists:
            for row in sel.valuesLists:
                self.expressions(row, outer, ctes)
            return [(f"column{i + 1}", self._values_type([row[i] for row in sel.valuesLists if i < len(row)]))
                    for i in range(len(sel.valuesLists[0]))]
        items: list[_Item] = []
        for f in sel.fromClause or ():
            self.from_item(f, items, outer, ctes)
        scope = [items] + outer
        for clause in (sel.targetList, sel.whereClause, sel.havingClause, sel.windowClause, sel.limitCount, sel.limitOffset):
            self.expressions(clause, scope, ctes)
        for clause in (sel.groupClause, sel.sortClause, sel.distinctClause):
            self.expressions(clause, scope, ctes, names=False)  # a bare name there may be an output's
        return self.outputs(sel, items)

    def _values_type(self, column: list[ast.Node]) -> str | None:
        """A VALUES column's type: the one type all its values but NULLs
        have, or of integers and numerics PostgreSQL's common type (the
        widest integer, or numeric), text for string constants only; None
        when one's is not known or they differ otherwise."""
        kinds = set()
        if all(isinstance(v, ast.A_Const) and (v.isnull or isinstance(v.val, ast.String)) for v in column) \
                and not all(v.isnull for v in column):
            return "text"  # string constants only (unknown): PostgreSQL resolves the column as text
        for v in column:
            if isinstance(v, ast.A_Const) and v.isnull:
                continue
            try:
                kinds.add(self.output_type(v, self.out))
            except SqlError:
                return None
        if len(kinds) > 1 and kinds <= {*INTEGER_TYPES, "numeric"} | {k for k in kinds if k and k.startswith("numeric(")}:
            return "numeric" if kinds - set(INTEGER_TYPES) else max(kinds, key=INTEGER_TYPES.index)
        return kinds.pop() if len(kinds) == 1 else None

    def outputs(self, sel: ast.SelectStmt, items: list[_Item]) -> Outputs | None:
        out = []
        for t in sel.targetList or ():
            if isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.A_Star):
                star = self.star(t.val, items)
                if star is None:
                    return None
                out += star
                continue
            name = t.name or figure_name(t.val)
            try:
                kind = UNKNOWN if isinstance(t.val, ast.A_Const) and isinstance(t.val.val, ast.String) else self.output_type(t.val, self.out)
            except SqlError:
                kind = None
            out.append((name, kind))
        return out

    def star(self, ref: ast.ColumnRef, items: list[_Item]) -> Outputs | None:
        chosen = [i for i in items if i.bare] if len(ref.fields) == 1 else [i for i in items if i.alias == ref.fields[-2].sval]
        if not chosen or any(i.columns is None for i in chosen):
            return None
        return [(name, t) for i in chosen for name, t in i.columns.items()]

    # -- FROM items ------------------------------------------------------------

    def from_item(self, f: ast.Node, items: list[_Item], outer: list, ctes: dict) -> None:
        if isinstance(f, ast.RangeVar):
            items.append(self.table_item(f, ctes))
        elif isinstance(f, ast.JoinExpr):
            first = len(items)
            self.from_item(f.larg, items, outer, ctes)
            middle = len(items)
            self.from_item(f.rarg, items, outer, ctes)
            self.expressions(f.quals, [items] + outer, ctes)
            if f.usingClause or f.isNatural:
                self.merge(f, items[first:middle], items[middle:], items)
            nullable = {"JOIN_LEFT": items[middle:], "JOIN_RIGHT": items[first:middle], "JOIN_FULL": items[first:]}.get(f.jointype.name, [])
            for item in nullable:  # a column the join condition compares is never NULL in a row the join matched
                if item.present is None and item.columns is not None:
                    item.present = next((c for c in _compared_columns(f, item.alias) if c in item.columns), None)
            if f.alias is not None:  # the join's own name reads its tables' columns (a name of two: not followed)
                sides = [i for i in items[first:] if i.bare]
                merged = None if any(i.columns is None for i in sides) else \
                    _columns([(name, t) for i in sides for name, t in i.columns.items()], merge=bool(f.usingClause or f.isNatural))
                items.append(_Item(f.alias.aliasname, merged, bare=False))
        elif isinstance(f, ast.RangeSubselect):
            seen = ([items] + outer) if f.lateral else outer
            outputs = self.select(f.subquery, seen, ctes) if isinstance(f.subquery, ast.SelectStmt) else None
            alias = f.alias
            items.append(_Item(alias.aliasname if alias else None, _columns(_renamed(outputs, alias.colnames if alias else None), computed=True)))
        elif isinstance(f, ast.RangeFunction):
            self.expressions(f.functions, [items] + outer, ctes)
            alias = f.alias
            value = self.function_value(f)
            if value is not None:  # one column: the alias names it (else the function's name)
                name, kind = value
                names = [c.sval for c in alias.colnames or ()] if alias is not None else []
                names += [alias.aliasname if alias is not None else name, "ordinality"][len(names):]
                kinds = [kind, "bigint"] if f.ordinality else [kind]
                items.append(_Item(alias.aliasname if alias else name, dict(zip(names, kinds))))
            elif alias is not None and alias.colnames:
                items.append(_Item(alias.aliasname, {c.sval: _UNTYPED for c in alias.colnames}))
            else:
                items.append(_Item(alias.aliasname if alias else None, None))
        else:
            items.append(_Item(None, None))  # anything else (TABLESAMPLE, XMLTABLE ...): unknown names

    def function_value(self, f: ast.RangeFunction) -> tuple[str, str | None] | None:
        """(name, type) of the one column a function in FROM gives: a
        function of one value (its type as ``output_type`` works it out),
        generate_series of integers (the widest) or numerics; None for
        others (columns of their own, or unknown)."""
        fc = f.functions[0][0] if len(f.functions) == 1 and not f.functions[0][1] else None
        if not isinstance(fc, ast.FuncCall):
            return None
        name = fc.funcname[-1].sval
        try:
            if name == "generate_series" and len(fc.args or ()) in (2, 3):
                kinds = {self.output_type(a, self.out) for a in fc.args}  # (a numeric step makes the series numeric)
                if kinds <= set(INTEGER_TYPES):
                    return name, max(kinds, key=INTEGER_TYPES.index)
                return (name, "numeric") if kinds <= {*INTEGER_TYPES, "numeric"} else None
            return (name, self.output_type(fc, self.out)) if scalar_in_from(name) else None
        except SqlError:
            return None

    def table_item(self, rv: ast.RangeVar, ctes: dict) -> _Item:
        alias = rv.alias.aliasname if rv.alias is not None else rv.relname
        colnames = rv.alias.colnames if rv.alias is not None else None
        if rv.schemaname is None and rv.relname in ctes:
            return _Item(alias, _columns(_renamed(ctes[rv.relname], colnames), computed=True))
        rel = self.catalog.lookup(rv.relname, rv.schemaname, self.search_path)
        if rel is None:
            return _Item(alias, None)
        columns = _renamed([(c.name, c.type) for c in rel.columns], colnames)
        present = next((columns[i][0] for i, c in enumerate(rel.columns) if c.not_null), None)
        return _Item(alias, _columns(columns), present=present)

    # -- references --------------------------------------------------------------

    def expressions(self, clause, scope: list, ctes: dict, *, names: bool = True) -> None:
        """Record the references of ``clause``; subqueries in it see ``scope``
        around their own levels. ``names``: bare names are resolved too."""
        stack = [clause]
        while stack:
            n = stack.pop()
            if isinstance(n, (list, tuple)):
                stack.extend(n)
            elif isinstance(n, ast.SubLink):
                stack.append(n.testexpr)
                if isinstance(n.subselect, ast.SelectStmt):
                    self.select(n.subselect, scope, ctes)
            elif isinstance(n, ast.ColumnRef):
                if names or len(n.fields) > 1:
                    self.reference(n, scope)
            elif isinstance(n, ast.SelectStmt):
                self.select(n, scope, ctes)
            elif isinstance(n, ast.Node):
                stack.extend(v for v in map(n.__getattribute__, n.__slots__) if isinstance(v, (ast.Node, list, tuple)))

    def reference(self, n: ast.ColumnRef, scope: list) -> None:
        fields = n.fields
        if not all(isinstance(f, ast.String) for f in fields) or len(fields) > 3:
            return
        name = fields[-1].sval
        qualifier = fields[-2].sval if len(fields) >= 2 else None
        for items in scope:
            if qualifier is not None:
                named = [i for i in items if i.alias == qualifier]
                if not named:
                    continue
                if len(named) > 1 or named[0].columns is None or name not in named[0].columns:
                    return
                self.record(n, named[0].columns[name])
                return
            if any(i.columns is None for i in items if i.bare):
                return  # an item of unknown columns may be the one
            having = [i.columns[name] for i in items if i.bare and name in i.columns]
            if not having:
                continue
            if len(set(having)) == 1:
                self.record(n, having[0])
            elif (common := self.merged.get(id(items), {}).get(name)) is not None:  # a USING join's merged column of two number types
                self.record(n, common)
            return
        if qualifier is None:  # no column of that name at any level: a FROM item's whole row, if one is so named
            for items in scope:
                named = [i for i in items if i.alias == name]
                if named:
                    if len(named) == 1 and named[0].columns is not None:
                        self.out.rows[id(n)] = (n, tuple(named[0].columns.items()), named[0].present)
                    return

    def merge(self, join: ast.JoinExpr, left: list[_Item], right: list[_Item], items: list[_Item]) -> None:
        """Note the columns ``join`` merges whose two sides are numbers of
        different types: the merged column is of their common type."""
        def types(side, name):
            return {i.columns[name] for i in side if i.bare and i.columns is not None and name in i.columns}

        if join.usingClause:
            names = [u.sval for u in join.usingClause]
        else:
            names = {name for i in left if i.bare and i.columns for name in i.columns}
        for name in names:
            a, b = types(left, name), types(right, name)
            if len(a) == 1 and len(b) == 1 and a != b and (common := common_number_type(a | b)) is not None:
                self.merged.setdefault(id(items), {})[name] = common

    def record(self, n: ast.ColumnRef, sql_type: str | None) -> None:
        """``n`` reads a column of ``sql_type`` (``COMPUTED``: a subquery's output of a type not known here, which no
        other column of that name stands for; None: not known at all, not recorded)."""
        if sql_type is not None:
            self.out.refs[id(n)] = (n, sql_type)


#: PostgreSQL 15's set-returning functions (pg_proc.proretset) and those of one record, by name (pg_* ones aside)
_ROWS_FUNCTIONS = frozenset({
    "aclexplode", "generate_series", "generate_subscripts", "json_array_elements", "json_array_elements_text", "json_each",
    "json_each_text", "json_object_keys", "json_populate_recordset", "json_to_recordset", "jsonb_array_elements",
    "jsonb_array_elements_text", "jsonb_each", "jsonb_each_text", "jsonb_object_keys", "jsonb_path_query", "jsonb_path_query_tz",
    "jsonb_populate_recordset", "jsonb_to_recordset", "regexp_matches", "regexp_split_to_table", "string_to_table", "ts_debug",
    "ts_parse", "ts_stat", "ts_token_type", "txid_snapshot_xip", "unnest",
    "json_to_record", "jsonb_to_record", "json_populate_record", "jsonb_populate_record",
    "range",  # (DuckDB's and Spark's rows of numbers; PostgreSQL has no range())
})


def _compared_columns(join: ast.JoinExpr, alias: str | None) -> list[str]:
    """The columns of the FROM item ``alias`` that a join's condition
    compares (a USING column, or ``alias.c`` on a side of a comparison
    ANDed into ON): a row in which one is NULL matches nothing."""
    if join.usingClause:
        return [c.sval for c in join.usingClause]
    conjuncts, found = [join.quals], []
    while conjuncts:
        q = conjuncts.pop()
        if isinstance(q, ast.BoolExpr) and q.boolop.name == "AND_EXPR":
            conjuncts.extend(q.args)
        elif isinstance(q, ast.A_Expr) and q.kind.name == "AEXPR_OP" and q.name[-1].sval in ("=", "<", ">", "<=", ">=", "<>"):
            for side in (q.lexpr, q.rexpr):
                if isinstance(side, ast.ColumnRef) and len(side.fields) == 2 and all(isinstance(x, ast.String) for x in side.fields) \
                        and side.fields[0].sval == alias:
                    found.append(side.fields[1].sval)
    return found


def _set_operation_clash(op: str, left: str | None, right: str | None) -> SqlError | None:
    """PostgreSQL's error for a set operation (``op``: UNION, INTERSECT or
    EXCEPT) whose arms give a column two types it cannot match (the engine
    would make both text): of two categories (42804; an arm of no known
    type, a NULL or a string constant, takes the other's), or of one with
    no implicit cast between them (42846: two arrays of elements of two
    categories, json beside jsonb, time beside a date or a timestamp).
    None when they match or either type is not known here."""
    a, b = _registered(left), _registered(right)
    if a is None or b is None:
        return None
    (ta, array_a), (tb, array_b) = a, b
    name_a, name_b = ta.display + "[]" * array_a, tb.display + "[]" * array_b
    if array_a != array_b or ta.category != tb.category and not (array_a and array_b):
        return SqlError("42804", f"{op} types {name_a} and {name_b} cannot be matched")
    chosen, other = (name_b, name_a) if tb.typname == "timestamptz" else (name_a, name_b)  # (timestamptz: the preferred datetime)
    if ta.category != tb.category or ta.category == "U" and ta.typname != tb.typname \
            or ta.category == "D" and (ta.typname == "time") != (tb.typname == "time"):
        return SqlError("42846", f"{op} could not convert type {other} to {chosen}")
    return None


def pg_type_of(sql_type: str | None) -> tuple[PgType, bool] | None:
    """The registry's type of a canonical type name (its typmod aside) and
    whether it is an array of it; None when not registered (an enum's)."""
    if sql_type is None:
        return None
    base = sql_type.removesuffix("[]")
    base = base.split("(")[0] if base.startswith(("numeric(", "varchar(", "char(")) else base
    t = PG_TYPE_BY_SQL.get(base)
    return None if t is None else (t, sql_type.endswith("[]"))


def _registered(sql_type: str | None) -> tuple[PgType, bool] | None:
    """``pg_type_of``, of the categories a set operation matches (not a catalog type's)."""
    found = pg_type_of(sql_type)
    return found if found is not None and found[0].category in "NSDTBU" else None


def _set_operation_type(left: str | None, right: str | None) -> str | None:
    """A set operation's column type: its arms', when they agree (two
    untyped strings are text); an untyped string takes the other arm's;
    json or jsonb beside an arm of no known type (a NULL), which PostgreSQL
    would refuse but for an untyped value."""
    if left == right == UNKNOWN:
        return "text"
    if UNKNOWN in (left, right):
        return _known(right if left == UNKNOWN else left)
    if left == right or (right is None and left in ("json", "jsonb")):
        return left
    return right if left is None and right in ("json", "jsonb") else None


#: the type recorded for a subquery's or CTE's output of a type not known here: read as unknown (not as another
#: column of that name, which it is not)
COMPUTED = "computed"

#: the type of a query's output that is an untyped string constant: text to a query that reads it as a FROM item
#: or a CTE, the other arm's type in a set operation (PostgreSQL resolves it so)
UNKNOWN = "unknown"


def _known(sql_type: str | None) -> str | None:
    """``sql_type``, None for an untyped string's."""
    return None if sql_type == UNKNOWN else sql_type


def scalar_in_from(name: str) -> bool:
    """Whether a function named ``name`` in FROM is one of a single value
    (one row, one column the alias names): not a set-returning or record
    function of PostgreSQL's, nor a catalog function or one of txngate's."""
    name = name.lower()
    return name not in _ROWS_FUNCTIONS and not name.startswith(("pg_", "_pg", "txngate_", "information_schema"))


def _renamed(outputs: Outputs | None, colnames) -> Outputs | None:
    """``outputs`` under an alias's column names (the first ones renamed)."""
    if outputs is None or not colnames:
        return outputs
    names = [c.sval for c in colnames]
    if len(names) > len(outputs):
        return None
    return [(names[i] if i < len(names) else name, t) for i, (name, t) in enumerate(outputs)]


def _columns(outputs: Outputs | None, *, merge: bool = False, computed: bool = False) -> dict[str, str | None] | None:
    """A FROM item's columns from a query's outputs; None when one has no
    name (its name is the engine's, not known here). A name given twice
    is untyped (ambiguous where read), unless ``merge`` (a join's USING
    columns) and of one type. ``computed``: the outputs are a subquery's
    or CTE's, whose outputs of a type not known here are ``COMPUTED``;
    an untyped string's are text."""
    if outputs is None or any(name is None for name, _t in outputs):
        return None
    columns: dict[str, str | None] = {}
    for name, t in outputs:
        t = "text" if t == UNKNOWN else COMPUTED if t is None and computed else t
        columns[name] = t if name not in columns or merge and columns[name] == t else None
    return columns
