"""pg_catalog / information_schema emulation through the clients that read
it: psql's backslash commands, SQLAlchemy reflection and the ORM, pgjdbc's
DatabaseMetaData, asyncpg's and psycopg's type introspection, BI connect
probes; and the session statements clients send (cursors, savepoints,
DEALLOCATE, set_config, ...)."""

from __future__ import annotations

import glob
import json
import os
import subprocess
import uuid

import asyncpg
import psycopg
import pytest
import sqlalchemy as sa
from psycopg.types import TypeInfo
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from tests.gateway.test_clients import psql


def uniq(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def objects(gateway):
    """A table with every kind of constraint, a view and a materialized view."""
    t, v, m = uniq("cat"), uniq("catv"), uniq("catm")
    res = psql(gateway, "-v", "ON_ERROR_STOP=1", "-c",
               f"CREATE TABLE {t} (id int PRIMARY KEY, name varchar(20) NOT NULL DEFAULT 'x', amount numeric(10,2), code text UNIQUE, "
               f"CHECK (amount > 0)); CREATE VIEW {v} AS SELECT id, name FROM {t}; CREATE MATERIALIZED VIEW {m} AS SELECT id FROM {t}")
    assert res.returncode == 0, res.stderr
    return t, v, m


def test_psql_describe_commands(gateway, objects):
    t, v, m = objects
    out = psql(gateway, "-c", f"\\d {t}").stdout
    assert f'Table "public.{t}"' in out
    lines = {line.split("|")[0].strip(): [c.strip() for c in line.split("|")] for line in out.splitlines() if "|" in line}
    assert lines["id"][1:4] == ["integer", "", "not null"]
    assert lines["name"][1] == "character varying(20)" and lines["name"][3] == "not null" and lines["name"][4] == "'x'"
    assert lines["amount"][1] == "numeric(10,2)"
    assert f'"{t}_pkey" PRIMARY KEY, btree (id)' in out
    assert f'"{t}_code_key" UNIQUE CONSTRAINT, btree (code)' in out
    plus = psql(gateway, "-c", f"\\d+ {t}").stdout
    assert "Storage" in plus and "Access method: heap" in plus
    listing = psql(gateway, "-At", "-c", "\\dt").stdout
    assert f"public|{t}|table|txngate" in listing and v not in listing
    assert f"public|{v}|view|txngate" in psql(gateway, "-At", "-c", "\\dv").stdout
    assert f"public|{m}|materialized view|txngate" in psql(gateway, "-At", "-c", "\\dm").stdout
    assert f'View "public.{v}"' in psql(gateway, "-c", f"\\d {v}").stdout
    assert "txngate|txngate|UTF8" in psql(gateway, "-At", "-c", "\\l").stdout
    assert "public|txngate" in psql(gateway, "-At", "-c", "\\dn").stdout
    assert "txngate" in psql(gateway, "-At", "-c", "\\du").stdout
    df = psql(gateway, "-c", "\\df")
    assert df.returncode == 0 and "List of functions" in df.stdout
    missing = psql(gateway, "-c", "\\d no_such_relation")
    assert 'Did not find any relation named "no_such_relation"' in missing.stderr


def test_sqlalchemy_array_columns(gateway):
    """SQLAlchemy's PostgreSQL ARRAY type: create_all, insert and filter
    with list parameters and ``contains``, and reflection of the columns."""
    from sqlalchemy.dialects import postgresql

    name = uniq("arr")
    engine = sa.create_engine(f"postgresql+psycopg://txngate@127.0.0.1:{gateway.port}/txngate")
    try:
        table = sa.Table(name, sa.MetaData(), sa.Column("id", sa.Integer, primary_key=True),
                         sa.Column("tags", postgresql.ARRAY(sa.String(8))), sa.Column("nums", postgresql.ARRAY(sa.Integer)))
        table.metadata.create_all(engine)
        with engine.begin() as conn:
            conn.execute(table.insert(), [{"id": 1, "tags": ["a", "b"], "nums": [1, 2]}, {"id": 2, "tags": [], "nums": None}])
        with engine.connect() as conn:
            assert conn.execute(sa.select(table.c.id).where(table.c.tags.contains(["b"]))).scalars().all() == [1]
            assert conn.execute(sa.select(table.c.nums).order_by(table.c.id)).scalars().all() == [[1, 2], None]
            assert conn.execute(sa.select(table.c.id).where(sa.literal(2) == sa.any_(table.c.nums))).scalars().all() == [1]
        cols = {c["name"]: c["type"] for c in sa.inspect(engine).get_columns(name)}
        assert isinstance(cols["tags"], postgresql.ARRAY) and isinstance(cols["tags"].item_type, sa.VARCHAR)
        assert cols["tags"].item_type.length == 8 and isinstance(cols["nums"].item_type, sa.INTEGER)
    finally:
        engine.dispose()


def test_sqlalchemy_jsonb_columns(gateway):
    """SQLAlchemy's JSONB type: dicts in and out, the index, path, ``astext``,
    ``contains`` and ``has_key`` comparators, an UPDATE through ``||``, and
    reflection."""
    from sqlalchemy.dialects import postgresql

    name = uniq("js")
    engine = sa.create_engine(f"postgresql+psycopg://txngate@127.0.0.1:{gateway.port}/txngate")
    try:
        table = sa.Table(name, sa.MetaData(), sa.Column("id", sa.Integer, primary_key=True),
                         sa.Column("doc", postgresql.JSONB), sa.Column("raw", sa.JSON))
        table.metadata.create_all(engine)
        docs = [{"id": 1, "doc": {"name": "ann", "tags": ["a", "b"], "n": 1.5}, "raw": [1]},
                {"id": 2, "doc": {"name": "bob", "addr": {"city": "Oslo"}}, "raw": None}]
        with engine.begin() as conn:
            conn.execute(table.insert(), docs)
        doc = table.c.doc
        with engine.connect() as conn:
            assert conn.execute(sa.select(table.c.doc, table.c.raw).order_by(table.c.id)).all() == [(d["doc"], d["raw"]) for d in docs]
            assert conn.execute(sa.select(table.c.id).where(doc.contains({"tags": ["b"]}))).scalars().all() == [1]
            assert conn.execute(sa.select(table.c.id).where(doc.has_key("addr"))).scalars().all() == [2]
            assert conn.execute(sa.select(doc["name"].astext).order_by(table.c.id)).scalars().all() == ["ann", "bob"]
            assert conn.execute(sa.select(doc[("addr", "city")].astext).where(table.c.id == 2)).scalar() == "Oslo"
            assert conn.execute(sa.select(doc["tags"]).where(table.c.id == 1)).scalar() == ["a", "b"]
        with engine.begin() as conn:
            conn.execute(table.update().where(table.c.id == 2).values(doc=doc.concat({"age": 40})))
        with engine.connect() as conn:
            assert conn.execute(sa.select(doc).where(table.c.id == 2)).scalar() == {"name": "bob", "addr": {"city": "Oslo"}, "age": 40}
        cols = {c["name"]: c["type"] for c in sa.inspect(engine).get_columns(name)}
        assert isinstance(cols["doc"], postgresql.JSONB) and isinstance(cols["raw"], postgresql.JSON)
    finally:
        engine.dispose()


def test_sqlalchemy_reflection_core_and_orm(gateway, objects):
    t, v, m = objects
    engine = sa.create_engine(f"postgresql+psycopg://txngate@127.0.0.1:{gateway.port}/txngate")
    try:
        insp = sa.inspect(engine)
        assert t in insp.get_table_names()
        assert insp.has_table(t) and not insp.has_table("no_such_table")
        cols = {c["name"]: c for c in insp.get_columns(t)}
        assert list(cols) == ["id", "name", "amount", "code"]
        assert isinstance(cols["name"]["type"], sa.VARCHAR) and cols["name"]["type"].length == 20
        assert cols["name"]["nullable"] is False and cols["code"]["nullable"] is True
        assert (cols["amount"]["type"].precision, cols["amount"]["type"].scale) == (10, 2)
        assert insp.get_pk_constraint(t)["constrained_columns"] == ["id"]
        assert [u["column_names"] for u in insp.get_unique_constraints(t)] == [["code"]]
        assert v in insp.get_view_names() and m in insp.get_materialized_view_names()
        table = sa.Table(t, sa.MetaData(), autoload_with=engine)
        assert [c.name for c in table.primary_key] == ["id"]

        # Core
        with engine.begin() as conn:
            conn.execute(table.insert(), [{"id": 1, "name": "a", "amount": 5, "code": "c1"}, {"id": 2, "name": "b", "amount": 7, "code": "c2"}])
        with engine.connect() as conn:
            assert conn.execute(sa.select(table.c.name).order_by(table.c.id)).scalars().all() == ["a", "b"]

        # ORM: BEGIN; SELECT; UPDATE; COMMIT
        class Base(DeclarativeBase):
            pass

        class Item(Base):
            __tablename__ = t
            id: Mapped[int] = mapped_column(primary_key=True)
            name: Mapped[str]
            code: Mapped[str | None]

        with Session(engine) as session:
            item = session.get(Item, 1)
            item.name = "renamed"
            session.add(Item(id=3, name="c", code="c3"))
            session.commit()
        with Session(engine) as session:
            assert [(i.id, i.name) for i in session.query(Item).order_by(Item.id)] == [(1, "renamed"), (2, "b"), (3, "c")]
            with session.begin_nested():  # SAVEPOINT ... RELEASE
                session.get(Item, 2).name = "nested"
            session.commit()
            assert session.get(Item, 2).name == "nested"
    finally:
        engine.dispose()


def test_pgjdbc_prepared_batch_and_metadata(gateway, tmp_path):
    jars = sorted(glob.glob(os.path.expanduser("~/.m2/repository/org/postgresql/postgresql/42.7.*/postgresql-42.7.*.jar")))
    assert jars, "the pgjdbc 42.7 jar is expected in ~/.m2"
    source = os.path.join(os.path.dirname(__file__), "java", "JdbcProbe.java")
    subprocess.run(["javac", "-d", str(tmp_path), source], check=True, capture_output=True, timeout=120)
    table = uniq("jdbc")
    res = subprocess.run(["java", "-cp", f"{tmp_path}:{jars[-1]}", "JdbcProbe", f"jdbc:postgresql://127.0.0.1:{gateway.port}/txngate", table],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-3000:]
    out = dict(line.split("=", 1) for line in res.stdout.splitlines())
    assert out["batch"] == "20:20"
    expected = ";".join(f"{i}/name-{i}/{i * 1.5}/2024-01-{i:02d}/{i}.25/{str(i % 2 == 0).lower()}" for i in range(1, 9)) + ";"
    assert out["reused"] == expected  # 8 executions: past prepareThreshold, so binary transfer
    assert out["in_txn"] == "-1.0" and out["after_rollback"] == "1.5"
    assert out["product"] == "PostgreSQL 16"
    assert out["tables"] == f"[{table}:TABLE]"
    assert out["columns"] == ("[id:int8:19:NO, name:varchar:40:NO, score:float8:17:YES, born:date:13:YES, "
                              "at:timestamptz:35:YES, amount:numeric:12:YES, ok:bool:1:YES]")
    assert out["pk"] == f"[id:{table}_pkey:1]"
    assert out["nextval"] == "1,51,101,151,201,251,"  # past prepareThreshold too
    assert out["sequences"] == f"[{table}_seq:SEQUENCE]"


async def test_asyncpg_type_introspection(gateway):
    conn = await asyncpg.connect(host="127.0.0.1", port=gateway.port, user="txngate", database="txngate")
    try:
        await conn.set_type_codec("json", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")
        assert await conn.fetchval("SELECT $1::json", {"a": [1, 2]}) == {"a": [1, 2]}
        row = await conn.fetchrow("SELECT ARRAY[1, 2] AS a, ARRAY['x', NULL] AS b, ARRAY[true, false] AS c")
        assert (row["a"], row["b"], row["c"]) == ([1, 2], ["x", None], [True, False])
        # an enum's OID is introspected (pg_type's typtype 'e') and its values read as their labels, in its order
        kind, table = uniq("st"), uniq("ta")
        await conn.execute(f"CREATE TYPE {kind} AS ENUM ('a', 'b', 'c')")
        await conn.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, s {kind})")
        await conn.execute(f"INSERT INTO {table} VALUES ($1, $2), ($3, $4), ($5, $6)", 1, "c", 2, "a", 3, "b")
        assert [r["s"] for r in await conn.fetch(f"SELECT s FROM {table} ORDER BY s DESC")] == ["c", "b", "a"]
        assert await conn.fetchval(f"SELECT id FROM {table} WHERE s = $1", "c") == 1
        with pytest.raises(asyncpg.InvalidTextRepresentationError):
            await conn.execute(f"INSERT INTO {table} VALUES ($1, $2)", 4, "zz")
    finally:
        await conn.close()


def test_psycopg_type_info_and_bi_probes(gateway, objects):
    t, _v, _m = objects
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        info = TypeInfo.fetch(conn, "numeric")
        assert (info.oid, info.array_oid) == (1700, 1231)
        assert TypeInfo.fetch(conn, "hstore") is None
        probes = {
            "SELECT current_setting('server_version_num')": "160004",
            "SELECT current_schema()": "public",
            "SELECT current_database()": "txngate",
            "SELECT current_user": "txngate",
            f"SELECT has_table_privilege('{t}', 'SELECT')": True,
            f"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = '{t}'::regclass AND attname = 'name'": "character varying(20)",
            f"SELECT c.relname FROM pg_catalog.pg_class c WHERE c.relname OPERATOR(pg_catalog.~) '^({t})$' COLLATE pg_catalog.default "
            "AND pg_catalog.pg_table_is_visible(c.oid)": t,
            "SELECT count(*) > 100 FROM pg_get_keywords() WHERE catcode = 'R' OR catcode = 'U'": True,
            "SELECT setting FROM pg_settings WHERE name = 'server_version'": "16.4",
            f"SELECT '{t}'::regclass::oid = (SELECT oid FROM pg_class WHERE relname = '{t}')": True,
            "SELECT pg_backend_pid() > 0": True,
            "SELECT pg_advisory_unlock_all()": None,
            "SELECT set_config('application_name', 'probe', false)": "probe",
            "SHOW application_name": "probe",
            "SHOW transaction isolation level": "serializable",
            f"SELECT count(*) FROM information_schema.columns WHERE table_name = '{t}'": 4,
            f"SELECT string_agg(constraint_type, ',' ORDER BY constraint_type) FROM information_schema.table_constraints WHERE table_name = '{t}'":
                "CHECK,PRIMARY KEY,UNIQUE",
        }
        for sql, want in probes.items():
            assert conn.execute(sql).fetchone()[0] == want, sql
        assert conn.execute("SELECT version()").fetchone()[0].startswith("PostgreSQL 16.4")
        with pytest.raises(psycopg.errors.UndefinedTable):
            conn.execute("SELECT 'no_such_table'::regclass")
        for stmt, tag in (("DISCARD ALL", "DISCARD ALL"), ("CLOSE ALL", "CLOSE CURSOR ALL"), ("UNLISTEN *", "UNLISTEN"), ("DEALLOCATE ALL", "DEALLOCATE ALL")):
            assert conn.execute(stmt).statusmessage == tag


def test_cursors_and_savepoints(gateway):
    t = uniq("cur")
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE TABLE {t} (i int PRIMARY KEY)")
        conn.execute(f"INSERT INTO {t} SELECT g FROM generate_series(1, 500) g")
        with conn.transaction():
            with conn.cursor(name="walk") as cur:  # DECLARE / FETCH FORWARD n / CLOSE
                cur.itersize = 64
                cur.execute(f"SELECT i FROM {t} ORDER BY i")
                assert [r[0] for r in cur] == list(range(1, 501))
        with conn.cursor(name="held", withhold=True) as cur:
            cur.execute(f"SELECT i FROM {t} WHERE i > %s ORDER BY i", [495])
            assert cur.fetchmany(2) == [(496,), (497,)]
            assert cur.fetchall() == [(498,), (499,), (500,)]
        with pytest.raises(psycopg.errors.InvalidCursorName):
            conn.execute("FETCH 1 FROM nothing_declared")
        with conn.transaction():
            conn.execute(f"DECLARE c CURSOR FOR SELECT i FROM {t} ORDER BY i")
            assert conn.execute("MOVE 10 IN c").statusmessage == "MOVE 10"
            assert conn.execute("FETCH 2 FROM c").fetchall() == [(11,), (12,)]
            assert conn.execute("FETCH BACKWARD 2 FROM c").fetchall() == [(11,), (10,)]  # from row 12, as PostgreSQL
        # savepoints: psycopg's nested transaction() blocks
        with conn.transaction():
            conn.execute(f"INSERT INTO {t} VALUES (1001)")
            with pytest.raises(psycopg.errors.UniqueViolation):
                with conn.transaction():
                    conn.execute(f"INSERT INTO {t} VALUES (1002)")
                    conn.execute(f"INSERT INTO {t} VALUES (1)")
            conn.execute(f"INSERT INTO {t} VALUES (1003)")
        got = conn.execute(f"SELECT i FROM {t} WHERE i > 1000 ORDER BY i").fetchall()
        assert got == [(1001,), (1003,)]


def test_idle_in_transaction_timeout_ends_only_that_connection(gateway):
    import time

    with psycopg.connect(gateway.dsn()) as idle, psycopg.connect(gateway.dsn(), autocommit=True) as other:
        idle.execute("SET idle_in_transaction_session_timeout = '200ms'")
        idle.execute("SELECT 1")  # psycopg opened a transaction: the connection is now idle in it
        time.sleep(0.5)  # the client idles past the limit (the behaviour under test, not synchronization)
        with pytest.raises(psycopg.errors.IdleInTransactionSessionTimeout):
            idle.execute("SELECT 2")
        assert other.execute("SELECT 3").fetchone() == (3,)
