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

from tests.tools.scenarios import beside_postgres

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "node")


def _installed() -> None:
    assert shutil.which("node") and shutil.which("npm"), "node and npm are needed (Debian: nodejs, npm)"
    if not os.path.isdir(os.path.join(HERE, "node_modules")):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=HERE, check=True, capture_output=True, timeout=600)


def test_node_drivers_match_postgres(tool_gateway, pg_server):
    _installed()
    expected, got = beside_postgres(pg_server, tool_gateway, "node_clients", lambda port, user, db: [
        "node", "scenario.js", f"postgres://{user}@127.0.0.1:{port}/{db}"], cwd=HERE, timeout=300)
    assert 'pool transactions: {"committed":80,"errors":[]}' in expected and '"ok n7"' in expected
    assert got == expected
