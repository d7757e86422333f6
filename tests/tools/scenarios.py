"""Running a tool's scenario (a program printing what the tool saw) for the
tests that compare txngate's printout with PostgreSQL's."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_tool(argv: list[str], cwd: str = ROOT, timeout: float = 600) -> str:
    """The standard output of a scenario that must succeed (``argv``; a
    ``-m module`` runs with this interpreter)."""
    if argv[0] == "-m":
        argv = [sys.executable, *argv]
    res = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


def beside_postgres(pg_server, tool_gateway, database: str, argv_for, **kw) -> tuple[str, str]:
    """(PostgreSQL's printout, txngate's) of one scenario: ``argv_for(port,
    user, database)`` gives its command line; PostgreSQL's database is made
    afresh."""
    pg_server.psql(f"DROP DATABASE IF EXISTS {database}")
    pg_server.psql(f"CREATE DATABASE {database}")
    expected = run_tool(argv_for(pg_server.port, "postgres", database), **kw)
    return expected, run_tool(argv_for(tool_gateway.port, "txngate", "txngate"), **kw)
