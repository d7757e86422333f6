"""Python functions registered in DuckDB, for PostgreSQL semantics DuckDB
lacks (``local_exec.jsonb``, ``local_exec.regex``).

Owns how they are called and how they fail: ``vectorized`` makes a row
function into a DuckDB arrow function (one Python call per DuckDB vector of
rows, NULL in any argument giving NULL, as PostgreSQL's strict functions
do), ``register`` creates a module's functions on a connection, and
``FunctionError`` is an error PostgreSQL would raise: its text starts with
``[SQLSTATE]``, which ``local_exec.errors`` reads back (DuckDB passes only
an exception's text on).

Invariant: a registered function returns exactly the Arrow type it declares
to DuckDB (``tests/local_exec/test_jsonb.py`` runs each through the engine).
"""

from __future__ import annotations

import inspect
from typing import Callable

import pyarrow as pa


class FunctionError(ValueError):
    """A value or operation PostgreSQL refuses; carries its SQLSTATE."""

    def __init__(self, sqlstate: str, message: str, detail: str | None = None):
        super().__init__(f"[{sqlstate}] {message}")
        self.sqlstate = sqlstate
        self.message = message
        self.detail = detail


#: the DuckDB result types our functions declare, as Arrow types
ARROW_TYPES = {
    "VARCHAR": pa.string(), "JSON": pa.json_(), "BOOLEAN": pa.bool_(), "INTEGER": pa.int32(), "BLOB": pa.binary(), "DOUBLE": pa.float64(),
    # lists hold json as text (pyarrow builds no lists of extension values): callers cast to JSON
    "VARCHAR[]": pa.list_(pa.string()),
    "VARCHAR[][]": pa.list_(pa.list_(pa.string())),
    "VARCHAR[][][]": pa.list_(pa.list_(pa.list_(pa.string()))),
    "STRUCT(key VARCHAR, value VARCHAR)[]": pa.list_(pa.struct([("key", pa.string()), ("value", pa.string())])),
}


def vectorized(fn: Callable, result: pa.DataType) -> Callable:
    """``fn`` over whole Arrow columns (one call per DuckDB vector, not per
    row); NULL in any argument gives NULL."""

    def call(*columns):
        rows = zip(*(c.to_pylist() for c in columns))
        return pa.array([None if None in args else fn(*args) for args in rows], result)

    call.__signature__ = inspect.signature(fn)  # DuckDB reads the parameter count from it
    return call


def register(con, functions: dict[str, tuple[Callable, list[str], str]], *, side_effects: bool = False) -> None:
    """Create ``functions`` (name -> (fn, DuckDB parameter types, DuckDB
    result type)) on a DuckDB connection."""
    for name, (fn, params, result) in functions.items():
        con.create_function(name, vectorized(fn, ARROW_TYPES[result]), params, result, type="arrow",
                            null_handling="special", side_effects=side_effects)
