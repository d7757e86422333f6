"""``txngate serve --workers 2``: two gateway processes on one port, one
store. Connections land on both; a write through one is read through the
other; pg_stat_activity on either lists the sessions of both;
pg_cancel_backend, pg_terminate_backend and a client's CancelRequest reach
a backend of the other worker; a /metrics scrape (read with Prometheus' own
parser) answers for both workers."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from gateway.peers import owner
from tests.gateway.test_backends import SLOW, _running
from tests.servers import Gateway, free_port


@pytest.fixture(scope="module")
def workers(tmp_path_factory):
    metrics_port = free_port()
    g = Gateway(str(tmp_path_factory.mktemp("workers")), "--workers", "2", "--spark-master", "none", "--metrics-port", str(metrics_port))
    g.metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
    g.wait_output("worker 1 of 2")
    g.wait_output("worker 2 of 2")
    yield g
    if g.proc.poll() is None:
        assert g.stop() == 0


async def _one_on_each(g) -> tuple[list, list]:
    """Connections until each worker has one (bounded); returns (on worker
    0, on worker 1)."""
    on: dict[int, list] = {0: [], 1: []}
    for _ in range(64):
        c = await psycopg.AsyncConnection.connect(g.dsn(), autocommit=True)
        on[owner(c.info.backend_pid)].append(c)
        if on[0] and on[1]:
            return on[0], on[1]
    raise AssertionError(f"64 connections all reached one worker: {[len(v) for v in on.values()]}")


async def test_two_workers_share_the_store_and_see_each_others_sessions(workers):
    first, second = await _one_on_each(workers)
    a, b = first[0], second[0]
    try:
        await a.execute("CREATE TABLE w (id integer PRIMARY KEY, v text)")
        await a.execute("INSERT INTO w VALUES (1, 'from a')")
        assert await (await b.execute("SELECT v FROM w WHERE id = 1")).fetchone() == ("from a",), "a commit is read on the other worker"
        await b.execute("SELECT 'marker of b'")
        rows = await (await a.execute("SELECT pid, state, query FROM pg_stat_activity ORDER BY pid")).fetchall()
        assert (b.info.backend_pid, "idle", "SELECT 'marker of b'") in rows
        assert (a.info.backend_pid, "active", "SELECT pid, state, query FROM pg_stat_activity ORDER BY pid") in rows

        pid = b.info.backend_pid
        slow = asyncio.ensure_future(b.execute(SLOW))
        await _running(a, pid)
        assert await (await a.execute("SELECT pg_cancel_backend(%s)", [pid])).fetchone() == (True,)
        with pytest.raises(psycopg.errors.QueryCanceled):
            await slow
        assert await (await b.execute("SELECT 1")).fetchone() == (1,)

        # a client's CancelRequest, on a new connection to either worker
        for _ in range(4):
            slow = asyncio.ensure_future(b.execute(SLOW))
            await _running(a, pid)
            await b.cancel_safe()
            with pytest.raises(psycopg.errors.QueryCanceled):
                await slow

        slow = asyncio.ensure_future(b.execute(SLOW))
        await _running(a, pid)
        assert await (await a.execute("SELECT pg_terminate_backend(%s)", [pid])).fetchone() == (True,)
        with pytest.raises(psycopg.errors.AdminShutdown):
            await slow
        assert await (await a.execute("SELECT pg_cancel_backend(%s)", [pid + 7])).fetchone() == (False,)
    finally:
        for c in first + second:
            await c.close()


def _scrape(url: str) -> list:
    """Every sample of a scrape, as Prometheus' parser reads them."""
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        return [s for f in text_string_to_metric_families(response.read().decode()) for s in f.samples]


def _named(samples: list, name: str, **labels) -> list:
    return [s for s in samples if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())]


def _total(samples: list, name: str, **labels) -> float:
    return sum(s.value for s in _named(samples, name, **labels))


async def test_metrics_endpoint_answers_for_every_worker(workers):
    before = _scrape(workers.metrics_url)
    first, second = await _one_on_each(workers)
    try:
        for i, conn in enumerate(first + second):
            await conn.execute(f"CREATE TABLE IF NOT EXISTS m{i} (id integer PRIMARY KEY)")
            await conn.execute(f"INSERT INTO m{i} VALUES (1), (2)")
            with pytest.raises(psycopg.errors.UndefinedTable):
                await conn.execute("SELECT * FROM no_such_table")
        for _ in range(4):  # whichever worker a scrape reaches answers for both
            after = _scrape(workers.metrics_url)
            assert {s.labels["worker"] for s in _named(after, "txngate_sessions")} == {"0", "1"}
            assert _total(after, "txngate_sessions") >= len(first + second)
            for worker in ("0", "1"):
                assert _total(after, "txngate_statement_errors_total", worker=worker, sqlstate="42P01") >= 1
            assert _total(after, "txngate_commits_total") >= _total(before, "txngate_commits_total") + 2 * len(first + second)
            for name in ("txngate_statement_seconds", "txngate_commit_seconds"):
                for worker in ("0", "1"):
                    buckets = _named(after, f"{name}_bucket", worker=worker)
                    counts = [s.value for s in buckets]
                    assert counts == sorted(counts) and buckets[-1].labels["le"] == "+Inf"
                    assert counts[-1] == _total(after, f"{name}_count", worker=worker) > 0
            for name in ("txngate_apply_backlog", "txngate_snapshot_cache_hits_total", "txngate_maintenance_running",
                         "txngate_commit_conflicts_total", "txngate_commit_retries_total"):
                assert _named(after, name), name
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(workers.metrics_url.replace("/metrics", "/other"), timeout=10)
        assert info.value.code == 404
    finally:
        for conn in first + second:
            await conn.close()
