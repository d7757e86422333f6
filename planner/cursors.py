"""SQL cursors: DECLARE, FETCH, MOVE, CLOSE.

A cursor is its query's result at the transaction's ``read_ts`` plus a
position. The query starts at DECLARE (so later writes of the same
transaction are not seen, as PostgreSQL's insensitive cursors behave); its
rows are pulled from the engine's stream as FETCH and MOVE reach them, so a
cursor walked forward over any number of rows holds a bounded window of
them: once the rows kept pass ``KEEP_BYTES``, those before the current row
are dropped, and moving back onto a dropped row is refused the way
PostgreSQL refuses a backward scan (55000) — unless the cursor was declared
SCROLL, which keeps every row read. A cursor WITH HOLD outlives its
transaction, so its result is computed whole at DECLARE (PostgreSQL
materializes holdable cursors at commit).

Invariants (PostgreSQL's cursor position): ``0 <= position <= pulled + 1``,
``k`` is on row ``k`` (the last one fetched), 0 before the first row and
``rows + 1`` after the last, which only happens once the stream has ended;
``buffer`` holds rows ``base + 1 .. pulled``. A cursor without HOLD lives
until its transaction ends, one WITH HOLD until CLOSE or the end of the
session; a closed cursor's stream is closed.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa
from pglast import ast

from planner.errors import SqlError
from planner.result import Result, RowStream

CURSOR_OPT_SCROLL = 0x2
CURSOR_OPT_HOLD = 0x20
#: rows kept behind the position of a cursor without SCROLL, in Arrow bytes
KEEP_BYTES = 64 << 20


@dataclass
class Cursor:
    name: str
    columns: list
    hold: bool
    scroll: bool
    buffer: pa.Table  # rows base+1 .. pulled
    stream: RowStream | None  # None once every row is in (or was in) buffer
    base: int = 0
    position: int = 0

    @property
    def pulled(self) -> int:
        return self.base + self.buffer.num_rows

    async def pull_to(self, n: int) -> None:
        """Read rows from the stream until ``n`` rows were read or it ends."""
        parts, pulled = [self.buffer] if self.buffer.num_rows else [], self.pulled
        while self.stream is not None and pulled < n:
            rows = await self.stream.next()
            if rows is None:
                self.stream = None
                break
            parts.append(rows)
            pulled += rows.num_rows
        if pulled > self.pulled:
            self.buffer = pa.concat_tables(parts)

    async def rows(self) -> int:
        """The result's row count (reads it to the end)."""
        await self.pull_to(1 << 62)
        return self.pulled

    def take(self, first: int, last: int, step: int = 1) -> pa.Table:
        """Rows ``first`` to ``last`` (1-based, inclusive, in ``step`` order)."""
        if min(first, last) <= self.base:
            raise SqlError("55000", "cursor can only scan forward", hint="Declare it with SCROLL option to enable backward scan.")
        if step == 1:
            return self.buffer.slice(first - 1 - self.base, max(0, last - first + 1))
        return self.buffer.take(list(range(first - 1 - self.base, last - 2 - self.base, -1)))

    def trim(self) -> None:
        """Drop rows before the current one once too many are kept."""
        if self.scroll or self.buffer.nbytes <= KEEP_BYTES or self.position <= self.base + 1:
            return
        drop = min(self.position - 1, self.pulled) - self.base
        self.buffer, self.base = self.buffer.slice(drop, self.buffer.num_rows - drop), self.base + drop

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None

    def validate(self) -> None:
        assert 0 <= self.position <= self.pulled + 1, (self.name, self.position, self.pulled)
        assert self.position <= self.pulled or self.stream is None, "past the end before the end was read"


class Cursors:
    def __init__(self):
        self.open: dict[str, Cursor] = {}

    def declare(self, node: ast.DeclareCursorStmt, result: Result) -> Result:
        """A cursor over ``result``: its table, or its stream (read lazily)."""
        name = node.portalname
        if name in self.open:
            raise SqlError("42P03", f'cursor "{name}" already exists')
        table = result.table
        if table is None:
            table = pa.schema([pa.field(f"c{i}", pa.null()) for i in range(len(result.columns))]).empty_table()
        stream = result.stream if result.table is None else None
        if stream is not None:
            table = table.slice(0, 0)
        self.open[name] = Cursor(name, result.columns, bool(node.options & CURSOR_OPT_HOLD), bool(node.options & CURSOR_OPT_SCROLL),
                                 table, stream)
        return Result("DECLARE CURSOR")

    def get(self, name: str) -> Cursor:
        cursor = self.open.get(name)
        if cursor is None:
            raise SqlError("34000", f'cursor "{name}" does not exist')
        return cursor

    async def fetch(self, node: ast.FetchStmt) -> Result:
        """FETCH / MOVE: the rows passed over (FETCH) or their count (MOVE)."""
        cursor = self.get(node.portalname)
        direction = node.direction.name
        count = node.howMany
        pos = cursor.position
        if direction == "FETCH_FORWARD":  # rows pos+1 .. pos+count
            await cursor.pull_to(pos + count)
            last = min(pos + count, cursor.pulled)
            table = cursor.take(pos + 1, last) if last > pos else cursor.buffer.slice(0, 0)
            cursor.position = pos + count if pos + count <= cursor.pulled else cursor.pulled + 1
        elif direction == "FETCH_BACKWARD":  # rows pos-1 down to pos-count
            first = max(pos - count, 1)
            top = min(pos, cursor.pulled + 1) - 1
            table = cursor.take(top, first, -1) if top >= first else cursor.buffer.slice(0, 0)
            cursor.position = pos - count if pos - count >= 1 else 0
        else:  # ABSOLUTE / RELATIVE: the one row at the target (negative ABSOLUTE counts from the end)
            target = count if direction == "FETCH_ABSOLUTE" else pos + count
            if direction == "FETCH_ABSOLUTE" and target < 0:
                target = await cursor.rows() + target + 1
            await cursor.pull_to(target)
            if 1 <= target <= cursor.pulled:
                table, cursor.position = cursor.take(target, target), target
            else:
                table, cursor.position = cursor.buffer.slice(0, 0), (0 if target < 1 else cursor.pulled + 1)
        cursor.validate()
        cursor.trim()
        if node.ismove:
            return Result(f"MOVE {table.num_rows}")
        return Result(f"FETCH {table.num_rows}", cursor.columns, table)

    def close(self, node: ast.ClosePortalStmt) -> Result:
        if node.portalname is None:
            self.close_all()
            return Result("CLOSE CURSOR ALL")
        self.get(node.portalname).close()
        del self.open[node.portalname]
        return Result("CLOSE CURSOR")

    def close_all(self) -> None:
        for cursor in self.open.values():
            cursor.close()
        self.open.clear()

    def end_transaction(self) -> None:
        """The transaction ended: cursors without HOLD close."""
        for cursor in self.open.values():
            if not cursor.hold:
                cursor.close()
        self.open = {k: c for k, c in self.open.items() if c.hold}

    def validate(self) -> None:
        for c in self.open.values():
            c.validate()
