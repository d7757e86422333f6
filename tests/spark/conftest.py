"""Spark fixtures: one Database with a Spark driver (``local[2]``) shared by
the module's tests, so the driver starts once."""

from __future__ import annotations

import pytest_asyncio

from planner.database import Database


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def sdb(tmp_path_factory):
    folder = tmp_path_factory.mktemp("spark")
    database = await Database.open(f"sqlite://{folder}/consensus.db", f"file://{folder}/blob", spark_master="local[2]")
    yield database
    await database.close()
