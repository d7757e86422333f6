"""Error types of the storage layer.

Two tiers, after the storage engine design (seed 003, "Retries and Error
Handling"):

* ``UsageError``: the caller asked for something invalid (a malformed key, a
  truncate past the head, a bad configuration). Reported at once, never
  retried; retrying cannot help.
* ``LocationError``: something is wrong with Blob or Consensus. Split by
  *definiteness*:

  - ``DeterminateError``: the operation certainly did not take effect. A
    writer may retry it as is.
  - ``IndeterminateError``: the operation may or may not have taken effect
    (a timeout, or a connection that broke after the request was sent). A
    writer must find out what happened (e.g. re-read the log) before doing
    anything that could apply the same change twice.

Outcomes of a commit (``storage.txns.commit`` owns the contract):
``Conflict`` (validation failed, nothing written; ``ShardNotRegistered`` when
a shard written was dropped meanwhile) and ``CommitUnknown`` (an
``IndeterminateError`` of the commit point itself: the outcome is unknown).

``ConfigError`` is a usage error raised at open time; it names the setting
and the reason so an operator can fix it without reading a traceback.

Invariant: every exception that leaves a Blob or Consensus method is one of
these types (implementations map driver exceptions onto them); the original
exception is kept as ``__cause__``.
"""

from __future__ import annotations


class TxngateError(Exception):
    """Root of every error txngate raises on purpose."""


class UsageError(TxngateError):
    """The API was used incorrectly; retrying the same call cannot succeed."""


class ConfigError(UsageError):
    """A setting is invalid or points at something unusable.

    ``setting`` names the flag/variable (e.g. ``--consensus``) or URL part;
    ``reason`` says what is wrong in words an operator can act on.
    """

    def __init__(self, setting: str, reason: str):
        self.setting = setting
        self.reason = reason
        super().__init__(f"invalid {setting}: {reason}")


class LocationError(TxngateError):
    """Blob or Consensus failed. See the subclasses for definiteness."""

    determinate: bool = False


class DeterminateError(LocationError):
    """The operation certainly did not happen; safe to retry."""

    determinate = True


class IndeterminateError(LocationError):
    """The operation may have happened; the caller must find out before retrying."""

    determinate = False


class Conflict(TxngateError):
    """A transaction cannot commit as computed: a commit after its read
    timestamp wrote something it read (serializability), or a shard it
    writes is no longer registered. Nothing of it was written; running it
    again may succeed."""


class ShardNotRegistered(Conflict):
    """A transaction writes a data shard that was forgotten (its table was
    dropped) after the transaction looked it up."""


class CommitUnknown(IndeterminateError):
    """A commit's compare-and-append was sent and its outcome could not be
    learned: the transaction may or may not be committed. Never to be
    reported as a rollback."""
