"""Choosing the engine for a statement, and running it on Spark.

``Router.plan(node, bound)`` decides where a bound query runs:

* ``txngate.engine = local`` (or no Spark configured): DuckDB;
* queries the local engine must answer: system catalogs, or tables this
  transaction wrote to (only DuckDB merges a transaction's own writes);
* otherwise the estimate — the encoded bytes of every part of every shard
  read, at ``read_ts`` (batch metadata, no data fetched) — decides:
  ``txngate.engine = spark``, or ``auto`` with the estimate at or above
  ``txngate.spark_threshold``, runs on Spark.

A Spark plan holds leases on the parts it reads (GC keeps them) until its
stream ends; its result is cast to the Arrow schema the local engine gives
the same query (asked of DuckDB over empty inputs), so both engines send
the same PostgreSQL types and text. If the driver cannot start, the query
fails with 58000 unless ``txngate.spark_fallback`` is on, in which case it
runs locally with a notice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import pyarrow as pa

from planner.errors import SqlError, not_supported
from planner.spark_sql import SparkRewriteError, to_spark
from spark_exec import SparkError, supported
from storage.persist import LeasedParts

#: Default routing threshold (encoded bytes read). bench/spark.py on this
#: 2-core machine: DuckDB beat Spark at every size up to 20M rows (262 MB of
#: snappy Parquet: 2.3 s cold vs 8.8 s), so the switch is set by memory,
#: not speed: above this a local snapshot (about 3x its encoded bytes in
#: Arrow) nears the local engine's memory limit.
DEFAULT_SPARK_THRESHOLD = 512 << 20


#: txngate.max_statement_memory's default: what one statement may hold in
#: memory (its text, a result it materializes); beyond it, 53200
DEFAULT_MAX_STATEMENT_MEMORY = 4 << 30


@dataclass
class ExecOptions:
    """A session's execution settings, as the planner needs them."""

    engine: str = "auto"  # auto | local | spark
    spark_threshold: int = DEFAULT_SPARK_THRESHOLD
    spark_fallback: bool = False
    max_memory: int = DEFAULT_MAX_STATEMENT_MEMORY  # txngate.max_statement_memory
    progress_every: float = 5.0
    on_notice: Callable[[str], None] | None = None


@dataclass
class Choice:
    """Where a statement runs, and why (for EXPLAIN)."""

    engine: str  # "local" | "spark"
    estimate: int | None
    reason: str
    sources: dict[str, LeasedParts] = field(default_factory=dict)

    def release(self) -> None:
        for leased in self.sources.values():
            leased.release()
        self.sources = {}


def out_of_memory(what: str, limit: int) -> SqlError:
    """53200 for a statement past txngate.max_statement_memory."""
    return SqlError("53200", "out of memory", detail=f"{what}; txngate.max_statement_memory is {limit} bytes",
                    hint="Raise txngate.max_statement_memory, or ask for less at once (a cursor, COPY TO, a narrower query).")


def parse_bytes(value: str, setting: str) -> int:
    text = value.strip().upper().replace(" ", "")
    units = {"": 1, "B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}
    for unit in sorted(units, key=len, reverse=True):
        if unit and text.endswith(unit):
            number, scale = text[: -len(unit)], units[unit]
            break
    else:
        number, scale = text, 1
    try:
        n = int(float(number) * scale)
    except ValueError:
        n = -1
    if n < 0:
        raise SqlError("22023", f'invalid value for parameter "{setting}": "{value}"', hint='Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".')
    return n


class Router:
    def __init__(self, work, options: ExecOptions, params: list | None, search_path: tuple[str, ...]):
        self.work = work
        self.options = options
        self.params = params
        self.search_path = search_path

    @property
    def spark(self):
        return self.work.db.spark

    async def choose(self, node, bound) -> Choice:
        """The engine for ``node`` (bound for DuckDB as ``bound``). A Spark
        choice holds leases on what it reads: release them when done."""
        forced = self.options.engine == "spark"
        if self.options.engine == "local" or self.spark is None:
            return Choice("local", None, f"txngate.engine = {self.options.engine}" if self.spark is not None else "Spark is not configured")
        if bound.virtual or bound.uncacheable:
            return Choice("local", None, "reads system catalogs")
        if any(self.work.local_only(rel) for rel in bound.tables.values()):
            return Choice("local", None, "reads this transaction's own writes")
        estimate = 0
        for rel in bound.tables.values():
            estimate += await self.work.estimate_bytes(rel)  # metadata only: nothing pinned yet
        if not forced and estimate < self.options.spark_threshold:
            return Choice("local", estimate, f"estimate below txngate.spark_threshold ({self.options.spark_threshold} bytes)")
        for rel in bound.tables.values():  # only now: most queries stop above
            why = supported(rel.schema_arrow)
            if why is not None:
                if forced:
                    raise not_supported(f"Spark execution of {rel.qualified} ({why})")
                return Choice("local", estimate, f"Spark cannot read {rel.qualified} ({why})")
        sources = {}
        try:
            for name, rel in bound.tables.items():
                sources[name] = await self.work.lease_parts(rel)
            estimate = sum(s.nbytes for s in sources.values())
            choice = Choice("spark", estimate, "txngate.engine = spark" if forced else f"estimate at or above txngate.spark_threshold ({self.options.spark_threshold} bytes)", sources)
            sources = {}
            return choice
        finally:
            for leased in sources.values():
                leased.release()

    def spark_sql(self, node, catalog, *, forced: bool) -> str | None:
        """``node`` in Spark SQL, or None when the rewrite cannot express it
        (0A000 instead when Spark was forced)."""
        from planner.bind import Binder

        try:
            bound = Binder(catalog, self.search_path, None, dialect="spark").bind(node)
            return to_spark(bound.sql, bound.views, bound.tables, self.params)
        except SparkRewriteError as e:
            if forced:
                raise not_supported(f"this query on Spark ({e})") from None
            return None

    def notify(self, message: str) -> None:
        if self.options.on_notice is not None:
            self.options.on_notice(f"NOTICE 00000: {message}")


def conform_batch(batch: pa.RecordBatch, schema: pa.Schema) -> pa.RecordBatch:
    """A Spark result batch in the local engine's types (by position)."""
    columns = []
    for col, f in zip(batch.columns, schema):
        if isinstance(f.type, pa.UuidType):
            storage = col if col.type.equals(pa.binary(16)) else col.cast(pa.binary(16))
            col = pa.ExtensionArray.from_storage(pa.uuid(), storage)
        elif not col.type.equals(f.type):
            col = col.cast(f.type)
        columns.append(col)
    return pa.RecordBatch.from_arrays(columns, schema=schema)


class RoutedStream:
    """A Spark result stream in the local engine's schema; errors as SqlError."""

    def __init__(self, inner, schema: pa.Schema):
        self._inner, self.schema = inner, schema

    async def next(self) -> pa.RecordBatch | None:
        try:
            batch = await self._inner.next()
        except SparkError as e:
            raise SqlError(e.sqlstate, e.message) from None
        return None if batch is None else conform_batch(batch, self.schema)

    def close(self) -> None:
        self._inner.close()


async def drain(stream) -> list[pa.RecordBatch]:
    out = []
    while True:
        batch = await stream.next()
        if batch is None:
            return out
        out.append(batch)


__all__ = ["Choice", "DEFAULT_SPARK_THRESHOLD", "ExecOptions", "Router", "RoutedStream", "conform_batch", "drain", "parse_bytes"]
