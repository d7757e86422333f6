"""Sequences as PostgreSQL names them and as clients drive them: those
behind serial and identity columns, and those CREATE SEQUENCE makes
(``defined``: its options checked as PostgreSQL checks them); the calls
``pg_get_serial_sequence(table, column)``, ``nextval(name)``,
``setval(name, value [, is_called])``, ``currval(name)`` and ``lastval()``.

A sequenced column's sequence is named ``<table>_<column>_seq`` in the
table's schema (``Relation.sequence_shown``) and stored as a counter of
``storage.sequence`` (``Relation.sequence``); a standalone sequence is a
catalog object (``catalog.Sequence``) whose counter moves by its increment
within its bounds (starting again at the first past the last when it
CYCLEs). ``resolve`` finds either as a ``Counter``.

The functions change state outside transactions and cannot run inside
DuckDB. A query whose select list is one call of them — ``SELECT
setval(pg_get_serial_sequence('t', 'id'), coalesce(max(id), 1), max(id) IS
NOT null) FROM t``, as Django and Rails reset a table's sequence — runs in
two steps (``SequenceCall``): the engine computes the call's arguments, one
row per row of the query, and each row's call is applied in order. A call
that runs once per statement (``once_calls``: in an INSERT's VALUES, as
SQLAlchemy's Sequence writes ``VALUES (nextval('s'), ...)``, or in the
select list of a SELECT without FROM) is applied before the statement runs
and replaced by its value. A column whose DEFAULT is ``nextval('s')`` is
filled as a serial column is (``Column.next_of``). Elsewhere the name does
not resolve and the statement fails (42P01); it is never answered with a
NULL that reads as success.

Invariants: a name resolves to exactly one sequence (42P01 when none);
``setval`` moves the counter so the next ``nextval`` returns ``value +
increment`` (``is_called``) or ``value``, within the sequence's bounds
(22003 outside them); ``nextval`` past them is 2200H; ``currval`` is this
session's last ``nextval`` of the sequence (55000 before the first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pyarrow as pa
from pglast import ast

from planner.catalog import SEQUENCE_RANGES, Catalog, Column, Relation, Sequence
from planner.errors import SqlError
from values import INTEGER_RANGES

FUNCTIONS = ("nextval", "setval", "currval", "lastval")
#: ``Session.sequence_values``' entry for lastval (no sequence's key)
LAST = ""
#: a statement's text that may call one of FUNCTIONS (checked before its tree is walked)
CALLED = re.compile(r"(?i)\b(?:nextval|setval|currval|lastval)\s*\(")


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


@dataclass(frozen=True)
class Counter:
    """One sequence as its functions drive it: a standalone one
    (``sequence``) or a sequenced column's (``rel``, ``column``)."""

    key: str  # its storage.sequence name
    shown: str  # the name PostgreSQL shows
    increment: int
    minimum: int
    maximum: int
    sequence: Sequence | None = None
    rel: Relation | None = None
    column: Column | None = None


def resolve(catalog: Catalog, search_path: tuple[str, ...], text: str) -> Counter:
    """The sequence named ``text``: one made by CREATE SEQUENCE, or a
    sequenced column's (``<table>_<column>_seq``); 42P01 when none."""
    schema, name = _split_name(text)
    seq = catalog.sequence(name, schema, search_path)
    if seq is not None:
        return standalone(seq)
    for rel in catalog.relations.values():
        if schema is None and rel.schema not in search_path or schema is not None and rel.schema != schema:
            continue
        for col in rel.columns:
            if col.sequenced and rel.sequence_shown(col.name) == name:
                return Counter(rel.sequence(col.name), rel.sequence_shown(col.name), 1, 1, INTEGER_RANGES[col.type][1], rel=rel, column=col)
    raise SqlError("42P01", f'relation "{text}" does not exist')


def names(text: str, seq: Sequence, search_path: tuple[str, ...]) -> bool:
    """Whether the sequence name ``text`` (a DEFAULT's) finds ``seq``
    from ``search_path`` (the table's schema first)."""
    schema, name = _split_name(text)
    return name == seq.name and (seq.schema == schema if schema is not None else seq.schema in search_path)


def standalone(seq: Sequence) -> Counter:
    return Counter(seq.key, seq.name, seq.increment, seq.minimum, seq.maximum, sequence=seq)


async def take(dml, counter: Counter, n: int) -> range | list[int]:
    """The next ``n`` values of ``counter`` (nextval, ``n`` times), in
    order; 2200H past its bounds (a CYCLE sequence starts again: a list)."""
    if counter.sequence is None:
        return await dml.take_values(counter.rel, counter.column, n)
    seq = counter.sequence

    async def before_start() -> int:
        return seq.start - seq.increment

    if seq.cycle:
        return [await dml.work.db.sequences.take_cycling(seq.key, before_start, seq.increment, seq.minimum, seq.maximum) for _ in range(n)]
    first = await dml.work.db.sequences.take(seq.key, n, before_start, step=seq.increment)
    last = first + (n - 1) * seq.increment
    if seq.increment > 0 and last > seq.maximum:
        raise SqlError("2200H", f'nextval: reached maximum value of sequence "{seq.name}" ({seq.maximum})')
    if seq.increment < 0 and last < seq.minimum:
        raise SqlError("2200H", f'nextval: reached minimum value of sequence "{seq.name}" ({seq.minimum})')
    return range(first, last + seq.increment, seq.increment)


async def restart(db, counter: Counter, value: int, is_called: bool = True) -> None:
    """``setval(counter, value, is_called)``: the next nextval returns
    ``value + increment`` (``is_called``) or ``value``; 22003 outside the
    sequence's bounds."""
    if not counter.minimum <= value <= counter.maximum:
        raise SqlError("22003", f'setval: value {value} is out of bounds for sequence "{counter.shown}" ({counter.minimum}..{counter.maximum})')
    await db.sequences.restart(counter.key, value if is_called else value - counter.increment)


async def apply(session, dml, call: ast.FuncCall, args: pa.Table) -> pa.Table:
    """Each row of ``args`` (the call's arguments) applied in order; the
    values the calls return, as a one-column table named after the call."""
    name = function_name(call)
    catalog = await dml.work.catalog()
    out = []
    for row in args.to_pylist():
        values = list(row.values())
        if name == "lastval":
            out.append(last_value(session))
            continue
        if values[0] is None or any(v is None for v in values[1:]):
            out.append(None)  # strict functions: NULL in, NULL out
            continue
        counter = resolve(catalog, session.search_path, str(values[0]))
        out.append(await call_value(session, dml, name, counter, values[1:]))
    return pa.table({name: pa.array(out, pa.int64())})


async def call_value(session, dml, name: str, counter: Counter, args: list) -> int:
    """The value of one call ``name`` (nextval, currval or setval; ``args``
    after the sequence's name) of ``counter``, applied now."""
    if name == "nextval":
        value = (await take(dml, counter, 1))[0]
        session.sequence_values[counter.key] = value
        session.sequence_values[LAST] = value
        return value
    if name == "currval":
        if counter.key not in session.sequence_values:
            raise SqlError("55000", f'currval of sequence "{counter.shown}" is not yet defined in this session')
        return session.sequence_values[counter.key]
    value, is_called = int(args[0]), bool(args[1]) if len(args) > 1 else True
    await restart(session.db, counter, value, is_called)
    return value


def last_value(session) -> int:
    """``lastval()``: this session's last nextval of any sequence."""
    if LAST not in session.sequence_values:
        raise SqlError("55000", "lastval is not yet defined in this session")
    return session.sequence_values[LAST]


def once_calls(node) -> list[ast.FuncCall]:
    """The sequence calls of ``node`` that run once per statement, in the
    order PostgreSQL runs them: in the rows of an INSERT's VALUES (row by
    row, left to right; SQLAlchemy's ``VALUES (nextval('s'), ...)``) and
    in the select list of a SELECT without FROM (``SELECT nextval('a'),
    nextval('a')``). A call inside a subquery is not among them."""
    if isinstance(node, ast.InsertStmt) and isinstance(node.selectStmt, ast.SelectStmt) and node.selectStmt.valuesLists:
        places = [v for row in node.selectStmt.valuesLists for v in row]
    elif isinstance(node, ast.SelectStmt) and not node.fromClause and node.targetList and (node.op is None or node.op.name == "SETOP_NONE"):
        places = [t.val for t in node.targetList]
    else:
        return []
    return [c for place in places for c in _calls_in(place)]


def _calls_in(n) -> list[ast.FuncCall]:
    if isinstance(n, ast.SubLink):
        return []
    if function_name(n) is not None:
        return [c for a in n.args or () for c in _calls_in(a)] + [n]  # (its arguments run first)
    if isinstance(n, ast.Node):
        return [c for attr in n for c in _calls_in(getattr(n, attr))]
    if isinstance(n, (list, tuple)):
        return [c for v in n for c in _calls_in(v)]
    return []


def constant_arguments(call: ast.FuncCall, params) -> list | None:
    """The arguments of a sequence call when each is a constant (a string,
    ``'s'::regclass``, an integer, a boolean, or a parameter), else None."""
    out = []
    for a in call.args or ():
        if isinstance(a, ast.TypeCast) and a.typeName.names[-1].sval in ("regclass", "text", "int8", "int4", "bool"):
            a = a.arg
        if isinstance(a, ast.A_Const) and not a.isnull:
            out.append(getattr(a.val, "sval", None) if isinstance(a.val, ast.String) else getattr(a.val, "ival", getattr(a.val, "boolval", None)))
        elif isinstance(a, ast.ParamRef) and params is not None and 0 < a.number <= len(params):
            out.append(params[a.number - 1])
        else:
            return None
    return out


def value_constant(value: int | None) -> ast.Node:
    """A call's value as the bigint constant that stands for it."""
    if value is None:
        return ast.TypeCast(arg=ast.A_Const(isnull=True), typeName=ast.TypeName(names=(ast.String(sval="int8"),), typemod=-1))
    return ast.TypeCast(arg=ast.A_Const(val=ast.String(sval=str(value))), typeName=ast.TypeName(names=(ast.String(sval="int8"),), typemod=-1))


def substituted(n, values: dict[int, ast.Node]):
    """``n`` with each node whose id is a key of ``values`` replaced by its
    value (in place below ``n``; ``n`` itself when it is not replaced)."""
    if isinstance(n, ast.Node):
        if id(n) in values:
            return values[id(n)]
        for attr in n:
            v = getattr(n, attr)
            if isinstance(v, (ast.Node, list, tuple)):
                new = substituted(v, values)
                if new is not v:
                    setattr(n, attr, new)
        return n
    if isinstance(n, (list, tuple)):
        out = [substituted(v, values) for v in n]
        return type(n)(out) if any(a is not b for a, b in zip(out, n)) else n
    return n


def defined(name: str, schema: str, options, old: Sequence | None = None, *, oid: int = 0, owner=None) -> tuple[Sequence, int | None]:
    """The sequence CREATE SEQUENCE (``old`` None) or ALTER SEQUENCE
    (``old``) defines with ``options`` (DefElems), checked as PostgreSQL's
    init_params checks them (22023), and the value RESTART asks the
    counter to start again at (None: no RESTART)."""
    given = {o.defname: o for o in options or ()}
    kind = old.type if old is not None else "bigint"
    if "as" in given:
        kind = _type_of(given["as"].arg)
    low, high = SEQUENCE_RANGES[kind]
    increment = _number(given["increment"]) if "increment" in given else old.increment if old is not None else 1
    if increment == 0:
        raise SqlError("22023", "INCREMENT must not be zero")
    cycle = given["cycle"].arg.boolval if "cycle" in given else old.cycle if old is not None else False
    minimum = _bound(given, "minvalue", old.minimum if old is not None and "as" not in given else None, 1 if increment > 0 else low)
    maximum = _bound(given, "maxvalue", old.maximum if old is not None and "as" not in given else None, high if increment > 0 else -1)
    for word, v in (("MINVALUE", minimum), ("MAXVALUE", maximum)):
        if not low <= v <= high:
            raise SqlError("22023", f'{word} ({v}) is out of range for sequence data type {kind}')
    if minimum >= maximum:
        raise SqlError("22023", f"MINVALUE ({minimum}) must be less than MAXVALUE ({maximum})")
    start = _number(given["start"]) if "start" in given else old.start if old is not None else minimum if increment > 0 else maximum
    if start < minimum:
        raise SqlError("22023", f"START value ({start}) cannot be less than MINVALUE ({minimum})")
    if start > maximum:
        raise SqlError("22023", f"START value ({start}) cannot be greater than MAXVALUE ({maximum})")
    cache = _number(given["cache"]) if "cache" in given else old.cache if old is not None else 1
    if cache <= 0:
        raise SqlError("22023", f"CACHE ({cache}) must be greater than zero")
    again = None
    if "restart" in given:
        again = _number(given["restart"]) if given["restart"].arg is not None else start
        if again < minimum:
            raise SqlError("22023", f"RESTART value ({again}) cannot be less than MINVALUE ({minimum})")
        if again > maximum:
            raise SqlError("22023", f"RESTART value ({again}) cannot be greater than MAXVALUE ({maximum})")
    if old is not None:
        oid, owner = old.oid, old.owner
    return Sequence(name, schema, kind, start, increment, minimum, maximum, cache, oid, owner, cycle), again


def next_default(default: str) -> str:
    """A column DEFAULT (PostgreSQL SQL) as stored: ``nextval('s')`` is
    ``nextval('s'::regclass)``, as PostgreSQL shows it (``Column.next_of``)."""
    found = re.fullmatch(r"(?:pg_catalog\.)?nextval\(('(?:[^']|'')+')\)", default)
    return f"nextval({found.group(1)}::regclass)" if found else default


def owned_by(options) -> tuple[str, ...] | None:
    """The OWNED BY option's name parts (``("none",)`` for NONE), if given."""
    for o in options or ():
        if o.defname == "owned_by":
            return tuple(s.sval for s in o.arg)
    return None


def _type_of(tn: ast.TypeName) -> str:
    name = tn.names[-1].sval
    kind = {"int2": "smallint", "int4": "integer", "int8": "bigint"}.get(name)
    if kind is None:
        raise SqlError("22023", "sequence type must be smallint, integer, or bigint")
    return kind


def _number(option) -> int:
    arg = option.arg
    value = arg.ival if isinstance(arg, ast.Integer) else int(arg.fval) if isinstance(arg, ast.Float) else None
    if value is None:
        raise SqlError("42601", f"{option.defname} requires a numeric value")
    return value


def _bound(given: dict, word: str, kept: int | None, default: int) -> int:
    """MINVALUE or MAXVALUE: as given, NO ... (the default), or ``kept``."""
    if word in given:
        return _number(given[word]) if given[word].arg is not None else default
    return kept if kept is not None else default
