"""The one error type of value input: ``InvalidInput``.

PostgreSQL's input functions refuse text with a SQLSTATE of class 22 (data
exception): 22P02 for a malformed number or boolean, 22007 for a malformed
date or interval, 22008 for one out of range, 22003 for a number out of
its type's range, 22015 for an interval field. Every reader in ``values``
raises ``InvalidInput`` (or a subclass) carrying that SQLSTATE; the layers
above map it once at their boundary (``planner.from_storage``), so a value
the client wrote wrong reaches it with PostgreSQL's SQLSTATE and never as
an internal error.

A value PostgreSQL reads but txngate cannot carry (an interval beyond the
engines' 64-bit nanoseconds) is ``InvalidInput`` with 0A000; a value's
binary form cut short is 08P01, as PostgreSQL's message reader reports it.

Invariant: ``sqlstate`` is a class 22 code, 0A000 or 08P01.
"""

from __future__ import annotations

from storage.errors import TxngateError

__all__ = ["InvalidInput"]


class InvalidInput(TxngateError, ValueError):
    """Text PostgreSQL's input function for its type refuses."""

    def __init__(self, sqlstate: str, message: str, *, detail: str | None = None):
        assert len(sqlstate) == 5 and (sqlstate.startswith("22") or sqlstate in ("0A000", "08P01")), sqlstate
        super().__init__(message)
        self.sqlstate = sqlstate
        self.message = message
        self.detail = detail
