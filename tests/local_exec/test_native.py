"""local_exec.native: native copies of large snapshots read again, through
the engine as the planner calls it; the answers are the same as over the
Arrow tables, a copy goes with its table, and a query's copy is not
dropped under it."""

from __future__ import annotations

import decimal
import gc
import uuid

import pyarrow as pa

from local_exec import LocalEngine
from local_exec.native import estimated_bytes


def _table(n: int, offset: int = 0) -> pa.Table:
    return pa.table({
        "id": pa.array(range(offset, offset + n), pa.int32()),
        "n": pa.array([decimal.Decimal(i) / 100 for i in range(n)], pa.decimal128(12, 2)),
        "t": pa.array([None if i % 7 == 0 else f"v{i % 13}" for i in range(n)]),
        "l": pa.array([[i, None] for i in range(n)], pa.list_(pa.int64())),
        "ts": pa.array(range(n), pa.timestamp("us", tz="UTC")),
        "u": pa.array([uuid.UUID(int=i).bytes for i in range(n)], pa.binary(16)),
    })


QUERY = "SELECT count(*), sum(n), count(t), max(l), min(ts), max(u::text), sum(id) FILTER (WHERE t = 'v3') FROM r"


def _engine() -> LocalEngine:
    return LocalEngine()


async def test_a_table_read_again_is_scanned_from_its_copy_with_the_same_answer():
    engine = _engine()
    table = _table(1000)
    first = await engine.run(QUERY, {"r": table})
    await engine.run(QUERY, {"r": table})  # the second read starts a copy
    engine.natives.settle()
    assert engine.natives.built == 1 and engine.natives.hits == 0
    third = await engine.run(QUERY, {"r": table})
    assert engine.natives.hits == 1
    assert third.equals(first), (third, first)
    # another table (even with the same shape) is not answered from that copy
    other = await engine.run(QUERY, {"r": _table(1000, offset=5)})
    assert other.column(6).to_pylist() != first.column(6).to_pylist()
    # a table read once is not copied
    await engine.run(QUERY, {"r": _table(10)})
    engine.natives.settle()
    assert engine.natives.built == 1


async def test_a_copy_declares_its_columns_without_nulls_not_null():
    """Columns of a copy holding no NULL are NOT NULL (DuckDB plans joins
    and aggregates over them the better); one holding a NULL stays
    nullable; the answers stay the Arrow table's."""
    engine = _engine()
    table = _table(1000)
    first = await engine.run(QUERY, {"r": table})
    await engine.run(QUERY, {"r": table})
    engine.natives.settle()
    name = engine.natives.use(table)
    try:
        cur = engine._cursor()
        nullable = dict(cur.sql(f"SELECT column_name, is_nullable FROM information_schema.columns WHERE table_name = '{name}'").fetchall())
        cur.close()
    finally:
        engine.natives.release([name])
    assert nullable == {"id": "NO", "n": "NO", "t": "YES", "l": "NO", "ts": "NO", "u": "NO"}
    assert (await engine.run(QUERY, {"r": table})).equals(first)


async def test_a_copy_goes_with_its_table():
    engine = _engine()
    table = _table(500)
    for _ in range(2):
        await engine.run(QUERY, {"r": table})
    engine.natives.settle()
    [name] = engine.natives.names()
    joined = await engine.run("SELECT count(*) AS c FROM r JOIN s USING (id)", {"r": table, "s": table})  # one copy, two leases
    assert joined.column("c").to_pylist() == [500] and engine.natives.hits == 2
    del table
    gc.collect()
    await engine.run(QUERY, {"r": _table(200)})  # any use notices the death
    engine.natives.settle()
    assert engine.natives.dropped == 1 and engine.natives.names() == []
    listed = await engine.run(f"SELECT count(*) AS c FROM duckdb_tables() WHERE table_name = '{name}'")
    assert listed.column("c").to_pylist() == [0]


async def test_copies_stay_under_their_budget_and_a_leased_copy_outlives_its_retirement():
    engine = _engine()
    a, b = _table(800), _table(800, offset=1)
    engine.natives.max_bytes = int(estimated_bytes(a) * 1.5)  # room for one copy
    for _ in range(2):
        await engine.run(QUERY, {"r": a})
    engine.natives.settle()
    stream = await engine.stream("SELECT id FROM r ORDER BY id", {"r": a})  # leases a's copy
    assert engine.natives.hits == 1
    for _ in range(2):
        await engine.run(QUERY, {"r": b})
    engine.natives.settle()  # b's copy retired a's, which the stream still reads
    assert engine.natives.built == 2 and engine.natives.dropped == 0
    ids = []
    while (batch := await stream.next()) is not None:
        ids += batch.column(0).to_pylist()
    assert ids == list(range(800))
    engine.natives.settle()
    assert engine.natives.dropped == 1 and len(engine.natives.names()) == 1


async def test_copies_are_read_through_ctes_in_every_query_shape():
    """A copy is named to the query by a CTE (not a temporary view) where a
    WITH can lead it, merged into the query's own WITH (RECURSIVE) list;
    views fall back to temporary views. Each shape answers as over Arrow."""
    queries = [
        "SELECT count(*) AS c, sum(id) AS s FROM r",
        "  select count(*) AS c, sum(id) AS s FROM r JOIN r AS r2 USING (id)",
        "WITH x AS (SELECT id FROM r WHERE id < 10) SELECT count(*) AS c, sum(id) AS s FROM x",
        "WITH RECURSIVE w(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM w WHERE i < 5) SELECT count(*) AS c, sum(id) AS s FROM r, w",
        "WITH recursive_x AS (SELECT id FROM r) SELECT count(*) AS c, sum(id) AS s FROM recursive_x",
        "(SELECT count(*) AS c, sum(id) AS s FROM r)",
    ]
    engine = _engine()
    arrow = [await engine.run(q, {"r": _table(300)}) for q in queries]  # each an Arrow table read once: never copied
    table = _table(300)
    for _ in range(2):
        await engine.run(queries[0], {"r": table})
    engine.natives.settle()
    assert engine.natives.built == 1 and engine.natives.hits == 0
    for query, expected in zip(queries, arrow):
        assert (await engine.run(query, {"r": table})).equals(expected), query
    viewed = await engine.run("SELECT count(*) AS c, sum(id) AS s FROM v", {"r": table}, views=[("v", "SELECT * FROM r")])
    assert viewed.equals(arrow[0])
    assert engine.natives.hits == len(queries) + 1
