"""pandas, ADBC, connectorx, polars and pg8000 end to end
(tests/tools/dataframes_scenario.py) against txngate and against the real
PostgreSQL: the same printout from both (binary COPY through the extended
protocol, ingest without a trailer, regclass and ANY parameters, type
introspection by typreceive, error fields)."""

from __future__ import annotations

from tests.tools.scenarios import beside_postgres


def test_dataframe_libraries_match_postgres(tool_gateway, pg_server):
    expected, got = beside_postgres(pg_server, tool_gateway, "dataframes", lambda port, user, db: [
        "-m", "tests.tools.dataframes_scenario", f"postgresql://{user}@127.0.0.1:{port}/{db}"])
    assert "adbc objects: ['adbc_t']" in expected and "pg8000 error: ('23505', 'p8_pkey')" in expected
    assert got == expected
