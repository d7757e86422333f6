"""SQL errors: every error a client sees carries a PostgreSQL SQLSTATE.

``SqlError`` is what the planner raises and the gateway turns into an
ErrorResponse (S, V, C, M and, when known, D, H, P). The constants below are
the SQLSTATEs txngate uses; names follow PostgreSQL's errcodes.
"""

from __future__ import annotations

import logging

from storage.errors import CommitUnknown, Conflict, LocationError, TxngateError
from values import InvalidInput

logger = logging.getLogger(__name__)

SYNTAX_ERROR = "42601"
UNDEFINED_TABLE = "42P01"
UNDEFINED_COLUMN = "42703"
DUPLICATE_TABLE = "42P07"
DUPLICATE_COLUMN = "42701"
DATATYPE_MISMATCH = "42804"
UNDEFINED_OBJECT = "42704"
INVALID_SCHEMA_NAME = "3F000"
DUPLICATE_SCHEMA = "42P06"
DUPLICATE_OBJECT = "42710"
WRONG_OBJECT_TYPE = "42809"
DEPENDENT_OBJECTS_STILL_EXIST = "2BP01"
CARDINALITY_VIOLATION = "21000"
INVALID_COLUMN_REFERENCE = "42P10"
BAD_COPY_FILE_FORMAT = "22P04"
UNDEFINED_FUNCTION = "42883"
UNIQUE_VIOLATION = "23505"
NOT_NULL_VIOLATION = "23502"
CHECK_VIOLATION = "23514"
CANNOT_COERCE = "42846"
FOREIGN_KEY_VIOLATION = "23503"
DIVISION_BY_ZERO = "22012"
INVALID_TEXT_REPRESENTATION = "22P02"
NUMERIC_VALUE_OUT_OF_RANGE = "22003"
STRING_DATA_RIGHT_TRUNCATION = "22001"
DATA_EXCEPTION = "22000"
INVALID_DATETIME_FORMAT = "22007"
SERIALIZATION_FAILURE = "40001"
READ_ONLY_TRANSACTION = "25006"
ACTIVE_SQL_TRANSACTION = "25001"
NO_ACTIVE_SQL_TRANSACTION = "25P01"
IN_FAILED_SQL_TRANSACTION = "25P02"
INVALID_TRANSACTION_STATE = "25000"
FEATURE_NOT_SUPPORTED = "0A000"
QUERY_CANCELED = "57014"
INVALID_PARAMETER_VALUE = "22023"
UNDEFINED_PARAMETER = "42704"
INTERNAL_ERROR = "XX000"
CANNOT_CONNECT_NOW = "57P03"
CONNECTION_FAILURE = "08006"
IO_ERROR = "58030"


class SqlError(TxngateError):
    def __init__(
        self,
        sqlstate: str,
        message: str,
        *,
        detail: str | None = None,
        hint: str | None = None,
        position: int | None = None,
        severity: str = "ERROR",
        schema: str | None = None,
        table: str | None = None,
        column: str | None = None,
        constraint: str | None = None,
    ):
        assert len(sqlstate) == 5, sqlstate
        super().__init__(message)
        self.sqlstate = sqlstate
        self.message = message
        self.detail = detail
        self.hint = hint
        self.position = position  # 1-based character position in the query, as PostgreSQL reports it
        self.severity = severity
        # the object an integrity error is about (ErrorResponse's s, t, c and n fields; drivers
        # give them as constraint_name and the like)
        self.schema, self.table, self.column, self.constraint = schema, table, column, constraint

    @property
    def objects(self) -> dict[str, str]:
        """The object fields that are set, by ErrorResponse field name."""
        named = {"schema": self.schema, "table": self.table, "column": self.column, "constraint": self.constraint}
        return {k: v for k, v in named.items() if v is not None}

    def __repr__(self) -> str:
        return f"SqlError({self.sqlstate}, {self.message!r})"


def not_supported(feature: str) -> SqlError:
    return SqlError(FEATURE_NOT_SUPPORTED, f"{feature} is not supported")


def undefined(what: str, message: str, *, position: int | None = None) -> SqlError:
    """42883 for a call of no such function or operator (``what``), with
    PostgreSQL's hint."""
    return SqlError("42883", message, position=position,
                    hint=f"No {what} matches the given name and argument types. You might need to add explicit type casts.")


def serialization_failure(cause: Exception | None = None) -> SqlError:
    """40001: the transaction read something another one wrote after it
    read it; nothing of it was written."""
    return SqlError(
        SERIALIZATION_FAILURE,
        "could not serialize access due to read/write dependencies among transactions",
        detail=f"Reason code: {cause}." if cause else None,
        hint="The transaction might succeed if retried.",
    )


def from_storage(e: TxngateError) -> SqlError:
    """The one mapping of errors below the planner to what a client is told
    (``storage.txns.commit`` states what each commit outcome means):

    * ``CommitUnknown``: FATAL 08006, and the connection ends — the
      client must not take the error for a rollback;
    * ``Conflict``: 40001, nothing written;
    * ``values.InvalidInput`` (a value's text its type's input refuses):
      its own SQLSTATE (22P02, 22007, ...) and message;
    * any other ``LocationError`` (an outage of Blob, Consensus or the
      oracle): 57P03, with the cause in DETAIL; nothing was committed;
    * anything else (``UsageError``: a bug of ours): XX000, logged.
    """
    if isinstance(e, SqlError):
        return e
    if isinstance(e, CommitUnknown):
        return SqlError(
            CONNECTION_FAILURE,
            "terminating connection because the outcome of COMMIT is unknown: the storage did not answer",
            detail=f"The transaction may or may not have committed. {e}",
            severity="FATAL",
        )
    if isinstance(e, Conflict):
        return serialization_failure(e)
    if isinstance(e, InvalidInput):
        return SqlError(e.sqlstate, e.message, detail=e.detail)
    if isinstance(e, LocationError):
        return SqlError(
            CANNOT_CONNECT_NOW,
            "the storage is not available",
            detail=f"{type(e).__name__}: {e}",
            hint="Nothing was committed by this statement. Retry when the storage is reachable again.",
        )
    logger.error("internal error: %s: %s", type(e).__name__, e, exc_info=e)
    return SqlError(INTERNAL_ERROR, f"internal error: {type(e).__name__}: {e}")
