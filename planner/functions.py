"""Functions written in SQL (``CREATE FUNCTION ... LANGUAGE sql``): their
definitions as the catalog keeps them (``definition``), and their calls
inlined into the statements that make them (``inline``), as PostgreSQL
inlines simple SQL functions: the body, its parameters replaced by the
call's arguments (cast to the parameters' types), stands where the call
stood.

- A scalar call (in an expression) becomes the body's one expression when
  the body is a plain ``SELECT expr``, else a scalar subquery of the body's
  first row; its value is cast to the declared return type. A STRICT
  function of a NULL argument is NULL. A set-returning function called in
  an expression becomes ``unnest(ARRAY(body))``.
- A call in FROM becomes a LATERAL subquery of the body, its columns named
  and typed as declared (RETURNS TABLE, OUT parameters) or, for a function
  of one value, named by the alias or the function (one row, even when the
  body finds none, unless it returns SETOF).

Parameters are referred to as ``$n`` or by name (a column of a relation the
body reads takes precedence over a parameter of its name, as in
PostgreSQL). Arguments are matched by position, or by name (``a => 1``);
left-out trailing arguments take their DEFAULT.

Invariants: an inlined call reads only what its body reads (the catalog
keys of the functions it looked up are in the reader's read set, so
replacing a function conflicts with statements that inlined it); inlining
nests at most ``MAX_DEPTH`` calls deep (54001 beyond, as PostgreSQL's stack
limit stops recursion); a body is one SELECT or VALUES (anything else is
refused when the function is created).
"""

from __future__ import annotations

import functools
import itertools

import pglast
from pglast import ast
from pglast.enums import FunctionParameterMode, SubLinkType

from dataclasses import replace

from planner.catalog import Catalog, Function
from planner.errors import SqlError, not_supported
from planner.parse import copy_tree, pg_sql, walk
from planner.pgcatalog import replace_children
from planner.sqltypes import canonical, type_name

__all__ = ["MAX_DEPTH", "check_body", "definition", "inline"]

MAX_DEPTH = 32
_VOLATILITY = {"immutable": "i", "stable": "s", "volatile": "v"}
_IN_MODES = (FunctionParameterMode.FUNC_PARAM_DEFAULT, FunctionParameterMode.FUNC_PARAM_IN, FunctionParameterMode.FUNC_PARAM_VARIADIC)
_OUT_MODES = (FunctionParameterMode.FUNC_PARAM_OUT, FunctionParameterMode.FUNC_PARAM_TABLE, FunctionParameterMode.FUNC_PARAM_INOUT)


# -- definitions --------------------------------------------------------------------


def definition(node: ast.CreateFunctionStmt, schema: str, oid: int) -> Function:
    """The Function a CREATE FUNCTION defines (0A000 for other languages
    than sql, procedures, and bodies of more than one query; 42P13 for a
    declaration PostgreSQL refuses)."""
    if node.is_procedure:
        raise not_supported("CREATE PROCEDURE")
    options = {o.defname: o.arg for o in node.options or ()}
    language = options["language"].sval.lower() if "language" in options else ("sql" if node.sql_body is not None else None)
    if language is None:
        raise SqlError("42P13", "no language specified")
    if language != "sql":
        raise not_supported(f"functions in language {language}")
    if "window" in options:
        raise not_supported("window functions written in SQL")
    names, types, defaults, columns = [], [], [], []
    for param in node.parameters or ():
        if param.mode == FunctionParameterMode.FUNC_PARAM_VARIADIC:
            raise not_supported("VARIADIC parameters")
        sql_type = canonical(param.argType, array_ok=True)
        if param.mode in _OUT_MODES:
            columns.append((param.name or f"column{len(columns) + 1}", sql_type))
        if param.mode in _IN_MODES or param.mode == FunctionParameterMode.FUNC_PARAM_INOUT:
            names.append(param.name or "")
            types.append(sql_type)
            defaults.append(pg_sql(param.defexpr) if param.defexpr is not None else None)
        elif param.defexpr is not None:
            raise SqlError("42P13", "only input parameters can have default values")
    if any(d is not None for d in defaults):
        first = next(i for i, d in enumerate(defaults) if d is not None)
        if any(d is None for d in defaults[first:]):
            raise SqlError("42P13", "input parameters after one with a default value must also have defaults")
    setof, returns = False, "record"
    if node.returnType is not None:
        setof = bool(node.returnType.setof)
        returned = ast.TypeName(names=node.returnType.names, typmods=node.returnType.typmods, arrayBounds=node.returnType.arrayBounds,
                                typemod=-1)
        returns = "record" if returned.names[-1].sval == "record" else "void" if returned.names[-1].sval == "void" \
            else canonical(returned, array_ok=True)
    elif not columns:
        raise SqlError("42P13", "function result type must be specified")
    if returns == "record" and not columns:
        raise not_supported("functions returning record without a column list")
    if len(columns) == 1:  # one OUT parameter: the function returns its type
        returns = columns[0][1] if returns == "record" else returns
    return Function(node.funcname[-1].sval, schema, tuple(names), tuple(types), tuple(defaults), returns, setof,
                    tuple(columns) if len(columns) > 1 else (), _body(node, options), "strict" in options and bool(options["strict"].boolval),
                    _VOLATILITY.get(options["volatility"].sval if "volatility" in options else "volatile", "v"), oid,
                    options["as"][0].sval if node.sql_body is None else "")


def _body(node: ast.CreateFunctionStmt, options: dict) -> str:
    """The body as one query's PostgreSQL SQL (``RETURN expr`` is ``SELECT expr``)."""
    if node.sql_body is not None:
        body = node.sql_body
        if isinstance(body, ast.ReturnStmt):
            return pg_sql(ast.SelectStmt(targetList=(ast.ResTarget(val=body.returnval),)))
        statements = [s for s in (body if isinstance(body, tuple) else (body,)) if s is not None]
        while len(statements) == 1 and isinstance(statements[0], tuple):
            statements = [s for s in statements[0] if s is not None]
        if len(statements) != 1:
            raise not_supported("function bodies of more than one statement")
        return _one_query(pg_sql(statements[0].returnval if isinstance(statements[0], ast.ReturnStmt) else statements[0]),
                          isinstance(statements[0], ast.ReturnStmt))
    if "as" not in options:
        raise SqlError("42P13", "no function body specified")
    return _one_query(options["as"][0].sval, False)


def _one_query(text: str, expression: bool) -> str:
    if expression:
        return pg_sql(ast.SelectStmt(targetList=(ast.ResTarget(val=pglast.parse_sql(f"SELECT {text}")[0].stmt.targetList[0].val),)))
    try:
        statements = pglast.parse_sql(text)
    except pglast.parser.ParseError as e:
        raise SqlError("42601", f"{e.args[0]} (in the function's body)") from None
    if len(statements) != 1 or not isinstance(statements[0].stmt, ast.SelectStmt):
        raise not_supported("function bodies other than one SELECT or VALUES")
    return pg_sql(statements[0].stmt)


# -- inlining -------------------------------------------------------------------------


def inline(node: ast.Node, catalog: Catalog, search_path: tuple[str, ...], depth: int = 0) -> ast.Node:
    """``node`` (changed in place) with every call of a SQL function replaced by its body."""
    if depth > MAX_DEPTH:
        raise SqlError("54001", "stack depth limit exceeded", hint="SQL functions here call each other too deeply (or recursively).")
    if not catalog.defines_functions:
        return node  # (every statement is bound through here: no walk while no SQL function exists)

    def replacement(n):
        if isinstance(n, ast.RangeFunction):
            return _table_call(n, catalog, search_path, depth)
        if isinstance(n, ast.FuncCall):
            return _scalar_call(n, catalog, search_path, depth)
        return None

    if isinstance(node, (ast.FuncCall, ast.RangeFunction)) and (new := replacement(node)) is not None:
        return new
    _replace_everywhere(node, replacement)
    return node


def _resolve(fc: ast.FuncCall, catalog: Catalog, search_path: tuple[str, ...]) -> tuple[Function, list[ast.Node]] | None:
    """The SQL function ``fc`` calls and its arguments in parameter order
    (defaults filled in), or None when it calls no SQL function."""
    if fc.agg_star or fc.agg_distinct or fc.agg_order or fc.agg_filter is not None or fc.over is not None or fc.func_variadic:
        return None
    names = [n.sval for n in fc.funcname]
    if len(names) > 2 or len(names) == 2 and names[0] == "pg_catalog":
        return None
    if len(names) == 2 and not catalog.has_schema(names[0]):
        raise SqlError("3F000", f'schema "{names[0]}" does not exist')
    found = catalog.functions_named(names[-1], names[0] if len(names) == 2 else None, search_path)
    if not found:
        return None
    args = list(fc.args or ())
    named = {a.name: a.arg for a in args if isinstance(a, ast.NamedArgExpr)}
    positional = [a for a in args if not isinstance(a, ast.NamedArgExpr)]
    fits = [f for f in found if _arguments(f, positional, named) is not None]
    if not fits:
        return None  # another function of that name (PostgreSQL's own, say): left to the engine
    if len(fits) > 1:
        raise not_supported(f"choosing between overloads of function {names[-1]}")
    return fits[0], _arguments(fits[0], positional, named)


def _arguments(fn: Function, positional: list[ast.Node], named: dict[str, ast.Node]) -> list[ast.Node] | None:
    if len(positional) > len(fn.arg_types) or any(name not in fn.arg_names for name in named):
        return None
    out: list[ast.Node | None] = list(positional) + [None] * (len(fn.arg_types) - len(positional))
    for name, arg in named.items():
        i = fn.arg_names.index(name)
        if out[i] is not None:
            return None
        out[i] = arg
    for i, arg in enumerate(out):
        if arg is None:
            if fn.defaults[i] is None:
                return None
            out[i] = pglast.parse_sql(f"SELECT {fn.defaults[i]}")[0].stmt.targetList[0].val
    return out


def _cast(n: ast.Node, sql_type: str) -> ast.TypeCast:
    return ast.TypeCast(arg=n, typeName=type_name(sql_type))


def _substituted(fn: Function, args: list[ast.Node], catalog: Catalog, search_path: tuple[str, ...], depth: int) -> ast.SelectStmt:
    """The body with its parameters replaced by ``args`` (cast to their
    types), its own calls inlined. A body that reads relations reads the
    arguments from a derived table of one row before them
    (``SELECT _fn.* FROM (SELECT args) AS _fnargsN, LATERAL (body) AS _fn``),
    so a column the call's arguments name is the caller's, never one of the
    body's relations of the same name."""
    body = copy_tree(_parsed(fn.body))
    typed = [_cast(inline(copy_tree(a), catalog, search_path, depth + 1), t) for a, t in zip(args, fn.arg_types)]
    # columns in the arguments could be captured by the body's relations: those are read from a row before them
    plain = _plain_expression(body) is not None or not any(isinstance(x, (ast.ColumnRef, ast.SubLink)) for a in typed for x in walk(a))
    holder = f"_fnargs{next(_HOLDERS)}"
    values = typed if plain else [ast.ColumnRef(fields=(ast.String(sval=holder), ast.String(sval=f"_p{i}"))) for i in range(len(typed))]
    shadowed = _column_names(body, catalog, search_path)
    by_name = {name: i for i, name in enumerate(fn.arg_names) if name and name not in shadowed}

    def parameter(n):
        if isinstance(n, ast.ParamRef) and 1 <= n.number <= len(values):
            return copy_tree(values[n.number - 1])
        if isinstance(n, ast.ColumnRef) and all(isinstance(f, ast.String) for f in n.fields):
            fields = [f.sval for f in n.fields]
            if len(fields) == 1 and fields[0] in by_name:
                return copy_tree(values[by_name[fields[0]]])
            if len(fields) == 2 and fields[0] == fn.name and fields[1] in fn.arg_names:
                return copy_tree(values[fn.arg_names.index(fields[1])])
        return None

    _replace_everywhere(body, parameter)
    body = inline(body, catalog, search_path, depth + 1)
    if plain or not typed:
        return body
    holder_row = ast.SelectStmt(targetList=tuple(ast.ResTarget(name=f"_p{i}", val=v) for i, v in enumerate(typed)))
    return ast.SelectStmt(targetList=(ast.ResTarget(val=ast.ColumnRef(fields=(ast.String(sval="_fn"), ast.A_Star()))),),
                          fromClause=(ast.RangeSubselect(subquery=holder_row, alias=ast.Alias(aliasname=holder)),
                                      ast.RangeSubselect(lateral=True, subquery=body, alias=ast.Alias(aliasname="_fn"))))


_HOLDERS = itertools.count()


@functools.lru_cache(maxsize=256)
def _parsed(body: str) -> ast.SelectStmt:
    """A body's tree, parsed once per text (callers change copies of it)."""
    return pglast.parse_sql(body)[0].stmt


def _replace_everywhere(root: ast.Node, fn) -> None:
    """``replace_children(n, fn)`` for every node under ``root``, VALUES lists' rows too."""
    for n in list(walk(root)):
        replace_children(n, fn)
        if isinstance(n, ast.SelectStmt) and n.valuesLists:
            n.valuesLists = tuple(tuple(fn(v) or v for v in row) for row in n.valuesLists)


def _column_names(body: ast.Node, catalog: Catalog, search_path: tuple[str, ...]) -> set[str]:
    """The column names of the relations the body reads (they shadow parameters of those names)."""
    out = set()
    for n in walk(body):
        if isinstance(n, ast.RangeVar):
            rel = catalog.lookup(n.relname, n.schemaname, search_path)
            if rel is not None:
                out.update(rel.column_names)
        elif isinstance(n, ast.Alias) and n.colnames:
            out.update(c.sval for c in n.colnames)
    return out


def _plain_expression(body: ast.SelectStmt) -> ast.Node | None:
    """The expression of a body that is only ``SELECT expr``."""
    if body.fromClause or body.whereClause is not None or body.groupClause or body.havingClause is not None or body.sortClause \
            or body.limitCount is not None or body.distinctClause or body.withClause is not None or body.valuesLists \
            or body.op is not None and body.op.name != "SETOP_NONE" or len(body.targetList or ()) != 1:
        return None
    val = body.targetList[0].val
    return None if isinstance(val, ast.ColumnRef) and isinstance(val.fields[-1], ast.A_Star) else val


def _first_rows(body: ast.SelectStmt, limit: int | None) -> ast.SelectStmt:
    """``SELECT * FROM (body) AS _fn [LIMIT limit]``."""
    return ast.SelectStmt(targetList=(ast.ResTarget(val=ast.ColumnRef(fields=(ast.A_Star(),))),),
                          fromClause=(ast.RangeSubselect(subquery=body, alias=ast.Alias(aliasname="_fn")),),
                          limitCount=ast.A_Const(val=ast.Integer(ival=limit)) if limit is not None else None,
                          limitOption=pglast.enums.LimitOption.LIMIT_OPTION_COUNT if limit is not None else None)


def _strict(fn: Function, args: list[ast.Node], value: ast.Node) -> ast.Node:
    """``value``, or NULL when the function is STRICT and an argument is NULL."""
    if not fn.strict or not args:
        return value
    tests = [ast.NullTest(arg=copy_tree(a), nulltesttype=pglast.enums.NullTestType.IS_NULL) for a in args]
    test = tests[0] if len(tests) == 1 else ast.BoolExpr(boolop=pglast.enums.BoolExprType.OR_EXPR, args=tuple(tests))
    return ast.CaseExpr(args=(ast.CaseWhen(expr=test, result=ast.A_Const(isnull=True)),), defresult=value)


def _scalar_call(fc: ast.FuncCall, catalog: Catalog, search_path: tuple[str, ...], depth: int) -> ast.Node | None:
    resolved = _resolve(fc, catalog, search_path)
    if resolved is None:
        return None
    fn, args = resolved
    if fn.columns:
        raise not_supported(f"function {fn.name} returning several columns called in an expression (call it in FROM)")
    body = _substituted(fn, args, catalog, search_path, depth)
    if fn.setof:  # rows in the select list: unnest of the array of them
        array = ast.SubLink(subLinkType=SubLinkType.ARRAY_SUBLINK, subselect=_first_rows(body, None))
        return ast.FuncCall(funcname=(ast.String(sval="unnest"),), args=(_strict(fn, args, array),))
    if fn.returns == "void":
        raise not_supported(f"function {fn.name} returning void")
    expr = _plain_expression(body)
    value = expr if expr is not None else ast.SubLink(subLinkType=SubLinkType.EXPR_SUBLINK, subselect=_first_rows(body, 1))
    return _strict(fn, args, _cast(value, fn.returns))


def _table_call(rf: ast.RangeFunction, catalog: Catalog, search_path: tuple[str, ...], depth: int) -> ast.Node | None:
    if len(rf.functions) != 1 or not isinstance(rf.functions[0][0], ast.FuncCall) or rf.is_rowsfrom:
        return None
    fc = rf.functions[0][0]
    resolved = _resolve(fc, catalog, search_path)
    if resolved is None:
        return None
    fn, args = resolved
    if rf.ordinality:
        raise not_supported(f"WITH ORDINALITY of function {fn.name}")
    alias = rf.alias.aliasname if rf.alias is not None else fn.name
    given = [c.sval for c in rf.alias.colnames] if rf.alias is not None and rf.alias.colnames else []
    declared = list(fn.columns) or [(alias, fn.returns)]
    if len(given) > len(declared):
        raise SqlError("42P10", f'table "{alias}" has {len(declared)} columns available but {len(given)} columns specified')
    names = given + [name for name, _t in declared[len(given):]]
    body = _substituted(fn, args, catalog, search_path, depth)
    inner = [f"_c{i}" for i in range(len(declared))]
    source = ast.RangeSubselect(subquery=body, alias=ast.Alias(aliasname="_fn", colnames=tuple(ast.String(sval=c) for c in inner)))
    targets = tuple(ast.ResTarget(name=name, val=_cast(ast.ColumnRef(fields=(ast.String(sval="_fn"), ast.String(sval=c))), t))
                    for name, c, (_n, t) in zip(names, inner, declared))
    rows = ast.SelectStmt(targetList=targets, fromClause=(source,))
    if not fn.setof:  # one row, NULLs when the body finds none
        if len(declared) == 1:
            value = ast.SubLink(subLinkType=SubLinkType.EXPR_SUBLINK, subselect=_first_rows(body, 1))
            rows = ast.SelectStmt(targetList=(ast.ResTarget(name=names[0], val=_strict(fn, args, _cast(value, declared[0][1]))),))
        else:
            rows.limitCount, rows.limitOption = ast.A_Const(val=ast.Integer(ival=1)), pglast.enums.LimitOption.LIMIT_OPTION_COUNT
    return ast.RangeSubselect(lateral=True, subquery=rows, alias=ast.Alias(aliasname=alias))


def check_body(fn: Function, catalog: Catalog, search_path: tuple[str, ...]) -> ast.SelectStmt:
    """A query that reads the body once with NULL arguments and no rows
    (``LIMIT 0``), for CREATE FUNCTION to bind: the names it reads exist
    (a call of the function itself, which does not exist yet, reads as a
    NULL of its type)."""
    stub = replace(fn, body=pg_sql(_stubbed(copy_tree(_parsed(fn.body)), fn)))
    return _first_rows(_substituted(stub, [ast.A_Const(isnull=True)] * len(fn.arg_types), catalog, search_path, 0), 0)


def _stubbed(body: ast.SelectStmt, fn: Function) -> ast.SelectStmt:
    def stub(n):
        if isinstance(n, ast.FuncCall) and n.funcname[-1].sval == fn.name and len(n.funcname) <= 2 \
                and (len(n.funcname) == 1 or n.funcname[0].sval == fn.schema):
            return _cast(ast.A_Const(isnull=True), "text" if fn.returns in ("record", "void") else fn.returns)
        return None

    _replace_everywhere(body, stub)
    return body
