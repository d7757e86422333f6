"""DML: INSERT (VALUES, SELECT, DEFAULT VALUES, ON CONFLICT), UPDATE [FROM],
DELETE [USING], TRUNCATE, each with RETURNING, planned as the rows a
``Work`` adds and retracts.

Every statement computes its full effect before writing anything: the new
rows are cast to the column types (22P02/22003/22001; an enum's labels),
their generated columns computed, checked for NOT NULL (23502), CHECK
(23514) and every uniqueness constraint against the contents at the work's
``read_ts`` plus its own writes (23505); only then are they written. So a
failing statement writes nothing. Columns filled from a sequence (serial,
identity, DEFAULT nextval) take their values as the rows are made.

Keys are found by key search (``Work.lookup``), never by scanning: a
uniqueness check looks up only the new rows' keys, and an UPDATE, DELETE or
SELECT whose WHERE pins a key (``planner.keyprobe``) reads only those rows.
A statement's cost then follows the rows it touches, not the table's size.

UPDATE and DELETE identify rows by position in the rows they read (a
``__rowid`` column), so duplicate rows and joins (UPDATE ... FROM) retract
exactly the rows matched, each once.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import copy
import functools
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pglast
import pyarrow as pa
import pyarrow.compute as pc
from pglast import ast
from pglast.enums import SetOperation

from planner import parse as p
from planner import sequences
from planner import scopes
from planner.bind import Binder, pg_sql, quoted, transpile
from planner.catalog import IDENTITY_ALWAYS, Relation
from planner.errors import (
    CARDINALITY_VIOLATION,
    CHECK_VIOLATION,
    DUPLICATE_COLUMN,
    FEATURE_NOT_SUPPORTED,
    INVALID_COLUMN_REFERENCE,
    NOT_NULL_VIOLATION,
    NUMERIC_VALUE_OUT_OF_RANGE,
    STRING_DATA_RIGHT_TRUNCATION,
    SYNTAX_ERROR,
    UNIQUE_VIOLATION,
    SqlError,
    not_supported,
)
from planner.keyprobe import Probe, column_of, constant, exactly, key_probe
from planner.pgcatalog import column_origins, replace_children
from planner.references import References
from planner.result import Result, to_result
from planner.route import Choice, ExecOptions, RoutedStream, Router, drain, out_of_memory
from planner.sqltypes import (INTEGER_RANGES, enum_type, is_enum, TOO_MANY_PLACES, canonical, integer_fits, spark_raise, spark_stored_numeric, stored_cast, type_name,
                              typed_literal)
from values import ByteaInputError, TextStyle, engine_zone, format_column, format_value, parse_bytea, zone
from planner.work import Work, off_loop, with_diff
from planner.waits import waiting
from local_exec import jsonb, key_tuples, matching
from storage.persist import DIFF, cast_to, collapse, comparable, expand, map_elements

ROWID = "__rowid"


@dataclass
class SparkPlan:
    """A SELECT that runs on Spark: its Spark SQL, the leased snapshots it
    reads, and its DuckDB binding (for the result schema and fallback)."""

    choice: Choice
    sql: str
    bound: object


class Dml:
    """Runs DML statements in a Work with the session's settings."""

    def __init__(self, work: Work, search_path: tuple[str, ...], params: list | None, timeout: float | None, emulation=None, style: TextStyle | None = None,
                 options: ExecOptions | None = None, now: dt.datetime | None = None):
        self.style = style  # how the session prints values (COPY TO)
        self.now = now  # now() and CURRENT_TIMESTAMP (the transaction's start), for rows computed without an engine
        setting = style.timezone if style is not None else "UTC"
        self.zone = zone(setting)  # the session's TimeZone
        self.timezone = engine_zone(setting)  # its name to the engines, which compute timestamptz in it
        self.router = Router(work, options or ExecOptions(), params, search_path)
        self.work = work
        self.search_path = search_path
        self.params = params
        self.timeout = timeout
        self.emulation = emulation
        self.references = References(self)

    def _now_in(self, sql_type: str) -> dt.datetime | None:
        """now() as a value of a timestamptz column, or of a timestamp one
        (its local time in the session's TimeZone, as PostgreSQL converts)."""
        if self.now is None or self.zone is None:
            return None
        return self.now if sql_type == "timestamptz" else self.now.astimezone(self.zone).replace(tzinfo=None)

    @property
    def engine(self):
        return self.work.db.engine

    async def _check_scopes(self, node: ast.UpdateStmt | ast.DeleteStmt) -> None:
        """What FROM / USING subqueries of an UPDATE or DELETE may read
        (planner.scopes; it only raises here: no level around to qualify
        to). A statement without such a subquery (a point write) skips it."""
        if any(isinstance(n, ast.RangeSubselect) for n in p.walk(node)):
            scopes.check(node)
            scopes.check_unqualified(node, (await self.binder()).columns_of)

    async def binder(self) -> Binder:
        return Binder(await self.work.catalog(), self.search_path, self.emulation)

    async def inputs(self, bound, override: dict[str, pa.Table] | None = None) -> dict[str, pa.Table]:
        tables = dict(override or {})
        for name, rel in bound.tables.items():
            if name not in tables:
                tables[name] = await self.work.contents(rel)
        for name, vt in bound.virtual.items():
            # pg_stat_activity asks the other worker processes: off the event loop
            tables[name] = await asyncio.to_thread(vt.build) if name.endswith("pg_stat_activity") else vt.build()
        return tables

    async def run(self, sql: str, tables: dict[str, pa.Table], views=()) -> pa.Table:
        with waiting("Extension", "DuckDB"):
            out = await self.engine.run(sql, tables, self.params, views=views, timeout=self.timeout, timezone=self.timezone)
        limit = self.router.options.max_memory
        if out.nbytes > limit:
            raise out_of_memory(f"a result of {out.num_rows} rows takes {out.nbytes} bytes", limit)
        return out

    async def select(self, node: ast.Node) -> pa.Table:
        plan = await self._plan_select(node)
        if isinstance(plan, pa.Table):
            return plan
        if isinstance(plan, SparkPlan):
            stream = await self._spark_stream(plan)
            if not isinstance(stream, RoutedStream):
                plan = stream
            else:
                try:
                    return pa.Table.from_batches(await drain(stream), schema=stream.schema)
                finally:
                    stream.close()
        sql, tables, views = plan
        return await self.run(sql, tables, views)

    async def select_stream(self, node: ast.Node):
        """Like ``select``, but the rows come as the engine computes them:
        a ``pa.Table`` when they are already known, else an EngineStream
        (or a RoutedStream from Spark)."""
        plan = await self._plan_select(node)
        if isinstance(plan, pa.Table):
            return plan
        if isinstance(plan, SparkPlan):
            stream = await self._spark_stream(plan)
            if isinstance(stream, RoutedStream):
                return stream
            plan = stream
        sql, tables, views = plan
        with waiting("Extension", "DuckDB"):
            return await self.engine.stream(sql, tables, self.params, views=views, timeout=self.timeout, timezone=self.timezone)

    async def local_schema(self, bound) -> pa.Schema:
        """The schema DuckDB gives ``bound``'s result (asked over empty inputs)."""
        empty = {name: rel.schema_arrow.empty_table() for name, rel in bound.tables.items()}
        return (await self.run(bound.sql, empty, bound.views)).schema

    async def _spark_stream(self, plan: "SparkPlan"):
        """Start ``plan`` on Spark: a RoutedStream, or — Spark unavailable and
        ``txngate.spark_fallback`` on — the local plan (sql, tables, views)."""
        from spark_exec import SparkError, SparkUnavailable

        try:
            schema = await self.local_schema(plan.bound)
            with waiting("Extension", "Spark"):
                stream = await self.work.db.spark.stream(
                    plan.sql, plan.choice.sources, timeout=self.timeout, on_progress=self.router.notify,
                    progress_every=self.router.options.progress_every, on_close=plan.choice.release, timezone=self.timezone,
                )
        except SparkUnavailable as e:
            plan.choice.release()
            if not self.router.options.spark_fallback:
                raise SqlError(e.sqlstate, e.message, hint="SET txngate.engine = local, or txngate.spark_fallback = on to run such queries locally.") from None
            self.router.notify(f"{e.message}; running on the local engine (txngate.spark_fallback)")
            return plan.bound.sql, await self.inputs(plan.bound), plan.bound.views
        except SparkError as e:
            plan.choice.release()
            raise SqlError(e.sqlstate, e.message) from None
        except BaseException:
            plan.choice.release()
            raise
        return RoutedStream(stream, schema)

    async def _plan_select(self, node: ast.Node):
        """The answer of a SELECT that needs no engine (literals only, or a
        point lookup of plain columns), else (DuckDB SQL, input tables, views)."""
        constant = _constant_row(node)
        if constant is not None:
            return constant
        found = await self.point(node)
        if found is not None:
            return found
        catalog = await self.work.catalog()
        bound = await self.work.db.bind_cache.bind(node, catalog, self.search_path, self.emulation)
        point = _point_lookup(node, bound, self.params)
        if point is not None and await self.reads_again(node, point[1], node.fromClause[0]):
            point = None  # read again in a subquery: only the FROM item's reading is by key
        if point is None and bound.tables:
            choice = await self.router.choose(node, bound)
            if choice.engine == "spark":
                sql = self.router.spark_sql(node, catalog, forced=self.router.options.engine == "spark")
                if sql is not None:
                    return SparkPlan(choice, sql, bound)
                choice.release()
        override = {}
        if point is not None:
            name, rel, probe = point
            rows = await self.work.lookup(rel, probe.cols, probe.keys)
            columns = _plain_projection(node, rel)
            if columns is not None:
                return rows.select(columns)  # nothing left for an engine to do
            override[name] = rows
        return bound.sql, await self.inputs(bound, override), bound.views

    async def point(self, node: ast.Node) -> pa.Table | None:
        """The rows of ``SELECT plain columns FROM table WHERE key =
        constant`` (or ``key IN (...)``), found by the key search straight
        from the catalog (no binding, no engine); None for any other query."""
        direct = _direct_point(node, await self.work.catalog(), self.search_path, self.params)
        if direct is None:
            return None
        rel, probe, columns = direct
        return (await self.work.lookup(rel, probe.cols, probe.keys)).select(columns)

    async def target(self, rv: ast.RangeVar) -> Relation:
        catalog = await self.work.catalog()
        return catalog.table(rv.relname, rv.schemaname, self.search_path)

    # -- INSERT ----------------------------------------------------------------

    async def insert(self, node: ast.InsertStmt) -> Result:
        node = _read_ctes(node)
        rel = await self.target(node.relation)
        targets = [c.name for c in node.cols] if node.cols else rel.column_names
        for c in node.cols or ():
            rel.column(c.name, c.location)
        if len(set(targets)) != len(targets):
            raise SqlError(DUPLICATE_COLUMN, f'column "{_first_dup(targets)}" specified more than once')
        _check_generated_targets(node.selectStmt, rel, targets)
        if _spark_insertable(node, rel, self.work):
            written = await self._spark_insert(node, rel, targets)
            if written is not None:
                return Result(f"INSERT 0 {written}")
        new = await self._proposed(node, rel, targets)
        inserted, retracted = new, None
        conflict = node.onConflictClause
        if conflict is not None:
            inserted, retracted, new = await self._on_conflict(conflict, rel, node.relation, new)
        await self.check_unique(rel, inserted, removed=retracted)
        await self.references.check_referencing(rel, inserted)
        if retracted is not None:
            # DO UPDATE: the updated rows end ``inserted``, in ``retracted``'s order
            await self.references.removed(rel, retracted, inserted.slice(inserted.num_rows - retracted.num_rows))
            await self.work.write(rel.shard, retracted, -1)
        await self.work.write(rel.shard, inserted, 1)
        return await self._returning(node, rel, new, f"INSERT 0 {new.num_rows}")

    async def insert_batch(self, node: ast.InsertStmt, batch: list[list]) -> bool:
        """``node`` (``parse.batchable``) run once with each parameter list
        of ``batch``, as one write: True; False when a value needs an engine
        (the caller runs them one by one). When any row would fail, it
        raises, having written nothing."""
        rel = await self.target(node.relation)
        targets = [c.name for c in node.cols] if node.cols else rel.column_names
        for c in node.cols or ():
            rel.column(c.name, c.location)
        if len(set(targets)) != len(targets) or any(rel.column(t).generated is not None for t in targets):
            return False
        rows = await off_loop(len(batch), _constant_rows, node.selectStmt, rel, targets, batch, self._now_in)
        if rows is None:
            return False
        new = await self.conform(await self.fill_sequences(rel, rows, targets), rel)
        await self.check_unique(rel, new)
        await self.references.check_referencing(rel, new)
        await self.work.write(rel.shard, new, 1)
        return True

    async def _spark_insert(self, node: ast.InsertStmt, rel: Relation, targets: list[str]) -> int | None:
        """INSERT ... SELECT on Spark when the router picks it: the rows
        written, or None (run it locally)."""
        select = node.selectStmt
        source = await self.spark_shape(select)
        if source is None:
            return None
        if len(source) > len(targets):
            raise _too_many_expressions(select, len(targets))
        if len(source) < len(targets):
            if node.cols:
                raise SqlError(SYNTAX_ERROR, "INSERT has more target columns than expressions")
            targets = targets[:len(source)]
        exprs = []
        for col in rel.columns:
            if col.name in targets:
                i = targets.index(col.name)
                expr = f'src."c{i}"'
            else:
                expr = col.default if col.default is not None else "NULL"
            exprs.append(f'{_spark_cast(expr, col.type)} AS {quoted(col.name)}')
        names = ", ".join(f'"c{i}"' for i in range(len(targets)))
        query = pglast.parse_sql(f"SELECT {', '.join(exprs)} FROM ({pg_sql(select)}) AS src({names})")[0].stmt
        return await self.spark_write(query, rel)

    async def spark_shape(self, query: ast.Node) -> pa.Schema | None:
        """The result schema of ``query`` when the router sends it to Spark
        (the statement that writes it leases its inputs then), else None."""
        bound = (await self.binder()).bind(query)
        choice = await self.router.choose(query, bound)
        choice.release()
        if choice.engine != "spark":
            return None
        return await self.local_schema(bound)

    async def spark_write(self, query: ast.SelectStmt, rel: Relation) -> int | None:
        """Run ``query`` — ``rel``'s columns in order, optionally ``_diff``
        last — on Spark, its rows written as batches for ``rel``'s shard and
        added to the work's commit. The rows written, or None when the
        router keeps ``query`` local (or Spark cannot express it)."""
        from spark_exec import SparkError, SparkUnavailable

        catalog = await self.work.catalog()
        bound = Binder(catalog, self.search_path, None, written=True).bind(query)
        choice = await self.router.choose(query, bound)
        try:
            if choice.engine != "spark":
                return None
            source = await self.local_schema(bound)  # DuckDB's errors for what it cannot type, before a job starts
            spark = self.work.db.spark
            native = spark.native_writes and not any(c.type in ("bytea", "uuid", "json", "jsonb") or c.precision is not None for c in rel.columns)
            if native:  # Spark's own writer: the types and constraints go into the query
                query = _checked(query, rel, diff=source.names[-1] == DIFF)
            sql = self.router.spark_sql(query, catalog, forced=self.router.options.engine == "spark")
            if sql is None:
                return None
            options = self.router.options
            try:
                with waiting("Extension", "Spark"):
                    handles = await spark.write(
                        sql, choice.sources, shard_id=rel.shard, schema=rel.schema_arrow,
                        transform=None if native else functools.partial(conform_rows, rel), native=native,
                        timeout=self.timeout, on_progress=self.router.notify, progress_every=options.progress_every, timezone=self.timezone,
                    )
            except SparkUnavailable as e:
                if not options.spark_fallback:
                    raise SqlError(e.sqlstate, e.message, hint="SET txngate.engine = local, or txngate.spark_fallback = on to run such statements locally.") from None
                self.router.notify(f"{e.message}; running on the local engine (txngate.spark_fallback)")
                return None
            except SparkError as e:
                raise SqlError(e.sqlstate, e.message) from None
        finally:
            choice.release()
        self.work.write_batches(rel.shard, handles)
        return sum(p.rows for h in handles for p in h.parts)

    async def _proposed(self, node: ast.InsertStmt, rel: Relation, targets: list[str]) -> pa.Table:
        """The rows an INSERT proposes, cast to the table's types and checked."""
        select = node.selectStmt
        constant = None
        if not node.override:
            rows = len(select.valuesLists or ()) if select is not None else 0
            constant = await off_loop(rows, _constant_rows, select, rel, targets, [self.params], self._now_in)
        if constant is not None:  # plain values: no engine needed
            return await self.conform(await self.fill_sequences(rel, constant, targets), rel)
        if select is None:  # DEFAULT VALUES
            src_sql, bound_tables, views = "SELECT 1 AS __one", {}, ()
            targets = []
        else:
            defaults_only: set[str] = set()
            if select.valuesLists:
                overriding = node.override is not None and node.override.name == "OVERRIDING_SYSTEM_VALUE"
                sequenced = await self._sequenced_defaults(select, rel, targets, overriding)
                defaults_only = {targets[i] for i, values in sequenced.items() if len(values) == len(select.valuesLists)}
                select = _fill_defaults(select, rel, targets, {i: iter(values) for i, values in sequenced.items()})
            binder = await self.binder()
            bound = binder.bind(select, outputs=False)
            src_sql, bound_tables, views = bound.sql, await self.inputs(bound), bound.views
            width = await self._width(select, src_sql, bound_tables, views)
            if width > len(targets):
                raise _too_many_expressions(node.selectStmt, len(targets))
            if width < len(targets):
                if node.cols:
                    raise SqlError(SYNTAX_ERROR, "INSERT has more target columns than expressions")
                targets = targets[:width]
        exprs = []
        for col in rel.columns:
            if col.name in targets:
                if col.default == IDENTITY_ALWAYS and not (node.override and node.override.name == "OVERRIDING_SYSTEM_VALUE") \
                        and (select is None or col.name not in defaults_only):
                    raise identity_always(col.name)
                expr = f'src."c{targets.index(col.name)}"'
            elif col.filled:
                expr = "NULL"  # filled from the sequence below
            elif col.default is not None:
                expr = transpile(col.default)
            else:
                expr = "NULL"
            if col.type == "bytea":
                exprs.append(f'{expr} AS {quoted(col.name)}')  # text input is decoded by conform()
            else:
                exprs.append(f'{stored_cast(expr, col.type)} AS {quoted(col.name)}')
        names = ", ".join(f'"c{i}"' for i in range(len(targets))) if targets else "__one"
        query = f"SELECT {', '.join(exprs)} FROM ({src_sql}) AS src({names})"
        out = await self.run(query, bound_tables, views)
        return await self.conform(await self.fill_sequences(rel, out, targets), rel)

    async def fill_sequences(self, rel: Relation, rows: pa.Table, given) -> pa.Table:
        """``rows`` with each sequenced column not ``given`` set to the next
        values of its sequence, in row order (taken now: a rollback leaves
        a gap, as in PostgreSQL)."""
        for col in rel.columns:
            if not col.filled or col.name in given or rows.num_rows == 0:
                continue
            taken = await self.take_values(rel, col, rows.num_rows)
            numbers = np.arange(taken.start, taken.stop, taken.step, dtype=np.int64) if isinstance(taken, range) else taken  # (no Python int per row)
            values = pa.array(numbers, pa.int64()).cast(rows.schema.field(col.name).type)
            rows = rows.set_column(rows.schema.get_field_index(col.name), col.name, values)
        return rows

    async def _sequenced_defaults(self, select: ast.SelectStmt, rel: Relation, targets: list[str], overriding: bool) -> dict[int, list[int]]:
        """For each target column with a sequence, the next values for the
        rows that give it DEFAULT (by position in the target list), taken
        now in row order, as PostgreSQL's nextval per row takes them (after
        the GENERATED ALWAYS check: a refused statement takes none)."""
        counts = {i: sum(1 for row in select.valuesLists if i < len(row) and isinstance(row[i], ast.SetToDefault)) for i in range(len(targets))}
        for i, name in enumerate(targets):
            if rel.column(name).default == IDENTITY_ALWAYS and not overriding and counts[i] < len(select.valuesLists):
                raise identity_always(name)
        out = {}
        for i, name in enumerate(targets):
            col = rel.column(name)
            if col.filled and counts[i]:
                out[i] = await self.take_values(rel, col, counts[i])
        return out

    async def take_values(self, rel: Relation, col, n: int) -> range | list[int]:
        """The next ``n`` values of ``col``'s sequence (nextval): its own
        (serial, identity), or the one its DEFAULT nextval(...) names; a
        range but for a CYCLE sequence's."""
        if col.next_of is not None:
            counter = sequences.resolve(await self.work.catalog(), self.search_path, col.next_of)
            return await sequences.take(self, counter, n)
        return range(first := await self._take_own(rel, col, n), first + n)

    async def _take_own(self, rel: Relation, col, n: int) -> int:
        """The first of ``n`` next values of a serial or identity column's sequence."""

        async def after_present() -> int:  # a column older than its sequence
            current = await self.work.contents(rel)
            top = pc.max(current.column(col.name)).as_py() if current.num_rows else None
            return int(top or 0)

        first = await self.work.db.sequences.take(rel.sequence(col.name), n, after_present)
        top = INTEGER_RANGES[col.type][1]
        if first + n - 1 > top:
            raise SqlError("2200H", f'nextval: reached maximum value of sequence "{rel.sequence_shown(col.name)}" ({top})')
        return first

    async def _width(self, select: ast.SelectStmt, src_sql: str, tables, views) -> int:
        """How many columns an INSERT's source produces."""
        if select.valuesLists:
            return len(select.valuesLists[0])
        if select.targetList and not any(
            isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.A_Star) for t in select.targetList
        ):
            return len(select.targetList)
        return (await self.run(f"SELECT * FROM ({src_sql}) AS src LIMIT 0", tables, views)).num_columns

    async def _on_conflict(self, clause: ast.OnConflictClause, rel: Relation, rv: ast.RangeVar, new: pa.Table):
        """(rows to insert, existing rows to retract, rows affected); the
        existing rows are found by key search, for the proposed keys only."""
        arbiter = None  # (columns, predicate or None)
        if clause.infer is not None:
            if clause.infer.conname:
                wanted = clause.infer.conname
                arbiter = next(((cols, None) for name, cols in rel.keys if name == wanted), None)
                if arbiter is None:
                    raise SqlError("42704", f'constraint "{wanted}" for table "{rel.name}" does not exist')
            else:
                names = [e.name for e in clause.infer.indexElems]
                where = pg_sql(clause.infer.whereClause) if clause.infer.whereClause is not None else None
                # a key over every row, or a partial unique index whose predicate the inference names
                arbiter = next(((cols, p) for _n, cols, p in rel.unique_keys if set(cols) == set(names) and p in (None, where)), None)
                if arbiter is None:
                    raise SqlError(
                        INVALID_COLUMN_REFERENCE,
                        "there is no unique or exclusion constraint matching the ON CONFLICT specification",
                    )
        update = clause.action.name == "ONCONFLICT_UPDATE"
        if update and arbiter is None:
            raise SqlError(SYNTAX_ERROR, "ON CONFLICT DO UPDATE requires inference specification or constraint name")
        arbiters = [arbiter] if arbiter is not None else [(cols, p) for _n, cols, p in rel.unique_keys]
        keys = [cols for cols, _p in arbiters]
        found = [await self.work.lookup(rel, cols, new.select(list(cols))) for cols in keys]
        current = pa.concat_tables(found) if found else rel.schema_arrow.empty_table()
        # a partial index's arbiter: only rows its predicate holds for, proposed or existing, conflict there
        proposed_held = [await self.holding(rel, p, new) for _cols, p in arbiters]
        existing_held = [await self.holding(rel, p, current) for _cols, p in arbiters]
        existing = [{key: i for key, i in _key_index(current, cols).items() if existing_held[k][i]} for k, cols in enumerate(keys)]
        insert_idx, conflicts = [], []  # conflicts: (proposed index, existing index)
        seen = [dict() for _ in keys]
        values = {c: key_values(new.column(c)) for c in {c for cols in keys for c in cols}}
        for i in range(new.num_rows):
            hit = None
            for k, cols in enumerate(keys):
                key = tuple(values[c][i] for c in cols)
                if None in key or not proposed_held[k][i]:
                    continue
                if key in seen[k]:
                    if update:
                        raise SqlError(
                            CARDINALITY_VIOLATION,
                            "ON CONFLICT DO UPDATE command cannot affect row a second time",
                            hint="Ensure that no rows proposed for insertion within the same command have duplicate constrained values.",
                        )
                    hit = -1
                    break
                if key in existing[k]:
                    hit = existing[k][key]
                    break
            for k, cols in enumerate(keys):
                if proposed_held[k][i]:
                    seen[k][tuple(values[c][i] for c in cols)] = i
            if hit is None:
                insert_idx.append(i)
            elif update and hit >= 0:
                conflicts.append((i, hit))
        to_insert = new.take(pa.array(insert_idx, pa.int64()))
        if not update or not conflicts:
            return to_insert, None, to_insert
        # DO UPDATE: SET expressions over the existing row (the table's name
        # or alias) and the proposed one (``excluded``).
        alias = rv.alias.aliasname if rv.alias is not None else rel.name
        pos = pa.array(range(len(conflicts)), pa.int64())
        old = current.take(pa.array([e for _p, e in conflicts], pa.int64()))
        excluded = new.take(pa.array([p for p, _e in conflicts], pa.int64()))
        sets = assignment_sql(assignments(clause.targetList, rel), rel)
        cols = ", ".join(
            f'{_assigned(sets[c.name], c.type)} AS {quoted(c.name)}' if c.name in sets else f'{quoted(alias)}.{quoted(c.name)}'
            for c in rel.columns
        )
        where = f" WHERE {pg_sql(clause.whereClause)}" if clause.whereClause is not None else ""
        query = pglast.parse_sql(
            f'SELECT {quoted(alias)}.{ROWID}, {cols} FROM _old AS {quoted(alias)} '
            f'JOIN _excluded AS excluded ON {quoted(alias)}.{ROWID} = excluded.{ROWID}{where}'
        )[0].stmt
        binder = await self.binder()
        binder.given = {"_old": rel, "_excluded": rel}  # the rows at hand; a subquery's tables are read as in any statement
        bound = binder.bind(query, outputs=False)
        given = {"_old": old.append_column(ROWID, pos), "_excluded": excluded.append_column(ROWID, pos)}
        out = await self.run(bound.sql, await self.inputs(bound, given), bound.views)
        chosen = out.column(ROWID)
        updated = await self.conform(out.drop_columns([ROWID]), rel)
        retracted = old.take(chosen)
        inserted = pa.concat_tables([to_insert, updated])
        # the rows affected come in the order they were proposed, as RETURNING gives them
        # (Django's bulk_create matches returned keys to its objects by position)
        proposed_at = insert_idx + [conflicts[j][0] for j in chosen.to_pylist()]
        order = sorted(range(len(proposed_at)), key=proposed_at.__getitem__)
        return inserted, retracted, inserted.take(pa.array(order, pa.int64()))

    # -- UPDATE / DELETE ------------------------------------------------------

    async def update(self, node: ast.UpdateStmt) -> Result:
        await self._check_scopes(node)
        node = _read_ctes(node)
        rel = await self.target(node.relation)
        sets = assignments(node.targetList, rel)
        alias = node.relation.alias.aliasname if node.relation.alias is not None else rel.name
        if _spark_rewritable(node, rel, self.work, keyed_ok=False) and not any(rel.column(c).type == "numeric" for c in sets):
            # old rows retracted and new rows added by one Spark job
            sets = assignment_sql(sets, rel)
            where = f" WHERE {pg_sql(node.whereClause)}" if node.whereClause is not None else ""
            source = f"{_qualified(rel)} AS {quoted(alias)}"
            new = ", ".join(
                f"{_spark_cast(sets[c.name], c.type)} AS {quoted(c.name)}" if c.name in sets else f"{quoted(alias)}.{quoted(c.name)}"
                for c in rel.columns
            )  # (no unconstrained numeric is set: its new values would change the old ones' type in the UNION)
            query = pglast.parse_sql(
                f"SELECT {quoted(alias)}.*, -1 AS _diff FROM {source}{where} UNION ALL SELECT {new}, 1 AS _diff FROM {source}{where}"
            )[0].stmt
            written = await self.spark_write(query, rel)
            if written is not None:
                return Result(f"UPDATE {written // 2}")
        plan = None if node.fromClause else _point_assignments(node.targetList, rel, alias, self.params)
        old = await self._probed(node, rel, alias) if plan is not None else None
        if old is not None:
            changed = _assign(plan, old)
        else:
            sets = assignment_sql(sets, rel)
            exprs = [f'{quoted(alias)}.{ROWID} AS {ROWID}'] + [
                f'{_assigned(sets[c.name], c.type)} AS {quoted("__new_" + c.name)}' for c in rel.columns if c.name in sets
            ]
            current, rowids, out = await self._matching(node, rel, exprs, node.fromClause)
            old = current.take(rowids)
            changed = out.drop_columns([ROWID]).rename_columns([c.removeprefix("__new_") for c in out.column_names[1:]])
        new_cols = [changed.column(c.name) if c.name in sets else old.column(c.name) for c in rel.columns]
        new = await self.conform(pa.Table.from_arrays(new_cols, names=rel.column_names), rel, changed=set(sets))
        if any(c in sets for _n, cols in rel.keys for c in cols) or any(p for _n, _c, p in rel.unique_keys):  # else every row keeps its keys
            await self.check_unique(rel, new, removed=old)
            await self.references.removed(rel, old, new)
        await self.references.check_referencing(rel, new, set(sets))
        await self.work.write(rel.shard, old, -1)
        await self.work.write(rel.shard, new, 1)
        return await self._returning(node, rel, new, f"UPDATE {new.num_rows}")

    async def delete(self, node: ast.DeleteStmt) -> Result:
        await self._check_scopes(node)
        node = _read_ctes(node)
        rel = await self.target(node.relation)
        alias = node.relation.alias.aliasname if node.relation.alias is not None else rel.name
        if _spark_rewritable(node, rel, self.work, keyed_ok=True):
            where = f" WHERE {pg_sql(node.whereClause)}" if node.whereClause is not None else ""
            query = pglast.parse_sql(f"SELECT {quoted(alias)}.*, -1 AS _diff FROM {_qualified(rel)} AS {quoted(alias)}{where}")[0].stmt
            written = await self.spark_write(query, rel)
            if written is not None:
                return Result(f"DELETE {written}")
        old = None if node.usingClause else await self._probed(node, rel, alias)
        if old is None:
            current, rowids, _out = await self._matching(node, rel, [f"{quoted(alias)}.{ROWID} AS {ROWID}"], node.usingClause)
            old = current.take(rowids)
        await self.references.removed(rel, old)
        await self.work.write(rel.shard, old, -1)
        return await self._returning(node, rel, old, f"DELETE {old.num_rows}")

    async def truncate(self, node: ast.TruncateStmt) -> Result:
        rels = [await self.target(rv) for rv in node.relations]
        if node.behavior.name == "DROP_CASCADE":
            rels = await self.references.truncate_cascade(rels)
        await self.references.refuse_truncate(rels)
        for rel in rels:
            await self.work.write(rel.shard, await self.work.contents(rel), -1)
        return Result("TRUNCATE TABLE")

    async def scalar(self, expr: str):
        """The value of a constant expression (PostgreSQL SQL, e.g. a column default)."""
        out = await self.run(transpile(f"SELECT {expr}"), {})
        return out.column(0)[0].as_py()

    async def _probed(self, node, rel: Relation, alias: str) -> pa.Table | None:
        """The rows an UPDATE or DELETE touches when its WHERE pins keys and
        says nothing more (``keyprobe.exactly``): read by key, with no
        engine to filter them. None for any other WHERE."""
        probe = key_probe(node.whereClause, rel, alias, self.params)
        if probe is None or not exactly(node.whereClause, probe, rel, alias, self.params):
            return None
        return await self.work.lookup(rel, probe.cols, probe.keys)

    async def reads_again(self, node, rel: Relation, reading: ast.RangeVar | None) -> bool:
        """Whether ``node`` reads ``rel`` other than through ``reading`` (a
        subquery of the same table, a join to itself) or reads a view (which
        may read it). The engine gets one input per table: rows found by key
        for ``reading`` would stand for the whole table there too (``SELECT
        (SELECT max(k) FROM t) FROM t WHERE k = 1`` answered 1)."""
        catalog = await self.work.catalog()
        for n in p.walk(node):
            if isinstance(n, ast.RangeVar) and n is not reading:
                found = catalog.lookup(n.relname, n.schemaname, self.search_path)
                if found is not None and (found.shard == rel.shard or found.kind != "table"):
                    return True
        return False

    async def _matching(self, node, rel: Relation, exprs: list[str], extra_from) -> tuple[pa.Table, pa.Array, pa.Table]:
        """The rows the statement may touch (those with the keys its WHERE
        pins, ``planner.keyprobe``, else the table's contents), the row ids
        among them it matches (each once) and the expressions evaluated
        for them."""
        alias = node.relation.alias.aliasname if node.relation.alias is not None else rel.name
        probe = None if extra_from else key_probe(node.whereClause, rel, alias, self.params)
        if probe is not None and await self.reads_again(node, rel, node.relation):
            probe = None  # read again in a subquery: the whole table
        if probe is not None:
            current = await self.work.lookup(rel, probe.cols, probe.keys)
        else:
            current = await self.work.contents(rel)
        sources = [pg_sql(node.relation)] + [pg_sql(f) for f in extra_from or ()]
        where = f" WHERE {pg_sql(node.whereClause)}" if node.whereClause is not None else ""
        sql = f"SELECT {', '.join(exprs)} FROM {', '.join(sources)}{where}"
        select = pglast.parse_sql(sql)[0].stmt
        binder = await self.binder()
        bound = binder.bind(select, outputs=False)
        target_name = binder.internal(rel)
        numbered = current.append_column(ROWID, pa.array(range(current.num_rows), pa.int64()))
        out = await self.run(bound.sql, await self.inputs(bound, {target_name: numbered}), bound.views)
        if extra_from:
            # A row joined to several others is changed once (the first match).
            ids = out.column(ROWID).to_pylist()
            first: dict[int, int] = {}
            for i, r in enumerate(ids):
                first.setdefault(r, i)
            out = out.take(pa.array(sorted(first.values()), pa.int64()))
        return current, out.column(ROWID), out

    async def _returning(self, node, rel: Relation, rows: pa.Table, tag: str) -> Result:
        clause = getattr(node, "returningClause", None)
        if clause is None or not clause.exprs:
            return Result(tag)
        if await self.reads_again(clause.exprs, rel, None):
            raise not_supported("RETURNING a subquery that reads the table the statement writes")  # (it would read the rows returned)
        target = pg_sql(node.relation)
        select = pglast.parse_sql(f"SELECT {', '.join(pg_sql(e) for e in clause.exprs)} FROM {target}")[0].stmt
        binder = await self.binder()
        bound = binder.bind(select)
        out = await self.run(bound.sql, await self.inputs(bound, {binder.internal(rel): rows}), bound.views)
        result = to_result(tag, out, p.output_names(select))
        result.set_origins(column_origins(clause.exprs, [node.relation], await self.work.catalog(), self.search_path))
        return result

    # -- checks ----------------------------------------------------------------

    async def check_unique(self, rel: Relation, new: pa.Table, *, removed: pa.Table | None = None) -> None:
        """23505 unless adding ``new`` to ``rel`` (after taking ``removed``,
        rows of it, away) keeps every key unique (a partial unique index's
        among the rows its predicate holds for). The existing rows are found
        by key search for ``new``'s keys only, so the cost does not grow with
        the table and only those keys join the read set."""
        for name, cols, predicate in rel.unique_keys:
            cols = list(cols)
            rows = new if predicate is None else await self.satisfying(rel, predicate, new)
            if not rows.num_rows:
                continue
            probe = rows.select(cols)
            existing = await self.work.lookup(rel, cols, probe)
            if removed is not None and removed.num_rows and existing.num_rows:
                existing = _remove_rows(existing, removed.filter(matching(removed, cols, key_tuples(probe, cols))))
            if predicate is not None and existing.num_rows:
                existing = await self.satisfying(rel, predicate, existing)
            await off_loop(rows.num_rows, check_unique_on, rel, name, cols, existing, rows)

    async def generated_values(self, rel: Relation, rows: pa.Table) -> pa.Table:
        """``rows`` (of ``rel``, stored types) with each generated column
        computed from the row's other columns, as PostgreSQL stores it."""
        exprs = ", ".join(f'{stored_cast(transpile(c.generated), c.type)} AS {quoted(c.name)}' for c in rel.generated)
        out = await self.run(f'SELECT {exprs} FROM "_rows" AS {quoted(rel.name)}', {"_rows": rows})
        for c in rel.generated:
            i = rows.schema.get_field_index(c.name)
            rows = rows.set_column(i, rows.schema.field(i), out.column(c.name).cast(rows.schema.field(i).type))
        return rows

    async def holding(self, rel: Relation, predicate: str | None, rows: pa.Table) -> list[bool]:
        """For each of ``rows`` (of ``rel``), whether a partial index's
        predicate holds for it (every row for None)."""
        if predicate is None:
            return [True] * rows.num_rows
        out = await self.run(f'SELECT coalesce({transpile(predicate)}, false) AS held FROM "_rows" AS {quoted(rel.name)}', {"_rows": rows})
        return out.column(0).to_pylist()

    async def satisfying(self, rel: Relation, predicate: str, rows: pa.Table) -> pa.Table:
        """The rows of ``rel`` (``rows``) a predicate (a partial index's, in
        PostgreSQL SQL) holds for."""
        return rows.filter(pa.array(await self.holding(rel, predicate, rows), pa.bool_()))

    async def conform(self, out: pa.Table, rel: Relation, *, changed: set[str] | None = None) -> pa.Table:
        """``out`` cast to ``rel``'s stored types, its generated columns
        computed, after NOT NULL, length and CHECK constraints. ``changed``:
        the columns an UPDATE assigned (the others are stored values,
        conformed already), None for all."""
        if rel.generated:
            out = await self.generated_values(rel, conform(out, rel, generated=False))
            changed = None  # (a generated column may follow any assigned one)
        rows = conform(out, rel, changed=changed)
        for name, expr in rel.checks:
            if await self.violations(rel, expr, rows):
                raise SqlError(
                    CHECK_VIOLATION, f'new row for relation "{rel.name}" violates check constraint "{name}"',
                    schema=rel.schema, table=rel.name, constraint=name,
                )
        return rows

    async def violations(self, rel: Relation, expr: str, rows: pa.Table) -> int:
        """How many of ``rows`` (of ``rel``) a CHECK expression rejects (false, not NULL)."""
        bad = await self.run(f'SELECT count(*) AS n FROM "_new" AS {quoted(rel.name)} WHERE NOT ({transpile(expr)})', {"_new": rows})
        return bad.column(0)[0].as_py()



_PLAIN_TYPES = ("smallint", "integer", "bigint", "text", "varchar", "double precision", "real", "boolean", "date", "timestamp", "timestamptz")


_LITERAL_TYPES = {ast.Integer: ("ival", pa.int32()), ast.String: ("sval", pa.string()), ast.Boolean: ("boolval", pa.bool_())}


def _constant_row(node) -> pa.Table | None:
    """The one row of ``SELECT literal, ...`` without any other clause
    (clients' liveness probes, ``SELECT 1``): it reads nothing, so it needs
    no timestamp, catalog or engine. None for anything else."""
    if not isinstance(node, ast.SelectStmt) or not node.targetList or node.fromClause:
        return None
    if any(getattr(node, a) for a in node.__slots__ if a != "targetList"):
        return None
    columns = {}
    for i, t in enumerate(node.targetList):
        v = t.val
        if not isinstance(v, ast.A_Const) or v.isnull or type(v.val) not in _LITERAL_TYPES:
            return None
        attr, typ = _LITERAL_TYPES[type(v.val)]
        columns[f"c{i}"] = pa.array([getattr(v.val, attr)], typ)
    return pa.table(columns)


def _plain_projection(node: ast.SelectStmt, rel: Relation) -> list[str] | None:
    """The columns a point SELECT returns when it is only ``SELECT cols
    FROM t WHERE key = value`` over plainly typed columns, else None."""
    if any(getattr(node, a) for a in ("distinctClause", "groupClause", "havingClause", "sortClause", "limitCount", "limitOffset", "windowClause", "withClause")):
        return None
    if not isinstance(node.whereClause, ast.A_Expr):
        return None
    out = []
    for t in node.targetList:
        v = t.val
        if t.name or not isinstance(v, ast.ColumnRef):
            return None
        last = v.fields[-1]
        if isinstance(last, ast.A_Star):
            out.extend(rel.column_names)
            continue
        if len(v.fields) > 2 or last.sval not in rel.column_names:
            return None
        if len(v.fields) == 2 and v.fields[0].sval != _alias(node):
            return None
        out.append(last.sval)
    if any(not (rel.column(c).type in _PLAIN_TYPES or rel.column(c).type.startswith(("numeric(", "varchar("))) for c in out):
        return None
    return out


def _alias(node: ast.SelectStmt) -> str | None:
    rv = node.fromClause[0] if node.fromClause and isinstance(node.fromClause[0], ast.RangeVar) else None
    return None if rv is None else (rv.alias.aliasname if rv.alias is not None else rv.relname)


def _direct_point(node, catalog, search_path, params):
    """(relation, key probe, output columns) for ``SELECT plain columns
    FROM table WHERE key = constant`` (or ``key IN (...)``), resolved straight from the
    catalog so the statement needs no binding; None otherwise."""
    if not isinstance(node, ast.SelectStmt) or len(node.fromClause or ()) != 1 or not isinstance(node.fromClause[0], ast.RangeVar):
        return None
    rv = node.fromClause[0]
    rel = catalog.lookup(rv.relname, rv.schemaname, search_path)
    if rel is None or rel.kind != "table":
        return None
    probe = _point_on(node, rel, params)
    columns = _plain_projection(node, rel) if probe is not None else None
    if columns is None:
        return None
    return rel, probe, columns


def _point_lookup(node, bound, params):
    """(internal name, relation, key probe) when ``node`` is a
    single-table SELECT whose WHERE pins the keys of a uniqueness
    constraint: the key search then supplies the (few) rows and DuckDB
    evaluates the rest of the query over them."""
    if len(bound.tables) != 1 or bound.views or bound.virtual:
        return None
    if not isinstance(node, ast.SelectStmt) or len(node.fromClause or ()) != 1 or not isinstance(node.fromClause[0], ast.RangeVar):
        return None
    (name, rel), = bound.tables.items()
    probe = _point_on(node, rel, params)
    return None if probe is None else (name, rel, probe)


def _point_on(node, rel, params) -> Probe | None:
    """The key probe of ``node`` (a SELECT over ``rel`` alone): the keys
    of one of ``rel``'s uniqueness constraints its WHERE pins."""
    if node.valuesLists or (node.op is not None and node.op.name != "SETOP_NONE") or node.whereClause is None:
        return None
    rv = node.fromClause[0]
    alias = rv.alias.aliasname if rv.alias is not None else rv.relname
    return key_probe(node.whereClause, rel, alias, params)


def conform_rows(rel: Relation, rows: pa.Table) -> pa.Table:
    """``conform`` for rows that may carry a ``_diff`` column (kept as is);
    what Spark executors apply to each batch they write."""
    if DIFF not in rows.column_names:
        return conform(rows, rel)
    diff = rows.column(DIFF)
    return conform(rows.drop_columns([DIFF]), rel).append_column(DIFF, diff)


def _checked(query: ast.SelectStmt, rel: Relation, *, diff: bool) -> ast.SelectStmt:
    """``query`` (``rel``'s columns, then ``_diff`` if ``diff``) with
    ``_diff`` always last, and what ``conform`` does done in SQL, for Spark's own Parquet writer: each
    column cast to its stored type, NOT NULL (23502), varchar(n) and
    char(n) lengths (22001), char(n) padding. Errors are raised with
    ``raise_error`` carrying the SQLSTATE (see spark_exec.runtime); an
    unconstrained numeric refuses digits past the ones it keeps (22003)."""
    names = rel.column_names + ([DIFF] if diff else [])
    exprs = []
    for col in rel.columns:
        ref = f"__w.{quoted(col.name)}"
        value = f"CAST({ref} AS {_cast_type(col.type)})"
        if col.type == "numeric":
            value = spark_stored_numeric(ref)
        if col.type.startswith(("varchar(", "char(")):
            limit = int(col.type[col.type.index("(") + 1 : -1])
            kind = "character varying" if col.type.startswith("varchar") else "character"
            text = f"rtrim({value})" if col.type.startswith("char(") else value
            fail = spark_raise("22001", f"value too long for type {kind}({limit})")
            fitted = f"rpad({text}, {limit}, ' ')" if col.type.startswith("char(") else text
            fitted = f"left({fitted}, {limit})" if col.type.startswith("varchar") else fitted  # spaces past the limit are cut off
            value = f"CASE WHEN char_length(rtrim({text})) > {limit} THEN {fail} ELSE {fitted} END"
        if col.not_null:
            fail = spark_raise("23502", f'null value in column "{col.name}" of relation "{rel.name}" violates not-null constraint')
            value = f"CASE WHEN {ref} IS NULL THEN CAST({fail} AS {_cast_type(col.type)}) ELSE {value} END"
        exprs.append(f"{value} AS {quoted(col.name)}")
    # every part holds _diff (readers expect it): 1 unless the query says
    exprs.append(f"CAST({'__w.' + DIFF if diff else 1} AS bigint) AS {DIFF}")
    aliases = ", ".join(quoted(n) for n in names)
    return pglast.parse_sql(f"SELECT {', '.join(exprs)} FROM ({pg_sql(query)}) AS __w({aliases})")[0].stmt


def _spark_cast(expr: str, sql_type: str) -> str:
    """PostgreSQL SQL for Spark casting ``expr`` to a ``sql_type`` column's
    type: bytea and uuid text is decoded, an unconstrained numeric checked
    and cast, by conform() or ``_checked``."""
    if sql_type in ("bytea", "uuid", "numeric"):
        return f"({expr})"
    return f"CAST(({expr}) AS {_cast_type(sql_type)})"


def _spark_rewritable(node, rel: Relation, work: Work, *, keyed_ok: bool) -> bool:
    """Whether an UPDATE or DELETE may run on Spark (the router decides if
    it does): no FROM/USING, RETURNING or WITH, outside a transaction block,
    and — for UPDATE — no key or CHECK to enforce across rows."""
    return (
        work.db.spark is not None and not work.explicit and not node.returningClause and not node.withClause
        and not getattr(node, "fromClause", None) and not getattr(node, "usingClause", None)
        and (keyed_ok or (not rel.keys and not rel.checks)) and not any(is_enum(c.type) or c.generated for c in rel.columns)
    )


def _qualified(rel: Relation) -> str:
    return f"{quoted(rel.schema)}.{quoted(rel.name)}"


def _cast_type(sql_type: str) -> str:
    """The type a Spark-side CAST targets (conform() pads char(n), checks varchar(n))."""
    return "text" if sql_type.startswith(("varchar", "char", "json")) else _pg_type(sql_type)


def _too_many_expressions(select: ast.SelectStmt, targets: int) -> SqlError:
    """42601 at the first expression past the target columns (of the first
    VALUES row, or of the SELECT list), as PostgreSQL points."""
    row = select.valuesLists[0] if select.valuesLists else [t.val for t in select.targetList or ()]
    extra = row[targets] if len(row) > targets else None
    location = getattr(extra, "location", -1) if extra is not None else -1
    return SqlError(SYNTAX_ERROR, "INSERT has more expressions than target columns", position=location + 1 if location >= 0 else None)


def _spark_insertable(node: ast.InsertStmt, rel: Relation, work: Work) -> bool:
    """Whether an INSERT may run on Spark: a SELECT (not VALUES) into a
    table with no key, CHECK or serial column to enforce, no ON CONFLICT or
    RETURNING, outside a transaction block (its rows are not read back)."""
    select = node.selectStmt
    return (
        select is not None and not select.valuesLists and node.onConflictClause is None and not node.returningClause
        and not node.withClause and not rel.keys and not rel.checks and not work.explicit
        and not any(c.filled or is_enum(c.type) or c.generated for c in rel.columns) and work.db.spark is not None
    )


def _check_labels(c, sql_type: str) -> None:
    """22P02 unless each of ``c``'s values is a label of the enum ``sql_type``."""
    enum = enum_type(sql_type)
    if enum is None or pa.types.is_null(c.type):
        return  # (no catalog in scope: a Spark executor's batch, which the router keeps from enum columns; or no values)
    known = pa.array(enum.labels, pa.string())
    wrong = pc.and_(pc.invert(pc.is_in(c, value_set=known)), pc.is_valid(c))
    if pc.any(wrong).as_py():
        value = c.filter(wrong)[0].as_py()
        raise SqlError("22P02", f'invalid input value for enum {enum.name}: "{value}"')


def conform(out: pa.Table, rel: Relation, *, generated: bool = True, changed: set[str] | None = None) -> pa.Table:
    """``out`` (a computed table with ``rel``'s columns) in ``rel``'s stored
    types, checked: NOT NULL (23502), varchar(n)/char(n) lengths (22001),
    char(n) padded, uuid and bytea text decoded, array elements likewise
    (not generated columns' NOT NULL when ``generated`` is false: they are
    computed after). ``changed``: the only columns that may need it (the
    others hold stored values of their types), None for all."""
    cols = []
    for col, f in zip(rel.columns, rel.schema_arrow):
        c = out.column(col.name)
        if changed is not None and col.name not in changed and c.type == f.type:
            cols.append(c)
            continue
        if col.not_null and c.null_count and (generated or col.generated is None):
            raise SqlError(
                NOT_NULL_VIOLATION,
                f'null value in column "{col.name}" of relation "{rel.name}" violates not-null constraint',
                detail=_failing_row(out, rel, c), schema=rel.schema, table=rel.name, column=col.name,
            )
        if is_enum(col.type):
            _check_labels(c, col.type)
        cols.append(_conform_values(c, col.type, f.type))
    try:
        stored = [cast_to(c, f.type) for c, f in zip(cols, rel.schema_arrow)]  # (a safe cast: decimals lose no digit)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        if "Rescaling Decimal" in str(e):
            raise SqlError(NUMERIC_VALUE_OUT_OF_RANGE, TOO_MANY_PLACES) from None
        raise SqlError("22P02", str(e)) from None
    stored = [c if col.precision is None or changed is not None and col.name not in changed else _rounded_fraction(c, col.precision)
              for c, col in zip(stored, rel.columns)]
    return pa.Table.from_arrays(stored, schema=rel.schema_arrow)


#: microseconds past these are infinity and -infinity (kept as they are)
_INFINITE_MICROS = (1 << 63) - 1


def _rounded_fraction(c, precision: int):
    """Timestamps or times (microseconds) rounded to ``precision`` fraction
    digits, half away from zero, as PostgreSQL's AdjustTimestampForTypmod
    (a time may round up to 24:00:00)."""
    if precision >= 6 or not len(c):
        return c
    if isinstance(c, pa.ChunkedArray):
        c = c.combine_chunks()
    scale, micros = 10 ** (6 - precision), c.cast(pa.int64())
    v = micros.fill_null(0).to_numpy()
    rounded = np.where(v >= 0, (v + scale // 2) // scale * scale, -((-v + scale // 2) // scale * scale))
    rounded = np.where(np.abs(v) >= _INFINITE_MICROS, v, rounded)
    return pa.array(rounded, pa.int64(), mask=c.is_null().to_numpy(zero_copy_only=False)).cast(c.type)


def _failing_row(out: pa.Table, rel: Relation, column) -> str | None:
    """PostgreSQL's DETAIL for a row refused: its values as text, of the
    first row whose ``column`` is NULL (None when they cannot be shown)."""
    try:
        i = pc.index(pc.is_null(column), True).as_py()
        row = out.slice(i, 1).to_pylist()[0]
        values = [format_value(row.get(c.name), c.type) for c in rel.columns]
    except (pa.ArrowException, KeyError, TypeError, ValueError):
        return None
    return "Failing row contains (" + ", ".join("null" if v is None else v for v in values) + ")."


def _conform_values(c, sql_type: str, stored: pa.DataType):
    """One column's (or an array column's elements') values made storable as ``sql_type``."""
    if sql_type.endswith("[]"):
        if pa.types.is_null(c.type) or not len(c):
            return c
        if pa.types.is_list(c.type) and pa.types.is_list(c.type.value_type):
            raise SqlError(FEATURE_NOT_SUPPORTED, f"multidimensional arrays are not supported (as a value of a column of type {sql_type})")
        element = sql_type[:-2]
        return map_elements(c, lambda v: _conform_values(v, element, stored.value_type).cast(stored.value_type), stored.value_type)
    if isinstance(c.type, pa.UuidType):
        chunks = c.chunks if isinstance(c, pa.ChunkedArray) else [c]
        c = pa.chunked_array([x.storage for x in chunks], pa.binary(16))
    if stored.equals(pa.binary(16)) and pa.types.is_string(c.type):
        try:
            c = pa.array([None if v is None else uuid.UUID(v).bytes for v in c.to_pylist()], pa.binary(16))
        except ValueError as e:
            raise SqlError("22P02", f"invalid input syntax for type uuid: {e}") from None
    if sql_type in ("json", "jsonb") and len(c):
        c = _json_values(c, sql_type)
    if sql_type == "bytea" and pa.types.is_string(c.type):
        try:
            c = pa.array([None if v is None else parse_bytea(v) for v in c.to_pylist()], pa.binary())
        except ByteaInputError as e:
            raise SqlError(e.sqlstate, str(e)) from None
    if sql_type.startswith(("varchar(", "char(")) and len(c):
        limit = int(sql_type[sql_type.index("(") + 1 : -1])
        if sql_type.startswith("char("):
            c = pc.utf8_rtrim(c, characters=" ")
        longest = pc.max(pc.utf8_length(c)).as_py()
        if longest is not None and longest > limit:  # only spaces may go past the limit (they are cut off)
            over = pc.greater(pc.utf8_length(c), limit)
            if pc.any(pc.greater(pc.utf8_length(pc.utf8_rtrim(c, characters=" ")), limit)).as_py():
                kind = "character varying" if sql_type.startswith("varchar") else "character"
                raise SqlError(STRING_DATA_RIGHT_TRUNCATION, f"value too long for type {kind}({limit})")
            c = pc.if_else(over, pc.utf8_slice_codeunits(c, 0, limit), c)
        if sql_type.startswith("char("):
            c = pc.utf8_rpad(c, width=limit, padding=" ")
    return c


def _json_values(c, sql_type: str):
    """json values checked (22P02 for text that is not JSON); jsonb ones
    in canonical form, as jsonb stores and prints them."""
    if isinstance(c.type, pa.JsonType):
        c = c.cast(pa.string())
    if not (pa.types.is_string(c.type) or pa.types.is_large_string(c.type)):
        return c
    try:
        if sql_type == "jsonb":
            return pa.array([jsonb.canonical(v) for v in c.to_pylist()], pa.string())
        for v in c.to_pylist():
            if v is not None:
                jsonb.parse(v)
    except jsonb.JsonError as e:
        raise SqlError(e.sqlstate, e.message, detail=e.detail) from None
    return c


def check_unique_on(rel: Relation, name: str, cols: list[str], existing: pa.Table, new: pa.Table) -> None:
    """23505 unless ``new`` added to ``existing`` keeps the key on ``cols`` unique."""
    seen = set(_key_index(existing, cols))
    for key in zip(*(key_values(new.column(c)) for c in cols)):
        if None in key:
            continue
        if key in seen:
            raise duplicate_key(rel, name, cols, key)
        seen.add(key)


def duplicate_key(rel: Relation, name: str, cols: list[str], key: tuple) -> SqlError:
    """23505 for ``key`` (``key_values`` of ``cols``), shown as PostgreSQL shows it."""
    shown = ", ".join(_key_text(v, rel, c) for v, c in zip(key, cols))
    return SqlError(UNIQUE_VIOLATION, f'duplicate key value violates unique constraint "{name}"', detail=f"Key ({', '.join(cols)})=({shown}) already exists.",
                    schema=rel.schema, table=rel.name, constraint=name)


def _key_index(table: pa.Table, cols) -> dict[tuple, int]:
    cols = list(cols)
    if table.num_rows == 0:
        return {}
    columns = [key_values(table.column(c)) for c in cols]
    return {key: i for i, key in enumerate(zip(*columns)) if None not in key}


def key_value(v):
    """A key column's Python value, hashable (an array as a tuple: arrays
    are equal when their elements are, NULL elements included)."""
    return tuple(v) if isinstance(v, list) else v


def key_values(column) -> list:
    """A key column's values, hashable and comparable as the column's
    (dates and times as their integer storage: ``comparable``)."""
    values = comparable(column).to_pylist()
    return [key_value(v) for v in values] if pa.types.is_list(column.type) else values


def _key_text(value, rel: Relation, col: str) -> str:
    """A ``key_values`` value of ``rel``'s column ``col`` as PostgreSQL prints it."""
    arrow = rel.schema_arrow.field(col).type
    if pa.types.is_temporal(arrow) and isinstance(value, int):  # a date or time as its storage
        return format_column(pa.array([value], comparable(pa.array([], arrow)).type).cast(arrow), rel.column(col).type)[0].as_py()
    return format_value(list(value) if isinstance(value, tuple) else value, rel.column(col).type)


def _remove_rows(current: pa.Table, removed: pa.Table) -> pa.Table:
    both = pa.concat_tables([with_diff(current, 1), with_diff(removed.cast(current.schema), -1)])
    return expand(collapse(both))


def assignments(targets, rel: Relation) -> dict[str, object]:
    """The SET clause checked as PostgreSQL checks it: each assigned column
    with what it is set to (its default's SQL, or an expression node whose
    SQL ``assignment_sql`` makes: a point UPDATE computed without an
    engine never needs it)."""
    sets: dict[str, object] = {}
    subscripted: set[str] = set()  # columns assigned only by subscripts so far: a[1] = x, a[2] = y
    for target in targets:
        if isinstance(target.val, ast.MultiAssignRef):
            target = _one_of_many(target)
        col = rel.column(target.name, target.location)
        if target.name in sets and not (target.indirection and target.name in subscripted):
            raise SqlError(SYNTAX_ERROR, f'multiple assignments to same column "{target.name}"')
        if target.indirection:
            base = sets.get(col.name, ast.ColumnRef(fields=(ast.String(sval=col.name),)))
            sets[col.name] = _subscript_assignment(col.type, target, base)
            subscripted.add(col.name)
            continue
        if (col.default == IDENTITY_ALWAYS or col.generated is not None) and not isinstance(target.val, ast.SetToDefault):
            kind = "a generated column" if col.generated is not None else "an identity column defined as GENERATED ALWAYS"
            raise SqlError("428C9", f'column "{col.name}" can only be updated to DEFAULT', detail=f'Column "{col.name}" is {kind}.')
        if col.generated is not None:
            continue  # (computed again from the new row: conform)
        if isinstance(target.val, ast.SetToDefault):
            if col.filled:
                raise not_supported("SET ... = DEFAULT for a serial or identity column")
            sets[col.name] = col.default if col.default is not None else "NULL"
        else:
            sets[col.name] = target.val
    return sets


def _one_of_many(target: ast.ResTarget) -> ast.ResTarget:
    """One column of ``SET (a, b) = (x, y)`` or ``= (SELECT x, y ...)``: its
    own value (the subquery's column of the same position)."""
    ref = target.val
    source = ref.source
    if isinstance(source, ast.RowExpr):
        if len(source.args) != ref.ncolumns:
            raise SqlError("42601", "number of columns does not match number of values")
        return ast.ResTarget(name=target.name, indirection=target.indirection, val=source.args[ref.colno - 1], location=target.location)
    if isinstance(source, ast.SubLink) and source.subLinkType.name == "EXPR_SUBLINK" and isinstance(source.subselect, ast.SelectStmt) \
            and source.subselect.targetList and source.subselect.op.name == "SETOP_NONE":
        select = copy.deepcopy(source.subselect)
        if len(select.targetList) != ref.ncolumns:
            raise SqlError("42601", "number of columns does not match number of values")
        select.targetList = (select.targetList[ref.colno - 1],)
        return ast.ResTarget(name=target.name, indirection=target.indirection, location=target.location,
                             val=ast.SubLink(subLinkType=source.subLinkType, subselect=select))
    raise SqlError("0A000", "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression")


def _subscript_assignment(sql_type: str, target: ast.ResTarget, base: ast.Node) -> ast.Node:
    """``SET a[i] = v`` (an array's element) or ``SET j['k'][0] = v`` (a
    jsonb member, created with its path) as the whole column's new value,
    computed from ``base`` (the column, or its earlier subscript
    assignments in the same SET)."""
    steps = target.indirection
    if any(not isinstance(s, ast.A_Indices) for s in steps):
        raise not_supported("assignment to fields of a composite column")
    if sql_type == "jsonb" and any(s.is_slice for s in steps):
        raise SqlError("0A000", "jsonb subscript does not support slices")
    if sql_type == "jsonb":
        keys = ast.A_ArrayExpr(elements=tuple(ast.FuncCall(funcname=(ast.String(sval="txngate_jsonb_key"),), args=(s.uidx,)) for s in steps))
        value = ast.TypeCast(arg=target.val, typeName=type_name("jsonb"))
        return ast.FuncCall(funcname=(ast.String(sval="txngate_jsonb_subscript_assign"),), args=(base, keys, value))
    if not sql_type.endswith("[]"):
        raise SqlError("42804", f'cannot subscript type {sql_type} because it does not support subscripting')
    if len(steps) > 1:
        raise SqlError("2202E", "wrong number of array subscripts")
    if steps[0].is_slice:  # a[lo:hi] = ARRAY[...]: a missing bound is the array's own
        lower = steps[0].lidx or ast.A_Const(val=ast.Integer(ival=1))
        upper = steps[0].uidx or ast.FuncCall(funcname=(ast.String(sval="len"),), args=(base,))
        value = ast.TypeCast(arg=target.val, typeName=type_name(sql_type))
        return ast.FuncCall(funcname=(ast.String(sval="txngate_array_assign_slice"),), args=(base, lower, upper, value))
    value = ast.TypeCast(arg=target.val, typeName=type_name(sql_type[:-2]))
    return ast.FuncCall(funcname=(ast.String(sval="txngate_array_assign"),), args=(base, steps[0].uidx, value))


def assignment_sql(sets: dict[str, object], rel: Relation) -> dict[str, str]:
    """``assignments`` as PostgreSQL SQL per column."""
    return {name: v if isinstance(v, str) else pg_sql(_stored_literal(v, rel.column(name).type)) for name, v in sets.items()}


def _stored_literal(value: ast.Node, sql_type: str) -> ast.Node:
    """``typed_literal`` of a value for a column of ``sql_type``: a
    multidimensional array literal is refused (0A000), as storage holds
    arrays of one dimension. A character(n)[] literal is read as text[]:
    an explicit cast cuts each element to n, an assignment refuses a longer
    one (22001, as storing checks it)."""
    typed = typed_literal(value, "text[]" if sql_type.startswith("char(") and sql_type.endswith("[]") else sql_type)
    if isinstance(typed, ast.TypeCast) and len(typed.typeName.arrayBounds or ()) > 1:
        raise not_supported("multidimensional arrays")
    return typed


def _constant_value(node, params):
    """(True, value) for a constant or parameter, or one cast to a type
    that keeps its value (``$1::BIGINT`` holding an int, ``$2::VARCHAR`` a
    string, as SQLAlchemy writes them), else (False, None)."""
    if isinstance(node, ast.TypeCast) and not node.typeName.arrayBounds:
        ok, value = _constant_value(node.arg, params)
        try:
            cast = canonical(node.typeName)
        except SqlError:
            return False, None
        keeps = (cast in ("text", "varchar") and isinstance(value, str)) or (cast == "boolean" and isinstance(value, bool)) \
            or (cast in INTEGER_RANGES and _fits(value, cast)) or (cast == "double precision" and _fits(value, cast))
        return (ok, value) if ok and keeps else (False, None)
    if isinstance(node, ast.ParamRef):
        return (True, params[node.number - 1]) if params and 0 < node.number <= len(params) else (False, None)
    if not isinstance(node, ast.A_Const):
        return False, None
    if node.isnull:
        return True, None
    v = node.val
    if isinstance(v, ast.Integer):
        return True, v.ival
    if isinstance(v, ast.String):
        return True, v.sval
    if isinstance(v, ast.Boolean):
        return True, v.boolval
    return False, None


def _fits(value, sql_type: str) -> bool:
    """Whether ``value`` (a Python constant) is stored in a ``sql_type``
    column exactly as PostgreSQL would store it, without parsing or
    rounding (anything else goes through the engine)."""
    if value is None:
        return True
    if sql_type.endswith("[]"):
        return False  # array text is parsed by the engine
    if sql_type in INTEGER_RANGES:
        return integer_fits(value, sql_type)
    if sql_type in ("real", "double precision"):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if sql_type in ("text", "varchar") or sql_type.startswith(("varchar(", "char(")):
        return isinstance(value, str)
    if sql_type == "boolean":
        return isinstance(value, bool)
    return False


def _constant_rows(select, rel: Relation, targets: list[str], batch: list, now=None) -> pa.Table | None:
    """The rows of ``INSERT ... VALUES`` whose values are all constants or
    parameters that need no conversion (``_fits``), or now() given to a
    timestamp column (``now(sql_type)``: pgbench's history rows), as a
    table of ``rel``'s columns (sequenced ones left NULL for
    ``fill_sequences``); None when an engine must compute them
    (expressions, defaults, other types). ``batch``: the parameter lists
    the statement runs with, its rows for each in turn."""
    if select is None or not select.valuesLists or select.sortClause or select.limitCount is not None:
        return None
    rows = [(row, params) for params in batch for row in select.valuesLists]
    if any(len(row) != len(targets) for row in select.valuesLists):
        return None
    at = {name: i for i, name in enumerate(targets)}
    arrays = []
    for col, field in zip(rel.columns, rel.schema_arrow):
        if col.default == IDENTITY_ALWAYS and col.name in at:
            return None  # (428C9 unless OVERRIDING SYSTEM VALUE)
        if col.name not in at:
            if col.default is not None and not col.filled:
                return None
            arrays.append(pa.nulls(len(rows), field.type))
            continue
        values = []
        for row, params in rows:
            node = row[at[col.name]]
            if now is not None and col.type in ("timestamp", "timestamptz") and _is_now(node):
                value = now(col.type)
                if value is None:
                    return None
                values.append(value)
                continue
            ok, value = _constant_value(node, params)
            if not ok or not _fits(value, col.type):
                return None
            values.append(value)
        arrays.append(pa.array(values, field.type))
    return pa.Table.from_arrays(arrays, names=rel.column_names)


def _is_now(node) -> bool:
    """CURRENT_TIMESTAMP, now() or transaction_timestamp()."""
    if isinstance(node, ast.SQLValueFunction):
        return node.op.name == "SVFOP_CURRENT_TIMESTAMP"
    return isinstance(node, ast.FuncCall) and not node.args and len(node.funcname) == 1 \
        and node.funcname[0].sval in ("now", "transaction_timestamp")


#: Integer types a point UPDATE adds to without an engine.
_SUMMABLE = ("integer", "bigint")


def _point_assignments(targets, rel: Relation, alias: str, params) -> dict[str, tuple] | None:
    """A SET clause computable without an engine, as ``{column: (source
    column or None, constant)}``: each column set to a constant or
    parameter of an integer or text type, to another column of its type,
    or (integer, bigint) to such a column plus or minus an integer
    constant. None when any assignment is anything else."""
    plan: dict[str, tuple] = {}
    for t in targets:
        if t.indirection or t.name not in rel.column_names or t.name in plan:
            return None
        sql_type, v = rel.column(t.name).type, t.val
        value = constant(v, sql_type, params)
        if value is not None:
            plan[t.name] = (None, value)
            continue
        source = column_of(v, rel, alias)
        if source is not None and rel.column(source).type == sql_type:
            plan[t.name] = (source, 0)
            continue
        if sql_type not in _SUMMABLE or not isinstance(v, ast.A_Expr) or v.kind.name != "AEXPR_OP" or v.lexpr is None:
            return None
        op = v.name[0].sval if len(v.name) == 1 else None
        pairs = [(v.lexpr, v.rexpr, 1 if op == "+" else -1)] + ([(v.rexpr, v.lexpr, 1)] if op == "+" else [])
        for col, const, sign in pairs if op in ("+", "-") else ():
            source, delta = column_of(col, rel, alias), constant(const, "integer", params)
            if source is not None and delta is not None and rel.column(source).type == sql_type:
                plan[t.name] = (source, sign * delta)
                break
        else:
            return None
    return plan


def _assign(plan: dict[str, tuple], rows: pa.Table) -> pa.Table:
    """The assigned columns of ``rows`` per ``_point_assignments``' plan,
    with PostgreSQL's overflow error (22003)."""
    out = {}
    for name, (source, value) in plan.items():
        target = rows.schema.field(name).type
        if source is None:
            out[name] = pa.repeat(pa.scalar(value, target), rows.num_rows)
        elif value == 0:
            out[name] = rows.column(source)
        else:
            sql_type = "integer" if pa.types.is_int32(target) else "bigint"
            lo, hi = INTEGER_RANGES[sql_type]
            try:
                summed = pc.add_checked(rows.column(source).cast(pa.int64()), pa.scalar(value, pa.int64()))
            except pa.ArrowInvalid:
                summed = None
            if summed is None or (len(summed) and not lo <= (pc.min(summed).as_py() or 0) <= (pc.max(summed).as_py() or 0) <= hi):
                raise SqlError(NUMERIC_VALUE_OUT_OF_RANGE, f"{sql_type} out of range")
            out[name] = summed.cast(target)
    return pa.table(out)


def _check_generated_targets(select, rel: Relation, targets: list[str]) -> None:
    """428C9 when an INSERT gives a generated column a value (DEFAULT in
    every VALUES row is the one allowed)."""
    for i, name in enumerate(targets):
        if rel.column(name).generated is None or select is None:
            continue
        if not select.valuesLists or not all(i < len(row) and isinstance(row[i], ast.SetToDefault) for row in select.valuesLists):
            raise SqlError("428C9", f'cannot insert a non-DEFAULT value into column "{name}"', detail=f'Column "{name}" is a generated column.')


def identity_always(name: str) -> SqlError:
    return SqlError("428C9", f'cannot insert a non-DEFAULT value into column "{name}"',
                    detail=f'Column "{name}" is an identity column defined as GENERATED ALWAYS.', hint="Use OVERRIDING SYSTEM VALUE to override.")


def _fill_defaults(select: ast.SelectStmt, rel: Relation, targets: list[str], sequenced: dict[int, Iterator[int]]) -> ast.SelectStmt:
    """VALUES rows with DEFAULT replaced by the column's default expression
    (by the next of ``sequenced``'s values for a column with a sequence),
    array literals given to array columns as ARRAYs and text given to
    integer, float and date columns read as PostgreSQL reads it
    (sqltypes.typed_literal)."""
    types = [rel.column(t).type for t in targets]
    arrays = any(t.endswith("[]") for t in types)
    checked = [i for i, t in enumerate(types) if t in INTEGER_RANGES or (t.startswith("numeric") and not t.endswith("[]"))
               or t in ("date", "timestamp", "timestamptz", "time", "real", "double precision", "boolean", "interval")]  # text PostgreSQL reads otherwise than DuckDB
    texts = any(isinstance(row[i], ast.A_Const) and isinstance(row[i].val, ast.String)
                for row in select.valuesLists for i in checked if i < len(row))
    several = len(select.valuesLists) > 1  # constants of one column typed by the column, not unified with each other
    if not (arrays or texts or several) and not any(isinstance(v, ast.SetToDefault) for row in select.valuesLists for v in row):
        return select
    select = copy.deepcopy(select)
    rows = []
    for row in select.valuesLists:
        out = []
        for i, v in enumerate(row):
            if isinstance(v, ast.SetToDefault):
                default = rel.column(targets[i]).default if i < len(targets) else None
                if i in sequenced:
                    expr = ast.TypeCast(arg=ast.A_Const(val=ast.String(sval=str(next(sequenced[i])))), typeName=type_name(types[i]))
                else:
                    expr = pglast.parse_sql(f"SELECT {default or 'NULL'}")[0].stmt.targetList[0].val
                out.append(expr)
            elif i < len(types):
                value = _stored_literal(v, types[i])
                out.append(_assigned_constant(value, types[i]) if several else value)
            else:
                out.append(v)
        rows.append(tuple(out))
    select.valuesLists = tuple(rows)
    return select


def _assigned_constant(value: ast.Node, sql_type: str) -> ast.Node:
    """A constant of a VALUES row cast to its column's type (without the
    length or scale, which the stored row is checked against): PostgreSQL
    types each VALUES column of an INSERT by its target column, so
    ``(1, 'NaN'), (2, 2.5)`` into a double and ``('a'), (3)`` into text are
    accepted, where DuckDB would unify the constants of a column first."""
    if not isinstance(value, ast.A_Const) or value.isnull:
        return value
    base = "text" if sql_type.startswith(("varchar", "char")) else "numeric" if sql_type.startswith("numeric") else sql_type
    return ast.TypeCast(arg=value, typeName=type_name(base))


def _read_ctes(node):
    """``node`` (INSERT, UPDATE or DELETE) without its WITH clause, the
    same statement: an INSERT's WITH moves to its SELECT; an UPDATE's or
    DELETE's CTEs are written where they are read, as subqueries (one
    snapshot: a CTE read twice gives the same rows twice), a recursive
    WITH's each as the whole WITH reading it. Data-modifying CTEs are
    refused."""
    w = node.withClause
    if w is None:
        return node
    if any(isinstance(c.ctequery, (ast.InsertStmt, ast.UpdateStmt, ast.DeleteStmt)) for c in w.ctes):
        raise not_supported("data-modifying statements in WITH")
    node = copy.copy(node)
    node.withClause = None
    select = getattr(node, "selectStmt", None)
    if select is not None and select.withClause is None and not select.valuesLists:
        node.selectStmt = copy.copy(select)
        node.selectStmt.withClause = w
        return node
    ctes: dict[str, ast.CommonTableExpr] = {}
    for cte in w.ctes:  # a CTE reads the ones before it; a recursive WITH's read each other: each is read through the whole WITH
        query = _read_through(w, cte.ctename) if w.recursive else _inlined(cte.ctequery, ctes)
        ctes[cte.ctename] = ast.CommonTableExpr(ctename=cte.ctename, aliascolnames=cte.aliascolnames, ctequery=query)
    target = node.relation
    node.relation = None  # the table written is never a CTE
    node = _inlined(node, ctes)
    node.relation = target
    return node


def _read_through(w: ast.WithClause, name: str) -> ast.SelectStmt:
    """``WITH RECURSIVE ... SELECT * FROM name``: the CTE ``name`` of the
    recursive ``w`` as a query of its own."""
    star = ast.ResTarget(val=ast.ColumnRef(fields=(ast.A_Star(),)))
    return ast.SelectStmt(withClause=copy.deepcopy(w), targetList=(star,), fromClause=(ast.RangeVar(relname=name, inh=True),),
                          op=SetOperation.SETOP_NONE)


def _inlined(node, ctes: dict):
    """A copy of ``node`` with each read of a CTE of ``ctes`` (an unqualified
    table name) replaced by its query, under the name it is read as."""
    node = copy.deepcopy(node)

    def subquery(n):
        if not isinstance(n, ast.RangeVar) or n.schemaname is not None or n.relname not in ctes:
            return None
        cte = ctes[n.relname]
        alias = ast.Alias(aliasname=n.alias.aliasname if n.alias is not None else n.relname,
                          colnames=(n.alias.colnames if n.alias is not None and n.alias.colnames else cte.aliascolnames) or None)
        return ast.RangeSubselect(lateral=False, subquery=copy.deepcopy(cte.ctequery), alias=alias)

    if ctes:
        for n in list(p.walk(node)):  # the queries put in are not read again (a recursive one reads its own name)
            if isinstance(n, ast.Node):
                replace_children(n, subquery)
    return node


def _first_dup(names: list[str]) -> str:
    return next(n for n in names if names.count(n) > 1)


def _assigned(expr: str, sql_type: str) -> str:
    """PostgreSQL SQL of ``expr`` assigned to a ``sql_type`` column (an
    unconstrained numeric refusing digits it would lose: ``stored_cast``)."""
    if sql_type == "numeric":
        return f"txngate_stored_numeric(({expr}))"
    return f"CAST(({expr}) AS {_pg_type(sql_type)})"


def _pg_type(sql_type: str) -> str:
    """A canonical type as PostgreSQL SQL the binder reads (an enum as its
    labels' text, a character(n) or character(n)[] as text, checked by
    ``conform``)."""
    if is_enum(sql_type.removesuffix("[]")) or sql_type.startswith("char("):
        return "text" + "[]" * sql_type.endswith("[]")  # (a character(n) fitted and checked by ``conform``: 22001, not cut)
    return "double precision" if sql_type == "double precision" else sql_type
