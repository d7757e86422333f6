"""SQL cursors: DECLARE, FETCH, MOVE, CLOSE.

A cursor is its query's result at the transaction's ``read_ts`` plus a
position. The result is computed at DECLARE (so later writes of the same
transaction are not seen, as PostgreSQL's insensitive cursors behave) and
kept in memory as Arrow; FETCH slices it.

Invariants: ``0 <= position <= rows`` (position is the number of rows
before the cursor: 0 before the first row, ``rows`` after the last); a
cursor without HOLD lives until its transaction ends, one WITH HOLD until
CLOSE or the end of the session.
"""

from __future__ import annotations

from dataclasses import dataclass

from pglast import ast

from planner.errors import SqlError
from planner.result import Result

CURSOR_OPT_HOLD = 0x20


@dataclass
class Cursor:
    name: str
    result: Result
    hold: bool
    position: int = 0

    @property
    def rows(self) -> int:
        return self.result.table.num_rows

    def validate(self) -> None:
        assert 0 <= self.position <= self.rows, (self.name, self.position, self.rows)


class Cursors:
    def __init__(self):
        self.open: dict[str, Cursor] = {}

    def declare(self, node: ast.DeclareCursorStmt, result: Result) -> Result:
        name = node.portalname
        if name in self.open:
            raise SqlError("42P03", f'cursor "{name}" already exists')
        self.open[name] = Cursor(name, result, bool(node.options & CURSOR_OPT_HOLD))
        return Result("DECLARE CURSOR")

    def get(self, name: str) -> Cursor:
        cursor = self.open.get(name)
        if cursor is None:
            raise SqlError("34000", f'cursor "{name}" does not exist')
        return cursor

    def fetch(self, node: ast.FetchStmt) -> Result:
        """FETCH / MOVE: the rows passed over (FETCH) or their count (MOVE)."""
        cursor = self.get(node.portalname)
        direction = node.direction.name
        count = node.howMany
        start, table = cursor.position, cursor.result.table
        if direction == "FETCH_FORWARD":
            n = min(count, cursor.rows - start)
            table = table.slice(start, n)
            cursor.position = start + n
        elif direction == "FETCH_BACKWARD":  # the rows before the cursor, nearest first
            n = min(count, start)
            table = table.take(list(range(start - 1, start - 1 - n, -1)))
            cursor.position = start - n
        else:  # ABSOLUTE / RELATIVE n: the one row at that position (negative: from the end)
            target = count if direction == "FETCH_ABSOLUTE" else start + count
            if direction == "FETCH_ABSOLUTE" and target < 0:
                target = cursor.rows + target + 1
            target = max(0, min(cursor.rows + 1, target))
            table = table.slice(target - 1, 1) if 1 <= target <= cursor.rows else table.slice(0, 0)
            cursor.position = min(target, cursor.rows)
        cursor.validate()
        if node.ismove:
            return Result(f"MOVE {table.num_rows}")
        return Result(f"FETCH {table.num_rows}", cursor.result.columns, table)

    def close(self, node: ast.ClosePortalStmt) -> Result:
        if node.portalname is None:  # CLOSE ALL
            self.open.clear()
        else:
            self.get(node.portalname)
            del self.open[node.portalname]
        return Result("CLOSE CURSOR")

    def end_transaction(self) -> None:
        """The transaction ended: cursors without HOLD close."""
        self.open = {k: c for k, c in self.open.items() if c.hold}

    def validate(self) -> None:
        for c in self.open.values():
            c.validate()
