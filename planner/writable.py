"""Data-modifying statements in WITH: ``WITH x AS (INSERT / UPDATE /
DELETE / MERGE ... RETURNING ...) SELECT ... FROM x`` (PostgREST writes
every insert, update and delete so), and the same over an INSERT, UPDATE
or DELETE (``WITH moved AS (DELETE ... RETURNING *) INSERT INTO archive
SELECT * FROM moved``).

As PostgreSQL runs them: every sub-statement and the main query see the
table contents from before the statement (one snapshot: a sub-statement
does not see another's writes, the main statement sees them only through
the RETURNING rows it reads); each sub-statement runs once, whether or
not the main query reads it. The sub-statements run first, in order, on
a ``Deferred`` view of the work that keeps their writes aside; each
one's RETURNING rows become a CTE of constants for the main query; once
the main statement has read (and written) its rows, their writes go to
the work, in order (before an INSERT into a table they write, whose
uniqueness checks see them, as PostgreSQL's do). An error anywhere writes
nothing. A row changed by two of them (or by one and the main statement)
is refused, 21000 under MERGE as in PostgreSQL: retracting it twice would
corrupt the table.
"""

from __future__ import annotations

import copy
import json

import pglast
import pyarrow as pa
from pglast import ast, enums

from planner.bind import pg_sql, quoted
from planner.errors import CARDINALITY_VIOLATION, SqlError, not_supported
from planner.parse import walk
from planner.result import Result
from planner.sqltypes import type_name
from values import TextStyle, format_column

__all__ = ["DATA_MODIFYING", "Deferred", "inserts_into_written", "returning_query", "shape_query", "with_writes", "writes_in_with"]

#: the statements a WITH may hold that write
DATA_MODIFYING = (ast.InsertStmt, ast.UpdateStmt, ast.DeleteStmt, ast.MergeStmt)


class Deferred:
    """The work as the sub-statements of one statement see it: every read
    at the contents from before the statement; the writes kept in
    ``writes`` until ``apply``, each tagged with the sub-statement that
    made it (``next_statement``).

    Invariant (``apply``): no row is retracted by two sub-statements (two
    changes of one row in one statement, which PostgreSQL resolves by
    skipping the later one, would otherwise retract it twice)."""

    def __init__(self, work):
        self._work = work
        self.writes: list[tuple[str, pa.Table, int]] = []
        self._statements: list[int] = []  # per write, the sub-statement that made it
        self._statement = 0

    def __getattr__(self, name):
        return getattr(self._work, name)

    def next_statement(self) -> None:
        self._statement += 1

    async def write(self, shard: str, rows: pa.Table, diff: int, *, keep: bool = True) -> None:
        self.writes.append((shard, rows, diff))
        self._statements.append(self._statement)

    def write_batches(self, shard: str, batches) -> None:
        raise not_supported("a data-modifying statement in WITH that runs on Spark")

    async def apply(self, *, merge: bool = False) -> None:
        """The writes to the work, once no row is changed twice: 21000 for a
        MERGE (as PostgreSQL's), else refused (PostgreSQL skips the later
        change; txngate does not pick one)."""
        if _changed_twice(self.writes, self._statements):
            if merge:
                raise SqlError(CARDINALITY_VIOLATION, "MERGE command cannot affect row a second time")
            raise not_supported("changing a row in both a data-modifying WITH and another part of the statement")
        for shard, rows, diff in self.writes:
            await self._work.write(shard, rows, diff)


def _changed_twice(writes: list[tuple[str, pa.Table, int]], statements: list[int]) -> bool:
    """Some row is retracted by two different sub-statements."""
    seen: dict[tuple[str, tuple], int] = {}
    for (shard, rows, diff), statement in zip(writes, statements):
        if diff >= 0:
            continue
        for row in rows.to_pylist():
            key = (shard, tuple(json.dumps(v, default=str, sort_keys=True) for v in row.values()))
            if seen.setdefault(key, statement) != statement:
                return True
    return False


def writes_in_with(node) -> bool:
    """``node`` has a WITH holding a data-modifying statement."""
    w = getattr(node, "withClause", None)
    return w is not None and any(isinstance(c.ctequery, DATA_MODIFYING) for c in w.ctes)


def inserts_into_written(node) -> bool:
    """``node`` is an INSERT into a table a data-modifying CTE of it writes
    (``WITH d AS (DELETE FROM t RETURNING *) INSERT INTO t SELECT * FROM
    d``): PostgreSQL's uniqueness checks see the sub-statement's writes,
    so they go to the work before the INSERT runs."""
    if not isinstance(node, ast.InsertStmt) or not writes_in_with(node):
        return False
    target = (node.relation.schemaname, node.relation.relname)
    return any(isinstance(c.ctequery, DATA_MODIFYING) and (c.ctequery.relation.schemaname, c.ctequery.relation.relname) == target
               for c in node.withClause.ctes)


async def with_writes(work, node, dml_on, run_write):
    """Run the data-modifying CTEs of ``node`` in order on a Deferred view
    of ``work`` (``dml_on(work)``: the Dml to run them with,
    ``run_write(dml, statement)``: runs one, its Result): the main query,
    each of them replaced by its RETURNING rows as constants, and the
    Deferred view, to read the main query on and ``apply`` after it
    (``node``: a SELECT, INSERT, UPDATE or DELETE). A sub-statement reads
    the CTEs before it."""
    deferred = Deferred(work)
    dml = dml_on(deferred)
    ctes: list[ast.CommonTableExpr] = []
    recursive = node.withClause.recursive
    for cte in _in_running_order(node.withClause.ctes) if recursive else node.withClause.ctes:
        if isinstance(cte.ctequery, DATA_MODIFYING):
            statement = copy.copy(cte.ctequery)
            plain = [c for c in node.withClause.ctes if not isinstance(c.ctequery, DATA_MODIFYING) and c not in ctes] if recursive else []
            before = list(ctes) + plain + list(statement.withClause.ctes if statement.withClause is not None else ())
            statement.withClause = ast.WithClause(ctes=tuple(before), recursive=node.withClause.recursive) if before else None
            deferred.next_statement()
            result = await run_write(dml, statement)
            if not result.columns:
                continue  # no RETURNING: nothing to read
            cte = ast.CommonTableExpr(ctename=cte.ctename, aliascolnames=cte.aliascolnames, ctequery=constants(result))
        ctes.append(cte)
    main = copy.copy(node)
    main.withClause = ast.WithClause(ctes=tuple(ctes), recursive=node.withClause.recursive) if ctes else None
    deferred.next_statement()  # the main statement's writes, if it writes on this view
    return main, deferred


def _in_running_order(ctes) -> list[ast.CommonTableExpr]:
    """The CTEs of a WITH RECURSIVE, where any may read any other, in an
    order that runs each data-modifying one after the data-modifying ones
    it reads (``t AS (INSERT ... SELECT ... FROM t2), t2 AS (UPDATE ...
    RETURNING *)``: t2 first, as PostgreSQL runs it); their order kept
    where none reads another. A cycle keeps the written order (its read
    of a CTE not run yet then fails, as a data-modifying statement cannot
    be recursive)."""
    modifying = {c.ctename: c for c in ctes if isinstance(c.ctequery, DATA_MODIFYING)}
    reads = {name: {n.relname for n in walk(c.ctequery) if isinstance(n, ast.RangeVar) and n.schemaname is None
                    and n.relname in modifying and n.relname != name} for name, c in modifying.items()}
    order: list[ast.CommonTableExpr] = []
    placed: set[str] = set()

    def place(name: str, seen: frozenset) -> None:
        if name in placed or name in seen:
            return
        for needed in sorted(reads[name], key=list(modifying).index):
            place(needed, seen | {name})
        placed.add(name)
        order.append(modifying[name])
    for c in ctes:
        if c.ctename in modifying:
            place(c.ctename, frozenset())
        else:
            order.append(c)
    return order


def shape_query(node: ast.SelectStmt) -> ast.SelectStmt:
    """``node`` with each data-modifying CTE replaced by what its RETURNING
    list reads (for Describe: the result's shape without running it)."""
    node = copy.copy(node)
    node.withClause = copy.copy(node.withClause)
    node.withClause.ctes = tuple(
        ast.CommonTableExpr(ctename=c.ctename, aliascolnames=c.aliascolnames, ctequery=returning_query(c.ctequery))
        if isinstance(c.ctequery, DATA_MODIFYING) else c for c in node.withClause.ctes
        if not isinstance(c.ctequery, DATA_MODIFYING) or returning_query(c.ctequery) is not None)
    if not node.withClause.ctes:
        node.withClause = None
    return node


def returning_query(node) -> ast.SelectStmt | None:
    """The SELECT an INSERT/UPDATE/DELETE ... RETURNING answers like: its
    RETURNING list over its target table (and FROM/USING tables)."""
    clause = getattr(node, "returningClause", None)
    if clause is None or not clause.exprs:
        return None
    sources = [node.relation] + list(getattr(node, "fromClause", None) or getattr(node, "usingClause", None) or ())
    return ast.SelectStmt(targetList=clause.exprs, fromClause=tuple(sources), limitOption=enums.LimitOption.LIMIT_OPTION_DEFAULT,
                          op=enums.SetOperation.SETOP_NONE)


#: the text the RETURNING rows are written in: what reads back as the same value, whatever the session's settings
_EXACT_TEXT = TextStyle.of("UTC", "postgres", "hex", "1")


def constants(result: Result) -> ast.SelectStmt:
    """A SELECT of ``result``'s rows as typed constants (its RETURNING rows)."""
    columns = result.columns
    texts = [format_column(result.table.column(i), t, _EXACT_TEXT).to_pylist() for i, (_n, t) in enumerate(columns)]
    types = [pg_sql(type_name(t)) for _n, t in columns]
    names = ", ".join(quoted(n) for n, _t in columns)

    def literal(v, t: str) -> str:
        return f"CAST({'NULL' if v is None else _quote(v)} AS {t})"
    rows = list(zip(*texts)) if texts and texts[0] else []
    if not rows:
        return pglast.parse_sql(f"SELECT {', '.join(f'{literal(None, t)} AS {quoted(n)}' for (n, _x), t in zip(columns, types))} WHERE false")[0].stmt
    values = ", ".join("(" + ", ".join(literal(v, t) for v, t in zip(row, types)) + ")" for row in rows)
    return pglast.parse_sql(f"SELECT * FROM (VALUES {values}) AS __returned({names})")[0].stmt


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
