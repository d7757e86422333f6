"""json and jsonb in queries: which expressions are json-valued, and
PostgreSQL's json operators and functions rewritten for the local engine.

DuckDB's own JSON functions print numbers as doubles (``1.50`` becomes
``1.5``) and know none of jsonb's operators, so the binder rewrites
``->``, ``->>``, ``#>``, ``#>>``, ``@>``/``<@`` on json, ``?``, ``?|``,
``?&``, jsonb ``||``, ``-`` and ``#-``, and the json functions below, to
the ``txngate_jsonb_*`` functions of local_exec.jsonb, which follow
PostgreSQL's semantics and print canonical jsonb text.

``kind(expr, columns)`` types an expression the way PostgreSQL would for
the expressions clients write: ``"jsonb"``, ``"json"`` or None (not json,
or not known). It decides what the ambiguous operators (``||``, ``-``,
``@>``) mean and which result columns are jsonb. ``columns`` maps the
column names of the relations a statement reads to their declared types.

Invariants: a rewrite never changes a statement's result column names
(the session names columns from the statement as written); a jsonb result
column that is not a stored column is printed canonically
(``canonical_outputs``), as stored jsonb already is.
"""

from __future__ import annotations

import copy
from typing import Callable

from pglast import ast
from pglast.enums import A_Expr_Kind, CoercionForm

from planner.errors import not_supported
from planner.pgcatalog import expand
from planner.sqltypes import typed_literal

JSON_TYPES = ("json", "jsonb")

#: functions whose result is jsonb / json
_RESULT_KINDS = {
    **dict.fromkeys(("jsonb_build_object", "jsonb_build_array", "jsonb_agg", "to_jsonb", "jsonb_object_agg", "jsonb_set",
                     "jsonb_strip_nulls", "jsonb_extract_path", "jsonb_array_elements", "jsonb_object"), "jsonb"),
    **dict.fromkeys(("json_build_object", "json_build_array", "json_agg", "to_json", "json_object_agg", "json_strip_nulls",
                     "json_extract_path", "json_array_elements", "json_object"), "json"),
}

#: PostgreSQL function -> the expression it becomes (``_argN``: its arguments)
_FUNCTIONS = {
    **{f"{p}_typeof": "txngate_jsonb_typeof(_arg1)" for p in JSON_TYPES},
    **{f"{p}_array_length": "txngate_jsonb_array_length(_arg1)" for p in JSON_TYPES},
    **{f"{p}_strip_nulls": "txngate_jsonb_strip_nulls(_arg1)" for p in JSON_TYPES},
    **{f"{p}_object_keys": "unnest(txngate_jsonb_object_keys(_arg1))" for p in JSON_TYPES},
    **{f"{p}_array_elements": "CAST(unnest(txngate_jsonb_array_elements(_arg1)) AS json)" for p in JSON_TYPES},
    **{f"{p}_array_elements_text": "unnest(txngate_jsonb_array_elements_text(_arg1))" for p in JSON_TYPES},
    "jsonb_pretty": "txngate_jsonb_pretty(_arg1)",
    "jsonb_set": "txngate_jsonb_set(_arg1, to_json(_arg2), _arg3, coalesce(_arg4, true))",
}

#: set-returning functions in FROM -> the subquery they become (``_fn``: the function's name)
_TABLE_FUNCTIONS = {
    **{f"{p}_each": "(SELECT struct_extract(e, 'key') AS key, CAST(struct_extract(e, 'value') AS json) AS value "
       "FROM (SELECT unnest(txngate_jsonb_each(_arg1)) AS e) AS u)" for p in JSON_TYPES},
    **{f"{p}_each_text": "(SELECT struct_extract(e, 'key') AS key, struct_extract(e, 'value') AS value "
       "FROM (SELECT unnest(txngate_jsonb_each_text(_arg1)) AS e) AS u)" for p in JSON_TYPES},
    **{f"{p}_object_keys": "(SELECT unnest(txngate_jsonb_object_keys(_arg1)) AS _fn)" for p in JSON_TYPES},
    **{f"{p}_array_elements": "(SELECT CAST(unnest(txngate_jsonb_array_elements(_arg1)) AS json) AS value)" for p in JSON_TYPES},
    **{f"{p}_array_elements_text": "(SELECT unnest(txngate_jsonb_array_elements_text(_arg1)) AS value)" for p in JSON_TYPES},
}

#: operators that only json has -> function (the selector/path argument JSON-encoded)
_OPERATORS = {
    "->": "txngate_jsonb_get(_arg1, to_json(_arg2))",
    "->>": "txngate_jsonb_get_text(_arg1, to_json(_arg2))",
    "#>": "txngate_jsonb_path(_arg1, to_json(_arg2))",
    "#>>": "txngate_jsonb_path_text(_arg1, to_json(_arg2))",
    "?": "txngate_jsonb_exists(_arg1, _arg2)",
    "?|": "txngate_jsonb_exists_any(_arg1, to_json(_arg2))",
    "?&": "txngate_jsonb_exists_all(_arg1, to_json(_arg2))",
    "#-": "txngate_jsonb_delete_path(_arg1, to_json(_arg2))",
}
#: operators json shares with other types, used when an operand is json
_SHARED = {
    "@>": "txngate_jsonb_contains(_arg1, _arg2)",
    "<@": "txngate_jsonb_contains(_arg2, _arg1)",
    "||": "txngate_jsonb_concat(_arg1, _arg2)",
    "-": "txngate_jsonb_delete(_arg1, to_json(_arg2))",
}
#: operators whose right operand is a text[] (a literal one is typed so)
_PATHS = {"#>", "#>>", "?|", "?&", "#-"}
#: comparisons of jsonb values: by ``local_exec.jsonb.sort_key``, PostgreSQL's jsonb order
_COMPARISONS = {"=", "<>", "!=", "<", ">", "<=", ">="}


def right_operand_type(op: str, left_type: str | None) -> str | None:
    """The type PostgreSQL gives a parameter on the right of a json
    operator whose left operand has ``left_type`` (None: not a json operator)."""
    if op in _PATHS:
        return "text[]"
    if op in ("->", "->>", "?") or op == "-" and left_type in JSON_TYPES:
        return "text"
    return None


def _name(fc: ast.FuncCall) -> str:
    names = [n.sval for n in fc.funcname]
    return names[-1] if len(names) == 1 or names[0] == "pg_catalog" else ""


def kind(n: ast.Node | None, columns: dict[str, str]) -> str | None:
    """``"jsonb"``, ``"json"`` or None: the json type ``n`` has."""
    if isinstance(n, ast.ColumnRef):
        last = n.fields[-1]
        t = columns.get(last.sval) if isinstance(last, ast.String) else None
        return t if t in JSON_TYPES else None
    if isinstance(n, ast.TypeCast):
        t = n.typeName.names[-1].sval
        return t if t in JSON_TYPES and not n.typeName.arrayBounds else None
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP:
        op = n.name[-1].sval
        if op in ("->", "#>"):
            return kind(n.lexpr, columns) or "jsonb"
        if op == "||":
            return "jsonb" if "jsonb" in (kind(n.lexpr, columns), kind(n.rexpr, columns)) else None
        if op in ("-", "#-"):
            return "jsonb" if kind(n.lexpr, columns) == "jsonb" else None
        return None
    if isinstance(n, ast.FuncCall):
        return _RESULT_KINDS.get(_name(n))
    if isinstance(n, ast.A_Indirection) and _subscripts(n):
        return kind(n.arg, columns)
    if isinstance(n, ast.CoalesceExpr):
        return next((k for k in (kind(a, columns) for a in n.args) if k), None)
    if isinstance(n, ast.CaseExpr):
        results = [w.result for w in n.args] + [n.defresult]
        return next((k for k in (kind(r, columns) for r in results) if k), None)
    return None


def _string_const(n) -> bool:
    return isinstance(n, ast.A_Const) and isinstance(n.val, ast.String)


def rewrite_operator(n: ast.A_Expr, columns: dict[str, str]) -> ast.Node | None:
    """A json operator as its local_exec.jsonb function; a string literal
    compared with jsonb in canonical form (None: not json, or left as is)."""
    if n.kind != A_Expr_Kind.AEXPR_OP or not n.name:
        return None
    op = n.name[-1].sval
    if op in _COMPARISONS:
        sides = [(kind(x, columns), x) for x in (n.lexpr, n.rexpr)]
        if any(k == "jsonb" for k, _x in sides) and all(k == "jsonb" or _string_const(x) for k, x in sides):
            return expand(f"txngate_jsonb_sortkey(_arg1) {op} txngate_jsonb_sortkey(_arg2)", [n.lexpr, n.rexpr])
        return None
    template = _OPERATORS.get(op)
    if template is None and op in _SHARED:
        left, right = kind(n.lexpr, columns), kind(n.rexpr, columns)
        if op in ("@>", "<@") and (left or right) or op == "||" and "jsonb" in (left, right) or op == "-" and left == "jsonb":
            template = _SHARED[op]
    if template is None or n.lexpr is None:
        return None
    right = n.rexpr
    if op in _PATHS and _string_const(right):
        right = typed_literal(right, "text[]")
    return expand(template, [n.lexpr, right])


def rewrite_sort(n: ast.SortBy, columns: dict[str, str]) -> ast.SortBy | None:
    """ORDER BY a jsonb expression in PostgreSQL's jsonb order (None: not jsonb)."""
    if kind(n.node, columns) != "jsonb":
        return None
    return ast.SortBy(node=expand("txngate_jsonb_sortkey(_arg1)", [n.node]), sortby_dir=n.sortby_dir,
                      sortby_nulls=n.sortby_nulls, useOp=n.useOp, location=n.location)


def _subscripts(n: ast.A_Indirection) -> list[ast.Node] | None:
    """The subscripts of ``x['a'][0]`` (None: a slice or a field selection)."""
    if not all(isinstance(i, ast.A_Indices) and not i.is_slice and i.uidx is not None for i in n.indirection):
        return None
    return [i.uidx for i in n.indirection]


def rewrite_subscript(n: ast.A_Indirection, columns: dict[str, str]) -> ast.Node | None:
    """jsonb subscripting, ``doc['a'][0]``, as ``->`` steps."""
    subscripts = _subscripts(n)
    if not subscripts or kind(n.arg, columns) is None:
        return None
    out = n.arg
    for sub in subscripts:
        out = expand(_OPERATORS["->"], [out, sub])
    return out


def rewrite_function(fc: ast.FuncCall) -> ast.Node | None:
    """A json function as its local_exec.jsonb expression (None: not one)."""
    name = _name(fc)
    args = list(fc.args or ())
    if name in ("json_extract_path", "jsonb_extract_path", "json_extract_path_text", "jsonb_extract_path_text") and args:
        path = ast.A_ArrayExpr(elements=tuple(
            ast.TypeCast(arg=a, typeName=ast.TypeName(names=(ast.String(sval="text"),), typemod=-1)) for a in args[1:]))
        fn = "txngate_jsonb_path_text" if name.endswith("_text") else "txngate_jsonb_path"
        return expand(f"{fn}(_arg1, to_json(_arg2))", [args[0], path])
    if name in ("json_object", "jsonb_object") and len(args) in (1, 2) and not fc.agg_star:
        # text[] of keys and values (or of alternating pairs), not DuckDB's variadic json_object
        texts = [typed_literal(a, "text[]") if _string_const(a) else ast.TypeCast(
            arg=a, typeName=ast.TypeName(names=(ast.String(sval="text"),), arrayBounds=(ast.Integer(ival=-1),), typemod=-1)) for a in args]
        return ast.FuncCall(funcname=(ast.String(sval=f"txngate_{name}" + ("_pairs" if len(args) == 1 else "")),), args=tuple(texts))
    template = _FUNCTIONS.get(name)
    if template is None:
        return None
    if fc.agg_star or fc.agg_distinct or fc.over is not None or fc.func_variadic:
        raise not_supported(f"{name} with this call syntax")
    if name == "jsonb_set" and len(args) >= 2 and _string_const(args[1]):
        args[1] = typed_literal(args[1], "text[]")
    return expand(template, args)


def rewrite_table_function(rf: ast.RangeFunction) -> ast.Node | None:
    """``FROM jsonb_each(x)`` and the other set-returning json functions as
    a LATERAL subquery with PostgreSQL's column names (None: not one)."""
    if len(rf.functions) != 1 or not isinstance(rf.functions[0][0], ast.FuncCall):
        return None
    fc = rf.functions[0][0]
    name = _name(fc)
    template = _TABLE_FUNCTIONS.get(name)
    if template is None:
        return None
    if rf.ordinality:
        raise not_supported(f"{name} WITH ORDINALITY")
    sub = expand(template.replace("_fn", name), list(fc.args or ())).subselect
    alias = copy.deepcopy(rf.alias) if rf.alias is not None else ast.Alias(aliasname=name)
    if not alias.colnames and name.endswith("_object_keys"):  # no OUT parameter: the alias names the column too
        alias.colnames = (ast.String(sval=alias.aliasname),)
    return ast.RangeSubselect(lateral=True, subquery=sub, alias=alias)


def table_function_columns(rf: ast.RangeFunction) -> dict[str, str]:
    """The json columns a set-returning json function in FROM gives, by
    name (``value``, or the alias's column name), for ``kind``."""
    if len(rf.functions) != 1 or not isinstance(rf.functions[0][0], ast.FuncCall):
        return {}
    name = _name(rf.functions[0][0])
    position = {"_each": 1, "_array_elements": 0}.get(name[name.index("_"):] if name.startswith(JSON_TYPES) else "")
    if position is None:
        return {}
    names = [c.sval for c in rf.alias.colnames] if rf.alias is not None and rf.alias.colnames else []
    return {names[position] if position < len(names) else "value": name.split("_")[0]}


def canonical_outputs(select: ast.SelectStmt, columns: dict[str, str]) -> None:
    """Wrap each computed jsonb result column of ``select`` so it prints
    canonically (jsonb_build_object's keys sorted, ``1e2`` as ``100``)."""
    for target in select.targetList or ():
        if isinstance(target, ast.ResTarget) and not isinstance(target.val, ast.ColumnRef) and kind(target.val, columns) == "jsonb":
            if target.name is None:
                target.name = _output_name(target.val)
            target.val = ast.FuncCall(funcname=(ast.String(sval="txngate_jsonb"),), args=(target.val,),
                                      funcformat=CoercionForm.COERCE_EXPLICIT_CALL)


def _output_name(n: ast.Node) -> str:
    """The column name PostgreSQL gives an unnamed result expression."""
    if isinstance(n, ast.FuncCall):
        return n.funcname[-1].sval
    if isinstance(n, ast.TypeCast):
        inner = _output_name(n.arg)
        return inner if inner != "?column?" else n.typeName.names[-1].sval
    return "?column?"


def result_kinds(select: ast.Node, columns_of: Callable[[], dict[str, str]], *, computed_only: bool) -> list[str | None] | None:
    """Per result column of a SELECT, its json kind; None when the target
    list has ``*``, or (``computed_only``) no column can be computed json.
    ``columns_of()`` gives the column types ``kind`` needs, only if needed."""
    targets = getattr(select, "targetList", None)
    if not targets or any(isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.A_Star) for t in targets):
        return None
    exprs = [t.val for t in targets]
    if computed_only and all(isinstance(e, (ast.ColumnRef, ast.A_Const, ast.ParamRef)) for e in exprs) \
            and not any(isinstance(f, ast.RangeFunction) for f in getattr(select, "fromClause", None) or ()):
        return None
    columns = columns_of()
    return [kind(e, columns) for e in exprs]
