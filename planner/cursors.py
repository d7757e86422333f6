"""SQL cursors: DECLARE, FETCH, MOVE, CLOSE.

A cursor is its query's result at the transaction's ``read_ts`` plus a
position. The result is computed at DECLARE (so later writes of the same
transaction are not seen, as PostgreSQL's insensitive cursors behave) and
kept in memory as Arrow; FETCH slices it.

Invariants: ``0 <= position <= rows + 1``, PostgreSQL's cursor position:
``k`` is on row ``k`` (the last one fetched), 0 before the first row and
``rows + 1`` after the last; a
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
        assert 0 <= self.position <= self.rows + 1, (self.name, self.position, self.rows)


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
        pos, rows, table = cursor.position, cursor.rows, cursor.result.table
        if direction == "FETCH_FORWARD":  # rows pos+1 .. pos+count
            last = min(pos + count, rows)
            table = table.slice(pos, max(0, last - pos))
            cursor.position = pos + count if pos + count <= rows else rows + 1
        elif direction == "FETCH_BACKWARD":  # rows pos-1 down to pos-count
            first = max(pos - count, 1)
            table = table.take(list(range(min(pos, rows + 1) - 2, first - 2, -1)))
            cursor.position = pos - count if pos - count >= 1 else 0
        else:  # ABSOLUTE / RELATIVE: the one row at the target (negative ABSOLUTE counts from the end)
            target = count if direction == "FETCH_ABSOLUTE" else pos + count
            if direction == "FETCH_ABSOLUTE" and target < 0:
                target = rows + target + 1
            if 1 <= target <= rows:
                table, cursor.position = table.slice(target - 1, 1), target
            else:
                table, cursor.position = table.slice(0, 0), (0 if target < 1 else rows + 1)
        cursor.validate()
        if node.ismove:
            return Result(f"MOVE {table.num_rows}")
        return Result(f"FETCH {table.num_rows}", cursor.result.columns, table)

    def close(self, node: ast.ClosePortalStmt) -> Result:
        if node.portalname is None:
            self.open.clear()
            return Result("CLOSE CURSOR ALL")
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
