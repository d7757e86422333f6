"""Planner fixtures: a Database on the embedded default (SQLite + local
folder) and on PostgreSQL + S3 (moto); ``two``: two gateways' Databases on
one such store, with a keyed table ``k``."""

from __future__ import annotations

import pytest

from planner.database import Database


def _urls(request, tmp_path, uniq) -> tuple[str, str]:
    if request.param == "embedded":
        return f"sqlite://{tmp_path}/consensus.db", f"file://{tmp_path}/blob"
    pg, s3 = request.getfixturevalue("pg_server"), request.getfixturevalue("s3_server")
    return pg.url(table=f"c_{uniq}", timeline=f"t{uniq}", pool_size=16), s3.url(prefix=f"db-{uniq}")


@pytest.fixture(params=["embedded", "durable"])
async def db(request, tmp_path, uniq):
    database = await Database.open(*_urls(request, tmp_path, uniq))
    yield database
    await database.close()


@pytest.fixture(params=["embedded", "durable"])
async def two(request, tmp_path, uniq):
    urls = _urls(request, tmp_path, uniq)
    a = await Database.open(*urls, spark_master=None)
    b = await Database.open(*urls, spark_master=None)
    await a.session().execute("CREATE TABLE k (id integer PRIMARY KEY, email text UNIQUE, v integer)")
    yield a, b
    await b.close()
    await a.close()


@pytest.fixture(scope="module")
def pg_url(request, pg_server):
    """A fresh database on the real PostgreSQL for this test module (named after it)."""
    name = request.module.__name__.rsplit(".", 1)[-1]
    pg_server.psql(f"DROP DATABASE IF EXISTS {name}")
    pg_server.psql(f"CREATE DATABASE {name}")
    return pg_server.url(database=name)
