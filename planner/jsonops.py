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

json[b]_to_record[set] and json[b]_populate_record[set] become LATERAL
subqueries that read the document and each member once (``_to_record``)
and convert each member as the column's type's input function would
(``_member_as``: arrays of the declared dimensions, a composite type's
fields from an object, character(n) and varchar(n) refused past n); a
base row fills the members the object lacks; populate_record called as
a value is a row of its composite type (``populated_value``).

Invariants: a rewrite never changes a statement's result column names
(the session names columns from the statement as written); a jsonb result
column that is not a stored column is printed canonically
(``canonical_outputs``), as stored jsonb already is.
"""

from __future__ import annotations

import copy
import json
from typing import Callable

from pglast import ast
from pglast.enums import A_Expr_Kind, CoercionForm, SortByDir, SortByNulls

from planner.errors import SqlError, not_supported, undefined
from planner.pgcatalog import expand, raised
from planner.resolve import column_type, pg_type_of, row_columns, text_function, typed_text
from planner.catalog import CompositeType
from planner.sqltypes import canonical, domain_of, made_type, typed_literal
from planner.sqltypes import type_name as sql_type_name

JSON_TYPES = ("json", "jsonb")

#: functions whose result is jsonb / json
_RESULT_KINDS = {
    **dict.fromkeys(("jsonb_build_object", "jsonb_build_array", "jsonb_agg", "to_jsonb", "jsonb_object_agg", "jsonb_set", "jsonb_insert",
                     "jsonb_delete", "jsonb_delete_path", "jsonb_set_lax",
                     "jsonb_strip_nulls", "jsonb_extract_path", "jsonb_array_elements", "jsonb_object", "jsonb_path_query",
                     "jsonb_path_query_array", "jsonb_path_query_first", "jsonb_path_query_tz", "jsonb_path_query_array_tz",
                     "jsonb_path_query_first_tz"), "jsonb"),
    **dict.fromkeys(("json_build_object", "json_build_array", "json_agg", "to_json", "json_object_agg", "json_strip_nulls",
                     "json_extract_path", "json_array_elements", "json_object", "row_to_json", "array_to_json"), "json"),
    "txngate_jsonb": "jsonb", "txngate_json": "json",  # canonical_outputs' wrappers
}

#: PostgreSQL function -> the expression it becomes (``_argN``: its arguments)
_FUNCTIONS = {
    **{f"{p}_typeof": "txngate_jsonb_typeof(_arg1)" for p in JSON_TYPES},
    **{f"{p}_array_length": "txngate_jsonb_array_length(_arg1)" for p in JSON_TYPES},
    **{f"{p}_strip_nulls": f"txngate_{p}_strip_nulls(_arg1)" for p in JSON_TYPES},
    **{f"{p}_object_keys": "unnest(txngate_jsonb_object_keys(_arg1))" for p in JSON_TYPES},
    # json's (not jsonb's) are local_exec.jsontext's: pieces of the text as written
    **{f"{p}_array_elements": f"CAST(unnest(txngate_{p}_array_elements(_arg1)) AS json)" for p in JSON_TYPES},
    **{f"{p}_array_elements_text": f"unnest(txngate_{p}_array_elements_text(_arg1))" for p in JSON_TYPES},
    "jsonb_pretty": "txngate_jsonb_pretty(_arg1)",
    # the functions behind jsonb's operators, which PostgreSQL lets one call by name
    "jsonb_contains": "txngate_jsonb_contains(_arg1, _arg2)", "jsonb_contained": "txngate_jsonb_contains(_arg2, _arg1)",
    "jsonb_exists": "txngate_jsonb_exists(_arg1, _arg2)", "jsonb_exists_any": "txngate_jsonb_exists_any(_arg1, to_json(_arg2))",
    "jsonb_exists_all": "txngate_jsonb_exists_all(_arg1, to_json(_arg2))",
    "jsonb_delete": "txngate_jsonb_delete(_arg1, to_json(_arg2))", "jsonb_delete_path": "txngate_jsonb_delete_path(_arg1, to_json(_arg2))",
    "jsonb_set": "txngate_jsonb_set(_arg1, to_json(_arg2), _arg3, coalesce(_arg4, true))",
    "jsonb_insert": "txngate_jsonb_insert(_arg1, to_json(_arg2), _arg3, coalesce(_arg4, false))",
    # local_exec.jsonpath's (the _tz twins alike: txngate evaluates no .datetime()); _path_arguments fills vars and silent
    **{f"jsonb_path_{f}{tz}": f"txngate_jsonb_path_{f}(_arg1, _arg2, _arg3, _arg4)"
       for f in ("exists", "match", "query_array", "query_first") for tz in ("", "_tz")},
    **{f"jsonb_path_query{tz}": "CAST(unnest(txngate_jsonb_path_query(_arg1, _arg2, _arg3, _arg4)) AS json)" for tz in ("", "_tz")},
}
#: the functions of jsonpaths: (target, path [, vars [, silent]])
_PATH_FUNCTIONS = {name for name in _FUNCTIONS if name.startswith("jsonb_path_")}

#: set-returning functions in FROM -> the subquery they become (``_fn``: the function's name)
_TABLE_FUNCTIONS = {
    **{f"{p}_each": "(SELECT struct_extract(e, 'key') AS key, CAST(struct_extract(e, 'value') AS json) AS value "
       f"FROM (SELECT unnest(txngate_{p}_each(_arg1)) AS e) AS u)" for p in JSON_TYPES},
    **{f"{p}_each_text": "(SELECT struct_extract(e, 'key') AS key, struct_extract(e, 'value') AS value "
       f"FROM (SELECT unnest(txngate_{p}_each_text(_arg1)) AS e) AS u)" for p in JSON_TYPES},
    **{f"{p}_object_keys": "(SELECT unnest(txngate_jsonb_object_keys(_arg1)) AS _fn)" for p in JSON_TYPES},
    **{f"{p}_array_elements": f"(SELECT CAST(unnest(txngate_{p}_array_elements(_arg1)) AS json) AS value)" for p in JSON_TYPES},
    **{f"{p}_array_elements_text": f"(SELECT unnest(txngate_{p}_array_elements_text(_arg1)) AS value)" for p in JSON_TYPES},
    **{f"jsonb_path_query{tz}": "(SELECT CAST(unnest(txngate_jsonb_path_query(_arg1, _arg2, _arg3, _arg4)) AS json) AS _fn)"
       for tz in ("", "_tz")},
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
    # jsonb_path_exists and jsonb_path_match, silent (local_exec.jsonpath)
    "@?": "txngate_jsonb_path_exists(_arg1, _arg2, '', true)",  # '': no vars (local_exec.jsonpath.NO_VARIABLES)
    "@@": "txngate_jsonb_path_match(_arg1, _arg2, '', true)",
}
#: operators json (not jsonb) answers with pieces of its text
_TEXT_OPERATORS = ("->", "->>", "#>", "#>>")
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
        t = column_type(n, columns)
        return t if t in JSON_TYPES else None
    if isinstance(n, ast.TypeCast):
        t = n.typeName.names[-1].sval
        return t if t in JSON_TYPES and not n.typeName.arrayBounds else None
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP:
        op = n.name[-1].sval
        if op in ("->", "#>"):
            return kind(n.lexpr, columns) or "jsonb"
        if op == "||":
            return "jsonb" if _jsonb_concat(n, columns) else None
        if op in ("-", "#-"):
            return "jsonb" if kind(n.lexpr, columns) == "jsonb" else None
        return None
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_NULLIF:
        return kind(n.lexpr, columns)
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
    """A json operator as its local_exec.jsonb function; jsonb compared
    (IS [NOT] DISTINCT FROM and IN lists too) by its sort key, a string literal in
    canonical form (None: not json, or left as is)."""
    if n.kind == A_Expr_Kind.AEXPR_IN and isinstance(n.rexpr, (list, tuple)) and n.lexpr is not None:
        items = [n.lexpr, *n.rexpr]
        if any(kind(x, columns) == "jsonb" for x in items) and all(kind(x, columns) == "jsonb" or _string_const(x) for x in items):
            listed = ", ".join(f"txngate_jsonb_sortkey(_arg{i + 2})" for i in range(len(n.rexpr)))
            test = "NOT IN" if n.name[-1].sval == "<>" else "IN"
            return expand(f"txngate_jsonb_sortkey(_arg1) {test} ({listed})", items)
        return None
    if n.kind in (A_Expr_Kind.AEXPR_DISTINCT, A_Expr_Kind.AEXPR_NOT_DISTINCT):
        sides = [(kind(x, columns), x) for x in (n.lexpr, n.rexpr)]
        if any(k == "jsonb" for k, _x in sides) and all(k == "jsonb" or _string_const(x) for k, x in sides):
            test = "IS NOT DISTINCT FROM" if n.kind == A_Expr_Kind.AEXPR_NOT_DISTINCT else "IS DISTINCT FROM"
            return expand(f"txngate_jsonb_sortkey(_arg1) {test} txngate_jsonb_sortkey(_arg2)", [n.lexpr, n.rexpr])
        return None
    if n.kind != A_Expr_Kind.AEXPR_OP or not n.name:
        return None
    op = n.name[-1].sval
    if op in _COMPARISONS:
        sides = [(kind(x, columns), x) for x in (n.lexpr, n.rexpr)]
        if any(k == "jsonb" for k, _x in sides) and all(k == "jsonb" or _string_const(x) for k, x in sides):
            return expand(f"txngate_jsonb_sortkey(_arg1) {op} txngate_jsonb_sortkey(_arg2)", [n.lexpr, n.rexpr])
        return None
    if op == "||" and n.lexpr is not None and "jsonb" in (kind(n.lexpr, columns), kind(n.rexpr, columns)) and not _jsonb_concat(n, columns):
        return _concat(*(_jsonb_text(x, columns) for x in (n.lexpr, n.rexpr)))  # anynonarray || text: the jsonb's text
    template = _OPERATORS.get(op)
    if template is not None and n.lexpr is not None and _plain_text(n.lexpr, columns):
        left = "character varying" if isinstance(n.lexpr, ast.TypeCast) and n.lexpr.typeName.names[-1].sval == "varchar" else "text"
        raise undefined("operator", f"operator does not exist: {left} {op} {_operand_name(n.rexpr, columns)}",
                        position=n.location + 1 if n.location is not None and n.location >= 0 else None)
    if op in _TEXT_OPERATORS and kind(n.lexpr, columns) == "json":  # json's: pieces of its text (local_exec.jsontext)
        template = template.replace("txngate_jsonb_", "txngate_json_")
    if template is None and op in _SHARED:
        left, right = kind(n.lexpr, columns), kind(n.rexpr, columns)
        if op in ("@>", "<@") and (left or right) or op == "||" and _jsonb_concat(n, columns) or op == "-" and left == "jsonb":
            template = _SHARED[op]
    if template is None or n.lexpr is None:
        return None
    right = n.rexpr
    if op in _PATHS and _string_const(right):
        right = typed_literal(right, "text[]")
    elif op in ("@?", "@@"):
        right = path_text(right)
    return expand(template, [n.lexpr, right])


def _jsonb_concat(n: ast.A_Expr, columns: dict[str, str]) -> bool:
    """Whether ``a || b`` is jsonb's concatenation: one side jsonb and the
    other jsonb or untyped. Beside a value that is plainly text (a cast to
    text, a text column) it is PostgreSQL's ``anynonarray || text``: the
    jsonb's text joined to it (``jsonb '{}' || ''::text`` is '{}')."""
    sides = (n.lexpr, n.rexpr)
    return "jsonb" in (kind(n.lexpr, columns), kind(n.rexpr, columns)) and not any(_plain_text(x, columns) for x in sides)


def _plain_text(n: ast.Node | None, columns: dict[str, str]) -> bool:
    """``n`` is plainly text: a text or varchar column or cast, a text
    function's value, or a concatenation of one with text, jsonb or an
    untyped string (PostgreSQL's ``text || anynonarray`` is text)."""
    if typed_text(n, columns) or text_function(n):
        return True
    if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "||" and n.lexpr is not None:
        sides = (n.lexpr, n.rexpr)
        return any(_plain_text(x, columns) for x in sides) and all(_plain_text(x, columns) or kind(x, columns) or _string_const(x) for x in sides)
    return False


def _operand_name(n: ast.Node, columns: dict[str, str]) -> str:
    """PostgreSQL's name of a json operator's right operand's type, as far
    as it is plain (``unknown`` for an untyped string)."""
    if isinstance(n, ast.A_ArrayExpr) or isinstance(n, ast.TypeCast) and n.typeName.arrayBounds:
        return "text[]"
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer):
        return "integer"
    if _plain_text(n, columns):
        return "text"
    return kind(n, columns) or "unknown"


def _jsonb_text(n: ast.Node, columns: dict[str, str]) -> ast.Node:
    """``n`` as text: a computed jsonb value's canonical text (a jsonb
    column's is stored so), anything else as it is."""
    if kind(n, columns) != "jsonb":
        return n
    if not isinstance(n, ast.ColumnRef):
        n = ast.FuncCall(funcname=(ast.String(sval="txngate_jsonb"),), args=(n,), funcformat=CoercionForm.COERCE_EXPLICIT_CALL)
    return ast.TypeCast(arg=n, typeName=ast.TypeName(names=(ast.String(sval="text"),), typemod=-1))


def rewrite_sort(n: ast.SortBy, columns: dict[str, str]) -> ast.SortBy | None:
    """ORDER BY a jsonb expression in PostgreSQL's jsonb order (None: not jsonb)."""
    if kind(n.node, columns) != "jsonb":
        return None
    return ast.SortBy(node=expand("txngate_jsonb_sortkey(_arg1)", [n.node]), sortby_dir=n.sortby_dir,
                      sortby_nulls=n.sortby_nulls, useOp=n.useOp, location=n.location)


def sort_outputs(select: ast.SelectStmt, columns: dict[str, str]) -> None:
    """``ORDER BY 1`` or ``ORDER BY alias`` of a jsonb output column in
    PostgreSQL's jsonb order: the key is the output's expression (which
    ``rewrite_sort`` then orders so), or for a set operation the jsonb sort
    key of the output column by its name."""
    setop = select.op is not None and select.op.name != "SETOP_NONE"
    leaf = select
    while leaf.op is not None and leaf.op.name != "SETOP_NONE":
        leaf = leaf.larg
    targets = leaf.targetList or ()
    if any(isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.A_Star) for t in targets):
        return
    for sort in select.sortClause:
        ref, target = sort.node, None
        if isinstance(ref, ast.A_Const) and isinstance(ref.val, ast.Integer) and 0 < ref.val.ival <= len(targets):
            target = targets[ref.val.ival - 1]
        elif isinstance(ref, ast.ColumnRef) and len(ref.fields) == 1 and isinstance(ref.fields[0], ast.String):
            target = next((t for t in targets if t.name == ref.fields[0].sval), None)
        if target is None or kind(target.val, columns) != "jsonb":
            continue
        if not setop:
            sort.node = copy.deepcopy(target.val)
            continue
        name = target.name or (target.val.fields[-1].sval if isinstance(target.val, ast.ColumnRef) else None)
        if name is not None:
            sort.node = expand("txngate_jsonb_sortkey(_arg1)", [ast.ColumnRef(fields=(ast.String(sval=name),))])


def _subscripts(n: ast.A_Indirection) -> list[ast.Node] | None:
    """The subscripts of ``x['a'][0]`` (None: a slice or a field selection)."""
    if not all(isinstance(i, ast.A_Indices) and not i.is_slice and i.uidx is not None for i in n.indirection):
        return None
    return [i.uidx for i in n.indirection]


def rewrite_subscript(n: ast.A_Indirection, columns: dict[str, str]) -> ast.Node | None:
    """jsonb subscripting, ``doc['a'][0]``, as the path ``doc #> '{a,0}'``
    (a subscript into a scalar is NULL, where ``->`` reads a scalar as an
    array of one)."""
    json_kind = kind(n.arg, columns)
    if json_kind is None or not all(isinstance(i, ast.A_Indices) for i in n.indirection):
        return None
    if json_kind == "json":
        raise SqlError("42804", "cannot subscript type json because it does not support subscripting")
    if any(i.is_slice for i in n.indirection):
        raise SqlError("42804", "jsonb subscript does not support slices")
    for i in n.indirection:
        if isinstance(i.uidx, ast.A_Const) and isinstance(i.uidx.val, (ast.Float, ast.Boolean)):
            type_name = "numeric" if isinstance(i.uidx.val, ast.Float) else "boolean"
            raise SqlError("42804", f"subscript type {type_name} is not supported",
                           hint="jsonb subscript must be coercible to either integer or text.")
    subscripts = _subscripts(n)
    if not subscripts:
        return None
    path = ast.A_ArrayExpr(elements=tuple(
        ast.TypeCast(arg=sub, typeName=ast.TypeName(names=(ast.String(sval="text"),), typemod=-1)) for sub in subscripts))
    return expand(_OPERATORS["#>"], [n.arg, path])


def rewrite_function(fc: ast.FuncCall, columns: dict[str, str]) -> ast.Node | None:
    """A json function as its local_exec.jsonb expression (None: not one)."""
    name = _name(fc)
    args = list(fc.args or ())
    if (populated := populated_value(fc)) is not None:
        return populated
    if name in BUILT and not fc.agg_star and not fc.func_variadic:
        if name in ("row_to_json", "array_to_json") and args and fc.over is None and (wrong := _not_of_kind(name, args[0], columns)) is not None:
            raise undefined("function", f"function {name}({', '.join([wrong] + ['boolean'] * (len(args) - 1))}) does not exist")
        if name.endswith("build_object") and any(_not_scalar(k, columns) for k in args[::2]):
            raise SqlError("22023", "key value must be scalar, not array, composite, or json")
        return _built(fc, name, [_as_json(a, columns) for a in args], columns)
    if name in ("json_extract_path", "jsonb_extract_path", "json_extract_path_text", "jsonb_extract_path_text") and args:
        path = ast.A_ArrayExpr(elements=tuple(
            ast.TypeCast(arg=a, typeName=ast.TypeName(names=(ast.String(sval="text"),), typemod=-1)) for a in args[1:]))
        fn = f"txngate_{name.partition('_')[0]}_path" + ("_text" if name.endswith("_text") else "")
        return expand(f"{fn}(_arg1, to_json(_arg2))", [args[0], path])
    if name in ("json_object", "jsonb_object") and len(args) in (1, 2) and not fc.agg_star:
        # text[] of keys and values (or of alternating pairs), not DuckDB's variadic json_object
        texts = [typed_literal(a, "text[]") if _string_const(a) else ast.TypeCast(
            arg=a, typeName=ast.TypeName(names=(ast.String(sval="text"),), arrayBounds=(ast.Integer(ival=-1),), typemod=-1)) for a in args]
        dimensions = [len(t.typeName.arrayBounds) if isinstance(t, ast.TypeCast) else 1 for t in texts]
        if dimensions == [2]:  # '{{k,v},...}': pairs of two columns
            texts = [expand("CASE WHEN len(_arg1) > 0 AND len(list_extract(_arg1, 1)) <> 2 THEN "
                            + raised("2202E", "array must have two columns", "VARCHAR[]") + " ELSE flatten(_arg1) END", texts)]
        elif max(dimensions) > 1:
            raise SqlError("2202E", "wrong number of array subscripts")
        return ast.FuncCall(funcname=(ast.String(sval=f"txngate_{name}" + ("_pairs" if len(args) == 1 else "")),), args=tuple(texts))
    if name == "jsonb_set_lax" and not (fc.agg_star or fc.agg_distinct or fc.over is not None or fc.func_variadic):
        return _set_lax(args)
    template = _FUNCTIONS.get(name)
    if template is None:
        return None
    if fc.agg_star or fc.agg_distinct or fc.over is not None or fc.func_variadic:
        raise not_supported(f"{name} with this call syntax")
    if name in ("jsonb_exists_any", "jsonb_exists_all") and len(args) == 2 and _string_const(args[1]):
        args[1] = typed_literal(args[1], "text[]")
    if name in ("jsonb_set", "jsonb_insert", "jsonb_delete_path") and len(args) >= 2 and _string_const(args[1]):
        args[1] = typed_literal(args[1], "text[]")
    if name in _PATH_FUNCTIONS:
        args = _path_arguments(name, args)
    return expand(template, args)


#: jsonb_set_lax's parameters, and the defaults of the last two
_SET_LAX = ("jsonb_in", "path", "replacement", "create_if_missing", "null_value_treatment")
_TREATMENTS = '"delete_key", "return_target", "use_json_null", or "raise_exception"'


def _set_lax(args: list[ast.Node]) -> ast.Node:
    """jsonb_set_lax(target, path, new [, create_if_missing [, null_value_treatment]]),
    arguments by position or name: jsonb_set when ``new`` is not NULL, else
    what the treatment says (PostgreSQL's order of checks: a NULL treatment
    is an error even on a NULL target)."""
    named = {a.name: a.arg for a in args if isinstance(a, ast.NamedArgExpr)}
    values: list[ast.Node | None] = [a for a in args if not isinstance(a, ast.NamedArgExpr)]
    values += [None] * (len(_SET_LAX) - len(values))
    if len(values) > len(_SET_LAX) or any(n not in _SET_LAX or values[_SET_LAX.index(n)] is not None for n in named):
        raise SqlError("42883", "function jsonb_set_lax with these arguments does not exist")
    for n, arg in named.items():
        values[_SET_LAX.index(n)] = arg
    if any(v is None for v in values[:3]):
        raise SqlError("42883", "function jsonb_set_lax with these arguments does not exist")
    values[3] = values[3] if values[3] is not None else ast.A_Const(val=ast.Boolean(boolval=True))
    values[4] = values[4] if values[4] is not None else _string("use_json_null")
    if _string_const(values[1]):
        values[1] = typed_literal(values[1], "text[]")
    return expand(
        "CASE WHEN _arg3 IS NOT NULL THEN txngate_jsonb_set(_arg1, to_json(_arg2), _arg3, _arg4) "
        f"WHEN _arg5 IS NULL THEN error('[22023] null_value_treatment must be {_TREATMENTS}') "
        "WHEN _arg1 IS NULL OR _arg2 IS NULL OR _arg4 IS NULL THEN NULL "
        "WHEN _arg5 = 'raise_exception' THEN error('[22004] JSON value must not be null') "
        "WHEN _arg5 = 'use_json_null' THEN txngate_jsonb_set(_arg1, to_json(_arg2), 'null', _arg4) "
        "WHEN _arg5 = 'delete_key' THEN txngate_jsonb_delete_path(_arg1, to_json(_arg2)) "
        "WHEN _arg5 = 'return_target' THEN CAST(_arg1 AS json) "
        f"ELSE error('[22023] null_value_treatment must be {_TREATMENTS}') END", values)


def _path_arguments(name: str, args: list[ast.Node]) -> list[ast.Node]:
    """A jsonpath function's arguments with its defaults (vars ``{}``,
    silent false) where they are left out (an explicit NULL stays NULL,
    as the function is strict)."""
    if not 2 <= len(args) <= 4:
        raise SqlError("42883", f"function {name} with {len(args)} arguments does not exist")
    defaults = [_string("{}"), ast.A_Const(val=ast.Boolean(boolval=False))]
    return [args[0], path_text(args[1])] + args[2:] + defaults[len(args) - 2:]


def path_text(n: ast.Node) -> ast.Node:
    """A jsonpath argument as the text local_exec.jsonpath reads (``x::jsonpath``: ``x``)."""
    if isinstance(n, ast.TypeCast) and n.typeName.names[-1].sval == "jsonpath" and not n.typeName.arrayBounds:
        return ast.TypeCast(arg=n.arg, typeName=ast.TypeName(names=(ast.String(sval="text"),), typemod=-1))
    return n


def check_call(fc: ast.FuncCall) -> None:
    """42804 for to_json('...') of an untyped string, as PostgreSQL (its
    argument is polymorphic); checked on the statement as written, before
    rewrites that call the engine's to_json themselves."""
    if _name(fc) in ("to_json", "to_jsonb") and len(fc.args or ()) == 1 and _string_const(fc.args[0]):
        raise SqlError("42804", "could not determine polymorphic type because input has type unknown")


def _as_json(n: ast.Node, columns: dict[str, str]) -> ast.Node:
    """A json or jsonb argument of a json constructor read as the engine's
    JSON, so it is built in as the document it is (a stored one is text to
    the engine, which would write it as a string)."""
    if kind(n, columns) in JSON_TYPES and not (isinstance(n, ast.TypeCast) and n.typeName.names[-1].sval == "json"):
        return ast.TypeCast(arg=n, typeName=ast.TypeName(names=(ast.String(sval="json"),), typemod=-1))
    return n


#: the json constructors written as PostgreSQL's text (``_built``)
#: the functions that build json of their arguments (``_built``)
BUILT = {f"{p}_{f}" for p in JSON_TYPES for f in ("build_object", "build_array", "agg", "object_agg")} | {"to_json", "to_jsonb", "row_to_json",
                                                                                                        "array_to_json"}


def _not_of_kind(name: str, n: ast.Node, columns: dict[str, str]) -> str | None:
    """PostgreSQL's name of the type of row_to_json's argument when it is
    plainly no row (array_to_json's: no array), a constant or a column of a
    declared type; None when it is one or its type is not known here."""
    if isinstance(n, ast.A_Const):
        return None if n.isnull else "unknown" if isinstance(n.val, ast.String) else "integer" if isinstance(n.val, ast.Integer) \
            else "numeric" if isinstance(n.val, ast.Float) else "boolean" if isinstance(n.val, ast.Boolean) else None
    if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String) and row_columns(n, columns) is None:
        declared = column_type(n, columns)
        if declared is None or name == "array_to_json" and declared.endswith("[]"):
            return None
        found = pg_type_of(declared)
        return None if found is None else found[0].display + "[]" * found[1]
    return None


def _not_scalar(n: ast.Node, columns: dict[str, str]) -> bool:
    """Whether a json constructor's argument is an array, a row or json
    (written so, or a column of such a type): no object key (the engine
    printed one as a key)."""
    if isinstance(n, (ast.A_ArrayExpr, ast.RowExpr)) or kind(n, columns) is not None:
        return True
    if isinstance(n, ast.TypeCast):
        return bool(n.typeName.arrayBounds)
    return isinstance(n, ast.ColumnRef) and ((column_type(n, columns) or "").endswith("[]") or row_columns(n, columns) is not None)


def _built(fc: ast.FuncCall, name: str, args: list[ast.Node], columns: dict[str, str] | None = None) -> ast.Node | None:
    """json_build_object, json_build_array, json_agg, json_object_agg and
    to_json (and their jsonb twins, which print canonically at the end) as
    the text PostgreSQL builds: each value as ``txngate_json_value`` gives
    it (a json value as it is, a timestamp in ISO 8601 with its ``T``),
    keys as their text, and PostgreSQL's separators (``"k" : v, ...``;
    ``[a, b]``; json_agg puts a line break between rows and arrays)."""
    def value(n):
        if isinstance(n, ast.RowExpr) and n.args:  # ROW(1, 'foo'): PostgreSQL names its fields f1, f2, ... (the engine's is an array)
            fields = [joined([_string(f'"f{i}":'), value(a)], "") for i, a in enumerate(n.args, 1)]
            return joined([_string("{"), joined(fields, ","), _string("}")], "")
        if _json_array_column(n, columns or {}):  # a json[] or jsonb[] column: its documents as they are, not strings
            return ast.CoalesceExpr(args=(ast.FuncCall(funcname=(ast.String(sval="txngate_json_docs_text"),), args=(n,)), _string("null")))
        json_fields, present = _whole_row(n, columns)
        if json_fields is None:
            text = ast.FuncCall(funcname=(ast.String(sval="txngate_json_value"),), args=(n,))
        else:  # its json as the documents, each as written (the engine's own JSON of the row re-writes them compactly)
            text = _row_by_columns(n, columns, value) or ast.FuncCall(funcname=(ast.String(sval="txngate_json_row"),), args=(n, json_fields))
        return text if present is None else expand("CASE WHEN _arg1 IS NULL THEN 'null' ELSE _arg2 END", [present, text])

    def key(n, position: int):
        return ast.FuncCall(funcname=(ast.String(sval="txngate_json_key"),), args=(n, ast.A_Const(val=ast.Integer(ival=position))))

    def joined(parts: list[ast.Node], sep: str) -> ast.Node:
        out = parts[0]
        for p in parts[1:]:
            out = _concat(_concat(out, _string(sep)), p)
        return out

    if name.endswith("build_object"):
        if len(args) % 2:
            raise SqlError("22023", "argument list must have even number of elements",
                           hint=f"The arguments of {name}() must consist of alternating keys and values.")
        pairs = [joined([key(k, 2 * i + 1), _string(" : "), value(v)], "") for i, (k, v) in enumerate(zip(args[::2], args[1::2]))]
        text = joined([_string("{"), joined(pairs, ", "), _string("}")], "") if pairs else _string("{}")
    elif name.endswith("build_array"):
        text = joined([_string("["), joined([value(a) for a in args], ", "), _string("]")], "") if args else _string("[]")
    elif name in ("row_to_json", "array_to_json") and len(args) == 2 and fc.over is None and not fc.agg_order:
        # pretty: the top-level members on lines of their own (NULL gives NULL, as the function is strict)
        compact = _built(fc, name, args[:1], columns)
        return expand("CASE WHEN _arg2 IS NULL THEN NULL WHEN _arg2 THEN txngate_json_pretty_top(_arg1) ELSE _arg1 END",
                      [compact, _cast_to_bool(args[1])])
    elif name == "array_to_json" and len(args) == 1 and fc.over is None and fc.agg_filter is None and not fc.agg_order \
            and (agg := _json_array_agg(args[0], columns or {})) is not None:
        # array_to_json(array_agg(j)) of json or jsonb: the documents as they are, not strings (the engine's list is of text)
        items = ast.FuncCall(funcname=(ast.String(sval="list"),), args=(_json_element(agg.args[0], kind(agg.args[0], columns or {}), columns or {}),),
                             agg_order=agg.agg_order, agg_filter=agg.agg_filter, agg_distinct=agg.agg_distinct, over=agg.over)
        text = ast.FuncCall(funcname=(ast.String(sval="txngate_json_array_text"),), args=(items,))
    elif name in ("to_json", "to_jsonb", "row_to_json", "array_to_json") and len(args) == 1 and fc.over is None and not fc.agg_order:
        if isinstance(args[0], ast.RowExpr):
            text = value(args[0])
        elif isinstance(args[0], ast.A_ArrayExpr) and args[0].elements \
                and (kinds := {kind(e, columns or {}) for e in args[0].elements} - {None}):  # json elements as written (the engine re-writes them)
            text = joined([_string("["), joined([value(_json_element(e, min(kinds), columns or {})) for e in args[0].elements], ","),
                           _string("]")], "")
        else:
            # strict: NULL gives NULL (an outer join's missing row too, which the engine holds as a row of NULLs)
            text = expand("CASE WHEN _arg1 IS NULL THEN NULL ELSE nullif(_arg2, 'null') END", [args[0], value(args[0])])
    elif name.endswith("_agg") and len(args) == 1 and not name.endswith("object_agg"):
        # the values listed (DISTINCT, ORDER BY and FILTER as given), then written out
        order = fc.agg_order or ((ast.SortBy(node=copy.deepcopy(args[0]), sortby_dir=SortByDir.SORTBY_DEFAULT,
                                             sortby_nulls=SortByNulls.SORTBY_NULLS_DEFAULT),) if fc.agg_distinct else None)
        if _json_array_column(args[0], columns or {}):  # json_agg of a json[] column: its documents, not strings
            items = ast.FuncCall(funcname=(ast.String(sval="list"),), args=(ast.FuncCall(funcname=(ast.String(sval="txngate_json_docs_text"),),
                                 args=(args[0],)),), agg_order=order, agg_filter=fc.agg_filter, agg_distinct=fc.agg_distinct, over=fc.over)
            return ast.TypeCast(arg=ast.FuncCall(funcname=(ast.String(sval="txngate_json_agg_docs"),), args=(items,)),
                                typeName=ast.TypeName(names=(ast.String(sval="json"),), typemod=-1))
        json_fields, present = _whole_row(args[0], columns)
        if json_fields is not None and not fc.agg_distinct and (row := _row_by_columns(args[0], columns, value)) is not None:
            # the rows' texts, each as to_json writes it (DISTINCT compares the rows: the engine's row JSON below)
            item = row if present is None else expand("CASE WHEN _arg1 IS NULL THEN NULL ELSE _arg2 END", [present, row])
            items = ast.FuncCall(funcname=(ast.String(sval="list"),), args=(item,), agg_order=order, agg_filter=fc.agg_filter,
                                 agg_distinct=fc.agg_distinct, over=fc.over)
            return ast.TypeCast(arg=ast.FuncCall(funcname=(ast.String(sval="txngate_json_agg_docs"),), args=(items,)),
                                typeName=ast.TypeName(names=(ast.String(sval="json"),), typemod=-1))
        item = args[0] if present is None else expand("CASE WHEN _arg1 IS NULL THEN NULL ELSE _arg2 END", [present, args[0]])
        items = ast.FuncCall(funcname=(ast.String(sval="list"),), args=(item,), agg_order=order, agg_filter=fc.agg_filter,
                             agg_distinct=fc.agg_distinct, over=fc.over)  # DISTINCT: in order, as PostgreSQL's sort gives them
        text = ast.FuncCall(funcname=(ast.String(sval="txngate_json_agg_text"),), args=(items,)) if json_fields is None else \
            ast.FuncCall(funcname=(ast.String(sval="txngate_json_agg_rows"),), args=(items, json_fields))
    elif name.endswith("object_agg") and len(args) == 2 and not fc.agg_distinct:
        item = joined([key(args[0], 1), _string(" : "), value(args[1])], "")
        items = ast.FuncCall(funcname=(ast.String(sval="list"),), args=(item,), agg_order=fc.agg_order, agg_filter=fc.agg_filter,
                             over=fc.over)
        body = ast.FuncCall(funcname=(ast.String(sval="array_to_string"),), args=(items, _string(", ")))
        text = joined([_string("{ "), body, _string(" }")], "")
    else:
        return None  # DISTINCT and other shapes: the engine's own (compact) text
    return ast.TypeCast(arg=text, typeName=ast.TypeName(names=(ast.String(sval="json"),), typemod=-1))


def _row_by_columns(n: ast.Node, columns: dict[str, str], value: Callable[[ast.Node], ast.Node]) -> ast.Node | None:
    """A whole-row reference's json written column by column, as
    PostgreSQL's composite_to_json: ``{"name":value,...}``, each value as a
    json constructor writes it (``value``), a json or jsonb column as the
    document it is; None when its columns are not known by distinct names."""
    found = row_columns(n, columns)
    names = [name for name, _t in found[0]] if found is not None else []
    if not names or len(set(names)) != len(names):
        return None
    qualifier = tuple(f for f in n.fields if isinstance(f, ast.String))
    text = None
    for i, (name, t) in enumerate(found[0]):
        ref = ast.ColumnRef(fields=(*qualifier, ast.String(sval=name)))
        if t in JSON_TYPES:
            ref = ast.TypeCast(arg=ref, typeName=ast.TypeName(names=(ast.String(sval="json"),), typemod=-1))
        part = _concat(_string(("{" if i == 0 else ",") + json.dumps(name, ensure_ascii=False) + ":"), value(ref))
        text = part if text is None else _concat(text, part)
    return _concat(text, _string("}"))


def _json_array_column(n: ast.Node, columns: dict[str, str]) -> bool:
    """``n`` is a column of a one-dimensional json[] or jsonb[] type."""
    return isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String) and column_type(n, columns) in ("json[]", "jsonb[]")


def _json_array_agg(n: ast.Node, columns: dict[str, str]) -> ast.FuncCall | None:
    """``n`` when it is array_agg of a json or jsonb value, else None."""
    if isinstance(n, ast.FuncCall) and _name(n) == "array_agg" and len(n.args or ()) == 1 and kind(n.args[0], columns) in JSON_TYPES:
        return n
    return None


def _whole_row(n: ast.Node, columns: dict[str, str] | None) -> tuple[ast.A_Const | None, ast.ColumnRef | None]:
    """For a whole-row reference ``n`` (``t`` in ``row_to_json(t)``), what
    the engine would write unlike PostgreSQL: the names (a JSON array) of
    its json and jsonb columns, whose text the engine writes as strings;
    and a reference to a column of it never NULL but in an outer join's
    missing row, which the engine holds as a row of NULLs (PostgreSQL's is
    NULL). None for each that is not so."""
    found = row_columns(n, columns) if columns is not None else None
    if found is None:
        return None, None
    names, present = [name for name, t in found[0] if t in JSON_TYPES], found[1]
    return (_string(json.dumps(names)) if names else None,
            ast.ColumnRef(fields=(*n.fields, ast.String(sval=present))) if present is not None else None)


def _json_element(n: ast.Node, array_kind: str, columns: dict[str, str]) -> ast.Node:
    """An element of an array of json (``array_kind``: "json" or "jsonb")
    as its json text: an untyped string is of the array's type, a jsonb
    value in jsonb's canonical text, a json one as written."""
    if isinstance(n, ast.A_Const) and isinstance(n.val, ast.String):
        n = ast.TypeCast(arg=n, typeName=ast.TypeName(names=(ast.String(sval=array_kind),), typemod=-1))
    if kind(n, columns) == "jsonb":
        return ast.FuncCall(funcname=(ast.String(sval="txngate_jsonb"),), args=(n,), funcformat=CoercionForm.COERCE_EXPLICIT_CALL)
    return _as_json(n, columns)


def _cast_to_bool(n: ast.Node) -> ast.TypeCast:
    return ast.TypeCast(arg=n, typeName=ast.TypeName(names=(ast.String(sval="bool"),), typemod=-1))


def _string(text: str) -> ast.A_Const:
    return ast.A_Const(val=ast.String(sval=text))


def _concat(a: ast.Node, b: ast.Node) -> ast.A_Expr:
    return ast.A_Expr(kind=A_Expr_Kind.AEXPR_OP, name=(ast.String(sval="||"),), lexpr=a, rexpr=b)


def rewrite_table_function(rf: ast.RangeFunction, row_type: Callable[[ast.Node], list[tuple[str, ast.TypeName]] | None] = lambda n: None) -> ast.Node | None:
    """``FROM jsonb_each(x)`` and the other set-returning json functions as
    a LATERAL subquery with PostgreSQL's column names (None: not one).
    ``row_type(n)``: the columns (name, type) of the row type ``n`` names
    (``NULL::t`` for json_populate_record's table ``t``), None if none."""
    if len(rf.functions) != 1 or not isinstance(rf.functions[0][0], ast.FuncCall):
        return None
    fc = rf.functions[0][0]
    name = _name(fc)
    if name in _TO_RECORD and len(fc.args or ()) == 1:
        return _to_record(rf, name, fc.args[0])
    if name in _POPULATE and len(fc.args or ()) == 2:
        return _populate(rf, name, fc.args, row_type)
    template = _TABLE_FUNCTIONS.get(name)
    if template is None:
        return None
    if rf.ordinality:
        raise not_supported(f"{name} WITH ORDINALITY")
    args = list(fc.args or ())
    sub = expand(template.replace("_fn", name), _path_arguments(name, args) if name in _PATH_FUNCTIONS else args).subselect
    alias = copy.deepcopy(rf.alias) if rf.alias is not None else ast.Alias(aliasname=name)
    if not alias.colnames and (name.endswith("_object_keys") or name in _PATH_FUNCTIONS):  # no OUT parameter: the alias names the column too
        alias.colnames = (ast.String(sval=alias.aliasname),)
    return ast.RangeSubselect(lateral=True, subquery=sub, alias=alias)


def _function_outputs(rf: ast.RangeFunction) -> list[tuple[str, str | None]] | None:
    """(name, json kind) of each output column of a set-returning json
    function in FROM whose columns are fixed (None: not one)."""
    if len(rf.functions) != 1 or not isinstance(fc := rf.functions[0][0], ast.FuncCall) or rf.ordinality:
        return None
    name = _name(fc)
    renamed = [c.sval for c in rf.alias.colnames] if rf.alias is not None and rf.alias.colnames else []
    if name in ("jsonb_path_query", "jsonb_path_query_tz"):
        default = [rf.alias.aliasname if rf.alias is not None else name]
        kinds = ["jsonb"]
    elif name.endswith("_array_elements") and name.split("_")[0] in JSON_TYPES:
        default, kinds = ["value"], [name.split("_")[0]]
    elif name.endswith("_each") and name.split("_")[0] in JSON_TYPES:
        default, kinds = ["key", "value"], [None, name.split("_")[0]]
    else:
        return None
    return [(renamed[i] if i < len(renamed) else d, k) for i, (d, k) in enumerate(zip(default, kinds))]


_TO_RECORD = {f"{p}_to_record{s}" for p in JSON_TYPES for s in ("", "set")}
_POPULATE = {f"{p}_populate_record{s}" for p in JSON_TYPES for s in ("", "set")}


def populated_type(rf: ast.RangeFunction) -> list[str] | None:
    """The (qualified) name of the row type json[b]_populate_record[set]
    fills (``NULL::t``), None when ``rf`` is not such a call."""
    if len(rf.functions) != 1 or not isinstance(fc := rf.functions[0][0], ast.FuncCall) or _name(fc) not in _POPULATE:
        return None
    base = (fc.args or (None,))[0]
    if isinstance(base, ast.TypeCast) and not base.typeName.arrayBounds and len(base.typeName.names) <= 2:
        return [x.sval for x in base.typeName.names]
    return None


def _populate(rf: ast.RangeFunction, name: str, args, row_type) -> ast.RangeSubselect:
    """``json[b]_populate_record[set](NULL::t, doc)``: ``_to_record`` with
    the columns of ``t``'s row type (PostgREST inserts and updates rows
    this way); a base row other than NULL is refused."""
    base = args[0]
    if not isinstance(base, ast.TypeCast):
        raise not_supported(f"{name} of a base row other than a cast to its type")
    if rf.coldeflist:
        raise SqlError("42601", "a column definition list is redundant for a function returning a named composite type")
    columns = row_type(base.typeName)
    if columns is None:
        type_text = ".".join(x.sval for x in base.typeName.names)
        raise SqlError("42804", f"first argument of {name} must be a row type", detail=f"type {type_text} is not composite")
    typed = copy.copy(rf)
    typed.coldeflist = tuple(ast.ColumnDef(colname=col, typeName=type_name) for col, type_name in columns)
    if typed.alias is None:
        typed.alias = ast.Alias(aliasname=name)
    return _to_record(typed, name.replace("_populate_record", "_to_record"), args[1], None if _null(base) else base)


def _null(n: ast.Node) -> bool:
    """``NULL::t``: a base row of no values."""
    return isinstance(n, ast.TypeCast) and isinstance(n.arg, ast.A_Const) and n.arg.isnull


def _to_record(rf: ast.RangeFunction, name: str, doc: ast.Node, base: ast.Node | None = None) -> ast.RangeSubselect:
    """``json[b]_to_record(doc) AS x(a int, b text, ...)`` (a row) and
    ``json[b]_to_recordset(doc) AS x(...)`` (a row per element of an
    array) as a LATERAL subquery: each column is the object's member of
    its name read as the column's type (``_member_as``), or where there is
    no such member, the base row's field (json[b]_populate_record's base
    row: NULL::t is none). The document is read once, and each member
    once, in subqueries below the one that converts them (the engine
    calls the json functions per use)."""
    if not rf.coldeflist:
        raise SqlError("42601", 'a column definition list is required for functions returning "record"')
    if rf.ordinality:
        raise not_supported(f"{name} WITH ORDINALITY")
    kind_of = name.partition("_")[0]  # json's members are pieces of its text (local_exec.jsontext), jsonb's canonical
    if name.endswith("set"):
        docs = expand(f"(SELECT unnest(txngate_{kind_of}_array_elements(_arg1)) AS txngate_e)", [doc]).subselect
    else:
        docs = expand("(SELECT _arg1 AS txngate_e)", [doc]).subselect
    members = expand("(SELECT 1 FROM _arg1 AS txngate_u)", []).subselect
    members.fromClause = (ast.RangeSubselect(subquery=docs, alias=ast.Alias(aliasname="txngate_u")),)
    element = ast.ColumnRef(fields=(ast.String(sval="txngate_e"),))
    members.targetList = tuple(ast.ResTarget(name=f"txngate_{part}{i}", val=_member(element, col.colname, kind_of, part == "t"))
                               for i, col in enumerate(rf.coldeflist) for part in "mt")
    sub = expand("(SELECT 1 FROM _arg1 AS txngate_v)", []).subselect
    sub.fromClause = (ast.RangeSubselect(subquery=members, alias=ast.Alias(aliasname="txngate_v")),)
    targets = []
    for i, col in enumerate(rf.coldeflist):
        member, text = (ast.ColumnRef(fields=(ast.String(sval=f"txngate_{part}{i}"),)) for part in "mt")
        targets.append(ast.ResTarget(name=col.colname, val=_member_or_base(member, text, col.colname, col.typeName, kind_of, base)))
    sub.targetList = tuple(targets)
    return ast.RangeSubselect(lateral=True, subquery=sub, alias=ast.Alias(aliasname=rf.alias.aliasname if rf.alias else name))


def _member(doc: ast.Node, key: str, kind_of: str, text: bool = False) -> ast.Node:
    """The member ``key`` of a json or jsonb object (SQL NULL when there is
    none), or with ``text`` its text (->>)."""
    quoted_key = ast.A_Const(val=ast.String(sval=json.dumps(key, ensure_ascii=False)))  # (the key's json, written: no call to make it)
    return expand(f"txngate_{kind_of}_get{'_text' if text else ''}(_arg1, _arg2)", [copy.deepcopy(doc), quoted_key])


def populated_value(fc: ast.FuncCall) -> ast.Node | None:
    """``json[b]_populate_record(base, doc)`` called as a value (not in
    FROM) of a composite type's base (``NULL::t`` or a row of it): the row
    its members fill, as that type; None for any other call."""
    name = _name(fc)
    if name not in _POPULATE or name.endswith("set") or len(fc.args or ()) != 2 or fc.over is not None or not isinstance(fc.args[0], ast.TypeCast):
        return None
    base, doc = fc.args
    made = made_type([n.sval for n in base.typeName.names]) if not base.typeName.arrayBounds else None
    if not isinstance(made, CompositeType):
        return None
    return _members_as(doc, made, base.typeName, name.partition("_")[0], None if _null(base) else base, checked=False)


def _member_or_base(member: ast.Node, text: ast.Node, field: str, type_name: ast.TypeName, kind_of: str, base: ast.Node | None) -> ast.Node:
    """``_member_as``, or where the object has no such member, the base
    row's field (a composite one filled from the base's: PostgreSQL
    populates a nested row over the base's)."""
    if base is None:
        return _member_as(member, text, type_name, kind_of)
    old = ast.A_Indirection(arg=copy.deepcopy(base), indirection=(ast.String(sval=field),))
    value = _member_as(member, text, type_name, kind_of, copy.deepcopy(old))
    return expand("CASE WHEN _arg1 IS NULL THEN _arg2 ELSE _arg3 END", [copy.deepcopy(member), old, value])


def _member_as(member: ast.Node, text: ast.Node, type_name: ast.TypeName, kind_of: str, base: ast.Node | None = None) -> ast.Node:
    """A json member (SQL NULL when missing; ``text``: its text) as a column of ``type_name``:
    json null is NULL; json and jsonb as they are; an array element by
    element (of json or jsonb, each element's document); a composite
    type's field by field from an object (``_members_as``); anything else
    as its text, which the cast reads as PostgreSQL's input would
    (planner.bind)."""
    kind = "coalesce(txngate_jsonb_typeof(_arg1), 'null')"  # (a simple CASE of it: one call)
    element = type_name.names[-1].sval in JSON_TYPES
    if element and not type_name.arrayBounds:
        value = expand(f"CASE {kind} WHEN 'null' THEN NULL ELSE _arg1 END", [member])
    elif type_name.arrayBounds:  # a json array element by element; json null is NULL, any other member an error
        array = f"CASE WHEN {kind} = 'array' THEN _arg1 END"  # (only an array reaches the element functions, however the engine evaluates)
        items = f"txngate_json_nulls(txngate_{kind_of}_array_elements({array}))" if element else f"txngate_{kind_of}_array_elements_text({array})"
        dims = len(type_name.arrayBounds)
        texts = sql_type_name("text" + "[]" * dims)
        if not element and dims in (2, 3):  # declared of that many dimensions: read into as many (local_exec.jsonb.array_texts)
            items = f"txngate_json_array_texts{dims}(CAST({array} AS VARCHAR))"
        elif not element or dims > 1:  # (PostgreSQL's array of arrays)
            items = f"CASE WHEN txngate_json_nested(txngate_{kind_of}_array_elements({array})) THEN _arg3 ELSE {items} END"
        value = expand(f"CASE {kind} WHEN 'null' THEN NULL WHEN 'array' THEN {items} ELSE _arg2 END",
                       [member, _failing("22P02", "expected JSON array", texts), _failing("0A000", "multidimensional arrays is not supported", texts)])
    elif isinstance(made := made_type([n.sval for n in type_name.names]), CompositeType):
        return _members_as(member, made, type_name, kind_of, base)
    else:
        value = ast.TypeCast(arg=text, typeName=ast.TypeName(names=(ast.String(sval="text"),), typemod=-1))
    if type_name.names[-1].sval in ("bpchar", "varchar") and len(type_name.typmods or ()) == 1:  # read by the input function: 22001, not cut
        fitted = "txngate_fitted_texts" if type_name.arrayBounds else "txngate_fitted_text"
        value = ast.FuncCall(funcname=(ast.String(sval=fitted),), args=(value, copy.deepcopy(type_name.typmods[0]),
                                                                         ast.A_Const(val=ast.Boolean(boolval=type_name.names[-1].sval == "bpchar"))))
    return ast.TypeCast(arg=value, typeName=copy.deepcopy(type_name))


def _members_as(value: ast.Node, made, type_name: ast.TypeName, kind_of: str, base: ast.Node | None = None, *,
                checked: bool = True) -> ast.Node:
    """A json value as a composite type, as PostgreSQL's populate_composite
    reads it: null is NULL, an object field by field (its members as the
    fields' types, a missing one the ``base`` row's field), a scalar or an
    array 22023; a string (a record's text) is refused. Unless
    ``checked``, the value is taken for an object (json_populate_record's
    document)."""
    row = ast.RowExpr(args=tuple(_member_or_base(_member(value, f, kind_of), _member(value, f, kind_of, True), f, sql_type_name(t), kind_of, base)
                                 for f, t in made.fields),
                      row_format=CoercionForm.COERCE_EXPLICIT_CALL)
    built = ast.TypeCast(arg=row, typeName=copy.deepcopy(type_name))
    if not checked:
        return built
    return expand("CASE coalesce(txngate_jsonb_typeof(_arg1), 'null') WHEN 'null' THEN NULL WHEN 'object' THEN _arg2 "
                  "WHEN 'string' THEN _arg3 WHEN 'array' THEN _arg4 ELSE _arg5 END",
                  [value, built, _failing("0A000", "a record's text inside json is not supported", type_name),
                   _failing("22023", "cannot call populate_composite on an array", type_name),
                   _failing("22023", "cannot call populate_composite on a scalar", type_name)])


def _failing(sqlstate: str, message: str, type_name: ast.TypeName) -> ast.TypeCast:
    """An expression of ``type_name`` that fails with ``sqlstate`` where it
    is evaluated, and only there: not error(), whose volatility keeps the
    engine computing a subquery's every column (pgcatalog.raised, through
    text, which casts to any type)."""
    return ast.TypeCast(arg=expand(raised(sqlstate, message, "VARCHAR"), []), typeName=copy.deepcopy(type_name))


def table_function_columns(rf: ast.RangeFunction) -> dict[str, str]:
    """The columns a set-returning json function in FROM gives, by name:
    json[b]_to_record's as its column definitions declare them, the json
    ones of the others (``value``, or the alias's column name)."""
    if len(rf.functions) != 1 or not isinstance(rf.functions[0][0], ast.FuncCall):
        return {}
    name = _name(rf.functions[0][0])
    if name in _TO_RECORD and rf.coldeflist:
        return {c.colname: canonical(c.typeName, array_ok=True) for c in rf.coldeflist}
    position = {"_each": 1, "_array_elements": 0}.get(name[name.index("_"):] if name.startswith(JSON_TYPES) else "")
    if position is None:
        return {}
    names = [c.sval for c in rf.alias.colnames] if rf.alias is not None and rf.alias.colnames else []
    return {names[position] if position < len(names) else "value": name.split("_")[0]}


def canonical_outputs(select: ast.SelectStmt, columns: dict[str, str], kinds: tuple[str, ...] = JSON_TYPES) -> None:
    """Wrap each computed json or jsonb result column of ``select`` so it
    prints as PostgreSQL's (jsonb canonically: jsonb_build_object's keys
    sorted, ``1e2`` as ``100``; both with a double's NaN and infinities as
    strings, where the engine writes them bare); ``kinds``: of these kinds only."""
    for target in select.targetList or ():
        if not isinstance(target, ast.ResTarget) or isinstance(target.val, ast.ColumnRef):
            continue
        found = kind(target.val, columns)
        if found in kinds and not (found == "json" and isinstance(target.val, ast.TypeCast)):
            if target.name is None:
                target.name = _output_name(target.val)
            target.val = ast.FuncCall(funcname=(ast.String(sval=f"txngate_{found}"),), args=(target.val,),
                                      funcformat=CoercionForm.COERCE_EXPLICIT_CALL)


def canonical_cast(cast: ast.TypeCast, columns: dict[str, str]) -> None:
    """A computed jsonb cast to text (``jsonb_build_object(...)::text``)
    is jsonb's canonical text, as PostgreSQL prints it."""
    if cast.typeName.names[-1].sval in ("text", "varchar") and not cast.typeName.arrayBounds \
            and not isinstance(cast.arg, ast.ColumnRef) and kind(cast.arg, columns) == "jsonb":
        cast.arg = ast.FuncCall(funcname=(ast.String(sval="txngate_jsonb"),), args=(cast.arg,), funcformat=CoercionForm.COERCE_EXPLICIT_CALL)


def _star_kinds(select: ast.SelectStmt, columns_of: Callable[[], dict[str, str]]) -> list[str | None] | None:
    """The json kinds of ``SELECT * FROM x`` where x is one subquery, a CTE
    of the statement, or json[b]_to_record[set] with its column list (a
    stored table's come from its columns' origins); else None."""
    source = (select.fromClause or (None,))[0] if len(select.fromClause or ()) == 1 else None
    if isinstance(source, ast.RangeSubselect):
        return result_kinds(source.subquery, columns_of, computed_only=False)
    if isinstance(source, ast.RangeVar) and source.schemaname is None and select.withClause is not None:
        cte = next((c for c in select.withClause.ctes if c.ctename == source.relname), None)
        return result_kinds(cte.ctequery, columns_of, computed_only=False) if cte is not None and not cte.aliascolnames else None
    if isinstance(source, ast.RangeFunction) and (outputs := _function_outputs(source)) is not None:
        return [k for _n, k in outputs]
    if isinstance(source, ast.RangeFunction) and len(source.functions) == 1 and isinstance(source.functions[0][0], ast.FuncCall):
        fc = source.functions[0][0]
        if _name(fc) in _TO_RECORD and source.coldeflist:
            return [_shown_type(canonical(c.typeName, array_ok=True)) for c in source.coldeflist]
        row_type = populated_type(source)
        made = made_type(row_type) if row_type else None
        if isinstance(made, CompositeType):
            return [_shown_type(getattr(domain_of(t), "base", t)) for _f, t in made.fields]
    return None


def _shown_type(sql_type: str) -> str | None:
    """A record column's type where the engine's result type would not
    tell it: json and jsonb, character(n) and varchar(n) (text to the
    engine), a composite type (a record), arrays of them; else None."""
    element = sql_type.removesuffix("[]").removesuffix("[]").removesuffix("[]")
    if element in JSON_TYPES or element.startswith(("char(", "varchar(", "composite(")):
        return element + ("[]" if sql_type != element else "")
    return None


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
    list has a ``*`` of what ``_star_kinds`` cannot tell, or
    (``computed_only``) no column can be computed json.
    ``columns_of()`` gives the column types ``kind`` needs, only if needed."""
    targets = getattr(select, "targetList", None)
    if not targets:
        return None
    stars = [isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.A_Star) for t in targets]
    if any(stars):  # (a star of the one FROM item: its columns' kinds, beside the others': SELECT *, c IS NULL ...)
        expanded = _star_kinds(select, columns_of)
        if expanded is None or len(targets) == 1:
            return expanded
        columns = with_derived(select, columns_of())
        return [k for t, star in zip(targets, stars) for k in (expanded if star else [kind(t.val, columns)])]
    exprs = [t.val for t in targets]
    sources = getattr(select, "fromClause", None) or ()
    if computed_only and all(isinstance(e, (ast.ColumnRef, ast.A_Const, ast.ParamRef)) for e in exprs) \
            and len(sources) <= 1 and all(isinstance(f, ast.RangeVar) for f in sources) and getattr(select, "withClause", None) is None:
        return None  # plain columns of one table: their types come from their origins
    columns = with_derived(select, columns_of())
    return [kind(e, columns) for e in exprs]


def with_derived(select: ast.SelectStmt, columns: dict[str, str]) -> dict[str, str]:
    """``columns`` with the json and jsonb output columns of the FROM
    subqueries (LATERAL too, in joins too) and CTEs ``select`` reads, by
    name, where no column of another type has that name."""
    derived: dict[str, str] = {}
    ctes = {c.ctename: c for c in select.withClause.ctes} if getattr(select, "withClause", None) is not None else {}

    def add(sub: ast.Node, renamed: list[str]) -> None:
        while isinstance(sub, ast.SelectStmt) and sub.op is not None and sub.op.name != "SETOP_NONE":
            sub = sub.larg  # a set operation's columns are its first arm's
        inner = getattr(sub, "targetList", None) or ()
        kinds = result_kinds(sub, lambda: columns, computed_only=False) or ()
        for i, (t, k) in enumerate(zip(inner, kinds)):
            name = renamed[i] if i < len(renamed) else t.name or (
                t.val.fields[-1].sval if isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.String) else _output_name(t.val))
            if k is not None and columns.get(name, k) == k:
                derived[name] = k

    def visit(item) -> None:
        if isinstance(item, ast.JoinExpr):
            visit(item.larg)
            visit(item.rarg)
        elif isinstance(item, ast.RangeSubselect):
            add(item.subquery, [c.sval for c in item.alias.colnames] if item.alias is not None and item.alias.colnames else [])
        elif isinstance(item, ast.RangeVar) and item.schemaname is None and item.relname in ctes:
            cte = ctes[item.relname]
            add(cte.ctequery, [c.sval for c in cte.aliascolnames or ()])
        elif isinstance(item, ast.RangeFunction):
            for name, k in _function_outputs(item) or ():
                if k is not None and columns.get(name, k) == k:
                    derived[name] = k
    for item in getattr(select, "fromClause", None) or ():
        visit(item)
    return {**columns, **derived} if derived else columns
