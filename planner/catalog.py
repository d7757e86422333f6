"""The catalog: schemas, tables, views and materialized views, itself a shard
in the txns set.

Rows of the catalog shard are ``(kind, name, def)``: ``kind`` is ``schema``,
``table``, ``view`` or ``matview``; ``name`` is the qualified name
(``schema.relation``, or the schema's name); ``def`` is JSON. Every change is
committed through the txns shard at a write timestamp, so DDL and DML share
one timeline: a read at ``read_ts`` sees exactly the objects that existed
then. DDL is a read-then-write on the catalog (``read_ts`` / ``read_ts +
1``), so two sessions creating the same name cannot both succeed. Changing a
definition retracts the old row and inserts the new one at the same ts.

Invariants (``Catalog.validate``): at any timestamp a qualified name maps to
at most one relation; every relation's schema exists; every table's shard
exists and is registered in the txns set before its row is committed (the
DDL code keeps that order).

The catalog is keyed per object for conflicts: a transaction's read set
holds the names (and OIDs, and "views of" entries) it looked up, present or
absent, and a commit that changes catalog rows names the same keys
(``row_keys``), so DDL on different objects, or DDL beside statements on
other tables, never conflict; only listing the whole catalog (pg_catalog
queries, DROP SCHEMA) reads all of it.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, replace
from typing import Callable, Optional

import pglast
import pyarrow as pa
from pglast import ast

from planner.parse import walk
from planner.errors import (
    INVALID_SCHEMA_NAME,
    UNDEFINED_COLUMN,
    UNDEFINED_TABLE,
    WRONG_OBJECT_TYPE,
    SqlError,
)
from storage.persist import field_for
from storage.txns import key_hash

CATALOG_SHARD = "catalog"
CATALOG_SCHEMA = pa.schema(
    [field_for("kind", "text", nullable=False), field_for("name", "text", nullable=False), field_for("def", "jsonb", nullable=False)]
)
FIRST_USER_OID = 16384
#: Schemas every database has; they are not rows of the catalog shard.
BUILTIN_SCHEMAS = ("public", "pg_catalog", "information_schema")


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    not_null: bool = False
    default: str | None = None  # SQL expression text (PostgreSQL dialect)


@dataclass(frozen=True)
class Relation:
    """A table, a view or a materialized view in a schema."""

    name: str
    schema: str
    kind: str  # "table", "view" or "matview"
    columns: tuple[Column, ...]
    shard: str | None = None  # tables and materialized views
    primary_key: tuple[str, ...] = ()
    unique: tuple[tuple[str, ...], ...] = ()
    checks: tuple[tuple[str, str], ...] = ()  # (constraint name, SQL expression)
    query: str | None = None  # views and materialized views: PostgreSQL SQL
    oid: int = 0  # the OID clients see (pg_class); 0 for rows written before OIDs were kept

    @property
    def qualified(self) -> str:
        return f"{self.schema}.{self.name}"

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def column(self, name: str, location: int | None = None) -> Column:
        """The column ``name``; 42703 (at the statement's ``location``, 0-based, when given) if none."""
        for c in self.columns:
            if c.name == name:
                return c
        raise SqlError(UNDEFINED_COLUMN, f'column "{name}" of relation "{self.name}" does not exist',
                       position=None if location is None or location < 0 else location + 1)

    @property
    def schema_arrow(self) -> pa.Schema:
        return pa.schema([field_for(c.name, c.type, nullable=not c.not_null) for c in self.columns])

    @property
    def keys(self) -> list[tuple[str, tuple[str, ...]]]:
        """Every uniqueness constraint: (constraint name, columns)."""
        out = []
        if self.primary_key:
            out.append((f"{self.name}_pkey", self.primary_key))
        for cols in self.unique:
            out.append((f"{self.name}_{'_'.join(cols)}_key", cols))
        return out

    def with_(self, **changes) -> "Relation":
        return replace(self, **changes)

    def row(self) -> dict:
        d = {
            "shard": self.shard,
            "columns": [[c.name, c.type, c.not_null, c.default] for c in self.columns],
            "primary_key": list(self.primary_key),
            "unique": [list(u) for u in self.unique],
            "checks": [list(c) for c in self.checks],
            "query": self.query,
            "oid": self.oid,
        }
        return {"kind": self.kind, "name": self.qualified, "def": json.dumps(d, sort_keys=True)}

    @classmethod
    def from_row(cls, kind: str, qualified: str, definition: str) -> "Relation":
        d = json.loads(definition)
        schema, name = qualified.split(".", 1)
        return cls(
            name, schema, kind, tuple(Column(*c) for c in d["columns"]), d.get("shard"), tuple(d.get("primary_key", ())),
            tuple(tuple(u) for u in d.get("unique", ())), tuple(tuple(c) for c in d.get("checks", ())), d.get("query"),
            d.get("oid", 0),
        )


# The name the rest of the planner uses for stored relations.
Table = Relation


#: What a read of the catalog saw, for the reader's read set: the key
#: hashes (``catalog_key``) of the names and OIDs it looked up, or None when
#: it read all of the catalog (listed every relation or schema).
Note = Callable[[Optional[frozenset]], None]


def catalog_key(namespace: str, name) -> int:
    """The key hash of one catalog object: ``("relation", "schema.name")``
    (tables, views and materialized views share PostgreSQL's one namespace
    per schema), ``("schema", name)``, ``("oid", oid)``, or ``("deps",
    "schema.name")`` (the views reading a relation)."""
    return key_hash("catalog", (namespace, name))


def row_keys(kind: str, name: str, definition: str) -> set[int]:
    """The keys a catalog row names: written when it is added or retracted,
    so a transaction that looked up any of them conflicts with the change."""
    if kind == "schema":
        return {catalog_key("schema", name)}
    rel = Relation.from_row(kind, name, definition)
    keys = {catalog_key("relation", name), catalog_key("oid", rel.oid)}
    return keys | {catalog_key("deps", d) for d in query_deps(rel)}


def query_deps(rel: Relation) -> set[str]:
    """The qualified names a view or materialized view's query names
    (unqualified names resolve in ``public``, as stored queries do)."""
    if rel.query is None:
        return set()
    node = pglast.parse_sql(rel.query)[0].stmt
    return {f"{n.schemaname or 'public'}.{n.relname}" for n in walk(node) if isinstance(n, ast.RangeVar)}


class Catalog:
    """The objects of one catalog version, and what a transaction read of it.

    A catalog version is built once (``from_table``) and shared. A work
    reads it through a view (``seen_by(note)``) sharing the same objects:
    each lookup tells ``note`` the keys it probed (present or absent), and
    listing every relation or schema tells it the whole catalog was read.
    So DDL on different objects, and statements on different tables, do not
    conflict (``storage.txns.keys``)."""

    def __init__(self, relations: dict[str, Relation] | None = None, schemas: set[str] | None = None, *, note: Note | None = None,
                 _shared: "Catalog | None" = None):
        self._relations = relations if relations is not None else {}
        self._schemas = schemas if schemas is not None else set(BUILTIN_SCHEMAS)
        self._note = note
        self.base = _shared if _shared is not None else self  # the version, for caches keyed by it
        self._index: dict | None = None  # oid -> relation, qualified -> dependent views (built on first use)

    @classmethod
    def from_table(cls, contents: pa.Table) -> "Catalog":
        cat = cls()
        for r in contents.to_pylist():
            if r["kind"] == "schema":
                cat._schemas.add(r["name"])
                continue
            rel = Relation.from_row(r["kind"], r["name"], r["def"])
            if rel.qualified in cat._relations:
                raise AssertionError(f"catalog names relation {rel.qualified!r} twice")
            cat._relations[rel.qualified] = rel
        cat.validate()
        return cat

    def seen_by(self, note: Note) -> "Catalog":
        """This version, telling ``note`` what is read of it."""
        return Catalog(self._relations, self._schemas, note=note, _shared=self.base)

    def saw(self, keys: frozenset | None) -> None:
        """Tell the reader's note about a read (replayed from a cache)."""
        if self._note is not None:
            self._note(keys)

    def validate(self) -> None:
        for q, rel in self._relations.items():
            assert q == rel.qualified, q
            assert rel.schema in self._schemas, f"relation {q} in missing schema"
            assert (rel.shard is not None) == (rel.kind != "view"), q

    # -- reads of everything ---------------------------------------------------

    @property
    def relations(self) -> dict[str, Relation]:
        """Every relation by qualified name (reads the whole catalog)."""
        self.saw(None)
        return self._relations

    @property
    def schemas(self) -> set[str]:
        """Every schema (reads the whole catalog)."""
        self.saw(None)
        return self._schemas

    @property
    def tables(self) -> dict[str, Relation]:
        """Tables by unqualified name (for callers that know only public)."""
        return {r.name: r for r in self.relations.values() if r.schema == "public"}

    # -- reads by key ----------------------------------------------------------

    def _indexes(self) -> dict:
        base = self.base
        if base._index is None:
            deps: dict[str, list[Relation]] = {}
            for rel in base._relations.values():
                for d in query_deps(rel):
                    deps.setdefault(d, []).append(rel)
            base._index = {"oid": {r.oid: r for r in base._relations.values()}, "deps": deps}
        return base._index

    def has_schema(self, name: str) -> bool:
        self.saw(frozenset([catalog_key("schema", name)]))
        return name in self._schemas

    def new_oid(self) -> int:
        """An OID no relation has: user OIDs are 16384 + a random 29-bit number."""
        taken = self._indexes()["oid"]
        while True:
            oid = FIRST_USER_OID + secrets.randbelow(1 << 29)
            self.saw(frozenset([catalog_key("oid", oid)]))
            if oid not in taken:
                return oid

    def dependents(self, rel: Relation) -> list[Relation]:
        """The views and materialized views whose queries name ``rel``."""
        self.saw(frozenset([catalog_key("deps", rel.qualified)]))
        return list(self._indexes()["deps"].get(rel.qualified, ()))

    def lookup(self, name: str, schema: str | None = None, search_path: tuple[str, ...] = ("public",)) -> Relation | None:
        for s in (schema,) if schema is not None else search_path:
            qualified = f"{s}.{name}"
            self.saw(frozenset([catalog_key("relation", qualified)]))
            rel = self._relations.get(qualified)
            if rel is not None:
                return rel
        return None

    def relation(self, name: str, schema: str | None = None, search_path: tuple[str, ...] = ("public",), position: int | None = None) -> Relation:
        if schema is not None and not self.has_schema(schema):
            raise SqlError(INVALID_SCHEMA_NAME, f'schema "{schema}" does not exist', position=position)
        rel = self.lookup(name, schema, search_path)
        if rel is None:
            shown = f"{schema}.{name}" if schema else name
            raise SqlError(UNDEFINED_TABLE, f'relation "{shown}" does not exist', position=position)
        return rel

    def table(self, name: str, schema: str | None = None, search_path: tuple[str, ...] = ("public",), position: int | None = None) -> Relation:
        """A relation that holds rows written by DML (a table)."""
        rel = self.relation(name, schema, search_path, position)
        if rel.kind != "table":
            what = "view" if rel.kind == "view" else "materialized view"
            raise SqlError(WRONG_OBJECT_TYPE, f'cannot change {what} "{rel.name}"')
        return rel


def catalog_rows(*relations: Relation) -> pa.Table:
    return pa.Table.from_pylist([r.row() for r in relations], schema=CATALOG_SCHEMA)


def schema_rows(*names: str) -> pa.Table:
    return pa.Table.from_pylist([{"kind": "schema", "name": n, "def": "{}"} for n in names], schema=CATALOG_SCHEMA)
