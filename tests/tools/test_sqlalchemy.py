"""SQLAlchemy 2.1 and Alembic end to end (tests/tools/sqlalchemy_scenario.py)
against txngate and against the real PostgreSQL: the same printout from
both, so reflection sees the schema that was created (names of keys,
indexes and foreign keys) and Alembic's autogenerate finds no difference."""

from __future__ import annotations

from tests.tools.scenarios import beside_postgres


def test_sqlalchemy_and_alembic_match_postgres(tool_gateway, pg_server):
    expected, got = beside_postgres(pg_server, tool_gateway, "sqlalchemy_alembic", lambda port, user, db: [
        "-m", "tests.tools.sqlalchemy_scenario", f"postgresql+psycopg://{user}@127.0.0.1:{port}/{db}"])
    assert "autogenerate diff []" in expected and "book_title_idx" in expected
    assert "enums [('ticket_state', ['new', 'open', 'closed'])]" in expected and "bad state 22P02" in expected
    assert got == expected
