"""Sessions: ``Session.execute(sql, params)`` runs a query string and
returns one ``Result`` per statement (columns with SQL types, rows, command
tag), or raises ``SqlError``.

Statement classes and their timestamps (DESIGN.md "Transactions"):

* SELECT: one ``read_ts`` from the oracle; the catalog and every table read
  at it; the query runs on DuckDB over Arrow snapshots.
* INSERT into a table without a primary key: write-only, through group
  commit at a ``write_ts``. With a primary key: read-then-write at
  ``(read_ts, read_ts + 1)`` so uniqueness holds under concurrency (23505).
* CREATE/DROP TABLE: read-then-write on the catalog shard.
* SET/SHOW/RESET: session settings.

Not built yet (issue: SQL planner): explicit transactions (BEGIN/COMMIT),
UPDATE/DELETE, COPY, ON CONFLICT, RETURNING, EXPLAIN, views, more DDL. They
are refused with SQLSTATE 0A000 naming the feature.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import pyarrow as pa
import sqlglot
from pglast import ast
from pglast.stream import RawStream

from local_exec import EngineError
from planner import parse as p
from planner.catalog import CATALOG_SHARD, Catalog, Column, Table, catalog_rows
from planner.errors import (
    DUPLICATE_COLUMN,
    DUPLICATE_TABLE,
    NOT_NULL_VIOLATION,
    SYNTAX_ERROR,
    UNDEFINED_OBJECT,
    UNIQUE_VIOLATION,
    SqlError,
    not_supported,
)
from planner.sqltypes import canonical, of_arrow
from storage.persist import SchemaError
from storage.txns import read_then_write

DEFAULT_SETTINGS = {
    "application_name": "",
    "client_encoding": "UTF8",
    "datestyle": "ISO, MDY",
    "intervalstyle": "postgres",
    "timezone": "UTC",
    "transaction_isolation": "serializable",
    "standard_conforming_strings": "on",
    "search_path": '"$user", public',
    "statement_timeout": "0",
    "txngate.engine": "auto",
}

DUCKDB_TYPES = {
    "smallint": "SMALLINT", "integer": "INTEGER", "bigint": "BIGINT", "real": "REAL",
    "double precision": "DOUBLE", "boolean": "BOOLEAN", "text": "VARCHAR", "date": "DATE",
    "timestamp": "TIMESTAMP", "timestamptz": "TIMESTAMPTZ", "time": "TIME", "interval": "INTERVAL",
    "bytea": "BLOB", "json": "VARCHAR", "jsonb": "VARCHAR", "uuid": "UUID",
}


@dataclass
class Result:
    tag: str
    columns: list[tuple[str, str]] = field(default_factory=list)  # (name, SQL type)
    rows: list[tuple] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def duckdb_type(sql_type: str) -> str:
    if sql_type in DUCKDB_TYPES:
        return DUCKDB_TYPES[sql_type]
    if sql_type.startswith("numeric"):
        return "DECIMAL" + sql_type[len("numeric"):] if "(" in sql_type else "DECIMAL(38,10)"
    if sql_type.startswith(("varchar", "char")):
        return "VARCHAR"
    raise SqlError(UNDEFINED_OBJECT, f'type "{sql_type}" does not exist')


def to_duckdb(node: ast.Node) -> str:
    """PostgreSQL SQL for ``node`` rewritten for DuckDB."""
    pg_sql = RawStream()(node)
    try:
        return sqlglot.transpile(pg_sql, read="postgres", write="duckdb")[0]
    except sqlglot.errors.SqlglotError as e:
        raise not_supported(f"query construct ({e})") from None


class Session:
    def __init__(self, db):
        self.db = db
        self.settings = dict(DEFAULT_SETTINGS)

    async def execute(self, sql: str, params: list | None = None) -> list[Result]:
        statements = p.parse(sql)
        return [await self._run(s, params) for s in statements]

    async def _run(self, stmt: p.Statement, params: list | None) -> Result:
        try:
            if stmt.kind == p.READ:
                return await self._select(stmt, params)
            if stmt.kind == p.WRITE:
                return await self._insert(stmt.node, params)
            if stmt.kind == p.DDL:
                if isinstance(stmt.node, ast.CreateStmt):
                    return await self._create_table(stmt.node)
                return await self._drop(stmt.node)
            if stmt.kind == p.SESSION:
                return self._session_statement(stmt.node)
            raise not_supported("explicit transactions (BEGIN/COMMIT/ROLLBACK)")
        except EngineError as e:
            raise SqlError(e.sqlstate, e.message) from None

    # -- reads ----------------------------------------------------------------

    async def _tables_at(self, node: ast.Node, ts: int) -> tuple[Catalog, dict[str, pa.Table]]:
        catalog = await self.db.catalog_at(ts)
        tables = {}
        for name in p.table_refs(node):
            table = catalog.table(name)
            tables[name] = await self.db.txns.read(table.shard, ts)
        return catalog, tables

    async def _select(self, stmt: p.Statement, params: list | None) -> Result:
        ts = await self.db.oracle.read_ts()
        _catalog, tables = await self._tables_at(stmt.node, ts)
        out = await self.db.engine.run(to_duckdb(stmt.node), tables, params)
        return Result(f"SELECT {out.num_rows}", _columns(out), [tuple(r.values()) for r in out.to_pylist()])

    # -- writes ---------------------------------------------------------------

    async def _insert(self, node: ast.InsertStmt, params: list | None) -> Result:
        if node.onConflictClause is not None:
            raise not_supported("INSERT ... ON CONFLICT")
        if getattr(node, "returningClause", None) is not None or getattr(node, "returningList", None):
            raise not_supported("INSERT ... RETURNING")
        if node.withClause is not None:
            raise not_supported("WITH ... INSERT")
        name = node.relation.relname
        ts = await self.db.oracle.read_ts()
        table = (await self.db.catalog_at(ts)).table(name)
        targets = [c.name for c in node.cols] if node.cols else [c.name for c in table.columns]
        for t in targets:
            table.column(t)
        if len(set(targets)) != len(targets):
            raise SqlError(DUPLICATE_COLUMN, "column specified more than once")

        async def rows_at(read_ts: int) -> pa.Table:
            _c, sources = await self._tables_at(node.selectStmt, read_ts)
            select = []
            for i, col in enumerate(table.columns):
                if col.name in targets:
                    expr = f'src."c{targets.index(col.name)}"'
                elif col.default is not None:
                    expr = sqlglot.transpile(col.default, read="postgres", write="duckdb")[0]
                else:
                    expr = "NULL"
                select.append(f'CAST({expr} AS {duckdb_type(col.type)}) AS "{col.name}"')
            names = ", ".join(f'"c{i}"' for i in range(len(targets)))
            query = f"SELECT {', '.join(select)} FROM ({to_duckdb(node.selectStmt)}) AS src({names})"
            out = await self.db.engine.run(query, sources, params)
            return _conform(out, table)

        if not table.primary_key:
            new = await rows_at(ts)
            txn = self.db.txns.begin()
            await txn.write(table.shard, new)
            await self.db.group.commit(txn)
            return Result(f"INSERT 0 {new.num_rows}")

        count = 0

        async def compute(read_ts: int):
            nonlocal count
            new = await rows_at(read_ts)
            existing = await self.db.txns.read(table.shard, read_ts)
            _check_unique(table, existing, new)
            count = new.num_rows
            txn = self.db.txns.begin()
            await txn.write(table.shard, new)
            return txn

        await read_then_write(self.db.txns, self.db.oracle, [table.shard, CATALOG_SHARD], compute)
        return Result(f"INSERT 0 {count}")

    # -- DDL ------------------------------------------------------------------

    async def _create_table(self, node: ast.CreateStmt) -> Result:
        if node.relation.relpersistence == "t":
            raise not_supported("temporary tables")
        name = node.relation.relname
        columns, pk = [], []
        for elt in node.tableElts or ():
            if isinstance(elt, ast.ColumnDef):
                not_null, default = False, None
                for c in elt.constraints or ():
                    kind = c.contype.name
                    if kind == "CONSTR_NOTNULL":
                        not_null = True
                    elif kind == "CONSTR_NULL":
                        not_null = False
                    elif kind == "CONSTR_DEFAULT":
                        default = RawStream()(c.raw_expr)
                    elif kind == "CONSTR_PRIMARY":
                        pk.append(elt.colname)
                        not_null = True
                    else:
                        raise not_supported(f"column constraint {kind.removeprefix('CONSTR_')}")
                columns.append(Column(elt.colname, canonical(elt.typeName), not_null, default))
            elif isinstance(elt, ast.Constraint) and elt.contype.name == "CONSTR_PRIMARY":
                pk.extend(k.sval for k in elt.keys)
            else:
                raise not_supported("table constraint")
        names = [c.name for c in columns]
        for n in names:
            if names.count(n) > 1:
                raise SqlError(DUPLICATE_COLUMN, f'column "{n}" specified more than once')
        if len(set(pk)) != len(pk) or any(k not in names for k in pk):
            raise SqlError(SYNTAX_ERROR, "invalid PRIMARY KEY")
        columns = [Column(c.name, c.type, c.not_null or c.name in pk, c.default) for c in columns]
        table = Table(name, f"t-{uuid.uuid4().hex[:16]}", tuple(columns), tuple(pk))
        try:
            schema = table.schema
        except SchemaError as e:
            raise SqlError(UNDEFINED_OBJECT, str(e)) from None
        # The shard exists and is registered before the catalog names it.
        await self.db.client.create_shard(table.shard, schema)
        await self.db.txns.register(table.shard, 0)
        exists = False

        async def compute(read_ts: int):
            nonlocal exists
            catalog = await self.db.catalog_at(read_ts)
            exists = name in catalog.tables
            txn = self.db.txns.begin()
            if not exists:
                await txn.write(CATALOG_SHARD, catalog_rows(table))
            return txn

        await read_then_write(self.db.txns, self.db.oracle, [CATALOG_SHARD], compute)
        if exists:
            await self.db.txns.forget(table.shard, 0)
            if node.if_not_exists:
                return Result("CREATE TABLE", notices=[f'relation "{name}" already exists, skipping'])
            raise SqlError(DUPLICATE_TABLE, f'relation "{name}" already exists')
        return Result("CREATE TABLE")

    async def _drop(self, node: ast.DropStmt) -> Result:
        if node.removeType.name != "OBJECT_TABLE":
            raise not_supported(f"DROP {node.removeType.name.removeprefix('OBJECT_')}")
        names = [[n.sval for n in obj][-1] for obj in node.objects]
        dropped: list[Table] = []
        notices: list[str] = []

        async def compute(read_ts: int):
            catalog = await self.db.catalog_at(read_ts)
            dropped.clear()
            notices.clear()
            txn = self.db.txns.begin()
            for n in names:
                if n not in catalog.tables:
                    if node.missing_ok:
                        notices.append(f'table "{n}" does not exist, skipping')
                        continue
                    catalog.table(n)  # raises 42P01
                dropped.append(catalog.tables[n])
            if dropped:
                await txn.write(CATALOG_SHARD, catalog_rows(*dropped), diff=-1)
            return txn

        await read_then_write(self.db.txns, self.db.oracle, [CATALOG_SHARD], compute)
        for t in dropped:
            await self.db.txns.forget(t.shard, 0)
        return Result("DROP TABLE", notices=notices)

    # -- session statements -----------------------------------------------------

    def _session_statement(self, node: ast.Node) -> Result:
        if isinstance(node, ast.VariableShowStmt):
            name = node.name.lower()
            if name == "all":
                return Result("SHOW", [("name", "text"), ("setting", "text")], sorted(self.settings.items()))
            if name == "transaction isolation level":
                name = "transaction_isolation"
            if name not in self.settings:
                raise SqlError(UNDEFINED_OBJECT, f'unrecognized configuration parameter "{node.name}"')
            return Result("SHOW", [(name, "text")], [(self.settings[name],)])
        kind = node.kind.name
        name = (node.name or "").lower()
        if kind in ("VAR_RESET", "VAR_SET_DEFAULT"):
            if name in DEFAULT_SETTINGS:
                self.settings[name] = DEFAULT_SETTINGS[name]
            return Result("RESET" if kind == "VAR_RESET" else "SET")
        if kind == "VAR_RESET_ALL":
            self.settings = dict(DEFAULT_SETTINGS)
            return Result("RESET")
        if kind != "VAR_SET_VALUE":
            raise not_supported(f"SET form {kind}")
        values = []
        for a in node.args or ():
            v = a.val if isinstance(a, ast.A_Const) else None
            if v is None:
                raise not_supported("SET to an expression")
            values.append(str(getattr(v, "sval", None) or getattr(v, "ival", None) or getattr(v, "fval", None) or getattr(v, "boolval", "")))
        self.settings[name] = ", ".join(values)
        return Result("SET")


def _columns(table: pa.Table) -> list[tuple[str, str]]:
    return [(f.name, of_arrow(f)) for f in table.schema]


def _conform(out: pa.Table, table: Table) -> pa.Table:
    for col in table.columns:
        if col.not_null and out.column(col.name).null_count:
            raise SqlError(
                NOT_NULL_VIOLATION,
                f'null value in column "{col.name}" of relation "{table.name}" violates not-null constraint',
            )
    cols = []
    for f in table.schema:
        c = out.column(f.name)
        if f.type.equals(pa.binary(16)) and pa.types.is_string(c.type):
            c = pa.array([None if v is None else uuid.UUID(v).bytes for v in c.to_pylist()], pa.binary(16))
        cols.append(c)
    try:
        return pa.Table.from_arrays([c.cast(f.type) for c, f in zip(cols, table.schema)], schema=table.schema)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        raise SqlError("22P02", str(e)) from None


def _check_unique(table: Table, existing: pa.Table, new: pa.Table) -> None:
    keys = list(table.primary_key)
    seen = {tuple(r[k] for k in keys) for r in existing.select(keys).to_pylist()}
    for r in new.select(keys).to_pylist():
        key = tuple(r[k] for k in keys)
        if key in seen:
            shown = ", ".join(str(v) for v in key)
            raise SqlError(
                UNIQUE_VIOLATION,
                f'duplicate key value violates unique constraint "{table.name}_pkey"',
                detail=f"Key ({', '.join(keys)})=({shown}) already exists.",
            )
        seen.add(key)
