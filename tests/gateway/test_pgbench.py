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
