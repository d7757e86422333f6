"""DDL, DML and COPY features at the Session API: RETURNING, ON CONFLICT,
constraints, serial, schemas, views, materialized views, ALTER TABLE,
CREATE TABLE AS, implicit and explicit transactions with DDL, EXPLAIN,
statement_timeout and cancellation."""

from __future__ import annotations

import asyncio
import decimal

import pytest

from planner.copy import BufferSink, BytesSource
from planner.errors import SqlError
from tests.planner.helpers import one, rows, sqlstate


async def test_returning_and_on_conflict(db):
    s = db.session()
    await s.execute("CREATE TABLE kv (k integer PRIMARY KEY, v text, n integer DEFAULT 0)")
    r = await one(s, "INSERT INTO kv (k, v) VALUES (1, 'a'), (2, 'b') RETURNING k, upper(v) AS big, n")
    assert r.tag == "INSERT 0 2" and r.rows == [(1, "A", 0), (2, "B", 0)]
    assert [c[0] for c in r.columns] == ["k", "big", "n"]
    r = await one(s, "INSERT INTO kv VALUES (2, 'x'), (3, 'c') ON CONFLICT DO NOTHING RETURNING k")
    assert r.tag == "INSERT 0 1" and r.rows == [(3,)]
    r = await one(s, "INSERT INTO kv AS t VALUES (1, 'z', 5), (4, 'd', 1) ON CONFLICT (k) DO UPDATE SET v = t.v || excluded.v, n = t.n + excluded.n RETURNING *")
    assert r.tag == "INSERT 0 2"
    assert sorted(r.rows) == [(1, "az", 5), (4, "d", 1)]
    r = await one(s, "INSERT INTO kv VALUES (1, 'q') ON CONFLICT (k) DO UPDATE SET v = excluded.v WHERE kv.n > 100")
    assert r.tag == "INSERT 0 0"
    assert await sqlstate(s, "INSERT INTO kv VALUES (5, 'a'), (5, 'b') ON CONFLICT (k) DO UPDATE SET v = excluded.v") == "21000"
    assert await sqlstate(s, "INSERT INTO kv VALUES (5, 'a') ON CONFLICT (v) DO NOTHING") == "42P10"
    assert await rows(s, "SELECT k, v, n FROM kv ORDER BY k") == [(1, "az", 5), (2, "b", 0), (3, "c", 0), (4, "d", 1)]
    r = await one(s, "UPDATE kv SET n = n + 10 WHERE k >= 3 RETURNING k, n")
    assert sorted(r.rows) == [(3, 10), (4, 11)] and r.tag == "UPDATE 2"
    r = await one(s, "DELETE FROM kv WHERE v = 'b' RETURNING *")
    assert r.rows == [(2, "b", 0)] and r.tag == "DELETE 1"


async def test_constraints_serial_and_types(db):
    s = db.session()
    await s.execute(
        "CREATE TABLE c (id serial PRIMARY KEY, email varchar(10) UNIQUE, code char(3), qty integer CHECK (qty >= 0),"
        " CONSTRAINT pair CHECK (qty < 100 OR code IS NOT NULL))"
    )
    await s.execute("INSERT INTO c (email, code, qty) VALUES ('a@x', 'ab', 1), ('b@x', NULL, 2)")
    await s.execute("INSERT INTO c (email, qty) VALUES ('c@x', 3)")
    # char(n) is stored and printed padded, and measured and compared without its padding
    assert await rows(s, "SELECT max(code), array_agg(code ORDER BY id), string_agg(code, ',') FROM c") == [("ab ", ["ab ", None, None], "ab")]
    assert await rows(s, "SELECT id, email, code, length(code), octet_length(code), code = 'ab', code || '!' FROM c ORDER BY id") == [
        (1, "a@x", "ab ", 2, 3, True, "ab!"), (2, "b@x", None, None, None, None, None), (3, "c@x", None, None, None, None, None)
    ]
    assert await sqlstate(s, "INSERT INTO c (email, qty) VALUES ('a@x', 1)") == "23505"
    assert await sqlstate(s, "INSERT INTO c (email, qty) VALUES ('d@x', -1)") == "23514"
    assert await sqlstate(s, "INSERT INTO c (email, qty) VALUES ('d@x', 500)") == "23514"
    assert await sqlstate(s, "INSERT INTO c (email, qty) VALUES ('much-too-long@x', 1)") == "22001"
    assert await sqlstate(s, "UPDATE c SET email = 'b@x' WHERE id = 1") == "23505"
    assert await sqlstate(s, "INSERT INTO c (id, qty) VALUES (99999999999, 1)") == "22003"
    # NULLs never conflict in a UNIQUE column
    await s.execute("INSERT INTO c (email, qty) VALUES (NULL, 1), (NULL, 2)")
    assert await rows(s, "SELECT count(*) FROM c") == [(5,)]


async def test_update_from_delete_using_and_duplicates(db):
    s = db.session()
    await s.execute("CREATE TABLE d (a int, b text); CREATE TABLE m (a int, label text)")
    await s.execute("INSERT INTO d VALUES (1, 'x'), (1, 'x'), (2, 'y'), (3, 'z'); INSERT INTO m VALUES (1, 'one'), (1, 'uno'), (3, 'three')")
    r = await one(s, "UPDATE d SET b = m.label FROM m WHERE d.a = m.a AND m.label <> 'uno'")
    assert r.tag == "UPDATE 3"
    assert await rows(s, "SELECT a, b FROM d ORDER BY a, b") == [(1, "one"), (1, "one"), (2, "y"), (3, "three")]
    r = await one(s, "DELETE FROM d USING m WHERE d.a = m.a")
    assert r.tag == "DELETE 3"
    assert await rows(s, "SELECT a, b FROM d") == [(2, "y")]
    r = await one(s, "TRUNCATE d")
    assert r.tag == "TRUNCATE TABLE"
    assert await rows(s, "SELECT count(*) FROM d") == [(0,)]


async def test_implicit_transaction_rolls_back_the_whole_string(db):
    s = db.session()
    await s.execute("CREATE TABLE i (x int PRIMARY KEY)")
    assert await sqlstate(s, "INSERT INTO i VALUES (1); INSERT INTO i VALUES (2); SELECT 1/0") == "22012"
    assert await rows(s, "SELECT count(*) FROM i") == [(0,)]
    assert s.status == "I"
    results = await s.execute("INSERT INTO i VALUES (1); UPDATE i SET x = x + 1; SELECT x FROM i")
    assert [r.tag for r in results] == ["INSERT 0 1", "UPDATE 1", "SELECT 1"] and results[-1].rows == [(2,)]


async def test_ddl_inside_transactions(db):
    s = db.session()
    await s.execute("BEGIN; CREATE TABLE tx1 (a int); INSERT INTO tx1 VALUES (1), (2)")
    assert await rows(s, "SELECT sum(a) FROM tx1") == [(3,)]
    other = db.session()
    assert await sqlstate(other, "SELECT * FROM tx1") == "42P01"  # not visible before COMMIT
    await s.execute("ROLLBACK")
    assert await sqlstate(s, "SELECT * FROM tx1") == "42P01"
    await s.execute("BEGIN; CREATE TABLE tx1 (a int); INSERT INTO tx1 VALUES (7); COMMIT")
    assert await rows(other, "SELECT a FROM tx1") == [(7,)]
    await s.execute("BEGIN; DROP TABLE tx1; CREATE TABLE tx1 (b text); INSERT INTO tx1 VALUES ('new'); COMMIT")
    assert await rows(other, "SELECT * FROM tx1") == [("new",)]


async def test_schemas_views_and_materialized_views(db):
    s = db.session()
    await s.execute("CREATE SCHEMA app; CREATE TABLE app.items (id int PRIMARY KEY, price numeric(8,2))")
    await s.execute("INSERT INTO app.items VALUES (1, 2.50), (2, 4.00)")
    assert await sqlstate(s, "SELECT * FROM items") == "42P01"
    assert await sqlstate(s, "SELECT * FROM nope.items") == "3F000"
    await s.execute("SET search_path = app, public")
    assert await rows(s, "SELECT sum(i.price) FROM items i") == [(decimal.Decimal("6.50"),)]
    await s.execute("CREATE VIEW public.cheap AS SELECT id, price FROM app.items WHERE price < 3")
    await s.execute("CREATE VIEW public.cheap_ids (ident) AS SELECT id FROM cheap")
    await s.execute("CREATE MATERIALIZED VIEW public.totals AS SELECT count(*) AS n, sum(price) AS total FROM app.items")
    assert await rows(s, "SELECT ident FROM cheap_ids") == [(1,)]
    await s.execute("INSERT INTO app.items VALUES (3, 1.00)")
    assert await rows(s, "SELECT ident FROM cheap_ids ORDER BY 1") == [(1,), (3,)]  # views are live
    assert await rows(s, "SELECT n, total FROM totals") == [(2, decimal.Decimal("6.50"))]  # matviews are not
    assert (await one(s, "REFRESH MATERIALIZED VIEW totals")).tag == "REFRESH MATERIALIZED VIEW"
    assert await rows(s, "SELECT n, total FROM totals") == [(3, decimal.Decimal("7.50"))]
    assert await sqlstate(s, "INSERT INTO totals VALUES (1, 1)") == "42809"
    assert await sqlstate(s, "DROP TABLE app.items") == "2BP01"
    assert await sqlstate(s, "DROP VIEW totals") == "42809"
    r = await one(s, "DROP SCHEMA app CASCADE")
    assert r.tag == "DROP SCHEMA"
    assert await sqlstate(s, "SELECT * FROM cheap") == "42P01"
    assert await sqlstate(s, "SELECT * FROM totals") == "42P01"


async def test_alter_table_and_create_table_as(db):
    s = db.session()
    await s.execute("CREATE TABLE al (id int PRIMARY KEY, v text); INSERT INTO al VALUES (1, 'a'), (2, 'b')")
    await s.execute("ALTER TABLE al ADD COLUMN n integer DEFAULT 7")
    assert await rows(s, "SELECT id, v, n FROM al ORDER BY id") == [(1, "a", 7), (2, "b", 7)]
    await s.execute("ALTER TABLE al RENAME COLUMN v TO label")
    await s.execute("ALTER TABLE al DROP COLUMN n")
    await s.execute("ALTER TABLE al RENAME TO renamed")
    assert await rows(s, "SELECT * FROM renamed ORDER BY id") == [(1, "a"), (2, "b")]
    assert await sqlstate(s, "INSERT INTO renamed VALUES (1, 'dup')") == "23505"  # the key survived
    assert await sqlstate(s, "ALTER TABLE renamed ALTER COLUMN label SET NOT NULL; INSERT INTO renamed VALUES (3, NULL)") == "23502"
    r = await one(s, "CREATE TABLE copy1 AS SELECT id * 10 AS id10, label FROM renamed")
    assert r.tag == "SELECT 2"
    r = await one(s, "SELECT id, label INTO copy2 FROM renamed WHERE id = 1")
    assert r.tag == "SELECT 1"
    assert await rows(s, "SELECT * FROM copy1 ORDER BY 1") == [(10, "a"), (20, "b")]
    assert await rows(s, "SELECT * FROM copy2") == [(1, "a")]
    assert await sqlstate(s, "CREATE TABLE copy1 AS SELECT 1") == "42P07"


async def test_copy_text_and_csv(db):
    s = db.session()
    await s.execute("CREATE TABLE cp (id int PRIMARY KEY, name text, ok boolean, at timestamp, b bytea, amt numeric(6,2))")
    data = "1\tann\tt\t2024-01-02 03:04:05\t\\\\x0102\t1.50\n2\tb\\tc\\\\d\tf\t\\N\t\\N\t\\N\n"
    r = (await s.execute("COPY cp FROM STDIN", copy_source=BytesSource([data[:7], data[7:]])))[-1]
    assert r.tag == "COPY 2"
    got = await rows(s, "SELECT id, name, ok, b, amt FROM cp ORDER BY id")
    assert got == [(1, "ann", True, b"\x01\x02", decimal.Decimal("1.50")), (2, "b\tc\\d", False, None, None)]
    csv = 'id,name,ok\n3,"quoted, ""name""",true\n4,,false\n5,"",true\n'
    r = (await s.execute("COPY cp (id, name, ok) FROM STDIN WITH (FORMAT csv, HEADER true)", copy_source=BytesSource(csv)))[-1]
    assert r.tag == "COPY 3"
    assert await rows(s, "SELECT id, name FROM cp WHERE id >= 3 ORDER BY id") == [(3, 'quoted, "name"'), (4, None), (5, "")]
    sink = BufferSink()
    r = (await s.execute("COPY (SELECT id, name, ok FROM cp WHERE id IN (2, 3, 4, 5) ORDER BY id) TO STDOUT WITH (FORMAT csv)", copy_sink=sink))[-1]
    assert r.tag == "COPY 4"
    assert sink.data.decode() == '2,b\tc\\d,f\n3,"quoted, ""name""",t\n4,,f\n5,"",t\n'
    sink = BufferSink()
    await s.execute("COPY cp (id, name, at, b) TO STDOUT", copy_sink=sink)
    lines = sorted(sink.data.decode().splitlines())
    assert lines[0] == "1\tann\t2024-01-02 03:04:05\t\\\\x0102"
    assert lines[1] == "2\tb\\tc\\\\d\t\\N\t\\N"
    # A bad row fails the whole COPY: nothing written.
    with pytest.raises(SqlError) as info:
        await s.execute("COPY cp (id, name) FROM STDIN", copy_source=BytesSource("10\tok\nxx\tbad\n"))
    assert info.value.sqlstate == "22P02"
    with pytest.raises(SqlError) as info:
        await s.execute("COPY cp (id, name) FROM STDIN", copy_source=BytesSource("11\tok\n1\tdup\n"))
    assert info.value.sqlstate == "23505"
    assert await rows(s, "SELECT count(*) FROM cp") == [(5,)]


async def test_array_columns(db):
    """One-dimensional arrays of scalar types as columns: literals in every
    place PostgreSQL types them by their column (VALUES, SET, DEFAULT, ON
    CONFLICT, comparisons), element checks, keys, COPY in and out, and the
    errors for what is not an array or has more dimensions."""
    s = db.session()
    await s.execute("CREATE TABLE ar (id int PRIMARY KEY, tags varchar(4)[] NOT NULL DEFAULT '{}', nums int[], "
                    "at timestamptz[], ivs interval[], raw bytea[], pair int[] UNIQUE)")
    await s.execute("INSERT INTO ar (id, tags, nums, at, ivs, raw) VALUES (1, '{a,\"b c\",NULL}', '{1,NULL,3}', "
                    "'{2024-01-02 03:04:05+02}', '{1 day,NULL}', '{\"\\\\x0102\"}'), (2, DEFAULT, ARRAY[4, 5], NULL, '{}', NULL)")
    r = await one(s, "SELECT * FROM ar ORDER BY id")
    assert [t for _n, t in r.columns] == ["integer", "varchar(4)[]", "integer[]", "timestamptz[]", "interval[]", "bytea[]", "integer[]"]
    (one_, two) = r.rows
    assert one_[1:3] == (["a", "b c", None], [1, None, 3]) and one_[5] == [b"\x01\x02"]
    assert str(one_[3][0]) == "2024-01-02 01:04:05+00:00" and one_[4][1] is None
    assert two[1:3] == ([], [4, 5]) and two[3] is None and two[4] == []
    assert await rows(s, "SELECT id FROM ar WHERE nums @> '{3}' OR nums = '{4,5}' ORDER BY id") == [(1,), (2,)]
    assert await rows(s, "SELECT id FROM ar WHERE 'b c' = ANY(tags)") == [(1,)]
    await s.execute("UPDATE ar SET nums = nums || '{6}', tags = '{x}' WHERE id = 2")
    assert await rows(s, "SELECT nums, tags FROM ar WHERE id = 2") == [([4, 5, 6], ["x"])]
    await s.execute("INSERT INTO ar (id, nums) VALUES (2, '{9}') ON CONFLICT (id) DO UPDATE SET nums = '{7,8}'")
    assert await rows(s, "SELECT nums FROM ar WHERE id = 2") == [([7, 8],)]
    # elements are checked like scalars; an array itself may be a key
    assert await sqlstate(s, "INSERT INTO ar (id, tags) VALUES (3, '{toolong}')") == "22001"
    assert await sqlstate(s, "INSERT INTO ar (id, tags) VALUES (3, NULL)") == "23502"
    assert await sqlstate(s, "INSERT INTO ar (id, nums) VALUES (3, '{1,x}')") == "22P02"
    assert await sqlstate(s, "INSERT INTO ar (id, nums) VALUES (3, '{1,2')") == "22P02"
    assert await sqlstate(s, "INSERT INTO ar (id, nums) VALUES (3, '{{1},{2}}')") == "0A000"
    await s.execute("CREATE TABLE ar2 (m int[][])")  # PostgreSQL's int[]: its dimensions are not enforced
    assert await sqlstate(s, "INSERT INTO ar2 VALUES ('{{1},{2}}')") == "0A000"  # a value of two is refused
    assert await sqlstate(s, "CREATE TABLE ar3 AS SELECT array_agg(ARRAY[id]) AS m FROM ar") == "0A000"  # computed, likewise
    # a view's column of two dimensions, which the binder cannot see: refused, not unnested by its rows
    await s.execute("CREATE VIEW ar_v AS SELECT array_agg(ARRAY[id] ORDER BY id) AS m FROM ar")
    assert await sqlstate(s, "SELECT unnest(m) FROM ar_v") == "0A000"
    assert await sqlstate(s, "SELECT x FROM ar_v, unnest(ar_v.m) AS x") == "0A000"
    assert await rows(s, "SELECT unnest(nums) FROM ar WHERE id = 2") == [(7,), (8,)]  # one dimension: unnested
    # a slice of a multidimensional array's second dimension: refused, not the first dimension's slice
    assert await sqlstate(s, "SELECT ('{{1,2,3},{4,5,6}}'::int[])[1:2][2]") == "0A000"
    await s.execute("INSERT INTO ar (id, pair) VALUES (10, '{1,NULL}')")
    with pytest.raises(SqlError) as info:
        await s.execute("INSERT INTO ar (id, pair) VALUES (11, ARRAY[1, NULL])")
    assert info.value.sqlstate == "23505" and info.value.detail == "Key (pair)=({1,NULL}) already exists."
    # COPY: PostgreSQL's array text inside COPY's own escaping, both ways
    data = '20\t{"x,y","q\\\\"z"}\t{1,2}\n21\t{}\t\\N\n'
    assert (await s.execute("COPY ar (id, tags, nums) FROM STDIN", copy_source=BytesSource(data)))[-1].tag == "COPY 2"
    assert await rows(s, "SELECT tags, nums FROM ar WHERE id >= 20 ORDER BY id") == [(["x,y", 'q"z'], [1, 2]), ([], None)]
    sink = BufferSink()
    await s.execute("COPY (SELECT id, tags, nums FROM ar WHERE id >= 20 ORDER BY id) TO STDOUT", copy_sink=sink)
    assert sink.data.decode() == data
    sink = BufferSink()
    await s.execute("COPY (SELECT tags FROM ar WHERE id = 20) TO STDOUT (FORMAT csv)", copy_sink=sink)
    assert sink.data.decode() == '"{""x,y"",""q\\""z""}"\n'
    with pytest.raises(SqlError) as info:
        await s.execute("COPY ar (id, nums) FROM STDIN", copy_source=BytesSource("30\t1,2\n"))
    assert info.value.sqlstate == "22P02"
    # arrays survive compaction-free reads through the snapshot cache and a materialized view
    await s.execute("CREATE MATERIALIZED VIEW ar_mv AS SELECT id, nums FROM ar WHERE nums IS NOT NULL")
    assert await rows(s, "SELECT nums FROM ar_mv ORDER BY id") == [([1, None, 3],), ([7, 8],), ([1, 2],)]


async def test_explain_names_class_timestamps_and_shards(db):
    s = db.session()
    await s.execute("CREATE TABLE ex (a int); INSERT INTO ex VALUES (1)")
    r = await one(s, "EXPLAIN SELECT * FROM ex")
    text = "\n".join(x[0] for x in r.rows)
    assert r.columns == [("QUERY PLAN", "text")]
    assert "read-only" in text and "read_ts=" in text and "DuckDB" in text and "public.ex" in text and "1 rows" in text
    text = "\n".join(x[0] for x in (await one(s, "EXPLAIN UPDATE ex SET a = 2")).rows)
    assert "read-then-write" in text and "write_ts>=" in text


async def test_statement_timeout_and_cancel(db):
    s = db.session()
    slow = "SELECT count(*) FROM generate_series(0, 299999999::bigint) a(x) WHERE (x * 7919) % 104729 = 3 AND md5(x::text) < 'z'"
    await s.execute("SET statement_timeout = '200ms'")
    assert await sqlstate(s, slow) == "57014"
    await s.execute("RESET statement_timeout")
    task = asyncio.ensure_future(s.execute(slow))
    done, _ = await asyncio.wait({task}, timeout=0.3)
    assert not done
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await rows(s, "SELECT 41 + 1") == [(42,)]  # the session carries on


async def test_max_statement_memory_is_53200_and_the_session_goes_on(db):
    s = db.session()
    await s.execute("CREATE TABLE mem (id integer, pad text)")
    await s.execute("INSERT INTO mem SELECT g, repeat('x', 100) FROM generate_series(1, 20000) g")
    await s.execute("SET txngate.max_statement_memory = '1MB'")
    assert await rows(s, "SHOW txngate.max_statement_memory") == [(str(1 << 20),)]
    for big in ("SELECT * FROM mem", "SELECT '" + "y" * (2 << 20) + "' AS t"):  # a result, a statement's text
        with pytest.raises(SqlError) as info:
            await s.execute(big)
        assert info.value.sqlstate == "53200" and "max_statement_memory" in info.value.detail
    assert await rows(s, "SELECT count(*), max(length(pad)) FROM mem") == [(20000, 100)]  # small answers still come
    await s.execute("BEGIN")
    assert await sqlstate(s, "SELECT * FROM mem") == "53200"
    assert await sqlstate(s, "SELECT 1") == "25P02"  # as any error, it aborts the transaction
    await s.execute("ROLLBACK")
    await s.execute("RESET txngate.max_statement_memory")
    assert len(await rows(s, "SELECT * FROM mem")) == 20000
    assert await sqlstate(s, "SET txngate.max_statement_memory = 'lots'") == "22023"


async def test_settings_errors(db):
    s = db.session()
    assert await sqlstate(s, "SET no_such_thing = 1") == "42704"
    await s.execute("SET my.custom = 'x'")
    assert await rows(s, "SHOW my.custom") == [("x",)]
    assert await sqlstate(s, "SET txngate.engine = 'gpu'") == "22023"
    assert await sqlstate(s, "SET statement_timeout = 'soon'") == "22023"
    await s.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
    assert await rows(s, "SHOW transaction isolation level") == [("serializable",)]


async def test_bytea_and_uuid_text_input(db):
    s = db.session()
    await s.execute("CREATE TABLE bu (b bytea, u uuid)")
    await s.execute("INSERT INTO bu VALUES ('\\x0102ff', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), ('plain', NULL)")
    got = await rows(s, "SELECT b FROM bu ORDER BY b")
    assert got == [(b"\x01\x02\xff",), (b"plain",)]
    assert await sqlstate(s, "INSERT INTO bu VALUES ('\\xzz', NULL)") == "22023"  # PostgreSQL's: invalid hexadecimal digit
    assert await sqlstate(s, "INSERT INTO bu VALUES (NULL, 'not-a-uuid')") == "22P02"


async def test_point_lookups_agree_with_scans(db):
    s = db.session()
    await s.execute("CREATE TABLE pk (id bigint PRIMARY KEY, v text, n numeric(6,2))")
    await s.execute("INSERT INTO pk SELECT x, 'v' || x, x / 4.0 FROM generate_series(1, 500) AS g(x)")
    forms = [
        ("SELECT * FROM pk WHERE id = 7", None),
        ("SELECT v, id FROM pk p WHERE p.id = $1", [8]),
        ("SELECT v FROM pk WHERE $1 = id AND v LIKE 'v%'", ["9"]),
        ("SELECT count(*) FROM pk WHERE id = 10", None),
        ("SELECT * FROM pk WHERE id = 100000", None),
    ]
    for sql, params in forms:
        fast = await one(s, sql, params)
        slow = await one(s, sql.replace("WHERE", "WHERE id + 0 > 0 AND"), params)
        assert (fast.rows, fast.columns) == (slow.rows, slow.columns), sql
    await s.execute("UPDATE pk SET v = 'changed' WHERE id = 7")  # the index follows new batches
    assert await rows(s, "SELECT v FROM pk WHERE id = 7") == [("changed",)]
    await s.execute("BEGIN; DELETE FROM pk WHERE id = 8")
    assert await rows(s, "SELECT v FROM pk WHERE id = 8") == []  # own writes win over the index
    await s.execute("ROLLBACK")
    assert await rows(s, "SELECT v FROM pk WHERE id = 8") == [("v8",)]


async def test_cursors_read_lazily_and_keep_a_bounded_window(db, monkeypatch):
    import planner.cursors

    monkeypatch.setattr(planner.cursors, "KEEP_BYTES", 64 << 10)
    s = db.session()
    await s.execute("BEGIN")
    await s.execute("DECLARE c CURSOR FOR SELECT i FROM generate_series(1, 300000) t(i) ORDER BY i")
    cursor = s.cursors.open["c"]
    got = []
    for _ in range(40):
        got += [r[0] for r in (await s.execute("FETCH 1000 FROM c"))[-1].rows]
    assert got == list(range(1, 40001))
    assert cursor.pulled < 300000, "FETCH read the whole result"
    assert cursor.buffer.num_rows < 30000, "rows behind the position are kept"
    assert (await s.execute("FETCH BACKWARD 3 FROM c"))[-1].rows == [(39999,), (39998,), (39997,)]  # still in the window
    with pytest.raises(SqlError) as info:
        await s.execute("FETCH ABSOLUTE 5 FROM c")
    assert info.value.sqlstate == "55000"
    await s.execute("ROLLBACK")
    await s.execute("BEGIN")
    await s.execute("DECLARE s SCROLL CURSOR FOR SELECT i FROM generate_series(1, 300000) t(i) ORDER BY i")
    await s.execute("MOVE 100000 FROM s")
    assert (await s.execute("FETCH ABSOLUTE 5 FROM s"))[-1].rows == [(5,)]  # SCROLL keeps every row read
    assert (await s.execute("FETCH ABSOLUTE -1 FROM s"))[-1].rows == [(300000,)]
    stream = s.cursors.open["s"].stream
    await s.execute("DECLARE t CURSOR FOR SELECT i FROM generate_series(1, 300000) t(i)")
    lazy = s.cursors.open["t"].stream
    assert lazy is not None and not lazy.done
    await s.execute("COMMIT")
    assert stream is None and lazy.done and not s.cursors.open, "the transaction's cursors and their queries are closed"


async def test_json_of_a_missing_row_not_told_apart_is_refused(db):
    """row_to_json / to_json of an outer join's whole row, where no column of it is known never NULL (no key, no
    NOT NULL column, no column the join compares as it is): refused (0A000), not written as a row of NULLs, which
    PostgreSQL's NULL for the missing row is not; with a key it is NULL."""
    s = db.session()
    await s.execute("CREATE TABLE mra (id int, t text)")
    await s.execute("CREATE TABLE mrk (id int PRIMARY KEY, t text)")
    await s.execute("INSERT INTO mra VALUES (1, 'a'), (2, NULL)")
    await s.execute("INSERT INTO mrk VALUES (1, 'a')")
    for sql in ("SELECT a.id, row_to_json(b) FROM mra a LEFT JOIN mra b ON a.id = b.id + 1",
                "SELECT a.id, to_json(b) FROM mra a LEFT JOIN mra b ON a.id = b.id + 1",
                "SELECT json_agg(b) FROM mra a LEFT JOIN mra b ON a.id = b.id + 1"):
        assert await sqlstate(s, sql) == "0A000", sql
    assert await rows(s, "SELECT a.id, row_to_json(b) FROM mra a LEFT JOIN mrk b ON a.id = b.id + 1 ORDER BY 1") == [(1, None), (2, '{"id":1,"t":"a"}')]


async def test_copy_into_names_holding_a_double_quote(db):
    """COPY into a table and columns whose names hold a double quote: the SQL that casts the block quotes them
    (it was 42601, an unterminated quoted identifier)."""
    s = db.session()
    await s.execute('CREATE TABLE "t""q" ("a""b" numeric(8,2), c int PRIMARY KEY, j json)')
    r = (await s.execute('COPY "t""q" FROM STDIN', copy_source=BytesSource(b"1.5\t1\t[1]\n2\t2\t\\N\n")))[-1]
    assert r.command_tag() == "COPY 2"
    assert await rows(s, 'SELECT * FROM "t""q" ORDER BY c') == [(decimal.Decimal("1.50"), 1, "[1]"), (decimal.Decimal("2.00"), 2, None)]
