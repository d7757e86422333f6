"""Parameters whose types the client declares (psycopg's binary intervals
and times, its Jsonb, Json and UUID wrappers, bytes, dates) are of those types, as in
PostgreSQL, in any expression: ``SELECT %s`` of one comes back typed so,
an interval or time in arithmetic and extract. Before, the engine read
their text for text: a binary interval came back as its raw bytes (a
wrong value), ``%s + interval '1 hour'`` was 42804, a jsonb parameter was
a string. Each answer (values and type OIDs, text and binary results)
ends on txngate as on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import uuid

import psycopg
from psycopg.types.json import Json, Jsonb

CASES = [
    ("SELECT %s", (dt.timedelta(days=1, seconds=5),)),
    ("SELECT %s::text", (dt.timedelta(days=-1, microseconds=5),)),
    ("SELECT %s + interval '1 hour'", (dt.timedelta(hours=1),)),
    ("SELECT extract(epoch FROM %s)", (dt.timedelta(days=1, seconds=5),)),
    ("SELECT %s", (dt.time(10, 20, 30, 5),)),
    ("SELECT %s::text, %s + interval '30 minutes'", (dt.time(23, 59), dt.time(1, 2))),
    ("SELECT %s", (Jsonb({"a": [1, 2]}),)),
    ("SELECT %s -> 'a', %s ->> 0", (Jsonb({"a": [1, 2]}), Json(["x", 1]))),
    ("SELECT %s", (Json([1, "x"]),)),
    ("SELECT %s", (uuid.UUID("550e8400-e29b-41d4-a716-446655440000"),)),
    ("SELECT %s = '550e8400-e29b-41d4-a716-446655440000'::uuid", (uuid.UUID("550e8400-e29b-41d4-a716-446655440000"),)),
    ("SELECT id, i, t, j FROM tp WHERE i = %s AND j @> %s ORDER BY id", (dt.timedelta(hours=2), Jsonb({"k": 1}))),
    # a bytea's length is its bytes (42883 while untyped), the days between two dates an integer (was bigint)
    ("SELECT length(%s), octet_length(%s), %s", (b"abc", b"\x00\xff", b"\x01")),
    ("SELECT %s - %s, %s + 3", (dt.date(2024, 3, 1), dt.date(2024, 2, 1), dt.date(2024, 2, 28))),
    # psycopg sends small integers' lists as int2[] (was typed int4[]), wider ones as int4[] and int8[]
    ("SELECT %s, %s, %s, %s || 3", ([1, 2, None], [1, 70000], [2 ** 40], [1, 2])),
    ("SELECT id FROM tp WHERE id = ANY(%s) ORDER BY id", ([1, 2],)),
]


def run(dsn: str, binary: bool) -> list:
    out = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS tp")
        conn.execute("CREATE TABLE tp (id int PRIMARY KEY, i interval, t time, j jsonb)")
        conn.execute("INSERT INTO tp VALUES (%s, %s, %s, %s), (%s, %s, %s, %s)",
                     (1, dt.timedelta(hours=2), dt.time(8, 0), Jsonb({"k": 1, "z": None}), 2, dt.timedelta(days=3), None, Jsonb([1])))
        for sql, params in CASES:
            cur = conn.cursor(binary=binary)
            cur.execute(sql, params)
            out.append((sql, cur.fetchall(), [d.type_code for d in cur.description]))
    return out


def test_declared_parameter_types_as_in_postgres(gateway, pg_server):
    for binary in (False, True):
        ours, theirs = run(gateway.dsn(), binary), run(pg_server.url(), binary)
        for mine, expected in zip(ours, theirs):
            assert mine == expected, (binary, mine, expected)
    assert ours[0][2] == [1186] and ours[6][2] == [3802]


def test_unconstrained_numerics_in_binary_as_in_text(gateway, pg_server):
    """A computed unconstrained numeric has the same places in a binary
    result as in a text one (it carried the engine's 10 places in binary:
    Decimal('2.5000000000') where PostgreSQL sends 2.5)."""
    sql = "SELECT 2.5::numeric, 1.5::numeric * 3, 100::numeric, 0.001::numeric, -7::numeric, %s::numeric"
    answers = []
    for dsn in (gateway.dsn(), pg_server.url()):
        with psycopg.connect(dsn, autocommit=True) as conn:
            for binary in (False, True):
                answers.append([str(v) for v in conn.cursor(binary=binary).execute(sql, ("0.5",)).fetchone()])
    assert answers[0] == answers[1] == answers[2] == answers[3] == ["2.5", "4.5", "100", "0.001", "-7", "0.5"]
