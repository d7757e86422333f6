"""Play PostgreSQL's regression scripts against txngate and PostgreSQL,
statement by statement, and compare what each answers.

Each statement goes as psql sends it: the simple query protocol, text
values, COPY data after ``COPY ... FROM stdin``. A statement's outcome is
its SQLSTATE, or its command tag, column names, type OIDs and rows (as
text). Two outcomes agree when the SQLSTATEs are equal, or when tag,
names, types and rows are (rows in order when the statement ends with
ORDER BY, as a multiset otherwise). A disagreement falls in one category:

- ``wrong rows``: both answered, with different rows (the worst);
- ``numeric scale``: rows that differ only in a numeric's trailing zeros
  (PostgreSQL keeps a scale per value, DuckDB's decimals one per column);
- ``types``, ``names``, ``tag``: both answered the same rows, described differently;
- ``refused``: PostgreSQL answered, txngate raised an error;
- ``accepted``: PostgreSQL raised an error, txngate answered;
- ``sqlstate``: both raised errors, with different SQLSTATEs.

Every file runs in its own schema (first on the search_path, public after
it, where test_setup.sql's tables are), on fresh connections. A statement
has ``STATEMENT_TIMEOUT`` on each side; one that outlives it by
``GRACE`` seconds is cancelled from the client.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass, field

from psycopg import pq

from tests.regress.script import Step, split

__all__ = ["CATEGORIES", "FileReport", "Outcome", "Side", "compare", "play_file", "play_setup"]

STATEMENT_TIMEOUT, GRACE = 10.0, 5.0
CATEGORIES = ("wrong rows", "numeric scale", "types", "names", "tag", "refused", "accepted", "sqlstate")
_EXPLAIN = re.compile(r"\s*explain\b", re.IGNORECASE)
_ORDERED = re.compile(r"\border\s+by\b[^()]*$", re.IGNORECASE | re.DOTALL)


@dataclass
class Outcome:
    sqlstate: str | None = None
    message: str = ""
    tag: str = ""
    names: tuple = ()
    types: tuple = ()
    rows: list = field(default_factory=list)

    def brief(self) -> str:
        if self.sqlstate:
            return f"ERROR {self.sqlstate}: {self.message.splitlines()[0] if self.message else ''}"[:300]
        head = f"{self.tag} {list(zip(self.names, self.types))}"
        return f"{head} rows {self.rows[:3]}{' ...' if len(self.rows) > 3 else ''}"[:300]


class Side:
    """One server's connection (libpq, as psql uses it), reopened when lost."""

    def __init__(self, dsn: str):
        self.dsn = dsn
        self.conn: pq.PGconn | None = None
        self.prelude: list[str] = []

    def open(self, prelude: list[str]) -> None:
        self.close()
        self.prelude = prelude
        self._connect()

    def _connect(self) -> None:
        self.conn = pq.PGconn.connect(self.dsn.encode())
        if self.conn.status != pq.ConnStatus.OK:
            raise RuntimeError(f"cannot connect to {self.dsn}: {self.conn.get_error_message()}")
        for sql in [f"SET statement_timeout = '{int(STATEMENT_TIMEOUT * 1000)}ms'", *self.prelude]:
            self.conn.exec_(sql.encode())

    def close(self) -> None:
        if self.conn is not None:
            self.conn.finish()
            self.conn = None

    def run(self, step: Step) -> Outcome:
        if self.conn is None or self.conn.status != pq.ConnStatus.OK:
            self._connect()
        conn = self.conn
        timer = threading.Timer(STATEMENT_TIMEOUT + GRACE, lambda: conn.get_cancel().cancel())
        timer.start()
        try:
            return self._run(conn, step)
        finally:
            timer.cancel()

    def _run(self, conn: pq.PGconn, step: Step) -> Outcome:
        res = conn.exec_(step.sql.encode())
        copied: list[tuple] = []
        if res.status == pq.ExecStatus.COPY_IN:
            data = "".join(row + "\n" for row in step.copy_data[:-1])
            if data:
                conn.put_copy_data(data.encode())
            conn.put_copy_end()
            res = _last_result(conn) or res
        elif res.status == pq.ExecStatus.COPY_OUT:
            while True:
                n, chunk = conn.get_copy_data(0)
                if n < 0:
                    break
                copied.append((bytes(chunk).decode(errors="replace"),))
            res = _last_result(conn) or res
        if conn.status != pq.ConnStatus.OK:
            return Outcome(sqlstate="08006", message="connection lost")
        return _outcome(res, copied)


def _last_result(conn: pq.PGconn):
    last = None
    while (r := conn.get_result()) is not None:
        last = r
    return last


def _outcome(res, copied: list[tuple]) -> Outcome:
    if res.status == pq.ExecStatus.FATAL_ERROR:
        state = res.error_field(pq.DiagnosticField.SQLSTATE)
        return Outcome(sqlstate=state.decode() if state else "?????", message=(res.error_message or b"").decode(errors="replace"))
    tag = (res.command_status or b"").decode()
    names = tuple(res.fname(i).decode() for i in range(res.nfields))
    types = tuple(res.ftype(i) for i in range(res.nfields))
    rows = [tuple(None if (v := res.get_value(r, c)) is None else v.decode(errors="replace") for c in range(res.nfields))
            for r in range(res.ntuples)]
    return Outcome(tag=tag, names=names, types=types, rows=rows or copied)


def compare(sql: str, ours: Outcome, theirs: Outcome) -> str | None:
    """None when the outcomes agree, else the category of the difference."""
    if ours.sqlstate or theirs.sqlstate:
        if ours.sqlstate and theirs.sqlstate:
            return None if ours.sqlstate == theirs.sqlstate else "sqlstate"
        return "refused" if ours.sqlstate else "accepted"
    same_rows = ours.rows == theirs.rows or (not _ORDERED.search(sql) and sorted(ours.rows, key=repr) == sorted(theirs.rows, key=repr))
    if not same_rows:
        if _ORDERED.search(sql) and [_unscaled(r) for r in ours.rows] == [_unscaled(r) for r in theirs.rows] \
                or sorted(map(_unscaled, ours.rows), key=repr) == sorted(map(_unscaled, theirs.rows), key=repr):
            return "numeric scale"
        return "wrong rows"
    if ours.types != theirs.types:
        return "types"
    if ours.names != theirs.names:
        return "names"
    if ours.tag != theirs.tag:
        return "tag"
    return None


def _unscaled(row: tuple) -> tuple:
    """``row`` with numerics' trailing fraction zeros dropped (2.50 -> 2.5, 2.0 -> 2)."""
    return tuple(v if v is None else re.sub(r"(\d)\.(\d*?)0+\b", lambda m: m.group(1) + ("." + m.group(2) if m.group(2) else ""), v)
                 for v in row)


@dataclass
class FileReport:
    name: str
    statements: int = 0
    agreed: int = 0
    skipped: int = 0  # psql-only statements, and EXPLAIN (a plan is PostgreSQL's own)
    categories: Counter = field(default_factory=Counter)
    differences: list[tuple[Step, str, Outcome, Outcome]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.agreed / self.statements if self.statements else 1.0


def _uncommented(sql: str) -> str:
    return re.sub(r"--[^\n]*", "", sql)


def play_setup(text: str, sides: list[Side]) -> None:
    """test_setup.sql's statements on each side, in public (outcomes not compared)."""
    for side in sides:
        side.open([])
        for step in split(text):
            if not step.psql_only:
                side.run(step)
        side.close()


def play_file(name: str, text: str, ours: Side, theirs: Side) -> FileReport:
    schema = f"rg_{re.sub(r'[^a-z0-9_]', '_', name.lower())}"
    report = FileReport(name)
    for side in (ours, theirs):
        side.open([])
        side.run(Step(f"DROP SCHEMA IF EXISTS {schema} CASCADE", 0))
        side.run(Step(f"CREATE SCHEMA {schema}", 0))
        side.open([f"SET search_path = {schema}, public"])
    try:
        for step in split(text):
            if step.psql_only or _EXPLAIN.match(_uncommented(step.sql)):
                report.skipped += 1
                continue
            got, expected = ours.run(step), theirs.run(step)
            report.statements += 1
            category = compare(step.sql, got, expected)
            if category is None:
                report.agreed += 1
            else:
                report.categories[category] += 1
                report.differences.append((step, category, got, expected))
    finally:
        ours.close()
        theirs.close()
    return report
