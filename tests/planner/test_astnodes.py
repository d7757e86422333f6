"""planner.astnodes' assignment builds the trees pglast's own does, node
for node and type for type, and coerces or refuses what it would."""

from __future__ import annotations

import os

import pglast
import pytest
from pglast import ast, enums, parser

from planner import astnodes
from tests.regress.sources import FILES, regress_dir


def _same(a, b, path: str = "") -> str | None:
    """Where two trees differ (a type, a length or a value), None when nowhere."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, ast.Node):
        return next((d for k in a.__slots__ if (d := _same(getattr(a, k), getattr(b, k), f"{path}.{k}"))), None)
    if isinstance(a, (tuple, list)):
        if len(a) != len(b):
            return f"{path}: {len(a)} vs {len(b)} items"
        return next((d for i, (x, y) in enumerate(zip(a, b)) if (d := _same(x, y, f"{path}[{i}]"))), None)
    return None if a == b else f"{path}: {a!r} vs {b!r}"


def _parsed_with(setattr_, statements):
    ast.Node.__setattr__ = setattr_
    try:
        out = []
        for sql in statements:
            try:
                out.append(pglast.parse_sql(sql))
            except parser.ParseError as e:
                out.append(str(e))
        return out
    finally:
        astnodes.install()


def test_regression_statements_parse_to_the_same_trees():
    statements = []
    for name in FILES:
        with open(os.path.join(regress_dir(), f"{name}.sql"), errors="replace") as f:
            try:
                statements += parser.split(f.read(), with_parser=False)
            except parser.ParseError:
                continue  # (a file whose psql commands or escapes do not lex: strings.sql)
    assert len(statements) > 5000
    theirs = _parsed_with(astnodes.original, statements)
    ours = _parsed_with(astnodes._setattr, statements)  # noqa: SLF001 - the assignment under test
    differences = [(sql[:80], d) for sql, a, b in zip(statements, theirs, ours) if (d := _same(a, b))]
    assert differences == []


@pytest.mark.parametrize("value", ["SETOP_UNION", 1, enums.SetOperation.SETOP_UNION, {"#": "SetOperation", "name": "SETOP_UNION"}])
def test_enum_values_are_coerced_as_pglast_does(value):
    node = ast.SelectStmt()
    node.op = value
    assert node.op is enums.SetOperation.SETOP_UNION


def test_wrong_values_are_refused_as_pglast_does():
    for attr, value in (("op", "NOT_AN_OPERATION"), ("limitCount", 3), ("intoClause", "x")):
        with pytest.raises(ValueError):
            setattr(ast.SelectStmt(), attr, value)
    child = ast.SelectStmt()
    child.intoClause = {"@": "IntoClause", "rel": {"@": "RangeVar", "relname": "t", "inh": True}}
    assert isinstance(child.intoClause, ast.IntoClause) and child.intoClause.rel.relname == "t"
    lists = ast.SelectStmt()
    lists.targetList = [ast.ResTarget(name="a")]
    assert isinstance(lists.targetList, tuple)
