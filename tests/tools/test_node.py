"""node-postgres (a Pool of 10 in concurrent transactions, typed
parameters, = ANY($1), named statements, error fields, pg-cursor) and
postgres.js (sql.begin transactions, which describe every statement first,
arrays, jsonb, helpers) end to end (tests/tools/node/scenario.js, the
versions pinned in its package-lock.json) against txngate and against the
real PostgreSQL: the same printout from both."""

from __future__ import annotations

import os
import shutil
import subprocess

from tests.tools.scenarios import run_tool

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "node")


def _installed() -> None:
    assert shutil.which("node") and shutil.which("npm"), "node and npm are needed (Debian: nodejs, npm)"
    if not os.path.isdir(os.path.join(HERE, "node_modules")):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=HERE, check=True, capture_output=True, timeout=600)


def _scenario(url: str) -> str:
    return run_tool(["node", "scenario.js", url], cwd=HERE, timeout=300)


def test_node_drivers_match_postgres(tool_gateway, pg_server):
    _installed()
    pg_server.psql("DROP DATABASE IF EXISTS node_clients")
    pg_server.psql("CREATE DATABASE node_clients")
    expected = _scenario(f"postgres://postgres@127.0.0.1:{pg_server.port}/node_clients")
    assert 'pool transactions: {"committed":80,"errors":[]}' in expected and '"ok n7"' in expected
    assert _scenario(f"postgres://txngate@127.0.0.1:{tool_gateway.port}/txngate") == expected
