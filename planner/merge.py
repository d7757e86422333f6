"""MERGE: one statement that updates, deletes and inserts rows of a table
by what a source joins to them (PostgreSQL 15's form: WHEN MATCHED ...
UPDATE / DELETE / DO NOTHING, WHEN NOT MATCHED ... INSERT / DO NOTHING).

One engine query decides everything, at the statement's snapshot: the
source LEFT JOIN the target on the join condition gives each matched
(source row, target row) pair and each source row that matches none; for
each, the first WHEN clause of its kind whose condition holds is its
action, and the values that action writes are computed in the same query
(SET expressions, INSERT values and the defaults of the columns an
INSERT leaves out). The writes then go in as one: every row updated or
deleted is retracted, every new row (updated or inserted) conformed to
the table's types and checked (NOT NULL, CHECK, keys with ``removed``,
foreign keys both ways), as UPDATE, DELETE and INSERT check them.

Invariants: no target row is changed twice (21000, as PostgreSQL:
"MERGE command cannot affect row a second time"); an INSERT never sees
what an UPDATE of the same statement wrote, nor the other way round
(everything is computed before anything is written); a clause's values
are computed only for the rows it acts on (its SET or VALUES expressions
are under a CASE on the action, so an expression that fails for other
rows, a division by zero, does not fail the statement).
"""

from __future__ import annotations

import copy

import pglast
import pyarrow as pa
import pyarrow.compute as pc
from pglast import ast
from pglast.enums import CmdType, MergeMatchKind, OverridingKind

from planner.bind import pg_sql, quoted
from planner.catalog import IDENTITY_ALWAYS, SEQUENCED
from planner.dml import ROWID, assignment_sql, assignments, identity_always
from planner.errors import DUPLICATE_COLUMN, SYNTAX_ERROR, SqlError, not_supported
from planner.parse import walk
from planner.result import Result
from planner.sqltypes import type_name, typed_literal

__all__ = ["merge"]

ACTION = "__action"  # the WHEN clause a joined row takes (ROWID: its target row's number, NULL for none)


async def merge(dml, node: ast.MergeStmt) -> Result:
    """Run MERGE ``node`` through ``dml`` (planner.dml.Dml): its writes go
    to the work; returns ``MERGE n``, n the rows inserted, updated and
    deleted."""
    if node.withClause is not None and node.withClause.recursive:
        raise SqlError(SYNTAX_ERROR, "WITH RECURSIVE is not supported for MERGE statement")  # (PostgreSQL 15's parser)
    if node.withClause is not None and any(not isinstance(c.ctequery, ast.SelectStmt) for c in node.withClause.ctes):
        raise not_supported("data-modifying statements in WITH of MERGE")
    if node.returningClause is not None:
        raise SqlError(SYNTAX_ERROR, 'syntax error at or near "RETURNING"')
    rel = await dml.target(node.relation)
    alias = node.relation.alias.aliasname if node.relation.alias is not None else rel.name
    clauses = list(node.mergeWhenClauses)
    action = _action(clauses, alias)
    exprs = [f"{quoted(alias)}.{ROWID} AS {ROWID}", f"{action} AS {ACTION}"]
    writes: dict[int, list[str]] = {}  # clause -> the columns it writes (output columns __c<clause>_<column>)
    for i, clause in enumerate(clauses):
        if clause.commandType == CmdType.CMD_UPDATE:
            values = _updates(clause, rel)
        elif clause.commandType == CmdType.CMD_INSERT:
            values = _inserts(clause, rel)
        else:
            continue
        writes[i] = list(values)
        for col, sql in values.items():  # computed for the rows this clause acts on only
            exprs.append(f"CASE WHEN {action} = {i} THEN CAST(({sql}) AS {pg_sql(type_name(rel.column(col).type))}) END "
                         f"AS {quoted(f'__c{i}_{col}')}")
    current = await _candidates(dml, node, rel, alias)
    numbered = current.append_column(ROWID, pa.array(range(current.num_rows), pa.int64()))
    select = pglast.parse_sql(f"SELECT {', '.join(exprs)} FROM {pg_sql(node.sourceRelation)} LEFT JOIN {pg_sql(node.relation)} "
                              f"ON {pg_sql(node.joinCondition)}")[0].stmt
    select.withClause = copy.deepcopy(node.withClause)  # the source may read the statement's CTEs
    binder = await dml.binder()
    bound = binder.bind(select, outputs=False)
    out = await dml.run(bound.sql, await dml.inputs(bound, {binder.internal(rel): numbered}), bound.views)
    return await _apply(dml, rel, clauses, writes, current, out)


async def _candidates(dml, node: ast.MergeStmt, rel, alias: str) -> pa.Table:
    """The target rows the join may match: when the join condition equates
    the columns of one of the target's keys with expressions of the source
    (``t.id = s.id AND ...``), only the rows with the keys the source holds,
    found by key lookup (the cost does not grow with the target, and only
    those keys are read for conflicts); else every row."""
    pairs = _key_equalities(node.joinCondition, alias)
    cols = next((list(k) for _n, k in rel.keys if set(k) <= set(pairs)), None)
    if cols is None or await dml.reads_again(node, rel, node.relation):  # a source, condition or action reading the target reads all of it
        return await dml.work.contents(rel)
    select = pglast.parse_sql(f"SELECT DISTINCT {', '.join(pg_sql(pairs[c]) + ' AS ' + quoted(c) for c in cols)} "
                              f"FROM {pg_sql(node.sourceRelation)}")[0].stmt
    select.withClause = copy.deepcopy(node.withClause)
    binder = await dml.binder()
    bound = binder.bind(select, outputs=False)
    keys = await dml.run(bound.sql, await dml.inputs(bound), bound.views)
    schema = rel.schema_arrow
    try:
        keys = pa.Table.from_arrays([keys.column(c).cast(schema.field(c).type) for c in cols], names=cols)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        return await dml.work.contents(rel)  # source values the key's type does not hold exactly: compared by the join itself
    return await dml.work.lookup(rel, cols, keys)


def _key_equalities(condition: ast.Node, alias: str) -> dict[str, ast.Node]:
    """Target column -> source expression, for each ``alias.col = expr``
    (either way round) ANDed into ``condition``, ``expr`` not naming the
    target."""
    conjuncts = [condition]
    pairs: dict[str, ast.Node] = {}
    while conjuncts:
        c = conjuncts.pop()
        if isinstance(c, ast.BoolExpr) and c.boolop.name == "AND_EXPR":
            conjuncts += c.args
        elif isinstance(c, ast.A_Expr) and c.kind.name == "AEXPR_OP" and c.name[-1].sval == "=":
            for target, source in ((c.lexpr, c.rexpr), (c.rexpr, c.lexpr)):
                if _target_column(target, alias) is not None and not _names(source, alias):
                    pairs[_target_column(target, alias)] = source
    return pairs


def _target_column(n: ast.Node, alias: str) -> str | None:
    if isinstance(n, ast.ColumnRef) and len(n.fields) == 2 and all(isinstance(f, ast.String) for f in n.fields) and n.fields[0].sval == alias:
        return n.fields[1].sval
    return None


def _names(n: ast.Node, alias: str) -> bool:
    """``n`` refers to the target (``alias.x``), or to a column without a
    table name (which may be the target's)."""
    return any(isinstance(m, ast.ColumnRef) and (len(m.fields) == 1 or isinstance(m.fields[0], ast.String) and m.fields[0].sval == alias)
               for m in walk(n))


def _action(clauses, alias: str) -> str:
    """The index of the first WHEN clause that applies to a joined row (a
    matched one has its target's row id), NULL for none."""
    whens = []
    for i, clause in enumerate(clauses):
        if clause.matchKind == MergeMatchKind.MERGE_WHEN_NOT_MATCHED_BY_SOURCE:
            raise SqlError(SYNTAX_ERROR, 'syntax error at or near "BY"')  # PostgreSQL 17's, not 15's
        matched = f"{quoted(alias)}.{ROWID} IS {'NOT ' if clause.matchKind == MergeMatchKind.MERGE_WHEN_MATCHED else ''}NULL"
        condition = f" AND ({pg_sql(clause.condition)})" if clause.condition is not None else ""
        whens.append(f"WHEN {matched}{condition} THEN {i}")
    return f"(CASE {' '.join(whens)} END)"


def _updates(clause: ast.MergeWhenClause, rel) -> dict[str, str]:
    """An UPDATE action's SET, checked as UPDATE's is: column -> SQL."""
    return assignment_sql(assignments(clause.targetList, rel), rel)


def _inserts(clause: ast.MergeWhenClause, rel) -> dict[str, str]:
    """An INSERT action's values, column -> SQL: those given (DEFAULT: the
    column's default), then the defaults of the columns left out; a column
    with a sequence is left to ``fill_sequences`` unless given."""
    values = list(clause.values or ())
    targets = [t.name for t in clause.targetList] if clause.targetList else rel.column_names[: len(values)]
    for t in clause.targetList or ():
        rel.column(t.name, t.location)
    if len(set(targets)) != len(targets):
        raise SqlError(DUPLICATE_COLUMN, f'column "{next(t for t in targets if targets.count(t) > 1)}" specified more than once')
    if len(values) > len(targets):
        raise SqlError(SYNTAX_ERROR, "INSERT has more expressions than target columns")
    if len(values) < len(targets):
        raise SqlError(SYNTAX_ERROR, "INSERT has more target columns than expressions")
    given: dict[str, str] = {}
    for name, v in zip(targets, values):
        col = rel.column(name)
        if isinstance(v, ast.SetToDefault):
            continue
        if col.default == IDENTITY_ALWAYS and clause.override != OverridingKind.OVERRIDING_SYSTEM_VALUE:
            raise identity_always(name)
        given[name] = pg_sql(typed_literal(v, col.type))
    for col in rel.columns:
        if col.name not in given and col.default is not None and col.default not in SEQUENCED:
            given[col.name] = col.default
    return given


async def _apply(dml, rel, clauses, writes: dict[int, list[str]], current: pa.Table, out: pa.Table) -> Result:
    """Write what the joined rows ``out`` decided: the rows updated and
    deleted retracted, the updated and inserted ones added, all checked."""
    actions = out.column(ACTION).cast(pa.int64())
    kinds = [c.commandType for c in clauses]
    touching = [i for i, k in enumerate(kinds) if k in (CmdType.CMD_UPDATE, CmdType.CMD_DELETE)]
    touched = out.column(ROWID).filter(pc.is_in(actions, pa.array(touching, pa.int64()))) if touching else pa.array([], pa.int64())
    if len(pc.unique(touched)) != len(touched):
        raise SqlError("21000", "MERGE command cannot affect row a second time",
                       hint="Ensure that not more than one source row matches any one target row.")
    replaced, deleted, updated, inserted = [], [], [], []  # replaced[i] becomes updated[i]
    for i, kind in enumerate(kinds):
        chosen = out.filter(pc.equal(actions, i))
        if not chosen.num_rows or kind == CmdType.CMD_NOTHING:
            continue
        if kind == CmdType.CMD_DELETE:
            deleted.append(current.take(chosen.column(ROWID)))
        elif kind == CmdType.CMD_UPDATE:
            before = current.take(chosen.column(ROWID))
            cols = [chosen.column(f"__c{i}_{c.name}") if c.name in writes[i] else before.column(c.name) for c in rel.columns]
            replaced.append(before)
            updated.append(await dml.conform(pa.Table.from_arrays(cols, names=rel.column_names), rel))
        else:
            given = writes[i]
            cols = [chosen.column(f"__c{i}_{c.name}") if c.name in given else pa.nulls(chosen.num_rows, f.type)
                    for c, f in zip(rel.columns, rel.schema_arrow)]
            rows = await dml.fill_sequences(rel, pa.Table.from_arrays(cols, names=rel.column_names), given)
            inserted.append(await dml.conform(rows, rel))
    empty = rel.schema_arrow.empty_table()
    whole = lambda parts: pa.concat_tables(parts) if parts else empty  # noqa: E731
    old, new = whole(replaced + deleted), whole(updated + inserted)
    await dml.check_unique(rel, new, removed=old)
    await dml.references.removed(rel, whole(replaced), whole(updated))
    await dml.references.removed(rel, whole(deleted))
    await dml.references.check_referencing(rel, new)
    await dml.work.write(rel.shard, old, -1)
    await dml.work.write(rel.shard, new, 1)
    return Result(f"MERGE {old.num_rows + sum(t.num_rows for t in inserted)}")
