"""Django end to end (tests/tools/django_scenario.py) against txngate and
against the real PostgreSQL: the same printout from both."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _scenario(port: int, user: str, database: str) -> str:
    res = subprocess.run([sys.executable, "-m", "tests.tools.django_scenario", str(port), user, database],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


def test_django_migrate_and_orm_match_postgres(tool_gateway, pg_server):
    pg_server.psql("DROP DATABASE IF EXISTS django_shop")
    pg_server.psql("CREATE DATABASE django_shop")
    expected = _scenario(pg_server.port, "postgres", "django_shop")
    assert "duplicate email refused" in expected
    assert _scenario(tool_gateway.port, "txngate", "txngate") == expected
