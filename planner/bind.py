"""Binding: resolve the relations a statement names against the catalog and
rewrite it for DuckDB.

Every RangeVar that names a stored relation (a table or a materialized view)
is renamed to an internal name (``_r0``, ``_r1``, ...) under which the
relation's Arrow snapshot is registered, keeping the name the query used as
its alias, so schema-qualified names and column references keep working.
Views are bound recursively and become temporary DuckDB views over the same
internal names, dependencies first. Names that a WITH clause defines are
left alone. ``emulation`` (planner.pgcatalog) resolves the system catalogs
no catalog row holds, and rewrites the PostgreSQL functions, casts and
operators clients use on them; a statement that used it is not cached
(its answer depends on the session).

The statement node given is never modified (binding works on a copy), so a
retried compute binds the same statement again.
"""

from __future__ import annotations

import copy
import decimal
import logging
import re
from dataclasses import dataclass, field
from typing import Callable, Iterator

import pglast
import sqlglot
from pglast import ast
from pglast.enums import A_Expr_Kind, BoolExprType, CoercionForm, LimitOption, NullTestType, SortByDir, SortByNulls, SetOperation, SQLValueFunctionOp, SubLinkType
from pglast.enums.parsenodes import (FRAMEOPTION_END_OFFSET_FOLLOWING, FRAMEOPTION_END_OFFSET_PRECEDING, FRAMEOPTION_GROUPS,
                                     FRAMEOPTION_NONDEFAULT, FRAMEOPTION_RANGE, FRAMEOPTION_START_OFFSET_FOLLOWING,
                                     FRAMEOPTION_START_OFFSET_PRECEDING)

from planner import decimals, jsonops, locking, recursive, scopes, tochar
from planner.catalog import Catalog, CompositeType, DomainType, EnumType, Relation
from planner import functions
from planner.errors import CANNOT_COERCE, CHECK_VIOLATION, DATATYPE_MISMATCH, FEATURE_NOT_SUPPORTED, NOT_NULL_VIOLATION, INVALID_DATETIME_FORMAT, INVALID_PARAMETER_VALUE, INVALID_TEXT_REPRESENTATION, NUMERIC_VALUE_OUT_OF_RANGE, SYNTAX_ERROR, SqlError, not_supported, undefined
from planner import parse as p
from planner.parse import copy_tree, pg_sql, walk
from planner.resolve import TEXT_FUNCTIONS, ColumnTypes, column_type, common_number_type, resolve, row_columns, scalar_in_from, scoped, scoped_type, text_function, typed_text
from planner.pgcatalog import REGPROC_COLUMNS, VECTOR_COLUMNS, expand, pattern_quantifier, raised, replace_children
from planner.sqltypes import type_name as sql_type_name
from planner.sqltypes import (BIT_TYPES, builtin_type_name, domain_of, duckdb_type, is_composite, made_type, enum_type, is_enum, FLOAT_NAMES, INTEGER_NAMES, INTEGER_TYPES, STORED_PLACES, canonical, fraction_precision, spark_stored_numeric,
                              special_datetime, typed_literal)
from values import (CATALOG_TYPES, DATE_ORDER, INTERVAL_STYLE, ArrayLiteralError, ByteaInputError, IntervalSyntax, abbreviation, abbreviation_steps, engine_offset, interval_text,
                    numeric_zone, parse_array, parse_bytea, qualified_interval, record_input, time_text, unit_field)

#: ``emulation(catalog)`` -> a planner.pgcatalog.PgCatalog for that catalog
Emulation = Callable[[Catalog], object]


@dataclass
class VirtualTable:
    """A relation computed on demand (e.g. pg_catalog.pg_class)."""

    name: str
    build: Callable[[], object]  # -> pa.Table


@dataclass
class Bound:
    """A statement bound to relations: DuckDB SQL plus what it reads."""

    sql: str  # DuckDB dialect
    tables: dict[str, Relation] = field(default_factory=dict)  # internal name -> stored relation
    virtual: dict[str, VirtualTable] = field(default_factory=dict)  # internal name -> virtual table
    views: list[tuple[str, str]] = field(default_factory=list)  # (internal name, DuckDB SQL), dependencies first
    uncacheable: bool = False  # used the emulation: depends on the session


def quoted(name: str) -> str:
    """``name`` as a quoted SQL identifier (any name, as written)."""
    return '"' + name.replace('"', '""') + '"'


#: sqlglot warns that EXTRACT from a timestamptz may differ between dialects;
#: the rewrite has already chosen PostgreSQL's reading: not the operator's concern
logging.getLogger("sqlglot").setLevel(logging.ERROR)


def transpile(pg: str) -> str:
    try:
        return _AFTER_TRANSPILE.sub(r"\1(", sqlglot.transpile(pg, read="postgres", write="duckdb")[0])
    except sqlglot.errors.SqlglotError as e:
        raise not_supported(f"query construct ({str(e).splitlines()[0]})") from None


class Binder:
    def __init__(self, catalog: Catalog, search_path: tuple[str, ...], emulation: Emulation | None = None, *, dialect: str = "duckdb",
                 written: bool = False):
        #: "duckdb": ``Bound.sql`` and views are DuckDB SQL; "spark": they stay
        #: PostgreSQL (with internal names) for planner.spark_sql to rewrite
        self.dialect = dialect
        #: a statement txngate wrote (a Spark UPDATE's union of old and new rows): not checked as a user's
        self.written = written
        self.catalog = catalog
        self.search_path = search_path
        self.emulation = emulation
        self._pg = None
        self._cast: set[int] = set()  # ids of nodes already wrapped (in a cast, a CASE)
        self._structs: list[str] = []  # the STRUCT types of composite casts, by ``txngate_struct(k)`` (``_struct_type``)
        self._relations: list[tuple[str, str | None]] = []  # the relations the statement names (``_domain_column``)
        self._domains: dict[str, set] | None = None
        self._trimmed: set[int] = set()  # ids of the rtrim() calls around char(n) operands
        self._columns: dict[str, str] = {}  # declared types of the columns of the statement being rewritten, by name
        self._nullable: set[str] = set()  # ... the names of its FROM items an outer join may give a missing row of
        self._outer_joins = False  # ... whether it has an outer join (Binder._shape)
        self._arrays: dict[str, str] = {}  # ... its array columns
        self._scales = decimals.Scales({}, lambda x: False)  # ... its numerics
        self._names: dict[str, str] = {}  # qualified -> internal
        self.out = Bound("")
        self._binding_views: set[str] = set()
        #: tables the caller registers with the engine itself, by name (left as they are), with the relation whose columns they have
        self.given: dict[str, Relation] = {}

    def bind(self, node: ast.Node, *, outputs: bool = True) -> Bound:
        """Bind a SELECT (or any node holding one) and rewrite it for DuckDB;
        ``outputs``: its rows go to the client (not to conform(), which puts
        jsonb in canonical form itself)."""
        self.out.sql = self._finish(pg_sql(self.rewrite(node, outputs=outputs)))
        return self.out

    def _shape(self, node: ast.Node) -> None:
        """PostgreSQL's checks and rewrites of a statement's shape, each run
        only when one walk finds what it applies to: WITH (recursive
        queries), FROM subqueries (their scope), subqueries in expressions
        (an aggregate of an outer query in one), SELECTs of no columns,
        FROM lists of several items (one name twice), locking clauses
        (planner.locking) and ``x.*`` inside an expression (a json
        function's whole row, ROW()'s columns)."""
        withs = subqueries = sublinks = nothing = aliased_joins = empty_arrays = False
        locked: list[ast.SelectStmt] = []
        several: list[ast.SelectStmt] = []  # queries of more than one FROM item
        roots, expanded, whole, stars = set(), set(), set(), []  # target lists', ROW()s' and json functions' expressions; stars elsewhere
        outer_joins = self._outer_joins = False
        for n in walk(node):
            if isinstance(n, ast.WithClause):
                withs = True
            elif isinstance(n, ast.JoinExpr) and n.alias is not None:
                aliased_joins = True
            elif isinstance(n, ast.RangeSubselect):
                subqueries = True
                if n.alias is None:  # (PostgreSQL 16 made it optional)
                    raise SqlError("42601", "subquery in FROM must have an alias", hint="For example, FROM (SELECT ...) [AS] foo.",
                                   position=_position(n))
            elif isinstance(n, ast.SubLink):
                sublinks = True
            elif isinstance(n, ast.SelectStmt) and not n.targetList and not n.valuesLists and (n.op is None or n.op.name == "SETOP_NONE"):
                nothing = True
            elif isinstance(n, ast.FuncCall):
                jsonops.check_call(n)
                _check_parameterless(n)
                if n.agg_distinct and n.agg_order:
                    _check_distinct_order(n)
            elif isinstance(n, ast.A_ArrayExpr) and not n.elements:
                empty_arrays = True
            elif isinstance(n, ast.WindowDef):
                _check_frame(n)
            elif isinstance(n, ast.CommonTableExpr):
                _check_cte_columns(n)
            if isinstance(n, ast.SelectStmt) and n.windowClause:
                _check_window_copies(n)
            if isinstance(n, ast.SelectStmt) and n.lockingClause:
                locked.append(n)
            if isinstance(n, ast.SelectStmt):
                roots.update(id(t.val) for t in n.targetList or ())
            elif isinstance(n, ast.RowExpr):
                expanded.update(id(a) for a in n.args or ())
            elif isinstance(n, ast.FuncCall) and n.funcname[-1].sval in _WHOLE_ROW_JSON:
                whole.update(id(a) for a in n.args or ())
            elif isinstance(n, ast.JoinExpr) and n.jointype.name != "JOIN_INNER":
                outer_joins = self._outer_joins = True
            elif isinstance(n, ast.ColumnRef) and len(n.fields) >= 2 and isinstance(n.fields[-1], ast.A_Star) and id(n) not in roots:
                stars.append(n)
            if isinstance(n, ast.SelectStmt) and n.fromClause and (len(n.fromClause) > 1 or isinstance(n.fromClause[0], ast.JoinExpr)):
                several.append(n)
            if isinstance(n, ast.SelectStmt) and n.sortClause and n.op is not None and n.op.name != "SETOP_NONE":
                _check_set_operation_sort(n)
        ctes = p.cte_names(node) if withs else set()
        if stars:
            for ref in stars:
                if id(ref) in whole and not outer_joins:  # row_to_json(x.*): the whole row x, as PostgreSQL reads it (the engine refused it;
                    # an outer join's missing row is told from a row of NULLs only where a column of it is known never NULL)
                    ref.fields = ref.fields[:-1]
            if expanded.intersection(map(id, stars)):
                self._expanded_rows(node, {id(n) for n in stars if id(n) in expanded}, ctes)
        for stmt in several:
            scopes.check_duplicate_names(stmt, ctes)
        for stmt in locked:
            locking.check(stmt, ctes)
        if withs:
            recursive.prepare(node)
        if subqueries:
            scopes.check(node)
            scopes.check_unqualified(node, self.columns_of)
        if sublinks:
            scopes.check_outer_aggregates(node, self.columns_of)
        if aliased_joins:
            scopes.check_join_aliases(node, self.columns_of)
        if empty_arrays:
            _check_empty_arrays(node)
        if nothing:
            _select_something(node)

    def _expanded_rows(self, node: ast.Node, stars: set[int], ctes: set[str]) -> None:
        """``ROW(x.*, ...)``: the star (``stars``: their ids) is ``x``'s
        columns, each as ``x.col`` (the engine refused it), where the one
        FROM item named ``x`` has known columns."""
        items: dict[str, list] = {}
        for item in walk(node):
            if isinstance(item, (ast.RangeVar, ast.RangeSubselect, ast.RangeFunction)):
                name = item.alias.aliasname if item.alias is not None else getattr(item, "relname", None)
                if name is not None:
                    items.setdefault(name, []).append(item)
        for row in walk(node):
            if not isinstance(row, ast.RowExpr) or not any(id(a) in stars for a in row.args or ()):
                continue
            args = []
            for a in row.args:
                found = items.get(a.fields[-2].sval, []) if id(a) in stars else []
                names = self._item_columns(found[0], ctes) if len(found) == 1 else None
                if names is None:
                    args.append(a)
                    continue
                if isinstance(found[0], ast.RangeFunction) and not found[0].alias.colnames:
                    args.append(ast.ColumnRef(fields=a.fields[:-1]))  # a function's one column: the function's name for it
                    continue
                args += [ast.ColumnRef(fields=(*a.fields[:-1], ast.String(sval=c))) for c in names]
            row.args = tuple(args)

    def _row_fields(self, n: ast.Node) -> list[ast.Node] | None:
        """The fields of ``n`` when it is plainly a row: a ROW(...) of some,
        or a whole-row reference ``t`` (its columns as ``t.col``)."""
        if isinstance(n, ast.RowExpr) and n.args:
            return list(n.args)
        if isinstance(n, ast.ColumnRef) and (found := row_columns(n, self._columns)) is not None and found[0]:
            return [ast.ColumnRef(fields=(*n.fields, ast.String(sval=name))) for name, _t in found[0]]
        if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds and isinstance(made := _made_type(n.typeName), CompositeType) \
                and made.fields:  # a cast to a composite type: (x).field of each
            return [ast.A_Indirection(arg=copy_tree(n), indirection=(ast.String(sval=f),)) for f, _t in made.fields]
        return None

    def _missing_row_null(self, ref: ast.ColumnRef, present: str | None) -> ast.Node:
        """A whole-row reference ``t`` to a FROM item an outer join may give
        a missing row of, NULL for that row as in PostgreSQL: the engine's
        is a row of NULLs, which count(t) counted, ``t IS NULL`` called not
        NULL and ``t::text`` printed ``(,)``. A missing row is told from a
        row of NULLs by a column of it never NULL otherwise (``present``:
        a key, a NOT NULL column, a join column); without one, 0A000."""
        if present is None:
            raise not_supported(f'the whole row of "{ref.fields[0].sval}", which an outer join may leave missing, '
                                "without a column of it known never NULL (a key or a NOT NULL column)")
        self._cast.add(id(ref))
        return expand("CASE WHEN _arg1 IS NULL THEN NULL ELSE _arg2 END", [ast.ColumnRef(fields=(*ref.fields, ast.String(sval=present))), ref])

    def _item_columns(self, item: ast.Node, ctes: set[str]) -> list[str] | None:
        """The column names of a FROM item (a function's is its alias, or its
        column aliases); None when not known."""
        if isinstance(item, ast.RangeFunction):
            if item.alias is None or len(item.functions or ()) != 1:
                return None
            return [c.sval for c in item.alias.colnames] if item.alias.colnames else [item.alias.aliasname]
        return scopes.output_names(item, ctes, self.columns_of)

    def columns_of(self, rv: ast.RangeVar) -> list[str] | None:
        """The column names of the table or view ``rv`` names, None when it
        names none."""
        return self.catalog.column_names(rv, self.search_path)

    def _finish(self, pg: str) -> str:
        if self.dialect != "duckdb":
            if "txngate_struct(" in pg:
                raise not_supported("composite types on Spark")
            return pg
        sql = transpile(pg)
        return _STRUCT_TYPE.sub(lambda m: self._structs[int(m.group(1))], sql) if self._structs else sql

    def rewrite(self, node: ast.Node, outputs: bool = False) -> ast.Node:
        """A copy of ``node`` rewritten; ``outputs``: it is the statement
        whose result the client gets (computed jsonb is printed canonically)."""
        node = functions.inline(copy_tree(node), self.catalog, self.search_path)  # SQL functions' bodies where they are called
        _without_collations(node)
        self._shape(node)
        ctes, char_casts, shapes = set(), False, set()  # one walk for all: the reshaping below is rarely needed
        for n in walk(node):
            if isinstance(n, ast.CommonTableExpr):
                ctes.add(n.ctename)
                shapes.add("named")
            elif isinstance(n, ast.TypeCast) and char_cast_length(n) is not None:
                char_casts = True
            elif isinstance(n, ast.RangeSubselect):
                shapes.add("named")
            elif isinstance(n, ast.SelectStmt) and n.op is not None and n.op.name != "SETOP_NONE":
                shapes.add("set operation")
            elif isinstance(n, ast.FuncCall) and n.funcname[-1].sval in _CAST_FUNCTIONS:
                shapes.add("cast")
            elif isinstance(n, ast.JoinExpr) and (n.usingClause or n.isNatural):
                shapes.add("merge")
            elif isinstance(n, ast.RangeVar) and n.catalogname is None:
                self._relations.append((n.relname, n.schemaname))  # (before they are renamed: the domains of their columns)
            elif isinstance(n, ast.A_Indirection) and any(isinstance(i, ast.A_Star) for i in n.indirection):
                shapes.add("field star")
        if "field star" in shapes:
            _expand_field_stars(node)
        if self.dialect == "duckdb" and "set operation" in shapes:
            _wrap_values_arms(node)
        if self.dialect == "duckdb" and "named" in shapes:
            _name_subquery_outputs(node)
        if "cast" in shapes:
            _function_casts(node)  # (after the names: float8(x) is named float8)
        if "merge" in shapes:
            for n in list(walk(node)):
                if isinstance(n, ast.SelectStmt) and n.fromClause and n.targetList and any(_merges(f) for f in n.fromClause):
                    self._star_of_merged(n, ctes)  # before the columns are resolved (the merged ones' types) and renamed
                    self._widen_merged(n, ctes)
        columns = self._columns = resolve(node, self.catalog, self.search_path, self._column_types(node), _output_type,
                                          check_set_operations=not self.written)
        self._nullable = _nullable_items(node) if self._outer_joins else set()  # (a walk of the whole statement: only when it has one)
        if self.dialect == "duckdb" and isinstance(node, ast.SelectStmt) and (node.withClause is not None or any(
                isinstance(f, (ast.RangeSubselect, ast.JoinExpr)) for f in node.fromClause or ())):
            columns = self._columns = columns.derived(jsonops.with_derived(node, columns))  # a FROM subquery's jsonb outputs sort as jsonb
        arrays = self._arrays = columns.derived({name: t for name, t in columns.items() if t.endswith("[]")}, lambda t: t.endswith("[]"))
        chars = char_casts or any(is_char(t) for t in columns.values()) or self._reads_char_columns(node)
        self._scales = decimals.Scales(columns, lambda x: _operand_type(x, columns, floats=True))
        if outputs and self.dialect == "duckdb" and isinstance(node, ast.SelectStmt):
            jsonops.canonical_outputs(node, columns)
            for leaf in (decimals.set_operation_leaves(node) or ()) if node.op is not None and node.op.name != "SETOP_NONE" else ():
                jsonops.canonical_outputs(leaf, columns, ("jsonb",))  # each arm's computed jsonb, as the column prints
            texted = {}
            for i in exact_divisions(node, columns):
                texted[i] = copy_tree(node.targetList[i].val)
                node.targetList[i].val = _shown_numeric(node.targetList[i].val, columns)
            sorted_by_values(node, texted)
            for leaf in (decimals.set_operation_leaves(node) or ()) if node.op is not None and node.op.name != "SETOP_NONE" else (node,):
                _carried_intervals(leaf, columns)
        if self.dialect == "duckdb":
            for sub in _named_subqueries(node):  # their jsonb outputs are read by name: canonical at the source (json keeps its text)
                jsonops.canonical_outputs(sub, columns, ("jsonb",))
            self._cast |= _decimal_quotients(node, columns)  # (casts of text: never a float's digits)
        for n in walk(node):
            if isinstance(n, ast.A_Expr):
                _arithmetic_typed_constants(n, columns)
            if isinstance(n, ast.A_Expr) and _column_typed_constants(n, columns):
                self.out.uncacheable = True  # read by the session's DateStyle
            if isinstance(n, ast.WindowDef) and self.dialect == "duckdb":
                _range_offsets(n, columns)
            if isinstance(n, (ast.SelectStmt, ast.InsertStmt, ast.UpdateStmt, ast.DeleteStmt)) and n.withClause is not None \
                    and n.withClause.recursive:
                _check_recursive_types(n.withClause, columns)
            if isinstance(n, ast.SelectStmt):
                _check_boolean(n.whereClause, "WHERE", columns, self._arrays)
                _check_boolean(n.havingClause, "HAVING", columns, self._arrays)
            if isinstance(n, ast.SelectStmt) and n.groupClause and n.fromClause:
                _group_by_output_names(n)
                if self.dialect == "duckdb":
                    _constant_groups(n)
                self._group_dependents(n, ctes)  # before its RangeVars are renamed
            if isinstance(n, ast.SelectStmt) and n.sortClause and n.targetList:
                _check_sort_names(n)  # before its expressions are rewritten
            if isinstance(n, ast.SelectStmt) and (n.sortClause or n.distinctClause) and n.targetList and (n.op is None or n.op.name == "SETOP_NONE"):
                _sort_by_output_names(n)
            if isinstance(n, ast.SelectStmt) and n.sortClause and self.dialect == "duckdb":
                jsonops.sort_outputs(n, columns)
            if isinstance(n, ast.SelectStmt) and n.valuesLists and len(n.valuesLists) > 1:
                _type_unknown_values(n)
            elif isinstance(n, ast.SelectStmt) and n.op is not None and n.op.name != "SETOP_NONE":
                self._type_string_arms(n)
            if isinstance(n, ast.SortBy) and n.sortby_dir == SortByDir.SORTBY_USING:
                _sort_using(n)
            if isinstance(n, ast.SelectStmt) and n.fromClause and any(isinstance(f, ast.JoinExpr) for f in n.fromClause):
                _join_using_aliases(n)
            if isinstance(n, ast.RangeVar):
                self._rename(n, ctes)
            elif isinstance(n, ast.FuncCall):
                _widen_array_argument(n, self._arrays, columns)
                _rename_function(n, self.dialect)
                if self.dialect == "duckdb":
                    _pg_function(n)
            elif isinstance(n, ast.TypeCast):
                if n.typeName.names[-1].sval in FLOAT_NAMES and isinstance(n.arg, ast.A_Const) and isinstance(n.arg.val, ast.Float):
                    self._cast.add(id(n.arg))  # 1e100::float8: a double as DuckDB reads it, not a numeric first
                if _text_read_at_run_time(n, columns):
                    self.out.uncacheable = True  # read by the session's DateStyle
                if self.dialect == "duckdb":
                    jsonops.canonical_cast(n, columns)
                    _oid_cast(n, columns)
                if _pg_casts(n):
                    self.out.uncacheable = True  # read by the session's DateStyle
            elif isinstance(n, ast.GroupingSet) and n.content:
                # an expression in GROUPING SETS, ROLLUP or CUBE kept in its parentheses (the deparser dropped
                # them: GROUPING SETS ((g), (v IS NULL)) became (g, v IS NULL), which the engine's parser refused)
                n.content = tuple(c if isinstance(c, (ast.ColumnRef, ast.A_Const, ast.RowExpr, ast.GroupingSet))
                                  else ast.RowExpr(args=(c,), row_format=CoercionForm.COERCE_IMPLICIT_CAST) for c in n.content)
            elif isinstance(n, ast.SelectStmt) and (n.limitCount is not None or n.limitOffset is not None):
                _check_limits(n)
                if n.limitOption == LimitOption.LIMIT_OPTION_WITH_TIES:
                    if not n.sortClause:
                        raise SqlError(SYNTAX_ERROR, "WITH TIES cannot be specified without ORDER BY clause")
                    raise not_supported("FETCH FIRST ... WITH TIES")  # (the engine cut at the count, the tied rows dropped)
            elif isinstance(n, ast.ColumnRef) and len(n.fields) >= 3 and isinstance(n.fields[-1], (ast.String, ast.A_Star)):
                n.fields = n.fields[-2:]  # schema.table.column: the table's alias is its name
            elif isinstance(n, ast.A_Expr) and n.name and len(n.name) == 2 and n.name[0].sval == "pg_catalog":
                n.name = n.name[1:]  # OPERATOR(pg_catalog.~)
            elif isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in _ARITHMETIC:
                if n.name[-1].sval != "/":  # a typed division becomes sqlglot's bigint TRUNC(a / b)
                    replace_children(n, _int4_constant)
                if arrays:
                    _array_operands(n, arrays)
            elif isinstance(n, ast.A_Expr):
                _array_operands(n, arrays)
            elif isinstance(n, (ast.CoalesceExpr, ast.MinMaxExpr, ast.A_ArrayExpr)):
                replace_children(n, _int4_constant)  # COALESCE(smallint, 100) is integer, ARRAY[7, smallint] integer[]
            elif isinstance(n, ast.CaseExpr):
                n.defresult = _int4_constant(n.defresult) or n.defresult
                for w in n.args:
                    w.result = _int4_constant(w.result) or w.result
            if self.dialect == "duckdb":
                self._scales.unify(n)
            if chars and id(n) not in self._trimmed:
                self._trim_char_operands(n)
            if isinstance(n, ast.SelectStmt) and n.lockingClause:
                n.lockingClause = None  # FOR UPDATE/SHARE: serializable commits need no row locks
            replace_children(n, self._substitute)
        if self.dialect == "duckdb":
            _filtered_arguments_lazy(node)  # last: the rewrites above read the arguments' types
        return node

    def _reads_char_columns(self, node: ast.Node) -> bool:
        """A relation ``node`` reads has a char(n) column (under a name
        another relation's column of another type shares, it is not among
        the statement's column types)."""
        for n in walk(node):
            if isinstance(n, ast.RangeVar) and n.catalogname is None:
                rel = self.catalog.lookup(n.relname, n.schemaname, self.search_path)
                if rel is not None and any(is_char(c.type) for c in rel.columns):
                    return True
        return False

    def _column_types(self, node: ast.Node) -> dict[str, str]:
        found = column_types(node, self.catalog, self.search_path)
        for rel in self.given.values():
            for col in rel.columns:
                if found.setdefault(col.name, col.type) != col.type:
                    found.pop(col.name)  # two types by one name: none
        return found

    @property
    def pg(self):
        if self._pg is None:
            self._pg = self.emulation(self.catalog)
        return self._pg

    def _substitute(self, n: ast.Node) -> ast.Node | None:
        if isinstance(n, ast.A_Const) and isinstance(n.val, ast.BitString):
            raise not_supported("bit string constants")  # (the engine read B'1010' as the integer 10, X'1F' as a bytea)
        if isinstance(n, ast.TypeCast) and n.typeName.names[-1].sval in BIT_TYPES:
            raise not_supported(f"type {n.typeName.names[-1].sval}")
        if (pairwise := _row_comparison(n)) is not None:
            return pairwise
        if self.dialect == "duckdb" and (quantified := _correlated_row_quantified(n)) is not None:
            return quantified
        if self.dialect == "duckdb" and (widened := _real_widened(n, self._columns)) is not None:
            return widened
        if self.dialect == "duckdb" and isinstance(n, ast.TypeCast) and id(n) not in self._cast and (made := self._made_type_cast(n)) is not None:
            return made
        if self.dialect == "duckdb" and id(n) not in self._cast and (ordered := self._enum_ordered(n)) is not None:
            return ordered
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "overlaps" and len(n.args or ()) == 4 and not n.over:
            return _overlaps([self._period_end(n.args[0], e) if i % 2 else n.args[i] for i, e in enumerate(n.args)])
        if self.dialect == "duckdb" and isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds \
                and n.typeName.names[-1].sval in ("text", "varchar") and _is_bytea(n.arg, self._columns):
            # a bytea as text is its output, hex (the engine's cast decoded the bytes: '\x616263'::bytea::text was 'abc')
            shown = expand("'\\x' || lower(hex(_arg1))", [n.arg])
            return ast.TypeCast(arg=shown, typeName=n.typeName) if n.typeName.typmods else shown  # (varchar(n) cuts it)
        if isinstance(n, ast.NullTest) and (fields := self._row_fields(n.arg)):
            # a row IS NULL when every field is, IS NOT NULL when none is (the engine tested the row value itself)
            tests = tuple(ast.NullTest(arg=f, nulltesttype=n.nulltesttype, location=n.location) for f in fields)
            return tests[0] if len(tests) == 1 else ast.BoolExpr(boolop=BoolExprType.AND_EXPR, args=tests)
        if isinstance(n, ast.ColumnRef) and self._nullable and id(n) not in self._cast and len(n.fields) == 1 \
                and isinstance(n.fields[0], ast.String) and n.fields[0].sval in self._nullable \
                and (found := row_columns(n, self._columns)) is not None:
            return self._missing_row_null(n, found[1])
        if self.dialect == "duckdb" and isinstance(n, ast.A_Indirection) and n.indirection \
                and all(isinstance(i, ast.A_Indices) for i in n.indirection) and (depth := _array_depth(n.arg, self._columns)) > 1 \
                and (subscripts := _multidimensional_subscripts(n, depth, self._columns)) is not None:
            return subscripts
        if self.dialect == "duckdb" and isinstance(n, ast.A_Indirection) and id(n) not in self._cast and n.indirection \
                and all(isinstance(i, ast.A_Indices) for i in n.indirection) and _maybe_list(n.arg, self._columns) \
                and jsonops.kind(n.arg, self._columns) is None:
            self._cast.add(id(n))
            n.indirection = tuple(_bounded(i) for i in n.indirection)
        if isinstance(n, ast.FuncCall) and n.func_variadic:
            expanded = _variadic(n)
            return self._substitute(expanded) or expanded
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("num_nulls", "num_nonnulls") and len(n.funcname) == 1 and n.args:
            # the count of NULL (or non-NULL) arguments, of any types
            test = "IS NULL" if n.funcname[-1].sval == "num_nulls" else "IS NOT NULL"
            return expand("CAST((" + " + ".join(f"(CASE WHEN _arg{i + 1} {test} THEN 1 ELSE 0 END)" for i in range(len(n.args))) + ") AS int4)",
                          list(n.args))
        if isinstance(n, ast.FuncCall) and self.dialect == "duckdb" and (trunc := _date_trunc(n, self._columns)) is not None:
            return trunc
        if self.dialect == "duckdb" and isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "%" \
                and n.lexpr is not None and id(n) not in self._cast \
                and all(_operand_type(x, self._columns) in INTEGER_TYPES for x in (n.lexpr, n.rexpr)):
            # x % -1 is 0 in PostgreSQL, the smallest integer's too (the engine's overflows dividing it by -1)
            self._cast.add(id(n))
            remainder = expand("CASE WHEN _arg2 = -1 THEN _arg1 - _arg1 END", [n.lexpr, n.rexpr])
            remainder.defresult = n  # itself (a copy would be rewritten again)
            return remainder
        if self.dialect == "duckdb" and isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "/" \
                and n.lexpr is not None and id(n) not in self._cast \
                and all(_operand_type(x, self._columns) in ("smallint", "integer") for x in (n.lexpr, n.rexpr)):
            # integer / integer is an integer (the engine's transpiled division is a bigint: ARRAY[s / 2, i] was bigint[])
            self._cast.add(id(n))
            width = "smallint" if all(_operand_type(x, self._columns) == "smallint" for x in (n.lexpr, n.rexpr)) else "integer"
            n.lexpr, n.rexpr = _cast_to(n.lexpr, width), _cast_to(n.rexpr, width)  # (smallint / -1 is an integer's division)
            return _cast_to(n, width)
        if isinstance(n, ast.GroupingFunc) and id(n) not in self._cast:
            self._cast.add(id(n))
            return _cast_to(n, "integer")  # PostgreSQL's grouping() is an integer (the engine's a bigint)
        if self.dialect == "duckdb" and isinstance(n, ast.A_Const) and isinstance(n.val, ast.Float) and id(n) not in self._cast:
            return _numeric_constant(n)
        if self.dialect == "duckdb" and isinstance(n, ast.TypeCast) and n.typeName.names[-1].sval == "time" and not n.typeName.arrayBounds \
                and _datetime_kind(n.arg, self._columns) == "timestamptz":  # DuckDB casts a timestamptz to time only by way of its local timestamp
            return _cast_to(_cast_to(n.arg, "timestamp"), "time")
        if self.dialect == "duckdb" and isinstance(n, ast.TypeCast) and id(n) not in self._cast \
                and (precision := fraction_precision(n.typeName)) is not None:
            # timestamp(p), time(p): rounded to p fraction digits (DuckDB keeps all six)
            n.typeName = ast.TypeName(names=n.typeName.names, typemod=-1)
            self._cast.add(id(n))
            kind = canonical(n.typeName)
            return n if precision == 6 else ast.FuncCall(funcname=(ast.String(sval=f"txngate_round_{'time' if kind == 'time' else 'timestamp'}"),),
                                                         args=(n, ast.A_Const(val=ast.Integer(ival=precision))))
        if self.dialect == "duckdb" and isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "unnest" and len(n.args or ()) == 1 \
                and ((depth := _array_depth(n.args[0], self._columns)) > 1 or isinstance(n.args[0], ast.ColumnRef)):
            # unnest of a multidimensional array: every element; of a column whose dimensions are not known here, checked
            n.args = (_flattened(n.args[0], self._columns) if depth > 1 else _one_dimension(n.args[0]),)
            return n
        if self.dialect == "duckdb" and isinstance(n, ast.TypeCast) and n.typeName.names[-1].sval == "numeric" and n.typeName.typmods \
                and isinstance(n.typeName.typmods[0], ast.A_Const) and isinstance(n.typeName.typmods[0].val, ast.Integer) \
                and n.typeName.typmods[0].val.ival > 38:
            # numeric(50,2): computed in DuckDB's 38 digits (as stored: storage.persist.codec)
            n.typeName = ast.TypeName(names=n.typeName.names, typemod=-1, arrayBounds=n.typeName.arrayBounds,
                                      typmods=(ast.A_Const(val=ast.Integer(ival=38)),) + tuple(n.typeName.typmods[1:]))
        if isinstance(n, ast.TypeCast) and _plain_numeric_cast(n) and id(n) not in self._cast \
                and not (isinstance(n.arg, ast.A_Const) and not isinstance(n.arg.val, ast.Integer)):  # (others are read when bound)
            return self._numeric_cast(n)
        if self.dialect == "duckdb" and isinstance(n, ast.TypeCast) and n.typeName.names[-1].sval in ("numeric", "decimal") \
                and n.typeName.typmods and not n.typeName.arrayBounds and id(n) not in self._cast and not isinstance(n.arg, ast.A_Const) \
                and jsonops.kind(n.arg, self._columns) != "jsonb" and _operand_type(n.arg, self._columns, floats=True) not in _EXACT_SOURCES:
            return self._float_numeric_cast(n)
        if self.dialect == "duckdb" and isinstance(n, ast.TypeCast) and len(n.typeName.arrayBounds or ()) == 1 and (depth := _array_depth(n.arg)) > 1:
            # ARRAY[[1,2],[3,4]]::bigint[]: PostgreSQL's array types have any number of dimensions, DuckDB's lists one each
            n.typeName = ast.TypeName(names=n.typeName.names, typmods=n.typeName.typmods, typemod=-1, arrayBounds=n.typeName.arrayBounds * depth)
        if self.dialect == "duckdb" and isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||" \
                and any(_maybe_interval(x, self._columns) for x in (n.lexpr, n.rexpr)):
            # text || interval: the interval's text as PostgreSQL prints it (``1 mon``, DuckDB's ``1 month``)
            n.lexpr, n.rexpr = (ast.FuncCall(funcname=(ast.String(sval="txngate_cast_text"),), args=(x,)) if _maybe_interval(x, self._columns) else x
                                for x in (n.lexpr, n.rexpr))
        if self.dialect == "duckdb" and isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||" \
                and n.lexpr is not None and any(_plainly_text(x, self._columns) for x in (n.lexpr, n.rexpr)):
            # text || numeric: an unconstrained numeric's text without the zeros of its 10 places (1.5x, not 1.5000000000x)
            n.lexpr, n.rexpr = (ast.FuncCall(funcname=(ast.String(sval="txngate_cast_text"),), args=(x,))
                                if not _plainly_text(x, self._columns) and not _texted(x) and _maybe_unconstrained(x, self._columns)
                                and not self._fixed_scale(x) else x
                                for x in (n.lexpr, n.rexpr))
        if self.dialect == "duckdb" and isinstance(n, ast.TypeCast) and id(n) not in self._cast and not n.typeName.arrayBounds \
                and n.typeName.names[-1].sval.lower() == "json" and jsonops.kind(n.arg, self._columns) is None:
            # text to json: read strictly, as PostgreSQL's input (the engine's allows '[1,]' and NaN)
            self._cast.add(id(n))
            n.arg = ast.FuncCall(funcname=(ast.String(sval="txngate_json_input"),), args=(n.arg,))
            return n
        if self.dialect == "duckdb" and isinstance(n, ast.TypeCast) and id(n) not in self._cast and not n.typeName.arrayBounds \
                and (target := _JSONB_SCALAR_TARGETS.get(n.typeName.names[-1].sval.lower())) and jsonops.kind(n.arg, self._columns) == "jsonb":
            # jsonb to boolean or a number: only of a value of that kind (DuckDB read null as NULL and 1 as true)
            self._cast.add(id(n))
            n.arg = ast.FuncCall(funcname=(ast.String(sval="txngate_jsonb_scalar_text"),), args=(n.arg, _constant(target)))
            return n
        if self.dialect == "duckdb" and isinstance(n, ast.TypeCast) and id(n) not in self._cast and (text := _cast_text(n, self._columns, self._fixed_scale)):
            return text  # (a cast to text inside its argument is rewritten in turn: string_to_array(a::text, ' ')::text)
        if self.dialect == "duckdb" and (length := char_cast_length(n)) is not None:
            # character(n): cut to n and padded with spaces to n (DuckDB's CHAR(n) is varchar)
            return expand(f"rpad(CAST(_arg1 AS VARCHAR), {length}, ' ')", [n.arg])
        if self.dialect == "duckdb" and isinstance(n, ast.TypeCast) and len(n.typeName.arrayBounds or ()) == 1 \
                and (length := char_cast_length(ast.TypeCast(arg=n.arg, typeName=ast.TypeName(names=n.typeName.names, typmods=n.typeName.typmods)))) is not None:
            return expand(f"txngate_padded_list(CAST(_arg1 AS VARCHAR[]), {length})", [n.arg])  # character(n)[]: each element so
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "div" and len(n.funcname) == 1 and len(n.args or ()) == 2:
            _check_div_arguments(n, self._columns)
        if self.dialect == "duckdb" and (exact := self._scales.exact_remainder(n)) is not None:
            return exact
        if self.dialect == "duckdb" and (wide := _wide_product(n, self._columns)) is not None:
            return wide
        if self.dialect == "duckdb" and isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "^" \
                and n.lexpr is not None:
            # (an untyped string operand is of the other's type: numeric beside a numeric, else double precision)
            left, right = (_cast_to(x, "numeric" if _operand_type(other, self._columns, floats=True) == "numeric" else "float8")
                           if isinstance(x, ast.A_Const) and isinstance(x.val, ast.String) else x
                           for x, other in ((n.lexpr, n.rexpr), (n.rexpr, n.lexpr)))
            return ast.FuncCall(funcname=(ast.String(sval="txngate_power"),), args=(left, right))  # PostgreSQL's errors
        if self.dialect == "duckdb" and isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("<<", ">>") \
                and n.lexpr is not None and (width := _SHIFT_WIDTHS.get(_operand_type(n.lexpr, self._columns))) is not None:
            return _bit_shift(n, width)
        if isinstance(n, ast.RangeFunction) and self.dialect == "duckdb" and len(n.functions) == 1 \
                and isinstance(n.functions[0][0], ast.FuncCall) and (series := _date_series(n.functions[0][0], self._columns)) is not None:
            n.functions = ((series, *n.functions[0][1:]),)
        if isinstance(n, ast.RangeFunction) and id(n) not in self._cast:
            zipped = _zipped_unnest(n, self._columns) or _table_function(n, self._columns)
            if zipped is not None:
                self._cast.update(id(m) for m in walk(zipped) if isinstance(m, ast.RangeFunction))  # rewritten already
                return zipped
        if isinstance(n, ast.A_Expr) and isinstance(n.rexpr, ast.FuncCall) and n.rexpr.funcname[-1].sval == "like_escape" and self.dialect == "duckdb":
            return _like_escape(n)
        if self.dialect == "duckdb" and _escapes_by_backslash(n):
            return _like_escape(n, ast.A_Const(val=ast.String(sval="\\")))
        if isinstance(n, ast.A_Expr) and n.kind in (A_Expr_Kind.AEXPR_OP_ANY, A_Expr_Kind.AEXPR_OP_ALL) \
                and n.name[-1].sval in _PATTERN_OPERATORS and self.dialect == "duckdb":
            return _pattern_quantified(n)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("~", "!~") and self.dialect == "spark" \
                and isinstance(n.rexpr, ast.A_Const) and isinstance(n.rexpr.val, ast.String) and not n.rexpr.val.sval.startswith("(?s)"):
            n.rexpr = _constant("(?s)" + n.rexpr.val.sval)  # Spark's RLIKE: . matches a line break too, as in PostgreSQL's
            return n
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in _REGEX_OPTIONS and n.lexpr is not None \
                and self.dialect == "duckdb":
            # ~ and its kin as the engine's match, where . and [^a] match a line break too, as in PostgreSQL's
            # expressions (the engine's default is newline-sensitive: E'a\nb' ~ 'a.b' was false)
            op = n.name[-1].sval
            match = ast.FuncCall(funcname=(ast.String(sval="regexp_matches"),), args=(n.lexpr, n.rexpr, _constant(_REGEX_OPTIONS[op])))
            if _backreferences(n.rexpr):  # (the engine's expressions have no back references: local_exec.regex's)
                match = ast.FuncCall(funcname=(ast.String(sval="txngate_regexp_like"),), args=(n.lexpr, n.rexpr, _constant("i" if "*" in op else "")))
            self._cast.add(id(match))  # (the engine's own, not PostgreSQL's set-returning regexp_matches)
            return ast.BoolExpr(boolop=BoolExprType.NOT_EXPR, args=(match,)) if op.startswith("!") else match
        if isinstance(n, ast.A_Expr) and n.kind in (A_Expr_Kind.AEXPR_OP_ANY, A_Expr_Kind.AEXPR_OP_ALL) \
                and isinstance(n.rexpr, ast.A_Const) and isinstance(n.rexpr.val, ast.String) \
                and (element := self._known_type(n.lexpr)) is not None:
            n.rexpr = _cast_to(n.rexpr, element + "[]")  # x = ANY ('{1,2,3}'): an array of x's type, as PostgreSQL reads it
        if isinstance(n, ast.A_Expr) and n.kind in (A_Expr_Kind.AEXPR_OP_ANY, A_Expr_Kind.AEXPR_OP_ALL) and self.dialect == "duckdb" \
                and isinstance(n.rexpr, ast.SubLink) and n.rexpr.subLinkType == SubLinkType.ARRAY_SUBLINK:
            # x op ANY (ARRAY(SELECT ...)) as x op ANY (SELECT ...): the same rows (the engine compared x with the list)
            kind = SubLinkType.ANY_SUBLINK if n.kind == A_Expr_Kind.AEXPR_OP_ANY else SubLinkType.ALL_SUBLINK
            return ast.SubLink(subLinkType=kind, testexpr=n.lexpr, operName=n.name, subselect=n.rexpr.subselect)
        if self.dialect == "duckdb" and (found := _element_search(n, self._columns)) is not None:
            return found
        if self.dialect == "duckdb" and isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("degrees", "radians") \
                and len(n.funcname) == 1 and len(n.args or ()) == 1 and not n.over and not n.agg_star and id(n) not in self._cast:
            # by PostgreSQL's radians per degree, one division or product (the engine's differ in the last digit)
            self._cast.add(id(n))
            op = "/" if n.funcname[-1].sval == "degrees" else "*"
            converted = expand(f"CAST(_arg1 AS float8) {op} CAST(0.0174532925199432957692 AS float8)", list(n.args))
            return self._float_checked(converted) or converted  # (degrees(1e308) overflows)
        if isinstance(n, ast.A_Expr) and n.kind in (A_Expr_Kind.AEXPR_OP_ANY, A_Expr_Kind.AEXPR_OP_ALL) and id(n) not in self._cast \
                and not isinstance(n.rexpr.arg if isinstance(n.rexpr, ast.TypeCast) else n.rexpr, ast.A_ArrayExpr):
            self._cast.add(id(n))  # x op ANY/ALL (NULL) is NULL in PostgreSQL, a boolean in DuckDB
            return ast.CaseExpr(args=(ast.CaseWhen(expr=ast.NullTest(arg=n.rexpr, nulltesttype=NullTestType.IS_NULL), result=ast.A_Const(isnull=True)),), defresult=n)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_SIMILAR:
            return _similar(n, self.dialect)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "-" and self.dialect == "duckdb" \
                and n.lexpr is not None and "timestamptz" in (kinds := (_datetime_kind(n.lexpr, self._columns), _datetime_kind(n.rexpr, self._columns))) \
                and all(k in ("timestamptz", "timestamp", "date") for k in kinds):
            return _instants_apart(n, kinds)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "-" and self.dialect == "duckdb" \
                and id(n) not in self._cast and _is_date(n.lexpr, self._columns) and _is_date(n.rexpr, self._columns):
            self._cast.add(id(n))  # date - date: PostgreSQL's integer (DuckDB's bigint)
            return ast.TypeCast(arg=n, typeName=ast.TypeName(names=(ast.String(sval="int4"),), typemod=-1))
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "/" and self.dialect == "duckdb" \
                and id(n) not in self._cast and all(isinstance(x, ast.A_Const) and isinstance(x.val, ast.Integer) for x in (n.lexpr, n.rexpr)):
            self._cast.add(id(n))  # 7 / 2: integer, as PostgreSQL's (sqlglot makes it a bigint)
            return ast.TypeCast(arg=n, typeName=ast.TypeName(names=(ast.String(sval="int4"),), typemod=-1))
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("/", "%", "&", "|", "#") \
                and self.dialect == "duckdb" and id(n) not in self._cast and n.lexpr is not None \
                and sorted(_operand_type(x, self._columns) or "" for x in (n.lexpr, n.rexpr)) == ["integer", "smallint"] \
                and any(isinstance(x, ast.A_Const) and isinstance(x.val, ast.Integer) for x in (n.lexpr, n.rexpr)):
            # smallint / 3 and smallint & 3: integers, as PostgreSQL's (DuckDB fits the literal to smallint, and s + s / 3
            # overflowed)
            self._cast.add(id(n))
            side = n.lexpr if _operand_type(n.lexpr, self._columns) == "smallint" else n.rexpr
            widened = ast.TypeCast(arg=side, typeName=ast.TypeName(names=(ast.String(sval="int4"),), typemod=-1))
            n.lexpr, n.rexpr = (widened, n.rexpr) if side is n.lexpr else (n.lexpr, widened)
            return n
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in _ARITHMETIC and n.lexpr is not None \
                and (typed := _typed_literal(n, self._columns)) is not None:
            return (self._float_checked(typed) if self.dialect == "duckdb" else None) or typed
        if self.dialect == "duckdb" and (checked := self._float_checked(n)) is not None:
            return checked
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "-" and n.lexpr is None \
                and self.dialect == "duckdb" and id(n) not in self._cast \
                and (width := _operand_type(n.rexpr, self._columns)) in INTEGER_TYPES:
            # -x of an integer is of x's type: DuckDB folds -(-9223372036854775808::int8) into a wider integer
            self._cast.add(id(n))
            return _cast_to(n, _NUMBER_TYPES[width])
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "@" and n.lexpr is None:
            return ast.FuncCall(funcname=(ast.String(sval="abs"),), args=(n.rexpr,))  # PostgreSQL's prefix @: the absolute value
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_NULLIF and self.dialect == "duckdb" and id(n) not in self._cast:
            # NULLIF(a, b) compares in the common type (DuckDB casts b to a's: NULLIF(int, 1e300) overflowed) and
            # answers a's value in it: NULLIF(b, b) is a NULL of b's type, which makes the CASE's type the common
            # one, where a is an integer of b (NULLIF(int, 0.001) is numeric) or a string constant; else a's type
            # (a NULL of no type): DuckDB's common type of numerics may cut a's places (NULLIF(0.001, CASE ...
            # 100.0 ... END) gave 0.00), where PostgreSQL's numeric keeps them all
            if self._may_be_char(n.lexpr) and _text_operand(n.rexpr, _found(self._columns)):
                n.lexpr = self._char_operand(n.lexpr)  # beside a text, compared and answered as text: no padding
            a_width, b_width = _operand_type(n.lexpr, self._columns), _operand_type(n.rexpr, self._columns)
            common = isinstance(n.lexpr, ast.A_Const) and isinstance(n.lexpr.val, ast.String) or a_width is not None and b_width is None
            if _operand_type(n, self._columns, floats=True) == "double precision" and a_width != "double precision":
                null = _cast_to(ast.A_Const(isnull=True), "float8")  # a numeric beside a double: compared and answered as doubles
            elif not common:
                null = ast.A_Const(isnull=True)  # integers compare across widths (int48eq, ...): the result keeps a's type
            elif a_width is not None and _operand_type(n.rexpr, self._columns, floats=True) == "numeric":
                null = _cast_to(ast.A_Const(isnull=True), decimals.computed_type(0))  # an integer as a numeric: no places
            else:
                null = ast.A_Expr(kind=A_Expr_Kind.AEXPR_NULLIF, name=(ast.String(sval="="),), lexpr=copy.deepcopy(n.rexpr),
                                  rexpr=copy.deepcopy(n.rexpr))
                self._cast.add(id(null))
            return ast.CaseExpr(args=(ast.CaseWhen(expr=ast.A_Expr(kind=A_Expr_Kind.AEXPR_OP, name=(ast.String(sval="="),), lexpr=n.lexpr,
                                                                    rexpr=n.rexpr), result=null),), defresult=copy.deepcopy(n.lexpr))
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "/" and self.dialect == "duckdb" \
                and _is_interval(n.lexpr, self._columns):
            # interval / n as PostgreSQL's interval_div: DuckDB has no interval division
            return expand("txngate_interval_div(_arg1, CAST(_arg2 AS double precision))", [_carried(n.lexpr), n.rexpr])
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "*" and n.lexpr is not None \
                and self.dialect == "duckdb" and _is_interval(n.lexpr, self._columns) != _is_interval(n.rexpr, self._columns):
            # interval * n (n * interval) as PostgreSQL's interval_mul: the engine's product rounds otherwise
            span, factor = (n.lexpr, n.rexpr) if _is_interval(n.lexpr, self._columns) else (n.rexpr, n.lexpr)
            return expand("txngate_interval_mul(_arg1, CAST(_arg2 AS double precision))", [_carried(span), factor])
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("justify_days", "justify_hours", "justify_interval") and len(n.args or ()) == 1 \
                and self.dialect == "duckdb" and id(n) not in self._cast:
            self._cast.add(id(n))
            n.args = (_carried(n.args[0]),)  # (the function reads it through Arrow)
            return n
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-") and n.lexpr is not None \
                and self.dialect == "duckdb":
            moved = _zoned_move(n, self._columns)
            if moved is not None:
                return moved
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("sum", "avg") and len(n.args or ()) == 1 and not n.agg_distinct \
                and not n.agg_order and self.dialect == "duckdb" and _is_interval(n.args[0], self._columns):
            return _interval_aggregate(n)
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("scale", "min_scale") and len(n.funcname) == 1 and len(n.args or ()) == 1 \
                and self.dialect == "duckdb" and (by_arms := _scale_by_arms(n, self._columns)) is not None:
            return by_arms
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "make_interval" and len(n.funcname) == 1 and self.dialect == "duckdb" \
                and not n.over:
            return _make_interval(n)
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("regexp_match", "regexp_matches") and self.dialect == "duckdb" \
                and id(n) not in self._cast:
            return _regexp_match(n)
        if isinstance(n, ast.FuncCall) and self.dialect == "duckdb" and id(n) not in self._cast:
            new = self._pg_function(n)
            if new is not None:
                return new
        if isinstance(n, ast.FuncCall) and self.dialect == "spark" and n.funcname[-1].sval == "round" and n.args:
            return self._rounded_numeric_cast(n.args)
        if isinstance(n, ast.TypeCast) and self.dialect == "spark" and n.typeName.names[-1].sval in ("numeric", "decimal") \
                and n.typeName.typmods and not n.typeName.arrayBounds and (digits := self._float_digits(n.arg)) is not None:
            n.arg = digits  # a double's numeric(p,s) is its 15 significant digits rounded (Spark rounded its binary fraction)
            return n
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("@>", "<@") and self.dialect == "duckdb" \
                and (_is_array(n.lexpr, self._arrays) or _is_array(n.rexpr, self._arrays)):
            _array_operands(n, self._arrays)
            outer, inner = (n.lexpr, n.rexpr) if n.name[-1].sval == "@>" else (n.rexpr, n.lexpr)
            return ast.FuncCall(funcname=(ast.String(sval="txngate_array_contains"),), args=(outer, inner))
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "array_agg" and len(n.args or ()) == 1 and self.dialect == "duckdb" \
                and id(n) not in self._cast and _is_array(n.args[0], self._arrays):
            self._cast.add(id(n))
            return ast.FuncCall(funcname=(ast.String(sval="txngate_stacked_arrays"),), args=(n,))
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||" and n.lexpr is not None:
            _check_concatenable(n, self._columns)
        if isinstance(n, ast.BoolExpr):
            word = {BoolExprType.AND_EXPR: "AND", BoolExprType.OR_EXPR: "OR"}.get(n.boolop, "NOT")
            for a in n.args or ():
                _check_boolean(a, word, self._columns, self._arrays)
        elif isinstance(n, ast.CaseExpr) and n.arg is None:
            for w in n.args or ():
                _check_boolean(w.expr, "CASE/WHEN", self._columns, self._arrays)
        if isinstance(n, ast.FuncCall) and n.agg_filter is not None and (window := _window_call(n.agg_filter)) is not None:
            raise SqlError("42P20", "window functions are not allowed in FILTER", position=_position(window))
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in _ORDERINGS and n.lexpr is not None:
            _check_comparable(n, n.lexpr, n.rexpr, self._columns)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_IN and isinstance(n.rexpr, (list, tuple)):
            for item in n.rexpr:
                _check_comparable(n, n.lexpr, item, self._columns)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||" and self.dialect == "duckdb":
            new = _array_concat(n, self._arrays, self._columns)
            if new is not None:
                return new
        if self.dialect == "duckdb" and (arms := _arms(n)) is not None and any(_is_array(a, self._arrays) for a in arms):
            _string_arms_as_arrays(n, arms, self._arrays, self._columns)
        if self.dialect == "duckdb":
            new = self._json(n)
            if new is not None:
                return new
        if isinstance(n, ast.FuncCall) and id(n) not in self._cast:
            result = self._result_type(n)
            if result is not None:
                self._cast.add(id(n))
                return _cast_to(n, result)
        if self.emulation is None:
            return None
        new = self._emulated(n)
        if new is not None:
            self.out.uncacheable = True
        return new

    def _widened_value(self, value: ast.Node, default: ast.Node) -> ast.Node | None:
        """``value`` cast to ``default``'s type where that is the wider number
        type, or a numeric with more places (DuckDB casts the default to the
        value's type: lag(i, 1, 0.5) answered 1 where the default applied);
        else None. A numeric is computed with the default's places."""
        kinds = _operand_type(value, self._columns, floats=True), _operand_type(default, self._columns, floats=True)
        if None in kinds or _WIDENING.index(kinds[1]) < _WIDENING.index(kinds[0]):
            return None
        if kinds[1] != "numeric":
            return _cast_to(value, _NUMBER_TYPES[kinds[1]]) if kinds[1] != kinds[0] else None
        places = _declared_scale(default, self._columns)
        places = places if places is not None else _constant_scale(default) if isinstance(default, ast.A_Const) else None
        if places is None or kinds[0] == "numeric" and (_declared_scale(value, self._columns) or 0) >= places:
            return None
        return _cast_to(value, decimals.computed_type(min(places, 38 - decimals.INTEGER_DIGITS)))

    def _pg_function(self, fc: ast.FuncCall) -> ast.Node | None:
        """A call whose DuckDB namesake answers differently, rewritten:
        substring's start before the first character (PostgreSQL counts the
        positions before it, DuckDB counts from the end), round of a double
        (PostgreSQL rounds half to even, as rint does), and to_char of a
        date or time (planner.tochar)."""
        name, args = fc.funcname[-1].sval, list(fc.args or ())
        if name in _HYPOTHETICAL and fc.agg_within_group and len(fc.funcname) == 1 and fc.over is None:
            return _hypothetical(fc)
        if name in _INT4_INT8_ONLY and len(fc.funcname) == 1 and args and all(_operand_type(a, self._columns) == "smallint" for a in args):
            # integer and bigint versions only: a smallint fits both, and neither is preferred
            raise SqlError("42725", f"function {name}({', '.join('smallint' for _ in args)}) is not unique", position=_position(fc),
                           hint="Could not choose a best candidate function. You might need to add explicit type casts.")
        if name in ("mode", "percentile_disc") and fc.agg_within_group and len(fc.agg_order or ()) == 1 \
                and _string_constant(fc.agg_order[0].node):  # (anyelement of an untyped constant: no type to return)
            raise SqlError("42804", "could not determine polymorphic type because input has type unknown", position=_position(fc))
        if name in _VARIANCES and len(args) == 1 and _operand_type(args[0], self._columns, floats=True) in ("real", "double precision", None):
            return self._float_variance(fc)
        if name in _REGRESSIONS and len(args) == 2 and len(fc.funcname) == 1 and fc.over is None and not fc.agg_distinct and not fc.agg_order:
            return _float_regression(fc)
        if name in ("date_bin", "txngate_date_bin") and len(args) == 3 and any(_string_constant(a) for a in args):
            # untyped constants as PostgreSQL resolves them: the stride an interval, the other a timestamp like the one given
            kind = next((k for a in args[1:] if (k := _datetime_kind(a, self._columns))), "timestamp")
            typed = [typed_literal(a, t) if _string_constant(a) else a for a, t in zip(args, ("interval", kind, kind))]
            return ast.FuncCall(funcname=fc.funcname, args=tuple(typed))
        if name in ("min", "max") and len(args) == 1 and (kind := self._unordered_kind(args[0])) is not None:
            raise undefined("function", f"function {name}({kind}) does not exist")
        if name == "reverse" and len(args) == 1 and _is_bytea(args[0], self._columns):  # (PostgreSQL 15 reverses text only)
            raise undefined("function", "function reverse(bytea) does not exist")
        if name == "age" and len(args) in (1, 2):
            if all(_string_constant(a) for a in args) and len(args) == 1:
                raise SqlError("42725", "function age(unknown) is not unique",
                               hint="Could not choose a best candidate function. You might need to add explicit type casts.")
            # untyped constants as PostgreSQL resolves them: of the other's type, else timestamptz (the preferred type)
            kind = next((k for a in args if (k := _datetime_kind(a, self._columns))), "timestamptz").replace("date", "timestamp")
            return self._finite_age(fc, [typed_literal(a, kind) if _string_constant(a) else a for a in args])
        if name in ("btrim", "ltrim", "rtrim") and len(args) == 2 and any(_is_bytea(a, self._columns) for a in args):
            side = {"btrim": "both", "ltrim": "leading", "rtrim": "trailing"}[name]  # (the engine trims text, not bytes)
            return ast.FuncCall(funcname=(ast.String(sval="txngate_bytea_trim"),),
                                args=(_cast_to(args[0], "bytea"), _cast_to(args[1], "bytea"), _constant(side)))
        if name in ("btrim", "ltrim", "rtrim", "trim") and any(_is_bytea(a, self._columns) for a in args):
            raise not_supported(f"{name} of bytea")
        if name in ("length", "octet_length") and len(args) == 1 and _is_bytea(args[0], self._columns):
            return expand("CAST(pg_catalog.txngate_bytea_length(_arg1) AS int4)", args)  # its bytes (the engine's length is of text)
        if (series := _date_series(fc, self._columns)) is not None:
            return series
        if name in ("substring", "substr") and len(args) in (2, 3) and _is_bytea(args[0], self._columns):
            function = "txngate_bytea_substr" if len(args) == 3 else "txngate_bytea_substr_from"  # the engine has no substring of a BLOB
            return ast.FuncCall(funcname=(ast.String(sval=function),), args=(args[0], *(_cast_to(a, "int8") for a in args[1:])))
        if name == "string_agg" and len(args) == 2 and _is_bytea(args[0], self._columns):
            # of bytea: a bytea (DuckDB's string_agg takes text only), joined as hex; a NULL delimiter joins with nothing
            inner = copy.copy(fc)
            inner.args = (ast.FuncCall(funcname=(ast.String(sval="hex"),), args=(args[0],)),
                          ast.CoalesceExpr(args=(ast.FuncCall(funcname=(ast.String(sval="hex"),), args=(_cast_to(args[1], "bytea"),)), _constant(""))))
            return ast.FuncCall(funcname=(ast.String(sval="unhex"),), args=(inner,))
        if name == "to_number" and len(args) == 2:  # inside an expression: a numeric of 10 places (an output column: exact)
            return _cast_to(ast.FuncCall(funcname=(ast.String(sval="txngate_to_number"),), args=tuple(_cast_to(a, "text") for a in args)), "numeric")
        if name == "substring" and len(args) == 3 and any(_is_text(a) for a in args[1:]) \
                and all(_is_text(a) or isinstance(a, ast.A_Const) and a.isnull for a in args[1:]):
            return _similar_substring(args)
        if name == "substring" and len(args) == 2 and _is_text(args[1]):
            # substring(s FROM pattern): the first match, or its first group, as regexp_match gives them
            return expand("(txngate_regexp_match(_arg1, _arg2, ''))[1]", args)
        if name in ("substring", "substr") and len(args) in (2, 3) and not _is_text(args[1]):
            if len(args) == 2:
                new = expand("substring(_arg1, greatest(_arg2, 1))", args)
                self._cast.add(id(new))
                return new
            # the end in bigint: a start and a length near 2^31 run to the string's end, as PostgreSQL's (the sum overflowed: 22003)
            cut = "substring(_arg1, greatest(_arg2, 1), greatest(0, CAST(_arg2 AS BIGINT) + _arg3 - greatest(_arg2, 1)))"
            if isinstance(args[2], ast.A_Const) and isinstance(args[2].val, ast.Integer) and args[2].val.ival >= 0:
                new = expand(cut, args)  # nothing to guard
                self._cast.add(id(new))
                return new
            new = expand(f"CASE WHEN _arg3 < 0 THEN {raised('22011', 'negative substring length not allowed', 'text')} ELSE {cut} END", args)
            self._cast.add(id(new.defresult))
            return new
        if name == "to_char" and len(args) == 2 and isinstance(args[1], ast.A_Const) and args[1].isnull:
            return _cast_to(args[1], "text")  # (strict: of a NULL template, NULL; the engine had no such strftime, 42883)
        if name == "to_char" and len(args) == 2 and not isinstance(args[1], ast.A_Const) and self.dialect == "duckdb" and fc.over is None:
            # a template known only as the statement runs (a column, a parameter): by the value's type, if known
            if _is_interval(args[0], self._columns):
                return expand(f"({tochar.expression(None, interval=True)})", args)
            if (number := _operand_type(args[0], self._columns, floats=True)) is not None:
                return expand(f"({tochar.expression(None, number=number)})", args)
            if (kind := _datetime_kind(args[0], self._columns)) is not None:
                value = _cast_to(args[0], "timestamptz") if kind == "date" else args[0]
                return expand(f"({tochar.expression(None)})", [value, args[1]])
        if name == "to_char" and len(args) == 2 and isinstance(args[1], ast.A_Const) and isinstance(args[1].val, ast.String):
            if _is_interval(args[0], self._columns):
                return expand(f"({tochar.expression(args[1].val.sval, interval=True)})", [args[0]])
            if (number := _operand_type(args[0], self._columns, floats=True)) is not None:
                return expand(f"({tochar.expression(args[1].val.sval, number=number)})", [args[0]])
            value = _cast_to(args[0], "timestamptz") if _is_date(args[0], self._columns) else args[0]  # to_char(timestamptz) takes a date
            return expand(f"({tochar.expression(args[1].val.sval)})", [value])
        if name in _POLYMORPHIC and args and isinstance(args[0], ast.A_Const) and isinstance(args[0].val, ast.String):
            raise SqlError("42804", "could not determine polymorphic type because input has type unknown")
        if name in ("lag", "lead") and len(args) == 3 and (widened := self._widened_value(args[0], args[2])) is not None:
            call = copy.copy(fc)  # lag(value, n, default) is of the two's common type (anycompatible): the value widened
            call.args = (widened, *args[1:])
            return call
        if name == "string_to_table" and len(args) in (2, 3):
            return expand("unnest(string_to_array(" + ", ".join(f"_arg{i + 1}" for i in range(len(args))) + "))", args)
        if name == "array_fill" and len(args) in (2, 3):
            # an array's type has its dimensions: known from the dims given as ARRAY[...]
            dims = args[1].arg if isinstance(args[1], ast.TypeCast) else args[1]
            if isinstance(dims, ast.A_Const) and dims.isnull:  # NULL dimensions: the macro's error, as PostgreSQL's
                return ast.FuncCall(funcname=(ast.String(sval="txngate_array_fill1"),), args=(args[0], _cast_to(dims, "integer[]"),
                                    args[2] if len(args) == 3 else ast.A_ArrayExpr(elements=(ast.A_Const(val=ast.Integer(ival=1)),))))
            if not isinstance(dims, ast.A_ArrayExpr) or len(dims.elements or ()) not in (1, 2):
                raise not_supported("array_fill without its dimensions written as ARRAY[n] or ARRAY[n, m]")
            ones = ast.A_ArrayExpr(elements=tuple(ast.A_Const(val=ast.Integer(ival=1)) for _ in dims.elements))
            return ast.FuncCall(funcname=(ast.String(sval=f"txngate_array_fill{len(dims.elements)}"),),
                                args=(args[0], args[1], args[2] if len(args) == 3 else ones))
        if name == "regexp_split_to_table" and len(args) in (2, 3):
            return expand("unnest(txngate_regexp_split_to_array(_arg1, _arg2, _arg3))", args + [_constant("")] * (3 - len(args)))
        if name == "encode" and len(args) == 2 and isinstance(args[0], ast.A_Const) and isinstance(args[0].val, ast.String):
            # encode(bytea, format): PostgreSQL reads a string constant as bytea ('\x12' is one byte)
            return ast.FuncCall(funcname=fc.funcname, args=(_cast_to(args[0], "bytea"), args[1]))
        if name == "timezone" and len(args) == 2 and isinstance(args[1], ast.A_Const) and isinstance(args[1].val, ast.String):
            # 'text' AT TIME ZONE z: an untyped constant is a timestamptz, the preferred type of its kind (the engine could not choose)
            args = [args[0], typed_literal(args[1], "timestamptz")]
            fc = ast.FuncCall(funcname=fc.funcname, args=tuple(args))
            return _abbreviated_zone(name, args, self._columns) or fc
        if (zoned := _abbreviated_zone(name, args, self._columns)) is not None:
            return zoned
        if name == "isfinite" and len(args) == 1 and _maybe_interval(args[0], self._columns):
            return expand("CASE WHEN _arg1 IS NULL THEN NULL ELSE true END", args)  # an interval is finite (DuckDB has no isfinite of one)
        if name in ("to_timestamp", "to_date") and len(args) == 2 and self.dialect == "duckdb" and fc.over is None:
            # the text read by PostgreSQL's template rules (local_exec.tochar.from_char; the engine's strptime knew few of its
            # patterns), a timestamptz in the session's TimeZone (strptime gave a timestamp, of another type and instant)
            read = ast.FuncCall(funcname=(ast.String(sval="txngate_from_char"),),
                                args=(_cast_to(args[0], "text"), _cast_to(args[1], "text"), ast.A_Const(val=ast.Boolean(boolval=name == "to_date"))))
            return _cast_to(read, "timestamptz" if name == "to_timestamp" else "date")
        if name == "to_timestamp" and len(args) == 1 and self.dialect == "duckdb" and fc.over is None:
            return ast.FuncCall(funcname=(ast.String(sval="txngate_epoch_timestamp"),), args=tuple(args))  # infinities and NaN (pgcatalog)
        if name == "make_date" and len(args) == 3 and self.dialect == "duckdb":
            return ast.FuncCall(funcname=(ast.String(sval="txngate_make_date"),), args=tuple(args))  # BC years and PostgreSQL's 22008 (pgcatalog)
        if name in ("make_date", "make_timestamp", "make_timestamptz") and len(args) >= 3:
            # a negative year is BC (-44 is 44 BC, astronomically -43): DuckDB counts astronomically
            return ast.FuncCall(funcname=fc.funcname, args=(expand("txngate_pg_year_in(_arg1)", args[:1]), *args[1:]))
        if name == "date_part" and len(args) == 2 and not isinstance(args[0], ast.A_Const) and self.dialect == "duckdb" and fc.over is None:
            return self._run_time_date_part(args[0], args[1])
        if name in ("extract", "date_part") and len(args) == 2 and isinstance(args[0], ast.A_Const) and isinstance(args[0].val, ast.String):
            word = args[0].val.sval.lower()
            field = _extract_field(name, word, _extract_source(args[1], self._columns))
            if field is None:
                field = unit_field(word) or word  # msec, secs, mon, ...: PostgreSQL's unit words
                field = {"millisecond": "milliseconds", "microsecond": "microseconds"}.get(field, field)
            new = self._date_part(name, field, args[1])
            if new is not None:
                return new
        if name == "round" and (rounded := self._rounded_numeric_cast(args)) is not None:
            return rounded
        if name == "round" and len(args) == 2 and _operand_type(args[0], self._columns) in INTEGER_TYPES \
                and isinstance(args[1], ast.A_Const) and isinstance(args[1].val, ast.Integer):
            scale = max(0, args[1].val.ival)  # round(numeric, int): PostgreSQL's only two-argument round
            return ast.FuncCall(funcname=fc.funcname, args=(_cast_to(args[0], decimals.computed_type(scale)), args[1]))
        if name == "round" and len(args) == 1 and (kind := _operand_type(args[0], self._columns, floats=True)) in ("real", "double precision"):
            rounded = ast.FuncCall(funcname=(ast.String(sval="round_even"),), args=(args[0], ast.A_Const(val=ast.Integer(ival=0))))
            return _cast_to(rounded, "float8") if kind == "real" else rounded  # (PostgreSQL's round of double precision)
        return None

    def _float_checked(self, n: ast.Node) -> ast.FuncCall | None:
        """A tree of arithmetic (+, -, *, /) of doubles or reals, or exp()
        of a double or an integer (PostgreSQL's exp(float8)), wrapped in pgcatalog's ``txngate_float_checked``:
        PostgreSQL's overflow where its operands (the tree's leaves) are
        finite, and underflow where one * or / of two leaves gives zero
        from non-zero ones (``a * b``; ``a / b`` of a finite b). The
        tree's inner operators are left as they are (checked as the
        whole: an infinity carries through to its result); a tree with
        another inside its leaves (``exp(a * b)``) is not checked, the
        inner one is. None for anything else."""
        if not self._float_checkable(n):
            return None
        leaves = list(n.args) if isinstance(n, ast.FuncCall) else [m for m in _arithmetic_tree(n) if not _is_arithmetic(m)]
        if any(self._float_checkable(m) for leaf in leaves for m in walk(leaf)):
            return None  # (one nested in another stays unchecked: each check repeats its operands, nested ones grew exponentially)
        if any(_datetime_kind(leaf, self._columns) or _is_interval(leaf, self._columns) for leaf in leaves):
            return None  # the days between two dates: no double to check (and none that could overflow)
        if isinstance(n, ast.FuncCall):
            self._cast.add(id(n))
            finite = expand("NOT isinf(CAST(_arg1 AS DOUBLE))", leaves)
            return ast.FuncCall(funcname=(ast.String(sval="txngate_float_checked"),), args=(n, finite, copy.deepcopy(finite)))
        self._cast.update(id(m) for m in _arithmetic_tree(n) if _is_arithmetic(m))  # checked as the whole
        leaves = [m for m in leaves if not isinstance(m, ast.A_Const)]
        finite = expand(" AND ".join(f"NOT isinf(CAST(_arg{i + 1} AS DOUBLE))" for i in range(len(leaves))) or "true", leaves)
        op, operands = n.name[-1].sval, [x for x in (n.lexpr, n.rexpr) if x is not None]
        if op == "*" and len(operands) == 2 and not any(_is_arithmetic(x) for x in operands):
            nonzero = expand("_arg1 <> 0 AND _arg2 <> 0", operands)
        elif op == "/" and len(operands) == 2 and not any(_is_arithmetic(x) for x in operands):
            nonzero = expand("_arg1 <> 0 AND NOT isinf(CAST(_arg2 AS DOUBLE))", operands)
        else:
            nonzero = ast.A_Const(val=ast.Boolean(boolval=False))
        return ast.FuncCall(funcname=(ast.String(sval="txngate_float_checked"),), args=(n, finite, nonzero))

    def _domain_column(self, n: ast.Node):
        """The domain a column reference's column was declared of, when the
        statement's tables have one column of that name and it has one."""
        if not isinstance(n, ast.ColumnRef) or not isinstance(n.fields[-1], ast.String):
            return None
        if self._domains is None:  # column name -> the domains its columns in the statement's tables were declared of (None: none)
            self._domains = {}
            for relname, schemaname in self._relations:
                for col in rel.columns if (rel := self.catalog.lookup(relname, schemaname, self.search_path)) is not None else ():
                    self._domains.setdefault(col.name, set()).add(col.domain)
        found = self._domains.get(n.fields[-1].sval, set())
        made = self.catalog.type_of_oid(next(iter(found))) if len(found) == 1 and None not in found else None
        return made if isinstance(made, DomainType) else None

    def _made_type_cast(self, n: ast.TypeCast) -> ast.Node | None:
        """A cast to a domain (to its base type, its constraints checked:
        ``_domain_checked``) or to a composite type (the engine's STRUCT of
        its fields: a ROW(...) cast field by field to their types, a
        record's text read as record_in reads it); None for other casts."""
        made = _made_type(n.typeName)
        if isinstance(made, DomainType) and not n.typeName.arrayBounds:
            return self._domain_checked(n.arg, made)
        if not isinstance(made, CompositeType):
            return None
        sql_type = made.sql_type + ("[]" if n.typeName.arrayBounds else "")
        arg = n.arg
        if not n.typeName.arrayBounds and isinstance(arg, ast.A_Const) and isinstance(arg.val, ast.String):
            texts = record_input(arg.val.sval)
            if len(texts) != len(made.fields):
                raise SqlError(INVALID_TEXT_REPRESENTATION, f'malformed record literal: "{arg.val.sval}"',
                               detail="Too few columns." if len(texts) < len(made.fields) else "Too many columns.")
            arg = ast.RowExpr(args=tuple(ast.A_Const(isnull=True) if t is None else ast.A_Const(val=ast.String(sval=t)) for t in texts),
                              row_format=CoercionForm.COERCE_EXPLICIT_CALL)
        if not n.typeName.arrayBounds and isinstance(arg, ast.RowExpr):
            if len(arg.args or ()) != len(made.fields):
                raise SqlError(CANNOT_COERCE, f"cannot cast type record to {made.name}",
                               detail="Input has too few columns." if len(arg.args or ()) < len(made.fields) else "Input has too many columns.")
            arg = ast.RowExpr(args=tuple(ast.TypeCast(arg=a, typeName=sql_type_name(t)) for a, (_f, t) in zip(arg.args, made.fields)),
                              row_format=CoercionForm.COERCE_EXPLICIT_CALL)
        cast = ast.TypeCast(arg=arg, typeName=self._struct_type(sql_type))
        self._cast.add(id(cast))
        return cast

    def _struct_type(self, sql_type: str) -> ast.TypeName:
        """A composite type (or an array of one) as a stand-in type name,
        ``txngate_struct(k)``, that ``_finish`` replaces by the engine's
        STRUCT type (which PostgreSQL's syntax cannot write)."""
        self._structs.append(duckdb_type(sql_type.removesuffix("[]")))
        return ast.TypeName(names=(ast.String(sval="txngate_struct"),), typmods=(ast.A_Const(val=ast.Integer(ival=len(self._structs) - 1)),),
                            typemod=-1, arrayBounds=(ast.Integer(ival=-1),) if sql_type.endswith("[]") else None)

    def _domain_checked(self, arg: ast.Node, domain) -> ast.Node:
        """``arg`` cast to a domain's base type, 23502 when it is NULL and
        the domain NOT NULL, 23514 when a CHECK is false (a NULL check
        passes)."""
        value = ast.TypeCast(arg=arg, typeName=sql_type_name(domain.base))
        engine = duckdb_type(domain.base)
        whens = []
        if domain.not_null:
            whens.append(ast.CaseWhen(expr=ast.NullTest(arg=copy_tree(value), nulltesttype=NullTestType.IS_NULL),
                                      result=expand(raised(NOT_NULL_VIOLATION, f"domain {domain.name} does not allow null values", engine), [])))
        for name, expr in domain.checks:
            failed = ast.BoolExpr(boolop=BoolExprType.NOT_EXPR, args=(
                ast.CoalesceExpr(args=(p.with_value(expr, value), ast.A_Const(val=ast.Boolean(boolval=True)))),))
            whens.append(ast.CaseWhen(expr=failed, result=expand(raised(
                CHECK_VIOLATION, f'value for domain {domain.name} violates check constraint "{name}"', engine), [])))
        return ast.CaseExpr(args=tuple(whens), defresult=copy_tree(value)) if whens else value

    def _enum_ordered(self, n: ast.Node) -> ast.Node | None:
        """An enum's values where PostgreSQL orders them by their labels'
        sort order, not as text: a cast to the enum (its labels checked,
        22P02), ``<``, ``<=``, ``>``, ``>=`` of one (its positions), ORDER BY
        one, min/max of one. None for anything else."""
        if isinstance(n, ast.TypeCast) and (enum := _enum_cast(n)) is not None:
            self._cast.add(id(n))
            if isinstance(n.arg, ast.A_Const) and isinstance(n.arg.val, ast.String):
                _check_enum_label(enum, n.arg.val.sval)
                return _cast_to(n.arg, "text")
            unknown = raised("22P02", f"invalid input value for enum {enum.name}", "VARCHAR")
            return expand(f"CASE WHEN _arg1 IS NULL OR list_contains(_arg2, _arg1) THEN _arg1 ELSE {unknown} END",
                          [_cast_to(n.arg, "text"), _labels(enum)])
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("<", "<=", ">", ">=") and n.lexpr is not None:
            enum = self._enum_operand(n.lexpr) or self._enum_operand(n.rexpr)
            if enum is None:
                return None
            self._cast.add(id(n))
            n.lexpr, n.rexpr = (_enum_position(enum, x) for x in (n.lexpr, n.rexpr))
            return n
        if isinstance(n, ast.A_Expr) and n.kind in (A_Expr_Kind.AEXPR_BETWEEN, A_Expr_Kind.AEXPR_NOT_BETWEEN) \
                and (enum := self._enum_operand(n.lexpr)) is not None:
            self._cast.add(id(n))
            n.lexpr, n.rexpr = _enum_position(enum, n.lexpr), [_enum_position(enum, x) for x in n.rexpr]
            return n
        if isinstance(n, ast.SortBy) and (enum := self._enum_operand(n.node)) is not None:
            self._cast.add(id(n))
            n.node = _enum_position(enum, n.node)
            return n
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("min", "max") and len(n.args or ()) == 1 and not n.over \
                and (enum := self._enum_operand(n.args[0])) is not None:
            self._cast.add(id(n))
            n.args = (_enum_position(enum, n.args[0]),)
            return expand("list_extract(_arg1, _arg2)", [_labels(enum), n])
        return None

    def _period_end(self, start: ast.Node, end: ast.Node) -> ast.Node:
        """A period's end as OVERLAPS reads it: ``start + end`` when ``end`` is an interval."""
        if _is_interval(end, self._columns):
            return ast.A_Expr(kind=A_Expr_Kind.AEXPR_OP, name=(ast.String(sval="+"),), lexpr=copy_tree(start), rexpr=end)
        return end

    def _enum_operand(self, n: ast.Node):
        """The ``catalog.EnumType`` of ``n`` when it is plainly of one: a
        column of it or a cast to it."""
        if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
            kind = column_type(n, self._columns)
            return enum_type(kind) if is_enum(kind) else None
        return _enum_cast(n) if isinstance(n, ast.TypeCast) else None

    def _unordered_kind(self, n: ast.Node) -> str | None:
        """"bytea" or "record" when ``n`` plainly is one: PostgreSQL 15 has
        no min or max of these (the engine's would answer)."""
        if _is_bytea(n, self._columns):
            return "bytea"
        if isinstance(n, ast.RowExpr) or isinstance(n, ast.ColumnRef) and row_columns(n, self._columns) is not None:
            return "record"
        return None

    def _finite_age(self, fc: ast.FuncCall, args: list[ast.Node]) -> ast.Node:
        """age() of an infinite timestamp as PostgreSQL 15 answers it: 22008
        (timestamp out of range), but the age of +infinity at +infinity,
        which is 0. The engine's is NULL, a wrong answer; PostgreSQL 15's
        age of +infinity at a finite time is a meaningless interval of its
        internals, refused here with the same 22008."""
        out_of_range = raised("22008", "timestamp out of range", "INTERVAL")
        if len(args) == 1:
            new = expand(f"CASE WHEN isinf(_arg1) THEN {out_of_range} ELSE age(_arg1) END", args)
        else:
            new = expand("CASE WHEN isinf(_arg1) OR isinf(_arg2) THEN CASE WHEN _arg1 = _arg2 AND _arg1 > CAST('1970-01-01' AS DATE) "
                         f"THEN CAST('0 seconds' AS INTERVAL) ELSE {out_of_range} END ELSE age(_arg1, _arg2) END", args)
        for n in walk(new):
            if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "age":
                n.funcname = fc.funcname
                self._cast.add(id(n))  # the engine's, as it is
        return new

    def _float_checkable(self, n: ast.Node) -> bool:
        """``n`` is what ``_float_checked`` wraps: arithmetic of doubles or
        reals, or exp() of a double or an integer, not checked already."""
        if id(n) in self._cast:
            return False
        if isinstance(n, ast.FuncCall):
            return n.funcname[-1].sval == "exp" and len(n.args or ()) == 1 and not n.over \
                and _operand_type(n.args[0], self._columns, floats=True) in ("double precision", "real", *INTEGER_TYPES)  # exp(int): float8's
        return _is_arithmetic(n) and n.lexpr is not None and _operand_type(n, self._columns, floats=True) in ("double precision", "real")

    def _float_variance(self, fc: ast.FuncCall) -> ast.Node:
        """A variance or standard deviation of doubles as PostgreSQL's
        float8_accum gives it: NaN for a lone infinity or NaN (DuckDB's is
        0, of one value), and 22003 where finite values overflow (DuckDB's
        is infinite)."""
        def same_rows(agg: str, template: str = "_arg1") -> ast.FuncCall:
            return ast.FuncCall(funcname=(ast.String(sval=agg),), args=(expand(template, list(fc.args)),), agg_distinct=fc.agg_distinct and agg != "bool_and",
                                agg_filter=copy.deepcopy(fc.agg_filter), over=copy.deepcopy(fc.over))
        lone = "WHEN _arg1 = 1 AND NOT isfinite(_arg2) THEN CAST('NaN' AS double precision) " if fc.funcname[-1].sval.endswith("_pop") else ""
        value = fc if fc.over is not None else self._youngs_cramer(fc, same_rows("list"))
        new = expand(f"CASE {lone}WHEN _arg3 AND NOT isfinite(_arg4) THEN error('[22003] value out of range: overflow') END",
                     [same_rows("count"), same_rows("max"), same_rows("bool_and", "isfinite(_arg1)"), copy.deepcopy(value)])
        new.defresult = value  # as it is (expand copies what it is given)
        for n in walk(new):
            if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == fc.funcname[-1].sval:
                self._cast.add(id(n))  # fc and the copy tested: as they are
        return new

    @staticmethod
    def _youngs_cramer(fc: ast.FuncCall, values: ast.FuncCall) -> ast.Node:
        """A variance or standard deviation of doubles accumulated as
        PostgreSQL's float8_accum accumulates it (Youngs and Cramer's
        update, value by value in the group's order; DuckDB's own loses
        digits to a large common offset: var_pop of 100000003 ..
        100000007 gave 2.5000000055879354, not 2.5) over the group's
        values as a list (``txngate_float8_accum``). A DISTINCT aggregate
        takes its values sorted, as PostgreSQL does. Not over windows: a
        list per row would grow with the frame."""
        if fc.agg_distinct:
            values.agg_order = (ast.SortBy(node=copy.deepcopy(values.args[0]), sortby_dir=SortByDir.SORTBY_DEFAULT,
                                           sortby_nulls=SortByNulls.SORTBY_NULLS_DEFAULT),)
        name = {"variance": "var_samp", "stddev": "stddev_samp"}.get(fc.funcname[-1].sval, fc.funcname[-1].sval)
        return ast.FuncCall(funcname=(ast.String(sval=f"txngate_float8_{name}"),), args=(values,))

    def _run_time_date_part(self, unit: ast.Node, arg: ast.Node) -> ast.Node:
        """``date_part(u, x)`` of a unit known only as the statement runs (a
        column, a parameter): each field as its constant's (``_date_part``)
        by the unit's word (the field, its plural), any other the engine's
        (the SQL rewriter took a column's name for the unit)."""
        arms = []
        fields = _INTERVAL_FIELDS if _maybe_interval(arg, self._columns) else _DATE_FIELDS  # (the engine binds every arm)
        for field in sorted(fields):
            part = self._date_part("date_part", field, arg)
            words = {field, field.rstrip("s"), field.rstrip("s") + "s"}
            arms.append(ast.CaseWhen(expr=ast.A_Expr(kind=A_Expr_Kind.AEXPR_IN, name=(ast.String(sval="="),),
                                                     lexpr=ast.FuncCall(funcname=(ast.String(sval="lower"),), args=(
                                                         ast.FuncCall(funcname=(ast.String(sval="trim"),), args=(copy_tree(unit),)),)),
                                                     rexpr=tuple(_constant(w) for w in sorted(words))), result=part))
        fallback = ast.FuncCall(funcname=(ast.String(sval="txngate_date_part"),), args=(unit, arg))
        return ast.CaseExpr(args=tuple(arms), defresult=fallback)

    def _date_part(self, name: str, field: str, arg: ast.Node) -> ast.Node | None:
        """``extract(field FROM x)`` as PostgreSQL's numeric (seconds with 6
        decimals, milliseconds with 3, epoch with 6, or none for a date),
        ``date_part('field', x)`` as its double; DuckDB gives integers (the
        seconds without their fraction: a wrong answer) or doubles."""
        kind = _datetime_kind(arg, self._columns)
        if field not in _DATE_FIELDS:
            return None
        date = kind == "date"
        if field == "julian" and not kind:
            return None
        # PostgreSQL's years (of a date or timestamp: an interval's are as they are) have no year 0
        part = f"txngate_pg_{field}({_astronomical('year', kind)})" if kind and field in ("year", "decade", "century", "millennium") else \
            f"txngate_pg_year({_astronomical('isoyear', kind)})" if kind and field == "isoyear" else f"date_part('{field}', _arg1)"
        if name == "extract":
            template = {
                "second": "(CAST(date_part('microseconds', _arg1) AS numeric(28,0)) * CAST(0.000001 AS numeric(38,6)))",
                "milliseconds": "(CAST(date_part('microseconds', _arg1) AS numeric(28,0)) * CAST(0.001 AS numeric(38,3)))",
                "epoch": "CAST(epoch(_arg1) AS numeric(28,0))" if date else
                         # (microseconds in 28 digits: a bigint overflowed past 106,751 days)
                         "(CAST(round(epoch(_arg1) * 1000000) AS numeric(28,0)) * CAST(0.000001 AS numeric(38,6)))",
                # the day's number plus the fraction of the day gone, divided as numerics (kept to 20 places)
                "julian": "CAST(julian(_arg1) AS numeric(28,0))" if date else
                          "(CAST(CAST(julian(CAST(_arg1 AS date)) AS bigint) AS numeric(30,20)) + CAST(txngate_numeric_div(CAST((epoch_us(CAST(_arg1 AS timestamp)) "
                          "% 86400000000 + 86400000000) % 86400000000 AS text), '86400000000') AS numeric(30,20)))",
            }.get(field, f"CAST({part} AS numeric(18,0))")  # every other field fits 18 digits: a decimal DuckDB keeps in 64 bits
            if kind and field in _MONOTONIC_FIELDS:  # numeric cannot hold infinity here: refused, not NULL
                template = f"CASE WHEN isinf(_arg1) THEN txngate_infinite_extract('{kind}') ELSE {template} END"
        else:
            template = {
                "second": "(date_part('microseconds', _arg1) / 1000000.0)",
                "milliseconds": "(date_part('microseconds', _arg1) / 1000.0)",
                "epoch": "epoch(_arg1)",
                "julian": "julian(_arg1)",
            }.get(field, f"CAST({part} AS double precision)")
            if kind and field in _MONOTONIC_FIELDS:  # infinity's year, epoch, ... are infinite; its month is NULL
                template = f"CASE WHEN isinf(_arg1) THEN txngate_infinity_sign(_arg1) ELSE {template} END"
        new = expand(template, [ast.ColumnRef(fields=(ast.String(sval="_txngate_hole"),))])
        for n in walk(new):  # the template's calls are as meant; the argument's are rewritten as any others (strpos's integer)
            if isinstance(n, (ast.FuncCall, ast.TypeCast)):
                self._cast.add(id(n))
        hole = lambda c: copy_tree(arg) if isinstance(c, ast.ColumnRef) and c.fields[-1] == ast.String(sval="_txngate_hole") else None  # noqa: E731
        for n in walk(new):
            replace_children(n, hole)
        return new

    def _trim_char_operands(self, n: ast.Node) -> None:
        """PostgreSQL compares, concatenates, measures and casts to text
        character(n) values without their trailing spaces (they are stored,
        and printed, padded): the char(n) operands of ``n`` lose them,
        except where PostgreSQL keeps them (LIKE, SIMILAR TO and regular
        expressions match the padded value; max, octet_length, ... take it
        as it is)."""
        if isinstance(n, ast.A_Expr) and self._padded_constants(n):
            pass
        elif isinstance(n, ast.A_Expr):
            if n.kind not in _PATTERN_KINDS and not (n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in _PATTERN_OPERATORS):
                replace_children(n, self._char_operand)
                if _compares(n) and any(id(x) in self._trimmed for x in (n.lexpr, n.rexpr)):
                    replace_children(n, self._char_peer)  # compared as character(n): the other side's trailing spaces go too
        elif isinstance(n, ast.FuncCall):
            if n.funcname[-1].sval not in PADDED_ARGUMENTS:
                before = list(n.args or ())
                replace_children(n, self._char_operand)
                if n.agg_distinct and n.agg_order:  # a DISTINCT aggregate sorts by its argument: by the trimmed one
                    n.agg_order = tuple(ast.SortBy(node=copy_tree(n.args[before.index(o.node)]), sortby_dir=o.sortby_dir,
                                                   sortby_nulls=o.sortby_nulls) if o.node in before else o for o in n.agg_order)
        elif isinstance(n, ast.TypeCast):
            if n.typeName.names[-1].sval in _TEXT_TYPES and not n.typeName.arrayBounds:
                n.arg = self._char_operand(n.arg) or n.arg
        elif isinstance(n, ast.CaseExpr) and n.arg is not None:
            n.arg = self._char_operand(n.arg) or n.arg  # CASE c WHEN 'x': an equality
        elif isinstance(n, ast.SubLink) and n.subLinkType.name in ("ANY_SUBLINK", "ALL_SUBLINK") and n.testexpr is not None:
            self._trim_sublink(n)
        if isinstance(n, (ast.CaseExpr, ast.CoalesceExpr)):
            self._trim_char_branches(n)
        elif isinstance(n, ast.SelectStmt) and n.op is not None and n.op.name != "SETOP_NONE":
            self._trim_char_set_operation(n)

    def _type_string_arms(self, n: ast.SelectStmt) -> None:
        """A set operation's untyped string constants read as the type of
        the column's other arms, as PostgreSQL resolves unknown (``SELECT 1
        UNION SELECT '01'`` is one integer row; the engine made the column
        text, two rows). Only where every other arm plainly has one and the
        same type other than text (a column, a cast, a number)."""
        leaves = decimals.set_operation_leaves(n)
        if leaves is None:
            return
        local = [column_types(leaf, self.catalog, self.search_path) if leaf.fromClause else {} for leaf in leaves]
        for i in range(len(leaves[0].targetList)):
            targets = [leaf.targetList[i] for leaf in leaves]
            strings = [t for t in targets if isinstance(t.val, ast.A_Const) and isinstance(t.val.val, ast.String)]
            others = [_resolved_type(t.val, types) for t, types in zip(targets, local)
                      if t not in strings and not (isinstance(t.val, ast.A_Const) and t.val.isnull)]
            if not strings or not others or None in others or len(set(others)) != 1 or others[0] in _TEXT_TYPES \
                    or others[0].startswith(("varchar", "char")):
                continue
            for t in strings:  # (an unknown read as numeric has no typmod: the union's is numeric, '2.125' not rounded to 2.13)
                t.val = _typed_string(t.val, "numeric" if others[0].startswith("numeric(") else others[0])

    def _trim_char_set_operation(self, n: ast.SelectStmt) -> None:
        """UNION / INTERSECT / EXCEPT whose column has a char(n) arm after an
        arm of another type (text, varchar): PostgreSQL's common type is the
        first known arm's, and converting character to it drops the padding,
        so the arms compare (and print) without it."""
        leaves = decimals.set_operation_leaves(n)
        if leaves is None:
            return  # a VALUES arm: its types are not at hand
        # each arm's columns by its own FROM (f1 may be varchar in one arm's table and char(4) in another's)
        local = [column_types(leaf, self.catalog, self.search_path) if leaf.fromClause else {} for leaf in leaves]
        compares = any(isinstance(s, ast.SelectStmt) and s.op is not None and s.op.name != "SETOP_NONE"
                       and (not s.all or s.op.name != "SETOP_UNION") for s in walk(n))
        for i in range(len(leaves[0].targetList)):
            targets = [leaf.targetList[i] for leaf in leaves]
            first = next(((t.val, types) for t, types in zip(targets, local) if not isinstance(t.val, ast.A_Const)), None)
            if first is not None and _char_in(*first) and compares:
                self._pad_text_arms(targets, local, _char_length(*first))
            if first is None or _char_in(*first):
                continue
            for t, types in zip(targets, local):
                if _char_in(t.val, types):
                    t.val = self._trimmed_call(t.val)
                elif isinstance(t.val, ast.TypeCast) and t.val.typeName.names[-1].sval in _TEXT_TYPES and char_cast_length(t.val) is None \
                        and not t.val.typeName.arrayBounds and _char_in(t.val.arg, types):
                    t.val.arg = self._trimmed_call(t.val.arg)  # CAST(c AS varchar): without the padding

    def _pad_text_arms(self, targets: list[ast.ResTarget], local: list[dict[str, str]], length: int | None) -> None:
        """The arms of a set operation that compares rows, typed character
        by its first arm: the others are read as character too, whose
        trailing spaces do not count (PostgreSQL's bpchar equality): padded
        to the first arm's length, as its stored values are."""
        if length is None:
            return
        for t, types in zip(targets, local):
            if isinstance(t.val, ast.A_Const) and isinstance(t.val.val, ast.String):
                t.val = ast.A_Const(val=ast.String(sval=t.val.val.sval.rstrip(" ").ljust(length)))
                continue
            if _char_in(t.val, types) or isinstance(t.val, ast.A_Const) or id(t.val) in self._trimmed:
                continue
            padded = expand(f"CASE WHEN length(rtrim(_arg1)) < {length} THEN rpad(rtrim(_arg1), {length}) ELSE rtrim(_arg1) END", [t.val])
            self._trimmed.add(id(padded))
            t.val = padded

    def _trimmed_call(self, n: ast.Node) -> ast.FuncCall:
        """``rtrim(n)``, marked so the walk does not trim it again; on DuckDB
        pgcatalog's ``txngate_unpad``, which trims only a value that ends in
        a space (DuckDB's rtrim costs about 45 ns a value even when there is
        nothing to trim: TPC-H Q22 spent 12 of its 32 ms in it)."""
        trimmed = ast.FuncCall(funcname=(ast.String(sval="txngate_unpad" if self.dialect == "duckdb" else "rtrim"),), args=(n,))
        self._trimmed.add(id(trimmed))
        return trimmed

    def _trim_char_branches(self, n: ast.Node) -> None:
        """CASE / COALESCE with a char(n) branch and a text one: PostgreSQL's
        common type is text, which drops the padding."""
        case = isinstance(n, ast.CaseExpr)
        branches = [w.result for w in n.args] + [n.defresult] if case else list(n.args)
        if not any(self._may_be_char(b) for b in branches) or not any(self._texty(b) for b in branches):
            return
        # PostgreSQL's candidate type is the first branch's of a known type (a CASE's ELSE first): character
        # stays character (text converts to it as readily), anything else makes the padding go
        order = ([n.defresult] + branches[:-1]) if case else branches
        first = next((b for b in order if b is not None and not isinstance(b, ast.A_Const)), None)
        if first is not None and self._char_typed(first):
            return
        trim = lambda b: (self._char_operand(b) or b) if self._may_be_char(b) else b  # noqa: E731
        if case:
            for w in n.args:
                w.result = trim(w.result)
            n.defresult = trim(n.defresult)
        else:
            n.args = tuple(trim(a) for a in n.args)

    def _texty(self, n: ast.Node | None) -> bool:
        """``n`` is of type text or varchar (a string type a char(n) arm
        converts to without its padding): such a column or cast, an element
        of an array of them, a text function's result, or a concatenation
        with a text or char(n)."""
        if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
            declared = column_type(n, self._columns) or ""
            return declared == "text" or declared.startswith("varchar")
        if isinstance(n, ast.TypeCast):
            return n.typeName.names[-1].sval in ("text", "varchar") and not n.typeName.arrayBounds
        if isinstance(n, ast.CoalesceExpr):
            return any(self._texty(a) for a in n.args)
        if isinstance(n, ast.CaseExpr):  # of string constants (unknown: text) and text arms
            arms = [a for a in [w.result for w in n.args] + [n.defresult] if a is not None and not (isinstance(a, ast.A_Const) and a.isnull)]
            return bool(arms) and all(isinstance(a, ast.A_Const) and isinstance(a.val, ast.String) or self._texty(a) for a in arms)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||":
            return any(self._texty(x) or self._char_operand_shape(x) for x in (n.lexpr, n.rexpr))  # (a string's concatenation)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("->>", "#>>"):
            return True  # json's text
        if isinstance(n, ast.A_Indirection) and len(n.indirection) == 1 and isinstance(n.indirection[0], ast.A_Indices) \
                and not n.indirection[0].is_slice:  # an element of a text or varchar array
            array = n.arg
            if isinstance(array, ast.ColumnRef) and isinstance(array.fields[-1], ast.String):
                declared = column_type(array, self._columns) or ""
                return declared.endswith("[]") and (declared == "text[]" or declared.startswith("varchar"))
            return isinstance(array, ast.TypeCast) and bool(array.typeName.arrayBounds) and array.typeName.names[-1].sval in ("text", "varchar")
        return isinstance(n, ast.FuncCall) and n.funcname[-1].sval in TEXT_FUNCTIONS

    def _trim_sublink(self, n: ast.SubLink) -> None:
        """``x IN (SELECT c ...)`` with a char(n) on either side compares as
        character(n): both sides without trailing spaces."""
        targets = getattr(n.subselect, "targetList", None) or ()
        if len(targets) != 1 or isinstance(n.testexpr, (list, tuple)):
            return
        inner, outer = self._char_operand(targets[0].val), self._char_operand(n.testexpr)
        if inner is None and outer is None:
            return
        if inner is not None:
            targets[0].val = inner
        n.testexpr = outer or self._char_peer(n.testexpr) or n.testexpr
        if inner is None:
            targets[0].val = self._char_peer(targets[0].val) or targets[0].val

    def _padded_constants(self, n: ast.A_Expr) -> bool:
        """A char(n) column equal (or not, or IN) to string constants:
        the constants padded to n instead of the column trimmed, which
        compares the same (a stored character(n) is padded to exactly n)
        and leaves DuckDB a column it filters in the scan (TPC-H's
        ``l_shipmode IN ('AIR', 'AIR REG')``). True when rewritten."""
        equality = n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("=", "<>", "!=") or n.kind == A_Expr_Kind.AEXPR_IN
        column, other = (n.lexpr, n.rexpr) if isinstance(n.lexpr, ast.ColumnRef) else (n.rexpr, n.lexpr)
        if not equality or not isinstance(column, ast.ColumnRef) or not isinstance(column.fields[-1], ast.String) \
                or not is_char(declared := column_type(column, self._columns, "")):
            return False
        constants = list(other) if isinstance(other, (list, tuple)) else [other]
        if not constants or not all(isinstance(c, ast.A_Const) and isinstance(c.val, ast.String) for c in constants):
            return False
        length = int(declared[len("char("):-1])
        padded = [ast.A_Const(val=ast.String(sval=c.val.sval.rstrip(" ").ljust(length))) for c in constants]
        other = padded if isinstance(other, (list, tuple)) else padded[0]
        n.lexpr, n.rexpr = (column, other) if n.lexpr is column else (other, column)
        return True

    def _char_operand(self, n: ast.Node) -> ast.Node | None:
        """A char(n) operand without its padding: a char(n) column, or a
        COALESCE / CASE whose result may be one (PostgreSQL resolves it to
        character, or to text, which drops the padding too)."""
        if not self._may_be_char(n):
            return None
        if self._resolves_to_text(n):  # only its char(n) arms lose their padding: a text arm keeps its spaces
            n = copy.copy(n)
            if isinstance(n, ast.CoalesceExpr):
                n.args = tuple(self._char_operand(a) or a for a in n.args)
            else:
                n.args = tuple(ast.CaseWhen(expr=w.expr, result=self._char_operand(w.result) or w.result) for w in n.args)
                n.defresult = self._char_operand(n.defresult) or n.defresult
            return n
        return self._trimmed_call(n)

    def _resolves_to_text(self, n: ast.Node) -> bool:
        """``n`` is a COALESCE or CASE whose first arm of a known type (a
        CASE's ELSE first, as PostgreSQL resolves it) is not char(n)
        (left(c, 2), a text column): PostgreSQL resolves it to that type,
        converting the char(n) arms alone."""
        if isinstance(n, ast.CoalesceExpr):
            arms = list(n.args)
        elif isinstance(n, ast.CaseExpr):
            arms = [n.defresult] + [w.result for w in n.args]
        else:
            return False
        first = next((a for a in arms if a is not None and not isinstance(a, ast.A_Const)), None)
        return first is not None and not self._may_be_char(first)

    def _char_typed(self, n: ast.Node | None) -> bool:
        """``n`` is of type character: a char(n) column or cast, or a
        COALESCE / CASE PostgreSQL resolves to it (its first known arm's)."""
        if isinstance(n, (ast.CoalesceExpr, ast.CaseExpr)):
            return self._may_be_char(n) and not self._resolves_to_text(n)
        return self._may_be_char(n)

    def _may_be_char(self, n: ast.Node | None) -> bool:
        """``n`` is a char(n) column or cast, or a COALESCE / CASE / NULLIF
        (nested too) whose result may be one."""
        if isinstance(n, ast.CoalesceExpr):
            return any(self._may_be_char(a) for a in n.args)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_NULLIF:
            return self._may_be_char(n.lexpr) and not _text_operand(n.rexpr, _found(self._columns))
        if isinstance(n, ast.CaseExpr):
            return any(self._may_be_char(r) for r in [w.result for w in n.args] + [n.defresult])
        return self._char_operand_shape(n)

    def _char_peer(self, n: ast.Node) -> ast.Node | None:
        """What a char(n) operand is compared with, as character(n): a
        string constant or a varchar column without its trailing spaces
        (a text column keeps them: PostgreSQL compares that as text)."""
        if isinstance(n, ast.A_Const) and isinstance(n.val, ast.String) and n.val.sval.endswith(" "):
            return ast.A_Const(val=ast.String(sval=n.val.sval.rstrip(" ")))
        if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String) and column_type(n, self._columns, "").startswith("varchar"):
            return self._trimmed_call(n)
        return None

    def _rounded_numeric_cast(self, args: tuple) -> ast.Node | None:
        """``round(x::numeric, k)`` of a double, a real or text (the common
        ``round(avg(f)::numeric, 2)``): PostgreSQL's numeric of ``x``
        rounded at once to k places, 0 to 10 (their cast to 10 places
        first is refused when it would lose a digit: ``_numeric_cast``);
        None for anything else."""
        k = args[1].val.ival if len(args) == 2 and isinstance(args[1], ast.A_Const) and isinstance(args[1].val, ast.Integer) \
            else 0 if len(args) == 1 else None
        cast = args[0]
        if k is None or not 0 <= k <= STORED_PLACES or not _plain_numeric_cast(cast) or isinstance(cast.arg, ast.A_Const) \
                or _operand_type(cast.arg, self._columns) in INTEGER_TYPES or self._scales.scale(cast.arg) is not None:
            return None
        digits = self._float_digits(cast.arg) if self.dialect == "spark" else self._numeric_input(cast.arg, exact=False)
        return None if digits is None else _cast_to(digits, f"numeric(38,{k})")

    def _fixed_scale(self, n: ast.Node) -> bool:
        """``n`` is plainly a numeric whose DuckDB decimal has a scale
        known when the statement is bound, other than the 10 places of an
        unconstrained numeric: its text is DuckDB's cast (txngate_cast_text,
        naming its argument a dozen times, would only choose that cast: an
        avg of a sum of decimals planned in 12 ms on empty tables)."""
        if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Float) and not re.fullmatch(r"\d{0,37}\.?\d{0,37}", n.val.fval):
            return False  # 1e5, and digits beyond a decimal's 38: DuckDB reads a double
        if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Float) and len(n.val.fval) > 39:
            return False
        return self._scales.scale(n) not in (None, STORED_PLACES)

    def _float_digits(self, n: ast.Node) -> ast.Node | None:
        """On Spark, the text of PostgreSQL's numeric of ``n`` when it is
        plainly a double (15 significant digits) or a real (6); else None."""
        kind = _operand_type(n, self._columns, floats=True)
        if kind not in ("real", "double precision"):
            return None
        return expand(f"format_string('%.{6 if kind == 'real' else 15}g', _arg1)", [n])

    def _numeric_input(self, n: ast.Node, *, exact: bool) -> ast.Node:
        """The text of PostgreSQL's numeric of ``n`` (a double's 15
        significant digits, a real's 6, a jsonb's number, a text as it
        is), read by local_exec.numeric's ``txngate_numeric_input``: NaN,
        infinities and bad text refused, and (``exact``) a digit past the
        10 places an unconstrained numeric keeps. Where ``n``'s type is
        known the text is made directly, naming ``n`` once (pgcatalog's
        ``txngate_numeric_source`` chooses when it runs, naming it four
        times: nested casts would multiply it)."""
        kind = _operand_type(n, self._columns, floats=True)
        if jsonops.kind(n, self._columns) == "jsonb":
            text = ast.FuncCall(funcname=(ast.String(sval="txngate_jsonb_scalar_text"),), args=(n, _constant("numeric")))
        elif kind in ("real", "double precision"):
            text = ast.FuncCall(funcname=(ast.String(sval="txngate_real_digits" if kind == "real" else "txngate_double_digits"),), args=(n,))
        elif _plainly_text(n, self._columns):
            text = n
        else:
            text = ast.FuncCall(funcname=(ast.String(sval="txngate_numeric_source"),), args=(n,))
        return ast.FuncCall(funcname=(ast.String(sval="txngate_numeric_input"),), args=(text, _constant(STORED_PLACES if exact else -1)))

    def _float_numeric_cast(self, n: ast.TypeCast) -> ast.Node:
        """``x::numeric(p,s)`` of a double or a real as PostgreSQL casts it,
        its 15 (6) significant digits rounded: 1.005::float8 is 1.01, where
        DuckDB rounded the binary 1.00499...; when ``x``'s type is known
        only when it runs (a parameter, a VALUES column), chosen then; of
        another type, as it was."""
        self._cast.add(id(n))
        if _operand_type(n.arg, self._columns, floats=True) in ("real", "double precision"):
            n.arg = self._numeric_input(n.arg, exact=False)
            return n
        digits = ast.TypeCast(arg=self._numeric_input(n.arg, exact=False), typeName=copy_tree(n.typeName))
        self._cast.add(id(digits))
        floats = expand("typeof(_arg1) IN ('DOUBLE', 'FLOAT')", [n.arg])
        return ast.CaseExpr(args=(ast.CaseWhen(expr=floats, result=digits),), defresult=n)

    def _numeric_cast(self, n: ast.TypeCast) -> ast.Node | None:
        """``x::numeric`` computed as PostgreSQL's numeric of ``x``: an
        integer's has no places (DuckDB's numeric has 10: i::numeric * 1.5
        printed 4.50000000000), a numeric's is itself (numeric(20,15) kept
        10 places, numeric(12,4) showed 2 for 2.0000); anything else (a
        double, a real, text, json, a parameter) is read in the 10 places
        a computed numeric keeps, or 22003: DuckDB's cast rounded it away
        (0.1::real gave 0, '1e-12' 0, 1/3.0::float8 0.3333333333)."""
        if _operand_type(n.arg, self._columns) in INTEGER_TYPES:
            if self.dialect == "duckdb":
                n.typeName = _cast_to(n.arg, decimals.computed_type(0)).typeName
            return None
        if not isinstance(n.arg, ast.ParamRef) and self._scales.scale(n.arg) is not None:
            return n.arg  # PostgreSQL's numeric of a numeric is itself, its places (and their display) kept
        if self.dialect == "spark":
            return expand(spark_stored_numeric("_arg1"), [n.arg])
        if _operand_type(n.arg, self._columns, floats=True) is None and not _plainly_text(n.arg, self._columns) \
                and jsonops.kind(n.arg, self._columns) != "jsonb":
            return ast.FuncCall(funcname=(ast.String(sval="txngate_stored_numeric"),), args=(n.arg,))  # (integers and decimals as they are)
        cast = _cast_to(self._numeric_input(n.arg, exact=True), decimals.computed_type(STORED_PLACES))
        self._cast.add(id(cast))
        return cast

    def _known_type(self, n: ast.Node) -> str | None:
        """The SQL type of a column, a cast (not to an array) or a number
        constant, None for anything else."""
        if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
            return column_type(n, self._columns)
        if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds:
            return pg_sql(n.typeName)
        if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer):
            return "integer"
        if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Float):
            return "numeric"
        return None

    def _char_operand_shape(self, n: ast.Node | None) -> bool:
        """``n`` is a char(n) column or a cast to char(n)."""
        return _char_in(n, self._columns)

    def _result_type(self, fc: ast.FuncCall) -> str | None:
        """PostgreSQL's result type for a call whose DuckDB version returns
        another (DuckDB's bigint for integer functions, hugeint for the sum
        of integers, double for the sum of reals); None when they agree."""
        name = FUNCTION_NAMES.get(fc.funcname[-1].sval, fc.funcname[-1].sval)
        if name in INTEGER_RESULTS:
            return "int4"
        if name == "regr_count":
            return "int8"  # DuckDB's is unsigned
        if name == "generate_series" and 2 <= len(fc.args or ()) <= 3 and not fc.over and self.dialect == "duckdb" \
                and all(_operand_type(a, self._columns) in ("smallint", "integer") for a in fc.args):
            return "int4"  # of integers in an expression, integers (a subquery's column was the engine's bigint)
        if name == "sign" and len(fc.args or ()) == 1 and (kind := _operand_type(fc.args[0], self._columns, floats=True)) is not None:
            # sign(numeric), of no places (PostgreSQL's 1, 0 or -1), or sign(double precision); DuckDB's is tinyint
            return decimals.computed_type(0) if kind == "numeric" else "float8"
        if name == "percentile_cont" and fc.agg_within_group and fc.agg_order \
                and _operand_type(fc.agg_order[0].node, self._columns, floats=True) in ("real", "numeric", *INTEGER_TYPES):
            # interpolated in double precision, as PostgreSQL's (DuckDB keeps a real, and rounds a decimal to its scale)
            fc.agg_order[0].node = _cast_to(fc.agg_order[0].node, "float8")
            return None if isinstance(fc.args[0], ast.A_ArrayExpr) or _maybe_list(fc.args[0], self._columns) else "float8"
        if name in ("gcd", "lcm") and _operand_type(fc, self._columns) == "integer":
            return "int4"  # of integers, an integer (DuckDB's bigint: gcd(-2147483648, 0) did not overflow)
        if name in _ROUNDINGS and self.dialect == "duckdb" and not fc.over and 1 <= len(fc.args or ()) <= 2 \
                and _operand_type(fc.args[0], self._columns, floats=True) == "numeric":
            # DuckDB's rounding of a decimal(38, s) is a decimal(38, places): beside any decimal with places, its
            # 38 integer digits would win the common type and cut the other's places (a decimal(12,3) IN a
            # subquery of round(x) compared 0.333 as 0)
            places = fc.args[1].val.ival if len(fc.args) == 2 and isinstance(fc.args[1], ast.A_Const) \
                and isinstance(fc.args[1].val, ast.Integer) else 0 if len(fc.args) == 1 else None
            return decimals.computed_type(places) if places is not None and 0 <= places <= 10 else None
        if name in _ROUNDINGS and len(fc.args or ()) == 1 and not fc.over \
                and (_operand_type(fc.args[0], self._columns) in INTEGER_TYPES
                     or _operand_type(fc.args[0], self._columns) == "real"):
            return "float8"  # round(int) and round(real) are PostgreSQL's of double precision (DuckDB keeps the type)
        if name == "sum" and self.dialect == "duckdb" and len(fc.args or ()) == 1:
            return SUM_RESULTS.get(_operand_type(fc.args[0], self._columns))
        return None

    def _json(self, n: ast.Node) -> ast.Node | None:
        """PostgreSQL's json operators and functions as local_exec.jsonb's."""
        if isinstance(n, ast.A_Expr):
            return jsonops.rewrite_operator(n, self._columns)
        if isinstance(n, ast.FuncCall):
            if self._nullable and n.funcname[-1].sval in _WHOLE_ROW_JSON:
                for a in n.args or ():  # an outer join's missing row is NULL, not a row of NULLs: only where it is told apart
                    if isinstance(a, ast.ColumnRef) and len(a.fields) == 1 and isinstance(a.fields[0], ast.String) \
                            and a.fields[0].sval in self._nullable and (found := row_columns(a, self._columns)) is not None and found[1] is None:
                        self._missing_row_null(a, None)
            if n.funcname[-1].sval in jsonops.BUILT and self.dialect == "duckdb":
                n.args = tuple(_shown_json(a, self._columns) for a in n.args or ())
            new = jsonops.rewrite_function(n, self._columns)
            if isinstance(new, ast.TypeCast) and self.dialect == "duckdb" and (made := self._made_type_cast(new)) is not None:
                return made  # (json_populate_record as a value: a row of its type)
            return new
        if isinstance(n, ast.RangeFunction):
            return jsonops.rewrite_table_function(n, self._row_type)
        if isinstance(n, ast.A_Indirection):
            return jsonops.rewrite_subscript(n, self._columns)
        if isinstance(n, ast.SortBy):
            return jsonops.rewrite_sort(n, self._columns)
        return None

    def _row_type(self, type_name: ast.TypeName) -> list[tuple[str, ast.TypeName]] | None:
        """The columns (name, type) of the row type of the table or view
        ``type_name`` names, or the fields of the composite type it names;
        None when it names none."""
        if type_name.arrayBounds or len(type_name.names) > 2:
            return None
        names = [x.sval for x in type_name.names]
        rel = self.catalog.lookup(names[-1], names[0] if len(names) == 2 else None, self.search_path)
        if rel is None and isinstance(made := _made_type(type_name), CompositeType):
            return [(f, sql_type_name(t)) for f, t in made.fields]
        if rel is None:
            canonical(type_name, array_ok=True)  # 42704 for a type that does not exist
            return None
        return [(c.name, sql_type_name(c.type)) for c in rel.columns]

    def _emulated(self, n: ast.Node) -> ast.Node | None:
        """A replacement for a node PostgreSQL's catalogs give meaning to."""
        if isinstance(n, ast.ResTarget) and _named_constant(n.val):
            n.val = _reg_shown(n.val)  # 'pg_class'::regclass shown: its name, not its OID
        if isinstance(n, ast.TypeCast) and n.typeName.names[-1].sval in ("text", "varchar") and _named_constant(n.arg):
            n.arg = _reg_shown(n.arg)  # 't'::regclass::text is the name
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("=", "<>", "!="):
            for col, other in (("lexpr", "rexpr"), ("rexpr", "lexpr")):
                ref, const = getattr(n, col), getattr(n, other)
                if isinstance(ref, ast.ColumnRef) and isinstance(ref.fields[-1], ast.String) and ref.fields[-1].sval in REGPROC_COLUMNS \
                        and ref.fields[-1].sval not in self._columns and isinstance(const, ast.A_Const) \
                        and isinstance(const.val, ast.Integer) and const.val.ival == 0:
                    setattr(n, other, ast.A_Const(val=ast.String(sval="-")))  # regproc 0 is the name "-"
        if isinstance(n, ast.A_Indirection) and isinstance(n.arg, ast.ColumnRef) and isinstance(n.arg.fields[-1], ast.String) \
                and n.arg.fields[-1].sval in VECTOR_COLUMNS and n.arg.fields[-1].sval not in self._columns and id(n) not in self._cast:
            self._cast.add(id(n))  # int2vector/oidvector subscripts start at 0, DuckDB lists' at 1
            n.indirection = tuple(_shifted(i) if isinstance(i, ast.A_Indices) else i for i in n.indirection)
            return n
        if isinstance(n, ast.SQLValueFunction):
            return self.pg.value(n.op.name)
        if isinstance(n, ast.FuncCall):
            names = [x.sval for x in n.funcname]
            if names[-1] == "pg_typeof" and len(n.args or ()) == 1 and jsonops.kind(n.args[0], self._columns) == "jsonb":
                return expand("pg_catalog.txngate_pg_typeof('JSONB')", [])  # the engine holds jsonb as JSON
            if names[-1] in ("pg_typeof", "enum_range", "enum_first", "enum_last") and len(n.args or ()) == 1 \
                    and (enum := self._enum_operand(n.args[0])) is not None:
                return _enum_function(names[-1], enum)
            if names[-1] == "pg_typeof" and len(n.args or ()) == 1 and isinstance(n.args[0], ast.TypeCast) \
                    and isinstance(made := _made_type(n.args[0].typeName), (CompositeType, DomainType)):
                return _constant(made.name + ("[]" if n.args[0].typeName.arrayBounds else ""))  # (the engine's is its base or a STRUCT)
            if names[-1] == "pg_typeof" and len(n.args or ()) == 1 and (domain := self._domain_column(n.args[0])) is not None:
                return _constant(domain.name)  # a column declared of a domain (stored as its base type)
            if names[-1] == "pg_typeof" and len(n.args or ()) == 1 and (string := _declared_string(n.args[0], _found(self._columns))):
                base = "character" if string.startswith("char") else "character varying"  # the engine's is text
                return _constant(base + "[]" if string.endswith("[]") else base)
            if len(names) == 1 or names[0] in ("pg_catalog", "information_schema"):
                return self.pg.function(names[-1].lower(), list(n.args or ()))
            return None
        if isinstance(n, ast.TypeCast):
            kind = n.typeName.names[-1].sval.lower()
            if kind in ("regclass", "regtype", "regnamespace") and not n.typeName.arrayBounds:
                arg = n.arg
                if isinstance(arg, ast.A_Const) and isinstance(arg.val, ast.String):
                    return ast.A_Const(val=ast.Integer(ival=getattr(self.pg, kind)(arg.val.sval)))
                if isinstance(arg, ast.ParamRef) and kind == "regclass":  # a name given as a parameter, read as PostgreSQL reads it
                    name = "trim(regexp_replace(_arg1, '\\s*[.]\\s*', '.', 'g'))"  # "public" . "t" as "public"."t"
                    return expand(
                        "(CASE WHEN _arg1 IS NULL THEN NULL WHEN regexp_full_match(_arg1, '[0-9]+') THEN CAST(_arg1 AS bigint) ELSE coalesce("
                        f"(SELECT min(d.txngate_oid) FROM pg_catalog.txngate_defs d WHERE d.txngate_kind = 'regclass_in' AND (d.txngate_def = {name}"
                        f" OR (strpos(_arg1, '\"') = 0 AND d.txngate_def = lower({name})))),"
                        " error('[42P01] relation \"' || _arg1 || '\" does not exist')) END)", [arg])
                if isinstance(arg, ast.ParamRef):  # a name given as a parameter: its OID, or NULL
                    name_kind = {"regtype": "typname"}.get(kind, kind)
                    return expand(f"(SELECT min(d.txngate_oid) FROM pg_catalog.txngate_defs d WHERE d.txngate_kind = '{name_kind}' AND d.txngate_def = _arg1)", [arg])
                return expand(f"(SELECT d.txngate_def FROM pg_catalog.txngate_defs d WHERE d.txngate_oid = _arg1 AND d.txngate_kind = '{kind}')", [arg])
            return None
        if isinstance(n, ast.RangeFunction) and len(n.functions) == 1:
            fc = n.functions[0][0]
            if isinstance(fc, ast.FuncCall) and fc.funcname[-1].sval == "pg_get_keywords":
                return ast.RangeVar(schemaname="pg_catalog", relname="pg_keywords", inh=True, relpersistence="p",
                                    alias=n.alias or ast.Alias(aliasname="pg_get_keywords"))
            if isinstance(fc, ast.FuncCall) and fc.funcname[-1].sval == "pg_partition_ancestors":  # no partitions: none (psql's \d)
                query = pglast.parse_sql("SELECT CAST(NULL AS oid) AS relid, CAST(NULL AS bigint) AS ordinality WHERE false")[0].stmt
                alias = copy.deepcopy(n.alias) if n.alias is not None else ast.Alias(aliasname="pg_partition_ancestors")
                return ast.RangeSubselect(subquery=query, alias=alias)
        return None

    def internal(self, rel: Relation) -> str:
        name = self._names.get(rel.qualified)
        if name is not None:
            return name
        if rel.kind == "view":
            if rel.qualified in self._binding_views:
                raise SqlError("42P17", f'infinite recursion detected in rules for relation "{rel.name}"')
            self._binding_views.add(rel.qualified)
            inner = pglast.parse_sql(rel.query)[0].stmt
            for leaf in _named_subqueries(ast.RangeSubselect(subquery=inner)) if self.dialect == "duckdb" else ():
                _name_outputs(leaf)  # its columns are read by PostgreSQL's names
            sql = self._finish(pg_sql(self.rewrite(inner)))
            name = f"_r{len(self._names)}"
            self.out.views.append((name, sql))
        else:
            name = f"_r{len(self._names)}"
            self.out.tables[name] = rel
        self._names[rel.qualified] = name
        return name

    def _group_dependents(self, select: ast.SelectStmt, ctes: set[str]) -> None:
        """GROUP BY a table's primary key lets the query use the table's
        other columns (PostgreSQL's functional dependency): they join the
        GROUP BY, which changes no group, so DuckDB accepts them too."""
        if not all(isinstance(g, ast.ColumnRef) for g in select.groupClause):
            return  # ROLLUP, CUBE, GROUPING SETS, expressions: as written
        grouped = {tuple(f.sval for f in g.fields if isinstance(f, ast.String)) for g in select.groupClause}
        used = _referenced_columns(select)  # only these need grouping: a wide table's other columns would cost for nothing
        added = []
        for rv in _from_tables(select.fromClause):
            if rv.schemaname is None and rv.relname in ctes:
                continue
            rel = self.catalog.lookup(rv.relname, rv.schemaname, self.search_path)
            if rel is None or rel.kind != "table" or not rel.primary_key:
                continue
            alias = rv.alias.aliasname if rv.alias is not None else rv.relname
            if all((alias, k) in grouped or (k,) in grouped for k in rel.primary_key):
                added += [ast.ColumnRef(fields=(ast.String(sval=alias), ast.String(sval=c)))
                          for c in rel.column_names if (alias, c) not in grouped and (c,) not in grouped
                          and ({(alias, c), (c,), (alias, "*"), ("*",)} & used)]
        if added:
            select.groupClause = tuple(select.groupClause) + tuple(added)

    def _star_of_merged(self, select: ast.SelectStmt, ctes: set[str]) -> None:
        """``SELECT *`` over a JOIN ... USING or NATURAL JOIN as PostgreSQL
        orders its columns: the merged ones first (in USING's order), then
        the left side's others, then the right side's (DuckDB keeps the
        left side's order: ``t1(a, b) JOIN t2 USING (b)`` gave a, b, ...).
        The star becomes the list of columns; left as written when a
        relation's columns are not known here (a subquery, a CTE, a
        function) or a merged name would be ambiguous."""
        stars = [i for i, t in enumerate(select.targetList) if isinstance(t.val, ast.ColumnRef) and len(t.val.fields) == 1
                 and isinstance(t.val.fields[0], ast.A_Star)]
        if len(stars) != 1:
            return
        columns: list[tuple[str | None, str]] = []
        for item in select.fromClause:
            found = self._from_columns(item, ctes)
            if found is None:
                return
            columns += found
        merged = [name for qualifier, name in columns if qualifier is None]
        if len(set(merged)) != len(merged) or any(q is not None and name in merged for q, name in columns):
            return
        listed = tuple(ast.ResTarget(val=ast.ColumnRef(fields=tuple(ast.String(sval=f) for f in ((name,) if q is None else (q, name)))))
                       for q, name in columns)
        i = stars[0]
        select.targetList = tuple(select.targetList[:i]) + listed + tuple(select.targetList[i + 1:])

    def _widen_merged(self, select: ast.SelectStmt, ctes: set[str]) -> None:
        """The merged column of an INNER or LEFT JOIN ... USING (k) (or
        NATURAL) of two tables whose ``k`` are numbers of different types
        as PostgreSQL types it, the common type (``int4 USING int8`` is
        bigint; the engine's is the left side's: ``k + 1`` overflowed as
        an integer): each unqualified ``k`` of this SELECT (not of its
        subqueries, which may have a ``k`` of their own) as the left
        table's ``k`` cast to it (resolve types the merged ``k`` so)."""
        widened: dict[str, ast.Node] = {}
        merges: dict[str, int] = {}

        def visit(item) -> None:
            if not isinstance(item, ast.JoinExpr):
                return
            visit(item.larg)
            visit(item.rarg)
            sides = [self._table_types(side, ctes) for side in (item.larg, item.rarg)]
            if item.usingClause:
                names = [u.sval for u in item.usingClause]
            elif item.isNatural and None not in sides:
                names = [c for c in sides[0] if c in sides[1]]
            else:
                return
            for name in names:
                merges[name] = merges.get(name, 0) + 1
            if None in sides or item.jointype.name not in ("JOIN_INNER", "JOIN_LEFT"):
                return
            left, right = sides
            alias = item.larg.alias.aliasname if item.larg.alias is not None else item.larg.relname
            for name in names:
                common = common_number_type([left.get(name), right.get(name)])
                if common is not None and common != left[name].split("(")[0]:
                    widened[name] = _cast_to(ast.ColumnRef(fields=(ast.String(sval=alias), ast.String(sval=name))), common)

        for item in select.fromClause:
            visit(item)
        widened = {name: cast for name, cast in widened.items() if merges[name] == 1}
        if not widened:
            return

        def cast(ref):
            if isinstance(ref, ast.ColumnRef) and len(ref.fields) == 1 and isinstance(ref.fields[0], ast.String) \
                    and ref.fields[0].sval in widened:
                return copy.deepcopy(widened[ref.fields[0].sval])
            if isinstance(ref, (ast.SubLink, ast.SelectStmt, ast.RangeSubselect)):
                return ref  # (a scope of its own: left as it is)
            replace_children(ref, cast)
            return None

        for t in select.targetList:
            if isinstance(t.val, ast.ColumnRef) and t.name is None and len(t.val.fields) == 1 \
                    and isinstance(t.val.fields[0], ast.String) and t.val.fields[0].sval in widened:
                t.name = t.val.fields[0].sval  # the output keeps the column's name
        for attr in ("targetList", "whereClause", "groupClause", "havingClause", "sortClause"):
            value = getattr(select, attr)
            if isinstance(value, ast.Node):
                setattr(select, attr, cast(value) or value)
            elif value:
                setattr(select, attr, tuple(cast(v) or v for v in value))

    def _table_types(self, item: ast.Node, ctes: set[str]) -> dict[str, str] | None:
        """A FROM item's columns and their declared types when it is a
        table (or view) of the catalog, else None."""
        if not isinstance(item, ast.RangeVar) or item.schemaname is None and item.relname in ctes:
            return None
        found = self.catalog.column_types(item, self.search_path)
        if found is None or item.alias is not None and item.alias.colnames:
            return None
        return dict(found)

    def _from_columns(self, item: ast.Node, ctes: set[str]) -> list[tuple[str | None, str]] | None:
        """The columns a FROM item gives ``*``, each (qualifier, name), the
        columns merged by USING unqualified; None when not known here."""
        if isinstance(item, ast.RangeVar):
            if item.schemaname is None and item.relname in ctes:
                return None
            rel = self.catalog.lookup(item.relname, item.schemaname, self.search_path)
            if rel is None:
                return None
            alias = item.alias.aliasname if item.alias is not None else item.relname
            renamed = [c.sval for c in (item.alias.colnames or ())] if item.alias is not None else []
            names = renamed + list(rel.column_names[len(renamed):])
            return [(alias, name) for name in names]
        if isinstance(item, ast.RangeSubselect) or isinstance(item, ast.JoinExpr) and item.alias is not None:
            # a subquery's columns (its own * expanded), or (a JOIN b USING (k)) AS j's: j's, in the join's order
            names = scopes.output_names(item, ctes, self.columns_of) if item.alias is not None else None
            return None if names is None else self._aliased(item.alias, names)
        if not isinstance(item, ast.JoinExpr):
            return None
        left, right = self._from_columns(item.larg, ctes), self._from_columns(item.rarg, ctes)
        if left is None or right is None:
            return None
        if item.isNatural:
            names = [name for _q, name in left if name in {n for _q, n in right}]
        elif item.usingClause:
            names = [u.sval for u in item.usingClause]
        else:
            return left + right
        rest = [c for c in left if c[1] not in names] + [c for c in right if c[1] not in names]
        return [(None, name) for name in names] + rest

    @staticmethod
    def _aliased(alias: ast.Alias, names: list[str]) -> list[tuple[str, str]]:
        """A FROM item's columns under ``alias`` (its column list renaming the first ones)."""
        renamed = [c.sval for c in (alias.colnames or ())]
        return [(alias.aliasname, name) for name in renamed + names[len(renamed):]]

    def _rename(self, rv: ast.RangeVar, ctes: set[str]) -> None:
        if rv.schemaname is None and (rv.relname in ctes or rv.relname in self.given):
            return
        if rv.catalogname is not None and rv.catalogname != "txngate":
            raise not_supported("cross-database references")
        rel = self.catalog.lookup(rv.relname, rv.schemaname, self.search_path)
        if rel is None and self.emulation is not None:
            found = self.pg.relation(rv.schemaname, rv.relname)
            if found is not None:
                key = f"virtual:{found[0]}"
                name = self._names.get(key)
                if name is None:
                    name = f"_r{len(self._names)}"
                    self._names[key] = name
                    self.out.virtual[name] = VirtualTable(*found)
                    self.out.uncacheable = True
                self._set(rv, name)
                return
        if rel is None:
            position = rv.location + 1 if rv.location is not None and rv.location >= 0 else None
            self.catalog.relation(rv.relname, rv.schemaname, self.search_path, position)  # raises
        self._set(rv, self.internal(rel))

    @staticmethod
    def _set(rv: ast.RangeVar, name: str) -> None:
        if rv.alias is None:
            rv.alias = ast.Alias(aliasname=rv.relname)
        rv.relname, rv.schemaname, rv.catalogname = name, None, None


def _zipped_unnest(n: ast.RangeFunction, columns: dict[str, str]) -> ast.RangeSubselect | None:
    """``unnest(a, b, ...) [WITH ORDINALITY]`` in FROM (arrays side by
    side, the shorter padded with NULLs, then the position), or unnest of
    a multidimensional array (every element, ``_flattened``), as DuckDB's
    SELECT-list unnests, which zip alike, in a LATERAL subquery (its
    arguments may read the FROM items before it, as PostgreSQL allows)."""
    if n.is_rowsfrom or len(n.functions) != 1:
        return None
    fc = n.functions[0][0]
    args = list(fc.args or ()) if isinstance(fc, ast.FuncCall) else []
    if fc.funcname[-1].sval.lower() != "unnest" or not args:
        return None
    if len(args) < 2 and _array_depth(args[0], columns) == 1:
        fc.args = (_one_dimension(args[0]),)
        return None  # one array of one dimension: DuckDB's own (WITH ORDINALITY too)
    args = [_flattened(a, columns) if _array_depth(a, columns) > 1 else _one_dimension(a) for a in args]
    items = [f"unnest(_arg{i + 1}) AS unnest" for i in range(len(args))]
    if n.ordinality:
        longest = ", ".join(f"coalesce(len(_arg{i + 1}), 0)" for i in range(len(args)))
        items.append(f"unnest(range(1, greatest({longest}, 0) + 1)) AS ordinality")
    query = expand(f"(SELECT {', '.join(items)})", args).subselect
    alias = copy.deepcopy(n.alias) if n.alias is not None else ast.Alias(aliasname="unnest")
    if len(args) == 1 and not alias.colnames:  # one array: the alias names its column, as PostgreSQL's
        alias.colnames = (ast.String(sval=alias.aliasname),) + ((ast.String(sval="ordinality"),) if n.ordinality else ())
    return ast.RangeSubselect(lateral=True, subquery=query, alias=alias)


def _one_dimension(arg: ast.Node) -> ast.Node:
    """A column the binder takes for an array of one dimension, checked to
    be one when it is read (``txngate_one_dimension``): a view's column of a
    multidimensional array would be unnested by its rows, a wrong answer."""
    if not isinstance(arg, ast.ColumnRef):
        return arg
    return ast.FuncCall(funcname=(ast.String(sval="pg_catalog"), ast.String(sval="txngate_one_dimension")), args=(arg,))


def _flattened(arg: ast.Node, columns: dict[str, str] | None = None) -> ast.Node:
    """A multidimensional array as the list of all its elements, in order
    (PostgreSQL's unnest takes every element; DuckDB's gives the inner
    lists)."""
    for _ in range(_array_depth(arg, columns) - 1):
        arg = ast.FuncCall(funcname=(ast.String(sval="flatten"),), args=(arg,))
    return arg


def _table_function(n: ast.RangeFunction, columns: dict[str, str]) -> ast.RangeSubselect | None:
    """``regexp_split_to_table(s, pattern [, flags])`` or
    ``string_to_table(s, delimiter [, null])`` in FROM: the pieces
    local_exec.regex or string_to_array splits, unnested in a LATERAL
    subquery whose one column the alias names (as PostgreSQL names a
    scalar function's); ``generate_series`` of integers likewise, its
    values integers; a function of one value (``resolve.scalar_in_from``) as the
    one row of its value (DuckDB's FROM repeat('ab', 500) repeated a row
    500 times)."""
    fc = n.functions[0][0] if len(n.functions) == 1 else None
    name = fc.funcname[-1].sval if isinstance(fc, ast.FuncCall) else None
    if name is None:
        return None
    if scalar_in_from(name):
        query = ast.SelectStmt(targetList=(ast.ResTarget(name="value", val=fc),)
                               + ((ast.ResTarget(name="ordinality", val=_cast_to(_constant(1), "bigint")),) if n.ordinality else ()))
    elif n.ordinality or name not in ("regexp_split_to_table", "string_to_table", "generate_series") or len(fc.args or ()) not in (2, 3):
        return None
    elif name == "generate_series":  # of integers: PostgreSQL's are integers, DuckDB's bigints
        if not all(_operand_type(a, columns) in ("smallint", "integer") for a in fc.args):
            return None
        query = expand("(SELECT CAST(g AS integer) AS g FROM generate_series(" + ", ".join(f"_arg{i + 1}" for i in range(len(fc.args)))
                       + ") AS s(g))", list(fc.args)).subselect
    elif name == "string_to_table":
        query = expand("(SELECT unnest(string_to_array(" + ", ".join(f"_arg{i + 1}" for i in range(len(fc.args))) + ")) AS piece)",
                       list(fc.args)).subselect
    else:
        args = list(fc.args) + [_constant("")] * (3 - len(fc.args))
        query = expand("(SELECT unnest(txngate_regexp_split_to_array(_arg1, _arg2, _arg3)) AS piece)", args).subselect
    alias = copy.deepcopy(n.alias) if n.alias is not None else ast.Alias(aliasname=name)
    names = [c.sval for c in alias.colnames or ()] + [alias.aliasname, "ordinality"][len(alias.colnames or ()):]
    alias.colnames = tuple(ast.String(sval=c) for c in names[:len(query.targetList)])
    return ast.RangeSubselect(lateral=True, subquery=query, alias=alias)


def _group_by_output_names(select: ast.SelectStmt) -> None:
    """``GROUP BY x`` where ``x`` names an output column and a FROM item
    (dbt's ``referenced_schema.name AS referenced_schema ... GROUP BY
    referenced_schema``): PostgreSQL groups by the output column (no FROM
    item has a column of that name), DuckDB by the FROM item's whole row.
    The output column's expression takes the name's place."""
    aliases = {rv.alias.aliasname if rv.alias is not None else rv.relname for rv in _from_tables(select.fromClause)}
    aliases |= {item.alias.aliasname for item in select.fromClause if isinstance(item, ast.RangeSubselect) and item.alias is not None}
    outputs = {t.name: t.val for t in select.targetList or () if t.name}
    groups = []
    for g in select.groupClause:
        name = g.fields[0].sval if isinstance(g, ast.ColumnRef) and len(g.fields) == 1 and isinstance(g.fields[0], ast.String) else None
        groups.append(copy.deepcopy(outputs[name]) if name in aliases and name in outputs else g)
    select.groupClause = tuple(groups)


def _check_recursive_types(with_clause: ast.WithClause, columns: dict[str, str]) -> None:
    """42804 for a recursive CTE whose recursive term makes a column of a
    wider number type than its non-recursive term's (PostgreSQL types the
    CTE by the non-recursive term and refuses a union of another type;
    the engine widened the column as it went)."""
    for cte in with_clause.ctes:
        q = cte.ctequery
        if not isinstance(q, ast.SelectStmt) or q.op is None or q.op.name != "SETOP_UNION" \
                or not q.larg.targetList or not q.rarg.targetList:
            continue
        for i, (first, then) in enumerate(zip(q.larg.targetList, q.rarg.targetList), 1):
            known, made = _operand_type(first.val, columns, floats=True), _operand_type(then.val, columns, floats=True)
            if known is not None and made is not None and _WIDENING.index(made) > _WIDENING.index(known):
                pass
            elif (modified := _modified_cast(first.val)) is not None and isinstance(then.val, ast.TypeCast) \
                    and not then.val.typeName.arrayBounds and modified != _modified_cast(then.val) \
                    and _modified_cast(first.val, base=True) == _modified_cast(then.val, base=True):
                known, made = modified, modified[:modified.index("(")]  # another modifier, or none: the union's has none
            else:
                continue
            raise SqlError("42804", f'recursive query "{cte.ctename}" column {i} has type {known} in non-recursive term '
                           f"but type {made} overall", hint="Cast the output of the non-recursive term to the correct type.",
                           position=_position(first.val))


def _element_search(n: ast.Node, columns: dict[str, str]) -> ast.Node | None:
    """``x = ANY (array)`` (and ``x <> ALL (array)``, its negation) of a
    one-dimensional array as a search of the list, with PostgreSQL's NULLs:
    true when an element equals x, else NULL when the array or x is NULL
    or an element is (but false for an empty array), else false. The
    engine plans ``= ANY`` of a list as a join with its unnested elements
    (a correlated subquery): a dozen of them in one expression (avg of an
    interval computes its argument for each field) took minutes to plan."""
    if not isinstance(n, ast.A_Expr) or n.lexpr is None or isinstance(n.rexpr, (ast.SubLink, ast.A_Const)):
        return None
    op = n.name[-1].sval
    if not (n.kind == A_Expr_Kind.AEXPR_OP_ANY and op == "=" or n.kind == A_Expr_Kind.AEXPR_OP_ALL and op in ("<>", "!=")):
        return None
    if _array_depth(n.rexpr, columns) > 1:
        return None  # (PostgreSQL compares x with each element of every dimension)
    found = expand("CASE WHEN list_contains(_arg2, _arg1) THEN true WHEN _arg2 IS NULL THEN NULL WHEN len(_arg2) = 0 THEN false"
                   " WHEN _arg1 IS NULL OR list_position(_arg2, NULL) IS NOT NULL THEN NULL ELSE false END", [n.lexpr, n.rexpr])
    return found if n.kind == A_Expr_Kind.AEXPR_OP_ANY else ast.BoolExpr(boolop=BoolExprType.NOT_EXPR, args=(found,))


def _nullable_items(node: ast.Node) -> set[str]:
    """The names of the FROM items (tables, subqueries, functions) under
    the side of an outer join that may be missing (a LEFT JOIN's right, a
    RIGHT JOIN's left, both of a FULL JOIN's), anywhere in ``node``."""
    sides = {"JOIN_LEFT": ("rarg",), "JOIN_RIGHT": ("larg",), "JOIN_FULL": ("larg", "rarg")}
    names = set()
    for join in walk(node):
        if isinstance(join, ast.JoinExpr) and join.jointype.name in sides:
            for side in sides[join.jointype.name]:
                for item in walk(getattr(join, side)):
                    if isinstance(item, (ast.RangeVar, ast.RangeSubselect, ast.RangeFunction)):
                        alias = getattr(item, "alias", None)
                        name = alias.aliasname if alias is not None else getattr(item, "relname", None)
                        if name is not None:
                            names.add(name)
                    elif isinstance(item, ast.JoinExpr) and item.alias is not None:
                        names.add(item.alias.aliasname)
    return names


#: functions of json that take a whole row (``row_to_json(t)``), an outer join's missing one as NULL (planner.jsonops): where
#: ``t.*`` is read as ``t`` (elsewhere the engine's whole row of a missing row is a row of NULLs: count(t), t::text)
_WHOLE_ROW_JSON = {"row_to_json", "to_json", "to_jsonb", "json_agg", "jsonb_agg", "json_build_object", "jsonb_build_object",
                   "json_build_array", "jsonb_build_array"}


def _modified_cast(n: ast.Node, *, base: bool = False) -> str | None:
    """A cast to a numeric, varchar or char of a given size, as PostgreSQL
    names its type (``numeric(3,0)``, ``character varying(3)``; ``base``:
    the type without its size, of a cast with or without one)."""
    if not isinstance(n, ast.TypeCast) or not (n.typeName.typmods or base) or n.typeName.arrayBounds:
        return None
    name = {"numeric": "numeric", "decimal": "numeric", "varchar": "character varying", "bpchar": "character"}.get(n.typeName.names[-1].sval)
    if base:
        return name
    mods = [m.val.ival for m in n.typeName.typmods if isinstance(m, ast.A_Const) and isinstance(m.val, ast.Integer)]
    if name is None or len(mods) != len(n.typeName.typmods):
        return None
    if name == "numeric" and len(mods) == 1:
        mods.append(0)
    return f"{name}({','.join(map(str, mods))})"


def _constant_groups(select: ast.SelectStmt) -> None:
    """``GROUP BY 1`` of an output column that is an integer or string
    constant (``SELECT 2 AS g ... GROUP BY 1``): grouped by the constant
    cast, not the constant itself, which DuckDB would find again inside
    every other output expression (an index ``p[2]`` into a pair in a
    macro's lambda, the ``''`` json_agg's text is joined with, became a
    reference to the group: "must be a constant expression"). One group
    of every row either way, none without rows."""
    targets = select.targetList or ()
    groups, cast = [], set()  # the (kind, value) of each constant grouped by
    for g in select.groupClause:
        if isinstance(g, ast.A_Const) and isinstance(g.val, ast.Integer) and 1 <= g.val.ival <= len(targets):
            value = targets[g.val.ival - 1].val
            kind = _constant_kind(value)
            if kind is not None:
                g = _cast_to(copy.deepcopy(value), kind)
                cast.add((kind, _constant_value(value)))
        groups.append(g)
    select.groupClause = tuple(groups)
    for clause in (select.targetList, select.havingClause, select.sortClause):  # GROUPING(2) names the group
        for n in walk(clause) if clause is not None else ():
            if isinstance(n, ast.GroupingFunc):
                n.args = tuple(_cast_to(a, _constant_kind(a)) if (_constant_kind(a), _constant_value(a)) in cast else a for a in n.args)


def _constant_kind(n: ast.Node) -> str | None:
    """"int4" or "text" for an integer or string constant, else None."""
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer):
        return "int4"
    return "text" if isinstance(n, ast.A_Const) and isinstance(n.val, ast.String) else None


def _constant_value(n: ast.Node):
    """An integer or string constant's value (None for anything else)."""
    kind = _constant_kind(n)
    return None if kind is None else n.val.ival if kind == "int4" else n.val.sval


def _from_tables(items) -> list[ast.RangeVar]:
    """The tables a FROM clause joins directly (not those in subqueries)."""
    out = []
    for item in items or ():
        if isinstance(item, ast.RangeVar):
            out.append(item)
        elif isinstance(item, ast.JoinExpr):
            out += _from_tables((item.larg, item.rarg))
    return out


def _shifted(index: ast.A_Indices) -> ast.A_Indices:
    """A subscript (or slice) one further: from 0-based to 1-based."""
    def plus_one(e):
        return None if e is None else expand("_arg1 + 1", [e])

    return ast.A_Indices(is_slice=index.is_slice, lidx=plus_one(index.lidx), uidx=plus_one(index.uidx))


def column_types(node: ast.Node, catalog: Catalog, search_path: tuple[str, ...]) -> dict[str, str]:
    """Declared types of the columns of the stored relations ``node`` names,
    by column name (only names with one type), for typing the literals and
    operators used with them (arrays, json, char(n)). A view contributes its
    char(n) columns; the output names of the statement's own subqueries and
    CTEs that pass a char(n) column through (``n_name AS nation``,
    ``max(c)``, ``AS x(a)``) are char(n) too, so ``nation = 'BRAZIL'``
    compares without the padding wherever the column travelled."""
    found: dict[str, set[str]] = {}
    for n in walk(node):
        if isinstance(n, ast.RangeVar) and n.catalogname is None:
            rel = catalog.lookup(n.relname, n.schemaname, search_path)
            for col in rel.columns if rel is not None else ():
                if rel.kind != "view" or is_char(col.type):
                    found.setdefault(col.name, set()).add(col.type)
        elif isinstance(n, ast.RangeFunction):
            for name, t in {**jsonops.table_function_columns(n), **_series_columns(n)}.items():
                found.setdefault(name, set()).add(t)
            row_type = jsonops.populated_type(n)  # json_populate_record(NULL::t, ...): t's columns
            rel = catalog.lookup(row_type[-1], row_type[0] if len(row_type) == 2 else None, search_path) if row_type else None
            for col in rel.columns if rel is not None else ():
                found.setdefault(col.name, set()).add(col.type)
            made = made_type(row_type) if row_type and rel is None else None
            for f, t in made.fields if isinstance(made, CompositeType) else ():  # (or a composite type's fields)
                found.setdefault(f, set()).add(domain_of(t).base if domain_of(t) is not None else t)
    _char_aliases(node, found)
    _numeric_aliases(node, found)
    _json_aliases(node, found)
    return {name: types.pop() for name, types in found.items() if len(types) == 1}


def _carried_intervals(select: ast.SelectStmt, columns: dict[str, str]) -> None:
    """Each computed interval the client gets checked against the time an
    interval can carry out of the engine (Arrow's 64-bit nanoseconds:
    ``interval '2000000 hours' * 2`` came out wrapped, negative): past it,
    0A000 (``txngate_carried_interval``), not a wrong answer. A stored
    column's values were checked as they were written."""
    names = None
    for i, target in enumerate(select.targetList or ()):
        if isinstance(target, ast.ResTarget) and not isinstance(target.val, ast.ColumnRef) and _is_interval(target.val, columns):
            names = p.result_names(select) or [] if names is None else names  # (the names only where one is wrapped)
            if target.name is None and i < len(names):
                target.name = names[i]
            target.val = ast.FuncCall(funcname=(ast.String(sval="txngate_carried_interval"),), args=(target.val,))


def _carried(n: ast.Node) -> ast.Node:
    """An interval the engine hands to one of our functions (through Arrow)
    checked as ``_carried_intervals`` checks a result; a stored column or a
    constant as it is (checked when written or read)."""
    if isinstance(n, (ast.ColumnRef, ast.A_Const)) or isinstance(n, ast.TypeCast) and isinstance(n.arg, ast.A_Const):
        return n
    return ast.FuncCall(funcname=(ast.String(sval="txngate_carried_interval"),), args=(n,))


def _without_collations(node: ast.Node) -> None:
    """Every ``x COLLATE c`` as ``x``, first: DuckDB compares text by its
    bytes, as PostgreSQL's "C" and the test server's default do, and the
    rewrites below see the operand itself (a char(n) column's padding is
    dropped beside text whether it is COLLATE'd or not)."""
    def bare(c: ast.Node) -> ast.Node | None:
        if not isinstance(c, ast.CollateClause):
            return None
        while isinstance(c, ast.CollateClause):
            c = c.arg
        return c
    for n in walk(node):
        replace_children(n, bare)


def _series_columns(rf: ast.RangeFunction) -> dict[str, str]:
    """The timestamp or timestamptz column of ``generate_series(start,
    stop, step)`` of dates or times in FROM, by its name (a RANGE frame
    over it takes an interval offset)."""
    if len(rf.functions) != 1 or not isinstance(call := rf.functions[0][0], ast.FuncCall) \
            or call.funcname[-1].sval != "generate_series" or len(call.args or ()) != 3:
        return {}
    kinds = [_datetime_kind(a, {}) or ("timestamptz" if _is_now(a) else None) for a in call.args[:2]]
    if None in kinds:
        return {}
    alias = rf.alias
    name = alias.colnames[0].sval if alias is not None and alias.colnames else alias.aliasname if alias is not None else "generate_series"
    return {name: "timestamp" if kinds == ["timestamp", "timestamp"] else "timestamptz"}


def _is_now(n: ast.Node) -> bool:
    """``n`` is now() or CURRENT_TIMESTAMP, or one plus or minus something."""
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-") and n.lexpr is not None:
        return _is_now(n.lexpr)
    if isinstance(n, ast.FuncCall):
        return n.funcname[-1].sval in ("now", "transaction_timestamp", "statement_timestamp", "clock_timestamp") and not n.args
    return isinstance(n, ast.SQLValueFunction) and n.op.name == "SVFOP_CURRENT_TIMESTAMP"


def _name_subquery_outputs(node: ast.Node) -> None:
    """The computed outputs of FROM subqueries and CTEs named as
    PostgreSQL names them (``count``, ``array``, ``?column?``): the engine
    names them by their expression (``count_star()``), which a star over the
    subquery would show and a reference by PostgreSQL's name would miss.
    A VALUES list's columns are column1, column2, ... (the engine's col0,
    col1, ...) where the alias names none."""
    for sub in _named_subqueries(node):
        _name_outputs(sub)
    for n in walk(node):
        if isinstance(n, ast.RangeSubselect) and n.alias is not None and (width := _values_width(n.subquery)):
            n.alias.colnames = _values_names(n.alias.colnames, width)
        elif isinstance(n, ast.CommonTableExpr) and (width := _values_width(n.ctequery)):
            n.aliascolnames = _values_names(n.aliascolnames, width)


def _name_outputs(select: ast.SelectStmt) -> None:
    """Name a plain SELECT's computed outputs as PostgreSQL does."""
    for target in select.targetList or ():
        if target.name is None and not isinstance(target.val, ast.ColumnRef):
            target.name = p.figure_name(target.val)


#: type names PostgreSQL also takes as functions of one argument, a cast (``float8(x)`` is ``x::float8``)
_CAST_FUNCTIONS = frozenset({"int2", "int4", "int8", "float4", "float8", "text", "bool", "date", "bytea", "json", "jsonb", "uuid", "bpchar"})


def _function_casts(node: ast.Node) -> None:
    """A call of a type's name with one argument as the cast it is in
    PostgreSQL (``float8(count(*))``, ``int4(2.5)``, ``text(x)``)."""
    def cast(n):
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in _CAST_FUNCTIONS and len(n.args or ()) == 1 \
                and (len(n.funcname) == 1 or n.funcname[0].sval == "pg_catalog") and n.over is None and not n.agg_star \
                and not n.agg_distinct and n.agg_filter is None and not n.agg_order and not n.func_variadic:
            return ast.TypeCast(arg=n.args[0], typeName=ast.TypeName(names=(ast.String(sval=n.funcname[-1].sval),), typemod=-1))
        return None

    for n in walk(node):
        replace_children(n, cast)


def _wrap_values_arms(node: ast.Node) -> None:
    """A VALUES list that is an arm of a set operation as ``SELECT * FROM
    (VALUES ...) AS "*VALUES*"(column1, ...)``: the engine's parser takes a
    bare one only at the top of a statement."""
    for n in walk(node):
        if isinstance(n, ast.SelectStmt) and n.op is not None and n.op.name != "SETOP_NONE":
            for side in ("larg", "rarg"):
                arm = getattr(n, side)
                if isinstance(arm, ast.SelectStmt) and arm.valuesLists:
                    alias = ast.Alias(aliasname="*VALUES*", colnames=_values_names((), len(arm.valuesLists[0])))
                    star = ast.ResTarget(val=ast.ColumnRef(fields=(ast.A_Star(),)))
                    setattr(n, side, ast.SelectStmt(targetList=(star,), fromClause=(ast.RangeSubselect(subquery=arm, alias=alias),),
                                                    op=SetOperation.SETOP_NONE, limitOption=LimitOption.LIMIT_OPTION_DEFAULT))


def _values_width(query: ast.Node) -> int:
    """The width of a VALUES list that names a query's columns (the query,
    or the first arm of its set operations), 0 for another query."""
    while isinstance(query, ast.SelectStmt) and query.op is not None and query.op.name != "SETOP_NONE":
        query = query.larg
    return len(query.valuesLists[0]) if isinstance(query, ast.SelectStmt) and query.valuesLists else 0


def _values_names(given, width: int) -> tuple[ast.String, ...]:
    """A VALUES list's column names: those ``given``, then column<n>."""
    given = tuple(given or ())
    return given + tuple(ast.String(sval=f"column{i}") for i in range(len(given) + 1, width + 1))


def _named_subqueries(node: ast.Node) -> list[ast.SelectStmt]:
    """The plain SELECTs of ``node``'s FROM subqueries and CTEs, whose
    outputs the statement reads by name."""
    out = []
    for n in walk(node):
        sub = n.subquery if isinstance(n, ast.RangeSubselect) else n.ctequery if isinstance(n, ast.CommonTableExpr) else None
        if isinstance(sub, ast.SelectStmt) and sub.targetList and (sub.op is None or sub.op.name == "SETOP_NONE"):
            out.append(sub)
        elif isinstance(sub, ast.SelectStmt) and sub.op is not None and sub.op.name != "SETOP_NONE":
            out += decimals.set_operation_leaves(sub) or []  # the first arm names the outputs
    return out


def _json_aliases(node: ast.Node, found: dict[str, set[str]]) -> None:
    """Output names of the statement's subqueries and CTEs that are
    computed json or jsonb (``jsonb_build_object(...) AS doc``), so the
    statement reads them as json (operators, result types)."""
    for sub in _named_subqueries(node):
        flat = {name: next(iter(types)) for name, types in found.items() if len(types) == 1}
        for t in sub.targetList:
            json_kind = jsonops.kind(t.val, flat) if t.name and not isinstance(t.val, ast.ColumnRef) else None
            if json_kind is not None:
                found.setdefault(t.name, set()).add(json_kind)


def _numeric_aliases(node: ast.Node, found: dict[str, set[str]]) -> None:
    """Output names of the statement's subqueries and CTEs that are numeric
    or integer expressions (``l_extendedprice * (1 - l_discount) AS
    volume``, ``i + 1 AS x``), so a division of them is PostgreSQL's numeric
    division and their avg and sum are PostgreSQL's (exact, of its type)."""
    for n in walk(node):
        if isinstance(n, ast.SelectStmt) and n.targetList:
            flat = {name: next(iter(types)) for name, types in found.items() if len(types) == 1}
            for t in n.targetList:
                if not t.name or t.name in found:
                    continue
                if _operand_type(t.val, flat, floats=True) == "numeric":
                    found[t.name] = {"numeric"}
                elif (width := _operand_type(t.val, flat)) in INTEGER_TYPES:
                    found[t.name] = {width}


#: sum's and avg's result type by their argument's (PostgreSQL's)
_SUM_TYPES = {"smallint": "bigint", "integer": "bigint", "bigint": "numeric", "real": "real", "double precision": "double precision",
              "interval": "interval"}
_AVG_TYPES = {"smallint": "numeric", "integer": "numeric", "bigint": "numeric", "real": "double precision",
              "double precision": "double precision", "interval": "interval"}


def _output_type(n: ast.Node, columns: dict[str, str]) -> str | None:
    """The type of a query's output computed by ``n``, spelled as a
    declared column's (resolve: what a FROM subquery's or CTE's column
    reads as); None when it is not plain."""
    if (inner := _scalar_subquery_output(n)) is not None:
        n = inner
    if isinstance(n, ast.ColumnRef):
        return column_type(n, columns)
    if (depth := _array_depth(n, columns)) > 1 or isinstance(n, ast.A_ArrayExpr):
        return _nested_array_type(n, depth, columns)
    if isinstance(n, ast.TypeCast):
        if n.typeName.names[-1].sval.lower() in ("bpchar", "char", "character") and not n.typeName.typmods:
            return None  # an unconstrained bpchar: no declared length
        try:
            return canonical(n.typeName, array_ok=True)
        except SqlError:
            return None
    if isinstance(n, ast.FuncCall) and len(n.funcname) == 1:
        name, args = n.funcname[0].sval, n.args or ()
        if name == "count":
            return "bigint"
        if name in TEXT_FUNCTIONS:
            return "text"
        if name in ("min", "max", "any_value") and len(args) == 1:
            inner = _output_type(args[0], columns)  # (max and min of varchar are text's: PostgreSQL has no varchar ones)
            return "text" if inner is not None and inner.startswith("varchar") and name != "any_value" else inner
        if name in ("sum", "avg") and len(args) == 1 and (inner := _output_type(args[0], columns)) is not None:
            return "numeric" if inner.startswith("numeric") else (_SUM_TYPES if name == "sum" else _AVG_TYPES).get(inner)
        if (series := _integer_series(n, lambda: columns)) is not None:
            return series
    if (json_kind := jsonops.kind(n, columns)) is not None:
        return json_kind
    if (isinstance(n, _RESOLVED) or isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_NULLIF) \
            and (string := _common_string(n, _found(columns))) is not None:
        return string  # a CASE, COALESCE, GREATEST/LEAST or NULLIF of character or varchar arms
    if (width := _operand_type(n, columns)) in INTEGER_TYPES:
        return width
    if (kind := _operand_type(n, columns, floats=True)) in ("numeric", "real", "double precision"):
        return kind
    return None


def _date_series(fc: ast.FuncCall, columns: dict[str, str]) -> ast.FuncCall | None:
    """generate_series of dates by an interval as PostgreSQL's: of
    timestamptz (a date converts to timestamptz first; the engine's series
    is of timestamps), an untyped step an interval."""
    args = list(fc.args or ())
    if fc.funcname[-1].sval != "generate_series" or len(args) != 3 or not all(_is_date(a, columns) for a in args[:2]) \
            or not (_maybe_interval(args[2], columns) or _string_constant(args[2])):
        return None
    step = typed_literal(args[2], "interval") if _string_constant(args[2]) else args[2]
    return ast.FuncCall(funcname=fc.funcname, args=(_cast_to(args[0], "timestamptz"), _cast_to(args[1], "timestamptz"), step))


def _bounded(index: ast.A_Indices) -> ast.A_Indices:
    """An array subscript or slice as PostgreSQL reads it of an array
    counted from 1: a subscript below 1 reads nothing (NULL), a slice's
    bounds are cut to the array's (the engine counts a negative one from
    the end: ``a[-1]`` was the last element, PostgreSQL's is NULL)."""
    def positive(e):
        return isinstance(e, ast.A_Const) and isinstance(e.val, ast.Integer) and e.val.ival >= 1

    if not index.is_slice:
        return index if index.uidx is None or positive(index.uidx) else \
            ast.A_Indices(uidx=expand("CASE WHEN _arg1 >= 1 THEN _arg1 END", [index.uidx]))
    lower = index.lidx if index.lidx is None or positive(index.lidx) else expand("CASE WHEN _arg1 < 1 THEN 1 ELSE _arg1 END", [index.lidx])
    upper = index.uidx if index.uidx is None or positive(index.uidx) else expand("CASE WHEN _arg1 < 0 THEN 0 ELSE _arg1 END", [index.uidx])
    if lower is None and upper is not index.uidx:
        lower = ast.A_Const(val=ast.Integer(ival=1))  # (a[:CASE ...] does not transpile)
    return ast.A_Indices(is_slice=True, lidx=lower, uidx=upper)


def _multidimensional_subscripts(n: ast.A_Indirection, depth: int, columns: dict[str, str]) -> ast.Node | None:
    """Subscripts of an array of ``depth`` dimensions, as PostgreSQL reads
    them: one per dimension is an element (the engine's own), fewer or more
    of them NULL; a slice of the first dimension alone the engine's own; a
    slice among several subscripts (each then a slice of its dimension)
    refused, the engine would slice the first dimension only."""
    slices = any(i.is_slice for i in n.indirection)
    if slices and len(n.indirection) > 1:
        raise not_supported("slices of more than one dimension of a multidimensional array")
    if slices or len(n.indirection) == depth:
        return None
    element = _nested_array_type(n.arg, depth, columns)
    if element is None:
        raise not_supported("subscripts of a multidimensional array other than one per dimension")
    return _cast_to(ast.A_Const(isnull=True), element.replace("[]", ""))  # the wrong number of subscripts: NULL


def _nested_array_type(n: ast.Node, depth: int, columns: dict[str, str]) -> str | None:
    """A multidimensional array's type with a ``[]`` a dimension
    (``integer[][]``: what unnest of a subquery's column of it must flatten),
    None when its elements' type is not plain."""
    while isinstance(n, (ast.A_ArrayExpr, ast.TypeCast, ast.A_Indirection)) or isinstance(n, ast.FuncCall) and n.funcname[-1].sval in _ARRAY_FUNCTIONS:
        if isinstance(n, ast.TypeCast):
            try:
                return canonical(n.typeName, array_ok=True).replace("[]", "") + "[]" * depth
            except SqlError:
                return None
        if isinstance(n, ast.A_Indirection):
            n = n.arg
            continue
        items = n.elements if isinstance(n, ast.A_ArrayExpr) else n.args
        if not items:
            return None
        n = items[0]
    if _array_depth(n, columns) > 1:
        return None  # (a column of its own dimensions: not followed)
    element = "text" if isinstance(n, ast.A_Const) and isinstance(n.val, ast.String) else _output_type(n, columns)
    return None if element is None else element.replace("[]", "") + "[]" * depth


def is_char(t: str) -> bool:
    """``t`` is a declared character(n) type (stored padded to n)."""
    return t.startswith("char(")


#: functions whose value is an array (a cast of their value to text is an array's text)
_ARRAY_FUNCTIONS = {"array_agg", "array_append", "array_prepend", "array_cat", "array_remove", "array_replace", "array_fill",
                    "string_to_array", "regexp_split_to_array", "regexp_match", "array_positions", "array", "enum_range", "trim_array",
                    # as rewritten (a copy of a rewritten expression is read again)
                    "txngate_string_to_array", "txngate_array_cat", "txngate_array_remove", "txngate_array_replace", "list_append", "list_prepend"}


def _maybe_list(n: ast.Node | None, columns: dict[str, str]) -> bool:
    """Whether ``n`` may be an array (a DuckDB list) by its form: an ARRAY
    constructor or subquery, a cast to an array, an array column, a
    subscript, a function of arrays."""
    if isinstance(n, (ast.A_ArrayExpr, ast.A_Indirection)):
        return True
    if isinstance(n, ast.TypeCast):
        return bool(n.typeName.arrayBounds)
    if isinstance(n, ast.ColumnRef):
        return isinstance(n.fields[-1], ast.String) and column_type(n, columns, "").endswith("[]")
    if isinstance(n, ast.SubLink):
        return n.subLinkType == SubLinkType.ARRAY_SUBLINK
    if isinstance(n, ast.FuncCall):
        return n.funcname[-1].sval.lower() in _ARRAY_FUNCTIONS
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||":
        return _maybe_list(n.lexpr, columns) or _maybe_list(n.rexpr, columns)
    if (arms := _arms(n)) is not None:
        return any(_maybe_list(b, columns) for b in arms)
    return False


def _referenced_columns(select: ast.SelectStmt) -> set[tuple[str, ...]]:
    """The column references (``(name,)``, ``(qualifier, name)``, ``*`` as
    a name) in a SELECT's outputs, HAVING, ORDER BY, DISTINCT ON and
    windows: what a grouped query may read beyond its GROUP BY."""
    out = set()
    for clause in (select.targetList, select.havingClause, select.sortClause, select.distinctClause, select.windowClause):
        for n in walk(clause) if clause else ():
            if isinstance(n, ast.ColumnRef):
                out.add(tuple(f.sval if isinstance(f, ast.String) else "*" for f in n.fields)[-2:])
    return out


def _merges(item: ast.Node) -> bool:
    """A FROM item holds a JOIN ... USING or a NATURAL JOIN."""
    return isinstance(item, ast.JoinExpr) and (bool(item.usingClause) or item.isNatural or _merges(item.larg) or _merges(item.rarg))


#: the types a jsonb scalar casts to (PostgreSQL's names for them, as its errors print them)
_JSONB_SCALAR_TARGETS = {"bool": "boolean", "boolean": "boolean", "int2": "smallint", "smallint": "smallint", "int4": "integer",
                         "int": "integer", "integer": "integer", "int8": "bigint", "bigint": "bigint", "float4": "real", "real": "real",
                         "float8": "double precision", "numeric": "numeric", "decimal": "numeric"}


def _is_bytea(n: ast.Node, columns: dict[str, str]) -> bool:
    """``n`` is plainly a bytea: a bytea column or a cast to bytea."""
    if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
        return column_type(n, columns) == "bytea"
    return isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds and n.typeName.names[-1].sval == "bytea"


def _type_unknown_values(select: ast.SelectStmt) -> None:
    """A VALUES column of string constants and numbers: the strings read as
    the numbers' type (integer, or numeric beside a decimal constant), as
    PostgreSQL resolves an unknown-typed literal to the type of the
    column's known values (``VALUES ('1'), (2)`` is integer; DuckDB refused
    to unify text with an integer); beside values cast to one type, the
    strings are read as that type."""
    rows = list(select.valuesLists)
    for i in range(min(len(row) for row in rows)):
        column = [row[i] for row in rows]
        casts = [v.typeName for v in column if isinstance(v, ast.TypeCast)]
        if casts and all(isinstance(v, ast.A_Const) or isinstance(v, ast.TypeCast) and v.typeName == casts[0] for v in column):
            # string constants beside values of one declared type ('{1}'::int[], then '{}'): read as that type
            rows = [tuple(ast.TypeCast(arg=v, typeName=copy.deepcopy(casts[0])) if j == i and isinstance(v, ast.A_Const) and not v.isnull
                          and isinstance(v.val, ast.String) else v for j, v in enumerate(row)) for row in rows]
            continue
        if not all(isinstance(v, ast.A_Const) for v in column):
            continue
        kinds = {type(v.val) for v in column if not v.isnull}
        if ast.String not in kinds or not kinds - {ast.String} or not kinds <= {ast.String, ast.Integer, ast.Float}:
            continue
        target = "numeric" if ast.Float in kinds else "int4"
        rows = [tuple(ast.TypeCast(arg=v, typeName=ast.TypeName(names=(ast.String(sval=target),), typemod=-1))
                      if j == i and not v.isnull and isinstance(v.val, ast.String) else v for j, v in enumerate(row)) for row in rows]
    select.valuesLists = tuple(rows)


#: functions whose value is an interval
_INTERVAL_FUNCTIONS = {"age", "justify_days", "justify_hours", "justify_interval", "make_interval", "txngate_interval_mul", "txngate_interval_div"}


def _maybe_interval(n: ast.Node | None, columns: dict[str, str]) -> bool:
    """Whether ``n`` may be an interval by its form: an interval column or
    cast, a function giving one, arithmetic with one, a CASE, COALESCE,
    NULLIF, GREATEST or LEAST of one (``_is_interval``: plainly one)."""
    if isinstance(n, ast.TypeCast):
        return not n.typeName.arrayBounds and n.typeName.names[-1].sval == "interval"
    if isinstance(n, ast.ColumnRef):
        return isinstance(n.fields[-1], ast.String) and column_type(n, columns) == "interval"
    if isinstance(n, ast.FuncCall):
        name, args = n.funcname[-1].sval.lower(), n.args or ()
        if name == "date_trunc" and len(args) == 2 or name in ("sum", "avg", "min", "max") and len(args) == 1:
            return _maybe_interval(args[-1], columns)  # (date_trunc('hour', iv)::text was DuckDB's '2 months')
        return name in _INTERVAL_FUNCTIONS
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-", "*", "/"):
        return _maybe_interval(n.lexpr, columns) or _maybe_interval(n.rexpr, columns)
    if (arms := _arms(n)) is not None:
        return any(_maybe_interval(a, columns) for a in arms)
    return False


def _array_depth(n: ast.Node | None, columns: dict[str, str] | None = None) -> int:
    """The dimensions of an ARRAY constructor of ARRAY constructors, of a
    cast of one, of array_agg of arrays, of a scalar subquery of one, or of
    a column a FROM subquery or CTE computes as one (its type spelled
    ``integer[][]``: _output_type); 1 for anything else."""
    if (inner := _scalar_subquery_output(n)) is not None:
        return _array_depth(inner, columns)
    if isinstance(n, ast.ColumnRef) and columns is not None:
        return max(1, column_type(n, columns, "").count("[]"))
    if isinstance(n, ast.A_Indirection) and all(isinstance(i, ast.A_Indices) for i in n.indirection):
        # a slice keeps every dimension, a subscript takes one
        return max(1, _array_depth(n.arg, columns) - sum(not i.is_slice for i in n.indirection))
    if isinstance(n, ast.A_ArrayExpr) and n.elements and all(isinstance(e, ast.A_ArrayExpr) for e in n.elements):
        return 1 + max(_array_depth(e) for e in n.elements)
    if isinstance(n, ast.TypeCast) and n.typeName.arrayBounds and isinstance(n.arg, ast.A_Const) and isinstance(n.arg.val, ast.String):
        return max(len(n.typeName.arrayBounds), re.match(r"[\s{]*", n.arg.val.sval)[0].count("{"))  # '{{1},{2}}'
    if isinstance(n, ast.TypeCast) and n.typeName.arrayBounds:
        return max(len(n.typeName.arrayBounds), _array_depth(n.arg))
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "array_agg" and len(n.args or ()) == 1 \
            and (isinstance(n.args[0], ast.A_ArrayExpr) or (isinstance(n.args[0], ast.TypeCast) and n.args[0].typeName.arrayBounds)
                 or (isinstance(n.args[0], ast.ColumnRef) and columns is not None and column_type(n.args[0], columns, "").endswith("[]"))):
        return 1 + _array_depth(n.args[0], columns)  # array_agg of arrays: one dimension more
    return 1


def _cast_text(tc: ast.TypeCast, columns: dict[str, str], fixed_scale: Callable[[ast.Node], bool]) -> ast.Node | None:
    """A cast of an array or an interval to text or varchar: PostgreSQL's
    text (``{1,2}``, ``{{1,2},{3,4}}``, ``2 mons``: ``txngate_cast_text``,
    ``local_exec.texts``), where DuckDB prints its own (``[1, 2]``, ``2
    months``); the DuckDB type decides when the statement is bound, so a
    value that turns out to be neither is cast as before; an unconstrained
    numeric's without the zeros of its 10 places (``1.5``), not a numeric
    of a ``fixed_scale``, whose text DuckDB prints as PostgreSQL does."""
    if tc.typeName.arrayBounds or tc.typeName.names[-1].sval not in ("text", "varchar") or _texted(tc.arg) \
            or not (_maybe_list(tc.arg, columns) or _maybe_interval(tc.arg, columns)
                    or _maybe_unconstrained(tc.arg, columns) and not fixed_scale(tc.arg)):
        return None
    if tc.typeName.typmods:  # varchar(n): the text cut to n (planner.bind's length rules go on with the cast)
        tc.arg = ast.FuncCall(funcname=(ast.String(sval="txngate_cast_text"),), args=(tc.arg,))
        return None
    return ast.FuncCall(funcname=(ast.String(sval="txngate_cast_text"),), args=(tc.arg,))


def _plainly_text(n: ast.Node | None, columns: dict[str, str]) -> bool:
    """``n`` is a string constant, a text or varchar column, or a cast to text."""
    if isinstance(n, ast.A_Const):
        return isinstance(n.val, ast.String)
    return typed_text(n, columns)


def _text_valued(n: ast.Node | None, columns: dict[str, str]) -> bool:
    """``n`` is plainly text (``_plainly_text``), a text function's value
    or a concatenation of such: read by a cast only when it runs."""
    if isinstance(n, ast.FuncCall):
        return text_function(n)
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||" and n.lexpr is not None:
        return _text_valued(n.lexpr, columns) and _text_valued(n.rexpr, columns)
    return _plainly_text(n, columns)


def _texted(n: ast.Node) -> bool:
    return isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "txngate_cast_text"


def _maybe_unconstrained(n: ast.Node | None, columns: dict[str, str]) -> bool:
    """Whether ``n`` may be an unconstrained numeric (DuckDB's 10 places,
    whose text has zeros PostgreSQL's has not), a float or a record: a
    column of such a type or of none known (a whole-row reference too), a
    cast to numeric, a ROW or a value of a composite type (``_composite_fields``),
    or plainly a numeric or float by its operands. (Not any
    expression: ``txngate_cast_text`` names its argument a dozen times,
    and DuckDB copies it into each.)"""
    if isinstance(n, ast.ColumnRef):
        return isinstance(n.fields[-1], ast.String) and ((declared := column_type(n, columns, "numeric")) in ("numeric", "real", "double precision")
                                                         or is_composite(declared))
    if isinstance(n, ast.TypeCast):
        return _plain_numeric_cast(n) or not n.typeName.arrayBounds and n.typeName.names[-1].sval in FLOAT_NAMES \
            or _composite_fields(n) is not None
    return isinstance(n, ast.RowExpr) or _operand_type(n, columns, floats=True) in ("numeric", "real", "double precision") \
        or _composite_fields(n) is not None


def _char_in(n: ast.Node | None, types: dict[str, str]) -> bool:
    """``n`` is a char(n) column by ``types``, or a cast to char(n)."""
    return isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String) and is_char(column_type(n, types, "")) \
        or char_cast_length(n) is not None


def _char_length(n: ast.Node, types: dict[str, str]) -> int | None:
    """n of a char(n) column by ``types`` or of a cast to char(n)."""
    if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String) and is_char(declared := column_type(n, types, "")):
        m = re.fullmatch(r"char\((\d+)\)", declared)
        return int(m.group(1)) if m else None
    return char_cast_length(n)


def char_cast_length(n: ast.Node | None) -> int | None:
    """n of a cast to character(n) (``x::char(3)``), else None."""
    if isinstance(n, ast.TypeCast) and n.typeName.names[-1].sval == "bpchar" and not n.typeName.arrayBounds \
            and len(n.typeName.typmods or ()) == 1 and isinstance(n.typeName.typmods[0], ast.A_Const) \
            and isinstance(n.typeName.typmods[0].val, ast.Integer):
        return n.typeName.typmods[0].val.ival
    return None


def _char_aliases(node: ast.Node, found: dict[str, set[str]]) -> None:
    """Add to ``found`` the output names under which the subqueries and
    CTEs in ``node`` pass a char(n) column on (to a fixed point: an alias
    of an alias)."""
    selects, renamed = [], []  # SelectStmts; (new names, the SelectStmt they rename)
    for n in walk(node):
        if isinstance(n, ast.SelectStmt) and n.targetList:
            selects.append(n)
        elif isinstance(n, ast.RangeSubselect) and n.alias is not None and n.alias.colnames:
            renamed.append((n.alias.colnames, n.subquery))
        elif isinstance(n, ast.CommonTableExpr) and n.aliascolnames:
            renamed.append((n.aliascolnames, n.ctequery))
    changed = True
    while changed:
        changed = False
        for sel in selects:
            for t in sel.targetList:
                char = t.name and _passed_char(t.val, found)
                if char and char not in found.get(t.name, ()):
                    found.setdefault(t.name, set()).add(char)
                    changed = True
        for names, sel in renamed:
            for name, t in zip(names, getattr(sel, "targetList", None) or ()):
                char = _passed_char(t.val, found)
                if char and char not in found.get(name.sval, ()):
                    found.setdefault(name.sval, set()).add(char)
                    changed = True


def _passed_char(n: ast.Node, found: dict[str, set[str]]) -> str | None:
    """The char(n) type of an output that is a char(n) column as it is (or
    an aggregate that keeps its padding, like max)."""
    if (inner := _scalar_subquery_output(n)) is not None:
        return _passed_char(inner, found)
    if isinstance(n, ast.CollateClause):
        return _passed_char(n.arg, found)
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("max", "min", "any_value", "mode") and len(n.args or ()) == 1:
        n = n.args[0]
        while isinstance(n, ast.CollateClause):  # (the client's statement: the rewrite drops COLLATE)
            n = n.arg
    n = _window_argument(n)
    if isinstance(n, _RESOLVED):
        common = _common_string(n, found)
        return common if common is not None and common.startswith("char") else None
    if (length := char_cast_length(n)) is not None:
        return f"char({length})"
    t = _passed_type(n, found)
    return t if t is not None and (is_char(t) or t == "char") else None  # ("char": a subquery's CASE of char arms)


#: window functions whose result is their first argument's value, in its type (anyelement)
_VALUE_WINDOWS = ("lag", "lead", "first_value", "last_value", "nth_value")


def _window_argument(n: ast.Node) -> ast.Node:
    """The value argument of lag/lead/first_value/last_value/nth_value (``n`` itself otherwise)."""
    if isinstance(n, ast.FuncCall) and n.over is not None and n.funcname[-1].sval in _VALUE_WINDOWS and n.args:
        return n.args[0]
    return n


def _scalar_subquery_output(n: ast.Node) -> ast.Node | None:
    """The one output expression of a scalar subquery ``(SELECT x ...)``."""
    if isinstance(n, ast.SubLink) and n.subLinkType.name == "EXPR_SUBLINK" and len(getattr(n.subselect, "targetList", None) or ()) == 1:
        return n.subselect.targetList[0].val
    return None


def _passed_varchar(n: ast.Node, found: dict[str, set[str]]) -> str | None:
    """The varchar(n) type of an output that is a varchar column as it is,
    or through lag/lead/first_value/... (max and min of varchar are text, as
    PostgreSQL's)."""
    if (inner := _scalar_subquery_output(n)) is not None:
        return _passed_varchar(inner, found)
    t = _passed_type(_window_argument(n), found)
    return t if t is not None and t.startswith("varchar") else None


#: the constructs whose type PostgreSQL resolves from their arms (or NULLIF's first argument)
_RESOLVED = (ast.CoalesceExpr, ast.CaseExpr, ast.MinMaxExpr)


def _declared_string(n: ast.Node, found: dict[str, set[str]]) -> str | None:
    """The character or varchar type, with its length if it keeps one, of
    an output that PostgreSQL types so and the engine as text: such a
    column passed through (``_passed_char``, ``_passed_varchar``), a cast
    to one, or a CASE, COALESCE, GREATEST, LEAST or NULLIF of them
    (``_common_string``)."""
    if isinstance(n, ast.TypeCast) and len(n.typeName.arrayBounds or ()) <= 1 and n.typeName.names[-1].sval in ("bpchar", "varchar"):
        base = "char" if n.typeName.names[-1].sval == "bpchar" else "varchar"
        mods, array = n.typeName.typmods or (), "[]" if n.typeName.arrayBounds else ""
        if not mods:
            return base + array
        if len(mods) == 1 and isinstance(mods[0], ast.A_Const) and isinstance(mods[0].val, ast.Integer):
            return f"{base}({mods[0].val.ival}){array}"
    if isinstance(n, _RESOLVED) or isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_NULLIF:
        return _common_string(n, found)  # (once: nested ones are resolved arm by arm)
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "array_agg" and len(n.args or ()) == 1 and not n.over \
            and (element := _passed_char(n.args[0], found) or _passed_varchar(n.args[0], found)) is not None and not element.endswith("[]"):
        return element + "[]"  # array_agg of a char(n) or varchar column: an array of that type
    if isinstance(n, ast.A_ArrayExpr) and n.elements:  # ARRAY[x::varchar, ...]: an array of the elements' common type
        common = _common_string(ast.CoalesceExpr(args=n.elements), found)
        return None if common is None or common.endswith("[]") else re.sub(r"\(\d+\)$", "", common) + "[]"
    return _passed_char(n, found) or _passed_varchar(n, found)


def _common_string(n: ast.Node, found: dict[str, set[str]]) -> str | None:
    """PostgreSQL's type of a CASE, COALESCE, GREATEST or LEAST whose first
    arm of a known type (a CASE's ELSE first; a string constant or NULL is
    of none) is character or varchar: the string types convert to each
    other implicitly, so resolution keeps the first. Its length stays only
    when every arm has that very type (PostgreSQL's typmod of the
    construct). NULLIF is its first argument's type as its equality takes
    it: character stays (bpchar's =), varchar becomes text (text's =)."""
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_NULLIF:
        first = _declared_string(n.lexpr, found)
        if _text_operand(n.rexpr, found):
            return None  # beside a text, texteq: the first as text
        if first is not None and first.startswith("varchar") and (second := _declared_string(n.rexpr, found)) and second.startswith("char"):
            return "char"  # a varchar beside a character: bpchareq, the first as an unconstrained character
        return first if first is not None and first.startswith("char") else None
    if isinstance(n, ast.CaseExpr):
        arms = [n.defresult] + [w.result for w in n.args]
    elif isinstance(n, (ast.CoalesceExpr, ast.MinMaxExpr)):
        arms = list(n.args)
    else:
        return None
    known = [a for a in arms if a is not None and not isinstance(a, (ast.A_Const, ast.ParamRef))]
    first = _declared_string(known[0], found) if known else None
    if first is None:
        return None
    if len(known) == len(arms) and all(_declared_string(a, found) == first for a in known[1:]):
        return first
    return ("char" if first.startswith("char") else "varchar") + ("[]" if first.endswith("[]") else "")


def _text_operand(n: ast.Node, found: dict[str, set[str]]) -> bool:
    """``n`` is plainly of type text (not varchar, which bpchar's equality
    takes as character): a text column or a cast to text."""
    if isinstance(n, ast.TypeCast):
        return n.typeName.names[-1].sval == "text" and not n.typeName.arrayBounds
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("->>", "#>>", "||"):
        return True  # json's text, a concatenation of strings (textcat)
    return isinstance(n, ast.FuncCall) and n.funcname[-1].sval in TEXT_FUNCTIONS or _passed_type(n, found) == "text"


_VOID_FUNCTIONS = {"pg_sleep", "pg_sleep_for", "pg_sleep_until"}


def _integer_series(n: ast.Node, columns: Callable[[], dict[str, str]]) -> str | None:
    """integer, for generate_series of integers in a select list (the
    engine's is a bigint); None for anything else."""
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "generate_series" and 2 <= len(n.args or ()) <= 3 and not n.over:
        types = columns()
        if all(_operand_type(a, types) in ("smallint", "integer") for a in n.args):
            return "integer"
    return None


def _expand_field_stars(node: ast.Node) -> None:
    """``SELECT (x).*`` of a value of a composite type (a cast to one,
    json_populate_record(NULL::t, ...)) as one output per field, named as
    the field: ``(x).a, (x).b, ...``."""
    for n in walk(node):
        if not isinstance(n, ast.SelectStmt) or not n.targetList:
            continue
        targets, changed = [], False
        for t in n.targetList:
            v = t.val
            fields = _composite_fields(v.arg) if isinstance(v, ast.A_Indirection) and len(v.indirection) == 1 \
                and isinstance(v.indirection[0], ast.A_Star) else None
            if fields is None:
                targets.append(t)
                continue
            changed = True
            targets += [ast.ResTarget(name=f, val=ast.A_Indirection(arg=copy_tree(v.arg), indirection=(ast.String(sval=f),))) for f in fields]
        if changed:
            n.targetList = tuple(targets)


def _composite_fields(n: ast.Node) -> list[str] | None:
    """The field names of a value plainly of a composite type, else None."""
    if isinstance(n, ast.FuncCall) and (value := jsonops.populated_value(n)) is not None:
        n = value
    made = _made_type(n.typeName) if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds else None
    return [f for f, _t in made.fields] if isinstance(made, CompositeType) else None


def _made_type_output(n: ast.Node, found: dict[str, set[str]] | None = None) -> str | None:
    """``composite(<oid>)`` (or an array of it) for a cast to a composite
    type, or a column of one passed through (``found``): the result column
    is of that type (the engine's is a record); json[] or jsonb[] for such
    a column (the engine's is text[])."""
    if isinstance(n, ast.FuncCall) and (value := jsonops.populated_value(n)) is not None:
        n = value  # json_populate_record(NULL::t, doc) as a value: of t
    made = _made_type(n.typeName) if isinstance(n, ast.TypeCast) else None
    if isinstance(made, CompositeType):
        return made.sql_type + ("[]" if n.typeName.arrayBounds else "")
    passed = _passed_type(n, found) if found is not None else None
    return passed if passed is not None and (is_composite(passed.removesuffix("[]")) or passed in ("json[]", "jsonb[]")) else None


def _made_type(tn: ast.TypeName):
    """The type CREATE TYPE or CREATE DOMAIN made that ``tn`` names, else None."""
    return made_type([x.sval for x in tn.names])


def _pseudo_call(n: ast.Node) -> str | None:
    """void, for a call of a function that returns nothing (the engine's
    NULL); regtype for pg_typeof (the engine's text: the type's name)."""
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "pg_typeof":
        return "regtype"
    return "void" if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in _VOID_FUNCTIONS else None


def _passed_type(n: ast.Node, found: dict[str, set[str]]) -> str | None:
    """The declared type of a column reference (resolved by scope, or with
    one type by that name)."""
    if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
        if scoped(n, found):  # (its type as recorded, unknown too: another table's column of that name is not it)
            return scoped_type(n, found)
        types = found.get(n.fields[-1].sval, ())
        if len(types) == 1:
            return next(iter(types))
    return None


def _found(columns: dict[str, str]) -> dict[str, set[str]]:
    """``columns`` as the sets of types by name the alias rules read (with its references' types by scope)."""
    return ColumnTypes({name: {t} for name, t in columns.items()}, getattr(columns, "refs", None))


def scoped_column_types(node: ast.Node, catalog: Catalog, search_path: tuple[str, ...]) -> ColumnTypes:
    """``column_types`` with ``node``'s column references resolved by scope (planner.resolve)."""
    return resolve(node, catalog, search_path, column_types(node, catalog, search_path), _output_type)


def result_types(select: ast.Node, columns_of: Callable[[], dict[str, str]], *, computed_only: bool) -> list[str | None] | None:
    """Per result column of a SELECT, the declared type the engine's result
    cannot tell (it gives text for all): json or jsonb (planner.jsonops),
    or the char(n) or varchar(n) of a column passed through; None when the target list
    has ``*``, or (``computed_only``) no column can be such.
    ``columns_of()`` gives the statement's column types, only if needed."""
    memo: list[dict[str, str]] = []

    def columns() -> dict[str, str]:
        if not memo:
            memo.append(columns_of())
        return memo[0]

    kinds = jsonops.result_kinds(select, columns, computed_only=computed_only)
    if isinstance(select, ast.SelectStmt) and select.op is not None and select.op.name != "SETOP_NONE":
        return _set_operation_types(select, columns) or kinds
    targets = getattr(select, "targetList", None)
    stars = [isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.A_Star) for t in targets or ()]
    if stars == [True] and (inner := _starred_query(select)) is not None:
        return result_types(inner, columns, computed_only=False) or kinds  # SELECT * FROM (SELECT varchar_col ...) s
    if not targets or sum(stars) > 1 or (any(stars) and (kinds is None or len(targets) == 1)):
        return kinds
    if any(stars):  # one star, expanded in kinds: the other columns' declared types beside it (SELECT *, pg_typeof(x) ...)
        found = _found(columns())
        width = len(kinds) - (len(targets) - 1)
        declared = [d for t, star in zip(targets, stars)
                    for d in ([None] * width if star else [_declared_string(t.val, found) or _pseudo_call(t.val) or _integer_series(t.val, columns)
                    or _made_type_output(t.val, found)])]
        return [c or k for c, k in zip(declared, kinds)]
    # a result of one table (a session's: computed_only) has its plain columns' types from the origins
    one_table = computed_only and len(getattr(select, "fromClause", None) or ()) == 1 and isinstance(select.fromClause[0], ast.RangeVar) \
        and getattr(select, "withClause", None) is None
    passed = any(isinstance(t.val, (ast.FuncCall, ast.SubLink, ast.TypeCast, ast.A_ArrayExpr, *_RESOLVED)) or (not one_table and isinstance(t.val, ast.ColumnRef))
                 for t in targets)
    divided = any(isinstance(t.val, (ast.FuncCall, ast.A_Expr, ast.TypeCast, ast.CaseExpr, ast.CoalesceExpr, ast.MinMaxExpr)) for t in targets)
    if not (passed or divided):
        return kinds  # a point SELECT of plain columns: nothing to look up
    found = _found(columns())
    declared = [_declared_string(t.val, found) or _pseudo_call(t.val) or _integer_series(t.val, columns)
                    or _made_type_output(t.val, found) for t in targets]
    for i in exact_divisions(select, columns()) if divided else ():
        declared[i] = "numeric"
    if not any(declared):
        return kinds
    return [c or k for c, k in zip(declared, kinds or [None] * len(declared))]


def _starred_query(select: ast.SelectStmt) -> ast.Node | None:
    """The query whose columns ``SELECT * FROM x`` passes through when x is
    the one FROM item and a subquery or a CTE of the statement."""
    source = (select.fromClause or (None,))[0] if len(select.fromClause or ()) == 1 else None
    if isinstance(source, ast.RangeSubselect):
        return source.subquery
    if isinstance(source, ast.RangeVar) and source.schemaname is None and select.withClause is not None:
        return next((c.ctequery for c in select.withClause.ctes if c.ctename == source.relname and not c.cterecursive), None)
    return None


def _set_operation_types(select: ast.SelectStmt, columns: Callable[[], dict[str, str]]) -> list[str | None] | None:
    """A set operation's column types where the engine's would differ:
    PostgreSQL's is the first arm's of a known type (a string constant's is
    not), which keeps character(n) and varchar(n) when that arm passes such
    a column through (text, varchar and character convert to each other
    alike), and json or jsonb (which the engine gives as text). None when
    no column is such."""
    leaves = decimals.set_operation_leaves(select)
    if leaves is None or any(isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.A_Star) for t in leaves[0].targetList):
        return None
    found = _found(columns())
    declared = []
    for i in range(len(leaves[0].targetList)):
        first = next((leaf.targetList[i].val for leaf in leaves if not isinstance(leaf.targetList[i].val, ast.A_Const)), None)
        declared.append(None if first is None else _passed_char(first, found) or _passed_varchar(first, found)
                        or jsonops.kind(first, columns()))
    return declared if any(declared) else None


#: functions that take character(n) as it is, padding and all (the others
#: take text, which PostgreSQL casts char(n) to without its padding)
PADDED_ARGUMENTS = {"octet_length", "strlen", "max", "min", "count", "array_agg", "any_value", "mode",
                    "concat", "concat_ws", "format", "txngate_text",  # "any" arguments: printed as the type prints them
                    "lag", "lead", "first_value", "last_value", "nth_value",  # anyelement: the value as it is
                    "regexp_full_match", "rlike", "regexp_matches",  # SIMILAR TO and ~, rewritten (the padded value matches)
                    # the json constructors ("any" arguments, written as the type prints them) and what they become
                    *(f"{p}_{f}" for p in ("json", "jsonb") for f in ("build_object", "build_array", "agg", "object_agg")),
                    "to_json", "to_jsonb", "txngate_json_value", "txngate_json_key", "list"}

def _compares(n: ast.A_Expr) -> bool:
    """``n`` compares its operands (=, <, IN, BETWEEN, IS DISTINCT FROM, ...)."""
    if n.kind in (A_Expr_Kind.AEXPR_IN, A_Expr_Kind.AEXPR_DISTINCT, A_Expr_Kind.AEXPR_NOT_DISTINCT, A_Expr_Kind.AEXPR_BETWEEN,
                  A_Expr_Kind.AEXPR_NOT_BETWEEN, A_Expr_Kind.AEXPR_NULLIF):
        return True
    return n.kind in (A_Expr_Kind.AEXPR_OP, A_Expr_Kind.AEXPR_OP_ANY, A_Expr_Kind.AEXPR_OP_ALL) and n.name[-1].sval in ("=", "<>", "!=", "<", ">", "<=", ">=")


#: the fields whose value grows with time: infinite for an infinite date or timestamp
_MONOTONIC_FIELDS = {"epoch", "year", "isoyear", "decade", "century", "millennium", "julian"}


def _datetime_kind(n: ast.Node, columns: dict[str, str]) -> str | None:
    """"date", "timestamp" or "timestamptz" when ``n`` plainly is one (a
    cast, constant or column, or a date expression), else None."""
    if _is_date(n, columns):
        return "date"
    if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds:
        name = n.typeName.names[-1].sval
    elif isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
        name = column_type(n, columns, "")
    else:
        return None
    return name if name in ("timestamp", "timestamptz") else None


#: the fields of a time of day, which extract() of a date refuses (date_part reads the date as a timestamp: 0)
_TIME_OF_DAY_FIELDS = {"hour", "minute", "second", "milliseconds", "microseconds", "timezone", "timezone_hour", "timezone_minute"}
_ZONE_FIELDS = {"timezone", "timezone_hour", "timezone_minute"}
#: the unit words extract() and date_part() know (PostgreSQL's, looked up by their first 10 letters), by the field each names
_EXTRACT_UNITS = {
    **{w: "microseconds" for w in ("microsecon", "usec", "usecs", "usecond", "useconds", "us")},
    **{w: "milliseconds" for w in ("millisecon", "ms", "msec", "msecs", "msecond", "mseconds")},
    **{w: "second" for w in ("s", "sec", "secs", "second", "seconds")},
    **{w: "minute" for w in ("m", "min", "mins", "minute", "minutes")},
    **{w: "hour" for w in ("h", "hr", "hrs", "hour", "hours")},
    **{w: "day" for w in ("d", "day", "days")},
    **{w: "week" for w in ("w", "week", "weeks")},
    **{w: "month" for w in ("mon", "mons", "month", "months")},
    **{w: "quarter" for w in ("qtr", "quarter")},
    **{w: "year" for w in ("y", "yr", "yrs", "year", "years")},
    **{w: "decade" for w in ("decs", "decade", "decades")},
    **{w: "century" for w in ("c", "cent", "century", "centuries")},
    **{w: "millennium" for w in ("mil", "mils", "millennium", "millennia")},
    **{w: "julian" for w in ("j", "jd", "julian")},
    **{w: w for w in ("epoch", "dow", "doy", "isodow", "isoyear", "timezone")},
    "timezone_h": "timezone_hour", "timezone_m": "timezone_minute",
}
#: the special words of dates and times, which extract() of one reads but does not answer
_RESERVED_WORDS = {"-infinity", "infinity", "allballs", "now", "today", "tomorrow", "yesterday"}
#: the fields each source type's extract() answers (PostgreSQL's type names)
_EXTRACT_FIELDS = {
    "date": set(_EXTRACT_UNITS.values()) - _TIME_OF_DAY_FIELDS,
    "timestamp without time zone": set(_EXTRACT_UNITS.values()) - _ZONE_FIELDS,
    "timestamp with time zone": set(_EXTRACT_UNITS.values()),
    "time without time zone": {"microseconds", "milliseconds", "second", "minute", "hour", "epoch"},
    "interval": {"microseconds", "milliseconds", "second", "minute", "hour", "day", "month", "quarter", "year", "decade", "century",
                 "millennium", "epoch"},
}


def _extract_source(n: ast.Node, columns: dict[str, str]) -> str | None:
    """PostgreSQL's name of the type ``n`` plainly is, among extract()'s
    sources; None when it is not plain."""
    kind = _datetime_kind(n, columns)
    if kind is None and isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds:
        kind = n.typeName.names[-1].sval
    elif kind is None and isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
        kind = column_type(n, columns, "")
    return {"date": "date", "timestamp": "timestamp without time zone", "timestamptz": "timestamp with time zone",
            "time": "time without time zone", "time without time zone": "time without time zone", "interval": "interval"}.get(kind or "")


def _extract_field(name: str, word: str, source: str | None) -> str | None:
    """The field ``extract(word FROM x)`` (``name`` "extract") or
    ``date_part('word', x)`` reads of a ``source`` (a PostgreSQL type
    name; None: not known, and None is returned), with PostgreSQL's errors
    for a unit it does not know (22023) or the type has not (0A000)."""
    if source is None:
        return None
    if name == "date_part" and source == "date":
        source = "timestamp without time zone"  # date_part reads a date as a timestamp (its hour is 0)
    field = _EXTRACT_UNITS.get(word[:10])
    if field is None and word in _RESERVED_WORDS and source in ("date", "timestamp without time zone", "timestamp with time zone"):
        raise SqlError(FEATURE_NOT_SUPPORTED, f'unit "{word}" not supported for type {source}')  # a date's special word, not a unit
    if field is None:
        raise SqlError(INVALID_PARAMETER_VALUE, f'unit "{word}" not recognized for type {source}')
    if field not in _EXTRACT_FIELDS[source]:
        raise SqlError(FEATURE_NOT_SUPPORTED, f'unit "{word}" not supported for type {source}')
    return field
#: the fields extract() and date_part() rewrite (others, like timezone, go as written)
_DATE_FIELDS = {"second", "milliseconds", "microseconds", "epoch", "minute", "hour", "day", "month", "year", "quarter", "week",
                "dow", "isodow", "doy", "isoyear", "decade", "century", "millennium", "julian", "timezone", "timezone_hour", "timezone_minute"}
#: the fields of an interval
_INTERVAL_FIELDS = {"second", "milliseconds", "microseconds", "epoch", "minute", "hour", "day", "month", "year", "quarter", "decade",
                    "century", "millennium"}

#: LIKE, ILIKE, SIMILAR TO and the regular-expression operators: they match
#: a character(n) value with its padding
_PATTERN_KINDS = (A_Expr_Kind.AEXPR_LIKE, A_Expr_Kind.AEXPR_ILIKE, A_Expr_Kind.AEXPR_SIMILAR)
_PATTERN_OPERATORS = {"~", "~*", "!~", "!~*", "~~", "~~*", "!~~", "!~~*"}
#: the regular expression operators: the engine's options for each (s: not newline-sensitive, i: case-insensitive)
_REGEX_OPTIONS = {"~": "s", "!~": "s", "~*": "is", "!~*": "is"}
#: casts to these drop a character(n) value's padding
def _typed_string(value: ast.A_Const, sql_type: str) -> ast.Node:
    """A string constant read as ``sql_type``'s input (22P02 as PostgreSQL's); an unconstrained numeric keeps its scale."""
    if sql_type == "numeric":
        typed_literal(value, "numeric")
        return _exact_numeric(value.val.sval)
    typed = typed_literal(value, sql_type)
    return typed if typed is not value else _cast_to(value, sql_type)


def _string_constant(n: ast.Node) -> bool:
    return isinstance(n, ast.A_Const) and isinstance(n.val, ast.String)


def _resolved_type(n: ast.Node, columns: dict[str, str]) -> str | None:
    """The SQL type of a column, a cast or a number constant (None for other expressions)."""
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer):
        return "integer"
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Float):
        return "numeric"
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Boolean):
        return "boolean"
    if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
        return column_type(n, columns)
    if isinstance(n, ast.TypeCast):
        try:
            return canonical(n.typeName, array_ok=True)
        except SqlError:
            return None
    return None


_TEXT_TYPES = {"text", "varchar", "bpchar", "char", "character", "character varying", "name"}

#: sum's result by its operand's type, where DuckDB's differs (hugeint, double)
SUM_RESULTS = {"smallint": "int8", "integer": "int8", "real": "float4"}
_OPERAND_TYPES = {"int2": "smallint", "smallint": "smallint", "int4": "integer", "int": "integer", "integer": "integer",
                  "int8": "bigint", "bigint": "bigint", "float4": "real", "real": "real"}
_FLOAT_TYPES = {"float8": "double precision", "double precision": "double precision", "float": "double precision",
                "numeric": "numeric", "decimal": "numeric"}  # numeric only ranks below the floats here


def _check_concatenable(n: ast.A_Expr, columns: dict[str, str]) -> None:
    """42883 for ``a || b`` of two numbers (PostgreSQL's ``||`` joins text,
    arrays, bytea, bits or jsonb, and a value of another type to text;
    the engine would join the numbers' texts)."""
    left, right = _operand_type(n.lexpr, columns, floats=True), _operand_type(n.rexpr, columns, floats=True)
    if left is not None and right is not None:
        raise undefined("operator", f"operator does not exist: {left} || {right}",
                        position=n.location + 1 if n.location is not None and n.location >= 0 else None)


def _window_call(n: ast.Node) -> ast.FuncCall | None:
    """A window function call in ``n``, not in a subquery of it (which may
    have its own), or None."""
    stack = [n]
    while stack:
        x = stack.pop()
        if isinstance(x, ast.FuncCall) and x.over is not None:
            return x
        if isinstance(x, ast.SubLink):
            continue
        if isinstance(x, ast.Node):
            stack.extend(v for v in map(x.__getattribute__, x.__slots__) if isinstance(v, (ast.Node, tuple)))
        elif isinstance(x, tuple):
            stack.extend(x)
    return None


def _check_boolean(a: ast.Node | None, word: str, columns: dict[str, str], arrays) -> None:
    """42804 for a condition (an argument of AND, OR or NOT, a CASE's WHEN,
    a WHERE or HAVING) that is plainly text (a text function's value, or
    a concatenation with one), as PostgreSQL's analysis finds it (the
    engine cast it when it ran: 22P02, or true for 't')."""
    concatenated = isinstance(a, ast.A_Expr) and a.kind == A_Expr_Kind.AEXPR_OP and a.name[-1].sval == "||" and a.lexpr is not None \
        and not _is_array(a.lexpr, arrays) and not _is_array(a.rexpr, arrays) and (_text_valued(a.lexpr, columns) or _text_valued(a.rexpr, columns))
    if concatenated or isinstance(a, ast.FuncCall) and _text_valued(a, columns):
        raise SqlError(DATATYPE_MISMATCH, f"argument of {word} must be type boolean, not type text",
                       position=a.location + 1 if getattr(a, "location", None) is not None and a.location >= 0 else None)


#: the comparison operators PostgreSQL defines between two strings and between two numbers, never across
_ORDERINGS = ("=", "<>", "!=", "<", ">", "<=", ">=")
_NUMBER_NAMES = {"smallint": "smallint", "integer": "integer", "bigint": "bigint", "real": "real", "double precision": "double precision",
                 "numeric": "numeric"}


def _check_comparable(n: ast.A_Expr, lexpr: ast.Node, rexpr: ast.Node, columns: dict[str, str]) -> None:
    """42883 for a comparison ``n`` of a string with a number (``v = 5``
    or ``v IN (1, 2)`` of a text column: PostgreSQL has no such operator,
    and only an untyped constant would be read as the other side's type;
    the engine would cast the string and compare, or fail on the first row
    that is not a number with 22P02)."""
    left, right = _string_type(lexpr, columns), _string_type(rexpr, columns)
    if left is not None and (number := _number_type(rexpr, columns)) is not None:
        right = number
    elif right is not None and (number := _number_type(lexpr, columns)) is not None:
        left = number
    else:
        return
    operator = "<>" if n.name[-1].sval == "!=" else n.name[-1].sval
    raise undefined("operator", f"operator does not exist: {left} {operator} {right}",
                    position=n.location + 1 if n.location is not None and n.location >= 0 else None)


def _declared(n: ast.Node, columns: dict[str, str]) -> str | None:
    """The type of a column reference resolved by scope, or of a cast."""
    if isinstance(n, ast.ColumnRef):
        return scoped_type(n, columns)
    if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds:
        try:
            return canonical(n.typeName)
        except SqlError:
            return None
    return None


def _string_type(n: ast.Node, columns: dict[str, str]) -> str | None:
    """PostgreSQL's name of an operand's type when it is plainly a string
    type (a column of one, resolved by scope, or a cast to one)."""
    t = _declared(n, columns)
    if t is None:
        return None
    if t == "text":
        return "text"
    if t == "varchar" or t.startswith("varchar("):
        return "character varying"
    return "character" if t.startswith("char(") else None


def _number_type(n: ast.Node, columns: dict[str, str]) -> str | None:
    """PostgreSQL's name of an operand's type when it is plainly a number
    (a number constant, a column of a number type resolved by scope, a cast
    to one)."""
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer):
        return "integer"
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Float):
        digits = n.val.fval
        return "bigint" if digits.isdigit() and int(digits) < 2**63 else "numeric"
    t = _declared(n, columns)
    if t is None:
        return None
    return "numeric" if t.startswith("numeric(") else _NUMBER_NAMES.get(t)


def _operand_type(n: ast.Node, columns: dict[str, str], *, floats: bool = False) -> str | None:
    """PostgreSQL's type of an operand when it is plainly smallint, integer,
    bigint or real (or, with ``floats``, numeric or double precision): a
    column, a cast, an integer constant, an aggregate of one, or arithmetic
    of those; else None. Enough for sum's result type, round's rounding and
    the kind of a division."""
    known = {**_OPERAND_TYPES, **_FLOAT_TYPES} if floats else _OPERAND_TYPES
    if (inner := _scalar_subquery_output(n)) is not None:
        return _operand_type(inner, columns, floats=floats)
    if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
        declared = column_type(n, columns, "")
        return known.get("numeric" if declared.startswith("numeric(") else declared)
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Float):
        if re.fullmatch(r"-?\d+", n.val.fval) and -2 ** 63 <= int(n.val.fval) < 2 ** 63:
            return "bigint"  # an integer constant too wide for an integer
        return "numeric" if floats else None
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_NULLIF:
        # compared (and answered) in the type its equality takes: integers across widths (int48eq) keep the
        # first's, an integer beside a numeric or a float, or a numeric beside a float, the wider
        first, second = _operand_type(n.lexpr, columns, floats=floats), _operand_type(n.rexpr, columns, floats=True)
        if first is not None and second is not None and not (first in INTEGER_TYPES and second in INTEGER_TYPES) \
                and _WIDENING.index(second) > _WIDENING.index(first):
            return second if floats or second in _OPERAND_TYPES.values() else None
        return first
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "count":
        return "bigint"
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("extract", "date_part") and len(n.args or ()) == 2 and floats \
            and isinstance(n.args[0], ast.A_Const) and isinstance(n.args[0].val, ast.String) and not n.over:
        return "numeric" if n.funcname[-1].sval == "extract" else "double precision"  # extract's is PostgreSQL's numeric
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "avg" and len(n.args or ()) == 1 and floats:
        return "numeric" if _operand_type(n.args[0], columns, floats=True) in ("numeric", *INTEGER_TYPES) else None
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in _ROUNDINGS and floats and 1 <= len(n.args or ()) <= 2 and not n.over:
        # of a numeric, a numeric; of a double or real, PostgreSQL's double precision versions
        inner = _operand_type(n.args[0], columns, floats=True)
        if inner in INTEGER_TYPES:  # round(int) is round(double precision), round(int, k) round(numeric, k)
            return "double precision" if len(n.args) == 1 else "numeric"
        return "numeric" if inner == "numeric" else "double precision" if inner in ("double precision", "real") else None
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "sign" and len(n.args or ()) == 1 and floats and not n.over \
            and (inner := _operand_type(n.args[0], columns, floats=True)) is not None:
        return "numeric" if inner == "numeric" else "double precision"  # sign(numeric) is a numeric, of any other number a double
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in _DOUBLE_FUNCTIONS and len(n.args or ()) == 1 and floats \
            and _operand_type(n.args[0], columns, floats=True) in ("double precision", "real"):
        return "double precision"  # sqrt(x) of a double or real: PostgreSQL's of double precision
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "div" and len(n.args or ()) == 2 and not n.over and floats:
        return "numeric"  # (PostgreSQL's div takes and gives numeric only)
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "mod" and len(n.args or ()) == 2 and not n.over:
        left, right = (_operand_type(a, columns, floats=floats) for a in n.args)
        return None if left is None or right is None or "real" in (left, right) or "double precision" in (left, right) \
            else max(left, right, key=_WIDENING.index)
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("abs", "sum", "min", "max") and len(n.args or ()) == 1:
        inner = _operand_type(n.args[0], columns, floats=floats)
        if n.funcname[-1].sval == "sum" and inner in INTEGER_TYPES:  # PostgreSQL's sum of smallint and integer is a bigint, of bigint a numeric
            return "bigint" if inner != "bigint" else "numeric" if floats else None
        return inner
    if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds:
        return known.get(n.typeName.names[-1].sval.lower())
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "txngate_float_checked":
        return _operand_type(n.args[0], columns, floats=floats)
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in _QUOTIENT_FUNCTIONS:
        return known.get("numeric")  # (unscaled: _fixed_quotient scales and types it)
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer):
        return "integer"
    if isinstance(n, ast.FuncCall) and (FUNCTION_NAMES.get(n.funcname[-1].sval, n.funcname[-1].sval) in INTEGER_RESULTS
                                        or n.funcname[-1].sval in _ARRAY_INTEGERS or n.funcname[-1].sval in _INTEGER_FUNCTIONS):
        return "integer"
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("gcd", "lcm") and len(n.args or ()) == 2 and not n.over:
        widths = [_operand_type(a, columns) for a in n.args]  # gcd(int2, int2) is PostgreSQL's gcd(int4, int4)
        return ("bigint" if "bigint" in widths else "integer") if all(w in INTEGER_TYPES for w in widths) else None
    if isinstance(n, ast.A_Indirection) and len(n.indirection) == 1 and isinstance(n.indirection[0], ast.A_Indices) \
            and not n.indirection[0].is_slice and (array := _array_type(n.arg, columns)) is not None:
        return known.get(array.removesuffix("[]"))  # an element of an array of a known type
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "-" and n.lexpr is not None \
            and _is_date(n.lexpr, columns) and _is_date(n.rexpr, columns):
        return "integer"  # the days between two dates
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("<<", ">>") and n.lexpr is not None:
        left = _operand_type(n.lexpr, columns, floats=floats)
        return left if left in INTEGER_TYPES else None  # (a shift keeps its left operand's type)
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("&", "|", "#") and n.lexpr is not None \
            and {_operand_type(n.lexpr, columns), _operand_type(n.rexpr, columns)} <= set(INTEGER_TYPES):
        return max(_operand_type(n.lexpr, columns), _operand_type(n.rexpr, columns), key=_WIDENING.index)
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-", "*", "/", "%"):
        left = _operand_type(n.lexpr, columns, floats=floats) if n.lexpr is not None else "smallint"  # unary minus
        right = _operand_type(n.rexpr, columns, floats=floats)
        if left is None or right is None:
            return None
        if n.lexpr is not None and "real" in (left, right) and left != right:
            return "double precision" if floats else None  # a real beside another number: float48pl's double (_real_widened)
        return max(left, right, key=_WIDENING.index)
    if isinstance(n, (ast.CaseExpr, ast.CoalesceExpr, ast.MinMaxExpr)):  # PostgreSQL's common type of the branches
        branches = [w.result for w in n.args] + [n.defresult] if isinstance(n, ast.CaseExpr) else list(n.args)
        types = [None if b is None or (isinstance(b, ast.A_Const) and b.isnull) else _operand_type(b, columns, floats=floats) for b in branches]
        known_types = [t for t in types if t is not None]
        if not known_types or len(known_types) < sum(1 for b in branches if not (b is None or (isinstance(b, ast.A_Const) and b.isnull))):
            return None
        return max(known_types, key=_WIDENING.index)
    return None


#: array functions whose value is an integer (pgcatalog's macros: DuckDB's INTEGER too)
_ARRAY_INTEGERS = {"array_length", "cardinality", "array_upper", "array_lower", "array_ndims"}

#: the operators whose double precision and real results are checked for overflow (``Binder._float_checked``)
_FLOAT_OPERATORS = ("+", "-", "*", "/")


def _is_arithmetic(n: ast.Node | None) -> bool:
    return isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in _FLOAT_OPERATORS


def _arithmetic_tree(n: ast.Node) -> Iterator[ast.Node]:
    """The operators of the tree of arithmetic at ``n`` and its leaves
    (what is not such an operator)."""
    yield n
    if _is_arithmetic(n):
        for x in (n.lexpr, n.rexpr):
            if x is not None:
                yield from _arithmetic_tree(x)


#: functions of one double precision argument that answer one (a real is taken as a double)
_DOUBLE_FUNCTIONS = ("sqrt", "cbrt", "exp", "ln", "log", "log10", "sign", "degrees", "radians", "sin", "cos", "tan", "cot", "asin", "acos",
                     "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sind", "cosd", "tand", "cotd", "asind", "acosd", "atand")

#: arithmetic's result: the wider operand's type
_WIDENING = ["smallint", "integer", "bigint", "numeric", "real", "double precision"]
_ROUNDINGS = ("round", "trunc", "ceil", "ceiling", "floor")


#: PostgreSQL functions DuckDB knows under another name (or not with pg_catalog.)
# Functions PostgreSQL types integer whose DuckDB versions return bigint (after renaming).
INTEGER_RESULTS = {"length", "strlen", "strpos", "ascii", "bit_length", "ntile", "grouping", "array_position"}
#: functions PostgreSQL types integer, whose DuckDB versions (or txngate's) are integers too: sum of them is a bigint
_INTEGER_FUNCTIONS = {"width_bucket", "scale", "min_scale"}

FUNCTION_NAMES = {
    # local_exec.strings: PostgreSQL's versions (DuckDB's differ, or lack them)
    "sha224": "txngate_sha224", "sha384": "txngate_sha384", "sha512": "txngate_sha512", "encode": "txngate_encode",
    "decode": "txngate_decode", "split_part": "txngate_split_part", "to_hex": "txngate_to_hex", "chr": "txngate_chr", "date_bin": "txngate_date_bin",
    "unistr": "txngate_unistr", "initcap": "txngate_initcap",
    # pgcatalog.macros(): PostgreSQL's empty and NULL delimiters, and NULL elements
    "string_to_array": "txngate_string_to_array", "array_to_string": "txngate_array_to_string", "array_cat": "txngate_array_cat",
    "btrim": "trim", "octet_length": "strlen", "position": "strpos", "char_length": "length", "character_length": "length",
    # DuckDB's spelling, which sqlglot would parse as SQL/JSON syntax: renamed after transpiling
    "json_build_object": "txngate_fn_json_object", "jsonb_build_object": "txngate_fn_json_object",
    "json_build_array": "txngate_fn_json_array", "jsonb_build_array": "txngate_fn_json_array",
    "every": "bool_and", "json_agg": "json_group_array", "jsonb_agg": "json_group_array", "to_jsonb": "to_json",
    # PostgreSQL's errors (2201E, 2201F, 22003) where DuckDB returns NaN or -inf (pgcatalog.macros())
    "sqrt": "txngate_sqrt", "ln": "txngate_ln", "log": "txngate_log", "log10": "txngate_log", "power": "txngate_power",
    "pow": "txngate_power",
    # a numeric's places (pgcatalog.macros()): DuckDB has no scale, min_scale or trim_scale
    "scale": "txngate_scale", "min_scale": "txngate_min_scale", "trim_scale": "txngate_trim_scale",
    "asin": "txngate_asin", "acos": "txngate_acos", "acosh": "txngate_acosh", "atanh": "txngate_atanh",
    "sin": "txngate_sin", "cos": "txngate_cos", "tan": "txngate_tan", "cot": "txngate_cot",
    # uuid-ossp's and pgcrypto's (planner.grants: built in)
    "uuid_generate_v4": "gen_random_uuid", "digest": "txngate_pgcrypto_digest",
}
#: ... and for the Spark rewrite (the grammar gives ``position(b IN a)`` as ``position(a, b)``)
SPARK_FUNCTION_NAMES = {"position": "strpos"}
_AFTER_TRANSPILE = re.compile(r"\btxngate_fn_(\w+)\(", re.IGNORECASE)
#: a composite type's stand-in in the engine's SQL (``Binder._struct_type``)
_STRUCT_TYPE = re.compile(r"\btxngate_struct\((\d+)\)", re.IGNORECASE)


def _rename_function(fc: ast.FuncCall, dialect: str) -> None:
    names = [n.sval for n in fc.funcname]
    if len(names) == 2 and names[0] == "pg_catalog":
        names = names[1:]
    name = (FUNCTION_NAMES if dialect == "duckdb" else SPARK_FUNCTION_NAMES).get(names[-1], names[-1])
    if len(names) == 1:
        fc.funcname = (ast.String(sval=name),)


def _pg_function(fc: ast.FuncCall) -> None:
    """The PostgreSQL functions whose calls change shape for DuckDB (in place)."""
    name = fc.funcname[-1].sval
    if len(fc.funcname) != 1:
        return
    if name == "regexp_replace":
        _regexp_replace_from(fc)
    elif name in _REGEXP_DEFAULTS:
        _regexp_defaults(fc)
    elif name in ("array_agg", "string_agg"):
        _sorted_distinct(fc)
    elif name in ("concat", "concat_ws", "format"):
        _any_arguments(fc)


#: the integer types' widths in bits, for their shifts
_SHIFT_WIDTHS = {"smallint": 16, "integer": 32, "bigint": 64}


def _bit_shift(n: ast.A_Expr, width: int) -> ast.Node:
    """``a << b`` and ``a >> b`` of integers as PostgreSQL's (C's on the
    machine: a smallint shifted as an integer, the count taken modulo the
    width it is shifted in, the bits shifted out of the type dropped, a
    negative number shifted left too; pgcatalog's txngate_shl and
    txngate_shr). DuckDB refuses to shift a negative number left and
    counts past the width."""
    function = "txngate_shl" if n.name[-1].sval == "<<" else "txngate_shr"
    call = ast.FuncCall(funcname=(ast.String(sval=function),), args=(n.lexpr, n.rexpr, _constant(width)))
    return _cast_to(call, {16: "int2", 32: "int4", 64: "int8"}[width])


#: the hypothetical-set aggregates (``rank(3) WITHIN GROUP (ORDER BY x)``)
_HYPOTHETICAL = {"rank", "dense_rank", "percent_rank", "cume_dist"}


def _hypothetical(fc: ast.FuncCall) -> ast.Node | None:
    """rank, dense_rank, percent_rank and cume_dist WITHIN GROUP (ORDER BY
    ...) as PostgreSQL's hypothetical-set aggregates: where the row of the
    direct arguments would rank among the group's rows in that order, by
    counting the rows that sort before it (and, for cume_dist, its peers):
    lexicographically over the keys, each in its direction, NULLs where
    NULLS FIRST / LAST (or the direction's default) puts them. None when a
    direct argument names a column (PostgreSQL allows only grouped ones:
    left to the engine, which refuses it)."""
    args, order = list(fc.args or ()), list(fc.agg_order or ())
    name = fc.funcname[-1].sval
    if len(args) != len(order):
        raise SqlError("42883", f"function {name} with {len(args)} direct arguments and {len(order)} ordering columns does not exist",
                       hint="To use the hypothetical-set aggregate, the number of hypothetical direct arguments must match "
                            "the number of ordering columns.")
    if any(isinstance(m, (ast.ColumnRef, ast.FuncCall, ast.SubLink)) for a in args for m in walk(a)):
        return None
    k = len(args)
    direct, key = (lambda i: f"_arg{i + 1}"), (lambda i: f"_arg{k + i + 1}")

    def before(i: int) -> str:
        desc = order[i].sortby_dir == SortByDir.SORTBY_DESC
        nulls_first = order[i].sortby_nulls == SortByNulls.SORTBY_NULLS_FIRST \
            or (order[i].sortby_nulls == SortByNulls.SORTBY_NULLS_DEFAULT and desc)
        nulls = f"({key(i)} IS NULL AND {direct(i)} IS NOT NULL)" if nulls_first else f"({key(i)} IS NOT NULL AND {direct(i)} IS NULL)"
        return f"(coalesce({key(i)} {'>' if desc else '<'} {direct(i)}, false) OR {nulls})"

    def peer(i: int) -> str:
        return f"({key(i)} IS NOT DISTINCT FROM {direct(i)})"

    earlier = " OR ".join("(" + " AND ".join([peer(j) for j in range(i)] + [before(i)]) + ")" for i in range(k))
    kept = f"_arg{2 * k + 1}"  # the aggregate's own FILTER (true without one)
    rows = f"count(*) FILTER (WHERE {kept})"
    rank = f"(count(*) FILTER (WHERE {kept} AND ({earlier})) + 1)"
    template = {
        "rank": rank,
        "dense_rank": f"(count(DISTINCT ROW({', '.join(key(i) for i in range(k))})) FILTER (WHERE {kept} AND ({earlier})) + 1)",
        "percent_rank": f"CASE WHEN {rows} = 0 THEN CAST(0 AS float8) ELSE CAST({rank} - 1 AS float8) / {rows} END",
        "cume_dist": f"CAST(count(*) FILTER (WHERE {kept} AND (({earlier}) OR ({' AND '.join(peer(i) for i in range(k))}))) + 1 AS float8)"
                     f" / ({rows} + 1)",
    }[name]
    kept_rows = fc.agg_filter if fc.agg_filter is not None else ast.A_Const(val=ast.Boolean(boolval=True))
    return expand(template, args + [s.node for s in order] + [kept_rows])


def _regexp_defaults(fc: ast.FuncCall) -> None:
    """regexp_count/instr/substr/like as local_exec.regex's, their optional arguments filled."""
    name, given = fc.funcname[-1].sval, list(fc.args or ())
    if 2 <= len(given) <= 2 + len(_REGEXP_DEFAULTS[name]):
        fc.funcname = (ast.String(sval=f"txngate_{name}"),)
        fc.args = tuple(given + [_constant(v) for v in _REGEXP_DEFAULTS[name][len(given) - 2:]])


def _sorted_distinct(fc: ast.FuncCall) -> None:
    """PostgreSQL sorts a DISTINCT aggregate's input (NULLs last): the values come out in order."""
    if fc.agg_distinct and not fc.agg_order and fc.args and fc.over is None and not isinstance(fc.args[0], ast.A_Const):  # (a constant: one value)
        fc.agg_order = (ast.SortBy(node=copy.deepcopy(fc.args[0]), sortby_dir=SortByDir.SORTBY_DEFAULT,
                                   sortby_nulls=SortByNulls.SORTBY_NULLS_DEFAULT),)


def _any_arguments(fc: ast.FuncCall) -> None:
    """concat, concat_ws and format take "any" arguments, each printed as
    its type prints it (booleans ``t``/``f``: local_exec.strings'
    ``txngate_text``); format is PostgreSQL's (``%s``, ``%I``, ``%L``),
    not DuckDB's fmt-style one."""
    name = fc.funcname[-1].sval
    if not fc.args or fc.agg_star:
        return
    first = 0 if name == "concat" else 1
    texts = [a if isinstance(a, ast.A_Const) and isinstance(a.val, ast.String) else
             ast.FuncCall(funcname=(ast.String(sval="txngate_text"),), args=(a,)) for a in fc.args[first:]]
    if name != "format":
        fc.args = tuple(fc.args[:first]) + tuple(texts)
        return
    listed = ast.A_ArrayExpr(elements=tuple(ast.TypeCast(arg=t, typeName=ast.TypeName(names=(ast.String(sval="text"),), typemod=-1))
                                            for t in texts))
    fc.funcname = (ast.String(sval="txngate_format"),)
    fc.args = (fc.args[0], ast.TypeCast(arg=listed, typeName=ast.TypeName(names=(ast.String(sval="text"),), arrayBounds=(ast.Integer(ival=-1),), typemod=-1)))


def _date_trunc(fc: ast.FuncCall, columns: dict[str, str]) -> ast.Node | None:
    """date_trunc('unit', x) as PostgreSQL's: a date is truncated as the
    timestamptz it converts to (DuckDB's answer is a timestamp), and
    decades, centuries and millennia are PostgreSQL's (centuries begin in
    years ending in 01, as 1901; before year 1 there is no year 0): the
    year's truncation moved back to the first year of its span
    (``txngate_pg_first_year``)."""
    if fc.funcname[-1].sval != "date_trunc" or len(fc.args or ()) != 2:
        return None
    unit, x = fc.args
    kind = _datetime_kind(x, columns)
    if kind == "date":
        x, kind = ast.TypeCast(arg=x, typeName=ast.TypeName(names=(ast.String(sval="timestamptz"),), typemod=-1)), "timestamptz"
    if not (isinstance(unit, ast.A_Const) and isinstance(unit.val, ast.String)):
        # a unit known as the statement runs (a column, a parameter): the engine's date_trunc by another name (the
        # rewriter read a column's name as the unit's), PostgreSQL's decades, centuries and millennia as the constants'
        if _is_interval(x, columns):
            return None
        year = _astronomical("year", kind or "timestamp").replace("_arg1", "_arg2")
        spans = " ".join(f"WHEN lower(trim(_arg1)) IN ('{a}', '{b}') THEN date_trunc('year', _arg2) - CAST({year} - "
                         f"txngate_pg_first_year({span}, {year}) AS int4) * CAST('1 year' AS interval)"
                         for a, b, span in (("decade", "decades", 10), ("century", "centuries", 100), ("millennium", "millennia", 1000)))
        return expand(f"CASE {spans} ELSE txngate_date_trunc(_arg1, _arg2) END", [unit, x])
    word = unit.val.sval.strip().lower()
    span = {"decade": 10, "decades": 10, "century": 100, "centuries": 100, "millennium": 1000, "millennia": 1000}.get(word)
    if span is None:
        return ast.FuncCall(funcname=fc.funcname, args=(unit, x)) if x is not fc.args[1] else None
    year = _astronomical("year", kind)
    return expand(f"date_trunc('year', _arg1) - CAST({year} - txngate_pg_first_year({span}, {year}) AS int4) * CAST('1 year' AS interval)", [x])


#: the digits DuckDB's DECIMAL holds (txngate's numeric)
_NUMERIC_DIGITS = 38


def _numeric_constant(n: ast.A_Const) -> ast.Node | None:
    """A numeric constant PostgreSQL reads exactly that DuckDB would read
    as a double (``1.5e10``, ``1e-3``) or, past 38 digits, as a double or a
    big integer: the exact decimal, typed numeric(p, s); 0A000 when it
    needs more digits than txngate's numeric holds (never a rounded value)."""
    text = n.val.fval
    digits = text.lstrip("+-").replace(".", "").lstrip("0")
    if "e" not in text.lower() and len(digits) <= _NUMERIC_DIGITS:
        return None  # DuckDB reads it as the same exact decimal
    try:
        return _exact_numeric(text)
    except decimal.InvalidOperation:
        return None


def _exact_numeric(text: str) -> ast.TypeCast:
    """``text`` (a number) as the exact numeric(p, s) of its digits;
    0A000 past 38 digits."""
    exact = format(decimal.Decimal(text.strip()), "f")
    whole, _, fraction = exact.lstrip("-").partition(".")
    precision, scale = len(whole.lstrip("0")) + len(fraction), len(fraction)
    if precision > _NUMERIC_DIGITS:
        raise not_supported(f"numeric constant {text} (more than the {_NUMERIC_DIGITS} digits txngate's numeric holds)")
    return _cast_to(ast.A_Const(val=ast.String(sval=exact)), f"numeric({max(precision, scale, 1)},{scale})")


def _constant_scale(n: ast.Node) -> int:
    """The digits after the point of a number constant (``1e-20``: 20), or
    of the numeric(p, s) it was read as; 0 for anything else and past 38
    digits (a constant cast to plain numeric keeps them all, where a
    column keeps 10)."""
    if isinstance(n, ast.A_Const) and isinstance(n.val, (ast.Float, ast.String)):
        places = decimals.constant_places(n.val.fval if isinstance(n.val, ast.Float) else n.val.sval)
        return places if places is not None and places <= _NUMERIC_DIGITS else 0
    if isinstance(n, ast.TypeCast) and n.typeName.names[-1].sval == "numeric" and len(n.typeName.typmods or ()) == 2 \
            and isinstance(n.arg, ast.A_Const):
        return n.typeName.typmods[1].val.ival
    return 0


def _astronomical(field: str, kind: str | None) -> str:
    """The year or isoyear of ``_arg1`` counted astronomically (year 0 is 1
    BC), as DuckDB's year() and isoyear() give it for a date or timestamp
    (not rewritten as date_part is); for a timestamptz they give the year of
    its era (55 for 55 BC), so it is read as the timestamp it shows."""
    return f"{field}(CAST(_arg1 AS timestamp))" if kind == "timestamptz" else f"{field}(_arg1)"


#: PostgreSQL's regexp functions local_exec.regex computes: the defaults of their arguments after the pattern
_REGEXP_DEFAULTS = {
    "regexp_count": (1, ""), "regexp_split_to_array": ("",), "regexp_instr": (1, 1, 0, "", 0), "regexp_substr": (1, 1, "", 0), "regexp_like": ("",),
}


def _constant(value: int | str) -> ast.A_Const:
    return ast.A_Const(val=ast.Integer(ival=value) if isinstance(value, int) else ast.String(sval=value))


#: the flags PostgreSQL's regular expression functions take (local_exec.regex)
REGEXP_FLAGS = set("bcegimnpqstwx")


def _backreferences(n: ast.Node) -> bool:
    """``n`` is a constant pattern with a back reference (``(.)\\1``), which the engine's expressions lack."""
    return isinstance(n, ast.A_Const) and isinstance(n.val, ast.String) and re.search(r"\\[1-9]", n.val.sval) is not None


def _whole_match_replaced(n: ast.Node) -> bool:
    """``n`` is a constant replacement with PostgreSQL's ``\\&`` (the whole match), which the engine's lacks."""
    return isinstance(n, ast.A_Const) and isinstance(n.val, ast.String) and "\\&" in n.val.sval


def _regexp_replace_from(fc: ast.FuncCall) -> None:
    """regexp_replace(s, p, r, start [, N] [, flags]) as local_exec.regex's
    (DuckDB's takes no start or N); N -1 stands for "not given"."""
    args = list(fc.args or ())
    if len(args) >= 4 and isinstance(args[-1], ast.A_Const) and isinstance(args[-1].val, ast.String):
        bad = next((f for f in args[-1].val.sval if f not in REGEXP_FLAGS), None)
        if bad is not None:
            raise SqlError("22023", f'invalid regular expression option: "{bad}"')
    for i, (name, least) in enumerate((("start", 1), ("n", 0)), 3):
        value = args[i] if len(args) > i else None
        if isinstance(value, ast.A_Const) and isinstance(value.val, ast.Integer) and value.val.ival < least:
            raise SqlError("22023", f'invalid value for parameter "{name}": {value.val.ival}')
    if len(args) in (3, 4) and (_backreferences(args[1]) or _whole_match_replaced(args[2])):
        # what the engine's expressions lack (a back reference, \& for the match): local_exec.regex's
        fc.funcname = (ast.String(sval="txngate_regexp_replace"),)
        fc.args = (*args[:3], _constant(1), ast.A_Const(val=ast.Integer(ival=-1)), args[3] if len(args) == 4 else _constant(""))
        return
    if len(args) < 4 or (len(args) == 4 and isinstance(args[3], ast.A_Const) and isinstance(args[3].val, ast.String)):
        # the engine's own: . matches a line break too unless a newline-sensitive flag says otherwise, as in PostgreSQL
        flags = args[3].val.sval if len(args) == 4 else ""
        if len(args) >= 3 and not set(flags) & set("npw"):
            fc.args = (*args[:3], _constant(flags + "s"))
        return
    flags = args.pop() if len(args) == 6 or (len(args) == 5 and isinstance(args[4], ast.A_Const) and isinstance(args[4].val, ast.String)) \
        else ast.A_Const(val=ast.String(sval=""))
    n = args[4] if len(args) == 5 else ast.A_Const(val=ast.Integer(ival=-1))
    fc.funcname = (ast.String(sval="txngate_regexp_replace"),)
    fc.args = (*args[:4], n, flags)


_ARRAY_OPERATORS = {"=", "<>", "<", ">", "<=", ">=", "@>", "<@", "&&", "||"}


def _array_operands(n: ast.A_Expr, arrays: dict[str, str]) -> None:
    """An array literal compared with an array (``tags @> '{a}'``,
    ``ARRAY['x'] <@ '{x,y}'``) takes the array's type, as PostgreSQL types
    an unknown literal by the other operand."""
    if n.kind != A_Expr_Kind.AEXPR_OP or n.name[-1].sval not in _ARRAY_OPERATORS:
        return
    for mine, other in (("lexpr", n.rexpr), ("rexpr", n.lexpr)):
        if isinstance(other, ast.ColumnRef) and isinstance(other.fields[-1], ast.String) and other.fields[-1].sval in arrays:
            setattr(n, mine, typed_literal(getattr(n, mine), arrays[other.fields[-1].sval]))
        elif isinstance(literal := getattr(n, mine), ast.A_Const) and isinstance(literal.val, ast.String) \
                and (kind := _array_type(other, arrays)) is not None:
            setattr(n, mine, typed_literal(literal, kind))


def _is_array(n: ast.Node | None, arrays: dict[str, str]) -> bool:
    """``n`` is plainly an array: an array column, constructor, ARRAY(SELECT
    ...) or cast, an array function's result, a slice, ``||`` with one, a
    CASE, COALESCE or NULLIF of them."""
    if isinstance(n, ast.ColumnRef):  # (a subquery's or VALUES' column by its scoped record)
        return isinstance(n.fields[-1], ast.String) and column_type(n, arrays) is not None
    if isinstance(n, ast.FuncCall):
        return n.funcname[-1].sval in _ARRAY_FUNCTIONS and not n.over
    if isinstance(n, ast.A_Indirection):
        return any(isinstance(i, ast.A_Indices) and i.is_slice for i in n.indirection) and _is_array(n.arg, arrays)
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||" and n.lexpr is not None:
        return _is_array(n.lexpr, arrays) or _is_array(n.rexpr, arrays)
    if (arms := _arms(n)) is not None:
        return any(_is_array(a, arrays) for a in arms)
    if isinstance(n, ast.SubLink):
        return n.subLinkType == SubLinkType.ARRAY_SUBLINK
    return isinstance(n, ast.A_ArrayExpr) or isinstance(n, ast.TypeCast) and bool(n.typeName.arrayBounds)


def _array_type(n: ast.Node, arrays: dict[str, str]) -> str | None:
    """The type of an array column, cast (without modifiers), ARRAY of
    constants of one kind (text[] or integer[]) or of numbers of known
    types, a slice of one, or what array_cat, array_append, array_prepend,
    array_remove, array_replace, ``||`` and NULLIF, COALESCE and CASE make
    of them; else None."""
    if isinstance(n, ast.ColumnRef):
        return column_type(n, arrays) if isinstance(n.fields[-1], ast.String) else None
    if isinstance(n, ast.TypeCast) and n.typeName.arrayBounds and not n.typeName.typmods:
        return n.typeName.names[-1].sval + "[]" * len(n.typeName.arrayBounds)
    if isinstance(n, ast.A_ArrayExpr) and n.elements:
        kinds = {type(e.val) for e in n.elements if isinstance(e, ast.A_Const) and not e.isnull}
        if all(isinstance(e, ast.A_Const) for e in n.elements) and len(kinds) == 1:
            return {ast.String: "text[]", ast.Integer: "integer[]"}.get(kinds.pop())
        elements = [_operand_type(e, arrays) for e in n.elements if not (isinstance(e, ast.A_Const) and e.isnull)]
        return f"{max(elements, key=_WIDENING.index)}[]" if elements and None not in elements else None
    if isinstance(n, ast.A_Indirection) and len(n.indirection) == 1 and isinstance(n.indirection[0], ast.A_Indices) \
            and n.indirection[0].is_slice:
        return _array_type(n.arg, arrays)
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in _ARRAY_OF_ARGUMENT and not n.over:
        sources = [n.args[i] for i in _ARRAY_OF_ARGUMENT[n.funcname[-1].sval] if i < len(n.args or ())]
        return next((t for a in sources if (t := _array_type(a, arrays)) is not None), None)
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||" and n.lexpr is not None:
        return _array_type(n.lexpr, arrays) or _array_type(n.rexpr, arrays)
    if (arms := _arms(n)) is not None:
        return next((t for a in arms if a is not None and (t := _array_type(a, arrays)) is not None), None)
    return None


#: functions whose value is an array of the type of their arguments at these positions
_ARRAY_OF_ARGUMENT = {"array_cat": (0, 1), "txngate_array_cat": (0, 1), "array_append": (0,), "array_prepend": (1,),
                      "array_remove": (0,), "array_replace": (0,)}


def _string_arms_as_arrays(n: ast.Node, arms: list, arrays: dict[str, str], columns: dict[str, str]) -> None:
    """A string constant among the arms of a COALESCE, CASE, NULLIF or
    GREATEST / LEAST that has an array arm is that array's text, as
    PostgreSQL reads an unknown there (``coalesce(array_agg(x), '{}')``):
    written as the array of the other arms' type (22P02 if it is not an
    array literal)."""
    declared = next((t for a in arms if a is not None and (t := _array_type(a, arrays) or _aggregated_array_type(a, columns))), None)

    def typed(arm):
        if not (isinstance(arm, ast.A_Const) and isinstance(arm.val, ast.String)):
            return arm
        if not arm.val.sval.lstrip().startswith(("{", "[")):
            raise SqlError("22P02", f'malformed array literal: "{arm.val.sval}"', detail='Array value must start with "{" or dimension information.')
        if declared is not None:
            return typed_literal(arm, declared)
        if arm.val.sval.strip() == "{}":
            return ast.A_ArrayExpr(elements=None)  # empty, of the other arms' type
        return arm

    if isinstance(n, ast.CaseExpr):
        for w in n.args:
            w.result = typed(w.result)
        n.defresult = typed(n.defresult)
    elif isinstance(n, ast.A_Expr):  # NULLIF: its value is the first argument's
        n.lexpr, n.rexpr = typed(n.lexpr), typed(n.rexpr)
    else:
        n.args = tuple(typed(a) for a in n.args)


def _aggregated_array_type(n: ast.Node, columns: dict[str, str]) -> str | None:
    """The type of ``array_agg(x)`` where ``x``'s type is known."""
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "array_agg" and len(n.args or ()) == 1 and not n.over:
        arg = n.args[0]
        if isinstance(arg, ast.ColumnRef) and isinstance(arg.fields[-1], ast.String):
            element = column_type(arg, columns)
        elif isinstance(arg, ast.TypeCast) and not arg.typeName.arrayBounds:
            element = canonical(arg.typeName)
        else:
            element = _operand_type(arg, columns)
        return element + "[]" if element and not element.endswith("[]") else None
    return None


def _is_element(n: ast.Node, arrays: dict[str, str], columns: dict[str, str]) -> bool:
    """``n`` is plainly not an array: a constant (not NULL, not a string),
    a column of another type, a cast to one, or an expression of a known
    scalar type."""
    if isinstance(n, ast.A_Const):
        return not n.isnull and not isinstance(n.val, ast.String)  # a string is unknown: read as the array's type
    if isinstance(n, ast.ColumnRef):
        return isinstance(n.fields[-1], ast.String) and (t := column_type(n, columns)) is not None and not t.endswith("[]")
    if isinstance(n, ast.TypeCast):
        return not n.typeName.arrayBounds
    if isinstance(n, ast.A_Indirection) and n.indirection and all(isinstance(i, ast.A_Indices) and not i.is_slice for i in n.indirection):
        return _is_array(n.arg, arrays) and len(n.indirection) >= _array_depth(n.arg)  # a[1]: an element of a
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("->>", "#>>"):
        return True  # json's text
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||" and n.lexpr is not None:
        # text || text: text (no array among its operands)
        return not _is_array(n, arrays) and all(isinstance(x, ast.A_Const) and isinstance(x.val, ast.String) or _is_element(x, arrays, columns)
                                                for x in (n.lexpr, n.rexpr))
    if isinstance(n, ast.FuncCall) or isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in _ARITHMETIC:
        return not _maybe_list(n, columns)  # a scalar function's or arithmetic's value
    if (arms := _arms(n)) is not None:  # string constants among its arms are of the others' type, or text
        if isinstance(n, ast.A_Expr):
            arms = [n.lexpr, n.rexpr]  # NULLIF: of its arguments' common type
        return all(a is None or isinstance(a, ast.A_Const) and isinstance(a.val, ast.String) or _is_element(a, arrays, columns) for a in arms)
    return not _is_array(n, arrays) and _operand_type(n, columns) is not None


def _array_concat(n: ast.A_Expr, arrays: dict[str, str], columns: dict[str, str]) -> ast.Node | None:
    """``||`` on arrays as PostgreSQL means it (a NULL array is empty):
    array_cat of two arrays (both NULL: NULL), array_append/prepend of an
    element."""
    _array_operands(n, arrays)  # before the walk reaches ``n`` itself
    left, right = _is_array(n.lexpr, arrays), _is_array(n.rexpr, arrays)
    if left != right:  # a string beside an array is an array's text ('{x}'), as PostgreSQL reads an unknown there
        array, other = (n.lexpr, n.rexpr) if left else (n.rexpr, n.lexpr)
        if isinstance(other, ast.A_Const) and isinstance(other.val, ast.String) and not other.val.sval.lstrip().startswith(("{", "[")):
            raise SqlError("22P02", f'malformed array literal: "{other.val.sval}"',
                           detail='Array value must start with "{" or dimension information.')
        declared = _array_type(array, arrays)
        if isinstance(other, ast.A_Const) and isinstance(other.val, ast.String) and declared is not None:
            other = typed_literal(other, declared)
            n.lexpr, n.rexpr = (array, other) if left else (other, array)
            left = right = True
    if isinstance(n.rexpr, ast.RowExpr) != isinstance(n.lexpr, ast.RowExpr) and not (left or right):
        # a ROW(...) beside what is not text (a recursive CTE's path of rows, PostgreSQL's cycle check): an array of rows
        other = n.lexpr if isinstance(n.rexpr, ast.RowExpr) else n.rexpr
        if not (isinstance(other, ast.A_Const) or typed_text(other, columns) or text_function(other)):
            left, right = other is n.lexpr, other is n.rexpr
    if left and right:
        name, args = "txngate_array_cat", (n.lexpr, n.rexpr)
    elif left and isinstance(n.rexpr, ast.RowExpr):
        name, args = "list_append", (n.lexpr, n.rexpr)
    elif right and isinstance(n.lexpr, ast.RowExpr):
        name, args = "list_prepend", (n.lexpr, n.rexpr)
    elif left and _is_element(n.rexpr, arrays, columns):
        name, args = "array_append", _common_numbers(n.lexpr, n.rexpr, arrays, columns)
    elif right and _is_element(n.lexpr, arrays, columns):
        name, args = "array_prepend", _common_numbers(n.rexpr, n.lexpr, arrays, columns)[::-1]
    else:
        return None
    return ast.FuncCall(funcname=(ast.String(sval=name),), args=args, funcformat=CoercionForm.COERCE_EXPLICIT_CALL)


def _common_numbers(array: ast.Node, element: ast.Node, arrays: dict[str, str], columns: dict[str, str]) -> tuple[ast.Node, ast.Node]:
    """An array of integers and an integer of another width as their common
    type, as PostgreSQL's anycompatible arguments resolve (integer[] ||
    smallint: the engine refused to join them)."""
    declared, kind = _array_type(array, arrays), _operand_type(element, columns)
    inner = declared.removesuffix("[]") if declared is not None and declared.count("[]") == 1 else None
    if inner not in INTEGER_TYPES or kind not in INTEGER_TYPES or inner == kind:
        return array, element
    wider = max(inner, kind, key=_WIDENING.index)
    return (array if wider == inner else _cast_to(array, wider + "[]")), (element if wider == kind else _cast_to(element, wider))


def _widen_array_argument(fc: ast.FuncCall, arrays: dict[str, str], columns: dict[str, str]) -> None:
    """array_remove and array_replace of a number wider than the array's
    elements (``array_remove(smallint[], 0)``): the array cast to the wider
    type first, as PostgreSQL's anycompatible arguments resolve (its
    result is an integer[]; the engine's kept the elements' type)."""
    name, args = fc.funcname[-1].sval.removeprefix("txngate_"), list(fc.args or ())  # (as the engine's template names it too)
    if name not in ("array_remove", "array_replace") or len(args) != (2 if name == "array_remove" else 3) or fc.over is not None:
        return
    array = args[0]
    if isinstance(array, ast.A_ArrayExpr) and array.elements:  # ARRAY[s, ...]: of its elements' common type
        kinds = [_operand_type(e, columns, floats=True) for e in array.elements if not (isinstance(e, ast.A_Const) and e.isnull)]
        element = max(kinds, key=_WIDENING.index) if kinds and None not in kinds else ""
    else:
        element = (_array_type(array, arrays) or "").removesuffix("[]")
    values = [_operand_type(v, columns, floats=True) for v in args[1:] if not (isinstance(v, ast.A_Const) and v.isnull)]
    if element not in _WIDENING or not values or None in values:
        return
    wider = max(values, key=_WIDENING.index)
    if _WIDENING.index(wider) > _WIDENING.index(element):
        fc.args = (_cast_to(args[0], f"{wider}[]"), *args[1:])


def _cast_to(n: ast.Node, sql_type: str) -> ast.TypeCast:
    """``n::sql_type`` (a type with modifiers too, like numeric(38,2))."""
    return ast.TypeCast(arg=n, typeName=sql_type_name(sql_type))


def _is_date(n: ast.Node, columns: dict[str, str]) -> bool:
    """A date: a constant, cast or column, a date plus or minus an integer,
    or a COALESCE / NULLIF / CASE of dates."""
    if isinstance(n, ast.TypeCast):
        return n.typeName.names[-1].sval == "date" and not n.typeName.arrayBounds
    if isinstance(n, ast.ColumnRef):
        return isinstance(n.fields[-1], ast.String) and column_type(n, columns) == "date"
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("make_date", "to_date") and len(n.funcname) == 1 and not n.over:
        return True  # (make_date(...) - d was the engine's bigint)
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-"):
        return _is_date(n.lexpr, columns) and _operand_type(n.rexpr, columns) in ("smallint", "integer")
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_NULLIF:
        return _is_date(n.lexpr, columns)
    if isinstance(n, ast.CoalesceExpr):
        return all(_is_date(a, columns) for a in n.args)
    if isinstance(n, ast.CaseExpr):
        arms = [a for a in [w.result for w in n.args] + [n.defresult] if a is not None and not (isinstance(a, ast.A_Const) and a.isnull)]
        return bool(arms) and all(_is_date(a, columns) for a in arms)
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("min", "max", "any_value") and len(n.args or ()) == 1 and n.over is None:
        return _is_date(n.args[0], columns)  # an aggregate of dates
    if isinstance(n, ast.SQLValueFunction):
        return n.op == SQLValueFunctionOp.SVFOP_CURRENT_DATE
    return False


#: the calls that take a zone: their number of arguments, the zone's position
_ZONE_ARGUMENT = {"timezone": (2, 0), "make_timestamptz": (7, 6), "date_trunc": (3, 2)}


def _abbreviated_zone(name: str, args: list[ast.Node], columns: dict[str, str]) -> ast.Node | None:
    """A call given its zone as a time zone abbreviation, which PostgreSQL
    reads before zone names (values.zones) and the engines read as zones
    or not at all (DuckDB's ICU takes PST for Los Angeles, an hour off in
    summer): a fixed one as its offset, a dynamic one (MSK) as the step
    function of its offsets (AT TIME ZONE; make_timestamptz as AT TIME ZONE
    of its local time) or as its zone (date_trunc, as PostgreSQL does);
    None when the call is not one of those."""
    arity, at = _ZONE_ARGUMENT.get(name, (None, None))
    if len(args) != arity or not _is_text(args[at]) or not isinstance(args[at], ast.A_Const):
        return None
    text = args[at].val.sval
    # make_timestamptz reads a numeric zone first, with ISO's sign ('+2' is two hours east; AT TIME ZONE's is POSIX's)
    meaning = numeric_zone(text) if name == "make_timestamptz" and text[:1] in "+-" else None
    if meaning is not None and meaning.total_seconds() % 60:
        raise not_supported(f'time zone "{text}" (the engines keep whole minutes of an offset)')
    meaning = abbreviation(text) if meaning is None else meaning
    if meaning is None:
        return None
    steps = abbreviation_steps(args[at].val.sval)
    if isinstance(meaning, str) and len(steps) == 1:
        meaning = steps[0][1]  # one offset all along
    if not isinstance(meaning, str) or name == "date_trunc" or not steps:  # the zone's own offsets when it never used the name
        zone = _cast_to(_constant(engine_offset(meaning) if not isinstance(meaning, str) else meaning), "text")
        return ast.FuncCall(funcname=(ast.String(sval=name),), args=(*args[:at], zone, *args[at + 1:]))
    if name == "make_timestamptz":
        local = ast.FuncCall(funcname=(ast.String(sval="make_timestamp"),), args=tuple(args[:6]))
        return _dynamic_zone(steps, meaning, local, "timestamp")
    return _dynamic_zone(steps, meaning, args[1], _time_type(args[1], columns))


def _dynamic_zone(steps: tuple, zone: str, x: ast.Node, x_type: str | None) -> ast.Node | None:
    """``x AT TIME ZONE`` a dynamic abbreviation of ``zone`` with these
    ``steps`` (values.zones.abbreviation_steps): at each instant the offset
    the name meant then; a timestamp's instant is its local time in the
    zone, as PostgreSQL probes it."""
    if x_type not in ("timestamp", "timestamptz"):
        return None
    probe = "_arg1" if x_type == "timestamptz" else f"timezone('{zone}', _arg1)"
    arms = [f"WHEN {probe} < CAST('{start.isoformat(sep=' ')}+00' AS timestamptz) THEN timezone('{engine_offset(offset)}', _arg1)"
            for (_, offset), (start, _) in zip(steps, steps[1:])]
    return expand(f"CASE {' '.join(arms)} ELSE timezone('{engine_offset(steps[-1][1])}', _arg1) END", [x])


def _time_type(n: ast.Node, columns: dict[str, str]) -> str | None:
    """timestamp or timestamptz when ``n`` is plainly one (a cast, a column,
    the current time), else None."""
    names = {"timestamp": "timestamp", "timestamptz": "timestamptz"}
    if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds:
        return names.get(n.typeName.names[-1].sval)
    if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
        return names.get(column_type(n, columns, ""))
    if isinstance(n, ast.SQLValueFunction):
        op = SQLValueFunctionOp
        return {op.SVFOP_CURRENT_TIMESTAMP: "timestamptz", op.SVFOP_CURRENT_TIMESTAMP_N: "timestamptz",
                op.SVFOP_LOCALTIMESTAMP: "timestamp", op.SVFOP_LOCALTIMESTAMP_N: "timestamp"}.get(n.op)
    if isinstance(n, ast.FuncCall) and len(n.funcname) == 1:
        return {"now": "timestamptz", "make_timestamp": "timestamp", "make_timestamptz": "timestamptz"}.get(n.funcname[0].sval)
    return None


#: the column a SELECT of no columns computes for the engines (which need one): never shown (planner.session drops it)
NOTHING = "txngate_nothing"


def _select_something(node: ast.Node) -> None:
    """Give every SELECT of no columns (``EXISTS (SELECT FROM t ...)``,
    ``SELECT UNION SELECT``) one constant column, the same for every arm
    of a set operation, which PostgreSQL refuses to mix with arms of
    columns (42601)."""
    for n in walk(node):
        if not isinstance(n, ast.SelectStmt) or n.targetList or n.valuesLists:
            continue
        if n.op is None or n.op.name == "SETOP_NONE":
            n.targetList = (ast.ResTarget(name=NOTHING, val=ast.A_Const(val=ast.Boolean(boolval=True))),)
        elif p.selects_nothing(n.larg) != p.selects_nothing(n.rarg):
            raise SqlError("42601", f"each {n.op.name[6:]} query must have the same number of columns")


_ARITHMETIC = ("+", "-", "*", "/", "%")
#: the number types by their cast names (an untyped string constant beside one takes it, as PostgreSQL resolves ``x + '2'``)
_NUMBER_TYPES = {"smallint": "int2", "integer": "int4", "bigint": "int8", "real": "float4", "double precision": "float8", "numeric": "numeric"}


def _typed_literal(n: ast.A_Expr, columns: dict[str, str]) -> ast.A_Expr | None:
    """``n`` (arithmetic) with its untyped string constant operand cast to
    the number type of the other operand, as PostgreSQL reads ``x + '2'``
    (DuckDB read the text as a double beside a numeric: 0.1::numeric +
    '0.2' was not exact); None when neither side is such."""
    for const, other in ((n.lexpr, n.rexpr), (n.rexpr, n.lexpr)):
        if isinstance(const, ast.A_Const) and isinstance(const.val, ast.String) and not isinstance(other, ast.A_Const):
            declared = _declared_number(other, columns)
            if declared is not None:
                typed = _cast_to(const, declared)
                if declared == "numeric" and re.fullmatch(r"\s*[+-]?(\d+\.?\d*|\.\d+)\s*", const.val.sval):
                    typed = ast.A_Const(val=ast.Float(fval=const.val.sval.strip()))  # its own digits, as a constant's
                return ast.A_Expr(kind=n.kind, name=n.name, lexpr=typed if const is n.lexpr else n.lexpr,
                                  rexpr=typed if const is n.rexpr else n.rexpr)
    return None


def _declared_number(n: ast.Node, columns: dict[str, str]) -> str | None:
    """The number type (without modifiers) of a column or cast, else None."""
    if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds:
        name = n.typeName.names[-1].sval
        return name if name in _NUMBER_TYPES.values() else {"int": "int4", "float": "float8", "decimal": "numeric"}.get(name)
    if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
        declared = column_type(n, columns, "")
        return _NUMBER_TYPES.get("numeric" if declared.startswith("numeric(") else declared)
    return None


def _arms(n: ast.Node | None) -> list[ast.Node] | None:
    """The values a NULLIF (its first), COALESCE, GREATEST / LEAST or CASE
    (its results, ELSE too) may take, whose type is theirs; None for any
    other node."""
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_NULLIF:
        return [n.lexpr]
    if isinstance(n, (ast.CoalesceExpr, ast.MinMaxExpr)):
        return list(n.args)
    if isinstance(n, ast.CaseExpr):
        return [w.result for w in n.args] + [n.defresult]
    return None


def _is_interval(n: ast.Node | None, columns: dict[str, str]) -> bool:
    """``n`` is plainly an interval: a constant, cast or column, the sum,
    difference, negation, multiple or quotient of intervals, the
    difference of two timestamps, an interval function's result, or a
    CASE / COALESCE / NULLIF of intervals."""
    if isinstance(n, ast.TypeCast):
        return n.typeName.names[-1].sval == "interval" and not n.typeName.arrayBounds
    if isinstance(n, ast.ColumnRef):
        return isinstance(n.fields[-1], ast.String) and column_type(n, columns) == "interval"
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-", "*", "/"):
        op = n.name[-1].sval
        if n.lexpr is None:
            return op == "-" and _is_interval(n.rexpr, columns)
        if op in ("+", "-"):
            both = _is_interval(n.lexpr, columns) and _is_interval(n.rexpr, columns)
            return both or op == "-" and _is_timestamp(n.lexpr, columns) and _is_timestamp(n.rexpr, columns)
        return _is_interval(n.lexpr, columns) or op == "*" and _is_interval(n.rexpr, columns)
    if (arms := _arms(n)) is not None:
        return any(_is_interval(a, columns) for a in arms)
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("sum", "avg", "min", "max") and len(n.args or ()) == 1:
        return _is_interval(n.args[0], columns)  # (an aggregate or a window's)
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "date_trunc" and len(n.args or ()) == 2:
        return _is_interval(n.args[1], columns)
    return isinstance(n, ast.FuncCall) and n.funcname[-1].sval in _INTERVAL_FUNCTIONS and not n.over


def _is_timestamp(n: ast.Node | None, columns: dict[str, str]) -> bool:
    """``n`` is plainly a timestamp (with time zone or without): a cast,
    constant or column, a date or timestamp plus or minus an interval,
    date_trunc's or make_timestamp's result, one AT TIME ZONE, a plain timestamp with time
    zone (``_is_timestamptz``), or a CASE / COALESCE / NULLIF of timestamps."""
    if _datetime_kind(n, columns) in ("timestamp", "timestamptz"):
        return True
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-") and n.lexpr is not None:
        moved = lambda a, b: (_is_timestamp(a, columns) or _is_date(a, columns)) and _is_interval(b, columns)  # noqa: E731
        return moved(n.lexpr, n.rexpr) or n.name[-1].sval == "+" and moved(n.rexpr, n.lexpr)
    if (arms := _arms(n)) is not None:
        return any(_is_timestamp(a, columns) for a in arms)
    if isinstance(n, ast.FuncCall) and not n.over and (n.funcname[-1].sval == "make_timestamp" or n.funcname[-1].sval == "timezone"
                                                       and len(n.args or ()) == 2) or _is_timestamptz(n, columns):
        return True  # (x AT TIME ZONE z is timezone(z, x): a timestamp of either kind)
    return isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "date_trunc" and len(n.args or ()) == 2 and not n.over \
        and not _is_interval(n.args[1], columns)  # (date_trunc of an interval is an interval)


#: functions whose result is a timestamp with time zone (the statement's, the transaction's, the clock's time)
_NOW_FUNCTIONS = {"now", "statement_timestamp", "transaction_timestamp", "clock_timestamp"}


def _is_timestamptz(n: ast.Node | None, columns: dict[str, str]) -> bool:
    """``n`` is plainly a timestamp with time zone: a cast, constant or
    column, now() or CURRENT_TIMESTAMP, to_timestamp's or
    make_timestamptz's result, or one plus or minus an interval."""
    if _datetime_kind(n, columns) == "timestamptz":
        return True
    if isinstance(n, ast.SQLValueFunction):
        return n.op == SQLValueFunctionOp.SVFOP_CURRENT_TIMESTAMP
    if isinstance(n, ast.FuncCall):
        name = n.funcname[-1].sval
        return name in _NOW_FUNCTIONS and not n.args or name in ("to_timestamp", "make_timestamptz") and bool(n.args) and not n.over
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-") and n.lexpr is not None:
        return _is_timestamptz(n.lexpr, columns) and _is_interval(n.rexpr, columns) \
            or n.name[-1].sval == "+" and _is_interval(n.lexpr, columns) and _is_timestamptz(n.rexpr, columns)
    return False


def _zoned_move(n: ast.A_Expr, columns: dict[str, str]) -> ast.Node | None:
    """timestamptz + or - an interval as PostgreSQL moves it: by the
    months, then the days, then the time (in the session's zone). The
    engine's own arithmetic moves the time first, so '2000-02-29
    00:00+00' - '1 year 1 second' landed a day late; a timestamp whose
    kind is not plain (date_trunc's, a sum's) moves the same way. None
    when ``n`` is no such move."""
    op = n.name[-1].sval
    zoned = lambda x: _is_timestamptz(x, columns) or _is_timestamp(x, columns)  # noqa: E731  (either moves so)
    if zoned(n.lexpr) and _is_interval(n.rexpr, columns):
        moment, span = n.lexpr, n.rexpr
    elif op == "+" and _is_interval(n.lexpr, columns) and zoned(n.rexpr):
        moment, span = n.rexpr, n.lexpr
    else:
        return None
    return ast.FuncCall(funcname=(ast.String(sval="txngate_zoned_plus" if op == "+" else "txngate_zoned_minus"),), args=(moment, span))


def _interval_aggregate(fc: ast.FuncCall) -> ast.Node:
    """sum(interval) and avg(interval), which the engine lacks, as
    PostgreSQL computes them: months, days and microseconds summed apart
    (never carried into each other), the average that sum divided by the
    count as an interval is (a fraction of a month carried as 30 days, of
    a day as 24 hours). FILTER and OVER apply to each part."""
    def part(template: str) -> ast.FuncCall:
        return ast.FuncCall(funcname=(ast.String(sval="sum"),), args=(expand(template, list(fc.args)),), agg_filter=fc.agg_filter, over=fc.over)
    total = expand("to_months(CAST(_arg1 AS integer)) + to_days(CAST(_arg2 AS integer)) + to_microseconds(CAST(_arg3 AS bigint))", [
        part("date_part('year', _arg1) * 12 + date_part('month', _arg1)"), part("date_part('day', _arg1)"),
        part("date_part('hour', _arg1) * CAST(3600000000 AS bigint) + date_part('minute', _arg1) * CAST(60000000 AS bigint)"
             " + date_part('microseconds', _arg1)")])
    if fc.funcname[-1].sval == "sum":
        return total
    count = ast.FuncCall(funcname=(ast.String(sval="count"),), args=tuple(fc.args), agg_filter=fc.agg_filter, over=fc.over)
    return expand("txngate_interval_div(_arg1, CAST(NULLIF(_arg2, 0) AS double precision))", [_carried(total), count])  # of no rows: NULL


def _check_div_arguments(fc: ast.FuncCall, columns: dict[str, str]) -> None:
    """42883 for div() of a real or a double: PostgreSQL's takes numerics
    only, and a double has no implicit cast to numeric."""
    types = [_operand_type(a, columns, floats=True) for a in fc.args]
    if any(t in ("real", "double precision") for t in types):
        raise undefined("function", f"function div({', '.join(t or 'unknown' for t in types)}) does not exist", position=_position(fc))


#: functions PostgreSQL has for integer and bigint alone (of smallint arguments: 42725)
_INT4_INT8_ONLY = {"to_hex", "gcd", "lcm"}

def _scale_by_arms(fc: ast.FuncCall, columns: dict[str, str]) -> ast.Node | None:
    """scale(CASE ...), scale(COALESCE(...)) and scale(NULLIF(a, b)) as the
    scale of the arm each row takes: PostgreSQL's numeric keeps each value's
    own scale (an integer arm's is 0), where the engine's CASE is of one
    type (its scale the widest arm's: a wrong answer); through abs() and a
    sign too. Where every arm's scale is known, the display scale the
    outputs print (``_shown_scale``: GREATEST and LEAST of two too); else
    each arm's scale() (GREATEST and LEAST are refused); None for any other
    argument."""
    arg, name = fc.args[0], fc.funcname[-1].sval
    if name == "scale" and (shown := _shown_scale(arg, columns)) is not None:
        return ast.CaseExpr(args=(ast.CaseWhen(expr=ast.NullTest(arg=copy_tree(arg), nulltesttype=NullTestType.IS_NULL),
                                               result=ast.A_Const(isnull=True)),), defresult=shown)
    while isinstance(arg, ast.FuncCall) and arg.funcname[-1].sval == "abs" and len(arg.args or ()) == 1 and not arg.over \
            or isinstance(arg, ast.A_Expr) and arg.kind == A_Expr_Kind.AEXPR_OP and arg.lexpr is None and arg.name[-1].sval in ("-", "+"):
        arg = arg.args[0] if isinstance(arg, ast.FuncCall) else arg.rexpr  # (abs and a sign keep each value's scale)

    def of(x: ast.Node) -> ast.FuncCall:
        return ast.FuncCall(funcname=(ast.String(sval=name),), args=(x,))
    if isinstance(arg, ast.CaseExpr):
        return ast.CaseExpr(arg=arg.arg, args=tuple(ast.CaseWhen(expr=w.expr, result=of(w.result)) for w in arg.args),
                            defresult=of(arg.defresult) if arg.defresult is not None else None)
    if isinstance(arg, ast.CoalesceExpr):
        return ast.CaseExpr(args=tuple(ast.CaseWhen(expr=ast.NullTest(arg=a, nulltesttype=NullTestType.IS_NOT_NULL), result=of(copy_tree(a)))
                                       for a in arg.args))
    if isinstance(arg, ast.A_Expr) and arg.kind == A_Expr_Kind.AEXPR_NULLIF:
        return ast.CaseExpr(args=(ast.CaseWhen(expr=ast.NullTest(arg=arg, nulltesttype=NullTestType.IS_NOT_NULL), result=of(copy_tree(arg.lexpr))),))
    if isinstance(arg, ast.MinMaxExpr):
        raise not_supported(f"{name}() of GREATEST or LEAST (txngate keeps no per-value display scale)")
    return None


#: make_interval's parameters, in order
_MAKE_INTERVAL = ("years", "months", "weeks", "days", "hours", "mins", "secs")


def _make_interval(fc: ast.FuncCall) -> ast.Node:
    """make_interval(years, months, weeks, days, hours, mins, secs), by
    position or by name, as PostgreSQL builds it: months and days apart,
    the seconds rounded to the microsecond (the engine read the named form
    as interval text: 22007)."""
    given: dict[str, ast.Node] = {}
    for i, a in enumerate(fc.args or ()):
        name = a.name if isinstance(a, ast.NamedArgExpr) else _MAKE_INTERVAL[i] if i < len(_MAKE_INTERVAL) else None
        if name not in _MAKE_INTERVAL or name in given:
            raise SqlError("42883", f"function make_interval({', '.join('...' for _ in fc.args)}) does not exist",
                           hint="No function matches the given name and argument types. You might need to add explicit type casts.")
        given[name] = a.arg if isinstance(a, ast.NamedArgExpr) else a
    zero = ast.A_Const(val=ast.Integer(ival=0))
    args = [given.get(name, zero) for name in _MAKE_INTERVAL]
    return expand("to_months(CAST(_arg1 AS integer) * 12 + CAST(_arg2 AS integer)) + to_days(CAST(_arg3 AS integer) * 7 + CAST(_arg4 AS integer))"
                  " + to_microseconds(txngate_interval_time(CAST(_arg5 AS bigint), CAST(_arg6 AS bigint), CAST(_arg7 AS double precision)))", args)


def _is_text(n: ast.Node) -> bool:
    """A string constant (``substring(s FROM 'regex')`` is another function)."""
    return isinstance(n, ast.A_Const) and isinstance(n.val, ast.String) or isinstance(n, ast.TypeCast) and n.typeName.names[-1].sval in ("text", "varchar")


def _regexp_match(fc: ast.FuncCall) -> ast.Node:
    """PostgreSQL's regexp_match(es) as local_exec.regex's (flags always
    given); regexp_matches returns a set of arrays, the unnested list."""
    name = fc.funcname[-1].sval
    args = tuple(fc.args or ())
    if len(args) not in (2, 3):
        raise SqlError("42883", f"function {name} with {len(args)} arguments does not exist")
    if len(args) == 2:
        args += (ast.A_Const(val=ast.String(sval="")),)
    call = ast.FuncCall(funcname=(ast.String(sval=f"txngate_{name}"),), args=args)
    if name == "regexp_match":
        return call
    return ast.FuncCall(funcname=(ast.String(sval="unnest"),), args=(call,))


def _similar(n: ast.A_Expr, dialect: str) -> ast.Node:
    """``a [NOT] SIMILAR TO p [ESCAPE e]`` as a full match of the regular
    expression PostgreSQL makes of ``p`` (DuckDB's SIMILAR TO reads ``p`` as
    a regular expression already, and Spark has none)."""
    args = [a.val.sval if isinstance(a, ast.A_Const) and isinstance(a.val, ast.String) else None for a in n.rexpr.args]
    if None in args:
        raise not_supported("SIMILAR TO with a pattern or escape that is not a constant")
    regex = similar_to_regex(*args)
    if dialect == "duckdb":
        # ('s': . matches a line break too, as in PostgreSQL's expressions)
        match = ast.FuncCall(funcname=(ast.String(sval="regexp_full_match"),), args=(n.lexpr, ast.A_Const(val=ast.String(sval=regex)), _constant("s")))
    else:
        match = ast.FuncCall(funcname=(ast.String(sval="rlike"),), args=(n.lexpr, ast.A_Const(val=ast.String(sval=f"(?s)^(?:{regex})$"))))
    return match if n.name[-1].sval == "~" else ast.BoolExpr(boolop=BoolExprType.NOT_EXPR, args=(match,))


def _similar_substring(args) -> ast.Node:
    """``substring(s SIMILAR p ESCAPE e)`` (or ``FROM p FOR e`` of text):
    the part of ``s`` the piece of ``p`` between its two escape-double-quote
    separators matches, the whole pattern matching all of ``s`` (NULL if it
    does not), as PostgreSQL's similar_to_escape makes it: the piece
    before the separators matched lazily (``a*#"%#"g*`` of abcdefg is all
    of it), the rest greedily; with one separator what follows it, with
    none the whole match; more than two are 2200C."""
    if any(isinstance(a, ast.A_Const) and a.isnull for a in args[1:]):
        return _cast_to(ast.A_Const(isnull=True), "text")  # (strict)
    pattern, escape = (a.val.sval if isinstance(a, ast.A_Const) else None for a in args[1:])
    if pattern is None or escape is None:
        raise not_supported("substring SIMILAR with a pattern or escape that is not a constant")
    separator = escape + '"' if escape else None
    pieces = pattern.split(separator) if separator else [pattern]
    if len(pieces) > 3:
        raise SqlError("2200C", "SQL regular expression may not contain more than two escape-double-quote separators")
    regexes = [similar_to_regex(p, escape) for p in pieces]
    if len(regexes) == 1:
        whole = "(" + regexes[0] + ")"
    else:
        whole = "(?:" + _lazy(regexes[0]) + ")(" + regexes[1] + ")" + ("(?:" + regexes[2] + ")" if len(regexes) == 3 else "")
    try:
        re.compile(whole)
    except re.error as e:
        raise SqlError("2201B", f"invalid regular expression: {e}") from None
    # (the whole text matched, the group is what replaces it)
    return expand("CASE WHEN regexp_full_match(_arg1, _arg2, 's') THEN regexp_replace(_arg1, _arg3, '\\1', 's') END",
                  [args[0], _constant(whole), _constant(f"^(?:{whole})$")])


def _lazy(regex: str) -> str:
    """``regex`` with its quantifiers outside brackets made lazy (``*?``, ``+?``, ``??``, ``{m,n}?``)."""
    out, i, in_bracket = [], 0, False
    while i < len(regex):
        c = regex[i]
        out.append(c)
        if c == "\\" and i + 1 < len(regex):
            out.append(regex[i + 1])
            i += 2
            continue
        if in_bracket:
            in_bracket = c != "]" or len(out) >= 2 and out[-2] == "["
        elif c == "[":
            in_bracket = True
        elif c in "*+?}" and not (c == "?" and i > 0 and regex[i - 1] in "*+?}(") and regex[i + 1:i + 2] != "?":
            out.append("?")
        i += 1
    return "".join(out)


def similar_to_regex(pattern: str, escape: str = "\\") -> str:
    """The regular expression for a SIMILAR TO pattern, as PostgreSQL's
    similar_to_escape makes it: ``%`` any text, ``_`` any character, the
    escape character makes the next one literal, ``|*+?{}()[]`` as in
    regular expressions, every other character literal."""
    if len(escape) > 1:
        raise SqlError("22025", "invalid escape string", hint="Escape string must be empty or one character.")
    out, i, in_bracket = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if escape and c == escape:
            i += 1
            if i == len(pattern):
                raise SqlError("2201B", "invalid regular expression: trailing escape")
            out.append(re.escape(pattern[i]))
        elif in_bracket:
            out.append(c)
            in_bracket = c != "]"
        elif c == "[":
            out.append(c)
            in_bracket = True
        elif c in "%_":
            out.append(".*" if c == "%" else ".")
        elif c in ".^$\\":
            out.append("\\" + c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


#: functions of anyelement: an untyped string constant gives them no type
_POLYMORPHIC = {"lag", "lead", "first_value", "last_value", "nth_value"}


def _join_using_aliases(select: ast.SelectStmt) -> None:
    """``a JOIN b USING (k) AS j``: ``j.k`` is the merged column ``k`` (the
    engine has no such alias); another column of ``j`` is 42703, as in PostgreSQL."""
    aliases: dict[str, set[str]] = {}
    for n in walk(select.fromClause):
        if isinstance(n, ast.JoinExpr) and n.join_using_alias is not None:
            aliases[n.join_using_alias.aliasname] = {c.sval for c in n.usingClause or ()}
            n.join_using_alias = None
    if not aliases:
        return

    def merged(ref):
        if isinstance(ref, ast.ColumnRef) and len(ref.fields) == 2 and isinstance(ref.fields[0], ast.String) \
                and ref.fields[0].sval in aliases and isinstance(ref.fields[1], ast.String):
            if ref.fields[1].sval not in aliases[ref.fields[0].sval]:
                raise SqlError("42703", f"column {ref.fields[0].sval}.{ref.fields[1].sval} does not exist",
                               position=ref.location + 1 if ref.location is not None and ref.location >= 0 else None)
            return ast.ColumnRef(fields=(ref.fields[1],), location=ref.location)
        return None

    def star(t):
        ref = t.val
        if isinstance(ref, ast.ColumnRef) and len(ref.fields) == 2 and isinstance(ref.fields[1], ast.A_Star) \
                and isinstance(ref.fields[0], ast.String) and ref.fields[0].sval in aliases:
            using = [c.sval for n in walk(select.fromClause) if isinstance(n, ast.JoinExpr) for c in n.usingClause or ()
                     if c.sval in aliases[ref.fields[0].sval]]
            return [ast.ResTarget(val=ast.ColumnRef(fields=(ast.String(sval=c),)), name=c) for c in dict.fromkeys(using)]
        return [t]

    if select.targetList:
        select.targetList = tuple(x for t in select.targetList for x in star(t))
    for n in list(walk(select)):
        replace_children(n, merged)


def _sort_using(n: ast.SortBy) -> None:
    """``ORDER BY x USING <`` (or ``>``) as ASC (DESC): the ordering operators of the types txngate has."""
    op = n.useOp[-1].sval if n.useOp else ""
    if op not in ("<", ">"):
        raise SqlError("42809", f"operator {op} is not a valid ordering operator",
                       hint="Ordering operators must be \"<\" or \">\" members of btree operator families.")
    n.sortby_dir, n.useOp = (SortByDir.SORTBY_ASC if op == "<" else SortByDir.SORTBY_DESC), None


def _int4_constant(n: ast.Node) -> ast.Node | None:
    """An integer constant in arithmetic typed integer, as PostgreSQL types
    it (DuckDB fits a literal to the other operand: smallint * 7 was a
    smallint, and overflowed where PostgreSQL's integer does not)."""
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer):
        return ast.TypeCast(arg=n, typeName=ast.TypeName(names=(ast.String(sval="int4"),), typemod=-1))
    return None


def exact_divisions(select: ast.Node, columns: dict[str, str]) -> list[int]:
    """The output columns of a SELECT that PostgreSQL computes as numerics
    while DuckDB would give doubles (``_is_exact_division``: ``avg``, the
    variances, ``/``, sqrt, exp, ln, log and power of numerics or
    integers), when nothing else in the statement refers to them (ORDER
    BY, GROUP BY or HAVING by name or position), since they are computed
    as text (local_exec.numeric). Their type is numeric (``result_types``)."""
    if not isinstance(select, ast.SelectStmt) or not select.targetList or (select.op is not None and select.op.name != "SETOP_NONE"):
        return []
    names = p.result_names(select) or []
    referred, grouped = _referred_outputs(select.sortClause), _referred_outputs((select.groupClause, select.havingClause))
    out = []
    for i, t in enumerate(select.targetList):
        named = {i + 1, names[i] if i < len(names) else None}
        if _is_exact_division(t.val, columns):
            if not named & (referred | grouped):
                out.append(i)
        elif not named & grouped and not select.distinctClause and _shown_scale(t.val, columns) is not None:
            out.append(i)  # (ORDER BY it sorts by its value: ``sorted_by_values``)
    return out


def _referred_outputs(clauses) -> set:
    """The output names and positions ``clauses`` refer to."""
    referred = set()
    for n in walk(clauses):
        if isinstance(n, ast.ColumnRef) and len(n.fields) == 1 and isinstance(n.fields[0], ast.String):
            referred.add(n.fields[0].sval)
        elif isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer):
            referred.add(n.val.ival)
    return referred


def sorted_by_values(select: ast.SelectStmt, outputs: dict[int, ast.Node]) -> None:
    """ORDER BY keys that name or number an output computed as its text
    (``outputs``: position -> the value it was computed from) sort by a
    copy of that value: by number, not by the text."""
    names = p.result_names(select) or []
    for key in select.sortClause or ():
        n = key.node
        i = n.val.ival - 1 if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer) else \
            names.index(n.fields[0].sval) if isinstance(n, ast.ColumnRef) and len(n.fields) == 1 and isinstance(n.fields[0], ast.String) \
            and n.fields[0].sval in names else None
        if i in outputs:
            key.node = copy_tree(outputs[i])


def _shown_scale(v: ast.Node, columns: dict[str, str]) -> ast.Node | None:
    """The display scale of each value of an output numeric whose scale
    varies by row (decimals.Scales.display_scale), or None."""
    return decimals.Scales(columns, lambda x: _operand_type(x, columns, floats=True)).display_scale(v)


def _shown_json(v: ast.Node, columns: dict[str, str]) -> ast.Node:
    """A json constructor's argument: a numeric whose scale varies by row
    as the json number of each value's own places (``_shown_numeric``)."""
    if (scale := _shown_scale(v, columns)) is None or _is_exact_division(v, columns):
        return v
    return ast.TypeCast(arg=_shown_numeric(v, columns, scale), typeName=ast.TypeName(names=(ast.String(sval="json"),), typemod=-1))


def _shown_numeric(v: ast.Node, columns: dict[str, str], shown: ast.Node | None = None) -> ast.Node:
    """An output column ``exact_divisions`` chose as its text: a quotient's
    (``_exact_division``), or a numeric's at each value's own display scale
    (``shown``, when the caller has worked it out; txngate_numeric_places
    cuts the engine's common scale to it: the digits it drops are zeros)."""
    shown = shown if shown is not None else _shown_scale(v, columns)
    if shown is None or _is_exact_division(v, columns):
        return _exact_division(v, columns)
    return ast.FuncCall(funcname=(ast.String(sval="txngate_numeric_places"),), args=(_cast_to(v, "text"), shown))


#: the operand types whose cast to numeric(p,s) DuckDB computes as PostgreSQL does
_EXACT_SOURCES = ("numeric", *INTEGER_TYPES)

#: the variances and standard deviations PostgreSQL computes as numerics of numerics and integers
_VARIANCES = {"var_pop", "var_samp", "variance", "stddev_pop", "stddev_samp", "stddev"}
#: PostgreSQL's two-variable float8 aggregates (float8_regr_accum's sums; pgcatalog's txngate_float8_regr_* macros)
_REGRESSIONS = {"corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "regr_sxx", "regr_syy", "regr_sxy",
                "regr_avgx", "regr_avgy"}


def _float_regression(fc: ast.FuncCall) -> ast.Node:
    """corr(y, x), covar_*, regr_* as PostgreSQL's float8_regr_accum sums
    them (Youngs and Cramer's update, pair by pair; DuckDB's own lost the
    last digits: regr_slope of (1, 2), (2, 4), (3, 7) gave
    2.5000000000000004, not 2.5), over the group's [y, x] pairs as a list."""
    pair = expand("ARRAY[CAST(_arg1 AS double precision), CAST(_arg2 AS double precision)]", list(fc.args))
    pairs = ast.FuncCall(funcname=(ast.String(sval="list"),), args=(pair,), agg_filter=copy.deepcopy(fc.agg_filter))
    return ast.FuncCall(funcname=(ast.String(sval=f"txngate_float8_{fc.funcname[-1].sval}"),), args=(pairs,))


def _plain_numeric_cast(v: ast.Node) -> bool:
    """``v`` is a cast to numeric without a precision (not to an array)."""
    return isinstance(v, ast.TypeCast) and v.typeName.names[-1].sval in ("numeric", "decimal") and not v.typeName.typmods \
        and not v.typeName.arrayBounds


def _is_exact_division(v: ast.Node, columns: dict[str, str]) -> bool:
    """``avg`` of a numeric or an integer (also over a window), a variance
    or standard deviation of one (also over a window; not of DISTINCT
    values: their squares are not the squares' distinct values), ``/`` of
    numerics (or a numeric and an integer), sqrt, exp, ln, log, power or ^
    of them, or + - * of such a result and a numeric, an integer or
    another such result; a cast of one to an unconstrained numeric (itself)."""
    if _plain_numeric_cast(v):
        return _is_exact_division(v.arg, columns)
    if isinstance(v, ast.FuncCall) and v.funcname[-1].sval == "avg" and len(v.args or ()) == 1 and not v.agg_order:
        return _operand_type(v.args[0], columns, floats=True) in ("numeric", *INTEGER_TYPES)
    if isinstance(v, ast.A_Expr) and v.kind == A_Expr_Kind.AEXPR_OP and v.name[-1].sval in _EXACT_ARITHMETIC and v.lexpr is not None:
        # + - * of such a result and a numeric, an integer or another such result: carried exactly
        sides = (v.lexpr, v.rexpr)
        return any(_is_exact_division(x, columns) for x in sides) \
            and all(_is_exact_division(x, columns) or _operand_type(x, columns, floats=True) in ("numeric", *INTEGER_TYPES) for x in sides)
    if isinstance(v, ast.FuncCall) and v.funcname[-1].sval in _VARIANCES and len(v.args or ()) == 1 and not v.agg_order \
            and not v.agg_distinct and not v.agg_star:
        return _variance_operand(v.args[0], columns) is not None
    if isinstance(v, ast.A_Expr) and v.kind == A_Expr_Kind.AEXPR_OP and v.name[-1].sval == "/":
        types = {_operand_type(v.lexpr, columns, floats=True), _operand_type(v.rexpr, columns, floats=True)}
        return "numeric" in types and types <= {"numeric", *INTEGER_TYPES}
    call = _numeric_call(v)
    if call is not None and call[0] == "txngate_to_number":
        return True  # of text: a numeric, read exactly (local_exec.tochar)
    if call is not None:
        # an untyped constant beside a numeric is one, as PostgreSQL resolves unknown (a finite number's text only)
        types = {_operand_type(a, columns, floats=True) for a in call[1] if not _numeric_text(a)}
        return "numeric" in types and types <= {"numeric", *INTEGER_TYPES}
    return False


_NUMBER_TEXT = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*")


def _numeric_text(n: ast.Node) -> bool:
    """Whether ``n`` is a string constant that reads as a finite number."""
    return isinstance(n, ast.A_Const) and isinstance(n.val, ast.String) and _NUMBER_TEXT.fullmatch(n.val.sval) is not None


#: the functions of numerics PostgreSQL computes as numerics (DuckDB in doubles), by their arities: local_exec.numeric's
_NUMERIC_FUNCTIONS = {("sqrt", 1): "txngate_numeric_sqrt", ("exp", 1): "txngate_numeric_exp", ("ln", 1): "txngate_numeric_ln",
                      ("log", 1): "txngate_numeric_log", ("log10", 1): "txngate_numeric_log", ("log", 2): "txngate_numeric_log",
                      ("power", 2): "txngate_numeric_power", ("pow", 2): "txngate_numeric_power", ("to_number", 2): "txngate_to_number"}


def _numeric_call(v: ast.Node) -> tuple[str, list[ast.Node]] | None:
    """(local_exec.numeric's function, arguments) of sqrt, exp, ln, log,
    log10, power and ^ (log and log10 of one argument: base 10), or None."""
    if isinstance(v, ast.A_Expr) and v.kind == A_Expr_Kind.AEXPR_OP and v.name[-1].sval == "^" and v.lexpr is not None:
        return "txngate_numeric_power", [v.lexpr, v.rexpr]
    if isinstance(v, ast.FuncCall) and not v.over and not v.agg_star and not v.agg_distinct and v.args \
            and (name := _NUMERIC_FUNCTIONS.get((v.funcname[-1].sval, len(v.args)))) is not None:
        return name, ([ast.A_Const(val=ast.Integer(ival=10))] if name == "txngate_numeric_log" and len(v.args) == 1 else []) + list(v.args)
    return None


def _exact_division(v: ast.Node, columns: dict[str, str]) -> ast.Node:
    """``avg(x)`` or ``a / b`` as txngate_numeric_div of their exact texts
    (an operand that is itself such a division too); a variance
    (``_exact_variance``), or sqrt, exp, ln, log or power of numerics, as
    local_exec.numeric's function of the same name."""
    def text(n):
        if _is_exact_division(n, columns):
            return _exact_division(n, columns)
        return ast.TypeCast(arg=n, typeName=ast.TypeName(names=(ast.String(sval="text"),), typemod=-1))

    def scaled(n):  # an operand as its text with PostgreSQL's scale: an unconstrained numeric's without the zeros stored
        if _is_exact_division(n, columns) or isinstance(n, ast.A_Const) or _declared_scale(n, columns) is not None \
                or _operand_type(n, columns) in INTEGER_TYPES:
            return text(n)
        return expand(_STRIPPED_TEXT, [n])

    if _plain_numeric_cast(v):
        return _exact_division(v.arg, columns)
    if isinstance(v, ast.FuncCall) and v.funcname[-1].sval in _VARIANCES:
        return _exact_variance(v, columns)
    call = _numeric_call(v)
    if call is not None:
        name, args = call
        return ast.FuncCall(funcname=(ast.String(sval=name),), args=tuple(_cast_to(a, "text") if name == "txngate_to_number" else scaled(a)
                                                                          for a in args))
    if isinstance(v, ast.FuncCall):  # avg(x) [FILTER ...] [OVER ...]: sum / count of the same rows
        total = ast.FuncCall(funcname=(ast.String(sval="sum"),), args=v.args, agg_distinct=v.agg_distinct, agg_filter=v.agg_filter,
                             over=v.over)
        count = ast.FuncCall(funcname=(ast.String(sval="count"),), args=copy.deepcopy(v.args), agg_distinct=v.agg_distinct,
                             agg_filter=copy.deepcopy(v.agg_filter), over=copy.deepcopy(v.over))
        return ast.FuncCall(funcname=(ast.String(sval="txngate_numeric_div"),), args=(text(total), text(count)))
    if v.name[-1].sval in _EXACT_ARITHMETIC:
        return ast.FuncCall(funcname=(ast.String(sval=_EXACT_ARITHMETIC[v.name[-1].sval]),), args=(scaled(v.lexpr), scaled(v.rexpr)))
    return ast.FuncCall(funcname=(ast.String(sval="txngate_numeric_div"),), args=(text(v.lexpr), text(v.rexpr)))


def _variadic(fc: ast.FuncCall) -> ast.Node:
    """``f(a, VARIADIC array)`` as ``f(a, e1, e2, ...)``: the array's
    elements as arguments when it is written out (ARRAY[...], a string
    literal cast to an array type, NULL); concat and concat_ws of any
    array as array_to_string. A NULL array makes concat, concat_ws and the
    json builders NULL, format() takes no more arguments, and any other
    (strict) function NULL."""
    name = fc.funcname[-1].sval
    *fixed, array = fc.args
    elements = _written_elements(array)
    if elements is None and name in ("concat", "concat_ws") and not isinstance(array, ast.A_Const):
        sep = fixed[0] if name == "concat_ws" else ast.A_Const(val=ast.String(sval=""))
        return expand("(CASE WHEN _arg1 IS NULL THEN NULL ELSE array_to_string(_arg1, _arg2) END)", [array, sep])
    if elements is None and isinstance(array, ast.A_Const):
        raise SqlError("42804", "VARIADIC argument must be an array")
    if elements is None:
        raise not_supported(f"VARIADIC {name} of an array that is not written out")
    if elements == [] and name in ("concat", "concat_ws"):
        return ast.A_Const(val=ast.String(sval=""))
    if elements == "null":
        if name == "format":
            return ast.FuncCall(funcname=fc.funcname, args=tuple(fixed), funcformat=fc.funcformat)
        return ast.A_Const(isnull=True)
    return ast.FuncCall(funcname=fc.funcname, args=(*fixed, *elements), funcformat=fc.funcformat)


def _written_elements(array: ast.Node) -> list[ast.Node] | str | None:
    """The elements of an array written out in the statement (ARRAY[...],
    maybe cast; '{...}'::type[]), "null" for NULL or NULL::type[], None
    for any other array."""
    cast = None
    if isinstance(array, ast.TypeCast) and array.typeName.arrayBounds and len(array.typeName.arrayBounds) == 1:
        cast, array = ast.TypeName(names=array.typeName.names, typmods=array.typeName.typmods, typemod=-1), array.arg
    if isinstance(array, ast.A_Const) and array.isnull:
        return "null"
    textual = cast is not None and cast.names[-1].sval in ("text", "varchar") and not cast.typmods

    def element(e: ast.Node) -> ast.Node:  # a string constant of a text array stays one (the json builders print it as such)
        return e if cast is None or textual and isinstance(e, ast.A_Const) and (e.isnull or isinstance(e.val, ast.String)) \
            else ast.TypeCast(arg=e, typeName=copy.deepcopy(cast))
    if isinstance(array, ast.A_ArrayExpr) and not any(isinstance(e, ast.A_ArrayExpr) for e in array.elements or ()):
        return [element(e) for e in array.elements or ()]
    if isinstance(array, ast.A_Const) and isinstance(array.val, ast.String) and cast is not None:
        try:
            texts = parse_array(array.val.sval)
        except ArrayLiteralError:
            return None  # the cast reports it
        if any(isinstance(t, list) for t in texts):
            return None
        return [element(ast.A_Const(isnull=True) if t is None else ast.A_Const(val=ast.String(sval=t))) for t in texts]
    return None


#: the most places a numeric quotient inside an expression keeps, and its type (``_decimal_quotients``)
QUOTIENT_PLACES = 20
QUOTIENT_TYPE = f"numeric(38,{QUOTIENT_PLACES})"
#: an unconstrained numeric's DuckDB type (txngate_numeric_quotient's operands)
UNCONSTRAINED_TYPE = f"numeric(38,{STORED_PLACES})"


def _decimal_quotients(node: ast.Node, columns: dict[str, str]) -> set[int]:
    """Numeric quotients (``_is_exact_division``) that are not output
    columns computed as text (``exact_divisions``) computed exactly, to 20
    decimals (``QUOTIENT_TYPE``, at least PostgreSQL's 16 significant
    digits below 10^18), not in DuckDB's double: round(57 / 200.0, 2) is
    0.29 as in PostgreSQL (0.285 is 0.28499... as a double). Where they are
    computed for every row read (a WHERE, a join condition, an aggregate's
    argument: ``sum(p / q)``) they stay doubles, which cost a fraction of
    the exact division's per-row function (0.02 s against 5 s a million
    rows), unless rounded there (round, trunc, ceil, floor); computed once
    per group (``round(sum(a) / sum(b), 2)``) or per row returned (targets,
    ORDER BY, GROUP BY) they are exact. A quotient of two fixed-point
    operands (``_fixed_point``) read for every row is exact too, computed
    over whole columns (``_fixed_quotient``: 0.4 s a million rows).
    Returns the ids of the casts made (of text: never a float's digits)."""
    made: set[int] = set()
    shown: set[int] = set()

    def exact(c, allowed: bool, texted: bool = False):
        if texted and isinstance(c, ast.Node) and id(c) not in shown and not _is_exact_division(c, columns) \
                and (scale := _shown_scale(c, columns)) is not None:
            shown.add(id(c))  # (its text is a cast of it to text: visited next)
            return _shown_numeric(c, columns, scale)  # (COALESCE(n, 0)::text: each value's own places)
        if isinstance(c, ast.Node) and _is_exact_division(c, columns):
            if allowed or not _per_row(c):
                if texted:  # (x / y)::text, x / y || 'm': the quotient's own text, PostgreSQL's digit for digit (not 20 places)
                    return _exact_division(c, columns)
                quotient = _cast_to(_exact_division(c, columns), QUOTIENT_TYPE)
                made.add(id(quotient))
                return quotient
            return _fixed_quotient(c, columns)
        return None

    def visit(n, per_row_ok: bool) -> None:
        if isinstance(n, (list, tuple)):
            for x in n:
                visit(x, per_row_ok)
            return
        if not isinstance(n, ast.Node):
            return
        rounded = isinstance(n, ast.FuncCall) and n.funcname[-1].sval in _ROUNDINGS  # where a double's last digit shows most
        aggregate = isinstance(n, ast.FuncCall) and p.is_aggregate_call(n)
        concat = isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||"
        for attr in n:
            if isinstance(n, ast.SelectStmt):
                ok = attr not in ("whereClause", "fromClause")
            elif isinstance(n, ast.JoinExpr) and attr == "quals" or aggregate and attr in ("args", "agg_filter", "agg_order"):
                ok = False
            else:
                ok = per_row_ok
            value = getattr(n, attr)
            # (a quotient made exact is visited too: its operands may hold quotients read for every row,
            # avg(a / b) computed once per group as sum(a / b) / count(...))
            if isinstance(value, tuple):
                new = tuple(exact(x, ok or rounded) or x for x in value)
                if any(a is not b for a, b in zip(new, value)):
                    setattr(n, attr, new)
                visit(new, ok)
            elif (converted := exact(value, ok or rounded, texted=attr == "arg" and _text_cast(n) or attr in ("lexpr", "rexpr") and concat)) is not None:
                setattr(n, attr, converted)
                visit(converted, ok)
            else:
                visit(value, ok)

    visit(node, True)
    return made


#: local_exec.numeric's quotients over whole columns (unscaled DECIMAL(38,0): ``_scaled``)
_QUOTIENT_FUNCTIONS = ("txngate_fixed_quotient", "txngate_numeric_quotient")

#: the (precision, scale) of the integer types, as fixed-point operands
_INTEGER_DIGITS = {"smallint": (5, 0), "integer": (10, 0), "bigint": (19, 0)}

_PLAIN_DECIMAL = re.compile(r"-?(\d*)\.?(\d*)")


def _fixed_point(n: ast.Node, columns: dict[str, str]) -> tuple[int, int] | None:
    """(precision, scale) of an operand whose every value is a BIGINT
    times 10^-scale, which DuckDB computes exactly, with PostgreSQL's
    scale: an integer or numeric(p, s) column or cast (p <= 18), an
    integer or decimal constant, an expression of integer type, or + - *
    of them; None for anything else."""
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer):
        return len(str(abs(n.val.ival))), 0
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Float):
        m = _PLAIN_DECIMAL.fullmatch(n.val.fval)
        if m is None or len(m.group(1) + m.group(2)) > 18:
            return None
        return max(len((m.group(1) + m.group(2)).lstrip("0")), 1), len(m.group(2))
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-", "*") and n.rexpr is not None:
        right = _fixed_point(n.rexpr, columns)
        if n.lexpr is None:
            return right  # -x
        left = _fixed_point(n.lexpr, columns)
        if left is None or right is None:
            return None
        if n.name[-1].sval == "*":
            found = left[0] + right[0], left[1] + right[1]
        else:
            scale = max(left[1], right[1])
            found = max(left[0] - left[1], right[0] - right[1]) + scale + 1, scale
        return found if found[0] <= 18 else None
    if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
        declared = column_type(n, columns, "")
    elif _plain_numeric_cast(n):
        return _fixed_point(n.arg, columns)  # numeric of a fixed-point value keeps its scale
    elif isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds:
        declared = INTEGER_NAMES.get(n.typeName.names[-1].sval, "")
        if n.typeName.names[-1].sval in ("numeric", "decimal") and n.typeName.typmods:
            declared = f"numeric({','.join(str(m.val.ival) for m in n.typeName.typmods if isinstance(m, ast.A_Const))})"
    else:
        declared = _operand_type(n, columns) or ""  # an integer function of them (length(t), abs(i))
    if declared in _INTEGER_DIGITS:
        return _INTEGER_DIGITS[declared]
    m = re.fullmatch(r"numeric\((\d+)(?:,(\d+))?\)", declared)
    return (int(m.group(1)), int(m.group(2) or 0)) if m and int(m.group(1)) <= 18 else None


def _fixed_quotient(c: ast.Node, columns: dict[str, str]) -> ast.Node | None:
    """``a / b`` of fixed-point operands as local_exec.numeric's
    ``txngate_fixed_quotient`` of their unscaled BIGINTs: PostgreSQL's
    quotient, to QUOTIENT_PLACES places, or fewer where its integer digits
    need them (a DECIMAL holds 38 digits: a bigint over numeric(12,3)
    keeps 15); None when an intermediate could pass 38 digits (left to
    the engine's double)."""
    if not (isinstance(c, ast.A_Expr) and c.kind == A_Expr_Kind.AEXPR_OP and c.name[-1].sval == "/" and c.lexpr is not None):
        return None
    a, b = _fixed_point(c.lexpr, columns), _fixed_point(c.rexpr, columns)
    if a is None or b is None:
        return _unconstrained_quotient(c, a, b, columns)
    whole = a[0] - a[1] + b[1]  # the quotient's integer digits, at most
    places = min(QUOTIENT_PLACES, 37 - whole)
    # |a| 10^(r - sa + sb) is about |quotient| |b| 10^r, r the scale: 16 significant digits, or the operands' scale
    if places < max(a[1], b[1], 0) or b[0] + max(20, whole + max(a[1], b[1])) > 38:
        return None

    def unscaled(n: ast.Node, scale: int) -> ast.Node:
        shifted = n if scale == 0 else ast.A_Expr(kind=A_Expr_Kind.AEXPR_OP, name=(ast.String(sval="*"),), lexpr=n,
                                                    rexpr=ast.A_Const(val=ast.Integer(ival=10 ** scale)))
        return _cast_to(shifted, "bigint")

    def integer(v: int) -> ast.Node:
        return ast.A_Const(val=ast.Integer(ival=v))
    unscaled_quotient = ast.FuncCall(funcname=(ast.String(sval="txngate_fixed_quotient"),),
                                     args=(unscaled(c.lexpr, a[1]), integer(a[1]), unscaled(c.rexpr, b[1]), integer(b[1]), integer(places)))
    return _scaled(unscaled_quotient, places)


def _scaled(unscaled: ast.Node, places: int) -> ast.Node:
    """An unscaled quotient (``_QUOTIENT_FUNCTIONS``) as numeric(38, places):
    the cast tells the binder its scale (decimals.Scales: compared with a
    decimal of more integer digits, DuckDB's common type would cut a
    scale it did not know, and -0.000000125 >= 0 held)."""
    unit = _cast_to(ast.A_Const(val=ast.String(sval=f"1e-{places}")), f"numeric(38,{places})")
    return _cast_to(ast.A_Expr(kind=A_Expr_Kind.AEXPR_OP, name=(ast.String(sval="*"),), lexpr=unscaled, rexpr=unit), f"numeric(38,{places})")


def _wide_product(n: ast.Node, columns: dict[str, str]) -> ast.Node | None:
    """``a * b`` of fixed-point operands, one a numeric, whose product may
    need more than 18 digits, with ``a`` cast to 38: DuckDB multiplies two
    decimals of at most 18 digits in 18 (numeric(12,3) squared overflowed
    near 10^9 where PostgreSQL's numeric grows); None otherwise."""
    if not (isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "*" and n.lexpr is not None):
        return None
    a, b = _fixed_point(n.lexpr, columns), _fixed_point(n.rexpr, columns)  # (None for a side widened already: 38 digits)
    if a is None or b is None or a[0] + b[0] <= 18:
        return None
    if a[1] == b[1] == 0 and not any(_operand_type(x, columns, floats=True) == "numeric" for x in (n.lexpr, n.rexpr)):
        return None  # integers: integer arithmetic (its own overflow checks)
    return ast.A_Expr(kind=n.kind, name=n.name, lexpr=_cast_to(n.lexpr, f"numeric(38,{a[1]})"), rexpr=n.rexpr, location=n.location)


def _unconstrained_quotient(c: ast.A_Expr, a: tuple[int, int] | None, b: tuple[int, int] | None, columns: dict[str, str]) -> ast.Node | None:
    """``a / b`` where an operand is a numeric without a declared scale
    (``a``, ``b``: the operands' ``_fixed_point``, None for those) as
    local_exec.numeric's ``txngate_numeric_quotient`` of both as the
    unconstrained numeric's DuckDB type (each such value's scale its
    places without trailing zeros, as txngate keeps no display scale): to
    QUOTIENT_PLACES places; None for any other operand."""
    args: list[ast.Node] = []
    for n, fixed in ((c.lexpr, a), (c.rexpr, b)):
        if fixed is not None and fixed[1] <= STORED_PLACES and fixed[0] - fixed[1] <= 38 - STORED_PLACES:
            scale = fixed[1]
        elif fixed is None and _operand_type(n, columns, floats=True) == "numeric":
            scale = -1
        else:
            return None
        args += [_cast_to(n, UNCONSTRAINED_TYPE), ast.A_Const(val=ast.Integer(ival=scale))]
    unscaled_quotient = ast.FuncCall(funcname=(ast.String(sval="txngate_numeric_quotient"),),
                                     args=(*args, ast.A_Const(val=ast.Integer(ival=QUOTIENT_PLACES))))
    return _scaled(unscaled_quotient, QUOTIENT_PLACES)


def _filtered_arguments_lazy(node: ast.Node) -> None:
    """``agg(x) FILTER (WHERE c)`` computes ``x`` only where ``c`` holds, as
    PostgreSQL does: its argument becomes ``CASE WHEN c THEN x END``, the
    FILTER kept (so the NULL the CASE gives elsewhere is never
    aggregated). DuckDB computed ``x`` for every row before the filter:
    ``sum(b * 2) FILTER (WHERE id < 5)`` overflowed on a row it drops."""
    for n in walk(node):
        if isinstance(n, ast.FuncCall) and n.agg_filter is not None and n.args and not all(isinstance(a, ast.A_Const) for a in n.args):
            n.args = tuple(a if isinstance(a, ast.A_Const) else ast.CaseExpr(args=(ast.CaseWhen(expr=copy.deepcopy(n.agg_filter), result=a),))
                           for a in n.args)


def _text_cast(n: ast.Node) -> bool:
    """``n`` is a cast to text or varchar (not to an array of them)."""
    return isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds and n.typeName.names[-1].sval in ("text", "varchar") \
        and not n.typeName.typmods


def _per_row(n: ast.Node) -> bool:
    """``n`` reads a column outside any aggregate (it is computed for every row)."""
    return _reads_columns(n, lambda m: isinstance(m, ast.FuncCall) and p.is_aggregate_call(m))


def _reads_columns(n: ast.Node, skip: Callable[[ast.Node], bool]) -> bool:
    """``n`` has a column reference outside the nodes ``skip`` holds for."""
    stack = [n]
    while stack:
        m = stack.pop()
        if isinstance(m, ast.ColumnRef):
            return True
        if isinstance(m, ast.Node) and not skip(m):
            stack.extend(getattr(m, attr) for attr in m)
        elif isinstance(m, (list, tuple)):
            stack.extend(m)
    return False


#: + - * carried exactly when an operand is computed exactly (local_exec.numeric)
_EXACT_ARITHMETIC = {"+": "txngate_numeric_add", "-": "txngate_numeric_sub", "*": "txngate_numeric_mul"}


#: a numeric's text without the trailing fraction zeros (and point) its stored scale added
_STRIPPED_TEXT = "regexp_replace(regexp_replace(CAST(_arg1 AS text), '(\\.[0-9]*?)0+$', '\\1'), '\\.$', '')"


def _exact_variance(v: ast.FuncCall, columns: dict[str, str]) -> ast.Node:
    """A variance or standard deviation of numerics or integers as
    txngate_numeric_variance of the count, the sum and the sum of squares
    of the same rows (in the same window) and the values' largest scale:
    the declared one, else the largest any value has without trailing zeros."""
    arg = v.args[0]
    integer = _variance_operand(arg, columns) == "integer"
    value = _cast_to(arg, "int8") if integer else arg  # squared as DuckDB's hugeint or decimal, exactly
    square = ast.A_Expr(kind=A_Expr_Kind.AEXPR_OP, name=(ast.String(sval="*"),), lexpr=_cast_to(copy.deepcopy(value), "numeric(38,0)")
                        if integer else copy.deepcopy(value), rexpr=_cast_to(copy.deepcopy(value), "numeric(38,0)") if integer else copy.deepcopy(value))

    def agg(name: str, x: ast.Node) -> ast.Node:
        return ast.FuncCall(funcname=(ast.String(sval=name),), args=(x,), agg_filter=copy.deepcopy(v.agg_filter), over=copy.deepcopy(v.over))

    def text(n: ast.Node) -> ast.Node:
        return _cast_to(n, "text")
    declared = 0 if integer else _declared_scale(arg, columns)
    if declared is None:
        declared = _fixed_scale(arg, columns)
    if declared is not None:
        dscale = ast.A_Const(val=ast.Integer(ival=declared))
    else:
        stripped = expand("CAST(CASE WHEN _arg1 IS NULL THEN NULL " + " ".join(f"WHEN _arg1 = round(_arg1, {d}) THEN {d}" for d in range(10)) + " ELSE 10 END AS integer)",
                          [copy.deepcopy(arg)])
        dscale = agg("max", stripped)
    kind = ast.A_Const(val=ast.String(sval=v.funcname[-1].sval))
    return ast.FuncCall(funcname=(ast.String(sval="txngate_numeric_variance"),),
                        args=(kind, text(agg("count", copy.deepcopy(value))), text(agg("sum", value)), text(agg("sum", square)), dscale))


def _variance_operand(n: ast.Node, columns: dict[str, str]) -> str | None:
    """"integer" for a plain smallint, integer or bigint, "numeric" for a
    plain numeric, else None (a float's variance is a float)."""
    kind = _operand_type(n, columns, floats=True)
    if kind in ("smallint", "integer") or INTEGER_NAMES.get(_plain_type(n, columns)) == "bigint":
        return "integer"
    return "numeric" if kind == "numeric" else None


def _plain_type(n: ast.Node, columns: dict[str, str]) -> str:
    """The type of a column or cast, as written ("" for anything else)."""
    if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
        return column_type(n, columns, "")
    if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds:
        return n.typeName.names[-1].sval
    return ""


def _fixed_scale(n: ast.Node, columns: dict[str, str]) -> int | None:
    """The scale every value of ``n`` has in PostgreSQL (its numeric's
    dscale) when that is fixed: ``extract(field FROM x)``'s (seconds and
    epochs 6, milliseconds 3, a date's epoch and the other fields 0), or
    ``round(x, k)``'s and ``trunc(x, k)``'s of a numeric (k, at least 0);
    None for anything else."""
    if isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("round", "trunc") and len(n.args or ()) == 2 and not n.over \
            and isinstance(n.args[1], ast.A_Const) and isinstance(n.args[1].val, ast.Integer) \
            and _operand_type(n.args[0], columns, floats=True) == "numeric":
        return max(n.args[1].val.ival, 0)
    if not (isinstance(n, ast.FuncCall) and n.funcname[-1].sval == "extract" and len(n.args or ()) == 2 and not n.over
            and isinstance(n.args[0], ast.A_Const) and isinstance(n.args[0].val, ast.String)):
        return None
    field = _EXTRACT_UNITS.get(n.args[0].val.sval.lower()[:10])
    if field is None or field == "julian":
        return None
    if field == "epoch":
        return 0 if _extract_source(n.args[1], columns) == "date" else 6
    return {"second": 6, "milliseconds": 3}.get(field, 0)


def _declared_scale(n: ast.Node, columns: dict[str, str]) -> int | None:
    """The scale of a numeric(p, s) column or cast (an unconstrained numeric's
    values each have their own: None)."""
    declared = column_type(n, columns, "") if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String) else \
        f"numeric({','.join(str(m.val.ival) for m in n.typeName.typmods)})" \
        if isinstance(n, ast.TypeCast) and n.typeName.typmods and all(isinstance(m, ast.A_Const) for m in n.typeName.typmods) else ""
    m = re.fullmatch(r"numeric\((\d+)(?:,(\d+))?\)", declared)
    return int(m.group(2) or 0) if m else None


def _check_window_copies(select: ast.SelectStmt) -> None:
    """42P20 for ``OVER (w)`` (or ``WINDOW w2 AS (w)``) where w has a frame
    clause: PostgreSQL copies a named window only without one (the engine
    would use it)."""
    defs = {w.name: w for w in select.windowClause}
    for n in walk((select.targetList or ()) + (select.sortClause or ()) + select.windowClause):
        ref = n.over.refname if isinstance(n, ast.FuncCall) and n.over is not None else n.refname if isinstance(n, ast.WindowDef) else None
        if ref in defs and defs[ref].frameOptions & FRAMEOPTION_NONDEFAULT:
            raise SqlError("42P20", f'cannot copy window "{ref}" because it has a frame clause',
                           hint="Omit the parentheses in this OVER clause." if isinstance(n, ast.FuncCall) else None)


def _position(node: ast.Node) -> int | None:
    """The 1-based position in the statement where ``node`` begins (its
    leftmost token: an operator's own location is the operator's), None
    when the parser gave none."""
    starts = [loc for n in walk(node) if isinstance(loc := getattr(n, "location", None), int) and loc >= 0]
    return min(starts) + 1 if starts else None


def _check_distinct_order(fc: ast.FuncCall) -> None:
    """42P10 for ``string_agg(DISTINCT x::text, ',' ORDER BY x)``: with
    DISTINCT, each ORDER BY expression is one of the arguments (the engine
    sorted by another)."""
    args = {pg_sql(a) for a in fc.args or ()}
    stray = next((sort.node for sort in fc.agg_order if pg_sql(sort.node) not in args), None)
    if stray is not None:
        raise SqlError("42P10", "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list", position=_position(stray))


def _check_empty_arrays(node: ast.Node) -> None:
    """42P18 for ``ARRAY[]`` that no cast types (the engine typed it as an
    integer array)."""
    cast = {id(a) for n in walk(node) if isinstance(n, ast.TypeCast) for a in walk(n.arg) if isinstance(a, ast.A_ArrayExpr)}
    for n in walk(node):
        if isinstance(n, ast.A_ArrayExpr) and not n.elements and id(n) not in cast:
            raise SqlError("42P18", "cannot determine type of empty array",
                           hint="Explicitly cast to the desired type, for example ARRAY[]::integer[].", position=_position(n))


def _check_parameterless(fc: ast.FuncCall) -> None:
    """42809 for ``count()``: PostgreSQL calls an aggregate without
    arguments only as ``count(*)`` (the engine would count rows)."""
    if fc.funcname[-1].sval == "count" and len(fc.funcname) <= 2 and not fc.args and not fc.agg_star:
        raise SqlError("42809", "count(*) must be used to call a parameterless aggregate function", position=_position(fc))


def _check_frame(window: ast.WindowDef) -> None:
    """42P20 for a frame PostgreSQL cannot place: GROUPS without an ORDER
    BY, RANGE with an offset and other than one ORDER BY column (the engine
    would frame the whole partition). A window copying a named one takes
    its ORDER BY from there, and is left to the engine."""
    if window.refname is not None:
        return
    order = len(window.orderClause or ())
    options = window.frameOptions
    if options & FRAMEOPTION_GROUPS and not order:
        raise SqlError("42P20", "GROUPS mode requires an ORDER BY clause", position=_position(window))
    offsets = FRAMEOPTION_START_OFFSET_PRECEDING | FRAMEOPTION_START_OFFSET_FOLLOWING | FRAMEOPTION_END_OFFSET_PRECEDING \
        | FRAMEOPTION_END_OFFSET_FOLLOWING
    if options & FRAMEOPTION_RANGE and options & offsets and order != 1:
        raise SqlError("42P20", "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column", position=_position(window))


#: PostgreSQL's names of the types a RANGE frame's ORDER BY column and offset have, in its errors
_FRAME_TYPE_NAMES = {"timestamp": "timestamp without time zone", "timestamptz": "timestamp with time zone"}


def _range_offsets(window: ast.WindowDef, columns: dict[str, str]) -> None:
    """A RANGE frame's offsets typed as PostgreSQL's in_range functions take
    them: an interval for a date or timestamp column (a string read as
    one: DuckDB refused date - '1 day'), the column's integer type for an
    integer column (a string read as that: 22P02); another offset type is
    0A000, as a constant offset that is negative or NaN is 22013 (the
    engine framed a date by days, an integer by a fraction)."""
    options = window.frameOptions
    if not options & FRAMEOPTION_RANGE or len(window.orderClause or ()) != 1:
        return
    order = window.orderClause[0].node
    column = _datetime_kind(order, columns) or _operand_type(order, columns, floats=True)
    if column is None:
        return
    datetime = column in ("date", "timestamp", "timestamptz")
    for flags, field in ((FRAMEOPTION_START_OFFSET_PRECEDING | FRAMEOPTION_START_OFFSET_FOLLOWING, "startOffset"),
                         (FRAMEOPTION_END_OFFSET_PRECEDING | FRAMEOPTION_END_OFFSET_FOLLOWING, "endOffset")):
        offset = getattr(window, field)
        if not options & flags or offset is None:
            continue
        bare = offset.arg if isinstance(offset, ast.TypeCast) else offset
        null = f"frame {'starting' if field == 'startOffset' else 'ending'} offset must not be null"
        if isinstance(bare, ast.A_Const) and bare.isnull:
            raise SqlError("22004", null)
        if _reads_columns(offset, lambda m: isinstance(m, ast.SubLink)):  # (a subquery's columns are its own)
            raise SqlError("42P10", "argument of RANGE must not contain variables", position=_position(offset))
        if not isinstance(bare, ast.A_Const):  # known when it runs: NULL is 22004 (the engine framed without it)
            offset = ast.CoalesceExpr(args=(offset, ast.FuncCall(funcname=(ast.String(sval="error"),), args=(_constant(f"[22004] {null}"),))))
            setattr(window, field, offset)
        if isinstance(offset, ast.A_Const) and isinstance(offset.val, ast.String):
            offset = typed_literal(offset, "interval" if datetime else column)  # (22P02 for text that is no such value)
            setattr(window, field, offset)
        kind = _datetime_kind(offset, columns) or _operand_type(offset, columns, floats=True) \
            or ("interval" if isinstance(offset, ast.TypeCast) and offset.typeName.names[-1].sval == "interval" else None)
        if kind is None:
            continue
        fits = kind == "interval" if datetime else kind in INTEGER_TYPES if column in INTEGER_TYPES else kind != "interval"
        if not fits:
            raise SqlError("0A000", f"RANGE with offset PRECEDING/FOLLOWING is not supported for column type "
                           f"{_FRAME_TYPE_NAMES.get(column, column)} and offset type {_FRAME_TYPE_NAMES.get(kind, kind)}",
                           position=_position(offset))
        constant = offset.arg if isinstance(offset, ast.TypeCast) else offset
        value = constant.val if isinstance(constant, ast.A_Const) else None  # (None for NULL)
        if isinstance(value, (ast.Integer, ast.Float, ast.String)):
            text = str(value.ival if isinstance(value, ast.Integer) else value.fval if isinstance(value, ast.Float) else value.sval).strip().lower()
            if text.startswith("-") or text in ("nan", "+nan"):
                raise SqlError("22013", "invalid preceding or following size in window function")


def _check_cte_columns(cte: ast.CommonTableExpr) -> None:
    """42P10 for ``WITH x(a, b) AS (SELECT 1)``: more names than the query
    has columns (the engine names the ones there are)."""
    query = cte.ctequery
    names = len(cte.aliascolnames or ())
    if not names or not isinstance(query, ast.SelectStmt):
        return
    while query.op is not None and query.op.name != "SETOP_NONE":
        query = query.larg
    if query.valuesLists:
        have = len(query.valuesLists[0])
    elif query.targetList and not any(isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.A_Star) for t in query.targetList):
        have = len(query.targetList)
    else:
        return  # * : known once bound
    if names > have:
        raise SqlError("42P10", f'WITH query "{cte.ctename}" has {have} columns available but {names} columns specified',
                       position=_position(cte))


def _check_set_operation_sort(select: ast.SelectStmt) -> None:
    """A set operation's ORDER BY names its result columns (or their
    positions) only: 42703 for another name, 0A000 for an expression, as
    PostgreSQL's transformSetOperationStmt (the engine would read an arm's
    column)."""
    names = p.result_names(select)
    if names is None:
        return
    for sort in select.sortClause:
        ref = sort.node
        if isinstance(ref, ast.A_Const):
            continue
        if isinstance(ref, ast.ColumnRef) and len(ref.fields) == 1 and isinstance(ref.fields[0], ast.String):
            if ref.fields[0].sval not in names:
                raise SqlError("42703", f'column "{ref.fields[0].sval}" does not exist', position=ref.location + 1)
            continue
        if isinstance(ref, ast.ColumnRef) and len(ref.fields) == 2 and isinstance(ref.fields[0], ast.String):
            raise SqlError("42P01", f'missing FROM-clause entry for table "{ref.fields[0].sval}"', position=ref.location + 1)
        raise SqlError("0A000", "invalid UNION/INTERSECT/EXCEPT ORDER BY clause",
                       detail="Only result column names can be used, not expressions or functions.",
                       hint="Add the expression/function to every SELECT, or move the UNION into a FROM clause.", position=_position(ref))


def _check_sort_names(select: ast.SelectStmt) -> None:
    """42702 for ``ORDER BY x`` when two different output columns are named
    x, as PostgreSQL's findTargetlistEntrySQL92 (the engine would pick one)."""
    names = p.result_names(select)
    if names is None:
        return
    for sort in select.sortClause:
        ref = sort.node
        if not (isinstance(ref, ast.ColumnRef) and len(ref.fields) == 1 and isinstance(ref.fields[0], ast.String)):
            continue
        if names.count(ref.fields[0].sval) < 2:
            continue
        exprs = {pg_sql(t.val) for t, name in zip(select.targetList, names) if name == ref.fields[0].sval}
        if len(exprs) > 1:
            raise SqlError("42702", f'ORDER BY "{ref.fields[0].sval}" is ambiguous', position=ref.location + 1)


def _sort_by_output_names(select: ast.SelectStmt) -> None:
    """ORDER BY and DISTINCT ON read a bare name as the output column of
    that name first (PostgreSQL's rule): where that column's name is one
    PostgreSQL figures from its expression (``CASE ... ELSE i END`` is named
    ``i``) and the engine would read the table's column instead, the
    expression stands in for the name."""
    names = p.result_names(select)
    if names is None:
        return

    def output(ref):
        if not (isinstance(ref, ast.ColumnRef) and len(ref.fields) == 1 and isinstance(ref.fields[0], ast.String)):
            return None
        name = ref.fields[0].sval
        if names.count(name) != 1:
            return None
        target = select.targetList[names.index(name)]
        plain = isinstance(target.val, ast.ColumnRef) and isinstance(target.val.fields[-1], ast.String) and target.val.fields[-1].sval == name
        return None if target.name is not None or plain else copy_tree(target.val)

    for sort in select.sortClause or ():
        sort.node = output(sort.node) or sort.node
    if select.distinctClause and any(d is not None for d in select.distinctClause):
        select.distinctClause = tuple(output(d) or d if d is not None else d for d in select.distinctClause)


def _check_limits(select: ast.SelectStmt) -> None:
    """A negative constant LIMIT or OFFSET is PostgreSQL's 2201W or 2201X
    (DuckDB's own refusal cannot say which of the two it was)."""
    for value, sqlstate, clause in ((select.limitCount, "2201W", "LIMIT"), (select.limitOffset, "2201X", "OFFSET")):
        if isinstance(value, ast.A_Const) and isinstance(value.val, ast.Integer) and value.val.ival < 0:
            raise SqlError(sqlstate, f"{clause} must not be negative")


def _instants_apart(n: ast.A_Expr, kinds: tuple[str, str]) -> ast.Node:
    """``a - b`` of two timestamptz (one may be a timestamp or a date, read
    in the session's zone, as PostgreSQL casts it) as PostgreSQL's
    timestamptz_mi: the microseconds between them, whole days of 24 hours
    split off (justify_hours). The engine counted calendar days in the
    session's zone: across a change to summer time, 23 hours were "1 day"."""
    operands = [x if kind == "timestamptz" else _cast_to(x, "timestamptz") for x, kind in zip((n.lexpr, n.rexpr), kinds)]
    apart = "(epoch_us(_arg1) - epoch_us(_arg2))"
    day = 86_400_000_000  # (the whole days' microseconds divide exactly: any division gives the days)
    infinite = raised("22008", "cannot subtract infinite timestamps", "INTERVAL")
    return expand(f"CASE WHEN isinf(_arg1) OR isinf(_arg2) THEN {infinite} "
                  f"ELSE to_days(CAST(({apart} - {apart} % {day}) / {day} AS INTEGER)) + to_microseconds({apart} % {day}) END",
                  operands)


def _pattern_quantified(n: ast.A_Expr) -> ast.Node:
    """``v LIKE ANY (a)`` (ILIKE, NOT LIKE, ``~`` and the other pattern
    operators; ALL too) as the engine's macro applying the operator to each
    pattern of ``a`` (planner.pgcatalog.pattern_quantifier; DuckDB's LIKE
    takes no list, and read ``'{a%,b}'`` as one pattern). A string constant
    is a text[] of patterns, as PostgreSQL reads it."""
    patterns = n.rexpr
    if isinstance(patterns, ast.A_Const) and isinstance(patterns.val, ast.String):
        patterns = _cast_to(patterns, "text[]")
    quantifier = "any" if n.kind == A_Expr_Kind.AEXPR_OP_ANY else "all"
    return ast.FuncCall(funcname=(ast.String(sval=pattern_quantifier(n.name[-1].sval, quantifier)),), args=(n.lexpr, patterns))


_LIKE_ESCAPES = {"~~": "like_escape", "!~~": "not_like_escape", "~~*": "ilike_escape", "!~~*": "not_ilike_escape"}


def _like_escape(n: ast.A_Expr, escape: ast.Node | None = None) -> ast.Node:
    """``a [NOT] [I]LIKE p ESCAPE e`` (pglast: ``like_escape(p, e)``), or
    ``a [NOT] [I]LIKE p`` with ``escape`` given, as DuckDB's
    ``[not_][i]like_escape(a, p, e)``."""
    name = _LIKE_ESCAPES[n.name[-1].sval]
    if escape is not None:
        return ast.FuncCall(funcname=(ast.String(sval=name),), args=(n.lexpr, n.rexpr, escape))
    return ast.FuncCall(funcname=(ast.String(sval=name),), args=(n.lexpr, *n.rexpr.args), funcformat=n.rexpr.funcformat)


def _escapes_by_backslash(n: ast.Node) -> bool:
    """``a [NOT] [I]LIKE p`` (or ``~~`` and its kin) without ESCAPE whose
    pattern may hold a backslash: PostgreSQL's default escape character,
    where DuckDB's LIKE has none (``'a%' LIKE 'a\\%'`` matched nothing; a
    Django ``contains`` of a value with ``%`` or ``_`` sends such a
    pattern). A constant pattern without one means the same to both, and
    keeps the engine's own plan of LIKE."""
    if not isinstance(n, ast.A_Expr) or n.kind not in (A_Expr_Kind.AEXPR_LIKE, A_Expr_Kind.AEXPR_ILIKE, A_Expr_Kind.AEXPR_OP):
        return False
    if n.name[-1].sval not in _LIKE_ESCAPES or n.lexpr is None:
        return False
    p = n.rexpr
    if isinstance(p, ast.FuncCall) and p.funcname[-1].sval == "like_escape":
        return False  # an ESCAPE of its own
    if isinstance(p, ast.TypeCast) and isinstance(p.arg, ast.A_Const):
        p = p.arg
    if isinstance(p, ast.A_Const):
        return isinstance(p.val, ast.String) and "\\" in p.val.sval
    return not isinstance(p, (ast.A_ArrayExpr, ast.SubLink))


def _qualified_interval(tc: ast.TypeCast) -> None:
    """``interval '90' day`` and the other field-qualified interval
    literals (which neither DuckDB nor sqlglot read) as the plain interval
    PostgreSQL makes of them (values.qualified_interval)."""
    if not (isinstance(tc.arg, ast.A_Const) and isinstance(tc.arg.val, ast.String)):
        raise not_supported("interval field qualifiers on a value that is not a literal")
    mask, *rest = [m.val.ival for m in tc.typeName.typmods]
    try:
        months, days, micros = qualified_interval(tc.arg.val.sval, mask, rest[0] if rest else None)
    except IntervalSyntax:
        raise SqlError(INVALID_DATETIME_FORMAT, f'invalid input syntax for type interval: "{tc.arg.val.sval}"') from None
    tc.arg = ast.A_Const(val=ast.String(sval=f"{months} months {days} days {micros} microseconds"))
    tc.typeName = ast.TypeName(names=(ast.String(sval="interval"),), typemod=-1)


_COMPARISONS = ("=", "<>", "!=", "<", ">", "<=", ">=")
#: column types whose text input DuckDB reads otherwise than PostgreSQL
_TEXT_READ_OTHERWISE = ("date", "timestamp", "timestamptz", "boolean", "interval")


def _column_typed_constants(n: ast.A_Expr, columns: dict[str, str]) -> bool:
    """Text constants compared with a date, timestamp, boolean or interval column
    read as the column's type reads them (``sqltypes.typed_literal``), as
    PostgreSQL types such a constant (DuckDB reads ``'01/02/03'`` as year
    1 and a timestamp's ``BC`` as AD: rows silently not found; it refuses
    ``'of'``): ``col = '...'``, ``col IN ('...', ...)``, ``col BETWEEN
    '...' AND '...'``. True when one was rewritten."""
    plain = n.kind == A_Expr_Kind.AEXPR_OP and n.name and n.name[-1].sval in _COMPARISONS
    listed = n.kind in (A_Expr_Kind.AEXPR_IN, A_Expr_Kind.AEXPR_BETWEEN, A_Expr_Kind.AEXPR_NOT_BETWEEN)
    if not (plain or listed) or n.lexpr is None:
        return False
    changed = False
    for col, other in ((n.lexpr, "rexpr"), (n.rexpr, "lexpr")) if plain else ((n.lexpr, "rexpr"),):
        if not (isinstance(col, ast.ColumnRef) and isinstance(col.fields[-1], ast.String)):
            continue
        sql_type = column_type(col, columns)
        if sql_type not in _TEXT_READ_OTHERWISE:
            continue
        values = getattr(n, other)
        items = list(values) if isinstance(values, (list, tuple)) else [values]
        typed = [typed_literal(v, sql_type) if isinstance(v, ast.A_Const) and isinstance(v.val, ast.String) else v for v in items]
        if any(a is not b for a, b in zip(typed, items)):
            setattr(n, other, tuple(typed) if isinstance(values, (list, tuple)) else typed[0])
            changed = True
    return changed


def _arithmetic_typed_constants(n: ast.A_Expr, columns: dict[str, str]) -> None:
    """A text constant in arithmetic with a number column read as the
    column's type, as PostgreSQL types the unknown literal (``f1 * '-1'``;
    DuckDB refused it: no ``*`` of a double and a string)."""
    if n.kind != A_Expr_Kind.AEXPR_OP or not n.name or n.name[-1].sval not in ("+", "-", "*", "/", "%") or n.lexpr is None:
        return
    for col, other in ((n.lexpr, "rexpr"), (n.rexpr, "lexpr")):
        value = getattr(n, other)
        if not (isinstance(col, ast.ColumnRef) and isinstance(col.fields[-1], ast.String)
                and isinstance(value, ast.A_Const) and isinstance(value.val, ast.String)):
            continue
        sql_type = column_type(col, columns, "")
        if sql_type in INTEGER_NAMES.values() or sql_type in FLOAT_NAMES.values():
            typed = typed_literal(value, sql_type)  # checked as PostgreSQL's input (22P02)
            setattr(n, other, typed if typed is not value else _cast_to(value, sql_type))
        elif sql_type.startswith("numeric"):  # unconstrained numeric: the constant keeps its own scale
            typed_literal(value, "numeric")  # checked (22P02)
            setattr(n, other, _exact_numeric(value.val.sval))


_OID_SPAN = 1 << 32


def _oid_cast(tc: ast.TypeCast, columns: dict[str, str]) -> None:
    """A cast to oid as the engine's unsigned 32-bit integer (the result's
    type is oid, not bigint): an integer or smallint below zero wraps, as
    PostgreSQL's binary coercion of int4 (-1 is 4294967295), a bigint outside
    0 .. 2^32 - 1 is 22003 (the engine's conversion), and oid's text input
    takes -2^31 .. 2^32 - 1, the negatives wrapped too."""
    if tc.typeName.names[-1].sval.lower() != "oid" or tc.typeName.arrayBounds:
        return
    if isinstance(tc.arg, ast.A_Const) and isinstance(tc.arg.val, ast.String):
        text = tc.arg.val.sval.strip()
        value = int(text) if re.fullmatch(r"[+-]?\d+", text) else None
        if value is None:
            raise SqlError(INVALID_TEXT_REPRESENTATION, f'invalid input syntax for type oid: "{tc.arg.val.sval}"')
        if not -(1 << 31) <= value < _OID_SPAN:
            raise SqlError(NUMERIC_VALUE_OUT_OF_RANGE, f'value "{tc.arg.val.sval}" is out of range for type oid')
        tc.arg = ast.A_Const(val=ast.Integer(ival=value % _OID_SPAN) if value % _OID_SPAN < (1 << 31) else ast.Float(fval=str(value % _OID_SPAN)))
    elif _operand_type(tc.arg, columns) in ("smallint", "integer"):
        tc.arg = expand(f"CASE WHEN _arg1 < 0 THEN CAST(_arg1 AS bigint) + {_OID_SPAN} ELSE _arg1 END", [tc.arg])
    elif typed_text(tc.arg, columns):  # text read as oid's input
        tc.arg = expand(f"CASE WHEN CAST(_arg1 AS bigint) BETWEEN {-(1 << 31)} AND -1 THEN CAST(_arg1 AS bigint) + {_OID_SPAN} "
                        "ELSE CAST(_arg1 AS bigint) END", [tc.arg])
    tc.typeName = ast.TypeName(names=(ast.String(sval="uinteger"),), typemod=-1)


def _text_read_at_run_time(tc: ast.TypeCast, columns: dict[str, str]) -> bool:
    """Text known only when the statement runs (a text column, a parameter
    or anything else cast to text) cast to a date or timestamp: its BC
    suffix read as BC by ``txngate_bc_text`` (DuckDB's cast reads it as
    AD); cast to an integer type: refused unless it is an integer's text
    (``txngate_integer_text``: DuckDB's cast rounds '1.5' and reads '1e3');
    to real or double precision: checked as PostgreSQL's input checks it
    (``txngate_float_text``: DuckDB's cast read '1e400' as infinity); to
    boolean: PostgreSQL's words (``txngate_boolean_text``);
    to timestamptz: a trailing zone abbreviation read as PostgreSQL's
    (``txngate_zone_text``), a concatenation's too, and to timestamp
    ignored (``txngate_zone_dropped``); a date or timestamp the engine's
    cast does not read as PostgreSQL's input reads it, in the session's
    DateStyle (``txngate_date_or_read``: True, the statement depends on
    the setting); constants are read when bound (``_pg_casts``)."""
    target = tc.typeName.names[-1].sval.lower()
    if target not in ("date", "timestamp", "timestamptz", "bytea", "bool", "boolean", "interval", "time") and target not in INTEGER_NAMES \
            and target not in FLOAT_NAMES or tc.typeName.arrayBounds or target == "interval" and tc.typeName.typmods:
        return
    arg = tc.arg
    joined = isinstance(arg, ast.A_Expr) and arg.kind == A_Expr_Kind.AEXPR_OP and arg.name[-1].sval == "||" and target in ("bytea", "timestamptz")
    if not (joined or _text_valued(arg, columns) and not isinstance(arg, ast.A_Const)):
        return
    if target == "time":  # AM/PM, 040506, a zone dropped, a long fraction rounded (the engine's cast refused or cut them)
        tc.arg = ast.FuncCall(funcname=(ast.String(sval="txngate_time_read"),), args=(arg,))
        return False
    if target == "interval":  # PostgreSQL's forms (the engine's cast knows no ISO 8601, no '-1 day +03:00'), by IntervalStyle
        tc.arg = ast.FuncCall(funcname=(ast.String(sval="txngate_interval_read"),), args=(arg, _constant(INTERVAL_STYLE.get())))
        return True
    if target == "bytea":  # '\x...' is hex (DuckDB's cast reads only escapes)
        tc.arg = ast.FuncCall(funcname=(ast.String(sval="txngate_bytea_text"),), args=(arg,))
    elif target in ("bool", "boolean"):  # on, of, yes, prefixes of true and false (DuckDB's cast refused them)
        tc.arg = ast.FuncCall(funcname=(ast.String(sval="txngate_boolean_text"),), args=(arg,))
    elif target in FLOAT_NAMES:  # 22P02 for 1_000, 22003 for 1e400 (DuckDB's cast read it as infinity)
        tc.arg = ast.FuncCall(funcname=(ast.String(sval="txngate_float_text"),), args=(arg, _constant(FLOAT_NAMES[target])))
    elif target in INTEGER_NAMES:
        tc.arg = ast.FuncCall(funcname=(ast.String(sval="txngate_integer_text"),), args=(arg, _constant(INTEGER_NAMES[target])))
    else:
        raw = copy.deepcopy(arg)
        if target in ("timestamptz", "timestamp"):  # PST as PostgreSQL's -08, or ignored (local_exec.strings)
            zoned = "txngate_zone_text" if target == "timestamptz" else "txngate_zone_dropped"
            arg = ast.FuncCall(funcname=(ast.String(sval=zoned),), args=(arg,))
        # what the engine's cast does not read (a weekday, a month's name, DateStyle's order) read as a constant is
        tc.arg = ast.FuncCall(funcname=(ast.String(sval=f"txngate_{target}_or_read"),),
                              args=(ast.FuncCall(funcname=(ast.String(sval="txngate_bc_text"),), args=(arg,)), raw, _constant(DATE_ORDER.get())))
        return True
    return False


def _pg_casts(tc: ast.TypeCast) -> bool:
    """Casts whose PostgreSQL meaning DuckDB spells differently (True when
    the rewrite depends on the session's settings): numeric
    without a typmod keeps 38 digits, 10 after the point (as stored); a
    ``'\\x..'`` literal cast to bytea is hex; an array literal is an ARRAY
    of its elements."""
    names = [n.sval for n in tc.typeName.names]
    name = names[-1].lower()
    session_dependent = False
    if name == "interval" and tc.typeName.typmods and not tc.typeName.arrayBounds:
        _qualified_interval(tc)
    elif name == "interval" and not tc.typeName.arrayBounds and isinstance(tc.arg, ast.A_Const) and isinstance(tc.arg.val, ast.String):
        text = tc.arg.val.sval
        tc.arg = ast.A_Const(val=ast.String(sval=interval_text(text)))  # PostgreSQL's forms, exactly
        session_dependent = text.lstrip().startswith("-")  # IntervalStyle sql_standard reads the sign further
    elif name == "time" and not tc.typeName.arrayBounds and isinstance(tc.arg, ast.A_Const) and isinstance(tc.arg.val, ast.String):
        tc.arg = ast.A_Const(val=ast.String(sval=time_text(tc.arg.val.sval)))  # a zone dropped, a long fraction rounded
    if name in ("date", "timestamp", "timestamptz") and not tc.typeName.arrayBounds and isinstance(tc.arg, ast.A_Const) \
            and isinstance(tc.arg.val, ast.String) and (special := special_datetime(tc.arg.val.sval, name)) is not None:
        tc.arg = special  # 'now', 'today', ...: the statement's time
    if name in ("date", "timestamp", "timestamptz") and not tc.typeName.arrayBounds and isinstance(tc.arg, ast.A_Const) \
            and isinstance(tc.arg.val, ast.String):
        # a date read in DateStyle's order (DuckDB reads 01/02/03 as year 1), BC years (DuckDB's timestamps ignore BC)
        text = typed_literal(tc.arg, name).arg.val.sval
        if text != tc.arg.val.sval:
            tc.arg, session_dependent = ast.A_Const(val=ast.String(sval=text)), True
    if name in ("float8", "float4", "numeric", "decimal") and not tc.typeName.arrayBounds and isinstance(tc.arg, ast.A_Const) \
            and isinstance(tc.arg.val, ast.String):
        typed_literal(tc.arg, FLOAT_NAMES.get(name, "numeric"))  # PostgreSQL's input: '10e400' is 22003, '1_000' 22P02
    if name in ("bool", "boolean") and not tc.typeName.arrayBounds and isinstance(tc.arg, ast.A_Const) and isinstance(tc.arg.val, ast.String):
        tc.arg = typed_literal(tc.arg, "boolean")  # PostgreSQL's words ('on', 'of', ' f ')
    if name in INTEGER_NAMES and not tc.typeName.arrayBounds:
        if isinstance(tc.arg, ast.A_Const) and isinstance(tc.arg.val, ast.String):  # PostgreSQL's input (DuckDB's rounds '34.5')
            tc.arg = typed_literal(tc.arg, INTEGER_NAMES[name]).arg
    if names[0] == "pg_catalog" or name in CATALOG_TYPES or name == "int2vector":
        duck = {"int2vector": "int2", "oidvector": "oid"}.get(name, name)
        duck = CATALOG_TYPES.get(duck, duck)
        tc.typeName = ast.TypeName(names=(ast.String(sval=duck),), typmods=tc.typeName.typmods,
                                   arrayBounds=tc.typeName.arrayBounds or ((ast.Integer(ival=-1),) if duck != name and name.endswith("vector") else None), typemod=-1)
    if tc.typeName.arrayBounds and isinstance(tc.arg, ast.A_Const) and isinstance(tc.arg.val, ast.String):
        expanded = typed_literal(tc.arg, canonical(tc.typeName, array_ok=True))
        tc.arg, tc.typeName = expanded.arg, expanded.typeName
    if name in ("numeric", "decimal") and not tc.typeName.typmods:
        tc.typeName = ast.TypeName(names=(ast.String(sval="numeric"),), typmods=(
            ast.A_Const(val=ast.Integer(ival=38)), ast.A_Const(val=ast.Integer(ival=max(10, _constant_scale(tc.arg))))),
            arrayBounds=tc.typeName.arrayBounds, typemod=-1)
    if name in ("varchar", "bpchar") and tc.typeName.typmods and not tc.typeName.arrayBounds:
            # an explicit cast to varchar(n) or char(n) cuts the text to n characters (char(n) is not
        # padded: txngate stores and compares it as text, which is what PostgreSQL compares)
        text = ast.TypeCast(arg=tc.arg, typeName=ast.TypeName(names=(ast.String(sval="text"),), typemod=-1))
        length = tc.typeName.typmods[0]
        cut = ast.FuncCall(funcname=(ast.String(sval="left"),), args=(text, length))
        tc.arg = cut
    if name == "bytea" and isinstance(tc.arg, ast.A_Const) and isinstance(tc.arg.val, ast.String):
        text = tc.arg.val.sval
        try:
            hexed = parse_bytea(text).hex()
        except ByteaInputError as e:
            raise SqlError(e.sqlstate, str(e)) from None
        tc.arg = ast.FuncCall(funcname=(ast.String(sval="unhex"),), args=(ast.A_Const(val=ast.String(sval=hexed)),))
        tc.typeName = ast.TypeName(names=(ast.String(sval="bytea"),), typemod=-1)
    return session_dependent




def _row_comparison(n: ast.Node) -> ast.Node | None:
    """``(a1, a2) op (b1, b2)`` (or ``(a1, a2) [NOT] IN ((b1, b2), ...)``)
    as PostgreSQL compares rows, field by field: = is every field's =, <> any
    field's <>, < <= > >= decided by the first pair that is not equal, NULL
    when a field on the way is (the engine compared the rows as structs, a
    NULL field less than any value: (1, NULL) < (1, 10) was false, not NULL);
    rows of unequal lengths are 42601. None when ``n`` is no such
    comparison."""
    if not isinstance(n, ast.A_Expr) or not isinstance(n.lexpr, ast.RowExpr):
        return None
    op = n.name[-1].sval
    width = len(n.lexpr.args or ())
    if n.kind == A_Expr_Kind.AEXPR_OP and op in ("=", "<>", "<", "<=", ">", ">=") and isinstance(n.rexpr, ast.SubLink) \
            and n.rexpr.subLinkType == SubLinkType.EXPR_SUBLINK and width > 1:
        return _row_compared_to_subquery(op, n.lexpr, n.rexpr)
    rows = n.rexpr if n.kind == A_Expr_Kind.AEXPR_IN and isinstance(n.rexpr, (list, tuple)) else [n.rexpr]
    if any(isinstance(f, ast.RowExpr) for r in [n.lexpr, *rows] if isinstance(r, ast.RowExpr) for f in r.args or ()):
        return None  # a row within a row is compared as a record is (NULL fields are unequal, not unknown): the engine's way
    if any(isinstance(r, ast.RowExpr) and len(r.args or ()) != width for r in rows):
        raise SqlError(SYNTAX_ERROR, "unequal number of entries in row expressions")
    if n.kind == A_Expr_Kind.AEXPR_IN and isinstance(n.rexpr, (list, tuple)) and all(isinstance(r, ast.RowExpr) for r in n.rexpr):
        each = [_row_compared("=" if op == "=" else "<>", n.lexpr.args, r.args) for r in n.rexpr]
        return each[0] if len(each) == 1 else ast.BoolExpr(boolop=BoolExprType.OR_EXPR if op == "=" else BoolExprType.AND_EXPR, args=tuple(each))
    if n.kind != A_Expr_Kind.AEXPR_OP or op not in ("=", "<>", "<", "<=", ">", ">=") \
            or not isinstance(n.rexpr, ast.RowExpr) or not width:
        return None
    return _row_compared(op, n.lexpr.args, n.rexpr.args)


def _row_compared_to_subquery(op: str, row: ast.RowExpr, sub: ast.SubLink) -> ast.Node:
    """``(a1, a2) op (SELECT x, y ...)``, PostgreSQL's row comparison with a
    subquery of one row: the comparison, field by field, made inside a
    subquery over that one row (no row: NULL; more than one: 21000, as a
    scalar subquery; the engine refused a subquery of two columns there)."""
    if (found := _subquery_rows(sub.subselect, len(row.args))) is None:
        return None
    one, fields = found
    compared = ast.SelectStmt(targetList=(ast.ResTarget(val=_row_compared(op, row.args, fields)),), fromClause=(one,))
    return ast.SubLink(subLinkType=SubLinkType.EXPR_SUBLINK, subselect=compared)


def _subquery_rows(subselect: ast.SelectStmt, width: int) -> tuple[ast.RangeSubselect, list[ast.ColumnRef]] | None:
    """``subselect`` as a FROM item of its own (``txngate_row``) and
    references to its ``width`` columns, for a row compared with its rows;
    None when its columns are not written out (a ``*``), 42601 when they are
    not ``width``."""
    targets = _leftmost(subselect).targetList or ()
    if any(isinstance(getattr(t.val, "fields", (None,))[-1], ast.A_Star) for t in targets):
        return None
    if len(targets) != width:
        raise SqlError(SYNTAX_ERROR, "subquery has too many columns" if len(targets) > width else "subquery has too few columns")
    names = [f"txngate_field{i}" for i in range(width)]
    rows = ast.RangeSubselect(subquery=subselect, alias=ast.Alias(aliasname="txngate_row", colnames=tuple(ast.String(sval=c) for c in names)))
    return rows, [ast.ColumnRef(fields=(ast.String(sval="txngate_row"), ast.String(sval=c))) for c in names]


def _correlated_row_quantified(n: ast.Node) -> ast.Node | None:
    """``(a1, a2) op ANY (SELECT x, y ...)`` (IN too) and ``op ALL`` of a
    subquery that reads the outer query (the engine has no correlated
    quantified comparison of rows): whether any (every) row of it compares
    so, field by field as rows compare, in a subquery over its rows:
    true as soon as one does (false as soon as one does not, for ALL), else
    NULL where a comparison was, else false (true). None for anything else
    (a quantified comparison of rows the engine makes itself)."""
    if not (isinstance(n, ast.SubLink) and n.subLinkType in (SubLinkType.ANY_SUBLINK, SubLinkType.ALL_SUBLINK)
            and isinstance(n.testexpr, ast.RowExpr) and len(n.testexpr.args or ()) > 1 and _reads_outer(n.subselect)):
        return None
    op = n.operName[-1].sval if n.operName else "="
    if op not in ("=", "<>", "<", "<=", ">", ">=") or (found := _subquery_rows(n.subselect, len(n.testexpr.args))) is None:
        return None
    rows, fields = found
    compared = _row_compared(op, n.testexpr.args, fields)
    decided = "CASE WHEN bool_or(_arg1) THEN true WHEN bool_or(_arg2 IS NULL) THEN NULL ELSE false END" \
        if n.subLinkType == SubLinkType.ANY_SUBLINK else \
        "CASE WHEN bool_or(NOT _arg1) THEN false WHEN bool_or(_arg2 IS NULL) THEN NULL ELSE true END"
    value = expand(decided, [compared, copy_tree(compared)])
    return ast.SubLink(subLinkType=SubLinkType.EXPR_SUBLINK, subselect=ast.SelectStmt(targetList=(ast.ResTarget(val=value),), fromClause=(rows,)))


def _reads_outer(select: ast.SelectStmt) -> bool:
    """``select`` reads a column of an outer query by a qualifier none of
    its own FROM items (or CTEs) has (an unqualified outer column is not
    seen: the engine's own plan, or its refusal, stands for it)."""
    nodes = list(walk(select))
    defined = {m.alias.aliasname if m.alias is not None else m.relname for m in nodes if isinstance(m, ast.RangeVar)}
    defined |= {m.alias.aliasname for m in nodes if isinstance(m, (ast.RangeSubselect, ast.RangeFunction, ast.JoinExpr)) and m.alias is not None}
    defined |= {m.ctename for m in nodes if isinstance(m, ast.CommonTableExpr)}
    return any(isinstance(m, ast.ColumnRef) and len(m.fields) >= 2 and isinstance(m.fields[-2], ast.String) and m.fields[-2].sval not in defined
               for m in nodes)


def _leftmost(select: ast.SelectStmt) -> ast.SelectStmt:
    """The first SELECT of a set operation (whose target list names its columns)."""
    while select.op != SetOperation.SETOP_NONE and select.larg is not None:
        select = select.larg
    return select


def _row_compared(op: str, left, right) -> ast.Node:
    def compare(o, a, b):
        return ast.A_Expr(kind=A_Expr_Kind.AEXPR_OP, name=(ast.String(sval=o),), lexpr=copy_tree(a), rexpr=copy_tree(b))

    def both(kind, args):
        return args[0] if len(args) == 1 else ast.BoolExpr(boolop=kind, args=tuple(args))

    if op in ("=", "<>"):
        return both(BoolExprType.AND_EXPR if op == "=" else BoolExprType.OR_EXPR, [compare(op, a, b) for a, b in zip(left, right)])
    strict = op.rstrip("=")
    pairs = list(zip(left, right))
    decided = compare(op, *pairs[-1])  # the last pair decides with the operator itself (<= for <=)
    for a, b in reversed(pairs[:-1]):
        decided = both(BoolExprType.OR_EXPR, [compare(strict, a, b), both(BoolExprType.AND_EXPR, [compare("=", a, b), decided])])
    return decided


def _real_widened(n: ast.Node, columns: ColumnTypes) -> ast.Node | None:
    """``a op b`` (+ - * /) of a real and another number with the real
    first cast to double precision, as PostgreSQL's float48 operators take
    it (``float4 * int`` is float8's product: the engine multiplied in
    single precision, 1.1::float4 * 3 was 3.3000001907348633, not
    3.3000000715255737, and 3.4e38::float4 * 10 overflowed); two reals stay
    real. None for anything else."""
    if not (isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.lexpr is not None
            and n.name[-1].sval in ("+", "-", "*", "/")):
        return None
    kinds = [_operand_type(x, columns, floats=True) for x in (n.lexpr, n.rexpr)]
    if "real" not in kinds or kinds[0] == kinds[1] or None in kinds:
        return None
    n.lexpr, n.rexpr = [_cast_to(x, "float8") if k == "real" else x for x, k in zip((n.lexpr, n.rexpr), kinds)]
    return n


def _enum_cast(n: ast.TypeCast):
    """The enum type a cast names (not an array of it), else None."""
    names = [x.sval for x in n.typeName.names]
    if n.typeName.arrayBounds or len(names) > 2 or builtin_type_name(names[-1]):
        return None  # (a built-in type's cast reads no catalog key)
    found = made_type(names)
    return found if isinstance(found, EnumType) else None


def _enum_function(name: str, enum) -> ast.Node:
    """pg_typeof, enum_range, enum_first or enum_last of a value of ``enum``:
    constants of its definition."""
    if name == "pg_typeof":
        return _constant(enum.name)
    if name == "enum_range":
        return _labels(enum)
    if not enum.labels:
        return ast.A_Const(isnull=True)
    return _constant(enum.labels[0] if name == "enum_first" else enum.labels[-1])


def _named_constant(n: ast.Node) -> bool:
    """``'name'::regclass`` (regtype, regnamespace): a name's OID, shown as the name."""
    return isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds and n.typeName.names[-1].sval in ("regclass", "regtype", "regnamespace") \
        and isinstance(n.arg, ast.A_Const) and isinstance(n.arg.val, ast.String)


def _reg_shown(n: ast.TypeCast) -> ast.Node:
    """A name's OID cast (``_named_constant``) as PostgreSQL's output shows
    it: the name as the catalog spells it (qualified when not visible)."""
    kind = n.typeName.names[-1].sval
    return expand(f"coalesce((SELECT d.txngate_def FROM pg_catalog.txngate_defs d WHERE d.txngate_oid = _arg1 AND d.txngate_kind = '{kind}'),"
                  " CAST(CAST(_arg1 AS bigint) AS text))", [n])  # (an OID without a name shows as its number)


def _check_enum_label(enum, label: str) -> None:
    if label not in enum.labels:
        raise SqlError("22P02", f'invalid input value for enum {enum.name}: "{label}"')


def _labels(enum) -> ast.Node:
    return ast.A_ArrayExpr(elements=tuple(ast.A_Const(val=ast.String(sval=label)) for label in enum.labels))


def _enum_position(enum, n: ast.Node) -> ast.Node:
    """``n`` (of the enum, or a string constant read as one) as its label's
    place in the enum's sort order."""
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.String):
        _check_enum_label(enum, n.val.sval)
        return ast.A_Const(val=ast.Integer(ival=enum.labels.index(n.val.sval) + 1))
    return expand("list_position(_arg1, _arg2)", [_labels(enum), _cast_to(n, "text")])


def _overlaps(args: list[ast.Node]) -> ast.Node:
    """``(s1, e1) OVERLAPS (s2, e2)`` as PostgreSQL's overlaps_timestamp
    decides it: each period's ends put in order (a NULL end leaves the
    other as its start), half-open periods, two that start together
    overlapping, NULL where a missing end could decide it."""
    def start(a, b):
        return f"(CASE WHEN {a} IS NULL THEN {b} WHEN {b} IS NULL THEN {a} ELSE least({a}, {b}) END)"

    def end(a, b):
        return f"(CASE WHEN {a} IS NULL OR {b} IS NULL THEN NULL ELSE greatest({a}, {b}) END)"

    ts1, te1, ts2, te2 = start("_arg1", "_arg2"), end("_arg1", "_arg2"), start("_arg3", "_arg4"), end("_arg3", "_arg4")
    return expand(
        f"CASE WHEN {ts1} > {ts2} THEN (CASE WHEN {te2} IS NULL THEN NULL WHEN {ts1} < {te2} THEN true WHEN {te1} IS NULL THEN NULL ELSE false END)"
        f" WHEN {ts1} < {ts2} THEN (CASE WHEN {te1} IS NULL THEN NULL WHEN {ts2} < {te1} THEN true WHEN {te2} IS NULL THEN NULL ELSE false END)"
        f" WHEN {ts1} = {ts2} THEN (CASE WHEN {te1} IS NULL OR {te2} IS NULL THEN NULL ELSE true END) END", args)
