"""Foreign keys enforced (planner.references), beside PostgreSQL: every
statement ends alike (tag, or SQLSTATE, message, DETAIL and the fields
naming the table, column and constraint) and leaves the
same rows; deferred keys are checked at COMMIT; a concurrent delete of the
referenced row and insert of a referencing one never both commit, across
two gateways; and a check costs what it touches, not the tables' sizes."""

from __future__ import annotations

from collections import Counter

import asyncpg
import pytest

from planner.errors import SqlError

SETUP = [
    "CREATE TABLE fp (id int PRIMARY KEY, code text UNIQUE, n int)",
    "CREATE TABLE fc (id int PRIMARY KEY, pid int REFERENCES fp ON DELETE CASCADE,"
    " pcode text REFERENCES fp(code) ON UPDATE CASCADE ON DELETE SET NULL, note text)",
    "CREATE TABLE fg (id int PRIMARY KEY, cid int REFERENCES fc(id))",
    "CREATE TABLE fs (id int PRIMARY KEY, parent int REFERENCES fs(id))",
    "CREATE TABLE fd (id int PRIMARY KEY, pid int DEFAULT 1 REFERENCES fp ON DELETE SET DEFAULT)",
    "CREATE TABLE fdp (id int PRIMARY KEY)",
    "CREATE TABLE fdc (id int PRIMARY KEY, pid int REFERENCES fdp DEFERRABLE INITIALLY DEFERRED)",
    "CREATE TABLE fdc2 (id int PRIMARY KEY, pid int, CONSTRAINT fdc2_p FOREIGN KEY (pid) REFERENCES fdp (id) DEFERRABLE INITIALLY DEFERRED)",
    "CREATE TABLE fdi (id int PRIMARY KEY, pid int REFERENCES fdp DEFERRABLE)",
]

#: each a list of statements run in order (a transaction block when it starts with BEGIN)
SCRIPTS = [
    ["INSERT INTO fp VALUES (1, 'a', 0), (2, 'b', 0), (3, 'c', 0), (4, 'd', 0)"],
    ["INSERT INTO fp VALUES (1, 'dup', 0)", "INSERT INTO fp VALUES (NULL, 'x', 0)", "INSERT INTO fp (code) VALUES ('y')"],  # their fields too
    ["INSERT INTO fc VALUES (10, 1, 'a', 'x'), (11, 2, 'b', 'y'), (12, NULL, NULL, 'z'), (13, 4, 'd', 'w')"],
    ["INSERT INTO fc VALUES (14, 9, NULL, 'bad')"],
    ["INSERT INTO fc VALUES (14, NULL, 'zz', 'bad')"],
    ["INSERT INTO fg VALUES (100, 10), (101, 11)"],
    ["DELETE FROM fp WHERE id = 1"],  # cascades to fc 10, which fg 100 still references
    ["DELETE FROM fc WHERE id = 11"],
    ["UPDATE fp SET code = 'bb' WHERE id = 2"],  # ON UPDATE CASCADE
    ["UPDATE fp SET id = 20 WHERE id = 2"],  # NO ACTION
    ["UPDATE fc SET pid = 7 WHERE id = 12"],
    ["UPDATE fc SET note = 'still fine' WHERE id = 12"],
    ["DELETE FROM fp WHERE id = 3"],
    ["DELETE FROM fg WHERE id = 100", "DELETE FROM fp WHERE code = 'd'"],  # cascade deletes fc 13; SET NULL on pcode first
    ["TRUNCATE fp"],
    ["INSERT INTO fd VALUES (1, 2), (2, 2)"],
    ["DELETE FROM fp WHERE id = 2"],  # SET DEFAULT: 1, which no longer exists
    ["INSERT INTO fp VALUES (1, 'a1', 0)", "DELETE FROM fp WHERE id = 2"],  # ... now it does
    ["INSERT INTO fs VALUES (1, NULL), (2, 1), (3, 2)"],
    ["INSERT INTO fs VALUES (5, 4), (4, 5)"],  # rows of one statement referencing each other
    ["INSERT INTO fs VALUES (6, 99)"],
    ["DELETE FROM fs WHERE id = 1"],
    ["INSERT INTO fp VALUES (5, 'e', 0) ON CONFLICT (id) DO NOTHING", "INSERT INTO fc VALUES (30, 5, 'e', 'u') ON CONFLICT (id) DO UPDATE SET pid = 99"],
    ["INSERT INTO fc VALUES (30, 5, 'e', 'u') ON CONFLICT (id) DO UPDATE SET pid = 99"],
    ["INSERT INTO fp VALUES (5, 'e', 0) ON CONFLICT (id) DO UPDATE SET id = 55"],
    ["ALTER TABLE fg ADD CONSTRAINT fg_x FOREIGN KEY (id) REFERENCES fp(id)"],
    ["ALTER TABLE fg ADD CONSTRAINT fg_x FOREIGN KEY (id) REFERENCES fp(id) NOT VALID"],
    # deferred: checked at COMMIT against the transaction's final state
    ["BEGIN", "INSERT INTO fdc VALUES (1, 1)", "INSERT INTO fdp VALUES (1)", "COMMIT"],
    ["BEGIN", "INSERT INTO fdc VALUES (2, 2)", "COMMIT"],
    ["BEGIN", "INSERT INTO fdc2 VALUES (2, 2)", "SELECT count(*) FROM fdc2", "COMMIT"],
    ["BEGIN", "DELETE FROM fdp WHERE id = 1", "COMMIT"],
    ["BEGIN", "DELETE FROM fdp WHERE id = 1", "INSERT INTO fdp VALUES (1)", "COMMIT"],
    ["BEGIN", "INSERT INTO fdc VALUES (3, 3)", "DELETE FROM fdc WHERE id = 3", "COMMIT"],
    ["BEGIN", "SAVEPOINT s", "INSERT INTO fdc VALUES (4, 4)", "ROLLBACK TO SAVEPOINT s", "COMMIT"],
    ["INSERT INTO fdc VALUES (5, 5)"],  # outside a block: checked at the statement's end
    # SET CONSTRAINTS: deferrable keys deferred or checked at once
    ["BEGIN", "SET CONSTRAINTS ALL IMMEDIATE", "INSERT INTO fdc VALUES (6, 6)", "ROLLBACK"],
    ["BEGIN", "INSERT INTO fdc VALUES (7, 7)", "SET CONSTRAINTS fdc_pid_fkey IMMEDIATE", "ROLLBACK"],
    ["BEGIN", "INSERT INTO fdi VALUES (1, 50)", "ROLLBACK"],
    ["BEGIN", "SET CONSTRAINTS fdi_pid_fkey DEFERRED", "INSERT INTO fdi VALUES (1, 50)", "INSERT INTO fdp VALUES (50)", "COMMIT"],
    ["BEGIN", "SET CONSTRAINTS ALL DEFERRED", "INSERT INTO fdi VALUES (2, 51)", "COMMIT"],
    ["BEGIN", "SET CONSTRAINTS nope DEFERRED", "ROLLBACK"],
    ["BEGIN", "SET CONSTRAINTS fc_pid_fkey DEFERRED", "ROLLBACK"],
    ["SET CONSTRAINTS ALL DEFERRED"],
    ["DROP TABLE fp"],
    ["DROP TABLE fp CASCADE"],
    ["INSERT INTO fc VALUES (40, 555, NULL, 'no key any more')"],
]

STATE = ["SELECT * FROM fp ORDER BY id", "SELECT * FROM fc ORDER BY id", "SELECT * FROM fg ORDER BY id", "SELECT * FROM fs ORDER BY id",
         "SELECT * FROM fd ORDER BY id", "SELECT * FROM fdp ORDER BY id", "SELECT * FROM fdc ORDER BY id", "SELECT * FROM fdc2 ORDER BY id",
         "SELECT * FROM fdi ORDER BY id"]


async def _ours(session, sql):
    try:
        result = (await session.execute(sql))[-1]
        return result.rows if sql.startswith("SELECT") else result.tag
    except SqlError as e:
        return (e.sqlstate, e.message, e.detail, e.schema, e.table, e.column, e.constraint)


async def _theirs(conn, sql):
    try:
        if sql.startswith("SELECT"):
            return [tuple(r.values()) for r in await conn.fetch(sql)]
        return await conn.execute(sql)
    except asyncpg.PostgresError as e:
        return (e.sqlstate, e.args[0], e.detail, e.schema_name, e.table_name, e.column_name, e.constraint_name)


async def test_foreign_keys_as_postgres(db, pg_url):
    s, conn = db.session(), await asyncpg.connect(pg_url)
    try:
        for t in ("fg", "fc", "fd", "fp", "fs", "fdc", "fdc2", "fdi", "fdp"):
            await conn.execute(f"DROP TABLE IF EXISTS {t} CASCADE")
        for sql in SETUP:
            await s.execute(sql)
            await conn.execute(sql)
        for script in SCRIPTS:
            for sql in script:
                ours, theirs = await _ours(s, sql), await _theirs(conn, sql)
                assert ours == theirs, f"{script}: {sql}"
            if script[0] != "BEGIN" or script[-1] in ("COMMIT", "ROLLBACK"):
                for q in STATE if "DROP" not in script[0] else STATE[1:]:
                    assert await _ours(s, q) == await _theirs(conn, q), f"{script}: {q}"
    finally:
        await conn.close()


async def _outcome(session, sql):
    try:
        await session.execute(sql)
        return "ok"
    except SqlError as e:
        return e.sqlstate


@pytest.mark.parametrize("parent_first", [True, False])
async def test_delete_of_parent_and_insert_of_child_never_both_commit(two, parent_first):
    a, b = two
    await a.session().execute("CREATE TABLE par (id int PRIMARY KEY)")
    await a.session().execute("CREATE TABLE chi (id int PRIMARY KEY, pid int REFERENCES par)")
    await a.session().execute("INSERT INTO par VALUES (1), (2)")
    deleting, inserting = a.session(), b.session()
    for s in (deleting, inserting):
        await s.execute("BEGIN")
    await deleting.execute("DELETE FROM par WHERE id = 1")  # sees no child yet
    await inserting.execute("INSERT INTO chi VALUES (1, 1)")  # sees the parent still
    first, second = (deleting, inserting) if parent_first else (inserting, deleting)
    assert await _outcome(first, "COMMIT") == "ok"
    assert await _outcome(second, "COMMIT") == "40001"
    left = (await a.session().execute("SELECT (SELECT count(*) FROM par WHERE id = 1), (SELECT count(*) FROM chi)"))[-1].rows
    assert left == ([(0, 0)] if parent_first else [(1, 1)])
    # a child of another parent does not conflict with the delete
    deleting, inserting = a.session(), b.session()
    for s in (deleting, inserting):
        await s.execute("BEGIN")
    await deleting.execute("DELETE FROM par WHERE id = 2" if parent_first else "DELETE FROM chi WHERE id = 1")
    await inserting.execute("INSERT INTO par VALUES (3)")
    assert [await _outcome(s, "COMMIT") for s in (deleting, inserting)] == ["ok", "ok"]


async def test_checks_cost_what_they_touch(db):
    s = db.session()
    touched = {}
    for n in (2_000, 20_000):
        await s.execute(f"CREATE TABLE p{n} (id bigint PRIMARY KEY)")
        await s.execute(f"CREATE TABLE c{n} (id bigint PRIMARY KEY, pid bigint REFERENCES p{n})")
        await s.execute(f"INSERT INTO p{n} SELECT g FROM generate_series(1, {n + 10}) g")
        await s.execute(f"INSERT INTO c{n} SELECT g, g FROM generate_series(1, {n}) g")
        await s.execute(f"SELECT * FROM p{n} WHERE id = 1")  # cache entries exist, runs sorted
        await s.execute(f"SELECT * FROM c{n} WHERE id = 1")
        await s.execute(f"DELETE FROM p{n} WHERE id = {n + 10}")
        before = Counter(db.snapshots.stats)
        for i in range(1, 6):
            await s.execute(f"INSERT INTO c{n} VALUES ({n + i}, {i})")
            await s.execute(f"UPDATE c{n} SET pid = {i + 1} WHERE id = {i}")
            await s.execute(f"DELETE FROM p{n} WHERE id = {n + i}")
        touched[n] = Counter(db.snapshots.stats) - before
    for n, counts in touched.items():
        assert counts["loaded"] == counts["scanned"] == counts["sorted"] == 0, (n, counts)
    assert touched[2_000]["fetched"] == touched[20_000]["fetched"], touched
