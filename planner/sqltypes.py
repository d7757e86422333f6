"""SQL type names: from pglast type nodes to txngate's canonical names, and
from Arrow result types back to SQL names.

Canonical names are what ``storage.persist.codec.field_for`` accepts:
``smallint``, ``integer``, ``bigint``, ``real``, ``double precision``,
``numeric(p,s)``, ``boolean``, ``text``, ``varchar(n)``, ``char(n)``,
``date``, ``timestamp``, ``timestamptz``, ``time``, ``interval``, ``bytea``,
``uuid``, ``json``, ``jsonb``.
"""

from __future__ import annotations

import pyarrow as pa
from pglast import ast

from planner.errors import UNDEFINED_OBJECT, SqlError, not_supported
from storage.persist.codec import sql_type_of

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


def canonical(tn: ast.TypeName) -> str:
    """The canonical SQL type name of a pglast TypeName."""
    names = [n.sval for n in tn.names]
    name = names[-1].lower()
    if tn.arrayBounds:
        raise not_supported("array columns")
    mods = _typmods(tn)
    if name == "numeric" or name == "decimal":
        if not mods:
            return "numeric"
        return f"numeric({mods[0]},{mods[1] if len(mods) > 1 else 0})"
    if name in ("varchar", "character varying"):
        return f"varchar({mods[0]})" if mods else "text"
    if name in ("bpchar", "char", "character"):
        return f"char({mods[0] if mods else 1})"
    if name in ("timestamp", "timestamptz", "time") and mods:
        pass  # precision below microseconds is not kept; microseconds always are
    if name == "timetz":
        raise not_supported("type time with time zone")
    canon = _ALIASES.get(name) or SERIALS.get(name)
    if canon is None:
        raise SqlError(UNDEFINED_OBJECT, f'type "{".".join(names[-1:])}" does not exist')
    return canon


DUCKDB_TYPES = {
    "smallint": "SMALLINT", "integer": "INTEGER", "bigint": "BIGINT", "real": "REAL",
    "double precision": "DOUBLE", "boolean": "BOOLEAN", "text": "VARCHAR", "date": "DATE",
    "timestamp": "TIMESTAMP", "timestamptz": "TIMESTAMPTZ", "time": "TIME", "interval": "INTERVAL",
    "bytea": "BLOB", "json": "VARCHAR", "jsonb": "VARCHAR", "uuid": "UUID",
}

SERIALS = {"serial": "integer", "serial4": "integer", "bigserial": "bigint", "serial8": "bigint", "smallserial": "smallint", "serial2": "smallint"}


def duckdb_type(sql_type: str) -> str:
    """The DuckDB type a canonical SQL type is computed in."""
    if sql_type in DUCKDB_TYPES:
        return DUCKDB_TYPES[sql_type]
    if sql_type.startswith("numeric"):
        return "DECIMAL" + sql_type[len("numeric"):] if "(" in sql_type else "DECIMAL(38,10)"
    if sql_type.startswith(("varchar", "char")):
        return "VARCHAR"
    raise SqlError(UNDEFINED_OBJECT, f'type "{sql_type}" does not exist')


def of_arrow(field: pa.Field) -> str:
    """The SQL type name for a result column."""
    known = sql_type_of(field)
    if known:
        return known
    t = field.type
    if pa.types.is_int16(t) or pa.types.is_int8(t):
        return "smallint"
    if pa.types.is_int32(t) or pa.types.is_uint16(t):
        return "integer"
    if pa.types.is_integer(t):
        return "bigint" if not pa.types.is_uint64(t) else "numeric(20,0)"
    if pa.types.is_float32(t):
        return "real"
    if pa.types.is_floating(t):
        return "double precision"
    if pa.types.is_decimal(t):
        if (t.precision, t.scale) == (38, 10):
            return "numeric"  # how unconstrained numerics are computed and stored
        return f"numeric({t.precision},{t.scale})"
    if pa.types.is_boolean(t):
        return "boolean"
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "text"
    if pa.types.is_date(t):
        return "date"
    if pa.types.is_timestamp(t):
        return "timestamptz" if t.tz else "timestamp"
    if pa.types.is_time(t):
        return "time"
    if pa.types.is_interval(t) or pa.types.is_duration(t):
        return "interval"
    if isinstance(t, pa.UuidType) or (pa.types.is_fixed_size_binary(t) and t.byte_width == 16):
        return "uuid"  # how uuid columns are stored and how DuckDB returns them
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return "bytea"
    if pa.types.is_null(t):
        return "text"
    return "text"
