"""storage.location: where all durability comes from.

Public API:

* ``Blob`` (``get``/``set``/``delete``/``list``) and ``Consensus``
  (``head``/``compare_and_set``/``scan``/``truncate``), the two contracts
  documented in ``blob.py`` and ``consensus.py``;
* ``open_blob(url)`` and ``open_consensus(url)``, which pick an
  implementation from the URL scheme and check the configuration at open time:

  ==========================================================  ==============
  URL                                                          implementation
  ==========================================================  ==============
  ``file:///path``                                             ``FsBlob``
  ``s3://bucket/prefix?endpoint=http://host:9000&region=..``   ``S3Blob``
  ``mem://[name]``                                             ``MemBlob`` (tests)
  ``postgres://user:pw@host:port/db?pool_size=8``              ``PostgresConsensus``
  ``sqlite:///path/to/file.db``                                ``SqliteConsensus``
  ``mem://[name]``                                             ``MemConsensus`` (tests)
  ==========================================================  ==============

* ``FaultyBlob``/``FaultyConsensus``: seeded fault injection around any of
  them; ``CountingBlob``: counts the calls and bytes that go through;
* ``sqlite_connect(path)``: a connection to a SQLite file set up as the
  consensus sets it up (the timestamp oracle shares the file).
  ``SqliteConnections``: one connection per thread to such a file;
  ``SqliteLoopWrites``: its writes tried at once on the event loop, else
  queued on one writer thread; ``sqlite_error``: a sqlite3 error as a
  storage one (determinate, or indeterminate for an I/O error on a write).

This package imports nothing from the layers above it.
"""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

from storage.errors import ConfigError
from storage.location.blob import Blob, BlobMeta, validate_key
from storage.location.consensus import SCAN_ALL, Consensus, VersionedData
from storage.location.faults import CountingBlob, FaultConfig, FaultyBlob, FaultyConsensus
from storage.location.fs import FsBlob
from storage.location.urls import redact_url
from storage.location.mem import MemBlob, MemConsensus, named_mem_blob, named_mem_consensus
from storage.location.sqlite import LoopWrites as SqliteLoopWrites
from storage.location.sqlite import ThreadConnections as SqliteConnections
from storage.location.sqlite import connect as sqlite_connect
from storage.location.sqlite import mapped as sqlite_error

__all__ = [
    "Blob",
    "BlobMeta",
    "Consensus",
    "CountingBlob",
    "FaultConfig",
    "FaultyBlob",
    "FaultyConsensus",
    "FsBlob",
    "MemBlob",
    "MemConsensus",
    "SCAN_ALL",
    "VersionedData",
    "open_blob",
    "open_consensus",
    "redact_url",
    "SqliteConnections",
    "SqliteLoopWrites",
    "sqlite_connect",
    "sqlite_error",
    "validate_key",
]


def _scheme(url: str, setting: str) -> str:
    if not isinstance(url, str) or "://" not in url:
        raise ConfigError(setting, f"{url!r} is not a URL (expected scheme://...)")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as e:
        raise ConfigError(setting, f"cannot parse URL {url!r}: {e}") from e
    return parts.scheme.lower()


def _local_path(url: str, setting: str) -> tuple[str, dict[str, str]]:
    parts = urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        raise ConfigError(setting, f"{url!r}: only local paths are supported (use {parts.scheme}:///absolute/path)")
    path = unquote(parts.path)
    if not path or path == "/":
        raise ConfigError(setting, f"{url!r} names no path")
    return path, {k: v[-1] for k, v in parse_qs(parts.query).items()}


async def open_blob(url: str, *, setting: str = "blob") -> Blob:
    """Open the Blob a URL names; raise ``ConfigError`` naming ``setting`` if unusable."""
    scheme = _scheme(url, setting)
    if scheme == "file":
        path, query = _local_path(url, setting)
        fsync = query.get("fsync", "true").lower() not in ("false", "0", "off", "no")
        return await FsBlob.open(path, fsync=fsync, setting=setting)
    if scheme == "s3":
        from storage.location.s3 import S3Blob

        return await S3Blob.open(url, setting=setting)
    if scheme == "mem":
        return named_mem_blob(urlsplit(url).netloc)
    raise ConfigError(setting, f"unknown blob scheme {scheme!r} in {url!r} (use file://, s3:// or mem://)")


async def open_consensus(url: str, *, setting: str = "consensus") -> Consensus:
    """Open the Consensus a URL names; raise ``ConfigError`` naming ``setting`` if unusable."""
    scheme = _scheme(url, setting)
    if scheme in ("postgres", "postgresql"):
        from storage.location.postgres import PostgresConsensus

        return await PostgresConsensus.open(url, setting=setting)
    if scheme == "sqlite":
        from storage.location.sqlite import SqliteConsensus

        path, query = _local_path(url, setting)
        return await SqliteConsensus.open(path, synchronous=query.get("synchronous", "full"), setting=setting)
    if scheme == "mem":
        return named_mem_consensus(urlsplit(url).netloc)
    raise ConfigError(setting, f"unknown consensus scheme {scheme!r} in {url!r} (use postgres://, sqlite:// or mem://)")
