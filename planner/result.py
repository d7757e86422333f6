"""Statement results: command tag, columns (name, SQL type), rows, notices.

``Result.table`` keeps the Arrow result so the wire front end can encode
columns without going through Python rows; ``rows`` are Python values.
A streamed result (``Session.run(..., lazy=True)``) has a ``RowStream``
instead of a table: its rows are computed as the sender asks for them, so
a result of any size holds one batch in memory; its tag is known only once
the stream is exhausted (``RowStream.sent``).
"""

from __future__ import annotations

import decimal
from dataclasses import dataclass, field

import pyarrow as pa

from values import of_arrow, python_values


#: The declared type ``pgcatalog.column_origins`` gives a computed output
#: column that is not a cast with a type modifier: a numeric result is then
#: plain ``numeric`` (PostgreSQL reports typmod -1 for arithmetic,
#: aggregates and literals; the engine's decimals always carry a precision
#: and scale).
UNCONSTRAINED = "numeric?"


def engine_blind(sql_type: str) -> bool:
    """A declared type the engine's result cannot tell: json and jsonb
    (held as text), character(n) and varchar(n) (held as varchar)."""
    return sql_type in ("json", "jsonb") or sql_type.startswith(("char(", "varchar("))


@dataclass
class Result:
    tag: str | None  # None: a streamed SELECT's, known at its end (command_tag)
    columns: list[tuple[str, str]] = field(default_factory=list)  # (name, SQL type)
    table: pa.Table | None = None
    notices: list[str] = field(default_factory=list)
    stream: "RowStream | None" = None
    origins: list[tuple[int, int]] | None = None  # per column: (table OID, attnum) it comes from, or (0, 0)
    unconstrained: set[int] = field(default_factory=set)  # computed columns PostgreSQL reports without a typmod
    _rows: list[tuple] | None = None

    @property
    def rows(self) -> list[tuple]:
        """Rows as tuples (by position: result column names may repeat)."""
        if self._rows is None:
            t = self.table
            if t is None:
                self._rows = []
            elif t.num_columns == 0:
                self._rows = [()] * t.num_rows
            else:
                values = [python_values(c) for c in t.columns]
                for i, (_name, sql_type) in enumerate(self.columns[: len(values)]):
                    if sql_type == "numeric" and pa.types.is_string(t.column(i).type):  # exact text (local_exec.numeric)
                        values[i] = [None if v is None else decimal.Decimal(v) for v in values[i]]
                self._rows = list(zip(*values))
        return self._rows

    def set_origins(self, origins: list[tuple[int, int, str]] | None) -> None:
        """Record the table column each output column reads directly
        (planner.pgcatalog.column_origins): its table OID and attnum, and
        its declared type (``varchar(3)``, ``jsonb``, ...), which the
        engine's result type cannot tell."""
        if origins is None or len(origins) != len(self.columns):
            return
        self.origins = [(table, attnum) for table, attnum, _t in origins]
        self.unconstrained = {i for i, (_o, _a, declared) in enumerate(origins) if declared == UNCONSTRAINED}
        self.columns = [(name, declared if declared != UNCONSTRAINED and declared else computed)
                        for (name, computed), (_o, _a, declared) in zip(self.columns, origins)]

    @property
    def described(self) -> list[tuple[str, str]]:
        """The columns as RowDescription reports them: a computed numeric
        without the precision and scale the engine gave it (its values keep
        their scale); an array of them an unconstrained numeric[]."""
        return [(name, "numeric" + t[t.index(")") + 1:] if i in self.unconstrained and t.startswith("numeric(") else t)
                for i, (name, t) in enumerate(self.columns)]

    def set_names(self, names: list[str] | None) -> None:
        """Name the columns ``names`` (PostgreSQL's, where the engine's
        differ: planner.scopes.star_result_names)."""
        if names is not None and len(names) == len(self.columns):
            self.columns = [(name, t) for name, (_n, t) in zip(names, self.columns)]

    def set_kinds(self, kinds: list[str | None]) -> None:
        """Columns that are json, jsonb or char(n) (planner.bind.result_types)
        reported as such: the engine gives text for them."""
        if len(kinds) != len(self.columns):
            return
        # numeric only where the engine computed the exact text (local_exec.numeric), not on Spark
        self.columns = [(name, k) if k and (not self.origins or not self.origins[i][0]) and (k != "numeric" or t == "text") else (name, t)
                        for i, ((name, t), k) in enumerate(zip(self.columns, kinds))]

    @property
    def returns_rows(self) -> bool:
        return self.table is not None or self.stream is not None

    def command_tag(self) -> str:
        """The tag; a streamed SELECT's counts the rows sent."""
        return self.tag if self.tag is not None else f"SELECT {self.stream.sent}"

    def row_stream(self) -> "RowStream":
        """The rows as a stream (a materialized table's in slices)."""
        if self.stream is None:
            self.stream = RowStream.of_table(self.table)
        return self.stream


class RowStream:
    """A result's rows in order, batch by batch.

    ``fetch`` returns the next record batch or None at the end; ``next(n)``
    hands out at most ``n`` rows at a time, keeping the rest of a batch for
    the next call (row limits of the extended protocol). Invariant: ``sent``
    counts the rows handed out; ``close()`` runs ``on_close`` exactly once.
    """

    SLICE = 8192

    def __init__(self, fetch, on_close=None):
        self._fetch, self._on_close = fetch, on_close
        self._pending: pa.Table | None = None
        self.sent = 0
        self.done = False

    @classmethod
    def of_table(cls, table: pa.Table) -> "RowStream":
        batches = iter(table.to_batches(cls.SLICE))

        async def fetch():
            return next(batches, None)

        return cls(fetch)

    async def next(self, limit: int | None = None) -> pa.Table | None:
        """Up to ``limit`` (default: a batch's worth of) rows, None at the end."""
        while self._pending is None:
            if self.done:
                return None
            batch = await self._fetch()
            if batch is None:
                self.close()
                return None
            self._pending = pa.Table.from_batches([batch]) if batch.num_rows else None
        rows = self._pending
        n = rows.num_rows if limit is None else min(limit, rows.num_rows)
        out, rest = rows.slice(0, n), rows.slice(n, rows.num_rows - n)  # a length always: Arrow's slice(n) of no columns keeps every row
        self._pending = rest if rest.num_rows else None
        self.sent += n
        return out

    def close(self) -> None:
        if not self.done:
            self.done = True
            self._pending = None
            if self._on_close is not None:
                self._on_close()


def to_result(tag: str, out: pa.Table, names: list[str] | None = None) -> Result:
    """A row-returning Result from an Arrow table, with PostgreSQL's column
    names when known (``names``)."""
    if names == []:  # a SELECT of no columns: the engine's one (planner.bind.NOTHING) is not shown
        out = out.drop_columns(out.column_names)
    names = _with_star(names, out.column_names)
    if names is not None and len(names) == out.num_columns:
        out = out.rename_columns(names)
    return Result(tag, result_columns(out.schema), out)


def result_columns(schema: pa.Schema, names: list[str | None] | None = None) -> list[tuple[str, str]]:
    """(name, SQL type) of each column of a result of ``schema`` (named
    ``names`` when known)."""
    names = _with_star(names, schema.names)
    if names is None or len(names) != len(schema):
        names = schema.names
    return [(name, of_arrow(f)) for name, f in zip(names, schema)]


def _with_star(names: list[str | None] | None, engine: list[str]) -> list[str] | None:
    """``names`` (planner.parse.output_names) with the engine's names of a
    star's columns where its None stands."""
    if names is None or None not in names:
        return names
    at, width = names.index(None), len(engine) - len(names) + 1
    return names[:at] + engine[at:at + width] + names[at + 1:] if width >= 0 else None


