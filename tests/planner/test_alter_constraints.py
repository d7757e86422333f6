"""ALTER TABLE ... ADD PRIMARY KEY / UNIQUE / CHECK / FOREIGN KEY, storage
parameters (SET (fillfactor = ...), SET STATISTICS, SET STORAGE: accepted,
nothing to change), and VACUUM / ANALYZE, as pgbench, ORMs and migration
tools emit them: each
statement ends on txngate as on the real PostgreSQL (tag, or SQLSTATE
and message), existing rows are checked against the new constraint, and
the catalog then shows the same constraints and NOT NULL columns."""

from __future__ import annotations


from tests.planner.helpers import assert_same_outcomes, beside_postgres, sqlstate

SETUP = [
    "CREATE TABLE ac (a integer, b integer, c text)",
    "INSERT INTO ac VALUES (1, 1, 'x'), (1, 2, 'y'), (NULL, 3, 'z')",
]

STATEMENTS = [(sql, ()) for sql in [
    "ALTER TABLE ac ADD PRIMARY KEY (a)",
    "ALTER TABLE ac ADD CONSTRAINT tu UNIQUE (a)",
    "ALTER TABLE ac ADD CONSTRAINT ck CHECK (b > 1)",
    "ALTER TABLE ac ADD CHECK (b > 0)",
    "ALTER TABLE ac ADD CHECK (b < 10)",
    "ALTER TABLE ac ADD CONSTRAINT nv CHECK (b > 2) NOT VALID",
    "UPDATE ac SET a = 2 WHERE b = 2",
    "ALTER TABLE ac ADD PRIMARY KEY (a)",
    "DELETE FROM ac WHERE a IS NULL",
    "ALTER TABLE ac ADD PRIMARY KEY (zz)",
    "ALTER TABLE ac ADD PRIMARY KEY (a)",
    "ALTER TABLE ac ADD PRIMARY KEY (b)",
    "ALTER TABLE ac ADD UNIQUE (b, c)",
    "INSERT INTO ac VALUES (2, 5, 'q')",
    "INSERT INTO ac VALUES (3, 0, 'q')",
    "INSERT INTO ac VALUES (4, 2, 'q')",
    "INSERT INTO ac VALUES (5, 5, 'q')",
    "ALTER TABLE ac ADD CONSTRAINT fk FOREIGN KEY (b) REFERENCES ac (b)",
    "ALTER TABLE ac SET (fillfactor = 70, parallel_workers = 2)",
    "ALTER TABLE ac RESET (fillfactor)",
    "ALTER TABLE ac ALTER COLUMN c SET STATISTICS 500",
    "ALTER TABLE ac ALTER COLUMN c SET STORAGE EXTERNAL",
    "ALTER TABLE ac ALTER COLUMN zz SET STATISTICS 500",
    "ALTER TABLE ac SET (parallel_workers = 1), ALTER COLUMN c SET NOT NULL",
    "VACUUM ac",
    "VACUUM ANALYZE ac",
    "ANALYZE ac",
    "ANALYZE",
    "VACUUM nope",
    "ANALYZE nope",
]]

CHECK = """SELECT conname, contype::text FROM pg_constraint WHERE conrelid = 'ac'::regclass AND contype <> 'f'
           UNION ALL SELECT attname, attnotnull::text FROM pg_attribute WHERE attrelid = 'ac'::regclass AND attnum > 0
           ORDER BY 1, 2"""


async def test_alter_table_add_constraint_ends_as_in_postgres(db, pg_url):
    async with beside_postgres(db, pg_url, SETUP, ["ac"]) as (s, conn):
        await assert_same_outcomes(s, conn, STATEMENTS, CHECK)


async def test_vacuum_refuses_a_transaction_block(db):
    s = db.session()
    await s.execute("BEGIN")
    assert await sqlstate(s, "VACUUM") == "25001"
    await s.execute("ROLLBACK")
    await s.execute("BEGIN")
    assert (await s.execute("ANALYZE"))[-1].tag == "ANALYZE"
    await s.execute("COMMIT")
