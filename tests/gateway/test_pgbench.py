"""pgbench with a custom script (point SELECT, UPDATE, INSERT) through
txngate with 8 clients, in simple and extended protocol modes: no failed
transactions, and every UPDATE and INSERT counted exactly once."""

from __future__ import annotations

import re
import subprocess
import uuid

import psycopg
import pytest

SCRIPT = """\\set id random(1, 200)
SELECT v FROM {t} WHERE id = :id;
UPDATE {t} SET v = v + 1 WHERE id = :id;
INSERT INTO {t}_log VALUES (:id, :client_id);
"""


@pytest.mark.parametrize("mode", ["simple", "extended"])
def test_pgbench_custom_script(gateway, tmp_path, mode):
    t = f"pgb_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE TABLE {t} (id int PRIMARY KEY, v bigint NOT NULL)")
        conn.execute(f"INSERT INTO {t} SELECT g, 0 FROM generate_series(1, 200) g")
        conn.execute(f"CREATE TABLE {t}_log (id int, client int)")
    script = tmp_path / "bench.sql"
    script.write_text(SCRIPT.format(t=t))
    clients, per_client = 8, 5
    res = subprocess.run(
        ["pgbench", "-n", "-h", "127.0.0.1", "-p", str(gateway.port), "-U", "txngate", "-f", str(script),
         "-c", str(clients), "-j", "2", "-t", str(per_client), "-M", mode, "txngate"],
        capture_output=True, text=True, timeout=240,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    done = re.search(r"number of transactions actually processed: (\d+)/(\d+)", res.stdout)
    assert done and done.group(1) == done.group(2) == str(clients * per_client), res.stdout
    assert "number of failed transactions: 0 " in res.stdout, res.stdout
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        total, logged = conn.execute(f"SELECT (SELECT sum(v) FROM {t}), (SELECT count(*) FROM {t}_log)").fetchone()
    assert total == logged == clients * per_client


def _pgbench(port: int, user: str, database: str, *args: str) -> str:
    res = subprocess.run(["pgbench", "-h", "127.0.0.1", "-p", str(port), "-U", user, *args, database],
                         capture_output=True, text=True, timeout=240)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout + res.stderr


BALANCES = """SELECT (SELECT sum(abalance) FROM pgbench_accounts), (SELECT sum(tbalance) FROM pgbench_tellers),
                     (SELECT sum(bbalance) FROM pgbench_branches), (SELECT sum(delta) FROM pgbench_history),
                     (SELECT count(*) FROM pgbench_history)"""
KEYS = """SELECT c.relname, a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
          JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
          WHERE i.indisprimary AND c.relname LIKE 'pgbench%' ORDER BY 1"""


def test_pgbench_builtin_init_and_tpcb(gateway, pg_server):
    """pgbench's own schema and data (-i: DROP/CREATE with fillfactor,
    COPY in a transaction, VACUUM, ALTER TABLE ADD PRIMARY KEY), then its
    TPC-B-like and select-only scripts, on txngate and on PostgreSQL: both
    finish every transaction and end with the same keys and consistent
    balances (each transaction's delta in accounts, tellers, branches and
    history alike)."""
    pg_server.psql("DROP DATABASE IF EXISTS pgbench")
    pg_server.psql("CREATE DATABASE pgbench")
    outcomes = []
    for port, user, database, dsn in ((gateway.port, "txngate", "txngate", gateway.dsn()),
                                      (pg_server.port, "postgres", "pgbench", pg_server.url(database="pgbench"))):
        init = _pgbench(port, user, database, "-i", "-s", "1")
        assert "creating primary keys..." in init and "done in" in init, init
        tpcb = _pgbench(port, user, database, "-c", "4", "-j", "2", "-t", "6", "--max-tries", "50")
        assert "number of transactions actually processed: 24/24" in tpcb and "number of failed transactions: 0 " in tpcb, tpcb
        with psycopg.connect(dsn, autocommit=True) as conn:
            accounts, tellers, branches, history, count = conn.execute(BALANCES).fetchone()
            assert accounts == tellers == branches == history and count == 24  # (pgbench empties history first)
            outcomes.append(conn.execute(KEYS).fetchall())
        select = _pgbench(port, user, database, "-S", "-M", "prepared", "-c", "2", "-t", "20")
        assert "number of transactions actually processed: 40/40" in select, select
    assert outcomes[0] == outcomes[1] == [("pgbench_accounts", "aid"), ("pgbench_branches", "bid"), ("pgbench_tellers", "tid")]
