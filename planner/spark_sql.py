"""Rewriting a bound PostgreSQL query for Spark SQL (sqlglot).

The binder hands over PostgreSQL text whose relations are already renamed
to internal names (``_r0``, ...) and whose views are separate statements;
``to_spark`` turns that into one Spark SQL statement:

* views become CTEs in front of the query's own (dependencies first), so
  sqlglot sees every relation's columns;
* parameters (``$1``) become literals (Spark's positional markers cannot be
  typed the way PostgreSQL types them);
* ``generate_series(a, b[, step])`` in FROM becomes a subquery over
  ``explode(sequence(...))`` with PostgreSQL's column name (sqlglot's own
  spelling of it is not valid Spark);
* repeated result column names get a suffix (Spark refuses them; the
  client sees the planner's names);
* types are annotated from the catalog so ``/`` between integers becomes
  Spark's integer division (``DIV``, truncating like PostgreSQL) instead of
  Spark's floating-point ``/``, and casts of fractions to integers round
  (as PostgreSQL does) instead of truncating; sqlglot already makes PostgreSQL's NULL
  ordering explicit.

A query sqlglot cannot qualify raises ``SparkRewriteError`` (the planner
then keeps it on the local engine, or reports 0A000 when Spark was forced).
"""

from __future__ import annotations

import datetime
import decimal

import sqlglot
from sqlglot import exp
from sqlglot.optimizer.annotate_types import annotate_types
from sqlglot.optimizer.qualify import qualify

from planner.catalog import Relation


class SparkRewriteError(Exception):
    pass


_FRACTIONAL_TYPES = {exp.DataType.Type.FLOAT, exp.DataType.Type.DOUBLE, exp.DataType.Type.DECIMAL}
_INTEGER_TYPES = {exp.DataType.Type.TINYINT, exp.DataType.Type.SMALLINT, exp.DataType.Type.INT, exp.DataType.Type.BIGINT}


def _sqlglot_type(sql_type: str) -> str:
    t = sql_type.lower()
    if t in ("uuid", "bytea"):
        return "bytea"
    if t.startswith(("varchar", "char")) or t in ("json", "jsonb"):
        return "text"
    return t


def schema_of(tables: dict[str, Relation]) -> dict[str, dict[str, str]]:
    return {name: {c.name: _sqlglot_type(c.type) for c in rel.columns} for name, rel in tables.items()}


def literal(value) -> exp.Expression:
    """A Spark literal for a parameter value."""
    if value is None:
        return exp.Null()
    if isinstance(value, bool):
        return exp.Boolean(this=value)
    if isinstance(value, int):
        return exp.Literal.number(value)
    if isinstance(value, float):
        return exp.cast(exp.Literal.string(repr(value)), "double")
    if isinstance(value, decimal.Decimal):
        return exp.cast(exp.Literal.string(str(value)), f"decimal(38, {max(0, -value.as_tuple().exponent)})")
    if isinstance(value, datetime.datetime):
        return exp.cast(exp.Literal.string(value.isoformat(sep=" ")), "timestamp" if value.tzinfo else "timestamp_ntz")
    if isinstance(value, datetime.date):
        return exp.cast(exp.Literal.string(value.isoformat()), "date")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return exp.Unhex(this=exp.Literal.string(bytes(value).hex()))
    return exp.Literal.string(str(value))


def _parse(sql: str) -> exp.Expression:
    try:
        return sqlglot.parse_one(sql, read="postgres")
    except sqlglot.errors.SqlglotError as e:
        raise SparkRewriteError(str(e).splitlines()[0]) from None


def _series(table: exp.Table) -> exp.Expression:
    gs = table.this
    alias = table.args.get("alias")
    column = "generate_series"
    name = "generate_series"
    if alias is not None:
        name = alias.name or name
        cols = alias.columns
        column = cols[0].name if cols else name
    args = [gs.args["start"], gs.args["end"]] + ([gs.args["step"]] if gs.args.get("step") else [])
    inner = exp.select(exp.alias_(exp.Explode(this=exp.func("sequence", *args)), column, quoted=True))
    return exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier(name, quoted=True)))


def _unique_names(tree: exp.Expression) -> None:
    """Give repeated result column names a suffix: Spark refuses a result
    with two columns of one name (the client sees the planner's names)."""
    select = tree
    while isinstance(select, exp.SetOperation):
        select = select.this
    if not isinstance(select, exp.Select):
        return
    seen: set[str] = set()
    for i, e in enumerate(select.expressions):
        name = e.alias_or_name
        if name in seen:
            e.replace(exp.alias_(e.unalias() if isinstance(e, exp.Alias) else e, f"{name}_{i}", quoted=True))
        seen.add(name)


def to_spark(sql: str, views: list[tuple[str, str]], tables: dict[str, Relation], params: list | None) -> str:
    """Spark SQL for the bound PostgreSQL query ``sql`` with ``views``
    (internal name, PostgreSQL text; dependencies first) over ``tables``."""
    tree = _parse(sql)
    if views:
        ctes = [exp.CTE(this=_parse(v), alias=exp.TableAlias(this=exp.to_identifier(name))) for name, v in views]
        own = tree.args.get("with_")
        if own is not None:
            own.set("expressions", ctes + list(own.expressions))
        else:
            tree.set("with_", exp.With(expressions=ctes))
    for node in list(tree.find_all(exp.Parameter, exp.Placeholder)):
        index = node.this.this if isinstance(node, exp.Parameter) and isinstance(node.this, exp.Literal) else None
        if index is None or not params or not 0 < int(index) <= len(params):
            raise SparkRewriteError(f"parameter {node.sql()} has no value")
        node.replace(literal(params[int(index) - 1]))
    for table in list(tree.find_all(exp.Table)):
        if isinstance(table.this, exp.ExplodingGenerateSeries):
            table.replace(_series(table))
    schema = schema_of(tables)
    try:
        tree = qualify(tree, schema=schema, dialect="postgres", validate_qualify_columns=False, quote_identifiers=True)
        tree = annotate_types(tree, schema=schema, dialect="postgres")
    except sqlglot.errors.SqlglotError as e:
        raise SparkRewriteError(str(e).splitlines()[0]) from None
    _unique_names(tree)
    for cast in list(tree.find_all(exp.Cast)):
        if cast.to.this == exp.DataType.Type.TIMESTAMP:
            cast.set("to", exp.DataType.build("timestamp_ntz", dialect="spark"))  # PostgreSQL's timestamp has no zone
        source = cast.this.type
        if cast.to.this in _INTEGER_TYPES and source is not None and source.this in _FRACTIONAL_TYPES:
            # PostgreSQL rounds (floats half to even); Spark's cast truncates
            rounding = "rint" if source.this in (exp.DataType.Type.FLOAT, exp.DataType.Type.DOUBLE) else "round"
            cast.set("this", exp.func(rounding, cast.this.copy()))
    for div in list(tree.find_all(exp.Div)):
        left, right = div.this.type, div.expression.type
        if left is not None and right is not None and left.this in _INTEGER_TYPES and right.this in _INTEGER_TYPES:
            div.replace(exp.IntDiv(this=div.this, expression=div.expression))
    try:
        return tree.sql(dialect="spark")
    except sqlglot.errors.SqlglotError as e:
        raise SparkRewriteError(str(e).splitlines()[0]) from None
