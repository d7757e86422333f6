"""A statement that touches rows by key costs what it touches, not what the
table holds: 1-row INSERT (its uniqueness check), UPDATE and DELETE by key,
point SELECT, INSERT ... ON CONFLICT and MERGE joining on the key read no full snapshot, materialize
no contents and sort nothing, in a table of 2,000 rows as in one of 20,000
(counted by the snapshot cache's ``stats``, not timed)."""

from __future__ import annotations

from collections import Counter

from tests.planner.helpers import rows

STATEMENTS = [
    "INSERT INTO {t} VALUES ({new}, 'new{i}', 0)",
    "UPDATE {t} SET v = v + 1 WHERE id = {next}",
    "UPDATE {t} SET name = 'r' || id WHERE name = 'n{i}3' AND v >= 0",
    "DELETE FROM {t} WHERE id IN ({far}, '{farther}')",
    "SELECT name, v FROM {t} WHERE id = {next}",
    "SELECT count(*) FROM {t} AS x WHERE x.id = {next} AND v > 0",
    "INSERT INTO {t} VALUES ({next}, 'dup', 0) ON CONFLICT (id) DO UPDATE SET v = excluded.v + 10",
    "MERGE INTO {t} AS m USING (VALUES ({far3}, 5), ({new3}, 1)) AS s(id, d) ON m.id = s.id"
    " WHEN MATCHED THEN UPDATE SET v = m.v + s.d WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'm' || s.id, s.d)",
]


async def _touched(db, session, table: str, n: int) -> Counter:
    before = Counter(db.snapshots.stats)
    for i in range(1, 6):
        for sql in STATEMENTS:
            await session.execute(sql.format(t=table, i=i, new=n + i, next=i + 1, far=i + 100, farther=i + 200, far3=i + 300, new3=n + 100 + i))
    return Counter(db.snapshots.stats) - before


async def test_point_statements_cost_the_same_at_any_table_size(db):
    s = db.session()
    touched = {}
    for n in (2_000, 20_000):
        table = f"t{n}"
        await s.execute(f"CREATE TABLE {table} (id bigint PRIMARY KEY, name text UNIQUE, v integer)")
        await s.execute(f"INSERT INTO {table} SELECT g, 'n' || g, 0 FROM generate_series(1, {n}) g")
        await s.execute(f"SELECT * FROM {table} WHERE id = 1")  # the cache entry exists, the runs are sorted
        await s.execute(f"SELECT * FROM {table} WHERE name = 'n1'")
        touched[n] = await _touched(db, s, table, n)
        assert await rows(s, f"SELECT count(*), sum(v) FROM {table} WHERE id <= 5") == [(5, 4 * 10)]  # ids 2..5: +1, then the upsert sets 0 + 10
        assert await rows(s, f"SELECT count(*), sum(v) FROM {table} WHERE id BETWEEN 301 AND 305 OR id > {n + 100}") == [(10, 5 * 5 + 5)]
    for n, counts in touched.items():
        assert counts["loaded"] == counts["scanned"] == counts["sorted"] == 0, (n, counts)
        assert 0 < counts["searched"] < 200, (n, counts)
    assert touched[2_000]["fetched"] == touched[20_000]["fetched"], touched
