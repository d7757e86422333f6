"""SQL errors: every error a client sees carries a PostgreSQL SQLSTATE.

``SqlError`` is what the planner raises and the gateway turns into an
ErrorResponse (S, V, C, M and, when known, D, H, P). The constants below are
the SQLSTATEs txngate uses; names follow PostgreSQL's errcodes.
"""

from __future__ import annotations

from storage.errors import TxngateError

SYNTAX_ERROR = "42601"
UNDEFINED_TABLE = "42P01"
UNDEFINED_COLUMN = "42703"
DUPLICATE_TABLE = "42P07"
DUPLICATE_COLUMN = "42701"
DATATYPE_MISMATCH = "42804"
UNDEFINED_OBJECT = "42704"
INVALID_SCHEMA_NAME = "3F000"
DUPLICATE_SCHEMA = "42P06"
WRONG_OBJECT_TYPE = "42809"
DEPENDENT_OBJECTS_STILL_EXIST = "2BP01"
CARDINALITY_VIOLATION = "21000"
INVALID_COLUMN_REFERENCE = "42P10"
BAD_COPY_FILE_FORMAT = "22P04"
UNDEFINED_FUNCTION = "42883"
UNIQUE_VIOLATION = "23505"
NOT_NULL_VIOLATION = "23502"
CHECK_VIOLATION = "23514"
DIVISION_BY_ZERO = "22012"
INVALID_TEXT_REPRESENTATION = "22P02"
NUMERIC_VALUE_OUT_OF_RANGE = "22003"
STRING_DATA_RIGHT_TRUNCATION = "22001"
DATA_EXCEPTION = "22000"
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
    ):
        assert len(sqlstate) == 5, sqlstate
        super().__init__(message)
        self.sqlstate = sqlstate
        self.message = message
        self.detail = detail
        self.hint = hint
        self.position = position  # 1-based character position in the query, as PostgreSQL reports it
        self.severity = severity

    def __repr__(self) -> str:
        return f"SqlError({self.sqlstate}, {self.message!r})"


def not_supported(feature: str) -> SqlError:
    return SqlError(FEATURE_NOT_SUPPORTED, f"{feature} is not supported")
