"""dbt end to end against one server: ``python -m tests.tools.dbt_scenario
PORT USER DATABASE`` copies tests/tools/dbt_shop to a temporary folder,
points a profile (4 threads) at the server and runs, printing what each
step did and what the tables hold after it:

- ``dbt seed`` (two CSV files), ``dbt run`` (a view, a table, an
  incremental model; persist_docs writes COMMENT ON), then new orders and
  a pending one changed, and ``dbt run`` again (the incremental merge);
- ``dbt snapshot``, a customer's email changed and one added, ``dbt
  snapshot`` again (the check strategy's history);
- ``dbt test`` (unique, not_null, relationships, accepted_values).

A failing step prints dbt's result and stops with status 1.
"""

from __future__ import annotations

import decimal
import os
import shutil
import sys
import tempfile

import psycopg

PROJECT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dbt_shop")
SCHEMA = "dbt_shop"


def main(port: int, user: str, database: str) -> int:
    from dbt.cli.main import dbtRunner

    with tempfile.TemporaryDirectory() as tmp:
        project = shutil.copytree(PROJECT, os.path.join(tmp, "dbt_shop"))
        with open(os.path.join(project, "profiles.yml"), "w") as f:
            f.write(f"dbt_shop:\n  target: t\n  outputs:\n    t:\n      type: postgres\n      host: 127.0.0.1\n      port: {port}\n"
                    f"      user: {user}\n      password: unused\n      dbname: {database}\n      schema: {SCHEMA}\n      threads: 4\n")
        dsn = f"host=127.0.0.1 port={port} user={user} dbname={database}"
        runner = dbtRunner()

        def dbt(*args: str) -> None:
            res = runner.invoke([*args, "--project-dir", project, "--profiles-dir", project, "--no-use-colors", "--quiet"])
            outcomes = sorted(f"{r.node.name}:{r.status}" for r in (res.result or []) if hasattr(r, "node")) if res.result is not None else []
            print(f"dbt {' '.join(args)}: {'ok' if res.success else 'FAILED'} {outcomes}")
            if not res.success:
                print(res.exception, file=sys.stderr)
                raise SystemExit(1)

        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
            dbt("seed")
            dbt("run")
            show(conn, "after the first run")
            conn.execute(f"INSERT INTO {SCHEMA}.orders VALUES (6, 2, 7.25, 'shipped', '2024-04-01 12:00:00'), "
                         "(7, 4, 300.00, 'pending', '2024-04-02 13:00:00')")
            conn.execute(f"UPDATE {SCHEMA}.orders SET status = 'shipped' WHERE id = 4")
            dbt("run")
            show(conn, "after the incremental run")
            dbt("snapshot")
            conn.execute(f"UPDATE {SCHEMA}.customers SET email = 'ada@lovelace.org' WHERE id = 1")
            conn.execute(f"INSERT INTO {SCHEMA}.customers VALUES (5, 'Eve', 'eve@example.com', '2024-05-01')")
            dbt("snapshot")
            rows = conn.execute(f"SELECT id, name, email, dbt_valid_to IS NULL FROM {SCHEMA}.customers_snapshot "
                                "ORDER BY id, dbt_valid_to NULLS LAST").fetchall()
            print("snapshot:", rows)
            dbt("test")
            comments = conn.execute(
                "SELECT c.relname, d.objsubid, d.description FROM pg_description d JOIN pg_class c ON c.oid = d.objoid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s ORDER BY 1, 2", (SCHEMA,)).fetchall()
            print("comments:", comments)
    return 0


def show(conn, when: str) -> None:
    """The models' rows; numerics by value (txngate's decimals keep their
    column's scale where PostgreSQL's keep each value's: 0.00 for 0)."""
    for table in ("stg_orders", "customer_totals", "orders_incremental"):
        rows = conn.execute(f"SELECT * FROM {SCHEMA}.{table} ORDER BY 1").fetchall()
        rows = [tuple(format(v.normalize(), "f") if isinstance(v, decimal.Decimal) else v for v in row) for row in rows]
        print(f"{when}: {table}: {rows}")


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), sys.argv[2], sys.argv[3]))
