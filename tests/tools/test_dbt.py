"""dbt end to end (tests/tools/dbt_scenario.py: seed, run, an incremental
run, two snapshots, test, with 4 threads and persist_docs) against txngate
and against the real PostgreSQL: the same printout from both."""

from __future__ import annotations

from tests.tools.scenarios import beside_postgres


def test_dbt_seed_run_snapshot_test_match_postgres(tool_gateway, pg_server):
    expected, got = beside_postgres(pg_server, tool_gateway, "dbt_shop",
                                    lambda port, user, db: ["-m", "tests.tools.dbt_scenario", str(port), user, db])
    assert "dbt test: ok" in expected and "('Ada', 'ada@lovelace.org', True)" in expected.replace("(1, 'Ada'", "('Ada'")
    assert got == expected
