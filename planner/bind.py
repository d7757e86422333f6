"""Binding: resolve the relations a statement names against the catalog and
rewrite it for DuckDB.

Every RangeVar that names a stored relation (a table or a materialized view)
is renamed to an internal name (``_r0``, ``_r1``, ...) under which the
relation's Arrow snapshot is registered, keeping the name the query used as
its alias, so schema-qualified names and column references keep working.
Views are bound recursively and become temporary DuckDB views over the same
internal names, dependencies first. Names that a WITH clause defines are
left alone. ``virtual`` resolves names no catalog row holds (pg_catalog
emulation plugs in there).

The statement node given is never modified (binding works on a copy), so a
retried compute binds the same statement again.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable

import pglast
import sqlglot
from pglast import ast
from pglast.stream import RawStream

from planner.catalog import Catalog, Relation
from planner.errors import SqlError, not_supported
from planner.parse import walk

#: ``virtual(schema, name)`` -> a Relation-like provider or None
Virtual = Callable[[str | None, str], "VirtualTable | None"]


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


def pg_sql(node: ast.Node) -> str:
    return RawStream()(node)


def transpile(pg: str) -> str:
    try:
        return sqlglot.transpile(pg, read="postgres", write="duckdb")[0]
    except sqlglot.errors.SqlglotError as e:
        raise not_supported(f"query construct ({str(e).splitlines()[0]})") from None


class Binder:
    def __init__(self, catalog: Catalog, search_path: tuple[str, ...], virtual: Virtual | None = None):
        self.catalog = catalog
        self.search_path = search_path
        self.virtual = virtual
        self._names: dict[str, str] = {}  # qualified -> internal
        self.out = Bound("")
        self._binding_views: set[str] = set()

    def bind(self, node: ast.Node) -> Bound:
        """Bind a SELECT (or any node holding one) and rewrite it for DuckDB."""
        self.out.sql = transpile(pg_sql(self.rewrite(node)))
        return self.out

    def rewrite(self, node: ast.Node) -> ast.Node:
        node = copy.deepcopy(node)
        ctes = {n.ctename for n in walk(node) if isinstance(n, ast.CommonTableExpr)}
        for n in walk(node):
            if isinstance(n, ast.RangeVar):
                self._rename(n, ctes)
            elif isinstance(n, ast.FuncCall):
                _rename_function(n)
            elif isinstance(n, ast.TypeCast):
                _pg_casts(n)
        return node

    def internal(self, rel: Relation) -> str:
        name = self._names.get(rel.qualified)
        if name is not None:
            return name
        if rel.kind == "view":
            if rel.qualified in self._binding_views:
                raise SqlError("42P17", f'infinite recursion detected in rules for relation "{rel.name}"')
            self._binding_views.add(rel.qualified)
            inner = pglast.parse_sql(rel.query)[0].stmt
            sql = transpile(pg_sql(self.rewrite(inner)))
            name = f"_r{len(self._names)}"
            self.out.views.append((name, sql))
        else:
            name = f"_r{len(self._names)}"
            self.out.tables[name] = rel
        self._names[rel.qualified] = name
        return name

    def _rename(self, rv: ast.RangeVar, ctes: set[str]) -> None:
        if rv.schemaname is None and rv.relname in ctes:
            return
        if rv.catalogname is not None and rv.catalogname != "txngate":
            raise not_supported("cross-database references")
        rel = self.catalog.lookup(rv.relname, rv.schemaname, self.search_path)
        if rel is None and self.virtual is not None:
            vt = self.virtual(rv.schemaname, rv.relname)
            if vt is not None:
                key = f"virtual:{vt.name}"
                name = self._names.get(key)
                if name is None:
                    name = f"_r{len(self._names)}"
                    self._names[key] = name
                    self.out.virtual[name] = vt
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


#: PostgreSQL functions DuckDB knows under another name (or not with pg_catalog.)
FUNCTION_NAMES = {"btrim": "trim", "octet_length": "strlen", "position": "strpos", "char_length": "length", "character_length": "length"}


def _rename_function(fc: ast.FuncCall) -> None:
    names = [n.sval for n in fc.funcname]
    if len(names) == 2 and names[0] == "pg_catalog":
        names = names[1:]
    name = FUNCTION_NAMES.get(names[-1], names[-1])
    if len(names) == 1:
        fc.funcname = (ast.String(sval=name),)


def _pg_casts(tc: ast.TypeCast) -> None:
    """Casts whose PostgreSQL meaning DuckDB spells differently: numeric
    without a typmod keeps 38 digits, 10 after the point (as stored); a
    ``'\\x..'`` literal cast to bytea is hex."""
    names = [n.sval for n in tc.typeName.names]
    name = names[-1].lower()
    if name in ("numeric", "decimal") and not tc.typeName.typmods and not tc.typeName.arrayBounds:
        tc.typeName = ast.TypeName(names=(ast.String(sval="numeric"),), typmods=(
            ast.A_Const(val=ast.Integer(ival=38)), ast.A_Const(val=ast.Integer(ival=10))), typemod=-1)
    if name == "bytea" and isinstance(tc.arg, ast.A_Const) and isinstance(tc.arg.val, ast.String):
        text = tc.arg.val.sval
        if text.startswith("\\x"):
            tc.arg = ast.FuncCall(funcname=(ast.String(sval="unhex"),), args=(ast.A_Const(val=ast.String(sval=text[2:])),))
            tc.typeName = ast.TypeName(names=(ast.String(sval="bytea"),), typemod=-1)


