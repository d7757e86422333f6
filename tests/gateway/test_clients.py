"""The gateway through real clients: psql, psycopg 3 (sync and async, text
and binary), asyncpg; errors with SQLSTATEs; COPY; cancellation; a bad
frontend message ends only its own connection."""

from __future__ import annotations

import asyncio
import datetime as dt
import decimal
import json
import socket
import struct
import subprocess
import uuid

import asyncpg
import psycopg
import pytest


def psql(gateway, *args, input=None):
    return subprocess.run(
        ["psql", "-X", "-h", "127.0.0.1", "-p", str(gateway.port), "-U", "txngate", "-d", "txngate", *args],
        capture_output=True, text=True, input=input, timeout=60,
    )


def test_psql_ddl_dml_errors_and_copy(gateway, tmp_path):
    res = psql(gateway, "-v", "ON_ERROR_STOP=1", "-c", "CREATE TABLE ps (id int PRIMARY KEY, name text, at date)",
               "-c", "INSERT INTO ps VALUES (1, 'one', '2024-01-02'), (2, NULL, NULL)", "-At", "-c", "SELECT id, name, at FROM ps ORDER BY id")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[-2:] == ["1|one|2024-01-02", "2||"]
    res = psql(gateway, "-c", "\\set VERBOSITY verbose", "-c", "INSERT INTO ps VALUES (1, 'dup', NULL)")
    assert res.returncode == 1
    assert "ERROR:  23505: duplicate key value violates unique constraint \"ps_pkey\"" in res.stderr
    src = tmp_path / "in.csv"
    src.write_text("3,three,2024-03-03\n4,\"four, quoted\",\n")
    res = psql(gateway, "-v", "ON_ERROR_STOP=1", "-c", f"\\copy ps FROM '{src}' WITH (FORMAT csv)")
    assert res.returncode == 0 and "COPY 2" in res.stdout, res.stderr
    out = tmp_path / "out.txt"
    res = psql(gateway, "-v", "ON_ERROR_STOP=1", "-c", f"\\copy (SELECT id, name FROM ps ORDER BY id) TO '{out}'")
    assert res.returncode == 0, res.stderr
    assert out.read_text() == "1\tone\n2\t\\N\n3\tthree\n4\tfour, quoted\n"


def test_psycopg_parameters_text_and_binary(gateway):
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE pp (id bigint PRIMARY KEY, n numeric(10,2), f double precision, b boolean, t text, d date, ts timestamptz, u uuid, raw bytea)")
        row = (1, decimal.Decimal("12.34"), 1.5, True, "héllo", dt.date(2024, 2, 29),
               dt.datetime(2024, 1, 2, 3, 4, 5, 600000, tzinfo=dt.timezone.utc), uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), b"\x00\x01")
        conn.execute("INSERT INTO pp VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)", row)
        for binary in (False, True):
            cur = conn.cursor(binary=binary)
            got = cur.execute("SELECT id, n, f, b, t, d, ts, u, raw FROM pp WHERE id = %s", [1]).fetchone()
            assert got == row, binary
            assert [d.name for d in cur.description] == ["id", "n", "f", "b", "t", "d", "ts", "u", "raw"]
        cur = conn.execute("SELECT 1 AS one, NULL::text AS nothing, 'x' || %s AS s", ["y"])
        assert cur.fetchall() == [(1, None, "xy")]


def test_psycopg_transactions_errors_and_copy(gateway):
    with psycopg.connect(gateway.dsn()) as conn:
        conn.execute("CREATE TABLE pt (id int PRIMARY KEY, v int)")
        conn.commit()
        with conn.transaction():
            conn.execute("INSERT INTO pt VALUES (1, 10), (2, 20)")
            assert conn.execute("SELECT sum(v) FROM pt").fetchone() == (30,)
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute("INSERT INTO pt VALUES (1, 0)")
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.INERROR
        with pytest.raises(psycopg.errors.InFailedSqlTransaction):
            conn.execute("SELECT 1")
        conn.rollback()
        with conn.cursor() as cur:
            with cur.copy("COPY pt FROM STDIN") as copy:
                for i in range(3, 1003):
                    copy.write_row((i, i))
        conn.commit()
        assert conn.execute("SELECT count(*), sum(v) FROM pt").fetchone() == (1002, 30 + sum(range(3, 1003)))
        with conn.cursor() as cur:
            with cur.copy("COPY (SELECT id FROM pt WHERE id < 3 ORDER BY id) TO STDOUT") as copy:
                assert [r for r in copy.rows()] == [("1",), ("2",)]
        conn.commit()
        with pytest.raises(psycopg.errors.SyntaxError) as info:
            conn.execute("SELEC 1")
        assert info.value.diag.statement_position == "1"
        conn.rollback()
        with pytest.raises(psycopg.errors.DivisionByZero):
            conn.execute("SELECT 1 / 0")


def test_wrong_database_and_bad_messages(gateway):
    with pytest.raises(psycopg.OperationalError) as info:
        psycopg.connect(gateway.dsn(dbname="nope"))
    assert 'database "nope" does not exist' in str(info.value)
    # A garbage message ends that connection with FATAL; the server carries on.
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        raw = socket.fromfd(conn.fileno(), socket.AF_INET, socket.SOCK_STREAM)
        raw.settimeout(30)
        raw.sendall(b"Q" + struct.pack("!i", 2**31 - 1))
        data = raw.recv(4096)
        assert data[:1] == b"E" and b"08P01" in data
        raw.close()
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        assert conn.execute("SELECT 42").fetchone() == (42,)


async def test_async_clients_cancel_and_asyncpg(gateway):
    conn = await psycopg.AsyncConnection.connect(gateway.dsn(), autocommit=True)
    other = await psycopg.AsyncConnection.connect(gateway.dsn(), autocommit=True)
    try:
        slow = asyncio.ensure_future(conn.execute("SELECT count(*) FROM generate_series(0, 99999999) t(x) WHERE md5(x::text) < 'a'"))
        # another session is served while the slow one runs
        assert await (await other.execute("SELECT 7")).fetchone() == (7,)
        assert not slow.done()
        conn.cancel()  # CancelRequest on a new connection
        with pytest.raises(psycopg.errors.QueryCanceled):
            await slow
        assert await (await conn.execute("SELECT 1")).fetchone() == (1,)
    finally:
        await conn.close()
        await other.close()
    a = await asyncpg.connect(host="127.0.0.1", port=gateway.port, user="txngate", database="txngate")
    try:
        await a.execute("CREATE TABLE ap (id bigint PRIMARY KEY, name text, amount numeric(8,2))")
        await a.execute("INSERT INTO ap VALUES ($1, $2, $3)", 1, "a", decimal.Decimal("2.50"))
        assert await a.fetchrow("SELECT id, name, amount FROM ap WHERE id = $1", 1) == (1, "a", decimal.Decimal("2.50"))
        stmt = await a.prepare("SELECT name FROM ap WHERE id = $1")
        for _ in range(6):
            assert await stmt.fetchval(1) == "a"
    finally:
        await a.close()


def test_serve_logs_structured_lines(gateway):
    lines = [json.loads(x) for x in gateway.output().splitlines() if x.startswith("{")]
    serving = next(x for x in lines if x["msg"] == "serving")
    assert serving["level"] == "info" and serving["embedded"] is True and serving["port"] == gateway.port


async def test_asyncpg_copy_binary_and_text(gateway):
    """asyncpg's COPY helpers: copy_records_to_table (binary COPY FROM),
    copy_from_query (text COPY TO), and a binary COPY TO / FROM round trip
    of every type; psycopg's binary COPY too."""
    import datetime as dt
    import decimal
    import io
    import uuid

    a = await asyncpg.connect(host="127.0.0.1", port=gateway.port, user="txngate", database="txngate")
    try:
        columns = ("id bigint, k int, sm smallint, v double precision, r real, n numeric(10,2), t text, vc varchar(5), "
                   "b boolean, d date, ts timestamp, tz timestamptz, by bytea, u uuid, j jsonb")
        await a.execute(f"CREATE TABLE cp_a ({columns})")
        await a.execute(f"CREATE TABLE cp_b ({columns})")
        utc = dt.timezone.utc
        records = [(i, i % 7, i % 3, i * 0.5, 1.5, decimal.Decimal(i) / 4, f"t{i}", "ab", i % 2 == 0, dt.date(2024, 1, 2) + dt.timedelta(days=i),
                    dt.datetime(2024, 1, 2, 3, 4, 5), dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=utc), bytes([i % 256, 1]), uuid.UUID(int=i), '{"a": 1}')
                   for i in range(30000)] + [(None,) * 15]
        assert await a.copy_records_to_table("cp_a", records=records) == "COPY 30001"
        got = await a.fetch("SELECT * FROM cp_a WHERE id IN (0, 29999) OR id IS NULL ORDER BY id")
        assert [tuple(r) for r in got] == [records[0], records[29999], records[30000]]
        out = io.BytesIO()
        assert await a.copy_from_query("SELECT id, t, b FROM cp_a WHERE id < 3 ORDER BY id", output=out) == "COPY 3"
        assert out.getvalue() == b"0\tt0\tt\n1\tt1\tf\n2\tt2\tt\n"
        binary = io.BytesIO()
        assert await a.copy_from_table("cp_a", output=binary, format="binary") == "COPY 30001"
        assert binary.getvalue().startswith(b"PGCOPY\n\xff\r\n\x00") and binary.getvalue().endswith(b"\xff\xff")
        binary.seek(0)
        assert await a.copy_to_table("cp_b", source=binary, format="binary") == "COPY 30001"
        assert await a.fetchval("SELECT count(*) FROM (SELECT * FROM cp_a EXCEPT ALL SELECT * FROM cp_b) x") == 0
        assert await a.fetchval("SELECT count(*) FROM cp_b") == 30001
        with pytest.raises(asyncpg.exceptions.BadCopyFileFormatError):
            await a.copy_to_table("cp_b", source=io.BytesIO(b"not a copy file at all"), format="binary")
        assert await a.fetchval("SELECT count(*) FROM cp_b") == 30001, "a failed COPY writes nothing"
    finally:
        await a.close()
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        with conn.cursor().copy("COPY (SELECT id, t, u FROM cp_a WHERE id < 2 ORDER BY id) TO STDOUT (FORMAT binary)") as copy:
            copy.set_types(["bigint", "text", "uuid"])
            assert list(copy.rows()) == [(0, "t0", uuid.UUID(int=0)), (1, "t1", uuid.UUID(int=1))]


def test_psycopg_pipeline_executemany_and_serialization_retry(gateway):
    """executemany in pipeline mode; and the 40001 retry loop applications
    write: two transactions that each read what the other writes (write
    skew) cannot both commit, and the loser succeeds on retry."""
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE pl (id int, v text)")
        conn.execute("CREATE TABLE oncall (doctor text, on_call boolean)")
        conn.execute("INSERT INTO oncall VALUES ('alice', true), ('bob', true)")
        with conn.pipeline():
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO pl VALUES (%s, %s)", [(i, f"v{i}") for i in range(200)])
        assert conn.execute("SELECT count(*), sum(id) FROM pl").fetchone() == (200, 199 * 200 // 2)

    def go_off_call(conn, doctor: str, before_commit=None) -> int:
        attempts = 0
        while True:
            attempts += 1
            try:
                with conn.transaction():
                    on_call = conn.execute("SELECT count(*) FROM oncall WHERE on_call").fetchone()[0]
                    if on_call >= 2:
                        conn.execute("UPDATE oncall SET on_call = false WHERE doctor = %s", (doctor,))
                    if before_commit is not None:
                        before_commit()
                        before_commit = None
                return attempts
            except psycopg.errors.SerializationFailure:
                continue

    with psycopg.connect(gateway.dsn(), autocommit=True) as a, psycopg.connect(gateway.dsn(), autocommit=True) as b:
        # b's whole transaction runs inside a's, between a's read and a's commit
        attempts_b = []
        attempts_a = go_off_call(a, "alice", before_commit=lambda: attempts_b.append(go_off_call(b, "bob")))
        assert attempts_b == [1] and attempts_a == 2, "a read what b wrote: a's first commit must fail with 40001"
        assert a.execute("SELECT doctor FROM oncall WHERE on_call").fetchall() == [("alice",)]


async def test_array_columns_through_drivers(gateway):
    """One-dimensional array columns through asyncpg (binary parameters and
    results, binary COPY FROM) and psycopg (text results, list parameters,
    text COPY): values, NULL elements and empty arrays round-trip."""
    import uuid

    a = await asyncpg.connect(host="127.0.0.1", port=gateway.port, user="txngate", database="txngate")
    try:
        await a.execute("CREATE TABLE arr_drv (id int, ints int[], words text[], ids uuid[], prices numeric(6,2)[])")
        rows = [(1, [1, None, 3], ["a b", "", None, "{x}"], [uuid.UUID(int=5)], None), (2, [], [], [], [])]
        await a.executemany("INSERT INTO arr_drv VALUES ($1, $2, $3, $4, $5)", rows)
        got = await a.fetch("SELECT * FROM arr_drv ORDER BY id")
        assert [tuple(r) for r in got] == rows
        assert await a.fetchval("SELECT id FROM arr_drv WHERE ints = $1", [1, None, 3]) == 1  # array equality: NULL elements are equal
        assert await a.fetchval("SELECT id FROM arr_drv WHERE 'a b' = ANY(words)") == 1
        records = [(i, [i, i + 1], [f"w{i}"], None, None) for i in range(3, 1003)]
        assert await a.copy_records_to_table("arr_drv", records=records) == "COPY 1000"
        assert await a.fetchval("SELECT sum(ints[2]) FROM arr_drv WHERE id >= 3") == sum(i + 1 for i in range(3, 1003))
    finally:
        await a.close()
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        assert conn.execute("SELECT words FROM arr_drv WHERE id = 1").fetchone() == (["a b", "", None, "{x}"],)
        conn.execute("INSERT INTO arr_drv (id, ints) VALUES (%s, %s)", (2000, [7, 8]))
        assert conn.execute("SELECT ints, cardinality(ints) FROM arr_drv WHERE id = 2000").fetchone() == ([7, 8], 2)
        with conn.cursor().copy("COPY arr_drv (id, words) FROM STDIN") as copy:
            # COPY's escapes, then the array literal's (as PostgreSQL reads them)
            copy.write('3000\t{"tab\\\\\\\\there",NULL}\n3001\t{"tab\\\\there"}\n')
        assert conn.execute("SELECT words FROM arr_drv WHERE id >= 3000 ORDER BY id").fetchall() == [(["tab\\there", None],), (["tabthere"],)]
        with conn.cursor().copy("COPY (SELECT id, ints, words FROM arr_drv WHERE id IN (1, 2) ORDER BY id) TO STDOUT") as copy:
            assert b"".join(copy) == b'1\t{1,NULL,3}\t{"a b","",NULL,"{x}"}\n2\t{}\t{}\n'


async def test_jsonb_through_drivers(gateway):
    """jsonb through asyncpg (binary results with jsonb's version byte,
    json codecs, operator parameters typed text and text[]) and psycopg
    (``Jsonb`` parameters, dicts back, COPY): stored canonically, compared
    by value, and bad JSON refused with 22P02."""
    import json

    from psycopg.types.json import Jsonb

    a = await asyncpg.connect(host="127.0.0.1", port=gateway.port, user="txngate", database="txngate")
    try:
        await a.execute("CREATE TABLE js_drv (id int PRIMARY KEY, doc jsonb)")
        await a.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")
        await a.executemany("INSERT INTO js_drv VALUES ($1, $2)", [(1, {"b": [1, 2], "a": {"c": None}}), (2, {"b": "x"})])
        assert await a.fetchval("SELECT doc FROM js_drv WHERE id = 1") == {"a": {"c": None}, "b": [1, 2]}
        assert await a.fetchval("SELECT doc->$1 FROM js_drv WHERE id = 1", "b") == [1, 2]
        assert await a.fetchval("SELECT doc #>> $1 FROM js_drv WHERE id = 1", ["b", "1"]) == "2"
        assert await a.fetchval("SELECT id FROM js_drv WHERE doc @> $1", {"b": "x"}) == 2
        assert await a.fetchval("SELECT jsonb_build_object('k', doc->'b') FROM js_drv WHERE id = 2") == {"k": "x"}
        with pytest.raises(asyncpg.InvalidTextRepresentationError):
            await a.execute("INSERT INTO js_drv VALUES (3, '{\"unterminated\": ')")
    finally:
        await a.close()
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        conn.execute("INSERT INTO js_drv VALUES (%s, %s)", (4, Jsonb({"z": 1, "n": 1.5, "z2": [True, None]})))
        assert conn.execute("SELECT doc, doc::text FROM js_drv WHERE id = 4").fetchone() == (
            {"z": 1, "n": 1.5, "z2": [True, None]}, '{"n": 1.5, "z": 1, "z2": [true, null]}')
        assert conn.execute("SELECT id FROM js_drv WHERE doc ? %s ORDER BY id", ("b",)).fetchall() == [(1,), (2,)]
        assert conn.execute("SELECT count(*) FROM js_drv WHERE doc = %s", (Jsonb({"b": "x"}),)).fetchone() == (1,)
        with conn.cursor().copy("COPY js_drv FROM STDIN") as copy:
            copy.write('5\t{"b":  2, "a": 1}\n')
        assert conn.execute("SELECT doc::text FROM js_drv WHERE id = 5").fetchone() == ('{"a": 1, "b": 2}',)
