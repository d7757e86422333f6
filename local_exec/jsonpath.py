"""PostgreSQL's SQL/JSON path language for the local engine: the
``jsonb_path_exists``, ``jsonb_path_match``, ``jsonb_path_query``,
``jsonb_path_query_array`` and ``jsonb_path_query_first`` functions and
the ``@?`` and ``@@`` operators (the planner rewrites them to the
``txngate_jsonb_path_*`` functions registered here).

Owns the path's grammar (``parse``: PostgreSQL's jsonpath_gram.y — lax and
strict modes, ``$``, ``@``, ``$var``, ``last``, ``.key``, ``."key"``,
``.*``, ``.**{m to n}``, ``[*]``, ``[i, j to k]``, filters ``? (...)``,
the arithmetic operators, comparisons, ``&&``, ``||``, ``!``, ``is
unknown``, ``exists``, ``like_regex``, ``starts with`` and the methods
type, size, double, ceiling, floor, abs and keyvalue) and its evaluation
as PostgreSQL's jsonpath_exec.c does it: in lax mode an accessor unwraps
an array it meets and an array accessor wraps a non-array, and
structural errors (a missing key, a subscript out of range, an accessor
of the wrong type) give nothing; in strict mode they are errors.
Predicates have three values (an error inside one, such as comparing a
number with a string, is unknown); a comparison is true when any pair of
its operands' items compares true.

Items are parsed json values (local_exec.jsonb.parse: numbers as int or
Decimal) and are evaluated lazily (generators), so ``exists`` in lax mode
stops at the first item, as PostgreSQL does, and errors after it are not
raised.

Invariants: a function's ``silent`` argument turns every error but a
missing variable into NULL (as PostgreSQL's); a path text is parsed once
per distinct text (``parse`` caches); a path PostgreSQL refuses to parse
is 42601; methods PostgreSQL has and txngate does not evaluate
(``.datetime()``, keyvalue of a nested object, whose ``id`` is an offset
into PostgreSQL's binary jsonb) are 0A000, never a different answer.
"""

from __future__ import annotations

import decimal
import functools
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterator

from local_exec import udf
from local_exec.jsonb import JsonError, dump, parse as parse_json
from local_exec.numeric import numeric_add, numeric_div, numeric_mod, numeric_mul, numeric_sub

__all__ = ["FUNCTIONS", "parse", "register"]


#: the vars argument of the operators, which pass none (no jsonb's text is empty)
NO_VARIABLES = ""


class PathError(JsonError):
    """An error evaluating a path (a ``silent`` call answers NULL for it)."""


class VariableError(JsonError):
    """A variable the path names and ``vars`` lacks: raised even when silent."""


def _syntax(near: str | None) -> JsonError:
    if near is None:
        return JsonError("42601", "syntax error at end of jsonpath input")
    return JsonError("42601", f'syntax error at or near "{near}" of jsonpath input')


# -- the grammar -----------------------------------------------------------------
#
# A parsed path is a tree of tuples whose first element names the node:
#   ("root",) ("current",) ("var", name) ("literal", value) ("last",)
#   ("path", primary, (accessor, ...))      accessors applied in turn
#   ("arith", op, left, right) ("unary", op, operand)
#   ("cmp", op, left, right) ("and", l, r) ("or", l, r) ("not", p)
#   ("unknown", p) ("exists", expr) ("starts", expr, initial) ("like", expr, regex)
# and accessors:
#   ("key", name) ("anykey",) ("anyarray",) ("index", ((from, to or None), ...))
#   ("any", first, last) ("method", name) ("filter", predicate)

_LAST_LEVEL = 1 << 32  # `last` in .**{...}: as deep as the document goes
_PREDICATES = {"cmp", "and", "or", "not", "unknown", "exists", "starts", "like"}
_METHODS = {"type", "size", "double", "ceiling", "floor", "abs", "keyvalue", "datetime"}
_COMPARISONS = {"==", "!=", "<>", "<", "<=", ">", ">="}
_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<var>\$(?:"(?:[^"\\]|\\.)*"|[^\s?%$.\[\]{}()|&!=<>@\#,*:\-+/\\"]*))
  | (?P<op>\*\*|==|!=|<>|<=|>=|&&|\|\||[@.\[\](){}?,*+\-/%<>!])
  | (?P<word>[^\s?%$.\[\]{}()|&!=<>@\#,*:\-+/\\"]+)
""", re.VERBOSE)
_DOT = re.compile(r"\.")
_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", '"': '"', "\\": "\\", "/": "/"}


def _unquote(s: str) -> str:
    out, i = [], 1
    while i < len(s) - 1:
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = s[i + 1]
        if e == "u" and re.fullmatch(r"[0-9A-Fa-f]{4}", s[i + 2:i + 6]):
            out.append(chr(int(s[i + 2:i + 6], 16)))
            i += 6
        elif e == "x" and re.fullmatch(r"[0-9A-Fa-f]{2}", s[i + 2:i + 4]):
            out.append(chr(int(s[i + 2:i + 4], 16)))
            i += 4
        else:
            out.append(_ESCAPES.get(e, e))
            i += 2
    return "".join(out)


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise _syntax(text[pos])
        kind = m.lastgroup
        # `.5` is a number only where an operand may start (after `$` it is an accessor)
        if kind == "number" and m.group().startswith(".") and out and (out[-1][0] != "op" or out[-1][1] in (")", "]")):
            kind, m = "op", _DOT.match(text, pos)
        if kind != "space":
            out.append((kind, m.group()))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.toks = _tokens(text)
        self.i = 0
        self.filters = 0     # depth of filters: `@` is allowed inside one
        self.subscripts = 0  # depth of array subscripts: `last` is allowed inside one

    def peek(self, k: int = 0) -> tuple[str, str] | None:
        return self.toks[self.i + k] if self.i + k < len(self.toks) else None

    def word(self, k: int = 0) -> str | None:
        t = self.peek(k)
        return t[1].lower() if t is not None and t[0] == "word" else None

    def op(self, k: int = 0) -> str | None:
        t = self.peek(k)
        return t[1] if t is not None and t[0] == "op" else None

    def take(self) -> tuple[str, str]:
        t = self.peek()
        if t is None:
            raise _syntax(None)
        self.i += 1
        return t

    def expect(self, op: str) -> None:
        t = self.take()
        if t != ("op", op):
            raise _syntax(t[1])

    def fail(self):
        t = self.peek()
        raise _syntax(None if t is None else t[1])

    # path: [lax | strict] expr_or_predicate
    def top(self) -> tuple[bool, tuple]:
        lax = True
        if self.word() in ("lax", "strict"):
            lax = self.take()[1].lower() == "lax"
        node = self.disjunction()
        if self.peek() is not None:
            self.fail()
        return lax, node

    def predicate(self, node: tuple) -> tuple:
        if node[0] not in _PREDICATES:
            self.fail()
        return node

    def disjunction(self) -> tuple:
        return self.chain({"||": "or"}, self.conjunction, self.predicate)

    def conjunction(self) -> tuple:
        return self.chain({"&&": "and"}, self.negation, self.predicate)

    def chain(self, ops: dict[str, str], operand, check) -> tuple:
        """``operand (op operand)*``, left-associative: (kind, [op,] left, right) nodes."""
        node = operand()
        while self.op() in ops:
            op = self.take()[1]
            kind = ops[op]
            node = (kind, check(node), check(operand())) if kind in ("or", "and") else (kind, op, check(node), check(operand()))
        return node

    def negation(self) -> tuple:
        if self.op() == "!":
            self.take()
            if self.op() != "(" and self.word() != "exists":
                self.fail()
            return ("not", self.predicate(self.primary_predicate()))
        return self.comparison()

    def primary_predicate(self) -> tuple:
        if self.word() == "exists":
            return self.unary()
        self.expect("(")
        node = self.predicate(self.disjunction())
        self.expect(")")
        return self.is_unknown(node)

    def is_unknown(self, node: tuple) -> tuple:
        if self.word() == "is" and self.word(1) == "unknown":
            self.i += 2
            return ("unknown", self.predicate(node))
        return node

    def comparison(self) -> tuple:
        left = self.additive()
        op = self.op()
        if op in _COMPARISONS:
            self.take()
            return ("cmp", "!=" if op == "<>" else op, self.operand(left), self.operand(self.additive()))
        if self.word() == "starts" and self.word(1) == "with":
            self.i += 2
            kind, text = self.take()
            if kind == "string":
                initial = ("literal", _unquote(text))
            elif kind == "var" and len(text) > 1:
                initial = ("var", _unquote(text[1:]) if text[1] == '"' else text[1:])
            else:
                raise _syntax(text)
            return ("starts", self.operand(left), initial)
        if self.word() == "like_regex":
            self.take()
            kind, text = self.take()
            if kind != "string":
                raise _syntax(text)
            flags = ""
            if self.word() == "flag":
                self.take()
                kind, ftext = self.take()
                if kind != "string":
                    raise _syntax(ftext)
                flags = _unquote(ftext)
            return ("like", self.operand(left), _regex(_unquote(text), flags))
        return left

    def operand(self, node: tuple) -> tuple:
        if node[0] in _PREDICATES:
            self.fail()
        return node

    def additive(self) -> tuple:
        return self.chain(dict.fromkeys(("+", "-"), "arith"), self.multiplicative, self.operand)

    def multiplicative(self) -> tuple:
        return self.chain(dict.fromkeys(("*", "/", "%"), "arith"), self.unary, self.operand)

    def unary(self) -> tuple:
        if self.op() in ("+", "-"):
            op = self.take()[1]
            return ("unary", op, self.operand(self.unary()))
        return self.accessors(self.primary())

    def primary(self) -> tuple:
        kind, text = self.take()
        if kind == "op":
            if text == "$":
                return ("root",)
            if text == "@":
                if not self.filters:
                    raise JsonError("42601", "@ is not allowed in root expressions")
                return ("current",)
            if text == "(":
                node = self.disjunction()
                self.expect(")")
                return self.is_unknown(node)
        elif kind == "var":
            if text == "$":
                return ("root",)
            return ("var", _unquote(text[1:]) if text[1] == '"' else text[1:])
        elif kind == "number":
            return ("literal", _number(text))
        elif kind == "string":
            return ("literal", _unquote(text))
        elif kind == "word":
            w = text.lower()
            if w in ("true", "false"):
                return ("literal", w == "true")
            if w == "null":
                return ("literal", None)
            if w == "last":
                if not self.subscripts:
                    raise JsonError("42601", "LAST is allowed only in array subscripts")
                return ("last",)
            if w == "exists":
                self.expect("(")
                node = self.operand(self.disjunction())
                self.expect(")")
                return ("exists", node)
        raise _syntax(text)

    def accessors(self, node: tuple) -> tuple:
        steps = []
        while True:
            op = self.op()
            if op == ".":
                self.take()
                steps.append(self.member())
            elif op == "[":
                self.take()
                steps.append(self.subscripts_of())
            elif op == "?":
                self.take()
                self.expect("(")
                self.filters += 1
                pred = self.predicate(self.disjunction())
                self.filters -= 1
                self.expect(")")
                steps.append(("filter", pred))
            else:
                break
        if not steps:
            return node
        return ("path", node, tuple(steps))

    def member(self) -> tuple:
        kind, text = self.take()
        if kind == "op" and text == "*":
            return ("anykey",)
        if kind == "op" and text == "**":
            return self.any_levels()
        if kind == "string":
            return ("key", _unquote(text))
        if kind == "word":
            if self.op() == "(":
                name = text.lower()
                if name not in _METHODS:
                    raise _syntax("(")
                self.take()
                if name == "datetime" and self.peek() is not None and self.peek()[0] == "string":
                    self.take()
                self.expect(")")
                return ("method", name)
            return ("key", text)
        raise _syntax(text)

    def any_levels(self) -> tuple:
        if self.op() != "{":
            return ("any", 0, _LAST_LEVEL)
        self.take()
        first = last = self.level()
        if self.word() == "to":
            self.take()
            last = self.level()
        self.expect("}")
        return ("any", first, last)

    def level(self) -> int:
        kind, text = self.take()
        if kind == "word" and text.lower() == "last":
            return _LAST_LEVEL
        if kind == "number" and text.isdigit():
            return int(text)
        raise _syntax(text)

    def subscripts_of(self) -> tuple:
        if self.op() == "*":
            self.take()
            self.expect("]")
            return ("anyarray",)
        self.subscripts += 1
        items = []
        while True:
            start = self.operand(self.additive())
            end = None
            if self.word() == "to":
                self.take()
                end = self.operand(self.additive())
            items.append((start, end))
            if self.op() == ",":
                self.take()
                continue
            break
        self.subscripts -= 1
        self.expect("]")
        return ("index", tuple(items))


def _number(text: str):
    """A numeric literal as numeric reads it: ``1e3`` is 1000, ``1.50`` keeps its scale."""
    d = Decimal(text)
    return int(d) if d.as_tuple().exponent >= 0 else d


@dataclass(frozen=True)
class _Regex:
    pattern: re.Pattern


def _regex(pattern: str, flags: str) -> _Regex:
    options, literal = 0, False  # PostgreSQL's default here: . does not match a newline, ^ and $ only the ends
    for f in flags:
        if f == "i":
            options |= re.IGNORECASE
        elif f == "s":
            options |= re.DOTALL
        elif f == "m":
            options |= re.MULTILINE
        elif f == "q":
            literal = True
        elif f == "x":
            raise JsonError("0A000", 'XQuery "x" flag (expanded regular expressions) is not implemented')
        else:
            raise JsonError("42601", "invalid input syntax for type jsonpath",
                            f'Unrecognized flag character "{f}" in LIKE_REGEX predicate.')
    try:
        return _Regex(re.compile(re.escape(pattern) if literal else pattern, options))
    except re.error as e:
        raise JsonError("2201B", f"invalid regular expression: {e}") from None


@functools.lru_cache(maxsize=1024)
def parse(text: str) -> tuple[bool, tuple]:
    """(lax, tree) of a path's text (42601 when PostgreSQL would refuse it)."""
    return _Parser(text).top()


# -- evaluation ------------------------------------------------------------------

_TRUE, _FALSE, _UNKNOWN = True, False, None


class _Context:
    def __init__(self, lax: bool, root, variables: dict | None):
        self.lax = lax
        self.root = root
        self.variables = variables  # None: the operators' (every variable is null)


def _type_name(v) -> str:
    if v is None:
        return "null"
    if v is True or v is False:
        return "boolean"
    if isinstance(v, str):
        return "string"
    if isinstance(v, (int, Decimal)):
        return "number"
    return "array" if isinstance(v, list) else "object"


def _is_number(v) -> bool:
    return isinstance(v, (int, Decimal)) and not isinstance(v, bool)


def _text(v) -> str:
    return format(v, "f") if isinstance(v, Decimal) else str(v)


class _Eval:
    def __init__(self, ctx: _Context):
        self.ctx = ctx

    # expressions: each yields the items it gives for the current item `at`
    def items(self, node: tuple, at, quiet: bool, size: int | None = None, probe: bool = False) -> Iterator:
        """(``probe``: only whether there are items is asked, as PostgreSQL's
        exists in lax mode asks; a unary operator then skips non-numbers)"""
        kind = node[0]
        if kind == "root":
            yield self.ctx.root
        elif kind == "current":
            yield at
        elif kind == "literal":
            yield node[1]
        elif kind == "var":
            if self.ctx.variables is None:  # the operators pass no vars: every variable is null, as in PostgreSQL
                yield None
                return
            if node[1] not in self.ctx.variables:
                raise VariableError("42704", f'could not find jsonpath variable "{node[1]}"')
            yield self.ctx.variables[node[1]]
        elif kind == "last":
            if size is None:
                raise PathError("22033", "evaluating jsonpath LAST outside of array subscript")
            yield size - 1
        elif kind == "path":
            yield from self.steps(node[2], 0, node[1], at, quiet, size)
        elif kind == "arith":
            yield self.arithmetic(node, at, quiet, size)
        elif kind == "unary":
            yield from self.negated(node, at, quiet, size, probe)
        else:  # a predicate as a value: true, false or null (unknown)
            yield self.truth(node, at, quiet)

    def steps(self, steps: tuple, i: int, primary: tuple, at, quiet: bool, size: int | None) -> Iterator:
        for v in self.items(primary, at, quiet, size):
            yield from self.chain(steps, i, v, at, quiet)

    def chain(self, steps: tuple, i: int, v, at, quiet: bool) -> Iterator:
        """The items ``steps[i:]`` give for ``v`` (``at``: the filter's current item, ``@``)."""
        if i == len(steps):
            yield v
            return
        step = steps[i]
        if step[0] == "any":
            yield from self.any_levels(steps, i, v, at, quiet)
            return
        for out in self.step(step, v, at, self.ctx.lax, quiet):
            yield from self.chain(steps, i + 1, out, at, quiet)

    def structural(self, quiet: bool, sqlstate: str, message: str) -> None:
        """A structural error: nothing in lax mode (or under .**), else raised."""
        if not (quiet or self.ctx.lax):
            raise PathError(sqlstate, message)

    def step(self, step: tuple, v, at, unwrap: bool, quiet: bool) -> Iterator:
        kind = step[0]
        if kind in ("key", "anykey", "filter") or kind == "method" and step[1] not in ("type", "size"):
            if unwrap and isinstance(v, list):
                for e in v:
                    yield from self.step(step, e, at, False, quiet)
                return
        if kind == "key":
            if isinstance(v, dict):
                if step[1] in v:
                    yield v[step[1]]
                else:
                    self.structural(quiet, "2203A", f'JSON object does not contain key "{step[1]}"')
            else:
                self.structural(quiet, "2203A", "jsonpath member accessor can only be applied to an object")
        elif kind == "anykey":
            if isinstance(v, dict):
                yield from v.values()
            else:
                self.structural(quiet, "2203C", "jsonpath wildcard member accessor can only be applied to an object")
        elif kind == "anyarray":
            if isinstance(v, list):
                yield from v
            elif self.ctx.lax:
                yield v
            else:
                self.structural(quiet, "22039", "jsonpath wildcard array accessor can only be applied to an array")
        elif kind == "index":
            yield from self.subscripted(step[1], v, at, quiet)
        elif kind == "filter":
            if self.truth(step[1], v, quiet) is _TRUE:
                yield v
        else:
            yield from self.method(step[1], v, quiet)

    def subscripted(self, subscripts: tuple, v, at, quiet: bool) -> Iterator:
        if not isinstance(v, list) and not self.ctx.lax:
            self.structural(quiet, "22039", "jsonpath array accessor can only be applied to an array")
            return
        elements = v if isinstance(v, list) else [v]
        size = len(elements)
        for start, end in subscripts:
            lo = self.subscript(start, at, quiet, size)
            hi = lo if end is None else self.subscript(end, at, quiet, size)
            if lo < 0 or lo > hi or hi >= size:
                self.structural(quiet, "22033", "jsonpath array subscript is out of bounds")
            yield from elements[max(lo, 0):min(hi, size - 1) + 1]

    def subscript(self, node: tuple, at, quiet: bool, size: int) -> int:
        found = list(self.items(node, at, quiet, size))
        if len(found) != 1 or not _is_number(found[0]):
            raise PathError("22033", "jsonpath array subscript is not a single numeric value")
        n = int(found[0])  # toward zero, as numeric's trunc
        if not -(1 << 31) <= n < (1 << 31):
            raise PathError("22033", "jsonpath array subscript is out of integer range")
        return n

    def any_levels(self, steps: tuple, i: int, v, at, quiet: bool) -> Iterator:
        """``.**{first to last}``: the item (level 0) and its descendants,
        each in turn before its own; structural errors after it are nothing."""
        _any, first, last = steps[i]
        if first == 0:
            yield from self.chain(steps, i + 1, v, at, True)
        if isinstance(v, (list, dict)):
            yield from self.descend(steps, i, v, at, 1, first, last)

    def descend(self, steps: tuple, i: int, container, at, level: int, first: int, last: int) -> Iterator:
        leaves_only = first == last == _LAST_LEVEL
        for child in (container.values() if isinstance(container, dict) else container):
            nested = isinstance(child, (list, dict))
            if level >= first or leaves_only and not nested:
                yield from self.chain(steps, i + 1, child, at, True)
            if level < last and nested:
                yield from self.descend(steps, i, child, at, level + 1, first, last)

    def method(self, name: str, v, quiet: bool) -> Iterator:
        if name == "type":
            yield _type_name(v)
        elif name == "size":
            if isinstance(v, list):
                yield len(v)
            elif self.ctx.lax:
                yield 1
            else:
                self.structural(quiet, "22039", "jsonpath item method .size() can only be applied to an array")
        elif name in ("abs", "floor", "ceiling"):
            if not _is_number(v):
                raise PathError("22036", f"jsonpath item method .{name}() can only be applied to a numeric value")
            if isinstance(v, int):
                yield abs(v) if name == "abs" else v
            else:
                r = abs(v) if name == "abs" else v.to_integral_value(decimal.ROUND_FLOOR if name == "floor" else decimal.ROUND_CEILING)
                yield int(r) if name != "abs" else r
        elif name == "double":
            yield self.double(v)
        elif name == "keyvalue":
            if not isinstance(v, dict):
                raise PathError("2203C", "jsonpath item method .keyvalue() can only be applied to an object")
            if v is not self.ctx.root:
                raise JsonError("0A000", "keyvalue() of an object inside the document is not supported")
            for k, x in v.items():
                yield {"id": 0, "key": k, "value": x}
        else:
            raise JsonError("0A000", f"jsonpath item method .{name}() is not supported")

    def double(self, v):
        if _is_number(v):
            try:
                f = float(v)
            except OverflowError:
                f = float("inf")
            if f != f or f in (float("inf"), float("-inf")):
                raise PathError("22036", "numeric argument of jsonpath item method .double() is out of range for type double precision")
            return v  # as it is: a numeric in range is kept, its scale too
        elif isinstance(v, str):
            try:
                f = float(v.strip())
            except ValueError:
                f = float("nan")
            if f != f or f in (float("inf"), float("-inf")):
                raise PathError("22036", "string argument of jsonpath item method .double() is not a valid representation "
                                         "of a double precision number")
        else:
            raise PathError("22036", "jsonpath item method .double() can only be applied to a string or numeric value")
        return _number(format(Decimal(format(f, ".15g")), "f"))

    def unwrapped(self, node: tuple, at, quiet: bool, size: int | None) -> list:
        """Every item of ``node``, an array among them replaced by its elements in lax mode."""
        out = []
        for v in self.items(node, at, quiet, size):
            if self.ctx.lax and isinstance(v, list):
                out.extend(v)
            else:
                out.append(v)
        return out

    def arithmetic(self, node: tuple, at, quiet: bool, size: int | None):
        _arith, op, left, right = node
        a, b = self.unwrapped(left, at, quiet, size), self.unwrapped(right, at, quiet, size)
        if len(a) != 1 or not _is_number(a[0]):
            raise PathError("22038", f"left operand of jsonpath operator {op} is not a single numeric value")
        if len(b) != 1 or not _is_number(b[0]):
            raise PathError("22038", f"right operand of jsonpath operator {op} is not a single numeric value")
        fn = {"+": numeric_add, "-": numeric_sub, "*": numeric_mul, "/": numeric_div, "%": numeric_mod}[op]
        try:
            return _number(fn(_text(a[0]), _text(b[0])))
        except udf.FunctionError as e:
            raise PathError(e.sqlstate, e.message) from None

    def negated(self, node: tuple, at, quiet: bool, size: int | None, probe: bool) -> Iterator:
        _unary, op, operand = node
        for v in self.unwrapped(operand, at, quiet, size):
            if not _is_number(v) and probe:
                continue
            if not _is_number(v):
                raise PathError("2203B", f"operand of unary jsonpath operator {op} is not a numeric value")
            yield -v if op == "-" else v

    # predicates: True, False or None (unknown)
    def truth(self, node: tuple, at, quiet: bool):
        kind = node[0]
        if kind == "and":
            first = self.truth(node[1], at, quiet)
            if first is _FALSE:
                return _FALSE
            second = self.truth(node[2], at, quiet)
            return first if second is _TRUE else second
        if kind == "or":
            first = self.truth(node[1], at, quiet)
            if first is _TRUE:
                return _TRUE
            second = self.truth(node[2], at, quiet)
            return first if second is _FALSE else second
        if kind == "not":
            value = self.truth(node[1], at, quiet)
            return _UNKNOWN if value is _UNKNOWN else not value
        if kind == "unknown":
            return self.truth(node[1], at, quiet) is _UNKNOWN
        if kind == "exists":
            return self.exists(node[1], at, quiet)
        if kind == "cmp":
            return self.compared(node[2], node[3], at, quiet, lambda a, b: _compare(node[1], a, b), True)
        if kind == "starts":
            return self.compared(node[1], node[2], at, quiet, _starts_with, False)
        if kind == "like":
            return self.compared(node[1], None, at, quiet, lambda a, _b: _like(node[2], a), False)
        raise AssertionError(f"not a predicate: {kind}")

    def exists(self, node: tuple, at, quiet: bool):
        try:
            if self.ctx.lax:
                return next(iter(self.items(node, at, quiet, probe=True)), _MISSING) is not _MISSING
            return bool(list(self.items(node, at, quiet)))
        except PathError:
            return _UNKNOWN

    def compared(self, left: tuple, right: tuple | None, at, quiet: bool, test, unwrap_right: bool):
        try:
            lefts = self.unwrapped(left, at, quiet, None)
            rights = [None] if right is None else (self.unwrapped(right, at, quiet, None) if unwrap_right
                                                    else list(self.items(right, at, quiet)))
        except PathError:
            return _UNKNOWN
        found = error = False
        for a in lefts:
            for b in rights:
                r = test(a, b)
                if r is _UNKNOWN:
                    if not self.ctx.lax:
                        return _UNKNOWN
                    error = True
                elif r is _TRUE:
                    if self.ctx.lax:
                        return _TRUE
                    found = True
        if found:
            return _TRUE
        return _UNKNOWN if error else _FALSE


_MISSING = object()


def _compare(op: str, a, b):
    ta, tb = _type_name(a), _type_name(b)
    if ta != tb:
        if a is None or b is None:
            return op == "!="
        return _UNKNOWN
    if ta in ("array", "object"):
        return _UNKNOWN
    c = 0 if ta == "null" else (a > b) - (a < b)  # numbers numerically, strings by code point, false < true
    return {"==": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]


def _starts_with(a, b):
    if not isinstance(a, str) or not isinstance(b, str):
        return _UNKNOWN
    return a.startswith(b)


def _like(regex: _Regex, a):
    if not isinstance(a, str):
        return _UNKNOWN
    return regex.pattern.search(a) is not None


# -- the functions -----------------------------------------------------------------

def _run(doc: str, path: str, variables: str) -> tuple[_Eval, tuple, object]:
    lax, tree = parse(path)
    values = parse_json(variables) if variables != NO_VARIABLES else None
    if values is not None and not isinstance(values, dict):
        raise JsonError("22023", '"vars" argument is not an object',
                        "Jsonpath parameters should be encoded as key-value pairs of \"vars\" object.")
    root = parse_json(doc)
    return _Eval(_Context(lax, root, values)), tree, root


_FAILED = object()


def _silently(fn, silent: bool):
    """``fn()``, or _FAILED for an error a ``silent`` call hides."""
    try:
        return fn()
    except PathError:
        if silent:
            return _FAILED
        raise


def path_exists(doc: str, path: str, variables: str, silent: bool) -> bool | None:
    ev, tree, root = _run(doc, path, variables)
    if ev.ctx.lax:  # the first item answers, as PostgreSQL stops there; strict mode looks for errors in every one
        found = _silently(lambda: next(iter(ev.items(tree, root, False, probe=True)), _MISSING) is not _MISSING, silent)
    else:
        found = _silently(lambda: bool(list(ev.items(tree, root, False))), silent)
    return None if found is _FAILED else found


def path_match(doc: str, path: str, variables: str, silent: bool) -> bool | None:
    ev, tree, root = _run(doc, path, variables)
    found = _silently(lambda: list(ev.items(tree, root, False)), silent)
    if found is not _FAILED and len(found) == 1 and (found[0] is None or found[0] is True or found[0] is False):
        return found[0]
    if not silent:
        raise JsonError("22038", "single boolean result is expected")
    return None


def path_query(doc: str, path: str, variables: str, silent: bool) -> list[str]:
    ev, tree, root = _run(doc, path, variables)
    found = _silently(lambda: list(ev.items(tree, root, False)), silent)
    return [] if found is _FAILED else [dump(v) for v in found]


def path_query_array(doc: str, path: str, variables: str, silent: bool) -> str | None:
    ev, tree, root = _run(doc, path, variables)
    found = _silently(lambda: list(ev.items(tree, root, False)), silent)
    return None if found is _FAILED else dump(found)


def path_query_first(doc: str, path: str, variables: str, silent: bool) -> str | None:
    ev, tree, root = _run(doc, path, variables)
    found = _silently(lambda: next(iter(ev.items(tree, root, False)), _MISSING), silent)
    return None if found is _FAILED or found is _MISSING else dump(found)


_ARGS = ["VARCHAR", "VARCHAR", "VARCHAR", "BOOLEAN"]
#: DuckDB name -> (function, parameter types, return type)
FUNCTIONS = {
    "txngate_jsonb_path_exists": (path_exists, _ARGS, "BOOLEAN"),
    "txngate_jsonb_path_match": (path_match, _ARGS, "BOOLEAN"),
    "txngate_jsonb_path_query": (path_query, _ARGS, "VARCHAR[]"),
    "txngate_jsonb_path_query_array": (path_query_array, _ARGS, "JSON"),
    "txngate_jsonb_path_query_first": (path_query_first, _ARGS, "JSON"),
}


def register(con) -> None:
    """Create the ``txngate_jsonb_path_*`` functions on a DuckDB connection."""
    udf.register(con, FUNCTIONS)
