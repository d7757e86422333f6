"""Parsing and classification with pglast (PostgreSQL's own grammar).

``parse(sql)`` splits a query string into statements and classifies each:

* ``read``: SELECT (and VALUES, TABLE) — runs at one ``read_ts``; FOR UPDATE /
  FOR SHARE are accepted and need no locks (transactions are serializable:
  a conflicting write after ``read_ts`` fails the commit with 40001);
* ``write``: TRUNCATE; INSERT — write-only, or read-then-write when the table has a
  primary key (uniqueness needs the current contents) or the rows come from
  a SELECT; UPDATE and DELETE — read-then-write;
* ``ddl``: CREATE/DROP/ALTER of schemas, tables, views and materialized
  views, CREATE TABLE AS / SELECT INTO, REFRESH — catalog writes;
* ``copy``: COPY FROM STDIN / TO STDOUT;
* ``explain``: EXPLAIN;
* ``session``: SET, SHOW, RESET, DISCARD, PREPARE, EXECUTE, DEALLOCATE, UNLISTEN;
* ``cursor``: DECLARE, FETCH, MOVE, CLOSE;
* ``txn``: BEGIN, COMMIT, ROLLBACK, ...
* ``maintenance``: VACUUM, ANALYZE;
* anything else is refused with 0A000 naming the statement.

A syntax error becomes SQLSTATE 42601 with the 1-based character position
PostgreSQL would report.

Statements are cached by their text; a point query (``SELECT cols FROM t
WHERE key = 42``) also by its shape (``point_template``), so queries that
differ only in their key parse once. Invariant: a cached node is never
modified by its callers.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

import pglast
from pglast import ast
from pglast.parser import ParseError, scan
from pglast.stream import RawStream

from planner import astnodes
from planner.errors import SYNTAX_ERROR, SqlError, not_supported
from planner.textscan import HUGE_LITERAL, LIST_RELATION, huge_literals, relation_lists

astnodes.install()  # half of a small statement's parse was pglast's per-assignment enum lookup

READ, WRITE, DDL, SESSION, TXN, COPY, EXPLAIN, CURSOR = "read", "write", "ddl", "session", "txn", "copy", "explain", "cursor"
MAINTENANCE = "maintenance"


@dataclass
class Statement:
    node: ast.Node
    text: str
    kind: str
    #: the values of ``$1..$n`` in ``node`` cut out of the text: huge string
    #: literals (``lift_literals``, as str) or a point query's integer
    #: constants (``point_template``, as int)
    literals: tuple[str | int, ...] = ()
    #: its calls of functions PostgreSQL has not built in (planner.builtins:
    #: found once per statement, however often a cached one runs)
    unknown_calls: tuple[ast.FuncCall, ...] | None = field(default=None, compare=False)
    #: a point query's skeleton (``point_template``): ``literals`` are the
    #: integer constants its ``$1..$n`` stand for and ``text`` the query as
    #: written, which ``untemplated`` parses when the key search declines
    template: bool = field(default=False, compare=False)


_PARSED: dict[str, list[Statement]] = {}


#: statements longer than this are parsed on a thread (parse_async), so one
#: huge statement does not stall every other session
THREAD_PARSE_CHARS = 1 << 18


async def parse_async(sql: str, *, lift: bool = False) -> list[Statement]:
    """``parse``, on a worker thread when ``sql`` is long."""
    if len(sql) < THREAD_PARSE_CHARS:
        return parse(sql, lift=lift)
    return await asyncio.to_thread(parse, sql, lift=lift)


def parse(sql: str, *, lift: bool = False) -> list[Statement]:
    """Statements of ``sql`` (cached by text; callers never modify nodes).
    ``lift``: a query without parameters may come back with its huge
    string literals lifted out (``lift_literals``)."""
    if lift and len(sql) > HUGE_LITERAL and sql.lstrip()[:6].upper().startswith(("SELECT", "WITH", "TABLE", "VALUES")):  # queries only
        lifted = lift_literals(sql)
        if lifted is not None:
            return lifted
    hit = _PARSED.get(sql)
    if hit is not None:
        return hit
    if lift:
        point = point_template(sql)
        if point is not None:
            return [point]
    out = _parse(sql)
    if len(sql) < 4096:
        if len(_PARSED) >= 1024:
            _PARSED.pop(next(iter(_PARSED)))
        _PARSED[sql] = out
    return out


#: skeletons of queries with their integer constants cut out (``point_template``):
#: the skeleton's Statement when it is a point query's, else None
_TEMPLATES: dict[str, Statement | None] = {}
#: the greatest integer constant cut out: PostgreSQL types any constant up to it integer
_INT4_MAX = 2**31 - 1


def point_template(sql: str) -> Statement | None:
    """``SELECT plain columns FROM t WHERE col = 123`` (or ``col IN (1,
    2)``) as its skeleton ``... WHERE col = $1`` with the constants as
    ``literals``: queries that differ only in their key (pgbench's,
    an ORM's ``get``) parse once, and bind and describe once, instead of
    once per key. None for anything else.

    Only a skeleton whose parameters are all compared with a column as a
    whole WHERE is one (``_point_skeleton``), and only constants PostgreSQL
    types integer are cut out: the key search (planner.keyprobe) reads such
    a constant and the same integer as a parameter alike, and when it
    declines, the caller runs the query as written (``untemplated``)."""
    if len(sql) > 1024 or "$" in sql or sql.lstrip()[:6].upper() != "SELECT":
        return None
    try:
        tokens = scan(sql)
    except ParseError:
        return None
    pieces, values, pos = [], [], 0
    for tok in tokens:
        if tok.name != "ICONST":
            continue
        digits, after = sql[tok.start : tok.end + 1], sql[tok.end + 1 : tok.end + 2]
        if not (digits.isascii() and digits.isdigit()) or int(digits) > _INT4_MAX or after.isalnum() or after == "_":
            return None  # 0x1F, 1_000, 1e5 and the like: as written
        pieces += [sql[pos : tok.start], f"${len(values) + 1}"]
        values.append(int(digits))
        pos = tok.end + 1
    if not values:
        return None
    skeleton = "".join(pieces) + sql[pos:]
    if skeleton not in _TEMPLATES:
        if len(_TEMPLATES) >= 1024:
            _TEMPLATES.pop(next(iter(_TEMPLATES)))
        _TEMPLATES[skeleton] = _point_skeleton(skeleton, len(values))
    found = _TEMPLATES[skeleton]
    return None if found is None else Statement(found.node, sql.strip(), READ, tuple(values), found.unknown_calls, template=True)


def _point_skeleton(skeleton: str, count: int) -> Statement | None:
    """The Statement of ``skeleton`` when it is one single-table SELECT of
    plain columns whose WHERE is only ``column = $i`` or ``column IN ($i,
    ...)``, each of ``$1..$count`` once, else None."""
    try:
        (stmt,) = _parse(skeleton)
    except (SqlError, ValueError):
        return None
    node = stmt.node
    if not isinstance(node, ast.SelectStmt) or len(node.fromClause or ()) != 1 or not isinstance(node.fromClause[0], ast.RangeVar):
        return None
    if any(getattr(node, a) for a in ("distinctClause", "groupClause", "havingClause", "sortClause", "limitCount", "limitOffset",
                                      "windowClause", "withClause", "valuesLists", "intoClause", "lockingClause")):
        return None
    if node.op is not None and node.op.name != "SETOP_NONE":
        return None
    if any(t.name or not isinstance(t.val, ast.ColumnRef) for t in node.targetList or ()):
        return None
    where = node.whereClause
    if not isinstance(where, ast.A_Expr) or not isinstance(where.lexpr, ast.ColumnRef):
        return None
    kind = where.kind.name if where.kind is not None else None
    if kind == "AEXPR_OP" and [n.sval for n in where.name] == ["="]:
        params = [where.rexpr]
    elif kind == "AEXPR_IN" and isinstance(where.rexpr, (list, tuple)) and [n.sval for n in where.name] == ["="]:
        params = list(where.rexpr)
    else:
        return None
    if not all(isinstance(n, ast.ParamRef) for n in params) or sorted(n.number for n in params) != list(range(1, count + 1)):
        return None
    if sum(isinstance(n, ast.ParamRef) for n in walk(node)) != count:
        return None
    stmt.unknown_calls = ()  # (column references and parameters only)
    return stmt


def untemplated(stmt: Statement) -> Statement:
    """A point template's query as written (``point_template``)."""
    assert stmt.template, "only a point template has a query as written apart from its node"
    (written,) = parse(stmt.text)
    return written


#: casts a lifted literal may sit under (a text parameter means the same)
_TEXT_CASTS = {"text", "varchar", "json", "jsonb"}


def lift_literals(sql: str) -> list[Statement] | None:
    """A SELECT whose plain string literals of HUGE_LITERAL characters or
    more are lifted out, each replaced by a parameter ``$i`` whose value
    (``Statement.literals``) is the literal's text: a value typed by its
    context like the literal, but one the parser, binder, rewriters and
    engine never scan as SQL text (each is a pass over the statement that
    holds the interpreter's lock: a 50 MB literal stalled every session
    for a second). None when nothing is lifted, or when the statement is
    not one query of its own without parameters, or a lifted literal is
    cast to a type a text value would not become the same way."""
    cut = huge_literals(relation_lists(sql))
    if not cut:
        return None
    skeleton, literals = cut
    try:
        raw = pglast.parse_sql(skeleton)
    except ParseError:
        return None  # the error is reported from the text as written
    if len(raw) != 1 or classify(raw[0].stmt) != READ:
        return None
    node = raw[0].stmt
    refs = sorted(n.number for n in walk(node) if isinstance(n, ast.ParamRef))
    if refs != list(range(1, len(literals) + 1)):
        return None  # parameters of the client's own
    for n in walk(node):
        if isinstance(n, ast.TypeCast) and isinstance(n.arg, ast.ParamRef):
            if n.typeName.names[-1].sval not in _TEXT_CASTS or n.typeName.arrayBounds:
                return None
    return [Statement(node, skeleton.strip(), READ, tuple(literals))]


def _parse(sql: str) -> list[Statement]:
    sql = relation_lists(sql)
    try:
        raw = pglast.parse_sql(sql)
    except ParseError as e:
        message, index = e.args[0], e.args[1] if len(e.args) > 1 else None
        message = message.rsplit(", at index", 1)[0]
        if index is None and message.endswith("at end of input"):
            index = len(sql)  # PostgreSQL points just past the text
        # the lexer's encoding check (a NUL from an escape) is not a syntax error
        sqlstate = "22021" if message.startswith("invalid byte sequence") else SYNTAX_ERROR
        raise SqlError(sqlstate, message, position=None if index is None else index + 1) from None
    out = []
    for r in raw:
        start = r.stmt_location or 0
        text = sql[start : start + r.stmt_len] if r.stmt_len else sql[start:]
        if _ARRAY_TYPE_NAME.search(text):
            _array_type_names(r.stmt)
        out.append(Statement(r.stmt, text.strip(), classify(r.stmt)))
    return out


#: PostgreSQL's names of its base types' array types (``_int4`` is ``int4[]``)
_ARRAY_TYPES = {"_int2", "_int4", "_int8", "_float4", "_float8", "_numeric", "_bool", "_text", "_varchar", "_bpchar", "_char",
                "_date", "_time", "_timestamp", "_timestamptz", "_interval", "_bytea", "_uuid", "_json", "_jsonb", "_oid", "_name"}
_ARRAY_TYPE_NAME = re.compile(r"\b(" + "|".join(sorted(_ARRAY_TYPES)) + r")\b", re.IGNORECASE)


def _array_type_names(node: ast.Node) -> None:
    """Each ``_int4``-style type name in ``node`` as ``int4[]`` (in place);
    an output column named after one (``SELECT x::_int4``) keeps its name."""
    for n in walk(node):
        if isinstance(n, ast.ResTarget) and n.name is None and isinstance(n.val, ast.TypeCast) and isinstance(n.val.arg, (ast.A_Const, ast.ParamRef)) \
                and n.val.typeName.names[-1].sval.lower() in _ARRAY_TYPES and not n.val.typeName.arrayBounds:  # (named after its type)
            _set(n, "name", n.val.typeName.names[-1].sval.lower())
        elif isinstance(n, ast.TypeName) and not n.arrayBounds and n.names[-1].sval.lower() in _ARRAY_TYPES \
                and (len(n.names) == 1 or n.names[0].sval == "pg_catalog"):
            _set(n, "names", (ast.String(sval=n.names[-1].sval.lower()[1:]),))
            _set(n, "arrayBounds", (ast.Integer(ival=-1),))


DDL_NODES = (
    ast.CreateStmt, ast.CreateTableAsStmt, ast.ViewStmt, ast.DropStmt, ast.CreateSchemaStmt,
    ast.AlterTableStmt, ast.RenameStmt, ast.IndexStmt, ast.RefreshMatViewStmt, ast.CommentStmt,
    ast.GrantStmt, ast.AlterDefaultPrivilegesStmt, ast.AlterOwnerStmt, ast.CreateExtensionStmt,  # planner.grants
    ast.CreateFunctionStmt,  # planner.functions
    ast.CreateSeqStmt, ast.AlterSeqStmt,  # planner.sequences
    ast.CreateEnumStmt, ast.AlterEnumStmt, ast.CompositeTypeStmt, ast.CreateDomainStmt,
)


def _check_recursive_writes(with_clause) -> None:
    """42P19 for a data-modifying statement in WITH RECURSIVE that reads its
    own name (PostgreSQL's recursive queries are SELECTs only)."""
    if with_clause is None or not with_clause.recursive:
        return
    for cte in with_clause.ctes:
        if isinstance(cte.ctequery, (ast.InsertStmt, ast.UpdateStmt, ast.DeleteStmt, ast.MergeStmt)) and any(
                isinstance(n, ast.RangeVar) and n.schemaname is None and n.relname == cte.ctename for n in walk(cte.ctequery)):
            raise SqlError("42P19", f'recursive query "{cte.ctename}" must not contain data-modifying statements')


def classify(node: ast.Node) -> str:
    _check_recursive_writes(getattr(node, "withClause", None))
    if isinstance(node, ast.SelectStmt):
        if node.withClause is not None and any(
            isinstance(cte.ctequery, (ast.InsertStmt, ast.UpdateStmt, ast.DeleteStmt, ast.MergeStmt)) for cte in node.withClause.ctes
        ):
            if node.intoClause is not None:
                raise not_supported("SELECT INTO with data-modifying statements in WITH")
            return WRITE  # planner.writable
        return DDL if node.intoClause is not None else READ
    if isinstance(node, (ast.InsertStmt, ast.UpdateStmt, ast.DeleteStmt, ast.TruncateStmt, ast.MergeStmt)):
        return WRITE
    if isinstance(node, DDL_NODES):
        return DDL
    if isinstance(node, ast.CopyStmt):
        return COPY
    if isinstance(node, ast.ExplainStmt):
        return EXPLAIN
    if isinstance(node, (ast.VariableSetStmt, ast.VariableShowStmt, ast.DiscardStmt, ast.DeallocateStmt, ast.UnlistenStmt,
                         ast.PrepareStmt, ast.ExecuteStmt)):
        return SESSION  # (an EXECUTE runs as the statement it names: planner.session)
    if isinstance(node, (ast.DeclareCursorStmt, ast.FetchStmt, ast.ClosePortalStmt)):
        return CURSOR
    if isinstance(node, (ast.TransactionStmt, ast.ConstraintsSetStmt)):
        return TXN
    if isinstance(node, ast.VacuumStmt):
        return MAINTENANCE
    name = type(node).__name__
    pretty = {
        "CreateFunctionStmt": "CREATE FUNCTION", "CreateSeqStmt": "CREATE SEQUENCE", "CreateTrigStmt": "CREATE TRIGGER",
        "GrantStmt": "GRANT", "CreateRoleStmt": "CREATE ROLE", "LockStmt": "LOCK",
    }.get(name, name.removesuffix("Stmt"))
    raise not_supported(f"statement {pretty}")


def walk(node):
    """Every AST node under ``node`` (itself first), parents before children.
    A node's children are read after it is yielded, so a caller may replace
    them on the way down."""
    stack = [node]
    pop, push = stack.pop, stack.extend
    while stack:
        n = pop()
        if isinstance(n, _NODE):
            yield n
            push(reversed([v for v in map(n.__getattribute__, n.__slots__) if isinstance(v, _BRANCHES)]))
        elif isinstance(n, (list, tuple)):
            push(reversed(n))


_NODE = ast.Node
_BRANCHES = (ast.Node, list, tuple)  # a node's attributes that can hold nodes (the others are names, numbers, flags)
_set = object.__setattr__


def cte_names(node) -> set[str]:
    """The names of every WITH query in ``node``."""
    return {n.ctename for n in walk(node) if isinstance(n, ast.CommonTableExpr)}


def copy_tree(node):
    """A deep copy of an AST (nodes, and the lists and tuples holding them;
    names, numbers and flags shared): ``copy.deepcopy``'s result, many
    times faster (no memo, no validation of values a node already holds)."""
    if isinstance(node, _NODE):
        out = object.__new__(type(node))
        for attr in node.__slots__:
            v = getattr(node, attr)
            _set(out, attr, copy_tree(v) if isinstance(v, _BRANCHES) else v)
        return out
    if isinstance(node, tuple):
        return tuple(copy_tree(v) for v in node)
    if isinstance(node, list):
        return [copy_tree(v) for v in node]
    return node


def with_value(expr: str, value: ast.Node) -> ast.Node:
    """A domain constraint's expression (SQL text) with ``value`` (a copy
    of it each time) in place of the word VALUE."""
    def of(n):
        if isinstance(n, ast.ColumnRef) and len(n.fields) == 1 and isinstance(n.fields[0], ast.String) and n.fields[0].sval.lower() == "value":
            return copy_tree(value)
        if isinstance(n, _NODE):
            for attr in n.__slots__:
                v = getattr(n, attr)
                if isinstance(v, _BRANCHES):
                    _set(n, attr, of(v))
            return n
        if isinstance(n, tuple):
            return tuple(of(v) for v in n)
        if isinstance(n, list):
            return [of(v) for v in n]
        return n
    return of(pglast.parse_sql(f"SELECT {expr}")[0].stmt.targetList[0].val)


def pg_sql(node: ast.Node) -> str:
    """``node`` as PostgreSQL SQL text. Printing leaves each node an
    ``ancestors`` chain up to the root, which a later deep copy of one
    node would follow through the whole tree: it is taken off again."""
    text = RawStream()(node)
    for n in walk(node):
        try:
            del n.ancestors
        except AttributeError:
            pass
    return text


def table_refs(node: ast.Node) -> list[str]:
    """Names of the tables a statement reads (RangeVar nodes), CTE names excluded."""
    nodes = list(walk(node))
    ctes = {n.ctename for n in nodes if isinstance(n, ast.CommonTableExpr)}
    return sorted({n.relname for n in nodes if isinstance(n, ast.RangeVar) and n.relname not in ctes})


def batchable(stmt: Statement) -> bool:
    """An INSERT of one VALUES row, without RETURNING, ON CONFLICT, WITH or
    OVERRIDING: its executions one after another can be one write of all
    their rows (``Session.run_batch``)."""
    node = stmt.node
    return (stmt.kind == WRITE and isinstance(node, ast.InsertStmt) and node.selectStmt is not None
            and len(node.selectStmt.valuesLists or ()) == 1 and not node.returningClause and node.onConflictClause is None
            and node.withClause is None and not node.override)


def param_count(statements: list[Statement]) -> int:
    """The highest ``$n`` the statements use."""
    return max((n.number for s in statements for n in walk(s.node) if isinstance(n, ast.ParamRef)), default=0)


def selects_nothing(node: ast.Node) -> bool:
    """``node`` is a SELECT of no columns (``SELECT FROM t``, ``SELECT
    UNION SELECT``): PostgreSQL answers rows of zero columns."""
    while isinstance(node, ast.SelectStmt) and node.op is not None and node.op.name != "SETOP_NONE":
        node = node.larg
    return isinstance(node, ast.SelectStmt) and not node.targetList and not node.valuesLists


def result_names(node: ast.Node) -> list[str] | None:
    """The column names PostgreSQL gives a SELECT's result (none for a
    SELECT of no columns), or None when they come from the tables (``*``)
    and the engine's names are right."""
    while isinstance(node, ast.SelectStmt) and node.op is not None and node.op.name != "SETOP_NONE":
        node = node.larg  # set operations take the first arm's names
    if isinstance(node, ast.SelectStmt) and node.valuesLists:
        return [f"column{i + 1}" for i in range(len(node.valuesLists[0]))]
    if selects_nothing(node):
        return []
    if not isinstance(node, ast.SelectStmt) or not node.targetList:
        return None
    names = []
    for target in node.targetList:
        if target.name:
            names.append(target.name)
            continue
        if isinstance(target.val, ast.ColumnRef) and isinstance(target.val.fields[-1], ast.A_Star):
            return None
        names.append(_figure_name(target.val)[0])
    return names


def output_names(node: ast.Node) -> list[str | None] | None:
    """``result_names``, and for a SELECT with one star among other
    targets (``SELECT *, (SELECT ...)``) the others' names with None where
    the star's columns stand (their names are the engine's)."""
    names = result_names(node)
    while isinstance(node, ast.SelectStmt) and node.op is not None and node.op.name != "SETOP_NONE":
        node = node.larg
    if names is not None or not isinstance(node, ast.SelectStmt) or not node.targetList or len(node.targetList) < 2:
        return names
    stars = [t for t in node.targetList if isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.A_Star)]
    if len(stars) != 1:
        return None
    return [None if t is stars[0] else t.name or _figure_name(t.val)[0] for t in node.targetList]


def figure_name(expr) -> str:
    """The name PostgreSQL gives an output column computed by ``expr``
    (FigureColname: a column's or function's name, ``?column?`` for none)."""
    return _figure_name(expr)[0]


def _figure_name(expr) -> tuple[str, int]:
    """PostgreSQL's FigureColname: (name, strength); strength 2 for names
    from columns and functions, 1 for type names and keywords, 0 for none."""
    if isinstance(expr, ast.ColumnRef):  # its last name, past a star (``(t.*)::text`` is named t)
        names = [f.sval for f in expr.fields if isinstance(f, ast.String)]
        return (names[-1], 2) if names else ("?column?", 0)
    if isinstance(expr, ast.FuncCall):
        return expr.funcname[-1].sval, 2
    if isinstance(expr, ast.TypeCast):
        name, strength = _figure_name(expr.arg)
        if strength <= 1:
            type_name = expr.typeName.names[-1].sval
            return {"int4": "int4", "bpchar": "bpchar"}.get(type_name, type_name), 1
        return name, strength
    if isinstance(expr, ast.A_Indirection):
        for ind in reversed(expr.indirection or ()):
            if isinstance(ind, ast.String):
                return ind.sval, 2
        return _figure_name(expr.arg)
    if isinstance(expr, ast.CollateClause):
        return _figure_name(expr.arg)
    if isinstance(expr, ast.CaseExpr):  # named after its ELSE when that has a strong name
        name, strength = _figure_name(expr.defresult) if expr.defresult is not None else ("", 0)
        return (name, strength) if strength > 1 else ("case", 1)
    if isinstance(expr, ast.CoalesceExpr):
        return "coalesce", 2
    if isinstance(expr, ast.GroupingFunc):
        return "grouping", 2
    if isinstance(expr, ast.A_Expr) and expr.kind.name == "AEXPR_NULLIF":
        return "nullif", 2
    if isinstance(expr, ast.MinMaxExpr):
        return ("greatest" if expr.op.name == "IS_GREATEST" else "least"), 2
    if isinstance(expr, ast.A_ArrayExpr):
        return "array", 2
    if isinstance(expr, ast.RowExpr):
        return "row", 2
    if isinstance(expr, ast.SubLink):
        kind = expr.subLinkType.name
        if kind == "EXISTS_SUBLINK":
            return "exists", 2
        if kind == "ARRAY_SUBLINK":
            return "array", 2
        if kind == "EXPR_SUBLINK":
            inner = result_names(expr.subselect)
            return (inner[0], 2) if inner else ("?column?", 0)
        return "?column?", 0
    if isinstance(expr, ast.SQLValueFunction):
        return expr.op.name.removeprefix("SVFOP_").lower(), 2
    return "?column?", 0


#: aggregate functions by name (a call with *, FILTER or ORDER BY is one whatever its name)
AGGREGATES = {"sum", "avg", "min", "max", "count", "string_agg", "array_agg", "bool_and", "bool_or", "every", "json_agg", "jsonb_agg",
              "json_object_agg", "jsonb_object_agg", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp",
              "bit_and", "bit_or", "corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "mode", "percentile_cont",
              "percentile_disc"}


def is_aggregate_call(fc: ast.FuncCall) -> bool:
    """``fc`` calls an aggregate (as a window function too)."""
    return fc.funcname[-1].sval in AGGREGATES or fc.agg_star or fc.agg_filter is not None or bool(fc.agg_order)
