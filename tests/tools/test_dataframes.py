"""pandas, ADBC, connectorx, polars and pg8000 end to end
(tests/tools/dataframes_scenario.py) against txngate and against the real
PostgreSQL: the same printout from both (binary COPY through the extended
protocol, ingest without a trailer, regclass and ANY parameters, type
introspection by typreceive, error fields)."""

from __future__ import annotations

from tests.tools.scenarios import run_tool


def _scenario(url: str) -> str:
    return run_tool(["-m", "tests.tools.dataframes_scenario", url])


def test_dataframe_libraries_match_postgres(tool_gateway, pg_server):
    pg_server.psql("DROP DATABASE IF EXISTS dataframes")
    pg_server.psql("CREATE DATABASE dataframes")
    expected = _scenario(f"postgresql://postgres@127.0.0.1:{pg_server.port}/dataframes")
    assert "adbc objects: ['adbc_t']" in expected and "pg8000 error: ('23505', 'p8_pkey')" in expected
    assert _scenario(f"postgresql://txngate@127.0.0.1:{tool_gateway.port}/txngate") == expected
