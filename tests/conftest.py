"""Shared fixtures: real servers (session-scoped) and one fixture per storage
location kind, parametrized so a contract suite runs on every implementation.

Every test gets fresh keys (a uuid prefix), so tests can share the servers.
"""

from __future__ import annotations

import os
import sys
import uuid

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from storage.location import open_blob, open_consensus  # noqa: E402
from tests.servers import Gateway, PostgresServer, S3Server  # noqa: E402

BLOB_KINDS = ["fs", "s3", "mem"]
CONSENSUS_KINDS = ["postgres", "sqlite", "mem"]


@pytest.fixture(scope="session")
def pg_server():
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def s3_server():
    server = S3Server().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def uniq() -> str:
    return uuid.uuid4().hex[:12]


def blob_url(kind: str, request, tmp_path, uniq: str) -> str:
    if kind == "fs":
        return f"file://{tmp_path}/blob"
    if kind == "s3":
        return request.getfixturevalue("s3_server").url(prefix=f"t-{uniq}")
    if kind == "mem":
        return "mem://"
    raise AssertionError(kind)


def consensus_url(kind: str, request, tmp_path) -> str:
    if kind == "postgres":
        return request.getfixturevalue("pg_server").url(pool_size=20)
    if kind == "sqlite":
        return f"sqlite://{tmp_path}/consensus.db"
    if kind == "mem":
        return "mem://"
    raise AssertionError(kind)


@pytest.fixture(params=BLOB_KINDS)
async def blob(request, tmp_path, uniq):
    b = await open_blob(blob_url(request.param, request, tmp_path, uniq))
    try:
        yield b
    finally:
        await b.close()


@pytest.fixture(params=CONSENSUS_KINDS)
async def consensus(request, tmp_path):
    c = await open_consensus(consensus_url(request.param, request, tmp_path))
    try:
        yield c
    finally:
        await c.close()


@pytest.fixture(scope="session")
def gateway(tmp_path_factory):
    g = Gateway(str(tmp_path_factory.mktemp("gateway")))
    yield g
    if g.proc.poll() is None:
        g.stop()
