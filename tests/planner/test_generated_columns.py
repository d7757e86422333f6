"""Generated columns (GENERATED ALWAYS AS (expr) STORED: Django's
GeneratedField, SQLAlchemy's Computed) statement by statement beside
PostgreSQL: computed from the row as it is inserted, updated, upserted and
added to a table that has rows; refused as a target (428C9) but for
DEFAULT; expressions that read generated columns refused (42P17); the
catalog rows clients read."""

from __future__ import annotations

import psycopg

from planner.copy import BytesSource
from tests.planner.helpers import assert_answers_as_postgres, pg_text_answer, text_answer

STATEMENTS = [
    "CREATE TABLE gen_c (id int PRIMARY KEY, a int, b int GENERATED ALWAYS AS (a * 2) STORED,"
    " t text GENERATED ALWAYS AS (upper(name)) STORED, name text)",
    "INSERT INTO gen_c (id, a, name) VALUES (1, 3, 'x'), (2, NULL, 'y')",
    "INSERT INTO gen_c VALUES (3, 4, DEFAULT, DEFAULT, 'z')",
    "INSERT INTO gen_c VALUES (4, 4, 8, 'Z', 'z')", "INSERT INTO gen_c (id, a, b) VALUES (5, 1, 2)",
    "INSERT INTO gen_c (id, a, b) SELECT 6, 1, 2",
    "SELECT * FROM gen_c ORDER BY id",
    "UPDATE gen_c SET a = 10 WHERE id = 1 RETURNING *", "UPDATE gen_c SET b = 1 WHERE id = 1",
    "UPDATE gen_c SET b = DEFAULT WHERE id = 1 RETURNING b", "UPDATE gen_c SET name = 'w' RETURNING id, t",
    "INSERT INTO gen_c (id, a, name) VALUES (1, 5, 'q') ON CONFLICT (id) DO UPDATE SET a = excluded.a RETURNING *",
    "CREATE TABLE gen_d (a int, b int GENERATED ALWAYS AS (a + 1) STORED, c int GENERATED ALWAYS AS (b + 1) STORED)",
    "CREATE TABLE gen_d (a int, b int GENERATED ALWAYS AS (nope + 1) STORED)",
    "CREATE TABLE gen_d (a int, b int DEFAULT 1 GENERATED ALWAYS AS (a + 1) STORED)",
    "CREATE TABLE gen_d (a int, b int GENERATED ALWAYS AS (sum(a)) STORED)",
    "CREATE TABLE gen_d (a int, b int GENERATED ALWAYS AS (row_number() OVER ()) STORED)",
    "CREATE TABLE gen_d (a int, b int GENERATED ALWAYS AS ((SELECT 1)) STORED)",
    "SELECT column_name::text, is_generated::text, generation_expression::text, column_default::text FROM information_schema.columns"
    " WHERE table_name = 'gen_c' ORDER BY ordinal_position",
    "SELECT a.attname::text, a.attgenerated::text, pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
    " LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE c.relname = 'gen_c' AND a.attnum > 0 ORDER BY a.attnum",
    "ALTER TABLE gen_c ADD COLUMN c int GENERATED ALWAYS AS (coalesce(a, 0) + id) STORED",
    "SELECT id, c FROM gen_c ORDER BY id", "INSERT INTO gen_c (id, a) VALUES (9, 2) RETURNING c",
    "CREATE TABLE gen_n (a int, b int NOT NULL GENERATED ALWAYS AS (a) STORED)",
    "INSERT INTO gen_n (a) VALUES (NULL)", "INSERT INTO gen_n (a) VALUES (1) RETURNING *",
]


async def test_generated_columns_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, STATEMENTS, tables=["gen_c", "gen_d", "gen_n"])


async def test_copy_of_a_table_with_generated_columns_as_postgres(db, pg_url):
    """COPY moves the columns that are not generated (computed as the rows
    are written) and refuses to name a generated one (42P10)."""
    data = "1\t3\tx\n2\t\\N\ty\n"
    table = "CREATE TABLE gen_copied (id int, a int, b int GENERATED ALWAYS AS (a * 2) STORED, name text)"
    s = db.session()
    await s.execute(table)
    await s.execute("COPY gen_copied FROM STDIN", copy_source=BytesSource(data))
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS gen_copied")
        conn.execute(table)
        with conn.cursor().copy("COPY gen_copied FROM STDIN") as copy:
            copy.write(data)
        for sql in ("SELECT * FROM gen_copied ORDER BY id", "COPY gen_copied (id, b) FROM STDIN"):
            assert await text_answer(s, sql, names=True) == pg_text_answer(conn, sql, names=True), sql
