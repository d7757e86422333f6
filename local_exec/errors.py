"""DuckDB's errors as PostgreSQL's: a SQLSTATE and, where DuckDB's wording
is its own, PostgreSQL's message.

``map_error`` owns the translation. DuckDB gives an exception class and a
message; the class alone decides too coarsely (every binder error is not
42804), so a table of message patterns, tried in order, names the SQLSTATE
and PostgreSQL's wording for the cases clients meet: bad input (22P02,
22007), values out of range (22003, 22008), grouping mistakes (42803,
42P20), unknown and ambiguous names (42703, 42702, 42P01, 42883), and
scalar subqueries with several rows (21000). An error our own functions
raise inside DuckDB (``local_exec.udf.FunctionError``, or a macro's ``error()``)
carries its SQLSTATE in its text, as ``[XXXXX] message``, and keeps it
(also when raised as a failing cast of that text, which is not volatile).

Invariant: every DuckDB error becomes an ``EngineError`` whose SQLSTATE is
five characters of PostgreSQL's alphabet; nothing escapes untranslated.
"""

from __future__ import annotations

import re
from typing import Callable

import duckdb


class EngineError(Exception):
    def __init__(self, sqlstate: str, message: str):
        assert len(sqlstate) == 5 and sqlstate.isalnum(), sqlstate
        super().__init__(message)
        self.sqlstate = sqlstate
        self.message = message


#: DuckDB's names of types in its messages, as PostgreSQL's
_TYPE_NAMES = {
    "INT16": "smallint", "INT32": "integer", "INT64": "bigint", "INT128": "numeric", "UINT64": "numeric",
    "FLOAT": "real", "DOUBLE": "double precision", "BOOL": "boolean", "UUID": "uuid",
    "INTERVAL": "interval", "DATE": "date", "TIME": "time without time zone", "TIMESTAMP": "timestamp without time zone",
    "TIMESTAMP WITH TIME ZONE": "timestamp with time zone", "VARCHAR": "text", "BLOB": "bytea",
}


def _pg_type(duckdb_name: str) -> str:
    if duckdb_name.endswith("[]"):
        return _pg_type(duckdb_name[:-2]) + "[]"
    if duckdb_name.startswith("DECIMAL"):
        return "numeric"
    return _TYPE_NAMES.get(duckdb_name, duckdb_name.lower())


Rule = tuple[re.Pattern, str, Callable[[re.Match], str] | None, type]


def _rule(pattern: str, sqlstate: str, message: Callable[[re.Match], str] | str | None = None, only: type = duckdb.Error) -> Rule:
    """``pattern`` in a message of an ``only`` error means ``sqlstate``
    (empty: the pattern's first group), worded by ``message``."""
    wording = (lambda m, text=message: text) if isinstance(message, str) else message
    return re.compile(pattern), sqlstate, wording, only


#: built-in types of PostgreSQL the engine has no counterpart of
_POSTGRES_ONLY_TYPES = ("jsonpath", "tsvector", "tsquery", "point", "line", "lseg", "box", "path", "polygon", "circle", "inet", "cidr",
                        "macaddr", "macaddr8", "money", "bit", "varbit", "xml", "pg_lsn", "int4range", "int8range", "numrange", "tsrange",
                        "tstzrange", "daterange", "int4multirange", "xid", "xid8", "cid", "tid", "txid_snapshot", "pg_snapshot")

#: the engine's types PostgreSQL has no cast of to or from bytea (numbers, booleans, dates and times)
_NOT_BYTEA = "TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|FLOAT|DOUBLE|DECIMAL\\(\\d+,\\d+\\)|BOOLEAN|DATE|TIME|TIMESTAMP|TIMESTAMP WITH TIME ZONE|INTERVAL"


#: message patterns, tried in order; the message is kept when no wording is given
_RULES: tuple[Rule, ...] = (
    # an error raised by our own code inside DuckDB: its SQLSTATE is in the text
    _rule(r"(?:^|\w+Error: )\[([0-9A-Z]{5})\] (.*)", "", lambda m: m.group(2)),
    _rule(r"Could not convert string '\[([0-9A-Z]{5})\] (.*?)' to DOUBLE", "", lambda m: m.group(2)),  # planner.pgcatalog.raised
    # a document nested past Python's recursion limit, read by one of our functions (json.loads): PostgreSQL's
    # parser runs out of stack on it too
    _rule(r"while executing the UDF: RecursionError", "54001", "stack depth limit exceeded"),
    _rule(r"Could not convert string ['\"](.*?)['\"] to (INTERVAL|DATE|TIME|TIMESTAMP(?: WITH TIME ZONE)?)\b", "22007",
          lambda m: f'invalid input syntax for type {_pg_type(m.group(2))}: "{m.group(1)}"'),  # invalid_datetime_format, as PostgreSQL's
    _rule(r"Overflow in \w+ of INTERVAL", "22008", "interval out of range"),
    # a negative or NaN frame offset
    _rule(r"Invalid RANGE (?:PRECEDING|FOLLOWING) value", "22013", "invalid preceding or following size in window function"),
    _rule(r"Window (?:ROWS|GROUPS) (PRECEDING|FOLLOWING) expression cannot be negative", "22013",
          lambda m: f"frame {'starting' if m.group(1) == 'PRECEDING' else 'ending'} offset must not be negative"),
    _rule(r"Window (?:ROWS|GROUPS|RANGE) (PRECEDING|FOLLOWING) expression cannot be NULL", "22004",
          lambda m: f"frame {'starting' if m.group(1) == 'PRECEDING' else 'ending'} offset must not be null"),
    _rule(r"interval (?:value|fraction) is out of range", "22015", "interval field value out of range"),
    _rule(r"Cannot subtract infinite timestamps", "22008", "cannot subtract infinite timestamps"),
    # a number too wide for a decimal (a numeric's 38 digits): PostgreSQL's overflow, not a syntax error
    _rule(r"Could not convert string ['\"]\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*['\"] to DECIMAL\((\d+), ?(\d+)\)", "22003",
          lambda m: "numeric field overflow"),
    _rule(r"Could not convert string ['\"](.*?)['\"] to ([A-Z0-9_]+(?: WITH TIME ZONE)?(?:\(\d+, ?\d+\))?)", "22P02",
          lambda m: f'invalid input syntax for type {_pg_type(m.group(2))}: "{m.group(1)}"'),
    _rule(r"invalid (date|timestamp) field format: \"(.*)\", expected", "22007",
          lambda m: f'invalid input syntax for type {m.group(1)}: "{m.group(2)}"'),
    _rule(r"(?:date|timestamp|time) field value out of range: \"(.*?)\"", "22008",
          lambda m: f'date/time field value out of range: "{m.group(1)}"'),
    _rule(r"value is out of range for the destination type (\w+)", "22003", lambda m: f"{_pg_type(m.group(1))} out of range"),
    _rule(r"Failed to cast decimal value \S+ to type (INT16|INT32|INT64)", "22003", lambda m: f"{_pg_type(m.group(1))} out of range"),
    _rule(r"Date out of range: (\d+)-(\d+)-(\d+)", "22008",
          lambda m: f"date field value out of range: {int(m.group(1)):04d}-{int(m.group(2)):02d}-{int(m.group(3)):02d}"),
    _rule(r"Time out of range: (\d+):(\d+):(\S+)", "22008",
          lambda m: f"time field value out of range: {int(m.group(1))}:{int(m.group(2)):02d}:{'%02g' % float(m.group(3))}"),
    _rule(r"aggregate functions are not allowed in (FILTER|WHERE|JOIN)", "42803"),
    _rule(r"Overflow in \w+ of (\w+)", "22003", lambda m: f"{_pg_type(m.group(1))} out of range"),
    _rule(r"to type DECIMAL.* failed: value is out of range", "22003", "numeric field overflow"),
    _rule(r"[Dd]ivision by zero", "22012", "division by zero"),
    _rule(r"column \"(.*?)\" must appear in the GROUP BY clause", "42803",
          lambda m: f'column "{m.group(1)}" must appear in the GROUP BY clause or be used in an aggregate function'),
    _rule(r"WHERE clause cannot contain aggregates", "42803", "aggregate functions are not allowed in WHERE"),
    _rule(r"aggregate function calls cannot be nested", "42803"),
    _rule(r"aggregate function calls cannot contain window function calls", "42803"),
    _rule(r"subqueries in lambda expressions are not supported", "0A000",
          "an array function (cardinality, array_dims, ...) of ARRAY(SELECT ...) is not supported"),
    _rule(r"WHERE clause cannot contain window functions", "42P20", "window functions are not allowed in WHERE"),
    _rule(r"GROUP BY clause cannot contain window functions", "42P20", "window functions are not allowed in GROUP BY"),
    _rule(r"Ambiguous reference to column name \"(.*?)\"", "42702", lambda m: f'column reference "{m.group(1)}" is ambiguous'),
    _rule(r"Ambiguous reference to table \"(.*?)\" \(duplicate alias", "42712", lambda m: f'table name "{m.group(1)}" specified more than once'),
    _rule(r"Referenced column \"(.*?)\" (?:was )?not found", "42703", lambda m: f'column "{m.group(1)}" does not exist'),
    _rule(r"ORDER BY non-integer literal has no effect", "42601", "non-integer constant in ORDER BY"),
    _rule(r"\"(.*?)\" does not have a column named \"(.*?)\"", "42703", lambda m: f"column {m.group(1)}.{m.group(2)} does not exist"),
    _rule(r"Referenced table \"(.*?)\" not found", "42P01", lambda m: f'missing FROM-clause entry for table "{m.group(1)}"'),
    _rule(r"Circular reference to CTE \"(.*?)\"", "42P01", lambda m: f'relation "{m.group(1)}" does not exist'),  # read in its own WITH
    _rule(r"(ORDER|GROUP) BY term out of range|ORDER term out of range", "42P10"),
    _rule(r"\"(\w+)\" units \"(\w+)\" not recognized", "0A000",
          lambda m: f'unit "{m.group(2).lower()}" not supported for type {_pg_type(m.group(1).upper())}'),
    # a date_trunc or extract unit the engine does not know (PostgreSQL's is 22023 for date_trunc; extract's own check is the binder's)
    _rule(r"extract specifier \"(.*?)\" not recognized", "22023", lambda m: f'unit "{m.group(1).lower()}" not recognized'),
    _rule(r"table \"(.*?)\" has \d+ columns available but \d+ columns specified", "42P10"),
    _rule(r"Cannot combine types (\w+(?: WITH TIME ZONE)?) and (\w+(?: WITH TIME ZONE)?)", "42804",
          lambda m: f"types {_pg_type(m.group(1))} and {_pg_type(m.group(2))} cannot be matched"),
    _rule(r"LIMIT/OFFSET cannot be negative", "2201W"),
    _rule(r"More than one row returned by a subquery", "21000", "more than one row returned by a subquery used as an expression"),
    _rule(r"Unknown TimeZone '(.*?)'", "22023", lambda m: f'time zone "{m.group(1)}" not recognized'),
    _rule(r"Period must be greater than 0|step size cannot be zero|interval cannot be 0", "22023", "step size cannot equal zero"),
    _rule(r"Specifier type not implemented|not yet supported|Not implemented Error", "0A000"),
    # DuckDB cannot copy a subquery (its = ANY / = ALL over an array is one) inside min/max of an array
    _rule(r"Cannot copy BoundSubqueryExpression", "0A000",
          "min() or max() of an array built with a subquery or ANY/ALL over an array is not supported"),
    # between an array and a scalar: no such cast (a cast the engine lacks between scalars is 0A000, below)
    _rule(r"Unimplemented type for cast \((\w+(?:\[\])+) -> (\w+)\)|Unimplemented type for cast \((\w+) -> (\w+(?:\[\])+)\)", "42846",
          lambda m: f"cannot cast type {_pg_type(m.group(1) or m.group(3))} to {_pg_type(m.group(2) or m.group(4))}"),
    # between bytea and a number, a boolean or a date or time: PostgreSQL (15) has no such cast either
    _rule(rf"Unimplemented type for cast \((BLOB) -> ({_NOT_BYTEA})\)|Unimplemented type for cast \(({_NOT_BYTEA}) -> (BLOB)\)", "42846",
          lambda m: f"cannot cast type {_pg_type(m.group(1) or m.group(3))} to {_pg_type(m.group(2) or m.group(4))}"),
    _rule(r"Unimplemented type for cast \((.+?) -> (.+?)\)", "0A000",
          lambda m: f"a cast from {_pg_type(m.group(1))} to {_pg_type(m.group(2))} here is not supported"),
    _rule(r"Invalid type for BETWEEN", "42883", "operator does not exist for BETWEEN on these types"),
    # a value of a type the engine cannot hand over here (percentile_disc of a nested array of fractions)
    _rule(r'Unimplemented type "(.+?)" for', "0A000", lambda m: f"a value of type {_pg_type(m.group(1))} here is not supported"),
    # x IN (SELECT ...) of a string and a number: PostgreSQL has no = between them
    _rule(r"Cannot compare values of type (.+?) and (.+?) in IN/ANY/ALL clause", "42883",
          lambda m: f"operator does not exist: {_pg_type(m.group(1))} = {_pg_type(m.group(2))}"),
    _rule(r"\w+ Function with name (\S+) does not exist", "42883", lambda m: f"function {m.group(1)} does not exist"),
    _rule(r"(?:Table|Sequence|View) with name (\S+) does not exist", "42P01", lambda m: f'relation "{m.group(1)}" does not exist'),
    # a type PostgreSQL has and txngate does not: refused as such; any other name is unknown, as in PostgreSQL
    _rule(rf"Type with name ({'|'.join(_POSTGRES_ONLY_TYPES)}) does not exist", "0A000", lambda m: f"type {m.group(1)} is not supported"),
    _rule(r"Type with name (\S+) does not exist", "42704", lambda m: f'type "{m.group(1)}" does not exist'),
    _rule(r"No function matches|does not exist", "42883", only=duckdb.BinderException),
)

#: the SQLSTATE of an error no rule names, by DuckDB's exception class (first match)
_BY_CLASS = (
    (duckdb.OutOfMemoryException, "53200"),
    (duckdb.ParserException, "42601"),
    (duckdb.ConversionException, "22P02"),
    (duckdb.OutOfRangeException, "22003"),
    (duckdb.CatalogException, "42P01"),
    (duckdb.BinderException, "42804"),
    (duckdb.InvalidInputException, "22023"),
    (duckdb.NotImplementedException, "0A000"),
)


#: DuckDB's error kinds as its messages name them, for errors that reach us
#: through another library (Arrow's stream reader raises OSError with the text)
_KINDS = {
    "Out of Range": duckdb.OutOfRangeException, "Conversion": duckdb.ConversionException,
    "Invalid Input": duckdb.InvalidInputException, "Binder": duckdb.BinderException, "Catalog": duckdb.CatalogException,
    "Out of Memory": duckdb.OutOfMemoryException, "INTERRUPT": duckdb.InterruptException, "Interrupt": duckdb.InterruptException,
}
_KIND = re.compile(r"^(?:[\w.]+: )?(" + "|".join(_KINDS) + r") Error: ")


def as_duckdb_error(e: Exception) -> Exception:
    """A DuckDB error that came through another library (e.g. the Arrow
    reader of a streaming result, as OSError) as DuckDB's own exception
    class, so ``map_error`` reads it; other exceptions as they are."""
    m = _KIND.match(str(e))
    return _KINDS[m.group(1)](str(e)[m.start(1):]) if m and not isinstance(e, duckdb.Error) else e


#: the parser's errors that are PostgreSQL's analysis errors, not syntax errors (pattern, SQLSTATE)
_PARSER_RULES = [
    (re.compile(r"window functions are not allowed in window definitions"), "42P20"),
    (re.compile(r"window \"(.*?)\" is already defined"), "42P20"),
]


def map_error(e: Exception) -> EngineError:
    """The PostgreSQL error for DuckDB's ``e``."""
    if isinstance(e, duckdb.InterruptException):
        return EngineError("57014", "canceling statement due to user request")
    msg = re.sub(r"^[A-Za-z ]+ Error: ", "", str(e).split("\n")[0])
    if isinstance(e, duckdb.ParserException):
        for pattern, sqlstate in _PARSER_RULES:
            if pattern.search(msg):
                return EngineError(sqlstate, msg)
    else:
        for pattern, sqlstate, wording, only in _RULES:
            m = pattern.search(msg) if isinstance(e, only) else None
            if m is not None:
                message = wording(m) if wording is not None else msg
                return EngineError(sqlstate or m.group(1), message)
    for cls, sqlstate in _BY_CLASS:
        if isinstance(e, cls):
            return EngineError(sqlstate, msg)
    return EngineError("XX000", msg)
