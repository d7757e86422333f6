"""SQL type names: from pglast type nodes to txngate's canonical names (the
way back, from Arrow result types to SQL names, is ``values.of_arrow``).

Canonical names are what ``storage.persist.field_for`` accepts:
``smallint``, ``integer``, ``bigint``, ``real``, ``double precision``,
``numeric(p,s)``, ``boolean``, ``text``, ``varchar(n)``, ``char(n)``,
``date``, ``timestamp``, ``timestamptz``, ``time``, ``interval``, ``bytea``,
``uuid``, ``json``, ``jsonb``, ``enum(<oid>)`` (a type CREATE TYPE ... AS
ENUM made: ``catalog.EnumType``, stored as text), ``composite(<oid>)`` (a
type CREATE TYPE ... AS (...) made: ``catalog.CompositeType``, computed as
a STRUCT, never stored), and ``t[]`` (a one-dimensional array of any of
them). A domain's name reads as its base type (``catalog.DomainType``: a
cast to it checks its constraints, planner.bind).

The name of a type CREATE TYPE or CREATE DOMAIN made is resolved in the
catalog the running statement reads (``TYPE_SCOPE``: ``Work.catalog`` sets
it), in its schema or the statement's search_path (``TYPE_SEARCH_PATH``:
the session sets it).

Array literals (``'{1,NULL,"a b"}'::integer[]``) are PostgreSQL text that
DuckDB cannot cast; ``typed_literal`` rewrites one into
``ARRAY['1', NULL, 'a b']::integer[]``, which both engines evaluate.
"""

from __future__ import annotations

import datetime as dt
from contextvars import ContextVar
from functools import lru_cache

import pglast
import pyarrow as pa
from pglast import ast

from planner.catalog import DomainType
from planner.parse import copy_tree
from planner.errors import INVALID_PARAMETER_VALUE, NUMERIC_VALUE_OUT_OF_RANGE, SYNTAX_ERROR, UNDEFINED_OBJECT, SqlError, not_supported
from values import (CATALOG_TYPES, INTEGER_RANGES, STORED_PLACES, TOO_MANY_PLACES, ArrayLiteralError, abbreviation, boolean_input, datetime_text,
                    float_input, integer_input, interval_text, numeric_input, parse_array, time_text)

#: the catalog the running statement reads, where type names CREATE TYPE made are found
TYPE_SCOPE: ContextVar = ContextVar("txngate_type_scope", default=None)
#: the running statement's search_path, in which an unqualified type name is found
TYPE_SEARCH_PATH: ContextVar = ContextVar("txngate_type_search_path", default=("public",))


def made_type(names: list[str]):
    """The type CREATE TYPE or CREATE DOMAIN made that a (qualified) type
    name names in the running statement's catalog and search_path, else None."""
    catalog = TYPE_SCOPE.get()
    if catalog is None or len(names) > 2 or builtin_type_name(names[-1].lower()):
        return None
    return catalog.type_named(names[-1], names[0] if len(names) == 2 else None, TYPE_SEARCH_PATH.get())


def enum_type(sql_type: str):
    """The ``catalog.EnumType`` a canonical ``enum(<oid>)`` names in the
    running statement's catalog, else None (not an enum, or none in scope)."""
    catalog = TYPE_SCOPE.get()
    return catalog.enum_of(sql_type) if catalog is not None and sql_type.startswith("enum(") else None


def is_enum(sql_type: str | None) -> bool:
    return sql_type is not None and sql_type.startswith("enum(")


def composite_type(sql_type: str):
    """The ``catalog.CompositeType`` a canonical ``composite(<oid>)`` names
    in the running statement's catalog, else None."""
    catalog = TYPE_SCOPE.get()
    return catalog.composite_of(sql_type) if catalog is not None and is_composite(sql_type) else None


def is_composite(sql_type: str | None) -> bool:
    return sql_type is not None and sql_type.startswith("composite(")


def domain_of(sql_type: str):
    """The ``catalog.DomainType`` a ``domain(<oid>)`` names (a composite
    type's field of a domain keeps the domain: a cast to the field checks
    it), else None."""
    catalog = TYPE_SCOPE.get()
    if catalog is None or not sql_type.startswith("domain("):
        return None
    found = catalog.type_of_oid(int(sql_type[len("domain("):-1]))
    return found if isinstance(found, DomainType) else None


def domain_named(tn: ast.TypeName):
    """The ``catalog.DomainType`` a type name names in the running
    statement's catalog, else None."""
    found = made_type([n.sval for n in tn.names])
    return found if isinstance(found, DomainType) else None


def builtin_type_name(name: str) -> bool:
    """Whether a type name (pglast's last name part) is one of PostgreSQL's
    own, which no CREATE TYPE in scope can stand for here (so a cast to one
    looks nothing up in the catalog)."""
    return name in _ALIASES or name in SERIALS or name in CATALOG_TYPES or name in _OTHER_BUILTIN_NAMES


_ALIASES = {
    "int2": "smallint", "smallint": "smallint",
    "int4": "integer", "int": "integer", "integer": "integer",
    "int8": "bigint", "bigint": "bigint",
    "float4": "real", "real": "real",
    "float8": "double precision", "double precision": "double precision", "float": "double precision",
    "bool": "boolean", "boolean": "boolean",
    "text": "text", "date": "date", "time": "time", "interval": "interval", "bytea": "bytea",
    "uuid": "uuid", "json": "json", "jsonb": "jsonb",
    "timestamp": "timestamp", "timestamptz": "timestamptz",
}



def _typmods(tn: ast.TypeName) -> list[int]:
    mods = []
    for m in tn.typmods or ():
        if isinstance(m, ast.A_Const) and isinstance(m.val, ast.Integer):
            mods.append(m.val.ival)
        else:
            raise SqlError("22023", "type modifiers must be simple constants")
    return mods


def canonical(tn: ast.TypeName, *, array_ok: bool = False) -> str:
    """The canonical SQL type name of a pglast TypeName (``x[]`` for an
    array when ``array_ok``)."""
    names = [n.sval for n in tn.names]
    name = names[-1].lower()
    if tn.arrayBounds:
        if not array_ok:
            raise not_supported("arrays here")
        # int[][] is int[], as in PostgreSQL, whose arrays of a type are one type whatever their dimensions
        # (declared ones are not enforced); a value of more than one is refused where it is read (_array_elements)
        element = canonical(ast.TypeName(names=tn.names, typmods=tn.typmods, typemod=-1))
        if is_enum(element):
            raise not_supported("arrays of enum types")
        if element.endswith("[]"):  # (a domain over an array: of one dimension, as any array)
            return element
        return element + "[]"
    if name in CATALOG_TYPES:
        return "oid" if name == "oid" else CATALOG_TYPES[name]
    mods = _typmods(tn)
    if name == "numeric" or name == "decimal":
        if not mods:
            return "numeric"
        precision, scale = mods[0], mods[1] if len(mods) > 1 else 0
        if not 1 <= precision <= 1000:
            raise SqlError(INVALID_PARAMETER_VALUE, f"NUMERIC precision {precision} must be between 1 and 1000")
        if not 0 <= scale <= min(precision, 38):
            raise not_supported(f"numeric({precision},{scale}): a scale beyond the precision, negative or over 38")
        return f"numeric({precision},{scale})"
    if name in ("varchar", "character varying"):
        return f"varchar({mods[0]})" if mods else "varchar"
    if name in ("bpchar", "char", "character"):
        return f"char({mods[0] if mods else 1})"
    if name == "timetz":
        raise not_supported("type time with time zone")
    if name in BIT_TYPES:
        raise not_supported(f"type {name}")
    canon = _ALIASES.get(name) or SERIALS.get(name)
    if canon is None and (made := made_type(names)) is not None:
        canon = made.base if isinstance(made, DomainType) else made.sql_type  # (a domain's values are its base type's)
    if canon is None:
        raise SqlError(UNDEFINED_OBJECT, f'type "{".".join(names[-1:])}" does not exist')
    return canon


#: built-in type names canonical() reads beside the aliases (those with type modifiers, the refused ones)
_OTHER_BUILTIN_NAMES = frozenset({"numeric", "decimal", "varchar", "character varying", "bpchar", "char", "character", "timetz",
                                  "bit", "varbit", "int2", "int4", "int8", "float4", "float8"})

#: PostgreSQL's bit strings (bit(n), bit varying), which the engine has no type for
BIT_TYPES = ("bit", "varbit")

#: the types whose values keep a number of fraction-of-second digits (a typmod)
FRACTION_TYPES = ("timestamp", "timestamptz", "time")


def fraction_precision(tn: ast.TypeName) -> int | None:
    """The fraction-of-second digits a timestamp, timestamptz or time type
    keeps (``timestamp(2)``: 2; above 6, 6, as PostgreSQL warns and does),
    None when it says none (all six kept)."""
    if tn.arrayBounds or not tn.typmods or _ALIASES.get(tn.names[-1].sval.lower()) not in FRACTION_TYPES:
        return None
    mods = _typmods(tn)
    if len(mods) != 1:
        raise SqlError(SYNTAX_ERROR, "invalid type modifier")
    if mods[0] < 0:
        shown = {"timestamp": "TIMESTAMP", "timestamptz": "TIMESTAMP", "time": "TIME"}[_ALIASES[tn.names[-1].sval.lower()]]
        raise SqlError(INVALID_PARAMETER_VALUE, f"{shown}({mods[0]}) precision must not be negative")
    return min(mods[0], 6)


#: the integer types, narrowest first (their ranges: ``values.INTEGER_RANGES``)
INTEGER_TYPES = tuple(INTEGER_RANGES)


#: PostgreSQL's spellings of the integer types -> the canonical names
INTEGER_NAMES = {"int2": "smallint", "smallint": "smallint", "int4": "integer", "int": "integer", "integer": "integer",
                 "int8": "bigint", "bigint": "bigint"}


#: PostgreSQL's special date/time input words that DuckDB reads otherwise (or not at all), as expressions
_SPECIAL_TIMES = {"now": "now()", "today": "current_date", "tomorrow": "current_date + 1", "yesterday": "current_date - 1"}
_DATETIMES = ("date", "timestamp", "timestamptz")


def special_datetime(text: str, sql_type: str) -> ast.Node | None:
    """``'now'``, ``'today'``, ``'tomorrow'``, ``'yesterday'`` given to a
    date or timestamp, as the expression PostgreSQL evaluates them to (at
    the statement's time); None for other text."""
    words = text.lower().split()
    word = _SPECIAL_TIMES.get(words[0]) if words else None
    if word is None or sql_type not in _DATETIMES or len(words) > 2 or len(words) == 2 and (not isinstance(abbreviation(words[1]), dt.timedelta) or words[0] == "now"):
        return None
    if len(words) == 2 and sql_type == "timestamptz":  # 'tomorrow EST': that day's midnight in EST
        offset = int(abbreviation(words[1]).total_seconds()) // 60
        zone_text = f"{'+' if offset >= 0 else '-'}{abs(offset) // 60:02d}:{abs(offset) % 60:02d}"
        word = f"CAST(CAST({word} AS text) || ' 00:00:00{zone_text}' AS timestamptz)"
    return pglast.parse_sql(f"SELECT CAST({word} AS {sql_type})")[0].stmt.targetList[0].val  # a zone leaves a timestamp's as it is


FLOAT_NAMES = {"float8": "double precision", "float4": "real", "double precision": "double precision", "real": "real", "float": "double precision"}


def integer_fits(value, sql_type: str) -> bool:
    """Whether ``value`` is a Python int (not a bool) the integer type ``sql_type`` holds."""
    lo, hi = INTEGER_RANGES[sql_type]
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


DUCKDB_TYPES = {
    "smallint": "SMALLINT", "integer": "INTEGER", "bigint": "BIGINT", "real": "REAL",
    "double precision": "DOUBLE", "boolean": "BOOLEAN", "text": "VARCHAR", "date": "DATE",
    "timestamp": "TIMESTAMP", "timestamptz": "TIMESTAMPTZ", "time": "TIME", "interval": "INTERVAL",
    "bytea": "BLOB", "json": "VARCHAR", "jsonb": "VARCHAR", "uuid": "UUID", "oid": "UINTEGER",
}

SERIALS = {"serial": "integer", "serial4": "integer", "bigserial": "bigint", "serial8": "bigint", "smallserial": "smallint", "serial2": "smallint"}


#: a number's text with a non-zero digit past the ones stored (a regular expression)
LOST_PLACES = f"[.][0-9]{{{STORED_PLACES}}}0*[1-9]"


def stored_cast(expr: str, sql_type: str) -> str:
    """DuckDB SQL casting ``expr`` to the type a ``sql_type`` column stores,
    refusing (22003) a value an unconstrained numeric would keep rounded
    (``txngate_stored_numeric``, a macro of planner.pgcatalog) and giving
    a float's numeric as PostgreSQL's (its digits' text rounded)."""
    if sql_type == "numeric":
        return f"txngate_stored_numeric({expr})"
    if sql_type.startswith("numeric("):  # a double's is its 15 significant digits rounded, a real's 6 (DuckDB rounded its binary fraction)
        exact = f"CAST(txngate_numeric_input(txngate_numeric_source({expr}), -1) AS {duckdb_type(sql_type)})"
        return f"CASE WHEN typeof({expr}) IN ('DOUBLE', 'FLOAT') THEN {exact} ELSE CAST({expr} AS {duckdb_type(sql_type)}) END"
    if sql_type == "text" or sql_type.startswith("varchar") and not sql_type.endswith("[]"):  # a value's text as PostgreSQL's (an unconstrained numeric's: 1.5)
        return f"CAST(txngate_cast_text({expr}) AS {duckdb_type(sql_type)})"
    return f"CAST({expr} AS {duckdb_type(sql_type)})"


def spark_stored_numeric(expr: str) -> str:
    """PostgreSQL SQL for Spark casting ``expr`` to an unconstrained numeric,
    refusing (22003) what the cast would round (as ``stored_cast`` does
    locally): a digit past the 10 places in its text, or a value its
    double shows was changed (an exponent's places: '1e-12')."""
    cast = f"CAST(({expr}) AS numeric(38,{STORED_PLACES}))"  # (Spark compares a decimal with the cast's scale, so its text and double)
    lost = f"CAST(({expr}) AS text) ~ '{LOST_PLACES}' OR CAST({cast} AS double precision) <> CAST(({expr}) AS double precision)"
    return f"CASE WHEN {lost} THEN CAST({spark_raise(NUMERIC_VALUE_OUT_OF_RANGE, TOO_MANY_PLACES)} AS numeric(38,{STORED_PLACES})) ELSE {cast} END"


def spark_raise(state: str, message: str) -> str:
    """PostgreSQL SQL that fails on Spark with ``state`` and ``message`` (spark_exec.runtime reads them back)."""
    text = f"TXNGATE_SQLSTATE[{state}]: {message}".replace("'", "''")
    return f"raise_error('{text}')"


def duckdb_type(sql_type: str) -> str:
    """The DuckDB type a canonical SQL type is computed in."""
    if sql_type.endswith("[]"):
        return duckdb_type(sql_type[:-2]) + "[]"
    if sql_type in DUCKDB_TYPES:
        return DUCKDB_TYPES[sql_type]
    if sql_type.startswith("numeric") and "(" in sql_type:
        precision, _, scale = sql_type[len("numeric("):-1].partition(",")
        return f"DECIMAL({min(int(precision), 38)},{scale or 0})"  # a wider numeric is computed in DuckDB's 38 digits
    if sql_type.startswith("numeric"):
        return f"DECIMAL(38,{STORED_PLACES})"
    if sql_type.startswith(("varchar", "char", "enum(")):
        return "VARCHAR"
    if (domain := domain_of(sql_type)) is not None:
        return duckdb_type(domain.base)
    if (made := composite_type(sql_type)) is not None:
        return "STRUCT(" + ", ".join(f'"{f.replace(chr(34), chr(34) * 2)}" {duckdb_type(t)}' for f, t in made.fields) + ")"
    raise SqlError(UNDEFINED_OBJECT, f'type "{sql_type}" does not exist')


def type_name(sql_type: str) -> ast.TypeName:
    """A canonical SQL type as a pglast TypeName (a copy: callers rewrite it)."""
    if (made := composite_type(sql_type.removesuffix("[]")) or domain_of(sql_type.removesuffix("[]"))) is not None:  # its name
        return ast.TypeName(names=(ast.String(sval=made.schema), ast.String(sval=made.name)), typemod=-1,
                            arrayBounds=(ast.Integer(ival=-1),) if sql_type.endswith("[]") else None)
    return copy_tree(_parsed_type_name(sql_type))


@lru_cache(maxsize=256)
def _parsed_type_name(sql_type: str) -> ast.TypeName:
    if is_enum(sql_type.removesuffix("[]")):
        sql_type = "text" + "[]" * sql_type.endswith("[]")  # an enum is computed as its labels' text
    return pglast.parse_sql(f"SELECT NULL::{sql_type}")[0].stmt.targetList[0].val.typeName


def _array_elements(text: str, *, nested: bool = False) -> list:
    try:
        return parse_array(text, nested=nested)
    except ArrayLiteralError as e:
        if e.nested:
            raise not_supported("multidimensional arrays") from None
        raise SqlError("22P02", str(e), detail=e.detail) from None


def array_texts(column) -> pa.Array:
    """A column of array literals as lists of their elements' texts."""
    return pa.array([None if v is None else _array_elements(v) for v in column.to_pylist()], pa.list_(pa.string()))



def typed_literal(node: ast.Node, sql_type: str) -> ast.Node:
    """``node`` as a value of ``sql_type``: a string constant given to an
    array type becomes an ARRAY of its elements' texts cast to that type
    (22P02 if it is not an array literal); a string constant given to an
    integer type is checked as PostgreSQL reads it (``integer_input``) and
    cast from its plain decimal form; one given to a boolean is read with
    PostgreSQL's words; one given to a date, timestamp or interval is cast
    to it, as text DuckDB reads alike (a date in DateStyle's field order,
    ``values.date_input``; BC years, ``values.bc_input``; the free forms,
    ``values.datetimes``; intervals, ``values.interval_text``); anything else is
    unchanged."""
    if sql_type in INTEGER_RANGES and isinstance(node, ast.A_Const) and isinstance(node.val, ast.String):
        value = ast.A_Const(val=ast.String(sval=str(integer_input(node.val.sval, sql_type))))
        return ast.TypeCast(arg=value, typeName=type_name(sql_type))
    if sql_type in ("real", "double precision") and isinstance(node, ast.A_Const) and isinstance(node.val, ast.String):
        float_input(node.val.sval, sql_type)  # checked; DuckDB reads the text alike
        return node
    if sql_type == "boolean" and isinstance(node, ast.A_Const) and isinstance(node.val, ast.String):
        return ast.A_Const(val=ast.Boolean(boolval=boolean_input(node.val.sval)))
    if sql_type.startswith("numeric") and not sql_type.endswith("[]") and isinstance(node, ast.A_Const) and isinstance(node.val, ast.String):
        numeric_input(node.val.sval)  # checked (DuckDB took 1_000; PostgreSQL's NaN and infinity, which DuckDB's decimal lacks, are 0A000)
    if sql_type in _DATETIMES and isinstance(node, ast.A_Const) and isinstance(node.val, ast.String) \
            and (special := special_datetime(node.val.sval, sql_type)) is not None:
        return special
    if sql_type == "interval" and isinstance(node, ast.A_Const) and isinstance(node.val, ast.String):
        return ast.TypeCast(arg=ast.A_Const(val=ast.String(sval=interval_text(node.val.sval))), typeName=type_name("interval"))
    if sql_type == "time" and isinstance(node, ast.A_Const) and isinstance(node.val, ast.String):
        return ast.TypeCast(arg=ast.A_Const(val=ast.String(sval=time_text(node.val.sval))), typeName=type_name("time"))
    if sql_type in _DATETIMES and isinstance(node, ast.A_Const) and isinstance(node.val, ast.String):
        # always a typed value (text among the rows of one VALUES column would not unify with it)
        return ast.TypeCast(arg=ast.A_Const(val=ast.String(sval=datetime_text(node.val.sval, sql_type))), typeName=type_name(sql_type))
    if not (sql_type.endswith("[]") and isinstance(node, ast.A_Const) and isinstance(node.val, ast.String)):
        return node
    def array(values: list) -> ast.A_ArrayExpr:  # (a multidimensional literal: ARRAY[ARRAY[...], ...])
        return ast.A_ArrayExpr(elements=tuple(array(v) if isinstance(v, list) else element(v) for v in values))

    def element(v: str | None) -> ast.Node:
        if v is None:
            return ast.A_Const(isnull=True)
        if sql_type == "bytea[]" and v.startswith("\\x"):  # hex: DuckDB reads \x as one escaped byte
            return ast.FuncCall(funcname=(ast.String(sval="unhex"),), args=(ast.A_Const(val=ast.String(sval=v[2:])),))
        return ast.A_Const(val=ast.String(sval=v))

    values = _array_elements(node.val.sval, nested=True)
    depth, inner = 1, values
    while inner and isinstance(inner[0], list):
        depth, inner = depth + 1, inner[0]
    return ast.TypeCast(arg=array(values), typeName=type_name(sql_type + "[]" * (depth - 1)))
