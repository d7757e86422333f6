"""SQLAlchemy 2.1 and Alembic end to end (tests/tools/sqlalchemy_scenario.py)
against txngate and against the real PostgreSQL: the same printout from
both, so reflection sees the schema that was created (names of keys,
indexes and foreign keys) and Alembic's autogenerate finds no difference."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _scenario(url: str) -> str:
    res = subprocess.run([sys.executable, "-m", "tests.tools.sqlalchemy_scenario", url], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


def test_sqlalchemy_and_alembic_match_postgres(tool_gateway, pg_server):
    pg_server.psql("DROP DATABASE IF EXISTS sqlalchemy_alembic")
    pg_server.psql("CREATE DATABASE sqlalchemy_alembic")
    expected = _scenario(f"postgresql+psycopg://postgres@127.0.0.1:{pg_server.port}/sqlalchemy_alembic")
    assert "autogenerate diff []" in expected and "book_title_idx" in expected
    assert _scenario(f"postgresql+psycopg://txngate@127.0.0.1:{tool_gateway.port}/txngate") == expected
