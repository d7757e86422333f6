"""Planner fixtures: a Database on the embedded default (SQLite + local
folder) and on PostgreSQL + S3 (moto)."""

from __future__ import annotations

import pytest

from planner.database import Database


@pytest.fixture(params=["embedded", "durable"])
async def db(request, tmp_path, uniq):
    if request.param == "embedded":
        database = await Database.open(f"sqlite://{tmp_path}/consensus.db", f"file://{tmp_path}/blob")
    else:
        pg, s3 = request.getfixturevalue("pg_server"), request.getfixturevalue("s3_server")
        database = await Database.open(pg.url(table=f"c_{uniq}", timeline=f"t{uniq}", pool_size=16), s3.url(prefix=f"db-{uniq}"))
    yield database
    await database.close()
