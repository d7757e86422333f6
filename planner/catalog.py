"""The catalog: tables and their shards, itself a shard in the txns set.

Rows of the catalog shard are ``(kind, name, def)``; ``def`` is JSON. A
table is created by committing its row through the txns shard at a write
timestamp, so DDL and DML share one timeline: a read at ``read_ts`` sees
exactly the tables that existed then. Creating or dropping is a
read-then-write on the catalog (``read_ts`` / ``read_ts + 1``), so two
sessions creating the same table cannot both succeed.

Invariants: at any timestamp a name maps to at most one table; every table's
shard exists and is registered in the txns set before its row is committed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pyarrow as pa

from planner.errors import UNDEFINED_COLUMN, UNDEFINED_TABLE, SqlError
from storage.persist import field_for

CATALOG_SHARD = "catalog"
CATALOG_SCHEMA = pa.schema(
    [field_for("kind", "text", nullable=False), field_for("name", "text", nullable=False), field_for("def", "jsonb", nullable=False)]
)


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    not_null: bool = False
    default: str | None = None  # SQL expression text (PostgreSQL dialect)


@dataclass(frozen=True)
class Table:
    name: str
    shard: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...] = ()

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise SqlError(UNDEFINED_COLUMN, f'column "{name}" of relation "{self.name}" does not exist')

    @property
    def schema(self) -> pa.Schema:
        return pa.schema([field_for(c.name, c.type, nullable=not c.not_null) for c in self.columns])

    def row(self) -> dict:
        d = {
            "shard": self.shard,
            "columns": [[c.name, c.type, c.not_null, c.default] for c in self.columns],
            "primary_key": list(self.primary_key),
        }
        return {"kind": "table", "name": self.name, "def": json.dumps(d, sort_keys=True)}

    @classmethod
    def from_row(cls, name: str, definition: str) -> "Table":
        d = json.loads(definition)
        return cls(name, d["shard"], tuple(Column(*c) for c in d["columns"]), tuple(d["primary_key"]))


@dataclass
class Catalog:
    tables: dict[str, Table] = field(default_factory=dict)

    @classmethod
    def from_table(cls, contents: pa.Table) -> "Catalog":
        tables = {}
        for r in contents.to_pylist():
            if r["kind"] == "table":
                if r["name"] in tables:
                    raise AssertionError(f"catalog names table {r['name']!r} twice")
                tables[r["name"]] = Table.from_row(r["name"], r["def"])
        return cls(tables)

    def table(self, name: str, position: int | None = None) -> Table:
        t = self.tables.get(name)
        if t is None:
            raise SqlError(UNDEFINED_TABLE, f'relation "{name}" does not exist', position=position)
        return t


def catalog_rows(*tables: Table) -> pa.Table:
    return pa.Table.from_pylist([t.row() for t in tables], schema=CATALOG_SCHEMA)
