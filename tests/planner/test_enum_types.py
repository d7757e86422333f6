"""Enum types (CREATE TYPE ... AS ENUM, as SQLAlchemy's Enum, Prisma and
Rails create them) statement by statement beside PostgreSQL: labels
checked on the way in (22P02), values ordered and compared by the labels'
sort order (not as text), ADD VALUE placing a label, DROP TYPE refused
while a column is of it, and the catalog rows clients read (pg_type,
pg_enum, format_type, information_schema). Values are shown ``::text``
where the statement would otherwise print the type's OID, which differs."""

from __future__ import annotations

from tests.planner.helpers import assert_answers_as_postgres

STATEMENTS = [
    "DROP TABLE IF EXISTS en_pe", "DROP TABLE IF EXISTS en_m2", "DROP TABLE IF EXISTS en_rt", "DROP TYPE IF EXISTS en_mood, en_dup, en_m1, en_re, en_rf",
    "CREATE TYPE en_mood AS ENUM ('sad', 'ok', 'happy')",
    "CREATE TYPE en_mood AS ENUM ('x')", "CREATE TYPE en_dup AS ENUM ('a', 'a')",
    "CREATE TABLE en_pe (id int PRIMARY KEY, m en_mood)",
    "INSERT INTO en_pe VALUES (1, 'happy'), (2, 'sad'), (3, NULL), (4, 'ok')",
    "INSERT INTO en_pe VALUES (5, 'angry')", "UPDATE en_pe SET m = 'meh' WHERE id = 1",
    "SELECT id, m::text FROM en_pe ORDER BY m", "SELECT id, m::text FROM en_pe ORDER BY m DESC NULLS LAST",
    "SELECT id, m::text, m > 'ok', m <= 'ok', m = 'sad', m <> 'ok', m BETWEEN 'sad' AND 'ok', m IN ('ok', 'sad') FROM en_pe ORDER BY id",
    "SELECT max(m)::text, min(m)::text, count(DISTINCT m) FROM en_pe",
    "SELECT m::text, count(*) FROM en_pe GROUP BY m ORDER BY m",
    "SELECT id FROM en_pe WHERE m > 'sad' ORDER BY id", "SELECT id FROM en_pe WHERE m < 'nope'",
    "SELECT 'happy'::en_mood::text, 'nope'::en_mood", "SELECT pg_typeof(m)::text FROM en_pe WHERE id = 1",
    "UPDATE en_pe SET m = 'ok' WHERE id = 1 RETURNING id, m::text",
    "SELECT typname::text, typtype::text, typcategory::text FROM pg_type WHERE typname = 'en_mood'",
    "SELECT e.enumlabel::text, e.enumsortorder FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid WHERE t.typname = 'en_mood'"
    " ORDER BY e.enumsortorder",
    "SELECT column_name::text, data_type::text, udt_name::text FROM information_schema.columns WHERE table_name = 'en_pe'"
    " ORDER BY ordinal_position",
    "SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
    " WHERE c.relname = 'en_pe' AND a.attnum > 0 ORDER BY a.attnum",
    "ALTER TYPE en_mood ADD VALUE 'meh' BEFORE 'ok'", "ALTER TYPE en_mood ADD VALUE IF NOT EXISTS 'meh'",
    "ALTER TYPE en_mood ADD VALUE 'meh'", "ALTER TYPE en_mood ADD VALUE 'ecstatic'", "ALTER TYPE en_mood ADD VALUE 'x' AFTER 'nope'",
    "INSERT INTO en_pe VALUES (6, 'meh'), (7, 'ecstatic')",
    "SELECT id, m::text FROM en_pe ORDER BY m, id",
    "SELECT enum_range(NULL::en_mood)::text, enum_first(NULL::en_mood)::text, enum_last(NULL::en_mood)::text",
    "DROP TYPE en_mood", "DROP TYPE IF EXISTS en_nope", "DROP TABLE en_pe", "DROP TYPE en_mood", "SELECT 'ok'::en_mood",
    # a text column made an enum (Alembic's USING), a DEFAULT among its labels
    "DROP TABLE IF EXISTS en_ea", "DROP TABLE IF EXISTS en_eb", "DROP TYPE IF EXISTS en_st",
    "CREATE TYPE en_st AS ENUM ('c', 'b', 'a')", "CREATE TABLE en_ea (id int PRIMARY KEY, s text)",
    "INSERT INTO en_ea VALUES (1, 'a'), (2, 'c')", "ALTER TABLE en_ea ALTER COLUMN s TYPE en_st USING s::en_st",
    "SELECT id, s::text FROM en_ea ORDER BY s", "INSERT INTO en_ea VALUES (3, 'zz')",
    "ALTER TABLE en_ea ADD COLUMN t en_st DEFAULT 'b'", "SELECT id, t::text FROM en_ea ORDER BY id",
    "CREATE TABLE en_eb (id int, s en_st DEFAULT 'nope')",
    "DROP TABLE en_ea", "DROP TYPE en_st",
    # a relation's row type takes its name: a type and a table or view of one name clash
    "CREATE TYPE en_m1 AS ENUM ('a')", "CREATE TABLE en_m1 (a int)", "CREATE VIEW en_m1 AS SELECT 1", "CREATE SEQUENCE en_m1",
    "CREATE TABLE en_m2 (a int)", "CREATE TYPE en_m2 AS ENUM ('a')", "DROP TABLE en_m2", "DROP TYPE en_m1",
    # a schema's types go with it (they stayed behind a dropped schema, and the catalog failed its invariant check)
    "DROP SCHEMA IF EXISTS en_sx CASCADE", "CREATE SCHEMA en_sx", "CREATE TYPE en_sx.e AS ENUM ('a')", "CREATE TABLE en_sx.t (a en_sx.e)",
    "DROP SCHEMA en_sx", "DROP SCHEMA en_sx CASCADE", "SELECT count(*) FROM pg_type WHERE typname = 'e'",
    # RENAME TO: its columns follow it (ALTER TYPE ... RENAME failed inside txngate: no relation to look up)
    "CREATE TYPE en_re AS ENUM ('a', 'b')", "CREATE TABLE en_rt (x en_re)", "INSERT INTO en_rt VALUES ('b')",
    "ALTER TYPE en_re RENAME TO en_rf", "SELECT x::text, pg_typeof(x)::text FROM en_rt", "SELECT 'a'::en_rf::text", "SELECT 'a'::en_re",
    "ALTER TYPE en_nope RENAME TO x", "DROP TABLE en_rt", "DROP TYPE en_rf",
]


async def test_enum_types_as_postgres(db, pg_url):
    await assert_answers_as_postgres(db.session(), pg_url, STATEMENTS)
