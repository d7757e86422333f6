"""Sessions: ``Session.execute(sql, params)`` runs a query string and
returns one ``Result`` per statement (columns with SQL types, rows, command
tag), or raises ``SqlError``.

Statement classes and their timestamps (DESIGN.md "Transactions"):

* SELECT: one ``read_ts`` from the oracle; the catalog and every table read
  at it; the query runs on DuckDB over Arrow snapshots.
* INSERT into a table without a primary key: write-only, through group
  commit at a ``write_ts``. With a primary key: read-then-write at
  ``(read_ts, read_ts + 1)`` so uniqueness holds under concurrency (23505).
* UPDATE, DELETE: read-then-write: the rows matched at ``read_ts`` are
  retracted (and, for UPDATE, re-inserted changed) at ``read_ts + 1``.
* CREATE/DROP TABLE: read-then-write on the catalog shard.
* SET/SHOW/RESET: session settings.

Explicit transactions (BEGIN ... COMMIT): every read is at the transaction's
one ``read_ts`` and sees the transaction's own earlier writes; writes are
buffered in one txn (spilled to batches past a size) and committed at
COMMIT. A transaction that only wrote commits at a fresh ``write_ts``; one
that read commits at ``read_ts + 1``, moved later only if nothing it read
was written in between, else COMMIT fails with 40001 and nothing is
written. That is serializable (the write-skew of seed 001 is refused). An
error puts the transaction in the aborted state: 25P02 until ROLLBACK or
COMMIT (which rolls back). READ ONLY transactions refuse writes (25006).

Not built yet (issue: SQL planner): implicit transactions of multi-statement
strings (each statement commits on its own), SAVEPOINT, DDL inside a
transaction, COPY, ON CONFLICT, RETURNING, EXPLAIN, views. They are refused
with SQLSTATE 0A000 naming the feature.
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
    IN_FAILED_SQL_TRANSACTION,
    NOT_NULL_VIOLATION,
    READ_ONLY_TRANSACTION,
    SERIALIZATION_FAILURE,
    SYNTAX_ERROR,
    UNDEFINED_OBJECT,
    UNIQUE_VIOLATION,
    SqlError,
    not_supported,
)
from planner.sqltypes import canonical, of_arrow
from storage.persist import DIFF, SchemaError
from storage.persist.consolidate import collapse, expand
from storage.txns import Txn, read_then_write

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


@dataclass
class OpenTxn:
    """An explicit transaction: one read_ts, buffered writes, what it read."""

    read_only: bool
    txn: "Txn"
    read_ts: int | None = None
    reads: set[str] = field(default_factory=set)
    #: shard -> written rows with ``_diff``, so later statements see them
    pending: dict[str, list[pa.Table]] = field(default_factory=dict)
    failed: bool = False

    @property
    def wrote(self) -> bool:
        return bool(self.pending)


class Session:
    def __init__(self, db):
        self.db = db
        self.settings = dict(DEFAULT_SETTINGS)
        self.txn: OpenTxn | None = None

    @property
    def status(self) -> str:
        """ReadyForQuery status: I (idle), T (in a transaction), E (aborted)."""
        if self.txn is None:
            return "I"
        return "E" if self.txn.failed else "T"

    async def execute(self, sql: str, params: list | None = None) -> list[Result]:
        statements = p.parse(sql)
        return [await self._run(s, params) for s in statements]

    async def _run(self, stmt: p.Statement, params: list | None) -> Result:
        if self.txn is not None and self.txn.failed and not _ends_txn(stmt):
            raise SqlError(IN_FAILED_SQL_TRANSACTION, "current transaction is aborted, commands ignored until end of transaction block")
        try:
            if stmt.kind == p.TXN:
                return await self._transaction_statement(stmt.node)
            if stmt.kind == p.READ:
                return await self._select(stmt, params)
            if stmt.kind == p.WRITE:
                return await self._write(stmt.node, params)
            if stmt.kind == p.DDL:
                if self.txn is not None:
                    raise not_supported("DDL inside a transaction block")
                if isinstance(stmt.node, ast.CreateStmt):
                    return await self._create_table(stmt.node)
                return await self._drop(stmt.node)
            return self._session_statement(stmt.node)
        except EngineError as e:
            self._fail()
            raise SqlError(e.sqlstate, e.message) from None
        except SqlError:
            self._fail()
            raise

    def _fail(self) -> None:
        if self.txn is not None:
            self.txn.failed = True

    # -- transactions ---------------------------------------------------------------

    async def _transaction_statement(self, node: ast.TransactionStmt) -> Result:
        kind = node.kind.name
        if kind in ("TRANS_STMT_BEGIN", "TRANS_STMT_START"):
            tag = "BEGIN" if kind == "TRANS_STMT_BEGIN" else "START TRANSACTION"
            if self.txn is not None:
                return Result(tag, notices=["WARNING 25001: there is already a transaction in progress"])
            read_only = False
            for opt in node.options or ():
                if opt.defname == "transaction_read_only":
                    read_only = bool(opt.arg.val.ival)
            self.txn = OpenTxn(read_only, self.db.txns.begin())
            return Result(tag)
        if kind == "TRANS_STMT_COMMIT":
            if self.txn is None:
                return Result("COMMIT", notices=["WARNING 25P01: there is no transaction in progress"])
            open_txn, self.txn = self.txn, None
            if open_txn.failed:
                await open_txn.txn.abort()
                return Result("ROLLBACK")
            await self._commit(open_txn)
            return Result("COMMIT")
        if kind == "TRANS_STMT_ROLLBACK":
            if self.txn is None:
                return Result("ROLLBACK", notices=["WARNING 25P01: there is no transaction in progress"])
            open_txn, self.txn = self.txn, None
            await open_txn.txn.abort()
            return Result("ROLLBACK")
        raise not_supported(f"{kind.removeprefix('TRANS_STMT_')} (savepoints and two-phase commit)")

    async def _commit(self, t: OpenTxn) -> None:
        if not t.wrote:
            return
        if t.read_ts is None:
            await self.db.group.commit(t.txn)  # write-only
            return
        read_ts = t.read_ts
        while True:
            result = await t.txn.commit_at(read_ts + 1)
            if result.committed:
                await self.db.oracle.apply_write(result.ts)
                await t.txn.apply(result.ts)
                return
            new_read = result.upper - 1
            await self.db.txns.cache.update_to(result.upper)
            if any(self.db.txns.cache.changed_between(s, read_ts, new_read) for s in t.reads):
                await t.txn.abort()
                raise SqlError(
                    SERIALIZATION_FAILURE,
                    "could not serialize access due to read/write dependencies among transactions",
                    detail="Another transaction wrote to a table this transaction read, after it read it.",
                    hint="The transaction might succeed if retried.",
                )
            read_ts = new_read  # nothing we read changed: commit later instead

    async def _read_ts(self) -> int:
        if self.txn is None:
            return await self.db.oracle.read_ts()
        if self.txn.read_ts is None:
            self.txn.read_ts = await self.db.oracle.read_ts()
        return self.txn.read_ts

    # -- reads ----------------------------------------------------------------

    async def _contents(self, table: Table, ts: int) -> pa.Table:
        """``table`` at ``ts``, plus this transaction's own writes to it."""
        contents = await self.db.snapshots.read(table.shard, ts)
        if self.txn is not None:
            self.txn.reads.add(table.shard)
            pending = self.txn.pending.get(table.shard)
            if pending:
                rows = [_conform_diff(_with_diff(contents, 1), table)] + [_conform_diff(x, table) for x in pending]
                merged = collapse(pa.concat_tables(rows))
                contents = expand(merged)
        return contents

    async def _tables_at(self, node: ast.Node, ts: int) -> tuple[Catalog, dict[str, pa.Table]]:
        catalog = await self.db.catalog_at(ts)
        if self.txn is not None:
            self.txn.reads.add(CATALOG_SHARD)
        tables = {}
        for name in p.table_refs(node):
            tables[name] = await self._contents(catalog.table(name), ts)
        return catalog, tables

    async def _select(self, stmt: p.Statement, params: list | None) -> Result:
        ts = await self._read_ts()
        _catalog, tables = await self._tables_at(stmt.node, ts)
        out = await self.db.engine.run(to_duckdb(stmt.node), tables, params)
        names = p.result_names(stmt.node)
        if names is not None and len(names) == out.num_columns:
            out = out.rename_columns(names)
        return Result(f"SELECT {out.num_rows}", _columns(out), _rows(out))

    # -- writes ---------------------------------------------------------------

    async def _write(self, node: ast.Node, params: list | None) -> Result:
        """INSERT, UPDATE or DELETE, in a transaction or on its own."""
        if self.txn is not None:
            if self.txn.read_only:
                verb = {"InsertStmt": "INSERT", "UpdateStmt": "UPDATE", "DeleteStmt": "DELETE"}[type(node).__name__]
                raise SqlError(READ_ONLY_TRANSACTION, f"cannot execute {verb} in a read-only transaction")
            # Uniqueness checks and UPDATE/DELETE need the current contents:
            # keyed inserts and updates read, so the commit is checked.
            ts = await self._read_ts()
            changes, tag = await self._plan_write(node, ts, params)
            for table, rows in changes:
                self.txn.pending.setdefault(table.shard, []).append(rows)
                await self.txn.txn.write(table.shard, rows)
            return Result(tag)
        ts = await self.db.oracle.read_ts()
        catalog = await self.db.catalog_at(ts)
        table = catalog.table(node.relation.relname)
        if isinstance(node, ast.InsertStmt) and not table.primary_key and not p.table_refs(node.selectStmt):
            # Write-only: nothing to read, so any write_ts will do (group commit).
            changes, tag = await self._plan_write(node, ts, params)
            await self.db.group.commit(await self._txn_of(changes))
            return Result(tag)
        tag = ""
        sources = p.table_refs(getattr(node, "selectStmt", None) or node)
        inputs = [CATALOG_SHARD, table.shard] + [catalog.table(n).shard for n in sources if n != table.name]

        async def compute(read_ts: int):
            nonlocal tag
            changes, tag = await self._plan_write(node, read_ts, params)
            return await self._txn_of(changes)

        await read_then_write(self.db.txns, self.db.oracle, sorted(set(inputs)), compute)
        return Result(tag)

    async def _txn_of(self, changes: list[tuple[Table, pa.Table]]) -> Txn:
        txn = self.db.txns.begin()
        for table, rows in changes:
            await txn.write(table.shard, rows)
        return txn

    async def _plan_write(self, node: ast.Node, ts: int, params: list | None) -> tuple[list[tuple[Table, pa.Table]], str]:
        """The rows (with ``_diff``) a write statement adds or retracts at ``ts``."""
        if getattr(node, "returningClause", None) is not None or getattr(node, "returningList", None):
            raise not_supported("RETURNING")
        if getattr(node, "withClause", None) is not None:
            raise not_supported("WITH in INSERT/UPDATE/DELETE")
        table = (await self.db.catalog_at(ts)).table(node.relation.relname)
        if self.txn is not None:
            self.txn.reads.add(CATALOG_SHARD)
        if isinstance(node, ast.InsertStmt):
            return await self._plan_insert(node, table, ts, params)
        if getattr(node, "fromClause", None) or getattr(node, "usingClause", None):
            raise not_supported("UPDATE ... FROM / DELETE ... USING")
        current = await self._contents(table, ts)
        where = f" WHERE {RawStream()(node.whereClause)}" if node.whereClause is not None else ""
        cols = ", ".join(f'"{c.name}"' for c in table.columns)
        if isinstance(node, ast.DeleteStmt):
            old = await self._pg_query(f'SELECT {cols} FROM "{table.name}"{where}', {table.name: current}, params)
            return [(table, _with_diff(_conform(old, table), -1))], f"DELETE {old.num_rows}"
        sets = {}
        for target in node.targetList:
            if target.indirection:
                raise not_supported("UPDATE of array elements or fields")
            table.column(target.name)
            if target.name in sets:
                raise SqlError(DUPLICATE_COLUMN, f'multiple assignments to same column "{target.name}"')
            sets[target.name] = RawStream()(target.val)
        exprs = [f'{cols}'] + [f'{sets.get(c.name, chr(34) + c.name + chr(34))} AS "__new_{c.name}"' for c in table.columns]
        both = await self._pg_query(f'SELECT {", ".join(exprs)} FROM "{table.name}"{where}', {table.name: current}, params, casts=table)
        old = _conform(both.select([c.name for c in table.columns]), table)
        new = both.select([f"__new_{c.name}" for c in table.columns]).rename_columns([c.name for c in table.columns])
        new = _conform(new, table)
        if table.primary_key:
            rest = _subtract(current, old, table)
            _check_unique(table, rest, new)
        return [(table, _with_diff(old, -1)), (table, _with_diff(new, 1))], f"UPDATE {old.num_rows}"

    async def _pg_query(self, pg_sql: str, tables: dict[str, pa.Table], params, casts: Table | None = None) -> pa.Table:
        try:
            duck = sqlglot.transpile(pg_sql, read="postgres", write="duckdb")[0]
        except sqlglot.errors.SqlglotError as e:
            raise not_supported(f"query construct ({e})") from None
        if casts is not None:
            # Cast the new values to the column types, as PostgreSQL assigns them.
            names = [f"__new_{c.name}" for c in casts.columns]
            inner = duck
            outer = [f'"{c.name}"' for c in casts.columns] + [
                f'CAST("{n}" AS {duckdb_type(c.type)}) AS "{n}"' for n, c in zip(names, casts.columns)
            ]
            duck = f"SELECT {', '.join(outer)} FROM ({inner}) AS q"
        return await self.db.engine.run(duck, tables, params)

    async def _plan_insert(self, node: ast.InsertStmt, table: Table, ts: int, params) -> tuple[list, str]:
        if node.onConflictClause is not None:
            raise not_supported("INSERT ... ON CONFLICT")
        targets = [c.name for c in node.cols] if node.cols else [c.name for c in table.columns]
        for t in targets:
            table.column(t)
        if len(set(targets)) != len(targets):
            raise SqlError(DUPLICATE_COLUMN, "column specified more than once")
        _c, sources = await self._tables_at(node.selectStmt, ts)
        select = []
        for col in table.columns:
            if col.name in targets:
                expr = f'src."c{targets.index(col.name)}"'
            elif col.default is not None:
                expr = sqlglot.transpile(col.default, read="postgres", write="duckdb")[0]
            else:
                expr = "NULL"
            select.append(f'CAST({expr} AS {duckdb_type(col.type)}) AS "{col.name}"')
        names = ", ".join(f'"c{i}"' for i in range(len(targets)))
        query = f"SELECT {', '.join(select)} FROM ({to_duckdb(node.selectStmt)}) AS src({names})"
        new = _conform(await self.db.engine.run(query, sources, params), table)
        if table.primary_key:
            _check_unique(table, await self._contents(table, ts), new)
        return [(table, _with_diff(new, 1))], f"INSERT 0 {new.num_rows}"

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
            self.db.snapshots.forget(t.shard)
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


def _rows(table: pa.Table) -> list[tuple]:
    """Rows as tuples (by position: result column names may repeat)."""
    if table.num_columns == 0:
        return [()] * table.num_rows
    return list(zip(*(c.to_pylist() for c in table.columns)))


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


def _ends_txn(stmt: p.Statement) -> bool:
    return stmt.kind == p.TXN and stmt.node.kind.name in ("TRANS_STMT_COMMIT", "TRANS_STMT_ROLLBACK")


def _with_diff(rows: pa.Table, diff: int) -> pa.Table:
    return rows.append_column(pa.field(DIFF, pa.int64(), False), pa.repeat(pa.scalar(diff, pa.int64()), rows.num_rows))


def _conform_diff(rows: pa.Table, table: Table) -> pa.Table:
    users = rows.select([c.name for c in table.columns])
    return pa.Table.from_arrays(list(users.columns) + [rows.column(DIFF)], schema=pa.schema(list(table.schema) + [pa.field(DIFF, pa.int64(), False)]))


def _subtract(current: pa.Table, removed: pa.Table, table: Table) -> pa.Table:
    """``current`` minus the rows of ``removed`` (as multisets)."""
    both = pa.concat_tables([_with_diff(_conform(current, table), 1), _with_diff(removed, -1)])
    return expand(collapse(both))


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
