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
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field, replace

import pyarrow as pa

from planner.errors import (
    INVALID_SCHEMA_NAME,
    UNDEFINED_COLUMN,
    UNDEFINED_TABLE,
    WRONG_OBJECT_TYPE,
    SqlError,
)
from storage.persist import field_for

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


@dataclass
class Catalog:
    relations: dict[str, Relation] = field(default_factory=dict)  # qualified name -> relation
    schemas: set[str] = field(default_factory=lambda: set(BUILTIN_SCHEMAS))

    @classmethod
    def from_table(cls, contents: pa.Table) -> "Catalog":
        cat = cls()
        for r in contents.to_pylist():
            if r["kind"] == "schema":
                cat.schemas.add(r["name"])
                continue
            rel = Relation.from_row(r["kind"], r["name"], r["def"])
            if rel.qualified in cat.relations:
                raise AssertionError(f"catalog names relation {rel.qualified!r} twice")
            cat.relations[rel.qualified] = rel
        cat.validate()
        return cat

    def validate(self) -> None:
        for q, rel in self.relations.items():
            assert q == rel.qualified, q
            assert rel.schema in self.schemas, f"relation {q} in missing schema"
            assert (rel.shard is not None) == (rel.kind != "view"), q

    @property
    def tables(self) -> dict[str, Relation]:
        """Tables by unqualified name (for callers that know only public)."""
        return {r.name: r for r in self.relations.values() if r.schema == "public"}

    def new_oid(self) -> int:
        """An OID no relation has: user OIDs are 16384 + a random 29-bit number."""
        taken = {r.oid for r in self.relations.values()}
        while True:
            oid = FIRST_USER_OID + secrets.randbelow(1 << 29)
            if oid not in taken:
                return oid

    def lookup(self, name: str, schema: str | None = None, search_path: tuple[str, ...] = ("public",)) -> Relation | None:
        if schema is not None:
            return self.relations.get(f"{schema}.{name}")
        for s in search_path:
            rel = self.relations.get(f"{s}.{name}")
            if rel is not None:
                return rel
        return None

    def relation(self, name: str, schema: str | None = None, search_path: tuple[str, ...] = ("public",), position: int | None = None) -> Relation:
        if schema is not None and schema not in self.schemas:
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
