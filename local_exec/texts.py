"""PostgreSQL's text of values DuckDB prints otherwise: lists, intervals,
records, floats and unconstrained numerics.

DuckDB casts a list to text as ``[1, 2]`` and a list of lists as
``[[1, 2], [3, 4]]``; PostgreSQL prints ``{1,2}`` and ``{{1,2},{3,4}}``,
elements in their own output format (``t``/``f``, ``1.5`` of a numeric,
``2`` of a double), quoted where PostgreSQL quotes them. The planner
rewrites a cast of a list to text to ``txngate_cast_text(a)``, which for
a list is ``txngate_list_text(to_json(a), typeof(a))``: the value as
DuckDB's JSON (exact decimals, shortest doubles) and its DuckDB type name,
from which ``array_text`` prints PostgreSQL's text with
``values.format_array``, the one array printer (``txngate_text``, the
"any" arguments of format and concat, prints lists the same way).
``array_to_string`` of a list of lists flattens it first
(``txngate_list_join``), as PostgreSQL walks a multidimensional array
in storage order.

DuckDB prints an interval's months as ``2 months`` and no sign before a
positive time after negative fields; ``txngate_interval_text`` is
PostgreSQL's ``postgres`` IntervalStyle (``2 mons``, ``-1 days +03:00:00``),
by ``values``' interval printer.

A struct (a ROW, a whole-row reference) prints as ``{'a': 1}`` or
``(1, a b, NULL)``; PostgreSQL's record text is ``(1,"a b",)``:
``txngate_record_text(to_json(r), typeof(r))`` prints each field from its
JSON value and DuckDB type (records and arrays inside too), quoted as
``values.format_record_texts`` quotes. An unconstrained numeric, kept
with 10 places, prints without the zeros they add (``1.5``); a double
or a real as PostgreSQL's output function prints it (``10000000000``,
``2.1474836e+09``; DuckDB's ``10000000000.0``).

Invariant: the text of a one-dimensional list, an interval or a record equals what
the gateway sends for the same value as a result column in PostgreSQL's
default styles (tested beside PostgreSQL).
"""

from __future__ import annotations

import decimal
import json
import re

import pyarrow as pa

from local_exec import udf
from values import STORED_PLACES, format_array, format_interval, format_record_texts, format_value

_INTEGER = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT"}
_DECIMAL = re.compile(r"DECIMAL\((\d+),(\d+)\)")


def _element_type(duckdb_type: str) -> str:
    """The SQL type ``values`` prints an element of a DuckDB list type as
    (text for the types whose JSON is already PostgreSQL's text)."""
    element = duckdb_type.replace("[]", "")
    if element == "BOOLEAN":
        return "boolean"
    if element in _INTEGER:
        return "bigint"
    if element == "DOUBLE":
        return "double precision"
    if element == "FLOAT":
        return "real"
    if (m := _DECIMAL.fullmatch(element)) is not None:
        return "numeric" if (m.group(1), m.group(2)) == ("38", "10") else f"numeric({m.group(1)},{m.group(2)})"
    return "text"


def _load(text: str):
    return json.loads(text, parse_float=decimal.Decimal, parse_constant=float)


def _typed(v, element_type: str):
    if isinstance(v, list):
        return [_typed(x, element_type) for x in v]
    if v is None or element_type in ("boolean", "bigint"):
        return v
    if element_type in ("double precision", "real"):
        return float(v)
    if element_type.startswith("numeric"):
        d = v if isinstance(v, decimal.Decimal) else decimal.Decimal(v)
        scale = element_type[element_type.find(",") + 1:-1] if "," in element_type else None
        return d.quantize(decimal.Decimal(1).scaleb(-int(scale))) if scale and d.is_finite() else d  # DuckDB's JSON may drop a scale's zeros
    return v if isinstance(v, str) else json.dumps(v)


def array_text(json_text: str, duckdb_type: str) -> str:
    """PostgreSQL's text of a DuckDB list given as its JSON and type name."""
    element_type = _element_type(duckdb_type)
    return format_array(_typed(_load(json_text), element_type), element_type)


_RECORD_TYPES = ("STRUCT(", "TUPLE(")


def _struct_fields(duckdb_type: str) -> list[str]:
    """The field types of a DuckDB STRUCT type name, in order
    (``STRUCT(a INTEGER, "b c" DECIMAL(38,10))``: INTEGER, DECIMAL(38,10));
    a ``TUPLE(INTEGER, VARCHAR)`` (an unnamed struct: ROW(...)) has no names."""
    inner, parts, depth, quoted, start = duckdb_type[duckdb_type.index("(") + 1:-1], [], 0, False, 0
    for i, ch in enumerate(inner):
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth -= 1
        elif not quoted and depth == 0 and ch == ",":
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    if duckdb_type.startswith("TUPLE("):
        return [p.strip() for p in parts]
    types = []
    for part in (p.strip() for p in parts):
        name_end = part.index('"', 1) + 1 if part.startswith('"') else part.index(" ")
        types.append(part[name_end:].strip())
    return types


def _field_text(v, duckdb_type: str) -> str | None:
    """A record field's PostgreSQL text, from its JSON value and DuckDB type."""
    if v is None:
        return None
    if duckdb_type.startswith(_RECORD_TYPES):
        return _record(v, duckdb_type)
    if duckdb_type.endswith("]"):
        element_type = _element_type(duckdb_type)
        return format_array(_typed(v, element_type), element_type)
    element_type = _element_type(duckdb_type)
    return format_value(_typed(v, element_type), element_type)


def _record(v: dict | list, duckdb_type: str) -> str:
    """A struct's JSON is an object, an unnamed one's (a TUPLE) a list."""
    values = v.values() if isinstance(v, dict) else v
    return format_record_texts([_field_text(x, t) for x, t in zip(values, _struct_fields(duckdb_type))])


def record_text(json_text: str, duckdb_type: str) -> str:
    """PostgreSQL's text of a DuckDB struct (a row) given as its JSON and
    type name: ``(1,"a b",,t)``, each field in its type's text."""
    return _record(_load(json_text), duckdb_type)


def _flat(v: list) -> list:
    return [y for x in v for y in (_flat(x) if isinstance(x, list) else (x,))]


def array_flat_text(json_text: str, duckdb_type: str, delimiter: str) -> str:
    """array_to_string of a list of any depth: the elements' texts in
    storage order, NULLs left out."""
    return array_flat_text_or(json_text, duckdb_type, delimiter, None)


def array_flat_text_or(json_text: str, duckdb_type: str, delimiter: str, null: str | None) -> str:
    """array_to_string with a text for NULL elements (left out when None)."""
    element_type = _element_type(duckdb_type)
    texts = [format_value(x, element_type) for x in _flat(_typed(_load(json_text), element_type))]
    return delimiter.join(t if t is not None else null for t in texts if t is not None or null is not None)


def _intervals(column):
    """txngate_interval_text over a column of DuckDB intervals (Arrow's
    month_day_nano), a vector at a time."""
    return pa.array([None if v is None else format_interval(v.months, v.days, v.nanoseconds // 1000) for v in column.to_pylist()], pa.string())


def float8_text(x: float) -> str:
    return format_value(x, "double precision")


def float4_text(x: float) -> str:
    return format_value(x, "real")


FUNCTIONS = {
    "txngate_float8_text": (float8_text, ["DOUBLE"], "VARCHAR"),
    "txngate_float4_text": (float4_text, ["FLOAT"], "VARCHAR"),
    "txngate_list_text": (array_text, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_record_text": (record_text, ["VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_list_join": (array_flat_text, ["VARCHAR", "VARCHAR", "VARCHAR"], "VARCHAR"),
    "txngate_list_join_or": (array_flat_text_or, ["VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR"], "VARCHAR"),
}


#: the DuckDB type of an unconstrained numeric (values.STORED_PLACES places)
UNCONSTRAINED_NUMERIC = f"DECIMAL(38,{STORED_PLACES})"

#: a value cast to text (``txngate_cast_text``: planner.bind._cast_text) and an "any" argument of format, concat and
#: concat_ws (``txngate_text``: PostgreSQL's output function, booleans ``t``/``f``) as PostgreSQL prints them, where
#: DuckDB's cast differs; the DuckDB type decides when the statement is bound
MACROS = (
    "CREATE OR REPLACE MACRO txngate_cast_text(x) AS CASE WHEN typeof(x) LIKE '%[]' THEN txngate_list_text(to_json(x), typeof(x)) "
    "WHEN typeof(x) = 'INTERVAL' THEN txngate_interval_text(TRY_CAST(x AS INTERVAL)) "
    "WHEN typeof(x) LIKE 'STRUCT(%' OR typeof(x) LIKE 'TUPLE(%' THEN txngate_record_text(to_json(x), typeof(x)) "
    # a float as PostgreSQL prints it (1e10 as 10000000000, a real to its shortest digits: DuckDB's 10000000000.0)
    "WHEN typeof(x) = 'DOUBLE' THEN txngate_float8_text(TRY_CAST(x AS DOUBLE)) WHEN typeof(x) = 'FLOAT' THEN txngate_float4_text(TRY_CAST(x AS FLOAT)) "
    # an unconstrained numeric (kept with 10 places) without the zeros its 10 places add: 1.5, not 1.5000000000
    f"WHEN typeof(x) = '{UNCONSTRAINED_NUMERIC}' THEN rtrim(rtrim(CAST(x AS VARCHAR), '0'), '.') ELSE CAST(x AS VARCHAR) END",
    "CREATE OR REPLACE MACRO txngate_text(x) AS CASE WHEN typeof(x) = 'BOOLEAN' THEN left(CAST(x AS VARCHAR), 1) ELSE txngate_cast_text(x) END",
)


def register(con) -> None:
    """Create the functions and macros above on a DuckDB connection."""
    udf.register(con, FUNCTIONS)
    con.create_function("txngate_interval_text", _intervals, ["INTERVAL"], "VARCHAR", type="arrow")
    for sql in MACROS:
        con.execute(sql)
