"""Django end to end (tests/tools/django_scenario.py) against txngate and
against the real PostgreSQL: the same printout from both."""

from __future__ import annotations

from tests.tools.scenarios import run_tool


def _scenario(port: int, user: str, database: str) -> str:
    return run_tool(["-m", "tests.tools.django_scenario", str(port), user, database])


def test_django_migrate_and_orm_match_postgres(tool_gateway, pg_server):
    pg_server.psql("DROP DATABASE IF EXISTS django_shop")
    pg_server.psql("CREATE DATABASE django_shop")
    expected = _scenario(pg_server.port, "postgres", "django_shop")
    assert "duplicate email refused" in expected
    assert _scenario(tool_gateway.port, "txngate", "txngate") == expected
