"""PostgreSQL's built-in types as clients see them, and the SQL type names
of Arrow types.

``PG_TYPES`` is the one type registry: OID, typname, txngate's canonical
SQL name, display name, length, category and array type of every type a
result column can have and of the catalog types clients ask about
(pg_type, RowDescription, parameter OIDs: ``type_oid``, ``type_length``,
``sql_of_oid``).

``of_arrow(field)`` names the SQL type of a column DuckDB or a shard hands
over: the type a shard's field carries in its metadata when it has one
(``storage.persist.codec``), else the PostgreSQL type Arrow's type stands
for (int32 is integer, decimal128(38, 10) an unconstrained numeric, a list
of lists an array: PostgreSQL's arrays of any dimensions have one type).

Invariants: a shard's field is named by the SQL type it was made for
(``field_for(name, t)`` gives ``t`` back), whatever Arrow type stores it;
each OID and each canonical name names one registry entry (asserted below).
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from storage.persist import sql_type_of

#: an unconstrained numeric is computed and stored with this many digits after the point (DuckDB's DECIMAL(38,10))
STORED_PLACES = 10

#: what a value with more digits after the point than an unconstrained numeric keeps is refused with (22003):
#: PostgreSQL would keep them all, and rounding them away would be a silent wrong answer
TOO_MANY_PLACES = (f"numeric value has more than {STORED_PLACES} digits after the decimal point, "
                   "the most txngate keeps in a numeric column without a declared scale")

#: the time an interval carries out of the engine: Arrow's month_day_nano holds it in 64-bit nanoseconds (PostgreSQL's
#: microseconds reach a thousand times further); past it, a computed interval came out wrapped
CARRIED_INTERVAL_MICROS = (1 << 63) // 1000
#: what an interval past that time is refused with (0A000)
LONG_INTERVAL = (f"an interval of more than {CARRIED_INTERVAL_MICROS // 3_600_000_000} hours of time is not supported "
                 "(txngate carries an interval's time in 64-bit nanoseconds)")


def of_arrow(field: pa.Field) -> str:
    """The SQL type name for a result column."""
    known = sql_type_of(field)
    if known:
        return known
    t = field.type
    if pa.types.is_int16(t) or pa.types.is_int8(t):
        return "smallint"
    if pa.types.is_uint32(t):
        return "oid"  # the emulated catalogs' OID columns
    if pa.types.is_int32(t) or pa.types.is_uint16(t):
        return "integer"
    if pa.types.is_integer(t):
        return "bigint" if not pa.types.is_uint64(t) else "numeric(20,0)"
    if pa.types.is_float32(t):
        return "real"
    if pa.types.is_floating(t):
        return "double precision"
    if pa.types.is_decimal(t):
        if (t.precision, t.scale) == (38, STORED_PLACES):
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
    if pa.types.is_list(t) and pa.types.is_int8(t.value_type):
        return "int2vector"  # how the emulated catalogs keep int2vector columns (txngate has no tinyint)
    if pa.types.is_list(t) and pa.types.is_uint16(t.value_type):
        return "oidvector"
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        element = of_arrow(pa.field("element", t.value_type))
        return element if element.endswith("[]") else element + "[]"  # PostgreSQL's arrays of any dimensions: one type
    if pa.types.is_struct(t):
        return "record"  # ROW(...) and whole-row references
    return "text"


#: parameter types whose values reach the engine as text (values.decode_param): a parameter declared one of
#: them is cast to it (planner.Session.with_param_types), or the engine would take it for text
TEXT_CARRIED = frozenset({114, 3802, 1083, 1186, 2950})
#: parameter types a statement is bound with (the text-carried ones, bytea, date, integer arrays), so what a
#: parameter touches is typed as PostgreSQL types it: length($1) of a bytea is its bytes (42883 untyped), $1 - date
#: an integer, psycopg's int2[] of small integers an int2[]
TYPED_PARAMS = TEXT_CARRIED | {17, 1082, 1005, 1007, 1016}

#: catalog types (pg_catalog columns and casts) and how txngate computes them
CATALOG_TYPES = {"oid": "bigint", "regclass": "bigint", "regtype": "bigint", "regnamespace": "bigint", "regproc": "text", "name": "text"}


@dataclass(frozen=True)
class PgType:
    """A built-in PostgreSQL type as clients see it (pg_type, RowDescription)."""

    oid: int
    typname: str
    sql: str  # txngate's canonical name ("" for types no column can have)
    display: str  # what format_type and information_schema call it
    typlen: int
    category: str
    array_oid: int
    collatable: bool = False


#: Every type a result column can have, and the catalog types clients ask about.
PG_TYPES = [
    PgType(16, "bool", "boolean", "boolean", 1, "B", 1000),
    PgType(17, "bytea", "bytea", "bytea", -1, "U", 1001),
    PgType(18, "char", "", '"char"', 1, "Z", 1002),
    PgType(19, "name", "", "name", 64, "S", 1003, True),
    PgType(20, "int8", "bigint", "bigint", 8, "N", 1016),
    PgType(21, "int2", "smallint", "smallint", 2, "N", 1005),
    PgType(22, "int2vector", "int2vector", "int2vector", -1, "A", 1006),
    PgType(23, "int4", "integer", "integer", 4, "N", 1007),
    PgType(24, "regproc", "", "regproc", 4, "N", 1008),
    PgType(25, "text", "text", "text", -1, "S", 1009, True),
    PgType(26, "oid", "oid", "oid", 4, "N", 1028),
    PgType(30, "oidvector", "oidvector", "oidvector", -1, "A", 1013),
    PgType(114, "json", "json", "json", -1, "U", 199),
    PgType(700, "float4", "real", "real", 4, "N", 1021),
    PgType(701, "float8", "double precision", "double precision", 8, "N", 1022),
    PgType(705, "unknown", "", "unknown", -2, "X", 0),
    PgType(1042, "bpchar", "char", "character", -1, "S", 1014, True),
    PgType(1043, "varchar", "varchar", "character varying", -1, "S", 1015, True),
    PgType(1082, "date", "date", "date", 4, "D", 1182),
    PgType(1083, "time", "time", "time without time zone", 8, "D", 1183),
    PgType(1114, "timestamp", "timestamp", "timestamp without time zone", 8, "D", 1115),
    PgType(1184, "timestamptz", "timestamptz", "timestamp with time zone", 8, "D", 1185),
    PgType(1186, "interval", "interval", "interval", 16, "T", 1187),
    PgType(1700, "numeric", "numeric", "numeric", -1, "N", 1231),
    PgType(2205, "regclass", "", "regclass", 4, "N", 2210),
    PgType(2206, "regtype", "", "regtype", 4, "N", 2211),
    PgType(2249, "record", "record", "record", -1, "P", 2287),
    PgType(2278, "void", "void", "void", 4, "P", 0),
    PgType(2950, "uuid", "uuid", "uuid", 16, "U", 2951),
    PgType(3802, "jsonb", "jsonb", "jsonb", -1, "U", 3807),
    PgType(4089, "regnamespace", "", "regnamespace", 4, "N", 4090),
]
PG_TYPE_BY_OID = {t.oid: t for t in PG_TYPES}
PG_TYPE_BY_SQL = {t.sql: t for t in PG_TYPES if t.sql}
#: types a result may have but no column or parameter (pg_typeof's regtype: computed as its text)
_RESULT_ONLY = {t.typname: t for t in PG_TYPES if t.typname in ("regtype", "name")}  # (a name column is stored as text)
#: array type oid -> element type
PG_ARRAY_ELEMENT = {t.array_oid: t for t in PG_TYPES if t.array_oid}


def is_record(sql_type: str) -> bool:
    """A row type: an anonymous record, or a composite type CREATE TYPE
    made (``composite(<oid>)``), both printed as records."""
    return sql_type == "record" or sql_type.startswith("composite(")


def type_oid(sql_type: str) -> tuple[int, int]:
    """(type OID, typmod) of a canonical SQL type (``x[]`` for arrays: of
    any dimensions, one type, as PostgreSQL's)."""
    if sql_type.endswith("[]"):
        elem, typmod = type_oid(sql_type[:sql_type.index("[]")])
        return (PG_TYPE_BY_OID[elem].array_oid if elem in PG_TYPE_BY_OID else 2287) or 1009, typmod  # (of a made type: record[])
    if sql_type.startswith("numeric("):
        p, s = (int(x) for x in sql_type[8:-1].split(","))
        return 1700, ((p << 16) | s) + 4
    if sql_type.startswith("varchar("):
        return 1043, int(sql_type[8:-1]) + 4
    if sql_type.startswith("char("):
        return 1042, int(sql_type[5:-1]) + 4
    if sql_type.startswith(("enum(", "composite(")):  # a type CREATE TYPE made: its own OID
        return int(sql_type[sql_type.index("(") + 1:-1]), -1
    t = PG_TYPE_BY_SQL.get(sql_type) or _RESULT_ONLY.get(sql_type)
    return (t.oid if t else 25), -1


def type_length(oid: int) -> int:
    t = PG_TYPE_BY_OID.get(oid)
    return t.typlen if t else -1


def sql_of_oid(oid: int) -> str:
    """The canonical SQL type of a parameter type OID (text when unknown)."""
    if oid in PG_ARRAY_ELEMENT:
        return sql_of_oid(PG_ARRAY_ELEMENT[oid].oid) + "[]"
    t = PG_TYPE_BY_OID.get(oid)
    if t is None or t.oid == 705:
        return "text"
    return t.sql or CATALOG_TYPES.get(t.typname) or "text"


assert len(PG_TYPE_BY_OID) == len(PG_TYPES) and len(PG_TYPE_BY_SQL) == sum(1 for t in PG_TYPES if t.sql), "one entry per OID and name"
