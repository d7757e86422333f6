"""SQLAlchemy 2.1 and Alembic end to end (tests/tools/sqlalchemy_scenario.py)
against txngate and against the real PostgreSQL: the same printout from
both, so reflection sees the schema that was created (names of keys,
indexes and foreign keys) and Alembic's autogenerate finds no difference."""

from __future__ import annotations

from tests.tools.scenarios import run_tool


def _scenario(url: str) -> str:
    return run_tool(["-m", "tests.tools.sqlalchemy_scenario", url])


def test_sqlalchemy_and_alembic_match_postgres(tool_gateway, pg_server):
    pg_server.psql("DROP DATABASE IF EXISTS sqlalchemy_alembic")
    pg_server.psql("CREATE DATABASE sqlalchemy_alembic")
    expected = _scenario(f"postgresql+psycopg://postgres@127.0.0.1:{pg_server.port}/sqlalchemy_alembic")
    assert "autogenerate diff []" in expected and "book_title_idx" in expected
    assert _scenario(f"postgresql+psycopg://txngate@127.0.0.1:{tool_gateway.port}/txngate") == expected
