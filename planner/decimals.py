"""Numerics as PostgreSQL computes them where DuckDB's decimals differ.

DuckDB's DECIMAL has one scale per column and at most 38 digits; where
two decimals meet (CASE, COALESCE, GREATEST/LEAST, IN, a comparison with
ANY or ALL of a subquery, a VALUES column, ARRAY[...], set operations) its common type keeps the integer digits and
cuts the scale when both need more than 38 digits, rounding values
silently (a constant of 21 places beside a column's 10 became 1); its %,
mod and div of decimals run in double precision. PostgreSQL's numeric
keeps every digit. ``Scales.unify`` casts the arms of such a meeting to
the largest scale with 28 integer digits (``computed_type``) when every
arm's scale is known (``Scales.scale``: columns, casts, constants,
round/trunc, sum/min/max, + - *); ``Scales.exact_remainder`` sends %,
mod and div of numerics to local_exec.numeric's exact functions.
``Scales.display_scale`` is the expression of each value's own display
scale where a CASE, COALESCE, NULLIF or GREATEST/LEAST chooses between
scales (PostgreSQL's numeric keeps one per value; the engine's CASE has
one for the column), which the binder prints output columns, text casts
and json numbers at (``COALESCE(price, 0)`` is '0', not '0.00').
A parameter holding a decimal of more places than a computed numeric
keeps is written into the statement as its constant
(``with_wide_parameters_written``), so it meets the others as a constant
does, where DuckDB typed it by its value and cut it beside a column.

Invariant: a rewrite never changes a value PostgreSQL would give; a value
the 38-digit type cannot hold is an error (22003), never a rounded one.
"""

from __future__ import annotations

import decimal
import re
from typing import Callable

from pglast import ast
from pglast.enums import A_Expr_Kind, MinMaxOp, NullTestType

from planner.errors import UNDEFINED_FUNCTION, SqlError, not_supported
from planner.parse import copy_tree, walk
from planner.pgcatalog import replace_children
from planner.resolve import column_type
from planner.sqltypes import INTEGER_TYPES, STORED_PLACES

__all__ = ["INTEGER_DIGITS", "Scales", "computed_type", "constant_places", "set_operation_leaves", "with_wide_parameters_written"]

#: the integer digits of a computed numeric: an unconstrained numeric's (decimal(38, 10) holds 28)
INTEGER_DIGITS = 28


class Scales:
    """The numerics of one statement: ``columns`` are its column types by
    name, ``operand_type(node)`` an expression's type when it is plainly an
    integer, a numeric or a float (the binder's operand typing), else None."""

    def __init__(self, columns: dict[str, str], operand_type: Callable[[ast.Node], str | None]):
        self.columns, self.operand_type = columns, operand_type

    def integer(self, n: ast.Node) -> bool:
        return self.operand_type(n) in INTEGER_TYPES

    def scale(self, n: ast.Node | None) -> int | None:
        """The scale of ``n`` when it is plainly a numeric (a numeric column,
        cast or constant, round/trunc, sum/min/max/abs of one, a sign,
        + - * of such, a CASE or COALESCE of them); None when it is not a
        numeric or not known."""
        if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Float):
            return constant_places(n.val.fval)  # (1e-20 is read as the exact numeric: planner.bind)
        if isinstance(n, ast.ColumnRef) and isinstance(n.fields[-1], ast.String):
            return _declared_scale(column_type(n, self.columns, ""))
        if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds and n.typeName.names[-1].sval in ("numeric", "decimal"):
            mods = [m.val.ival for m in n.typeName.typmods or () if isinstance(m, ast.A_Const) and isinstance(m.val, ast.Integer)]
            if mods:
                return mods[1] if len(mods) > 1 else 0
            if isinstance(n.arg, ast.A_Const) and isinstance(n.arg.val, (ast.Float, ast.String)):
                return max(10, constant_places(getattr(n.arg.val, "fval", None) or n.arg.val.sval) or 0)  # a constant keeps its places
            if self.integer(n.arg):
                return 10  # (cast to no places: planner.bind)
            # a numeric keeps its places; anything else is read in the 10 a computed numeric keeps (planner.bind)
            return max(STORED_PLACES, self.scale(n.arg) or 0)
        if isinstance(n, ast.FuncCall):
            return self._call_scale(n)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_NULLIF:
            return self.scale(n.lexpr)
        if isinstance(n, (ast.CaseExpr, ast.CoalesceExpr, ast.MinMaxExpr)):
            branches = [w.result for w in n.args] + [n.defresult] if isinstance(n, ast.CaseExpr) else list(n.args)
            scales = [self.scale_or_integer(b) for b in branches if b is not None and not (isinstance(b, ast.A_Const) and b.isnull)]
            known = [sc for sc in scales if sc is not None and sc >= 0]
            return None if not known or any(sc is None for sc in scales) else max(known)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-") and n.lexpr is None:
            return self.scale(n.rexpr)  # a sign
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-", "*"):
            left, right = self.scale(n.lexpr), self.scale(n.rexpr)
            if left is None and right is None:
                return None
            left = 0 if left is None and self.integer(n.lexpr) else left
            right = 0 if right is None and self.integer(n.rexpr) else right
            if left is None or right is None:
                return None
            return left + right if n.name[-1].sval == "*" else max(left, right)
        return None

    def _call_scale(self, n: ast.FuncCall) -> int | None:
        name, args = n.funcname[-1].sval, list(n.args or ())
        if name in ("round", "trunc") and len(args) == 2 and isinstance(args[1], ast.A_Const) and isinstance(args[1].val, ast.Integer):
            numeric = self.scale(args[0]) is not None or self.integer(args[0])  # round(integer, k) is round(numeric, k)
            return max(0, args[1].val.ival) if numeric else None
        if name in ("round", "trunc", "floor", "ceil", "ceiling") and len(args) == 1:
            return 0 if self.scale(args[0]) is not None else None
        if name == "extract" and len(args) == 2 and isinstance(args[0], ast.A_Const) and isinstance(args[0].val, ast.String):
            # PostgreSQL's numeric fields (planner.bind._date_part); a date's epoch has no places (taken as 6: a larger scale
            # than a value's keeps it whole), a julian day's scale depends on the argument
            field = args[0].val.sval.lower()
            return {"second": 6, "milliseconds": 3, "epoch": 6, "julian": None}.get(field, 0)
        if name in ("sum", "min", "max", "abs") and len(args) == 1 and not n.over:
            return self.scale(args[0])
        return None

    def scale_or_integer(self, n: ast.Node) -> int | None:
        """``scale``, or -1 for an integer (which a numeric takes in at scale 0)."""
        scale = self.scale(n)
        if scale is None and (self.integer(n) or isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer)):
            return -1
        return scale

    def unify(self, n: ast.Node) -> None:
        """CASE, COALESCE, GREATEST/LEAST, IN, ANY/ALL (SELECT ...), ARRAY[...],
        a VALUES column and set operations over numerics of different scales: when every
        numeric arm's scale is known, each is cast to the largest scale
        (``computed_type``)."""
        if isinstance(n, ast.CaseExpr):
            arms = [w.result for w in n.args] + [n.defresult]
            if (cast := self._unified(arms)) is not None:
                for w, v in zip(n.args, cast):
                    w.result = v
                n.defresult = cast[-1]
        elif isinstance(n, (ast.CoalesceExpr, ast.MinMaxExpr)):
            n.args = tuple(self._unified(list(n.args)) or n.args)
        elif isinstance(n, ast.A_ArrayExpr) and n.elements:
            n.elements = tuple(self._unified(list(n.elements)) or n.elements)
        elif isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_IN and isinstance(n.rexpr, (list, tuple)) and n.lexpr is not None:
            if (cast := self._unified([n.lexpr, *n.rexpr])) is not None:
                n.lexpr, n.rexpr = cast[0], tuple(cast[1:])
        elif isinstance(n, ast.SubLink) and n.subLinkType.name in ("ANY_SUBLINK", "ALL_SUBLINK") and isinstance(n.testexpr, ast.Node) \
                and len(getattr(n.subselect, "targetList", None) or ()) == 1:
            target = n.subselect.targetList[0]  # x IN (SELECT y ...), x >= ALL (SELECT y ...) compare in the common type
            if (cast := self._unified([n.testexpr, target.val])) is not None:
                n.testexpr, target.val = cast
        elif isinstance(n, ast.SelectStmt) and n.valuesLists and len(n.valuesLists) > 1:
            rows = [list(row) for row in n.valuesLists]
            for i in range(min(len(row) for row in rows)):
                if (cast := self._unified([row[i] for row in rows])) is not None:
                    for row, v in zip(rows, cast):
                        row[i] = v
            n.valuesLists = tuple(tuple(row) for row in rows)
        elif isinstance(n, ast.SelectStmt) and n.op is not None and n.op.name != "SETOP_NONE":
            leaves = set_operation_leaves(n)
            for i in range(len(leaves[0].targetList) if leaves else 0):
                if (cast := self._unified([leaf.targetList[i].val for leaf in leaves])) is not None:
                    for leaf, v in zip(leaves, cast):
                        leaf.targetList[i].val = v

    def _unified(self, values: list) -> list | None:
        """``values`` with each numeric of known scale cast to the largest
        scale among them; None when they agree or one's scale is unknown."""
        scales = [None if v is None or (isinstance(v, ast.A_Const) and v.isnull) else self.scale_or_integer(v) for v in values]
        known = [sc for sc in scales if sc is not None and sc >= 0]
        unknown = [v for sc, v in zip(scales, values) if sc is None and v is not None and not (isinstance(v, ast.A_Const) and v.isnull)]
        if unknown and any(sc is not None and sc > STORED_PLACES and _constant(v) for v, sc in zip(values, scales)) \
                and any(self.operand_type(v) == "numeric" or isinstance(v, ast.ColumnRef) and self.operand_type(v) is None for v in unknown):
            # a constant's places beside a numeric of unknown scale, or a column of unknown type (a numeric column's 10
            # places come with 28 digits before the point): DuckDB's common type would cut them
            raise not_supported(f"a numeric of more than {STORED_PLACES} digits after the point beside a value whose scale txngate "
                                "does not know here")
        if len(set(known)) < 2 or unknown or max(known) > 38:
            return None  # (past 38 places the constant itself is refused: planner.bind)
        target = max(known)
        if target > STORED_PLACES:  # a constant's trailing zeros are not kept where they would cost digits before the point
            target = max(_significant_places(v, sc) for v, sc in zip(values, scales) if sc is not None and sc >= 0)
        return [v if sc is None or sc < 0 else ast.TypeCast(arg=v, typeName=_numeric(target)) for v, sc in zip(values, scales)]

    def display_scale(self, n: ast.Node) -> ast.Node | None:
        """An expression of the display scale PostgreSQL's numeric gives each
        value of ``n`` where it varies from row to row (a CASE, COALESCE,
        NULLIF or GREATEST/LEAST of two whose arms differ in scale, through + - *, a sign, abs,
        sum and round): ``COALESCE(price, 0)`` prints '0' where price is
        NULL, the engine's one scale '0.00'. None where the scale is the
        same for every row, or not known (an unconstrained column's), or
        finding it would evaluate a condition twice that is volatile or
        holds a subquery."""
        shown = self._display(n)
        return shown if isinstance(shown, ast.Node) else None

    def _display(self, n: ast.Node | None):
        """``n``'s display scale: an int when it is one for every row,
        _NULL for a NULL constant, an expression when it varies, None
        when not known."""
        if n is None or isinstance(n, ast.A_Const) and n.isnull:
            return _NULL
        if isinstance(n, ast.A_Const) and isinstance(n.val, ast.Float):
            return constant_places(n.val.fval)
        if self.integer(n) or isinstance(n, ast.A_Const) and isinstance(n.val, ast.Integer):
            return 0
        if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds and n.typeName.names[-1].sval in ("numeric", "decimal"):
            if n.typeName.typmods:
                return self.scale(n)
            if isinstance(n.arg, ast.A_Const) and isinstance(n.arg.val, (ast.Float, ast.String)):
                return constant_places(getattr(n.arg.val, "fval", None) or n.arg.val.sval)
            return self._display(n.arg) if self.operand_type(n.arg) in ("numeric", *INTEGER_TYPES) else None
        if isinstance(n, ast.ColumnRef):
            return self.scale(n) if column_type(n, self.columns, "") != "numeric" else None  # (unconstrained: each value's own)
        if isinstance(n, ast.CaseExpr):
            if not all(_copyable(x) for x in (n.arg, *(w.expr for w in n.args))):
                return None
            arms = [self._display(w.result) for w in n.args] + [self._display(n.defresult)]
            return _chosen(arms, lambda shown: ast.CaseExpr(arg=copy_tree(n.arg), args=tuple(
                ast.CaseWhen(expr=copy_tree(w.expr), result=s) for w, s in zip(n.args, shown)), defresult=shown[-1]))
        if isinstance(n, ast.CoalesceExpr):
            if not all(_copyable(a) for a in n.args[:-1]):
                return None
            arms = [self._display(a) for a in n.args]
            return _chosen(arms, lambda shown: ast.CaseExpr(args=tuple(
                ast.CaseWhen(expr=ast.NullTest(arg=copy_tree(a), nulltesttype=NullTestType.IS_NOT_NULL), result=s)
                for a, s in zip(n.args[:-1], shown)), defresult=shown[-1]))
        if isinstance(n, ast.MinMaxExpr) and len(n.args) == 2 and all(_copyable(a) for a in n.args):
            # PostgreSQL keeps the first of equal values: the second is taken only when it is greater (less)
            first, second = n.args
            shown = [self._display(first), self._display(second)]
            taken = ast.A_Expr(kind=A_Expr_Kind.AEXPR_OP, name=(ast.String(sval=">" if n.op == MinMaxOp.IS_GREATEST else "<"),),
                               lexpr=copy_tree(second), rexpr=copy_tree(first))
            return _chosen(shown, lambda s: ast.CaseExpr(args=(
                ast.CaseWhen(expr=ast.NullTest(arg=copy_tree(first), nulltesttype=NullTestType.IS_NULL), result=s[1]),
                ast.CaseWhen(expr=taken, result=copy_tree(s[1]))), defresult=s[0]))
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_NULLIF:
            compared = self.operand_type(n.rexpr)  # (beside a float, the value is the float's)
            return self._display(n.lexpr) if compared in ("numeric", *INTEGER_TYPES) or _constant(n.rexpr) else None
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-") and n.lexpr is None:
            return self._display(n.rexpr)
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval in ("+", "-", "*"):
            left, right = self._display(n.lexpr), self._display(n.rexpr)
            if left is None or right is None or left is _NULL or right is _NULL:
                return None if left is None or right is None else _NULL
            if isinstance(left, int) and isinstance(right, int):
                return left + right if n.name[-1].sval == "*" else max(left, right)
            if n.name[-1].sval == "*":
                return ast.A_Expr(kind=A_Expr_Kind.AEXPR_OP, name=(ast.String(sval="+"),), lexpr=_scale_node(left), rexpr=_scale_node(right))
            return ast.MinMaxExpr(op=MinMaxOp.IS_GREATEST, args=(_scale_node(left), _scale_node(right)))
        if isinstance(n, ast.FuncCall) and len(n.funcname) == 1 and not n.agg_star:
            return self._call_display(n)
        return self.scale(n) if self.operand_type(n) == "numeric" else None

    def _call_display(self, n: ast.FuncCall):
        name, args = n.funcname[-1].sval, list(n.args or ())
        if name == "abs" and len(args) == 1 and not n.over:
            return self._display(args[0])
        if name in ("round", "trunc") and len(args) == 2:
            return self.scale(n)
        if name in ("round", "trunc", "floor", "ceil", "ceiling") and len(args) == 1:
            return 0 if self._display(args[0]) is not None else None
        if name == "sum" and len(args) == 1 and not n.agg_order:
            shown = self._display(args[0])
            if not isinstance(shown, ast.Node):
                return shown  # (of one scale: that one)
            if n.agg_distinct or not _copyable(n.agg_filter) or n.over is not None and not _copyable(n.over):
                return None
            return ast.FuncCall(funcname=(ast.String(sval="max"),), args=(shown,), agg_filter=copy_tree(n.agg_filter), over=copy_tree(n.over))
        return self.scale(n) if self.operand_type(n) == "numeric" else None

    def exact_remainder(self, n: ast.Node) -> ast.Node | None:
        """``a % b`` / ``mod(a, b)`` of numerics and ``div(a, b)`` as calls of
        local_exec.numeric's exact functions (DuckDB computes them in double
        precision: mod(999999999999999999999, 10^21) was 0); None otherwise."""
        if isinstance(n, ast.A_Expr) and n.kind == A_Expr_Kind.AEXPR_OP and n.name[-1].sval == "%" and n.lexpr is not None:
            name, a, b = "mod", n.lexpr, n.rexpr
        elif isinstance(n, ast.FuncCall) and n.funcname[-1].sval in ("mod", "div") and len(n.args or ()) == 2 and not n.over:
            name, (a, b) = n.funcname[-1].sval, n.args
        else:
            return None
        types = [self.operand_type(x) for x in (a, b)]
        if name == "mod" and any(t in ("double precision", "real") for t in types):  # PostgreSQL has no remainder of floats
            shown = ", ".join(t or "unknown" for t in types)
            if isinstance(n, ast.FuncCall):
                raise SqlError(UNDEFINED_FUNCTION, f"function mod({shown}) does not exist", hint=_NO_MATCH.format("function", "name"))
            raise SqlError(UNDEFINED_FUNCTION, f"operator does not exist: {types[0] or 'unknown'} % {types[1] or 'unknown'}",
                           hint=_NO_MATCH.format("operator", "name"))
        sa, sb = (-1 if self.integer(x) else self.scale_or_integer(x) for x in (a, b))  # (9000000000 is a bigint)
        if name == "mod" and (sa is None or sb is None or max(sa, sb) < 0):
            return None  # not known to be numerics (integers keep DuckDB's exact %)
        sa, sb = sa or 0, sb or 0  # (div takes numerics only: its quotient is whole whatever they are)
        fn = "txngate_numeric_mod" if name == "mod" else "txngate_numeric_trunc_div"
        text = [ast.TypeCast(arg=x, typeName=ast.TypeName(names=(ast.String(sval="text"),), typemod=-1)) for x in (a, b)]
        call = ast.FuncCall(funcname=(ast.String(sval=fn),), args=tuple(text))
        return ast.TypeCast(arg=call, typeName=_numeric(max(sa, sb, 0) if name == "mod" else 0))


_NO_MATCH = "No {} matches the given {} and argument types. You might need to add explicit type casts."

#: the display scale of a NULL constant: any (its value prints as NULL)
_NULL = object()

#: functions whose value differs between two calls in one row: a condition holding one is not evaluated twice
_VOLATILE = {"random", "nextval", "setval", "gen_random_uuid", "uuid_generate_v4", "clock_timestamp", "timeofday", "txid_current",
             "pg_sleep", "random_normal"}


def _copyable(n) -> bool:
    """Whether ``n`` may be evaluated a second time for its scale: no
    subquery, no volatile function."""
    return n is None or not any(isinstance(x, ast.SubLink) or isinstance(x, ast.FuncCall) and x.funcname[-1].sval in _VOLATILE
                                for x in walk(n))


def _chosen(arms: list, build: Callable[[list], ast.Node]):
    """The display scale of a choice among ``arms`` (their scales): an int
    when every arm that is not NULL has that one, the expression ``build``
    makes of their scales when they differ, None when one is not known."""
    if any(a is None for a in arms):
        return None
    fixed = {a for a in arms if isinstance(a, int)}
    if all(a is _NULL or isinstance(a, int) for a in arms) and len(fixed) <= 1:
        return fixed.pop() if fixed else _NULL
    return build([_scale_node(a) for a in arms])


def _scale_node(shown) -> ast.Node:
    """A display scale as an expression (a NULL constant's: 0)."""
    if isinstance(shown, ast.Node):
        return shown
    return ast.A_Const(val=ast.Integer(ival=0 if shown is _NULL else shown))


def set_operation_leaves(n: ast.SelectStmt) -> list[ast.SelectStmt] | None:
    """The SELECTs a set operation combines, left to right; None when one is
    a VALUES list or their widths differ."""
    leaves, stack = [], [n]
    while stack:
        s = stack.pop()
        if s.op is not None and s.op.name != "SETOP_NONE":
            stack += [s.rarg, s.larg]
        elif s.targetList:
            leaves.append(s)
        else:
            return None
    return leaves if len({len(leaf.targetList) for leaf in leaves}) == 1 else None


def with_wide_parameters_written(node: ast.Node, params: list) -> ast.Node | None:
    """A copy of ``node`` with each parameter whose value is a decimal of
    more than STORED_PLACES places written in as its number constant;
    None when no parameter's is."""
    wide = {i + 1 for i, v in enumerate(params) if isinstance(v, decimal.Decimal) and v.is_finite() and v.as_tuple().exponent < -STORED_PLACES}
    if not wide:
        return None
    node = copy_tree(node)
    for n in walk(node):
        replace_children(n, lambda c: _number(params[c.number - 1]) if isinstance(c, ast.ParamRef) and c.number in wide else None)
    return node


def _number(value: decimal.Decimal) -> ast.Node:
    """A decimal as the numeric constant PostgreSQL reads: a negative one
    is the constant negated (the parser's own form)."""
    constant = ast.A_Const(val=ast.Float(fval=format(abs(value), "f")))
    return constant if not value.is_signed() else ast.A_Expr(kind=A_Expr_Kind.AEXPR_OP, name=(ast.String(sval="-"),), rexpr=constant)


def _constant(n: ast.Node) -> bool:
    """A number constant, cast to numeric or not."""
    if isinstance(n, ast.TypeCast) and not n.typeName.arrayBounds:
        n = n.arg
    return isinstance(n, ast.A_Const) and isinstance(n.val, (ast.Float, ast.String))


def _significant_places(n: ast.Node, scale: int) -> int:
    """``scale``, or for a number constant (cast to plain numeric or not) its
    places without trailing zeros (``2.50000000000000000000``: 1)."""
    if isinstance(n, ast.TypeCast) and not n.typeName.typmods and not n.typeName.arrayBounds:
        n = n.arg
    if isinstance(n, ast.A_Const) and isinstance(n.val, (ast.Float, ast.String)):
        places = constant_places(getattr(n.val, "fval", None) or n.val.sval, significant=True)
        return scale if places is None else places
    return scale


def constant_places(text: str, *, significant: bool = False) -> int | None:
    """The digits after the point of a number's text as PostgreSQL reads it,
    exactly (``1.50``: 2, ``1e-20``: 20, ``1e5``: 0), or with
    ``significant`` without trailing zeros (``1.50``: 1); None when the
    text is not a finite number."""
    try:
        value = decimal.Decimal(text.strip())
    except decimal.InvalidOperation:
        return None
    if not value.is_finite():
        return None
    digits, exponent = value.as_tuple()[1:]
    if significant and not value:
        return 0
    if significant:
        exponent += len(digits) - len("".join(map(str, digits)).rstrip("0"))  # (normalize() would round to 28 digits)
    return max(0, -exponent)


def _declared_scale(sql_type: str) -> int | None:
    if sql_type == "numeric":
        return 10
    m = re.fullmatch(r"numeric\((\d+),(\d+)\)", sql_type)
    return int(m.group(2)) if m else None


def computed_type(scale: int) -> str:
    """The decimal type txngate computes a numeric of ``scale`` places in:
    INTEGER_DIGITS before the point (38 digits at most). Beside another
    decimal DuckDB's common type keeps the larger integer part and cuts
    the places when both need more than 38 digits; within 28 integer
    digits a numeric keeps up to 10 places beside any other."""
    return f"numeric({min(38, INTEGER_DIGITS + scale)},{scale})"


def _numeric(scale: int) -> ast.TypeName:
    """``computed_type(scale)`` as a TypeName."""
    return ast.TypeName(names=(ast.String(sval="numeric"),), typmods=(ast.A_Const(val=ast.Integer(ival=min(38, INTEGER_DIGITS + scale))),
                                                                    ast.A_Const(val=ast.Integer(ival=scale))), typemod=-1)
