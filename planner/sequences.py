"""The sequences behind serial and identity columns, as PostgreSQL names
them and as clients drive them: ``pg_get_serial_sequence(table, column)``,
``nextval(name)``, ``setval(name, value [, is_called])`` and
``currval(name)``.

A sequenced column's sequence is named ``<table>_<column>_seq`` in the
table's schema (``Relation.sequence_shown``) and stored as a counter of
``storage.sequence`` (``Relation.sequence``). Its functions change state
outside transactions and cannot run inside DuckDB, so a query whose select
list is one call of them — ``SELECT setval(pg_get_serial_sequence('t',
'id'), coalesce(max(id), 1), max(id) IS NOT null) FROM t``, as Django and
Rails reset a table's sequence — runs in two steps (``SequenceCall``): the
engine computes the call's arguments, one row per row of the query, and
each row's call is applied in order. Elsewhere (inside an expression, an
INSERT) the name does not resolve and the statement fails (42P01); it is
never answered with a NULL that reads as success.

Invariants: a name resolves to exactly one sequenced column (42P01 when
none); ``setval`` moves the counter so the next ``nextval`` returns
``value + 1`` (``is_called``) or ``value``; ``currval`` is this session's
last ``nextval`` of the sequence (55000 before the first).
"""

from __future__ import annotations

import re

import pyarrow as pa
from pglast import ast

from planner.catalog import Catalog, Relation
from planner.errors import SqlError

FUNCTIONS = ("nextval", "setval", "currval")


def function_name(node) -> str | None:
    """The lower-case name of a call of one of FUNCTIONS, else None."""
    if not isinstance(node, ast.FuncCall):
        return None
    names = [n.sval.lower() for n in node.funcname]
    if len(names) == 2 and names[0] != "pg_catalog" or names[-1] not in FUNCTIONS:
        return None
    return names[-1]


def call_of(node) -> ast.FuncCall | None:
    """The one sequence call ``node`` selects (``SELECT nextval(...) [FROM
    ...]``), or None when it is another query."""
    if not isinstance(node, ast.SelectStmt) or (node.op is not None and node.op.name != "SETOP_NONE"):
        return None
    targets = node.targetList or ()
    if len(targets) != 1 or function_name(targets[0].val) is None:
        return None
    return targets[0].val


def _split_name(text: str) -> tuple[str | None, str]:
    """A relation name as regclass reads it: dotted, unquoted parts folded."""
    parts = [p[1:-1].replace('""', '"') if p.startswith('"') else p.lower() for p in re.findall(r'"(?:[^"]|"")*"|[^.]+', text.strip())]
    return (parts[-2], parts[-1]) if len(parts) >= 2 else (None, parts[-1])


def serial_sequence(catalog: Catalog, search_path: tuple[str, ...], table: str, column: str) -> str | None:
    """``pg_get_serial_sequence(table, column)``: the qualified name of the
    column's sequence, or None when it has none (the column is taken
    literally, its case kept, as PostgreSQL does)."""
    schema, name = _split_name(table)
    rel = catalog.relation(name, schema, search_path)
    col = next((c for c in rel.columns if c.name == column), None)
    if col is None:
        raise SqlError("42703", f'column "{column}" of relation "{rel.name}" does not exist')
    if not col.sequenced:
        return None
    return f"{_ident(rel.schema)}.{_ident(rel.sequence_shown(col.name))}"


def _ident(name: str) -> str:
    return name if re.fullmatch(r"[a-z_][a-z0-9_$]*", name) else '"' + name.replace('"', '""') + '"'


def resolve(catalog: Catalog, search_path: tuple[str, ...], text: str) -> tuple[Relation, object]:
    """The relation and sequenced column of the sequence named ``text``."""
    schema, name = _split_name(text)
    for rel in catalog.relations.values():
        if schema is None and rel.schema not in search_path or schema is not None and rel.schema != schema:
            continue
        for col in rel.columns:
            if col.sequenced and rel.sequence_shown(col.name) == name:
                return rel, col
    raise SqlError("42P01", f'relation "{text}" does not exist')


async def apply(session, dml, call: ast.FuncCall, args: pa.Table) -> pa.Table:
    """Each row of ``args`` (the call's arguments) applied in order; the
    values the calls return, as a one-column table named after the call."""
    name = function_name(call)
    catalog = await dml.work.catalog()
    out = []
    for row in args.to_pylist():
        values = list(row.values())
        if values[0] is None or any(v is None for v in values[1:]):
            out.append(None)  # strict functions: NULL in, NULL out
            continue
        rel, col = resolve(catalog, session.search_path, str(values[0]))
        key = rel.sequence(col.name)
        if name == "nextval":
            value = await dml.take_values(rel, col, 1)
            session.sequence_values[key] = value
        elif name == "currval":
            if key not in session.sequence_values:
                raise SqlError("55000", f'currval of sequence "{rel.sequence_shown(col.name)}" is not yet defined in this session')
            value = session.sequence_values[key]
        else:
            value, is_called = int(values[1]), bool(values[2]) if len(values) > 2 else True
            if value < 1:
                raise SqlError("22003", f'setval: value {value} is out of bounds for sequence "{rel.sequence_shown(col.name)}" (1..9223372036854775807)')
            await session.db.sequences.restart(key, value if is_called else value - 1)
        out.append(value)
    return pa.table({name: pa.array(out, pa.int64())})

