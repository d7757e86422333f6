"""DDL: schemas, tables, views, materialized views, sequences and enum
types, as catalog writes in a ``Work``.

Each statement reads the catalog at the work's ``read_ts`` (plus the work's
own earlier DDL) and writes catalog rows, so it commits atomically with the
rest of its transaction and two sessions racing on a name cannot both win
(the loser recomputes, or gets 40001 in an explicit transaction).

A new table's shard is created and registered in the txns set before the
catalog row naming it can commit; if the work aborts the shard is forgotten.
A dropped table's shard is forgotten once the work commits. Changing a
table's columns (ALTER TABLE ADD/DROP/RENAME COLUMN) writes its rows to a new
shard with the new schema at the same commit and drops the old one, so
readers at any timestamp see one consistent shape. ``memo`` keeps shards
created by one statement across recomputes of that statement.

A generated column's expression is checked as PostgreSQL checks it (it
reads only columns that are not generated: 42P17) and computed for the rows
a table has when the column is added; DML computes it for every row it
writes (``Dml.generated_values``). An enum type may not be dropped while a
column is of it (2BP01).
"""

from __future__ import annotations

import copy
import uuid
from dataclasses import replace

import pglast
import pyarrow as pa
import pyarrow.compute as pc
from pglast import ast
from pglast.enums import ConstrType, OnCommitAction

from planner import grants
from planner import parse as p
from planner.bind import pg_sql, quoted, result_types, scoped_column_types, transpile
from planner.catalog import (
    CATALOG_SHARD, IDENTITY, IDENTITY_ALWAYS, SEQUENCED, SERIAL, TEMP_SCHEMA_PREFIX, Catalog, Column, ForeignKey, Function, Relation,
    CompositeType, DomainType, EnumType, catalog_rows, function_rows, schema_rows, sequence_rows, type_rows, unique_slot,
)
from planner import sequences
from planner import functions
from planner.dml import Dml, conform
from planner.errors import (
    CHECK_VIOLATION,
    DATATYPE_MISMATCH,
    DEPENDENT_OBJECTS_STILL_EXIST,
    DUPLICATE_COLUMN,
    DUPLICATE_OBJECT,
    DUPLICATE_SCHEMA,
    DUPLICATE_TABLE,
    INVALID_PARAMETER_VALUE,
    INVALID_SCHEMA_NAME,
    NOT_NULL_VIOLATION,
    SYNTAX_ERROR,
    UNDEFINED_OBJECT,
    UNDEFINED_TABLE,
    UNIQUE_VIOLATION,
    WRONG_OBJECT_TYPE,
    SqlError,
    not_supported,
)
from planner.result import Result
from planner.pgcatalog import DATABASE
from values import format_value, of_arrow
from planner.sqltypes import (INTEGER_RANGES, SERIALS, canonical, domain_named, enum_type, fraction_precision, is_composite, is_enum, type_name,
                              typed_literal)
from storage.persist import SchemaError

KIND_WORDS = {"table": "table", "view": "view", "matview": "materialized view"}
OBJECT_KINDS = {"OBJECT_TABLE": "table", "OBJECT_VIEW": "view", "OBJECT_MATVIEW": "matview"}


#: ALTER TABLE actions on how PostgreSQL stores a table, which txngate's
#: storage has no counterpart of (storage parameters as in CREATE TABLE's
#: WITH, a column's statistics target, storage or compression, logging,
#: clustering): accepted, as CREATE TABLE's WITH is, and nothing changes
_PHYSICAL_ONLY = frozenset({
    "AT_SetRelOptions", "AT_ResetRelOptions", "AT_SetStatistics", "AT_SetStorage", "AT_SetCompression",
    "AT_SetLogged", "AT_SetUnLogged", "AT_ClusterOn", "AT_DropCluster",
})


class Ddl(Dml):
    def __init__(self, *args, memo: dict, temp=None, user: str = "txngate", on_commit: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.memo = memo
        self.temp = temp  # () -> the session's temporary schema (named on first use)
        self.user = user  # the session's role (planner.grants: the one there is)
        #: the session's temporary tables with an ON COMMIT action: OID -> "drop" / "delete"
        self.on_commit_actions = on_commit if on_commit is not None else {}

    @property
    def db(self):
        return self.work.db

    async def _write_catalog(self, rows: pa.Table, diff: int) -> None:
        await self.work.write(CATALOG_SHARD, rows, diff)

    async def _schema_for(self, rv: ast.RangeVar, catalog: Catalog) -> str:
        """The schema a new relation ``rv`` goes to; a temporary one goes to
        the session's temporary schema, created with its first table."""
        if rv.relpersistence != "t":
            return self._schema_of(rv, catalog)
        if self.temp is None or rv.schemaname not in (None, "pg_temp"):
            raise SqlError("42P16", "cannot create temporary relation in non-temporary schema")
        schema = self.temp()
        if not catalog.has_schema(schema):
            await self._write_catalog(schema_rows(schema), 1)
        return schema

    def _schema_of(self, rv: ast.RangeVar, catalog: Catalog) -> str:
        schema = rv.schemaname or next((s for s in self.search_path if not s.startswith(TEMP_SCHEMA_PREFIX) and catalog.has_schema(s)), "public")
        if not catalog.has_schema(schema):
            raise SqlError(INVALID_SCHEMA_NAME, f'schema "{schema}" does not exist')
        if schema in ("pg_catalog", "information_schema"):
            raise SqlError("42501", f"permission denied to create \"{schema}.{rv.relname}\"")
        return schema

    async def _new_shard(self, key: str, schema: pa.Schema) -> str:
        """A shard for ``key``, created and registered once per statement."""
        shard = self.memo.get(key)
        if shard is None:
            shard = f"t-{uuid.uuid4().hex[:16]}"
            try:
                await self.db.client.create_shard(shard, schema)
            except SchemaError as e:
                raise SqlError(UNDEFINED_OBJECT, str(e)) from None
            await self.db.txns.register(shard, 0)
            self.memo[key] = shard
            self.work.created.append(shard)
        elif shard not in self.work.created:
            self.work.created.append(shard)
        return shard

    async def _exists(self, catalog: Catalog, schema: str, name: str, if_not_exists: bool) -> Result | None:
        if catalog.type_named(name, schema) is not None:  # (a relation's row type would take the enum's name)
            raise SqlError(DUPLICATE_OBJECT, f'type "{name}" already exists')
        if not catalog.taken(name, schema):
            return None
        if if_not_exists:
            return Result("CREATE", notices=[f'NOTICE 42P07: relation "{name}" already exists, skipping'])
        raise SqlError(DUPLICATE_TABLE, f'relation "{name}" already exists')

    # -- schemas ---------------------------------------------------------------

    async def create_schema(self, node: ast.CreateSchemaStmt) -> Result:
        if node.schemaElts:
            raise not_supported("CREATE SCHEMA with elements")
        catalog = await self.work.catalog()
        if catalog.has_schema(node.schemaname):
            if node.if_not_exists:
                return Result("CREATE SCHEMA", notices=[f'NOTICE 42P06: schema "{node.schemaname}" already exists, skipping'])
            raise SqlError(DUPLICATE_SCHEMA, f'schema "{node.schemaname}" already exists')
        await self._write_catalog(schema_rows(node.schemaname), 1)
        return Result("CREATE SCHEMA")

    # -- tables ----------------------------------------------------------------

    async def create_table(self, node: ast.CreateStmt) -> Result:
        if node.inhRelations or node.partspec or node.ofTypename:
            raise not_supported("table inheritance, partitioning and typed tables")
        action = _on_commit(node.oncommit, node.relation)
        catalog = await self.work.catalog()
        schema = await self._schema_for(node.relation, catalog)
        name = node.relation.relname
        exists = await self._exists(catalog, schema, name, node.if_not_exists)
        if exists is not None:
            exists.tag = "CREATE TABLE"
            return exists
        columns, constraints, starts = [], [], {}
        for elt in node.tableElts or ():
            if isinstance(elt, ast.ColumnDef):
                column, others, starts[elt.colname] = _column(elt)
                columns.append(column)
                constraints += [(c, elt.colname) for c in others]
            elif isinstance(elt, ast.Constraint):
                constraints.append((elt, None))
            else:
                raise not_supported("LIKE in CREATE TABLE")
        names = [c.name for c in columns]
        for n in names:
            if names.count(n) > 1:
                raise SqlError(DUPLICATE_COLUMN, f'column "{n}" specified more than once')
        rel = Relation(name, schema, "table", tuple(columns), oid=catalog.new_oid())
        await self._check_generated(rel)
        empty = rel.schema_arrow.empty_table()
        for c, column in constraints:
            if c.contype.name not in ("CONSTR_PRIMARY", "CONSTR_UNIQUE", "CONSTR_CHECK", "CONSTR_FOREIGN"):
                raise not_supported(f"{'column' if column else 'table'} constraint {c.contype.name.removeprefix('CONSTR_')}")
            for k in c.keys or ():
                if k.sval not in names:
                    raise SqlError("42703", f'column "{k.sval}" named in key does not exist')
            rel = await self._add_constraint(catalog, rel, empty, c, column)
        shard = await self._new_shard(f"create:{schema}.{name}", rel.schema_arrow)
        for c in rel.columns:
            if c.sequenced:
                await self.db.sequences.restart(rel.sequence(c.name), starts[c.name])
        await self._write_catalog(catalog_rows(rel.with_(shard=shard)), 1)
        if action is not None:
            self.on_commit_actions[rel.oid] = action
        return Result("CREATE TABLE")

    async def on_commit(self) -> None:
        """The ON COMMIT actions of the session's temporary tables, as the
        work is about to commit: DROP drops a table the work made (and the
        views on it), DELETE ROWS empties one it wrote."""
        catalog = await self.work.catalog()
        for oid, action in list(self.on_commit_actions.items()):
            rel = catalog.by_oid(oid)
            if rel is None:  # dropped, or made by a transaction that rolled back
                del self.on_commit_actions[oid]
            elif action == "drop" and rel.shard in self.work.created:
                dropping = self._with_dependents(catalog, [rel], True, [])
                await self._drop_foreign_keys(catalog, dropping, True, [])
                await self._drop_relations(dropping)
                del self.on_commit_actions[oid]
            elif action == "delete" and self.work.pending.get(rel.shard):
                await self.work.write(rel.shard, await self.work.contents(rel), -1)

    def _declared_types(self, query: ast.Node, catalog: Catalog, width: int) -> list[str | None]:
        """Per output of ``query``, the type its column is declared with where the
        engine's (text) would lose it: json, jsonb, char(n), varchar(n). None for
        the others, and for a character or varchar without a length (stored as
        text, as txngate declares an unconstrained varchar)."""
        kinds = result_types(query, lambda: scoped_column_types(query, catalog, self.search_path), computed_only=False)
        kinds = kinds if kinds and len(kinds) == width else [None] * width
        return [None if k in ("char", "varchar") else k for k in kinds]

    async def create_table_as(self, node: ast.CreateTableAsStmt) -> Result:
        kind = "matview" if node.objtype.name == "OBJECT_MATVIEW" else "table"
        into = node.into
        action = _on_commit(into.onCommit, into.rel)
        if into.rel.relpersistence == "t" and kind == "matview":
            raise SqlError(SYNTAX_ERROR, "materialized views cannot be temporary")
        catalog = await self.work.catalog()
        schema = await self._schema_for(into.rel, catalog)
        name = into.rel.relname
        exists = await self._exists(catalog, schema, name, node.if_not_exists)
        tag = "CREATE MATERIALIZED VIEW" if kind == "matview" else "SELECT 0"
        if exists is not None:
            exists.tag = tag
            return exists
        spark = None
        if not into.skipData and not self.work.explicit and self.work.db.spark is not None:
            shape = await self.spark_shape(node.query)
            spark = shape.empty_table() if shape is not None else None
        out = spark if spark is not None else await self.select(node.query)
        names = _column_names(node.query, out, [c.sval for c in into.colNames or ()], "too many column names were specified")
        out = out.rename_columns(names)
        kinds = self._declared_types(node.query, catalog, len(names))
        columns = tuple(Column(n, k or of_arrow(f)) for n, f, k in zip(names, out.schema, kinds))
        for n in names:
            if names.count(n) > 1:
                raise SqlError(DUPLICATE_COLUMN, f'column "{n}" specified more than once')
        for c in columns:
            if c.type.removesuffix("[]") == "record":
                raise SqlError("42P16", f'column "{c.name}" has pseudo-type {c.type}')
        rel = Relation(name, schema, kind, columns, query=pg_sql(node.query) if kind == "matview" else None, oid=catalog.new_oid())
        shard = await self._new_shard(f"create:{schema}.{name}", rel.schema_arrow)
        rel = rel.with_(shard=shard)
        await self._write_catalog(catalog_rows(rel), 1)
        if action is not None:
            self.on_commit_actions[rel.oid] = action
        if spark is not None:
            query = pglast.parse_sql(f"SELECT * FROM ({pg_sql(node.query)}) AS q")[0].stmt
            written = await self.spark_write(query, rel)
            if written is not None:
                return Result(f"SELECT {written}")
            out = await self.select(node.query)  # Spark fell back to local
        rows = conform(out.rename_columns(names), rel) if not into.skipData else rel.schema_arrow.empty_table()
        await self.work.write(shard, rows, 1)
        return Result(tag if kind == "matview" and into.skipData else f"SELECT {rows.num_rows}")  # PostgreSQL's tags

    async def refresh(self, node: ast.RefreshMatViewStmt) -> Result:
        catalog = await self.work.catalog()
        rel = catalog.relation(node.relation.relname, node.relation.schemaname, self.search_path)
        if rel.kind != "matview":
            raise SqlError(WRONG_OBJECT_TYPE, f'"{rel.name}" is not a materialized view')
        if not node.skipData and not self.work.explicit and self.work.db.spark is not None:
            # Retract the old contents and add the new in one Spark job.
            name = f"{quoted(rel.schema)}.{quoted(rel.name)}"
            query = pglast.parse_sql(f"SELECT *, -1 AS _diff FROM {name} UNION ALL SELECT *, 1 AS _diff FROM ({rel.query}) AS q")[0].stmt
            if await self.spark_write(query, rel) is not None:
                return Result("REFRESH MATERIALIZED VIEW")
        if node.concurrent and not any(unique for _n, _c, unique, _p in rel.all_indexes):
            raise SqlError("55000", f'cannot refresh materialized view "{rel.schema}.{rel.name}" concurrently',
                           hint="Create a unique index with no WHERE clause on one or more columns of the materialized view.")
        new = conform(await self.select(pglast.parse_sql(rel.query)[0].stmt), rel) if not node.skipData else rel.schema_arrow.empty_table()
        for name, cols, unique, _primary in rel.all_indexes:
            if unique:
                _refuse_duplicates(rel, name, cols, new)
        await self.work.write(rel.shard, await self.work.contents(rel), -1)
        await self.work.write(rel.shard, new, 1)
        return Result("REFRESH MATERIALIZED VIEW")

    # -- views -----------------------------------------------------------------

    async def create_view(self, node: ast.ViewStmt) -> Result:
        """CREATE [OR REPLACE] [TEMPORARY] VIEW; a view that reads a
        temporary table is temporary (as PostgreSQL makes it, with a notice)."""
        catalog = await self.work.catalog()
        notices = []
        if node.view.relpersistence != "t" and node.view.schemaname is None and self._reads_temporary(node.query, catalog):
            node = copy.copy(node)
            node.view = copy.copy(node.view)
            node.view.relpersistence = "t"
            notices.append(f'NOTICE 00000: view "{node.view.relname}" will be a temporary view')
        schema = await self._schema_for(node.view, catalog)
        name = node.view.relname
        old = catalog.lookup(name, schema)
        if old is not None and not (node.replace and old.kind == "view") or old is None and catalog.taken(name, schema):
            raise SqlError(DUPLICATE_TABLE, f'relation "{name}" already exists')
        if old is None and catalog.type_named(name, schema) is not None:
            raise SqlError(DUPLICATE_OBJECT, f'type "{name}" already exists')
        # The view's shape: its query with no rows.
        probe = pglast.parse_sql(f"SELECT * FROM ({pg_sql(node.query)}) AS v LIMIT 0")[0].stmt
        out = await self.select(probe)
        names = _column_names(node.query, out, [a.sval for a in node.aliases or ()], "CREATE VIEW specifies more column names than columns")
        query = pg_sql(node.query)
        if node.aliases or names != out.column_names:
            cols = ", ".join(quoted(n) for n in names)
            query = f"SELECT * FROM ({query}) AS {quoted(name)}({cols})"
        kinds = self._declared_types(node.query, catalog, len(names))
        columns = tuple(Column(n, k or of_arrow(f)) for n, f, k in zip(names, out.schema, kinds))
        rel = Relation(name, schema, "view", columns, query=query, oid=old.oid if old is not None else catalog.new_oid())
        if old is not None:
            await self._write_catalog(catalog_rows(old), -1)
        await self._write_catalog(catalog_rows(rel), 1)
        return Result("CREATE VIEW", notices=notices)

    async def create_function(self, node: ast.CreateFunctionStmt) -> Result:
        """CREATE [OR REPLACE] FUNCTION ... LANGUAGE sql (planner.functions):
        its body is bound once with NULL arguments, so the names it reads
        must exist, as PostgreSQL checks them."""
        catalog = await self.work.catalog()
        names = [n.sval for n in node.funcname]
        schema = self._schema_of(ast.RangeVar(relname=names[-1], schemaname=names[-2] if len(names) > 1 else None), catalog)
        fn = functions.definition(node, schema, 0)
        old = next((f for f in catalog.functions_named(fn.name, schema) if f.arg_types == fn.arg_types), None)
        if old is not None and not node.replace:
            raise SqlError("42723", f'function "{fn.name}" already exists with same argument types')
        if old is not None and (old.returns, old.setof, old.columns) != (fn.returns, fn.setof, fn.columns):
            raise SqlError("42P13", "cannot change return type of existing function",
                           hint=f"Use DROP FUNCTION {fn.name}({', '.join(fn.arg_types)}) first.")
        fn = replace(fn, oid=old.oid if old is not None else catalog.new_oid())
        probe = functions.check_body(fn, catalog, self.search_path)
        out = await self.select(probe)
        wanted = len(fn.columns) or 1
        if fn.returns != "void" and out.num_columns != wanted:
            raise SqlError("42P13", f"return type mismatch in function declared to return {fn.returns}",
                           detail=f"Final statement must return exactly {wanted} column{'s' if wanted > 1 else ''}.")
        if old is not None:
            await self._write_catalog(function_rows(old), -1)
        await self._write_catalog(function_rows(fn), 1)
        return Result("CREATE FUNCTION")

    async def _drop_functions(self, node: ast.DropStmt, catalog: Catalog) -> Result:
        """DROP FUNCTION name[(types)], ... [IF EXISTS]."""
        notices, dropping = [], []
        for obj in node.objects:
            parts = [n.sval for n in obj.objname]
            name, schema = parts[-1], (parts[-2] if len(parts) > 1 else None)
            found = catalog.functions_named(name, schema, self.search_path)
            if not obj.args_unspecified:
                types = tuple(canonical(t, array_ok=True) for t in obj.objargs or ())
                found = tuple(f for f in found if f.arg_types == types)
            shown = f"{name}({', '.join(canonical(t, array_ok=True) for t in obj.objargs or ())})" if not obj.args_unspecified else name
            if not found:
                if node.missing_ok:
                    notices.append(f"NOTICE 00000: function {shown} does not exist, skipping")
                    continue
                raise SqlError("42883", f"function {shown} does not exist")
            if len(found) > 1:
                raise SqlError("42725", f'function name "{name}" is not unique', hint="Specify the argument list to select the function unambiguously.")
            dropping.append(found[0])
        if dropping:
            await self._write_catalog(function_rows(*dropping), -1)
        return Result("DROP FUNCTION", notices=notices)

    def _reads_temporary(self, query: ast.Node, catalog: Catalog) -> bool:
        """Whether ``query`` reads a temporary table (or view)."""
        for name in p.table_refs(query):
            rel = catalog.lookup(name, None, self.search_path)
            if rel is not None and rel.schema.startswith(TEMP_SCHEMA_PREFIX):
                return True
        return False

    # -- sequences -------------------------------------------------------------

    async def create_sequence(self, node: ast.CreateSeqStmt) -> Result:
        """CREATE SEQUENCE [IF NOT EXISTS] name [options] (planner.sequences.defined)."""
        if node.sequence.relpersistence == "t":
            raise not_supported("temporary sequences")
        catalog = await self.work.catalog()
        schema = self._schema_of(node.sequence, catalog)
        name = node.sequence.relname
        exists = await self._exists(catalog, schema, name, node.if_not_exists)
        if exists is not None:
            exists.tag = "CREATE SEQUENCE"
            return exists
        seq, _again = sequences.defined(name, schema, node.options, oid=catalog.new_oid(), owner=self._owner(catalog, node.options, None))
        await self.db.sequences.restart(seq.key, seq.start - seq.increment)
        await self._write_catalog(sequence_rows(seq), 1)
        return Result("CREATE SEQUENCE")

    async def alter_sequence(self, node: ast.AlterSeqStmt) -> Result:
        """ALTER SEQUENCE [IF EXISTS] name [options] [RESTART [WITH n]]."""
        catalog = await self.work.catalog()
        rv = node.sequence
        old = catalog.sequence(rv.relname, rv.schemaname, self.search_path)
        if old is None:
            if catalog.lookup(rv.relname, rv.schemaname, self.search_path) is not None:
                raise SqlError(WRONG_OBJECT_TYPE, f'"{rv.relname}" is not a sequence')
            if node.missing_ok:
                return Result("ALTER SEQUENCE", notices=[f'NOTICE 00000: relation "{rv.relname}" does not exist, skipping'])
            raise SqlError(UNDEFINED_TABLE, f'relation "{rv.relname}" does not exist')
        seq, again = sequences.defined(old.name, old.schema, node.options, old)
        seq = replace(seq, owner=self._owner(catalog, node.options, old.owner))
        if again is not None:
            await self.db.sequences.restart(seq.key, again - seq.increment)
        if seq != old:
            await self._write_catalog(sequence_rows(old), -1)
            await self._write_catalog(sequence_rows(seq), 1)
        return Result("ALTER SEQUENCE")

    def _owner(self, catalog: Catalog, options, kept):
        """OWNED BY table.column: (the table's OID, the column), checked; NONE: None."""
        parts = sequences.owned_by(options)
        if parts is None:
            return kept
        if parts == ("none",):
            return None
        if len(parts) < 2:
            raise SqlError("42601", "invalid OWNED BY option", hint="Specify OWNED BY table.column or OWNED BY NONE.")
        rel = catalog.relation(parts[-2], parts[-3] if len(parts) > 2 else None, self.search_path)
        if rel.kind != "table":
            raise SqlError(WRONG_OBJECT_TYPE, f'sequence cannot be owned by relation "{rel.name}"')
        rel.column(parts[-1])
        return rel.oid, parts[-1]

    async def _drop_sequences(self, node: ast.DropStmt, catalog: Catalog) -> Result:
        """DROP SEQUENCE [IF EXISTS] name, ..."""
        notices, dropping = [], []
        for obj in node.objects:
            parts = [n.sval for n in obj]
            name, schema = parts[-1], (parts[-2] if len(parts) > 1 else None)
            seq = catalog.sequence(name, schema, self.search_path)
            if seq is None:
                rel = catalog.lookup(name, schema, self.search_path)
                if rel is not None:
                    raise SqlError(WRONG_OBJECT_TYPE, f'"{name}" is not a sequence', hint=f"Use DROP {KIND_WORDS[rel.kind].upper()} to remove a {KIND_WORDS[rel.kind]}.")
                if node.missing_ok:
                    notices.append(f'NOTICE 00000: sequence "{name}" does not exist, skipping')
                    continue
                raise SqlError(UNDEFINED_TABLE, f'sequence "{name}" does not exist')
            dropping.append(seq)
        cascade = node.behavior.name == "DROP_CASCADE"
        for seq in dropping:
            for rel in catalog.relations.values():
                users = [c.name for c in rel.columns if c.next_of is not None and sequences.names(c.next_of, seq, (rel.schema, *self.search_path))]
                if users and not cascade:
                    raise SqlError(DEPENDENT_OBJECTS_STILL_EXIST, f"cannot drop sequence {seq.name} because other objects depend on it",
                                   detail="\n".join(f"default value for column {c} of table {rel.name} depends on sequence {seq.name}" for c in users),
                                   hint="Use DROP ... CASCADE to drop the dependent objects too.")
                if users:
                    notices += [f"NOTICE 00000: drop cascades to default value for column {c} of table {rel.name}" for c in users]
                    await self._write_catalog(catalog_rows(rel), -1)
                    await self._write_catalog(catalog_rows(rel.with_(columns=tuple(
                        replace(c, default=None) if c.name in users else c for c in rel.columns))), 1)
        if dropping:
            await self._write_catalog(sequence_rows(*dropping), -1)
        return Result("DROP SEQUENCE", notices=notices)

    async def _check_generated(self, rel: Relation) -> None:
        """A generation expression reads only the row's columns that are not
        generated themselves (42P17), and computes (it is tried on no rows)."""
        for col in rel.generated:
            expr = pglast.parse_sql(f"SELECT {col.generated}")[0].stmt.targetList[0].val
            for n in p.walk(expr):
                if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
                    used = n.fields[-1].sval
                    if used not in rel.column_names:
                        raise SqlError("42703", f'column "{used}" does not exist')
                    if rel.column(used).generated is not None:
                        raise SqlError("42P17", f'cannot use generated column "{used}" in column generation expression',
                                       detail="A generated column cannot reference another generated column.")
                if isinstance(n, ast.FuncCall) and (p.is_aggregate_call(n) or n.over):
                    kind = "window" if n.over else "aggregate"
                    raise SqlError("42P20" if n.over else "42803", f"{kind} functions are not allowed in column generation expressions")
                if isinstance(n, ast.SubLink):
                    raise SqlError("0A000", "cannot use subquery in column generation expression")
        if rel.generated:
            await self.generated_values(rel, rel.schema_arrow.empty_table())

    # -- enum types ------------------------------------------------------------

    async def create_enum(self, node: ast.CreateEnumStmt) -> Result:
        """CREATE TYPE name AS ENUM ('label', ...)."""
        catalog = await self.work.catalog()
        names = [n.sval for n in node.typeName]
        schema = self._schema_of(ast.RangeVar(relname=names[-1], schemaname=names[-2] if len(names) > 1 else None), catalog)
        if catalog.type_named(names[-1], schema) is not None or catalog.lookup(names[-1], schema) is not None:  # (a relation's row type)
            raise SqlError(DUPLICATE_OBJECT, f'type "{names[-1]}" already exists')
        labels = tuple(v.sval for v in node.vals or ())
        for label in labels:
            _check_label(label)
            if labels.count(label) > 1:  # (PostgreSQL's pg_enum index refuses the second)
                raise SqlError(UNIQUE_VIOLATION, 'duplicate key value violates unique constraint "pg_enum_typid_label_index"',
                               detail=f"Key (enumtypid, enumlabel)=({catalog.new_oid()}, {label}) already exists.")
        await self._write_catalog(type_rows(EnumType(names[-1], schema, labels, catalog.new_oid())), 1)
        return Result("CREATE TYPE")

    async def alter_enum(self, node: ast.AlterEnumStmt) -> Result:
        """ALTER TYPE name ADD VALUE [IF NOT EXISTS] 'x' [BEFORE | AFTER 'y'],
        ALTER TYPE name RENAME VALUE 'x' TO 'y'."""
        catalog = await self.work.catalog()
        old = self._enum(catalog, node.typeName)
        labels = list(old.labels)
        if node.oldVal is not None:  # RENAME VALUE
            if node.oldVal not in labels:
                raise SqlError(INVALID_PARAMETER_VALUE, f'"{node.oldVal}" is not an existing enum label')
            if node.newVal in labels:
                raise SqlError(DUPLICATE_OBJECT, f'enum label "{node.newVal}" already exists')
            raise not_supported("ALTER TYPE ... RENAME VALUE (stored values keep their label)")
        _check_label(node.newVal)
        if node.newVal in labels:
            if node.skipIfNewValExists:
                return Result("ALTER TYPE", notices=[f'NOTICE 42710: enum label "{node.newVal}" already exists, skipping'])
            raise SqlError(DUPLICATE_OBJECT, f'enum label "{node.newVal}" already exists')
        if node.newValNeighbor is None:
            labels.append(node.newVal)
        elif node.newValNeighbor not in labels:
            raise SqlError(INVALID_PARAMETER_VALUE, f'"{node.newValNeighbor}" is not an existing enum label')
        else:
            labels.insert(labels.index(node.newValNeighbor) + (1 if node.newValIsAfter else 0), node.newVal)
        await self._write_catalog(type_rows(old), -1)
        await self._write_catalog(type_rows(replace(old, labels=tuple(labels))), 1)
        return Result("ALTER TYPE")

    async def create_composite(self, node: ast.CompositeTypeStmt) -> Result:
        """CREATE TYPE name AS (field type, ...): a row type of its own
        (catalog.CompositeType); a field may be of another composite."""
        catalog = await self.work.catalog()
        rv = node.typevar
        schema = self._schema_of(rv, catalog)
        self._new_type_name(catalog, rv.relname, schema)
        fields = []
        for col in node.coldeflist or ():
            if any(f == col.colname for f, _t in fields):
                raise SqlError(DUPLICATE_COLUMN, f'column "{col.colname}" specified more than once')
            domain = domain_named(col.typeName) if not col.typeName.arrayBounds else None  # (kept: a cast to the field checks it)
            dims = "[]" * (len(col.typeName.arrayBounds or ()) - 1)  # (a field keeps its declared dimensions: a json array is read into as many)
            fields.append((col.colname, f"domain({domain.oid})" if domain is not None else canonical(col.typeName, array_ok=True) + max(dims, "")))
        await self._write_catalog(type_rows(CompositeType(rv.relname, schema, tuple(fields), catalog.new_oid())), 1)
        return Result("CREATE TYPE")

    async def create_domain(self, node: ast.CreateDomainStmt) -> Result:
        """CREATE DOMAIN name [AS] type [DEFAULT x] [NOT NULL] [CHECK (expr on
        VALUE)] ... (catalog.DomainType)."""
        catalog = await self.work.catalog()
        names = [n.sval for n in node.domainname]
        schema = self._schema_of(ast.RangeVar(relname=names[-1], schemaname=names[-2] if len(names) > 1 else None), catalog)
        self._new_type_name(catalog, names[-1], schema)
        base = canonical(node.typeName, array_ok=True)
        if is_composite(base.removesuffix("[]")):
            raise not_supported("domains over composite types")
        not_null, checks, default = False, [], None
        for c in node.constraints or ():
            kind = c.contype.name
            if kind == "CONSTR_NOTNULL":
                not_null = True
            elif kind == "CONSTR_NULL":
                not_null = False
            elif kind == "CONSTR_DEFAULT":
                default = pg_sql(c.raw_expr)
            elif kind == "CONSTR_CHECK":
                name = c.conname or (f"{names[-1]}_check" if not checks else f"{names[-1]}_check{len(checks)}")
                checks.append((name, pg_sql(c.raw_expr)))
            else:
                raise not_supported(f"domain constraint {kind.removeprefix('CONSTR_')}")
        await self._write_catalog(type_rows(DomainType(names[-1], schema, base, not_null, tuple(checks), default, catalog.new_oid())), 1)
        return Result("CREATE DOMAIN")

    def _new_type_name(self, catalog: Catalog, name: str, schema: str) -> None:
        """42710 when ``schema.name`` is taken by a type or a relation's row type."""
        if catalog.type_named(name, schema) is not None or catalog.lookup(name, schema) is not None:
            raise SqlError(DUPLICATE_OBJECT, f'type "{name}" already exists')

    def _enum(self, catalog: Catalog, names) -> EnumType:
        parts = [n.sval for n in names]
        found = catalog.type_named(parts[-1], parts[-2] if len(parts) > 1 else None, self.search_path)
        if found is None:
            raise SqlError(UNDEFINED_OBJECT, f'type "{parts[-1]}" does not exist')
        return found

    async def _rename_enum(self, catalog: Catalog, node: ast.RenameStmt) -> Result:
        """ALTER TYPE name RENAME TO new (its columns follow it: they name its OID)."""
        old = self._enum(catalog, node.object)
        if catalog.type_named(node.newname, old.schema) is not None or catalog.lookup(node.newname, old.schema) is not None:
            raise SqlError(DUPLICATE_OBJECT, f'type "{node.newname}" already exists')
        await self._write_catalog(type_rows(old), -1)
        await self._write_catalog(type_rows(replace(old, name=node.newname)), 1)
        return Result("ALTER TYPE")

    async def _rename_sequence(self, catalog: Catalog, node: ast.RenameStmt) -> Result:
        """ALTER SEQUENCE [IF EXISTS] name RENAME TO new (its counter is kept by OID)."""
        rv = node.relation
        old = catalog.sequence(rv.relname, rv.schemaname, self.search_path)
        if old is None:
            if node.missing_ok:
                return Result("ALTER SEQUENCE", notices=[f'NOTICE 00000: relation "{rv.relname}" does not exist, skipping'])
            if catalog.lookup(rv.relname, rv.schemaname, self.search_path) is not None:
                raise SqlError(WRONG_OBJECT_TYPE, f'"{rv.relname}" is not a sequence')
            raise SqlError(UNDEFINED_TABLE, f'relation "{rv.relname}" does not exist')
        if catalog.taken(node.newname, old.schema):
            raise SqlError(DUPLICATE_TABLE, f'relation "{node.newname}" already exists')
        await self._write_catalog(sequence_rows(old), -1)
        await self._write_catalog(sequence_rows(replace(old, name=node.newname)), 1)
        return Result("ALTER SEQUENCE")

    async def _drop_types(self, node: ast.DropStmt, catalog: Catalog) -> Result:
        """DROP TYPE [IF EXISTS] name, ...: 2BP01 while a column is of it."""
        notices, dropping = [], []
        for tn in node.objects:
            parts = [n.sval for n in tn.names]
            found = catalog.type_named(parts[-1], parts[-2] if len(parts) > 1 else None, self.search_path)
            if found is None:
                if node.missing_ok:
                    notices.append(f'NOTICE 00000: type "{parts[-1]}" does not exist, skipping')
                    continue
                raise SqlError(UNDEFINED_OBJECT, f'type "{parts[-1]}" does not exist')
            if node.removeType.name == "OBJECT_DOMAIN" and not isinstance(found, DomainType):
                raise SqlError(WRONG_OBJECT_TYPE, f'"{found.name}" is not a domain')
            named = f"domain({found.oid})" if isinstance(found, DomainType) else getattr(found, "sql_type", None)
            using = [f"composite type {t.name} column {f}" for t in catalog.types.values() if isinstance(t, CompositeType)
                     for f, ft in t.fields if ft.removesuffix("[]") == named]
            if using and node.behavior.name != "DROP_CASCADE":
                raise SqlError(DEPENDENT_OBJECTS_STILL_EXIST, f"cannot drop type {found.name} because other objects depend on it",
                               detail="\n".join(f"{u} depends on type {found.name}" for u in using),
                               hint="Use DROP ... CASCADE to drop the dependent objects too.")
            if using:
                raise not_supported("DROP TYPE ... CASCADE of a type other types use")
            users = [(rel, c.name) for rel in catalog.relations.values() for c in rel.columns
                     if (c.domain == found.oid if isinstance(found, DomainType) else c.type.removesuffix("[]") == found.sql_type)]
            if users:
                if node.behavior.name == "DROP_CASCADE":
                    raise not_supported("DROP TYPE ... CASCADE of a type columns are of")
                raise SqlError(DEPENDENT_OBJECTS_STILL_EXIST, f"cannot drop type {found.name} because other objects depend on it",
                               detail="\n".join(f"column {c} of table {rel.name} depends on type {found.name}" for rel, c in users),
                               hint="Use DROP ... CASCADE to drop the dependent objects too.")
            dropping.append(found)
        if dropping:
            await self._write_catalog(type_rows(*dropping), -1)
        return Result("DROP DOMAIN" if node.removeType.name == "OBJECT_DOMAIN" else "DROP TYPE", notices=notices)

    # -- DROP ------------------------------------------------------------------

    async def drop(self, node: ast.DropStmt) -> Result:
        kind = node.removeType.name
        if kind == "OBJECT_SCHEMA":
            return await self._drop_schemas(node)
        if kind == "OBJECT_INDEX":
            return await self._drop_indexes(node, await self.work.catalog())
        if kind == "OBJECT_EXTENSION":
            return grants.drop_extension(node)
        if kind == "OBJECT_FUNCTION":
            return await self._drop_functions(node, await self.work.catalog())
        if kind == "OBJECT_SEQUENCE":
            return await self._drop_sequences(node, await self.work.catalog())
        if kind in ("OBJECT_TYPE", "OBJECT_DOMAIN"):
            return await self._drop_types(node, await self.work.catalog())
        if kind not in OBJECT_KINDS:
            raise not_supported(f"DROP {kind.removeprefix('OBJECT_')}")
        want = OBJECT_KINDS[kind]
        word = KIND_WORDS[want]
        catalog = await self.work.catalog()
        notices, dropping = [], []
        for obj in node.objects:
            parts = [n.sval for n in obj]
            name, schema = parts[-1], (parts[-2] if len(parts) > 1 else None)
            rel = catalog.lookup(name, schema, self.search_path)
            if rel is None and catalog.index_owner(name, (schema,) if schema else self.search_path) is not None:
                raise SqlError(WRONG_OBJECT_TYPE, f'"{name}" is not a {word}', hint="Use DROP INDEX to remove an index.")
            if rel is None and catalog.sequence(name, schema, self.search_path) is not None:
                raise SqlError(WRONG_OBJECT_TYPE, f'"{name}" is not a {word}', hint="Use DROP SEQUENCE to remove a sequence.")
            if rel is None:
                if node.missing_ok:
                    notices.append(f'NOTICE 00000: {word} "{name}" does not exist, skipping')
                    continue
                if want == "table":
                    raise SqlError(UNDEFINED_TABLE, f'table "{name}" does not exist')
                raise SqlError(UNDEFINED_TABLE, f'{word} "{name}" does not exist')
            if rel.kind != want:
                raise SqlError(WRONG_OBJECT_TYPE, f'"{name}" is not a {word}', hint=f"Use DROP {KIND_WORDS[rel.kind].upper()} to remove a {KIND_WORDS[rel.kind]}.")
            dropping.append(rel)
        cascade = node.behavior.name == "DROP_CASCADE"
        dropping = self._with_dependents(catalog, dropping, cascade, notices)
        await self._drop_foreign_keys(catalog, dropping, cascade, notices)
        await self._drop_relations(dropping)
        return Result(f"DROP {word.upper()}", notices=notices)

    async def _drop_foreign_keys(self, catalog: Catalog, rels: list[Relation], cascade: bool, notices: list[str]) -> None:
        """The foreign keys of tables not being dropped that reference one
        of ``rels``: dropped with it (CASCADE), or 2BP01."""
        dropped = {r.oid for r in rels}
        children = {c.oid: (c, rel) for rel in rels for c in catalog.referrers(rel) if c.oid not in dropped}
        children = sorted(children.values(), key=lambda cr: cr[0].qualified)
        lost = [(child, rel, [f for f in child.foreign_keys if f.references in dropped]) for child, rel in children]
        if lost and not cascade:
            raise SqlError(
                DEPENDENT_OBJECTS_STILL_EXIST,
                f"cannot drop table {lost[0][1].name} because other objects depend on it",
                detail="\n".join(f"constraint {f.name} on table {child.name} depends on table {rel.name}" for child, rel, fks in lost for f in fks),
                hint="Use DROP ... CASCADE to drop the dependent objects too.",
            )
        for child, _rel, fks in lost:
            notices.extend(f"NOTICE 00000: drop cascades to constraint {f.name} on table {child.name}" for f in fks)
            await self._write_catalog(catalog_rows(child), -1)
            await self._write_catalog(catalog_rows(child.with_(foreign_keys=tuple(f for f in child.foreign_keys if f not in fks))), 1)

    async def _drop_relations(self, rels: list[Relation], seqs=()) -> None:
        """``rels`` and ``seqs`` dropped, with the sequences the tables' columns own."""
        if rels:
            await self._write_catalog(catalog_rows(*rels), -1)
        catalog = await self.work.catalog()
        owned = {q.qualified: q for q in [*seqs, *(q for rel in rels if rel.kind == "table" for q in catalog.owned_sequences(rel))]}
        if owned:
            await self._write_catalog(sequence_rows(*owned.values()), -1)
        for rel in rels:
            if rel.shard is not None:
                self.work.dropped.append(rel.shard)

    def _with_dependents(self, catalog: Catalog, rels: list[Relation], cascade: bool, notices: list[str]) -> list[Relation]:
        """``rels`` and every view depending on them (CASCADE), or 2BP01."""
        out = {r.qualified: r for r in rels}
        todo = list(rels)
        while todo:
            rel = todo.pop(0)
            for v in catalog.dependents(rel):
                if v.qualified in out:
                    continue
                if not cascade:
                    raise SqlError(
                        DEPENDENT_OBJECTS_STILL_EXIST,
                        f"cannot drop {KIND_WORDS[rel.kind]} {rel.name} because other objects depend on it",
                        detail=f"{KIND_WORDS[v.kind]} {v.name} depends on {KIND_WORDS[rel.kind]} {rel.name}",
                        hint="Use DROP ... CASCADE to drop the dependent objects too.",
                    )
                notices.append(f"NOTICE 00000: drop cascades to {KIND_WORDS[v.kind]} {v.name}")
                out[v.qualified] = v
                todo.append(v)
        return list(out.values())

    async def _drop_schemas(self, node: ast.DropStmt) -> Result:
        catalog = await self.work.catalog()
        notices = []
        for obj in node.objects:
            name = obj.sval
            if name in ("public", "pg_catalog", "information_schema"):
                raise not_supported(f'dropping schema "{name}"')
            if not catalog.has_schema(name):
                if node.missing_ok:
                    notices.append(f'NOTICE 00000: schema "{name}" does not exist, skipping')
                    continue
                raise SqlError(INVALID_SCHEMA_NAME, f'schema "{name}" does not exist')
            inside = [r for r in catalog.relations.values() if r.schema == name]
            seqs = [q for q in catalog.sequences.values() if q.schema == name]
            kinds = [t for t in catalog.types.values() if t.schema == name]
            routines = [f for f in catalog.functions if f.schema == name]
            if (inside or seqs or kinds or routines) and node.behavior.name != "DROP_CASCADE":
                raise SqlError(
                    DEPENDENT_OBJECTS_STILL_EXIST,
                    f"cannot drop schema {name} because other objects depend on it",
                    detail="\n".join([f"{KIND_WORDS[r.kind]} {r.qualified} depends on schema {name}" for r in inside]
                                     + [f"sequence {q.qualified} depends on schema {name}" for q in seqs]
                                     + [f"type {t.qualified} depends on schema {name}" for t in kinds]
                                     + [f"function {f.qualified}({', '.join(f.arg_types)}) depends on schema {name}" for f in routines]),
                    hint="Use DROP ... CASCADE to drop the dependent objects too.",
                )
            rels = self._with_dependents(catalog, inside, True, notices)
            if any(c.type.removesuffix("[]") == t.sql_type for r in catalog.relations.values() if r not in rels for c in r.columns for t in kinds):
                raise not_supported("DROP SCHEMA ... CASCADE of a type columns elsewhere are of")
            await self._drop_relations(rels, seqs)
            if kinds:
                await self._write_catalog(type_rows(*kinds), -1)
            if routines:
                await self._write_catalog(function_rows(*routines), -1)
            await self._write_catalog(schema_rows(name), -1)
        return Result("DROP SCHEMA", notices=notices)

    # -- ALTER TABLE -----------------------------------------------------------

    async def rename(self, node: ast.RenameStmt) -> Result:
        catalog = await self.work.catalog()
        kind = node.renameType.name
        rv = node.relation
        if kind == "OBJECT_SCHEMA":
            raise not_supported("ALTER SCHEMA RENAME")
        if kind == "OBJECT_INDEX":
            return await self._rename_index(catalog, rv, node.newname, node.missing_ok)
        if kind == "OBJECT_TYPE":
            return await self._rename_enum(catalog, node)
        if kind == "OBJECT_SEQUENCE":
            return await self._rename_sequence(catalog, node)
        if rv is None:  # (a function's, a role's, ... name)
            raise not_supported(f"ALTER {kind.removeprefix('OBJECT_')} ... RENAME")
        rel = catalog.lookup(rv.relname, rv.schemaname, self.search_path)
        if rel is None:
            if node.missing_ok:
                return Result("ALTER TABLE")
            catalog.relation(rv.relname, rv.schemaname, self.search_path)
        # the tag names the statement's word (ALTER TABLE renames a view too), as PostgreSQL's does
        tag = "ALTER " + {"OBJECT_VIEW": "VIEW", "OBJECT_MATVIEW": "MATERIALIZED VIEW"}.get(
            kind if kind != "OBJECT_COLUMN" else node.relationType.name, "TABLE")
        if kind in ("OBJECT_TABLE", "OBJECT_VIEW", "OBJECT_MATVIEW"):
            if catalog.taken(node.newname, rel.schema):
                raise SqlError(DUPLICATE_TABLE, f'relation "{node.newname}" already exists')
            for view in catalog.dependents(rel):  # PostgreSQL's views follow the relation by OID: theirs follow its name
                await self._write_catalog(catalog_rows(view), -1)
                await self._write_catalog(catalog_rows(view.with_(query=_renamed_in(view.query, rel, node.newname))), 1)
            await self._write_catalog(catalog_rows(rel), -1)
            await self._write_catalog(catalog_rows(rel.with_(name=node.newname)), 1)
            return Result(tag)
        if kind == "OBJECT_COLUMN":
            if rel.kind != "table":
                raise not_supported("renaming columns of views")
            if node.subname not in rel.column_names:
                raise SqlError("42703", f'column "{node.subname}" does not exist')
            if node.newname in rel.column_names:
                raise SqlError(DUPLICATE_COLUMN, f'column "{node.newname}" of relation "{rel.name}" already exists')
            ren = {node.subname: node.newname}
            new = rel.renamed_columns(ren)
            rows = await self.work.contents(rel)
            await self._reshape(catalog, rel, new, rows.rename_columns([ren.get(n, n) for n in rows.column_names]))
            return Result(tag)
        if kind == "OBJECT_TABCONSTRAINT":
            new = _renamed_constraint(rel, node.subname, node.newname, catalog)
            if new is None:
                raise SqlError(UNDEFINED_OBJECT, f'constraint "{node.subname}" for table "{rel.name}" does not exist')
            await self._write_catalog(catalog_rows(rel), -1)
            await self._write_catalog(catalog_rows(new), 1)
            return Result(tag)
        raise not_supported(f"ALTER ... RENAME of {kind.removeprefix('OBJECT_')}")

    async def _rename_index(self, catalog: Catalog, rv: ast.RangeVar, name: str, missing_ok: bool) -> Result:
        """ALTER INDEX ... RENAME: a primary key's or unique constraint's
        index takes its constraint's name along, as in PostgreSQL."""
        owner = catalog.index_owner(rv.relname, (rv.schemaname,) if rv.schemaname else self.search_path)
        if owner is None:
            if missing_ok:
                return Result("ALTER INDEX", notices=[f'NOTICE 00000: relation "{rv.relname}" does not exist, skipping'])
            raise SqlError(UNDEFINED_TABLE, f'relation "{rv.relname}" does not exist')
        new = _renamed_constraint(owner, rv.relname, name, catalog, indexes=True)
        await self._write_catalog(catalog_rows(owner), -1)
        await self._write_catalog(catalog_rows(new), 1)
        return Result("ALTER INDEX")

    async def grant(self, node: ast.GrantStmt) -> Result:
        return grants.grant(node, await self.work.catalog(), self.search_path, self.user)

    async def default_privileges(self, node: ast.AlterDefaultPrivilegesStmt) -> Result:
        return grants.default_privileges(node, await self.work.catalog(), self.user)

    async def alter_owner(self, node: ast.AlterOwnerStmt) -> Result:
        return grants.alter_owner(node, await self.work.catalog(), self.user, self.search_path)

    async def create_extension(self, node: ast.CreateExtensionStmt) -> Result:
        return grants.create_extension(node)

    async def comment(self, node: ast.CommentStmt) -> Result:
        """COMMENT ON TABLE | VIEW | MATERIALIZED VIEW | COLUMN: kept on the
        relation (pg_description, obj_description, col_description show it);
        NULL or '' removes it."""
        kind = node.objtype.name
        if kind not in ("OBJECT_TABLE", "OBJECT_VIEW", "OBJECT_MATVIEW", "OBJECT_COLUMN"):
            raise not_supported(f"COMMENT ON {kind.removeprefix('OBJECT_').replace('_', ' ')}")
        names = [n.sval for n in node.object]
        column = names.pop() if kind == "OBJECT_COLUMN" else ""
        if len(names) == 3:  # database.schema.relation, as dbt writes it
            if names[0] != DATABASE:
                raise not_supported("cross-database references")
            names = names[1:]
        if not names or len(names) > 2:
            raise SqlError("42601", "improper relation name (too many dotted names)")
        catalog = await self.work.catalog()
        rel = catalog.relation(names[-1], names[0] if len(names) == 2 else None, self.search_path)
        if column and column not in rel.column_names:
            raise SqlError("42703", f'column "{column}" of relation "{rel.name}" does not exist')
        await self._write_catalog(catalog_rows(rel), -1)
        await self._write_catalog(catalog_rows(rel.commented(column, node.comment)), 1)
        return Result("COMMENT")

    async def alter_table(self, node: ast.AlterTableStmt) -> Result:
        catalog = await self.work.catalog()
        rv = node.relation
        if all(cmd.subtype.name == "AT_ChangeOwner" for cmd in node.cmds):  # OWNER TO: a role there is (planner.grants)
            for cmd in node.cmds:
                grants.change_owner(node.objtype.name, rv, cmd.newowner, catalog, self.search_path, self.user)
            return Result("ALTER " + {"OBJECT_MATVIEW": "MATERIALIZED VIEW"}.get(node.objtype.name, node.objtype.name.removeprefix("OBJECT_")))
        rel = catalog.lookup(rv.relname, rv.schemaname, self.search_path)
        if rel is None:
            if node.missing_ok:
                return Result("ALTER TABLE", notices=[f'NOTICE 00000: relation "{rv.relname}" does not exist, skipping'])
            catalog.relation(rv.relname, rv.schemaname, self.search_path)
        if rel.kind != "table":
            raise SqlError(WRONG_OBJECT_TYPE, f'"{rel.name}" is not a table')
        for cmd in node.cmds:
            if cmd.subtype.name in _PHYSICAL_ONLY and cmd.name is not None:
                rel.column(cmd.name)  # 42703 for a column it does not have
        if all(cmd.subtype.name in _PHYSICAL_ONLY for cmd in node.cmds):
            return Result("ALTER TABLE")
        new = rel
        rows = await self.work.contents(rel)
        for cmd in node.cmds:
            sub = cmd.subtype.name
            if sub in _PHYSICAL_ONLY:
                continue
            if sub == "AT_AddColumn":
                d = cmd.def_
                if d.colname in new.column_names:
                    if cmd.missing_ok:
                        continue
                    raise SqlError(DUPLICATE_COLUMN, f'column "{d.colname}" of relation "{rel.name}" already exists')
                col, others, start = _column(d)
                if others:
                    raise not_supported("constraints in ADD COLUMN")
                new = new.with_(columns=new.columns + (col,))
                stored = new.schema_arrow.field(col.name).type
                rows = rows.append_column(col.name, pa.nulls(rows.num_rows, stored))
                if col.filled:  # existing rows get the sequence's first values
                    if col.sequenced:
                        await self.db.sequences.restart(new.sequence(col.name), start)
                    rows = await self.fill_sequences(new, rows, [c for c in new.column_names if c != col.name])
                elif col.generated is not None:
                    await self._check_generated(new)
                    rows = await self.generated_values(new, rows)
                elif col.default is not None and rows.num_rows:  # per row: a volatile default differs (random(), gen_random_uuid())
                    values = (await self.run(f"SELECT {col.default} AS v FROM range({rows.num_rows})", {})).column(0)
                    rows = rows.set_column(rows.num_columns - 1, col.name, values)
            elif sub == "AT_DropColumn":
                if cmd.name not in new.column_names:
                    if cmd.missing_ok:
                        continue
                    raise SqlError("42703", f'column "{cmd.name}" of relation "{rel.name}" does not exist')
                new = new.without_column(cmd.name)  # PostgreSQL drops the keys and indexes on it too
                rows = rows.drop_columns([cmd.name])
            elif sub == "AT_ColumnDefault":
                new.column(cmd.name)
                default = sequences.next_default(pg_sql(cmd.def_)) if cmd.def_ is not None else None
                new = new.with_(columns=tuple(replace(c, default=default) if c.name == cmd.name else c for c in new.columns))
            elif sub == "AT_AlterColumnType":
                new, rows = await self._retype(new, rows, cmd)
            elif sub == "AT_DropConstraint":
                new = _without_constraint(new, cmd.name, cmd.missing_ok)
            elif sub == "AT_AddConstraint":
                new = await self._add_constraint(catalog, new, rows, cmd.def_)
            elif sub in ("AT_SetNotNull", "AT_DropNotNull"):
                new.column(cmd.name)
                flag = sub == "AT_SetNotNull"
                if flag and rows.column(cmd.name).null_count:
                    raise SqlError(NOT_NULL_VIOLATION, f'column "{cmd.name}" of relation "{rel.name}" contains null values')
                new = new.with_(columns=tuple(replace(c, not_null=flag) if c.name == cmd.name else c for c in new.columns))
            else:
                raise not_supported(f"ALTER TABLE {sub.removeprefix('AT_')}")
        relaxed = any(a.not_null and not b.not_null for a, b in zip(rel.columns, new.columns))  # the shard's schema forbids NULL
        # a precision added or lowered rounds the values: rewritten, as a new type's
        rounded = any(b.precision is not None and (a.precision is None or b.precision < a.precision) for a, b in zip(rel.columns, new.columns))
        if new.column_names == rel.column_names and [c.type for c in new.columns] == [c.type for c in rel.columns] and not relaxed and not rounded:
            conform(rows, new)  # NOT NULL may now be violated by existing rows
            await self._write_catalog(catalog_rows(rel), -1)
            await self._write_catalog(catalog_rows(new), 1)
        else:
            await self._reshape(catalog, rel, new, rows)
        return Result("ALTER TABLE")

    async def _reshape(self, catalog: Catalog, rel: Relation, new: Relation, rows: pa.Table) -> None:
        """Move ``rel`` to a new shard shaped like ``new`` holding ``rows``."""
        self._refuse_dependents(catalog, rel, "alter")
        shard = await self._new_shard(f"reshape:{rel.qualified}", new.schema_arrow)
        new = new.with_(shard=shard)
        await self._write_catalog(catalog_rows(rel), -1)
        await self._write_catalog(catalog_rows(new), 1)
        await self.work.write(shard, conform(rows, new), 1)
        self.work.dropped.append(rel.shard)

    async def _retype(self, rel: Relation, rows: pa.Table, cmd: ast.AlterTableCmd) -> tuple[Relation, pa.Table]:
        """``rel`` and ``rows`` with the column ``cmd`` names of a new type,
        its values the USING expression's, else converted as PostgreSQL's
        assignment casts do (42804 where it has none)."""
        old = rel.column(cmd.name)
        if cmd.def_.collClause is not None:
            raise not_supported("ALTER COLUMN TYPE ... COLLATE")
        sql_type = canonical(cmd.def_.typeName, array_ok=True)
        using = cmd.def_.raw_default
        if using is None:
            if not _assignable(old.type, sql_type):
                shown = pg_sql(type_name(sql_type))
                raise SqlError(DATATYPE_MISMATCH, f'column "{old.name}" cannot be cast automatically to type {shown}',
                               hint=f'You might need to specify "USING {quoted(old.name)}::{shown}".')
            using = ast.TypeCast(arg=ast.ColumnRef(fields=(ast.String(sval=old.name),)), typeName=type_name(sql_type))
        else:
            if is_enum(sql_type) and isinstance(using, ast.TypeCast) and not using.typeName.arrayBounds \
                    and canonical(using.typeName) == sql_type:
                using = using.arg  # USING s::mood: its text, its labels checked as it is stored (conform)
            using = ast.TypeCast(arg=using, typeName=type_name(sql_type))
        if rows.num_rows:
            out = await self.run(f'SELECT {transpile(pg_sql(using))} AS v FROM "_rows" AS {quoted(rel.name)}', {"_rows": rows})
            values = out.column(0)
        else:
            values = pa.nulls(0)
        retyped = replace(old, type=sql_type, precision=fraction_precision(cmd.def_.typeName))
        new = rel.with_(columns=tuple(retyped if c.name == old.name else c for c in rel.columns))
        values = conform(pa.table({old.name: values}), new.with_(columns=(new.column(old.name),))).column(0)
        return new, rows.set_column(rows.schema.get_field_index(old.name), old.name, values)

    async def _add_constraint(self, catalog: Catalog, rel: Relation, rows: pa.Table, c: ast.Constraint, column: str | None = None) -> Relation:
        """``rel`` with the constraint ``c`` (of ``column`` when given as a
        column's) added, once ``rows`` (its current rows) satisfy it: a
        primary key (its columns become NOT NULL), a unique key, a CHECK
        (unless NOT VALID), a foreign key (existing rows checked unless NOT
        VALID); each keeps its name, PostgreSQL's default when none is given."""
        kind = c.contype.name
        if kind == "CONSTR_CHECK":
            name = c.conname or _check_name(rel.name, c.raw_expr, rel.checks, column)
            expr = pg_sql(c.raw_expr)
            if not c.skip_validation and rows.num_rows and await self.violations(rel, expr, rows):
                raise SqlError(CHECK_VIOLATION, f'check constraint "{name}" of relation "{rel.name}" is violated by some row')
            return rel.with_(checks=rel.checks + ((name, expr),))
        if kind == "CONSTR_FOREIGN":
            fk = self._foreign_key(catalog, rel, c, column)
            new = rel.with_(foreign_keys=rel.foreign_keys + (fk,))
            if not c.skip_validation and rows.num_rows:
                await self.references.check_referencing(new, rows, set(fk.columns), immediate=True)
            return new
        if kind not in ("CONSTR_PRIMARY", "CONSTR_UNIQUE") or c.indexname:
            raise not_supported(f"constraint {kind.removeprefix('CONSTR_')}" + (" USING INDEX" if c.indexname else ""))
        cols = tuple(k.sval for k in c.keys) if c.keys else (column,)
        for k in cols:
            rel.column(k)
        if len(set(cols)) != len(cols):
            raise SqlError(DUPLICATE_COLUMN, f'column "{cols[0]}" appears twice in {"primary key" if kind == "CONSTR_PRIMARY" else "unique"} constraint')
        primary = kind == "CONSTR_PRIMARY"
        if primary and rel.primary_key:
            raise SqlError("42P16", f'multiple primary keys for table "{rel.name}" are not allowed')
        name = c.conname or (f"{rel.name}_pkey" if primary else f"{rel.name}_{'_'.join(cols)}_key")
        if catalog.sequence(name, rel.schema) is not None:  # (its index's name: one namespace with the relations)
            raise SqlError(DUPLICATE_TABLE, f'relation "{name}" already exists')
        _refuse_duplicates(rel, name, cols, rows)
        names = rel.names + (("p" if primary else unique_slot(cols), name),)
        if not primary:
            return rel if cols in rel.unique else rel.with_(unique=rel.unique + (cols,), names=names)
        for k in cols:
            if rows.column(k).null_count:
                raise SqlError(NOT_NULL_VIOLATION, f'column "{k}" of relation "{rel.name}" contains null values')
        columns = tuple(replace(x, not_null=x.not_null or x.name in cols) for x in rel.columns)
        return rel.with_(columns=columns, primary_key=cols, unique=tuple(u for u in rel.unique if u != cols), names=names)

    def _foreign_key(self, catalog: Catalog, rel: Relation, c: ast.Constraint, column: str | None) -> ForeignKey:
        """The foreign key ``c`` declares on ``rel`` (checked as PostgreSQL
        checks the declaration: the columns exist and the referenced ones
        are a key of the referenced table)."""
        cols = tuple(k.sval for k in c.fk_attrs) if c.fk_attrs else (column,)
        for k in cols:
            rel.column(k)
        pk = c.pktable
        target = rel if (pk.schemaname in (None, rel.schema) and pk.relname == rel.name) else \
            catalog.table(pk.relname, pk.schemaname, self.search_path)
        referenced = tuple(k.sval for k in c.pk_attrs) if c.pk_attrs else target.primary_key
        if not referenced:
            raise SqlError("42830", f'there is no primary key for referenced table "{target.name}"')
        for k in referenced:
            target.column(k)
        if len(referenced) != len(cols):
            raise SqlError("42830", "number of referencing and referenced columns for foreign key disagree")
        if not any(set(key) == set(referenced) for _n, key in target.keys):
            raise SqlError("42830", f'there is no unique constraint matching given keys for referenced table "{target.name}"')
        name = c.conname or f"{rel.name}_{'_'.join(cols)}_fkey"
        return ForeignKey(name, cols, target.oid, referenced, c.fk_del_action or "a", c.fk_upd_action or "a",
                          bool(c.deferrable), bool(c.initdeferred))

    def _refuse_dependents(self, catalog: Catalog, rel: Relation, verb: str) -> None:
        for v in catalog.dependents(rel)[:1]:
            raise SqlError(
                DEPENDENT_OBJECTS_STILL_EXIST,
                f"cannot {verb} {KIND_WORDS[rel.kind]} {rel.name} because other objects depend on it",
                detail=f"{KIND_WORDS[v.kind]} {v.name} depends on {KIND_WORDS[rel.kind]} {rel.name}",
            )

    # -- indexes -----------------------------------------------------------------

    async def create_index(self, node: ast.IndexStmt) -> Result:
        """An index on columns, kept in the catalog (scans are columnar, so
        it speeds nothing); a UNIQUE one is enforced like a unique key, a
        partial one (WHERE) among the rows its predicate holds for. An index
        on expressions is accepted and not kept, unless UNIQUE (0A000)."""
        catalog = await self.work.catalog()
        rel = catalog.relation(node.relation.relname, node.relation.schemaname, self.search_path)
        if rel.kind not in ("table", "matview"):  # a materialized view's unique index is checked when it is refreshed
            raise SqlError(WRONG_OBJECT_TYPE, f'cannot create index on relation "{rel.name}"', detail="This operation is not supported for views.")
        if any(e.name is None for e in node.indexParams):
            if node.unique:
                raise not_supported("unique indexes on expressions")
            return Result("CREATE INDEX")
        cols = tuple(e.name for e in node.indexParams)
        for k in cols:
            rel.column(k)
        name = node.idxname or f"{rel.name}_{'_'.join(cols)}_idx"
        if catalog.taken(name, rel.schema):
            if node.if_not_exists:
                return Result("CREATE INDEX", notices=[f'NOTICE 42P07: relation "{name}" already exists, skipping'])
            raise SqlError(DUPLICATE_TABLE, f'relation "{name}" already exists')
        new = rel.with_(indexes=rel.indexes + ((name, cols, bool(node.unique)),))
        if node.whereClause is not None:  # partial: its key is unique among the rows the predicate holds for
            predicate = pg_sql(node.whereClause)
            new = new.with_(predicates=rel.predicates + ((name, predicate),))
            rows = await self.work.contents(rel) if node.unique else rel.schema_arrow.empty_table()
            holding = await self.satisfying(rel, predicate, rows)  # (a predicate naming no column of the table: 42703)
            if node.unique:
                _refuse_duplicates(rel, name, cols, holding)
        elif node.unique:
            _refuse_duplicates(rel, name, cols, await self.work.contents(rel))
            if cols not in rel.unique and cols != rel.primary_key:
                new = new.with_(unique=rel.unique + (cols,), names=rel.names + ((unique_slot(cols), name),))
        await self._write_catalog(catalog_rows(rel), -1)
        await self._write_catalog(catalog_rows(new), 1)
        return Result("CREATE INDEX")

    async def _drop_indexes(self, node: ast.DropStmt, catalog: Catalog) -> Result:
        """DROP INDEX: the index leaves its table (a unique one stops being
        enforced); an index a constraint owns stays (2BP01)."""
        notices, changed = [], {}
        for obj in node.objects:
            parts = [n.sval for n in obj]
            name, schema = parts[-1], (parts[-2] if len(parts) > 1 else None)
            owner = catalog.index_owner(name, (schema,) if schema else self.search_path)
            if owner is None:
                if node.missing_ok:
                    notices.append(f'NOTICE 00000: index "{name}" does not exist, skipping')
                    continue
                raise SqlError(UNDEFINED_OBJECT, f'index "{name}" does not exist')
            rel = changed.get(owner.qualified, owner)
            plain = next((i for i in rel.indexes if i[0] == name), None)
            if plain is None:
                raise SqlError(DEPENDENT_OBJECTS_STILL_EXIST, f"cannot drop index {name} because constraint {name} on table {rel.name} requires it",
                               hint=f"You can drop constraint {name} on table {rel.name} instead.")
            new = rel.with_(indexes=tuple(i for i in rel.indexes if i[0] != name), predicates=tuple(p for p in rel.predicates if p[0] != name))
            if plain[2] and plain[1] in rel.unique:  # a unique index's key goes with it
                new = new.with_(unique=tuple(u for u in rel.unique if u != plain[1]), names=tuple(n for n in rel.names if n[1] != name))
            changed[owner.qualified] = new
        for qualified, new in changed.items():
            await self._write_catalog(catalog_rows(catalog.relations[qualified]), -1)
            await self._write_catalog(catalog_rows(new), 1)
        return Result("DROP INDEX", notices=notices)


def _without_constraint(rel: Relation, name: str, missing_ok: bool) -> Relation:
    """``rel`` without its constraint ``name`` (ALTER TABLE DROP CONSTRAINT)."""
    if name == rel.primary_key_name:
        return rel.with_(primary_key=(), names=tuple(n for n in rel.names if n[0] != "p"))
    for key_name, cols in rel.constraint_keys:
        if key_name == name and cols in rel.unique:
            return rel.with_(unique=tuple(u for u in rel.unique if u != cols), names=tuple(n for n in rel.names if n[0] != unique_slot(cols)))
    if any(n == name for n, _e in rel.checks):
        return rel.with_(checks=tuple(c for c in rel.checks if c[0] != name))
    if any(f.name == name for f in rel.foreign_keys):
        return rel.with_(foreign_keys=tuple(f for f in rel.foreign_keys if f.name != name))
    if missing_ok:
        return rel
    raise SqlError(UNDEFINED_OBJECT, f'constraint "{name}" of relation "{rel.name}" does not exist')


def _renamed_constraint(rel: Relation, old: str, name: str, catalog: Catalog, *, indexes: bool = False) -> Relation | None:
    """``rel`` with its constraint ``old`` (``indexes``: its index ``old``)
    named ``name``, or None if it has none of that name. A primary key's or
    unique constraint's name is its index's too. 42710 / 42P07 when the name
    is taken, as PostgreSQL checks."""
    key = next((cols for n, cols in rel.constraint_keys if n == old), None)
    index = next((i for i in rel.indexes if i[0] == old), None) if indexes else None
    check = not indexes and any(n == old for n, _e in rel.checks)
    foreign = not indexes and any(f.name == old for f in rel.foreign_keys)
    if key is None and index is None and not check and not foreign:
        return None
    if (key is not None or check or foreign) and name in _constraint_names(rel):
        raise SqlError(DUPLICATE_OBJECT, f'constraint "{name}" for relation "{rel.name}" already exists')
    if (key is not None or index is not None) and catalog.taken(name, rel.schema):
        raise SqlError(DUPLICATE_TABLE, f'relation "{name}" already exists')
    if key is not None:
        slot = "p" if old == rel.primary_key_name else unique_slot(key)
        return rel.with_(names=tuple(n for n in rel.names if n[0] != slot) + ((slot, name),))
    if index is not None:
        renamed = rel.with_(indexes=tuple((name, cols, unique) if n == old else (n, cols, unique) for n, cols, unique in rel.indexes),
                            predicates=tuple((name if n == old else n, sql) for n, sql in rel.predicates))
        if index[2]:  # a unique index's name is its key's
            renamed = renamed.with_(names=tuple((slot, name if n == old else n) for slot, n in rel.names))
        return renamed
    if check:
        return rel.with_(checks=tuple((name if n == old else n, e) for n, e in rel.checks))
    return rel.with_(foreign_keys=tuple(replace(f, name=name) if f.name == old else f for f in rel.foreign_keys))


def _constraint_names(rel: Relation) -> list[str]:
    return [n for n, _c in rel.constraint_keys] + [n for n, _e in rel.checks] + [f.name for f in rel.foreign_keys]


def _on_commit(action, rv: ast.RangeVar) -> str | None:
    """A new table's ON COMMIT action: "drop", "delete" (rows) or None
    (they are kept); only a temporary table may have the clause (42P16)."""
    name = OnCommitAction(action or 0).name
    if name != "ONCOMMIT_NOOP" and rv.relpersistence != "t":
        raise SqlError("42P16", "ON COMMIT can only be used on temporary tables")
    return {"ONCOMMIT_DROP": "drop", "ONCOMMIT_DELETE_ROWS": "delete"}.get(name)


def _renamed_in(query: str, rel: Relation, name: str) -> str:
    """A view's query with its references to ``rel`` renamed to ``name``."""
    node = pglast.parse_sql(query)[0].stmt
    for n in p.walk(node):
        if isinstance(n, ast.RangeVar) and n.relname == rel.name and (n.schemaname or "public") == rel.schema:
            n.relname = name
    return pg_sql(node)


#: column constraint attributes: the attribute they set on the constraint before them
_ATTRIBUTES = {"CONSTR_ATTR_DEFERRABLE": ("deferrable", True), "CONSTR_ATTR_NOT_DEFERRABLE": ("deferrable", False),
               "CONSTR_ATTR_DEFERRED": ("initdeferred", True), "CONSTR_ATTR_IMMEDIATE": ("initdeferred", False)}


#: the pglast names of the integer types an identity column may have
INTEGER_NAMES_OF = {"int2": "smallint", "int4": "integer", "int8": "bigint"}


def _check_label(label: str) -> None:
    if len(label.encode()) > 63:
        raise SqlError(INVALID_PARAMETER_VALUE, f'invalid enum label "{label}"', detail="Labels must be 63 bytes or less.")


def _column(elt: ast.ColumnDef) -> tuple[Column, list[ast.Constraint], int]:
    """A column from its definition (type, serial, identity, NULL/NOT
    NULL, DEFAULT), its other constraints, for the caller to apply, and
    the value before the first its sequence gives (if it has one)."""
    not_null, default, start, generated = False, None, 1, None
    if elt.typeName.names[-1].sval.lower() in SERIALS:
        not_null, default = True, SERIAL
    others = []
    sql_type = canonical(elt.typeName, array_ok=True)
    if is_composite(sql_type.removesuffix("[]")):
        raise not_supported("columns of composite types (txngate stores no rows inside rows)")
    if (domain := domain_named(elt.typeName)) is not None:  # its constraints the column's (its values the base type's)
        not_null = domain.not_null
        default = pglast.parse_sql(f"SELECT {domain.default}")[0].stmt.targetList[0].val if domain.default is not None else None
        others += [_domain_check(elt.colname, name, expr) for name, expr in domain.checks]
    for c in elt.constraints or ():
        kind = c.contype.name
        if kind == "CONSTR_NOTNULL":
            not_null = True
        elif kind == "CONSTR_NULL":
            not_null = False
        elif kind == "CONSTR_DEFAULT":
            default = c.raw_expr
        elif kind == "CONSTR_GENERATED":
            generated = pg_sql(c.raw_expr)
        elif kind == "CONSTR_IDENTITY":
            if sql_type not in INTEGER_RANGES:
                raise SqlError(INVALID_PARAMETER_VALUE, "identity column type must be smallint, integer, or bigint")
            not_null, default = True, IDENTITY_ALWAYS if c.generated_when == "a" else IDENTITY
            if c.options:  # checked as a sequence's options; those an identity keeps are its START and its defaults
                kind = next(k for k, v in INTEGER_NAMES_OF.items() if v == sql_type)
                options = (ast.DefElem(defname="as", arg=ast.TypeName(names=(ast.String(sval=kind),))),) + tuple(c.options)
                seq, _again = sequences.defined(elt.colname, "", options)
                plain = sequences.defined(elt.colname, "", options[:1])[0]
                changed = [word for word, a, b in (("INCREMENT", seq.increment, plain.increment), ("MINVALUE", seq.minimum, plain.minimum),
                                                   ("MAXVALUE", seq.maximum, plain.maximum), ("CYCLE", seq.cycle, plain.cycle)) if a != b]
                if changed:
                    raise not_supported(f"identity option {changed[0]}")
                start = seq.start
        elif kind in _ATTRIBUTES:  # [NOT] DEFERRABLE, INITIALLY DEFERRED/IMMEDIATE: of the constraint before
            if not others or others[-1].contype.name not in ("CONSTR_FOREIGN", "CONSTR_PRIMARY", "CONSTR_UNIQUE"):
                raise SqlError(SYNTAX_ERROR, "misplaced DEFERRABLE clause" if "DEFERR" in kind else "misplaced INITIALLY clause")
            others[-1] = copy.copy(others[-1])
            setattr(others[-1], *_ATTRIBUTES[kind])
        else:
            others.append(c)
    if is_enum(sql_type) and isinstance(default, ast.A_Const) and isinstance(default.val, ast.String) \
            and (enum := enum_type(sql_type)) is not None and default.val.sval not in enum.labels:
        raise SqlError("22P02", f'invalid input value for enum {enum.name}: "{default.val.sval}"')
    if default is not None and default not in SEQUENCED:
        default = sequences.next_default(pg_sql(typed_literal(default, sql_type)))
    if generated is not None and default is not None:
        raise SqlError(SYNTAX_ERROR, f'both default and generation expression specified for column "{elt.colname}" of table')
    shown = "name" if elt.typeName.names[-1].sval.lower() == "name" and not elt.typeName.arrayBounds else None  # (stored as text)
    return (Column(elt.colname, sql_type, not_null, default, fraction_precision(elt.typeName), generated, domain.oid if domain is not None else None,
                   shown), others, start - 1)


def _domain_check(column: str, name: str, expr: str) -> ast.Constraint:
    """A domain's CHECK on VALUE as a column's (its column in VALUE's place;
    named ``column_name``: one table may have two columns of the domain)."""
    check = p.with_value(expr, ast.ColumnRef(fields=(ast.String(sval=column),)))
    return ast.Constraint(contype=ConstrType.CONSTR_CHECK, conname=f"{column}_{name}", raw_expr=check, initially_valid=True)


def _column_names(query: ast.Node, out, given: list[str], too_many: str) -> list[str]:
    """A new relation's column names: the names the user gave, then
    PostgreSQL's names for the query's result columns."""
    names = p.result_names(query)
    if names is None or len(names) != out.num_columns:
        names = out.column_names
    if len(given) > len(names):
        raise SqlError(SYNTAX_ERROR, too_many)
    return given + names[len(given):]


_NUMBERS = ("smallint", "integer", "bigint", "real", "double precision")
_TEXTS = ("text", "varchar", "char", "character varying", "bpchar")


def _assignable(old: str, new: str) -> bool:
    """Whether PostgreSQL converts ``old`` to ``new`` by an assignment cast
    (what ALTER COLUMN TYPE without USING applies)."""
    def family(t: str) -> str:
        base = t.split("(")[0]
        if base in _NUMBERS or base == "numeric":
            return "number"
        if base in _TEXTS:
            return "text"
        return base
    a, b = family(old), family(new)
    if old == new or a == b or b == "text":
        return True
    return (a, b) in {("date", "timestamp"), ("date", "timestamptz"), ("timestamp", "timestamptz"), ("timestamptz", "timestamp"),
                      ("timestamp", "date"), ("timestamptz", "date"), ("json", "jsonb"), ("jsonb", "json")}


def _check_name(table: str, expr: ast.Node, taken, column: str | None = None) -> str:
    """PostgreSQL's name for an unnamed CHECK: ``table_column_check`` when
    it reads one column, else ``table_check``; a number appended while the
    name is taken."""
    if column is None:
        cols = {n.fields[-1].sval for n in p.walk(expr) if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String)}
        column = cols.pop() if len(cols) == 1 else None
    base = f"{table}_{column}_check" if column else f"{table}_check"
    names = {n for n, _e in taken}
    name, i = base, 0
    while name in names:
        i += 1
        name = f"{base}{i}"
    return name


def _refuse_duplicates(rel: Relation, name: str, cols, rows: pa.Table) -> None:
    """23505, as when PostgreSQL builds the unique index ``name``, if two
    of ``rows`` share a key on ``cols`` (keys with a NULL never do)."""
    keys = rows.select(list(cols))
    for k in cols:
        keys = keys.filter(pc.is_valid(keys.column(k)))
    if keys.num_rows < 2:
        return
    counts = keys.group_by(list(cols), use_threads=False).aggregate([([], "count_all")])
    dup = counts.filter(pc.greater(counts.column("count_all"), 1))
    if dup.num_rows:
        shown = ", ".join(format_value(dup.column(k)[0].as_py(), rel.column(k).type) for k in cols)
        raise SqlError(UNIQUE_VIOLATION, f'could not create unique index "{name}"', detail=f"Key ({', '.join(cols)})=({shown}) is duplicated.")
