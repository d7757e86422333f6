"""Spark through the wire: progress notices reach psycopg while a long job
runs, a CancelRequest from a second connection (psycopg's ``cancel()``)
stops the job with 57014, statement_timeout does too, and the session and
the server are usable afterwards."""

from __future__ import annotations

import json
import threading

import psycopg
import pytest

from tests.servers import Gateway

# a join whose result is ~1e11 rows: it only ever ends by being cancelled
ENDLESS = "SELECT count(*) FROM big a JOIN big b ON a.k = b.k"


def _serve(tmp_path_factory, master: str):
    g = Gateway(str(tmp_path_factory.mktemp("spark-gateway")), "--spark-master", master)
    yield g
    if g.proc.poll() is None:
        assert g.stop() == 0  # a clean shutdown stops the Spark driver too


@pytest.fixture(scope="module")
def spark_gateway(tmp_path_factory):
    yield from _serve(tmp_path_factory, "local[2]")


def _connect(g, notices=None):
    conn = psycopg.connect(g.dsn(), autocommit=True)
    if notices is not None:
        conn.add_notice_handler(lambda d: notices.append(d.message_primary))
    return conn


@pytest.fixture(scope="module")
def big(spark_gateway):
    with _connect(spark_gateway) as setup:
        setup.execute("CREATE TABLE big (id bigint, k int)")
        setup.execute("INSERT INTO big SELECT g, g % 3 FROM generate_series(1, 600000) g")
    return spark_gateway


def test_progress_then_cancel_from_another_connection(spark_gateway, big):
    notices: list[str] = []
    got_progress = threading.Event()
    with _connect(spark_gateway, notices) as conn:
        conn.add_notice_handler(lambda d: got_progress.set() if d.message_primary.startswith("Spark progress") else None)
        conn.execute("SET txngate.engine = spark")
        conn.execute("SET txngate.progress_interval = '300ms'")

        def cancel_after_progress():
            if got_progress.wait(120):
                conn.cancel()

        canceller = threading.Thread(target=cancel_after_progress)
        canceller.start()
        with pytest.raises(psycopg.errors.QueryCanceled) as info:
            conn.execute(ENDLESS)
        canceller.join()
        assert info.value.sqlstate == "57014"
        # the server cancelled the statement's Spark job group, and none of its jobs runs on
        cancelled = [json.loads(line) for line in spark_gateway.output().splitlines() if "spark job group cancelled" in line]
        assert cancelled and cancelled[-1]["running_jobs"] == 0 and cancelled[-1]["reason"] == "cancel", cancelled
        progress = [n for n in notices if n.startswith("Spark progress")]
        assert progress and "tasks" in progress[0], notices
        # the session goes on, on Spark
        assert conn.execute("SELECT count(*), sum(k) FROM big").fetchone() == (600000, 600000)
        conn.execute("SET statement_timeout = '2s'")
        with pytest.raises(psycopg.errors.QueryCanceled) as info:
            conn.execute(ENDLESS)
        assert "statement timeout" in str(info.value)
        conn.execute("SET statement_timeout = 0")
        assert conn.execute("SELECT count(*) FROM big WHERE k = 1").fetchone() == (200000,)
    with _connect(spark_gateway) as other:  # the server goes on too
        other.execute("SET txngate.engine = spark")
        assert other.execute("SELECT max(id) FROM big").fetchone() == (600000,)


@pytest.fixture(scope="module")
def broken_spark_gateway(tmp_path_factory):
    yield from _serve(tmp_path_factory, "bogus://nowhere:1")


def test_spark_that_cannot_start(broken_spark_gateway):
    notices: list[str] = []
    with _connect(broken_spark_gateway, notices) as conn:
        conn.execute("CREATE TABLE t (a int)")
        conn.execute("INSERT INTO t VALUES (1), (2)")
        conn.execute("SET txngate.engine = spark")
        with pytest.raises(psycopg.Error) as info:
            conn.execute("SELECT sum(a) FROM t")
        assert info.value.sqlstate == "58000" and "could not start Spark" in str(info.value)
        assert "txngate.spark_fallback" in (info.value.diag.message_hint or "")
        conn.execute("SET txngate.spark_fallback = on")
        assert conn.execute("SELECT sum(a) FROM t").fetchone() == (3,)
        assert any("running on the local engine" in n for n in notices), notices
        conn.execute("SET txngate.engine = auto")  # small tables stay local: Spark is never asked
        assert conn.execute("SELECT count(*) FROM t").fetchone() == (2,)


def test_large_spark_result_streams_in_bounded_memory(spark_gateway, big):
    """3M rows (about 100 MiB on the wire) from Spark, read row by row: the
    gateway's own memory (the driver JVM is a process of its own) grows by
    far less than the result, as batches are pulled a partition at a time."""
    from tests.gateway.test_streaming import peak_rss_mib

    with _connect(spark_gateway) as conn:
        conn.execute("SET txngate.engine = spark")
        assert conn.execute("SELECT count(*) FROM big").fetchone() == (600000,)  # Spark and the table warm
        with open(f"/proc/{spark_gateway.proc.pid}/clear_refs", "w") as f:
            f.write("5")  # reset the peak (VmHWM) to the current size
        base = peak_rss_mib(spark_gateway.proc.pid)
        received = 0
        with conn.cursor() as cur:  # libpq's single-row mode: rows are read as they arrive
            for _row in cur.stream("SELECT a.id, g, 'row ' || a.id AS s FROM big a CROSS JOIN generate_series(1, 5) AS g"):
                received += 1
        assert received == 3_000_000
        grew = peak_rss_mib(spark_gateway.proc.pid) - base
        assert grew < 100, f"gateway peak RSS grew {grew:.0f} MiB for a ~100 MiB result"
